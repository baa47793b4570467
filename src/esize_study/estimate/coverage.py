"""Coverage of the interval for a ratio: exact under the model, and as simulated.

:func:`model_coverage` computes the coverage of Fieller's interval under the
hierarchical normal model of :mod:`esize_study.coverage.model` exactly (quadrature, no
simulation); :func:`one_sample_coverage` that of a one-sample interval.
:class:`CoverageTable` reads ``coverage.csv`` point by point, and :func:`grid_share`
says how much of the variation over a grid one factor explains.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["model_coverage", "one_sample_coverage", "CoverageTable", "grid_share"]


def model_coverage(k: int, quantile: float, ratio: float = 0.95, nodes: int = 200) -> float:
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
    wgt = (xs[:, None] + ratio**2 * xs[None, :]) / (1 + ratio**2)
    return float(np.sum(w[:, None] * w[None, :] * (2 * ndtr(quantile * np.sqrt(wgt)) - 1)))


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
        """Coverage pooled over the points with ``x`` in ``values``: (coverage, n)."""
        s = self.sel(experiment, method, scheme, bench)
        s = s[s[x].isin(list(values))]
        n = int(s["experiments"].sum())
        return (float((s["coverage"] * s["experiments"]).sum() / n), n) if n else (math.nan, 0)


def grid_share(sel, row: str) -> tuple[float, float]:
    """Share of the cells' variance explained by ``row`` and the residual SD."""
    cov = sel["coverage"].to_numpy()
    if cov.size < 3 or np.var(cov) == 0:
        return math.nan, math.nan
    means = sel.groupby(row)["coverage"].transform("mean").to_numpy()
    resid = cov - means
    return 1.0 - np.var(resid) / np.var(cov), float(np.sqrt(np.mean(resid**2)))
