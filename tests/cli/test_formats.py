"""Harness result files through the command line: pyperf, JMH, Google Benchmark,
hyperfine, and tidy tables with several benchmarks; figures.

The pyperf tests use real result files shipped inside the pyperf package
(``pyperf/tests/telco.json`` and ``mult_list_py3*.json``); their expected designs
are rebuilt with pyperf's own loader, a second route independent of
:mod:`esize.readers`. The other harnesses' files are small hand-made documents
(``harness_data.py``) whose numbers the tests rebuild by hand. Every expected
interval is computed by calling the library on those hand-built designs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import esize as ez
from esize._bootstrap import benchmark_seed
from harness_data import gbench_results, hyperfine_results, jmh_results
from readers.reader_helpers import FI, PV, needs_pyperf, pyperf_designs, pyperf_file, write_json

from .helpers import (
    WQE_NEW,
    WQE_OLD,
    assert_one_line_error,
    cli,
    run_json,
    run_modules,
    tidy,
    write_csv,
)


@needs_pyperf
def test_compare_pyperf_suites_json(capsys):
    old_p, new_p = pyperf_file("mult_list_py36.json"), pyperf_file("mult_list_py37.json")
    out, err = run_json(["compare", old_p, new_p, "--seed", "7", "--resamples", "2000",
                         "--method", "both"], capsys)
    assert err == ""
    old_d, new_d = pyperf_designs(old_p), pyperf_designs(new_p)
    names = list(old_d)
    assert [b["name"] for b in out["benchmarks"]] == names
    single_keys = {"ratio", "old", "new", "alpha", "threshold", "fieller", "bootstrap", "verdict"}
    for b in out["benchmarks"]:
        assert single_keys <= set(b)
        o, n = old_d[b["name"]], new_d[b["name"]]
        assert b["ratio"] == pytest.approx(n.mean / o.mean, rel=1e-12)
        f = ez.fieller_ci(o, n)
        assert (b["fieller"]["lower"], b["fieller"]["upper"]) == pytest.approx((f.lower, f.upper), rel=1e-12)
        bs = ez.bootstrap_ratio_ci(o, n, scheme="RR", n_resamples=2000, rng=benchmark_seed(7, b["name"]),
                                   expand=True)
        assert (b["bootstrap"]["lower"], b["bootstrap"]["upper"]) == (bs.lower, bs.upper)
        assert b["bootstrap"]["seed"] == 7 and b["bootstrap"]["scheme"] == "RR"
        assert b["unit"] == "second" and b["lower_is_better"] is True
        assert b["verdict"] == ez.verdict(f.lower, f.upper, 0.02)
        assert b["design"]["old"] == {"process": 20, "value": 3}
    # the [1,2]*1000 list build got clearly slower from 3.6 to 3.7
    assert out["benchmarks"][1]["verdict"] == "slower"
    s = out["suite"]
    assert set(s) >= {"geometric_mean", "lower", "upper", "resamples", "seed"}
    ratios = [new_d[k].mean / old_d[k].mean for k in names]
    assert s["geometric_mean"] == pytest.approx(math.prod(ratios) ** (1 / 3), rel=1e-12)
    suite = ez.geometric_mean_ratio_ci(
        [(old_d[k], new_d[k]) for k in names], n_resamples=2000, rng=7, names=names
    )
    assert (s["lower"], s["upper"]) == (suite.lower, suite.upper)
    assert s["lower"] < s["geometric_mean"] < s["upper"]
    assert s["resamples"] == 2000 and s["seed"] == 7
    # no single-benchmark keys at the top for a suite
    assert "ratio" not in out and out["only_in_old"] == [] and out["only_in_new"] == []


@needs_pyperf
def test_compare_pyperf_suites_text(capsys):
    old_p, new_p = pyperf_file("mult_list_py36.json"), pyperf_file("mult_list_py37.json")
    code, out, err = cli(["compare", old_p, new_p, "--seed", "1", "--resamples", "500",
                          "--method", "both"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    for name in ("[1]*1000", "[1,2]*1000", "[1,2,3]*1000"):
        row = next(line for line in lines if line.startswith(name + " "))
        assert "second" in row and ("faster" in row or "slower" in row)
    gm = next(line for line in lines if line.startswith("geometric mean"))
    assert "slower" in gm
    assert "500 resamples, seed 1" in out


@needs_pyperf
def test_summary_and_plan_pyperf(capsys):
    path = pyperf_file("telco.json")
    d = pyperf_designs(path)["telco"]
    out, _ = run_json(["summary", path], capsys)
    vc = ez.variance_components(d)
    assert out["levels"] == ["process", "value"]
    assert out["counts"] == {"process": 40, "value": 3}
    for k, lv in enumerate(PV):
        assert out["variance"][lv]["S2"] == pytest.approx(vc.S2[k], rel=1e-12)
        assert out["variance"][lv]["T2"] == pytest.approx(vc.T2[k], rel=1e-12)
    ci = ez.mean_ci(d)
    assert (out["ci"]["lower"], out["ci"]["upper"]) == pytest.approx((ci.lower, ci.upper), rel=1e-12)
    assert out["benchmarks"][0]["name"] == "telco"

    plan, _ = run_json(["plan", path, "--costs", "10"], capsys)
    want = ez.plan_from_design(d, [10.0])
    assert plan["counts"] == want.as_dict()["counts"]
    assert plan["suggestion"] == f"pyperf --values {want.counts['value']}"
    code, text, _ = cli(["plan", path, "--costs", "10", "--budget", "5000"], capsys)
    assert code == 0 and "next run    pyperf options: --processes" in text


@needs_pyperf
def test_summary_pyperf_suite_blocks(capsys):
    path = pyperf_file("mult_list_py38.json")
    out, _ = run_json(["summary", path], capsys)
    assert [b["name"] for b in out["benchmarks"]] == ["[1]*1000", "[1,2]*1000", "[1,2,3]*1000"]
    assert "mean" not in out  # several benchmarks: no single-benchmark keys at the top
    code, text, _ = cli(["summary", path, "--benchmark", "[1,2]*1000"], capsys)
    assert code == 0 and text.count("benchmark   ") == 1 and "[1,2]*1000" in text


def _unbalanced_pyperf(tmp_path) -> Path:
    doc = json.loads(pyperf_file("mult_list_py36.json").read_text())
    doc["benchmarks"][1]["runs"][5]["values"].pop()  # run 6 (process 5): 2 values
    return write_json(tmp_path / "ragged.json", doc)


@needs_pyperf
def test_pyperf_unbalanced_is_an_error_naming_benchmark(tmp_path, capsys):
    p = _unbalanced_pyperf(tmp_path)
    line = assert_one_line_error(
        *cli(["summary", p], capsys), file=p, words=["unbalanced"]
    )
    assert "[1,2]*1000" in line and "--balance truncate" in line
    assert "19 processes with 3 values, 1 process with 2 values" in line


@needs_pyperf
def test_pyperf_balance_truncate(tmp_path, capsys):
    p = _unbalanced_pyperf(tmp_path)
    out, err = run_json(["summary", p, "--balance", "truncate", "--benchmark", "[1,2]*1000"], capsys)
    assert out["counts"] == {"process": 20, "value": 2}
    runs = json.loads(p.read_text())["benchmarks"][1]["runs"]
    cut = np.array([r["values"][:2] for r in runs if r.get("values")])
    assert out["mean"] == pytest.approx(cut.mean(), rel=1e-12)
    note = err.strip()
    assert note.startswith("esize: note:") and "[1,2]*1000" in note
    assert "19 processes cut, 19 values dropped" in note


def test_compare_jmh_throughput_words_follow_unit(harness, capsys):
    out, _ = run_json(
        ["compare", harness["jmh-old"], harness["jmh-new"], "--seed", "3", "--resamples", "1000"], capsys
    )
    old_doc, new_doc = jmh_results("old"), jmh_results("new")
    by_name = {b["name"]: b for b in out["benchmarks"]}
    thr = by_name["org.example.ListBench.add:size=10"]
    o = ez.Design(old_doc[0]["primaryMetric"]["rawData"], FI)
    n = ez.Design(new_doc[0]["primaryMetric"]["rawData"], FI)
    f = ez.fieller_ci(o, n)
    assert thr["ratio"] == pytest.approx(n.mean / o.mean, rel=1e-12) and thr["ratio"] > 1
    assert (thr["fieller"]["lower"], thr["fieller"]["upper"]) == pytest.approx((f.lower, f.upper), rel=1e-12)
    # more operations per millisecond: faster, not slower
    assert f.lower > 1.02
    assert thr["verdict"] == "faster" and thr["lower_is_better"] is False
    assert thr["description"].startswith("new is ") and " faster " in thr["description"]
    avg = by_name["org.example.ListBench.get"]
    assert avg["ratio"] < 1 and avg["verdict"] == "faster" and avg["unit"] == "ns/op"
    # the suite mixes rates and times: rates enter the geometric mean as old/new
    s = out["suite"]
    assert s["inverted"] == ["org.example.ListBench.add:size=10", "org.example.ListBench.add:size=1000"]
    logs = [-math.log(b["ratio"]) if not b["lower_is_better"] else math.log(b["ratio"])
            for b in out["benchmarks"]]
    assert s["geometric_mean"] == pytest.approx(math.exp(sum(logs) / 4), rel=1e-12)
    assert s["lower_is_better"] is True


def test_jmh_only_rates_keep_direction(harness, tmp_path, capsys):
    old = write_json(tmp_path / "o.json", jmh_results("old")[:2])
    new = write_json(tmp_path / "n.json", jmh_results("new")[:2])
    out, _ = run_json(["compare", old, new, "--seed", "1", "--resamples", "500"], capsys)
    s = out["suite"]
    assert s["inverted"] == [] and s["lower_is_better"] is False
    assert s["geometric_mean"] > 1 and s["verdict"] == "faster"


def _ragged_jmh(tmp_path) -> Path:
    doc = jmh_results("old")
    doc[2]["primaryMetric"]["rawData"][1].pop()  # fork 2 of 'get' has 4 iterations
    return write_json(tmp_path / "ragged-jmh.json", doc)


def test_jmh_ragged_forks(tmp_path, capsys):
    p = _ragged_jmh(tmp_path)
    line = assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["unbalanced"])
    assert "org.example.ListBench.get" in line and "fork 2" in line and "--balance truncate" in line
    out, err = run_json(["summary", p, "--balance", "truncate"], capsys)
    get = next(b for b in out["benchmarks"] if b["name"] == "org.example.ListBench.get")
    raw = json.loads(p.read_text())[2]["primaryMetric"]["rawData"]
    d = ez.Design([f[:4] for f in raw], FI)
    assert get["counts"] == {"fork": 3, "iteration": 4}
    vc = ez.variance_components(d)
    assert get["variance"]["fork"]["S2"] == pytest.approx(vc.S2[0], rel=1e-12)
    assert "kept the first 4 iterations of every fork" in err and "2 iterations dropped" in err


def test_jmh_unit_conversion(harness, tmp_path, capsys):
    new = jmh_results("new")
    get = new[2]
    get["primaryMetric"]["scoreUnit"] = "us/op"
    get["primaryMetric"]["rawData"] = [[v / 1000 for v in f] for f in get["primaryMetric"]["rawData"]]
    p = write_json(tmp_path / "new-us.json", new)
    out, err = run_json(
        ["compare", harness["jmh-old"], p, "--benchmark", "org.example.ListBench.get", "--method", "fieller"],
        capsys,
    )
    ref, _ = run_json(
        ["compare", harness["jmh-old"], harness["jmh-new"], "--benchmark", "org.example.ListBench.get",
         "--method", "fieller"],
        capsys,
    )
    assert out["ratio"] == pytest.approx(ref["ratio"], rel=1e-9)
    assert "converted from us/op to ns/op" in err
    rate = jmh_results("new")
    p2 = write_json(tmp_path / "rate.json", [dict(rate[2], primaryMetric=dict(
        rate[2]["primaryMetric"], scoreUnit="ops/us"))])
    assert_one_line_error(
        *cli(["compare", harness["jmh-old"], p2, "--benchmark", "org.example.ListBench.get"], capsys),
        file=p2, words=["cannot be compared"],
    )


def test_compare_gbench_by_hand(harness, capsys):
    out, _ = run_json(
        ["compare", harness["gbench-old"], harness["gbench-new"], "--gbench-time", "cpu_time",
         "--seed", "5", "--resamples", "1000", "--method", "both"],
        capsys,
    )
    def reps(system, name):
        return [e["cpu_time"] for e in gbench_results(system)["benchmarks"]
                if e["name"] == name]
    for b in out["benchmarks"]:
        o, n = ez.Design(reps("old", b["name"]), ("repetition",)), ez.Design(reps("new", b["name"]), ("repetition",))
        f = ez.fieller_ci(o, n)
        assert (b["fieller"]["lower"], b["fieller"]["upper"]) == pytest.approx((f.lower, f.upper), rel=1e-12)
        assert b["bootstrap"]["scheme"] == "R"
    # every repetition of a Google Benchmark file ran in one process: no verdict
    assert {b["verdict"] for b in out["benchmarks"]} == {"inconclusive"}
    assert "processes of a system are not observed apart" in out["benchmarks"][0]["verdict_reason"]
    assert "a single process: every repetition ran in one process" in out["benchmarks"][0]["caveats"][0]
    out, _ = run_json(
        ["compare", harness["gbench-old"], harness["gbench-new"], "--gbench-time", "cpu_time",
         "--method", "fieller", "--assume-no-process-variance"],
        capsys,
    )
    assert out["benchmarks"][0]["verdict"] == "faster"


def test_gbench_failed_and_aggregate_only(tmp_path, capsys):
    doc = gbench_results("old")
    for e in doc["benchmarks"]:
        if e["name"] == "BM_Hash":
            e["error_occurred"] = True
            e["error_message"] = "out of memory"
    p = write_json(tmp_path / "failed.json", doc)
    out, err = run_json(["summary", p], capsys)
    assert [b["name"] for b in out["benchmarks"]] == ["BM_Sort/1024", "BM_Sort/65536"]
    assert "BM_Hash" in err and "out of memory" in err
    agg = write_json(tmp_path / "agg.json", {"context": {}, "benchmarks": [
        e for e in gbench_results("old")["benchmarks"] if e["run_type"] == "aggregate"]})
    assert_one_line_error(*cli(["summary", agg], capsys), file=agg, words=["aggregates_only"])
    one = write_json(tmp_path / "one.json", {"context": {}, "benchmarks": [
        e for e in gbench_results("old")["benchmarks"] if e.get("repetition_index") == 0]})
    line = assert_one_line_error(*cli(["plan", one, "--budget", "20"], capsys), file=one,
                                 words=["at least 2"])
    assert "BM_Sort/1024" in line
    code, text, _ = cli(["summary", one], capsys)  # summary shows the single values
    assert code == 0 and text.count("\nvalue       ") == 3


def test_gbench_plan_refuses_one_process(harness, capsys):
    # the repetitions of a Google Benchmark file share one process: a plan of
    # repetitions alone would ignore the variation between processes
    code, out, err = cli(["plan", harness["gbench-old"], "--budget", "20"], capsys)
    assert code == 2 and out == ""
    assert "a single process: the variation between processes is not observed" in err
    assert len(err.strip().splitlines()) == 1


def test_hyperfine_compare_by_hand(harness, capsys):
    out, _ = run_json(
        ["compare", harness["hyperfine-old"], harness["hyperfine-new"], "--seed", "2", "--resamples", "800",
         "--method", "both"],
        capsys,
    )
    old_doc, new_doc = hyperfine_results("old"), hyperfine_results("new")
    for b, ro, rn in zip(out["benchmarks"], old_doc["results"], new_doc["results"]):
        assert b["name"] == ro["command"] and b["unit"] == "s"
        o, n = ez.Design(ro["times"], ("run",)), ez.Design(rn["times"], ("run",))
        f = ez.fieller_ci(o, n)
        assert (b["fieller"]["lower"], b["fieller"]["upper"]) == pytest.approx((f.lower, f.upper), rel=1e-12)
        bs = ez.bootstrap_ratio_ci(o, n, scheme="R", n_resamples=800, rng=benchmark_seed(2, b["name"]),
                                   expand=True)
        assert (b["bootstrap"]["lower"], b["bootstrap"]["upper"]) == (bs.lower, bs.upper)
    assert out["benchmarks"][0]["verdict"] == "faster"


def test_one_hyperfine_file_compares_every_command_with_the_first(tmp_path, capsys):
    doc = hyperfine_results("old")
    third = dict(doc["results"][0], command="./prog lint big.txt",
                 times=[t * 0.5 for t in doc["results"][0]["times"]])
    doc["results"].append(third)
    p = write_json(tmp_path / "three.json", doc)
    out, err = run_json(["compare", p, "--seed", "4", "--resamples", "800"], capsys)
    assert err == ""
    assert out["baseline"] == "./prog parse big.txt" and "suite" not in out
    base = ez.Design(doc["results"][0]["times"], ("run",))
    assert [b["name"] for b in out["benchmarks"]] == ["./prog render big.txt",
                                                      "./prog lint big.txt"]
    for b, r in zip(out["benchmarks"], doc["results"][1:]):
        f = ez.fieller_ci(base, ez.Design(r["times"], ("run",)))
        assert (b["fieller"]["lower"], b["fieller"]["upper"]) == pytest.approx(
            (f.lower, f.upper), rel=1e-12)
    assert out["benchmarks"][1]["ratio"] == pytest.approx(0.5)
    assert out["benchmarks"][1]["verdict"] == "faster"
    # --benchmark picks the commands; the first picked is the baseline
    picked, _ = run_json(["compare", p, "--benchmark", "./prog lint big.txt",
                          "--benchmark", "./prog parse big.txt", "--method", "fieller"], capsys)
    assert picked["baseline"] == "./prog lint big.txt"
    assert picked["ratio"] == pytest.approx(2.0)
    code, text, _ = cli(["compare", p, "--method", "fieller"], capsys)
    assert code == 0 and text.startswith(f"file            {p}   (hyperfine)\nbaseline        "
                                         "./prog parse big.txt")
    one = write_json(tmp_path / "one.json", {"results": doc["results"][:1]})
    assert_one_line_error(*cli(["compare", one], capsys), file=one, words=["two or more"])
    assert_one_line_error(*cli(["compare", harness_file(tmp_path)], capsys),
                          words=["hyperfine"])


def harness_file(tmp_path) -> Path:
    return write_json(tmp_path / "jmh.json", jmh_results("old"))


def test_single_benchmark_files_pair_up_across_names(tmp_path, capsys):
    old, new = hyperfine_results("old"), hyperfine_results("new")
    o = write_json(tmp_path / "o.json", {"results": old["results"][:1]})
    new_r = dict(new["results"][0], command="./prog-new parse big.txt")
    n = write_json(tmp_path / "n.json", {"results": [new_r]})
    out, err = run_json(["compare", o, n, "--method", "fieller"], capsys)
    assert err == ""
    assert out["benchmarks"][0]["name"] == "./prog parse big.txt"
    assert out["benchmarks"][0]["new_name"] == "./prog-new parse big.txt"
    assert out["ratio"] == pytest.approx(np.mean(new_r["times"]) / np.mean(old["results"][0]["times"]))


def _two_benchmark_tables(tmp_path):
    o = pd.concat([tidy(WQE_OLD, benchmark="x"), tidy(WQE_NEW, benchmark="y")], ignore_index=True)
    n = pd.concat([tidy(WQE_NEW, benchmark="x"), tidy(WQE_OLD, benchmark="z")], ignore_index=True)
    return write_csv(tmp_path / "o.csv", o), write_csv(tmp_path / "n.csv", n)


def test_tidy_benchmark_column(tmp_path, capsys):
    po, pn = _two_benchmark_tables(tmp_path)
    # reading the column itself: tests/readers/test_tidy.py
    out, err = run_json(["compare", po, pn, "--benchmark-column", "--method", "fieller"], capsys)
    # only x is in both files; y and z are reported, not an error
    assert [b["name"] for b in out["benchmarks"]] == ["x"]
    assert out["only_in_old"] == ["y"] and out["only_in_new"] == ["z"]
    assert "only in" in err and "y" in err and "z" in err
    assert round(out["fieller"]["lower"], 4) == 0.1665  # the worked example (the paper: 0.1098 at df 2)
    # --benchmark alone implies the 'benchmark' column of a tidy table
    s, _ = run_json(["summary", po, "--benchmark", "y"], capsys)
    assert s["mean"] == pytest.approx(6.5)
    # without either, two names in the column are refused, not pooled into one design
    code, out, err = cli(["summary", po], capsys)
    assert code == 2 and "column 'benchmark' holds 2 benchmarks ('x', 'y')" in err


def test_tidy_single_benchmark_json_unchanged(tmp_path, capsys):
    po, pn = write_csv(tmp_path / "o.csv", WQE_OLD), write_csv(tmp_path / "n.csv", WQE_NEW)
    out, err = run_json(["compare", po, pn, "--seed", "12345", "--resamples", "500"], capsys)
    assert err == ""
    top = ["files", "ratio", "old", "new", "alpha", "threshold", "fieller", "bootstrap",
           "verdict", "verdict_method", "description", "caveats"]
    assert list(out)[: len(top)] == top
    assert set(out) - set(top) == {"benchmarks", "only_in_old", "only_in_new", "notes"}
    assert out["notes"][0].startswith("drift: neither system's data label a session or round")
    o = ez.Design(WQE_OLD, ("binary", "execution", "measurement"))
    n = ez.Design(WQE_NEW, o.levels)
    b = ez.bootstrap_ratio_ci(o, n, n_resamples=500, rng=12345, expand=True)  # the seed itself
    assert (out["bootstrap"]["lower"], out["bootstrap"]["upper"]) == (b.lower, b.upper)
    one = out["benchmarks"][0]
    assert one["name"] is None
    for k in top[1:]:
        assert one[k] == out[k]


def test_tidy_balance_truncate(tmp_path, capsys):
    data = 10.0 + np.arange(18.0).reshape(3, 2, 3) % 7
    frame = tidy(data)
    frame = frame.drop(index=frame.index[-1])  # binary 3, execution 2 loses a measurement
    p = write_csv(tmp_path / "short.csv", frame)
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["unbalanced"])
    out, err = run_json(["summary", p, "--balance", "truncate"], capsys)
    assert out["counts"] == {"binary": 3, "execution": 2, "measurement": 2}
    assert out["mean"] == pytest.approx(data[..., :2].mean())
    assert "kept the first 2 measurements of every execution" in err
    assert "5 executions cut, 5 measurements dropped" in err


@pytest.mark.parametrize(
    "doc, words",
    [
        ("{not json", ["not valid json"]),
        ({"something": 1}, ["unknown kind", "--format"]),
        ([{"benchmark": "a.B.m", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op",
          "rawData": [[1.0, "fast"], [1.0, 2.0]]}}], ["a.B.m", "not a number"]),
        ([{"benchmark": "a.B.m", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op",
          "score": 3.0}}], ["a.B.m", "rawdata"]),
        ([{"benchmark": "a.B.m", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op",
          "rawData": [[1.0, -2.0], [1.0, 2.0]]}}], ["a.B.m", "non-positive"]),
        ({"results": [{"command": "sleep 1", "mean": 1.0}]}, ["sleep 1", "times"]),
        ({"benchmarks": [{"metadata": {"name": "bm"}, "runs": [{"warmups": [[1, 1.0]]}]}]},
         ["bm", "no run has values"]),
    ],
)
def test_bad_harness_files_one_line(tmp_path, capsys, doc, words):
    p = tmp_path / "bad.json"
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    line = assert_one_line_error(*cli(["summary", p], capsys), file=p)
    for w in words:
        assert w.lower() in line.lower(), line


def test_one_run_is_shown_by_summary_and_refused_by_plan(tmp_path, capsys):
    p = tmp_path / "one.json"
    p.write_text(json.dumps({"results": [{"command": "sleep 1", "times": [1.0]}]}))
    line = assert_one_line_error(*cli(["plan", p, "--budget", "10"], capsys), file=p)
    assert "sleep 1" in line and "at least 2" in line
    code, text, _ = cli(["summary", p], capsys)
    assert code == 0 and "\nvalue       1\n" in text and "--runs 5 or more" in text


def test_tidy_only_options_rejected_for_json(harness, capsys):
    for opts in (["--levels", "fork"], ["--value", "score"], ["--where", "a=b"], ["--benchmark-column", "x"]):
        assert_one_line_error(
            *cli(["summary", harness["jmh-old"], *opts], capsys), file=harness["jmh-old"], words=["tidy"]
        )
    assert_one_line_error(
        *cli(["summary", harness["jmh-old"], "--gbench-time", "cpu_time"], capsys), words=["google"]
    )


def test_benchmark_selection_errors(harness, capsys):
    line = assert_one_line_error(
        *cli(["summary", harness["jmh-old"], "--benchmark", "nope"], capsys),
        file=harness["jmh-old"], words=["not in the file"],
    )
    assert "'nope'" in line
    assert_one_line_error(
        *cli(["compare", harness["jmh-old"], harness["gbench-new"]], capsys),
        file=harness["gbench-new"], words=["no benchmark matches"],
    )
    assert_one_line_error(
        *cli(["compare", harness["jmh-old"], harness["jmh-new"], "--benchmark", "nope"], capsys),
        words=["in neither file"],
    )


def test_compare_differing_fork_counts(harness, tmp_path, capsys):
    """Three forks against four: compared as they are (each system's own forks), never
    cut; and --balance truncate, which is for ragged groups within one system, leaves
    the comparison of two balanced designs alone."""
    new = jmh_results("new")
    new[2]["primaryMetric"]["rawData"].append([180.0, 181.0, 182.0, 183.0, 184.0])
    p = write_json(tmp_path / "four-forks.json", new)
    args = ["compare", harness["jmh-old"], p, "--benchmark", "org.example.ListBench.get",
            "--method", "fieller"]
    out, err = run_json(args, capsys)
    row = out["benchmarks"][0]
    assert row["design_old"] == {"fork": 3, "iteration": 5}
    assert row["design_new"] == {"fork": 4, "iteration": 5}
    assert err == ""
    raw = np.asarray(new[2]["primaryMetric"]["rawData"])
    assert row["new"]["mean"] == pytest.approx(raw.mean(), rel=1e-12)
    again, err = run_json([*args, "--balance", "truncate"], capsys)
    assert again["benchmarks"][0]["design_new"] == {"fork": 4, "iteration": 5}
    assert "cut" not in err


def test_subprocess_harness_errors_no_traceback(tmp_path):
    write_json(tmp_path / "ok.json", jmh_results("old"))
    _ragged_jmh(tmp_path)
    (tmp_path / "broken.json").write_text('{"results": [')
    cases = [
        (["summary", "ragged-jmh.json"], "ragged-jmh.json", ["unbalanced"]),
        (["compare", "ok.json", "broken.json"], "broken.json", ["not valid json"]),
    ]
    results = run_modules([c for c, _, _ in cases], tmp_path)
    for (_, file, words), (code, out, err) in zip(cases, results):
        assert_one_line_error(code, out, err, file=file, words=words)


MAGIC = {".png": b"\x89PNG", ".pdf": b"%PDF", ".svg": b"<?xml"}


@pytest.mark.parametrize("suffix", [".png", ".pdf", ".svg"])
def test_plots_written_atomically(harness, tmp_path, capsys, suffix):
    target = tmp_path / "figs" / f"compare{suffix}"
    code, _, err = cli(
        ["compare", harness["jmh-old"], harness["jmh-new"], "--seed", "1", "--resamples", "300",
         "--plot", target], capsys,
    )
    assert code == 0, err
    assert target.read_bytes().startswith(MAGIC[suffix])
    target2 = tmp_path / f"summary{suffix}"
    code, _, err = cli(["summary", harness["jmh-old"], "--plot", target2], capsys)
    assert code == 0, err
    assert target2.read_bytes().startswith(MAGIC[suffix])
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".tmp")]


def test_plot_bad_extension_and_unwritable(harness, tmp_path, capsys):
    assert_one_line_error(
        *cli(["summary", harness["jmh-old"], "--plot", tmp_path / "fig.jpg"], capsys), words=["plot"]
    )
    d = tmp_path / "adir.png"
    d.mkdir()
    assert_one_line_error(
        *cli(["summary", harness["jmh-old"], "--plot", d], capsys), file=d, words=["is a directory"]
    )
