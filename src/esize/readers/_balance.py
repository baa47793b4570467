"""Nested, possibly ragged groups of measurements turned into a balanced
:class:`~esize.Design` (:func:`design_from_ragged`): unbalanced groups are an
:class:`~esize.InputError`, or with ``--balance truncate`` are cut to the smallest
with an :class:`~esize.EsizeWarning` saying what was dropped. Re-exported by
:mod:`esize.readers._common`.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Sequence
from typing import cast

import numpy as np

from .._design import Design
from .._errors import DesignError, EsizeWarning, InputError
from ._checks import plural, prefix, where_text

__all__ = [
    "BALANCE_MODES",
    "check_balance_mode",
    "truncation_note",
    "size_histogram",
    "design_from_ragged",
]

BALANCE_MODES = ("truncate",)


def check_balance_mode(balance, source) -> None:
    """InputError unless ``balance`` is None or one of :data:`BALANCE_MODES`."""
    if balance not in (None, *BALANCE_MODES):
        raise InputError(source, f"unknown --balance mode {balance!r}; use one of {BALANCE_MODES}")


def _items(node) -> list:
    if isinstance(node, dict):
        return list(node.items())
    return list(enumerate(node, 1))


def _count_leaves(items, depth_below: int) -> int:
    if depth_below == 0:
        return len(items)
    return sum(_count_leaves(_items(node), depth_below - 1) for _, node in items)


def truncation_note(source, benchmark, child, parent, lo, found, cut, dropped, lowest,
                    total: int | None = None) -> str:
    """The note of ``--balance truncate`` for one level; with ``total`` (the
    measurements before any cut) it says what share of the data was dropped."""
    share = ""
    if total:
        pct = 100.0 * dropped / total
        share = f": {pct:.3g} % of all {plural(lowest)}" + (
            ", so the result rests on a small part of the data" if pct >= 50 else "")
    return (
        f"{source}: {prefix(benchmark)}--balance truncate kept the first {lo} "
        f"{plural(child, lo)} of every {parent} ({found}; {cut} "
        f"{plural(parent, cut)} cut, {dropped} {plural(lowest, dropped)} dropped{share})"
    )


def size_histogram(counts, parent: str, child: str) -> str:
    """``"19 processes with 3 values, 1 process with 2 values"`` (largest groups first)."""
    hist = sorted(Counter(counts).items(), key=lambda kv: -kv[0])
    return ", ".join(f"{n} {plural(parent, n)} with {c} {plural(child, c)}" for c, n in hist)


def design_from_ragged(
    units,
    levels: Sequence[str],
    *,
    balance: str | None = None,
    source: str = "",
    benchmark: str | None = None,
) -> Design:
    """Build a balanced :class:`~esize.Design` from nested, possibly ragged groups.

    Parameters
    ----------
    units : list or dict
        The top-level units; each unit holds its children the same way, down to the
        measurements (numbers). A list names its children by 1-based position, a
        dict by its keys (used in messages).
    levels : sequence of str
        Level names, highest first; ``len(levels)`` is the nesting depth.
    balance : {None, "truncate"}
        What to do when groups differ in size: None raises, ``"truncate"`` keeps the
        first ``m`` children of every group (``m`` the smallest group at that level)
        and warns saying what was dropped.
    source, benchmark : str
        File and benchmark named in errors and warnings.

    Returns
    -------
    Design

    Raises
    ------
    InputError
        Unbalanced data without ``balance``, or a group with no children.

    Warns
    -----
    EsizeWarning
        One per level that ``balance="truncate"`` cut.

    Examples
    --------
    >>> import warnings
    >>> import esize as ez
    >>> from esize.readers import design_from_ragged
    >>> d = design_from_ragged({"fork 1": [10, 11, 12], "fork 2": [12, 13, 14]},
    ...                        ("fork", "iteration"))
    >>> d.levels, d.data.tolist()
    (('fork', 'iteration'), [[10.0, 11.0, 12.0], [12.0, 13.0, 14.0]])

    Groups of different sizes are refused, or cut to the smallest with a note:

    >>> try:
    ...     design_from_ragged([[1, 2, 3], [4, 5]], ("process", "value"), source="run.json")
    ... except ez.InputError as exc:
    ...     print(exc)
    run.json: unbalanced: 1 process with 3 values, 1 process with 2 values (shortest: process 2); use --balance truncate to keep the first 2 values of every process
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     d = design_from_ragged([[1, 2, 3], [4, 5]], ("process", "value"),
    ...                            balance="truncate", source="run.json")
    >>> d.data.tolist(), len(caught)
    ([[1.0, 2.0], [4.0, 5.0]], 1)
    """
    levels = tuple(levels)
    check_balance_mode(balance, source)
    if len(levels) == 2 and isinstance(units, list) and units:
        # the usual case (processes of values, forks of iterations): a list of
        # equally long lists of numbers is already the design
        n = len(units[0]) if isinstance(units[0], list) else 0
        if n and all(isinstance(u, list) and len(u) == n for u in units):
            try:
                data = np.asarray(units, dtype=np.float64)
            except (TypeError, ValueError):
                data = None  # not numbers: the general walk below names the problem
            if data is not None and data.shape == (len(units), n):
                try:
                    return Design(data, levels)
                except DesignError as exc:
                    raise InputError(source, f"{prefix(benchmark)}{exc}") from None
    frontier: list[tuple[tuple, list]] = [((), _items(units))]
    total = _count_leaves(frontier[0][1], len(levels) - 1)
    shape: list[int] = []
    for d, child in enumerate(levels):
        parent = levels[d - 1] if d > 0 else None
        counts = [len(items) for _, items in frontier]
        lo, hi = min(counts), max(counts)
        if lo == 0:
            path = next(p for p, items in frontier if not items)
            owner = where_text(levels, path) if path else "the file"
            raise InputError(source, f"{prefix(benchmark)}{owner} has no {plural(child)}")
        if lo != hi:
            short = [p for (p, items) in frontier if len(items) == lo]
            shown = "; ".join(where_text(levels, p) for p in short[:3]) + (
                f" and {len(short) - 3} more" if len(short) > 3 else ""
            )
            found = size_histogram(counts, cast(str, parent), child)  # d > 0 (one top: balanced)
            if balance is None:
                raise InputError(
                    source,
                    f"{prefix(benchmark)}unbalanced: {found} (shortest: {shown}); "
                    f"use --balance truncate to keep the first {lo} {plural(child, lo)} "
                    f"of every {parent}",
                )
            below = len(levels) - d - 1
            before = sum(_count_leaves(items, below) for _, items in frontier)
            cut = sum(1 for c in counts if c > lo)
            frontier = [(p, items[:lo]) for p, items in frontier]
            after = sum(_count_leaves(items, below) for _, items in frontier)
            warnings.warn(
                truncation_note(
                    source, benchmark, child, parent, lo, found, cut, before - after, levels[-1],
                    total,
                ),
                EsizeWarning,
                stacklevel=2,
            )
        shape.append(lo)
        if d < len(levels) - 1:
            frontier = [
                (p + (label,), _items(node)) for p, items in frontier for label, node in items
            ]
    values = [v for _, items in frontier for _, v in items]
    try:
        return Design(np.asarray(values, dtype=np.float64).reshape(shape), levels)
    except DesignError as exc:
        raise InputError(source, f"{prefix(benchmark)}{exc}") from None
