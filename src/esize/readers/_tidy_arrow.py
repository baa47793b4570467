"""The pyarrow route of the tidy reader: well-formed tables read fast, in linear time.

A well-formed table (the usual case, and the one that can be large) is read with
pyarrow's CSV or Parquet reader, only the columns used, and grouped in linear time
(hashing, no sorting of labels). It answers only when it can answer exactly as the
route above: anything it does not handle itself (no pyarrow, a quote character, a
bad cell, a missing column, ...) sends the file to the standard-library route, which
says what is wrong with it. Both give the same designs, notes and errors; the
standard-library route just needs about four times the memory and ten times the
time.

:func:`_fast_parse` is ``parse(*_load(p))`` of :mod:`esize.readers.tidy` for the
tables it reads, or :class:`_Fallback` (CSV files below :data:`FAST_MIN_BYTES`
included: the standard library reads them as fast).
"""

from __future__ import annotations

import csv
import lzma
import zlib
from pathlib import Path
from typing import cast

import numpy as np

from .._errors import InputError
from ._common import check_file, max_input_bytes, subnormal_problem
from ._suffixes import PARQUET_SUFFIXES
from ._tidy_cells import BENCHMARK_LIKE, _design
from ._tidy_load import _CHUNK, _compression, _delimiter, check_parquet_size
from .units import UnitInfo


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


def _benchmark_like(names, wanted) -> bool:
    """Whether a column the read leaves out may name benchmarks (:data:`BENCHMARK_LIKE`)."""
    return any(str(n).lower() in BENCHMARK_LIKE and n not in wanted for n in names)


def _fast_csv(p: Path, wanted: list[str], labels: list[str], value: str, max_bytes,
              unsplit: bool = False):
    """The columns ``wanted`` of CSV file ``p`` as a pyarrow table (``labels`` as
    text, ``value`` as doubles), after the checks of :func:`_csv_bytes_ok`."""
    pa, _ = _pyarrow()
    import pyarrow.csv as pcsv

    header, data = _csv_bytes_ok(p, max_input_bytes(max_bytes))
    delimiter = _delimiter(p, header)
    names = _header_names(header, delimiter)
    if len(set(names)) != len(names) or any(c not in names for c in wanted):
        raise _Fallback  # duplicate or missing columns: said by the other route
    if unsplit and _benchmark_like(names, wanted):
        raise _Fallback  # several benchmarks, perhaps: the other route looks
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


def _fast_parquet(p: Path, wanted: list[str], labels: list[str], max_bytes: int | None,
                  unsplit: bool = False):
    """The columns ``wanted`` of Parquet file ``p`` (``labels`` dictionary-encoded),
    once its decoded size is known to be within the input size limit."""
    pa, _ = _pyarrow()
    import pyarrow.parquet as pq

    try:
        check_parquet_size(p, max_bytes)
        schema = pq.read_schema(p)
        names = schema.names
        if len(set(names)) != len(names) or any(c not in names for c in wanted):
            raise _Fallback
        if unsplit and _benchmark_like(names, wanted):
            raise _Fallback
        text = [c for c in labels if pa.types.is_string(schema.field(c).type)
                or pa.types.is_large_string(schema.field(c).type)]
        with pq.ParquetFile(p, read_dictionary=text) as f:  # (read_table imports pandas)
            return f.read(columns=wanted, use_pandas_metadata=False)
    except (_Fallback, InputError):
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
        sizes = np.bincount(cast(np.ndarray, unit), minlength=n_units)  # (codes: not empty)
        if sizes.min() == sizes.max():
            small = np.uint16 if groups.size <= 1 << 16 else np.int64  # radix sort
            row_group: np.ndarray = groups.astype(small)[unit]
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
    unsplit = benchmark_column is None
    if parquet:
        table = _fast_parquet(p, wanted, [c for c in wanted if c != value], max_bytes, unsplit)
    else:
        text_cols = [c for c in wanted if c != value]
        table = _fast_csv(p, wanted, text_cols, value, max_bytes, unsplit)
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

