"""Figures of the coverage simulations (Section "Coverage") and the study's extras.

Curves are told apart by colour, dash pattern and marker
(:func:`esize_study.render.figures.line_style`: colour-blind safe and readable in
black and white); the dotted nominal coverage has a legend entry. The heat maps use a
diverging colour map centred on the nominal coverage (white), blue above and red
below, with a linear colour bar ticked at even steps through the nominal coverage,
labelled black contour lines (their labels upright) for grey-scale prints
and a legend for the lines drawn on them; fCOVRSGrid's scale is symmetric about the
nominal coverage (as far below as above, as dark) and its cells below it are hatched.
fCOVGrid's titles give the range over the paper's grid (from 3 binaries on), and the
panels of fCOVSchemes share one coverage axis. Each
function takes ``coverage.csv`` as a DataFrame and returns a Figure drawn in the
study's one style (:data:`esize_study.render.figures.STYLE`); write it with
:func:`esize_study.render.figures.save`.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from . import registry
from .figures import (
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

__all__ = ["curves", "heatmaps", "validation", "coverage_figures"]

_style = line_style


def _select(table, experiment, method, scheme):
    return table[(table["experiment"] == experiment) & (table["method"] == method)
                 & (table["scheme"] == scheme)]


def _nominal(ax, level):
    """The dotted line of the nominal coverage; returns it (for the legend)."""
    return ax.axhline(100 * level, color="0.5", linewidth=0.8, linestyle=(0, (1, 1)),
                      zorder=0, label=f"nominal coverage {100 * level:g} %")


@styled
def curves(table, panels: Sequence[dict], *, x: str, xlabel: str, level: float = 0.95,
           ncols: int = 2, benchmarks: Sequence[str] | None = None, sharey: bool = False):
    """Coverage against ``x``, one curve per benchmark, one panel per method.

    ``panels``: dicts with ``experiment``, ``method``, ``scheme`` and ``title``, in
    rows of at most ``ncols``. A dotted line marks the nominal coverage ``level``. Up
    to :data:`~esize_study.render.figures.MAX_LINES` benchmarks are labelled curves (legend
    below the panels); more are grey curves with their median
    (:func:`~esize_study.render.figures.spread`), the count in each title.
    ``sharey``: every panel gets the same coverage range (the union of theirs), so
    that panels compare at a glance.
    """
    names = list(benchmarks) if benchmarks else list(dict.fromkeys(table["benchmark"]))
    many = len(names) > MAX_LINES
    fig, axes = grid(len(panels), 4.3, 3.3, max_cols=ncols,
                     extra_height=legend_inches((2 if many else len(names)) + 1))
    handles = {}
    nominal = None
    for ax, p in zip(axes, panels):
        sel = _select(table, p["experiment"], p["method"], p["scheme"])
        series = {}
        for i, b in enumerate(names):
            g = sel[sel["benchmark"] == b].sort_values(x)
            if g.empty:
                continue
            series[b] = (g[x].to_numpy(), 100 * g["coverage"].to_numpy())
            if not many:
                (h,) = ax.plot(*series[b], linewidth=1.0, markersize=4, label=b,
                               **_style(i, len(g)))
                handles.setdefault(b, h)
        title = p["title"]
        if many:
            got = spread(ax, series)
            if got:
                handles = {h.get_label(): h for h in got}
            title += f" ({len(series)} benchmarks)"
        nominal = _nominal(ax, level)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("coverage [%]")
        ax.set_title(title)
        ax.grid(True)
        ax.set_xlim(left=0)
        count_axis(ax.xaxis)
    if sharey and axes:
        lims = np.array([ax.get_ylim() for ax in axes])
        for ax in axes:
            ax.set_ylim(lims[:, 0].min(), lims[:, 1].max())
    if nominal is not None:
        handles[nominal.get_label()] = nominal
    bottom_legend(fig, list(handles.values()), list(handles))
    return fig


def _edges(values: np.ndarray, log: bool) -> np.ndarray:
    v = np.log(values) if log else values.astype(float)
    if v.size == 1:
        e = np.array([v[0] - 0.5, v[0] + 0.5])
    else:
        mid = (v[1:] + v[:-1]) / 2
        e = np.concatenate([[v[0] - (mid[0] - v[0])], mid, [v[-1] + (v[-1] - mid[-1])]])
    return np.exp(e) if log else e


#: Steps of the colour bar's ticks (coverage points), the smallest giving at most
#: :data:`MAX_BAR_TICKS` ticks.
BAR_STEPS = (0.5, 1.0, 2.0, 2.5, 5.0, 10.0, 20.0, 25.0, 50.0)
MAX_BAR_TICKS = 8


def bar_ticks(vmin: float, vmax: float, centre: float) -> np.ndarray:
    """Evenly spaced ticks from ``vmin`` to ``vmax`` through ``centre``: ``centre + k *
    step`` with the smallest step of :data:`BAR_STEPS` that gives at most
    :data:`MAX_BAR_TICKS` of them."""
    for step in BAR_STEPS:
        ks = np.arange(np.ceil((vmin - centre) / step - 1e-9),
                       np.floor((vmax - centre) / step + 1e-9) + 1)
        if ks.size <= MAX_BAR_TICKS:
            break
    return centre + ks * step


def _grid_ticks(axis, values: np.ndarray, log: bool) -> None:
    """Ticks of a heat map's axis: every grid value when there are at most ten, else
    the values of 1, 2, 5, 10, ... within them; plain numbers."""
    from matplotlib.ticker import FixedLocator, FormatStrFormatter, NullFormatter, NullLocator

    v = np.asarray(values, dtype=float)
    ticks = v if v.size <= 10 else [t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000,
                                                5000, 10000) if v.min() <= t <= v.max()]
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_major_formatter(FormatStrFormatter("%g"))
    if log:
        axis.set_minor_locator(NullLocator())
        axis.set_minor_formatter(NullFormatter())


#: Hatch of the cells below the nominal coverage.
HATCH = "///"
#: Cells darker than this grey (0 black, 1 white) get white hatching, the others black.
DARK = 0.45


def _grey(mesh, values) -> np.ndarray:
    """The grey (0 black, 1 white) a black-and-white print gives ``mesh``'s colour of
    each of ``values``."""
    rgba = mesh.to_rgba(np.asarray(values, dtype=float))
    return rgba[..., 0] * 0.299 + rgba[..., 1] * 0.587 + rgba[..., 2] * 0.114


def _hatch(ax, ex, ey, z, c, mesh) -> bool:
    """Hatch the cells of ``z`` below ``c`` (edges ``ex``, ``ey``): black lines on pale
    cells, white lines on dark ones (their colour from ``mesh``). Returns whether any
    cell was hatched."""
    from matplotlib.collections import PolyCollection

    grey = _grey(mesh, z)
    below = np.isfinite(z) & (z < c)
    any_ = False
    for dark, colour in ((False, "k"), (True, "w")):
        cells = np.argwhere(below & ((grey < DARK) == dark))
        if cells.size == 0:
            continue
        verts = [[(ex[j], ey[i]), (ex[j + 1], ey[i]), (ex[j + 1], ey[i + 1]), (ex[j], ey[i + 1])]
                 for i, j in cells]
        coll = PolyCollection(verts, facecolors="none", edgecolors="none", linewidths=0,
                              hatch=HATCH, label=f"_hatched below {c:g} %")
        coll.set_hatchcolor(colour)
        coll.set_hatch_linewidth(0.5)
        ax.add_collection(coll, autolim=False)
        any_ = True
    return any_


def _bar_hatch(cax, mesh, vmin: float, c: float) -> None:
    """Hatch the colour bar ``cax`` from ``vmin`` up to ``c`` as the cells are: white
    lines where its colour is dark, black where it is pale."""
    from matplotlib.patches import Rectangle

    ys = np.linspace(vmin, c, 401)
    dark = ys[_grey(mesh, ys) < DARK]
    split = float(dark.max()) if dark.size else vmin
    for lo, hi, colour in ((vmin, split, "w"), (split, c, "k")):
        if hi > lo:
            r = Rectangle((0, lo), 1, hi - lo, facecolor="none", edgecolor="none", linewidth=0,
                          hatch=HATCH, hatchcolor=colour)
            r.set_hatch_linewidth(0.5)
            cax.add_patch(r)


@styled
def heatmaps(table, panels: Sequence[dict], *, x: str, y: str, xlabel: str, ylabel: str,
             level: float = 0.95, log: tuple[bool, bool] = (True, True),
             contours: Sequence[float] = (97, 98, 99), diagonal: bool = False,
             min_span: float = 2.0, symmetric: bool = False, hatch_below: bool = False,
             title_range: tuple[str, float, str] | None = None):
    """Coverage over a two-way grid, one heat map per panel, one colour scale.

    ``panels``: dicts with ``benchmark``, ``experiment``, ``method``, ``scheme``,
    ``title``; a summary panel has ``benchmarks`` (a list) and ``agg`` (``"median"``
    or ``"min"``) instead of ``benchmark``: the median or the lowest coverage of those
    benchmarks in each cell. Panels are laid out in rows of at most
    :data:`~esize_study.render.figures.MAX_COLS`. White is ``level``; blue above, red below,
    darker further away (each side of the scale spans at least ``min_span`` points, so
    that Monte Carlo noise around ``level`` stays pale). The colour bar is linear in
    coverage, its ticks evenly spaced through ``level`` (:func:`bar_ticks`). Black
    contour lines at ``contours`` (%) keep the plot readable in grey scale, their
    labels upright on a pale patch; ``diagonal`` draws the line
    ``x == y`` dashed. A legend below the panels says what the lines are.

    ``symmetric``: a scale of coverage error, as many points below ``level`` as above
    it (a cell 5 points under is as dark red as one 5 points over is dark blue; the
    colour bar stops at 100 %, as coverage does). ``hatch_below``: the cells below
    ``level`` hatched (black lines on pale cells, white on dark ones), which tells red
    from blue in grey scale. ``title_range``: ``(column, minimum, words)``, each title's
    range of coverage over the cells whose ``column`` (``x`` or ``y``) is at least
    ``minimum``, said in ``words`` (the whole grid when no cell is).
    """
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FixedLocator, FormatStrFormatter

    grids = []
    for p in panels:
        sel = _select(table, p["experiment"], p["method"], p["scheme"])
        if "agg" in p:
            sel = sel[sel["benchmark"].isin(p["benchmarks"])]
            cells = sel.groupby([y, x, "benchmark"])["coverage"].mean()
            piv = cells.groupby(level=[0, 1]).agg(p["agg"]).unstack(x)
        else:
            sel = sel[sel["benchmark"] == p["benchmark"]]
            piv = sel.pivot_table(index=y, columns=x, values="coverage", aggfunc="mean")
        grids.append(100 * piv)
    vals = np.concatenate([g.to_numpy().ravel() for g in grids if g.size]) if grids else np.array([])
    vals = vals[np.isfinite(vals)]
    c = 100 * level
    vmin = min(float(vals.min()) if vals.size else c, c - min_span)
    vmax = max(float(vals.max()) if vals.size else c, c + min_span)
    if symmetric:
        half = max(c - vmin, vmax - c)
        norm = TwoSlopeNorm(vcenter=c, vmin=c - half, vmax=c + half)
        vmin, vmax = c - half, min(c + half, max(vmax, 100.0))  # no coverage over 100 %
    else:
        norm = TwoSlopeNorm(vcenter=c, vmin=vmin, vmax=vmax)

    def lines(g):  # what the legend will show for g: contours, the diagonal, hatching
        z = g.to_numpy()
        if g.size == 0 or not np.isfinite(z).any():
            return np.zeros(3, dtype=bool)
        xs, ys = g.columns.to_numpy(), g.index.to_numpy()
        contour = min(z.shape) >= 2 and any(np.nanmin(z) < v < np.nanmax(z) for v in contours)
        diag = diagonal and max(xs.min(), ys.min()) < min(xs.max(), ys.max())
        return np.array([contour, diag, hatch_below and bool(np.nanmin(z) < c)])

    def ranged(g):  # the cells a title's range is over, and what they are
        if title_range is None or g.size == 0:
            return g, ""
        col, lo, words = title_range
        part = g.loc[:, g.columns >= lo] if col == x else g.loc[g.index >= lo] if col == y else g
        if part.size == 0 or not np.isfinite(part.to_numpy()).any():
            return g, "all cells: "
        return part, f"{words}: "

    entries = int(np.any([lines(g) for g in grids], axis=0).sum()) if grids else 0
    legend_height = legend_inches(entries, ncol=2)
    fig, axes = grid(len(panels), 4.4, 3.8 + 0.1 * (title_range is not None),  # 2-line titles
                     extra_width=0.8, extra_height=legend_height)
    width, height = fig.get_size_inches()
    mesh = None
    drawn = {"contour": False, "diagonal": False, "hatch": False}
    for ax, p, g in zip(axes, panels, grids):
        part, words = ranged(g)
        rng = (f"{np.nanmin(part.to_numpy()):.1f} % to {np.nanmax(part.to_numpy()):.1f} %"
               if g.size else "")
        if title_range is None:  # the range on the title's line, else on one of its own
            ax.set_title(p["title"] + (f" ({rng})" if rng else ""))
        else:
            ax.set_title(p["title"] + (f"\n{words}{rng}" if rng else ""))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if g.size == 0:
            ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
            continue
        xs, ys = g.columns.to_numpy(), g.index.to_numpy()
        z = g.to_numpy()
        ex, ey = _edges(xs, log[0]), _edges(ys, log[1])
        mesh = ax.pcolormesh(ex, ey, z, cmap="RdBu", norm=norm, shading="flat")
        if hatch_below:
            drawn["hatch"] |= _hatch(ax, ex, ey, z, c, mesh)
        # scales and ticks first: the contour labels take their angle from the axes
        if log[0]:
            ax.set_xscale("log")
        if log[1]:
            ax.set_yscale("log")
        _grid_ticks(ax.xaxis, xs, log[0])
        _grid_ticks(ax.yaxis, ys, log[1])
        if diagonal:
            lo = max(xs.min(), ys.min())
            hi = min(xs.max(), ys.max())
            if lo < hi:
                ax.plot([lo, hi], [lo, hi], color="k", linestyle="--", linewidth=1.0)
                drawn["diagonal"] = True
        lv = [v for v in contours if np.nanmin(z) < v < np.nanmax(z)]
        if lv and min(z.shape) >= 2:
            cs = ax.contour(xs, ys, z, levels=lv, colors="k", linewidths=0.7)
            # labels upright (a label along a steep line reads top-down or upside
            # down), on a pale patch that keeps them legible on dark cells
            for t in ax.clabel(cs, fmt=lambda v: f"{v:g} %", fontsize=6):
                t.set_rotation(0)
                t.set_bbox({"facecolor": "white", "alpha": 0.75, "edgecolor": "none",
                            "pad": 0.6})
            drawn["contour"] = True
    handles = []
    if drawn["contour"]:
        handles.append(Line2D([], [], color="k", linewidth=0.7,
                              label="contour line: coverage [%] as labelled"))
    if drawn["diagonal"]:
        handles.append(Line2D([], [], color="k", linestyle="--", linewidth=1.0,
                              label=f"{xlabel} = {ylabel}"))
    if drawn["hatch"]:
        handles.append(Patch(facecolor="white", edgecolor="k", linewidth=0.5, hatch=HATCH,
                             label=f"hatched: coverage below {c:g} %"))
    # the colour bar in the 0.8 inches on the right, the legend below
    fig.tight_layout(rect=(0, legend_height / height, 1 - 0.85 / width, 1))
    if handles:
        fig.legend(handles=handles, loc="lower center", ncol=2, fontsize=7, frameon=False)
    if mesh is not None:
        cax = fig.add_axes((1 - 0.7 / width, 0.15, 0.16 / width, 0.7))
        cb = fig.colorbar(mesh, cax=cax)
        cax.set_yscale("linear")  # equal steps of coverage, equal lengths of the bar
        cax.set_ylim(vmin, vmax)
        cax.yaxis.set_major_locator(FixedLocator(bar_ticks(vmin, vmax, c)))
        cax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
        cax.minorticks_off()
        cb.set_label("coverage [%]")
        if hatch_below:  # the bar hatched as the cells are
            _bar_hatch(cax, mesh, vmin, c)
    return fig


@styled
def validation(vtable):
    """Approximate against exact simulation (from
    :func:`esize_study.coverage.validation.validation_table`).

    Left: paired (same experiments), middle: independent experiments; both with
    bars of two standard errors of the difference and the line where the two agree.
    Right: every difference in standard errors, the band of +-2 shaded. The legends
    are outside the panels (below them, and to the right of the last), off the points.
    """
    labels = {"asymptotic": "asymptotic", "normal": "normal quantile"}
    kinds = list(dict.fromkeys(
        labels.get(m, f"{m} {s}" if s != "-" else m)
        for m, s in zip(vtable["method"], vtable["scheme"])))
    style = {k: _style(i, 1) for i, k in enumerate(kinds)}
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.0))
    for ax, comp, title in ((axes[0], "paired", "same experiments (paired)"),
                            (axes[1], "independent", "independent experiments")):
        t = vtable[vtable["comparison"] == comp]
        for _, r in t.iterrows():
            k = labels.get(r.method, f"{r.method} {r.scheme}" if r.scheme != "-" else r.method)
            st = style[k]
            ax.errorbar(100 * r.exact, 100 * r.approx, yerr=200 * r.se_diff, fmt=st["marker"],
                        color=st["color"], markerfacecolor=st.get("markerfacecolor", st["color"]),
                        markersize=4, elinewidth=0.6, capsize=1.5, label=k)
        lims = [100 * min(vtable["exact"].min(), vtable["approx"].min()) - 2, 101]
        ax.plot(lims, lims, color="0.5", linewidth=0.8, label="approximate = exact")
        ax.set_xlim(lims)
        ax.set_ylim(lims)
        ax.set_xlabel("coverage, exact simulation [%]")
        ax.set_ylabel("coverage, approximate simulation [%]")
        ax.set_title(title)
        ax.grid(True)
    ax = axes[2]
    for j, comp in enumerate(("paired", "independent")):
        t = vtable[vtable["comparison"] == comp].reset_index(drop=True)
        ax.plot(np.arange(len(t)) + 0.25 * j, t["z"], linestyle="none", marker="os"[j],
                color=STYLES[j]["color"], markerfacecolor="white" if j else STYLES[j]["color"],
                markersize=4, label=comp)
    ax.axhspan(-2, 2, color="0.9", zorder=0, label="within ±2 standard errors")
    ax.axhline(0, color="0.5", linewidth=0.8)
    count_axis(ax.xaxis)
    ax.set_xlabel("comparison (case × method), numbered")
    ax.set_ylabel("difference [standard errors]")
    ax.set_title("approximate minus exact, in standard errors")
    # beside the panel, never on its points (inside, "best" may still cover some)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    uniq = {}
    for a in axes[:2]:
        for h, name in zip(*a.get_legend_handles_labels()):
            uniq.setdefault(name, h)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.legend(list(uniq.values()), list(uniq), loc="lower center", ncol=min(6, len(uniq)),
               fontsize=7, frameon=False)
    return fig


#: fCOVGrid's titles: the range of coverage over the paper's grid, from 3 binaries on
#: (its figure starts there; our grid also has 2, where the t quantile has one degree
#: of freedom and the coverage is at its highest).
PAPER_GRID = ("binaries", 3, "over 3+ binaries (the paper's grid)")


def _panel(exp, method, scheme, title, bench=None):
    return {"experiment": exp, "method": method, "scheme": scheme, "title": title,
            "benchmark": bench}


def _bench_panels(names, exp, method, scheme, label):
    """One heat map per benchmark of ``names``; past MAX_PANELS of them, two: the
    median and the lowest coverage over them, cell by cell."""
    if len(names) <= MAX_PANELS:
        return [_panel(exp, method, scheme, f"{n}, {label}", n) for n in names]
    return [{**_panel(exp, method, scheme, f"{what} of {len(names)} benchmarks, {label}"),
             "benchmarks": list(names), "agg": agg}
            for what, agg in (("median", "median"), ("lowest", "min"))]


def coverage_figures(table, vtable, level: float) -> dict:
    """Every figure of the coverage family, keyed by its name in :mod:`~.registry`.

    Parameters
    ----------
    table : DataFrame
        ``coverage.csv``.
    vtable : DataFrame
        :func:`esize_study.coverage.validation.validation_table` of the validation runs.
    level : float
        Nominal coverage (``1 - alpha``).

    Returns
    -------
    dict
        ``{name: Figure}`` for every name of ``FIGURES["coverage"]``.
    """
    names = list(dict.fromkeys(table["benchmark"]))
    binaries = "binaries per system"
    panel = _panel
    out = {}
    out[registry.COV] = curves(
        table, [panel("fCOV", "bootstrap", "RRR", "RRR bootstrap"),
                panel("fCOV", "asymptotic", "-", "asymptotic (Fieller, t quantile)")],
        x="binaries", xlabel=binaries, level=level)
    out[registry.COV_NORMAL] = curves(
        table, [panel("fCOV", "normal", "-", "normal-quantile asymptotic (Fieller)")],
        x="binaries", xlabel=binaries, level=level, ncols=1)
    out[registry.COV_SCHEMES] = curves(
        table, [panel("fCOV", "bootstrap", s, f"{s} bootstrap") for s in ("RRR", "RRN", "RNN", "FLAT")],
        x="binaries", xlabel=binaries, level=level, sharey=True)
    out[registry.COV_R] = curves(
        table, [panel("fCOVR", "bootstrap", "RRR", "RR bootstrap, one binary"),
                panel("fCOVR", "asymptotic", "-", "asymptotic, one binary")],
        x="executions", xlabel="executions per system (one binary)", level=level)
    two_way = dict(x="binaries", y="executions", xlabel=binaries, ylabel="executions per binary",
                 level=level, diagonal=True)
    chosen = shown(names, "FFT NA OPT", "Rijndael OPT")
    # the title's range over the paper's grid, which starts at 3 binaries (PAPER_GRID)
    out[registry.COV_GRID] = heatmaps(
        table, _bench_panels(chosen, "fCOVGrid", "asymptotic", "-", "asymptotic"),
        title_range=PAPER_GRID, **two_way)
    booted = list(dict.fromkeys(table[(table["experiment"] == "fCOVGrid")
                                      & (table["method"] == "bootstrap")]["benchmark"]))
    chosen = shown(booted, "FFT NA OPT", "Rijndael OPT") or chosen[:1]
    out[registry.COV_GRID_BOOT] = heatmaps(
        table, _bench_panels(chosen, "fCOVGrid", "bootstrap", "RRR", "RRR bootstrap"),
        contours=(85, 90, 95, 98), **two_way)
    chosen = shown(names, "FFT NA", "HTTP OPT")
    out[registry.COV_RS_GRID] = heatmaps(
        table, _bench_panels(chosen, "fCOVRSGrid", "asymptotic", "-", "asymptotic, one binary"),
        x="executions", y="measurements", xlabel="executions per system (one binary)",
        ylabel="measurements per execution", level=level, contours=(90, 95, 99),
        symmetric=True, hatch_below=True)
    out[registry.COV_VALIDATION] = validation(vtable)
    return out
