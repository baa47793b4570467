"""Optimal repetition counts and the cost model of an experiment.

Part of experiment planning (:mod:`esize._planning`, which describes the method): the
continuous optimum of the counts with every count at least 1
(:func:`continuous_counts`), the rounded counts (:func:`optimal_counts`) and the cost
of an experiment in measurements (:func:`experiment_cost`). Variances are planned
divided by a power of four (:func:`_variance_exponent`), so that nothing overflows.
"""

from __future__ import annotations

import math

import numpy as np

from ._errors import EsizeError

__all__ = [
    "BELOW_ONE_RULES",
    "continuous_counts",
    "optimal_counts",
    "experiment_cost",
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

    Examples
    --------
    Binaries, executions and measurements with variances 1, 0.5 and 2, a build
    costing 100 measurements and a warm-up 10: executions
    :math:`\\lceil\\sqrt{100/10 \\cdot 0.5/1}\\rceil = 3`, measurements
    :math:`\\lceil\\sqrt{10 \\cdot 2/0.5}\\rceil = 7`:

    >>> import esize as ez
    >>> ez.optimal_counts([1.0, 0.5, 2.0], [100.0, 10.0]).tolist()
    [3, 7]

    Executions that hardly vary run once per binary; merged, or clamped as printed:

    >>> ez.optimal_counts([1.0, 0.01, 2.0], [100.0, 10.0]).tolist()
    [1, 15]
    >>> ez.optimal_counts([1.0, 0.01, 2.0], [100.0, 10.0], below_one="clamp").tolist()
    [1, 45]
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

    Examples
    --------
    10 binaries (build cost 100) of 3 executions (warm-up 10) of 5 measurements,
    :math:`(100 + (10 + 5) \\cdot 3) \\cdot 10`:

    >>> import esize as ez
    >>> ez.experiment_cost([10, 3, 5], [100.0, 10.0])
    1450.0
    """
    n = np.asarray(counts, dtype=np.float64).ravel()
    c = _costs_array(costs, n.size)
    total = n[-1]
    for k in range(n.size - 2, -1, -1):
        total = (c[k] + total) * n[k]
    return float(total)

