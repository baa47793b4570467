r"""The degrees of freedom of the t quantile of a ratio interval: Welch-Satterthwaite
(:func:`welch_df`), lowered where either system's variance may be larger than its units
show (:func:`ratio_df_rule`, :class:`DfRule`, :func:`ratio_dfs`).
Re-exported by :mod:`esize._intervals`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ._errors import DesignError

__all__ = [
    "welch_df",
    "ratio_df",
    "ratio_df_rule",
    "ratio_dfs",
    "welch_dfs",
    "upper_factor",
    "DfRule",
    "DF_QUANTILE",
]


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

    Examples
    --------
    Both systems contribute alike (the upper bound), or one dominates (the lower):

    >>> import esize as ez
    >>> ez.welch_df(0.01, 0.01, 5, 5), ez.welch_df(0.01, 0.0, 5, 20)
    (8.0, 4.0)
    """
    return _welch(rel_var_old, n_old - 1, rel_var_new, n_new - 1)


def _welch(w_old: float, df_old: float, w_new: float, df_new: float) -> float:
    """Welch-Satterthwaite's value for two variances with ``df_old`` and ``df_new``
    degrees of freedom (:func:`welch_df` with ``n - 1``)."""
    total = w_old + w_new
    if not total > 0:
        return float(df_old + df_new)
    uo, un = w_old / total, w_new / total  # shares: no under/overflow
    return float(1.0 / (uo * uo / df_old + un * un / df_new))


#: The lower quantile of chi-square at which :func:`ratio_df_rule` takes each system's
#: variance at the upper end of what its units allow (a one-sided 85 % limit; 0.15, not
#: 0.10, so that power never falls when a unit is added: see :func:`ratio_df_rule`).
DF_QUANTILE = 0.15


@dataclass(frozen=True)
class DfRule:
    """The degrees of freedom of a ratio interval and how they were chosen.

    Attributes
    ----------
    df : float
        Degrees of freedom of the t quantile.
    welch : float
        The Welch-Satterthwaite value at the estimated variances (:func:`welch_df`);
        ``df`` is never larger.
    side : str or None
        ``"old"`` or ``"new"``: the system whose variance, taken at its upper limit,
        gave ``df``; None when Welch's value itself is the smallest (or the
        caller gave the degrees of freedom).

    Examples
    --------
    Three old units that vary far more than twenty new ones:

    >>> import esize as ez
    >>> rule = ez.ratio_df_rule(10.0, 1.0, 10.0, 0.01, 3, 20)
    >>> round(rule.df, 4), round(rule.welch, 4), rule.side
    (2.0065, 2.0402, 'old')
    """

    df: float
    welch: float
    side: str | None = None


def ratio_df_rule(mean_old, var_old, mean_new, var_new, n_old: int, n_new: int) -> DfRule:
    r"""Degrees of freedom of the t quantile of a ratio interval, with the reason.

    Welch-Satterthwaite's :math:`\nu(w_{old}, w_{new})` (:func:`welch_df`) of the
    relative variances :math:`w = v / \overline{Y}^2` is right when the :math:`w` are
    known, but they are estimates, and Welch goes wrong exactly when a system of few
    units happens to vary little: its estimated share of the variance, and with it
    the penalty for its few units, is then small too. So each system's :math:`w` is
    also taken at the upper end of what its :math:`n` units allow, the one-sided
    85 % chi-square limit, and the smallest of the three values is used:

    .. math::

        \nu = \min\bigl(\nu(w_{old}, w_{new}),\;
                          \nu(f_{old} w_{old}, w_{new}),\;
                          \nu(w_{old}, f_{new} w_{new})\bigr),
        \qquad f = \frac{n - 1}{\chi^2_{n-1;\,0.15}}.

    It lies between :math:`\min(n_{old}, n_{new}) - 1` (Hsu's conservative value)
    and Welch's. One formula for every design, equal or not: there is no switch
    between two rules whose crossing, when one unit is added, costs power.

    Notes
    -----
    Checked by simulation (``benchmarks/bench_stats_round3.py``, rule R6) on a grid
    of :math:`n_{old}, n_{new} \in \{2, \dots, 30\}` and spread ratios 0.1, 1 and
    10: coverage of the 95 % Fieller interval and power at a 3 % change against one
    more unit on either side. Welch alone covers 87-88 % at 2 units against 20-30 of
    the same spread; Hsu's :math:`\min(n) - 1` covers but is 15-20 % wider at 5
    against 5 and loses power when a unit is added to the larger side of a tiny
    design. The factor :math:`f` is 28 at 2 units, 6.2 at 3, 1.9 at 10 and 1.4 at 30.

    The quantile sets how far a 2-unit system's variance is raised, and power is
    monotone only in a window. With 0.10 (:math:`f = 63` at 2 units) power at 3 %
    fell from 2 v 2 to 2 v 3 units when the new system spreads 10 times as much
    (z = -8.5 at 100,000 replicates a cell,
    ``benchmarks/results/2026-11-29-r6b-confirmatory.json``): the inflated old
    variance made the rule more conservative as the new variance shrank. With
    :math:`f(2)` of 15-20, power fell instead from 2 v 10 to 2 v 20 units, and below
    8 cells of 2 against 20-30 units covered less than 94.5 %. The quantile 0.15 puts
    :math:`f(2)` at 28, inside the window, with one formula for every :math:`n`. It
    was chosen on pilot seeds, and judged on a fresh seed at 100,000 replicates a cell
    (``--r6-v2``, ``benchmarks/results/2026-11-29-r6-v2.json``, rules fixed in
    ``benchmarks/prereg/2026-11-29-r6-v2-df-quantile.md``): lowest coverage 94.56 %
    (spread ratio 10, 30 v 6), no cell below 94.5 %, and no pair of the 336 whose
    power falls beyond z = -2 (lowest -1.43). The quantile 0.10 on the same draws
    gives z = -6.87 at 2 v 2 -> 2 v 3.

    Examples
    --------
    Equal designs of equal spread lose little (Welch's 8 would be the most):

    >>> import esize as ez
    >>> rule = ez.ratio_df_rule(10.0, 0.1, 9.0, 0.1, 5, 5)
    >>> round(rule.df, 2), round(rule.welch, 2)
    (6.06, 7.91)
    >>> round(ez.ratio_df_rule(10.0, 1.0, 10.0, 0.01, 3, 20).df, 2)  # three may dominate
    2.01
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
    return df_rule(wo, n_old - 1, wn, n_new - 1)


def df_rule(w_old: float, df_old: float, w_new: float, df_new: float) -> DfRule:
    """:func:`ratio_df_rule` for two variances known with ``df_old`` and ``df_new``
    degrees of freedom (``n - 1`` there; each side's Satterthwaite df for the mixed
    model, :func:`esize.mixed_ratio_ci`)."""
    welch = _welch(w_old, df_old, w_new, df_new)
    by_old = _welch(w_old * _upper(df_old), df_old, w_new, df_new)
    by_new = _welch(w_old, df_old, w_new * _upper(df_new), df_new)
    df = min(welch, by_old, by_new)
    if df >= welch * (1.0 - 1e-6):  # not lowered, but for rounding
        return DfRule(df, welch)
    return DfRule(df, welch, "old" if by_old <= by_new else "new")


def ratio_dfs(rel_var_old, rel_var_new, n_old: int, n_new: int) -> np.ndarray:
    """:func:`ratio_df_rule`'s degrees of freedom for arrays of relative variances
    (vectorised; the same numbers as the scalar route, which the tests check).

    Parameters
    ----------
    rel_var_old, rel_var_new : array_like
        :math:`w_{old}`, :math:`w_{new}` (non-negative, finite); they broadcast.
    n_old, n_new : int
        Top-level units of each system (at least 2).

    Returns
    -------
    ndarray
        The degrees of freedom, element by element.

    Examples
    --------
    >>> import esize as ez
    >>> ez.ratio_dfs([0.01, 0.0001], 0.0001, 3, 20).round(3).tolist()
    [2.007, 2.695]
    >>> round(ez.ratio_df_rule(1.0, 0.0001, 1.0, 0.0001, 3, 20).df, 3)
    2.695
    """
    if min(n_old, n_new) < 2:
        raise DesignError(
            f"the two systems have {n_old} and {n_new} top-level units; each needs at least 2"
        )
    wo, wn = np.broadcast_arrays(np.asarray(rel_var_old, float), np.asarray(rel_var_new, float))
    fo, fn = upper_factor(n_old), upper_factor(n_new)
    return np.minimum.reduce([welch_dfs(wo, wn, n_old, n_new),
                              welch_dfs(wo * fo, wn, n_old, n_new),
                              welch_dfs(wo, wn * fn, n_old, n_new)])


def welch_dfs(rel_var_old, rel_var_new, n_old: int, n_new: int) -> np.ndarray:
    """:func:`welch_df` element by element, for arrays of relative variances that
    broadcast (two constant systems get the larger bound, as there)."""
    wo, wn = np.asarray(rel_var_old, float), np.asarray(rel_var_new, float)
    total = wo + wn
    with np.errstate(invalid="ignore", divide="ignore"):
        uo, un = wo / total, wn / total
        nu = 1.0 / (uo * uo / (n_old - 1) + un * un / (n_new - 1))
    return np.where(total > 0, nu, float(n_old + n_new - 2))


@lru_cache(maxsize=256)
def upper_factor(n: int) -> float:
    r""":math:`f = (n - 1) / \chi^2_{n-1;\,q}` with :math:`q` = :data:`DF_QUANTILE`: the
    factor that takes a variance estimated from ``n`` units to its one-sided upper
    limit (:func:`ratio_df_rule`)."""
    return _upper(n - 1)


def _upper(df: float) -> float:
    """``df / chi2_{df; DF_QUANTILE}``: a variance known with ``df`` degrees of freedom
    taken at its one-sided upper limit (:func:`upper_factor` with ``n - 1``)."""
    from scipy.special import chdtri  # here, so that `import esize` stays light

    return float(df / chdtri(df, 1.0 - DF_QUANTILE))


def ratio_df(mean_old, var_old, mean_new, var_new, n_old: int, n_new: int) -> float:
    """Degrees of freedom of the t quantile of a ratio interval
    (``ratio_df_rule(...).df``; see :func:`ratio_df_rule`)."""
    return ratio_df_rule(mean_old, var_old, mean_new, var_new, n_old, n_new).df
