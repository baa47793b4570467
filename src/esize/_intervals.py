r"""Parametric confidence intervals: the mean of one system, the ratio of two, and
the geometric mean of a suite's ratios.

The mean interval is the asymptotic interval of the paper's Section "Confidence
Interval for the Mean of One System"; the ratio interval is Fieller's, from Section
"Confidence Interval for Ratio of Means", for independent systems, with the delta
method as a second parametric route. The suite's interval works on the logarithms
of the ratios (:func:`geometric_mean_ratio_parametric`).

Every function computes in units of a power of two that brings the data near 1
(see :mod:`esize._estimators`), so that no result depends on the unit of measure;
variances that are zero up to rounding are exactly zero, and two constant systems
have a point interval at their exact ratio. The two systems of a ratio each have
their own power of two: their means and variances meet only as relative quantities
(the ratio of the scaled means, relative variances :math:`v / \overline{Y}^2`), and
the ratio's power of two, :math:`2^{e_{new} - e_{old}}`, is applied last (exactly).
Scaling one system by any factor therefore scales the ratio and its limits by that
factor, from :math:`10^{-300}` to :math:`10^{300}`, until the ratio itself leaves
the range of floats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ._design import Design
from ._errors import DesignError, EsizeError
from ._estimators import mean_and_variance

__all__ = [
    "Interval",
    "critical_value",
    "mean_ci",
    "fieller",
    "fieller_ci",
    "delta_ratio",
    "delta_ci",
    "welch_df",
    "ratio_df",
    "ratio_df_rule",
    "DfRule",
    "check_ratio_range",
    "geometric_mean_limits",
    "geometric_mean_ratio_parametric",
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
        ``"delta-normal"``, ``"log-t"``, ``"log-normal"`` (a suite's geometric mean)
        or ``"bootstrap-<scheme>"``.
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


def fieller(
    mean_old: float,
    var_old: float,
    mean_new: float,
    var_new: float,
    q: float,
    cov: float = 0.0,
) -> tuple[float, float, bool]:
    r"""Fieller's confidence limits for ``mean_new / mean_old`` (vectorised).

    The limits are the roots :math:`\rho` of
    :math:`(y - \rho x)^2 = q^2 (v_{yy} - 2 \rho v_{xy} + \rho^2 v_{xx})`,

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
        Where Fieller's condition :math:`q^2 v_{xx} < x^2` fails (the old mean is
        not distinguishable from zero), ``bounded`` is False and the limits are
        ``-inf`` and ``inf``: the confidence set is then not a finite interval.

    Notes
    -----
    The formula above loses every digit when the variances are small next to the
    squared means (its square root is the difference of two nearly equal squares),
    and overflows when the means are beyond :math:`10^{154}`. The limits are
    computed instead as :math:`r + d` around :math:`r = y / x`, where the shift
    :math:`d` solves

    .. math::

        a d^2 - 2 b d - c = 0, \qquad a = x^2 - q^2 v_{xx}, \quad
        b = q^2 (v_{xx} r - v_{xy}), \quad c = q^2 (v_{xx} r^2 - 2 v_{xy} r + v_{yy}),

    whose discriminant :math:`b^2 + a c` is a sum of non-negative terms for
    independent systems; the two roots are :math:`w / a` and :math:`-c / w` with
    :math:`w = b \pm \sqrt{b^2 + a c}` (the sign of :math:`b`). Each system is
    first divided by its own power of two :math:`2^{e}` (exact), the one that brings
    the larger of :math:`|\overline{Y}|` and :math:`\sqrt{v}` into [1/2, 1), and the
    limits are multiplied by :math:`2^{e_{new} - e_{old}}` at the end; every step
    is homogeneous in those powers of two, so the limits are those of the unscaled
    formula bit for bit at ordinary magnitudes, and one system may be
    :math:`10^{\pm 300}` times the other. Zero variances give the point
    :math:`[r, r]` exactly; :math:`a` is formed as
    :math:`(|x| - q\sqrt{v_{xx}})(|x| + q\sqrt{v_{xx}})`, so a huge ``q`` (a tiny
    ``alpha``) is no overflow either.
    """
    x, vxx, y, vyy, qq, vxy = np.broadcast_arrays(
        *(np.asarray(v, dtype=np.float64) for v in (mean_old, var_old, mean_new, var_new, q, cov))
    )
    with np.errstate(all="ignore"):
        ex, ey = _system_exponent(x, vxx), _system_exponent(y, vyy)
        x, y = np.ldexp(x, -ex), np.ldexp(y, -ey)
        vxx, vyy, vxy = np.ldexp(vxx, -2 * ex), np.ldexp(vyy, -2 * ey), np.ldexp(vxy, -(ex + ey))
        ax = np.abs(x)
        qsx, qsy = qq * np.sqrt(vxx), qq * np.sqrt(vyy)
        bounded = qsx < ax  # Fieller's condition q^2 v_xx < x^2
        a = (ax - qsx) * (ax + qsx)
        r = y / np.where(bounded, x, 1.0)
        q2vxy = np.where(vxy == 0, 0.0, qq * qq * vxy)
        b = qsx * qsx * r - q2vxy
        c = np.maximum((qsx * r) ** 2 - 2.0 * q2vxy * r + qsy * qsy, 0.0)
        root = np.sqrt(np.maximum(b * b + a * c, 0.0))
        w = b + np.where(b >= 0, root, -root)
        d1 = w / np.where(bounded, a, 1.0)
        d2 = np.where(w != 0, -c / np.where(w != 0, w, 1.0), 0.0)
        lower = np.ldexp(r + np.minimum(d1, d2), ey - ex)  # the ratio's power of two
        upper = np.ldexp(r + np.maximum(d1, d2), ey - ex)
        bounded = bounded & np.isfinite(lower) & np.isfinite(upper)
        lower = np.where(bounded, lower, -np.inf)
        upper = np.where(bounded, upper, np.inf)
    if lower.ndim == 0:
        return float(lower), float(upper), bool(bounded)
    return lower, upper, bounded


def _ldexp(x: float, k: int) -> float:
    """``x * 2**k`` on floats as :func:`numpy.ldexp` gives it: exact, rounded into
    the subnormals, and infinite (not an error) beyond the largest float."""
    try:
        return math.ldexp(x, k)
    except OverflowError:
        return math.copysign(math.inf, x)


def _fieller_scalar(x: float, vxx: float, y: float, vyy: float,
                    q: float) -> tuple[float, float, bool] | None:
    """:func:`fieller` for one pair of independent systems (``cov`` 0), on Python floats.

    The same operations in the same order, each correctly rounded as numpy's are (the
    square as ``pow``, as numpy's scalars take it), so the limits are :func:`fieller`'s
    bit for bit (a property test checks it); many times faster on one pair, where
    numpy's cost is its call overhead. Only the ordinary case is taken: finite inputs,
    non-negative variances, positive ``c`` and discriminant, non-zero shifts. For
    anything else it returns None and the caller takes :func:`fieller` itself, which
    defines what zero variances, an unbounded set or an overflow give.
    """
    x, vxx, y, vyy, q = float(x), float(vxx), float(y), float(vyy), float(q)
    if not (math.isfinite(x + vxx + y + vyy + q) and vxx >= 0.0 and vyy >= 0.0):
        return None
    ex = math.frexp(max(abs(x), math.sqrt(vxx)))[1]
    ey = math.frexp(max(abs(y), math.sqrt(vyy)))[1]
    x, y = math.ldexp(x, -ex), math.ldexp(y, -ey)
    vxx, vyy = math.ldexp(vxx, -2 * ex), math.ldexp(vyy, -2 * ey)
    ax = abs(x)
    qsx, qsy = q * math.sqrt(vxx), q * math.sqrt(vyy)
    if not qsx < ax:  # unbounded: numpy's route says how
        return None
    a = (ax - qsx) * (ax + qsx)
    r = y / x
    b = qsx * qsx * r
    c = (qsx * r) ** 2 + qsy * qsy
    disc = b * b + a * c
    if not (c > 0.0 and disc > 0.0 and math.isfinite(c) and math.isfinite(disc)):
        return None
    root = math.sqrt(disc)
    w = b + (root if b >= 0 else -root)
    if w == 0.0:
        return None
    d1, d2 = w / a, -c / w
    if not (d1 != 0.0 and d2 != 0.0 and math.isfinite(d1) and math.isfinite(d2)):
        return None
    lower = _ldexp(r + min(d1, d2), ey - ex)
    upper = _ldexp(r + max(d1, d2), ey - ex)
    if not (math.isfinite(lower) and math.isfinite(upper)):
        return None
    return lower, upper, True


def _system_exponent(mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """The ``e`` that brings ``max(|mean|, sqrt(var))`` into [1/2, 1) (0 for zeros and
    for values that are not finite), element by element."""
    return np.frexp(np.fmax(np.abs(mean), np.sqrt(var)))[1]


def welch_df(rel_var_old: float, rel_var_new: float, n_old: int, n_new: int) -> float:
    r"""Welch-Satterthwaite degrees of freedom of a ratio of two independent means.

    The pivot of Fieller's theorem, :math:`\bar Y^{new} - r \bar Y^{old}`, has the
    variance :math:`v_{new} + r^2 v_{old}`; relative to :math:`(\bar Y^{new})^2`
    (at :math:`r = \bar Y^{new} / \bar Y^{old}`) its two terms are the relative
    variances :math:`w_{new} = v_{new} / (\bar Y^{new})^2` and
    :math:`w_{old} = v_{old} / (\bar Y^{old})^2`, each a scaled
    :math:`\chi^2_{n-1}/(n-1)` under the normal model. Satterthwaite's
    approximation of their sum by one scaled :math:`\chi^2_\nu` gives

    .. math:: \nu = \frac{(w_{old} + w_{new})^2}
                          {w_{old}^2 / (n_{old} - 1) + w_{new}^2 / (n_{new} - 1)},

    which lies between :math:`\min(n_{old}, n_{new}) - 1` (one system dominates)
    and :math:`n_{old} + n_{new} - 2` (both contribute alike). Two constant systems
    (both :math:`w` zero) get the larger bound.

    Parameters
    ----------
    rel_var_old, rel_var_new : float
        :math:`w_{old}`, :math:`w_{new}` (non-negative).
    n_old, n_new : int
        Top-level units of each system (at least 2).
    """
    total = rel_var_old + rel_var_new
    if not total > 0:
        return float(n_old + n_new - 2)
    uo, un = rel_var_old / total, rel_var_new / total  # shares: no under/overflow
    return float(1.0 / (uo * uo / (n_old - 1) + un * un / (n_new - 1)))


def _pair_stats(old, new, df: float | None = None):
    """Means and variances of the means of both systems, each in units of its own power
    of two, the ratio's power of two (``e_new - e_old``) and the degrees of freedom of
    the t quantile (:class:`DfRule`, see :func:`ratio_df_rule`)."""
    yo, yn = _array(old), _array(new)
    mo, vo, eo = mean_and_variance(yo)
    mn, vn, en = mean_and_variance(yn)
    if df is not None:  # the caller's own (the paper's n - 1, say)
        if not df >= 1:
            raise EsizeError(f"df must be at least 1, got {df}")
        return mo, vo, mn, vn, en - eo, DfRule(float(df), float(df))
    return mo, vo, mn, vn, en - eo, ratio_df_rule(mo, vo, mn, vn, yo.shape[0], yn.shape[0])


def _df_extra(rule: DfRule, normal: bool) -> dict:
    """``extra`` of a ratio interval: its degrees of freedom and, when the
    conservative rule replaced Welch's value, that value and the dominant system."""
    if normal:
        return {"df": None}
    out = {"df": rule.df}
    if rule.conservative is not None:
        out.update(df_welch=rule.welch, few_units=rule.conservative)
    return out


def _scaled_ratio(mean_old: float, mean_new: float, shift: int) -> float:
    """``mean_new / mean_old * 2**shift`` as a float: exact scaling, ``inf`` or 0 when
    the ratio is beyond the floats, ``inf`` or NaN when ``mean_old`` is 0."""
    with np.errstate(all="ignore"):
        return float(np.ldexp(np.float64(mean_new) / np.float64(mean_old), shift))


def _log_ratio(mean_old: float, mean_new: float, shift: int) -> float:
    r""":math:`\log` of :func:`_scaled_ratio` for positive means, also when the ratio
    itself is beyond the floats (then from the logarithms of its parts)."""
    r = _scaled_ratio(mean_old, mean_new, shift)
    if _is_normal(r):
        return math.log(r)
    return math.log(mean_new) - math.log(mean_old) + shift * math.log(2.0)


def _is_normal(x: float) -> bool:
    """Whether ``|x|`` is a normal float: finite, and neither zero nor subnormal."""
    return bool(_TINY <= abs(x) < math.inf)


def check_ratio_range(mean_old: float, mean_new: float, shift: int,
                      benchmark: str | None = None) -> float:
    """The ratio ``mean_new / mean_old * 2**shift``, refused when it is beyond the floats.

    Parameters
    ----------
    mean_old, mean_new : float
        The two means, each in units of its own power of two.
    shift : int
        ``e_new - e_old``, the ratio's power of two.
    benchmark : str, optional
        Named in the message.

    Returns
    -------
    float
        The ratio (``inf`` or NaN when ``mean_old`` is zero: that is not a range
        problem, and the intervals say so by being unbounded).

    Raises
    ------
    EsizeError
        Both means non-zero and their ratio not a normal float: the two systems are
        some 600 orders of magnitude apart (results in units that do not match).
    """
    r = _scaled_ratio(mean_old, mean_new, shift)
    if mean_old == 0 or mean_new == 0 or _is_normal(r):
        return r
    log10 = (math.log(abs(mean_new)) - math.log(abs(mean_old)) + shift * math.log(2.0)) / (
        math.log(10.0))
    where = "" if benchmark is None else f"benchmark {benchmark}: "
    raise EsizeError(
        f"{where}the ratio of means (about 10^{log10:.0f}) is beyond the floating-point "
        "range; are the two results in the same unit?"
    )


#: The smallest positive normal float.
_TINY = float(np.finfo(np.float64).tiny)


#: A system with fewer top-level units than this, and fewer than the other system,
#: makes its variance too uncertain for Welch-Satterthwaite when it may dominate
#: (see :func:`ratio_df_rule`).
FEW_UNITS = 10

#: The quantile of the few-unit system's variance at which :func:`ratio_df_rule` asks
#: whether that system may carry most of the ratio's variance (its upper quartile).
DOMINANCE_QUANTILE = 0.25


@dataclass(frozen=True)
class DfRule:
    """The degrees of freedom of a ratio interval and how they were chosen.

    Attributes
    ----------
    df : float
        Degrees of freedom of the t quantile.
    welch : float
        The Welch-Satterthwaite value (:func:`welch_df`); equal to ``df`` unless
        ``conservative``.
    conservative : str or None
        ``"old"`` or ``"new"``: the system with few top-level units that may carry
        most of the ratio's variance, whose ``n - 1`` replaced Welch's value; None
        when Welch's value is used.
    """

    df: float
    welch: float
    conservative: str | None = None


def ratio_df_rule(mean_old, var_old, mean_new, var_new, n_old: int, n_new: int) -> DfRule:
    r"""Degrees of freedom of the t quantile of a ratio interval, with the reason.

    Welch-Satterthwaite (:func:`welch_df` of the relative variances
    :math:`w = v / \overline{Y}^2`) for equal and unequal designs alike, except that a
    system with fewer than :data:`FEW_UNITS` top-level units, and fewer than the
    other system, that *may* carry most of the ratio's variance gets Hsu's
    conservative :math:`n_{few} - 1` (never more than Welch's value).

    "May carry most" is judged on the upper quartile of its relative variance, the
    :math:`\chi^2_{n-1}` limit :math:`w_{few} (n_{few} - 1) /
    \chi^2_{n-1;\,0.25}`: if that exceeds the other system's :math:`w`, the few
    units may dominate. The point estimate alone would not do: Welch goes wrong
    exactly when the few units happen to vary little, and then their estimated share
    is small too.

    Notes
    -----
    Why not the paper's :math:`n - 1` for equal designs, nor Welch everywhere:

    * with equal designs :math:`n - 1` is the lower bound of Welch's value and is
      too conservative: at 5 against 5 units the 95 % interval covers about 97.7 %
      of the time and is some 10-20 % wider than Welch's (simulated normal data);
      Welch covers about 95.5 %;
    * with very unequal designs Welch is too optimistic when the system with few
      units dominates: 3 units against 20 of equal spread cover about 93 % (2
      against 20 about 88 %); with the rule about 97.5 % (96 %). :math:`n_{few} - 1`
      is the degrees of freedom of Hsu's and Scheffe's conservative solution of the
      Behrens-Fisher problem, which covers at least the nominal level.

    The rule costs power when the designs differ slightly and both are small (5
    against 6 units); that is the price of covering with 2 or 3 units.
    """
    if min(n_old, n_new) < 2:
        raise DesignError(
            f"the two systems have {n_old} and {n_new} top-level units; each needs at least 2"
        )
    wo = var_old / (mean_old * mean_old) if mean_old else math.inf
    wn = var_new / (mean_new * mean_new) if mean_new else math.inf
    if not (math.isfinite(wo) and math.isfinite(wn)):
        df = float(min(n_old, n_new) - 1)
        return DfRule(df, df)
    welch = welch_df(wo, wn, n_old, n_new)
    if n_old == n_new:
        return DfRule(welch, welch)
    side, n_few, w_few, w_other = (("old", n_old, wo, wn) if n_old < n_new
                                   else ("new", n_new, wn, wo))
    if n_few >= FEW_UNITS or not w_few > 0:
        return DfRule(welch, welch)
    upper = w_few * (n_few - 1) / _chi2_lower(n_few - 1, DOMINANCE_QUANTILE)
    if upper > w_other and welch > n_few - 1:
        return DfRule(float(n_few - 1), welch, side)
    return DfRule(welch, welch)


def _chi2_lower(df: int, p: float) -> float:
    """The ``p`` quantile of chi-square with ``df`` degrees of freedom."""
    from scipy.special import chdtri  # here, so that `import esize` stays light

    return float(chdtri(df, 1.0 - p))


def ratio_df(mean_old, var_old, mean_new, var_new, n_old: int, n_new: int) -> float:
    """Degrees of freedom of the t quantile of a ratio interval
    (``ratio_df_rule(...).df``; see :func:`ratio_df_rule`)."""
    return ratio_df_rule(mean_old, var_old, mean_new, var_new, n_old, n_new).df


def _df_quantile(alpha: float, df: float, normal: bool) -> float:
    return critical_value(alpha, None if normal else df)


def fieller_ci(old, new, *, alpha: float = 0.05, normal: bool = False,
               df: float | None = None) -> Interval:
    r"""Fieller's confidence interval for the ratio new/old (Fieller's theorem).

    The systems are independent (:math:`v_{xy}=0`); the variance of each mean is
    :math:`S_{n+1}^2/n_{n+1}` from its own top-level units, so the two systems may
    have different designs (even different levels). The quantile is Student's t with
    the Welch-Satterthwaite degrees of freedom (:func:`welch_df`), for equal and
    unequal designs alike, except that a system with fewer than 10 top-level units
    (and fewer than the other) that may carry most of the ratio's variance gets the
    conservative :math:`n - 1` (:func:`ratio_df_rule` says why); or the normal
    quantile if ``normal``. (The paper's :math:`n_{n+1}-1` for equal designs is
    Welch's lower bound: it over-covers, about 97.7 % at 5 against 5 units.)

    Parameters
    ----------
    old, new : Design or array_like
        The two systems, highest level on axis 0 (two or more top-level units each).
    alpha : float, default 0.05
        One minus the confidence level.
    normal : bool, default False
        Use the normal instead of the t quantile.
    df : float, optional
        Degrees of freedom of the t quantile instead of the rule above, for example
        the paper's :math:`n_{n+1} - 1` to reproduce its worked example.

    Returns
    -------
    Interval
        ``bounded`` is False (and the limits infinite) when the old system's mean
        is not significantly different from zero at level ``alpha``. Two constant
        systems (zero variances) give the point interval at their ratio.
        ``extra["df"]`` holds the degrees of freedom (None with ``normal``); when the
        conservative rule replaced Welch's value, ``extra["df_welch"]`` holds that
        value and ``extra["few_units"]`` the system (``"old"`` or ``"new"``).

    Raises
    ------
    EsizeError
        The ratio of the means is beyond the range of floats
        (:func:`check_ratio_range`); each system's mean and variance are computed on
        its own scale, so that is the only magnitude that is refused.
    """
    mo, vo, mn, vn, shift, rule = _pair_stats(old, new, df)
    q = _df_quantile(alpha, rule.df, normal)
    # the ratio of the scaled means
    lo, hi, ok = _fieller_scalar(mo, vo, mn, vn, q) or fieller(mo, vo, mn, vn, q)
    lo, hi = _shifted(lo, shift), _shifted(hi, shift)
    return Interval(check_ratio_range(mo, mn, shift), lo, hi, alpha,
                    "fieller-normal" if normal else "fieller-t", ok,
                    extra=_df_extra(rule, normal))


def _shifted(x: float, shift: int) -> float:
    """``x * 2**shift`` (exact; ``inf`` or 0 beyond the floats: a limit next to the
    largest double is unbounded, not an error)."""
    return _ldexp(float(x), int(shift))


def delta_ratio(mean_old, var_old, mean_new, var_new, q):
    r"""Delta-method limits for ``mean_new / mean_old`` (vectorised).

    .. math::

        r \pm q\, |r| \sqrt{\frac{v_{yy}}{y^2} + \frac{v_{xx}}{x^2}},
        \qquad r = y / x

    (the square root taken as ``hypot`` of the relative standard errors, which
    neither overflows nor underflows).
    """
    x = np.asarray(mean_old, dtype=np.float64)
    y = np.asarray(mean_new, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = y / x
        rel = np.hypot(np.sqrt(np.asarray(var_new, dtype=np.float64)) / np.abs(y),
                       np.sqrt(np.asarray(var_old, dtype=np.float64)) / np.abs(x))
        h = q * np.abs(r) * rel
    return r - h, r + h


def delta_ci(old, new, *, alpha: float = 0.05, normal: bool = False,
             df: float | None = None) -> Interval:
    """Delta-method confidence interval for the ratio new/old (a second parametric route).

    The degrees of freedom are those of :func:`fieller_ci` (``df`` overrides them).

    Like :func:`fieller_ci`, it refuses (:class:`EsizeError`) only a ratio of means
    that is beyond the range of floats.
    """
    mo, vo, mn, vn, shift, rule = _pair_stats(old, new, df)
    q = _df_quantile(alpha, rule.df, normal)
    lo, hi = delta_ratio(mo, vo, mn, vn, q)  # the ratio of the scaled means
    return Interval(check_ratio_range(mo, mn, shift), _shifted(lo, shift), _shifted(hi, shift),
                    alpha, "delta-normal" if normal else "delta-t",
                    extra=_df_extra(rule, normal))


# -- the geometric mean of a suite ---------------------------------------------------------
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
