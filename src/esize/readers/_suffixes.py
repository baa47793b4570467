"""File name endings of the files esize reads, the one list of them (the readers,
the figures' labels and the study take theirs from here), apart from
:mod:`esize.readers.tidy` so that recognising a file does not import the table reader
(and its csv, bz2, lzma and datetime) when the file is a harness's JSON or text."""

from __future__ import annotations

from pathlib import PurePath

__all__ = ["PARQUET_SUFFIXES", "SUFFIXES", "TABLE_SUFFIXES", "COMPRESSED", "JSON_SUFFIXES",
           "DATA_SUFFIXES", "is_table_name", "is_json_name", "strip_data_suffixes"]

#: File name endings of Parquet tables.
PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")
#: File name endings of tables (also with ``.gz``, ``.bz2``, ``.xz`` after them).
SUFFIXES = (".csv", ".tsv", ".txt", *PARQUET_SUFFIXES)
COMPRESSED = (".gz", ".bz2", ".xz")
#: The same, under the name the package exports.
TABLE_SUFFIXES = SUFFIXES
_WITH_COMPRESSION = tuple(s + c for s in SUFFIXES for c in COMPRESSED)
#: File name endings of the harnesses' JSON files (gzip-compressed too).
JSON_SUFFIXES = (".json", ".json.gz")
#: Every ending a data file's name may carry: a format's and a compression's.
DATA_SUFFIXES = frozenset((*SUFFIXES, ".json", *COMPRESSED))


def is_table_name(name: str) -> bool:
    """Whether a file name ends like a table (``.csv``, ``.parquet``, ``.csv.gz`` ...).

    Examples
    --------
    >>> is_table_name("runs.CSV.gz"), is_table_name("runs.json")
    (True, False)
    """
    low = name.lower()
    return low.endswith(SUFFIXES) or low.endswith(_WITH_COMPRESSION)


def is_json_name(name: str) -> bool:
    """Whether a file name ends like a harness's JSON file (``.json``, ``.json.gz``).

    Examples
    --------
    >>> is_json_name("BENCH.JSON.gz"), is_json_name("bench.csv")
    (True, False)
    """
    return name.lower().endswith(JSON_SUFFIXES)


def strip_data_suffixes(name: str) -> str:
    """``name`` without the data endings it ends in (``fft.csv.gz`` -> ``fft``); a
    name that is nothing but an ending keeps it.

    Examples
    --------
    >>> strip_data_suffixes("runs.json.gz"), strip_data_suffixes("fft.v2.parquet")
    ('runs', 'fft.v2')
    """
    while PurePath(name).suffix.lower() in DATA_SUFFIXES and PurePath(name).stem:
        name = PurePath(name).stem
    return name
