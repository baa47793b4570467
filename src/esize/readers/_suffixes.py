"""File name endings of tidy tables, apart from :mod:`esize.readers.tidy` so that
recognising a file does not import the table reader (and its csv, bz2, lzma and
datetime) when the file is a harness's JSON or text."""

from __future__ import annotations

__all__ = ["PARQUET_SUFFIXES", "SUFFIXES", "COMPRESSED", "is_table_name"]

PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")
#: File name endings of tables (also with ``.gz``, ``.bz2``, ``.xz`` after them).
SUFFIXES = (".csv", ".tsv", ".txt", *PARQUET_SUFFIXES)
COMPRESSED = (".gz", ".bz2", ".xz")
_WITH_COMPRESSION = tuple(s + c for s in SUFFIXES for c in COMPRESSED)


def is_table_name(name: str) -> bool:
    """Whether a file name ends like a table (``.csv``, ``.parquet``, ``.csv.gz`` ...)."""
    low = name.lower()
    return low.endswith(SUFFIXES) or low.endswith(_WITH_COMPRESSION)
