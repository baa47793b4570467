"""The paper's claims on coverage (Section "Coverage") beside our simulation.

Each numeric claim becomes a :class:`esize_study.claims.Claim` record with the
paper's statement, our number, its Monte Carlo standard error, the deciding rule and
a verdict. The input is ``coverage.csv`` (one row per point and method);
:func:`validation_table` compares the approximate simulation with the exact one on
the validation cases.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .claims import AGREE, DISAGREE, PARTLY, UNDECIDED, Claim, render_notes, render_table

__all__ = ["evaluate", "render", "validation_table", "validation_summary", "is_fft"]


def _pct(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f} %"


def is_fft(name: str) -> bool:
    """FFT benchmarks behave differently (large binary-level variation)."""
    return str(name).upper().startswith("FFT")


class _Table:
    def __init__(self, table):
        self.t = table
        self.names = list(dict.fromkeys(table["benchmark"]))

    def sel(self, experiment, method, scheme="-", bench=None):
        t = self.t
        s = t[(t["experiment"] == experiment) & (t["method"] == method) & (t["scheme"] == scheme)]
        if bench is not None:
            s = s[s["benchmark"] == bench]
        return s

    def curve(self, experiment, method, scheme, bench, x):
        s = self.sel(experiment, method, scheme, bench).sort_values(x)
        return s[x].to_numpy(), s["coverage"].to_numpy(), s["se"].to_numpy()

    def at(self, experiment, method, scheme, x, value):
        """{benchmark: (coverage, se)} at ``x == value``."""
        s = self.sel(experiment, method, scheme)
        s = s[s[x] == value]
        return {r.benchmark: (float(r.coverage), float(r.se)) for r in s.itertuples()}


def _spread(values: dict) -> tuple[str, float]:
    if not values:
        return "n/a", math.nan
    cov = [v[0] for v in values.values()]
    se = max(v[1] for v in values.values())
    lo, hi = min(cov), max(cov)
    lo_b = min(values, key=lambda b: values[b][0])
    hi_b = max(values, key=lambda b: values[b][0])
    text = (f"{_pct(lo)} ({lo_b}) to {_pct(hi)} ({hi_b}), {len(values)} benchmarks"
            if len(values) > 1 else f"{_pct(lo)} ({lo_b})")
    return text, se


def _check(values: dict, ok) -> tuple[str, str]:
    """Verdict over benchmarks and a note naming those that miss (``ok(cov, se)``)."""
    if not values:
        return UNDECIDED, ""
    good = {b: ok(c, se) for b, (c, se) in values.items()}
    verdict = AGREE if all(good.values()) else PARTLY if any(good.values()) else DISAGREE
    miss = [f"{b} {_pct(values[b][0])}" for b in values if not good[b]]
    note = f"outside (beyond two standard errors and the stated slack): {', '.join(miss)}" if miss else ""
    return verdict, note


def _about(values: dict, target: float, slack: float):
    return _check(values, lambda c, se: abs(c - target) <= max(2 * se, slack))


def _below(values: dict, bound: float):
    return _check(values, lambda c, se: c < bound + 2 * se)


def _above(values: dict, bound: float):
    return _check(values, lambda c, se: c > bound - 2 * se)


def _between(values: dict, lo: float, hi: float):
    return _check(values, lambda c, se: lo - 2 * se <= c <= hi + 2 * se)


def _rank_corr(x, y) -> float:
    if len(x) < 3 or np.ptp(y) == 0:
        return math.nan
    rx = np.argsort(np.argsort(x))
    ry = np.argsort(np.argsort(y))
    return float(np.corrcoef(rx, ry)[0, 1])


def _grid_share(sel, row: str) -> tuple[float, float]:
    """Share of the cells' variance explained by ``row`` and the residual SD."""
    cov = sel["coverage"].to_numpy()
    if cov.size < 3 or np.var(cov) == 0:
        return math.nan, math.nan
    means = sel.groupby(row)["coverage"].transform("mean").to_numpy()
    resid = cov - means
    return 1.0 - np.var(resid) / np.var(cov), float(np.sqrt(np.mean(resid**2)))


def _pick(names, *wanted):
    out = [w for w in wanted if w in names]
    rest = [n for n in names if n not in out]
    while len(out) < len(wanted) and rest:
        out.append(rest.pop(0))
    return out


def _claim(id, figure, statement, paper, ours, mc_error, verdict, explanation, rule, **values):
    return Claim(id=id, figure=figure, statement=statement, paper=paper, ours=ours, rule=rule,
                 verdict=verdict, explanation=explanation, mc_error=mc_error, values=values)


def _values(vals: dict) -> dict:
    return {b: {"coverage": c, "se": se} for b, (c, se) in vals.items()}


def _each(rule: str) -> str:
    return f"every benchmark {rule}; partly if some"


def evaluate(table, counts=None) -> list[Claim]:
    """Evaluate every claim on coverage that the dataset allows.

    Parameters
    ----------
    table : DataFrame
        ``coverage.csv``.
    counts : DataFrame, optional
        Per-cell counts with ``unbounded`` (Fieller intervals that are not finite).

    Returns
    -------
    list of Claim
    """
    d = _Table(table)
    out: list[Claim] = []

    # -- fCOV, asymptotic, all benchmarks ------------------------------------------------
    for k, paper, kind in ((3, 0.99, "about"), (10, 0.98, "under"), (20, 0.97, "under"),
                           (50, (0.95, 0.96), "between")):
        vals = d.at("fCOV", "asymptotic", "-", "binaries", k)
        text, se = _spread(vals)
        if kind == "about":
            claim, (verdict, note) = f"about {100 * paper:g} %", _about(vals, paper, 0.01)
            rule = _each(f"within max(2 SE, 1 point) of {100 * paper:g} %")
        elif kind == "under":
            claim, (verdict, note) = f"under {100 * paper:g} %", _below(vals, paper)
            rule = _each(f"under {100 * paper:g} % + 2 SE")
        else:
            claim, (verdict, note) = "95-96 %", _between(vals, *paper)
            rule = _each("in 95-96 % widened by 2 SE")
        out.append(_claim(f"cov.fcov.asymptotic.{k}b", "fCOV",
                          f"asymptotic, {k} binaries (all benchmarks)", claim, text,
                          _pct(se, 2), verdict, note, rule, **_values(vals)))

    # -- fCOV, RRR bootstrap --------------------------------------------------------------
    fft = [n for n in d.names if is_fft(n)]
    other = [n for n in d.names if not is_fft(n)]
    if fft:
        parts, ok, miss = [], [], []
        for b in fft:
            ks, cov, se = d.curve("fCOV", "bootstrap", "RRR", b, "binaries")
            if ks.size < 2:
                continue
            small = cov[ks >= 3][0] if np.any(ks >= 3) else cov[0]
            k0 = int(ks[ks >= 3][0]) if np.any(ks >= 3) else int(ks[0])
            parts.append(f"{b}: {_pct(small)} at {k0} to {_pct(cov[-1])} at {int(ks[-1])}")
            ok.append(bool(small < 0.95 - 2 * se[0]
                           and abs(cov[-1] - 0.95) <= max(2 * se[-1], 0.015)
                           and np.all(cov <= 0.95 + np.maximum(2 * se, 0.005))))
            if not ok[-1]:
                miss.append(b)
        se_max = float(d.sel("fCOV", "bootstrap", "RRR")["se"].max())
        out.append(_claim("cov.fcov.bootstrap.fft", "fCOV",
                          "RRR bootstrap, FFT benchmarks: coverage converges to 95 % from below "
                          "as binaries grow", "from below to 95 %", "; ".join(parts),
                          f"<= {_pct(se_max, 2)}",
                          AGREE if ok and all(ok) else PARTLY if any(ok) else DISAGREE,
                          f"not from below to within 1.5 points of 95 %: {', '.join(miss)}"
                          if miss else "",
                          _each("below 95 % - 2 SE at the fewest binaries, within max(2 SE, "
                                "1.5 points) of 95 % at the most, never above"),
                          failing=miss))
    if other:
        v3 = {b: v for b, v in d.at("fCOV", "bootstrap", "RRR", "binaries", 3).items()
              if b in other}
        text, se = _spread(v3)
        verdict, note = _about(v3, 0.95, 0.015)
        out.append(_claim("cov.fcov.bootstrap.nonfft.3b", "fCOV",
                          "RRR bootstrap, non-FFT benchmarks, 3 binaries", "about 95 %",
                          text, _pct(se, 2), verdict, note,
                          _each("within max(2 SE, 1.5 points) of 95 %"), **_values(v3)))
        kmax = int(d.sel("fCOV", "bootstrap", "RRR")["binaries"].max())
        vm = {b: v for b, v in d.at("fCOV", "bootstrap", "RRR", "binaries", kmax).items()
              if b in other}
        text, se = _spread(vm)
        rising = all(vm[b][0] > v3.get(b, (1.0, 0))[0] for b in vm)
        verdict, note = _between(vm, 0.98, 0.99)
        if verdict == AGREE and not rising:
            verdict = PARTLY
        out.append(_claim("cov.fcov.bootstrap.nonfft.max", "fCOV",
                          f"RRR bootstrap, non-FFT benchmarks, rising to {kmax} binaries",
                          "98-99 %",
                          text + ("" if rising else "; not above the 3-binary value everywhere"),
                          _pct(se, 2), verdict, note,
                          _each("in 98-99 % widened by 2 SE and above its 3-binary value"),
                          **_values(vm)))

    # -- normal quantile -------------------------------------------------------------------
    for k, paper, kind in ((3, 0.88, "about"), (5, 0.90, "over"), (15, 0.94, "over")):
        vals = d.at("fCOV", "normal", "-", "binaries", k)
        text, se = _spread(vals)
        if kind == "about":
            claim, (verdict, note) = f"about {100 * paper:g} %", _about(vals, paper, 0.01)
            rule = _each(f"within max(2 SE, 1 point) of {100 * paper:g} %")
        else:
            claim, (verdict, note) = f"over {100 * paper:g} %", _above(vals, paper)
            rule = _each(f"over {100 * paper:g} % - 2 SE")
        out.append(_claim(f"cov.fcovnormal.{k}b", "fCOVNormal",
                          f"normal-quantile Fieller, {k} binaries (all benchmarks)",
                          claim, text, _pct(se, 2), verdict, note, rule, **_values(vals)))

    # -- fCOVGrid ------------------------------------------------------------------------
    for bench, lo, hi in (("FFT NA OPT", 0.948, 0.989), ("Rijndael OPT", 0.95, 0.989)):
        sel = d.sel("fCOVGrid", "asymptotic", "-", bench)
        if sel.empty:
            continue
        cmin, cmax = float(sel["coverage"].min()), float(sel["coverage"].max())
        se = float(sel["se"].max())
        kmin = int(sel["binaries"].min())
        at_min = sel.loc[sel["coverage"].idxmin()]
        at_max = sel.loc[sel["coverage"].idxmax()]
        ok = [abs(cmin - lo) <= max(2 * se, 0.01), abs(cmax - hi) <= max(2 * se, 0.01)]
        note = ""
        s3 = sel[sel["binaries"] >= 3]
        if int(at_max.binaries) < 3 and not s3.empty:
            note = (f"our largest coverage is at {int(at_max.binaries)} binaries (t quantile with "
                    f"{int(at_max.binaries) - 1} degree of freedom); from 3 binaries on it is "
                    f"{_pct(float(s3['coverage'].max()))}")
        out.append(_claim(f"cov.fcovgrid.range.{bench}", "fCOVGrid",
                          f"{bench}, asymptotic: range of coverage over the grid "
                          f"(binaries from {kmin}, executions {int(sel['executions'].min())}-"
                          f"{int(sel['executions'].max())})", f"{_pct(lo)} to {_pct(hi)}",
                          f"{_pct(cmin)} ({int(at_min.binaries)} b, {int(at_min.executions)} e) to "
                          f"{_pct(cmax)} ({int(at_max.binaries)} b, {int(at_max.executions)} e)",
                          _pct(se, 2), AGREE if all(ok) else PARTLY if any(ok) else DISAGREE,
                          note, "both ends within max(2 SE, 1 point); partly if one",
                          min=cmin, max=cmax, se=se))
    for method, label in (("asymptotic", "asymptotic"), ("normal", "normal-quantile")):
        sel = d.sel("fCOVGrid", method, "-")
        if sel.empty:
            continue
        shares, resid = [], []
        for _, g in sel.groupby("benchmark"):
            r2, sd = _grid_share(g, "binaries")
            shares.append(r2)
            resid.append(sd)
        se = float(sel["se"].median())
        r2min = float(np.nanmin(shares))
        out.append(_claim(f"cov.fcovgrid.binaries-matter.{method}", "fCOVGrid",
                          f"{label}: the number of executions barely matters, the number of "
                          "binaries does (all benchmarks)", "yes",
                          f"binaries explain at least {100 * r2min:.0f} % of the variation over the "
                          f"grid; the remainder has SD {100 * max(resid):.2f} points at most",
                          f"{_pct(se, 2)} (median)",
                          AGREE if r2min >= 0.8 and max(resid) <= max(2 * se, 0.005) else
                          PARTLY if r2min >= 0.5 else DISAGREE, "",
                          "binaries explain >= 80 % and the rest is within max(2 SE, 0.5 "
                          "points); partly from 50 %", share=r2min, residual_sd=max(resid)))

    # -- fCOVR ---------------------------------------------------------------------------
    sel = d.sel("fCOVR", "asymptotic", "-")
    if not sel.empty:
        rhos, parts = [], []
        for b in d.names:
            es, cov, _ = d.curve("fCOVR", "asymptotic", "-", b, "executions")
            if es.size >= 3:
                rhos.append(_rank_corr(es, cov))
                parts.append(f"{b} {_pct(cov[0])} -> {_pct(cov[-1])}")
        out.append(_claim("cov.fcovr.asymptotic.falls", "fCOVR",
                          f"asymptotic, one binary: coverage falls as executions grow "
                          f"({int(sel['executions'].min())} to {int(sel['executions'].max())})",
                          "falls", f"rank correlation {min(rhos):.2f} to {max(rhos):.2f} over "
                          f"{len(rhos)} benchmarks", "-",
                          AGREE if max(rhos) < -0.8 else PARTLY if min(rhos) < 0 else DISAGREE,
                          "", "every rank correlation under -0.8; partly if one is negative",
                          rho=rhos))
        worst = sel.loc[sel.groupby("benchmark")["coverage"].idxmin()]
        low = worst[worst["coverage"] < 0.9]
        out.append(_claim("cov.fcovr.asymptotic.too-low", "fCOVR",
                          "asymptotic, one binary: with many executions the coverage gets too "
                          "low, FFT and non-FFT benchmarks alike", "too low for all",
                          "; ".join(f"{r.benchmark} {_pct(r.coverage)}" for r in worst.itertuples()),
                          _pct(float(worst["se"].max()), 2),
                          AGREE if len(low) == len(worst) else PARTLY if len(low) else DISAGREE,
                          "" if len(low) == len(worst) else
                          "'too low' read as under 90 % at the largest number of executions",
                          _each("under 90 % at its lowest"),
                          lowest={r.benchmark: float(r.coverage) for r in worst.itertuples()}))
    selb = d.sel("fCOVR", "bootstrap", "RRR")
    if not selb.empty:
        ok, parts = [], []
        for b in d.names:
            es, cov, se = d.curve("fCOVR", "bootstrap", "RRR", b, "executions")
            if es.size < 3:
                continue
            j = int(np.argmax(cov))
            ok.append(cov[-1] < cov[j] - 2 * se[j])
            parts.append(f"{b} peak {_pct(cov[j])} at {int(es[j])}, {_pct(cov[-1])} at {int(es[-1])}")
        out.append(_claim("cov.fcovr.bootstrap.falls", "fCOVR",
                          "RRR bootstrap, one binary: past its peak, coverage falls as "
                          "executions grow", "falls", "; ".join(parts),
                          f"<= {_pct(float(selb['se'].max()), 2)}",
                          AGREE if ok and all(ok) else PARTLY if any(ok) else DISAGREE,
                          "with very few executions the two-level bootstrap under-covers, so the "
                          "curve first rises",
                          _each("ends more than 2 SE below its peak")))

    # -- fCOVRSGrid ----------------------------------------------------------------------
    for bench, lo, hi in (("FFT NA", 0.34, 0.98), ("HTTP OPT", 0.72, 0.99)):
        sel = d.sel("fCOVRSGrid", "asymptotic", "-", bench)
        if sel.empty:
            continue
        cmin, cmax = float(sel["coverage"].min()), float(sel["coverage"].max())
        se = float(sel["se"].max())
        at_min = sel.loc[sel["coverage"].idxmin()]
        at_max = sel.loc[sel["coverage"].idxmax()]
        ok = [abs(cmin - lo) <= max(2 * se, 0.03), abs(cmax - hi) <= max(2 * se, 0.01)]
        out.append(_claim(f"cov.fcovrsgrid.range.{bench}", "fCOVRSGrid",
                          f"{bench}, asymptotic, one binary: range of coverage over "
                          f"executions {int(sel['executions'].min())}-{int(sel['executions'].max())} "
                          f"x measurements {int(sel['measurements'].min())}-"
                          f"{int(sel['measurements'].max())}", f"{_pct(lo, 0)} to {_pct(hi, 0)}",
                          f"{_pct(cmin)} ({int(at_min.executions)} e, {int(at_min.measurements)} m) to "
                          f"{_pct(cmax)} ({int(at_max.executions)} e, {int(at_max.measurements)} m)",
                          _pct(se, 2), AGREE if all(ok) else PARTLY if any(ok) else DISAGREE,
                          "the extremes depend on the grid's limits (fewest and most executions and "
                          "measurements), which the paper does not give",
                          "lowest within max(2 SE, 3 points), highest within max(2 SE, 1 point); "
                          "partly if one", min=cmin, max=cmax, se=se))

    if counts is not None and not counts.empty:
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
        out.append(_claim("cov.unbounded", "all",
                          "unbounded Fieller sets (not a claim of the paper; they are counted as "
                          "covering the truth)", "-", note, "-", UNDECIDED, "",
                          "not a claim: shown, not counted", cells=int(len(unb))))
    return _explain(out)


def _schemes_table(table) -> list[str]:
    d = _Table(table)
    sel = d.t[(d.t["experiment"] == "fCOV") & (d.t["method"] == "bootstrap")]
    if sel.empty:
        return []
    ks = sorted(set(sel["binaries"]))
    show = [k for k in (3, 10, max(ks)) if k in ks] or ks[:3]
    schemes = [s for s in ("RRR", "RRN", "RNN", "FLAT") if s in set(sel["scheme"])]
    n2, n1 = int(sel["executions"].iloc[0]), int(sel["measurements"].iloc[0])
    rows = []
    for b in d.names:
        row = {"benchmark": b}
        for s in schemes:
            for k in show:
                v = d.at("fCOV", "bootstrap", s, "binaries", k).get(b)
                row[f"{s}, {k} b"] = _pct(v[0]) if v else "n/a"
        rows.append(row)
    lines = [
        "### Beyond the paper: resampling schemes (`figures/fCOVSchemes`)",
        "",
        f"Coverage of the percentile bootstrap in the fCOV setting ({n2} executions x {n1} "
        "measurements per binary) for each resampling scheme.",
        "",
        pd.DataFrame(rows).to_markdown(index=False, disable_numparse=True),
    ]
    grid = d.t[(d.t["experiment"] == "fCOVGrid") & (d.t["method"] == "bootstrap")]
    if not grid.empty:
        lines += ["", "RRR bootstrap over the binaries x executions grid (`figures/fCOVGridBoot`, "
                  "the grid the paper skipped as too costly):", ""]
        for b, g in grid.groupby("benchmark", sort=False):
            lo, hi = g.loc[g["coverage"].idxmin()], g.loc[g["coverage"].idxmax()]
            r2, _ = _grid_share(g, "binaries")
            lines.append(f"- {b}: {_pct(lo.coverage)} ({int(lo.binaries)} b, {int(lo.executions)} e) "
                         f"to {_pct(hi.coverage)} ({int(hi.binaries)} b, {int(hi.executions)} e); "
                         f"binaries explain {100 * r2:.0f} % of the variation over the grid.")
    return lines


#: Why a claim can come out "partly": reasons from the model, keyed by statement prefix.
_WHY = {
    "RRR bootstrap, non-FFT benchmarks": (
        "Why: the RRR interval mixes two effects. Resampling a few binaries shrinks their "
        "spread (by (k-1)/k: under-coverage, as for FFT), while resampling executions and "
        "measurements again adds their variance a second time, since the binary means "
        "already carry it (over-coverage). Which wins depends on each benchmark's split of "
        "variance: HTTP, with 0.2 % between binaries against about 22 % between "
        "measurements, over-covers at once and approaches the coverage of an interval "
        "sqrt(2) too wide (about 99.4 %); Rijndael, whose execution level carries about "
        "as much as its binaries, starts below 95 %. The paper's 'about 95 %' and '98-99 %' "
        "summarise its curves by eye."
    ),
    "normal-quantile Fieller, 15": (
        "Why: with 15 binaries the variance of a mean has 14 degrees of freedom, and a "
        "normal quantile then covers P(|t_14| < 1.96) = 93.0 % when the binary level "
        "dominates, so values from 93 % to 94.5 % are what the model predicts; 'over 94 %' "
        "holds where lower levels add precision to the variance estimate."
    ),
}


def _explain(claims: list[Claim]) -> list[Claim]:
    for c in claims:
        if c.verdict in (PARTLY, DISAGREE):
            for prefix, why in _WHY.items():
                if c.statement.startswith(prefix):
                    c.explanation = (c.explanation + ". " if c.explanation else "") + why
    return claims


def render(claims: list[Claim], table=None, validation: str = "") -> str:
    """Markdown section: claims table, notes, the schemes comparison and the validation."""
    parts = [
        "## Coverage (Figures fCOV, fCOVGrid, fCOVR, fCOVRSGrid)",
        "",
        "Coverage of 95 % intervals for the ratio of means new/old (true ratio 0.95) in a "
        "hierarchical normal model fed with each benchmark's S^2 estimates; both systems "
        "have the same variances. Our number beside each claim of the paper; the Monte "
        "Carlo error is one standard error of a coverage estimate (the largest one where "
        "several benchmarks or cells are summarised).",
        "",
        render_table(claims),
    ]
    notes = render_notes(claims, "see the figure.")
    if notes:
        parts += ["", notes]
    if table is not None:
        extra = _schemes_table(table)
        if extra:
            parts += [""] + extra
    if validation:
        parts += ["", validation]
    return "\n".join(parts) + "\n"


# -- validation --------------------------------------------------------------------------
def validation_table(frame):
    """Approximate against exact simulation, per validation case and method.

    Rows with ``comparison``: ``paired`` (approximate bootstrap on the same simulated
    experiments as the exact one: the error of the normal approximation alone) or
    ``independent`` (statistics drawn directly against every measurement simulated:
    the whole shortcut). ``z`` is the coverage difference over its standard error
    (paired differences for ``paired``).
    """
    keys = ["benchmark", "experiment", "binaries", "executions", "measurements", "method", "scheme"]
    rows = []
    for key, g in frame.groupby(keys, sort=True):
        by = {m: x.sort_values("index") for m, x in g.groupby("mode")}
        base = dict(zip(keys, key))
        ex = by.get("exact")
        if ex is None:
            continue
        ce = ex["covered"].to_numpy().astype(float)
        n = ce.size
        pe = ce.mean()
        for mode, comp in (("paired", "paired"), ("approx", "independent")):
            other = by.get(mode)
            if other is None:
                continue
            ca = other["covered"].to_numpy().astype(float)
            pa = ca.mean()
            if comp == "paired":
                d = ca - ce
                se = d.std(ddof=1) / math.sqrt(n) if n > 1 else 0.0
                width = (ex["upper"] - ex["lower"]).to_numpy()
                ok = np.isfinite(width) & (width > 0)
                rel = np.abs(np.concatenate([
                    (other["lower"].to_numpy() - ex["lower"].to_numpy())[ok] / width[ok],
                    (other["upper"].to_numpy() - ex["upper"].to_numpy())[ok] / width[ok]]))
                med = float(np.median(rel)) if rel.size else math.nan
            else:
                se = math.sqrt((pe * (1 - pe) + pa * (1 - pa)) / n)
                med = math.nan
            z = (pa - pe) / se if se > 0 else 0.0 if pa == pe else math.inf
            rows.append({**base, "comparison": comp, "exact": pe, "approx": pa, "n": n,
                         "se_diff": se, "z": z, "median_end_shift": med,
                         "se_exact": math.sqrt(pe * (1 - pe) / n)})
    return pd.DataFrame(rows)


def validation_summary(frame) -> str:
    """Markdown: how well the approximate simulation matches the exact one."""
    t = validation_table(frame)
    if t.empty:
        return ""
    lines = ["### Approximate against exact simulation (`figures/fCOVValidation`)", ""]
    p = t[t["comparison"] == "paired"]
    i = t[t["comparison"] == "independent"]
    n_exp = int(t["n"].max())
    rnn_rows = p[p["scheme"] == "RNN"]
    rnn = float(rnn_rows["median_end_shift"].median()) if len(rnn_rows) else math.nan
    text = (
        f"On the validation cases every measurement was simulated ({n_exp} experiments per "
        "case) and the exact hierarchical bootstrap run on them. *Paired*: the approximate "
        "bootstrap (top level resampled exactly, a normal draw for the rest) on the statistics "
        f"of the same experiments: {int((p['z'].abs() <= 2).sum())} of {len(p)} coverage "
        f"differences are within two standard errors of the paired difference, the largest "
        f"is {p['z'].abs().max():.2f} SE and {100 * p['exact'].sub(p['approx']).abs().max():.2f} "
        "points; interval ends move by a median "
        f"{100 * p[p['scheme'] != 'RNN']['median_end_shift'].median():.1f} % of the interval's "
        "width" + (
            f", against {100 * rnn:.1f} % for RNN, where both paths resample the same binary "
            "means and differ only in their random replicates. " if math.isfinite(rnn) else ". ")
        +         f"*Independent*: statistics drawn from their exact distributions against simulated "
        f"measurements, different experiments: {int((i['z'].abs() <= 2).sum())} of {len(i)} "
        f"differences within two standard errors, the largest {i['z'].abs().max():.2f} SE."
    )
    keys = ["benchmark", "experiment", "binaries", "executions", "measurements", "method", "scheme"]
    rows = []
    for key, g in t.groupby(keys, sort=True):
        b, e, k, n2, n1, m, s = key
        case = (f"{k} b x {n2} e x {n1} m" if e == "fCOV" else f"1 b, {n2} e x {n1} m")
        pa = g[g["comparison"] == "paired"]
        ia = g[g["comparison"] == "independent"]
        rows.append({
            "benchmark": b, "case": case, "method": m if s == "-" else f"{m} {s}",
            "exact": _pct(g["exact"].iloc[0]),
            "paired approx": _pct(pa["approx"].iloc[0]) if len(pa) else "-",
            "independent approx": _pct(ia["approx"].iloc[0]) if len(ia) else "-",
            "max abs z": f"{g['z'].abs().max():.2f}",
        })
    lines += [text, "", pd.DataFrame(rows).to_markdown(index=False, disable_numparse=True)]
    return "\n".join(lines) + "\n"
