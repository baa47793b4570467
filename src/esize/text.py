"""Plain-text output of esize's results: a table formatter, numbers for JSON, and the
words for units and the warm-up dropped.

Pure Python on top of the library's records: the command line prints with it, and
:mod:`esize.compare` renders its results with it. Nothing here computes a statistic.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from .readers.units import UnitInfo

__all__ = [
    "prefix",
    "num",
    "unit_text",
    "file_line",
    "Column",
    "format_table",
    "dump_json",
    "warmup_text",
    "merge_warmup",
]


def prefix(name) -> str:
    """``"benchmark 'name': "`` to start a message, nothing for an unnamed benchmark.

    Examples
    --------
    >>> from esize.text import prefix
    >>> prefix("sort") + "no values", prefix(None) + "no values"
    ("benchmark 'sort': no values", 'no values')
    """
    return "" if name is None else f"benchmark {name!r}: "


def num(x: float) -> float | None:
    """``x`` as a float for JSON, None when it is infinite or NaN.

    Examples
    --------
    >>> import numpy as np
    >>> from esize.text import num
    >>> num(np.float64(0.86)), num(float("inf")), num(float("nan"))
    (0.86, None, None)
    >>> type(num(np.float64(0.86))).__name__
    'float'
    """
    return float(x) if math.isfinite(x) else None


def unit_text(unit: UnitInfo) -> str:
    """``"(ns/op, lower is better)"``, or nothing for a table without a unit.

    Examples
    --------
    >>> from esize.readers import UnitInfo, unit_info
    >>> from esize.text import unit_text
    >>> unit_text(unit_info("ns/op")), unit_text(unit_info("ops/s")), unit_text(UnitInfo())
    ('(ns/op, lower is better)', '(ops/s, higher is better)', '')
    """
    if not unit.unit:
        return ""
    return f"({unit.unit}, {unit.direction})"


def file_line(path: str, fmt: str) -> str:
    """The first line of a summary or a plan: the file and, for a harness, its format.

    Examples
    --------
    >>> from esize.text import file_line
    >>> print(file_line("old.json", "jmh"))
    file        old.json   (jmh)
    >>> print(file_line("runs.csv", "tidy"))
    file        runs.csv
    """
    return f"file        {path}" + ("" if fmt == "tidy" else f"   ({fmt})")


@dataclass(frozen=True)
class Column:
    """One column of :func:`format_table`.

    Attributes
    ----------
    title : str
        Heading.
    width : int
        Minimum width of a cell (0: as wide as its text).
    align : {"<", ">"}
        Left or right alignment within the width.
    spec : str
        Format specification of numeric cells (``".4f"``); text cells are used as
        they are.
    gap : str
        Text put before the cell (after the previous column).

    Examples
    --------
    >>> from esize.text import Column
    >>> cell = Column("ratio", width=7, align=">", spec=".3f").cell(0.5)
    >>> cell, len(cell)
    ('  0.500', 7)
    >>> cell = Column("name", width=6, gap="| ").cell("sort")
    >>> cell, len(cell)  # the gap, then the text left-aligned in 6 characters
    ('| sort  ', 8)
    """

    title: str
    width: int = 0
    align: str = "<"
    spec: str = ""
    gap: str = ""

    def cell(self, value) -> str:
        text = value if isinstance(value, str) else format(value, self.spec)
        return f"{self.gap}{text:{self.align}{self.width}}"


def format_table(columns: Sequence[Column], rows: Sequence[Sequence], *,
                 header: bool = True) -> list[str]:
    """Lines of a plain-text table, one per row, with a heading line first.

    Parameters
    ----------
    columns : sequence of Column
        Layout of every column.
    rows : sequence of sequence
        Cells, one per column: numbers (formatted with the column's ``spec``) or
        text.
    header : bool
        Whether to start with the columns' titles.

    Examples
    --------
    >>> from esize.text import Column, format_table
    >>> columns = [Column("benchmark", 10), Column("ratio", 6, ">", ".3f", "  ")]
    >>> lines = format_table(columns, [("sort", 0.912), ("hash", 1.0)])
    >>> for line in lines:
    ...     print(line)
    benchmark    ratio
    sort         0.912
    hash         1.000
    >>> [len(line) for line in lines]  # the ratios right-aligned in one column
    [18, 18, 18]
    >>> len(format_table(columns, [("sort", 0.912)], header=False))
    1
    """
    lines = ["".join(c.cell(c.title) for c in columns).rstrip()] if header else []
    for row in rows:
        lines.append("".join(c.cell(v) for c, v in zip(columns, row)).rstrip())
    return lines


def dump_json(doc: dict) -> str:
    """The JSON text of a result (indented; NaN and infinities are an error).

    Examples
    --------
    >>> from esize.text import dump_json, num
    >>> print(dump_json({"ratio": 0.86, "upper": num(float("inf"))}))
    {
      "ratio": 0.86,
      "upper": null
    }
    >>> try:
    ...     dump_json({"upper": float("inf")})
    ... except ValueError:
    ...     print("refused")
    refused
    """
    return json.dumps(doc, indent=2, allow_nan=False)


def warmup_text(info: dict) -> str:
    """One line on the warm-up dropped: ``"auto: 120 values dropped (warm-up 98,
    balance 22); processes: 7 flat, 2 warm-up, 1 no steady state"``.

    Examples
    --------
    >>> from esize.text import warmup_text
    >>> warmup_text({"mode": "fixed", "per_group": 5, "dropped": 50})
    'fixed: the first 5 of every group, 50 dropped'
    >>> print(warmup_text({"mode": "auto", "dropped": 24, "dropped_warmup": 13,
    ...                    "dropped_balance": 11, "kept": 32,
    ...                    "classes": {"flat": 1, "warmup": 2, "slowdown": 0}}))
    auto: 24 values dropped (warm-up 13, balance 11), 32 kept per group; groups: 1 flat, 2 warm-up
    """
    if info["mode"] == "fixed":
        return f"fixed: the first {info['per_group']} of every group, {info['dropped']} dropped"
    if "not_checked" in info:
        return f"auto: not checked, {info['not_checked']}"
    names = {"flat": "flat", "warmup": "warm-up", "slowdown": "slow-down",
             "no_steady_state": "no steady state"}
    classes = ", ".join(f"{n} {names[k]}" for k, n in info["classes"].items() if n)
    return (f"auto: {info['dropped']} values dropped (warm-up {info['dropped_warmup']}, "
            f"balance {info['dropped_balance']}), {info['kept']} kept per group; "
            f"groups: {classes}")


def merge_warmup(old: dict | None, new: dict | None) -> dict | None:
    """The warm-up of a compared benchmark: both systems' totals (``mode``,
    ``dropped``, ``classes`` summed) with each system's own under ``old`` and ``new``.

    Examples
    --------
    >>> from esize.text import merge_warmup
    >>> old = {"mode": "auto", "dropped": 13, "classes": {"flat": 1, "warmup": 2}}
    >>> new = {"mode": "auto", "dropped": 4, "classes": {"flat": 2, "warmup": 1}}
    >>> merged = merge_warmup(old, new)
    >>> merged["dropped"], merged["classes"], merged["new"] is new
    (17, {'flat': 3, 'warmup': 3}, True)
    >>> merge_warmup(None, None) is None
    True
    """
    if old is None and new is None:
        return None
    parts = [w for w in (old, new) if w is not None]
    out: dict = {"mode": parts[0]["mode"], "dropped": sum(w["dropped"] for w in parts)}
    if all("classes" in w for w in parts):
        out["classes"] = {k: sum(w["classes"].get(k, 0) for w in parts)
                          for k in parts[0]["classes"]}
    out["old"], out["new"] = old, new
    return out
