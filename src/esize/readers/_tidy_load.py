"""Loading a tidy file as a table of columns: the standard-library route's reading.

CSV (plain, gzip, bzip2 or xz; comma- or tab-separated) is read by the :mod:`csv`
module, every cell as text, and every problem of the file itself (unreadable, corrupt
compression, not UTF-8, a NUL byte, too big, not valid CSV) is worded with its line;
Parquet is read by pyarrow (the ``parquet`` extra). :func:`_load` gives the table
and how to name its rows in messages; :mod:`esize.readers.tidy` parses it.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import itertools
import lzma
import re
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar, cast

import numpy as np

from .._errors import InputError
from ._common import check_file, max_input_bytes, nul_problem, os_reason, too_big
from ._suffixes import PARQUET_SUFFIXES

_MAGIC = (
    (b"\x1f\x8b", gzip.open, "gzip"),
    (b"BZh", bz2.open, "bzip2"),
    (b"\xfd7zXZ\x00", lzma.open, "xz"),
)

Table = dict  # column name -> 1-D numpy array


def _load(p: Path, max_bytes: int | None = None) -> tuple[Table, Callable[[int], str]]:
    """The table of file ``p`` and how to name its data row ``k`` (0-based) in a
    message: its line for a CSV file, its number for Parquet."""
    check_file(p, max_bytes)
    if p.suffix.lower() in PARQUET_SUFFIXES:
        return _read_parquet(p, max_bytes), lambda k: f"row {k + 1}"
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
        # without compression only the system fails to read: an OSError
        raise InputError(p, f"cannot read: {os_reason(cast(OSError, exc))}") from None
    raw = b"".join(chunks)
    del chunks
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(p, f"cannot read: not UTF-8 text (line {line}, byte "
                         f"{exc.start + 1} of the file)") from None


_T = TypeVar("_T")


def _csv_rows(p: Path, consume: Callable[..., _T],
              max_bytes: int | None = None) -> tuple[_T, str]:
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

    starts: list[int] | None

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


#: Bytes a value of each Parquet physical type takes once decoded; a byte array (text)
#: at least its offset or pointer, 8.
_DECODED_WIDTH = {"BOOLEAN": 1, "INT32": 4, "FLOAT": 4, "INT96": 12}


def _parquet_size(meta) -> int:
    """The bytes a Parquet file's data takes once decompressed and decoded, from its
    metadata alone: per row group, the larger of its uncompressed size and its rows
    times the width of a decoded row (dictionary and run-length encoding store a
    column of one repeated value in a few bytes, whatever the number of rows)."""
    schema = meta.schema
    width = sum(_DECODED_WIDTH.get(schema.column(i).physical_type, 8)
                for i in range(meta.num_columns))
    total = 0
    for i in range(meta.num_row_groups):
        group = meta.row_group(i)
        total += max(group.total_byte_size, group.num_rows * width)
    return total


def check_parquet_size(p: Path, max_bytes: int | None = None) -> None:
    """InputError when Parquet file ``p`` decodes to more than :func:`max_input_bytes`
    (a file of a few hundred kilobytes can hold gigabytes of values), read from its
    metadata before any data. A file whose metadata cannot be read is left to the
    reader, which says what is wrong with it."""
    import pyarrow.parquet as pq

    limit = max_input_bytes(max_bytes)
    size = _parquet_size(pq.read_metadata(p))
    if size > limit:
        raise too_big(p, size, limit, decompressed=True)


def _read_parquet(p: Path, max_bytes: int | None = None) -> Table:
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
        check_parquet_size(p, max_bytes)
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

