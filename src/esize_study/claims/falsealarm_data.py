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

from ..estimate.rates import min_threshold, proportion_interval, rates_at

__all__ = ["FalseAlarmData", "pct", "iv_text", "rate_text", "se"]


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

    ``shape`` is the binary-shape check quoted by one explanation (or None).
    """

    # The comparisons are millions of rows: they are split into groups once, and every
    # question is asked of one group (filtering the whole frame by four string columns
    # per question took most of the report's time).
    _KEY = ["benchmark", "kind", "method", "scheme"]
    _TKEY = ["benchmark", "experiment", "method", "scheme"]

    def __init__(self, comparisons, table, shape: dict | None = None):
        self.shape = shape
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

    def paired_alarms(self, bench, sizes, a, b):
        """Per-comparison alarm indicators at 0 % of two (method, scheme), same comparisons."""
        parts = []
        for method, scheme in (a, b):
            s = self.sel(bench, "binaries", sizes, method, scheme)
            parts.append(s.set_index(["size", "comparison"])["tstar"] > 0)
        j = pd.concat(parts, axis=1, join="inner")
        return j.iloc[:, 0].to_numpy(float), j.iloc[:, 1].to_numpy(float)
