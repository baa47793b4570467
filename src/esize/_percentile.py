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

__all__ = ["BootstrapResult", "percentile_interval", "expanded_alpha"]


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


def _result(estimate, replicates, alpha, scheme, n_resamples,
            expand_units: int | None = None) -> BootstrapResult:
    tail = alpha if expand_units is None else expanded_alpha(alpha, expand_units)
    lo, hi = percentile_interval(replicates, tail)
    ok = bool(math.isfinite(lo) and math.isfinite(hi))
    extra: dict = {"resamples": int(n_resamples)}
    if expand_units is not None:
        extra.update(expanded_alpha=tail, expanded_units=int(expand_units))
    return BootstrapResult(
        float(estimate), lo, hi, alpha, f"bootstrap-{scheme}", ok,
        extra=extra, bootstrap_distribution=replicates,
    )

