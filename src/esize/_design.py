"""Balanced hierarchical designs: the data model of esize.

A design with ``n + 1`` levels (the paper's *n-way classification*) is held as an
ndarray of shape ``(n_top, ..., n_1)``: axis 0 is the highest level (for example
binaries), the last axis the lowest (measurements within one execution). Level names
are kept alongside, highest first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._errors import DesignError

__all__ = ["Design", "from_tidy"]


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
        """Grand mean of all measurements."""
        return float(self.data.mean())

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
    frame,
    levels: Sequence[str],
    value: str = "time",
    lowest: str = "measurement",
) -> Design:
    """Build a :class:`Design` from a tidy table, one row per measurement.

    Parameters
    ----------
    frame : pandas.DataFrame
        The measurements. Other columns are ignored.
    levels : sequence of str
        Grouping columns, highest level first (for example ``["binary",
        "execution"]``). Units are identified by their labels within their parent;
        the rows of one lowest-level group, in table order, are its measurements.
    value : str
        Column with the measured values.
    lowest : str
        Name given to the lowest level (the rows).

    Raises
    ------
    DesignError
        If a column is missing or the design is not balanced.
    """
    import pandas as pd

    levels = list(levels)
    missing = [c for c in [*levels, value] if c not in frame.columns]
    if missing:
        raise DesignError(
            f"missing column(s) {', '.join(repr(c) for c in missing)}; "
            f"columns are {list(map(str, frame.columns))}"
        )
    if lowest in levels:
        raise DesignError(f"the lowest level name {lowest!r} is also a grouping column")
    if len(frame) == 0:
        raise DesignError("no rows")
    values = pd.to_numeric(frame[value], errors="coerce").to_numpy(dtype=np.float64)
    if not np.all(np.isfinite(values)):
        bad = np.flatnonzero(~np.isfinite(values))
        raise DesignError(
            f"column {value!r} has {bad.size} missing, non-numeric, NaN or infinite "
            f"value(s) (first in data row {int(bad[0]) + 1})"
        )

    n = len(frame)
    positions: list[np.ndarray] = []
    shape: list[int] = []
    parent = np.zeros(n, dtype=np.int64)  # group id of each row at the level above
    for depth, col in enumerate(levels):
        keys = frame[col].to_numpy()
        if pd.isna(keys).any():
            raise DesignError(f"grouping column {col!r} has missing labels")
        # group id at this depth: (parent, label), numbered by first appearance
        child = (
            pd.DataFrame({"p": parent, "k": keys})
            .groupby(["p", "k"], sort=False, dropna=False)
            .ngroup()
            .to_numpy()
        )
        first = pd.Series(np.arange(n)).groupby(child).min().to_numpy()
        child_parent = parent[first]
        # position of each child within its parent, by first appearance
        order = np.argsort(first, kind="stable")
        pos_of_child = np.empty(len(first), dtype=np.int64)
        pos_of_child[order] = (
            pd.Series(child_parent[order]).groupby(child_parent[order]).cumcount().to_numpy()
        )
        sizes = np.bincount(child_parent)
        sizes = sizes[sizes > 0]
        if sizes.min() != sizes.max():
            where = "the experiment" if depth == 0 else f"each {levels[depth - 1]!r}"
            raise DesignError(
                f"unbalanced design: {where} should have the same number of "
                f"{col!r} units, found between {sizes.min()} and {sizes.max()}"
            )
        shape.append(int(sizes[0]))
        positions.append(pos_of_child[child])
        parent = child
    sizes = np.bincount(parent)
    if sizes.min() != sizes.max():
        owner = levels[-1] if levels else "the experiment"
        raise DesignError(
            f"unbalanced design: each {owner!r} group should have the same number of "
            f"measurements, found between {sizes.min()} and {sizes.max()}"
        )
    shape.append(int(sizes[0]))
    positions.append(pd.Series(parent).groupby(parent).cumcount().to_numpy())
    data = np.empty(shape, dtype=np.float64)
    data[tuple(positions)] = values
    return Design(data, (*levels, lowest))
