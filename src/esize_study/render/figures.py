"""Figures of the reproduction (matplotlib; colour-blind safe, readable in black and white).

Every figure of the study is drawn in one style (:data:`STYLE`, applied with
:func:`styled`) with matplotlib's object-oriented interface: pyplot only creates
figures (``fig, axes = plt.subplots(...)``) and closes them. Each function takes
tidy tables (pandas DataFrames as written by the pipeline) and returns a
:class:`matplotlib.figure.Figure`; :func:`save` writes it with the library's atomic
writer. The figures of the section "False Alarm Rate" are drawn by
:mod:`esize_study.render.figures_falsealarm`, those of "Coverage" by
:mod:`esize_study.render.figures_coverage`; every name and caption is registered
in :mod:`esize_study.render.registry`.

A few labelled lines (schemes, targets) differ in colour (a colour-blind-safe palette,
:data:`PALETTE`), dash pattern and marker (:data:`STYLES`); benchmarks are told apart by
ten fixed colour and marker pairs (:data:`BENCHMARK_STYLES`, all ten colours and all ten
markers distinct) and a dash pattern (:func:`line_style`); axes of counts have integer ticks
(:func:`count_axis`); every line drawn for reference (the nominal coverage, a
diagonal, a band of standard errors) has a legend entry that says what it is.

Any number of benchmarks: a figure of chosen benchmarks shows the paper's choice on a
dataset of the paper's benchmarks (the stand-in) and every benchmark on any other
(:func:`shown`). Panels are laid out in rows of at most :data:`MAX_COLS`
(:func:`grid`); past :data:`MAX_PANELS` panels, or :data:`MAX_LINES` labelled lines,
a figure summarises instead: one line per benchmark in grey with their median in
black (:func:`spread`), or for heat maps the median and the lowest value over the
benchmarks. No figure needs two benchmarks, and none grows past a 4 x 4 grid.
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from esize.plots import fixed_metadata  # noqa: E402

from ..datasets.files import atomic_write  # noqa: E402
from ..paper import numbers as paper  # noqa: E402
from . import registry  # noqa: E402

__all__ = [
    "STYLE",
    "STYLES",
    "styled",
    "save",
    "save_all",
    "pick",
    "shown",
    "grid",
    "line_style",
    "count_axis",
    "PALETTE",
    "BENCHMARK_COLOURS",
    "BENCHMARK_STYLES",
    "LINESTYLES",
    "MARKERS",
    "spread",
    "legend_inches",
    "bottom_legend",
    "MAX_COLS",
    "MAX_PANELS",
    "MAX_LINES",
    "named",
]

#: matplotlib settings of every figure of the study.
STYLE = {
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 7,
    "legend.title_fontsize": 7,
    "grid.color": "0.85",
    "grid.linewidth": 0.5,
    "lines.linewidth": 1.2,
    "lines.markersize": 3,
    "image.cmap": "RdBu",
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "svg.hashsalt": "esize",  # SVG element ids without randomness
}

#: Colours of labelled lines: the colour-blind-safe qualitative palette of Okabe and
#: Ito (2008), its yellow left out (too pale on white). Several have about the same
#: grey when printed in black and white, which is why every line also has a marker
#: and a dash pattern of its own.
PALETTE = ("#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7")
#: Dash patterns of labelled lines; with the seven colours, 28 lines differ in both.
LINESTYLES = ("-", "--", "-.", ":")
#: Markers of labelled lines: twelve shapes, hollow in a second round; the ten most
#: unlike first (pentagon and hexagon, which look round when small, last).
MARKERS = ("o", "s", "^", "D", "v", "X", "P", "*", "<", ">", "p", "h")

#: Colours of the benchmarks' lines, one of its own for each of the first ten: the
#: colour-vision-deficiency-safe ten-colour sequence of Petroff (2021, "Accessible
#: Color Sequences for Data Visualization", arXiv:2107.02270; matplotlib's style
#: ``petroff10``). Some have about the same grey in black and white, which is why each
#: of the ten also has a marker of its own (:data:`BENCHMARK_STYLES`).
BENCHMARK_COLOURS = ("#3f90da", "#ffa90e", "#bd1f01", "#94a4a2", "#832db6", "#a96b59",
                     "#e76300", "#b9ac70", "#717581", "#92dadd")
#: The ten benchmarks' (colour, marker) pairs, pairwise distinct in both: the styles of
#: the first ten benchmark lines of every figure (:func:`line_style`).
BENCHMARK_STYLES = tuple({"color": c, "marker": m}
                         for c, m in zip(BENCHMARK_COLOURS, MARKERS[:len(BENCHMARK_COLOURS)]))

#: Styles of a few lines (false-alarm targets, resampling schemes, exact against
#: approximate): colour, dash pattern and marker all differ.
STYLES = [
    {"color": PALETTE[k], "linestyle": ls, "marker": MARKERS[k]}
    for k, ls in enumerate(("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1))))
]


def styled(fn):
    """Decorator: draw the figure inside the study's :data:`STYLE`."""

    @functools.wraps(fn)
    def inner(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return fn(*args, **kwargs)

    return inner


def pick(names: Sequence[str], *wanted: str) -> list[str]:
    """The wanted benchmarks where ``names`` has them, topped up with its first others.

    Figures show the paper's benchmarks on the stand-in and fall back to whatever a
    dataset has.
    """
    out = [w for w in wanted if w in names]
    rest = [n for n in names if n not in out]
    while len(out) < len(wanted) and rest:
        out.append(rest.pop(0))
    return out


#: Most panels in one row of a figure.
MAX_COLS = 4
#: Most panels in one figure (a 4 x 4 grid); a figure of one panel per benchmark
#: shows a summary past it.
MAX_PANELS = 16
#: Most benchmarks drawn as labelled lines of their own in one panel; past it, one
#: grey line each and their median (:func:`spread`).
MAX_LINES = 16


def shown(names: Sequence[str], *wanted: str) -> list[str]:
    """Benchmarks a figure of chosen benchmarks shows.

    On a dataset with any of the paper's benchmarks (the stand-in), the paper's
    ``wanted`` ones topped up with its first others (:func:`pick`); on any other
    dataset, which has no benchmark the paper chose, every benchmark (one or many:
    the figure lays them out with :func:`grid`, or summarises them).
    """
    names = list(names)
    if any(n in paper.BENCHMARKS for n in names):
        return pick(names, *wanted)
    return names


def grid(n: int, width: float, height: float, *, max_cols: int = MAX_COLS,
         extra_width: float = 0.0, extra_height: float = 0.0, **kwargs):
    """A figure of ``n`` panels of ``width`` x ``height`` inches, in rows of at most
    ``max_cols``; ``extra_*`` inches are added for a colour bar or a legend.

    Returns ``(fig, axes)`` with the ``n`` visible axes in a flat list (the cells
    left over in the last row are hidden). One panel makes a figure of one panel.
    """
    n = max(int(n), 1)
    ncols = min(n, max(int(max_cols), 1))
    nrows = -(-n // ncols)
    fig, axes = plt.subplots(nrows, ncols, squeeze=False, **kwargs,
                             figsize=(width * ncols + extra_width, height * nrows + extra_height))
    flat = list(axes.ravel())
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def line_style(i: int, n_points: int) -> dict:
    """Style of the ``i``-th labelled line (of ``n_points`` points): the ``i``-th
    benchmark of a figure (or of a few other labelled lines, such as methods).

    Colour from :data:`BENCHMARK_COLOURS`, dash pattern from :data:`LINESTYLES` and
    marker from :data:`MARKERS`, hollow from the thirteenth line on: the first ten
    lines (:data:`BENCHMARK_STYLES`) differ in colour and in marker alike, and the
    first :data:`MAX_LINES` lines differ in (colour, dash pattern) and in (marker,
    filling), so that they stay apart on screen, for colour-blind readers and in
    black and white (where similar greys are told apart by their markers). Markers
    sit on every ``n_points // 8``-th point, shifted line by line so that they do
    not hide each other.
    """
    base = {"color": BENCHMARK_COLOURS[i % len(BENCHMARK_COLOURS)],
            "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "marker": MARKERS[i % len(MARKERS)]}
    if (i // len(MARKERS)) % 2 == 1:
        base["markerfacecolor"] = "white"
    every = max(1, n_points // 8)
    base["markevery"] = (i % every, every)
    return base


def count_axis(axis) -> None:
    """Integer ticks on an axis of counts (binaries, executions, iterations)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))


def spread(ax, series: dict, *, what: str = "benchmark") -> list:
    """Many series in one panel: ``{name: (xs, ys)}`` as one thin grey line each and
    their median at each x (over the series that have it) in black.

    Returns the handles of the two legend entries (the median first).
    """
    xs_all = np.array(sorted({float(x) for xs, _ in series.values() for x in xs}))
    stack = np.full((len(series), xs_all.size), np.nan)
    grey = None
    for k, (xs, ys) in enumerate(series.values()):
        (grey,) = ax.plot(xs, ys, color="0.72", linewidth=0.6, marker=None, zorder=1)
        stack[k, np.searchsorted(xs_all, np.asarray(xs, dtype=float))] = ys
    handles = []
    if xs_all.size:
        ok = np.isfinite(stack).any(axis=0)  # nanmedian warns on all-nan columns
        med = np.full(xs_all.size, np.nan)
        med[ok] = np.nanmedian(stack[:, ok], axis=0)
        (m,) = ax.plot(xs_all, med, color="0.0", linewidth=1.6, marker="o", zorder=3,
                       label=f"median of {len(series)} {what}s")
        handles.append(m)
    if grey is not None:
        grey.set_label(f"one {what} each")
        handles.append(grey)
    return handles


def legend_inches(n_entries: int, ncol: int = 5) -> float:
    """Height in inches a figure legend of ``n_entries`` in ``ncol`` columns takes."""
    return 0.12 + 0.17 * -(-max(n_entries, 1) // ncol) if n_entries else 0.0


def bottom_legend(fig, handles: Sequence, labels: Sequence[str], *, ncol: int = 5) -> None:
    """Lay ``fig`` out (tight) above a legend of ``handles`` centred below its panels;
    the figure must have been made :func:`legend_inches` taller for it."""
    height = fig.get_size_inches()[1]
    room = legend_inches(len(handles), ncol) if handles else 0.0
    fig.tight_layout(rect=(0, min(room / height, 0.5), 1, 1))
    if handles:
        fig.legend(list(handles), list(labels), loc="lower center", fontsize=7,
                   ncol=min(ncol, len(handles)), frameon=False)


def named(paths: Sequence[str], name: str) -> list[str]:
    """The paths whose file name is ``name`` plus a suffix (``fCOV.pdf``, ``fCOV.png``)."""
    return [p for p in paths if os.path.basename(p).startswith(name + ".")]


def save(fig, *paths: str | os.PathLike) -> None:
    """Save ``fig`` to each path (format from the suffix), atomically, then close it.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    *paths : path-like
        Output files; each is rendered in memory and written with
        :func:`esize_study.datasets.files.atomic_write`.
    """
    with matplotlib.rc_context(STYLE):
        for p in paths:
            buf = io.BytesIO()
            fmt = Path(p).suffix.lstrip(".").lower()
            fig.savefig(buf, format=fmt, metadata=fixed_metadata(fmt))
            atomic_write(p, buf.getvalue())
    plt.close(fig)


def save_all(figures: dict, paths: Sequence[str], family: str) -> None:
    """Save a family's figures (``{name: Figure}``) to the matching ``paths``.

    Raises ``ValueError`` unless ``figures`` has exactly the names
    :data:`esize_study.render.registry.FIGURES` lists for ``family``.
    """
    expected = set(registry.FIGURES[family])
    if set(figures) != expected:
        raise ValueError(f"{family} figures {sorted(figures)} differ from {sorted(expected)}")
    for name, fig in figures.items():
        save(fig, *named(paths, name))
