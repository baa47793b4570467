r"""The :class:`Interval` every parametric interval returns, the critical values
(Student's t and normal quantiles) they use, and the t/normal interval of the mean of
one system (:func:`mean_ci`); the exact power-of-two scaling the intervals share
(``_shifted``) lives here too. Re-exported by :mod:`esize._intervals`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ._design import Design
from ._errors import EsizeError
from ._estimators import mean_and_variance

__all__ = ["Interval", "critical_value", "mean_ci"]


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
        ``"delta-normal"``, ``"log-t"``, ``"log-normal"`` (a suite's geometric mean)
        or ``"bootstrap-<scheme>"``.
    bounded : bool
        False when the method could not give a finite interval (Fieller's condition
        :math:`t^2 < \overline{X}^2 / v_{xx}` failed); then the limits are infinite.

    Examples
    --------
    >>> import esize as ez
    >>> iv = ez.Interval(1.0, 0.9, 1.1, 0.05, "t")
    >>> round(iv.half_width, 4), iv.contains(1.05), iv.contains(1.2)
    (0.1, True, False)
    >>> ez.Interval(1.0, -float("inf"), float("inf"), 0.05, "fieller-t", False).as_dict()
    {'estimate': 1.0, 'lower': None, 'upper': None, 'alpha': 0.05, 'method': 'fieller-t', 'bounded': False}
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
        return self.upper / 2.0 - self.lower / 2.0  # no overflow for finite limits

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
    ``scipy.stats.norm.ppf``, without importing all of ``scipy.stats``); for ``alpha``
    below :math:`10^{-6}` they are evaluated in the lower tail, as
    :math:`-q_{\alpha/2}`, because :math:`1 - \alpha/2` loses the digits of a small
    ``alpha`` (and is exactly 1 below about :math:`10^{-16}`). For the usual
    levels (``alpha`` of 0.1, 0.05 or 0.01) and whole ``df`` up to 400 they are read
    from a table of those same values made once, and for any other ``alpha`` down to
    :math:`10^{-12}` and any real ``df`` they are computed without scipy
    (:mod:`esize._tdist`, equal to scipy's to about :math:`10^{-13}`): a comparison
    never pays for the import of ``scipy.special`` (see :mod:`esize._qtable`).

    Raises
    ------
    EsizeError
        ``alpha`` outside (0, 1), ``df`` below 1, or a quantile beyond the largest
        float (``alpha`` of about :math:`10^{-308}` or less).

    Examples
    --------
    >>> import esize as ez
    >>> round(ez.critical_value(0.05), 4)  # the normal quantile
    1.96
    >>> round(ez.critical_value(0.05, df=4), 4), round(ez.critical_value(0.01, df=10), 4)
    (2.7764, 3.1693)
    """
    alpha = _check_alpha(alpha)
    if df is not None and not df >= 1:
        raise EsizeError(f"the t quantile needs at least 1 degree of freedom, got {df}")
    tabled = _tabled_quantile(alpha, df)
    if tabled is not None:
        return tabled
    if alpha >= 1e-12:  # any df, computed without scipy (esize._tdist)
        from ._tdist import normal_quantile, t_quantile

        p = 1.0 - alpha / 2.0 if alpha >= 1e-6 else alpha / 2.0
        q = normal_quantile(p) if df is None else t_quantile(p, float(df))
        return q if alpha >= 1e-6 else -q
    from scipy.special import ndtri, stdtrit  # here, so that `import esize` stays light

    if alpha >= 1e-6:
        p = 1.0 - alpha / 2.0
        q = float(ndtri(p)) if df is None else float(stdtrit(df, p))
    else:
        q = -float(ndtri(alpha / 2.0)) if df is None else -float(stdtrit(df, alpha / 2.0))
        if df is not None and not (math.isfinite(q) and q > 0):
            q = _t_tail_quantile(alpha / 2.0, float(df))
    if not math.isfinite(q):
        which = "normal" if df is None else f"t ({df:g} degrees of freedom)"
        raise EsizeError(
            f"alpha {alpha:g} is too small: the {which} quantile at 1 - alpha/2 is "
            "beyond the largest float"
        )
    return q


def _t_tail_quantile(p: float, df: float) -> float:
    r"""The upper ``p`` quantile of Student's t far in its tail, where
    :func:`scipy.special.stdtrit` gives up: :math:`P(T > t) \approx c_\nu t^{-\nu}`
    with :math:`c_\nu = \Gamma(\frac{\nu+1}{2}) \nu^{\nu/2 - 1} / (\sqrt\pi
    \Gamma(\frac\nu2))`, solved in logarithms (``inf`` beyond the largest float)."""
    log_c = (math.lgamma((df + 1) / 2) + (df / 2 - 1) * math.log(df)
             - 0.5 * math.log(math.pi) - math.lgamma(df / 2))
    log_q = (log_c - math.log(p)) / df
    return math.exp(log_q) if log_q < 709.0 else math.inf


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


def _array(data) -> np.ndarray:
    return data.data if isinstance(data, Design) else np.asarray(data, dtype=np.float64)


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

    Notes
    -----
    Computed in units of a power of two (exact), so the limits are those of the
    data's own unit at any magnitude. Constant data give the point interval
    :math:`[\overline{Y}, \overline{Y}]`.

    Examples
    --------
    Four executions of three measurements, execution means 11, 13, 12 and 14:

    >>> import esize as ez
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]],
    ...                 ("execution", "measurement"))
    >>> ci = ez.mean_ci(old)
    >>> ci.estimate, round(ci.lower, 4), round(ci.upper, 4), ci.method
    (12.5, 10.4457, 14.5543, 't')
    >>> ci = ez.mean_ci(old, normal=True)  # narrower: the normal quantile
    >>> round(ci.lower, 4), round(ci.upper, 4)
    (11.2348, 13.7652)
    """
    y = _array(data)
    m, v, e = mean_and_variance(y)
    q = _quantile(alpha, y.shape[0], normal)
    h = q * math.sqrt(v)
    return Interval(
        _shifted(m, e), _shifted(m - h, e), _shifted(m + h, e), alpha,
        "normal" if normal else "t",
        extra={"relative_half_width": h / m if m else math.inf},
    )


def _ldexp(x: float, k: int) -> float:
    """``x * 2**k`` on floats as :func:`numpy.ldexp` gives it: exact, rounded into
    the subnormals, and infinite (not an error) beyond the largest float."""
    try:
        return math.ldexp(x, k)
    except OverflowError:
        return math.copysign(math.inf, x)


def _shifted(x: float, shift: int) -> float:
    """``x * 2**shift`` (exact; ``inf`` or 0 beyond the floats: a limit next to the
    largest double is unbounded, not an error)."""
    return _ldexp(float(x), int(shift))
