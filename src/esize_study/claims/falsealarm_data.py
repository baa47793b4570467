"""The false-alarm results as the claims read them: grouped once, asked many times.

:class:`FalseAlarmData` splits the per-comparison results and the threshold-grid rates
of a dataset into groups once; the rules of :mod:`esize_study.claims.falsealarm` ask
each question (a rate, a minimal threshold, paired alarms) of one group. Helpers format
rates for the claim records.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..estimate.rates import (
    equal_weight_count,
    min_threshold,
    normal_interval,
    proportion_interval,
    rates_at,
    z_for,
)

__all__ = ["FalseAlarmData", "pct", "iv_text", "rate_text", "se", "upper_half", "diff_interval",
           "paired_difference", "rank_corr", "rise", "rank_rule", "ratio_rule", "ratio_each", "first_reached",
           "points", "points_interval"]


def pct(x: float, digits: int = 2) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f} %"


def iv_text(lo: float, hi: float, scale: float = 100.0, digits: int = 1) -> str:
    def f(x):
        return "n/a" if x is None or math.isnan(x) else ("inf" if math.isinf(x) else
                                                         f"{scale * x:.{digits}f}")
    return f"{f(lo)}-{f(hi)}"


def rate_text(p: float, n: int, iv) -> str:
    return f"{pct(p)} ({iv_text(*iv)}, n = {n})" if n else "n/a"


def se(p: float, n: int) -> float:
    return math.sqrt(p * (1 - p) / n) if n else math.nan


class FalseAlarmData:
    """Per-comparison results and grid rates of one dataset, grouped for the claims.

    ``shape`` is the binary-shape check quoted by the explanations (or None): one
    result of :func:`esize_study.falsealarm.shape.shape_check`, or a mapping from
    benchmark names to such results; :attr:`shapes` is always the mapping.
    """

    # The comparisons are millions of rows: they are split into groups once, and every
    # question is asked of one group (filtering the whole frame by four string columns
    # per question took most of the report's time).
    _KEY = ["benchmark", "kind", "method", "scheme"]
    _TKEY = ["benchmark", "experiment", "method", "scheme"]

    def __init__(self, comparisons, table, shape: dict | None = None):
        if shape and "benchmark" in shape:
            shape = {shape["benchmark"]: shape}
        self.shapes = dict(shape or {})
        self._curves: dict = {}
        self.groups = {k: g for k, g in comparisons.groupby(self._KEY, sort=False)}
        self.tgroups = {k: g for k, g in table.groupby(self._TKEY, sort=False)}
        self.empty_c = comparisons.iloc[:0]
        self.empty_t = table.iloc[:0]
        self.names = {k[0] for k in self.groups}

    def sel(self, bench, kind, sizes, method, scheme="-"):
        g = self.groups.get((bench, kind, method, scheme), self.empty_c)
        sizes = [sizes] if np.isscalar(sizes) else list(sizes)
        return g[g["size"].isin(sizes)]

    def rate(self, bench, kind, sizes, method, scheme="-", threshold=0.0):
        """Share of alarms at ``threshold`` and the number of comparisons (pooled sizes).

        Every size weighs the same, whatever its count (a refined cell has more
        comparisons than the grid's): the rate is the mean of the sizes' rates, and the
        count is :func:`equal_weight_count` of theirs. With equal counts this is the
        pooled share and the total count."""
        sel = self.sel(bench, kind, sizes, method, scheme)
        ts = sel["tstar"].to_numpy()
        if ts.size == 0:
            return math.nan, 0
        size = sel["size"].to_numpy()
        ks, counts = np.unique(size, return_counts=True)
        if counts.min() == counts.max():
            return float(rates_at(ts, [threshold])[0]), int(ts.size)
        alarms = np.bincount(np.searchsorted(ks, size), weights=ts > threshold)
        return float(np.mean(alarms / counts)), equal_weight_count(counts)

    def all_of(self, kind, method):
        """The comparisons of every benchmark and scheme of ``kind`` and ``method``."""
        parts = [g for k, g in self.groups.items() if k[1] == kind and k[2] == method]
        return pd.concat(parts) if parts else self.empty_c

    def sizes(self, bench, kind):
        return sorted({int(x) for k, g in self.groups.items() if k[:2] == (bench, kind)
                       for x in g["size"].unique()})

    def thresholds(self, bench, experiment, method, scheme, x, target):
        """Minimal threshold (%) for ``target`` per size: sizes, point, low and high end.

        The ends interpolate the lower and upper ends of each rate's Wilson interval;
        a curve that never reaches the target within the grid gives ``inf``.
        """
        sel = self.tgroups.get((bench, experiment, method, scheme), self.empty_t)
        if sel.empty:
            e = np.array([])
            return e, e, e, e
        xs, pt, lo, hi = [], [], [], []
        for s, g in sel.groupby(x, sort=True):
            g = g.sort_values("threshold_pct")
            th, r, n = g["threshold_pct"].to_numpy(), g["rate"].to_numpy(), g["comparisons"].to_numpy()
            ivs = np.array([proportion_interval(p, int(k)) for p, k in zip(r, n)])
            xs.append(s)
            vals = [min_threshold(th, rr, target) for rr in (r, ivs[:, 0], ivs[:, 1])]
            vals = [math.inf if math.isnan(v) else v for v in vals]
            pt.append(vals[0])
            lo.append(vals[1])
            hi.append(vals[2])
        return np.array(xs), np.array(pt), np.array(lo), np.array(hi)

    def curve(self, bench, scheme):
        """:meth:`thresholds` of the fFABoot bootstrap for a 5 % target (computed once)."""
        key = (bench, scheme)
        if key not in self._curves:
            self._curves[key] = self.thresholds(bench, "fFABoot", "bootstrap", scheme,
                                                "binaries", 0.05)
        return self._curves[key]

    def curves(self, bench):
        """:meth:`curve` of each resampling scheme: ``{scheme: (sizes, point, lo, hi)}``."""
        return {s: self.curve(bench, s) for s in ("RRR", "RRN", "RNN", "FLAT")}

    def paired_alarms(self, bench, sizes, a, b, kind="binaries"):
        """Per-comparison alarm indicators at 0 % of two (method, scheme), same comparisons."""
        parts = []
        for method, scheme in (a, b):
            s = self.sel(bench, kind, sizes, method, scheme)
            parts.append(s.set_index(["size", "comparison"])["tstar"] > 0)
        j = pd.concat(parts, axis=1, join="inner")
        return j.iloc[:, 0].to_numpy(float), j.iloc[:, 1].to_numpy(float)


def upper_half(ks) -> list[int]:
    kmax = max(ks)
    return [k for k in ks if 2 * k >= kmax and k >= 2]


def diff_interval(p1: float, n1: int, p2: float, n2: int, z: float) -> tuple[float, tuple]:
    """``p1 - p2`` of two independent shares and its normal interval (+- ``z`` SE)."""
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2) if n1 and n2 else math.nan
    return p1 - p2, normal_interval(p1 - p2, se, z)


def paired_difference(d: FalseAlarmData, bench: str, kind: str, sizes, a, b,
                      z: float) -> tuple[float, tuple]:
    """Mean of ``alarm_a - alarm_b`` at 0 % over the same comparisons, and its interval."""
    x, y = d.paired_alarms(bench, sizes, a, b, kind=kind)
    diff = x - y
    if diff.size < 2:
        return math.nan, (math.nan, math.nan)
    m = float(diff.mean())
    return m, normal_interval(m, float(diff.std(ddof=1) / math.sqrt(diff.size)), z)


def rank_corr(x, y) -> float:
    """Spearman's rank correlation with tied values sharing their mean rank (NaN when
    either side is constant: no order at all)."""
    import pandas as pd

    rx, ry = pd.Series(x).rank().to_numpy(), pd.Series(y).rank().to_numpy()
    if np.ptp(rx) == 0 or np.ptp(ry) == 0:
        return math.nan
    return float(np.corrcoef(rx, ry)[0, 1])


def points(x: float) -> str:
    return f"{100 * x:+.2f}"


def points_interval(iv) -> str:
    return f"{points(iv[0])} to {points(iv[1])}"


def rise(d: FalseAlarmData, bench: str, kind: str, sizes, parts: int = 1) -> dict:
    """Whether the asymptotic 0 % rate rises over ``sizes``, judged against Monte Carlo
    noise (``parts``: how many such curves one claim judges, for Bonferroni).

    A rise is counted only where it exceeds what noise alone gives: the rate at the
    last size minus the one at the first, with the normal interval of a difference of
    independent shares, must be over 0; and no fall on the way may exceed the noise
    (the largest drop from a size to any later one, its interval Bonferroni-widened
    over every pair). *agree*: a decided rise and no decided fall; *partly*: a decided
    rise with a decided fall on the way; *disagree*: the last rate decidedly not above
    the first; *undecided* otherwise (a curve flat within the noise cannot exclude a
    small rise). Returns the verdict, a text and the numbers."""
    from .claim import AGREE, DISAGREE, PARTLY, UNDECIDED, band, decide

    got = [d.rate(bench, kind, k, "asymptotic") for k in sizes]
    over0 = band("over", "0", scale=1)
    up, up_iv = diff_interval(got[-1][0], got[-1][1], got[0][0], got[0][1], z_for(2 * parts))
    pairs = [(i, j) for i in range(len(got)) for j in range(i + 1, len(got))]
    i, j = max(pairs, key=lambda ij: got[ij[0]][0] - got[ij[1]][0])
    drop, drop_iv = diff_interval(*got[i], *got[j], z_for(2 * parts * len(pairs)))
    v_up, v_drop = decide(up_iv, over0), decide(drop_iv, over0)
    verdict = ((PARTLY if v_drop == AGREE else AGREE) if v_up == AGREE else
               DISAGREE if v_up == DISAGREE else UNDECIDED)
    text = (f"rise {points(up)} points ({points_interval(up_iv)}) from {sizes[0]} to "
            f"{sizes[-1]} {kind}; largest fall on the way {points(max(drop, 0.0))} points "
            f"({sizes[i]} to {sizes[j]}: {points_interval(drop_iv)})")
    why = "" if verdict == AGREE else (
        f"{text}: the rise is {v_up} against over 0 and the fall "
        + ("exceeds the noise" if v_drop == AGREE else "is within the noise"))
    return {"verdict": verdict, "text": text, "why": why, "rates": [p for p, _ in got],
            "rise": up, "rise_interval": list(up_iv), "fall": drop,
            "fall_interval": list(drop_iv)}


def rank_rule(spec, d: FalseAlarmData, bench: str, kind: str, sizes, **values):
    """A claim that the asymptotic 0 % rate rises with ``sizes`` of ``kind`` (units named
    by ``kind``), judged against Monte Carlo noise (:func:`rise`). Spearman's rank
    correlation is shown, not judged (at a plateau the noise alone reorders the ranks)."""
    r = rise(d, bench, kind, sizes)
    rates = r["rates"]
    rho = rank_corr(sizes, rates)
    return spec.claim(f"{pct(rates[0])} at {sizes[0]} to {pct(rates[-1])} at {sizes[-1]} "
                      f"{kind}; {r['text']}; rank correlation {rho:.2f}", "-", r["verdict"],
                      "shape against Monte Carlo noise: the last rate minus the first over 0 "
                      "(normal interval), and no fall from a size to a later one decidedly "
                      "over 0 (Bonferroni over the pairs); partly with such a fall", r["why"],
                      rho=rho, rates=rates, rise=r["rise"], rise_interval=r["rise_interval"],
                      fall=r["fall"], fall_interval=r["fall_interval"],
                      **{kind: list(sizes)}, **values)


def ratio_rule(spec, d: FalseAlarmData):
    """The ratio of two benchmarks' thresholds for 5 % alarms, as a caption states.

    The captions do not say at which size they compare, so the ratio is judged at every
    size both curves have, against the relative band of a ratio
    (:func:`esize_study.claims.claim.band` with ``ratio=True``): *agree* when every
    size's interval lies inside the band, *disagree* when every size's lies outside,
    *partly* when some do each, and *undecided* otherwise (the caption's reading, not
    the data, would decide). The ratio of the largest thresholds is shown beside it, and
    decides alone where no size has a threshold on both curves."""
    from .claim import AGREE, DISAGREE, PARTLY, UNDECIDED, band, decide

    big, small = spec.params["big"], spec.params["small"]
    kind = "executions" if spec.params["curve"] == "fFA2L" else "binaries"
    if not all(n in d.names and any(k >= 2 for k in d.sizes(n, kind)) for n in (big, small)):
        return None
    if spec.params["curve"] == "fFA2L":
        def curve(name):
            return d.thresholds(name, "fFA2L", "asymptotic", "-", "executions", 0.05)
        what = "largest 5 %-thresholds over 2-100 executions"
    else:
        def curve(name):
            return d.curve(name, "RRR")
        what = "largest 5 %-thresholds of the RRR bootstrap over 2+ binaries"

    def top(c):
        keep = c[0] >= 2
        return [float(np.max(v[keep])) if keep.any() else math.nan for v in c[1:]]

    cb, cs = curve(big), curve(small)
    (bp, bl, bh), (sp, sl, sh) = top(cb), top(cs)
    if not all(math.isfinite(x) for x in (bp, sp)):
        return None
    ratio = bp / sp if sp > 0 else math.inf
    iv = (bl / sh if sh > 0 else math.inf, bh / sl if sl > 0 else math.inf)
    b = band(spec.params["qualifier"], spec.params["x"], scale=1, ratio=True)
    each = ratio_each(cb, cs)
    # no size where both curves have a threshold: the largest thresholds' ratio alone
    parts = [decide((lo, hi), b) for _, _, lo, hi in each] or [decide(iv, b)]
    v = (AGREE if all(p == AGREE for p in parts) else
         DISAGREE if all(p == DISAGREE for p in parts) else
         PARTLY if AGREE in parts and DISAGREE in parts else UNDECIDED)
    shown = "; ".join(f"{r:.1f}x ({lo:.1f}-{hi:.1f}) at {k:g}" for k, r, lo, hi in each)
    note = spec.params.get("note", "") if v != AGREE else ""
    if v != AGREE:
        count = {x: [f"{k:g}" for (k, *_), p in zip(each, parts) if p == x]
                 for x in (AGREE, UNDECIDED, DISAGREE)}
        where = ("; ".join(f"{x} at {', '.join(ks)}" for x, ks in count.items() if ks)
                 or f"no size where both have a threshold ({parts[0]})")
        note = "; ".join(x for x in (
            f"by {kind} against {b.text(1, 'x')}: {where}; the ratio of the largest "
            f"thresholds is {ratio:.1f}x ({iv[0]:.1f}-{iv[1]:.1f}x)", note) if x)
    return spec.claim(f"{ratio:.1f}x ({iv[0]:.1f}-{iv[1]:.1f}): {big} {bp:.2f} %, {small} "
                      f"{sp:.2f} % ({what}); by {kind}: {shown or 'n/a'}",
                      "from the rates' intervals", v,
                      f"{spec.paper} -> {b.text(1, 'x')} (a ratio: +-20 % of the stated "
                      f"number) at every number of {kind} both curves have: agree when all "
                      "are inside, disagree when all are outside, partly when some are "
                      "each, else undecided (the caption does not say where it compares)",
                      note, ratio=ratio, interval=list(iv),
                      each={f"{k:g}": [r, lo, hi] for k, r, lo, hi in each})


def ratio_each(cb, cs) -> list[tuple[float, float, float, float]]:
    """The ratio of two threshold curves at each size both have (2+ units, finite and
    positive thresholds): size, point, lowest and highest (from the rates' intervals)."""
    out = []
    sb = {float(k): (p, lo, hi) for k, p, lo, hi in zip(*cb)}
    for k, p, lo, hi in zip(*cs):
        k = float(k)
        if k < 2 or k not in sb:
            continue
        bp, bl, bh = sb[k]
        if not all(math.isfinite(x) and x > 0 for x in (bp, bl, bh, p, lo, hi)):
            continue  # a threshold of 0 (or not reached) has no finite ratio
        out.append((k, bp / p, bl / hi, bh / lo))
    return out


def first_reached(d: FalseAlarmData, bench: str, scheme: str, thr: float = 0.02, target: float = 0.05,
                z: float = 2.0):
    """First size whose rate at ``thr`` is at most ``target``: point, and from each end of
    the rates' intervals (``inf`` when not reached on the grid)."""
    found = {"point": math.inf, "lo": math.inf, "hi": math.inf}
    for k in d.sizes(bench, "binaries"):
        if k < 2:
            continue
        p, n = d.rate(bench, "binaries", k, "bootstrap", scheme, thr)
        lo, hi = proportion_interval(p, n, z)
        for key, v in (("point", p), ("lo", lo), ("hi", hi)):
            if math.isinf(found[key]) and v <= target:
                found[key] = k
    return found
