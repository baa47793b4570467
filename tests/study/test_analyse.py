"""`make analyse CONFIG=my.yaml`: a user's dataset in the pipeline, with its own report.

Unit tests of the entry's defaults and checks (esize_study.analysis.config, .check),
the reading (.read), each section's numbers (.estimate, .compare, .simulate) and each
section's builder (.report), the figures and their captions. The pipeline end to end
is tests/study/test_analyse_pipeline.py.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from esize.cli import build_parser
from esize.compare import DEFAULT_WARMUP
from esize_study.analysis import check, compare, config, estimate, figures, read, report, simulate

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = ROOT / "config" / "analyse-defaults.yaml"
EXAMPLE = ROOT / "examples" / "analyse"
PYPERF = ROOT / "examples" / "pyperf"
REAL = ROOT / "tests" / "data" / "real"
# `make` with this interpreter's environment as the virtualenv; -o: never reinstall it
MAKE = ["make", f"VENV={sys.prefix}", "-o", f"{sys.prefix}/.installed"]
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
#: What only the reproduction report holds: none of it may appear in an analysis.
PAPER_WORDS = ("tPrecisions", "Table tVariations", "tVariations", "Reproduction report",
               " agree", "fFAFFT", "fCOV", "Kalibera")


# -- data ---------------------------------------------------------------------------------
def tidy_benchmark(rng: np.random.Generator, mean: float, *, ratio: float = 1.0,
                   binaries: int = 10, executions: int = 3, iterations: int = 12,
                   shuffle: bool = True) -> str:
    """One benchmark's tidy CSV: build, process and iteration effects, a warm-up in the
    first iterations, the rows in any order (``shuffle``)."""
    rows = []
    s_bin, s_exe, s_it = rng.uniform(0.004, 0.012, 3)
    for b in range(1, binaries + 1):
        fb = np.exp(rng.normal(0, s_bin))
        for e in range(1, executions + 1):
            fe = np.exp(rng.normal(0, s_exe))
            for i in range(1, iterations + 1):
                warm = 1 + 0.3 * np.exp(-(i - 1))
                t = ratio * mean * fb * fe * warm * np.exp(rng.normal(0, s_it))
                rows.append(f"{b},{e},{i},{t:.7f}")
    if shuffle:
        rows = [rows[k] for k in rng.permutation(len(rows))]
    return "binary,execution,iteration,time\n" + "\n".join(rows) + "\n"


def twelve(directory: Path, seed: int = 2024) -> list[str]:
    """Twelve benchmarks: qs-old/qs-new (new 6 % slower, injected), aa-old/aa-new (the
    same program twice: A/A) and eight others."""
    rng = np.random.default_rng(seed)
    directory.mkdir(parents=True)
    names = [f"bench{k:02d}" for k in range(8)]
    for n in names:
        (directory / f"{n}.csv").write_text(tidy_benchmark(rng, float(rng.uniform(0.01, 0.5))))
    for name, mean, ratio in (("qs-old", 0.2, 1.0), ("qs-new", 0.2, 1.06),
                              ("aa-old", 0.1, 1.0), ("aa-new", 0.1, 1.0)):
        (directory / f"{name}.csv").write_text(tidy_benchmark(rng, mean, ratio=ratio))
    return names + ["qs-old", "qs-new", "aa-old", "aa-new"]


def entry_config(entry: dict, **top) -> dict:
    """make analyse's configuration with one dataset ``mine``."""
    return {"mode": "analyse", **top, "datasets": {"mine": entry}}


def dataset(entry: dict):
    """Settings, files and what reading them gives."""
    cfg = entry_config(entry)
    assert check.entry_problem(cfg, "mine") is None
    s = config.entry_settings(cfg, "mine")
    files = config.dataset_files(s, "mine")
    return s, files, read.read_dataset(s, files)


@pytest.fixture(scope="module")
def example():
    """The README's example dataset, read and analysed once."""
    cfg = yaml.safe_load((EXAMPLE / "config.yaml").read_text())
    entry = dict(cfg["datasets"]["example"], path=str(EXAMPLE / "data"))
    s, files, data = dataset(entry)
    return s, data, estimate.estimate(s, data), compare.compare(s, data)


# -- configuration ------------------------------------------------------------------------
def test_the_defaults_file_sets_the_mode_only():
    # every default is the schema's (tests/study/test_schema_defaults.py)
    written = yaml.safe_load(DEFAULTS.read_text())
    assert written == {"mode": config.MODE} and config.MODE == "analyse"
    assert not hasattr(config, "ANALYSIS_DEFAULTS") and not hasattr(config, "ENTRY_DEFAULTS")


def test_an_entry_gets_its_defaults(tmp_path):
    (tmp_path / "a.csv").write_text(tidy_benchmark(np.random.default_rng(1), 0.1))
    s = config.entry_settings(entry_config({"path": str(tmp_path)}), "mine")
    assert s["kind"] == "directory" and s["levels"] == ["binary", "execution"]
    # the warm-up default is esize compare's (issue 41): nothing dropped
    assert s["value"] == "time" and s["warmup_spec"] == {"mode": "fixed", "count": 0}
    assert DEFAULT_WARMUP == 0 and config.parse_warmup(DEFAULT_WARMUP) == s["warmup_spec"]
    assert build_parser().parse_args(["compare", "a", "b"]).warmup == DEFAULT_WARMUP
    assert [b["seconds"] for b in s["budget_list"]] == [600.0, 3600.0]
    assert s["cost_map"] == {} and s["comparisons"] == []
    assert (s["alpha"], s["threshold"], s["resamples"]) == (0.05, 0.02, 10000)
    own = config.entry_settings(entry_config({"path": str(tmp_path), "threshold": 0.05},
                                             analysis={"alpha": 0.1}), "mine")
    assert (own["alpha"], own["threshold"]) == (0.1, 0.05)


@pytest.mark.parametrize("text, parsed", [
    ("20 s", {"seconds": 20.0}), ("0.5 s", {"seconds": 0.5}), ("10 min", {"seconds": 600.0}),
    ("1 h", {"seconds": 3600.0}), ("2 hours", {"seconds": 7200.0}), ("1.5h", {"seconds": 5400.0}),
    ("250 ms", {"seconds": 0.25}), ("5000 measurements", {"measurements": 5000.0}),
])
def test_amounts(text, parsed):
    assert config.parse_amount(text, bare=None) == parsed


@pytest.mark.parametrize("value, problem", [
    (3600, "has no unit"), ("20 m", "'m' is ambiguous"), ("0 s", "not positive"),
    ("ten s", "not an amount"), ("3 parsecs", "unknown unit"), (True, "expected an amount"),
])
def test_bad_budgets(value, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        config.parse_budget(value)


def test_a_bare_cost_counts_measurements_and_warmup_forms():
    assert config.parse_cost(5)["measurements"] == 5.0
    assert config.parse_cost("2 min")["seconds"] == 120.0
    assert config.parse_warmup("auto") == {"mode": "auto"}
    assert config.parse_warmup(3) == {"mode": "fixed", "count": 3}
    assert config.parse_warmup(0.3) == {"mode": "fraction", "fraction": 0.3}
    for bad in (1.5, -1, "some", True):
        with pytest.raises(ValueError):
            config.parse_warmup(bad)


def _check(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    path = tmp_path / "my.yaml"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "esize_study.analysis", "check-config",
                           str(DEFAULTS), str(path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_the_configuration_as_written_passes(tmp_path):
    data = tmp_path / "dir"
    data.mkdir()
    rng = np.random.default_rng(3)
    for name in ("qs-old", "qs-new"):
        (data / f"{name}.csv").write_text(tidy_benchmark(rng, 0.1))
    res = _check(tmp_path, f"""datasets:
  mine:
    kind: directory
    path: {data}
    levels: [binary, execution]
    comparisons:
      - {{old: qs-old, new: qs-new}}   # the files qs-old.csv and qs-new.csv in that directory
""")
    assert res.returncode == 0 and res.stderr == "", res.stderr


BAD = [
    ("comparisons:\n      - {old: qs-olf, new: qs-new}", 5,
     "datasets.mine.comparisons[0].old: no benchmark 'qs-olf' in the dataset"),
    ("comparisons:\n      - {old: qs-old, new: qs-old}", 5,
     "datasets.mine.comparisons[0]: old and new are the same benchmark 'qs-old'"),
    ("budgets: [10 min, 3600]", 4, "datasets.mine.budgets[1]: 3600 has no unit"),
    ("costs: {build: 20 m}", 4, "datasets.mine.costs.build: unknown unit 'm'"),
    ("costs: {biuld: 20 s}", 4, "datasets.mine.costs.biuld: no file of the dataset has a level"),
    ("costs: {file: costs.json}", 4, "datasets.mine.costs.file: a costs file is read by"),
    ("levels: [binary, exec]", 4, "datasets.mine.levels: "),
    ("value: cpu_time", 4, "datasets.mine.value: "),
    ("warmup: 1.5", 4, "datasets.mine.warmup: 1.5 is neither a count"),
    ("kind: standin", 4, "datasets.mine.kind: a stand-in has no files to analyse"),
    ("colour: red", 4, "unknown key 'colour' in 'datasets.mine'"),
]


@pytest.mark.parametrize("extra, line, expected", BAD, ids=[b[2].split(":")[0] for b in BAD])
def test_a_bad_entry_is_one_line_naming_file_line_key_and_problem(tmp_path, extra, line, expected):
    data = tmp_path / "dir"
    data.mkdir()
    rng = np.random.default_rng(4)
    for name in ("qs-old", "qs-new"):
        (data / f"{name}.csv").write_text(tidy_benchmark(rng, 0.1))
    res = _check(tmp_path, f"datasets:\n  mine:\n    path: {data}\n    {extra}\n")
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert lines[0].startswith(f"esize: error: {tmp_path / 'my.yaml'}:{line}: "), lines[0]
    assert expected in lines[0], lines[0]


def test_missing_directory_and_files_name_their_key(tmp_path):
    res = _check(tmp_path, f"datasets:\n  mine:\n    path: {tmp_path / 'none'}\n")
    assert res.returncode == 2 and "datasets.mine.path: directory" in res.stderr
    res = _check(tmp_path, "datasets:\n  mine:\n    kind: files\n    files: [nothere.json]\n")
    assert res.returncode == 2 and ":4: datasets.mine.files[0]: 'nothere.json' does not exist" \
        in res.stderr
    res = _check(tmp_path, f"datasets:\n  mine:\n    path: {PYPERF}\n    comparisons:\n"
                           "      - {old: mult_list_py36, new: telco}\n")
    assert res.returncode == 2 and "compare a file with a file" in res.stderr


def test_the_reproduction_refuses_what_only_make_analyse_reads(tmp_path):
    path = tmp_path / "my.yaml"
    for extra, expected in (("kind: files\n    files: [a.json]", "analysed by 'make analyse' only"),
                            ("costs: {binary: 20 s}", "costs by level are read by 'make analyse'")):
        path.write_text(f"datasets:\n  mine:\n    path: tests/data/tiny-dataset\n    {extra}\n")
        res = subprocess.run([sys.executable, "-m", "esize_study.datasets.config", "check-config",
                              "config/config.yaml", str(path)], cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
        assert res.returncode == 2 and len(res.stderr.splitlines()) == 1, res.stderr
        assert expected in res.stderr


def test_the_check_wants_the_analyse_mode(tmp_path):
    path = tmp_path / "my.yaml"
    path.write_text(f"datasets:\n  mine:\n    path: {EXAMPLE / 'data'}\n")
    assert "mode: 'make analyse' needs mode: analyse" in check.check_files([str(path)])
    assert check.check_files([str(DEFAULTS), str(EXAMPLE / "config.yaml")]) is None


@needs_make
def test_make_analyse_needs_a_configuration():
    res = subprocess.run([*MAKE, "analyse"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode != 0 and "make analyse needs your configuration" in res.stderr


# -- reading ------------------------------------------------------------------------------
def test_rows_are_read_in_the_order_of_their_iteration(tmp_path):
    text = tidy_benchmark(np.random.default_rng(5), 0.2, shuffle=False)
    head, *rows = text.splitlines()
    for name, order in (("sorted", rows), ("shuffled", rows[::-1])):
        (tmp_path / name).mkdir()
        (tmp_path / name / "b.csv").write_text("\n".join([head, *order]) + "\n")
    got = [dataset({"path": str(tmp_path / n), "warmup": 2})[2].reads["b"].bench.design.data
           for n in ("sorted", "shuffled")]
    # executions' values in their iteration order, whatever the rows' order (the
    # reversed file lists binaries and executions backwards too)
    np.testing.assert_array_equal(np.sort(got[0], axis=None), np.sort(got[1], axis=None))
    np.testing.assert_array_equal(got[0][0, 0], got[1][-1, -1])


def test_fixed_and_fraction_warmup(tmp_path):
    (tmp_path / "b.csv").write_text(tidy_benchmark(np.random.default_rng(6), 0.2))
    for warmup, dropped in ((3, 3), (0.3, 4), (0, 0)):  # 0.3 x 12 = 3.6 -> 4
        r = dataset({"path": str(tmp_path), "warmup": warmup})[2].reads["b"]
        assert r.raw_values == 12 and r.bench.design.shape == (10, 3, 12 - dropped)
        row = estimate.warmup_row(r)
        assert row["dropped"] == dropped * 30 and row["kept_per_group"] == 12 - dropped
    assert "fraction 0.3: the first 4 of every group of 12 values, 120 dropped" in \
        estimate.warmup_row(dataset({"path": str(tmp_path), "warmup": 0.3})[2].reads["b"])["text"]
    auto = dataset({"path": str(tmp_path), "warmup": "auto"})[2].reads["b"]
    assert auto.bench.warmup["mode"] == "auto" and auto.bench.design.shape[-1] < 12
    default = dataset({"path": str(tmp_path)})[2].reads["b"]  # the default: none dropped
    assert default.bench.design.shape[-1] == 12
    assert estimate.warmup_row(default)["text"].startswith("none dropped (warmup 0, the default")


def test_harness_names_are_qualified_only_when_two_files_hold_them():
    s, files, data = dataset({"path": str(PYPERF)})
    names = list(data.reads)
    assert "telco" in names and "mult_list_py36/[1]*1000" in names
    assert len(names) == 7 and data.reads["telco"].fmt == "pyperf"
    pairs = data.index.pairs("mult_list_py36", "mult_list_py37")
    assert [o.split("/")[1] for o, _ in pairs] == [n.split("/")[1] for _, n in pairs]
    assert len(pairs) == 3
    with pytest.raises(KeyError, match="several files"):
        data.index.resolve("[1]*1000")


def test_json_of_no_harness_is_left_out_with_a_note(tmp_path):
    shutil.copy(PYPERF / "telco.json", tmp_path / "telco.json")
    (tmp_path / "costs.json").write_text('{"sets": {}}')
    (tmp_path / "NOTES.txt").write_text("not a result")
    s, files, data = dataset({"path": str(tmp_path)})
    assert list(data.reads) == ["telco"]
    assert len(data.notes) == 1 and "costs.json: left out" in data.notes[0]


# -- estimates ----------------------------------------------------------------------------
@pytest.mark.parametrize("shares, expected", [
    ([0.7, 0.2, 0.1], "The binary level dominates: 70 %"),
    ([0.1, 0.6, 0.3], "lies between executions within a binary"),
    ([0.1, 0.2, 0.7], "is the noise of single measurements within an execution"),
])
def test_the_sentence_names_the_dominant_level(shares, expected):
    text = estimate.dominance_sentence(["binary", "execution", "measurement"], shares,
                                       [3.0, 2.0, 1.0])
    assert expected in text and text.endswith(".")
    assert "only the number of runs" in estimate.dominance_sentence(["run"], [1.0], [2.0])


def test_variance_rows(example):
    s, data, est, _ = example
    for b in est["benchmarks"]:
        v = b["variance"]
        assert v["levels"] == ["binary", "execution", "measurement"]
        assert abs(sum(v["share"]) - 1) < 1e-12 and v["dominant"] in v["levels"]
        assert all(t <= sp + 1e-9 or lv == "measurement"
                   for lv, t, sp in zip(v["levels"], v["T_pct"], v["S_pct"]))


def test_plan_with_costs_in_seconds_and_budgets(example):
    s, data, est, _ = example
    r = data.reads["qs-old"]
    p = estimate.plan_row(r, s)
    mean = r.bench.design.mean
    assert p["measurement_seconds"] == pytest.approx(mean)
    assert [c["measurements"] for c in p["costs"]] == pytest.approx([30 / mean, 1 / mean])
    assert not p["assumed"] and p["plan"]["counts"]
    for b, seconds in zip(p["budgets"], (600, 3600)):
        assert b["measurements"] == pytest.approx(seconds / mean)
        assert b["half_width_pct"] <= b["default_half_width_pct"] + 1e-12
    tiny = dict(s, budget_list=[config.parse_budget("1 s")])  # 4 measurements
    assert "budget" in estimate.plan_row(r, tiny)["budgets"][0]["problem"]
    rates = dict(s, unit="ops/s")
    rr = read.read_dataset(rates, config.dataset_files(rates, "example"), only=["qs-old"])
    problem = estimate.plan_row(rr.reads["qs-old"], rates)["problem"]
    assert "the duration of one measurement is not known" in problem


def test_plan_without_costs_says_they_are_assumed(tmp_path):
    (tmp_path / "b.csv").write_text(tidy_benchmark(np.random.default_rng(7), 0.2))
    s, files, data = dataset({"path": str(tmp_path), "warmup": 3})
    p = estimate.plan_row(data.reads["b"], s)
    assert p["assumed"] and [c["measurements"] for c in p["costs"]] == [1.0, 3.0]


def test_pyperf_values_last_their_loops():
    s, files, data = dataset({"kind": "files", "files": [str(PYPERF / "mult_list_py36.json")]})
    r = data.reads["[1]*1000"]
    seconds, how = estimate.measurement_seconds(r, {})
    # a value is the mean of loops x inner_loops calls: 64 x 1024 of them
    assert seconds == pytest.approx(r.bench.design.mean * 64 * 1024) and "65536 loops" in how


# -- comparisons --------------------------------------------------------------------------
def test_comparisons_give_what_esize_compare_gives(example):
    s, data, est, cmp = example
    rows = {c["label"]: c for c in cmp["comparisons"]}
    assert list(rows) == ["qs-new vs qs-old", "hash-new vs hash-old"]
    res = subprocess.run(
        [sys.executable, "-m", "esize", "compare", str(EXAMPLE / "data" / "qs-old.csv"),
         str(EXAMPLE / "data" / "qs-new.csv"), "--warmup", "auto", "--json", "--seed", "1",
         "--resamples", "1000"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    cli = json.loads(res.stdout)
    ours = rows["qs-new vs qs-old"]
    assert ours["ratio"] == pytest.approx(cli["ratio"], rel=1e-12)
    assert ours["fieller"] == cli["fieller"]
    assert (ours["verdict"], ours["description"]) == (cli["verdict"], cli["description"])
    assert ours["verdict"] == "slower" and rows["hash-new vs hash-old"]["verdict"] == "same"
    assert ours["covers_known"] == {"fieller": True, "bootstrap": True}
    assert any(line.startswith("verdict ") for line in ours["text"])


def test_file_against_file_compares_benchmark_by_benchmark():
    s, files, data = dataset({"path": str(PYPERF), "comparisons": [
        {"old": "mult_list_py36", "new": "mult_list_py37"}]})
    cmp = compare.compare(s, data)
    assert len(cmp["comparisons"]) == 3
    assert {c["verdict"] for c in cmp["comparisons"]} <= set(report.VERDICT_ORDER)


# -- simulations --------------------------------------------------------------------------
def test_false_alarms_and_known_ratios(example):
    s, data, est, cmp = example
    small = dict(s, false_alarm=dict(s["false_alarm"], comparisons=40, resamples=40),
                 known_ratio=dict(s["known_ratio"], comparisons=40, resamples=40))
    fa = simulate.false_alarms(data.reads, small)
    assert {r["benchmark"] for r in fa["rows"]} == set(data.reads)
    assert {r["method"] for r in fa["rows"]} == {"Fieller (t)", "Fieller (normal)", "bootstrap RRR"}
    assert {r["binaries"] for r in fa["rows"]} == {3, 5, 10}
    assert all(0 <= r["rate_threshold"] <= r["rate_0"] <= 1 for r in fa["rows"])
    resolved = compare.resolve(data.index, s["comparisons"])
    kr = simulate.known_ratios(compare.make_pairs(data, resolved), resolved, small)
    assert {r["comparison"] for r in kr["rows"]} == {"qs-new vs qs-old"}  # the one with a ratio
    assert {r["binaries"] for r in kr["rows"]} == {3, 5}  # at most half of 10
    assert all(r["expected"] == "slower" and 0 <= r["power"] <= 1 for r in kr["rows"])
    two = dataset({"path": str(PYPERF)})[2]
    left = simulate.false_alarms(two.reads, small)
    assert not left["rows"] and "2 level(s)" in left["left_out"][0]["reason"]


# -- the report's sections ----------------------------------------------------------------
def test_headline_counts_what_was_computed(example):
    s, data, est, cmp = example
    assert report.headline(est, cmp) == "2 comparisons: 1 slower, 1 same; 4 benchmarks."
    assert report.headline(est, {"comparisons": []}) == "No comparison configured; 4 benchmarks."


def test_each_section_builder(example, tmp_path):
    s, data, est, cmp = example
    assert "`qs-old`" in report.data_section(est) and "10 x 3 x" in report.data_section(est)
    var = report.variance_section(est)
    assert "| benchmark | level | n | S % | T % | share |" in var and "dominates" in var
    assert "### Figure 2. Where the variation comes from" in var and "*Figure 2.*" in var
    assert var.startswith("## 3. Variance per level")
    warm = report.warmup_section(est)
    assert "auto: " in warm and "### Figure 3. Warm-up" in warm and warm.startswith("## 4. ")
    plan = report.plan_section(est)
    assert "Costs given: binary 30 s, execution 1 s" in plan and "What each budget buys" in plan
    comp = report.comparisons_section(cmp, None)
    assert "**slower**" in comp and "**same**" in comp and "1.05: fieller yes" in comp
    assert "### Figure 1. The comparisons" in comp and "![forest](figures/forest.png)" in comp
    assert comp.startswith("## 1. Comparisons")
    assert "verdict         slower at threshold 2 %" in comp  # esize compare's own lines
    none = report.comparisons_section({"comparisons": [], "alpha": 0.05}, None)
    assert "No comparison is configured" in none and "Figure" not in none
    assert "Not computed" in report.false_alarm_section(None)
    text = report.render(est, cmp, None)
    assert not any(w in text for w in PAPER_WORDS)
    # the answer first (issue 41): each comparison's verdict under the headline, and
    # the comparisons before data, variance, warm-up and planning
    assert "- **qs-new vs qs-old: slower.** New is " in text.split("## 1. Comparisons")[0]
    heads = re.findall(r"^## (\d)\. (\w+)", text, re.M)
    assert [h[1] for h in heads] == ["Comparisons", "Data", "Variance", "Warm", "Planning",
                                     "False"]
    assert [h[0] for h in heads] == list("123456")
    for name in ("variance", "warmup", "forest"):
        (tmp_path / "figures").mkdir(exist_ok=True)
        fig = figures.draw(name, est, cmp)
        figures.write(fig, str(tmp_path / "figures" / f"{name}.png"))
    page = report.to_html(text, tmp_path, "t")
    assert page.startswith("<!DOCTYPE html>") and page.count('src="data:image/png;base64,') == 3
    assert "http" not in page


def test_the_captions_of_the_rules_are_the_reports(tmp_path):
    shipped = ROOT / "workflow" / "report" / "analyse"
    written = figures.write_captions(tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in shipped.glob("*.rst"))
    for p in written:
        assert (shipped / p.name).read_text() == p.read_text(), p.name
        assert not re.search(r"[`_|\\]", p.read_text().replace("**", "")), p.name
    rules = (ROOT / "workflow" / "rules" / "analyse.smk").read_text()
    for name in figures.FIGURES:
        assert f'caption="../report/analyse/{name}.rst"' in rules
