r"""Parametric confidence intervals: the mean of one system, the ratio of two.

The mean interval is the asymptotic interval of the paper's Section "Confidence
Interval for the Mean of One System"; the ratio interval is Fieller's, from Section
"Confidence Interval for Ratio of Means", for independent systems, with the delta
method as a second parametric route.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ._design import Design
from ._errors import EsizeError
from ._estimators import mean_variance

__all__ = [
    "Interval",
    "critical_value",
    "mean_ci",
    "fieller",
    "fieller_ci",
    "delta_ratio",
    "delta_ci",
]


@dataclass(frozen=True)
class Interval:
    r"""A confidence interval around a point estimate.

    Attributes
    ----------
    estimate : float
        Point estimate (a mean, or the ratio new/old of two means).
    lower, upper : float
        Confidence limits; ``-inf``/``inf`` when the interval is unbounded.
    alpha : float
        One minus the confidence level.
    method : str
        ``"t"``, ``"normal"``, ``"fieller-t"``, ``"fieller-normal"``, ``"delta-t"``,
        ``"delta-normal"`` or ``"bootstrap-<scheme>"``.
    bounded : bool
        False when the method could not give a finite interval (Fieller's condition
        :math:`t^2 < \overline{X}^2 / v_{xx}` failed); then the limits are infinite.
    """

    estimate: float
    lower: float
    upper: float
    alpha: float
    method: str
    bounded: bool = True
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def half_width(self) -> float:
        return (self.upper - self.lower) / 2.0

    def contains(self, value: float) -> bool:
        return bool(self.lower <= value <= self.upper)

    def as_dict(self) -> dict:
        """JSON-ready form; infinite limits become ``None``."""

        def fin(x: float):
            return float(x) if math.isfinite(x) else None

        out = {
            "estimate": fin(self.estimate),
            "lower": fin(self.lower),
            "upper": fin(self.upper),
            "alpha": self.alpha,
            "method": self.method,
            "bounded": self.bounded,
        }
        out.update(self.extra)
        return out


def _check_alpha(alpha: float) -> float:
    alpha = float(alpha)
    if not 0.0 < alpha < 1.0:
        raise EsizeError(f"alpha must lie in (0, 1), got {alpha}")
    return alpha


def critical_value(alpha: float, df: float | None = None) -> float:
    r"""Two-sided critical value :math:`q_{1-\alpha/2}`.

    Student's t with ``df`` degrees of freedom, or the standard normal when ``df``
    is ``None``. The quantiles come from :func:`scipy.special.stdtrit` and
    :func:`scipy.special.ndtri` (the functions behind ``scipy.stats.t.ppf`` and
    ``scipy.stats.norm.ppf``, without importing all of ``scipy.stats``). For the usual
    levels (``alpha`` of 0.1, 0.05 or 0.01) and whole ``df`` up to 400 they are read
    from a table of those same values made once, which spares the import of
    ``scipy.special`` (see :mod:`esize._qtable`).
    """
    alpha = _check_alpha(alpha)
    if df is not None and df < 1:
        raise EsizeError(f"the t quantile needs at least 1 degree of freedom, got {df}")
    tabled = _tabled_quantile(alpha, df)
    if tabled is not None:
        return tabled
    from scipy.special import ndtri, stdtrit  # here, so that `import esize` stays light

    if df is None:
        return float(ndtri(1.0 - alpha / 2.0))
    return float(stdtrit(df, 1.0 - alpha / 2.0))


def _tabled_quantile(alpha: float, df: float | None) -> float | None:
    from ._qtable import MAX_DF, NORMAL, STUDENT_T

    if alpha not in NORMAL:
        return None
    if df is None:
        return NORMAL[alpha]
    if float(df).is_integer() and df <= MAX_DF:
        return STUDENT_T[alpha][int(df) - 1]
    return None


def _quantile(alpha: float, n_top: int, normal: bool) -> float:
    return critical_value(alpha, None if normal else n_top - 1)


def mean_ci(data, *, alpha: float = 0.05, normal: bool = False) -> Interval:
    r"""Confidence interval for the mean of one system (asymptotic interval).

    .. math::

        \overline{Y} \pm q_{1-\alpha/2} \sqrt{S_{n+1}^2 / n_{n+1}}

    where :math:`q` is Student's t quantile with :math:`n_{n+1}-1` degrees of freedom
    (the default, conservative choice) or the standard normal quantile.

    Parameters
    ----------
    data : Design or array_like
        Balanced data, highest level on axis 0 (two or more top-level units).
    alpha : float
        One minus the confidence level.
    normal : bool
        Use the normal instead of the t quantile.
    """
    y = data.data if isinstance(data, Design) else np.asarray(data, dtype=np.float64)
    m = float(y.mean())
    v = mean_variance(y)
    q = _quantile(alpha, y.shape[0], normal)
    h = q * math.sqrt(v)
    return Interval(m, m - h, m + h, alpha, "normal" if normal else "t")


def fieller(
    mean_old: float,
    var_old: float,
    mean_new: float,
    var_new: float,
    q: float,
    cov: float = 0.0,
) -> tuple[float, float, bool]:
    r"""Fieller's confidence limits for ``mean_new / mean_old`` (vectorised).

    .. math::

        \frac{(xy - q^2 v_{xy}) \mp \sqrt{(xy - q^2 v_{xy})^2
              - (x^2 - q^2 v_{xx})(y^2 - q^2 v_{yy})}}{x^2 - q^2 v_{xx}}

    with :math:`x` the old (denominator) mean, :math:`y` the new mean, and
    :math:`v` the variances of the *means*.

    Parameters
    ----------
    mean_old, var_old, mean_new, var_new : float or array_like
        Means and variances of the means; arrays broadcast.
    q : float or array_like
        Critical value (t or normal quantile).
    cov : float or array_like
        Covariance of the two means (0 for independent systems).

    Returns
    -------
    lower, upper, bounded
        Where Fieller's condition :math:`q^2 < x^2 / v_{xx}` fails (the old mean is
        not distinguishable from zero), ``bounded`` is False and the limits are
        ``-inf`` and ``inf``: the confidence set is then not a finite interval.
    """
    x = np.asarray(mean_old, dtype=np.float64)
    y = np.asarray(mean_new, dtype=np.float64)
    vxx = np.asarray(var_old, dtype=np.float64)
    vyy = np.asarray(var_new, dtype=np.float64)
    q2 = np.asarray(q, dtype=np.float64) ** 2
    b = x * y - q2 * cov
    a = x * x - q2 * vxx
    c = y * y - q2 * vyy
    disc = b * b - a * c
    bounded = (a > 0) & (disc >= 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        # roots of a r^2 - 2 b r + c = 0 without cancellation: w / a and c / w
        root = np.sqrt(np.where(bounded, disc, 0.0))
        w = b + np.where(b >= 0, root, -root)
        safe_a = np.where(bounded, a, 1.0)
        r1 = w / safe_a
        r2 = np.where(w != 0, c / np.where(w != 0, w, 1.0), 0.0)
        lower = np.where(bounded, np.minimum(r1, r2), -np.inf)
        upper = np.where(bounded, np.maximum(r1, r2), np.inf)
    if lower.ndim == 0:
        return float(lower), float(upper), bool(bounded)
    return lower, upper, bounded


def _pair_stats(old, new):
    yo = old.data if isinstance(old, Design) else np.asarray(old, dtype=np.float64)
    yn = new.data if isinstance(new, Design) else np.asarray(new, dtype=np.float64)
    if yo.shape[0] != yn.shape[0]:
        raise EsizeError(
            f"the two systems have {yo.shape[0]} and {yn.shape[0]} top-level units; "
            "the parametric ratio intervals need the same number"
        )
    return float(yo.mean()), mean_variance(yo), float(yn.mean()), mean_variance(yn), yo.shape[0]


def fieller_ci(old, new, *, alpha: float = 0.05, normal: bool = False) -> Interval:
    r"""Fieller's confidence interval for the ratio new/old (Fieller's theorem).

    The systems are independent (:math:`v_{xy}=0`); the variance of each mean is
    :math:`S_{n+1}^2/n_{n+1}` and the quantile is Student's t with
    :math:`n_{n+1}-1` degrees of freedom, or the normal quantile if ``normal``.

    Returns
    -------
    Interval
        ``bounded`` is False (and the limits infinite) when the old system's mean
        is not significantly different from zero at level ``alpha``.
    """
    mo, vo, mn, vn, n_top = _pair_stats(old, new)
    q = _quantile(alpha, n_top, normal)
    lo, hi, ok = fieller(mo, vo, mn, vn, q)
    return Interval(mn / mo, lo, hi, alpha, "fieller-normal" if normal else "fieller-t", ok)


def delta_ratio(mean_old, var_old, mean_new, var_new, q):
    r"""Delta-method limits for ``mean_new / mean_old`` (vectorised).

    .. math::

        r \pm q\, |r| \sqrt{\frac{v_{yy}}{y^2} + \frac{v_{xx}}{x^2}},
        \qquad r = y / x
    """
    x = np.asarray(mean_old, dtype=np.float64)
    y = np.asarray(mean_new, dtype=np.float64)
    r = y / x
    se = np.abs(r) * np.sqrt(np.asarray(var_new) / y**2 + np.asarray(var_old) / x**2)
    return r - q * se, r + q * se


def delta_ci(old, new, *, alpha: float = 0.05, normal: bool = False) -> Interval:
    """Delta-method confidence interval for the ratio new/old (a second parametric route)."""
    mo, vo, mn, vn, n_top = _pair_stats(old, new)
    q = _quantile(alpha, n_top, normal)
    lo, hi = delta_ratio(mo, vo, mn, vn, q)
    return Interval(mn / mo, float(lo), float(hi), alpha, "delta-normal" if normal else "delta-t")
