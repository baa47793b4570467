"""A measured dataset whose programs were measured with different designs.

Unit tests of the measured report's parts (the checks its headline counts, the
provenance it reads, no empty table anywhere), and one end-to-end run of the measured
rules on a synthetic dataset of two programs with different numbers of builds,
executions and iterations, with sizes configured above one program's pool.
"""

from __future__ import annotations

import json
import re
import subprocess

import numpy as np
import pandas as pd
import pytest

from esize import EsizeError
from esize_study.falsealarm import records as farec
from esize_study.falsealarm import simulate as fa
from esize_study.knowneffect import records as kerec
from esize_study.knowneffect import simulate as ke
from esize_study.render import measured as rmeas
from esize_study.render import measured_checks as mc
from esize_study.render import measured_power as mp
from esize_study.render import measured_provenance as mprov

from .test_pipeline import PROFILE, SNAKEMAKE
from .test_user_datasets import _benchmark, _config, _costs, _workflow

#: A Markdown table header row followed directly by its separator row.
_TABLE = re.compile(r"^\|.*\|\n\|[-:| ]+\|$", re.M)


def empty_tables(md: str) -> list[str]:
    """The header lines of tables in ``md`` that have no body row."""
    out = []
    lines = md.split("\n")
    for i in range(len(lines) - 1):
        if (lines[i].startswith("|") and re.fullmatch(r"\|[-:| ]+\|", lines[i + 1])
                and (i + 2 >= len(lines) or not lines[i + 2].startswith("|"))):
            out.append(lines[i])
    return out


def test_empty_tables_finds_a_header_without_rows():
    assert empty_tables("x\n\n| a | b |\n|---|---|\n\nmore") == ["| a | b |"]
    assert empty_tables("| a |\n|:--|\n| 1 |\n") == []


PROVENANCE = {
    "guard": {"thresholds": {"others_share": 0.02, "steal_share": 0.02, "resolution_ticks": 2,
                             "wall_per_cpu": 1.01, "max_attempts": 4},
              "processes": 120, "attempts": 130,
              "discarded": 10, "reruns": 10, "unclean": 0, "forced": False,
              "preflight": {"others_share": 0.004, "seconds": 2.0, "busy": False,
                            "busiest": [{"command": "kdamond.0", "cpu_share": 0.005}]}},
    "interference": {"others_cpu_share_pooled": 0.002, "steal_share_pooled": 0.0001,
                     "others_cpu_share": {"mean": 0.01, "median": 0.005, "max": 0.04},
                     "steal_share": {"mean": 0.0, "median": 0.0, "max": 0.001},
                     "wall_per_cpu": {"mean": 1.01, "median": 1.005, "max": 1.08}},
    "plan": {"programs": {"a": {"pilot": {"builds": 4, "executions": 3, "iterations": 10,
                                          "s_pct": [1.0, 2.0, 3.0], "mean": 0.004},
                                "design": {"builds": 8, "executions": 4, "iterations": 10},
                                "target_half_width_pct": 1.0,
                                "predicted_half_width_pct": 0.8}},
             "budget_seconds": 3600.0},
}

REF = {"variant": "a-plus3", "base": "a", "ratio": 1.03, "base_binaries": 8,
       "variant_binaries": 8, "estimate": 1.031, "fieller_t_lower": 1.02,
       "fieller_t_upper": 1.042, "bootstrap_lower": 1.021, "bootstrap_upper": 1.041,
       "contains_injected": True, "cpu_estimate": 1.03, "cpu_lower": 1.025,
       "cpu_upper": 1.035}


def test_how_measured_reads_the_new_keys_and_says_what_is_missing():
    text = "\n".join(mprov.how_measured(PROVENANCE, [REF]))
    assert "processes 120; attempts 130; discarded 10; unclean 0" in text
    assert "forced: no" in text and "others at most 2.0 % of a CPU" in text
    assert "busiest: kdamond.0 0.5 %" in text and "used 0.4 % of a CPU over 2.0 s" in text
    assert "other programs used 0.20 % of a CPU" in text  # pooled, in %
    assert "mean 1.00 %" in text and "max 1.08" in text  # shares in %, wall/CPU as is
    half = 100 * (1.042 - 1.02) / 2 / 1.031
    assert f"{half:.2f} (a-plus3)" in text and "| 0.80 " in text and "4 x 3 x 10" in text
    partial = "\n".join(mprov.how_measured({"guard": {"processes": 5}}, []))
    assert "attempts not recorded" in partial
    assert "Interference per process: not recorded" in partial
    assert "Plan (pilot, design, predicted half-width): not recorded" in partial
    assert "has no provenance.json" in "\n".join(mprov.how_measured({}, []))
    assert not empty_tables(text + partial)


def test_checks_are_computed_and_can_fail():
    wall = [{"benchmark": "a", "S_pct": [1.0, 2.0, 6.0], "counts": [8, 4, 7]},
            {"benchmark": "b", "S_pct": [1.0, 2.0, 3.0], "counts": [4, 3, 10]}]
    cpu = [{"benchmark": "a", "S_pct": [1.0, 2.0, 3.0]}, {"benchmark": "b", "S_pct": [1, 2, 2.5]}]
    rows = mc.structure_rows(wall, cpu)
    assert [r["iteration_ratio"] for r in rows] == pytest.approx([2.0, 1.2])
    assert [c["verdict"] for c in mc.structure_checks(rows)] == [mc.DISAGREE, mc.AGREE]
    out = {**REF, "fieller_t_lower": 1.035}  # the interval misses 1.03
    assert [c["verdict"] for c in mc.reference_checks([REF, out])] == [mc.AGREE, mc.DISAGREE]
    cov = [{"variant": "a-plus3", "size": k, "method": "fieller-t", "coverage": p,
            "comparisons": 200} for k, p in ((3, 0.99), (5, 0.5), (8, 0.9))]
    assert [c["verdict"] for c in mc.coverage_checks(cov)] == [mc.AGREE, mc.DISAGREE,
                                                               mc.UNDECIDED]
    assert mc.compare_verdicts(1.02, 1.04, [0, 1, 5]) == "0 %: slower; 1 %: slower; 5 %: same"
    head = "\n".join(mc.headline(mc.structure_checks(rows)))
    assert "2 checks on this dataset: 1 agree, 1 disagree, 0 undecided" in head
    assert "within 1.5x" in head


def test_sizes_above_a_pool_are_skipped_not_a_crash():
    assert ke.sizes_within([1, 3, 5, 10, 20], 8, 12) == ([3, 5], [1, 10, 20])
    assert mp.skipped_sizes([3, 5, 10], {"a-plus3": 8, "b-plus1": 4}) == {
        "a-plus3": [10], "b-plus1": [5, 10]}
    rng = np.random.default_rng(3)
    old, new = rng.lognormal(0, 0.01, (4, 3, 5)), 1.03 * rng.lognormal(0, 0.01, (4, 3, 5))
    with pytest.raises(EsizeError, match="cannot be drawn"):
        ke.simulate(fa.bench_stats(old), fa.bench_stats(new), [ke.KnownEffectCell(5, 10, 20)],
                    seed=1, variant_id=1)
    frame = kerec.records_to_frame([], "b-plus1")  # every size skipped
    assert list(frame.columns)[:3] == ["variant", "size", "method"] and frame.empty
    assert kerec.coverage_rows(frame, {}) == []


def test_false_alarm_rows_keep_each_benchmark_within_its_own_pool():
    rows = []
    for bench in ("a", "b"):
        for b in (2, 3, 5, 8):
            rows.append({"benchmark": bench, "experiment": "fFAFFT", "method": "asymptotic",
                         "scheme": "-", "binaries": b, "executions": 0, "threshold_pct": 0.0,
                         "comparisons": 100, "rate": 0.05, "se": 0.02})
        for e in (1, 2, 4):
            rows.append({"benchmark": bench, "experiment": "fFA2L", "method": "asymptotic",
                         "scheme": "-", "binaries": 1, "executions": e, "threshold_pct": 0.0,
                         "comparisons": 100, "rate": 0.05, "se": 0.02})
    out = farec.false_alarm_rows(pd.DataFrame(rows), {"a": (8, 4), "b": (4, 3)})
    sizes = {(r["benchmark"], r["experiment"]): sorted(r2["size"] for r2 in out
                                                       if (r2["benchmark"], r2["experiment"])
                                                       == (r["benchmark"], r["experiment"]))
             for r in out}
    assert sizes[("a", "binaries")] == [2, 3, 5, 8] and sizes[("b", "binaries")] == [2, 3]
    # executions: the shown sizes (FA_EXECUTIONS and the pools) within each own pool
    assert sizes[("a", "executions")] == [2, 4] and sizes[("b", "executions")] == [2]


def test_report_has_no_empty_table_with_or_without_parts():
    for kwargs in ({}, {"structure": mc.structure_rows(
            [{"benchmark": "a", "S_pct": [1, 2, 3], "counts": [8, 4, 7]}], []),
            "provenance": PROVENANCE, "references": [REF]}):
        text = rmeas.render_report("m", **{
            "var_rows": [], "warmup_checks": [], "warmup_fraction": 0.3, "dimensioning": [],
            "costs_note": "", "fa_rows": [], "pool": {"a": (8, 4)}, "known_effect_md": "\n",
            "references": [], **kwargs})
        assert not empty_tables(text), text
        assert "checks on this dataset" in text or "No check was computed" in text


# -- end to end: two programs, two designs ------------------------------------------
@pytest.mark.slow
def test_measured_rules_accept_programs_with_different_designs(tmp_path):
    rng = np.random.default_rng(11)
    data = tmp_path / "twodesigns"
    data.mkdir()
    designs = {"a": (8, 4, 10), "b": (4, 3, 14)}  # builds x executions x iterations
    for name, (nb, ne, ni) in designs.items():
        _benchmark(rng, 0.01, binaries=nb, executions=ne, iterations=ni).to_csv(
            data / f"{name}.csv", index=False)
    # every set of one program shares its design
    _benchmark(rng, 0.01, binaries=8, executions=4, iterations=10, ratio=1.03).to_csv(
        data / "a-plus3.csv", index=False)
    _benchmark(rng, 0.01, binaries=4, executions=3, iterations=14, ratio=1.01).to_csv(
        data / "b-plus1.csv", index=False)
    (data / "costs.json").write_text(json.dumps(_costs(list(designs), rng)))
    (data / "provenance.json").write_text(json.dumps(PROVENANCE))
    settings = {
        "kind": "directory", "path": str(data), "costs": {"file": "costs.json"},
        "false_alarm": {"binaries": [2, 3, 5, 8], "executions": [1, 2, 4]},
        "known_effects": {"seed": 5, "comparisons": 20, "resamples": 30, "block": 10,
                          "binaries": [3, 5, 10], "reference_resamples": 200,
                          "variants": {"a-plus3": {"base": "a", "ratio": 1.03},
                                       "b-plus1": {"base": "b", "ratio": 1.01}}},
    }
    config = _config(tmp_path, "two", settings)
    wd = _workflow(tmp_path)
    target = str(tmp_path / "results" / "two" / "report_measured.md")
    res = subprocess.run([*SNAKEMAKE, target, *PROFILE, "--configfile", str(config),
                          "--replace-workflow-config"], cwd=wd, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, (res.stdout + res.stderr)[-4000:]
    base = tmp_path / "results" / "two"
    text = (base / "report_measured.md").read_text()
    assert "a 8 x 4 x 7; b 4 x 3 x 10" in text  # each program's own steady design
    assert "a-plus3: 10; b-plus1: 5, 10" in text  # sizes above a pool are skipped, said so
    assert "b: 4 binaries x 3 executions" in text
    assert "processes 120" in text and "| 0.80 " in text
    assert not empty_tables(text)
    cov = pd.read_csv(base / "tables" / "known_effects.csv")
    assert set(zip(cov["variant"], cov["size"])) == {("a-plus3", 3), ("a-plus3", 5),
                                                     ("b-plus1", 3)}
    checks = pd.read_csv(base / "tables" / "measured_checks.csv")
    assert set(checks["kind"]) == {"full_data", "coverage"}  # no CPU times: no ratio check
    assert f"**{len(checks)} checks on this dataset" in text
