"""Percentile intervals from bootstrap replicates, and the result that keeps them.

Part of the hierarchical bootstrap (:mod:`esize._bootstrap`): :class:`BootstrapResult`
is an :class:`~esize.Interval` with its replicates, :func:`percentile_interval` its
limits. The replicate means of each system are in units of the system's own power
of two; :func:`_unscale` and :func:`_ratios` bring them back exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from ._errors import EsizeError
from ._intervals import Interval, _check_alpha

__all__ = ["BootstrapResult", "percentile_interval", "expanded_alpha", "bca_levels",
           "jackknife_acceleration", "INTERVAL_KINDS"]


@dataclass(frozen=True)
class BootstrapResult(Interval):
    """A percentile bootstrap interval together with its replicate distribution.

    The interval fields are those of :class:`~esize.Interval`; like
    :class:`scipy.stats.BootstrapResult`, the result also keeps the replicates.

    Attributes
    ----------
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The replicate statistics (means of one system, or ratios new/old).

    Examples
    --------
    As :func:`~esize.bootstrap_mean_ci` returns it, for four executions:

    >>> import esize as ez
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]],
    ...                 ("execution", "measurement"))
    >>> res = ez.bootstrap_mean_ci(old, scheme="RR", n_resamples=2000, rng=1)
    >>> res.estimate, round(res.lower, 4), round(res.upper, 4), res.method
    (12.5, 11.3333, 13.6667, 'bootstrap-RR')
    >>> res.bootstrap_distribution.shape, res.extra, round(res.standard_error, 4)
    ((2000,), {'resamples': 2000}, 0.6052)
    """

    bootstrap_distribution: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def standard_error(self) -> float:
        """Standard deviation of the bootstrap distribution (ddof = 1)."""
        return float(np.std(cast(np.ndarray, self.bootstrap_distribution), ddof=1))



def _unscale(values, e: int):
    """``values * 2**e`` (exact; ``inf`` or 0 beyond the floats)."""
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(values, e)


def _ratios(mean_old, mean_new, shift: int):
    """``mean_new / mean_old * 2**shift`` of means each in units of its own power of
    two (``shift = e_new - e_old``): exact scaling, ``inf`` or 0 where a ratio is beyond
    the floats."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return _unscale(np.divide(mean_new, mean_old), shift)


def percentile_interval(values, alpha: float) -> tuple[float, float]:
    """Percentile limits: the ``alpha/2`` and ``1 - alpha/2`` sample quantiles.

    Uses the inverse empirical CDF, so with 1000 values and ``alpha = 0.05`` the
    limits are the 25th and 975th ordered values, as in the paper.

    Examples
    --------
    >>> import esize as ez
    >>> ez.percentile_interval(range(1, 1001), 0.05)  # the 25th and 975th values
    (25.0, 975.0)
    >>> ez.percentile_interval([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], 0.2)
    (1.0, 6.0)
    """
    alpha = _check_alpha(alpha)
    lo, hi = np.quantile(values, [alpha / 2.0, 1.0 - alpha / 2.0], method="inverted_cdf")
    return float(lo), float(hi)


def expanded_alpha(alpha: float, n: int) -> float:
    r"""The tail level of Hesterberg's expanded percentile interval for ``n`` units.

    A percentile interval of a mean of :math:`n` resampled units is too narrow for
    two reasons: the bootstrap's variance is :math:`(n-1)/n` of the estimate's, and
    its quantiles are the normal's where Student's t with :math:`n - 1` degrees of
    freedom holds. The expanded percentile interval takes the percentiles at
    :math:`\alpha'/2` and :math:`1 - \alpha'/2` with

    .. math:: \alpha' = 2\,\Phi\Bigl(-\sqrt{n / (n - 1)}\; t_{n-1,\,1-\alpha/2}\Bigr),

    which makes it as wide as the t interval for normal data while keeping the
    percentile interval's shape (Hesterberg, "What teachers should know about the
    bootstrap", The American Statistician 69(4), 2015).

    Examples
    --------
    >>> from esize._percentile import expanded_alpha
    >>> round(expanded_alpha(0.05, 10), 4), round(expanded_alpha(0.05, 100), 4)
    (0.0171, 0.0461)
    """
    from scipy import special

    alpha = _check_alpha(alpha)
    if n < 2:
        raise EsizeError(f"the expanded percentile interval needs 2 or more units, got {n}")
    t = -float(special.stdtrit(n - 1, alpha / 2.0))
    return float(special.erfc(math.sqrt(n / (n - 1)) * t / math.sqrt(2.0)))


#: The kinds of interval a ratio's bootstrap gives (``interval=`` of
#: :func:`~esize.bootstrap_ratio_ci`): the plain percentile interval, Hesterberg's
#: expanded one (:func:`expanded_alpha`) and Efron's BCa (:func:`bca_levels`).
INTERVAL_KINDS = ("percentile", "expanded", "bca")


def interval_kind(interval: str | None, expand: bool) -> str:
    """The interval kind of ``interval=`` and the older ``expand=`` flag together.

    Examples
    --------
    >>> interval_kind(None, False), interval_kind(None, True), interval_kind("bca", False)
    ('percentile', 'expanded', 'bca')
    """
    if interval is None:
        return "expanded" if expand else "percentile"
    if interval not in INTERVAL_KINDS:
        raise EsizeError(f"interval: {interval!r} is not one of {', '.join(INTERVAL_KINDS)}")
    if expand and interval != "expanded":
        raise EsizeError(f"expand=True asks for the expanded interval, interval={interval!r} "
                         "for another; give one of them")
    return interval


def unit_means(z: np.ndarray, scheme: str) -> np.ndarray:
    """The values the BCa's jackknife leaves out one at a time: the means of the
    top-level units (the scheme resamples the top level), or every measurement
    (``FLAT``, which resamples the pooled measurements).

    Examples
    --------
    >>> import numpy as np
    >>> unit_means(np.array([[1.0, 3.0], [5.0, 7.0]]), "RR").tolist()
    [2.0, 6.0]
    >>> unit_means(np.array([[1.0, 3.0], [5.0, 7.0]]), "FLAT").tolist()
    [1.0, 3.0, 5.0, 7.0]
    """
    z = np.asarray(z, dtype=np.float64)
    if scheme == "FLAT":
        return z.ravel()
    if not scheme.startswith("R"):
        raise EsizeError(f"the BCa interval needs the top level resampled (R) or FLAT; "
                         f"scheme {scheme!r} keeps it")
    return z.reshape(z.shape[0], -1).mean(axis=1)


def jackknife_acceleration(old_units, new_units) -> float:
    r"""The BCa's acceleration for the ratio of means new/old, from the jackknife of
    the top-level units of both systems.

    Leaving unit :math:`i` out of the old system (:math:`n_o` units of means
    :math:`u_i`, sum :math:`S_o`) gives the ratio
    :math:`\hat\theta_{o(i)} = \bar n \,(n_o - 1) / (S_o - u_i)`, and leaving unit
    :math:`j` out of the new one :math:`\hat\theta_{n(j)} = (S_n - v_j) / ((n_n - 1)\,
    \bar o)`, in closed form from the unit sums. With the influence values
    :math:`U_{ki} = (n_k - 1)(\hat\theta_{k(\cdot)} - \hat\theta_{k(i)})` of system
    :math:`k`, each scaled by its own unit count :math:`n_k`,

    .. math::

        \hat a = \frac{1}{6}\,
        \frac{\sum_k n_k^{-3} \sum_i U_{ki}^3}{\bigl(\sum_k n_k^{-2} \sum_i U_{ki}^2\bigr)^{3/2}}

    (Efron & Tibshirani 1993, Sections 14.3 and 22; the multi-sample form
    :func:`scipy.stats.bootstrap` uses). A system of one unit has no jackknife and
    adds nothing; with no spread at all :math:`\hat a = 0`. NaN when a leave-one-out
    mean is zero (no ratio).

    Parameters
    ----------
    old_units, new_units : array_like
        The unit means of each system (:func:`unit_means`); any common scale.

    Returns
    -------
    float

    Examples
    --------
    >>> round(jackknife_acceleration([10, 11, 12, 13], [9, 10, 11, 30]), 4)
    0.0904
    >>> jackknife_acceleration([10, 10, 10], [9, 9, 9])
    0.0
    """
    o = np.asarray(old_units, dtype=np.float64).ravel()
    v = np.asarray(new_units, dtype=np.float64).ravel()
    mo, mn = o.mean(), v.mean()
    num = den = 0.0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for units, leave_out in ((o, lambda s, u, n: mn * (n - 1) / (s - u)),
                                 (v, lambda s, u, n: (s - u) / ((n - 1) * mo))):
            n = units.size
            if n < 2:
                continue
            theta = leave_out(units.sum(), units, n)
            u = (n - 1) * (theta.mean() - theta)
            num += float(np.sum(u**3)) / n**3
            den += float(np.sum(u**2)) / n**2
        if not math.isfinite(num + den):
            return math.nan
        if den <= 0.0:
            return 0.0
        return num / (6.0 * den**1.5)


def bca_levels(replicates, estimate: float, acceleration: float, alpha: float
               ) -> tuple[float, float, float]:
    r"""The tail levels of Efron's bias-corrected and accelerated (BCa) interval.

    With :math:`B` replicates :math:`\hat\theta^*_b` of the estimate
    :math:`\hat\theta`, the bias correction is

    .. math:: \hat z_0 = \Phi^{-1}\Bigl(\frac{\#\{\hat\theta^*_b < \hat\theta\}
              + \tfrac12 \#\{\hat\theta^*_b = \hat\theta\}}{B}\Bigr)

    (the share of replicates below the estimate, ties counted half), and with the
    acceleration :math:`\hat a` (:func:`jackknife_acceleration`) the limits are the
    replicates' quantiles at

    .. math:: \alpha_{1,2} = \Phi\Bigl(\hat z_0 + \frac{\hat z_0 + z_{\alpha/2,\,1-\alpha/2}}
              {1 - \hat a\,(\hat z_0 + z_{\alpha/2,\,1-\alpha/2})}\Bigr)

    (Efron, "Better bootstrap confidence intervals", JASA 82, 1987; Efron &
    Tibshirani, *An Introduction to the Bootstrap*, 1993, Section 14.3). With
    :math:`\hat z_0 = \hat a = 0` they are :math:`\alpha/2` and :math:`1 - \alpha/2`
    exactly: the percentile interval.

    Parameters
    ----------
    replicates : array_like
        The bootstrap replicates.
    estimate : float
        The estimate from the data.
    acceleration : float
        :math:`\hat a`.
    alpha : float
        One minus the confidence level.

    Returns
    -------
    (float, float, float)
        The lower and upper tail levels and :math:`\hat z_0`. The levels are NaN when
        the interval is not defined: every replicate on one side of the estimate
        (:math:`\hat z_0` infinite), an undefined acceleration, or
        :math:`1 - \hat a (\hat z_0 + z) \le 0`.

    Examples
    --------
    >>> import numpy as np
    >>> from esize._percentile import bca_levels
    >>> reps = np.arange(1, 1001) / 1000
    >>> bca_levels(reps, 0.5005, 0.0, 0.05)  # half below, no acceleration: percentile
    (0.025, 0.975, 0.0)
    >>> [round(x, 4) for x in bca_levels(reps, 0.6, 0.05, 0.05)]  # shifted and skewed
    [0.0932, 0.9969, 0.2521]
    """
    alpha = _check_alpha(alpha)
    from scipy import special

    r = np.asarray(replicates, dtype=np.float64)
    share = (np.count_nonzero(r < estimate) + np.count_nonzero(r <= estimate)) / (2.0 * r.size)
    z0 = float(special.ndtri(share))
    levels = []
    for tail in (alpha / 2.0, 1.0 - alpha / 2.0):
        z = float(special.ndtri(tail))
        w = z0 + z
        d = 1.0 - acceleration * w
        if not (math.isfinite(w) and math.isfinite(d)) or d <= 0.0:
            levels.append(math.nan)
            continue
        adjusted = z0 + w / d
        levels.append(tail if adjusted == z else float(special.ndtr(adjusted)))
    return levels[0], levels[1], z0


def _bca_limits(replicates: np.ndarray, estimate: float, acceleration: float, alpha: float
                ) -> tuple[float, float, dict]:
    """The BCa limits (infinite when not defined) and what the result records."""
    lo_level, hi_level, z0 = bca_levels(replicates, estimate, acceleration, alpha)
    extra: dict = {"interval": "bca", "z0": z0, "acceleration": acceleration}
    if replicates.size and replicates.min() == replicates.max():
        c = float(replicates[0])  # a point: every quantile is it, whatever z0 says
        extra.update(bca_levels=(alpha / 2.0, 1.0 - alpha / 2.0),
                     bca_note="every replicate is equal: the interval is that value")
        return c, c, extra
    if math.isnan(lo_level) or math.isnan(hi_level):
        extra.update(bca_levels=None,
                     bca_note="not defined (every replicate on one side of the estimate, "
                              "or the acceleration too large): no interval")
        return -math.inf, math.inf, extra
    lo, hi = np.quantile(replicates, [lo_level, hi_level], method="inverted_cdf")
    extra["bca_levels"] = (lo_level, hi_level)
    return float(lo), float(hi), extra


def _result(estimate, replicates, alpha, scheme, n_resamples,
            expand_units: int | None = None, acceleration: float | None = None
            ) -> BootstrapResult:
    """The interval of the replicates: BCa when ``acceleration`` is given, else the
    expanded percentile interval for ``expand_units`` units, else the plain one."""
    extra: dict = {"resamples": int(n_resamples)}
    if acceleration is not None:
        lo, hi, more = _bca_limits(np.asarray(replicates), float(estimate), acceleration,
                                   alpha)
        extra.update(more)
    else:
        tail = alpha if expand_units is None else expanded_alpha(alpha, expand_units)
        lo, hi = percentile_interval(replicates, tail)
        if expand_units is not None:
            extra.update(expanded_alpha=tail, expanded_units=int(expand_units))
    ok = bool(math.isfinite(lo) and math.isfinite(hi))
    return BootstrapResult(
        float(estimate), lo, hi, alpha, f"bootstrap-{scheme}", ok,
        extra=extra, bootstrap_distribution=replicates,
    )

