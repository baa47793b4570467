"""Dimensioning: Table tPrecisions from the paper's inputs and from a dataset's estimates.

:func:`precision_rows` plans one benchmark for each time budget twice: with the
paper's procedure (the ``ours_pct`` column, :data:`CONVENTIONS`) and with our
optimum (the library's defaults). :func:`precision_mark` sets one cell beside the
paper's printed value (:data:`PRECISION_MARKS`); :func:`rounding_grid` and
:func:`binary_level_sensitivity` compute what moves the cells that differ.
:func:`dimensioning_rows` plans a measured dataset from its own costs.

Pure functions: inputs are variance estimates and cost settings; outputs are plain
rows (lists of dicts).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from esize import EsizeError, critical_value, dimension
from esize import t2 as unbiased_t2

from ..paper import numbers as paper
from .costs import CostModel, cost_model, paper_costs

__all__ = [
    "CONVENTIONS",
    "CONVENTION_TEXT",
    "precision_rows",
    "PRECISION_MARKS",
    "precision_mark",
    "rounding_grid",
    "binary_level_sensitivity",
    "merged_variances",
    "merged_cells",
    "PRECISION_COLUMNS",
    "precision_table",
    "DIMENSIONING_COLUMNS",
    "dimensioning_rows",
]

#: How the ``ours_pct`` column of the precision rows was computed, by ``dropped_cost``.
CONVENTIONS = {
    "replace": "paper",
    "fold": "paper-fold",
}
#: What the conventions mean, for the tables' captions.
CONVENTION_TEXT = {
    "paper": (
        "the paper's procedure: counts below the top from its formula, rounded up and "
        "at least 1 (a count whose optimum is below 1 is set to 1 and the others are "
        "kept), the measurements per binary optimised against the warm-up cost alone "
        "once executions are dropped, and as many binaries as the budget then buys"
    ),
    "paper-fold": (
        "the paper's procedure, but with the true cost of a binary (build plus warm-up) "
        "once executions are dropped"
    ),
    "optimum": (
        "our optimum: the whole counts that minimise the reported half-width itself "
        "(t quantile with binaries - 1 degrees of freedom included) within the budget, "
        "a count whose optimum is below 1 merged into the level above and the others "
        "optimised again, true costs throughout"
    ),
}


def precision_rows(
    source: str,
    benchmark: str,
    s_pct: Sequence[float],
    counts: Sequence[int],
    cost: CostModel,
    hours: Iterable[float] = paper.PRECISION_HOURS,
    *,
    dropped_cost: str = "replace",
    alpha: float = 0.05,
) -> list[dict]:
    """Rows of ``precisions.csv``: Table tPrecisions for one benchmark.

    Each row carries two designs. ``n1``, ``n2``, ``binaries`` and ``ours_pct`` follow
    the paper's procedure (``objective="variance"``, ``below_one="clamp"``) with the
    given ``dropped_cost``; ``convention`` names it (:data:`CONVENTIONS`). The
    ``opt_*`` columns and ``optimum_pct`` are our optimum (the library's defaults:
    the reported half-width minimised over whole counts, see
    :func:`esize.dimension`).

    Parameters
    ----------
    source : str
        ``"paper"`` or ``"data"`` (copied into the rows).
    s_pct : sequence of 3 floats
        Relative variation S per level (compilation, execution, measurement), in %.
    counts : sequence of 3 ints
        Repetition counts behind those estimates (for the unbiased T^2).
    cost : CostModel
    dropped_cost : str
        ``"replace"`` reproduces the paper's convention, ``"fold"`` charges the true
        cost of a binary once executions are dropped (see
        :func:`esize.plan_from_variances`).
    """
    t2 = unbiased_t2(np.asarray(s_pct, dtype=np.float64) ** 2, counts)
    rows = []
    for h in hours:
        if cost.budget(h) < 2.0 * (sum(cost.costs) + 1.0):
            # not even 2 binaries of one measurement each: no interval at all
            rows.append(_no_interval_row(source, benchmark, h, dropped_cost))
            continue
        d = _paper_dimension(t2, cost, h, dropped_cost, alpha)
        best = dimension(t2, cost.costs, cost.budget(h), mean=100.0, levels=paper.LEVELS,
                         alpha=alpha)
        rows.append(
            {
                "source": source,
                "benchmark": benchmark,
                "hours": h,
                "n1": d.counts["measurement"],
                "n2": d.counts.get("execution", 1),
                "binaries": d.counts.get("compilation", 1),
                "ours_pct": 100.0 * d.half_width,
                "default_pct": 100.0 * d.default_half_width,
                "dropped": ",".join(d.plan.dropped),
                "convention": CONVENTIONS[dropped_cost],
                "opt_n1": best.counts["measurement"],
                "opt_n2": best.counts.get("execution", 1),
                "opt_binaries": best.counts.get("compilation", 1),
                "optimum_pct": 100.0 * best.half_width,
            }
        )
    return rows


def _paper_dimension(t2, cost: CostModel, hours: float, dropped_cost: str = "replace",
                     alpha: float = 0.05):
    """The paper's procedure for one budget (the ``ours_pct`` column of the rows)."""
    return dimension(t2, cost.costs, cost.budget(hours), mean=100.0, levels=paper.LEVELS,
                     alpha=alpha, dropped_cost=dropped_cost, below_one="clamp",
                     objective="variance")


# -- Table tPrecisions beside the paper's printed cells --------------------------------
#: One rule for every cell of Table tPrecisions: the paper prints one decimal, so a
#: cell is within its rounding interval (our value rounds to the paper's), within
#: +-0.1 of it, or beyond. Marks as used in the tables, with their meaning.
PRECISION_MARKS = {
    "": "within the paper's rounding interval (|ours - paper| <= 0.05: rounds to the "
        "paper's value)",
    "~": "within +-0.1 of the paper's value but outside its rounding interval",
    "*": "more than 0.1 from the paper's value",
}


def precision_mark(ours: float, paper_value: float) -> str:
    """The mark of one Table tPrecisions cell (:data:`PRECISION_MARKS`)."""
    d = abs(float(ours) - float(paper_value))
    if d <= 0.05 + 1e-9:
        return ""
    if d <= 0.1 + 1e-9:
        return "~"
    return "*"


def rounding_grid(benchmark: str, hours: Sequence[float] = paper.PRECISION_HOURS,
                  step: float = 0.05, points: int = 5) -> list[tuple[tuple, dict]]:
    """Our Table tPrecisions cells when Table tVariations' inputs move within their rounding.

    The paper prints every S of Table tVariations to one decimal, so each true value
    lies within +-0.05 of it. The cells are recomputed with the paper's procedure for
    every combination of ``points`` values from S - ``step`` to S + ``step`` at the
    three levels.

    Returns
    -------
    list of (tuple, dict)
        ``(S per level, {(hours, "ours" | "default"): half-width in %})``, the
        printed S among them.
    """
    import itertools

    counts = [paper.BINARIES, paper.EXECUTIONS, paper.steady_measurements(benchmark)]
    base = paper.VARIATION_S[benchmark]
    deltas = np.linspace(-step, step, points)
    out = []
    for delta in itertools.product(deltas, repeat=3):
        sv = tuple(round(max(x + e, 1e-6), 6) for x, e in zip(base, delta))
        cells = {}
        for r in precision_rows("paper", benchmark, sv, counts, paper_costs(benchmark), hours):
            cells[(float(r["hours"]), "ours")] = float(r["ours_pct"])
            cells[(float(r["hours"]), "default")] = float(r["default_pct"])
        out.append((sv, cells))
    return out


def binary_level_sensitivity(benchmark: str, hours: Sequence[float] = paper.PRECISION_HOURS,
                             factors: Sequence[float] = (0.1, 10.0)) -> dict:
    r"""What moves the ``ours`` cells of a benchmark whose plan drops executions.

    For HTTP and TCP the paper's procedure drops the execution level
    (:math:`T_2^2 \le 0`) and plans binaries x measurements. Three candidate causes
    of a difference to the paper's cells are computed with the same procedure
    (``dropped_cost="replace"``, clamped counts, binaries from the budget):

    * the measurement time, multiplied by each of ``factors``;
    * the cost model's binary count: a binary costs the build plus its warm-up and
      measurements, so a budget of whole builds buys one binary fewer than the
      build time alone would (``build_only``);
    * the binary-level variance the plan uses: the range of binary-level variation
      (in %) for which every cell rounds to the paper's, beside the three-level
      :math:`T_3` that Table tVariations implies and the two-level estimate after
      merging executions into measurements.

    Returns
    -------
    dict
        ``ours``, ``binaries``, ``n1`` (per hour), ``measurement_time``
        ({factor: cells}), ``build_only`` (cells) and ``build_only_binaries``,
        ``fits`` ((low, high) in %, or None), ``t3``, ``merged`` and ``stated`` (the
        paper's text, or None), all in %; ``paper`` (the printed cells).
    """
    fam = paper.family(benchmark)
    n2, n1 = paper.EXECUTIONS, paper.steady_measurements(benchmark)
    counts = [paper.BINARIES, n2, n1]
    s = np.asarray(paper.VARIATION_S[benchmark], dtype=np.float64)
    t2 = unbiased_t2(s**2, counts)
    cost = paper_costs(benchmark)
    printed = [paper.PRECISIONS[benchmark][paper.PRECISION_HOURS.index(int(h))][0] for h in hours]

    def cells(t2_, cost_):
        ds = [_paper_dimension(t2_, cost_, h) for h in hours]
        return [100.0 * d.half_width for d in ds], ds

    ours, ds = cells(t2, cost)
    out = {"benchmark": benchmark, "paper": printed, "ours": ours,
           "binaries": [int(d.counts.get("compilation", 1)) for d in ds],
           "n1": [int(d.counts["measurement"]) for d in ds], "dropped": list(ds[0].plan.dropped)}
    out["measurement_time"] = {
        float(f): cells(t2, CostModel(cost.measurement_seconds * f, cost.build_seconds,
                                      cost.warmup))[0] for f in factors}
    build_only, kb = [], []
    for h, d, hw in zip(hours, ds, ours):
        k = int(d.counts.get("compilation", 1))
        kk = int(math.floor(h * 3600.0 / cost.build_seconds))
        kb.append(kk)
        build_only.append(hw / critical_value(0.05, k - 1) * math.sqrt(k)
                          * critical_value(0.05, kk - 1) / math.sqrt(kk))
    out["build_only"], out["build_only_binaries"] = build_only, kb
    t3 = math.sqrt(t2[0])
    fits = []
    for tb in np.arange(0.5 * t3, 1.5 * t3, 0.0025):
        trial = t2.copy()
        trial[0] = tb**2
        if all(precision_mark(c, p) == "" for c, p in zip(cells(trial, cost)[0], printed)):
            fits.append(float(tb))
    out["fits"] = (min(fits), max(fits)) if fits else None
    s1m = (n2 * (n1 - 1) * s[2] ** 2 + n1 * (n2 - 1) * s[1] ** 2) / (n2 * n1 - 1)
    out["t3"] = t3
    out["merged"] = math.sqrt(max(s[0] ** 2 - s1m / (n2 * n1), 0.0))
    out["stated"] = paper.MERGED_BINARY_PCT.get(fam)
    return out


def merged_variances(benchmark: str, binary_pct: float | None = None) -> np.ndarray | None:
    r"""The two-level variances the paper plans HTTP and TCP with, or None.

    For the benchmarks whose execution level has :math:`T_2^2 \le 0` the paper drops
    the execution level and re-estimates: its text gives the binary-level variation
    after merging executions into measurements (about 0.2 % for HTTP, 0.5 % for TCP,
    :data:`esize_study.paper.numbers.MERGED_BINARY_PCT`), which is not in Table
    tVariations. Here that value is the binary-level variation the plan uses, and the
    measurement level is the pooled within-binary variance of the merged measurements,

    .. math:: S_{1m}^2 = \frac{n_2 (n_1 - 1) S_1^2 + n_1 (n_2 - 1) S_2^2}{n_2 n_1 - 1},

    from Table tVariations' S (in %). Returns :math:`(T_b^2, 0, S_{1m}^2)` in %^2, the
    zero dropping the execution level; None for a benchmark without a stated value.
    ``binary_pct`` replaces the stated binary-level value (to try its rounding).
    """
    stated = paper.MERGED_BINARY_PCT.get(paper.family(benchmark))
    if stated is None:
        return None
    stated = stated if binary_pct is None else binary_pct
    n2, n1 = paper.EXECUTIONS, paper.steady_measurements(benchmark)
    s = np.asarray(paper.VARIATION_S[benchmark], dtype=np.float64)
    s1m = (n2 * (n1 - 1) * s[2] ** 2 + n1 * (n2 - 1) * s[1] ** 2) / (n2 * n1 - 1)
    return np.array([stated**2, 0.0, s1m])


def merged_cells(benchmark: str, hours: Sequence[float] = paper.PRECISION_HOURS,
                 binary_pct: float | None = None) -> list[dict]:
    """Table tPrecisions' ``ours`` cells planned from :func:`merged_variances`.

    The paper's procedure (:func:`precision_rows`' convention ``paper``) on the
    two-level variances the paper's text gives for HTTP and TCP; empty for the other
    benchmarks. Each row: ``hours``, ``ours_pct``, ``binaries``, ``n1``.
    ``binary_pct`` replaces the stated binary-level value.
    """
    t2 = merged_variances(benchmark, binary_pct)
    if t2 is None:
        return []
    cost = paper_costs(benchmark)
    out = []
    for h in hours:
        d = _paper_dimension(t2, cost, h)
        out.append({"hours": float(h), "ours_pct": 100.0 * d.half_width,
                    "binaries": int(d.counts.get("compilation", 1)),
                    "n1": int(d.counts["measurement"])})
    return out


def _no_interval_row(source: str, benchmark: str, hours: float, dropped_cost: str) -> dict:
    """A precision row for a budget that buys fewer than 2 binaries."""
    return {
        "source": source, "benchmark": benchmark, "hours": hours,
        "n1": 0, "n2": 0, "binaries": 0, "ours_pct": math.inf, "default_pct": math.inf,
        "dropped": "", "convention": CONVENTIONS[dropped_cost],
        "opt_n1": 0, "opt_n2": 0, "opt_binaries": 0, "optimum_pct": math.inf,
    }


PRECISION_COLUMNS = (
    "source",
    "benchmark",
    "hours",
    "n1",
    "n2",
    "binaries",
    "ours_pct",
    "default_pct",
    "dropped",
    "convention",
    "opt_n1",
    "opt_n2",
    "opt_binaries",
    "optimum_pct",
)


def precision_table(
    estimates: Sequence[Mapping],
    costs: str,
    hours: Sequence[float] = paper.PRECISION_HOURS,
    build_seconds: float = paper.BUILD_SECONDS,
    *,
    dropped_cost: str = "replace",
) -> list[dict]:
    """All rows of ``precisions.csv``: the paper's inputs, then the dataset's.

    ``source="paper"`` rows use Table tVariations and the paper's costs for its ten
    benchmarks; ``source="data"`` rows use each benchmark's estimates and either the
    paper's costs (``costs="paper"``, for the stand-in) or costs from the data
    (``costs="data"``: one measurement takes the mean steady time, a build takes
    ``build_seconds``, a new execution costs its warm-up, at least one measurement).
    """
    rows: list[dict] = []
    for b in paper.BENCHMARKS:
        counts = [paper.BINARIES, paper.EXECUTIONS, paper.steady_measurements(b)]
        rows += precision_rows(
            "paper", b, paper.VARIATION_S[b], counts, paper_costs(b), hours, dropped_cost=dropped_cost
        )
    for e in estimates:
        name = e["benchmark"]
        if costs == "paper":
            if name not in paper.VARIATION_S:
                raise EsizeError(f"{name}: no paper costs for this benchmark; use costs: data")
            cost = paper_costs(name)
        else:
            cost = CostModel(float(e["mean"]), float(build_seconds), max(int(e["warmup"]), 1))
        rows += precision_rows(
            "data", name, e["S_pct"], e["counts"], cost, hours, dropped_cost=dropped_cost
        )
    return rows


#: Columns of ``measured_precisions.csv``.
DIMENSIONING_COLUMNS = (
    "benchmark", "budget", "hours", "c2", "c1", "n1", "n2", "binaries", "ours_pct",
    "default_pct", "dropped", "opt_n1", "opt_n2", "opt_binaries", "optimum_pct",
    "actual_pct",
)


def dimensioning_rows(estimates: Sequence[Mapping], costs: Mapping, hours: Sequence[float], *,
                      alpha: float = 0.05) -> list[dict]:
    """Table tPrecisions for a measured dataset, from its own estimates and costs.

    For every benchmark, at each of ``hours`` and at the budget its measurement
    actually took (``budget == "measured"``: its builds and its processes' wall time,
    from the costs file), the paper's procedure and our optimum
    (:func:`precision_rows`) with :func:`cost_model`. The
    measured-budget row also gives ``actual_pct``: the half-width of the interval for
    the mean of the design that was run (all binaries, Student's t).

    Parameters
    ----------
    estimates : sequence of mapping
        The ``variances`` rule's records (``benchmark``, ``S_pct``, ``counts``,
        ``warmup``, ``raw``).
    costs : mapping
        The costs file (``sets: {benchmark: ...}``).
    hours : sequence of float
    """
    rows = []
    for e in estimates:
        name = e["benchmark"]
        entry = costs["sets"].get(name)
        if entry is None:
            raise EsizeError(f"{name}: no entry in the costs file")
        cost = cost_model(entry, int(e["warmup"]))
        nb, ne, _ = e["counts"]
        try:
            spent = nb * cost.build_seconds + nb * ne * float(entry["process_seconds"]["mean"])
        except (KeyError, TypeError):
            spent = math.nan
        budgets = [(f"{h:g} h", float(h)) for h in hours]
        if math.isfinite(spent):
            budgets.append(("measured", spent / 3600.0))
        for label, h in budgets:
            for r in precision_rows("data", name, e["S_pct"], e["counts"], cost, [h],
                                       alpha=alpha):
                row = {k: r[k] for k in ("n1", "n2", "binaries", "ours_pct", "default_pct",
                                         "dropped", "opt_n1", "opt_n2", "opt_binaries",
                                         "optimum_pct")}
                row.update(benchmark=name, budget=label, hours=h, c2=cost.costs[0],
                           c1=cost.costs[1], actual_pct=math.nan)
                if label == "measured":
                    row["actual_pct"] = (critical_value(alpha, nb - 1) * float(e["S_pct"][0])
                                         / math.sqrt(nb))
                rows.append(row)
    return rows
