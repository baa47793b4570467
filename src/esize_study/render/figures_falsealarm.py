"""Figures of the false-alarm simulations (Section "False Alarm Rate").

Each function takes ``false_alarm.csv`` (or the validation runs' comparisons) as a
DataFrame and returns a Figure drawn in the study's one style
(:data:`esize_study.render.figures.STYLE`); :func:`false_alarm_figures` makes every
figure of the family, keyed by its name in :mod:`esize_study.render.registry`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..estimate.rates import contour, rates_at
from . import registry
from .figures import (
    MAX_COLS,
    MAX_LINES,
    MAX_PANELS,
    STYLES,
    bottom_legend,
    count_axis,
    grid,
    legend_inches,
    line_style,
    shown,
    spread,
    styled,
)

__all__ = ["fa_contours", "fa_lines", "fa_boot", "fa_validation", "false_alarm_figures"]


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
    count_axis(ax.xaxis)
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
        count_axis(ax.xaxis)
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
        count_axis(ax.xaxis)
        ax.grid(True)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(title="resampling")
    fig.tight_layout()
    return fig


@styled
def fa_validation(frame, thresholds_pct: Sequence[float]):
    """Approximate against exact bootstrap: false-alarm rate against threshold.

    ``frame``: per-comparison results with a ``mode`` column (``approx``/``exact``).
    Bands (in the legend) are two Monte Carlo standard errors of the exact estimate,
    cut at 0 and 100 %.
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
                ax.fill_between(th_p, np.clip(r - 2 * se, 0, 100), np.clip(r + 2 * se, 0, 100),
                                color="0.85", label="exact ± 2 standard errors")
        unit = "binaries" if kind == "binaries" else "executions"
        ax.set_title(f"{b}, {size} {unit}, {scheme}", fontsize=8)
        ax.set_xlabel("threshold [%]", fontsize=8)
        ax.set_ylabel("false alarms [%]", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def false_alarm_figures(table, validation, thresholds_pct: Sequence[float]) -> dict:
    """Every figure of the false-alarm family, keyed by its name in :mod:`~.registry`.

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
        out[registry.FA_FFT] = fa_lines(
            table, [{"experiment": "fFAFFT", "method": m, "scheme": s, "title": label}
                    for m, s, label in methods],
            chosen, x="binaries", xlabel="binaries per system")
    else:
        out[registry.FA_FFT] = fa_contours(table, panels, x="binaries", xlabel="binaries per system",
                                         ncols=2 if len(panels) <= 4 else MAX_COLS)
    # the flat case (one execution) is reported in the table and the report, not plotted
    chosen = shown(names, "FFT NA OPT", "TCP OPT")
    xlabel = "executions per system (one binary)"
    if len(chosen) > MAX_PANELS:
        out[registry.FA_2L] = fa_lines(
            table, [{"experiment": "fFA2L", "method": "asymptotic", "scheme": "-",
                     "title": "asymptotic, one binary"}],
            chosen, x="executions", min_x=2, xlabel=xlabel)
    else:
        panels = [{"benchmark": n, "experiment": "fFA2L", "method": "asymptotic", "scheme": "-",
                   "ymax": None, "title": f"{n}, asymptotic, one binary"} for n in chosen]
        out[registry.FA_2L] = fa_contours(table, panels, x="executions", min_x=2, xlabel=xlabel,
                                        ncols=2 if len(panels) <= 4 else MAX_COLS)
    out[registry.FA_BOOT] = fa_boot(table, shown(names, "FFT", "TCP"))
    out[registry.FA_VALIDATION] = fa_validation(validation, thresholds_pct)
    return out
