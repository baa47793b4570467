"""Tidy tables: CSV (plain or compressed) or Parquet, one row per measurement.

A tidy table has a column per level (``binary``, ``execution``, ...) holding the
unit labels and a column of measured values (``time``); the rows of one
lowest-level group, in table order, are its measurements. Optionally a column
(``benchmark_column``) splits the table into several benchmarks. CSV may be
compressed (gzip, bzip2 and xz, recognised by their magic numbers; a UTF-8
byte-order mark is skipped); Parquet needs pyarrow (the ``parquet`` extra). Files
named ``*.tsv`` are tab-separated, as is any other CSV file whose header line holds
tabs and no comma.

Two routes read a table, with the same results. Where pyarrow is installed, a
well-formed table is read by pyarrow's CSV or Parquet reader (only the columns used,
labels dictionary-encoded) and grouped by hashing in linear time: on a table of 1e7
rows, less than 100 bytes of memory per row. Everything that route does not read
exactly as the other one does -- a quoted cell (a quoted header is fine), a lone
carriage return, a short row, any bad cell or name, and CSV without pyarrow -- is
read by the standard library's :mod:`csv` module, cells as text, which words every
problem; it needs several times the memory. The design is built by the same routine
as :func:`esize.from_tidy` (the first route builds a balanced one itself).

Every problem is an :class:`~esize.InputError` naming the file and, for a bad cell,
the column and the row (its line in a CSV file): a value that is empty, not a number
(a date, say), NaN, infinite, not positive, or too small to compute with (below the
smallest normal double), and a grouping label that is missing.
"""


from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from .._errors import EsizeError, InputError
from ._common import Benchmark, drop_single_top, drop_warmup, keep_replicated, with_names
from ._suffixes import COMPRESSED, SUFFIXES, is_table_name

# The two routes, each in its own module: the standard library's reads a file into
# columns (_tidy_load) and checks and parses them (_tidy_cells); pyarrow's
# (_tidy_arrow) reads well-formed tables fast and hands everything else over.
from ._tidy_arrow import _fast_parse
from ._tidy_cells import (
    BENCHMARK_LIKE,
    _check_names,
    _design,
    _labels,
    _measurements,
    _n_rows,
    _rows,
    _split,
    _where_rows,
)
from ._tidy_load import Table, _check_flat, _load
from ._tidy_load import _compression as _compression  # (esize_study.analysis.read)
from ._tidy_load import _delimiter as _delimiter  # (esize_study.analysis.read)
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
# file name endings of tables: PARQUET_SUFFIXES, SUFFIXES (also compressed), is_table_name
_COMPRESSED = COMPRESSED


def sniff(doc) -> bool:
    """A tidy table is never a JSON document.

    Examples
    --------
    >>> from esize.readers import tidy
    >>> tidy.sniff({"benchmarks": []}), tidy.sniff([])
    (False, False)
    """
    return False


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

    Examples
    --------
    >>> import os, tempfile
    >>> from esize.readers import tidy
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "runs.csv")
    ...     with open(path, "w") as f:
    ...         _ = f.write("binary,execution,time\\n1,1,10.5\\n1,2,11.0\\n2,1,12.5\\n")
    ...     table = tidy.read_table(path)
    >>> list(table), table["time"].tolist()  # CSV cells stay text
    (['binary', 'execution', 'time'], ['10.5', '11.0', '12.5'])
    """
    return _load(Path(path))[0]



def apply_where(table: Mapping, where: Iterable[str], source) -> Table:
    """Keep the rows where every ``COL=VALUE`` condition holds (compared as text).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.readers import tidy
    >>> table = {"bench": ["sort", "hash", "sort"], "time": ["1.0", "2.0", "3.0"]}
    >>> tidy.apply_where(table, ["bench=sort"], "runs.csv")["time"].tolist()
    ['1.0', '3.0']
    >>> try:
    ...     tidy.apply_where(table, ["bnch=sort"], "runs.csv")
    ... except ez.InputError as exc:
    ...     print(exc)
    runs.csv: --where names unknown column 'bnch'; columns are ['bench', 'time']
    """
    return _rows(table, _where_rows(table, where, source))



def parse(
    table: Mapping,
    source,
    *,
    levels: Sequence[str] = ("binary", "execution"),
    value: str = "time",
    where: Iterable[str] = (),
    benchmark_column: str | None = None,
    balance: str | None = None,
    row_name: Callable[[int], str] | None = None,
) -> dict:
    """``{name: (Design, UnitInfo)}`` of a table already read (see :func:`read`).

    The table's counterpart of the harness modules' ``parse``: rows filtered by
    ``where``, split by ``benchmark_column`` (one unnamed benchmark, key None,
    without it), the cells of every part checked, then each part balanced by the
    routine of :func:`esize.from_tidy`. Tables carry no unit (an empty
    :class:`~esize.readers.UnitInfo`).

    Parameters
    ----------
    table : mapping
        Column name -> 1-D array, all of one length.
    source : str
        The file, named in errors.
    levels, value, where, benchmark_column, balance
        As :func:`esize.readers.read_benchmarks`.
    row_name : callable, optional
        Names row ``k`` (0-based) in messages; default ``"data row k+1"``.
        :func:`read` passes the line of a CSV file.

    Raises
    ------
    InputError
        A column missing or misnamed, a bad cell (naming its column and row), or
        a design that does not balance.

    Examples
    --------
    Two binaries of two executions of two measurements, one unnamed benchmark:

    >>> from esize.readers import tidy
    >>> table = {"binary": ["a"] * 4 + ["b"] * 4, "execution": [1, 1, 2, 2] * 2,
    ...          "time": [10, 11, 12, 13, 14, 15, 16, 17]}
    >>> (name, (design, unit)), = tidy.parse(table, "runs.csv").items()
    >>> name, design.levels, design.data.tolist()
    (None, ('binary', 'execution', 'measurement'),
     [[[10.0, 11.0], [12.0, 13.0]], [[14.0, 15.0], [16.0, 17.0]]])
    """
    row_name = row_name or (lambda k: f"data row {k + 1}")
    table = {c: np.asanyarray(table[c]) for c in table}  # also a pandas.DataFrame
    levels = [str(c) for c in levels]
    _check_names(table, levels, value, benchmark_column, source)
    _check_flat(table, [*levels, value, benchmark_column], source)
    if _n_rows(table) == 0:
        raise InputError(source, "no rows: the table holds a header only")
    rows = _where_rows(table, where, source)
    if benchmark_column is None:
        _refuse_pooled_benchmarks(table, rows, [*levels, value], source)
    out: dict = {}
    for name, part in _split(table, rows, benchmark_column, row_name, source):
        vals = _measurements(table[value], part, value, source, name, row_name)
        cells = _labels(table, part, levels, source, name, row_name)
        cells[value] = vals
        out[name] = (_design(cells, levels, value, balance, source, name), UnitInfo())
    return out


def _refuse_pooled_benchmarks(table: dict, rows, used: list[str], source) -> None:
    """InputError for a table (the rows kept by ``where``) whose benchmark-like column
    holds two or more names, when no ``benchmark_column`` splits it."""
    for col in table:
        if str(col).lower() not in BENCHMARK_LIKE or col in used:
            continue
        names = list(dict.fromkeys(str(v) for v in np.asarray(table[col])[rows].tolist()))
        if len(names) >= 2:
            shown = ", ".join(repr(n) for n in names[:3]) + (", ..." if len(names) > 3 else "")
            raise InputError(
                source,
                f"column {col!r} holds {len(names)} benchmarks ({shown}); compare each with "
                f"--benchmark-column {col}, or pick one with --where {col}=NAME",
            )


def read(
    path: str | os.PathLike,
    *,
    levels: Sequence[str] = ("binary", "execution"),
    value: str = "time",
    where: Iterable[str] = (),
    warmup: int | str = 0,
    benchmark_column: str | None = None,
    balance: str | None = None,
    only: Iterable[str] = (),
    max_bytes: int | None = None,
) -> dict:
    """``{name: Benchmark}`` of a tidy file; see :func:`esize.readers.read_benchmarks`.

    Examples
    --------
    Two benchmarks of 2 binaries, 2 executions and 3 measurements, the first
    measurement of each execution dropped as warm-up:

    >>> import os, tempfile
    >>> from esize.readers import tidy
    >>> rows = [f"{b},{i},{e},{t + i + e + k}" for b, t in (("sort", 10), ("hash", 20))
    ...         for i in (1, 2) for e in (1, 2) for k in range(3)]
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "runs.csv")
    ...     with open(path, "w") as f:
    ...         _ = f.write("\\n".join(["bench,binary,execution,time", *rows]) + "\\n")
    ...     benchmarks = tidy.read(path, benchmark_column="bench", warmup=1)
    >>> list(benchmarks), benchmarks["sort"].design.shape
    (['sort', 'hash'], (2, 2, 2))
    >>> benchmarks["hash"].design.data[0].tolist(), benchmarks["hash"].warmup["dropped"]
    ([[23.0, 24.0], [24.0, 25.0]], 4)
    """
    source = str(path)
    try:
        parsed = _fast_parse(Path(path), levels=levels, value=value, where=where,
                             benchmark_column=benchmark_column, balance=balance,
                             max_bytes=max_bytes)
    except (EsizeError, MemoryError):
        raise
    except Exception:  # noqa: BLE001 - _Fallback, or a pyarrow that does not work here
        table, row_name = _load(Path(path), max_bytes)
        parsed = parse(
            table,
            source,
            levels=levels,
            value=value,
            where=where,
            benchmark_column=benchmark_column,
            balance=balance,
            row_name=row_name,
        )
    wanted = {str(n) for n in only}
    warmed = {name: (*drop_warmup(design, source, name, warmup), unit)
              for name, (design, unit) in parsed.items()
              if not wanted or str(name) in wanted}
    out = {}
    for name in keep_replicated({n: w[0] for n, w in warmed.items()}, source):
        design, info, warm, series, unit = warmed[name]
        design, caveats, dropped = drop_single_top(design, source, name)
        out[name] = Benchmark(design, unit, warm + caveats, info, dropped, series)
    return with_names(out, parsed)
