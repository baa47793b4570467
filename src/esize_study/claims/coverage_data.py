"""The coverage results as the claims read them, and the helpers that format them.

:class:`CoverageData` is ``coverage.csv`` (:class:`esize_study.estimate.coverage.CoverageTable`)
with the per-cell counts of unbounded Fieller intervals, the nominal level and the true
ratio beside it; the rules of :mod:`esize_study.claims.coverage` ask it their questions.
The helpers format coverages and judge a set of benchmarks against a band, and the two
long explanations are computed here from the model.
"""

from __future__ import annotations

import math

import numpy as np

from esize import critical_value

from ..estimate.coverage import (
    CoverageTable,
    extreme_interval,
    model_coverage,
    one_sample_coverage,
    two_level_coverage,
)
from ..estimate.rates import Z, proportion_interval, z_for
from ..paper import numbers as paper
from .claim import AGREE, DISAGREE, UNDECIDED, band, combine, decide

__all__ = ["CoverageData", "is_fft", "pct", "iv_text", "iv_of", "spread", "check",
           "rank_corr", "values_of", "each_rule", "extremes", "QUAL", "overcover_note",
           "normal15_note", "cell_exact", "grid_ends", "model_note"]


def pct(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f} %"


def iv_text(lo: float, hi: float, digits: int = 1) -> str:
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return "n/a"
    return f"{100 * lo:.{digits}f}-{100 * hi:.{digits}f}"


def is_fft(name: str) -> bool:
    """FFT benchmarks behave differently (large binary-level variation)."""
    return str(name).upper().startswith("FFT")


def iv_of(v, z: float = Z) -> tuple[float, float]:
    """Wilson interval of one (coverage, se, experiments), +- ``z`` standard errors."""
    return proportion_interval(v[0], v[2], z)


def spread(values: dict) -> tuple[str, float]:
    """The range of coverage over benchmarks for reading, and the largest standard error."""
    if not values:
        return "n/a", math.nan
    cov = [v[0] for v in values.values()]
    se = max(v[1] for v in values.values())
    lo, hi = min(cov), max(cov)
    lo_b = min(values, key=lambda b: values[b][0])
    hi_b = max(values, key=lambda b: values[b][0])
    text = (f"{pct(lo)} ({lo_b}) to {pct(hi)} ({hi_b}), {len(values)} benchmarks"
            if len(values) > 1 else f"{pct(lo)} ({lo_b})")
    return text, se


def check(values: dict, b) -> tuple[str, str, dict]:
    """Verdict over benchmarks of ``band`` ``b``, a note naming those not in agreement,
    and the verdict of each benchmark."""
    if not values:
        return UNDECIDED, "", {}
    z = z_for(len(values))
    each = {name: decide(iv_of(v, z), b) for name, v in values.items()}
    miss = [f"{name} {pct(values[name][0])} ({iv_text(*iv_of(values[name], z))}): {v}"
            for name, v in each.items() if v != AGREE]
    note = f"not in agreement: {'; '.join(miss)}" if miss else ""
    return combine(each.values()), note, each


def rank_corr(x, y) -> float:
    if len(x) < 3 or np.ptp(y) == 0:
        return math.nan
    rx = np.argsort(np.argsort(x))
    ry = np.argsort(np.argsort(y))
    return float(np.corrcoef(rx, ry)[0, 1])


def values_of(vals: dict, each: dict | None = None) -> dict:
    """The raw values of a claim over benchmarks (with each one's verdict)."""
    return {b: {"coverage": c, "se": se, "experiments": n,
                **({"verdict": each[b]} if each else {})} for b, (c, se, n) in vals.items()}


def each_rule(rule: str) -> str:
    return f"every benchmark: {rule}"


def extremes(sel) -> dict:
    """Lowest and highest coverage over a grid, with intervals for both.

    Each cell has its Wilson interval, widened for the number of cells
    (:func:`esize_study.estimate.rates.z_for`); the lowest coverage lies between the lowest
    lower end and the lowest upper end (likewise for the highest), which stays valid
    although the extreme of many noisy cells is biased.
    """
    z = z_for(len(sel))
    iv = np.array([proportion_interval(c, n, z)
                   for c, n in zip(sel["coverage"], sel["experiments"])])
    return {"min": float(sel["coverage"].min()), "min_iv": (float(iv[:, 0].min()),
                                                            float(iv[:, 1].min())),
            "max": float(sel["coverage"].max()), "max_iv": (float(iv[:, 0].max()),
                                                            float(iv[:, 1].max()))}


#: The paper's words for the parametric claims, as qualifiers of :func:`band`.
QUAL = {"about": "about", "under": "under", "over": "over", "range": "range",
        "around": "about"}


class CoverageData(CoverageTable):
    """``coverage.csv`` read for the claims, with what the rules need beside it.

    ``counts`` holds the per-cell counts with ``unbounded`` (or None); ``design`` is the
    executions and measurements per binary of ``fCOV`` (the paper's when absent);
    ``variances`` the model's variances by benchmark (or None).
    """

    def __init__(self, table, counts=None, alpha: float = 0.05, ratio: float = 0.95,
                 variances: dict | None = None):
        super().__init__(table)
        self.counts = counts
        self.variances = variances
        self.alpha = alpha
        self.ratio = ratio
        fcov = self.sel("fCOV", "bootstrap", "RRR")
        self.design = ((int(fcov["executions"].iloc[0]), int(fcov["measurements"].iloc[0]))
                       if not fcov.empty else (paper.EXECUTIONS, 100))


def cell_exact(d: CoverageData, experiment: str, bench: str, sel) -> np.ndarray | None:
    """The model's exact coverage of each asymptotic cell of ``sel`` (a grid of
    ``experiment`` for ``bench``), or None when the model's variances are not known.

    fCOVGrid: :func:`esize_study.estimate.coverage.model_coverage` at the cell's
    binaries (the levels below do not matter). fCOVRSGrid:
    :func:`esize_study.estimate.coverage.two_level_coverage` with the benchmark's
    variances, at the cell's executions and measurements."""
    if experiment == "fCOVGrid":
        at = {int(k): model_coverage(int(k), critical_value(d.alpha, int(k) - 1), d.ratio)
              for k in sel["binaries"].unique()}
        return sel["binaries"].map(at).to_numpy(float)
    v = (d.variances or {}).get(bench)
    if v is None:
        return None
    return np.array([two_level_coverage(v, int(e), int(m), critical_value(d.alpha, int(e) - 1),
                                        d.ratio)
                     for e, m in zip(sel["executions"], sel["measurements"])])


def grid_ends(spec, d: CoverageData, experiment: str, axis: str, start: int, ends=("lo", "hi")):
    """The asymptotic cells of a grid for the row's benchmark on the paper's evident grid
    (``axis`` from ``start``), their extremes, the verdict of the ``ends`` judged
    against the row's ``lo``/``hi``, the rule, the cells at the lowest and the highest
    coverage, and the model's side (None without the model); None when the grid has no
    such cells.

    A figure's lowest and highest cells are extremes of many noisy cells, biased
    outwards, and the model gives each cell's coverage exactly (:func:`cell_exact`).
    So where the model is known an end is decided by arithmetic: the paper's number,
    as printed, against the central 95 % interval of that extreme over the same cells
    at the grid's count of experiments
    (:func:`esize_study.estimate.coverage.extreme_interval`); *agree* when they meet,
    *disagree* when they do not. Our simulated extreme is its check. Without the model
    our extreme's interval is judged against the band (:func:`decide`)."""
    bench = spec.params["bench"]
    sel = d.sel(experiment, "asymptotic", "-", bench)
    sel = sel[sel[axis] >= start]
    if sel.empty:
        return None
    ext = extremes(sel)
    blo, bhi = band("value", spec.params["lo"]), band("value", spec.params["hi"])
    exact = cell_exact(d, experiment, bench, sel)
    cov = sel["coverage"]
    which = "both ends" if len(ends) == 2 else "the highest"
    if exact is None:
        parts = {"lo": decide(ext["min_iv"], blo), "hi": decide(ext["max_iv"], bhi)}
        rule = (f"on the paper's evident grid ({axis} from {start}): "
                + (f"both ends as stated: {blo.text()} and {bhi.text()}" if len(ends) == 2 else
                   f"the highest as stated, {bhi.text()}; the lowest shown, not judged"))
        return sel, ext, combine(parts[e] for e in ends), rule, sel.loc[cov.idxmin()], \
            sel.loc[cov.idxmax()], None
    n = int(sel["experiments"].min())
    model = {"lo": extreme_interval(exact, n, lowest=True),
             "hi": extreme_interval(exact, n, lowest=False),
             "exact_lo": float(exact.min()), "exact_hi": float(exact.max()), "n": n,
             "cells": int(len(sel))}
    bands = {"lo": blo, "hi": bhi}
    parts = {e: DISAGREE if bands[e].disjoint(*model[e]) else AGREE for e in ends}
    printed = (f"{blo.text()} and {bhi.text()}" if len(ends) == 2 else bhi.text())
    rule = (f"on the paper's evident grid ({axis} from {start}), {which} as printed "
            f"({printed}) against where the extreme of these {len(sel)} cells of {n} "
            "experiments falls under the model (exact coverage per cell, binomial noise, "
            "central 95 %): agree when they meet, disagree when they do not"
            + ("" if len(ends) == 2 else "; the lowest shown, not judged"))
    return sel, ext, combine(parts[e] for e in ends), rule, sel.loc[cov.idxmin()], \
        sel.loc[cov.idxmax()], model


def model_note(model: dict, ext: dict, ends) -> str:
    """The model's side of a grid's ends, and whether our simulated extremes fall in it."""
    def one(end, word, ours):
        lo, hi = model[end]
        inside = lo <= ours <= hi
        return (f"the {word} cell under the model: exactly {pct(model['exact_' + end], 2)}, "
                f"its noisy extreme {pct(lo, 2)}-{pct(hi, 2)}; ours {pct(ours, 2)} "
                + ("inside (the check holds)" if inside else
                   "outside (the check fails, as a 95 % check does one time in 20 by chance)"))

    parts = {"lo": one("lo", "lowest", ext["min"]), "hi": one("hi", "highest", ext["max"])}
    return "; ".join(parts[e] for e in ends)


def overcover_note(alpha: float, n2: int, n1: int) -> str:
    """Why the RRR bootstrap over-covers on non-FFT benchmarks, with the numbers it uses.

    ``n2`` and ``n1`` are the executions and measurements per binary of ``fCOV``.
    """
    from scipy.special import ndtr

    z = critical_value(alpha)
    wide = 2 * ndtr(z * math.sqrt(2)) - 1

    def parts(name):
        s3, s2, s1 = (x**2 for x in paper.VARIATION_S[name])
        return s3, s2 / n2, s1 / (n2 * n1)

    h, r = parts("HTTP OPT"), parts("Rijndael OPT")
    return (
        "Why: the RRR interval mixes two effects. Resampling a few binaries shrinks their "
        "spread (by (k-1)/k: under-coverage, as for FFT), while resampling executions and "
        "measurements again adds their variance a second time, since the binary means "
        "already carry it (over-coverage). Which wins depends on each benchmark's split of "
        f"the variance of a binary mean ({n2} executions x {n1} measurements, Table "
        f"tVariations, in %^2): HTTP OPT gets {h[0]:.3f} from its binaries, {h[1]:.4f} from "
        f"executions and {h[2]:.4f} from measurements, so it over-covers at once and "
        f"approaches the coverage of an interval sqrt(2) too wide ({pct(wide, 1)}); "
        f"Rijndael OPT gets {r[0]:.3f}, {r[1]:.3f} and {r[2]:.4f}, about as much from its "
        "executions as from its binaries, and lies in between. The paper's 'about 95 %' and "
        "'98-99 %' summarise its curves by eye.")


def normal15_note(k: int, ratio: float, alpha: float) -> str:
    """The exact normal-quantile coverage of a ratio of two systems at ``k`` binaries."""
    z = critical_value(alpha)
    two = model_coverage(k, z, ratio)
    pooled = model_coverage(k, z, 1.0)
    one = one_sample_coverage(k, z)
    return (
        f"Under the model the coverage is exactly {pct(two, 2)} at {k} binaries for every "
        f"benchmark (computed, not simulated): the pivot of a ratio of two systems estimates "
        f"its variance from both systems' {k} binary means, about {2 * (k - 1)} degrees of "
        f"freedom ({pct(pooled, 2)} with equal weights, P(|t_{2 * (k - 1)}| < "
        f"{z:.2f})), not the {k - 1} of one sample (P(|t_{k - 1}| < {z:.2f}) = "
        f"{pct(one, 2)}). The levels below do not add precision: the estimate is built "
        "from the top-level means only. So the paper's 'over 94 %' sits on the edge of the "
        f"exact value: {100 * two:.4f} % is {100 * (0.94 - two):.4f} points under 94 %, a "
        "gap no simulation of the paper's size could see (its standard error is "
        f"{100 * math.sqrt(two * (1 - two) / 10_000):.2f} points at 10,000 experiments), and "
        "the exact value decides.")
