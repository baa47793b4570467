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
    """``"benchmark 'name': "`` to start a message, nothing for an unnamed benchmark."""
    return "" if name is None else f"benchmark {name!r}: "


def num(x: float) -> float | None:
    """``x`` as a float for JSON, None when it is infinite or NaN."""
    return float(x) if math.isfinite(x) else None


def unit_text(unit: UnitInfo) -> str:
    """``"(ns/op, lower is better)"``, or nothing for a table without a unit."""
    if not unit.unit:
        return ""
    return f"({unit.unit}, {unit.direction})"


def file_line(path: str, fmt: str) -> str:
    """The first line of a summary or a plan: the file and, for a harness, its format."""
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
    """
    lines = ["".join(c.cell(c.title) for c in columns).rstrip()] if header else []
    for row in rows:
        lines.append("".join(c.cell(v) for c, v in zip(columns, row)).rstrip())
    return lines


def dump_json(doc: dict) -> str:
    """The JSON text of a result (indented; NaN and infinities are an error)."""
    return json.dumps(doc, indent=2, allow_nan=False)


def warmup_text(info: dict) -> str:
    """One line on the warm-up dropped: ``"auto: 120 values dropped (warm-up 98,
    balance 22); processes: 7 flat, 2 warm-up, 1 no steady state"``."""
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
    ``dropped``, ``classes`` summed) with each system's own under ``old`` and ``new``."""
    if old is None and new is None:
        return None
    parts = [w for w in (old, new) if w is not None]
    out: dict = {"mode": parts[0]["mode"], "dropped": sum(w["dropped"] for w in parts)}
    if all("classes" in w for w in parts):
        out["classes"] = {k: sum(w["classes"].get(k, 0) for w in parts)
                          for k in parts[0]["classes"]}
    out["old"], out["new"] = old, new
    return out
