"""Parsing a tidy table: its rows selected, its cells checked, its designs built.

The standard-library route of :mod:`esize.readers.tidy` (and the pyarrow route's
designs that do not balance): rows kept by ``where`` and split by the benchmark column,
every value cell checked (a number, finite, positive, not below the smallest normal
double) and every grouping label present, each problem an
:class:`~esize.InputError` naming the column and the row; then the design built by
the routine of :func:`esize.from_tidy`, with a note for what ``balance="truncate"``
dropped.
"""

from __future__ import annotations

import datetime as dt
import re
import warnings
from collections.abc import Iterable, Mapping

import numpy as np

from .._design import from_tidy, missing_labels, tidy_design
from .._errors import DesignError, EsizeWarning, InputError
from ._common import prefix, size_histogram, subnormal_problem, truncation_note
from ._tidy_load import Table


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
    codes: np.ndarray
    if col.dtype.kind == "S":
        codes = np.frombuffer(col.tobytes(), np.uint8).reshape(len(col), -1)
    else:
        codes = col.view(np.uint32).reshape(len(col), -1)
    if codes.shape[1] == 0:
        return np.zeros(len(col), dtype=bool)
    ok = (codes < 128) & _PLAIN_CHARS[np.minimum(codes, 127)]
    # (ignored: numpy's stubs give all(axis=1) as a bool or an array; here an array)
    return ~ok.all(axis=1)  # type: ignore[return-value]


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
        # (ignored: numpy's stubs refuse None, which an object array compares with)
        unparsed = np.equal(conv, None).astype(bool)  # type: ignore[call-overload]
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


#: Column names that hold benchmark names: a table with two or more names in one of
#: them holds several benchmarks, which are not pooled into one.
BENCHMARK_LIKE = ("benchmark", "bench", "benchmark_name", "name", "test", "case")


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

