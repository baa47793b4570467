"""Tidy tables: CSV (plain or compressed) or Parquet, one row per measurement.

A tidy table has a column per level (``binary``, ``execution``, ...) holding the
unit labels and a column of measured values (``time``); the rows of one
lowest-level group, in table order, are its measurements. Optionally a column
(``benchmark_column``) splits the table into several benchmarks. CSV is read with
the standard library (gzip, bzip2 and xz compression recognised by their magic
numbers; a UTF-8 byte-order mark is skipped), Parquet with pyarrow (the ``parquet``
extra). Files named ``*.tsv`` are tab-separated, as is any other CSV file whose
header line holds tabs and no comma. The design is built by the same routine as
:func:`esize.from_tidy`.

Every problem is an :class:`~esize.InputError` naming the file and, for a bad cell,
the column and the row (its line in a CSV file): a value that is empty, not a number
(a date, say), NaN, infinite, not positive, or too small to compute with (below the
smallest normal double), and a grouping label that is missing.
"""

from __future__ import annotations

import bz2
import csv
import datetime as dt
import gzip
import io
import itertools
import lzma
import os
import re
import warnings
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from .._design import from_tidy, missing_labels, tidy_design
from .._errors import DesignError, EsizeWarning, InputError
from ._common import (
    Benchmark,
    check_file,
    drop_single_top,
    drop_warmup,
    keep_replicated,
    max_input_bytes,
    nul_problem,
    os_reason,
    prefix,
    size_histogram,
    subnormal_problem,
    too_big,
    truncation_note,
    with_names,
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
_MAGIC = (
    (b"\x1f\x8b", gzip.open, "gzip"),
    (b"BZh", bz2.open, "bzip2"),
    (b"\xfd7zXZ\x00", lzma.open, "xz"),
)

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
    return _load(Path(path))[0]


def _load(p: Path, max_bytes: int | None = None) -> tuple[Table, Callable[[int], str]]:
    """The table of file ``p`` and how to name its data row ``k`` (0-based) in a
    message: its line for a CSV file, its number for Parquet."""
    check_file(p, max_bytes)
    if p.suffix.lower() in PARQUET_SUFFIXES:
        return _read_parquet(p), lambda k: f"row {k + 1}"
    table, delimiter = _read_csv(p, max_bytes)
    return table, _CsvLines(p, delimiter)


def _compression(p: Path):
    """``(opener, name)`` of the file's compression, by its magic number."""
    try:
        with open(p, "rb") as fh:
            head = fh.read(6)
    except OSError as exc:
        raise InputError(p, f"cannot read: {os_reason(exc)}") from None
    for magic, opener, name in _MAGIC:
        if head.startswith(magic):
            return opener, name
    return open, ""


def _delimiter(p: Path, header_line: str) -> str:
    """Tab for ``*.tsv`` files and for a header with tabs and no comma, else comma."""
    if ".tsv" in (s.lower() for s in p.suffixes):
        return "\t"
    if "\t" in header_line and "," not in header_line:
        return "\t"
    return ","


#: Bytes read at a time while a CSV file is loaded and checked.
_CHUNK = 1 << 22


def _csv_text(p: Path, max_bytes: int | None = None) -> str:
    """The text of CSV file ``p``, decompressed, checked and decoded.

    Read in chunks, so that a file with a NUL byte (binary data, a sparse file) or
    one that decompresses beyond the size limit is refused as soon as that shows,
    not after it has filled the memory.
    """
    opener, kind = _compression(p)
    limit = max_input_bytes(max_bytes)
    chunks, size, lines = [], 0, 1
    try:
        with opener(p, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                size += len(chunk)
                if size > limit:
                    raise too_big(p, size, limit, decompressed=True)
                nul = chunk.find(b"\x00")
                if nul >= 0:
                    raise InputError(p, f"cannot read: {nul_problem(chunk, nul, 'CSV', lines)}")
                lines += chunk.count(b"\n")
                chunks.append(chunk)
    except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
        if kind:
            detail = " ".join(str(exc).split())
            raise InputError(p, f"cannot read: corrupt or truncated {kind} data ({detail})") from None
        raise InputError(p, f"cannot read: {os_reason(exc)}") from None
    raw = b"".join(chunks)
    del chunks
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(p, f"cannot read: not UTF-8 text (line {line}, byte "
                         f"{exc.start + 1} of the file)") from None


def _csv_rows(p: Path, consume: Callable, max_bytes: int | None = None) -> tuple[object, str]:
    """Read ``p`` as CSV text and return ``consume(reader), delimiter``.

    Failures of the file itself (unreadable, corrupt compression, not UTF-8, a NUL
    byte, too big) become :class:`~esize.InputError`; :class:`csv.Error` is left to
    the caller.
    """
    text = _csv_text(p, max_bytes)
    end = text.find("\n")
    delimiter = _delimiter(p, text if end < 0 else text[:end])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    return consume(reader), delimiter


def _read_csv(p: Path, max_bytes: int | None = None) -> tuple[Table, str]:
    """The columns of a CSV file (cells as text) and its delimiter."""
    state = {}

    def consume(reader):
        state["reader"] = reader
        return [r for r in reader if r and r != [""]]  # blank lines are skipped

    try:
        rows, delimiter = _csv_rows(p, consume, max_bytes)
    except csv.Error as exc:
        reader = state["reader"]
        problem = _csv_problem(p, exc, reader.line_num, reader.dialect.delimiter)
        raise InputError(p, f"cannot read: {problem}") from None
    if not rows:
        raise InputError(p, "cannot read: the file is empty")
    header, body = rows[0], rows[1:]
    dup = next((c for k, c in enumerate(header) if c in header[:k]), None)
    if dup is not None:
        raise InputError(p, f"cannot read: column {dup!r} appears twice in the header")
    width = np.fromiter(map(len, body), np.int64, len(body))
    if np.any(width > len(header)):
        k = int(np.flatnonzero(width > len(header))[0])
        line = _CsvLines(p, delimiter)(k)
        raise InputError(
            p,
            f"cannot read: {line} has {width[k]} fields, expected at most {len(header)} "
            f"(the columns of the header{_quote_hint(delimiter)})",
        )
    if np.any(width < len(header)):  # short rows: missing trailing cells
        body = [r + [""] * (len(header) - len(r)) for r in body]
    if not body:
        return {name: np.array([], dtype=str) for name in header}, delimiter
    return {name: np.array(col) for name, col in zip(header, zip(*body))}, delimiter


def _quote_hint(delimiter: str) -> str:
    return "; a value with a ',' must be quoted" if delimiter == "," else ""


def _record_starts(p: Path, delimiter: str) -> tuple[list[int], int | None]:
    """Line numbers where the records of a CSV file start (the header first), and the
    line where the record that could not be parsed starts (None if all parse).

    Only called to word a message, so the file is read a second time."""

    def consume(reader):
        starts, previous = [], 0
        try:
            for row in reader:
                if row and row != [""]:  # as _read_csv: blank lines are no records
                    starts.append(previous + 1)
                previous = reader.line_num
        except csv.Error:
            return starts, previous + 1
        return starts, None

    return _csv_rows(p, consume)[0]


def _line_text(p: Path, n: int) -> str:
    """Line ``n`` (1-based) of a text file, for a message."""
    lines = io.StringIO(_csv_text(p), newline="")
    return next(itertools.islice(lines, n - 1, None), "")


class _CsvLines:
    """Names data row ``k`` (0-based, the header not counted) of a CSV file by its line,
    finding the lines only when a message needs them."""

    def __init__(self, p: Path, delimiter: str):
        self.p, self.delimiter, self.starts = p, delimiter, None

    def __call__(self, k: int) -> str:
        if self.starts is None:
            self.starts = _record_starts(self.p, self.delimiter)[0]
        if k + 1 < len(self.starts):
            return f"line {self.starts[k + 1]}"
        return f"data row {k + 1}"


def _csv_problem(p: Path, exc: csv.Error, line: int, delimiter: str) -> str:
    """A :class:`csv.Error` said in terms of the file: where, and what was expected."""
    msg = " ".join(str(exc).split())
    sep = "a tab" if delimiter == "\t" else repr(delimiter)
    if "unexpected end of data" in msg or "field larger than field limit" in msg:
        start = _record_starts(p, delimiter)[1] or line
        if "unexpected end of data" in msg or '"' in _line_text(p, start):
            return (
                f"a quoted field on line {start} is never closed (a '\"' is missing), "
                "so the rest of the file would be one field"
            )
        return (
            f"line {line} holds a field longer than {csv.field_size_limit()} characters; "
            "this is not a tidy table"
        )
    if "expected after" in msg:
        return (
            f"line {line}: text after the closing quote of a field "
            f"(expected {sep} or the end of the line)"
        )
    return f"line {line} is not valid CSV ({msg})"


def _read_parquet(p: Path) -> Table:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(
            p, "reading Parquet needs pyarrow: pip install 'esize[parquet]'"
        ) from None
    _compression(p)  # an unreadable file is said so, not blamed on its format
    try:
        names = pq.read_schema(p).names
        dup = next((c for k, c in enumerate(names) if c in names[:k]), None)
        if dup is not None:
            raise InputError(p, f"cannot read: column {dup!r} appears twice")
        table = pq.read_table(p)
        columns = {name: table.column(name) for name in table.column_names}
    except InputError:
        raise
    except UnicodeDecodeError:
        raise InputError(
            p, "cannot read: a column name is not UTF-8 text (a damaged Parquet file)"
        ) from None
    except Exception as exc:  # pyarrow raises several types for malformed files
        msg = " ".join(str(exc).split()) or type(exc).__name__
        msg = re.sub(r"^Could not open Parquet input source '.*?':\s*", "", msg)
        msg = msg.replace(str(p), "the file")
        raise InputError(p, f"cannot read: not a valid Parquet file ({msg})") from None
    return {name: _arrow_column(column) for name, column in columns.items()}


class _Nested(np.ndarray):
    """A Parquet column of nested values (struct, list, map): neither labels nor
    numbers. It is refused when it is used, by the name of its type."""

    arrow_type: str = "nested"


def _arrow_column(column) -> np.ndarray:
    import pyarrow.types as pat

    if pat.is_nested(column.type):
        out = np.empty(len(column), dtype=object).view(_Nested)
        out.arrow_type = str(column.type)
        return out
    try:
        return np.asarray(column.to_numpy()).reshape(-1)
    except Exception:  # dictionary and other types: go through Python objects
        return np.array(column.to_pylist(), dtype=object)


def _check_flat(table: Mapping, columns, source) -> None:
    """InputError when a column used as labels or values holds nested values."""
    for c in columns:
        if c is not None and isinstance(table.get(c), _Nested):
            raise InputError(
                source, f"column {c!r} holds nested values ({table[c].arrow_type}), not "
                "labels or numbers; store one plain value per cell")


# -- selecting rows ----------------------------------------------------------------------
def _columns(table: Mapping) -> list[str]:
    return [str(c) for c in table]


def _text(column) -> np.ndarray:
    arr = np.asarray(column)
    return arr if arr.dtype.kind == "U" else arr.astype(str)


def _n_rows(table: Mapping) -> int:
    return len(next(iter(table.values()))) if table else 0


def _rows(table: Mapping, index: np.ndarray) -> Table:
    return {name: np.asarray(col)[index] for name, col in table.items()}


def _where_rows(table: Mapping, where: Iterable[str], source) -> np.ndarray:
    """Indices of the rows where every ``COL=VALUE`` condition holds (compared as text)."""
    keep = np.ones(_n_rows(table), dtype=bool)
    for cond in where:
        if "=" not in cond:
            raise InputError(source, f"--where {cond!r} is not of the form COL=VALUE")
        col, value = cond.split("=", 1)
        col = col.strip()
        if col not in table:
            raise InputError(
                source, f"--where names unknown column {col!r}; columns are {_columns(table)}"
            )
        keep &= _text(table[col]) == value
        if not keep.any():
            raise InputError(source, f"no rows left after --where {cond}")
    return np.flatnonzero(keep)


def apply_where(table: Mapping, where: Iterable[str], source) -> Table:
    """Keep the rows where every ``COL=VALUE`` condition holds (compared as text)."""
    return _rows(table, _where_rows(table, where, source))


def _present(table: Mapping, rows: np.ndarray, column: str, problem: str, source,
             row_name) -> np.ndarray:
    """Column ``column`` at ``rows``, or an InputError (``problem``, then the first
    row whose label is empty)."""
    keys = np.asarray(table[column])[rows]
    missing = np.flatnonzero(missing_labels(keys))
    if missing.size:
        raise InputError(source, f"{problem} ({row_name(int(rows[missing[0]]))} is empty)")
    return keys


def _split(table: Mapping, rows: np.ndarray, column: str | None, row_name, source) -> list:
    """``[(name, row indices)]`` in order of first appearance, or ``[(None, rows)]``."""
    if column is None:
        return [(None, rows)]
    keys = _present(table, rows, column, f"benchmark column {column!r} has missing names",
                    source, row_name)
    names = _text(keys)
    distinct, first = np.unique(names, return_index=True)
    return [(str(n), rows[names == n]) for n in distinct[np.argsort(first)]]


# -- checking the cells --------------------------------------------------------------------
_DAY_FIRST = re.compile(r"\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{4}/\d{1,2}/\d{1,2}")


def _is_date(text: str) -> bool:
    """Whether text that is not a number reads as a date, a time of day or both."""
    t = text.strip()
    if not t:
        return False
    for parse in (dt.datetime.fromisoformat, dt.time.fromisoformat):
        try:
            parse(t.replace("Z", "+00:00") if t.endswith("Z") else t)
        except ValueError:
            continue
        return True
    return bool(_DAY_FIRST.fullmatch(t.split()[0]))


#: A number as written in a table: optional sign, decimal digits with an optional
#: point, an optional exponent; ASCII only (no ``1_000``, no other scripts' digits);
#: spaces around it are allowed. NaN and infinity are spelled so that they can be
#: named as such.
_PLAIN = re.compile(
    r"\s*[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|nan|inf|infinity)\s*",
    re.ASCII | re.IGNORECASE,
)
#: The characters such numbers are made of (a first, vectorised check).
_PLAIN_CHARS = np.zeros(128, dtype=bool)
_PLAIN_CHARS[[ord(c) for c in "0123456789.eE+- \t\r\nnNaAiIfFtTyY"]] = True
_PLAIN_CHARS[0] = True  # numpy pads shorter strings with NUL code points


def _to_float(x) -> float | None:
    """A cell as a float, or None when it is not a number (booleans are not; text must
    be a plain decimal or scientific number, :data:`_PLAIN`)."""
    if isinstance(x, (bool, np.bool_)) or x is None:
        return None
    if isinstance(x, (str, bytes)):
        text = x.decode("utf-8", "replace") if isinstance(x, bytes) else x
        if not _PLAIN.fullmatch(text):
            return None
        return float(text)
    try:
        return float(x)
    except (TypeError, ValueError, OverflowError):
        return None


def _to_float_loose(text: str) -> float | None:
    """What Python's ``float`` makes of a text (it accepts ``1_000`` and any script's
    digits), or None."""
    try:
        return float(text)
    except ValueError:
        return None


def _odd_text(col: np.ndarray) -> np.ndarray:
    """Rows of a text column holding a character no plain number has (``_``, a digit
    of another script, a letter), found without a Python loop over the rows."""
    if col.dtype.kind == "S":
        codes = np.frombuffer(col.tobytes(), np.uint8).reshape(len(col), -1)
    else:
        codes = col.view(np.uint32).reshape(len(col), -1)
    if codes.shape[1] == 0:
        return np.zeros(len(col), dtype=bool)
    ok = (codes < 128) & _PLAIN_CHARS[np.minimum(codes, 127)]
    return ~ok.all(axis=1)


def _cell(column: np.ndarray, k: int) -> str:
    """The text of a cell, as a plain string (also for numpy scalars)."""
    return str(column[k].item() if isinstance(column[k], np.generic) else column[k])


def _measurements(column, rows: np.ndarray, value: str, source, name, row_name) -> np.ndarray:
    """The value column of ``rows`` as positive finite floats, or an InputError naming
    the column and the row of the first bad cell.

    Every row is checked, whether or not balancing keeps it: a bad cell means a bad
    file. The checks, in order: the cells are numbers (not empty, not a date, not
    NaN or infinite), they are positive, and none is below the smallest normal
    double (:func:`~esize.readers._common.subnormal_problem`).
    """
    col = np.asarray(column)[rows]
    head = f"{prefix(name)}column {value!r}"
    kind = col.dtype.kind
    if kind == "M":
        raise InputError(
            source, f"{head} holds timestamps (a date-time type), not measured times or rates"
        )
    if kind == "m":
        raise InputError(
            source, f"{head} holds durations (a time-delta type); store them as numbers in "
            "one unit"
        )
    if kind == "b":
        raise InputError(source, f"{head} holds true/false values, not measurements")
    unparsed = None
    try:
        if kind not in "iufUS":  # Python objects: a True is not a 1
            raise TypeError
        if kind in "US" and _odd_text(col).any():  # 1_000, digits of other scripts
            raise ValueError
        vals = col.astype(np.float64)
    except (TypeError, ValueError, OverflowError):  # some cell is not a number: which
        conv = np.frompyfunc(_to_float, 1, 1)(col)
        unparsed = np.equal(conv, None).astype(bool)
        vals = np.where(unparsed, np.nan, conv).astype(np.float64)
    bad = np.flatnonzero(~np.isfinite(vals))
    if bad.size:
        raise InputError(source, head + _bad_cell(col, vals, unparsed, bad, rows, row_name))
    low = np.flatnonzero(vals <= 0)
    if low.size:
        k = int(low[0])
        raise InputError(
            source,
            f"{head} has {low.size} non-positive value(s) (the first, {row_name(int(rows[k]))}, "
            f"holds {_cell(col, k)!r}); times and rates must be positive",
        )
    problem = subnormal_problem(vals)
    if problem is not None:
        k, why = problem
        raise InputError(
            source, f"{head}: {why} (the first, {row_name(int(rows[k]))}, holds {_cell(col, k)!r})"
        )
    return vals


def _bad_cell(col, vals, unparsed, bad, rows, row_name) -> str:
    """The end of the message about the first cell that is not a finite number."""
    k = int(bad[0])
    where, text, x = row_name(int(rows[k])), _cell(col, k), col[k]
    more = f" ({bad.size} cells of the column are not numbers)" if bad.size > 1 else ""
    if x is None or (isinstance(x, str) and not x.strip()):
        return f" has a missing value: {where} is empty{more}"
    if unparsed is not None and unparsed[k]:
        if isinstance(x, str) and _is_date(x) or isinstance(x, (dt.date, dt.time)):
            return f" holds dates or times, not measurements: {where} holds {text!r}{more}"
        if isinstance(x, str) and _to_float_loose(x) is not None:  # 1_000, ١٢٣
            return (f" has a value that is not a plain decimal number (ASCII digits, a point, "
                    f"an exponent): {where} holds {text!r}{more}")
        return f" has a non-numeric value: {where} holds {text!r}{more}"
    if np.isnan(vals[k]):
        what = "NaN (not-a-number)" if isinstance(x, str) else "missing or NaN"
        return f" has a {what} value: {where}{more}"
    return f" has an infinite value: {where} holds {text!r}{more}"


def _labels(table: Mapping, rows: np.ndarray, levels, source, name, row_name) -> dict:
    """The grouping columns of ``rows``, or an InputError naming the first missing label."""
    out = {}
    for col in levels:
        out[col] = _present(
            table, rows, col, f"{prefix(name)}grouping column {col!r} has missing labels",
            source, row_name,
        )
    return out


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
                len(rows[value]),
            ),
            EsizeWarning,
            stacklevel=2,
        )
    return design


def _check_names(table: Mapping, levels: list[str], value, benchmark_column, source) -> None:
    """InputError for column names that are empty, clash, or are not in the table."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(source, f"the value column's name is empty ({value!r}); name it with --value")
    if any(not c.strip() for c in levels):
        raise InputError(source, f"a --levels column's name is empty ({levels})")
    if value in levels:
        raise InputError(source, f"the value column {value!r} is also a --levels column")
    if benchmark_column is not None:
        if not str(benchmark_column).strip():
            raise InputError(source, "the benchmark column's name is empty")
        if benchmark_column in levels:
            raise InputError(
                source, f"the benchmark column {benchmark_column!r} is also a --levels column"
            )
        if benchmark_column == value:
            raise InputError(
                source, f"the benchmark column {benchmark_column!r} is also the value column"
            )
        if benchmark_column not in table:
            raise InputError(
                source, f"no benchmark column {benchmark_column!r}; columns are {_columns(table)}"
            )
    missing = [c for c in [*levels, value] if c not in table]
    if missing:
        raise InputError(
            source,
            f"missing column(s) {', '.join(repr(c) for c in missing)}; columns are "
            f"{_columns(table)}",
        )


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
    """
    row_name = row_name or (lambda k: f"data row {k + 1}")
    table = {c: np.asanyarray(table[c]) for c in table}  # also a pandas.DataFrame
    levels = [str(c) for c in levels]
    _check_names(table, levels, value, benchmark_column, source)
    _check_flat(table, [*levels, value, benchmark_column], source)
    if _n_rows(table) == 0:
        raise InputError(source, "no rows: the table holds a header only")
    rows = _where_rows(table, where, source)
    out: dict = {}
    for name, part in _split(table, rows, benchmark_column, row_name, source):
        vals = _measurements(table[value], part, value, source, name, row_name)
        cells = _labels(table, part, levels, source, name, row_name)
        cells[value] = vals
        out[name] = (_design(cells, levels, value, balance, source, name), UnitInfo())
    return out


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
    """``{name: Benchmark}`` of a tidy file; see :func:`esize.readers.read_benchmarks`."""
    source = str(path)
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
