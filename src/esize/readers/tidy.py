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
from .._errors import DesignError, EsizeError, EsizeWarning, InputError
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
from ._suffixes import COMPRESSED, PARQUET_SUFFIXES, SUFFIXES, is_table_name
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
_MAGIC = (
    (b"\x1f\x8b", gzip.open, "gzip"),
    (b"BZh", bz2.open, "bzip2"),
    (b"\xfd7zXZ\x00", lzma.open, "xz"),
)

Table = dict  # column name -> 1-D numpy array


def sniff(doc) -> bool:
    """A tidy table is never a JSON document."""
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


# -- the fast route: pyarrow ---------------------------------------------------------------
# A well-formed table (the usual case, and the one that can be large) is read with
# pyarrow's CSV or Parquet reader, only the columns used, and grouped in linear time
# (hashing, no sorting of labels). It answers only when it can answer exactly as the
# route above: anything it does not handle itself (no pyarrow, a quote character, a
# bad cell, a missing column, ...) sends the file to the standard-library route, which
# says what is wrong with it. Both give the same designs, notes and errors; the
# standard-library route just needs about four times the memory and ten times the
# time.
class _Fallback(Exception):
    """The fast route declines: read the file the standard-library way."""


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        raise _Fallback from None
    return pa, pc


def _csv_bytes_ok(p: Path, limit: int):
    """Read ``p`` once in chunks and check what the standard-library route checks, or
    what pyarrow would read differently: size, NUL bytes, UTF-8, a byte-order mark,
    quote characters and line breaks that are a lone carriage return.

    Returns ``(header line, decompressed bytes or None)``: the bytes only for a
    compressed file (pyarrow then reads them from memory; a plain file it reads itself).
    Quote characters are allowed in the header only: pyarrow and the standard library
    read a malformed quoted cell differently (``"x"y`` is an error for the one, ``xy``
    for the other), so a file with quoted cells takes the other route.
    """
    import codecs

    opener, kind = _compression(p)
    decoder = codecs.getincrementaldecoder("utf-8")()
    size, header, keep = 0, None, bytearray() if kind else None
    first = True
    try:
        with opener(p, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                size += len(chunk)
                if size > limit or chunk.find(b"\x00") >= 0:
                    raise _Fallback
                # a lone carriage return (the search first: most files hold none)
                if chunk.find(b"\r") >= 0 and chunk.count(b"\r") != chunk.count(b"\r\n"):
                    raise _Fallback
                if first:
                    if chunk.startswith(b"\xef\xbb\xbf"):
                        raise _Fallback
                    first = False
                decoder.decode(chunk)  # UnicodeDecodeError: not UTF-8
                body = 0
                if header is None:
                    header, body = _header_line(chunk)
                if chunk.find(b'"', body) >= 0:  # quoted cells: see _fast_parse
                    raise _Fallback
                if keep is not None:
                    keep += chunk
            decoder.decode(b"", final=True)
    except (OSError, EOFError, zlib.error, lzma.LZMAError, UnicodeDecodeError):
        raise _Fallback from None
    if header is None:
        raise _Fallback
    return header, keep


def _header_line(chunk: bytes) -> tuple[str | None, int]:
    """The first line of ``chunk`` that is not blank (the header), if it ends in it,
    and where the line after it starts."""
    start = 0
    while True:
        end = chunk.find(b"\n", start)
        if end < 0:
            raise _Fallback  # a header longer than a chunk, or no line at all
        line = chunk[start:end].rstrip(b"\r")
        if line:
            return line.decode("utf-8"), end + 1
        start = end + 1


def _header_names(header: str, delimiter: str) -> list[str]:
    """The column names of a header line, which may quote them (as R and pyarrow
    write them): the names must hold no quote character, so that pyarrow reads them
    as the standard library does."""
    try:
        names = next(csv.reader([header], delimiter=delimiter, strict=True))
    except (csv.Error, StopIteration):
        raise _Fallback from None
    if any('"' in c for c in names):
        raise _Fallback
    return names


def _fast_csv(p: Path, wanted: list[str], labels: list[str], value: str, max_bytes):
    """The columns ``wanted`` of CSV file ``p`` as a pyarrow table (``labels`` as
    text, ``value`` as doubles), after the checks of :func:`_csv_bytes_ok`."""
    pa, _ = _pyarrow()
    import pyarrow.csv as pcsv

    header, data = _csv_bytes_ok(p, max_input_bytes(max_bytes))
    delimiter = _delimiter(p, header)
    names = _header_names(header, delimiter)
    if len(set(names)) != len(names) or any(c not in names for c in wanted):
        raise _Fallback  # duplicate or missing columns: said by the other route
    types = {c: pa.dictionary(pa.int32(), pa.string()) for c in labels}
    types[value] = pa.float64()
    try:
        return pcsv.read_csv(
            pa.py_buffer(data) if data is not None else str(p),
            parse_options=pcsv.ParseOptions(delimiter=delimiter),
            convert_options=pcsv.ConvertOptions(
                column_types=types, include_columns=wanted, null_values=[""],
                strings_can_be_null=False),
        )
    except (pa.ArrowException, OSError, ValueError):
        raise _Fallback from None


def _fast_parquet(p: Path, wanted: list[str], labels: list[str]):
    """The columns ``wanted`` of Parquet file ``p`` (``labels`` dictionary-encoded)."""
    pa, _ = _pyarrow()
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(p)
        names = schema.names
        if len(set(names)) != len(names) or any(c not in names for c in wanted):
            raise _Fallback
        text = [c for c in labels if pa.types.is_string(schema.field(c).type)
                or pa.types.is_large_string(schema.field(c).type)]
        with pq.ParquetFile(p, read_dictionary=text) as f:  # (read_table imports pandas)
            return f.read(columns=wanted, use_pandas_metadata=False)
    except _Fallback:
        raise
    except Exception:  # noqa: BLE001 - any failure is worded by the other route
        raise _Fallback from None


def _codes(column, text_only: bool):
    """Codes of a label column numbered by first appearance (int32, numpy), their
    number and the labels they stand for. Text labels (and, in Parquet, integers)
    only, plain or dictionary-encoded; an empty label, a null or any other type
    declines."""
    pa, pc = _pyarrow()
    import pyarrow.types as pat

    t = column.type
    labels = t.value_type if pat.is_dictionary(t) else t
    text = pat.is_string(labels) or pat.is_large_string(labels)
    if not (text or (not text_only and pat.is_integer(labels))) or column.null_count:
        raise _Fallback
    if pat.is_dictionary(t):  # the chunks' dictionaries made one, then its used entries
        column = column.unify_dictionaries()
        words = column.chunk(0).dictionary if column.num_chunks else pa.array([], labels)
        enc = pc.dictionary_encode(
            pa.chunked_array([c.indices for c in column.chunks], t.index_type)
        ).combine_chunks()
        used = words.take(enc.dictionary)
    else:
        enc = pc.dictionary_encode(column).combine_chunks()
        used = enc.dictionary
    if used.null_count or text and len(used) and pc.min(pc.binary_length(used)).as_py() == 0:
        raise _Fallback  # a missing label
    return _numpy(enc.indices), len(used), used


def _fast_values(column) -> np.ndarray:
    """The value column as positive, finite, normal doubles, or decline."""
    pa, pc = _pyarrow()
    import pyarrow.types as pat

    t = column.type
    if not (pat.is_floating(t) or pat.is_integer(t)) or column.null_count:
        raise _Fallback
    vals = np.concatenate([_numpy(c) for c in column.chunks]
                          or [np.empty(0)]).astype(np.float64, copy=False)
    if vals.size == 0 or not np.isfinite(vals).all() or not (vals > 0).all():
        raise _Fallback
    if subnormal_problem(vals) is not None:
        raise _Fallback
    return vals


def _numpy(arr) -> np.ndarray:
    """A pyarrow array of integers or floats without nulls as a numpy view of its
    buffer (``Array.to_numpy`` imports pandas)."""
    dtype = np.dtype({"double": "float64", "float": "float32", "halffloat": "float16"}.get(
        str(arr.type), str(arr.type)))
    data = arr.buffers()[1]
    if data is None:
        return np.empty(0, dtype)
    return np.frombuffer(data, dtype, len(arr), arr.offset * dtype.itemsize)


def _arrow(x: np.ndarray):
    """A 1-D integer numpy array as a pyarrow array, without a copy (and without
    ``pyarrow.array``, which imports pandas to look at its argument)."""
    pa, _ = _pyarrow()
    x = np.ascontiguousarray(x)
    kind = {np.dtype(np.int32): pa.int32(), np.dtype(np.int64): pa.int64()}[x.dtype]
    return pa.Array.from_buffers(kind, x.size, [None, pa.py_buffer(x)])


def _within(parent, n_parents: int, codes: np.ndarray, n_codes: int):
    """Units of the next level: per row, its unit (numbered by first appearance), and
    per unit, its parent. Hashing, not sorting (pyarrow's dictionary encoding)."""
    pa, pc = _pyarrow()
    if n_parents == 1:  # renumbered all the same: a benchmark's rows hold a subset
        enc = pc.dictionary_encode(_arrow(codes))
        return _numpy(enc.indices), np.zeros(len(enc.dictionary), dtype=np.int64)
    wide = np.int32 if n_parents * n_codes < 1 << 31 else np.int64
    key = parent.astype(wide)
    key *= n_codes
    key += codes
    enc = pc.dictionary_encode(_arrow(key))
    del key
    return _numpy(enc.indices), _numpy(enc.dictionary).astype(np.int64) // n_codes


def _unit_positions(parent: np.ndarray) -> np.ndarray:
    """Position of every unit among its parent's units (units in first-appearance
    order; arrays of the size of a level, not of the table)."""
    order = np.argsort(parent, kind="stable")
    start = np.searchsorted(parent[order], parent[order], side="left")
    pos = np.empty(parent.size, dtype=np.int64)
    pos[order] = np.arange(parent.size) - start
    return pos


def _fast_design(codes: list, vals: np.ndarray, levels, value, balance, source, name):
    """The design of one benchmark from its label codes, as :func:`_design` builds it
    from the labels; in linear time when it is balanced (and the rows in order)."""
    from .._design import Design

    unit, n_units = None, 1
    groups = np.zeros(1, dtype=np.int64)  # flat index of every unit of the level
    shape = []
    for code, n_code in codes:
        unit, parent = _within(unit, n_units, code, n_code)
        counts = np.bincount(parent, minlength=n_units)
        if counts.min() != counts.max():
            break
        shape.append(int(counts[0]))
        groups = groups[parent] * shape[-1] + _unit_positions(parent)
        n_units = parent.size
    else:
        sizes = np.bincount(unit, minlength=n_units)
        if sizes.min() == sizes.max():
            small = np.uint16 if groups.size <= 1 << 16 else np.int64  # radix sort
            row_group = groups.astype(small)[unit]
            del unit
            shape.append(int(sizes[0]))
            if (row_group[1:] < row_group[:-1]).any():  # rows not in order: sort
                vals = vals[np.argsort(row_group, kind="stable")]
            return Design(vals.reshape(shape), (*levels, "measurement"))
    # unbalanced: the general routine, on the codes (same units, notes and errors)
    cells = {c: np.asarray(u) for c, (u, _) in zip(levels, codes)}
    cells[value] = vals
    return _design(cells, levels, value, balance, source, name)


#: CSV files smaller than this are read by the standard library: as fast, and without
#: the time it takes to import pyarrow.
FAST_MIN_BYTES = 1 << 20


def _fast_parse(p: Path, *, levels, value, where, benchmark_column, balance, max_bytes):
    """``parse(*_load(p))`` through pyarrow, or :class:`_Fallback`."""
    check_file(p, max_bytes)  # first, as in the other route: a FIFO is never opened
    parquet = p.suffix.lower() in PARQUET_SUFFIXES
    if not parquet and p.stat().st_size < FAST_MIN_BYTES:
        raise _Fallback
    pa, pc = _pyarrow()
    source = str(p)
    levels = [str(c) for c in levels]
    conds = []
    for cond in where:
        if "=" not in cond:
            raise _Fallback
        col, text = cond.split("=", 1)
        conds.append((col.strip(), text))
    if (not levels or not isinstance(value, str) or not value.strip() or value in levels
            or any(not c.strip() for c in levels) or len(set(levels)) != len(levels)
            or benchmark_column is not None and (
                not str(benchmark_column).strip() or benchmark_column in levels
                or benchmark_column == value)):
        raise _Fallback
    label_cols = [*levels, *([benchmark_column] if benchmark_column is not None else [])]
    wanted = list(dict.fromkeys([*label_cols, value, *(c for c, _ in conds)]))
    if parquet:
        table = _fast_parquet(p, wanted, [c for c in wanted if c != value])
    else:
        text_cols = [c for c in wanted if c != value]
        table = _fast_csv(p, wanted, text_cols, value, max_bytes)
    if table.num_rows == 0:
        raise _Fallback
    for col, text in conds:
        column = table.column(col)
        if pa.types.is_dictionary(column.type):
            column = column.cast(column.type.value_type)
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            raise _Fallback  # compared as text: numbers' spelling left to numpy
        table = table.filter(pc.equal(column, pa.scalar(text, column.type)))
        if table.num_rows == 0:
            raise _Fallback
    codes = [_codes(table.column(c), not parquet)[:2] for c in levels]
    table = table.drop_columns([c for c in levels if c != benchmark_column])
    vals = _fast_values(table.column(value))
    table = table.drop_columns([value])
    pa.default_memory_pool().release_unused()  # the text, before numpy allocates
    if benchmark_column is None:
        del table
        return {None: (_fast_design(codes, vals, levels, value, balance, source, None),
                       UnitInfo())}
    bench, n_bench, names = _codes(table.column(benchmark_column), True)
    del table
    order = np.argsort(bench.astype(np.uint16) if n_bench <= 1 << 16 else bench, kind="stable")
    bounds = np.cumsum(np.bincount(bench, minlength=n_bench))
    out = {}
    for b, rows in enumerate(np.split(order, bounds[:-1])):
        name = str(names[b].as_py())
        part = [(c[rows], k) for c, k in codes]
        out[name] = (_fast_design(part, vals[rows], levels, value, balance, source, name),
                     UnitInfo())
    return out


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
