"""The checks a measured dataset is put to, computed from that dataset alone.

Each check has a rule stated so that it could fail (:data:`RULES`), a value computed
from the data and a verdict (``agree``, ``disagree`` or ``undecided``):

* ``iteration_ratio``: per program, the iteration-level S in wall time over that in
  CPU time lies within a factor (:func:`structure_rows`, :func:`structure_checks`);
* ``full_data``: per variant, the Fieller (t) interval of the full-data wall-time
  ratio contains the injected work ratio (:func:`reference_checks`);
* ``coverage``: per variant, number of builds and method, the share of subsampled
  intervals that contain the injected ratio is at least ``nominal - margin``, judged
  by its Wilson interval (:func:`coverage_checks`).

:func:`headline` counts them; :func:`known_effect_table` is the full-data ratios with
the verdict ``esize compare`` gives on them. Rows computed from the paper's inputs are
never checks here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from esize import verdict as esize_verdict

from ..estimate.rates import wilson

__all__ = [
    "AGREE", "DISAGREE", "UNDECIDED", "RULES", "PAPER_CLOSEST",
    "structure_rows", "structure_checks", "reference_checks", "coverage_checks",
    "headline", "known_effect_table", "compare_verdicts", "CHECK_COLUMNS",
]

AGREE, DISAGREE, UNDECIDED = "agree", "disagree", "undecided"
#: Columns of ``tables/measured_checks.csv``.
CHECK_COLUMNS = ("kind", "subject", "value", "verdict")
#: The factor within which the iteration-level S in wall and in CPU time must agree.
ITERATION_FACTOR = 1.5
#: Coverage is checked against ``nominal - COVERAGE_MARGIN``.
COVERAGE_MARGIN = 0.05
#: The coverage checks' methods.
COVERAGE_METHODS = ("fieller-t", "bootstrap-RRR")
#: The paper's benchmarks closest to a program of the measured dataset (the same
#: kind of work: an FFT, a block cipher); programs without one are not compared.
PAPER_CLOSEST: dict[str, tuple[str, ...]] = {
    "fft": ("FFT", "FFT OPT"),
    "cipher": ("Rijndael", "Rijndael OPT"),
}


def _rules(alpha: float = 0.05) -> dict[str, str]:
    nominal = 100 * (1 - alpha)
    return {
        "iteration_ratio": (
            f"per program, the iteration-level S in wall time divided by that in CPU time "
            f"lies within {ITERATION_FACTOR:g}x (between 1/{ITERATION_FACTOR:g} and "
            f"{ITERATION_FACTOR:g}): agree inside, disagree outside"),
        "full_data": (
            f"per variant, the Fieller (t) {nominal:g} % interval of the full-data wall-time "
            "ratio variant/base contains the injected work ratio: agree when it does, "
            "disagree when it does not"),
        "coverage": (
            f"per variant, builds k and method ({', '.join(COVERAGE_METHODS)}), the share of "
            "subsampled intervals that contain the injected ratio is at least "
            f"{nominal - 100 * COVERAGE_MARGIN:g} %: agree when its 95 % Wilson interval "
            "lies at or above that, disagree when wholly below, undecided when it straddles it"),
        "session": (
            "files with a session level: the rules written before those sessions were "
            "measured (measure/mono/prereg/2026-11-28.md), each judged as written: agree "
            "when it holds, disagree when it does not"),
    }


#: The rules of the checks at the default alpha (the report states them with its own).
RULES = _rules()


def _finite(x) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def _truthy(x) -> bool:
    return str(x).lower() in ("true", "1")


def structure_rows(wall: Sequence[Mapping], cpu: Sequence[Mapping]) -> list[dict]:
    """Per program: its design, S % per level in wall time and in CPU time, and the
    ratio of the iteration-level S in wall time to that in CPU time (NaN without CPU
    times).

    ``wall``: the variance estimates (``benchmark``, ``S_pct``, ``counts``); ``cpu``:
    :func:`esize_study.estimate.variation.cpu_estimates` of the same files.
    """
    by = {c["benchmark"]: c for c in cpu}
    rows = []
    for e in wall:
        c = by.get(e["benchmark"])
        s_wall = [float(x) for x in e["S_pct"]]
        s_cpu = [float(x) for x in c["S_pct"]] if c else None
        ratio = (s_wall[-1] / s_cpu[-1]) if s_cpu and s_cpu[-1] > 0 else math.nan
        rows.append({"program": e["benchmark"], "design": [int(x) for x in e["counts"]],
                     "wall": s_wall, "cpu": s_cpu, "iteration_ratio": ratio})
    return rows


def structure_checks(rows: Sequence[Mapping], factor: float = ITERATION_FACTOR) -> list[dict]:
    """One ``iteration_ratio`` check per program that has CPU times."""
    out = []
    for r in rows:
        q = r["iteration_ratio"]
        if not _finite(q):
            continue
        ok = 1 / factor <= q <= factor
        out.append({"kind": "iteration_ratio", "subject": r["program"], "value": f"{q:.2f}x",
                    "verdict": AGREE if ok else DISAGREE})
    return out


def reference_checks(refs: Sequence[Mapping]) -> list[dict]:
    """One ``full_data`` check per variant (the A/A variant's injected ratio is 1)."""
    out = []
    for r in refs:
        lo, hi, inj = float(r["fieller_t_lower"]), float(r["fieller_t_upper"]), float(r["ratio"])
        inside = lo <= inj <= hi
        out.append({"kind": "full_data", "subject": f"{r['variant']} vs {r['base']}",
                    "value": f"{float(r['estimate']):.4f} [{lo:.4f}, {hi:.4f}] vs {inj:g}",
                    "verdict": AGREE if inside else DISAGREE})
    return out


def coverage_checks(cov: Sequence[Mapping], alpha: float = 0.05,
                    methods: Sequence[str] = COVERAGE_METHODS,
                    margin: float = COVERAGE_MARGIN) -> list[dict]:
    """One ``coverage`` check per variant, size and method of ``methods``."""
    floor = 1 - alpha - margin
    out = []
    for r in cov:
        if r["method"] not in methods:
            continue
        p, n = float(r["coverage"]), int(r["comparisons"])
        lo, hi = wilson(p, n)
        verdict = AGREE if lo >= floor else DISAGREE if hi < floor else UNDECIDED
        out.append({"kind": "coverage", "subject": f"{r['variant']}, k = {r['size']}, "
                    f"{r['method']}", "value": f"{100 * p:.1f} % [{100 * lo:.1f}, "
                    f"{100 * hi:.1f}] of {n}", "verdict": verdict})
    return out


def headline(checks: Sequence[Mapping], alpha: float = 0.05) -> list[str]:
    """The headline and the rule of every kind of check it counts (Markdown lines)."""
    n = {v: sum(c["verdict"] == v for c in checks) for v in (AGREE, DISAGREE, UNDECIDED)}
    if not checks:
        return ["**No check was computed on this dataset** (it has no CPU times and no "
                "known effects).", ""]
    rules = _rules(alpha)
    kinds = list(dict.fromkeys(c["kind"] for c in checks))
    out = [f"**{len(checks)} checks on this dataset: {n[AGREE]} agree, {n[DISAGREE]} "
           f"disagree, {n[UNDECIDED]} undecided.** Every check is computed from this "
           "dataset's files alone; rows computed from the paper's inputs are not counted "
           "here. The rules:", ""]
    for k in kinds:
        m = [c for c in checks if c["kind"] == k]
        counts = ", ".join(f"{sum(c['verdict'] == v for c in m)} {v}"
                           for v in (AGREE, DISAGREE, UNDECIDED))
        out.append(f"- `{k}` ({len(m)} checks: {counts}): {rules[k]}.")
    bad = [c for c in checks if c["verdict"] != AGREE]
    if bad:
        out += ["", "Checks that do not agree: " + "; ".join(
            f"{c['kind']} {c['subject']}: {c['value']} ({c['verdict']})" for c in bad) + "."]
    return out + [""]


def compare_verdicts(lower: float, upper: float, thresholds_pct: Sequence[float]) -> str:
    """The verdict of :func:`esize.verdict` (what ``esize compare`` reports from its
    Fieller interval) at each threshold, as ``"0 %: slower; 1 %: same"``."""
    bounded = _finite(lower) and _finite(upper)
    return "; ".join(f"{t:g} %: {esize_verdict(lower, upper, t / 100, bounded=bounded)}"
                     for t in thresholds_pct)


def known_effect_table(refs: Sequence[Mapping], thresholds_pct: Sequence[float]) -> list[list[str]]:
    """Rows of the known-effect table in wall time (CPU time beside it)."""
    body = []
    for r in refs:
        lo, hi, est = float(r["fieller_t_lower"]), float(r["fieller_t_upper"]), float(r["estimate"])
        inj = float(r["ratio"])
        hw = 100 * (hi - lo) / 2 / est if all(map(_finite, (lo, hi, est))) else math.nan
        cpu = ("-" if not _finite(r.get("cpu_estimate")) else
               f"{float(r['cpu_estimate']):.4f} [{float(r['cpu_lower']):.4f}, "
               f"{float(r['cpu_upper']):.4f}]")
        body.append([
            r["variant"], r["base"], f"{inj:g}",
            f"{int(r['base_binaries'])} / {int(r['variant_binaries'])}",
            f"{est:.4f} [{lo:.4f}, {hi:.4f}]", "-" if not _finite(hw) else f"{hw:.2f}",
            "yes" if lo <= 1 <= hi else "no", "yes" if lo <= inj <= hi else "no",
            compare_verdicts(lo, hi, thresholds_pct), cpu,
        ])
    return body
