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
from typing import TypeGuard

import numpy as np

from ._decision import verdict
from ._errors import EsizeError
from ._names import abbreviate, wrap_name
from .io import write_output
from .readers._suffixes import strip_data_suffixes

__all__ = [
    "warmup_figure", "PLOT_SUFFIXES", "PLOT_DPI", "compare_figure", "summary_figure",
    "save_figure", "save_plot", "file_label", "nameless_label", "require_matplotlib"]

PLOT_SUFFIXES = (".png", ".pdf", ".svg")


def require_matplotlib() -> None:
    """Raise one :class:`~esize.EsizeError` naming the extra to install when matplotlib
    is missing, before any figure is begun.

    Examples
    --------
    >>> from esize.plots import require_matplotlib
    >>> require_matplotlib()  # installed here: nothing happens
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise EsizeError("--plot needs matplotlib, which is not installed: "
                         "pip install 'esize[plot]'") from None


def fixed_metadata(fmt: str) -> dict | None:
    """Metadata that keeps a saved figure byte-reproducible: matplotlib stamps PDFs
    with ``/CreationDate`` and SVGs with a date unless told not to (None removes the
    entry); PNGs carry only the matplotlib version."""
    return {"pdf": {"CreationDate": None}, "svg": {"Date": None}}.get(fmt.lower())


def file_label(path: str | os.PathLike) -> str:
    """The name a figure gives a benchmark its file does not name: the file's name
    without its directory and its data suffixes (``runs/fft.parquet`` -> ``fft``,
    ``bench.json.gz`` -> ``bench``); ``-`` (standard input) is ``data``.

    Examples
    --------
    >>> from esize.plots import file_label
    >>> file_label("runs/fft.parquet"), file_label("bench.json.gz"), file_label("-")
    ('fft', 'bench', 'data')
    """
    if str(path) == "-":
        return "data"
    return strip_data_suffixes(Path(path).name) or "data"


def nameless_label(*paths: str | os.PathLike) -> str:
    """The label of a nameless benchmark read from ``paths`` (one file; for a
    comparison new then old): the file's :func:`file_label`, or ``new / old`` when the
    two differ.

    Examples
    --------
    >>> from esize.plots import nameless_label
    >>> nameless_label("new/fft.json", "old/fft.json")
    'fft'
    >>> nameless_label("fft-new.csv", "fft-old.csv")
    'fft-new / fft-old'
    """
    labels = list(dict.fromkeys(file_label(p) for p in paths))
    return " / ".join(labels) if labels else "data"


#: Resolution of the raster figures written by :func:`save_figure`.
PLOT_DPI = 150
#: From this many rows on, one row per benchmark in a small font (a forest plot).
DENSE_FROM = 26
#: The most benchmarks a figure draws; the others are said in its title.
MAX_ROWS = 150
_HATCHES = ("", "///", "xxx", "...", "\\\\\\", "ooo")
_GREYS = ("0.35", "0.75", "1.0", "0.55", "0.9", "0.15")
_MARKERS = ("o", "s", "^", "D", "v", "P")
_WIDTH = 8.5  # inches: a page
_ROW = 0.38  # inches per row, few rows (room for a two-line label)
_DENSE_ROW = 0.15  # inches per row, many rows (6.5 pt labels on one line)
_DENSE_FONT = 6.5
_LABEL = 42  # characters of a label line
_MAX_BARS_WIDTH = 16.0  # inches: wider grouped bars become one row per benchmark


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _middle(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters in its middle (both ends tell names apart)."""
    if len(text) <= width:
        return text
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head):]


def _fit(name: str, width: int, max_lines: int) -> str:
    """A label of at most ``max_lines`` lines of ``width`` characters: the name
    wrapped at separators, the rest of a longer one cut in its middle."""
    lines = wrap_name(name, width)
    if len(lines) > max_lines:
        lines = lines[: max_lines - 1] + [_middle("".join(lines[max_lines - 1:]), width)]
    return "\n".join(line.rstrip() or line for line in lines)


def _labels(names: Sequence, max_lines: int) -> tuple[str, list[str]]:
    """The names' shared prefix (for the title) and what is left of each, fitted."""
    prefix, short = abbreviate(str(n) for n in names)
    return prefix, [_fit(s, _LABEL, max_lines) for s in short]


def _prefix_line(prefix: str) -> str:
    """A title line saying the names' shared prefix (at most three lines of it)."""
    if not prefix:
        return ""
    return "\nnames after their shared prefix “" + _fit(prefix, 90, 3) + "”"


def _ratio_axis_label(directions: set[bool]) -> str:
    if directions == {True}:
        return "ratio of mean times, new / old (below 1: new is faster)"
    if directions == {False}:
        return "ratio of mean rates, new / old (above 1: new is faster)"
    return "ratio of means, new / old (↑ rates: above 1 is faster)"


def _finite(x) -> TypeGuard[float]:
    return x is not None and math.isfinite(x)


def _log_key(ratio: float) -> float:
    """Distance from no change, the same for a factor and its inverse."""
    if not math.isfinite(ratio) or ratio <= 0:
        return -1.0 if math.isnan(ratio) else math.inf
    return abs(math.log(ratio))


def _keep_extremes(order: list[int], key, max_rows: int) -> tuple[list, int]:
    """``order`` (sorted) without its ``len(order) - max_rows`` rows of smallest
    ``key``, a ``None`` standing where they were; and how many were left out.

    The rows left out form one run in ``order`` when ``key`` is a distance from a
    point of the sorted axis (from 1 for ratios); elsewhere each run gets its own
    ``None``.
    """
    drop = len(order) - max_rows
    if drop <= 0:
        return list(order), 0
    ranked = sorted(order, key=key)
    gone = set(ranked[:drop])
    out: list = []
    for i in order:
        if i in gone:
            if not out or out[-1] is not None:
                out.append(None)
        else:
            out.append(i)
    return out, drop


def _ratio_ticks(ax, lo: float, hi: float) -> None:
    """A log axis from ``lo`` to ``hi`` with plain numbers 1, 2, 5, 10 ... as ticks, and
    finer ones (0.6, 0.8, 1.5, 3 ...) where those would be fewer than five (an axis from
    0.5 to 2 gets more than its three)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    ax.set_xscale("log")
    for steps in ((1, 2, 5), (1, 1.5, 2, 3, 4, 5, 6, 8)):
        ticks = []
        e = math.floor(math.log10(lo)) - 1
        while 10.0**e <= hi * 10:
            ticks += [round(m * 10.0**e, 12) for m in steps]
            e += 1
        ticks = [t for t in ticks if lo <= t <= hi]
        if len(ticks) >= 5:
            break
    if len(ticks) > 12:
        ticks = [t for t in ticks if math.isclose(10 ** round(math.log10(t)), t)]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())


def compare_figure(
    rows: Sequence[Mapping],
    *,
    threshold: float,
    alpha: float,
    suite: Mapping | None = None,
    max_rows: int = MAX_ROWS,
):
    """Per-benchmark ratio new/old with its confidence interval.

    Up to 25 benchmarks keep the order they are given in, with labels on up to two
    lines. From :data:`DENSE_FROM` benchmarks on the figure is a forest plot: one
    row per benchmark in a small font, sorted by ratio (smallest at the top), so
    its height grows by 0.15 inch a row. Beyond ``max_rows`` benchmarks only the
    ``max_rows`` farthest from no change (largest ``|log ratio|``, whichever the
    direction) are drawn: those left out lie nearest 1, form one run of the sorted
    rows and are counted there and in the title. A taller figure would no longer
    fit a screen or page with readable labels, and columns side by side would
    make a ratio hard to find on its axis; every benchmark is in the text and JSON
    output.

    Names lose the prefix they all share (said in the title, see
    :func:`esize._names.abbreviate`). A filled marker is a change beyond the
    threshold (the verdict ``faster`` or ``slower``), a hollow one is not. The
    axis is logarithmic when the values drawn are positive and span a factor of 4
    or more, so that 2x faster and 2x slower lie as far from 1.

    Parameters
    ----------
    rows : sequence of mapping
        One per benchmark with ``name``, ``ratio``, ``lower``, ``upper`` (None when
        unbounded), ``unit`` and ``lower_is_better``; an optional ``known`` (a known
        true ratio, as in a dataset with an injected change) is marked on its row.
    threshold : float
        Relative threshold; the band ``[1 - threshold, 1 + threshold]`` is shaded.
    alpha : float
        One minus the confidence level (for the title).
    suite : mapping, optional
        The suite's geometric mean, drawn below the benchmarks: ``geometric_mean``,
        ``lower`` and ``upper`` (None for an infinite limit: in ``compare --json``
        the interval the suite's verdict rests on, which is the one drawn), and
        ``inverted`` (names of rates that entered it as old/new). An optional
        ``verdict_interval`` (``{"lower", "upper"}``) is drawn instead when given.
    max_rows : int, default :data:`MAX_ROWS`
        The most benchmarks drawn.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from esize.plots import compare_figure
    >>> rows = [
    ...     {"name": "BM_Sort", "ratio": 0.9, "lower": 0.85, "upper": 0.95, "unit": "ns",
    ...      "lower_is_better": True},
    ...     {"name": "BM_Hash", "ratio": 1.01, "lower": 0.97, "upper": 1.05, "unit": "ns",
    ...      "lower_is_better": True},
    ... ]
    >>> suite = {"geometric_mean": 0.953, "lower": 0.92, "upper": 0.99}
    >>> fig = compare_figure(rows, threshold=0.02, alpha=0.05, suite=suite)
    >>> len(fig.axes)
    1
    >>> ax = fig.axes[0]
    >>> [t.get_text() for t in ax.get_yticklabels()]  # the shared prefix "BM_" is in the title
    ['Sort', 'Hash', 'geometric mean']
    >>> ax.get_title().splitlines()[0]
    'new / old with 95 % confidence intervals'
    """
    rows = list(rows)
    n = len(rows)
    dense = n >= DENSE_FROM
    prefix, labels = _labels([r["name"] for r in rows], 1 if dense else 2)
    if dense:
        def ratio_order(i):
            r = rows[i]["ratio"]
            return (math.isnan(r), r)

        order = sorted(range(n), key=ratio_order)
        shown, omitted = _keep_extremes(order, lambda i: _log_key(rows[i]["ratio"]), max_rows)
    else:
        shown, omitted = list(range(n)), 0
    slots = len(shown) + (1 if suite else 0)
    pitch, font = (_DENSE_ROW, _DENSE_FONT) if dense else (_ROW, 9.0)
    extra = 0.25 * _prefix_line(prefix).count("\n") + (0.25 if omitted else 0.0)
    fig = _figure(_WIDTH, 1.9 + extra + pitch * max(slots, 2))
    # one unit and direction for all: said once on the axis instead of on every row
    mixed_units = len({_unit_tag(r) for r in rows}) > 1
    ax = fig.add_subplot()
    top = len(shown) + (1 if suite else 0)
    ticks, tick_labels = [], []
    xs = [1.0 - threshold, 1.0 + threshold]
    pts: dict[bool, tuple[list, list, list, list]]
    pts = {True: ([], [], [], []), False: ([], [], [], [])}  # filled?: x, y, minus, plus
    msize, cap, lw = (3.0, 1.5, 0.8) if dense else (5.0, 3.0, 1.2)
    for slot, i in enumerate(shown):
        y = top - slot
        if i is None:
            drawn = set(shown)
            near = sorted(rows[j]["ratio"] for j in range(n) if j not in drawn)
            ax.text(0.5, y, f"⋯ {omitted} benchmarks with ratios from {near[0]:.4g} to "
                    f"{near[-1]:.4g} not shown ⋯", transform=ax.get_yaxis_transform(),
                    ha="center", va="center", fontsize=font, color="0.3")
            continue
        row = rows[i]
        r = row["ratio"]
        lo, hi = row.get("lower"), row.get("upper")
        lib = bool(row.get("lower_is_better", True))
        if math.isfinite(r):
            xs.append(r)
        if _finite(lo) and _finite(hi):
            xs += [lo, hi]
            filled = verdict(lo, hi, threshold, lower_is_better=lib).resolved
            bucket = pts[filled]
            bucket[0].append(r)
            bucket[1].append(y)
            bucket[2].append(max(r - lo, 0.0))
            bucket[3].append(max(hi - r, 0.0))
        else:
            ax.plot([r], [y], marker="o", color="black", markerfacecolor="white",
                    linestyle="none", markersize=msize)
            ax.annotate("unbounded CI", (r, y), xytext=(6, 0 if dense else 4),
                        textcoords="offset points", fontsize=font - 1, va="center")
        known = _known(row)
        if known is not None:
            xs.append(known)
            ax.plot([known], [y], marker="|", color="black", markersize=msize * 3,
                    markeredgewidth=2.0, linestyle="none", zorder=3, gid="known-ratio")
        tick_labels.append(labels[i] + (_unit_tag(row) if mixed_units else ""))
        ticks.append(y)
    for filled, (px, py, minus, plus) in pts.items():
        if px:
            ax.errorbar(px, py, xerr=[minus, plus], fmt="o", color="black",
                        markerfacecolor="black" if filled else "white", ecolor="black",
                        elinewidth=lw, capsize=cap, markersize=msize)
    if suite:
        g = suite["geometric_mean"]
        vi = suite.get("verdict_interval")
        lo, hi = (vi.get("lower"), vi.get("upper")) if vi else (suite.get("lower"),
                                                              suite.get("upper"))
        xs.append(g)
        ax.axhline(1.5, color="0.5", linewidth=0.6)
        if _finite(lo) and _finite(hi):
            xs += [lo, hi]
            ax.errorbar(
                [g], [1], xerr=[[max(g - lo, 0.0)], [max(hi - g, 0.0)]], fmt="D",
                color="black", markerfacecolor="white", ecolor="black",
                elinewidth=1.4 if dense else 2.0, capsize=cap + 1, markersize=msize + 2,
                label="suite",
            )
        else:
            ax.plot([g], [1], marker="D", color="black", markerfacecolor="white",
                    linestyle="none", markersize=msize + 2)
            ax.annotate("unbounded CI", (g, 1), xytext=(6, 0 if dense else 4),
                        textcoords="offset points", fontsize=font - 1, va="center")
        tick_labels.append("geometric mean" + (" (rates as old/new)" if suite.get("inverted")
                                               else ""))
        ticks.append(1)
    ax.axvspan(1.0 - threshold, 1.0 + threshold, color="0.88", zorder=0)
    ax.axvline(1.0, color="black", linestyle="--", linewidth=0.8, zorder=1)
    _ratio_limits(ax, xs)
    ax.set_ylim(0.4, top + 0.6)
    ax.set_yticks(ticks, tick_labels, fontsize=font)
    ax.tick_params(axis="x", labelsize=font + 1)
    if dense:
        ax.tick_params(axis="x", top=True, labeltop=True)
    xlabel = _ratio_axis_label({bool(r.get("lower_is_better", True)) for r in rows})
    if rows and not mixed_units and rows[0].get("unit"):
        xlabel += f"; every benchmark in {rows[0]['unit']}"
    ax.set_xlabel(xlabel, fontsize=font + 1.5)
    conf = f"{100 * (1 - alpha):g} %"
    title = f"new / old with {conf} confidence intervals"
    if dense:
        title += f", {n} benchmarks sorted by ratio"
    if omitted:
        title += (f"\n{len(shown) - 1} drawn: the {omitted} nearest to no change "
                  "are left out (all are in the text output)")
    ax.set_title(title + _prefix_line(prefix), fontsize=10 if not dense else 9)
    _compare_legend(fig, threshold, suite, dense, any(_known(r) is not None for r in rows))
    ax.grid(axis="x", color="0.9", linewidth=0.5)
    return fig


def _ratio_limits(ax, xs: list) -> None:
    """x limits holding every finite value drawn, log scaled when they are positive
    and span a factor of 4 or more."""
    xs = [x for x in xs if math.isfinite(x)]
    lo_x, hi_x = min(xs), max(xs)
    if lo_x > 0 and hi_x / lo_x >= 4.0:
        f = (hi_x / lo_x) ** 0.05
        ax.set_xlim(lo_x / f, hi_x * f)
        _ratio_ticks(ax, lo_x / f, hi_x * f)
        return
    pad = 0.08 * (hi_x - lo_x) if hi_x > lo_x else 0.05
    ax.set_xlim(lo_x - pad, hi_x + pad)


def _known(row: Mapping) -> float | None:
    """A row's known true ratio when it has a finite one (marked on its row)."""
    known = row.get("known")
    return known if known is not None and _finite(known) else None


def _unit_tag(row: Mapping) -> str:
    """`` [ns/op]``, `` [ops/s ↑]`` for a rate, `` ↑`` for a rate without unit."""
    unit = row.get("unit") or ""
    tag = "" if row.get("lower_is_better", True) else " ↑"
    return f" [{unit}{tag}]" if unit else tag


def _compare_legend(fig, threshold: float, suite, dense: bool, known: bool = False) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [
        Patch(color="0.88", label=f"threshold band 1 ± {threshold:g}"),
        Line2D([], [], color="black", linestyle="--", linewidth=0.8, label="no change (1)"),
        Line2D([], [], color="black", marker="o", linestyle="none", markersize=5,
               label="beyond the threshold (faster or slower)"),
        Line2D([], [], color="black", marker="o", markerfacecolor="white", linestyle="none",
               markersize=5, label="not beyond it (same or inconclusive)"),
    ]
    if known:
        handles.append(Line2D([], [], color="black", marker="|", markersize=10,
                              markeredgewidth=2.0, linestyle="none", label="known ratio"))
    if suite:
        handles.append(Line2D([], [], color="black", marker="D", markerfacecolor="white",
                              linestyle="none", markersize=6,
                              label="geometric mean, with the interval its verdict rests on"))
    # below the axes, where it hides no row
    fig.legend(handles=handles, loc="outside lower center", ncols=2,
               fontsize=7 if dense else 8, frameon=False)


def summary_figure(rows: Sequence[Mapping], *, max_rows: int = MAX_ROWS):
    """Relative variation of every level of every benchmark.

    A few benchmarks (up to 25, and grouped bars no wider than 16 inches) get
    one group of bars per benchmark, in the order given. More get one row per
    benchmark, a marker per level, sorted by the benchmark's total variation
    (the square root of the sum of its levels' squared percentages, the most
    variable at the top): like the percentages themselves, this order does not
    depend on the unit of measure, which an order by mean would across
    benchmarks of different units. Beyond ``max_rows`` benchmarks the least
    variable are left out, and counted in the title.

    Names lose the prefix they all share (said in the title).

    Parameters
    ----------
    rows : sequence of mapping
        One per benchmark with ``name``, ``levels`` (highest first) and ``T_pct``
        (the level's own variation, :math:`\\sqrt{\\max(T^2, 0)}` in percent of the
        mean) and ``T2`` (to mark levels whose estimate is not positive).
    max_rows : int, default :data:`MAX_ROWS`
        The most benchmarks drawn.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    Two benchmarks of three levels: one group of three bars per benchmark.

    >>> from esize.plots import summary_figure
    >>> levels = ["binary", "execution", "measurement"]
    >>> rows = [
    ...     {"name": "sort", "levels": levels, "T_pct": [1.5, 0.8, 2.0], "T2": [0.02, 0.01, 0.04]},
    ...     {"name": "hash", "levels": levels, "T_pct": [0.0, 1.2, 0.5], "T2": [-0.01, 0.02, 0.003]},
    ... ]
    >>> fig = summary_figure(rows)
    >>> ax = fig.axes[0]
    >>> len(fig.axes), len(ax.patches)
    (1, 6)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['binary', 'execution', 'measurement']
    """
    rows = list(rows)
    levels: list[str] = []
    for row in rows:
        for lv in row["levels"]:
            if lv not in levels:
                levels.append(lv)
    k = len(levels)
    bars_width = 1.2 + 1.1 * len(rows) * max(k, 1) * 0.6
    if len(rows) < DENSE_FROM and bars_width <= _MAX_BARS_WIDTH:
        return _summary_bars(rows, levels, max(5.0, bars_width))
    return _summary_rows(rows, levels, max_rows)


def _summary_bars(rows: list, levels: list, width: float):
    k = len(levels)
    prefix, labels = _labels([r["name"] for r in rows], 2)
    fig = _figure(width, 4.2 + 0.25 * _prefix_line(prefix).count("\n"))
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
    ax.set_xticks(range(len(rows)), labels,
                  rotation=20 if len(rows) > 3 else 0, ha="right" if len(rows) > 3 else "center")
    ax.set_ylabel("variation of the level, √T² / mean (%)")
    ax.set_xlabel("benchmark")
    ax.set_ylim(0, top * 1.15 if top > 0 else 1)
    ax.set_title("Where the variation comes from, level by level" + _prefix_line(prefix),
                 fontsize=10)
    ax.legend(title="level", fontsize=8, title_fontsize=8)
    ax.grid(axis="y", color="0.9", linewidth=0.5)
    return fig


def _total(row: Mapping) -> float:
    """A benchmark's total relative variation, for sorting (NaN counts as none)."""
    vals = [v for v in row["T_pct"] if math.isfinite(v)]
    return math.sqrt(sum(v * v for v in vals))


def _summary_rows(rows: list, levels: list, max_rows: int):
    from matplotlib.lines import Line2D

    n, k = len(rows), len(levels)
    dense = n >= DENSE_FROM
    prefix, labels = _labels([r["name"] for r in rows], 1 if dense else 2)
    order = sorted(range(n), key=lambda i: -_total(rows[i]))
    shown, omitted = _keep_extremes(order, lambda i: _total(rows[i]), max_rows)
    pitch, font = (_DENSE_ROW, _DENSE_FONT) if dense else (_ROW, 9.0)
    extra = 0.25 * _prefix_line(prefix).count("\n") + (0.25 if omitted else 0.0)
    fig = _figure(_WIDTH, 1.9 + extra + pitch * max(len(shown), 2))
    ax = fig.add_subplot()
    top = len(shown)
    spread = 0.6 / max(k, 1)  # the levels of one row side by side, within the row
    ticks, tick_labels, right = [], [], 0.0
    by_level: dict[str, tuple[list, list, list]]
    by_level = {lv: ([], [], []) for lv in levels}  # x, y, T2 <= 0
    for slot, i in enumerate(shown):
        y = top - slot
        if i is None:
            ax.text(0.5, y, f"⋯ the {omitted} least variable benchmarks not shown ⋯",
                    transform=ax.get_yaxis_transform(), ha="center", va="center",
                    fontsize=font, color="0.3")
            continue
        row = rows[i]
        for lv, pct, t2 in zip(row["levels"], row["T_pct"], row["T2"]):
            j = levels.index(lv)
            xs_, ys_, flags = by_level[lv]
            xs_.append(pct)
            ys_.append(y + spread * ((k - 1) / 2 - j))
            flags.append(t2 <= 0)
            if math.isfinite(pct):
                right = max(right, pct)
        ticks.append(y)
        tick_labels.append(labels[i])
    msize = 4.0 if dense else 6.0
    for j, lv in enumerate(levels):
        xs_, ys_, flags = by_level[lv]
        for flag in (False, True):
            px = [x for x, f in zip(xs_, flags) if f == flag]
            py = [y for y, f in zip(ys_, flags) if f == flag]
            if px:
                ax.plot(px, py, linestyle="none", marker=_MARKERS[j % len(_MARKERS)],
                        markersize=msize, color="black", markeredgewidth=0.7,
                        markerfacecolor="white" if flag else _GREYS[j % len(_GREYS)])
    ax.set_yticks(ticks, tick_labels, fontsize=font)
    ax.set_ylim(0.4, top + 0.6)
    ax.set_xlim(0, right * 1.1 if right > 0 else 1)
    ax.tick_params(axis="x", labelsize=font + 1)
    if dense:
        ax.tick_params(axis="x", top=True, labeltop=True)
    ax.set_xlabel("variation of the level, √T² / mean (%)", fontsize=font + 1.5)
    title = "Where the variation comes from, level by level"
    title += f": {n} benchmarks, the most variable at the top"
    if omitted:
        title += (f"\n{len(shown) - 1} drawn: the {omitted} least variable are left out "
                  "(all are in the text output)")
    ax.set_title(title + _prefix_line(prefix), fontsize=9 if dense else 10)
    handles = [
        Line2D([], [], linestyle="none", marker=_MARKERS[j % len(_MARKERS)], color="black",
               markerfacecolor=_GREYS[j % len(_GREYS)], markersize=6, label=lv)
        for j, lv in enumerate(levels)
    ]
    handles.append(Line2D([], [], linestyle="none", marker="o", color="black",
                          markerfacecolor="white", markersize=6,
                          label="hollow: T² ≤ 0 (no variation of its own)"))
    fig.legend(handles=handles, loc="outside lower center", ncols=min(k + 1, 4), fontsize=7,
               frameon=False, title="level", title_fontsize=7)
    ax.grid(axis="x", color="0.9", linewidth=0.5)
    ax.grid(axis="y", color="0.95", linewidth=0.5)
    return fig


def warmup_figure(name, series, warmup: Mapping, *, unit: str = "", group: str = "process",
                  max_lines: int = 40):
    """Every process's values over time, with the cut ``--warmup auto`` found in each.

    Parameters
    ----------
    name : str or None
        The benchmark (its name, or for a file that names none
        :func:`nameless_label` of the file); None says ``data``.
    series : array_like, shape (groups, n)
        The values of every process (fork, execution) before the cut, in order.
    warmup : mapping
        The JSON of the warm-up (``cuts``, ``kept``, ``classes``,
        ``no_steady_state``).
    unit : str
        Unit of the values (the y axis).
    group : str
        What a row is (``process``, ``fork``, ...).
    max_lines : int
        The most processes drawn (the first ones).

    Returns
    -------
    matplotlib.figure.Figure
        Values before the cut thin and grey, after it in colour, a dot at each cut;
        the last ``kept`` values (what the analysis keeps) shaded. A y axis spanning
        more than 4x is logarithmic.

    Examples
    --------
    >>> from esize.plots import warmup_figure
    >>> series = [[2.0, 1.5, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]
    >>> warmup = {"cuts": [2, 0], "kept": 4, "classes": {"flat": 1, "warmup": 1}}
    >>> fig = warmup_figure("sort", series, warmup, unit="ms", group="fork")
    >>> ax = fig.axes[0]
    >>> len(fig.axes), ax.get_ylabel(), ax.get_yscale()
    (1, 'value [ms]', 'linear')
    >>> ax.get_title().splitlines()[0]
    'sort: 2 forks; 1 flat, 1 warm-up'
    """
    y = np.asarray(series, dtype=float)
    n_groups, n = y.shape
    shown = min(n_groups, max_lines)
    cuts = list(warmup.get("cuts", [0] * n_groups))
    odd = set(warmup.get("no_steady_state", []))
    fig = _figure(_WIDTH, 4.2)
    ax = fig.add_subplot()
    x = np.arange(1, n + 1)
    from matplotlib import colormaps

    from .readers import plural

    cmap = colormaps["viridis"]
    for k in range(shown):
        c = cmap(k / max(shown - 1, 1) * 0.85)
        cut = int(cuts[k])
        ax.plot(x[: cut + 1], y[k, : cut + 1], color="0.7", linewidth=0.6)
        ax.plot(x[cut:], y[k, cut:], color=c, linewidth=0.8,
                linestyle=":" if k in odd else "-")
        if cut > 0:
            ax.plot([x[cut]], [y[k, cut]], "o", color=c, markersize=3)
    kept = int(warmup.get("kept", n))
    ax.axvspan(n - kept + 0.5, n + 0.5, color="0.93", zorder=0, label=f"kept: last {kept}")
    pos = y[:shown][y[:shown] > 0]
    if pos.size and pos.max() / pos.min() > 4:
        ax.set_yscale("log")
    ax.set_xlim(0.5, n + 0.5)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # iterations are counted
    ax.set_xlabel(f"value within the {group}")
    ax.set_ylabel(f"value [{unit}]" if unit else "value (unit not given)")
    words = {"flat": "flat", "warmup": "warm-up", "slowdown": "slow-down",
             "no_steady_state": "no steady state"}
    classes = ", ".join(f"{v} {words.get(k, k)}" for k, v in
                        warmup.get("classes", {}).items() if v)
    more = f" (first {shown} of {n_groups} shown)" if shown < n_groups else ""
    ax.set_title(f"{'data' if name is None else name}: {n_groups} "
                 f"{plural(group, n_groups)}{more}; "
                 f"{classes}\ngrey: before the detected cut (dot); dotted: no steady state",
                 fontsize=8)
    ax.legend(loc="upper right", fontsize=7, frameon=False)
    return fig


def save_figure(fig, path: str | os.PathLike) -> None:
    """Write ``fig`` to ``path`` (PNG, PDF or SVG by extension) via a temporary file.

    Raises
    ------
    EsizeError
        Unsupported extension.
    OSError
        The file cannot be written.

    Examples
    --------
    >>> import os, tempfile
    >>> from esize import EsizeError
    >>> from esize.plots import save_figure, warmup_figure
    >>> fig = warmup_figure("sort", [[2.0, 1.0, 1.0, 1.0]], {"cuts": [1], "kept": 3})
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_figure(fig, os.path.join(tmp, "warmup.svg"))
    ...     with open(os.path.join(tmp, "warmup.svg")) as fh:
    ...         print(os.listdir(tmp), fh.read(5))
    ...     try:
    ...         save_figure(fig, os.path.join(tmp, "warmup.jpg"))
    ...     except EsizeError as exc:
    ...         print(str(exc).replace(tmp, "TMP"))
    ['warmup.svg'] <?xml
    TMP/warmup.jpg: plots are written as .png, .pdf, .svg, not .jpg
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise EsizeError(f"{p}: plots are written as {', '.join(PLOT_SUFFIXES)}, not {suffix or 'no extension'}")
    buf = io.BytesIO()
    import matplotlib

    # a fixed salt for the SVG's element ids, which are random otherwise
    with matplotlib.rc_context({"svg.hashsalt": "esize"}):
        fig.savefig(buf, format=suffix[1:], dpi=PLOT_DPI, metadata=fixed_metadata(suffix[1:]))
    write_output(p, buf.getvalue())


def save_plot(path: str | os.PathLike, fig) -> None:
    """:func:`save_figure`, its failures as one :class:`~esize.EsizeError` naming the
    file (the command line prints it in one line).

    Examples
    --------
    >>> import os, tempfile
    >>> from esize import EsizeError
    >>> from esize.plots import save_plot, warmup_figure
    >>> fig = warmup_figure("sort", [[2.0, 1.0, 1.0, 1.0]], {"cuts": [1], "kept": 3})
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_plot(os.path.join(tmp, "warmup.png"), fig)
    ...     with open(os.path.join(tmp, "warmup.png"), "rb") as fh:
    ...         print(fh.read(4)[1:])  # the PNG signature
    ...     os.mkdir(os.path.join(tmp, "taken.png"))
    ...     try:
    ...         save_plot(os.path.join(tmp, "taken.png"), fig)
    ...     except EsizeError as exc:
    ...         print(str(exc).replace(tmp, "TMP"))
    b'PNG'
    TMP/taken.png: is a directory; the result is written only to a regular file, a FIFO, a terminal or the null device
    """
    from .io import OutputError

    try:
        save_figure(fig, path)
    except OutputError as exc:
        raise EsizeError(f"{path}: {exc.reason}") from None
    except OSError as exc:
        raise EsizeError(f"{path}: cannot write: {exc.strerror or exc}") from None
