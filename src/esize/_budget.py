"""Whole counts within a budget: the searches behind dimensioning.

Part of experiment planning (:mod:`esize._planning`): :func:`_search` finds the whole
counts with the narrowest interval half-width that a budget pays for (the objective
``"half_width"`` of :func:`esize.dimension`), :func:`_variance_counts` the counts of
the paper's procedure (``"variance"``). Counts are in paper order (lowest level
first) in the search and highest first elsewhere, as each function says.
"""

from __future__ import annotations

import math

import numpy as np

from ._counts import _MAX_COUNT
from ._errors import EsizeError


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
    never fewer than 2 units of the interval's top level.

    The plan's counts below the top and as many top units as the budget buys,
    :math:`\lfloor \text{budget} / \text{cost of a top unit} \rfloor`. When that is
    fewer than 2 (the plan's lower counts are dear for the budget) the top gets 2
    and the budget per top unit goes to the levels below, highest first: the level
    under the top takes as many units as fit with the plan's counts beneath it;
    when not even one fits it gets 1 and the next level down does the same, and so
    on. With the top fixed, this is the variance-minimising procedure one level
    down, so the lower counts keep their optimum where the budget allows.

    A top level the plan dropped (``dropped_top``: variance 0) gets one unit, as the
    paper removes a level whose :math:`T_i^2 \le 0` ("semantically equivalent of
    running the experiment again with fewer levels"): one binary, the plan's top
    level then the top of the interval, with as many units as the rest of the budget
    buys (at least 2, the levels below giving way as above when they do not fit).

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
    counts = [1, 0, *low] if dropped_top else [0, *low]
    top = 1 if dropped_top else 0  # the interval's top level
    if dropped_top:  # one unit of the dropped level: its own cost, once
        budget -= float(c[0])
        n_levels, c, counts = n_levels - 1, c[1:], counts[1:]
    n_top = int(_floor(budget / _unit_costs(counts, c)[0])) if len(c) else int(_floor(budget))
    if n_top >= 2:
        return [1] * top + [n_top, *counts[1:]]
    counts[0] = 2
    allowed = budget / 2.0  # what one unit of the level above may cost
    for k in range(1, n_levels):
        allowed -= float(c[k - 1])  # its own cost: the rest pays for its children
        n = int(_floor(allowed / _unit_costs(counts, c)[k]))
        if n >= 1:
            counts[k] = n
            return [1] * top + counts
        counts[k] = 1
    raise EsizeError(  # unreachable: the budget pays for 2 units of the cheapest design
        f"budget {budget:g} does not pay for 2 top-level units"
    )

