"""Balanced hierarchical designs: the data model of esize.

A design with ``n + 1`` levels (the paper's *n-way classification*) is held as an
ndarray of shape ``(n_top, ..., n_1)``: axis 0 is the highest level (for example
binaries), the last axis the lowest (measurements within one execution). Level names
are kept alongside, highest first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._errors import DesignError

__all__ = ["Design", "from_tidy", "scale_exponent"]


def scale_exponent(values) -> int:
    """The ``e`` for which ``max |values| / 2**e`` lies in [1/2, 1) (0 for all zeros).

    Dividing by a power of two is exact, so the estimators compute in those units:
    at ordinary magnitudes nothing changes, and data near the ends of the float range
    no longer overflow or underflow when summed or squared.
    """
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return 0
    return abs_max_exponent(arr)[1]


def abs_max_exponent(arr: np.ndarray) -> tuple[float, int]:
    """``max |arr|`` and :func:`scale_exponent`'s ``e`` for it (0 when the maximum is
    zero or not finite); ``arr`` a float64 array that is not empty. The estimators
    use the maximum again (their zero rule), so they take both from here."""
    m = float(np.max(np.abs(arr)))
    if m == 0.0 or not math.isfinite(m):
        return m, 0
    return m, math.frexp(m)[1]


@dataclass(frozen=True)
class Design:
    """Measurements of one system in a balanced experiment of any depth.

    Parameters
    ----------
    data : array_like
        Measurements, shape ``(n_top, ..., n_1)``; axis 0 is the highest level.
    levels : sequence of str
        One unique name per axis, highest level first; the last one names the
        repeated measurements (conventionally ``"measurement"``).

    Raises
    ------
    DesignError
        If the shapes and names do not agree, a value is not finite, or a level
        has fewer than one unit.

    Examples
    --------
    Two executions of three measurements each:

    >>> import esize as ez
    >>> d = ez.Design([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], ("execution", "measurement"))
    >>> d.shape, d.counts
    ((2, 3), {'execution': 2, 'measurement': 3})
    >>> d.mean, d.unit_means("execution").tolist()
    (3.5, [2.0, 5.0])
    >>> d.trim(1).data.tolist()  # the first measurement of every execution dropped
    [[2.0, 3.0], [5.0, 6.0]]
    """

    data: np.ndarray
    levels: tuple[str, ...]

    def __post_init__(self) -> None:
        data = np.asarray(self.data, dtype=np.float64)
        levels = tuple(str(x) for x in self.levels)
        if data.ndim < 1:
            raise DesignError("a design needs at least one level")
        if len(levels) != data.ndim:
            raise DesignError(
                f"{len(levels)} level names for data with {data.ndim} levels"
            )
        if len(set(levels)) != len(levels):
            raise DesignError(f"level names must be unique, got {list(levels)}")
        if data.size == 0:
            raise DesignError("the design holds no measurements")
        if not np.all(np.isfinite(data)):
            bad = int(np.count_nonzero(~np.isfinite(data)))
            raise DesignError(f"{bad} measurement(s) are NaN or infinite")
        data = np.ascontiguousarray(data)
        data.setflags(write=False)
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "levels", levels)

    # -- basic properties ---------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        """Repetition counts, highest level first."""
        return tuple(self.data.shape)

    @property
    def counts(self) -> dict[str, int]:
        """Repetition count of every level, keyed by name (highest first)."""
        return dict(zip(self.levels, self.data.shape))

    @property
    def n_levels(self) -> int:
        return self.data.ndim

    @property
    def mean(self) -> float:
        """Grand mean of all measurements.

        Summed in units of a power of two (:func:`scale_exponent`), so that it is the
        plain mean at ordinary magnitudes and does not overflow near the largest floats.
        """
        e = abs_max_exponent(self.data)[1]
        if e == 0:
            return float(self.data.mean())
        # the mean of values below 1 in size, times 2**e: never beyond the largest float
        return math.ldexp(float(np.ldexp(self.data, -e).mean()), e)

    def level_index(self, level: str | int) -> int:
        """Axis index of ``level`` (a name, or an axis index)."""
        if isinstance(level, (int, np.integer)):
            idx = int(level)
            if not -self.n_levels <= idx < self.n_levels:
                raise DesignError(f"no level with index {idx}")
            return idx % self.n_levels
        try:
            return self.levels.index(level)
        except ValueError:
            raise DesignError(
                f"unknown level {level!r}; levels are {list(self.levels)}"
            ) from None

    # -- transformations -------------------------------------------------------------
    def unit_means(self, level: str | int) -> np.ndarray:
        """Means of the units at ``level``: averages over every level below it.

        The result has shape ``self.shape[: i + 1]`` where ``i`` is the level's axis.
        """
        i = self.level_index(level)
        below = tuple(range(i + 1, self.n_levels))
        return self.data.mean(axis=below) if below else self.data.copy()

    def trim(self, warmup: int) -> Design:
        """Drop the first ``warmup`` measurements of every lowest-level group."""
        warmup = int(warmup)
        if warmup < 0:
            raise DesignError(f"warm-up must be >= 0, got {warmup}")
        if warmup == 0:
            return self
        n1 = self.shape[-1]
        if warmup >= n1:
            raise DesignError(
                f"warm-up of {warmup} leaves no measurements "
                f"(each {self.levels[-1]} group has {n1})"
            )
        return Design(self.data[..., warmup:], self.levels)

    def merge(self, level: str | int) -> Design:
        """Merge ``level`` into the level below it.

        The units of the level below that share a parent at ``level``'s parent become
        one group: ``(..., n_i, n_{i-1}, ...)`` becomes ``(..., n_i * n_{i-1}, ...)``.
        The merged level keeps the lower level's name. This is what the paper does
        when it drops a level whose unbiased variance estimate :math:`T_i^2 \\le 0`
        (Section "For Practitioners: The New Method without Statistics", Table ``tWE2Data``).
        """
        i = self.level_index(level)
        if i == self.n_levels - 1:
            raise DesignError(
                f"cannot merge the lowest level {self.levels[i]!r}: nothing below it"
            )
        shape = list(self.shape)
        shape[i : i + 2] = [shape[i] * shape[i + 1]]
        levels = self.levels[:i] + self.levels[i + 1 :]
        return Design(self.data.reshape(shape), levels)

    def require_replication(self, minimum: int = 2) -> Design:
        """Raise :class:`DesignError` unless every level has ``minimum`` units."""
        for name, n in self.counts.items():
            if n < minimum:
                raise DesignError(
                    f"level {name!r} has {n} unit(s) per group; at least {minimum} needed"
                )
        return self

    def to_frame(self, value: str = "time"):
        """The design as a tidy :class:`pandas.DataFrame` (one row per measurement).

        Grouping columns hold 0-based positions; the lowest level becomes a
        column of positions too, so ``from_tidy(d.to_frame(), d.levels[:-1])``
        rebuilds the design.
        """
        import pandas as pd

        grids = np.indices(self.shape).reshape(self.n_levels, -1)
        cols = {name: grids[k] for k, name in enumerate(self.levels)}
        cols[value] = self.data.ravel()
        return pd.DataFrame(cols)


def from_tidy(
    table,
    levels: Sequence[str],
    value: str = "time",
    lowest: str = "measurement",
) -> Design:
    """Build a :class:`Design` from a tidy table, one row per measurement.

    Parameters
    ----------
    table : mapping or pandas.DataFrame
        The measurements: any mapping of column name -> 1-D array (a dict of
        numpy arrays, a :class:`pandas.DataFrame`, ...), all columns of one
        length. Other columns are ignored.
    levels : sequence of str
        Grouping columns, highest level first (for example ``["binary",
        "execution"]``). Units are identified by their labels within their parent
        and numbered by first appearance; the rows of one lowest-level group, in
        table order, are its measurements.
    value : str
        Column with the measured values (numbers, or text holding numbers).
    lowest : str
        Name given to the lowest level (the rows).

    Returns
    -------
    Design

    Raises
    ------
    DesignError
        If a column is missing, a value is not a finite number, a label is missing,
        or the design is not balanced (Section "Statistical Model for a Hierarchy of
        Random Effects" assumes equal repetition counts within every level).

    Examples
    --------
    >>> import esize as ez
    >>> table = {"execution": ["a", "a", "b", "b"], "time": [1.0, 3.0, 5.0, 7.0]}
    >>> d = ez.from_tidy(table, ["execution"])
    >>> d.levels, d.data.tolist()
    (('execution', 'measurement'), [[1.0, 3.0], [5.0, 7.0]])

    An unbalanced table is refused:

    >>> try:
    ...     ez.from_tidy({"execution": ["a", "a", "b"], "time": [1, 2, 3]}, ["execution"])
    ... except ez.DesignError as exc:
    ...     print(exc)
    unbalanced design: each 'execution' group should have the same number of measurements, found between 1 and 2
    """
    design, _ = tidy_design(table, levels, value=value, lowest=lowest)
    return design


# -- the one route from a table to a design --------------------------------------------
@dataclass(frozen=True)
class Truncation:
    """What ``truncate`` cut at one level of a tidy table.

    Attributes
    ----------
    depth : int
        Axis of the level that was cut (its parent is axis ``depth - 1``).
    kept : int
        Units kept per parent: the smallest parent's count.
    counts : numpy.ndarray
        Number of units of every parent before the cut.
    dropped : int
        Measurements (rows) dropped with the cut units.
    """

    depth: int
    kept: int
    counts: np.ndarray
    dropped: int


def tidy_design(
    table,
    levels: Sequence[str],
    *,
    value: str = "time",
    lowest: str = "measurement",
    truncate: bool = False,
) -> tuple[Design, list[Truncation]]:
    """A design from table columns, balanced or (with ``truncate``) cut to balance.

    The shared routine behind :func:`from_tidy` and the tidy reader of
    :mod:`esize.readers`. Rows are grouped level by level, each unit numbered by
    its first appearance within its parent; a level whose parents hold different
    numbers of units is an error, or with ``truncate`` keeps the first ``m`` units
    of every parent (``m`` the smallest count), top level first.

    Returns
    -------
    (Design, list of Truncation)
        The design and what was cut, one entry per level cut (empty unless
        ``truncate``).

    Raises
    ------
    DesignError
        As :func:`from_tidy`.
    """
    levels = [str(c) for c in levels]
    columns = [str(c) for c in table]
    missing = [c for c in [*levels, value] if c not in table]
    if missing:
        raise DesignError(
            f"missing column(s) {', '.join(repr(c) for c in missing)}; columns are {columns}"
        )
    if lowest in levels:
        raise DesignError(f"the lowest level name {lowest!r} is also a grouping column")
    values = _float_column(table[value])
    if values.size == 0:
        raise DesignError("no rows")
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        raise DesignError(
            f"column {value!r} has {bad.size} missing, non-numeric, NaN or infinite "
            f"value(s) (first in data row {int(bad[0]) + 1})"
        )
    codes = []
    for col in levels:
        keys = np.asarray(table[col])
        if missing_labels(keys).any():
            raise DesignError(f"grouping column {col!r} has missing labels")
        codes.append(_label_codes(keys))
    names = (*levels, lowest)
    shape, positions, keep, cuts = _balance(_nest(codes, values.size), names, truncate)
    data = np.empty(shape, dtype=np.float64)
    data[tuple(p[keep] for p in positions)] = values[keep]
    return Design(data, names), cuts


def _float_column(column) -> np.ndarray:
    """A column as floats; entries that are not numbers become NaN."""
    arr = np.asarray(column)
    if arr.dtype.kind in "biuf":
        return arr.astype(np.float64).reshape(-1)
    try:
        return arr.astype(np.float64).reshape(-1)
    except (TypeError, ValueError):  # some entry is not a number: find which
        return np.frompyfunc(_to_float, 1, 1)(arr).astype(np.float64).reshape(-1)


def _to_float(x) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


def missing_labels(keys: np.ndarray) -> np.ndarray:
    """Mask of missing labels: NaN, None, pandas' NA, or empty text."""
    if keys.dtype.kind == "f":
        return np.isnan(keys)
    if keys.dtype.kind in "US":
        return keys == keys.dtype.type()
    if keys.dtype.kind == "O":
        with np.errstate(invalid="ignore"):
            return np.frompyfunc(_is_missing, 1, 1)(keys).astype(bool)
    return np.zeros(keys.shape, dtype=bool)


def _is_missing(x) -> bool:
    if x is None or (isinstance(x, (float, np.floating)) and x != x):
        return True
    if isinstance(x, (str, bytes)):
        return not x
    return type(x).__name__ in ("NAType", "NaTType")


def _label_codes(keys: np.ndarray) -> np.ndarray:
    """One integer per row; equal labels get equal codes (the rank of the label among
    the distinct labels, as ``numpy.unique``'s inverse)."""
    if keys.dtype.kind in "iu" and keys.size:
        lo, hi = int(keys.min()), int(keys.max())
        if hi - lo < 2 * keys.size + 1024 and -(2**62) < lo and hi < 2**62:
            # integers in a dense range: ranks from a table of the values present, no
            # sort (the same codes as numpy.unique's inverse); offsets computed in intp,
            # which holds them (a narrow type could overflow: int8 127 - (-128))
            flat = keys.reshape(-1).astype(np.intp, copy=False)
            if lo:
                flat = flat - lo
            present = np.zeros(hi - lo + 1, dtype=bool)
            present[flat] = True
            rank = np.cumsum(present, dtype=np.int64) - 1
            return rank[flat]
    try:
        _, inverse = np.unique(keys, return_inverse=True)
    except TypeError:  # labels of mixed types that do not sort
        seen: dict = {}
        return np.fromiter(
            (seen.setdefault(k, len(seen)) for k in keys.tolist()), np.int64, keys.size
        )
    return inverse.reshape(-1).astype(np.int64)


def _first_appearance(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ids of ``key``'s distinct values numbered by first appearance, per row, and
    the first row of every id."""
    starts = _run_starts(key)
    if 2 * starts.size <= key.size and np.unique(key[starts]).size == starts.size:
        # every value in one run of rows (a table grouped by its labels, the usual
        # case): the runs in order are the ids, without sorting the rows. Checked only
        # when runs are few: for rows in no order it would cost a second sort
        return _run_ids(starts, key.size), starts
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rank[inverse.reshape(-1)], first[order]


def _positions(parent: np.ndarray) -> np.ndarray:
    """Position of every item among the items of the same parent, in item order."""
    if parent.size and np.all(parent[1:] >= parent[:-1]):  # items grouped by parent
        starts = _run_starts(parent)
        return np.arange(parent.size) - starts[_run_ids(starts, parent.size)]
    order = np.argsort(parent, kind="stable")
    sorted_parent = parent[order]
    start = np.searchsorted(sorted_parent, sorted_parent, side="left")
    pos = np.empty(parent.size, dtype=np.int64)
    pos[order] = np.arange(parent.size) - start
    return pos


def _run_starts(key: np.ndarray) -> np.ndarray:
    """First row of every run of equal values (``key`` not empty)."""
    change = np.empty(key.size, dtype=bool)
    change[0] = True
    np.not_equal(key[1:], key[:-1], out=change[1:])
    return np.flatnonzero(change)


def _run_ids(starts: np.ndarray, n: int) -> np.ndarray:
    """Run number of each of ``n`` rows, given the runs' first rows."""
    ids = np.zeros(n, dtype=np.int64)
    ids[starts[1:]] = 1
    return np.cumsum(ids)


def _nest(codes: list[np.ndarray], n: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per level (the rows last): the unit of every row, the parent of every unit,
    and every unit's position within its parent."""
    row_unit = np.zeros(n, dtype=np.int64)  # the whole table: one root
    out = []
    for code in codes:
        unit, first = _first_appearance(row_unit * (int(code.max()) + 1) + code)
        parent = row_unit[first]
        out.append((unit, parent, _positions(parent)))
        row_unit = unit
    out.append((np.arange(n), row_unit, _positions(row_unit)))
    return out


def _balance(nest, names, truncate: bool):
    """Shape, per-row index arrays, kept rows and cuts of a nested grouping."""
    n = nest[-1][0].size
    alive_parent = np.ones(1, dtype=bool)  # the root
    keep = np.ones(n, dtype=bool)
    shape, positions, cuts = [], [], []
    for depth, (unit, parent, pos) in enumerate(nest):
        alive = alive_parent[parent]
        counts = np.bincount(parent[alive], minlength=alive_parent.size)[alive_parent]
        lo, hi = int(counts.min()), int(counts.max())
        if lo != hi:
            if not truncate:
                raise DesignError(_unbalanced(names, depth, lo, hi))
            alive = alive & (pos < lo)
            before = int(keep.sum())
            keep = keep & alive[unit]
            cuts.append(Truncation(depth, lo, counts, before - int(keep.sum())))
        shape.append(lo)
        positions.append(pos[unit])
        alive_parent = alive
    return shape, positions, keep, cuts


def _unbalanced(names, depth: int, lo: int, hi: int) -> str:
    if depth == len(names) - 1:
        owner = names[depth - 1] if depth else "the experiment"
        return (
            f"unbalanced design: each {owner!r} group should have the same number of "
            f"measurements, found between {lo} and {hi}"
        )
    where = "the experiment" if depth == 0 else f"each {names[depth - 1]!r}"
    return (
        f"unbalanced design: {where} should have the same number of "
        f"{names[depth]!r} units, found between {lo} and {hi}"
    )
