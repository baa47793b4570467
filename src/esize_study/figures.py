"""Figures of the reproduction (matplotlib, readable in black and white).

Every figure of the study is drawn in one style (:data:`STYLE`, applied with
:func:`styled`) with matplotlib's object-oriented interface: pyplot only creates
figures (``fig, axes = plt.subplots(...)``) and closes them. Each function takes
tidy tables (pandas DataFrames as written by the pipeline) and returns a
:class:`matplotlib.figure.Figure`; :func:`save` writes it with the library's atomic
writer. This module draws the figures of the section "False Alarm Rate";
:mod:`esize_study.figures_coverage` those of "Coverage".

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

from esize._atomic import atomic_write  # noqa: E402

from . import layout, paper  # noqa: E402
from .falsealarm import contour, rates_at  # noqa: E402

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
    "spread",
    "legend_inches",
    "bottom_legend",
    "MAX_COLS",
    "MAX_PANELS",
    "MAX_LINES",
    "named",
    "fa_contours",
    "fa_lines",
    "fa_boot",
    "fa_validation",
    "false_alarm_figures",
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
}

#: Line styles that stay distinguishable in grey scale.
STYLES = [
    {"color": "0.0", "linestyle": "-", "marker": "o"},
    {"color": "0.25", "linestyle": "--", "marker": "s"},
    {"color": "0.45", "linestyle": "-.", "marker": "^"},
    {"color": "0.6", "linestyle": ":", "marker": "D"},
    {"color": "0.35", "linestyle": (0, (5, 1, 1, 1, 1, 1)), "marker": "v"},
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

_MARKERS = ["o", "s", "^", "D", "v", "<", ">", "p", "h", "X", "P", "*"]


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
    """Style of the ``i``-th labelled line (of ``n_points`` points): line style, grey
    and one of 12 markers, hollow every other round, so that :data:`MAX_LINES` lines
    stay apart in black and white."""
    base = dict(STYLES[i % len(STYLES)])
    base["marker"] = _MARKERS[i % len(_MARKERS)]
    if (i // len(STYLES)) % 2 == 1:
        base["markerfacecolor"] = "white"
    every = max(1, n_points // 8)
    base["markevery"] = (i % every, every)
    return base


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
        :func:`esize._atomic.atomic_write`.
    """
    with matplotlib.rc_context(STYLE):
        for p in paths:
            buf = io.BytesIO()
            fig.savefig(buf, format=Path(p).suffix.lstrip(".").lower())
            atomic_write(p, buf.getvalue())
    plt.close(fig)


def save_all(figures: dict, paths: Sequence[str], family: str) -> None:
    """Save a family's figures (``{name: Figure}``) to the matching ``paths``.

    Raises ``ValueError`` unless ``figures`` has exactly the names
    :data:`esize_study.layout.FIGURES` lists for ``family``.
    """
    expected = set(layout.FIGURES[family])
    if set(figures) != expected:
        raise ValueError(f"{family} figures {sorted(figures)} differ from {sorted(expected)}")
    for name, fig in figures.items():
        save(fig, *named(paths, name))


def _contour_panel(ax, table, x, targets, xlabel, ymax, title):
    lines = contour(table, targets, x)
    for k, (target, (xs, ys)) in enumerate(lines.items()):
        st = STYLES[k % len(STYLES)]
        ax.plot(xs, ys, label=f"{100 * target:g} %", **st)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("threshold [%]")
    if ymax is not None:
        ax.set_ylim(0, ymax)
    ax.set_xlim(left=0)
    ax.set_title(title)
    ax.grid(True)
    ax.legend(title="false alarms", loc="best")


@styled
def fa_contours(table, panels: Sequence[dict], *, x: str, xlabel: str, ncols: int = 2,
                targets=(0.01, 0.02, 0.03, 0.04, 0.05), min_x: int = 1):
    """Contour lines of the minimal threshold reaching each false-alarm rate.

    ``panels``: dicts with ``benchmark``, ``method``, ``scheme``, ``experiment``,
    ``ymax`` (threshold axis limit in %, or None) and ``title``; laid out in rows of
    at most ``ncols`` (one panel makes a figure of one panel).
    """
    fig, axes = grid(len(panels), 4.2, 3.2, max_cols=ncols)
    for ax, p in zip(axes, panels):
        sel = table[
            (table["benchmark"] == p["benchmark"])
            & (table["experiment"] == p["experiment"])
            & (table["method"] == p["method"])
            & (table["scheme"] == p["scheme"])
            & (table[x] >= min_x)
        ]
        _contour_panel(ax, sel, x, targets, xlabel, p.get("ymax"), p["title"])
    fig.tight_layout()
    return fig


@styled
def fa_lines(table, panels: Sequence[dict], benchmarks: Sequence[str], *, x: str,
             xlabel: str, target: float = 0.05, min_x: int = 1):
    """The minimal threshold for a ``target`` false-alarm rate, one line per benchmark:
    the summary of a figure with too many panels (one per benchmark) to draw.

    ``panels``: dicts with ``experiment``, ``method``, ``scheme`` and ``title``, one
    panel each. Up to :data:`MAX_LINES` benchmarks are labelled lines; more are grey
    lines with their median (:func:`spread`).
    """
    names = list(benchmarks)
    many = len(names) > MAX_LINES
    labelled = {} if many else {b: None for b in names}
    fig, axes = grid(len(panels), 4.2, 3.2, max_cols=MAX_COLS,
                     extra_height=legend_inches(2 if many else len(names)))
    handles = []
    for ax, p in zip(axes, panels):
        sel = table[(table["experiment"] == p["experiment"]) & (table["method"] == p["method"])
                    & (table["scheme"] == p["scheme"]) & (table[x] >= min_x)]
        series = {}
        for b in names:
            g = sel[sel["benchmark"] == b]
            if not g.empty:
                series[b] = contour(g, [target], x)[target]
        if many:
            handles = spread(ax, series) or handles
        else:
            for i, b in enumerate(names):
                if b in series:
                    xs, ys = series[b]
                    (h,) = ax.plot(xs, ys, label=b, **line_style(i, len(xs)))
                    labelled[b] = labelled[b] or h
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"threshold for {100 * target:g} % false alarms [%]")
        ax.set_title(f"{p['title']}, {len(series)} benchmark{'s' * (len(series) != 1)}")
        ax.set_ylim(bottom=0)
        ax.set_xlim(left=0)
        ax.grid(True)
    if not many:
        handles = [h for h in labelled.values() if h is not None]
    bottom_legend(fig, handles, [h.get_label() for h in handles])
    return fig


@styled
def fa_boot(table, benchmarks: Sequence[str], *, target: float = 0.05,
            schemes=("RRR", "RRN", "RNN", "FLAT")):
    """Minimal threshold for a ``target`` false-alarm rate per resampling scheme.

    One panel per benchmark (rows of at most :data:`MAX_COLS`); past
    :data:`MAX_PANELS` benchmarks, one panel per scheme with a line per benchmark.
    """
    if len(benchmarks) > MAX_PANELS:
        present = set(table.loc[table["experiment"] == "fFABoot", "scheme"])
        return fa_lines(table, [{"experiment": "fFABoot", "method": "bootstrap", "scheme": s,
                                 "title": f"{s} bootstrap"} for s in schemes if s in present],
                        benchmarks, x="binaries", xlabel="binaries per system", target=target)
    fig, axes = grid(len(benchmarks), 4.2, 3.2)
    for ax, b in zip(axes, benchmarks):
        for k, s in enumerate(schemes):
            sel = table[(table["benchmark"] == b) & (table["experiment"] == "fFABoot")
                        & (table["scheme"] == s)]
            if sel.empty:
                continue
            xs, ys = contour(sel, [target], "binaries")[target]
            ax.plot(xs, ys, label=s, **STYLES[k % len(STYLES)])
        ax.set_xlabel("binaries per system")
        ax.set_ylabel(f"threshold for {100 * target:g} % false alarms [%]")
        ax.set_title(b)
        ax.set_ylim(bottom=0)
        ax.grid(True)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(title="resampling")
    fig.tight_layout()
    return fig


@styled
def fa_validation(frame, thresholds_pct: Sequence[float]):
    """Approximate against exact bootstrap: false-alarm rate against threshold.

    ``frame``: per-comparison results with a ``mode`` column (``approx``/``exact``).
    Bands are two Monte Carlo standard errors of the exact estimate.
    """
    groups = list(frame.groupby(["benchmark", "kind", "size", "scheme"], sort=True))
    fig, axes = grid(len(groups), 3.2, 2.6)
    th = np.asarray(thresholds_pct, dtype=float)
    for ax, ((b, kind, size, scheme), g) in zip(axes, groups):
        top = max(float(np.nanmax(np.where(np.isfinite(g["tstar"]), g["tstar"], 0))) * 120, 0.5)
        th_p = np.concatenate([th[th < top], [top]])
        for k, mode in enumerate(("exact", "approx")):
            ts = g[g["mode"] == mode]["tstar"].to_numpy()
            if ts.size == 0:
                continue
            r = 100 * rates_at(ts, th_p / 100)
            ax.plot(th_p, r, label=mode, **{**STYLES[k], "marker": None})
            if mode == "exact":
                se = 100 * np.sqrt(r / 100 * (1 - r / 100) / ts.size)
                ax.fill_between(th_p, r - 2 * se, r + 2 * se, color="0.85")
        unit = "binaries" if kind == "binaries" else "executions"
        ax.set_title(f"{b}, {size} {unit}, {scheme}", fontsize=8)
        ax.set_xlabel("threshold [%]", fontsize=8)
        ax.set_ylabel("false alarms [%]", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def false_alarm_figures(table, validation, thresholds_pct: Sequence[float]) -> dict:
    """Every figure of the false-alarm family, keyed by its name in :mod:`~.layout`.

    Parameters
    ----------
    table : DataFrame
        ``false_alarm.csv``.
    validation : DataFrame
        Per-comparison results of the validation runs (with ``mode``).
    thresholds_pct : sequence of float
        The threshold grid, in %.

    Returns
    -------
    dict
        ``{name: Figure}`` for every name of ``FIGURES["false_alarm"]``.
    """
    names = list(dict.fromkeys(table["benchmark"]))
    out = {}
    methods = (("bootstrap", "RRR", "RRR bootstrap"), ("asymptotic", "-", "asymptotic"))
    chosen = shown(names, "FFT NA OPT", "Rijndael")
    ymax = {"FFT NA OPT": 10, "Rijndael": 0.5}
    panels = [{"benchmark": b, "experiment": "fFAFFT", "method": method, "scheme": scheme,
               "ymax": ymax.get(b), "title": f"{b}, {label}"}
              for b in chosen for method, scheme, label in methods]
    if len(panels) > MAX_PANELS:
        out[layout.FA_FFT] = fa_lines(
            table, [{"experiment": "fFAFFT", "method": m, "scheme": s, "title": label}
                    for m, s, label in methods],
            chosen, x="binaries", xlabel="binaries per system")
    else:
        out[layout.FA_FFT] = fa_contours(table, panels, x="binaries", xlabel="binaries per system",
                                         ncols=2 if len(panels) <= 4 else MAX_COLS)
    # the flat case (one execution) is reported in the table and the report, not plotted
    chosen = shown(names, "FFT NA OPT", "TCP OPT")
    xlabel = "executions per system (one binary)"
    if len(chosen) > MAX_PANELS:
        out[layout.FA_2L] = fa_lines(
            table, [{"experiment": "fFA2L", "method": "asymptotic", "scheme": "-",
                     "title": "asymptotic, one binary"}],
            chosen, x="executions", min_x=2, xlabel=xlabel)
    else:
        panels = [{"benchmark": n, "experiment": "fFA2L", "method": "asymptotic", "scheme": "-",
                   "ymax": None, "title": f"{n}, asymptotic, one binary"} for n in chosen]
        out[layout.FA_2L] = fa_contours(table, panels, x="executions", min_x=2, xlabel=xlabel,
                                        ncols=2 if len(panels) <= 4 else MAX_COLS)
    out[layout.FA_BOOT] = fa_boot(table, shown(names, "FFT", "TCP"))
    out[layout.FA_VALIDATION] = fa_validation(validation, thresholds_pct)
    return out
