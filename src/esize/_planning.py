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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._design import Design
from ._errors import EsizeError
from ._estimators import model_mean_variance, variance_components
from ._intervals import critical_value

__all__ = [
    "Plan",
    "optimal_counts",
    "plan_from_variances",
    "plan_from_design",
    "experiment_cost",
    "Dimensioning",
    "dimension",
    "dimension_for_plan",
]


def _costs_array(costs, n_levels: int) -> np.ndarray:
    c = np.asarray(costs, dtype=np.float64).ravel()
    if c.size != n_levels - 1:
        raise EsizeError(
            f"{c.size} cost(s) given for {n_levels} levels; need one per level "
            f"except the lowest ({n_levels - 1})"
        )
    if not np.all(np.isfinite(c)) or np.any(c <= 0):
        raise EsizeError(f"costs must be positive and finite, got {c.tolist()}")
    return c


def optimal_counts(t2, costs) -> np.ndarray:
    """Optimal repetition counts (rounded up) for all but the top level.

    Parameters
    ----------
    t2 : array_like
        Variance estimates per level, highest first; all must be positive.
    costs : array_like
        Cost of a new unit at every level but the lowest, highest first, in
        measurements (for three levels: build cost, then warm-up).

    Returns
    -------
    ndarray of int
        Counts for levels ``1 ..`` (highest first, the top level excluded); at
        least 1 each.
    """
    s = np.asarray(t2, dtype=np.float64).ravel()
    c = _costs_array(costs, s.size)
    if s.size < 2:
        return np.zeros(0, dtype=np.int64)
    if np.any(~np.isfinite(s)) or np.any(s <= 0):
        raise EsizeError(
            "optimal counts need positive variances at every level; drop levels with "
            "T^2 <= 0 first (plan_from_variances / plan_from_design do this)"
        )
    # paper order: index 0 = level 1 (lowest)
    sl, cl = s[::-1], c[::-1]
    n = np.empty(s.size - 1)
    n[0] = math.sqrt(cl[0] * sl[0] / sl[1])
    for i in range(1, s.size - 1):
        n[i] = math.sqrt(cl[i] / cl[i - 1] * sl[i] / sl[i + 1])
    # guard against 4.0000000001 from rounding in the square root
    n = np.ceil(np.round(n, 9)).astype(np.int64)
    return np.maximum(n, 1)[::-1]


def experiment_cost(counts, costs) -> float:
    """Total cost of an experiment in measurements (the paper's cost model).

    Parameters
    ----------
    counts : array_like
        Repetition counts of every level, highest first (the top included).
    costs : array_like
        Cost of a new unit at every level but the lowest, highest first.
    """
    n = np.asarray(counts, dtype=np.float64).ravel()
    c = _costs_array(costs, n.size)
    total = n[-1]
    for k in range(n.size - 2, -1, -1):
        total = (c[k] + total) * n[k]
    return float(total)


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
        Variance estimates of the remaining levels (highest first).
    costs : ndarray
        True costs of the remaining levels but the lowest, with dropped levels'
        costs folded into the level above (highest first).
    counts : dict
        Optimal counts for every remaining level but the top one.
    dropped_cost : str
        ``"fold"`` (optimise with the true costs) or ``"replace"`` (the paper's
        convention: after a drop, optimise as if a new unit of the level above cost
        only what a unit of the dropped level cost).
    """

    levels: tuple[str, ...]
    dropped: tuple[str, ...]
    t2: np.ndarray
    costs: np.ndarray
    counts: dict[str, int]
    dropped_cost: str = "fold"

    def as_dict(self) -> dict:
        return {
            "dropped": list(self.dropped),
            "levels": list(self.levels),
            "counts": {k: int(v) for k, v in self.counts.items()},
            "T2": {k: float(v) for k, v in zip(self.levels, self.t2)},
            "costs": {k: float(v) for k, v in zip(self.levels[:-1], self.costs)},
            "dropped_cost": self.dropped_cost,
        }


DROPPED_COST_RULES = ("fold", "replace")


def _drop(levels, costs, opt_costs, j, rule):
    """Remove level ``j`` (not the lowest) from names and cost lists.

    ``costs`` are the true costs: the dropped level's cost folds into the level
    above (one execution per binary costs the build plus the warm-up). ``opt_costs``
    are the costs used for optimisation: the same under ``rule="fold"``; under
    ``rule="replace"`` the level above takes the dropped level's cost alone, the
    convention of the paper's worked example and Table ``tPrecisions``.
    """
    costs, opt_costs = list(costs), list(opt_costs)
    if j > 0:
        costs[j - 1] += costs[j]
        opt_costs[j - 1] = opt_costs[j - 1] + opt_costs[j] if rule == "fold" else opt_costs[j]
    del costs[j]
    del opt_costs[j]
    return levels[:j] + levels[j + 1 :], costs, opt_costs


def _check_rule(rule: str) -> str:
    if rule not in DROPPED_COST_RULES:
        raise EsizeError(f"dropped_cost must be one of {DROPPED_COST_RULES}, got {rule!r}")
    return rule


def _finish(levels, dropped, t2, costs, opt_costs, rule) -> Plan:
    counts = optimal_counts(t2, opt_costs) if len(levels) > 1 else np.zeros(0, dtype=int)
    return Plan(
        tuple(levels),
        tuple(dropped),
        np.asarray(t2, dtype=np.float64),
        np.asarray(costs, dtype=np.float64),
        dict(zip(levels[1:], (int(x) for x in counts))),
        rule,
    )


def plan_from_variances(
    t2, costs, levels: Sequence[str] | None = None, *, dropped_cost: str = "fold"
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
    the narrower interval for a given budget.
    """
    s = [float(x) for x in np.asarray(t2, dtype=np.float64).ravel()]
    names = list(levels) if levels is not None else [f"level{len(s) - k}" for k in range(len(s))]
    if len(names) != len(s):
        raise EsizeError("one level name per variance is needed")
    rule = _check_rule(dropped_cost)
    c = list(_costs_array(costs, len(s)))
    oc = list(c)
    if s[-1] <= 0:
        raise EsizeError("the lowest level's variance must be positive")
    dropped: list[str] = []
    while True:
        bad = [j for j in range(len(s) - 1) if s[j] <= 0]
        if not bad:
            break
        j = bad[-1]  # the lowest offending level
        dropped.append(names[j])
        names, c, oc = _drop(names, c, oc, j, rule)
        del s[j]
    return _finish(names, dropped, s, c, oc, rule)


def plan_from_design(design: Design, costs, *, dropped_cost: str = "fold") -> Plan:
    """Plan from data: iteratively merge levels whose :math:`T^2 \\le 0` and re-estimate.

    This is the paper's procedure (Section "For Practitioners: The New Method
    without Statistics"): a level with
    :math:`T_i^2 \\le 0` is merged into the level below
    (:meth:`Design.merge`), the variances are estimated again on the merged data,
    and so on until every remaining :math:`T^2` is positive. Levels are dropped
    lowest first; a dropped level's cost folds into the level above.
    """
    rule = _check_rule(dropped_cost)
    c = list(_costs_array(costs, design.n_levels))
    oc = list(c)
    d = design
    dropped: list[str] = []
    while True:
        vc = variance_components(d)
        bad = [j for j in range(d.n_levels - 1) if vc.T2[j] <= 0]
        if not bad:
            break
        j = bad[-1]
        name = d.levels[j]
        dropped.append(name)
        _, c, oc = _drop(list(d.levels), c, oc, j, rule)
        d = d.merge(name)
        if d.n_levels == 1:
            vc = variance_components(d)
            break
    if vc.T2[-1] <= 0:
        raise EsizeError("the measurements do not vary; nothing to plan")
    return _finish(list(d.levels), dropped, list(vc.T2), c, oc, rule)


@dataclass(frozen=True)
class Dimensioning:
    """Precision reachable within a budget (Section "Dimensioning the Experiments").

    Attributes
    ----------
    counts : dict
        Optimised counts of every remaining level, the top level's from the budget.
    half_width : float
        Relative CI half-width of the optimised design (fraction of the mean).
    default_n : int
        Samples of the one-level default (one build, one execution, one measurement
        each).
    default_half_width : float
        Relative CI half-width of the default design.
    plan : Plan
    """

    counts: dict[str, int]
    half_width: float
    default_n: int
    default_half_width: float
    plan: Plan

    def as_dict(self) -> dict:
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
) -> Dimensioning:
    r"""Compare the optimised design with the one-level default for a time budget.

    The optimised design uses :func:`plan_from_variances` (levels with
    :math:`T^2 \le 0` dropped) and as many top-level units as the budget allows,
    :math:`n_{n+1} = \lfloor \text{budget} / \text{cost of one top unit} \rfloor`.
    The default measures one value per top-level unit after building and warming
    up, :math:`n = \lfloor \text{budget} / (\sum_i c_i + 1) \rfloor`, and its
    variance is that of a single measurement, the sum of the positive
    :math:`T^2` over all levels. Both half-widths use Student's t with
    :math:`n_{n+1} - 1` degrees of freedom,

    .. math:: h = \frac{t_{1-\alpha/2,\,n_{n+1}-1}}{\overline{Y}}
                  \sqrt{\operatorname{var}(\overline{Y})}.

    Parameters
    ----------
    t2 : array_like
        Variance estimates per level, highest first (absolute units).
    costs : array_like
        Costs of new units at every level but the lowest, highest first, in
        measurements.
    budget : float
        Available time in measurements.
    mean : float
        Grand mean, to express half-widths relative to it.
    dropped_cost : str
        How dropped levels' costs enter the optimisation (see
        :func:`plan_from_variances`); the budget is always charged the true cost.
    """
    plan = plan_from_variances(t2, costs, levels, dropped_cost=dropped_cost)
    total_cost = float(np.sum(_costs_array(costs, len(np.ravel(t2)))))
    total_var = float(np.sum(np.clip(np.asarray(t2, dtype=np.float64), 0.0, None)))
    return dimension_for_plan(
        plan, budget, mean=mean, alpha=alpha, total_cost=total_cost, total_variance=total_var
    )


def dimension_for_plan(
    plan: Plan,
    budget: float,
    *,
    mean: float = 1.0,
    alpha: float = 0.05,
    total_cost: float | None = None,
    total_variance: float | None = None,
) -> Dimensioning:
    """Dimension an existing :class:`Plan` for ``budget`` (see :func:`dimension`).

    ``total_cost`` (build + warm-up + ..., in measurements) and ``total_variance``
    (variance of a single measurement) describe the one-level default; by default
    they are the sums of the plan's costs and variances.
    """
    if not (budget > 0 and math.isfinite(budget)):
        raise EsizeError(f"budget must be positive, got {budget}")
    counts_low = [plan.counts[k] for k in plan.levels[1:]]
    per_top = experiment_cost([1, *counts_low], plan.costs) if counts_low else 1.0
    n_top = int(math.floor(budget / per_top + 1e-9))
    all_counts = {plan.levels[0]: n_top, **plan.counts}
    if n_top >= 2:
        var = model_mean_variance(plan.t2, [n_top, *counts_low])
        hw = critical_value(alpha, n_top - 1) * math.sqrt(var) / mean
    else:
        hw = math.inf
    if total_cost is None:
        total_cost = float(np.sum(plan.costs))
    if total_variance is None:
        total_variance = float(np.sum(plan.t2))
    n_def = int(math.floor(budget / (total_cost + 1.0) + 1e-9))
    if n_def >= 2:
        hw_def = critical_value(alpha, n_def - 1) * math.sqrt(total_variance / n_def) / mean
    else:
        hw_def = math.inf
    return Dimensioning(all_counts, hw, n_def, hw_def, plan)
