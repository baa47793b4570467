"""Figures for the command line: ratio intervals of a comparison, per-level variation.

The figures use matplotlib's object interface with the Agg canvas (no global pyplot
state, no display needed) and only black, white and greys with markers and hatches,
so they stay readable when printed in black and white. :func:`save_figure` writes
PNG, PDF or SVG, chosen by the file's extension, atomically.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from .._atomic import atomic_write
from .._errors import EsizeError

__all__ = ["PLOT_SUFFIXES", "compare_figure", "summary_figure", "save_figure"]

PLOT_SUFFIXES = (".png", ".pdf", ".svg")
_HATCHES = ("", "///", "xxx", "...", "\\\\\\", "ooo")
_GREYS = ("0.35", "0.75", "1.0", "0.55", "0.9", "0.15")
_MAX_LABEL = 42


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _short(label: str) -> str:
    label = str(label)
    return label if len(label) <= _MAX_LABEL else label[: _MAX_LABEL - 1] + "…"


def _ratio_axis_label(directions: set[bool]) -> str:
    if directions == {True}:
        return "ratio of mean times, new / old (below 1: new is faster)"
    if directions == {False}:
        return "ratio of mean rates, new / old (above 1: new is faster)"
    return "ratio of means, new / old (↑ rates: above 1 is faster)"


def compare_figure(
    rows: Sequence[Mapping],
    *,
    threshold: float,
    alpha: float,
    suite: Mapping | None = None,
):
    """Per-benchmark ratio new/old with its confidence interval.

    Parameters
    ----------
    rows : sequence of mapping
        One per benchmark with ``name``, ``ratio``, ``lower``, ``upper`` (None when
        unbounded), ``unit`` and ``lower_is_better``.
    threshold : float
        Relative threshold; the band ``[1 - threshold, 1 + threshold]`` is shaded.
    alpha : float
        One minus the confidence level (for the title).
    suite : mapping, optional
        ``geometric_mean``, ``lower`` and ``upper`` of the suite, and ``inverted``
        (names of rates that entered it as old/new), drawn below the benchmarks.

    Returns
    -------
    matplotlib.figure.Figure
    """
    n = len(rows) + (1 if suite else 0)
    fig = _figure(8.5, 1.4 + 0.38 * max(n, 2))
    ax = fig.add_subplot()
    ys = list(range(len(rows), 0, -1))
    if suite:
        ys = [y + 1 for y in ys]
    labels, ticks = [], []
    xs = [1.0 - threshold, 1.0 + threshold]
    for y, row in zip(ys, rows):
        r = row["ratio"]
        lo, hi = row.get("lower"), row.get("upper")
        xs.append(r)
        if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
            ax.plot([r], [y], marker="o", color="black", linestyle="none")
            ax.annotate("unbounded CI", (r, y), xytext=(6, 4), textcoords="offset points", fontsize=8)
        else:
            xs += [lo, hi]
            ax.errorbar(
                [r], [y], xerr=[[r - lo], [hi - r]], fmt="o", color="black",
                ecolor="black", elinewidth=1.2, capsize=3, markersize=5,
            )
        unit = row.get("unit") or ""
        tag = "" if row.get("lower_is_better", True) else " ↑"
        labels.append(_short(row["name"]) + (f" [{unit}{tag}]" if unit else tag))
        ticks.append(y)
    if suite:
        g, lo, hi = suite["geometric_mean"], suite["lower"], suite["upper"]
        xs += [g, lo, hi]
        ax.axhline(1.5, color="0.5", linewidth=0.6)
        ax.errorbar(
            [g], [1], xerr=[[g - lo], [hi - g]], fmt="D", color="black", markerfacecolor="white",
            ecolor="black", elinewidth=2.0, capsize=4, markersize=7,
        )
        labels.append("geometric mean" + (" (rates as old/new)" if suite.get("inverted") else ""))
        ticks.append(1)
    ax.axvspan(1.0 - threshold, 1.0 + threshold, color="0.88", zorder=0,
               label=f"threshold band 1 ± {threshold:g}")
    ax.axvline(1.0, color="black", linestyle="--", linewidth=0.8, zorder=1, label="no change (1)")
    lo_x, hi_x = min(xs), max(xs)
    pad = 0.08 * (hi_x - lo_x) if hi_x > lo_x else 0.05
    ax.set_xlim(lo_x - pad, hi_x + pad)
    ax.set_ylim(0.4, max(ticks) + 0.6)
    ax.set_yticks(ticks, labels)
    ax.set_xlabel(_ratio_axis_label({bool(r.get("lower_is_better", True)) for r in rows}))
    conf = f"{100 * (1 - alpha):g} %"
    ax.set_title(f"new / old with {conf} confidence intervals", fontsize=10)
    ax.legend(loc="best", fontsize=8, frameon=True)
    ax.grid(axis="x", color="0.9", linewidth=0.5)
    return fig


def summary_figure(rows: Sequence[Mapping]):
    """Relative variation of every level, one group of bars per benchmark.

    Parameters
    ----------
    rows : sequence of mapping
        One per benchmark with ``name``, ``levels`` (highest first) and ``T_pct``
        (the level's own variation, :math:`\\sqrt{\\max(T^2, 0)}` in percent of the
        mean) and ``T2`` (to mark levels whose estimate is not positive).

    Returns
    -------
    matplotlib.figure.Figure
    """
    levels: list[str] = []
    for row in rows:
        for lv in row["levels"]:
            if lv not in levels:
                levels.append(lv)
    k = len(levels)
    fig = _figure(max(5.0, 1.2 + 1.1 * len(rows) * max(k, 1) * 0.6), 4.2)
    ax = fig.add_subplot()
    width = 0.8 / max(k, 1)
    top = 0.0
    for j, lv in enumerate(levels):
        xs, hs, flags = [], [], []
        for i, row in enumerate(rows):
            if lv not in row["levels"]:
                continue
            pos = row["levels"].index(lv)
            xs.append(i - 0.4 + width * (j + 0.5))
            hs.append(row["T_pct"][pos])
            flags.append(row["T2"][pos] <= 0)
        top = max([top, *hs])
        ax.bar(
            xs, hs, width=width, color=_GREYS[j % len(_GREYS)], edgecolor="black",
            hatch=_HATCHES[j % len(_HATCHES)], linewidth=0.8, label=lv,
        )
        for x, flag in zip(xs, flags):
            if flag:
                ax.annotate("T²≤0", (x, 0), xytext=(0, 3), textcoords="offset points",
                            ha="center", fontsize=7, rotation=90)
    ax.set_xticks(range(len(rows)), [_short(r["name"]) for r in rows],
                  rotation=20 if len(rows) > 3 else 0, ha="right" if len(rows) > 3 else "center")
    ax.set_ylabel("variation of the level, √T² / mean (%)")
    ax.set_xlabel("benchmark")
    ax.set_ylim(0, top * 1.15 if top > 0 else 1)
    ax.set_title("Where the variation comes from, level by level", fontsize=10)
    ax.legend(title="level", fontsize=8, title_fontsize=8)
    ax.grid(axis="y", color="0.9", linewidth=0.5)
    return fig


def save_figure(fig, path: str | os.PathLike) -> None:
    """Write ``fig`` to ``path`` (PNG, PDF or SVG by extension) via a temporary file.

    Raises
    ------
    EsizeError
        Unsupported extension.
    OSError
        The file cannot be written.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise EsizeError(f"{p}: plots are written as {', '.join(PLOT_SUFFIXES)}, not {suffix or 'no extension'}")
    buf = io.BytesIO()
    fig.savefig(buf, format=suffix[1:], dpi=150)
    atomic_write(p, buf.getvalue())
