"""BenchmarkDotNet full JSON exports, on real files (tests/data/real/SOURCES.md) and on
shapes made from them: several launches, launches of different sizes, files of old
versions, the brief export, failed benchmarks."""

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
from esize.readers import HARNESS_LEVELS, detect_format, next_run_options, read_benchmarks
from esize.readers import benchmarkdotnet as reader

from .reader_helpers import write_json

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
MEMORY = REAL / "benchmarkdotnet-memory-1launch.json"
TRIMMED = REAL / "benchmarkdotnet-fib-trimmed.json"
REL = 1e-9


def _doc(path=MEMORY) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _result(b: dict) -> list[float]:
    """The Workload/Result iterations of one benchmark entry, ns per operation."""
    return [m["Nanoseconds"] / m["Operations"] for m in b["Measurements"]
            if (m["IterationMode"], m.get("IterationStage")) == ("Workload", "Result")]


def _two_launches(drop_last_of_second: bool = False) -> dict:
    """The real file with every benchmark's measurements repeated as a second launch,
    each Result iteration of it 10 % slower (a launch that differs)."""
    doc = _doc()
    for b in doc["Benchmarks"]:
        second = []
        for m in b["Measurements"]:
            m2 = dict(m, LaunchIndex=2)
            if m2["IterationStage"] == "Result":
                m2["Nanoseconds"] = m["Nanoseconds"] * 1.1
            second.append(m2)
        if drop_last_of_second:
            k = max(i for i, m in enumerate(second) if m["IterationStage"] == "Result")
            del second[k]
        b["Measurements"] += second
    return doc


# -- the real files --------------------------------------------------------------------
def test_real_file_means_equal_statistics_mean():
    assert detect_format(MEMORY) == "benchmarkdotnet"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is left out of this file
        got = read_benchmarks(MEMORY)
    entries = _doc()["Benchmarks"]
    assert list(got) == [b["FullName"] for b in entries]
    for b in entries:
        bench = got[b["FullName"]]
        np.testing.assert_allclose(bench.design.data, _result(b), rtol=REL)
        # BenchmarkDotNet's own mean of the same iterations
        assert bench.design.mean == pytest.approx(b["Statistics"]["Mean"], rel=REL)
        assert bench.design.counts == {"iteration": b["Statistics"]["N"]}
        assert bench.unit.unit == "ns" and bench.unit.lower_is_better
        # one launch (LaunchCount=1): said, with the option that adds launches
        assert bench.unobserved == (("launch", None),)
        assert len(bench.caveats) == 1 and "--launchCount 5" in bench.caveats[0]


def test_real_file_cut_after_the_pilot_stage_is_refused_naming_what_it_holds():
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(TRIMMED)
    text = str(err.value)
    assert text.startswith(str(TRIMMED))
    assert "none of its 20 measurements is a Workload/Result iteration" in text
    assert "Overhead/Jitting, Workload/Jitting, Workload/Pilot" in text


# -- shapes made from the real file ------------------------------------------------------------
def test_launches_are_the_upper_level(tmp_path):
    doc = _two_launches()
    got = read_benchmarks(write_json(tmp_path / "two.json", doc))
    for b in doc["Benchmarks"]:
        design = got[b["FullName"]].design
        assert design.levels == ("launch", "iteration") and design.shape == (2, 3)
        first = _result(_doc()["Benchmarks"][doc["Benchmarks"].index(b)])
        np.testing.assert_allclose(design.data[0], first, rtol=REL)
        np.testing.assert_allclose(design.data[1], np.array(first) * 1.1, rtol=REL)
        assert got[b["FullName"]].caveats == ()  # launches observed: nothing to say
    assert HARNESS_LEVELS["benchmarkdotnet"] == ("launch", "iteration")
    assert next_run_options("benchmarkdotnet", {"launch": 5, "iteration": 20}) == (
        "--launchCount 5 --iterationCount 20")


def test_launches_of_different_sizes_need_balance_truncate(tmp_path):
    """Outliers are removed per launch, so launches can keep different counts."""
    p = write_json(tmp_path / "ragged.json", _two_launches(drop_last_of_second=True))
    with pytest.raises(ez.InputError, match="unbalanced: 1 launch with 3 iterations, "
                       "1 launch with 2 iterations .*--balance truncate"):
        read_benchmarks(p)
    with pytest.warns(ez.EsizeWarning, match="kept the first 2 iterations of every launch"):
        got = read_benchmarks(p, balance="truncate")
    assert {b.design.shape for b in got.values()} == {(2, 2)}


def test_files_before_0_11_have_a_result_mode_and_no_stage(tmp_path):
    doc = _doc()
    for b in doc["Benchmarks"]:
        for m in b["Measurements"]:
            stage = m.pop("IterationStage")
            m["IterationMode"] = "Result" if (m["IterationMode"], stage) == (
                "Workload", "Result") else f"Main{stage}"
    got = read_benchmarks(write_json(tmp_path / "old.json", doc), "benchmarkdotnet")
    for b in _doc()["Benchmarks"]:
        assert got[b["FullName"]].design.mean == pytest.approx(b["Statistics"]["Mean"], rel=REL)


def test_a_file_without_measurements_names_the_full_exporter(tmp_path):
    doc = _doc(TRIMMED)
    for b in doc["Benchmarks"]:
        del b["Measurements"]
    p = write_json(tmp_path / "brief.json", doc)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    assert "statistics only, no 'Measurements'" in str(err.value)
    assert "JsonExporter.Full" in str(err.value)


def test_failed_benchmarks_are_left_out_with_a_note(tmp_path):
    doc = _doc()
    failed = doc["Benchmarks"][1]
    failed["Statistics"], failed["Measurements"] = None, []
    with pytest.warns(ez.EsizeWarning, match="AllocExactList': skipped: the harness reported"):
        got = read_benchmarks(write_json(tmp_path / "failed.json", doc))
    assert list(got) == [doc["Benchmarks"][0]["FullName"]]
    doc["Benchmarks"][0]["Statistics"], doc["Benchmarks"][0]["Measurements"] = None, []
    with pytest.warns(ez.EsizeWarning), pytest.raises(ez.InputError, match="every benchmark "
                                                        "failed"):
        read_benchmarks(write_json(tmp_path / "all-failed.json", doc))


def test_the_same_method_in_two_jobs_is_named_by_its_job(tmp_path):
    doc = _doc()
    twin = copy.deepcopy(doc["Benchmarks"][0])
    twin["DisplayInfo"] = "Memory.AllocEmptyList: Job-ABC(Runtime=.NET 8.0)"
    doc["Benchmarks"].append(twin)
    got = read_benchmarks(write_json(tmp_path / "jobs.json", doc))
    name = twin["FullName"]
    assert f"{name} [Job-ABC(Runtime=.NET 8.0)]" in got
    assert f"{name} [ShortRun(IterationCount=3, LaunchCount=1, WarmupCount=3)]" in got


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda d: d.update(Benchmarks=[]), "'Benchmarks' is empty"),
        (lambda d: d["Benchmarks"][0].update(Measurements=3), "holds 3, not a list"),
        (lambda d: d["Benchmarks"][0]["Measurements"][-1].update(Operations=0),
         "'Operations': 0"),
        (lambda d: d["Benchmarks"][0]["Measurements"][-1].update(Nanoseconds="12"),
         "'Nanoseconds' of measurement #54 holds \"12\", not a number"),
        (lambda d: d["Benchmarks"][0]["Measurements"][-1].update(LaunchIndex=1.5),
         "'LaunchIndex': 1.5"),
    ],
)
def test_bad_documents(tmp_path, edit, words):
    doc = _doc()
    edit(doc)
    p = write_json(tmp_path / "bad.json", doc)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p, "benchmarkdotnet")
    assert str(err.value).startswith(str(p)) and words in str(err.value)


def test_sniff_tells_it_from_the_other_harnesses():
    assert reader.sniff(_doc()) and reader.sniff(_doc(TRIMMED))
    # Google Benchmark's key is lower-case, and needs no title or host information
    assert not reader.sniff({"benchmarks": [], "context": {}})
    assert not reader.sniff({"Benchmarks": []})  # neither a title nor a host
    assert not reader.sniff([{"Benchmarks": []}])


# -- the command line --------------------------------------------------------------------------
def _esize(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "esize", *args], capture_output=True,
                          text=True, check=False)


def test_cli_summary_and_compare_on_the_real_file(tmp_path):
    proc = _esize("summary", str(MEMORY))
    assert proc.returncode == 0, proc.stderr
    assert "(benchmarkdotnet)" in proc.stdout and proc.stdout.count("benchmark   ") == 2
    assert "--launchCount 5" in proc.stdout
    proc = _esize("compare", str(MEMORY), str(MEMORY))
    assert proc.returncode == 0, proc.stderr
    assert "ratio" in proc.stdout and "a single launch" in proc.stdout
    new = write_json(tmp_path / "new.json", _two_launches())
    old = write_json(tmp_path / "old.json", _doc())
    proc = _esize("compare", str(old), str(new), "--format", "benchmarkdotnet")
    assert proc.returncode == 0, proc.stderr
    assert "AllocEmptyList" in proc.stdout and "AllocExactList" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_cli_refuses_the_trimmed_file_in_one_line():
    proc = _esize("compare", str(TRIMMED), str(MEMORY))
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"esize: error: {TRIMMED}: ")
