"""Julia BenchmarkTools files (``BenchmarkTools.save``): the real files of
tests/data/real/SOURCES.md (one of estimates; two commits of one file of ``Trial``\\ s)
and trials written in the same layout.

The made-up trial files follow the layout of the real ones (versions, then ``[type,
fields]`` values, groups nesting under ``data``), with ``times`` drawn from a seeded
generator; they vary what the real files hold one way only (type-name prefix, mixed
estimates, a lone trial, damaged values)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import esize as ez
from esize.readers import (
    HARNESS_LEVELS,
    detect_format,
    next_run_options,
    one_process_caveat,
    read_benchmarks,
)
from esize.readers import julia as reader

from .reader_helpers import write_json

ESTIMATES = Path(__file__).resolve().parents[1] / "data" / "real" / "julia-fib-trialestimates.json"
#: the same BenchmarkTools suite run twice, three days apart, by a public project
TRIALS_OLD, TRIALS_NEW = (ESTIMATES.parent / f"julia-cardiac-simtimings-{x}.json"
                          for x in ("old", "new"))
#: ``JSON.print(f, results)``: the group alone, without the versions
BARE = ESTIMATES.parent / "julia-mlogit-bare-group.json"
#: PkgBenchmark's result file (cut to one Trial): the saved file as a string inside
PKGBENCH = ESTIMATES.parent / "julia-pkgbenchmark-astarsearch-cut.json"
REL = 1e-9
SEED = 20261126


def _estimates() -> list:
    return json.loads(ESTIMATES.read_text(encoding="utf-8"))


def _trials(scale: float = 1.0, prefix: str = "", n: int = 40, seed: int = SEED) -> list:
    """The real file with each TrialEstimate replaced by a Trial of ``n`` samples around
    its time (lognormal, seeded), ``prefix`` before every type name."""
    rng = np.random.default_rng(seed)
    doc = _estimates()
    fib = doc[1][0][1]["data"]["fib"][1]["data"]
    for key, (_, fields) in list(fib.items()):
        times = fields["time"] * scale * rng.lognormal(0.0, 0.05, n)
        fib[key] = [f"{prefix}Trial", {"allocs": 0, "memory": 0, "params": fields["params"],
                                       "times": times.tolist(), "gctimes": [0.0] * n}]

    def rename(x):
        if isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) and isinstance(
                x[1], dict):
            x[0] = prefix + x[0].removeprefix(prefix)
            for v in x[1].values():
                rename(v)
            for v in x[1].get("data", {}).values():
                rename(v)

    rename(doc[1][0])
    return doc


# -- the real file of estimates -------------------------------------------------------------------
def test_real_estimate_file_is_refused_saying_it_holds_one_number_each():
    assert detect_format(ESTIMATES) == "julia"
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(ESTIMATES)
    text = str(err.value)
    assert text.startswith(str(ESTIMATES))
    assert "2 TrialEstimate (fib/20, fib/10): one number per benchmark" in text
    assert "save the Trial" in text


# -- the real files of trials -------------------------------------------------------------------
def _raw_trials(path: Path) -> dict:
    """``{"Small/ODE/ODE - Tracking": times}``, walked from the JSON without the reader."""
    out = {}

    def walk(value, keys):
        kind, fields = value
        if kind == "BenchmarkGroup":
            for key, child in fields["data"].items():
                walk(child, [*keys, key])
        else:
            assert kind == "Trial"
            out["/".join(keys)] = fields["times"]

    doc = json.loads(path.read_text(encoding="utf-8"))
    assert set(doc[0]) == {"Julia", "BenchmarkTools"} and len(doc[1]) == 1
    walk(doc[1][0], [])
    return out


@pytest.mark.parametrize("path", [TRIALS_OLD, TRIALS_NEW], ids=["old", "new"])
def test_real_trial_file_gives_every_trial_with_the_mean_of_its_times(path):
    raw = _raw_trials(path)
    assert detect_format(path) == "julia"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing left out, nothing to note
        got = read_benchmarks(path)
    assert list(got) == list(raw)  # the order of the file
    assert len(got) == 6
    for name, times in raw.items():
        bench = got[name]
        np.testing.assert_array_equal(bench.design.data, times)
        # BenchmarkTools' mean(trial) is the plain mean of its times
        assert bench.design.mean == pytest.approx(sum(times) / len(times), rel=REL)
        assert bench.design.counts == {"sample": len(times)}
        assert bench.unit.unit == "ns" and bench.caveats == (one_process_caveat("sample"),)


def test_cli_compare_on_the_two_real_trial_files():
    old, new = _raw_trials(TRIALS_OLD), _raw_trials(TRIALS_NEW)
    proc = _esize("compare", str(TRIALS_OLD), str(TRIALS_NEW), "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert [b["name"] for b in result["benchmarks"]] == list(old) == list(new)
    assert result["only_in_old"] == [] and result["only_in_new"] == []
    for b in result["benchmarks"]:
        mean_old = sum(old[b["name"]]) / len(old[b["name"]])
        mean_new = sum(new[b["name"]]) / len(new[b["name"]])
        assert b["old"]["mean"] == pytest.approx(mean_old, rel=REL)
        assert b["new"]["mean"] == pytest.approx(mean_new, rel=REL)
        assert b["ratio"] == pytest.approx(mean_new / mean_old, rel=REL)
        assert b["design"] == {"old": {"sample": len(old[b["name"]])},
                               "new": {"sample": len(new[b["name"]])}}
        # the rerun was 5 to 7 % faster on every benchmark, with thousands of samples
        # between the two files: an interval inside (0.92, 0.96) around it
        lower, upper = b["fieller"]["lower"], b["fieller"]["upper"]
        assert 0.92 < lower < b["ratio"] < upper < 0.96
        # every trial of a file ran in one Julia process: no verdict unless assumed
        assert b["verdict"] == "inconclusive"
        assert "processes of a system are not observed apart" in b["verdict_reason"]
    proc = _esize("compare", str(TRIALS_OLD), str(TRIALS_NEW), "--assume-no-process-variance")
    assert proc.returncode == 0, proc.stderr
    assert sum(line.startswith(("Small/", "Large/")) and "faster" in line
               for line in proc.stdout.splitlines()) == 6


def test_real_bare_group_written_by_json_print_is_read():
    doc = json.loads(BARE.read_text(encoding="utf-8"))
    assert doc[0] == "BenchmarkGroup" and isinstance(doc[1], dict)  # no versions
    times = doc[1]["data"]["mlogit"][1]["times"]
    assert detect_format(BARE) == "julia"
    got = read_benchmarks(BARE)
    assert list(got) == ["mlogit"]
    np.testing.assert_array_equal(got["mlogit"].design.data, times)
    assert got["mlogit"].design.mean == pytest.approx(sum(times) / len(times), rel=REL)
    proc = _esize("summary", str(BARE))
    assert proc.returncode == 0, proc.stderr
    assert "benchmark   mlogit   (ns, lower is better)" in proc.stdout
    assert f"design      sample: {len(times)} " in proc.stdout


@pytest.mark.parametrize("prefix", ["", "BenchmarkTools."])
def test_bare_value_reads_like_the_saved_file(tmp_path, prefix):
    doc = _trials(prefix=prefix)
    saved = read_benchmarks(write_json(tmp_path / "saved.json", doc))
    bare = read_benchmarks(write_json(tmp_path / "bare.json", doc[1][0]))  # the group alone
    assert list(bare) == list(saved) == ["fib/20", "fib/10"]
    for name in saved:
        np.testing.assert_array_equal(bare[name].design.data, saved[name].design.data)
    trial = doc[1][0][1]["data"]["fib"][1]["data"]["10"]  # a Trial alone
    assert list(read_benchmarks(write_json(tmp_path / "trial.json", trial))) == ["(unnamed)"]
    # the estimates alone, bare, get the same one line as in a saved file
    with pytest.raises(ez.InputError, match=r"2 TrialEstimate \(fib/20, fib/10\): one number"):
        read_benchmarks(write_json(tmp_path / "est.json", _estimates()[1][0]))


def _pkgbenchmark(saved) -> dict:
    """A PkgBenchmark result around a saved document, its fields as in the real file."""
    wrapper = json.loads(PKGBENCH.read_text(encoding="utf-8"))
    wrapper["benchmarkgroup"] = json.dumps(saved, separators=(",", ":"))
    return wrapper


def test_real_pkgbenchmark_result_is_unwrapped():
    wrapper = json.loads(PKGBENCH.read_text(encoding="utf-8"))
    assert isinstance(wrapper["benchmarkgroup"], str) and "benchmarkconfig" in wrapper
    saved = json.loads(wrapper["benchmarkgroup"])
    times = saved[1][0][1]["data"]["collatz"][1]["data"]["8765"][1]["times"]
    assert detect_format(PKGBENCH) == "julia"
    got = read_benchmarks(PKGBENCH)
    assert list(got) == ["collatz/8765"]
    np.testing.assert_array_equal(got["collatz/8765"].design.data, times)
    assert got["collatz/8765"].design.mean == pytest.approx(sum(times) / len(times), rel=REL)


def test_pkgbenchmark_results_compare_like_saved_files(tmp_path):
    old = write_json(tmp_path / "old.json", _pkgbenchmark(_trials()))
    new = write_json(tmp_path / "new.json", _pkgbenchmark(_trials(scale=0.8, seed=SEED + 1)))
    saved = read_benchmarks(write_json(tmp_path / "saved.json", _trials()))
    wrapped = read_benchmarks(old)
    assert list(wrapped) == list(saved) == ["fib/20", "fib/10"]
    for name in saved:
        np.testing.assert_array_equal(wrapped[name].design.data, saved[name].design.data)
    proc = _esize("compare", str(old), str(new))
    assert proc.returncode == 0, proc.stderr
    assert sum(line.startswith("fib/") and "faster" in line
               for line in proc.stdout.splitlines()) == 2


@pytest.mark.parametrize(
    "text, words",
    [
        ("[{", "'benchmarkgroup' is not the JSON text of a BenchmarkTools file"),
        ('["Trial", {}]', "'benchmarkgroup' holds a list, not a BenchmarkTools file"),
        ('{"a": 1}', "'benchmarkgroup' holds an object, not a BenchmarkTools file"),
    ],
)
def test_pkgbenchmark_with_a_bad_benchmarkgroup_is_refused_in_one_line(tmp_path, text, words):
    wrapper = _pkgbenchmark(_trials())
    wrapper["benchmarkgroup"] = text
    p = write_json(tmp_path / "bad.json", wrapper)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    assert str(err.value).startswith(str(p)) and words in str(err.value)
    proc = _esize("summary", str(p))
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and words in proc.stderr


# -- trials ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("prefix", ["", "BenchmarkTools."])  # both spellings of the types
def test_trial_times_are_read_and_their_mean_is_the_mean_of_times(tmp_path, prefix):
    doc = _trials(prefix=prefix)
    p = write_json(tmp_path / "trials.json", doc)
    assert detect_format(p) == "julia"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = read_benchmarks(p)
    fib = doc[1][0][1]["data"]["fib"][1]["data"]
    assert list(got) == ["fib/20", "fib/10"]
    for key in ("20", "10"):
        times = fib[key][1]["times"]
        bench = got[f"fib/{key}"]
        np.testing.assert_array_equal(bench.design.data, times)
        # the file records no statistic of a Trial: its mean is the mean of its times
        assert bench.design.mean == pytest.approx(float(np.mean(times)), rel=REL)
        assert bench.design.levels == ("sample",)
        assert bench.unit.unit == "ns" and bench.caveats == (one_process_caveat("sample"),)
    assert HARNESS_LEVELS["julia"] == ("sample",)
    assert next_run_options("julia", {"sample": 100}) == "samples=100"


def test_estimates_beside_trials_are_left_out_with_a_note(tmp_path):
    doc = _trials()
    doc[1].append(_estimates()[1][0])  # a second value: the estimates of the same suite
    with pytest.warns(ez.EsizeWarning, match=r"left out 2 TrialEstimate \(#2/fib/20, #2/fib/10\)"):
        got = read_benchmarks(write_json(tmp_path / "mixed.json", doc))
    assert list(got) == ["#1/fib/20", "#1/fib/10"]


def test_a_lone_trial_is_unnamed(tmp_path):
    trial = _trials()[1][0][1]["data"]["fib"][1]["data"]["10"]
    got = read_benchmarks(write_json(tmp_path / "one.json", [_estimates()[0], [trial]]))
    assert list(got) == ["(unnamed)"]


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda d: d.__setitem__(1, []), "holds no values"),
        (lambda d: d[1][0][1]["data"]["fib"][1]["data"]["20"][1].pop("times"),
         "benchmark 'fib/20': a Trial without 'times'"),
        (lambda d: d[1][0][1]["data"]["fib"][1]["data"]["20"][1].__setitem__("times", [1, None]),
         "times, value 2 holds null, not a number"),
        (lambda d: d[1][0][1]["data"]["fib"][1]["data"].__setitem__("30", ["Parameters", {}]),
         "benchmark 'fib/30': a saved 'Parameters', not a Trial"),
        (lambda d: d[1][0][1]["data"].__setitem__("x", 3), "holds 3, not a saved"),
    ],
)
def test_bad_documents(tmp_path, edit, words):
    doc = _trials()
    edit(doc)
    p = write_json(tmp_path / "bad.json", doc)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p, "julia")
    assert str(err.value).startswith(str(p)) and words in str(err.value)


def test_sniff_tells_it_from_the_other_harnesses():
    assert reader.sniff(_estimates()) and reader.sniff(_trials())
    assert not reader.sniff([{"primaryMetric": {}}])  # JMH
    assert not reader.sniff([{"Julia": "1.7"}, {}])
    assert not reader.sniff({"BenchmarkTools": "1.0"})
    assert reader.sniff(_estimates()[1][0]) and reader.sniff(["BenchmarkTools.Trial", {}])
    assert not reader.sniff(["Parameters", {}])  # saved, but not results
    assert reader.sniff({"benchmarkgroup": "[]", "benchmarkconfig": {}})  # PkgBenchmark
    assert not reader.sniff({"benchmarkgroup": "[]"}) and not reader.sniff(
        {"benchmarkgroup": [], "benchmarkconfig": {}})
    assert not reader.sniff(["Trial", []]) and not reader.sniff(["Trial", {}, {}])
    jmh_like = copy.deepcopy(_estimates())
    jmh_like[0] = {"primaryMetric": {}}
    assert not reader.sniff(jmh_like)


# -- the command line ----------------------------------------------------------------------------------
def _esize(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "esize", *args], capture_output=True,
                          text=True, check=False)


def test_cli_summary_and_compare_on_trial_files(tmp_path):
    old = write_json(tmp_path / "old.json", _trials())
    new = write_json(tmp_path / "new.json", _trials(scale=0.8, seed=SEED + 1))  # 20 % faster
    proc = _esize("summary", str(old))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("benchmark   ") == 2 and "(julia)" in proc.stdout
    proc = _esize("compare", str(old), str(new))
    assert proc.returncode == 0, proc.stderr
    rows = [x for x in proc.stdout.splitlines() if x.startswith(("fib/20 ", "fib/10 "))]
    assert len(rows) == 2 and all("faster" in r for r in rows)
    ratios = [float(r.split()[2]) for r in rows]  # 0.8 times noise of 5 % a sample
    assert all(0.75 < r < 0.85 for r in ratios)


def test_cli_refuses_the_estimate_file_in_one_line():
    proc = _esize("summary", str(ESTIMATES))
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "TrialEstimate" in lines[0]
