"""Rates and shares of simulated comparisons, with their Monte Carlo intervals.

* :func:`rates_at`, the false-alarm rate at each threshold from the comparisons'
  largest alarming thresholds ``t*``; :func:`min_threshold` and :func:`contour`, the
  smallest threshold that reaches a target rate (linear interpolation over the
  threshold grid, as in the paper);
* :func:`proportion_interval` (Wilson's interval of a share, +- :data:`Z` standard
  errors), :func:`normal_interval` and :func:`z_for` (Bonferroni's widening for a
  result made of several parts): the interval estimates by which the claims are
  judged;
* :func:`wilson` (about 95 %) and :func:`call`, a share against a target.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = [
    "equal_weight_count",
    "Z",
    "one_binary_rate",
    "rates_at",
    "min_threshold",
    "contour",
    "proportion_interval",
    "normal_interval",
    "z_for",
    "wilson",
    "call",
]

#: Half-width of a Monte Carlo interval estimate, in standard errors.
Z = 2.0


def rates_at(tstar: np.ndarray, thresholds: Sequence[float]) -> np.ndarray:
    """False-alarm rate at each threshold (fractions): share of ``tstar > t``."""
    ts = np.sort(np.asarray(tstar, dtype=np.float64))
    th = np.asarray(thresholds, dtype=np.float64)
    return 1.0 - np.searchsorted(ts, th, side="right") / ts.size


def min_threshold(thresholds: Sequence[float], rates: Sequence[float], target: float) -> float:
    """Smallest threshold whose rate is at most ``target``, by linear interpolation.

    ``rates`` must be non-increasing in ``thresholds``. Returns ``nan`` when even the
    largest threshold does not reach the target.
    """
    th = np.asarray(thresholds, dtype=np.float64)
    r = np.asarray(rates, dtype=np.float64)
    ok = np.flatnonzero(r <= target)
    if ok.size == 0:
        return math.nan
    j = int(ok[0])
    if j == 0:
        return float(th[0])
    t0, t1, r0, r1 = th[j - 1], th[j], r[j - 1], r[j]
    if r0 == r1:
        return float(t1)
    return float(t0 + (r0 - target) * (t1 - t0) / (r0 - r1))


def contour(table, targets: Sequence[float], x: str) -> dict[float, tuple[np.ndarray, np.ndarray]]:
    """Minimal threshold (%) reaching each target rate, against ``x``.

    ``table`` holds the rows of one benchmark/experiment/method/scheme (a DataFrame
    with ``threshold_pct`` and ``rate``); the threshold is found by linear
    interpolation over the threshold grid, as in the paper.
    """
    out = {}
    sizes = np.array(sorted(table[x].unique()))
    for target in targets:
        ys = []
        for s in sizes:
            g = table[table[x] == s].sort_values("threshold_pct")
            ys.append(min_threshold(g["threshold_pct"], g["rate"], target))
        out[target] = (sizes, np.array(ys))
    return out


def proportion_interval(p: float, n: int, z: float = Z) -> tuple[float, float]:
    """Wilson interval of a share ``p`` observed in ``n`` trials, +- ``z`` standard errors.

    Unlike ``p +- z SE`` it does not collapse to a point at 0 or 1: 0 of 1000 gives
    0 to 0.4 % (z = 2). ``(nan, nan)`` without trials.
    """
    if not n or n <= 0 or p is None or not math.isfinite(p):
        return math.nan, math.nan
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def z_for(parts: int, z: float = Z) -> float:
    """Half-width, in standard errors, of each interval of a claim made of ``parts`` parts.

    Bonferroni's correction: each part's interval misses its true value with the
    ``parts``-th share of the two-sided miss rate of one +- ``z`` interval, so the whole
    claim is as sure as a single interval of +- ``z`` (2 -> 2.84 for 10 parts).
    """
    from scipy.special import ndtr, ndtri

    if parts <= 1:
        return z
    return float(-ndtri(ndtr(-z) / parts))


def normal_interval(x: float, se: float, z: float = Z) -> tuple[float, float]:
    """``x +- z * se`` (a point when ``se`` is 0)."""
    if x is None or not math.isfinite(x):
        return math.nan, math.nan
    se = 0.0 if se is None or not math.isfinite(se) else se
    return x - z * se, x + z * se


def wilson(p: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a binomial share ``p`` of ``n`` trials (about 95 %)."""
    if n <= 0:
        return (math.nan, math.nan)
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def call(p: float, n: int, target: float) -> str:
    """``"below"``, ``"above"`` or ``"undecided"``: the share ``p`` of ``n`` against
    ``target``, by its Wilson interval (undecided when the interval holds the target)."""
    lo, hi = wilson(p, n)
    if hi < target:
        return "below"
    if lo > target:
        return "above"
    return "undecided"


def one_binary_rate(benchmark: str, executions: int, alpha: float = 0.05,
                    binary_var: str = "T") -> float:
    r"""False-alarm rate at 0 % of one binary per system, in closed form from Table tVariations.

    Each system is one binary of ``executions`` executions; the asymptotic interval
    treats the executions as the top level, so its variance estimate ``w`` covers the
    execution means only, while the two binaries add :math:`2\sigma_3^2` to the
    difference. Under the normal model (ratio near 1, delta method)

    .. math:: P = P\big(|t_{2(n_2-1)}| > t_{n_2-1} \sqrt{w / (w + 2\sigma_3^2)}\big),
              \quad w = 2 S_2^2 / n_2,

    with :math:`S_2^2` the variance of execution means and :math:`\sigma_3^2` the
    binary-level variance: :math:`T_3^2 = S_3^2 - S_2^2/n_2` (``binary_var="T"``) or
    :math:`S_3^2` (``"S"``), from the table's relative S (in %).
    """
    from scipy.special import stdtr

    from ..paper import numbers as paper

    s3, s2, _ = (x * x for x in paper.VARIATION_S[benchmark])
    n2 = int(executions)
    b = s3 - s2 / paper.EXECUTIONS if binary_var == "T" else s3
    w = 2.0 * s2 / n2
    from esize import critical_value

    x = critical_value(alpha, n2 - 1) * math.sqrt(w / (w + 2.0 * b))
    return float(2.0 * stdtr(2 * (n2 - 1), -x))


def equal_weight_count(counts) -> int:
    r"""The count of a mean of shares over groups of ``counts`` comparisons each.

    The mean of :math:`S` independent shares of :math:`n_s` trials each has the variance
    :math:`p(1-p)\sum_s (1/n_s) / S^2` when they share :math:`p`: that of one share of
    :math:`S^2 / \sum_s (1/n_s)` trials, the number returned (rounded). Equal counts
    give their total.

    >>> equal_weight_count([1000, 1000, 1000])
    3000
    >>> equal_weight_count([10000, 1000])
    3636
    """
    c = np.asarray(counts, dtype=float)
    return int(round(c.size**2 / np.sum(1.0 / c)))
