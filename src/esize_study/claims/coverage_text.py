"""The rest of Section "Coverage": statements of its text and captions beyond the ranges.

:mod:`esize_study.claims.coverage` judges the coverages the paper states for its
figures; this module judges the section's other statements: that the benchmarks agree
with each other, that the bootstrap over-covers every non-FFT benchmark, that the
fCOVGrid cells are never much below 95 %, and what fCOVRSGrid's text and caption say
of executions against measurements per benchmark family. One
:class:`esize_study.claims.claim.Spec` row each; a statement about many cells judges
each with a Bonferroni-widened Wilson interval and combines the parts; statements
about a shape state their rule and use point estimates.
"""

from __future__ import annotations

import math

import numpy as np

from ..estimate.coverage import extreme_interval, grid_share
from ..estimate.rates import proportion_interval, z_for
from .claim import AGREE, ARITHMETIC, DISAGREE, PARTLY, Spec, band, combine, decide, graded
from .coverage_data import CoverageData as _Data
from .coverage_data import cell_exact, is_fft
from .coverage_data import iv_text as _iv
from .coverage_data import pct as _pct
from .coverage_data import rank_corr as _rank_corr

__all__ = ["CLAIMS"]


def _family(name: str) -> str:
    """The paper's benchmark families; a dataset's own benchmarks belong to none but
    FFT (by name, as :func:`esize_study.claims.coverage_data.is_fft` reads them)."""
    n = str(name).upper()
    if n.startswith("FFT"):
        return "FFT"
    if n.startswith("RIJNDAEL"):
        return "Rijndael"
    return "Ping" if n.startswith(("HTTP", "TCP")) else "other"


def _cells_verdict(sel, b, z: float) -> tuple[str, list]:
    """Verdict of every cell of ``sel`` against band ``b`` and the cells not agreeing."""
    parts, off = [], []
    for r in sel.itertuples():
        v = decide(proportion_interval(r.coverage, r.experiments, z), b)
        parts.append(v)
        if v != AGREE:
            off.append((r, v))
    return combine(parts), off


def _similar(spec: Spec, d: _Data):
    """fCOV, asymptotic: the coverages similar for every benchmark. Under the model the
    exact coverage (:func:`esize_study.estimate.coverage.model_coverage`) depends on the
    number of binaries only, not on the benchmark's variances: the verdict is that
    arithmetic. The simulation is its check: at each size, the benchmarks' largest
    difference against what Monte Carlo noise alone gives (the two standard errors'
    combined interval, Bonferroni-widened over every pair and size)."""
    sel = d.sel("fCOV", "asymptotic", "-")
    if sel.empty or sel["benchmark"].nunique() < 2:
        return None
    rng = sel.groupby("binaries")["coverage"].agg(lambda c: float(c.max() - c.min()))
    worst_k = int(rng.idxmax())
    share = float(np.mean(rng <= 0.01))
    m = sel["benchmark"].nunique()
    z = z_for(rng.size * m * (m - 1) // 2)
    ratios = {}
    for k, g in sel.groupby("binaries"):
        hi, lo = g.loc[g["coverage"].idxmax()], g.loc[g["coverage"].idxmin()]
        se = math.hypot(float(hi["se"]), float(lo["se"]))
        ratios[int(k)] = (float(hi["coverage"] - lo["coverage"]) / se) if se > 0 else 0.0
    k_max = max(ratios, key=ratios.get)
    noisy = ratios[k_max] <= z
    note = (f"exact under the model: the coverage at k binaries is the same for every "
            f"benchmark (it depends on k only); the simulation checks it: the largest "
            f"difference between two benchmarks is {ratios[k_max]:.2f} standard errors (at "
            f"{k_max} binaries), {'within' if noisy else 'beyond'} the {z:.2f} that Monte "
            f"Carlo noise alone allows over {rng.size} sizes and {m * (m - 1) // 2} pairs")
    return spec.claim(f"largest range over the benchmarks {100 * rng.max():.2f} points (at "
                      f"{worst_k} binaries); within 1 point at {100 * share:.0f} % of the "
                      f"{rng.size} sizes; largest difference {ratios[k_max]:.2f} SE (noise "
                      f"alone: up to {z:.2f})", f"{_pct(float(sel['se'].max()), 2)}",
                      AGREE, "'similar' decided by the exact coverage under the model "
                      "(arithmetic: the same for every benchmark at each size); the simulation "
                      "is its check (no pair of benchmarks further apart than Monte Carlo "
                      "noise allows)", note, evidence=ARITHMETIC, share=share,
                      largest=float(rng.max()), largest_se=ratios[k_max], noise_z=z,
                      check=noisy)


def _always_above(spec: Spec, d: _Data):
    """fCOV, RRR bootstrap, non-FFT: coverage above 95 % at every number of binaries."""
    sel = d.sel("fCOV", "bootstrap", "RRR")
    sel = sel[~sel["benchmark"].map(is_fft)]
    if sel.empty:
        return None
    z = z_for(len(sel))
    b = band("over", "95")
    v, off = _cells_verdict(sel, b, z)
    below = [f"{r.benchmark} at {int(r.binaries)} {_pct(r.coverage)} "
             f"({_iv(*proportion_interval(r.coverage, r.experiments, z))}): {vv}"
             for r, vv in off]
    return spec.claim(f"lowest {_pct(float(sel['coverage'].min()))}, {len(off)} of {len(sel)} "
                      "cells not decidedly above 95 %", f"<= {_pct(float(sel['se'].max()), 2)}",
                      v, f"every cell: over 95 % -> {b.text()}",
                      ("not in agreement: " + "; ".join(below[:8])
                       + (f"; and {len(below) - 8} more" if len(below) > 8 else ""))
                      if below else "", cells=len(sel), off=len(off))


def _slightly_below(spec: Spec, d: _Data):
    """fCOVGrid, asymptotic: no cell below 94 % (95 % or only slightly below).

    Under the model each cell's coverage is known exactly
    (:func:`esize_study.claims.coverage_data.cell_exact`): the verdict is that
    arithmetic, every cell's exact coverage against the band. The simulation is its
    check: its lowest cell should lie where the lowest of that many noisy cells falls
    (:func:`esize_study.estimate.coverage.extreme_interval`)."""
    names = [n for n in spec.params["benches"] if n in d.names]
    sel = d.sel("fCOVGrid", "asymptotic", "-")
    sel = sel[sel["benchmark"].isin(names)]
    if sel.empty:
        return None
    b = band("over", "94")
    under95 = int((sel["coverage"] < 0.95).sum())
    ours = (f"lowest {_pct(float(sel['coverage'].min()))} of {len(sel)} cells; "
            f"{under95} cells below 95 % (point estimates)")
    exact = np.concatenate([cell_exact(d, "fCOVGrid", n, sel[sel["benchmark"] == n])
                            for n in names])
    low = float(exact.min())
    n = int(sel["experiments"].min())
    lo, hi = extreme_interval(exact, n, lowest=True)
    seen = float(sel["coverage"].min())
    v = decide((low, low), b)
    note = (f"the lowest cell's exact coverage under the model is {_pct(low, 2)} "
            f"({'inside' if v == AGREE else 'outside'} {b.text()}); the lowest of these "
            f"{len(sel)} noisy cells of {n} experiments falls in {_pct(lo, 2)}-{_pct(hi, 2)}, "
            f"and ours, {_pct(seen, 2)}, is "
            + ("inside (the check holds)" if lo <= seen <= hi else
               "outside (the check fails, as a 95 % check does one time in 20 by chance)"))
    return spec.claim(ours, f"<= {_pct(float(sel['se'].max()), 2)}", v,
                      f"every cell: 'only slightly below 95 %' read as over 94 % -> {b.text()}, "
                      "decided by the exact coverage under the model; the simulated cells are "
                      "its check", note, evidence=ARITHMETIC, exact_min=low,
                      noisy_min=[lo, hi])


def _rs_grids(d: _Data, family: str) -> dict:
    """The fCOVRSGrid asymptotic cells of every benchmark of ``family`` ("FFT" by
    :func:`is_fft`), by benchmark; benchmarks without such cells left out."""
    out = {}
    for n in d.names:
        if (is_fft(n) if family == "FFT" else _family(n) == family):
            sel = d.sel("fCOVRSGrid", "asymptotic", "-", n)
            if not sel.empty:
                out[n] = sel
    return out


def _measurements_no_matter(spec: Spec, d: _Data):
    """fCOVRSGrid, FFT: the executions explain the grid, the measurements barely."""
    grids = _rs_grids(d, "FFT")
    if not grids:
        return None
    shares, resid = {}, {}
    for n, sel in grids.items():
        shares[n], resid[n] = grid_share(sel, "executions")
    se = float(np.median([sel["se"].median() for sel in grids.values()]))
    low = min(shares.values())
    limit = max(2 * se, 0.005)
    v = (AGREE if low >= 0.8 and max(resid.values()) <= limit else
         PARTLY if low >= 0.5 else DISAGREE)
    worst = max(resid, key=resid.get)
    note = "" if v == AGREE else (
        f"the lowest share the executions explain is {100 * low:.0f} % "
        f"({min(shares, key=shares.get)}); the largest remainder, {worst}'s SD of "
        f"{100 * resid[worst]:.2f} points, is "
        f"{'above' if resid[worst] > limit else 'within'} the {100 * limit:.2f} points "
        f"allowed (max(2 SE, 0.5 points), SE {_pct(se, 2)})")
    return spec.claim("executions explain " + "; ".join(f"{n} {100 * s:.0f} %" for n, s in
                                                        shares.items())
                      + f" of the variation over the grid; the remainder has SD "
                      f"{100 * max(resid.values()):.2f} points at most", f"{_pct(se, 2)} (median)",
                      v, "shape: executions explain >= 80 % and the rest is within max(2 SE, "
                      "0.5 points); partly from 50 % (every FFT benchmark)", note,
                      shares=shares)


def _ends(sel, x: str, z: float):
    """Coverage pooled over the other axis at the smallest and the largest ``x``."""
    out = []
    for v in (sel[x].min(), sel[x].max()):
        s = sel[sel[x] == v]
        n = int(s["experiments"].sum())
        p = float((s["coverage"] * s["experiments"]).sum() / n)
        out.append((int(v), p, proportion_interval(p, n, z)))
    return out


def _first_better_then_low(spec: Spec, d: _Data):
    """fCOVRSGrid, FFT: above 95 % at the fewest executions, below 95 % at the most."""
    grids = _rs_grids(d, "FFT")
    if not grids:
        return None
    z = z_for(2 * len(grids))
    parts, text = [], []
    for n, sel in grids.items():
        (e0, p0, iv0), (e1, p1, iv1) = _ends(sel, "executions", z)
        parts += [decide(iv0, band("over", "95")), decide(iv1, band("under", "95"))]
        text.append(f"{n} {_pct(p0)} at {e0}, {_pct(p1)} at {e1} executions")
    return spec.claim("; ".join(text) + " (pooled over the measurements)", "-", combine(parts),
                      "every FFT benchmark: over 95 % at the fewest executions and under 95 % "
                      "at the most", "")


def _drop_with_measurements(sel) -> tuple[float, float]:
    """At the most executions: rank correlation of coverage with the measurements and
    the drop from the fewest to the most measurements (points, positive = worse)."""
    top = sel[sel["executions"] == sel["executions"].max()].sort_values("measurements")
    cov = top["coverage"].to_numpy()
    return _rank_corr(top["measurements"].to_numpy(), cov), float(cov[0] - cov[-1])


def _more_measurements_worse(spec: Spec, d: _Data):
    """fCOVRSGrid, Ping: with many executions, more measurements lower the coverage."""
    grids = _rs_grids(d, "Ping")
    if not grids:
        return None
    parts, text = [], []
    for n, sel in grids.items():
        rho, drop = _drop_with_measurements(sel)
        parts.append(AGREE if rho < -0.8 else PARTLY if rho < 0 else DISAGREE)
        text.append(f"{n} rank correlation {rho:.2f}, {100 * drop:.1f} points lower")
    return spec.claim("; ".join(text) + " (at the most executions, fewest to most "
                      "measurements)", "-", combine(parts), "shape: every Ping benchmark: rank "
                      "correlation of coverage with the measurements under -0.8, partly under 0",
                      "")


def _rijndael_between(spec: Spec, d: _Data):
    """fCOVRSGrid: Rijndael's drop with more measurements is smaller than every Ping's."""
    rij, ping = _rs_grids(d, "Rijndael"), _rs_grids(d, "Ping")
    if not rij or not ping:
        return None
    drops = {n: _drop_with_measurements(sel) for n, sel in (rij | ping).items()}
    weakest_ping = min(drops[n][1] for n in ping)
    parts = [AGREE if 0 < drops[n][1] < weakest_ping else DISAGREE for n in rij]
    return spec.claim("; ".join(f"{n} {100 * drops[n][1]:.1f}" for n in drops)
                      + " points lower with the most measurements (at the most executions)",
                      "-", combine(parts), "shape: every Rijndael benchmark loses coverage "
                      "with more measurements, but less than every Ping benchmark (point "
                      "estimates)", "")


def _ping_above_fft(spec: Spec, d: _Data):
    """fCOVRSGrid: every Ping benchmark's mean coverage over the grid above every FFT's."""
    fft, ping = _rs_grids(d, "FFT"), _rs_grids(d, "Ping")
    if not fft or not ping:
        return None
    mean = {n: float(sel["coverage"].mean()) for n, sel in (fft | ping).items()}
    ok = min(mean[n] for n in ping) > max(mean[n] for n in fft)
    return spec.claim("mean over the grid: " + "; ".join(f"{n} {_pct(mean[n])}"
                                                         for n in mean), "-",
                      AGREE if ok else DISAGREE, "shape: the lowest Ping mean above the highest "
                      "FFT mean (point estimates)", "")


def _caption_line(spec: Spec, d: _Data):
    """fCOVRSGrid caption: cells at about 3 executions at or above 95 % (blue), every
    cell with more executions below it (red)."""
    grids = {n: d.sel("fCOVRSGrid", "asymptotic", "-", n) for n in spec.params["benches"]}
    grids = {n: sel for n, sel in grids.items() if not sel.empty}
    if not grids:
        return None
    parts, text, miss = [], [], []
    for n, sel in grids.items():
        at3 = sel[sel["executions"] == 3]
        above = sel[sel["executions"] > 4]
        blue = float(np.mean(at3["coverage"] >= 0.95)) if len(at3) else math.nan
        red = float(np.mean(above["coverage"] < 0.95)) if len(above) else math.nan
        parts.append(combine([graded(blue, 0.9, 0.5), graded(red, 0.9, 0.5)]))
        text.append(f"{n}: {100 * blue:.0f} % of the cells at 3 executions at or above 95 %, "
                    f"{100 * red:.0f} % of the cells with 5+ executions below 95 %")
        if parts[-1] != AGREE and above.empty:  # a grid without 5+ executions (tiny runs)
            miss.append(f"{n} ({parts[-1]}): no cells with 5+ executions, "
                        f"{100 * blue:.0f} % of the cells at 3 executions at or above 95 %")
        elif parts[-1] != AGREE:
            blue_off = above[above["coverage"] >= 0.95]
            miss.append(f"{n} ({parts[-1]}): {len(blue_off)} of {len(above)} cells with 5+ "
                        f"executions at or above 95 % (up to {_pct(float(above['coverage'].max()))}"
                        f", at {int(above.loc[above['coverage'].idxmax(), 'executions'])} "
                        f"executions), {100 * blue:.0f} % of the cells at 3 executions at or "
                        "above 95 %")
    return spec.claim("; ".join(text), "-", combine(parts), "shape: every benchmark shown: "
                      ">= 90 % of the cells at 3 executions at or above 95 % and >= 90 % of "
                      "those with 5 or more below it (partly from 50 %; point estimates)",
                      "not in agreement: " + "; ".join(miss) if miss else "")


_S = Spec

#: Further statements of Section "Coverage", in the report's order within their figures.
CLAIMS: tuple[Spec, ...] = (
    _S("cov.fcov.asymptotic.similar", "fCOV", "asymptotic: the coverages are similar for "
       "different benchmarks", "similar", _similar),
    _S("cov.fcov.bootstrap.nonfft-always-above", "fCOV", "RRR bootstrap, non-FFT benchmarks: "
       "the coverage is always too large (above 95 %)", "always too large", _always_above),
    _S("cov.fcovgrid.only-slightly-below", "fCOVGrid", "FFT NA OPT and Rijndael OPT, "
       "asymptotic: the coverage is 95 % or only slightly below over the whole grid",
       "95 % or only slightly below", _slightly_below,
       {"benches": ("FFT NA OPT", "Rijndael OPT")}),
    _S("cov.fcovrsgrid.fft.measurements-no-matter", "fCOVRSGrid", "FFT, one binary: the number "
       "of measurements per execution makes no difference", "no difference",
       _measurements_no_matter),
    _S("cov.fcovrsgrid.fft.first-better-then-low", "fCOVRSGrid", "FFT, one binary: the coverage "
       "is too high with few executions and too low with many", "too high, then too low",
       _first_better_then_low),
    _S("cov.fcovrsgrid.ping.more-measurements-worse", "fCOVRSGrid", "Ping benchmarks, one "
       "binary, many executions: more measurements make the coverage worse", "worse",
       _more_measurements_worse),
    _S("cov.fcovrsgrid.rijndael-between", "fCOVRSGrid", "Rijndael lies in between: more "
       "measurements make the coverage worse, less strongly than for Ping", "in between",
       _rijndael_between),
    _S("cov.fcovrsgrid.ping-above-fft", "fCOVRSGrid", "the Ping benchmarks' coverages are "
       "higher than FFT's", "higher", _ping_above_fft),
    _S("cov.fcovrsgrid.caption", "fCOVRSGrid", "caption: a blue line of cells at about 3 "
       "executions, every cell with more executions red (FFT NA and HTTP OPT)",
       "blue at 3, red above", _caption_line, {"benches": ("FFT NA", "HTTP OPT")}),
)
