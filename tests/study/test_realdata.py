"""A measured dataset in the pipeline: its settings, the sample, costs, warm-up, report."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from esize import critical_value
from esize_study.datasets import config as dconf
from esize_study.datasets import costs as dcosts
from esize_study.datasets import files as dfiles
from esize_study.datasets import measured as dmeas
from esize_study.datasets import settings as ds
from esize_study.estimate import costs as ecosts
from esize_study.estimate import precision as prec
from esize_study.estimate import variation as evar
from esize_study.estimate import warmup as wu
from esize_study.falsealarm import records as farec
from esize_study.falsealarm import simulate as fa
from esize_study.knowneffect import records as kerec
from esize_study.knowneffect import simulate as ke
from esize_study.render import knowneffect as rke
from esize_study.render import measured as rmeas
from esize_study.render import measured_results as rmres

ROOT = Path(__file__).resolve().parents[2]
FULL = ROOT / "data" / "measured-x86_64"
SAMPLE = ROOT / "data" / "measured-x86_64-sample"


def _tidy(rng, nb=4, ne=3, n=10, scale=1.0, warm=0.0):
    b, e, i = np.meshgrid(np.arange(1, nb + 1), np.arange(1, ne + 1), np.arange(1, n + 1),
                          indexing="ij")
    time = scale * (1.0 + 0.01 * rng.standard_normal(b.shape)) * (1 + warm * (i == 1))
    return pd.DataFrame({"binary": b.ravel(), "execution": e.ravel(), "iteration": i.ravel(),
                         "time": time.ravel(), "cpu_time": 0.9 * time.ravel()})


COSTS = {"sets": {name: {
    "steady_iteration_seconds": {"mean": 0.005},
    "new_binary_seconds": 0.5,
    "execution_overhead_seconds": {"mean": 0.004},
    "warmup_excess_seconds": {"mean": 0.006},
    "process_seconds": {"mean": 0.27},
    "cpu_share": {"mean": 0.8},
} for name in ("base", "other", "base-plus1")}}


@pytest.fixture
def measured(tmp_path):
    """A directory dataset with two benchmarks, one variant and a costs file."""
    d = tmp_path / "m"
    d.mkdir()
    rng = np.random.default_rng(1)
    for name, scale in (("base", 1.0), ("other", 2.0), ("base-plus1", 1.01)):
        _tidy(rng, scale=scale).to_csv(d / f"{name}.csv", index=False)
    (d / "costs.json").write_text(json.dumps(COSTS))
    config = {
        "build_seconds": 1200, "false_alarm": {"binaries": [1, 2, 60], "executions": [1, 100],
                                               "seed": 1},
        "datasets": {"m": {"kind": "directory", "path": str(d), "costs": {"file": "costs.json"},
                           "false_alarm": {"binaries": [2, 4]},
                           "known_effects": {"comparisons": 7,
                                             "variants": {"base-plus1": {"base": "base",
                                                                         "ratio": 1.01}}}}},
    }
    return config, d


def test_variants_are_not_benchmarks(measured):
    config, d = measured
    assert ds.dataset_benchmarks(config, "m") == {"base": "base", "other": "other"}
    (effect,) = ds.known_effects(config, "m").values()
    assert effect["variant"] == "base-plus1" and effect["base"] == "base"
    assert effect["ratio"] == 1.01 and effect["variant_file"].endswith("base-plus1.csv")
    s = ds.dataset_settings(config, "m")
    assert s["costs"] == "data" and s["costs_file"] == str(d / "costs.json")
    assert s["known_effects"]["comparisons"] == 7
    assert s["known_effects"]["binaries"] == [3, 5, 10, 20]  # the schema's default
    fa = ds.false_alarm_settings(config, "m")
    assert fa["binaries"] == [2, 4] and fa["executions"] == [1, 100] and fa["seed"] == 1
    assert config["false_alarm"]["binaries"] == [1, 2, 60]  # not changed in place
    assert dcosts.dataset_costs(config, "m")["sets"]["base"]["new_binary_seconds"] == 0.5
    assert dcosts.dataset_build_seconds(config, "m") == pytest.approx(0.5)


@pytest.mark.parametrize("change, keys, message", [
    (lambda c: c["known_effects"]["variants"].update({"nope": {"base": "base", "ratio": 1}}),
     ("datasets", "m", "known_effects", "variants", "nope"), "no file for the variant 'nope'"),
    (lambda c: c["known_effects"]["variants"].update({"other": {"base": "base-plus1",
                                                                "ratio": 1}}),
     ("datasets", "m", "known_effects", "variants", "other"), "is itself a variant"),
    (lambda c: c.update(costs={"file": "missing.json"}), ("datasets", "m", "costs", "file"),
     "does not exist"),
])
def test_bad_measured_settings_are_named(measured, change, keys, message):
    config, _ = measured
    change(config["datasets"]["m"])
    with pytest.raises(ds.ConfigError, match=message) as info:
        ds.dataset_benchmarks(config, "m")
    assert info.value.keys == keys


def test_standin_refuses_known_effects():
    config = {"datasets": {"s": {"kind": "standin", "known_effects": {"variants": {}}}}}
    assert ds.known_effects(config, "s") == {}
    config["datasets"]["s"]["known_effects"] = {"variants": {"a": {"base": "b", "ratio": 1}}}
    with pytest.raises(ds.ConfigError, match="no known effects"):
        ds.dataset_settings(config, "s")


def test_config_schema_accepts_the_measured_dataset(measured, tmp_path):
    config, _ = measured
    config["datasets"]["m"]["known_effects"]["binaries"] = [1]  # below 2: refused
    problem = dconf.config_problem(config, ROOT / "workflow/schemas/config.schema.yaml")
    assert problem is not None and "known_effects.binaries[0]" in problem
    config["datasets"]["m"]["known_effects"]["binaries"] = [2, 3]
    assert dconf.config_problem(config, ROOT / "workflow/schemas/config.schema.yaml") is None
    config["datasets"]["m"]["costs"] = {"path": "costs.json"}
    assert dconf.config_problem(config, ROOT / "workflow/schemas/config.schema.yaml") is not None


def test_sample_writer_cuts_the_first_units(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    frame = _tidy(np.random.default_rng(2), nb=5, ne=4, n=9).sample(frac=1, random_state=1)
    frame["other"] = 1
    frame.to_parquet(src / "a.parquet", index=False)
    (src / "costs.json").write_text("{}")
    files = dmeas.write_sample(src, tmp_path / "dst", shape=(2, 3, 4))
    assert [f.name for f in files] == ["a.parquet", "costs.json"]
    cut = pd.read_parquet(tmp_path / "dst" / "a.parquet")
    assert list(cut.columns) == ["binary", "execution", "iteration", "time", "cpu_time"]
    assert sorted(cut["binary"].unique()) == [1, 2]
    assert sorted(cut["execution"].unique()) == [1, 2, 3]
    assert sorted(cut["iteration"].unique()) == [1, 2, 3, 4] and len(cut) == 2 * 3 * 4
    want = frame[(frame.binary <= 2) & (frame.execution <= 3) & (frame.iteration <= 4)]
    assert cut["time"].sum() == pytest.approx(want["time"].sum())


@pytest.mark.skipif(not FULL.is_dir(), reason="needs the measured dataset")
def test_committed_sample_is_a_cut_of_the_measured_data(tmp_path):
    files = dmeas.write_sample(FULL, tmp_path)
    names = sorted(p.name for p in SAMPLE.iterdir() if p.suffix in (".parquet", ".json"))
    assert names == sorted(f.name for f in files)
    for f in files:
        if f.suffix == ".parquet":
            pd.testing.assert_frame_equal(pd.read_parquet(f), pd.read_parquet(SAMPLE / f.name))
        else:
            assert f.read_bytes() == (SAMPLE / f.name).read_bytes()
    assert sum(p.stat().st_size for p in SAMPLE.iterdir()) < 200_000


def test_repository_configs_hold_the_measured_dataset(monkeypatch):
    monkeypatch.chdir(ROOT)
    for files in (["config/config.yaml"], ["config/config.yaml", "config/test.yaml"]):
        config = {}
        for f in files:
            dconf.merge_config(config, dconf.load_config_file(f))
        assert dconf.check_config_files(files) is None
        known = ds.known_effects(config, "measured-x86_64")
        assert {k: v["ratio"] for k, v in known.items()} == {
            "fft-plus0": 1.0, "fft-plus1": 1.01, "fft-plus3": 1.03,
            "cipher-plus0": 1.0, "cipher-plus1": 1.01, "cipher-plus3": 1.03}
        assert set(ds.dataset_benchmarks(config, "measured-x86_64")) == {
            "fft", "cipher", "hashtable", "interp"}


def test_cost_model_in_measurements():
    c = ecosts.cost_model(COSTS["sets"]["base"], warmup=15)
    assert c.costs[0] == pytest.approx(100.0)  # 0.5 s / 5 ms
    # start-up 4 ms + 15 dropped iterations + 6 ms of excess, in 5 ms iterations
    assert c.costs[1] == pytest.approx(0.8 + 15 + 1.2)
    assert c.budget(1) == pytest.approx(3600 / 0.005)
    with pytest.raises(ValueError, match="steady_iteration_seconds.mean: missing"):
        ecosts.cost_model({"new_binary_seconds": 1}, 1)
    bad = {**COSTS["sets"]["base"], "execution_overhead_seconds": 0.004}  # not {mean: ...}
    with pytest.raises(ValueError, match="execution_overhead_seconds: expected a mapping"):
        ecosts.cost_model(bad, 1)


def test_dimensioning_rows_from_own_costs():
    est = {"benchmark": "base", "S_pct": [1.0, 3.0, 5.0], "counts": [30, 10, 35],
           "warmup": 15, "raw": 50}
    rows = prec.dimensioning_rows([est], COSTS, [1, 3])
    assert [r["budget"] for r in rows] == ["1 h", "3 h", "measured"]
    measured = rows[-1]
    assert measured["hours"] == pytest.approx((30 * 0.5 + 300 * 0.27) / 3600)
    assert measured["actual_pct"] == pytest.approx(critical_value(0.05, 29) * 1.0 / math.sqrt(30))
    for r in rows:
        assert r["optimum_pct"] <= r["ours_pct"] + 1e-12
        assert r["c2"] == pytest.approx(100.0)
    assert rows[1]["optimum_pct"] < rows[0]["optimum_pct"]  # a larger budget is narrower
    with pytest.raises(ValueError, match="no entry"):
        prec.dimensioning_rows([{**est, "benchmark": "x"}], COSTS, [1])


def test_warmup_check_sees_a_first_iteration_warmup():
    pytest.importorskip("ruptures")
    rng = np.random.default_rng(5)
    y = 1.0 + 0.01 * rng.standard_normal((6, 4, 20))
    y[:, :, 0] += 0.3
    from esize import Design

    c = wu.warmup_check(Design(y, ("binary", "execution", "iteration")), 6, name="w")
    assert c["first"] == pytest.approx(0.3, abs=0.02)
    assert c["first"] > 10 * c["first_se"]
    assert abs(c["after"]) < 3 * c["after_se"] + 1e-3
    assert c["auto_checked"] == 10 and c["auto_max_cut"] <= 6
    with pytest.raises(ValueError, match="nothing to check"):
        wu.warmup_check(Design(y, ("binary", "execution", "iteration")), 19)


def test_variance_rows_flag_nonpositive_levels_and_dominance():
    est = [{"benchmark": "x", "S_pct": [1.0, 5.0, 2.0], "T_pct": [0.0, 4.9, 2.0],
            "T2": [-0.1, 24.0, 4.0]}]
    rows = evar.variance_rows(est)
    x = rows[0]
    assert x["nonpositive"] == ["compilation"] and x["dominant"] == "execution"
    assert x["share"] == pytest.approx([0.0, 24 / 28, 4 / 28])
    paper = {r["benchmark"]: r for r in rows if r["source"] == "paper"}
    assert len(paper) == 10 and paper["HTTP OPT"]["nonpositive"] == ["execution"]
    assert paper["FFT"]["dominant"] == "execution" and paper["TCP"]["dominant"] == "measurement"
    assert evar.variance_rows(est, "cpu", with_paper=False)[0]["source"] == "cpu"


def test_false_alarm_rows_keep_the_pool_sizes():
    rows = []
    for exp, b, e in (("fFAFFT", 2, 10), ("fFAFFT", 30, 10), ("fFAFFT", 40, 10),
                      ("fFA2L", 1, 5), ("fFA2L", 1, 20)):
        for t in (0.0, 1.0):
            rows.append({"benchmark": "x", "experiment": exp, "method": "asymptotic",
                         "scheme": "-", "binaries": b, "executions": e, "threshold_pct": t,
                         "rate": 0.2 if t == 0 else 0.1, "se": 0.01, "comparisons": 1000})
    out = farec.false_alarm_rows(pd.DataFrame(rows), (30, 10), (0, 1, 2))
    assert [(r["experiment"], r["size"]) for r in out] == [("binaries", 2), ("binaries", 30),
                                                           ("executions", 5)]
    assert out[0]["rate_0"] == 0.2 and out[0]["call_0"] == "above" and "rate_2" not in out[0]


def test_report_section(measured):
    config, d = measured
    est = [{"benchmark": "base", "S_pct": [1.0, 3.0, 5.0], "T_pct": [0.0, 2.9, 5.0],
            "T2": [-1e-6, 8.4, 25.0], "counts": [4, 3, 7], "warmup": 3, "raw": 10}]
    text = rmeas.render_report(
        "m", var_rows=evar.variance_rows(est), warmup_checks=[], warmup_fraction=0.3,
        dimensioning=prec.dimensioning_rows(est, COSTS, [1]), costs_note="note",
        fa_rows=[], pool=(4, 3), known_effect_md="#### Coverage\n\n| x |\n", references=[],
        conditions=rmres.conditions_note(dmeas.read_conditions(d)))
    assert text.startswith("## Measured data: m\n")
    for heading in ("### Variance components", "### Dimensioning", "### Known effects",
                    "#### Coverage"):
        assert heading in text
    assert "T² ≤ 0 at the compilation level for 1 of 1" in text
    assert "the execution level of HTTP OPT, HTTP, TCP OPT, TCP" in text
    assert "80 % of a CPU" in text


def test_warmup_left_in_wall_time_only_is_waiting():
    pytest.importorskip("ruptures")
    from esize import Design

    rng = np.random.default_rng(6)
    cpu = 1.0 + 0.005 * rng.standard_normal((6, 5, 60))
    wall = cpu * (1 + 0.2 * rng.random(cpu.shape))
    wall[:, :, 9:14] *= 1.08  # slower right after a cut of 9, in wall time only
    levels = ("binary", "execution", "iteration")
    c = wu.warmup_check(Design(wall, levels), 9, name="b", cpu=Design(cpu, levels))
    assert c["after"] > 2 * c["after_se"] and abs(c["cpu_after"]) < 2 * c["cpu_after_se"] + 1e-3
    text = rmeas.render_report("m", var_rows=[], warmup_checks=[c], warmup_fraction=0.3,
                            dimensioning=[], costs_note="", fa_rows=[], pool=(6, 5),
                            known_effect_md=None, references=[])
    assert "after the cut, CPU time" in text and "in the wall time only" in text
    assert "so the fixed cut is kept" in text  # 8 % on 5 of 51 iterations: 0.8 % of the mean
    cpu = cpu.copy()
    cpu[:, :, 9:14] *= 1.3  # now the program itself is still warming up
    wall = wall.copy()
    wall[:, :, 9:14] *= 1.3
    c = wu.warmup_check(Design(wall, levels), 9, name="b", cpu=Design(cpu, levels))
    text = rmeas.render_report("m", var_rows=[], warmup_checks=[c], warmup_fraction=0.3,
                            dimensioning=[], costs_note="", fa_rows=[], pool=(6, 5),
                            known_effect_md=None, references=[])
    assert "the program itself is still warming up" in text
    assert "A longer cut would be warranted for b" in text
    noisy = {**c, "after": 0.05, "after_se": 0.04, "cpu_after": 0.0, "cpu_after_se": 0.01}
    text = rmeas.render_report("m", var_rows=[], warmup_checks=[noisy], warmup_fraction=0.3,
                            dimensioning=[], costs_note="", fa_rows=[], pool=(6, 5),
                            known_effect_md=None, references=[])
    assert "steady within two standard errors" in text and "cannot rule out" in text


def test_known_effect_tables_round_trip_into_the_report(tmp_path):
    from esize import Design

    rng = np.random.default_rng(7)
    levels = ("binary", "execution", "iteration")
    old = 1 + 0.01 * rng.standard_normal((8, 3, 5))
    new = 1.03 * (1 + 0.01 * rng.standard_normal((8, 3, 5)))
    ref = ke.reference(Design(old, levels), Design(new, levels), ratio=1.03, resamples=200)
    refs = [{"variant": "b-plus3", "base": "b", **ref}]
    frame = kerec.records_to_frame(ke.simulate(fa.bench_stats(old), fa.bench_stats(new),
                                            [ke.KnownEffectCell(3, 30, 50),
                                             ke.KnownEffectCell(6, 30, 50)],
                                            seed=1, variant_id=1, block_size=10), "b-plus3")
    info = {"b-plus3": {"base": "b", "ratio": 1.03, "full_ratio": ref["estimate"]}}
    cov, verd = kerec.coverage_rows(frame, info), kerec.verdict_rows(frame, info, [0, 1, 2])
    dfiles.write_csv(tmp_path / "c.csv", cov, kerec.COVERAGE_COLUMNS)
    dfiles.write_csv(tmp_path / "v.csv", verd, kerec.VERDICT_COLUMNS)
    dfiles.write_csv(tmp_path / "r.csv", refs, kerec.REFERENCE_COLUMNS)
    refs2, cov2, verd2 = kerec.read_tables(tmp_path / "c.csv", tmp_path / "v.csv",
                                           tmp_path / "r.csv")
    md = rke.render_markdown(refs2, cov2, verd2, heading="####")
    assert len(cov2) == 6 and len(verd2) == 18 and refs2[0]["variant"] == "b-plus3"
    assert cov2[0]["coverage"] == pytest.approx(cov[0]["coverage"])
    text = rmeas.render_report("m", var_rows=[], warmup_checks=[], warmup_fraction=0.3,
                            dimensioning=[], costs_note="", fa_rows=[], pool=(8, 3),
                            known_effect_md=md, references=refs2,
                            known_effect_rows=(cov2, verd2))
    (t6,) = [r for r in verd if r["size"] == 6 and r["threshold_pct"] == 0
             and r["method"] == "fieller-t"]
    assert f"{100 * t6['slower']:.1f} ± {100 * t6['slower_se']:.1f} % for b-plus3" in text
    assert "Width: the RRR bootstrap's median half-width" in text
    assert "#### Verdicts" in text and "#### Coverage when the experiment is subsampled" in text


# -- the order check that lets ingest skip sorting -----------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
                min_size=1, max_size=30),
       st.booleans(), st.booleans())
def test_sorted_rows_says_whether_a_stable_sort_would_change_the_table(rows, presort, floats):
    if presort:
        rows = sorted(rows)
    frame = pd.DataFrame(rows, columns=["binary", "execution", "iteration"])
    if floats:
        frame = frame.astype(float)
    frame["time"] = np.arange(len(frame), dtype=float) + 1.0
    cols = ["binary", "execution", "iteration"]
    unchanged = frame.sort_values(cols, kind="stable").index.equals(frame.index)
    assert dfiles._sorted_rows(frame, cols) == unchanged


def test_sorted_rows_leaves_text_and_missing_labels_to_the_sort():
    frame = pd.DataFrame({"binary": ["a", "b"], "execution": [0, 0], "iteration": [0, 1]})
    assert not dfiles._sorted_rows(frame, ["binary", "execution", "iteration"])
    frame = pd.DataFrame({"binary": [0.0, np.nan], "execution": [0, 0], "iteration": [0, 1]})
    assert not dfiles._sorted_rows(frame, ["binary", "execution", "iteration"])
