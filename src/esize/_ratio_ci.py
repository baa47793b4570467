r"""Intervals for the ratio new/old of two independent systems: Fieller's
(:func:`fieller`, :func:`fieller_ci`) and the delta method's (:func:`delta_ratio`,
:func:`delta_ci`), each system in units of its own power of two, and the check that
the ratio of two means is within the range of floats (:func:`check_ratio_range`).
Re-exported by :mod:`esize._intervals`.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np

from ._errors import EsizeError
from ._estimators import mean_and_variance
from ._mean_ci import Interval, _array, _ldexp, _shifted, critical_value
from ._ratio_df import DfRule, ratio_df_rule

__all__ = [
    "fieller",
    "fieller_ci",
    "fieller_p_value",
    "delta_ratio",
    "delta_ci",
    "check_ratio_range",
]


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

    Examples
    --------
    Means 10 (old) and 9 (new), each mean with variance 0.25, at ``q = 2``:

    >>> import esize as ez
    >>> lower, upper, bounded = ez.fieller(10.0, 0.25, 9.0, 0.25, 2.0)
    >>> round(lower, 4), round(upper, 4), bounded
    (0.7736, 1.0446, True)

    An old mean not distinguishable from zero gives no finite interval:

    >>> ez.fieller(1.0, 1.0, 9.0, 0.25, 2.0)
    (-inf, inf, False)
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
    # vectorised: arrays for arrays (the annotation says the scalar case)
    return cast("tuple[float, float, bool]", (lower, upper, bounded))


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
    """``extra`` of a ratio interval: its degrees of freedom, Welch's value at the
    estimated variances, and the system whose upper variance lowered it (or None)."""
    if normal:
        return {"df": None}
    return {"df": rule.df, "df_welch": rule.welch, "df_side": rule.side}


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


def _df_quantile(alpha: float, df: float, normal: bool) -> float:
    return critical_value(alpha, None if normal else df)


def fieller_ci(old, new, *, alpha: float = 0.05, normal: bool = False,
               df: float | None = None) -> Interval:
    r"""Fieller's confidence interval for the ratio new/old (Fieller's theorem).

    The systems are independent (:math:`v_{xy}=0`); the variance of each mean is
    :math:`S_{n+1}^2/n_{n+1}` from its own top-level units, so the two systems may
    have different designs (even different levels). The quantile is Student's t with
    the Welch-Satterthwaite degrees of freedom (:func:`welch_df`), lowered where
    either system's variance may be larger than its units show (one rule for equal
    and unequal designs, :func:`ratio_df_rule`); or the normal quantile if
    ``normal``. (The paper's :math:`n_{n+1}-1` for equal designs is
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
        ``extra["df"]`` holds the degrees of freedom (None with ``normal``),
        ``extra["df_welch"]`` Welch's value at the estimated variances and
        ``extra["df_side"]`` the system (``"old"`` or ``"new"``) whose upper
        variance lowered it, or None.

    Raises
    ------
    EsizeError
        The ratio of the means is beyond the range of floats
        (:func:`check_ratio_range`); each system's mean and variance are computed on
        its own scale, so that is the only magnitude that is refused.

    Examples
    --------
    The new system's mean is 14 % below the old one's, but with four executions
    each the 95 % interval still reaches past 1:

    >>> import esize as ez
    >>> levels = ("execution", "measurement")
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]], levels)
    >>> new = ez.Design([[9, 10, 11], [10, 11, 12], [9, 10, 11], [11, 12, 13]], levels)
    >>> ci = ez.fieller_ci(old, new)
    >>> round(ci.estimate, 4), round(ci.lower, 4), round(ci.upper, 4), ci.bounded
    (0.86, 0.7143, 1.0408, True)
    >>> round(ci.extra["df"], 2)  # ratio_df_rule (Welch-Satterthwaite would give 5.87)
    4.14
    >>> ci = ez.fieller_ci(old, new, alpha=0.2)  # an 80 % interval
    >>> ci.upper < 1
    True
    """
    mo, vo, mn, vn, shift, rule = _pair_stats(old, new, df)
    q = _df_quantile(alpha, rule.df, normal)
    # the ratio of the scaled means
    lo, hi, ok = _fieller_scalar(mo, vo, mn, vn, q) or fieller(mo, vo, mn, vn, q)
    lo, hi = _shifted(lo, shift), _shifted(hi, shift)
    return Interval(check_ratio_range(mo, mn, shift), lo, hi, alpha,
                    "fieller-normal" if normal else "fieller-t", ok,
                    extra=_df_extra(rule, normal))


def fieller_p_value(old, new, *, normal: bool = False, df: float | None = None) -> float:
    r"""The p-value of "no change" (ratio 1) that matches Fieller's interval.

    Fieller's set at level :math:`1 - \alpha` holds the ratio :math:`\rho` where
    :math:`|\bar Y^{new} - \rho \bar Y^{old}| \le q \sqrt{v_{new} + \rho^2 v_{old}}`;
    at :math:`\rho = 1` that is the two-sided test of
    :math:`T = (\bar Y^{new} - \bar Y^{old}) / \sqrt{v_{new} + v_{old}}` against
    the same quantile :math:`q` (Student's t with the degrees of freedom of
    :func:`fieller_ci`, or the normal). So the p-value is below ``alpha`` exactly
    when :func:`fieller_ci` at ``alpha`` leaves 1 out, and a list of p-values can be
    given to a multiple-testing rule such as :func:`benjamini_hochberg`.

    Parameters
    ----------
    old, new : Design or array_like
        The two systems, highest level on axis 0 (two or more top-level units each).
    normal : bool, default False
        The normal distribution instead of Student's t.
    df : float, optional
        Degrees of freedom instead of :func:`ratio_df_rule`'s, as in :func:`fieller_ci`.

    Returns
    -------
    float
        In [0, 1]; 0 for two constant systems that differ, 1 for two equal ones.

    Examples
    --------
    >>> import esize as ez
    >>> levels = ("execution", "measurement")
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]], levels)
    >>> new = ez.Design([[9, 10, 11], [10, 11, 12], [9, 10, 11], [11, 12, 13]], levels)
    >>> p = ez.fieller_p_value(old, new)
    >>> round(p, 4), p < 0.05, ez.fieller_ci(old, new).upper < 1
    (0.0927, False, False)
    >>> ez.fieller_ci(old, new, alpha=0.1).upper < 1  # p < 0.1: the 90 % interval leaves 1 out
    True
    """
    mo, vo, mn, vn, shift, rule = _pair_stats(old, new, df)
    # both systems on one scale, the larger of their powers of two (new's is old's + shift)
    so, sn = (-shift, 0) if shift >= 0 else (0, shift)
    diff = _ldexp(float(mn), sn) - _ldexp(float(mo), so)
    var = _ldexp(float(vn), 2 * sn) + _ldexp(float(vo), 2 * so)
    if not var > 0:
        return 1.0 if diff == 0 else 0.0
    stat = abs(diff) / math.sqrt(var)
    from scipy import special  # here, so that `import esize` stays light

    if normal:
        return float(min(1.0, special.erfc(stat / math.sqrt(2.0))))
    return float(min(1.0, 2.0 * special.stdtr(rule.df, -stat)))


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

    Examples
    --------
    The data of :func:`fieller_ci`'s example; the delta method's interval is
    symmetric about the ratio:

    >>> import esize as ez
    >>> levels = ("execution", "measurement")
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]], levels)
    >>> new = ez.Design([[9, 10, 11], [10, 11, 12], [9, 10, 11], [11, 12, 13]], levels)
    >>> ci = ez.delta_ci(old, new)
    >>> round(ci.lower, 4), round(ci.upper, 4), ci.method
    (0.6994, 1.0206, 'delta-t')
    >>> round(ci.estimate - ci.lower, 10) == round(ci.upper - ci.estimate, 10)
    True
    """
    mo, vo, mn, vn, shift, rule = _pair_stats(old, new, df)
    q = _df_quantile(alpha, rule.df, normal)
    lo, hi = delta_ratio(mo, vo, mn, vn, q)  # the ratio of the scaled means
    return Interval(check_ratio_range(mo, mn, shift), _shifted(lo, shift), _shifted(hi, shift),
                    alpha, "delta-normal" if normal else "delta-t",
                    extra=_df_extra(rule, normal))
