"""Sizing the measured dataset with the method it validates: a pilot, then a plan.

For every program a short **pilot** (a few builds x a few processes x some
iterations, measured under the same guard as the dataset) gives its mean iteration
time, the variance of each level (:func:`esize.variance_components`, wall time, the
warm-up fraction cut as the study cuts it) and its costs: a build and the overhead of a
process, in iterations. :func:`esize.dimension` then chooses the builds x executions x
iterations that give the narrowest interval for a budget (planned with upper
confidence bounds of the pilot's variances, :func:`upper_variance`), and :func:`size_program`
searches the smallest budget whose **predicted half-width of a ratio** meets the
program's target.

The predicted half-width of the ratio of two versions measured with the same design is
taken as :math:`\\sqrt{2}\\,h`, where :math:`h` is :func:`esize.dimension`'s relative
half-width of one version's mean (the two means are independent with about the same
variance, so the ratio's relative variance is about twice one mean's). That uses
Student's t on :math:`n_1 - 1` degrees of freedom where the ratio's Welch df is about
:math:`2(n_1 - 1)`: slightly conservative.

Warm-up: the study drops the first ``warmup_fraction`` of every process's iterations,
so a process that keeps :math:`n_3` steady iterations runs about
:math:`n_3 / (1 - f)` of them. In units of that cost per steady iteration a build
costs :math:`(1 - f)\\,c_b` and a process :math:`(1 - f)\\,c_e` (``c`` in iterations):
the plan is made in those units and the counts of iterations are then raised to whole
processes (:func:`total_iterations`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np


def warmup_count(fraction: float, n: int) -> int:
    """Iterations counted as warm-up: ``fraction * n`` rounded half up (as the study does)."""
    return int(math.floor(fraction * n + 0.5 + 1e-9))


def total_iterations(steady: int, fraction: float) -> int:
    """The fewest iterations per process that keep ``steady`` after the warm-up cut."""
    n = max(1, int(steady))
    while n - warmup_count(fraction, n) < steady:
        n += 1
    return n


def pilot_estimates(times: np.ndarray, overhead_seconds: Sequence[float],
                    build_seconds: Sequence[float], fraction: float) -> dict:
    """What the plan needs from a pilot of one program.

    Parameters
    ----------
    times : array, shape (builds, executions, iterations)
        Wall times of every iteration, warm-up included (seconds).
    overhead_seconds : per process, its wall time minus the sum of its iterations.
    build_seconds : per build, the time to compile and link it.
    fraction : the warm-up fraction cut from every process.
    """
    from esize import Design, variance_components

    t = np.asarray(times, dtype=float)
    w = warmup_count(fraction, t.shape[-1])
    steady = t[..., w:]
    vc = variance_components(Design(steady, ("binary", "execution", "iteration")))
    b, e, n = steady.shape
    dfs = [b - 1, b * (e - 1), b * e * (n - 1)]
    it = float(steady.mean())
    warm_excess = float((t[..., :w] - steady.mean(axis=-1, keepdims=True)).sum(axis=-1).mean()) \
        if w else 0.0
    return {
        "builds": int(t.shape[0]), "executions": int(t.shape[1]),
        "iterations": int(t.shape[2]), "warmup_iterations": w,
        "mean": it,
        "t2": [float(x) for x in vc.T2],
        "s2": [float(x) for x in vc.S2],
        "plan_t2": [upper_variance(s2, df) for s2, df in zip(vc.S2, dfs)],
        "s_pct": [float(x) for x in vc.S_pct],
        "build_iterations": float(np.mean(build_seconds)) / it,
        "execution_iterations": float(np.mean(overhead_seconds) + warm_excess) / it,
    }


#: One-sided confidence of the variance bounds the plan uses (:func:`upper_variance`).
PLAN_CONFIDENCE = 0.8


def upper_variance(s2: float, df: int, confidence: float = PLAN_CONFIDENCE) -> float:
    """A one-sided upper confidence bound of a level's variance from its :math:`S^2`:
    :math:`S^2\\,\\nu / \\chi^2_{1-c,\\,\\nu}` on :math:`\\nu` degrees of freedom.

    :math:`S^2` of a level is at least its :math:`T^2` in expectation (it also holds
    the lower levels' share), so the bound is conservative twice over: a pilot of a
    few builds that happens to see little variation between them (a :math:`T^2 \\le 0`
    is common with 5-10 builds) does not leave that level under-sampled.
    """
    from scipy.stats import chi2

    if df < 1:
        return float(s2)
    return float(s2) * df / float(chi2.ppf(1.0 - confidence, df))


def _predict(est: Mapping, budget: float, fraction: float) -> list[int]:
    """Counts (builds, executions, steady iterations) :func:`esize.dimension` gives for
    ``budget`` steady-iteration units (the half-width is recomputed for the counts
    finally run, :func:`predicted_half_width`)."""
    from esize import dimension

    keep = 1.0 - fraction
    costs = [keep * est["build_iterations"], keep * est["execution_iterations"]]
    c = dimension(est["plan_t2"], costs, budget, mean=est["mean"],
                  levels=("binary", "execution", "iteration")).counts
    return [int(c.get("binary", 1)), int(c.get("execution", 1)), int(c.get("iteration", 1))]


def _clip(counts: Sequence[int], lo: Mapping, hi: Mapping) -> list[int]:
    keys = ("builds", "executions", "iterations")
    return [int(min(max(n, lo[k]), hi[k])) for n, k in zip(counts, keys)]


def seconds_of(est: Mapping, counts: Sequence[int]) -> float:
    """Measuring time of one set with ``counts`` = (builds, executions, iterations
    per process, warm-up included), in seconds, from the pilot's costs."""
    b, e, n = counts
    it = est["mean"]
    per_process = est["execution_iterations"] + n
    return it * (b * est["build_iterations"] + b * e * per_process)


def predicted_half_width(est: Mapping, counts: Sequence[int], fraction: float,
                         alpha: float = 0.05) -> float:
    """The predicted relative 95 % half-width of a ratio for a given design."""
    from esize import critical_value, model_mean_variance

    b, e, n = counts
    steady = n - warmup_count(fraction, n)
    t2 = np.clip(np.asarray(est["plan_t2"], dtype=float), 0.0, None)
    var = model_mean_variance(t2, [b, e, steady])
    return float(math.sqrt(2.0) * critical_value(alpha, b - 1) * math.sqrt(var) / est["mean"])


def size_program(est: Mapping, target: float, fraction: float, lo: Mapping, hi: Mapping,
                 max_seconds: float) -> dict:
    """The cheapest design whose predicted ratio half-width is at most ``target``
    (relative, e.g. 0.005), or the narrowest that ``max_seconds`` of one set allows.

    The budget is searched by bisection on its logarithm (40 steps); the design that
    :func:`esize.dimension` gives for it is clipped to ``[lo, hi]`` (keys ``builds``,
    ``executions``, ``iterations``; iterations counted with the warm-up) and its
    half-width recomputed for the clipped counts.
    """
    keep = 1.0 - fraction
    cheapest = keep * (est["build_iterations"] + est["execution_iterations"]) + 1.0
    b_lo = 2.0 * cheapest * (1 + 1e-9)
    b_hi = max(b_lo, keep * max_seconds / est["mean"])

    def design(budget):
        counts = _predict(est, budget, fraction)
        full = _clip([counts[0], counts[1], total_iterations(counts[2], fraction)], lo, hi)
        return full, predicted_half_width(est, full, fraction), seconds_of(est, full)

    def bisect(good, bad, ok):
        """Between log-budgets ``good`` (ok holds) and ``bad`` (it does not), the one
        nearest ``bad`` where it still holds (40 halvings)."""
        for _ in range(40):
            m = 0.5 * (good + bad)
            if ok(design(math.exp(m))):
                good = m
            else:
                bad = m
        return good

    # the largest budget whose design (whole counts, warm-up included) fits max_seconds
    top = math.log(b_hi)
    if design(b_hi)[2] > max_seconds:
        top = bisect(math.log(b_lo), top, lambda d: d[2] <= max_seconds)
    best = design(math.exp(top))
    reached = best[1] <= target
    if reached and design(b_lo)[1] > target:
        # the smallest budget that still meets the target
        best = design(math.exp(bisect(top, math.log(b_lo), lambda d: d[1] <= target)))
    elif reached:
        best = design(b_lo)
    counts, hw, _ = best
    capped = [k for k, n in zip(("builds", "executions", "iterations"), counts) if n >= hi[k]]
    limited = (f"design.max.{capped[0]}" if capped and not reached else "the budget")
    return {"limited_by": limited, "design": {"builds": counts[0], "executions": counts[1], "iterations": counts[2]},
            "target_half_width_pct": 100 * target,
            "predicted_half_width_pct": 100 * hw,
            "target_reached": reached,
            "seconds_per_set": seconds_of(est, counts)}


def size_all(estimates: Mapping[str, Mapping], targets: Mapping[str, float],
             sets_per_program: Mapping[str, int], fraction: float, lo: Mapping, hi: Mapping,
             budget_seconds: float) -> dict:
    """Size every program; if their total time exceeds ``budget_seconds``, give each
    program the same share of its own need (scaled down together) and size it for
    that (the best the budget allows)."""
    sized = {p: size_program(est, targets[p] / 100.0, fraction, lo, hi, budget_seconds)
             for p, est in estimates.items()}
    need = sum(sized[p]["seconds_per_set"] * sets_per_program[p] for p in sized)
    scale = 1.0
    if need > budget_seconds:
        scale = budget_seconds / need
        for p, est in estimates.items():
            cap = sized[p]["seconds_per_set"] * scale
            sized[p] = size_program(est, 0.0, fraction, lo, hi, cap)
            sized[p]["target_half_width_pct"] = targets[p]
    total = sum(sized[p]["seconds_per_set"] * sets_per_program[p] for p in sized)
    return {"programs": sized, "budget_seconds": budget_seconds,
            "predicted_seconds": total, "scaled_to_budget": scale < 1.0}
