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

import numpy as np

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


BELOW_ONE_RULES = ("merge", "clamp")
OBJECTIVES = ("half_width", "variance")
#: Largest budget and count handled: integers above 2**53 are not exact in floats.
_MAX_COUNT = float(2**53)


def _check_below_one(rule: str) -> str:
    if rule not in BELOW_ONE_RULES:
        raise EsizeError(f"below_one must be one of {BELOW_ONE_RULES}, got {rule!r}")
    return rule


def _variance_exponent(s) -> int:
    """The ``e`` for which the largest positive ``s / 2**(2 e)`` lies in [1/4, 1) (0
    when none is positive).

    Dividing variances by an even power of two is exact (away from the subnormals)
    and divides their square roots by ``2**e`` exactly, so ratios, sums and half-widths
    relative to a mean divided by ``2**e`` are those of the given values, but nothing
    overflows. Entries that are not positive are dropped by planning and do not count.
    """
    s = np.asarray(s, dtype=np.float64)
    positive = s[s > 0]
    m = float(np.max(positive)) if positive.size else 0.0
    if not math.isfinite(m) or m == 0.0:
        return 0
    return (math.frexp(m)[1] + 1) // 2


def _unscale(v, exponent: int):
    """``v * 2**exponent``: exact, or inf / 0 when the result is beyond the floats."""
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(np.asarray(v, dtype=np.float64), exponent)


def _positive_variances(t2) -> np.ndarray:
    """The variances, checked (finite, positive) and divided by ``4**e`` so that the
    largest lies in [1/4, 1) (:func:`_variance_exponent`): counts depend on their
    ratios only, which this leaves unchanged."""
    s = np.asarray(t2, dtype=np.float64).ravel()
    if np.any(~np.isfinite(s)):
        raise EsizeError(f"variance estimates must be finite to plan, got {s.tolist()}")
    if np.any(s <= 0):
        raise EsizeError(
            "optimal counts need positive variances at every level; drop levels with "
            "T^2 <= 0 first (plan_from_variances / plan_from_design do this)"
        )
    return _unscale(s, -2 * _variance_exponent(s))


def _merged_optimum(s, c) -> np.ndarray:
    """Continuous optimum with every count at least 1, paper order (lowest level first).

    ``s`` holds the variances of levels ``1 .. n+1``, ``c`` the costs
    :math:`c_1 .. c_n`. See :func:`continuous_counts`.
    """
    var = [float(v) for v in s]
    unit = [1.0, *(float(v) for v in c)]  # cost of a new unit of each level, children apart
    groups = [[i] for i in range(len(var))]  # original levels in each (merged) level
    while True:
        x = [
            math.sqrt(unit[i + 1] / unit[i] * var[i] / var[i + 1]) for i in range(len(var) - 1)
        ]
        if not x or min(x) >= 1.0:
            break
        j = int(np.argmin(x))  # the clearest case first, then optimise again
        var[j + 1] += var[j]
        unit[j + 1] += unit[j]
        groups[j + 1] = groups[j] + groups[j + 1]
        del var[j], unit[j], groups[j]
    out = np.ones(len(s) - 1)
    for g, xg in zip(groups[:-1], x):
        out[g[-1]] = xg  # the merged level's count is its highest member's
    return out


def continuous_counts(t2, costs) -> np.ndarray:
    r"""Optimal counts before rounding, every count at least 1 (the top level excluded).

    Equation ``eopt`` of Section "Experiment Planning" gives the unconstrained
    optimum. Writing :math:`u_1 = 1` for the cost of one measurement and
    :math:`u_{i+1} = c_i` for the cost of a new unit of level :math:`i + 1` (its own
    cost, its children apart), it reads

    .. math:: n_i = \sqrt{\frac{u_{i+1}}{u_i} \frac{\sigma_i^2}{\sigma_{i+1}^2}},
              \quad 1 \le i \le n.

    A count cannot be below 1. When the smallest :math:`n_i < 1`, level :math:`i`
    gets :math:`n_i = 1`: every unit of level :math:`i + 1` then holds exactly one
    unit of level :math:`i`, and the cost model (equation ``ecost``) and the
    variance of the mean,

    .. math:: c = (\dots (u_{i+1} + (u_i + k_{i-1}) \cdot 1) n_{i+1} \dots),
              \qquad \dots + \frac{\sigma_i^2 + \sigma_{i+1}^2}{p_{i+1}} + \dots,

    are those of an experiment in which the two levels are one, with variance
    :math:`\sigma_i^2 + \sigma_{i+1}^2` and unit cost :math:`u_i + u_{i+1}` (a new
    binary that runs once costs its build plus one execution's warm-up). The
    remaining counts are optimised again for that experiment, and so on until every
    free count is at least 1. The objective is a posynomial in the counts, convex in
    their logarithms, so this is its minimum over counts :math:`\ge 1` (the tests
    check it against a numerical minimiser).

    Parameters
    ----------
    t2 : array_like
        Variance estimates per level, highest first; all must be positive.
    costs : array_like
        Cost of a new unit at every level but the lowest, highest first.

    Returns
    -------
    ndarray of float
        Counts for the levels below the top, highest first; merged levels get 1.
    """
    s = _positive_variances(t2)
    c = _costs_array(costs, s.size)
    if s.size < 2:
        return np.zeros(0)
    return _merged_optimum(s[::-1], c[::-1])[::-1]


def optimal_counts(t2, costs, *, below_one: str = "merge") -> np.ndarray:
    """Optimal repetition counts (rounded up) for all but the top level.

    Parameters
    ----------
    t2 : array_like
        Variance estimates per level, highest first; all must be positive.
    costs : array_like
        Cost of a new unit at every level but the lowest, highest first, in
        measurements (for three levels: build cost, then warm-up).
    below_one : {"merge", "clamp"}
        What a continuous optimum below 1 does. ``"merge"`` (default): the level
        gets 1 and the others are optimised again (:func:`continuous_counts`).
        ``"clamp"``: the paper's formula as printed, every count
        :math:`\\max(1, \\lceil n_i \\rceil)` with the others unchanged (used to
        reproduce Table ``tPrecisions``).

    Returns
    -------
    ndarray of int
        Counts for levels ``1 ..`` (highest first, the top level excluded); at
        least 1 each.
    """
    rule = _check_below_one(below_one)
    s = np.asarray(t2, dtype=np.float64).ravel()
    c = _costs_array(costs, s.size)
    if s.size < 2:
        return np.zeros(0, dtype=np.int64)
    s = _positive_variances(s)
    if rule == "merge":
        n = continuous_counts(s, c)
    else:
        sl, cl = s[::-1], c[::-1]  # paper order: index 0 = level 1 (lowest)
        n = np.empty(s.size - 1)
        n[0] = math.sqrt(cl[0] * sl[0] / sl[1])
        for i in range(1, s.size - 1):
            n[i] = math.sqrt(cl[i] / cl[i - 1] * sl[i] / sl[i + 1])
        n = n[::-1]
    if np.any(n > _MAX_COUNT):
        raise EsizeError(
            f"an optimal count of {float(np.max(n)):.3g} is too large to plan (above 2**53): "
            "a level varies far too little against the one below it"
        )
    # guard against 4.0000000001 from rounding in the square root
    n = np.ceil(np.round(n, 9)).astype(np.int64)
    return np.maximum(n, 1)


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
                for k, v, w in zip(self.levels, self.t2, self.t2_scaled)
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
        if not np.all(np.isfinite(vc.T2_scaled)):  # finite data give finite estimates
            raise EsizeError("the variance estimates are not finite")
        bad = [j for j in range(d.n_levels - 1) if vc.T2_scaled[j] <= 0]
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
    if vc.T2_scaled[-1] <= 0:
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


def _check_budget(budget) -> float:
    try:
        b = float(budget)
    except (TypeError, ValueError):
        raise EsizeError(f"budget must be a number, got {budget!r}") from None
    if not (b > 0 and math.isfinite(b)):
        raise EsizeError(f"budget must be positive, got {budget}")
    if b > _MAX_COUNT:
        raise EsizeError(
            f"budget {b:g} is too large: at most 2**53 = {_MAX_COUNT:.6g} measurements "
            "(larger counts are not exact in floating point)"
        )
    return b


def _full_hierarchy(plan: Plan):
    """Names, variances (scaled, :attr:`Plan.t2_scaled`) and true costs of the whole
    design, highest first.

    A dropped top level comes back with variance 0 and its cost: the next
    experiment still has its units, and the interval's degrees of freedom count them.
    """
    names, t2, costs = list(plan.levels), list(plan.t2_scaled), list(plan.costs)
    if plan.outer_level is not None:
        names, t2, costs = [plan.outer_level, *names], [0.0, *t2], [plan.outer_cost, *costs]
    return names, np.asarray(t2, dtype=np.float64), np.asarray(costs, dtype=np.float64)


def _floor(x):
    return np.floor(x + 1e-9)


def _t_quantiles(alpha: float, df: np.ndarray) -> np.ndarray:
    """Student's t quantiles :math:`t_{1-\\alpha/2}` for an array of degrees of freedom."""
    from scipy.special import stdtrit

    uniq, inv = np.unique(df, return_inverse=True)
    return stdtrit(uniq, 1.0 - alpha / 2.0)[inv]


def _candidate_counts(x: float, k: int) -> np.ndarray:
    """Whole counts to try for a level whose continuous optimum is ``x``: about ``k``
    spread geometrically from 1 to ``2 x`` (a tight budget per top unit can call for
    far fewer units than ``x``) and about ``k`` over ``[x / 2, 2 x]`` (all of
    them when few)."""
    lo, hi = max(1.0, math.floor(x / 2.0)), max(1.0, math.ceil(2.0 * x))
    near = np.arange(lo, hi + 1) if hi - lo + 1 <= k else np.round(np.geomspace(lo, hi, k))
    wide = np.round(np.geomspace(1.0, hi, k))
    extra = [max(1.0, math.floor(x)), max(1.0, math.ceil(x))]
    return np.unique(np.concatenate([wide, near, extra]))


def _search(s, c, budget, alpha, centre) -> tuple[list[int], float]:
    r"""Whole counts with the narrowest half-width (up to the factor :math:`1/\overline{Y}`).

    Paper order: ``s`` are the variances of levels 1 .. m+1 (top last), ``c`` the
    costs :math:`c_1 .. c_m`, ``centre`` the continuous optimum of levels
    1 .. m-1. Given the top count :math:`N`, the count of level :math:`m` is the
    largest the budget allows and the lower counts are tried around ``centre``;
    every count is then raised while the budget per top unit still allows it (more
    units below never widen the interval). :math:`N` runs over every value from 2
    up to 1024 and over a geometric grid, refined around the best, beyond.
    Returns the counts (top first) and :math:`t \sqrt{\operatorname{var}}`.
    """
    m = len(s) - 1
    if m == 0:
        n_top = int(_floor(budget))
        var = s[0] / n_top
        return [n_top], float(_t_quantiles(alpha, np.array([n_top - 1.0]))[0] * math.sqrt(var))
    # candidate counts of levels 1 .. m-1: about 64 each, at most ~800 combinations
    k = min(32, max(3, int(800 ** (1.0 / (m - 1)) / 2))) if m > 1 else 1
    low = _grid([_candidate_counts(x, k) for x in centre])
    cheapest = float(np.sum(c)) + 1.0  # every count 1
    n_hi = float(_floor(budget / cheapest))
    small = np.arange(1.0, 33.0)  # counts of level m tried one by one

    def evaluate(tops, low):
        tops = np.unique(tops[(tops >= 2) & (tops <= n_hi)])
        per_top = budget / tops  # what one top unit may cost
        # (a) counts below level m around their optimum, level m as large as allowed
        n = np.empty((low.shape[0], tops.size, m))
        n[:, :, : m - 1] = low[:, None, :]
        unit = c[m - 2] + _k(low, c, m - 2) if m > 1 else np.ones(low.shape[0])
        n[:, :, m - 1] = _floor((per_top[None, :] - c[m - 1]) / unit[:, None])
        if m > 1:
            # (b) few units of level m, one count after the other, the levels below
            # filled from 1: where level m gets few units, whole counts matter most
            few = np.ones((small.size, tops.size, m))
            few[:, :, m - 1] = small[:, None]
            n = np.concatenate([n, few], axis=0)
        n = np.maximum(n, 1.0)
        # then fill: raise lower counts as far as the budget per top unit allows,
        # every level from the top down, and (for the candidates of (a)) only the lowest
        filled = [_fill(n.copy(), c, per_top, range(m - 2, -1, -1))]
        if m > 2:
            filled.append(_fill(n[: low.shape[0]].copy(), c, per_top, [0]))
        n = np.concatenate(filled, axis=0)
        top = _floor(budget / _per_top(n, c))
        ok = top >= 2
        top = np.where(ok, top, 2.0)  # placeholders for the designs ruled out
        prods = np.cumprod(n[:, :, ::-1], axis=2)[:, :, ::-1]  # prod(n_i .. n_m)
        var = (s[m] + np.sum(s[None, None, :m] / prods, axis=2)) / top
        hw = np.where(ok, _t_quantiles(alpha, top - 1.0) * np.sqrt(var), np.inf)
        r, q = np.unravel_index(int(np.argmin(hw)), hw.shape)
        return float(hw[r, q]), [int(top[r, q]), *(int(v) for v in n[r, q, ::-1])]

    dense = np.arange(2.0, min(n_hi, 1024.0) + 1.0)
    tops, ratio = dense, 1.0
    if n_hi > 1024.0:
        ratio = (n_hi / 1024.0) ** (1.0 / 256)
        tops = np.concatenate([dense, np.round(np.geomspace(1024.0, n_hi, 257)), [n_hi]])
    best_hw, best = evaluate(tops, low)
    # beyond 1024 top units: finer grids around the best top count, the lower counts
    # near the best ones
    while best[0] > 1024.0 and ratio > 1.0:
        lo, hi = max(2.0, math.floor(best[0] / ratio)), min(n_hi, math.ceil(best[0] * ratio))
        if hi - lo <= 512:
            tops, ratio = np.arange(lo, hi + 1.0), 1.0
        else:
            tops = np.concatenate([np.round(np.geomspace(lo, hi, 513)), [best[0]]])
            ratio = (hi / lo) ** (1.0 / 512)
        near = _grid([np.arange(max(1, v - 2), v + 3, dtype=np.float64) for v in best[:1:-1]])
        hw, cand = evaluate(tops, near)
        if hw < best_hw:
            best_hw, best = hw, cand
    return best, best_hw


def _grid(axes) -> np.ndarray:
    """All combinations of the values in ``axes``, one row each (one empty row for
    no axes)."""
    if not axes:
        return np.zeros((1, 0))
    return np.stack([a.ravel() for a in np.meshgrid(*axes, indexing="ij")], axis=1)


def _fill(n, c, per_top, levels):
    """Raise the counts of ``levels`` (paper order, in the order given) of the
    candidate designs ``n`` (shape (P, T, m)) while one top unit costs at most
    ``per_top`` (shape (T,)); the cost is affine in each count."""
    for j in levels:
        cost = _per_top(n, c)
        below = np.ones(n.shape[:2]) if j == 0 else c[j - 1] + _k(n, c, j - 1)
        slope = below * np.prod(n[:, :, j + 1 :], axis=2)
        rest = cost - slope * n[:, :, j]
        n[:, :, j] = np.maximum(n[:, :, j], _floor((per_top[None, :] - rest) / slope))
    return n


def _k(n, c, j):
    """:math:`k_{j+1}` of the paper (cost of a unit of level j+2, its own cost apart),
    paper order, for count arrays of shape (..., m)."""
    k = n[..., 0]
    for i in range(1, j + 1):
        k = (c[i - 1] + k) * n[..., i]
    return k


def _per_top(n, c):
    """Cost of one top unit for count arrays of shape (..., m) (paper order)."""
    m = n.shape[-1]
    return c[m - 1] + _k(n, c, m - 1)


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
    """
    if total_variance is not None:
        total_variance = float(_unscale(total_variance, -2 * plan.exponent))
    return _dimension(
        plan, budget, _scaled_mean(mean, plan), alpha, total_cost, total_variance, objective
    )


def _unit_costs(counts, c) -> list[float]:
    """Cost of one unit of every level (highest first) for ``counts`` (highest
    first; the top's own count is not used) and true costs ``c``: a unit of the lowest
    level costs 1, one of level ``k`` costs ``c[k]`` plus its ``counts[k + 1]``
    children."""
    u = [1.0] * len(counts)
    for k in range(len(counts) - 2, -1, -1):
        u[k] = float(c[k]) + float(counts[k + 1]) * u[k + 1]
    return u


def _variance_counts(low, c, budget: float, *, dropped_top: bool) -> list[int]:
    r"""Counts of the paper's procedure (``objective="variance"``), highest first,
    never fewer than 2 top-level units.

    The plan's counts below the top and as many top units as the budget buys,
    :math:`\lfloor \text{budget} / \text{cost of a top unit} \rfloor`. When that is
    fewer than 2 (the plan's lower counts are dear for the budget) the top gets 2
    and the budget per top unit goes to the levels below, highest first: the level
    under the top takes as many units as fit with the plan's counts beneath it;
    when not even one fits it gets 1 and the next level down does the same, and so
    on. With the top fixed, this is the variance-minimising procedure one level
    down, so the lower counts keep their optimum where the budget allows.

    A top level the plan dropped (``dropped_top``: variance 0) gets 2 units, the
    fewest that give an interval, and the plan's top level takes the rest of the
    budget in the same way.

    Parameters
    ----------
    low : list of int
        The plan's counts for the levels under the design's top (for a dropped top,
        under the plan's top), highest first.
    c : ndarray
        True costs of the whole design (:func:`_full_hierarchy`), highest first.
    budget : float
        At least 2 top units with one unit of every level below (checked before).
    dropped_top : bool
        Whether the design's top level is one the plan dropped.

    Returns
    -------
    list of int
        One count per level of the design, the top's first, all at least 1.
    """
    n_levels = len(c) + 1
    if n_levels == 1:
        return [int(_floor(budget))]
    # counts of the whole design; a dropped top's plan level has no plan count
    counts = [0, 0, *low] if dropped_top else [0, *low]
    if not dropped_top:
        n_top = int(_floor(budget / _unit_costs(counts, c)[0]))
        if n_top >= 2:
            return [n_top, *low]
    counts[0] = 2
    allowed = budget / 2.0  # what one unit of the level above may cost
    for k in range(1, n_levels):
        allowed -= float(c[k - 1])  # its own cost: the rest pays for its children
        n = int(_floor(allowed / _unit_costs(counts, c)[k]))
        if n >= 1:
            counts[k] = n
            return counts
        counts[k] = 1
    raise EsizeError(  # unreachable: the budget pays for 2 units of the cheapest design
        f"budget {budget:g} does not pay for 2 top-level units"
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
    else:
        sp, cp = s[::-1], c[::-1]
        plan_s = np.asarray(plan.t2_scaled, dtype=np.float64)[::-1]
        plan_c = np.asarray(plan.costs, dtype=np.float64)[::-1]
        # continuous optimum of the levels below the one under the top
        x = _merged_optimum(plan_s, plan_c) if plan_s.size > 1 else np.zeros(0)
        centre = x if plan.outer_level is not None else x[:-1]
        counts, _ = _search(sp, cp, budget, alpha, centre)
    n_top = counts[0]
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
