"""Coverage of the interval for a ratio: exact under the model, and as simulated.

:func:`model_coverage` computes the coverage of Fieller's interval under the
hierarchical normal model of :mod:`esize_study.coverage.model` exactly (quadrature, no
simulation), :func:`two_level_coverage` that of the two-level experiment (one binary,
whose variance the interval leaves out), and :func:`one_sample_coverage` that of a
one-sample interval; :func:`extreme_interval` says where the lowest or highest of a
grid of noisy simulated cells falls when each cell's coverage is known.
:class:`CoverageTable` reads ``coverage.csv`` point by point, and :func:`grid_share`
says how much of the variation over a grid one factor explains.
"""

from __future__ import annotations

import math

import numpy as np

from .rates import equal_weight_count

__all__ = ["relative_variances", "model_coverage", "two_level_coverage", "extreme_interval", "one_sample_coverage",
           "CoverageTable", "grid_share"]


def relative_variances(S2, mean: float) -> tuple[float, float, float]:
    """A benchmark's three :math:`S^2_i` (absolute units, highest level first) over its
    squared grand mean: the variances of the coverage model
    (:class:`esize_study.coverage.model.Model`), in units of the old system's mean.

    >>> relative_variances([4.0, 1.0, 0.25], 2.0)
    (1.0, 0.25, 0.0625)
    """
    from esize import EsizeError

    s = [float(x) for x in S2]
    if len(s) != 3:
        raise EsizeError(f"the coverage model needs three levels of variances, got {len(s)}")
    if not mean > 0 or any(not (x >= 0 and math.isfinite(x)) for x in s):
        raise EsizeError(f"bad variance estimates {s} or mean {mean}")
    return tuple(x / mean**2 for x in s)  # type: ignore[return-value]


def model_coverage(k: int, quantile: float, ratio: float = 0.95, nodes: int = 200,
                   scale: float = 1.0) -> float:
    r"""Exact coverage of Fieller's interval from ``k`` top-level means per system.

    Under the hierarchical normal model with the same variances for both systems,
    each grand mean is normal and its estimated variance is its true variance times
    :math:`X = \chi^2_{k-1}/(k-1)`, whatever the levels below (they enter only
    through the variance of a binary mean). Fieller's set contains the true ratio
    :math:`\theta` exactly when the pivot
    :math:`|\bar N - \theta \bar O| / \sqrt{v_N + \theta^2 v_O}` is at most the
    quantile, so the coverage is

    .. math:: \mathrm{E}\big[2\Phi\big(q\sqrt{(X_N + \theta^2 X_O)/(1+\theta^2)}\big)
              - 1\big],

    computed by generalised Gauss-Laguerre quadrature over both chi-square
    variables (no simulation). With :math:`\theta = 1` the two weights are equal and
    this is :math:`P(|t_{2(k-1)}| \le q)`: the pivot's variance estimate pools both
    systems, so it has about twice the degrees of freedom of one system's.

    Parameters
    ----------
    k : int
        Top-level units (binaries) per system, at least 2.
    quantile : float
        The interval's quantile (the t quantile with ``k - 1`` degrees of freedom for
        the asymptotic method, 1.96 for the normal-quantile one).
    ratio : float
        True ratio new/old.
    nodes : int
        Quadrature nodes per variable.
    scale : float
        The expected variance estimate over the true variance of a grand mean (1 when
        the interval sees every level; less in a two-level experiment, whose estimate
        leaves out the binaries' variance: :func:`two_level_coverage`). It multiplies
        the weight under the square root.

    Returns
    -------
    float
    """
    from scipy.special import gammaln, ndtr, roots_genlaguerre

    nu = int(k) - 1
    if nu < 1:
        raise ValueError("model coverage needs at least 2 units")
    x, w = roots_genlaguerre(nodes, nu / 2 - 1)
    w = w * np.exp(-gammaln(nu / 2))
    xs = 2 * x / nu
    wgt = scale * (xs[:, None] + ratio**2 * xs[None, :]) / (1 + ratio**2)
    return float(np.sum(w[:, None] * w[None, :] * (2 * ndtr(quantile * np.sqrt(wgt)) - 1)))


def two_level_coverage(variances, executions: int, measurements: int, quantile: float,
                       ratio: float = 0.95) -> float:
    r"""Exact coverage of Fieller's interval in the two-level experiment (one binary).

    Each system is one binary, whose effect the truth still draws, with :math:`e`
    executions of :math:`n_1` measurements; the interval uses the :math:`e` execution
    means. Under the model a grand mean has the true variance
    :math:`V = \sigma^2_3 + \sigma^2_2/e + \sigma^2_1/(e n_1)`, while the variance
    estimate has the expectation :math:`w/e` with :math:`w = \sigma^2_2 + \sigma^2_1/n_1`
    and is that times :math:`\chi^2_{e-1}/(e-1)`, so the coverage is
    :func:`model_coverage` with ``k = e`` and ``scale`` :math:`(w/e)/V`.

    Parameters
    ----------
    variances : sequence of 3 floats
        :math:`\sigma^2` of the binary, execution and measurement levels, relative to
        the squared mean (as :class:`esize_study.coverage.model.Model` holds them).
    executions, measurements : int
        The cell's :math:`e \ge 2` and :math:`n_1`.
    quantile : float
        The interval's quantile (the t quantile with ``e - 1`` degrees of freedom for
        the asymptotic method).
    ratio : float
        True ratio new/old.

    Returns
    -------
    float

    Examples
    --------
    Without binary variation the two-level interval is the three-level one:

    >>> from scipy.stats import t
    >>> q = t.ppf(0.975, 4)
    >>> abs(two_level_coverage((0.0, 1e-4, 1e-3), 5, 10, q) - model_coverage(5, q)) < 1e-12
    True
    >>> round(two_level_coverage((1e-4, 1e-4, 1e-3), 5, 10, q), 4) < 0.95
    True
    """
    s3, s2, s1 = (float(v) for v in variances)
    e, n1 = int(executions), int(measurements)
    w = s2 + s1 / n1
    true = s3 + w / e
    return model_coverage(e, quantile, ratio, scale=(w / e) / true if true > 0 else 1.0)


def extreme_interval(shares, n: int, lowest: bool, level: float = 0.95) -> tuple[float, float]:
    r"""Central interval of the lowest (or highest) of independent simulated shares.

    Cell :math:`i` of a grid reports :math:`X_i/n` with :math:`X_i \sim
    \mathrm{Binomial}(n, p_i)`, independent. The lowest of them is at most :math:`x`
    with probability :math:`1 - \prod_i P(X_i/n > x)` (the highest, likewise, at least
    :math:`x` with :math:`1 - \prod_i P(X_i/n < x)`); the interval's ends are its
    :math:`(1 \mp \text{level})/2` quantiles on the lattice :math:`j/n`. It says
    where a figure's printed extreme of noisy cells can lie when every cell's truth is
    known: the extreme of many cells is biased outwards, by about two standard errors
    for a few hundred cells.

    Parameters
    ----------
    shares : sequence of float
        The cells' true shares :math:`p_i`.
    n : int
        Simulated experiments per cell.
    lowest : bool
        The lowest cell (True) or the highest (False).
    level : float
        Probability of the central interval.

    Returns
    -------
    (float, float)

    Examples
    --------
    One cell: the binomial's own central interval.

    >>> extreme_interval([0.95], 10000, lowest=True)
    (0.9457, 0.9542)

    Four hundred cells at 95 % put their lowest well below 95 %:

    >>> lo, hi = extreme_interval([0.95] * 400, 10000, lowest=True)
    >>> hi < 0.945
    True
    """
    from scipy.stats import binom

    p = np.asarray(shares, dtype=float)
    if not lowest:
        lo, hi = extreme_interval(1.0 - p, n, lowest=True, level=level)
        return round(1.0 - hi, 12), round(1.0 - lo, 12)
    # the lowest lies between the lowest cells' far tails: only that window of the
    # lattice is computed (memory bounded whatever n)
    first = int(np.min(binom.ppf(1e-12, n, p)))
    last = int(np.min(binom.ppf(1 - 1e-12, n, p)))
    j = np.arange(first, last + 1)
    # log P(X_i > j) summed over cells: P(min <= j) = 1 - exp(sum)
    log_above = np.zeros(j.size)
    for part in np.array_split(p, max(1, p.size * j.size // 2_000_000)):
        log_above += binom.logsf(j[None, :], n, part[:, None]).sum(axis=0)
    cdf = -np.expm1(log_above)
    tail = (1.0 - level) / 2
    lo = first + int(np.searchsorted(cdf, tail, side="left"))
    hi = first + int(np.searchsorted(cdf, 1.0 - tail, side="left"))
    return lo / n, min(hi, n) / n


def one_sample_coverage(k: int, quantile: float) -> float:
    """Coverage of ``mean +- quantile * SE`` from ``k`` normal values: P(|t_(k-1)| <= q)."""
    from scipy.special import stdtr

    return float(2 * stdtr(int(k) - 1, quantile) - 1)


class CoverageTable:
    """``coverage.csv`` (a DataFrame) read by experiment, method, scheme and point."""

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
        """{benchmark: (coverage, se, experiments)} at ``x == value``."""
        s = self.sel(experiment, method, scheme)
        s = s[s[x] == value]
        return {r.benchmark: (float(r.coverage), float(r.se), int(r.experiments))
                for r in s.itertuples()}

    def pooled(self, experiment, method, scheme, bench, x, values):
        r"""Coverage pooled over the points with ``x`` in ``values``: (coverage, n).

        Every point weighs the same, whatever its count (a refined point has more
        experiments): the mean of the points' coverages, and ``n`` such that one share
        of ``n`` trials has the mean's variance (:func:`~esize_study.estimate.rates.equal_weight_count`); with
        equal counts, the pooled share and the total."""
        s = self.sel(experiment, method, scheme, bench)
        s = s[s[x].isin(list(values))]
        n = s["experiments"].to_numpy(float)
        if n.size == 0 or n.sum() == 0:
            return math.nan, 0
        if n.min() == n.max():
            return float((s["coverage"] * s["experiments"]).sum() / n.sum()), int(n.sum())
        return float(s["coverage"].mean()), equal_weight_count(n)


def grid_share(sel, row: str) -> tuple[float, float]:
    """Share of the cells' variance explained by ``row`` and the residual SD."""
    cov = sel["coverage"].to_numpy()
    if cov.size < 3 or np.var(cov) == 0:
        return math.nan, math.nan
    means = sel.groupby(row)["coverage"].transform("mean").to_numpy()
    resid = cov - means
    return 1.0 - np.var(resid) / np.var(cov), float(np.sqrt(np.mean(resid**2)))
