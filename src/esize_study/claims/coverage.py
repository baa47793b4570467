"""The paper's claims on coverage (Section "Coverage") beside our simulation.

Each numeric claim becomes a :class:`esize_study.claims.claim.Claim` record with the
paper's statement, our number, its Monte Carlo standard error, the deciding rule and
a verdict. The input is ``coverage.csv`` (one row per point and method, read with
:class:`esize_study.estimate.coverage.CoverageTable`); for the parametric intervals
the coverage under the model is also computed exactly
(:func:`esize_study.estimate.coverage.model_coverage`).

The claims are data (:data:`CLAIMS`): one :class:`esize_study.claims.claim.Spec` row
per claim, judged by a small rule; :func:`evaluate` judges the table.
"""

from __future__ import annotations

import math

import numpy as np

from esize import critical_value

from ..estimate.coverage import grid_share, model_coverage
from ..estimate.rates import normal_interval, proportion_interval, z_for
from . import coverage_more as _more
from . import coverage_text as _text
from .claim import (
    AGREE,
    ARITHMETIC,
    CONTEXT,
    DISAGREE,
    PARTLY,
    SIMULATION,
    UNDECIDED,
    Claim,
    Spec,
    band,
    combine,
    decide,
    judge_all,
)
from .coverage_data import QUAL as _QUAL
from .coverage_data import CoverageData as _Data
from .coverage_data import check as _check
from .coverage_data import each_rule as _each
from .coverage_data import grid_ends, is_fft, model_note
from .coverage_data import iv_of as _iv_of
from .coverage_data import iv_text as _iv
from .coverage_data import normal15_note as _normal15_note
from .coverage_data import overcover_note as _overcover_note
from .coverage_data import pct as _pct
from .coverage_data import rank_corr as _rank_corr
from .coverage_data import spread as _spread
from .coverage_data import values_of as _values

__all__ = ["CLAIMS", "ALL_CLAIMS", "evaluate", "is_fft"]


def _with_why(note: str, why: str) -> str:
    """The explanation ``note`` followed by the longer explanation ``why`` (if any)."""
    return (note + ". " if note else "") + why if why else note


def _overcover(d: _Data, note: str, verdict: str) -> str:
    """``note``, with why the RRR bootstrap over-covers when the claim does not agree."""
    return note if verdict == AGREE else _with_why(note, _overcover_note(d.alpha, *d.design))


def _other(d: _Data) -> list:
    return [n for n in d.names if not is_fft(n)]


# -- the rules: each judges one row of CLAIMS, or gives None when the data do not allow it --
def _parametric(spec: Spec, d: _Data):
    """fCOV coverage at ``k`` binaries as stated, with the model's exact coverage beside.

    With ``exact`` in the row's params the verdict is the exact coverage under the model
    against the band (arithmetic, no Monte Carlo error: it is the same for every
    benchmark), and the simulation is its check: the note names the benchmarks whose
    interval does not contain the exact value."""
    method, k = spec.params["method"], spec.params["k"]
    vals = d.at("fCOV", method, "-", "binaries", k)
    text, se = _spread(vals)
    b = band(_QUAL[spec.params["words"]], spec.params["x"], spec.params.get("y"))
    v, note, each = _check(vals, b)
    q = critical_value(d.alpha, k - 1) if method == "asymptotic" else critical_value(d.alpha)
    exact = model_coverage(k, q, d.ratio)
    evidence = SIMULATION
    rule = _each(f"{spec.paper} -> {b.text()}")
    if spec.params.get("exact") and vals:
        evidence, v = ARITHMETIC, decide((exact, exact), b)
        z = z_for(len(vals))
        off = [f"{n} {_pct(c[0])} ({_iv(*_iv_of(c, z))})" for n, c in vals.items()
               if not _iv_of(c, z)[0] <= exact <= _iv_of(c, z)[1]]
        note = (f"the exact coverage under the model, {_pct(exact, 2)}, is "
                f"{'inside' if v == AGREE else 'outside'} {b.text()}; the simulation "
                f"({text}) checks it: "
                + ("every benchmark's interval contains it" if not off else
                   "not contained by " + "; ".join(off)))
        rule = (f"{spec.paper} -> {b.text()}, decided by the exact coverage under the model "
                "(arithmetic: the same for every benchmark); the simulated values are its check")
    if spec.params.get("exact_note"):
        note = _with_why(note, _normal15_note(k, d.ratio, d.alpha))
    return spec.claim(f"{text}; exact under the model {_pct(exact, 2)}", _pct(se, 2), v,
                      rule, note, exact=exact, evidence=evidence, **_values(vals, each))


def _fft_curve(d: _Data, name: str, zp: float, zpts: float):
    """One FFT benchmark's RRR curve: its verdict and its text (None: too few points)."""
    ks, cov, se = d.curve("fCOV", "bootstrap", "RRR", name, "binaries")
    if ks.size < 2:
        return None
    exps = d.sel("fCOV", "bootstrap", "RRR", name).sort_values("binaries")["experiments"]
    exps = exps.to_numpy()
    j = int(np.flatnonzero(ks >= 3)[0]) if np.any(ks >= 3) else 0
    top = [int(k) for k in ks if 2 * k >= ks.max() and k >= 2]
    pool, n_pool = d.pooled("fCOV", "bootstrap", "RRR", name, "binaries", top)
    atmost95 = band("at most", "95")
    above = [int(ks[i]) for i in range(ks.size)
             if decide(proportion_interval(cov[i], exps[i], zpts), atmost95) == DISAGREE]
    v = combine([decide(proportion_interval(cov[j], exps[j], zp), band("under", "95")),
                 decide(proportion_interval(pool, n_pool, zp), band("about", "95")),
                 DISAGREE if above else AGREE])
    text = (f"{name}: {_pct(cov[j])} at {int(ks[j])}, "
            f"{_pct(pool)} ({_iv(*proportion_interval(pool, n_pool, zp))}) pooled "
            f"over {top[0]}-{top[-1]}" + (f", above 95 % at {above}" if above else ""))
    return v, text


def _bootstrap_fft(spec: Spec, d: _Data):
    """RRR bootstrap on FFT benchmarks: under 95 % at first, about 95 % at the end."""
    fft = [n for n in d.names if is_fft(n)]
    if not fft:
        return None
    boot = d.sel("fCOV", "bootstrap", "RRR")
    npts = int(boot["benchmark"].isin(fft).sum())
    zp, zpts = z_for(2 * len(fft)), z_for(npts)
    parts, verdicts, miss = [], [], []
    for name in fft:
        got = _fft_curve(d, name, zp, zpts)
        if got is None:
            continue
        v, text = got
        verdicts.append(v)
        parts.append(text)
        if v != AGREE:
            miss.append(f"{name} ({v})")
    se_max = float(boot["se"].max())
    return spec.claim("; ".join(parts), f"<= {_pct(se_max, 2)}", combine(verdicts),
                      _each(f"under 95 % at the fewest binaries (3 or more), tends to about "
                            f"95 % -> {band('about', '95').text()}, no point decidedly above "
                            "95 %"),
                      f"not in agreement: {', '.join(miss)}" if miss else "", failing=miss)


def _bootstrap_nonfft_3b(spec: Spec, d: _Data):
    """RRR bootstrap on non-FFT benchmarks at 3 binaries, about 95 %."""
    other = _other(d)
    if not other:
        return None
    v3 = {b: v for b, v in d.at("fCOV", "bootstrap", "RRR", "binaries", 3).items()
          if b in other}
    text, se = _spread(v3)
    b95 = band("about", "95")
    verdict, note, each = _check(v3, b95)
    return spec.claim(text, _pct(se, 2), verdict, _each(f"about 95 % -> {b95.text()}"),
                      _overcover(d, note, verdict), **_values(v3, each))


def _rise(v, before, zm: float) -> str:
    """Verdict that coverage ``v`` lies above ``before`` (AGREE without ``before``)."""
    if before is None:
        return AGREE
    diff = v[0] - before[0]
    return decide(normal_interval(diff, math.hypot(v[1], before[1]), zm),
                  band("over", "0", scale=1))


def _bootstrap_nonfft_max(spec: Spec, d: _Data):
    """RRR bootstrap on non-FFT benchmarks at the most binaries: 98-99 %, above 3 binaries."""
    other = _other(d)
    if not other:
        return None
    v3 = {b: v for b, v in d.at("fCOV", "bootstrap", "RRR", "binaries", 3).items()
          if b in other}
    boot = d.sel("fCOV", "bootstrap", "RRR")
    if boot.empty:
        return None
    kmax = int(boot["binaries"].max())
    vm = {b: v for b, v in d.at("fCOV", "bootstrap", "RRR", "binaries", kmax).items()
          if b in other}
    text, se = _spread(vm)
    brange = band("range", "98", "99")
    verdicts, notes = [], []
    zm = z_for(2 * len(vm))
    for name, v in vm.items():
        rise = _rise(v, v3.get(name), zm)
        vv = combine([decide(_iv_of(v, zm), brange), rise])
        verdicts.append(vv)
        if vv != AGREE:
            notes.append(f"{name} {_pct(v[0])} ({_iv(*_iv_of(v, zm))}), rise from 3 "
                         f"binaries: {rise}")
    size = "" if kmax == 50 else f"the paper's range is for 50 binaries, ours for {kmax}"
    note = "; ".join(x for x in (size, f"not in agreement: {'; '.join(notes)}"
                                 if notes else "") if x)
    verdict = combine(verdicts)
    return spec.claim(text, _pct(se, 2), verdict,
                      _each(f"98-99 % -> {brange.text()} and above its 3-binary value"),
                      _overcover(d, note, verdict), fmt={"kmax": kmax}, **_values(vm))


def _ext_values(ext: dict) -> dict:
    return {"min": ext["min"], "max": ext["max"], "min_interval": list(ext["min_iv"]),
            "max_interval": list(ext["max_iv"])}


def _grid_range(spec: Spec, d: _Data):
    """fCOVGrid, asymptotic: the lowest and highest coverage over the grid from 3
    binaries, as stated. The paper's figure evidently starts at 3 binaries: its highest
    coverage (98.9 %) is the model's exact coverage at 3 binaries, while 2 binaries
    (a t quantile with 1 degree of freedom) would give far more."""
    ends = grid_ends(spec, d, "fCOVGrid", "binaries", 3)
    if ends is None:
        return None
    sel, ext, v, rule, at_min, at_max, model = ends
    e3 = model_coverage(3, critical_value(d.alpha, 2), d.ratio)
    e2 = model_coverage(2, critical_value(d.alpha, 1), d.ratio)
    s2 = d.sel("fCOVGrid", "asymptotic", "-", spec.params["bench"])
    s2 = s2[s2["binaries"] < 3]
    note = (f"the paper's grid evidently starts at 3 binaries: its highest coverage, "
            f"{spec.params['hi']} %, is near the model's exact coverage at 3 binaries, "
            f"{_pct(e3, 2)} (the highest of many noisy cells lies above it), and below the one "
            f"at 2 binaries (t quantile with 1 degree of freedom), {_pct(e2, 2)}" + (f" (ours up to {_pct(float(s2['coverage'].max()))} there, "
                                "not judged)" if not s2.empty else ""))
    if model is not None:
        note += "; " + model_note(model, ext, ("lo", "hi"))
    elif v != AGREE:
        note += (f"; ours from 3 binaries: lowest {_pct(ext['min'], 2)} ({_iv(*ext['min_iv'], 2)}), "
                 f"highest {_pct(ext['max'], 2)} ({_iv(*ext['max_iv'], 2)})")
    ours = (f"{_pct(ext['min'])} ({_iv(*ext['min_iv'])}; {int(at_min.binaries)} b, "
            f"{int(at_min.executions)} e) to {_pct(ext['max'])} "
            f"({_iv(*ext['max_iv'])}; {int(at_max.binaries)} b, {int(at_max.executions)} e)")
    fmt = {"bench": spec.params["bench"], "kmin": int(sel["binaries"].min()),
           "emin": int(sel["executions"].min()), "emax": int(sel["executions"].max())}
    return spec.claim(ours, _pct(float(sel["se"].max()), 2), v, rule, note, fmt=fmt,
                      evidence=SIMULATION if model is None else ARITHMETIC,
                      exact3=e3, exact2=e2, model=model, **_ext_values(ext))


def _binaries_matter(spec: Spec, d: _Data):
    """fCOVGrid: the binaries explain the variation over the grid, the executions barely."""
    sel = d.sel("fCOVGrid", spec.params["method"], "-")
    if sel.empty:
        return None
    shares, resid = [], []
    for _, g in sel.groupby("benchmark"):
        r2, sd = grid_share(g, "binaries")
        shares.append(r2)
        resid.append(sd)
    se = float(sel["se"].median())
    r2min = float(np.nanmin(shares))
    v = (AGREE if r2min >= 0.8 and max(resid) <= max(2 * se, 0.005) else
         PARTLY if r2min >= 0.5 else DISAGREE)
    return spec.claim(f"binaries explain at least {100 * r2min:.0f} % of the variation over the "
                      f"grid; the remainder has SD {100 * max(resid):.2f} points at most",
                      f"{_pct(se, 2)} (median)", v,
                      "shape: binaries explain >= 80 % and the rest is within max(2 SE, 0.5 "
                      "points); partly from 50 %", share=r2min, residual_sd=max(resid))


def _fcovr_falls(spec: Spec, d: _Data):
    """fCOVR, asymptotic: coverage falls as executions grow (rank correlations)."""
    sel = d.sel("fCOVR", "asymptotic", "-")
    if sel.empty:
        return None
    rhos = []
    for b in d.names:
        es, cov, _ = d.curve("fCOVR", "asymptotic", "-", b, "executions")
        if es.size >= 3:
            rhos.append(_rank_corr(es, cov))
    v = AGREE if max(rhos) < -0.8 else PARTLY if min(rhos) < 0 else DISAGREE
    return spec.claim(f"rank correlation {min(rhos):.2f} to {max(rhos):.2f} over "
                      f"{len(rhos)} benchmarks", "-", v,
                      "shape: every rank correlation under -0.8; partly if one is negative",
                      fmt={"emin": int(sel["executions"].min()),
                           "emax": int(sel["executions"].max())}, rho=rhos)


def _fcovr_too_low(spec: Spec, d: _Data):
    """fCOVR, asymptotic: with the most executions the coverage is under 90 % everywhere."""
    sel = d.sel("fCOVR", "asymptotic", "-")
    if sel.empty:
        return None
    emax = int(sel["executions"].max())
    last = d.at("fCOVR", "asymptotic", "-", "executions", emax)
    b90 = band("under", "90")
    verdict, note, each = _check(last, b90)
    return spec.claim("; ".join(f"{b} {_pct(v[0])} ({_iv(*_iv_of(v))})"
                                for b, v in last.items()),
                      _pct(max((v[1] for v in last.values()), default=math.nan), 2), verdict,
                      _each(f"'unacceptably low' read as twice the nominal miss rate, under "
                            f"90 % -> {b90.text()}"), note, fmt={"emax": emax},
                      **_values(last, each))


def _fcovr_bootstrap_falls(spec: Spec, d: _Data):
    """fCOVR, RRR bootstrap: each curve ends more than 2 SE below its peak."""
    selb = d.sel("fCOVR", "bootstrap", "RRR")
    if selb.empty:
        return None
    ok, parts = [], []
    for b in d.names:
        es, cov, se = d.curve("fCOVR", "bootstrap", "RRR", b, "executions")
        if es.size < 3:
            continue
        j = int(np.argmax(cov))
        ok.append(cov[-1] < cov[j] - 2 * se[j])
        parts.append(f"{b} peak {_pct(cov[j])} at {int(es[j])}, {_pct(cov[-1])} at {int(es[-1])}")
    v = (AGREE if ok and all(ok) else PARTLY if any(ok) else DISAGREE if ok else UNDECIDED)
    return spec.claim("; ".join(parts) or "n/a", f"<= {_pct(float(selb['se'].max()), 2)}", v,
                      _each("shape: ends more than 2 SE below its peak"),
                      "with very few executions the two-level bootstrap under-covers, so the "
                      "curve first rises")


def _rsgrid_range(spec: Spec, d: _Data):
    """fCOVRSGrid, asymptotic, one binary: the highest coverage on the paper's evident
    grid as stated; the lowest shown, not judged.

    The caption has "a blue line of cells at about 3 executions, while all cells above
    are red": the figure's first row is 3 executions (2 executions would be a second
    blue row), so the highest coverage is compared from 3 executions on. The lowest
    coverage is at the grid's largest numbers of executions and measurements, which the
    paper does not give: that end is not comparable."""
    ends = grid_ends(spec, d, "fCOVRSGrid", "executions", 3, ends=("hi",))
    if ends is None:
        return None
    sel, ext, v, rule, at_min, at_max, model = ends
    ours = (f"{_pct(ext['min'])} ({_iv(*ext['min_iv'])}; {int(at_min.executions)} e, "
            f"{int(at_min.measurements)} m) to {_pct(ext['max'])} "
            f"({_iv(*ext['max_iv'])}; {int(at_max.executions)} e, "
            f"{int(at_max.measurements)} m)")
    fmt = {"bench": spec.params["bench"], "emin": int(sel["executions"].min()),
           "emax": int(sel["executions"].max()), "mmin": int(sel["measurements"].min()),
           "mmax": int(sel["measurements"].max())}
    blo = band("value", spec.params["lo"])
    top = (model_note(model, ext, ("hi",)) if model is not None else
           f"the highest coverage from there is {_pct(ext['max'], 2)} "
           f"({_iv(*ext['max_iv'], 2)}) against {band('value', spec.params['hi']).text()}")
    note = (f"the caption's blue line of cells at about 3 executions (all cells above red) "
            f"puts the figure's first row at 3 executions; {top}. The lowest end is not "
            f"comparable: it "
            f"is at the grid's largest sizes, which the paper does not give (ours "
            f"{_pct(ext['min'], 2)} ({_iv(*ext['min_iv'], 2)}) at {int(at_min.executions)} "
            f"executions x {int(at_min.measurements)} measurements, "
            f"{decide(ext['min_iv'], blo)} against {blo.text()} for the paper's "
            f"{spec.params['lo']} %)")
    return spec.claim(ours, _pct(float(sel["se"].max()), 2), v, rule, note, fmt=fmt,
                      evidence=SIMULATION if model is None else ARITHMETIC, model=model,
                      **_ext_values(ext))


def _unbounded(spec: Spec, d: _Data):
    """Context: how many cells have unbounded Fieller sets, and the largest share."""
    counts = d.counts
    if counts is None or counts.empty:
        return None
    c = counts[(counts["mode"] == "approx") & (counts["method"] != "bootstrap")].copy()
    c["top"] = np.where(c["binaries"] > 1, c["binaries"], c["executions"])
    unb = c[c["unbounded"] > 0]
    if not unb.empty:
        worst = unb.loc[(unb["unbounded"] / unb["n"]).idxmax()]
        unit = "binaries" if worst.binaries > 1 else "executions"
        note = (f"in {len(unb)} of {len(c)} (point, method) cells, all with at most "
                f"{int(unb['top'].max())} top-level units; the largest share is "
                f"{100 * worst.unbounded / worst.n:.1f} % ({worst.benchmark}, "
                f"{worst.experiment}, {worst.method}, {int(worst.top)} {unit})")
    else:
        note = "none"
    return spec.claim(note, "-", UNDECIDED, "not a claim: shown, not counted", "",
                      role=CONTEXT, cells=int(len(unb)))


def _asy(k: int, paper_text: str, words: str, x: str, y: str | None = None,
         exact: bool = False) -> Spec:
    return Spec(f"cov.fcov.asymptotic.{k}b", "fCOV", f"asymptotic, {k} binaries (all "
                "benchmarks)", paper_text, _parametric,
                {"method": "asymptotic", "k": k, "words": words, "x": x, "y": y,
                 "exact": exact})


def _nrm(k: int, paper_text: str, words: str, x: str, exact_note: bool = False,
         exact: bool = False) -> Spec:
    return Spec(f"cov.fcovnormal.{k}b", "fCOVNormal", f"normal-quantile Fieller, {k} binaries "
                "(all benchmarks)", paper_text, _parametric,
                {"method": "normal", "k": k, "words": words, "x": x, "exact_note": exact_note,
                 "exact": exact})


_GRID = ("{bench}, asymptotic: range of coverage over the grid (binaries from {kmin}, "
         "executions {emin}-{emax})")
_RSGRID = ("{bench}, asymptotic, one binary: range of coverage over executions {emin}-{emax} "
           "x measurements {mmin}-{mmax}")
_MATTER = ("{label}: the number of executions barely matters, the number of binaries does "
           "(all benchmarks)")
_S = Spec

#: The paper's claims of Section "Coverage", in the report's order: id, figure, statement,
#: the paper's wording, the rule that judges it, and the rule's arguments.
CLAIMS: tuple[Spec, ...] = (
    _asy(3, "about 99 %", "about", "99"),
    _asy(10, "under 98 %", "under", "98"),
    _asy(20, "under 97 %", "under", "97"),
    _asy(50, "95-96 %", "range", "95", "96", exact=True),
    _S("cov.fcov.bootstrap.fft", "fCOV", "RRR bootstrap, FFT benchmarks: coverage converges "
       "to 95 % from below as binaries grow", "from below to 95 %", _bootstrap_fft),
    _S("cov.fcov.bootstrap.nonfft.3b", "fCOV", "RRR bootstrap, non-FFT benchmarks, 3 binaries",
       "about 95 %", _bootstrap_nonfft_3b),
    _S("cov.fcov.bootstrap.nonfft.max", "fCOV", "RRR bootstrap, non-FFT benchmarks, rising to "
       "{kmax} binaries", "98-99 %", _bootstrap_nonfft_max),
    _nrm(3, "around 88 %", "around", "88", exact=True),
    _nrm(5, "over 90 %", "over", "90"),
    _nrm(15, "over 94 %", "over", "94", exact_note=True, exact=True),
    _S("cov.fcovgrid.range.FFT NA OPT", "fCOVGrid", _GRID, "94.8 % to 98.9 %", _grid_range,
       {"bench": "FFT NA OPT", "lo": "94.8", "hi": "98.9"}),
    _S("cov.fcovgrid.range.Rijndael OPT", "fCOVGrid", _GRID, "95 % to 98.9 %", _grid_range,
       {"bench": "Rijndael OPT", "lo": "95", "hi": "98.9"}),
    _S("cov.fcovgrid.binaries-matter.asymptotic", "fCOVGrid",
       _MATTER.format(label="asymptotic"), "yes", _binaries_matter, {"method": "asymptotic"}),
    _S("cov.fcovgrid.binaries-matter.normal", "fCOVGrid",
       _MATTER.format(label="normal-quantile"), "yes", _binaries_matter, {"method": "normal"}),
    _S("cov.fcovr.asymptotic.falls", "fCOVR", "asymptotic, one binary: coverage falls as "
       "executions grow ({emin} to {emax})", "falls", _fcovr_falls),
    _S("cov.fcovr.asymptotic.too-low", "fCOVR", "asymptotic, one binary: with many executions "
       "({emax}) the coverage gets unacceptably low, FFT and non-FFT benchmarks alike",
       "unacceptably low for all", _fcovr_too_low),
    _S("cov.fcovr.bootstrap.falls", "fCOVR", "RRR bootstrap, one binary: past its peak, "
       "coverage falls as executions grow", "falls", _fcovr_bootstrap_falls),
    _S("cov.fcovrsgrid.range.FFT NA", "fCOVRSGrid", _RSGRID, "34 % to 98 %", _rsgrid_range,
       {"bench": "FFT NA", "lo": "34", "hi": "98"}),
    _S("cov.fcovrsgrid.range.HTTP OPT", "fCOVRSGrid", _RSGRID, "72 % to 99 %", _rsgrid_range,
       {"bench": "HTTP OPT", "lo": "72", "hi": "99"}),
    _S("cov.unbounded", "all", "unbounded Fieller sets (not a claim of the paper; they are "
       "counted as covering the truth)", "-", _unbounded),
)


_ORDER = ("fCOV", "fCOVNormal", "fCOVGrid", "fCOVR", "fCOVRSGrid", "all")
#: The rows of :data:`CLAIMS`, of :data:`esize_study.claims.coverage_text.CLAIMS` (the
#: section's other statements) and of :data:`esize_study.claims.coverage_more.CLAIMS` (the
#: statements added for issue 42), grouped by figure in the report's order.
ALL_CLAIMS: tuple[Spec, ...] = tuple(sorted(CLAIMS + _text.CLAIMS + _more.CLAIMS,
                                            key=lambda s: _ORDER.index(s.figure)))


def evaluate(table, counts=None, variances=None) -> list[Claim]:
    """Evaluate every claim of :data:`CLAIMS` that the dataset allows.

    Parameters
    ----------
    table : DataFrame
        ``coverage.csv``.
    counts : DataFrame, optional
        Per-cell counts with ``unbounded`` (Fieller intervals that are not finite).
    variances : dict, optional
        ``{benchmark: (s3, s2, s1)}``, the model's variances relative to the squared
        mean (as :class:`esize_study.coverage.model.Model` holds them): with them the
        fCOVRSGrid ends are judged on the model's exact coverage.

    Returns
    -------
    list of Claim
    """
    return judge_all(ALL_CLAIMS, _Data(table, counts, variances=variances))
