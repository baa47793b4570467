r"""Experiment planning: optimal repetition counts, cost, and dimensioning.

Costs follow the cost model of the paper's Section "Experiment Planning" and are counted in
lowest-level measurements. Here each cost is attached to the level whose new unit it
pays for, highest level first: for ``("binary", "execution", "measurement")`` the
costs are ``(build, warm-up)`` — the paper's :math:`(c_2, c_1)`.

.. math::

    c = (c_n + \dots (c_2 + (c_1 + n_1) n_2) n_3 \dots) n_{n+1}

Minimising the variance of the grand mean for a given cost gives (Section
"Derivation of the Optimalisation Formula")

.. math::

    n_1 = \sqrt{c_1 \frac{\sigma_1^2}{\sigma_2^2}}, \qquad
    n_i = \sqrt{\frac{c_i}{c_{i-1}} \frac{\sigma_i^2}{\sigma_{i+1}^2}}, \quad 1 < i \le n,

rounded up. The top count :math:`n_{n+1}` is whatever the budget allows.

Two refinements keep the answer honest. A count cannot be below 1: when an optimum
is, that level runs once per unit above, which merges it into the level above, and
the other counts are optimised again (:func:`continuous_counts`); the paper's
formula clamps such a count to 1 and keeps the others (``below_one="clamp"``).
And what a budget buys is reported as an interval half-width,
:math:`t_{1-\alpha/2,\,n_{n+1}-1}\sqrt{\operatorname{var}(\overline{Y})}`,
whose quantile depends on the whole number of top-level units; :func:`dimension`
chooses the whole counts that minimise that half-width (``objective="half_width"``),
not the variance of a continuous relaxation (``objective="variance"``, the paper's
procedure, kept to reproduce its Table ``tPrecisions``). A design needs at least
2 top-level units, with either objective; a budget that cannot buy them is an error.

Numerics of the plan
--------------------
Counts, relative half-widths and the levels dropped do not depend on the unit of
measure: they depend on ratios of variances and on variances relative to the squared
mean only. Planning therefore works with variances divided by :math:`2^{2e}` (exact),
:math:`e` the exponent of the data (:attr:`VarianceComponents.exponent`) or, for given
variances, one that brings the largest into :math:`[1/4, 1)`, and with the mean
divided by :math:`2^e`. Data near :math:`10^{\pm 300}`, whose variances are beyond the
floats, are planned exactly like the same data in ordinary units; :attr:`Plan.t2`
keeps the variances in the data's units, ``inf`` or 0 when they are not floats.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from ._budget import _check_budget, _floor, _search, _variance_counts
from ._counts import (
    _check_below_one,
    _costs_array,
    _merged_optimum,
    _unscale,
    _variance_exponent,
    continuous_counts,
    experiment_cost,
    optimal_counts,
)
from ._design import Design
from ._errors import EsizeError
from ._estimators import model_mean_variance, variance_components
from ._intervals import critical_value

__all__ = [
    "Plan",
    "continuous_counts",
    "optimal_counts",
    "plan_from_variances",
    "plan_from_design",
    "experiment_cost",
    "Dimensioning",
    "dimension",
    "dimension_for_plan",
]



OBJECTIVES = ("half_width", "variance")


@dataclass(frozen=True)
class Plan:
    """Result of planning.

    Attributes
    ----------
    levels : tuple of str
        Remaining levels, highest first.
    dropped : tuple of str
        Levels removed because their :math:`T^2 \\le 0`, in the order dropped.
    t2 : ndarray
        Variance estimates of the remaining levels (highest first), in the data's
        units squared: ``inf`` or 0 when the data are so large or small (beyond about
        :math:`10^{\\pm 154}`) that the variance is not a float.
    costs : ndarray
        True costs of the remaining levels but the lowest, with dropped levels'
        costs folded into the level above (highest first).
    counts : dict
        Optimal counts for every remaining level but the top one.
    dropped_cost : str
        ``"fold"`` (optimise with the true costs) or ``"replace"`` (the paper's
        convention: after a drop, optimise as if a new unit of the level above cost
        only what a unit of the dropped level cost).
    below_one : str
        ``"merge"`` or ``"clamp"``: how counts whose optimum is below 1 were
        handled (see :func:`optimal_counts`).
    outer_level : str or None
        The original top level when it was dropped (its :math:`T^2 \\le 0`): the
        experiment still needs at least 2 of its units for an interval, see
        :func:`dimension_for_plan`.
    outer_cost : float
        True cost of a new unit of ``outer_level`` (with the costs of dropped levels
        folded in); 0 when the top level was kept.
    exponent : int
        The power of two ``e`` the plan was computed at: ``t2 = t2_scaled * 2**(2 e)``,
        and a mean enters the half-widths divided by ``2**e``
        (:func:`dimension_for_plan`).
    t2_scaled : ndarray
        ``t2`` divided by ``2**(2 e)``, always finite (computed from ``t2`` when not
        given). The counts and the half-widths are computed from these.
    given_costs : dict or None
        The costs as given, one per level of the original design but the lowest,
        highest first, dropped levels included (the build cost of a dropped binary
        level, say); None for a plan built by hand. ``costs`` holds them folded for
        the remaining levels, ``outer_cost`` for a dropped top level.

    Examples
    --------
    As :func:`plan_from_variances` returns it when executions vary too little
    (:math:`T^2 \\le 0`): the build and warm-up costs fold into one, 110:

    >>> import esize as ez
    >>> plan = ez.plan_from_variances([1.0, -0.1, 2.0], [100.0, 10.0],
    ...                               ("binary", "execution", "measurement"))
    >>> plan.levels, plan.dropped, plan.costs.tolist(), plan.counts
    (('binary', 'measurement'), ('execution',), [110.0], {'measurement': 15})
    >>> plan.as_dict()["given_costs"]
    {'binary': 100.0, 'execution': 10.0}
    """

    levels: tuple[str, ...]
    dropped: tuple[str, ...]
    t2: np.ndarray
    costs: np.ndarray
    counts: dict[str, int]
    dropped_cost: str = "fold"
    below_one: str = "merge"
    outer_level: str | None = None
    outer_cost: float = 0.0
    exponent: int = 0
    t2_scaled: np.ndarray | None = None
    given_costs: dict[str, float] | None = None

    def __post_init__(self) -> None:
        if self.t2_scaled is None:
            scaled = _unscale(self.t2, -2 * int(self.exponent))
            object.__setattr__(self, "t2_scaled", scaled)

    def as_dict(self) -> dict:
        """JSON-ready dictionary.

        A variance ``T2`` that is not a float in the data's units (its square
        overflowed, or underflowed to 0 or to a subnormal with lost digits) is None
        rather than a wrong ``inf`` or 0. ``costs`` are those the counts were
        optimised with (remaining levels, dropped ones folded in); ``given_costs``
        (when known) every cost as given, so a dropped level's cost, such as the
        build cost of a dropped binary level, is never lost.
        """
        out = {
            "dropped": list(self.dropped),
            "levels": list(self.levels),
            "counts": {k: int(v) for k, v in self.counts.items()},
            "T2": {
                k: _float_or_none(v, w)
                for k, v, w in zip(self.levels, self.t2, cast(np.ndarray, self.t2_scaled))
            },
            "costs": {k: float(v) for k, v in zip(self.levels[:-1], self.costs)},
        }
        if self.given_costs is not None:
            out["given_costs"] = {k: float(v) for k, v in self.given_costs.items()}
        out["dropped_cost"] = self.dropped_cost
        return out

    @property
    def all_levels(self) -> tuple[str, ...]:
        """Every level of the original design, highest first, dropped ones included
        (when :attr:`given_costs` is not known: the remaining levels, after
        :attr:`outer_level` if the top was dropped)."""
        if self.given_costs is None:
            outer = () if self.outer_level is None else (self.outer_level,)
            return (*outer, *self.levels)
        return (*self.given_costs, self.levels[-1])


def _float_or_none(value, scaled) -> float | None:
    """``value`` (a variance in the data's units) as a float, or None when it is not the
    float it should be: non-zero in scaled units but overflowed to inf, underflowed to
    0, or a subnormal that lost digits."""
    value = float(value)
    if float(scaled) == 0.0:
        return value
    if math.isfinite(value) and abs(value) >= sys.float_info.min:
        return value
    return None


DROPPED_COST_RULES = ("fold", "replace")


def _drop(levels, costs, opt_costs, j, rule):
    """Remove level ``j`` (not the lowest) from names and cost lists.

    ``costs`` are the true costs: the dropped level's cost folds into the level
    above (one execution per binary costs the build plus the warm-up). ``opt_costs``
    are the costs used for optimisation: the same under ``rule="fold"``; under
    ``rule="replace"`` the level above takes the dropped level's cost alone, the
    convention of the paper's worked example and Table ``tPrecisions``.

    Returns the new names and cost lists, and the true cost removed with a dropped
    top level (0 otherwise).
    """
    costs, opt_costs = list(costs), list(opt_costs)
    removed = 0.0
    if j > 0:
        costs[j - 1] += costs[j]
        opt_costs[j - 1] = opt_costs[j - 1] + opt_costs[j] if rule == "fold" else opt_costs[j]
    else:
        removed = float(costs[0])
    del costs[j]
    del opt_costs[j]
    return levels[:j] + levels[j + 1 :], costs, opt_costs, removed


def _check_rule(rule: str) -> str:
    if rule not in DROPPED_COST_RULES:
        raise EsizeError(f"dropped_cost must be one of {DROPPED_COST_RULES}, got {rule!r}")
    return rule


def _finish(levels, dropped, t2, t2_scaled, exponent, costs, opt_costs, rule, below_one,
            outer, given) -> Plan:
    """The :class:`Plan` of the remaining levels; the counts come from ``t2_scaled``
    (``t2`` divided by ``2**(2 exponent)``), which never overflows."""
    counts = (
        optimal_counts(t2_scaled, opt_costs, below_one=below_one)
        if len(levels) > 1
        else np.zeros(0, dtype=int)
    )
    return Plan(
        tuple(levels),
        tuple(dropped),
        np.asarray(t2, dtype=np.float64),
        np.asarray(costs, dtype=np.float64),
        dict(zip(levels[1:], (int(x) for x in counts))),
        rule,
        below_one,
        outer[0],
        float(outer[1]),
        int(exponent),
        np.asarray(t2_scaled, dtype=np.float64),
        dict(given),
    )


def plan_from_variances(
    t2,
    costs,
    levels: Sequence[str] | None = None,
    *,
    dropped_cost: str = "fold",
    below_one: str = "merge",
) -> Plan:
    """Plan from variance estimates alone, dropping levels whose :math:`T^2 \\le 0`.

    Without the data, a dropped level is simply removed (its variance is taken as
    zero) and the other estimates are kept; its cost folds into the level above
    (one execution per binary costs the build plus the warm-up). Levels are
    dropped lowest first. The lowest level is never dropped.

    ``dropped_cost="replace"`` reproduces the paper's convention (worked example of
    Section "For Practitioners: The New Method without Statistics" and Table
    ``tPrecisions``): once executions are dropped, the
    measurements per binary are optimised against the warm-up cost alone. The
    default ``"fold"`` optimises against the true cost of a new binary, which gives
    the narrower interval for a given budget. ``below_one`` is passed to
    :func:`optimal_counts`.

    The variances may be in any unit: they are divided by the power of four that
    brings the largest into [1/4, 1) (:attr:`Plan.exponent`), so the counts do not
    depend on the unit and nothing overflows.

    Examples
    --------
    >>> import esize as ez
    >>> levels = ("binary", "execution", "measurement")
    >>> ez.plan_from_variances([1.0, 0.5, 2.0], [100.0, 10.0], levels).counts
    {'execution': 3, 'measurement': 7}

    Executions with :math:`T^2 \\le 0` are dropped; the measurements per binary are
    optimised against the build and warm-up (110), or the warm-up alone (10):

    >>> ez.plan_from_variances([1.0, -0.1, 2.0], [100.0, 10.0], levels).counts
    {'measurement': 15}
    >>> ez.plan_from_variances([1.0, -0.1, 2.0], [100.0, 10.0], levels,
    ...                        dropped_cost="replace").counts
    {'measurement': 5}
    """
    s = [float(x) for x in np.asarray(t2, dtype=np.float64).ravel()]
    names = list(levels) if levels is not None else [f"level{len(s) - k}" for k in range(len(s))]
    if len(names) != len(s):
        raise EsizeError("one level name per variance is needed")
    rule = _check_rule(dropped_cost)
    _check_below_one(below_one)
    c = list(_costs_array(costs, len(s)))
    oc = list(c)
    given = [(k, float(v)) for k, v in zip(names[:-1], c)]
    if not all(math.isfinite(x) for x in s):
        raise EsizeError(f"variance estimates must be finite to plan, got {s}")
    if s[-1] <= 0:
        raise EsizeError("the lowest level's variance must be positive")
    exponent = _variance_exponent(s)
    scaled = [float(x) for x in _unscale(s, -2 * exponent)]
    dropped: list[str] = []
    outer_level, outer_cost = None, 0.0
    while True:
        bad = [j for j in range(len(s) - 1) if s[j] <= 0]
        if not bad:
            break
        j = bad[-1]  # the lowest offending level
        dropped.append(names[j])
        if j == 0 and outer_level is None:
            outer_level = names[0]
        names, c, oc, removed = _drop(names, c, oc, j, rule)
        outer_cost += removed
        del s[j], scaled[j]
    return _finish(
        names, dropped, s, scaled, exponent, c, oc, rule, below_one, (outer_level, outer_cost),
        given,
    )


def plan_from_design(
    design: Design, costs, *, dropped_cost: str = "fold", below_one: str = "merge"
) -> Plan:
    """Plan from data: iteratively merge levels whose :math:`T^2 \\le 0` and re-estimate.

    This is the paper's procedure (Section "For Practitioners: The New Method
    without Statistics"): a level with
    :math:`T_i^2 \\le 0` is merged into the level below
    (:meth:`Design.merge`), the variances are estimated again on the merged data,
    and so on until every remaining :math:`T^2` is positive. Levels are dropped
    lowest first; a dropped level's cost folds into the level above.

    Everything is decided on the estimates in the data's scaled units
    (:attr:`VarianceComponents.T2_scaled`), so the plan does not depend on the unit of
    measure, even for data whose variances are beyond the floats.

    Examples
    --------
    Executions whose means differ less than their measurements do: their
    :math:`T^2` is negative, so they are merged and the variances estimated again:

    >>> import esize as ez
    >>> d = ez.Design([[[10, 12, 11], [12, 10, 11]], [[14, 15, 13], [13, 15, 14]],
    ...                [[16, 17, 18], [18, 17, 16]]], ("binary", "execution", "measurement"))
    >>> plan = ez.plan_from_design(d, [100.0, 10.0])
    >>> plan.dropped, plan.levels, [round(float(v), 4) for v in plan.t2], plan.counts
    (('execution',), ('binary', 'measurement'), [8.8667, 0.8], {'measurement': 4})
    """
    rule = _check_rule(dropped_cost)
    _check_below_one(below_one)
    c = list(_costs_array(costs, design.n_levels))
    oc = list(c)
    given = [(k, float(v)) for k, v in zip(design.levels[:-1], c)]
    d = design
    dropped: list[str] = []
    outer_level, outer_cost = None, 0.0
    while True:
        vc = variance_components(d)
        if not np.all(np.isfinite(cast(np.ndarray, vc.T2_scaled))):  # finite data give finite estimates
            raise EsizeError("the variance estimates are not finite")
        bad = [j for j in range(d.n_levels - 1) if cast(np.ndarray, vc.T2_scaled)[j] <= 0]
        if not bad:
            break
        j = bad[-1]
        name = d.levels[j]
        dropped.append(name)
        if j == 0 and outer_level is None:
            outer_level = name
        _, c, oc, removed = _drop(list(d.levels), c, oc, j, rule)
        outer_cost += removed
        d = d.merge(name)
        if d.n_levels == 1:
            vc = variance_components(d)
            break
    if cast(np.ndarray, vc.T2_scaled)[-1] <= 0:
        raise EsizeError("the measurements do not vary; nothing to plan")
    return _finish(
        list(d.levels), dropped, vc.T2, vc.T2_scaled, vc.exponent, c, oc, rule, below_one,
        (outer_level, outer_cost), given,
    )


@dataclass(frozen=True)
class Dimensioning:
    """Precision reachable within a budget (Section "Dimensioning the Experiments").

    Attributes
    ----------
    counts : dict
        Counts of every level of the design, highest first, the top level's from the
        budget. A top level dropped from the plan (:attr:`Plan.outer_level`) is
        included; levels dropped below it run once per unit above and are left out
        (:attr:`design_counts` puts them back).
    half_width : float
        Relative CI half-width of the design (fraction of the mean).
    default_n : int
        Samples of the one-level default (one build, one execution, one measurement
        each).
    default_half_width : float
        Relative CI half-width of the default design (``inf`` when the budget buys
        fewer than 2 samples of it).
    plan : Plan
    objective : str
        ``"half_width"`` or ``"variance"``, see :func:`dimension`.

    Examples
    --------
    As :func:`dimension` returns it for a plan without executions (their
    :math:`T^2 \\le 0`), which :attr:`design_counts` puts back at 1:

    >>> import esize as ez
    >>> dim = ez.dimension([1.0, -0.1, 2.0], [100.0, 10.0], 5000, mean=20.0,
    ...                    levels=("binary", "execution", "measurement"))
    >>> dim.counts, dim.cost
    ({'binary': 40, 'measurement': 15}, 5000.0)
    >>> dim.design_counts
    {'binary': 40, 'execution': 1, 'measurement': 15}
    """

    counts: dict[str, int]
    half_width: float
    default_n: int
    default_half_width: float
    plan: Plan
    objective: str = "half_width"

    @property
    def design_counts(self) -> dict[str, int]:
        """The design to run: a count for every level of the original design,
        highest first.

        These are :attr:`counts` with the levels the plan dropped below the top put
        back at 1 (one unit per unit above, as the cost model charges them); a top
        level the plan dropped is in :attr:`counts` already. Without the original
        levels (a plan built by hand) they are :attr:`counts`.
        """
        if self.plan.given_costs is None:
            return {k: int(v) for k, v in self.counts.items()}
        return {k: int(self.counts.get(k, 1)) for k in self.plan.all_levels}

    @property
    def cost(self) -> float:
        """What the design costs, in measurements (at most the budget): the true
        costs, a dropped top level's included."""
        _, _, c = _full_hierarchy(self.plan)
        return experiment_cost(list(self.counts.values()), c)

    def as_dict(self) -> dict:
        """JSON-ready dictionary: the counts, the half-widths and the plan."""
        return {
            "counts": {k: int(v) for k, v in self.counts.items()},
            "half_width": self.half_width,
            "default_n": self.default_n,
            "default_half_width": self.default_half_width,
            "plan": self.plan.as_dict(),
        }


def dimension(
    t2,
    costs,
    budget: float,
    *,
    mean: float = 1.0,
    levels: Sequence[str] | None = None,
    alpha: float = 0.05,
    dropped_cost: str = "fold",
    below_one: str = "merge",
    objective: str = "half_width",
) -> Dimensioning:
    r"""Compare the optimised design with the one-level default for a time budget.

    The plan comes from :func:`plan_from_variances` (levels with :math:`T^2 \le 0`
    dropped). The reported precision of a design with :math:`n_{n+1}` top-level
    units is the half-width of its interval for the mean, with Student's t on
    :math:`n_{n+1} - 1` degrees of freedom,

    .. math:: h = \frac{t_{1-\alpha/2,\,n_{n+1}-1}}{\overline{Y}}
                  \sqrt{\operatorname{var}(\overline{Y})}, \qquad
              \operatorname{var}(\overline{Y}) = \sum_{i=1}^{n+1}
                  \frac{\sigma_i^2}{\prod_{k=i}^{n+1} n_k}.

    ``objective="half_width"`` (default) chooses the integer counts that minimise
    :math:`h` itself within the budget (see :func:`dimension_for_plan`).
    ``objective="variance"`` is the paper's procedure: the plan's rounded-up counts
    below the top, and as many top-level units as the budget allows,
    :math:`n_{n+1} = \lfloor \text{budget} / \text{cost of one top unit} \rfloor`;
    it minimises the variance for a continuous budget and ignores both the rounding
    of the top count and the quantile's degrees of freedom. It never returns fewer
    than 2 top-level units (one gives no interval): when the plan's counts are too
    dear for 2, the top gets 2 and the levels below are cut down from the top (the
    level under it takes the units that half the budget buys with the plan's counts
    beneath, at least 1, and so on down), so its half-width is always finite.

    The default measures one value per top-level unit after building and warming
    up, :math:`n = \lfloor \text{budget} / (\sum_i c_i + 1) \rfloor`, and its
    variance is that of a single measurement, the sum of the positive
    :math:`T^2` over all levels.

    Parameters
    ----------
    t2 : array_like
        Variance estimates per level, highest first (absolute units).
    costs : array_like
        Costs of new units at every level but the lowest, highest first, in
        measurements.
    budget : float
        Available time in measurements: positive, at most :math:`2^{53}`, and enough
        for 2 top-level units of the cheapest design.
    mean : float
        Grand mean, to express half-widths relative to it (in the units of
        ``t2``'s square root). The half-widths depend only on the ratios of ``t2`` to
        ``mean ** 2``, computed without overflow (see the module notes).
    dropped_cost, below_one : str
        How the plan's counts are optimised (see :func:`plan_from_variances` and
        :func:`optimal_counts`); the budget is always charged the true cost. With
        ``objective="half_width"`` they only shape the attached plan.
    objective : {"half_width", "variance"}
        The narrowest half-width over whole counts (default), or the paper's
        procedure (see above).

    Returns
    -------
    Dimensioning
        The counts (:attr:`Dimensioning.counts`, and with the plan's dropped levels
        put back :attr:`Dimensioning.design_counts`), their half-width and the
        one-level default's.

    Raises
    ------
    EsizeError
        Bad costs or budget, or a budget too small for 2 top-level units (with either
        objective).

    Examples
    --------
    A budget of 10000 measurements, a mean of 20: the optimised design against 90
    binaries of one measurement each:

    >>> import esize as ez
    >>> dim = ez.dimension([1.0, 0.5, 2.0], [100.0, 10.0], 10000, mean=20.0,
    ...                    levels=("binary", "execution", "measurement"))
    >>> dim.counts, round(dim.half_width, 4)
    ({'binary': 74, 'execution': 2, 'measurement': 7}, 0.0137)
    >>> dim.default_n, round(dim.default_half_width, 4)
    (90, 0.0196)
    """
    plan = plan_from_variances(
        t2, costs, levels, dropped_cost=dropped_cost, below_one=below_one
    )
    total_cost = float(np.sum(_costs_array(costs, len(np.ravel(t2)))))
    # the variance of one measurement in the plan's scaled units, where it cannot overflow
    scaled = _unscale(np.ravel(t2), -2 * plan.exponent)
    total_var = float(np.sum(np.clip(scaled, 0.0, None)))
    return _dimension(
        plan, budget, _scaled_mean(mean, plan), alpha, total_cost, total_var, objective
    )


def _full_hierarchy(plan: Plan):
    """Names, variances (scaled, :attr:`Plan.t2_scaled`) and true costs of the whole
    design, highest first.

    A dropped top level comes back with variance 0 and its cost: the next
    experiment still has its units, and the interval's degrees of freedom count them.
    """
    names, t2, costs = list(plan.levels), list(cast(np.ndarray, plan.t2_scaled)), list(plan.costs)
    if plan.outer_level is not None:
        names, t2, costs = [plan.outer_level, *names], [0.0, *t2], [plan.outer_cost, *costs]
    return names, np.asarray(t2, dtype=np.float64), np.asarray(costs, dtype=np.float64)


def dimension_for_plan(
    plan: Plan,
    budget: float,
    *,
    mean: float = 1.0,
    alpha: float = 0.05,
    total_cost: float | None = None,
    total_variance: float | None = None,
    objective: str = "half_width",
) -> Dimensioning:
    r"""Dimension an existing :class:`Plan` for ``budget`` (see :func:`dimension`).

    With ``objective="half_width"`` the counts minimise the reported half-width
    :math:`t_{1-\alpha/2,\,n_{n+1}-1} \sqrt{\operatorname{var}(\overline{Y})}`
    over whole counts that fit the budget, the top count the largest affordable.
    For every top count :math:`N` from 2 to 1024 (and on a grid refined around
    the best beyond), the level below the top takes as many units as the budget per
    top unit allows, the lower levels are tried around their continuous optimum
    (:func:`continuous_counts`, from one half to twice it, and 1) and then raised
    while the budget allows. The one-level default is one of the designs tried, so
    the result is never wider than it; for three levels and small budgets the tests
    compare the result with an exhaustive search.

    A top level the plan dropped (:attr:`Plan.outer_level`) is part of the
    design, with variance 0 and its true cost: the interval's degrees of freedom
    count its units, so it needs at least 2 of them.

    ``total_cost`` (build + warm-up + ..., in measurements) and ``total_variance``
    (variance of a single measurement, in the data's units squared) describe the
    one-level default; by default they are the sums of the design's costs and
    variances.

    ``mean`` is in the data's units. The half-widths are computed from the plan's
    scaled variances (:attr:`Plan.t2_scaled`) and the mean divided by
    :math:`2^e` (:attr:`Plan.exponent`), so they do not depend on the unit of measure
    and data near :math:`10^{\pm 300}` are dimensioned like any other.

    Raises
    ------
    EsizeError
        The budget is not positive, above :math:`2^{53}`, or cannot pay for 2
        top-level units even with one unit of every level below.

    Examples
    --------
    The plan of :func:`plan_from_design`'s example, for 5000 measurements:

    >>> import esize as ez
    >>> d = ez.Design([[[10, 12, 11], [12, 10, 11]], [[14, 15, 13], [13, 15, 14]],
    ...                [[16, 17, 18], [18, 17, 16]]], ("binary", "execution", "measurement"))
    >>> dim = ez.dimension_for_plan(ez.plan_from_design(d, [100.0, 10.0]), 5000, mean=14.0)
    >>> dim.counts, dim.cost, round(dim.half_width, 4), round(dim.default_half_width, 4)
    ({'binary': 44, 'measurement': 3}, 4972.0, 0.0656, 0.0667)
    """
    if total_variance is not None:
        total_variance = float(_unscale(total_variance, -2 * plan.exponent))
    return _dimension(
        plan, budget, _scaled_mean(mean, plan), alpha, total_cost, total_variance, objective
    )


def _scaled_mean(mean: float, plan: Plan) -> float:
    """``mean / 2**e`` for the plan's exponent ``e`` (exact)."""
    return math.ldexp(float(mean), -plan.exponent)


def _dimension(plan, budget, mean, alpha, total_cost, total_variance, objective):
    """:func:`dimension_for_plan` with ``mean`` and ``total_variance`` already in the
    plan's scaled units (divided by ``2**e`` and ``2**(2 e)``)."""
    if objective not in OBJECTIVES:
        raise EsizeError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
    budget = _check_budget(budget)
    names, s, c = _full_hierarchy(plan)
    cheapest = float(np.sum(c)) + 1.0
    if budget < 2.0 * cheapest * (1.0 - 1e-12):
        raise EsizeError(
            f"budget {budget:g} does not pay for 2 units of the top level {names[0]!r}: "
            f"one costs at least {cheapest:g} measurements (with one unit of every level "
            f"below it), so at least {2.0 * cheapest:g} are needed for an interval"
        )
    if objective == "variance":
        low = [plan.counts[k] for k in plan.levels[1:]]
        counts = _variance_counts(low, c, budget, dropped_top=plan.outer_level is not None)
        # the paper's procedure runs one unit of a dropped top level: the level under
        # it is the interval's top
        top = 1 if plan.outer_level is not None else 0
    else:
        top = 0
        sp, cp = s[::-1], c[::-1]
        plan_s = np.asarray(plan.t2_scaled, dtype=np.float64)[::-1]
        plan_c = np.asarray(plan.costs, dtype=np.float64)[::-1]
        # continuous optimum of the levels below the one under the top
        x = _merged_optimum(plan_s, plan_c) if plan_s.size > 1 else np.zeros(0)
        centre = x if plan.outer_level is not None else x[:-1]
        counts, _ = _search(sp, cp, budget, alpha, centre)
    n_top = counts[top]
    # (the floors allow 1e-9 of a unit for rounding, hence the tolerance)
    if n_top >= 2 and experiment_cost(counts, c) <= budget * (1 + 1e-9):
        var = model_mean_variance(s, counts)
        hw = critical_value(alpha, n_top - 1) * math.sqrt(var) / mean
    else:
        hw = math.inf
    if total_cost is None:
        total_cost = float(np.sum(c))
    if total_variance is None:
        total_variance = float(np.sum(s))
    n_def = int(_floor(budget / (total_cost + 1.0)))
    if n_def >= 2:
        hw_def = critical_value(alpha, n_def - 1) * math.sqrt(total_variance / n_def) / mean
    else:
        hw_def = math.inf
    if objective == "half_width" and hw_def < hw:
        # never wider than the default printed beside it: recommend the default
        counts, hw = [n_def] + [1] * (len(names) - 1), hw_def
    return Dimensioning(dict(zip(names, counts)), hw, n_def, hw_def, plan, objective)
