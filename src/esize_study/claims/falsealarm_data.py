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

from ..estimate.rates import min_threshold, normal_interval, proportion_interval, rates_at

__all__ = ["FalseAlarmData", "pct", "iv_text", "rate_text", "se", "upper_half", "diff_interval",
           "paired_difference", "rank_corr", "rank_rule", "points", "points_interval"]


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
        """Share of alarms at ``threshold`` and the number of comparisons (pooled sizes)."""
        ts = self.sel(bench, kind, sizes, method, scheme)["tstar"].to_numpy()
        if ts.size == 0:
            return math.nan, 0
        return float(rates_at(ts, [threshold])[0]), int(ts.size)

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


def rank_rule(spec, d: FalseAlarmData, bench: str, kind: str, sizes, **values):
    """A claim that the asymptotic 0 % rate rises with ``sizes`` of ``kind`` (units named
    by ``kind``): Spearman's rank correlation above 0.8 agrees, above 0 partly."""
    from .claim import AGREE, DISAGREE, PARTLY

    rates = [d.rate(bench, kind, k, "asymptotic")[0] for k in sizes]
    rho = rank_corr(sizes, rates)
    return spec.claim(f"rank correlation {rho:.2f} ({pct(rates[0])} at {sizes[0]} to "
                      f"{pct(rates[-1])} at {sizes[-1]} {kind})", "-",
                      AGREE if rho > 0.8 else PARTLY if rho > 0 else DISAGREE,
                      "shape: rank correlation above 0.8, partly above 0", rho=rho,
                      rates=rates, **{kind: list(sizes)}, **values)
