"""The paper's claims on false alarms (Section "False Alarm Rate") beside ours.

Each claim becomes a :class:`esize_study.claims.Claim` record with the paper's
statement, our number, its Monte Carlo standard error, the deciding rule and a
verdict. Rates are computed exactly from the per-comparison results; minimal
thresholds use the same linear interpolation over the threshold grid as the
figures.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .claims import AGREE, DISAGREE, PARTLY, Claim, graded, render_notes, render_table, verdict
from .falsealarm import contour, rates_at

__all__ = ["evaluate", "render", "validation_summary"]

FIGURE = "False Alarm Rate"


def _pct(x: float) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.2f} %"


class _Data:
    def __init__(self, comparisons, table):
        self.c = comparisons
        self.t = table
        self.names = set(comparisons["benchmark"])

    def tstar(self, bench, kind, size, method, scheme="-"):
        c = self.c
        sel = c[(c["benchmark"] == bench) & (c["kind"] == kind) & (c["size"] == size)
                & (c["method"] == method) & (c["scheme"] == scheme)]
        return sel["tstar"].to_numpy(), sel["bounded"].to_numpy()

    def rate(self, bench, kind, size, method, scheme="-", threshold=0.0):
        ts, _ = self.tstar(bench, kind, size, method, scheme)
        if ts.size == 0:
            return math.nan, math.nan
        p = float(rates_at(ts, [threshold])[0])
        return p, math.sqrt(p * (1 - p) / ts.size)

    def sizes(self, bench, kind):
        c = self.c
        return sorted(set(c[(c["benchmark"] == bench) & (c["kind"] == kind)]["size"]))

    def min_thr(self, bench, experiment, method, scheme, x, target):
        t = self.t
        sel = t[(t["benchmark"] == bench) & (t["experiment"] == experiment)
                & (t["method"] == method) & (t["scheme"] == scheme)]
        if sel.empty:
            return np.array([]), np.array([])
        return contour(sel, [target], x)[target]


def _near(ours, se, paper, slack) -> tuple[str, str]:
    """Verdict and rule: within two standard errors or ``slack`` of the paper's value."""
    rule = f"within max(2 SE, {100 * slack:g} pct. points) of {100 * paper:g} %"
    return verdict(abs(ours - paper) <= max(2 * se, slack)), rule


def _claim(id, figure, statement, paper, ours, mc_error, judged, explanation="", **values):
    v, rule = judged
    return Claim(id=id, figure=figure, statement=statement, paper=paper, ours=ours, rule=rule,
                 verdict=v, explanation=explanation, mc_error=mc_error, values=values)


def evaluate(comparisons, table) -> list[Claim]:
    """Evaluate every claim that the dataset's benchmarks allow.

    Parameters
    ----------
    comparisons : DataFrame
        Per-comparison results (``false_alarm_comparisons.parquet``).
    table : DataFrame
        Rates on the threshold grid (``false_alarm.csv``).

    Returns
    -------
    list of Claim
    """
    d = _Data(comparisons, table)
    out: list[Claim] = []
    fft, rij, tcp, tcpo = "FFT NA OPT", "Rijndael", "TCP", "TCP OPT"

    if fft in d.names:
        ks = d.sizes(fft, "binaries")
        kmax = max(ks)
        for method, scheme, label in (("asymptotic", "-", "asymptotic"),
                                      ("bootstrap", "RRR", "RRR bootstrap"),
                                      ("normal", "-", "normal-quantile asymptotic")):
            p, se = d.rate(fft, "binaries", kmax, method, scheme)
            out.append(_claim(f"fa.fft.rate0.{method}.{scheme}", "fFAFFT",
                              f"FFT NA OPT, {label}: with a 0 % threshold the rate tends to 5 % "
                              "as binaries grow", "about 5 %", f"{_pct(p)} at {kmax} binaries",
                              _pct(se), _near(p, se, 0.05, 0.01), rate=p, se=se, binaries=kmax))
        wins = []
        for k in [k for k in ks if 2 <= k <= 20]:
            pa, _ = d.rate(fft, "binaries", k, "asymptotic")
            pb, _ = d.rate(fft, "binaries", k, "bootstrap", "RRR")
            wins.append(pa <= pb)
        share = float(np.mean(wins)) if wins else math.nan
        out.append(_claim("fa.fft.asymptotic-fewer", "fFAFFT",
                          "FFT NA OPT: the asymptotic method has fewer false alarms than the "
                          "bootstrap for 2 to 20 binaries (0 % threshold)", "yes",
                          f"fewer or equal at {sum(wins)} of {len(wins)} sizes", "-",
                          (graded(share, 0.9, 0.5),
                           "agree at >= 90 % of the sizes, partly at >= 50 %"),
                          sizes=len(wins), fewer=int(sum(wins))))
        for method, scheme, label in (("asymptotic", "-", "asymptotic"),
                                      ("bootstrap", "RRR", "RRR bootstrap")):
            p, se = d.rate(fft, "binaries", 3, method, scheme, 0.02)
            ok = p <= 0.02 + 2 * se
            note = ""
            if not ok and method == "bootstrap":
                need = next((k for k in ks if k >= 3 and
                             d.rate(fft, "binaries", k, method, scheme, 0.02)[0] <= 0.02), None)
                note = (
                    f"our RRR bootstrap reaches 2 % at {need} binaries. With 3 binaries the "
                    "percentile interval is narrow (resampling 3 units shrinks their variance by "
                    "2/3; the under-coverage the paper reports for FFT with few binaries), so the "
                    "rate at a 2 % threshold is set by how often two triples of binaries differ by "
                    "more than about 2 %. That depends on the shape of the binary-level "
                    "distribution, which Table tVariations (a variance) does not fix: the "
                    "stand-in draws binaries from a log-normal. The asymptotic method agrees."
                )
            out.append(_claim(f"fa.fft.threshold2.{method}", "fFAFFT",
                              f"FFT NA OPT, {label}: a 2 % threshold gives at most 2 % false "
                              "alarms with 3 binaries", "<= 2 %", _pct(p), _pct(se),
                              (verdict(ok), "at most 2 % + 2 SE"), note, rate=p, se=se))
    if rij in d.names:
        for method, scheme, label in (("asymptotic", "-", "asymptotic"),
                                      ("bootstrap", "RRR", "RRR bootstrap")):
            p, se = d.rate(rij, "binaries", 2, method, scheme)
            out.append(_claim(f"fa.rijndael.rate0-2b.{method}", "fFAFFT",
                              f"Rijndael, {label}: 2 binaries give about 5 % (or fewer) false "
                              "alarms at a 0 % threshold", "about 5 %", _pct(p), _pct(se),
                              (verdict(p <= 0.05 + max(2 * se, 0.01)),
                               "at most 5 % + max(2 SE, 1 point)"),
                              "read as 'at most about 5 %'" if p < 0.03 else "", rate=p, se=se))
        ks = d.sizes(rij, "binaries")
        for k, paper in ((5, 0.03), (max(ks), 0.005)):
            if k in ks:
                p, se = d.rate(rij, "binaries", k, "bootstrap", "RRR")
                out.append(_claim(f"fa.rijndael.rate0-{k}b-about-{100 * paper:g}pct.bootstrap", "fFAFFT",
                                  f"Rijndael, RRR bootstrap, 0 % threshold, {k} binaries: far "
                                  "below 5 %", f"about {100 * paper:g} %", _pct(p), _pct(se),
                                  _near(p, se, paper, max(0.5 * paper, 0.005)), rate=p, se=se))
    nonfft = sorted(n for n in d.names if not n.startswith("FFT"))
    if nonfft:
        worst, worst_se, who = -1.0, 0.0, ""
        for n in nonfft:
            for method, scheme in (("asymptotic", "-"), ("bootstrap", "RRR")):
                p, se = d.rate(n, "binaries", 2, method, scheme, 0.01)
                if p > worst:
                    worst, worst_se, who = p, se, f"{n}, {method}"
        out.append(_claim("fa.nonfft.threshold1", "fFAFFT",
                          "non-FFT benchmarks, either method: 1 % threshold and 2 binaries give "
                          "at most 1 % false alarms", "<= 1 %", f"worst {_pct(worst)} ({who})",
                          _pct(worst_se), (verdict(worst <= 0.01 + 2 * worst_se),
                                           "worst benchmark at most 1 % + 2 SE"),
                          rate=worst, se=worst_se))
    c = d.c
    asym = c[(c["kind"] == "binaries") & (c["method"] == "asymptotic")]
    if not asym.empty:
        unb = asym.groupby("size")["bounded"].apply(lambda b: int((~b).sum()))
        where = {int(k): int(v) for k, v in unb.items() if v > 0}
        n2 = int((asym["size"] == 2).sum())
        rate2 = where.get(2, 0) / n2 if n2 else 0.0
        ok = set(where) <= {2} and rate2 < 0.01
        out.append(_claim("fa.unbounded", "fFAFFT",
                          "Fieller's interval is unbounded only with 2 binaries, and rarely",
                          "only at 2 binaries, rare",
                          "none" if not where else ", ".join(f"{v} at {k} binaries"
                                                             for k, v in where.items())
                          + f" (of {n2} comparisons per size, all benchmarks)", "-",
                          (AGREE if ok else PARTLY,
                           "only at 2 binaries and in under 1 % of comparisons, else partly"),
                          unbounded={str(k): v for k, v in where.items()}, comparisons=n2))

    for bench in (fft, tcpo):
        if bench not in d.names:
            continue
        es = [e for e in d.sizes(bench, "executions") if e >= 3]
        rates = [d.rate(bench, "executions", e, "asymptotic")[0] for e in es]
        if len(es) >= 3:
            rho = float(np.corrcoef(np.argsort(np.argsort(es)),
                                    np.argsort(np.argsort(rates)))[0, 1])
            out.append(_claim(f"fa.{bench}.grows-with-executions", "fFA2L",
                              f"{bench}, one binary: the false-alarm rate grows with the "
                              "number of executions (0 % threshold)", "grows",
                              f"rank correlation {rho:.2f} ({_pct(rates[0])} at {es[0]} to "
                              f"{_pct(rates[-1])} at {es[-1]} executions)", "-",
                              (AGREE if rho > 0.8 else PARTLY if rho > 0 else DISAGREE,
                               "rank correlation above 0.8, partly above 0"),
                              rho=rho, rates=rates, executions=es))
        emax = max(d.sizes(bench, "executions"))
        p, se = d.rate(bench, "executions", emax, "asymptotic")
        out.append(_claim(f"fa.{bench}.rate0-max-executions", "fFA2L",
                          f"{bench}, one binary, {emax} executions, 0 % threshold",
                          "nearly 60 %", _pct(p), _pct(se), _near(p, se, 0.6, 0.1),
                          rate=p, se=se, executions=emax))
        xs, ys = d.min_thr(bench, "fFA2L", "asymptotic", "-", "executions", 0.05)
        top = float(np.nanmax(ys[xs >= 2])) if len(xs) else math.nan
        if bench == tcpo:
            out.append(_claim("fa.tcp-opt.threshold-5pct", "fFA2L",
                              "TCP OPT, one binary: a threshold under 2 % keeps false alarms at "
                              "5 % for up to 100 executions", "< 2 %",
                              f"largest 5 %-threshold {top:.2f} %", "grid interpolation",
                              (verdict(top < 2), "largest threshold under 2 %"), threshold=top))
        else:
            out.append(_claim("fa.fft-na-opt.threshold-5pct", "fFA2L",
                              "FFT NA OPT, one binary: the threshold for 5 % false alarms "
                              "reaches nearly 9 %", "nearly 9 %", f"up to {top:.2f} %",
                              "grid interpolation",
                              (verdict(7.5 <= top <= 10.5), "largest threshold in 7.5-10.5 %"),
                              threshold=top))
    if fft in d.names:
        for thr, paper, label in ((0.0, 0.95, "0 %"), (0.20, 0.09, "20 %")):
            p, se = d.rate(fft, "executions", 1, "asymptotic", "-", thr)
            out.append(_claim(f"fa.fft.flat-threshold{100 * thr:g}", "fFA2L",
                              f"FFT NA OPT, one execution (flat), {label} threshold",
                              f"about {100 * paper:g} %", _pct(p), _pct(se),
                              _near(p, se, paper, max(0.3 * paper, 0.02)), rate=p, se=se))
    if tcpo in d.names:
        p, se = d.rate(tcpo, "executions", 1, "asymptotic")
        out.append(_claim("fa.tcp-opt.flat-threshold0", "fFA2L",
                          "TCP OPT, one execution (flat), 0 % threshold", "under 0.1 %",
                          _pct(p), _pct(se), (verdict(p <= 0.001 + 2 * se), "at most 0.1 % + 2 SE"),
                          rate=p, se=se))

    for bench in ("FFT", tcp):
        if bench not in d.names:
            continue
        curves = {s: d.min_thr(bench, "fFABoot", "bootstrap", s, "binaries", 0.05)
                  for s in ("RRR", "RRN", "RNN", "FLAT")}
        ks = curves["FLAT"][0]
        sel = ks >= 2
        flat = curves["FLAT"][1][sel]
        others = np.vstack([curves[s][1][sel] for s in ("RRR", "RRN", "RNN")])
        worst = np.nanmean(flat >= np.nanmax(others, axis=0))
        out.append(_claim(f"fa.{bench}.flat-worst", "fFABoot",
                          f"{bench}: FLAT resampling is the worst (highest threshold for 5 % "
                          "false alarms)", "worst", f"worst at {100 * worst:.0f} % of sizes >= 2",
                          "-", (graded(worst, 0.9, 0.5),
                                "worst at >= 90 % of the sizes, partly at >= 50 %"),
                          share=float(worst)))
        if bench == "FFT":
            def first_k(scheme, thr=0.02, bench=bench):
                for k in d.sizes(bench, "binaries"):
                    p, _ = d.rate(bench, "binaries", k, "bootstrap", scheme, thr)
                    if k >= 2 and p <= 0.05:
                        return k
                return None
            kf, kr = first_k("FLAT"), first_k("RRR")
            out.append(_claim("fa.fft.flat-binaries", "fFABoot",
                              "FFT, 2 % threshold, 5 % false alarms: FLAT needs about 35 "
                              "binaries, RRR 3", "FLAT ~35, RRR 3", f"FLAT {kf}, RRR {kr}",
                              "grid of sizes",
                              (AGREE if kf and kr and 25 <= kf <= 50 and kr <= 4 else PARTLY,
                               "FLAT 25-50 and RRR at most 4 binaries, else partly"),
                              flat=kf, rrr=kr))
            diff = np.nanmax(np.abs(others - others.mean(axis=0))[:, ks[sel] >= 3])
            out.append(_claim("fa.fft.schemes-equal", "fFABoot",
                              "FFT: RRR, RRN and RNN need about the same threshold",
                              "about equal", f"largest spread {diff:.2f} points (3+ binaries)",
                              "grid interpolation",
                              (verdict(diff <= 0.5), "spread at most 0.5 points"),
                              spread=float(diff)))
        else:
            extra = np.nanmax(flat - curves["RRR"][1][sel])
            out.append(_claim("fa.tcp.flat-cost", "fFABoot",
                              "TCP: FLAT costs under 0.5 % of threshold over RRR",
                              "< 0.5 points", f"{extra:.2f} points at most", "grid interpolation",
                              (verdict(extra < 0.5), "largest excess under 0.5 points"),
                              extra=float(extra)))
    return out


def render(claims: list[Claim], validation_summary: str = "") -> str:
    """Markdown section: a table of claims, then notes on each disagreement."""
    parts = [
        "## False alarms (Figures fFAFFT, fFA2L, fFABoot)",
        "",
        "Each claim of the paper beside our number. Rates are false-alarm rates of 95 % "
        "intervals for the ratio of means of two systems drawn from the same benchmark; "
        "the Monte Carlo error is one standard error of our estimate.",
        "",
        render_table(claims),
    ]
    notes = render_notes(claims, "see the discussion below.")
    if notes:
        parts += ["", notes]
    if validation_summary:
        parts += ["", validation_summary]
    return "\n".join(parts) + "\n"


def validation_summary(frame, thresholds_pct) -> str:
    """How well the approximate bootstrap matches the exact one (same comparisons)."""
    th = np.asarray(thresholds_pct, dtype=float) / 100
    rows, zmax, n_within, n_all = [], 0.0, 0, 0
    for (b, kind, size, scheme), g in frame.groupby(["benchmark", "kind", "size", "scheme"], sort=True):
        ex = g[g["mode"] == "exact"]["tstar"].to_numpy()
        ap = g[g["mode"] == "approx"]["tstar"].to_numpy()
        if ex.size == 0 or ap.size == 0:
            continue
        pe, pa = rates_at(ex, th), rates_at(ap, th)
        se = np.sqrt((pe * (1 - pe) + pa * (1 - pa)) / ex.size)
        z = np.where(se > 0, np.abs(pe - pa) / np.where(se > 0, se, 1), 0.0)
        zmax = max(zmax, float(z.max()))
        n_within += int((z <= 2).sum())
        n_all += z.size
        unit = "binaries" if kind == "binaries" else "executions"
        rows.append({"benchmark": b, "size": f"{size} {unit}", "scheme": scheme,
                     "exact, 0 %": f"{100 * pe[0]:.1f} %", "approx, 0 %": f"{100 * pa[0]:.1f} %",
                     "max abs z": f"{float(z.max()):.2f}"})
    cols = ["benchmark", "size", "scheme", "exact, 0 %", "approx, 0 %", "max abs z"]
    table = pd.DataFrame(rows, columns=cols).to_markdown(index=False, disable_numparse=True)
    head = [
        "### Approximate against exact bootstrap",
        "",
        "The simulations replace the resampled mean of one chosen unit by a normal draw with "
        "its exact bootstrap mean and variance. On the grid below the exact bootstrap was "
        f"run on the same comparisons: {n_within} of {n_all} rate differences (all thresholds) "
        f"are within two Monte Carlo standard errors, the largest is {zmax:.2f} standard errors "
        "(`figures/fFAValidation`).",
        "",
        table,
    ]
    return "\n".join(head) + "\n"
