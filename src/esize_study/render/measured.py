"""The report section on a measured dataset (``report_measured.md``).

:func:`render_report` writes the section ``## Measured data: <dataset>``: a headline
counting the checks computed from the dataset (:mod:`esize_study.render.measured_checks`),
how it was measured (:mod:`esize_study.render.measured_provenance`), the variance
structure per program in wall and CPU time beside the paper's (here), the warm-up check
(here), the dimensioning and false alarms (:mod:`esize_study.render.measured_results`),
the known effects on the full data (here) and subsampled
(:mod:`esize_study.render.measured_power`). No part renders a table without rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..estimate.variation import LEVELS
from ..paper import numbers as paper
from . import measured_checks as mc
from .measured_power import coverage_power_section
from .measured_provenance import how_measured
from .measured_results import (
    _dimensioning_section,
    _f,
    _false_alarm_section,
    _known_effect_summary,
    _table,
)
from .registry import section

__all__ = ["render_report"]


def _variance_body(rows: Sequence[Mapping]) -> list[list[str]]:
    body = []
    for r in rows:
        cells = [f"{_f(s, 2)} / {_f(t, 2)}" + (" (T² ≤ 0)" if LEVELS[k] in r["nonpositive"] else "")
                 for k, (s, t) in enumerate(zip(r["S_pct"], r["T_pct"]))]
        shares = " / ".join(_f(100 * x, 0) for x in r["share"])
        body.append([("paper: " if r["source"] == "paper" else "") + r["benchmark"], *cells,
                     shares, r["dominant"]])
    return body


_VARIANCE_HEAD = ["benchmark", "compilation S / T", "execution S / T", "measurement S / T",
                  "share b / e / m", "dominant"]


def _variance_section(var_rows: Sequence[Mapping]) -> list[str]:
    data = [r for r in var_rows if r["source"] == "data"]
    ours = [r for r in var_rows if r["source"] == "paper"]
    cpu = [r for r in var_rows if r["source"] == "cpu"]
    body = _variance_body(data + ours)
    n_np = sum(1 for r in data if r["nonpositive"])
    levels_np = sorted({lv for r in data for lv in r["nonpositive"]}, key=LEVELS.index)
    dom = {}
    for r in data:
        dom.setdefault(r["dominant"], []).append(r["benchmark"])
    pdom: dict = {}
    paper_np: dict = {}
    for r in ours:
        pdom.setdefault(r["dominant"], []).append(r["benchmark"])
        for lv in r["nonpositive"]:
            paper_np.setdefault(lv, []).append(r["benchmark"])
    text = [
        "### Variance components: S, T and shares per level",
        "",
        "S % / T % of the grand mean per level (S: the biased estimate of the paper's "
        "Table tVariations; T: the unbiased one, shown as 0 where T² ≤ 0), the share (%) "
        "of each level in the variance of one measurement (positive T² only), and the "
        "dominant level, for this dataset and for the paper's ten Mono benchmarks.",
        "",
        _table(_VARIANCE_HEAD, body),
        "",
        "In this dataset the dominant level is "
        + "; ".join(f"{lv} for {', '.join(b)}" for lv, b in dom.items())
        + "; in the paper's it is "
        + "; ".join(f"{lv} for {len(b)} benchmarks" for lv, b in pdom.items()) + ". "
        + (f"T² ≤ 0 at the {' and '.join(levels_np)} level for {n_np} of {len(data)} "
           "benchmarks: there the variation between units of that level is no larger than "
           "what the levels below already explain, and the planning drops the level"
           + (" (in the paper's Table tVariations: " + "; ".join(
               f"the {lv} level of {', '.join(bs)}" for lv, bs in paper_np.items()) + ")."
              if paper_np else " (never in the paper's Table tVariations).")
           if n_np else "Every level has T² > 0 in every benchmark."),
        "",
    ]
    if cpu:
        cnp = [f"{r['benchmark']} (T {_f(r['T_pct'][0], 2)} %)" for r in cpu
               if "compilation" not in r["nonpositive"]]
        cpu_pos = {r["benchmark"] for r in cpu if "compilation" not in r["nonpositive"]}
        wnp = [r["benchmark"] for r in data
               if "compilation" in r["nonpositive"] and r["benchmark"] in cpu_pos]
        text += [
            "The same iterations' CPU time (a diagnostic: it leaves out the time a process "
            "waited for a CPU, which the wall time above includes):",
            "",
            _table(_VARIANCE_HEAD, _variance_body(cpu)),
            "",
            ("In CPU time the compilation level has T² > 0 for " + ", ".join(cnp)
             + (f"; in wall time it has T² ≤ 0 for {', '.join(wnp)}" if wnp else "")
             + ". The structure table above sets S per level in both times side by side."
             if cnp else
             "In CPU time too the compilation level has T² ≤ 0 for every benchmark."),
            "",
        ]
    return text


def _warmup_section(checks: Sequence[Mapping], fraction: float) -> list[str]:
    if not checks:
        return []
    has_cpu = any(math.isfinite(c.get("cpu_after", math.nan)) for c in checks)
    body = []
    for c in checks:
        row = [c["benchmark"], f"{c['warmup']} of {c['iterations']}",
               f"{_f(100 * c['first'])} ± {_f(100 * c['first_se'])}",
               f"{_f(100 * c['early'])} ± {_f(100 * c['early_se'])}",
               f"{_f(100 * c['late'])} ± {_f(100 * c['late_se'])}",
               f"{_f(100 * c['after'])} ± {_f(100 * c['after_se'])}"]
        if has_cpu:
            row.append(f"{_f(100 * c['cpu_after'])} ± {_f(100 * c['cpu_after_se'])}")
        row.append(f"{_f(c['auto_median_cut'], 0)} / {c['auto_max_cut']} ({c['auto_checked']}: "
                   f"{c['auto_classes']})")
        body.append(row)

    def slow(c, key):
        v, se = c.get(key, math.nan), c.get(key + "_se", math.nan)
        return math.isfinite(v) and v > 2 * se

    left = [c["benchmark"] for c in checks if slow(c, "after")]
    compute = [c for c in checks if slow(c, "cpu_after")]
    waiting = [b for b in left if b not in {c["benchmark"] for c in compute}] if has_cpu else []
    # an excess e over the first m kept iterations shifts the mean of the n - w kept ones
    # by about e m / (n - w): from the point estimates where significant, and from the
    # upper ends (estimate + 2 standard errors) to see what the data cannot rule out
    def shift(c, upper):
        vals = [0.0]
        for key in ("after", "cpu_after"):
            v, se = c.get(key, math.nan), c.get(key + "_se", math.nan)
            if not math.isfinite(v):
                continue
            if upper:
                vals.append(v + 2 * (se if math.isfinite(se) else math.inf))
            elif slow(c, key):
                vals.append(v)
        return max(vals) * c["after_iterations"] / (c["iterations"] - c["warmup"])

    if not left and not compute:
        text = "After the cut the iterations are steady within two standard errors for every benchmark."
    else:
        parts = []
        if left:
            parts.append(f"Right after the cut the mean wall time is still higher for "
                         f"{', '.join(left)} (more than two standard errors)")
        if compute:
            parts.append("the CPU time is still higher for " + ", ".join(
                f"{c['benchmark']} ({_f(100 * c['cpu_after'])} ± {_f(100 * c['cpu_after_se'])} %)"
                for c in compute) + ": the program itself is still warming up a little")
        text = "; ".join(parts) + "."
        text = text[0].upper() + text[1:]
        if waiting:
            text += (f" Where only the wall time is higher ({', '.join(waiting)}), the excess "
                     "is in the wall time only (time the process was not running on a CPU), "
                     "not unfinished warm-up of the program.")
    point = {c["benchmark"]: shift(c, False) for c in checks}
    high = {c["benchmark"]: shift(c, True) for c in checks}
    big = [b for b, v in point.items() if v >= 0.01]
    if big:
        text += (f" A longer cut would be warranted for {', '.join(big)}: the excess shifts "
                 f"their steady mean by up to {100 * max(point[b] for b in big):.2f} %.")
    elif max(high.values()) < 0.01:
        text += (" Any excess left shifts an execution's steady mean by less than "
                 f"{100 * max(high.values()):.2f} % (two standard errors), below 1 % and the same "
                 "for base and variant, so the fixed cut is kept.")
    else:
        unsure = [b for b, v in high.items() if v >= 0.01]
        text += (" The fixed cut is kept, but these data cannot rule out a warm-up left past "
                 f"it worth up to {100 * max(high.values()):.1f} % of the steady mean for "
                 f"{', '.join(unsure)}: too few executions or iterations to decide.")
    verdict = text
    head = ["benchmark", "dropped", "first", "2 to w/2", "w/2 to w", "after the cut"]
    if has_cpu:
        head.append("after the cut, CPU time")
    head.append("auto cut: median / max")
    return [
        "### Warm-up",
        "",
        f"The pipeline drops a fixed {100 * fraction:g} % of each execution "
        "(`warmup_fraction`, the paper's rule; w iterations). Beside it: "
        "the mean excess (%) of the first iteration, of iterations 2 to w/2 and of the rest "
        "of the warm-up over each execution's steady mean, of the first (up to 5) iterations "
        "after the cut over the later ones, in wall time"
        + (" and in CPU time" if has_cpu else "")
        + " (± standard error over executions), and the cuts `esize.auto_warmup` finds on a "
        "few executions spread over the design (median / largest among those with a steady "
        "state; classes).",
        "",
        _table(head, body),
        "",
        verdict,
        "",
    ]


def _structure_section(structure: Sequence[Mapping],
                       factor: float = mc.ITERATION_FACTOR) -> list[str]:
    """S % per level in wall and CPU time per program, the paper's closest rows, and
    the ratio of the iteration-level S in wall time to that in CPU time."""
    if not structure:
        return []
    body = []
    for r in structure:
        cpu = " / ".join(_f(x, 2) for x in r["cpu"]) if r["cpu"] else "-"
        body.append([r["program"], " x ".join(map(str, r["design"])),
                     " / ".join(_f(x, 2) for x in r["wall"]), cpu,
                     _f(r["iteration_ratio"], 2)])
        for name in mc.PAPER_CLOSEST.get(r["program"], ()):
            body.append([f"paper: {name}", f"{paper.BINARIES} x {paper.EXECUTIONS} x -",
                         " / ".join(_f(x, 2) for x in paper.VARIATION_S[name]), "-", "-"])
    qs = [r for r in structure if math.isfinite(r["iteration_ratio"])]
    inside = [r["program"] for r in qs if 1 / factor <= r["iteration_ratio"] <= factor]
    outside = [f"{r['program']} ({_f(r['iteration_ratio'], 2)}x)" for r in qs
               if r["program"] not in inside]
    summary = (
        f"Iteration-level S in wall time is within {factor:g}x of that in CPU time for "
        f"{len(inside)} of {len(qs)} programs"
        + (f"; outside it: {', '.join(outside)}" if outside else "") + "."
        if qs else "No file has CPU times, so there is no CPU-time diagnostic.")
    return [
        "### Variance structure per program",
        "",
        "S (% of the grand mean) per level, binary / execution / iteration, after the "
        "warm-up, in wall time (what the intervals use) and in CPU time (a diagnostic), the "
        "design each program was measured with (builds x executions x iterations), and the "
        "ratio of the iteration-level S in wall time to that in CPU time. Below a program, "
        "the paper's Table tVariations rows for its closest benchmarks (the same kind of "
        "work: an FFT, a block cipher; none for the other programs).",
        "",
        _table(["program", "design", "S % wall (b / e / i)", "S % CPU (b / e / i)",
                "iteration S wall / CPU"], body),
        "",
        summary,
        "",
    ]


def _known_effect_section(refs: Sequence[Mapping], thresholds: Sequence[float],
                          alpha: float) -> list[str]:
    """The full-data table: each variant against its base in wall time."""
    if not refs:
        return []
    level = f"{100 * (1 - alpha):g} %"
    body = mc.known_effect_table(refs, thresholds)
    n_in = sum(r[7] == "yes" for r in body)
    n_one = sum(r[6] == "yes" for r in body)
    return [
        "### Known effects: the full data",
        "",
        "Each variant does a known share more work per iteration than its base (`plus0`: "
        "the same program built again, an A/A comparison). Every build of the base against "
        f"every build of the variant, in wall time: the ratio of means with its {level} "
        "Fieller interval (Student's t, as `esize compare` computes it), its half-width "
        "(% of the ratio), whether it contains 1 and the injected work ratio, the verdict "
        "`esize compare` gives at each threshold, and the same ratio in CPU time as a "
        "diagnostic.",
        "",
        _table(["variant", "base", "injected", "builds", "ratio [Fieller]", "half-width %",
                "contains 1", "contains injected", "esize compare", "CPU-time ratio"], body),
        "",
        f"The interval contains the injected ratio for {n_in} of {len(body)} variants and "
        f"contains 1 for {n_one} of {len(body)}. The injected ratio is one of work units; "
        "the time of an iteration also has a fixed part (the loop, the timer calls) that "
        "does not grow with the work, so with a fixed share f of the iteration time the "
        "time ratio is 1 + (r - 1)(1 - f), between 1 and the injected r. The data do not "
        "record f, so the report uses the rule as stated and compares with r itself.",
        "",
    ]


def render_report(
    dataset: str,
    *,
    var_rows: Sequence[Mapping],
    warmup_checks: Sequence[Mapping],
    warmup_fraction: float,
    dimensioning: Sequence[Mapping],
    costs_note: str,
    fa_rows: Sequence[Mapping],
    pool: tuple[int, int] | Mapping[str, tuple[int, int]],
    known_effect_md: str | None,
    references: Sequence[Mapping],
    conditions: str = "",
    alpha: float = 0.05,
    known_effect_rows: tuple[Sequence[Mapping], Sequence[Mapping]] = ((), ()),
    structure: Sequence[Mapping] = (),
    checks: Sequence[Mapping] | None = None,
    provenance: Mapping | None = None,
    thresholds: Sequence[float] = (0, 1, 2),
    skipped: Mapping[str, Sequence[int]] | None = None,
    sessions: Sequence[str] = (),
    history: Sequence[str] = (),
) -> str:
    """The section ``## Measured data: <dataset>`` of the report (Markdown), as the
    file ``report_measured.md`` holds it (:func:`esize_study.render.registry.section`).

    Parameters are the rows of :func:`esize_study.estimate.variation.variance_rows`,
    :func:`esize_study.estimate.warmup.warmup_check`,
    :func:`esize_study.estimate.precision.dimensioning_rows` and
    :func:`esize_study.falsealarm.records.false_alarm_rows`, the notes of
    :mod:`esize_study.render.measured_results`, and the known-effect tables
    (``known_effect_md``: :func:`esize_study.render.knowneffect.render_markdown` with
    level-4 headings; ``references``); ``conditions`` is a sentence on how the data were
    measured (:func:`esize_study.render.measured_results.conditions_note`);
    ``known_effect_rows`` the coverage and verdict rows. ``structure`` is
    :func:`esize_study.render.measured_checks.structure_rows`; ``checks`` the checks the
    headline counts (computed from ``structure``, ``references`` and the coverage rows
    when None); ``provenance`` the dataset's ``provenance.json`` (None: has none);
    ``skipped`` the numbers of builds left out per variant
    (:func:`esize_study.render.measured_power.skipped_sizes`); ``sessions`` the lines of
    :func:`esize_study.render.measured_sessions.sessions_section` (files with a session
    level), placed after the known effects on the full data, and ``history`` those of
    :func:`esize_study.render.measured_history.history_section` (every run of the
    dataset and its recheck, where it has a ``history.json``), after them.
    """
    cov, verd = known_effect_rows
    if checks is None:
        checks = (mc.structure_checks(structure) + mc.reference_checks(references)
                  + mc.coverage_checks(cov, alpha))
    designs = "; ".join(f"{r['program']} {' x '.join(map(str, r['design']))}" for r in structure)
    out = [
        "A real three-level dataset (builds x executions x steady iterations: "
        + (designs if designs or isinstance(pool, Mapping)
           else f"{pool[0]} binaries x {pool[1]} executions")
        + "), analysed as the paper analyses its Mono data.",
        "",
    ]
    out += mc.headline(checks, alpha)
    out += how_measured(provenance, references)
    if conditions:
        out += [conditions, ""]
    out += _structure_section(structure)
    out += _variance_section(var_rows) if var_rows else []
    out += _warmup_section(warmup_checks, warmup_fraction)
    out += _dimensioning_section(dimensioning, costs_note)
    out += _false_alarm_section(fa_rows, pool, alpha, var_rows)
    out += _known_effect_section(references, thresholds, alpha)
    out += list(sessions)
    out += list(history)
    if cov or skipped:
        out += coverage_power_section(references, cov, verd, thresholds, alpha=alpha,
                                      skipped=skipped or {}, table=_table)
    if known_effect_md and known_effect_md.strip():
        out += ["### Known effects: the detailed tables", ""]
        out += _known_effect_summary(references, cov, verd)
        out.append(known_effect_md)
    return section("measured", "\n".join(out).rstrip("\n") + "\n", dataset=dataset)
