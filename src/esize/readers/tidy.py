"""Tidy tables: CSV (plain or compressed) or Parquet, one row per measurement.

A tidy table has a column per level (``binary``, ``execution``, ...) holding the
unit labels and a column of measured values (``time``); the rows of one
lowest-level group, in table order, are its measurements. Optionally a column
(``benchmark_column``) splits the table into several benchmarks. CSV is read with
the standard library (gzip, bzip2 and xz compression recognised by their magic
numbers), Parquet with pyarrow (the ``parquet`` extra). The design is built by the
same routine as :func:`esize.from_tidy`.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import lzma
import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from .._design import from_tidy, missing_labels, tidy_design
from .._errors import DesignError, EsizeWarning, InputError
from ._common import (
    Benchmark,
    check_file,
    prefix,
    size_histogram,
    trim,
    truncation_note,
)
from .units import UnitInfo

__all__ = [
    "FORMAT",
    "LEVELS",
    "NEXT_RUN_OPTIONS",
    "SUFFIXES",
    "sniff",
    "is_table_name",
    "read_table",
    "apply_where",
    "parse",
    "read",
]

FORMAT = "tidy"
#: Levels come from the caller (``levels``), not from the file.
LEVELS: tuple[str, ...] = ()
#: A table has no harness to rerun.
NEXT_RUN_OPTIONS: dict[str, str] = {}
PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")
#: File name endings of tables (also with ``.gz``, ``.bz2``, ``.xz`` after them).
SUFFIXES = (".csv", ".tsv", ".txt", *PARQUET_SUFFIXES)
_COMPRESSED = (".gz", ".bz2", ".xz")
_MAGIC = ((b"\x1f\x8b", gzip.open), (b"BZh", bz2.open), (b"\xfd7zXZ\x00", lzma.open))

Table = dict  # column name -> 1-D numpy array


def sniff(doc) -> bool:
    """A tidy table is never a JSON document."""
    return False


def is_table_name(name: str) -> bool:
    """Whether a file name ends like a table (``.csv``, ``.parquet``, ``.csv.gz`` ...)."""
    low = name.lower()
    return low.endswith(SUFFIXES) or low.endswith(
        tuple(s + c for s in SUFFIXES for c in _COMPRESSED)
    )


# -- reading -------------------------------------------------------------------------
def read_table(path: str | os.PathLike) -> Table:
    """Read a tidy CSV (optionally compressed) or Parquet file.

    Returns
    -------
    dict
        Column name -> 1-D numpy array, in file order. CSV columns hold the text of
        the cells; Parquet columns keep their types.

    Raises
    ------
    InputError
        Missing, empty or malformed file, or Parquet without pyarrow.
    """
    p = Path(path)
    check_file(p)
    if p.suffix.lower() in PARQUET_SUFFIXES:
        return _read_parquet(p)
    return _read_csv(p)


def _opener(p: Path):
    with open(p, "rb") as fh:
        head = fh.read(6)
    for magic, opener in _MAGIC:
        if head.startswith(magic):
            return opener
    return open


def _read_csv(p: Path) -> Table:
    delimiter = "\t" if ".tsv" in (s.lower() for s in p.suffixes) else ","
    try:
        with _opener(p)(p, "rt", encoding="utf-8-sig", newline="") as fh:
            rows = [r for r in csv.reader(fh, delimiter=delimiter) if r and r != [""]]
    except UnicodeDecodeError:
        raise InputError(p, "cannot read: not UTF-8 text") from None
    except (OSError, EOFError, csv.Error, lzma.LZMAError) as exc:
        raise InputError(p, f"cannot read: {' '.join(str(exc).split())}") from None
    if not rows:
        raise InputError(p, "cannot read: the file is empty")
    header, body = rows[0], rows[1:]
    dup = next((c for k, c in enumerate(header) if c in header[:k]), None)
    if dup is not None:
        raise InputError(p, f"cannot read: column {dup!r} appears twice in the header")
    width = np.fromiter(map(len, body), np.int64, len(body))
    if np.any(width > len(header)):
        k = int(np.flatnonzero(width > len(header))[0])
        raise InputError(
            p, f"cannot read: data row {k + 1} has {width[k]} fields, the header {len(header)}"
        )
    if np.any(width < len(header)):  # short rows: missing trailing cells
        body = [r + [""] * (len(header) - len(r)) for r in body]
    if not body:
        return {name: np.array([], dtype=str) for name in header}
    return {name: np.array(col) for name, col in zip(header, zip(*body))}


def _read_parquet(p: Path) -> Table:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(
            p, "reading Parquet needs pyarrow: pip install 'esize[parquet]'"
        ) from None
    try:
        table = pq.read_table(p)
    except Exception as exc:  # pyarrow raises several types for malformed files
        msg = " ".join(str(exc).split()) or type(exc).__name__
        raise InputError(p, f"cannot read: {msg}") from None
    return {name: _arrow_column(table.column(name)) for name in table.column_names}


def _arrow_column(column) -> np.ndarray:
    try:
        return np.asarray(column.to_numpy()).reshape(-1)
    except Exception:  # nested or dictionary types: go through Python objects
        return np.array(column.to_pylist(), dtype=object)


# -- selecting rows ----------------------------------------------------------------------
def _columns(table: Mapping) -> list[str]:
    return [str(c) for c in table]


def _text(column) -> np.ndarray:
    arr = np.asarray(column)
    return arr if arr.dtype.kind == "U" else arr.astype(str)


def _rows(table: Mapping, mask: np.ndarray) -> Table:
    return {name: np.asarray(col)[mask] for name, col in table.items()}


def apply_where(table: Mapping, where: Iterable[str], source) -> Table:
    """Keep the rows where every ``COL=VALUE`` condition holds (compared as text)."""
    table = dict(table)
    for cond in where:
        if "=" not in cond:
            raise InputError(source, f"--where {cond!r} is not of the form COL=VALUE")
        col, value = cond.split("=", 1)
        col = col.strip()
        if col not in table:
            raise InputError(
                source, f"--where names unknown column {col!r}; columns are {_columns(table)}"
            )
        table = _rows(table, _text(table[col]) == value)
        if table[col].size == 0:
            raise InputError(source, f"no rows left after --where {cond}")
    return table


def _split(table: Table, column: str | None, levels: Sequence[str], source) -> list:
    """``[(name, rows)]`` in order of first appearance, or ``[(None, table)]``."""
    if column is None:
        return [(None, table)]
    if column not in table:
        raise InputError(
            source, f"no benchmark column {column!r}; columns are {_columns(table)}"
        )
    if missing_labels(np.asarray(table[column])).any():
        raise InputError(source, f"benchmark column {column!r} has missing names")
    if column in levels:
        raise InputError(source, f"the benchmark column {column!r} is also a --levels column")
    names = _text(table[column])
    distinct, first = np.unique(names, return_index=True)
    return [(str(n), _rows(table, names == n)) for n in distinct[np.argsort(first)]]


# -- designs -------------------------------------------------------------------------------
def _design(rows: Table, levels, value, balance, source, name):
    try:
        if balance is None:
            return from_tidy(rows, levels, value=value)
        design, cuts = tidy_design(rows, levels, value=value, truncate=True)
    except DesignError as exc:
        msg = str(exc)
        if msg.startswith("unbalanced"):
            msg += "; use --balance truncate to keep the first units of every group"
        raise InputError(source, f"{prefix(name)}{msg}") from None
    for cut in cuts:
        child, parent = design.levels[cut.depth], design.levels[cut.depth - 1]
        warnings.warn(
            truncation_note(
                source,
                name,
                child,
                parent,
                cut.kept,
                size_histogram(cut.counts.tolist(), parent, child),
                int(np.count_nonzero(cut.counts > cut.kept)),
                cut.dropped,
                design.levels[-1],
            ),
            EsizeWarning,
            stacklevel=2,
        )
    return design


def parse(
    table: Mapping,
    source,
    *,
    levels: Sequence[str] = ("binary", "execution"),
    value: str = "time",
    where: Iterable[str] = (),
    benchmark_column: str | None = None,
    balance: str | None = None,
) -> dict:
    """``{name: (Design, UnitInfo)}`` of a table already read (see :func:`read`).

    The table's counterpart of the harness modules' ``parse``: rows filtered by
    ``where``, split by ``benchmark_column`` (one unnamed benchmark, key None,
    without it), each part balanced by the routine of :func:`esize.from_tidy`.
    Tables carry no unit (an empty :class:`~esize.readers.UnitInfo`).
    """
    levels = [str(c) for c in levels]
    table = apply_where(table, where, source)
    out: dict = {}
    for name, rows in _split(table, benchmark_column, levels, source):
        design = _design(rows, levels, value, balance, source, name)
        bad = int(np.count_nonzero(design.data <= 0))
        if bad:
            raise InputError(
                source,
                f"{prefix(name)}column {value!r} has {bad} non-positive value(s); "
                "times must be positive",
            )
        out[name] = (design, UnitInfo())
    return out


def read(
    path: str | os.PathLike,
    *,
    levels: Sequence[str] = ("binary", "execution"),
    value: str = "time",
    where: Iterable[str] = (),
    warmup: int = 0,
    benchmark_column: str | None = None,
    balance: str | None = None,
) -> dict:
    """``{name: Benchmark}`` of a tidy file; see :func:`esize.readers.read_benchmarks`."""
    source = str(path)
    parsed = parse(
        read_table(path),
        source,
        levels=levels,
        value=value,
        where=where,
        benchmark_column=benchmark_column,
        balance=balance,
    )
    return {
        name: Benchmark(trim(design, source, name, warmup), unit)
        for name, (design, unit) in parsed.items()
    }
