"""Building the paper's tables and worked examples from data (used by the pipeline).

Pure functions: inputs are designs, variance estimates and cost settings; outputs are
plain rows (lists of dicts) and rendered text. File handling lives in the workflow
scripts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from esize import (
    Design,
    EsizeError,
    critical_value,
    dimension,
    fieller_ci,
    mean_ci,
    means_from_indices,
    optimal_counts,
    plan_from_design,
    variance_components,
)
from esize import t2 as unbiased_t2

from . import paper

__all__ = [
    "slug",
    "CostModel",
    "paper_costs",
    "precision_rows",
    "PRECISION_MARKS",
    "precision_mark",
    "rounding_grid",
    "binary_level_sensitivity",
    "worked_examples",
    "render_variations",
    "render_precisions",
]


def slug(name: str) -> str:
    """File-name form of a benchmark name: ``"FFT NA OPT"`` -> ``"fft-na-opt"``."""
    s = re.sub(r"[^0-9a-zA-Z]+", "-", name.strip()).strip("-").lower()
    return s or "benchmark"


@dataclass(frozen=True)
class CostModel:
    """Costs of one benchmark, in seconds and measurements.

    Attributes
    ----------
    measurement_seconds : float
        Time of one measurement; converts budgets and build times to measurements.
    build_seconds : float
        Time to build a new binary.
    warmup : int
        Warm-up measurements paid by every new execution (the paper's c1).
    """

    measurement_seconds: float
    build_seconds: float
    warmup: int

    @property
    def costs(self) -> tuple[float, float]:
        """``(c2, c1)``: build and warm-up in measurements, highest level first."""
        return (self.build_seconds / self.measurement_seconds, float(self.warmup))

    def budget(self, hours: float) -> float:
        return hours * 3600.0 / self.measurement_seconds


def paper_costs(benchmark: str) -> CostModel:
    """The paper's costs for one of its ten benchmarks (Section "Benchmarks")."""
    return CostModel(
        paper.measurement_seconds(benchmark),
        paper.BUILD_SECONDS,
        paper.warmup_count(paper.raw_measurements(benchmark)),
    )


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


def _no_interval_row(source: str, benchmark: str, hours: float, dropped_cost: str) -> dict:
    """A precision row for a budget that buys fewer than 2 binaries."""
    return {
        "source": source, "benchmark": benchmark, "hours": hours,
        "n1": 0, "n2": 0, "binaries": 0, "ours_pct": math.inf, "default_pct": math.inf,
        "dropped": "", "convention": CONVENTIONS[dropped_cost],
        "opt_n1": 0, "opt_n2": 0, "opt_binaries": 0, "optimum_pct": math.inf,
    }


# -- worked examples ------------------------------------------------------------------
_LEVELS3 = ("binary", "execution", "measurement")
WE_DATA = [[[9, 5], [8, 3]], [[10, 6], [7, 11]], [[1, 12], [2, 4]]]
WQE_OLD = [[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]]
WQE_NEW = [[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]]
#: tWQEBoot replicates, binary -> execution -> measurements, as printed.
WQE_BOOT = [
    [[[9, 11], [5, 5]], [[12, 8], [8, 12]], [[9, 9], [11, 9]]],
    [[[14, 10], [15, 7]], [[13, 13], [8, 12]], [[8, 8], [16, 13]]],
    [[[7, 7], [15, 15]], [[11, 11], [9, 11]], [[9, 9], [9, 9]]],
]


def worked_examples() -> dict:
    """Every number of the paper's worked examples, recomputed.

    The examples are those of Section "For Practitioners: The New Method without
    Statistics" (Tables tWEData, tWE2Data, tWQEData and tWQEBoot).
    """
    we = Design(WE_DATA, _LEVELS3)
    vc = variance_components(we)
    two = we.merge("execution")
    vc2 = variance_components(two)
    plan = plan_from_design(we, [300.0, 10.0], dropped_cost="replace")
    exact_n1 = math.sqrt(10 * vc2.T2[1] / vc2.T2[0])
    old, new = Design(WQE_OLD, _LEVELS3), Design(WQE_NEW, _LEVELS3)
    ci = mean_ci(old)
    fi = fieller_ci(old, new)
    vo, vn = variance_components(old), variance_components(new)
    # replicate 1 of tWQEBoot from the indices the text states (0-based)
    rep1 = means_from_indices(
        old,
        "RRR",
        [
            np.array([[[0, 1, 0]]]),
            np.array([[[0, 1], [1, 1], [0, 0]]]),
            np.array([[[0, 1], [0, 0], [0, 1], [1, 0], [0, 0], [1, 0]]]),
        ],
    )[0]
    return {
        "tWEData": {
            "S3_sq": vc.S2[0],
            "S2_sq": vc.S2[1],
            "S1_sq": vc.S2[2],
            "grand_mean": vc.mean,
            "T3_sq": vc.T2[0],
            "T2_sq": vc.T2[1],
            "T1_sq": vc.T2[2],
            "dropped": list(plan.dropped),
        },
        "tWE2Data": {
            "S2_sq": vc2.S2[0],
            "S1_sq": vc2.S2[1],
            "T2_sq": vc2.T2[0],
            "T1_sq": vc2.T2[1],
            "c1": 10,
            "n1_exact_sqrt": exact_n1,
            "n1": plan.counts["measurement"],
            "n1_paper_rounding": int(optimal_counts([0.4, 12.7], [10])[0]),
            "note": (
                "The paper prints n1 = 18: it rounds T1^2 to 12.7 and T2^2 to 0.4 "
                "before the square root (sqrt(10*12.7/0.4) = 17.8). With the exact "
                f"estimates sqrt(10*{vc2.T2[1]:.4f}/{vc2.T2[0]:.4f}) = {exact_n1:.2f}, "
                "which rounds up to 19."
            ),
        },
        "tWQEData": {
            "old_mean": ci.estimate,
            "new_mean": new.mean,
            "t_quantile_2df": critical_value(0.05, 2),
            "old_ci_half_width": ci.half_width,
            "old_ci": [ci.lower, ci.upper],
            "S3_sq_old": vo.S2[0],
            "S3_sq_new": vn.S2[0],
            "ratio": fi.estimate,
            "fieller": [fi.lower, fi.upper],
        },
        "paper": {
            "tWEData": {"S3_sq": 3.6, "S2_sq": 2.6, "S1_sq": 16.5, "grand_mean": 6.5,
                        "T2_sq": -5.7, "T3_sq": 2.3},
            "tWE2Data": {"S2_sq": 3.6, "S1_sq": 12.7, "T2_sq": 0.4, "n1": 18},
            "tWQEData": {"old_mean": 10.5, "old_ci_half_width": 6.0, "t_quantile_2df": 4.3,
                         "S3_sq_old": 5.8, "S3_sq_new": 4.6, "fieller": [0.1, 1.7]},
            "tWQEBoot": {"replicate_means": [9.0, 11.4, 10.2]},
        },
        "tWQEBoot": {
            "replicate1_binaries": [1, 2, 1],
            "replicate1_mean_from_indices": float(rep1),
            "replicate_means": [float(np.mean(r)) for r in WQE_BOOT],
        },
    }


# -- rendering ---------------------------------------------------------------------------
def _fmt(x: float, nd: int = 1) -> str:
    return "inf" if not math.isfinite(x) else f"{x:.{nd}f}"


def render_variations(rows: Sequence[Mapping], fmt: str = "md") -> str:
    """Table tVariations layout: one row per benchmark, S (T) per level."""
    by = {}
    for r in rows:
        by.setdefault(r["benchmark"], {})[r["level"]] = r
    head = ["benchmark", "compilation [%]", "execution [%]", "measurement [%]"]
    body = []
    for b, levels in by.items():
        cells = [b]
        for lev in paper.LEVELS:
            r = levels[lev]
            cell = _fmt(r["S_pct"])
            if not r["T2_positive"]:
                cell += " (0)"
            elif abs(r["T_pct"] - r["S_pct"]) > 0.1:
                cell += f" ({_fmt(r['T_pct'])})"
            cells.append(cell)
        body.append(cells)
    caption = (
        "Relative variation per level, S in % of the grand mean; T in brackets where it "
        "differs from S by more than 0.1, (0) where T^2 <= 0."
    )
    return _table(head, body, fmt, caption)


def _convention(rows: Sequence[Mapping]) -> str:
    """The convention of the rows' ``ours_pct`` column (they share one)."""
    found = {r.get("convention", "paper") for r in rows}
    if len(found) != 1:
        raise EsizeError(f"precision rows mix conventions {sorted(found)}")
    return found.pop()


def render_precisions(rows: Sequence[Mapping], fmt: str = "md", source: str | None = None) -> str:
    """Table tPrecisions layout: the paper's rule / our optimum / default per time window.

    The first number of a cell follows the rows' ``convention`` (the paper's
    procedure in ``precisions.csv``), the second is our optimum (``optimum_pct``),
    the third the one-level default. The caption says which is which.
    """
    sel = [r for r in rows if source is None or r["source"] == source]
    hours = sorted({float(r["hours"]) for r in sel})
    conv = _convention(sel) if sel else "paper"
    by = {}
    for r in sel:
        by.setdefault((r["source"], r["benchmark"]), {})[float(r["hours"])] = r
    head = ["source", "benchmark"] + [
        f"{h:g} h [{conv} / optimum / default %]" for h in hours
    ]
    body = []
    for (src, b), cells in by.items():
        body.append(
            [src, b]
            + [
                " / ".join(
                    _fmt(float(cells[h][k])) for k in ("ours_pct", "optimum_pct", "default_pct")
                )
                for h in hours
            ]
        )
    caption = (
        "95 % CI half-width relative to the mean for each time window. First number "
        f"({conv}): {CONVENTION_TEXT[conv]}. Second (optimum): {CONVENTION_TEXT['optimum']}. "
        "Third: the one-level default (one build, one execution, one measurement per sample)."
    )
    return _table(head, body, fmt, caption)


def _table(head, body, fmt, caption) -> str:
    """One table as Markdown (pandas ``to_markdown``) or LaTeX (``to_latex``)."""
    import pandas as pd

    frame = pd.DataFrame([[str(c) for c in row] for row in body], columns=list(head))
    if fmt == "md":
        return frame.to_markdown(index=False, disable_numparse=True) + f"\n\n{caption}\n"
    if fmt == "tex":
        esc = str.maketrans({"%": r"\%", "_": r"\_", "&": r"\&", "#": r"\#", "^": r"\^{}"})
        return frame.to_latex(index=False, caption=caption.translate(esc), escape=True,
                              position="htbp", column_format="l" + "r" * (len(head) - 1))
    raise ValueError(f"unknown format {fmt!r}")


# -- tables from the pipeline's per-benchmark estimates -----------------------------
VARIATION_COLUMNS = ("benchmark", "level", "S_pct", "T_pct", "T2_positive")
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


def variation_rows_from_estimates(estimates: Sequence[Mapping]) -> list[dict]:
    """Rows of ``variations.csv`` from per-benchmark estimate records.

    Each record has ``benchmark``, ``S_pct``, ``T_pct`` and ``T2`` (three levels,
    highest first), as written by the pipeline's ``variances`` rule.
    """
    rows = []
    for e in estimates:
        if len(e["S_pct"]) != 3:
            raise EsizeError(f"{e['benchmark']}: expected 3 levels, got {len(e['S_pct'])}")
        for k, level in enumerate(paper.LEVELS):
            rows.append(
                {
                    "benchmark": e["benchmark"],
                    "level": level,
                    "S_pct": float(e["S_pct"][k]),
                    "T_pct": float(e["T_pct"][k]),
                    "T2_positive": bool(e["T2"][k] > 0),
                }
            )
    return rows


def variation_tolerance(paper_value: float) -> float:
    """Allowed deviation from a Table tVariations number: 10 % or 0.15 points."""
    return max(0.1 * abs(paper_value), 0.15)


def variations_markdown(rows: Sequence[Mapping]) -> str:
    """The paper-like table, then each number beside the paper's where it has one."""
    out = ["# Relative variation per level (Table tVariations)", "", render_variations(rows, "md")]
    cmp = []
    for r in rows:
        b = r["benchmark"]
        if b not in paper.VARIATION_S:
            continue
        k = paper.LEVELS.index(r["level"])
        ps = paper.VARIATION_S[b][k]
        tol = variation_tolerance(ps)
        line = [b, r["level"], f"{r['S_pct']:.2f}", f"{ps:.1f}", f"{r['S_pct'] - ps:+.2f}",
                "yes" if abs(r["S_pct"] - ps) <= tol else "NO"]
        note = ""
        if r["level"] == "execution":
            pt = paper.VARIATION_T_EXECUTION[b]
            if pt == 0.0:
                note = "T^2 <= 0 " + ("(as paper)" if not r["T2_positive"] else "(paper: T^2 <= 0; NOT reproduced)")
            elif pt is not None:
                ok = abs(r["T_pct"] - pt) <= variation_tolerance(pt)
                note = f"T {r['T_pct']:.2f} vs {pt:.1f} " + ("(within tolerance)" if ok else "(OUTSIDE tolerance)")
        cmp.append(line + [note])
    if cmp:
        import pandas as pd

        head = ["benchmark", "level", "S % (ours)", "S % (paper)", "difference", "within",
                "T (execution)"]
        out += [
            "## Beside the paper",
            "",
            "Tolerance: 10 % of the paper's value or 0.15 percentage points, whichever is larger.",
            "",
            pd.DataFrame(cmp, columns=head).to_markdown(index=False, disable_numparse=True),
            "",
        ]
    return "\n".join(out) + "\n"


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


def _design(r: Mapping, prefix: str = "") -> str:
    return f"{r[prefix + 'binaries']} x {r[prefix + 'n2']} x {r[prefix + 'n1']}"


def precisions_markdown(rows: Sequence[Mapping], folded: Sequence[Mapping] | None = None) -> str:
    """Paper-like precision table with the paper's printed numbers beside ours, then
    our optimum beside the paper's rule."""
    import pandas as pd

    out = ["# Result precision: optimised design against the one-level default (Table tPrecisions)", ""]
    sel = [r for r in rows if r["source"] == "paper"]
    hours = sorted({r["hours"] for r in sel})
    if sel:
        conv = _convention(sel)
        out += [
            "## From the paper's Table tVariations and costs",
            "",
            f"Cells: ours / default half-width in %, where ours follows the convention "
            f"`{conv}` ({CONVENTION_TEXT[conv]}); the paper's printed value in brackets. "
            "One rule marks every number against the paper's (which rounds to 0.1): "
            + "; ".join(f"`{m}` {t}" if m else f"no mark: {t}" for m, t in PRECISION_MARKS.items())
            + ". A cell shows the worse mark of its two numbers.",
            "",
        ]
        by = {}
        for r in sel:
            by.setdefault(r["benchmark"], {})[r["hours"]] = r
        marks_seen = {m: 0 for m in PRECISION_MARKS}
        table = []
        for b, cells in by.items():
            line = [b]
            for h in hours:
                r = cells[h]
                txt = f"{_fmt(r['ours_pct'])} / {_fmt(r['default_pct'])}"
                if b in paper.PRECISIONS and h in paper.PRECISION_HOURS:
                    po, pd_ = paper.PRECISIONS[b][paper.PRECISION_HOURS.index(h)]
                    found = [precision_mark(ours, theirs)
                             for ours, theirs in ((r["ours_pct"], po), (r["default_pct"], pd_))]
                    for m in found:
                        marks_seen[m] += 1
                    txt += f" ({po:.1f} / {pd_:.1f}){max(found, key=list(PRECISION_MARKS).index)}"
                line.append(txt)
            r6 = cells.get(6, cells[hours[len(hours) // 2]])
            line.append(_design(r6))
            table.append(line)
        head = ["benchmark"] + [f"{h:g} h" for h in hours] + ["design at 6 h"]
        out.append(pd.DataFrame(table, columns=head).to_markdown(index=False,
                                                                 disable_numparse=True))
        n_all = sum(marks_seen.values())
        if n_all:
            out += ["", f"Of {n_all} numbers, {marks_seen['']} round to the paper's, "
                    f"{marks_seen['~']} more are within +-0.1 and {marks_seen['*']} differ by "
                    "more than 0.1.", ""]
        out += [
            "## Our optimum beside the paper's rule",
            "",
            f"Cells: half-width in % and design (binaries x executions x measurements), "
            f"`{conv}` -> optimum. The optimum is {CONVENTION_TEXT['optimum']}. It is never "
            "wider; the paper's column above is kept so that the comparison with the paper "
            "stays meaningful.",
            "",
        ]
        table = []
        for b, cells in by.items():
            table.append([b] + [
                f"{_fmt(cells[h]['ours_pct'], 2)} ({_design(cells[h])}) -> "
                f"{_fmt(cells[h]['optimum_pct'], 2)} ({_design(cells[h], 'opt_')})"
                for h in hours
            ])
        out += [
            pd.DataFrame(table, columns=["benchmark"] + [f"{h:g} h" for h in hours]).to_markdown(
                index=False, disable_numparse=True),
            "",
        ]
    data = [r for r in rows if r["source"] == "data"]
    if data:
        out += ["## From this dataset's estimates", "", render_precisions(data, "md")]
    if folded:
        fd = [r for r in folded if r["source"] == "paper"]
        out += [
            "## With the true cost of a binary after dropping executions",
            "",
            "The paper (and the first table above) optimises the measurements per binary "
            "against the warm-up cost alone once executions are dropped. Charging the "
            "build as well, with the paper's procedure otherwise unchanged, gives the first "
            "number of each cell (precisions_folded.csv); the optimum is the same as above:",
            "",
            render_precisions(fd, "md"),
        ]
    return "\n".join(out) + "\n"
