"""Random small tidy tables and an independent oracle of what reading them must give.

The strategy draws a design of 1-3 grouping levels, balanced or ragged, whose cells
are mostly positive numbers and sometimes something a reader must refuse (empty,
text, a date, NaN, infinity, zero, a negative or a subnormal number); the rows are
shuffled. The oracle rebuilds the expected result with plain Python loops over the
rows -- dictionaries in first-appearance order for the grouping, ``float`` for the
cells -- sharing no code with :mod:`esize.readers.tidy` or :mod:`esize._design`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from hypothesis import strategies as st

SMALLEST_NORMAL = 2.2250738585072014e-308
LEVEL_NAMES = ("g1", "g2", "g3")
BAD_CELLS = ("", " ", "nan", "NaN", "inf", "-inf", "fast", "n/a", "2024-01-05",
             "2024-01-05T10:30:00", "12:30:00", "0", "-0", "-1.5", "1e-320")
GOOD_CELLS = ("1", "2.5", " 3.25", "1e3", "0.001", "7")

#: Error categories -> words the reader's message must hold.
WORDS = {
    "missing": "has a missing value",
    "date": "holds dates or times",
    "non-numeric": "has a non-numeric value",
    "nan": "NaN",
    "infinite": "has an infinite value",
    "non-positive": "non-positive",
    "subnormal": "smallest normal double",
    "unbalanced": "unbalanced",
    "single": "a single measurement in all",
}


@dataclass(frozen=True)
class Table:
    """A generated table: level names, rows ``(labels, cell text)`` in file order."""

    levels: tuple[str, ...]
    rows: tuple[tuple[tuple[str, ...], str], ...]

    def csv_text(self) -> str:
        lines = [",".join([*self.levels, "time"])]
        lines += [",".join([*labels, cell]) for labels, cell in self.rows]
        return "\n".join(lines) + "\n"


@st.composite
def tidy_tables(draw) -> Table:
    """A small tidy table, balanced or ragged, with 1-3 grouping levels."""
    depth = draw(st.integers(1, 3))
    balanced = draw(st.booleans())
    # a clean table, or one with one or two kinds of bad cell among the good ones
    bad = draw(st.one_of(st.just([]), st.lists(st.sampled_from(BAD_CELLS), min_size=1,
                                               max_size=2)))
    cell = st.sampled_from(GOOD_CELLS + tuple(bad))
    fixed = [draw(st.integers(1, 3)) for _ in range(depth + 1)]  # counts per level

    def count(d: int) -> int:
        return fixed[d] if balanced else draw(st.integers(1, 3))

    rows = []

    def grow(labels: tuple, d: int) -> None:
        if d == depth:
            rows.extend((labels, draw(cell)) for _ in range(count(d)))
            return
        for k in range(count(d)):
            grow((*labels, "abc"[k]), d + 1)

    grow((), 0)
    order = draw(st.permutations(range(len(rows))))
    return Table(LEVEL_NAMES[:depth], tuple(rows[k] for k in order))


def _classify(text: str):
    """``(category, None)`` for a bad cell, ``(None, value)`` for a good one."""
    try:
        v = float(text)
    except ValueError:
        if not text.strip():
            return "missing", None
        if re.fullmatch(r"\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d)?|\d\d:\d\d:\d\d", text.strip()):
            return "date", None
        return "non-numeric", None
    if math.isnan(v):
        return "nan", None
    if math.isinf(v):
        return "infinite", None
    return None, v


def expected(table: Table, truncate: bool = False):
    """What reading ``table`` must give.

    Returns
    -------
    ("design", nested lists, shape) or ("error", category, line or None)
        ``line`` is the CSV line of the first bad cell (the header is line 1).
    """
    values = []
    for k, (_, text) in enumerate(table.rows):
        category, v = _classify(text)
        if category:
            return "error", category, k + 2
        values.append(v)
    for k, v in enumerate(values):
        if v <= 0:
            return "error", "non-positive", k + 2
    for k, v in enumerate(values):
        if v < SMALLEST_NORMAL:
            return "error", "subnormal", k + 2
    # nested dicts in first-appearance order; the leaves are lists of values
    tree: dict = {}
    for (labels, _), v in zip(table.rows, values):
        node = tree
        for label in labels[:-1]:
            node = node.setdefault(label, {})
        node.setdefault(labels[-1], []).append(v)
    # level by level, top first: every parent must have as many children (or keep
    # the first m of each, m the fewest, with truncate)
    frontier = [tree]
    depth = len(table.levels)
    shape = []
    for d in range(depth + 1):
        counts = [len(node) for node in frontier]
        m = min(counts)
        if max(counts) != m and not truncate:
            return "error", "unbalanced", None
        shape.append(m)
        kept = []
        for node in frontier:
            children = list(node.values())[:m] if isinstance(node, dict) else node[:m]
            kept.append(children)
        if d == depth:
            frontier = kept
            break
        frontier = [child for children in kept for child in children]
    # frontier: per lowest-level group, its first m values, in nesting order
    flat = [v for group in frontier for v in group]
    # a highest level with one unit is analysed with the level below as the top (with a
    # caveat); a single measurement in all is an error
    while len(shape) > 1 and shape[0] == 1:
        shape = shape[1:]
    # a lower level of one unit in every parent is merged into the level above
    shape = shape[:1] + [n for n in shape[1:] if n != 1]
    if shape[0] < 2:
        return "error", "single", None
    return "design", flat, tuple(shape)
