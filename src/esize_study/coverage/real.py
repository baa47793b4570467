"""Coverage measured on real data by subsampling, beside what the stand-in predicts.

The coverage figures of the paper (fCOV, fCOVR) come from a hierarchical normal model
fed with a benchmark's variances. On a measured dataset the same question can be asked
of the data themselves: draw two "systems" of :math:`k` builds each, with replacement,
from one benchmark's pool of builds, and build the 95 % interval of their ratio. Both
systems come from the same pool, so the true ratio is exactly 1 and the share of
intervals that contain 1 is the interval's coverage on the real data,

.. math::

    \\widehat{\\mathrm{cov}}(k) = 1 - \\widehat{\\mathrm{FA}}_0(k),

where :math:`\\widehat{\\mathrm{FA}}_0` is the false-alarm rate at threshold 0 of the
false-alarm study (Section "False Alarm Rate"; ``false_alarm.csv``), which already
draws those comparisons from the data. No model is fitted: whatever the data hold
(skewed builds, bimodal iterations, a session shift pooled into the build level) is
in the number. The binomial standard error is :math:`\\sqrt{c(1-c)/n}` for
:math:`n` comparisons.

The stand-in dataset (fitted to the paper's Table tVariations) runs the same
simulation on its own pool, so its coverage at the same :math:`k` is what a user who
trusted the stand-in would have predicted for real Mono data. :func:`side_by_side`
sets the two beside each other; the comparison is reported, not judged (its pools
differ in executions and iterations per build; the rows say so).

Experiments: ``fFAFFT`` (:math:`k` builds with all their executions, the asymptotic
interval and the RRR bootstrap) and ``fFA2L`` (one build per system, :math:`e`
executions: the two-level experiment of fCOVR, where the truth differs between the
two builds).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["COLUMNS", "BESIDE_COLUMNS", "real_coverage", "side_by_side", "summary",
           "plot_beside", "section_markdown"]

#: Columns of :func:`real_coverage`.
COLUMNS = ("benchmark", "experiment", "method", "size", "binaries", "executions",
           "coverage", "se", "comparisons", "unbounded")
#: Columns of :func:`side_by_side`.
BESIDE_COLUMNS = ("benchmark", "experiment", "method", "size", "measured", "measured_se",
                  "measured_executions", "standin", "standin_se", "standin_executions",
                  "difference", "differs")


def real_coverage(table: pd.DataFrame) -> pd.DataFrame:
    """Coverage of 1 by the A/A intervals of a false-alarm table (threshold 0).

    Parameters
    ----------
    table : DataFrame
        ``false_alarm.csv`` (:data:`esize_study.falsealarm.records.CSV_COLUMNS`).

    Returns
    -------
    DataFrame
        :data:`COLUMNS`: one row per benchmark, experiment (``fFAFFT``, ``fFA2L``),
        method and size; ``size`` is the number of builds (``fFAFFT``) or of
        executions (``fFA2L``); an unbounded interval counts as containing 1.

    Raises
    ------
    ValueError
        When the table has no rows at threshold 0.
    """
    t = table[np.isclose(table["threshold_pct"].astype(float), 0.0)
              & table["experiment"].isin(["fFAFFT", "fFA2L"])]
    if t.empty:
        raise ValueError("the false-alarm table has no rows at threshold 0")
    size = np.where(t["experiment"] == "fFA2L", t["executions"], t["binaries"]).astype(int)
    cov = 1.0 - t["rate"].astype(float)
    n = t["comparisons"].astype(int)
    out = pd.DataFrame({
        "benchmark": t["benchmark"].to_numpy(), "experiment": t["experiment"].to_numpy(),
        "method": t["method"].to_numpy(), "size": size,
        "binaries": t["binaries"].astype(int).to_numpy(),
        "executions": t["executions"].astype(int).to_numpy(),
        "coverage": cov.to_numpy(), "se": np.sqrt(cov * (1 - cov) / n).to_numpy(),
        "comparisons": n.to_numpy(), "unbounded": t["unbounded"].astype(int).to_numpy()})
    return out.sort_values(["benchmark", "experiment", "method", "size"],
                           kind="stable").reset_index(drop=True)


def side_by_side(measured: pd.DataFrame, standin: pd.DataFrame) -> pd.DataFrame:
    """The measured coverage beside the stand-in's, where both were simulated.

    Parameters
    ----------
    measured, standin : DataFrame
        :func:`real_coverage` of the measured dataset and of the stand-in.

    Returns
    -------
    DataFrame
        :data:`BESIDE_COLUMNS`; ``difference`` is measured minus stand-in and
        ``differs`` whether it exceeds twice its standard error
        :math:`\\sqrt{se_m^2 + se_s^2}` (a description, not a test of a rule).
    """
    key = ["benchmark", "experiment", "method", "size"]
    m = measured.rename(columns={"coverage": "measured", "se": "measured_se",
                                 "executions": "measured_executions"})
    s = standin.rename(columns={"coverage": "standin", "se": "standin_se",
                                "executions": "standin_executions"})
    out = m[key + ["measured", "measured_se", "measured_executions"]].merge(
        s[key + ["standin", "standin_se", "standin_executions"]], on=key, how="inner")
    out["difference"] = out["measured"] - out["standin"]
    se = np.sqrt(out["measured_se"] ** 2 + out["standin_se"] ** 2)
    out["differs"] = (out["difference"].abs() > 2 * se) & (se > 0) | (
        (se == 0) & (out["difference"] != 0))
    return out[list(BESIDE_COLUMNS)].reset_index(drop=True)


def summary(beside: pd.DataFrame) -> dict:
    """Counts over the rows of :func:`side_by_side`: cells, differing, lower, higher."""
    d = beside[beside["differs"]]
    return {"cells": int(len(beside)), "differ": int(len(d)),
            "lower": int((d["difference"] < 0).sum()),
            "higher": int((d["difference"] > 0).sum())}


_PANELS = (("fFAFFT", "asymptotic", "builds per system (asymptotic)"),
           ("fFAFFT", "bootstrap", "builds per system (RRR bootstrap)"),
           ("fFA2L", "asymptotic", "executions of one build per system (asymptotic)"))


def plot_beside(measured: pd.DataFrame, standin: pd.DataFrame | None, level: float = 0.95):
    """A figure: coverage against size, measured (solid) and stand-in (dashed).

    One panel per experiment of :data:`_PANELS` that the measured table has, one
    colour per benchmark, the nominal level as a grey line; the builds panels start at
    2 builds (one build a system is the executions panel's case).
    """
    import matplotlib.pyplot as plt

    panels = [p for p in _PANELS if ((measured["experiment"] == p[0])
                                     & (measured["method"] == p[1])).any()]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.6),
                             squeeze=False, sharey=True)
    names = list(dict.fromkeys(measured["benchmark"]))
    colours = plt.get_cmap("tab10")
    for ax, (exp, method, label) in zip(axes[0], panels):
        for i, b in enumerate(names):
            for frame, style in ((measured, "-"), (standin, "--")):
                if frame is None:
                    continue
                g = frame[(frame["benchmark"] == b) & (frame["experiment"] == exp)
                          & (frame["method"] == method)]
                if style == "--":  # the stand-in on the measured sizes only
                    g = g[g["size"] <= measured["size"][measured["experiment"] == exp].max()]
                if exp == "fFAFFT":  # one build a system is the third panel's question
                    g = g[g["size"] >= 2]
                if not g.empty:
                    ax.plot(g["size"], 100 * g["coverage"], style, color=colours(i % 10),
                            lw=1.2, marker="." if style == "-" else None,
                            label=b if style == "-" else None)
        ax.axhline(100 * level, color="0.5", lw=0.8)
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("coverage of 1 (%)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    if standin is not None:
        from matplotlib.lines import Line2D

        handles += [Line2D([], [], color="k", ls="-", marker="."), Line2D([], [], color="k", ls="--")]
        labels += ["measured", "stand-in"]
    fig.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)), fontsize=7,
               frameon=False)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    return fig


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def section_markdown(measured: pd.DataFrame, beside: pd.DataFrame | None, *,
                     standin_name: str | None, figure: str, sizes: Sequence[int],
                     level: float = 0.95) -> str:
    """The report section's body (Markdown) on the real-data coverage.

    Parameters
    ----------
    measured : DataFrame
        :func:`real_coverage` of the dataset.
    beside : DataFrame or None
        :func:`side_by_side` with the stand-in, or None when the configuration has no
        stand-in (or none of its benchmarks shares a name with this dataset's).
    standin_name : str or None
        The stand-in dataset's name.
    figure : str
        Relative path of the figure, for the Markdown image.
    sizes : sequence of int
        The numbers of builds shown in the table (those simulated).
    """
    lines = [
        "Coverage measured on the data themselves, no model fitted: two systems of k "
        "builds each are drawn with replacement from one benchmark's pool, so the true "
        "ratio is 1, and the share of 95 % intervals that contain 1 is the interval's "
        "coverage (one minus the false-alarm rate at threshold 0 of the false-alarm "
        "section, on the same comparisons). This is the real-data counterpart of "
        "Figures fCOV (builds) and fCOVR (one build, executions); the grids fCOVGrid and "
        "fCOVRSGrid need more executions per build than the data have, so they stay "
        "with the model (section on coverage).", ""]
    if beside is not None and not beside.empty:
        parts = []
        for (exp, method, what) in _PANELS:
            sel = beside[(beside["experiment"] == exp) & (beside["method"] == method)]
            if not sel.empty:
                s = summary(sel)
                parts.append(f"{what}: {s['differ']} of {s['cells']} (lower {s['lower']}, "
                             f"higher {s['higher']})")
        lines += [
            f"Beside it, what the stand-in `{standin_name}` (fitted to the paper's Table "
            "tVariations) gives for the same benchmark and the same k, simulated the same "
            "way on its own pool: that is what the stand-in predicted for real Mono data. "
            "The pools differ in executions per build (both columns say how many), so "
            "this is a comparison of what each dataset implies, reported and not judged. "
            "Cells where the measured coverage differs from the stand-in's by more than "
            "two standard errors, by panel: " + "; ".join(parts) + ".", ""]
    lines += [f"![Coverage on the measured data]({figure})", "",
              "Solid: measured; dashed: the stand-in; grey: the nominal "
              f"{100 * level:g} %.", ""]
    tab = measured[(measured["experiment"] == "fFAFFT") & measured["size"].isin(sizes)]
    if not tab.empty:
        shown = [k for k in sizes if k in set(tab["size"])]
        head = ["benchmark", "executions per build"]
        for k in shown:
            head.append(f"k = {k}: asymptotic")
            head.append(f"k = {k}: bootstrap")
        lines += ["Coverage of 1 in % (measured, and the stand-in's in brackets where it "
                  "was simulated), k builds per system:", "",
                  "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        key = ["benchmark", "method", "size"]
        mine = dict(zip(tab[key].itertuples(index=False, name=None), tab["coverage"]))
        theirs = {} if beside is None else dict(zip(
            beside.loc[beside["experiment"] == "fFAFFT", key].itertuples(index=False, name=None),
            beside.loc[beside["experiment"] == "fFAFFT", "standin"]))
        for b, g in tab.groupby("benchmark", sort=False):
            cells = [b, str(int(g["executions"].iloc[0]))]
            for k in shown:
                for method in ("asymptotic", "bootstrap"):
                    c = mine.get((b, method, k))
                    o = theirs.get((b, method, k))
                    cells.append("" if c is None else _pct(float(c))
                                 + ("" if o is None else f" ({_pct(float(o))})"))
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines) + "\n"
