"""Figures of the reproduction (matplotlib, readable in black and white).

Each function takes tidy tables (pandas DataFrames as written by the pipeline) and
returns a :class:`matplotlib.figure.Figure`; :func:`save` writes it atomically.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .falsealarm import contour  # noqa: E402

__all__ = ["save", "fa_contours", "fa_boot", "fa_validation", "STYLES", "pick", "named"]

#: Line styles that stay distinguishable in grey scale.
STYLES = [
    {"color": "0.0", "linestyle": "-", "marker": "o"},
    {"color": "0.25", "linestyle": "--", "marker": "s"},
    {"color": "0.45", "linestyle": "-.", "marker": "^"},
    {"color": "0.6", "linestyle": ":", "marker": "D"},
    {"color": "0.35", "linestyle": (0, (5, 1, 1, 1, 1, 1)), "marker": "v"},
]


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
    """Save ``fig`` to each path (format from the suffix), atomically, then close it."""
    for p in paths:
        p = Path(p)
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.stem}.", suffix=p.suffix)
        os.close(fd)
        try:
            fig.savefig(tmp, dpi=150, bbox_inches="tight")
            os.chmod(tmp, 0o644)
            os.replace(tmp, p)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    plt.close(fig)


def _contour_panel(ax, table, x, targets, xlabel, ymax, title):
    lines = contour(table, targets, x)
    for k, (target, (xs, ys)) in enumerate(lines.items()):
        st = STYLES[k % len(STYLES)]
        ax.plot(xs, ys, markersize=3, linewidth=1.2, label=f"{100 * target:g} %", **st)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("threshold [%]")
    if ymax is not None:
        ax.set_ylim(0, ymax)
    ax.set_xlim(left=0)
    ax.set_title(title, fontsize=9)
    ax.grid(True, color="0.85", linewidth=0.5)
    ax.legend(title="false alarms", fontsize=7, title_fontsize=7, loc="best")


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
            ax.plot(xs, ys, markersize=3, linewidth=1.2, label=s, **STYLES[k % len(STYLES)])
        ax.set_xlabel("binaries per system")
        ax.set_ylabel(f"threshold for {100 * target:g} % false alarms [%]")
        ax.set_title(b, fontsize=9)
        ax.set_ylim(bottom=0)
        ax.grid(True, color="0.85", linewidth=0.5)
        ax.legend(title="resampling", fontsize=7, title_fontsize=7)
    fig.tight_layout()
    return fig


def fa_validation(frame, thresholds_pct: Sequence[float]):
    """Approximate against exact bootstrap: false-alarm rate against threshold.

    ``frame``: per-comparison results with a ``mode`` column (``approx``/``exact``).
    Bands are two Monte Carlo standard errors of the exact estimate.
    """
    from .falsealarm import rates_at

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
