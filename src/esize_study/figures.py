"""Figures of the reproduction (matplotlib, readable in black and white).

Every figure of the study is drawn in one style (:data:`STYLE`, applied with
:func:`styled`) with matplotlib's object-oriented interface: pyplot only creates
figures (``fig, axes = plt.subplots(...)``) and closes them. Each function takes
tidy tables (pandas DataFrames as written by the pipeline) and returns a
:class:`matplotlib.figure.Figure`; :func:`save` writes it with the library's atomic
writer. This module draws the figures of the section "False Alarm Rate";
:mod:`esize_study.figures_coverage` those of "Coverage".
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

from . import layout  # noqa: E402
from .falsealarm import contour, rates_at  # noqa: E402

__all__ = [
    "STYLE",
    "STYLES",
    "styled",
    "save",
    "save_all",
    "pick",
    "named",
    "fa_contours",
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
    ``ymax`` (threshold axis limit in %, or None) and ``title``.
    """
    nrows = int(np.ceil(len(panels) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.2 * nrows), squeeze=False)
    for ax, p in zip(axes.ravel(), panels):
        sel = table[
            (table["benchmark"] == p["benchmark"])
            & (table["experiment"] == p["experiment"])
            & (table["method"] == p["method"])
            & (table["scheme"] == p["scheme"])
            & (table[x] >= min_x)
        ]
        _contour_panel(ax, sel, x, targets, xlabel, p.get("ymax"), p["title"])
    for ax in axes.ravel()[len(panels):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


@styled
def fa_boot(table, benchmarks: Sequence[str], *, target: float = 0.05,
            schemes=("RRR", "RRN", "RNN", "FLAT")):
    """Minimal threshold for a ``target`` false-alarm rate per resampling scheme."""
    fig, axes = plt.subplots(1, len(benchmarks), figsize=(4.2 * len(benchmarks), 3.2), squeeze=False)
    for ax, b in zip(axes.ravel(), benchmarks):
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
    ncols = 4
    nrows = int(np.ceil(len(groups) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 2.6 * nrows), squeeze=False)
    th = np.asarray(thresholds_pct, dtype=float)
    for ax, ((b, kind, size, scheme), g) in zip(axes.ravel(), groups):
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
    for ax in axes.ravel()[len(groups):]:
        ax.set_visible(False)
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
    fft, rij = pick(names, "FFT NA OPT", "Rijndael")
    ymax = {"FFT NA OPT": 10, "Rijndael": 0.5}
    panels = []
    for b in (fft, rij):
        for method, scheme, label in (("bootstrap", "RRR", "RRR bootstrap"),
                                      ("asymptotic", "-", "asymptotic")):
            panels.append({"benchmark": b, "experiment": "fFAFFT", "method": method,
                           "scheme": scheme, "ymax": ymax.get(b), "title": f"{b}, {label}"})
    out[layout.FA_FFT] = fa_contours(table, panels, x="binaries", xlabel="binaries per system")
    a, b = pick(names, "FFT NA OPT", "TCP OPT")
    panels = [{"benchmark": n, "experiment": "fFA2L", "method": "asymptotic", "scheme": "-",
               "ymax": None, "title": f"{n}, asymptotic, one binary"} for n in (a, b)]
    # the flat case (one execution) is reported in the table and the report, not plotted
    out[layout.FA_2L] = fa_contours(table, panels, x="executions", min_x=2,
                                    xlabel="executions per system (one binary)")
    out[layout.FA_BOOT] = fa_boot(table, pick(names, "FFT", "TCP"))
    out[layout.FA_VALIDATION] = fa_validation(validation, thresholds_pct)
    return out
