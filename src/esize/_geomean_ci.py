r"""The parametric interval of the geometric mean of a suite's ratios: a t (or
normal) interval on the logarithms of the ratios, each benchmark's variance by the
delta method and the degrees of freedom by Welch-Satterthwaite
(:func:`geometric_mean_limits`, :func:`geometric_mean_ratio_parametric`).
Re-exported by :mod:`esize._intervals`.
"""

from __future__ import annotations

import math

import numpy as np

from ._errors import EsizeError
from ._estimators import mean_and_variance
from ._mean_ci import Interval, _array, _check_alpha, critical_value
from ._ratio_ci import _log_ratio

__all__ = ["geometric_mean_limits", "geometric_mean_ratio_parametric"]


def geometric_mean_limits(log_ratios, rel_var_old, rel_var_new, df_old, df_new, *,
                          alpha: float = 0.05, normal: bool = False):
    r"""Confidence limits for the geometric mean of ratios, on the log scale (vectorised).

    For benchmarks :math:`k = 1 \dots K` with log ratios :math:`\ell_k = \log r_k`,
    the log of the geometric mean is their average :math:`L = \frac1K \sum_k \ell_k`.
    By the delta method :math:`\operatorname{var}(\log \overline{Y}) \approx
    \operatorname{var}(\overline{Y}) / \overline{Y}^2`, so with independent systems

    .. math::

        \widehat{\operatorname{var}}(L) = \frac{1}{K^2} \sum_{k=1}^{K}
            \left(w^{old}_k + w^{new}_k\right), \qquad
        w = \frac{S_{n+1}^2}{n_{n+1} \overline{Y}^2},

    and the limits are :math:`\exp(L \mp q\, \widehat{\operatorname{se}}(L))`. The
    quantile is Student's t with the Welch-Satterthwaite degrees of freedom of the
    :math:`2K` independent terms,

    .. math:: \nu = \frac{\left(\sum_j w_j\right)^2}{\sum_j w_j^2 / \nu_j},
              \qquad \nu_j = n_{n+1,j} - 1,

    or the normal quantile if ``normal``.

    Each :math:`w_j` is (under the normal model) a scaled :math:`\chi^2_{\nu_j} /
    \nu_j`; Satterthwaite matches the first two moments of their sum to one scaled
    :math:`\chi^2_\nu`. The result lies between the smallest :math:`\nu_j` (one term
    dominates: the pivot is then nearly :math:`t_{\nu_j}`, and the sum of the
    :math:`\nu_j` would be far too optimistic, 84 % coverage instead of 95 % in a
    simulated 3-benchmark suite of 3 units per system) and their sum (all terms
    alike: the sum is then exact, and the smallest :math:`\nu_j` far too
    conservative, 99.95 % instead of 95 %). Welch's :math:`\nu` stays within about
    1 % of the nominal level in both cases (it is slightly conservative when the
    terms are alike, because it is itself estimated).

    Parameters
    ----------
    log_ratios : array_like, shape (..., K)
        :math:`\ell_k`, benchmarks on the last axis.
    rel_var_old, rel_var_new : array_like, shape (..., K)
        :math:`w` of each benchmark's old and new system (variance of the mean over
        the squared mean).
    df_old, df_new : array_like, shape (..., K)
        Their degrees of freedom :math:`n_{n+1} - 1` (at least 1).
    alpha : float
        One minus the confidence level.
    normal : bool
        Use the normal quantile.

    Returns
    -------
    estimate, lower, upper, df : ndarray of shape (...)
        The geometric mean, its limits and the degrees of freedom (``inf`` with
        ``normal``; the sum of the :math:`\nu_j` when every :math:`w_j` is zero, in
        which case the interval is the point ``[estimate, estimate]``).

    Examples
    --------
    Two benchmarks with ratios 0.9 and 0.8, every relative variance :math:`10^{-4}`,
    five units per system:

    >>> import math
    >>> import esize as ez
    >>> est, lower, upper, df = ez.geometric_mean_limits(
    ...     [math.log(0.9), math.log(0.8)], [1e-4, 1e-4], [1e-4, 1e-4], [4, 4], [4, 4])
    >>> round(float(est), 4), round(float(lower), 4), round(float(upper), 4), float(df)
    (0.8485, 0.8307, 0.8667, 16.0)
    """
    alpha = _check_alpha(alpha)
    ell, wo, wn, no, nn = np.broadcast_arrays(
        *(np.asarray(v, dtype=np.float64) for v in (log_ratios, rel_var_old, rel_var_new,
                                                    df_old, df_new))
    )
    if ell.ndim == 0 or ell.shape[-1] == 0:
        raise EsizeError("the geometric mean needs at least one benchmark")
    if not (np.all(no >= 1) and np.all(nn >= 1)):
        raise EsizeError("every system needs at least 1 degree of freedom (2 top-level units)")
    k = ell.shape[-1]
    centre = ell.mean(axis=-1)
    total = (wo + wn).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        uo, un = wo / total[..., None], wn / total[..., None]  # shares: no under/overflow
        df = 1.0 / (uo * uo / no + un * un / nn).sum(axis=-1)
    df = np.where(total > 0, df, (no + nn).sum(axis=-1))
    q: float | np.ndarray
    if normal:
        q = critical_value(alpha)
        df = np.full(df.shape, np.inf)
    else:
        q = _t_quantiles(alpha, df)
    h = q * np.sqrt(total) / k
    with np.errstate(over="ignore"):
        return np.exp(centre), np.exp(centre - h), np.exp(centre + h), df


def _t_quantiles(alpha: float, df: np.ndarray) -> np.ndarray:
    """``critical_value(alpha, df)`` for an array of (not necessarily whole) ``df``."""
    if df.ndim == 0:
        return np.asarray(critical_value(alpha, float(df)))
    from scipy.special import stdtrit

    q = stdtrit(df, 1.0 - alpha / 2.0) if alpha >= 1e-6 else -stdtrit(df, alpha / 2.0)
    if not np.all(np.isfinite(q)):
        raise EsizeError(
            f"alpha {alpha:g} is too small: a t quantile at 1 - alpha/2 is beyond the "
            "largest float"
        )
    return q


def geometric_mean_ratio_parametric(pairs, *, alpha: float = 0.05, normal: bool = False,
                                    invert=None) -> Interval:
    r"""Parametric confidence interval for the geometric mean of a suite's ratios.

    The companion of :func:`esize.geometric_mean_ratio_ci` that does not rest on the
    bootstrap: the t interval (normal with ``normal``) for the mean of the log
    ratios, each benchmark's variance by the delta method and the degrees of freedom
    by Welch-Satterthwaite, as :func:`geometric_mean_limits` explains.

    Parameters
    ----------
    pairs : sequence of (old, new)
        One pair of designs (or arrays) per benchmark; each system needs two or more
        top-level units and a positive mean. The two systems of a benchmark may have
        different numbers of units.
    alpha : float
        One minus the confidence level.
    normal : bool
        Use the normal quantile instead of Student's t.
    invert : sequence of bool, optional
        Benchmarks whose ratio enters the geometric mean as old/new (rates among
        times); their log ratio changes sign, its variance does not.

    Returns
    -------
    Interval
        Method ``"log-t"`` or ``"log-normal"``; ``extra`` holds ``df`` (the
        Welch-Satterthwaite degrees of freedom, None for the normal quantile) and
        ``log_se`` (the standard error of the log of the geometric mean).

    Raises
    ------
    DesignError
        A system with fewer than two top-level units.
    EsizeError
        No benchmark, a non-positive mean, or ``invert`` of the wrong length.

    Examples
    --------
    A suite of two benchmarks: one 14 % faster, one unchanged:

    >>> import esize as ez
    >>> levels = ("execution", "measurement")
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]], levels)
    >>> new = ez.Design([[9, 10, 11], [10, 11, 12], [9, 10, 11], [11, 12, 13]], levels)
    >>> ci = ez.geometric_mean_ratio_parametric([(old, new), (old, old)])
    >>> round(ci.estimate, 4), round(ci.lower, 4), round(ci.upper, 4), ci.method
    (0.9274, 0.8316, 1.0342, 'log-t')
    >>> round(ci.estimate ** 2, 4)  # the geometric mean of 0.86 and 1
    0.86
    """
    pairs = list(pairs)
    if not pairs:
        raise EsizeError("a suite needs at least one benchmark")
    inv = [False] * len(pairs) if invert is None else [bool(v) for v in invert]
    if len(inv) != len(pairs):
        raise EsizeError(f"{len(inv)} invert flags for {len(pairs)} benchmarks")
    stats = np.empty((5, len(pairs)))
    for j, ((old, new), flip) in enumerate(zip(pairs, inv)):
        yo, yn = _array(old), _array(new)
        mo, vo, eo = mean_and_variance(yo)  # each system on its own scale
        mn, vn, en = mean_and_variance(yn)
        if not (mo > 0 and mn > 0):
            raise EsizeError("the geometric mean needs positive ratios (positive measurements)")
        log_ratio = _log_ratio(mo, mn, en - eo)
        stats[:, j] = (-log_ratio if flip else log_ratio, vo / (mo * mo), vn / (mn * mn),
                       yo.shape[0] - 1, yn.shape[0] - 1)
    est, lo, hi, df = geometric_mean_limits(*stats, alpha=alpha, normal=normal)
    k = len(pairs)
    log_se = math.sqrt(float(stats[1].sum() + stats[2].sum())) / k
    lo, hi = float(lo), float(hi)
    return Interval(
        float(est), lo, hi, float(alpha), "log-normal" if normal else "log-t",
        bool(math.isfinite(hi) and lo > 0),
        extra={"df": None if normal else float(df), "log_se": log_se},
    )
