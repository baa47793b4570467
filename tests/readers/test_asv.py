"""asv result files: a real file of summaries only (tests/data/real/SOURCES.md), two
files with samples written here by the real asv (tests/data/made-here/README.md), and
shapes made from them."""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import esize as ez
from esize.readers import HARNESS_LEVELS, detect_format, next_run_options, read_benchmarks
from esize.readers import asv as reader

from .reader_helpers import write_json

DATA = Path(__file__).resolve().parents[1] / "data"
SUMMARIES = DATA / "real" / "asv-pennylane-summaries.json"
OLD = DATA / "made-here" / "asv-sortbench-old.json"
NEW = DATA / "made-here" / "asv-sortbench-new.json"
REL = 1e-9


def _doc(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _rows(doc) -> dict:
    """``{name(params): row}`` of a version 2 file, one row per parameter combination."""
    out = {}
    cols = doc["result_columns"]
    for base, entry in doc["results"].items():
        row = dict(zip(cols, entry))
        combos = [", ".join(c) for c in zip(*row["params"])] if row["params"] else [""]
        for k, combo in enumerate(combos):
            name = f"{base}({combo})" if combo else base
            out[name] = {c: (row[c][k] if isinstance(row[c], list) and c != "params" else row[c])
                         for c in cols if c in row}
    return out


# -- files with samples ------------------------------------------------------------------------
@pytest.mark.parametrize("path", [OLD, NEW])
def test_samples_are_read_and_asv_statistics_agree(path):
    assert detect_format(path) == "asv"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is left out of these files
        got = read_benchmarks(path)
    rows = _rows(_doc(path))
    assert list(got) == ["bench_sort.Sorting.time_sorted(100)",
                         "bench_sort.Sorting.time_sorted(10000)", "bench_sort.time_join"]
    assert list(got) == list(rows)
    for name, row in rows.items():
        bench = got[name]
        samples = np.array(row["samples"])
        np.testing.assert_array_equal(bench.design.data, samples)
        assert bench.design.levels == ("sample",)
        assert bench.design.data.size == row["stats_repeat"]
        # asv's result is the median of the samples (its quartiles are kept to 5 digits)
        assert float(np.median(bench.design.data)) == pytest.approx(row["result"], rel=REL)
        assert np.percentile(samples, 25) == pytest.approx(row["stats_q_25"], rel=1e-4)
        assert np.percentile(samples, 75) == pytest.approx(row["stats_q_75"], rel=1e-4)
        assert bench.design.mean == pytest.approx(float(samples.mean()), rel=REL)
        assert bench.unit.unit == "seconds" and bench.unit.kind == "time"
        # rounds (processes) are pooled in the file: not observed apart, no verdict
        assert bench.caveats == (reader.UNOBSERVED_CAVEAT,)
        assert bench.unobserved == (("process", None),)
    assert HARNESS_LEVELS["asv"] == ("sample",)
    assert next_run_options("asv", {"sample": 20}) == "--record-samples -a repeat=20"


def test_version_1_files_with_samples_are_read(tmp_path):
    """asv before 0.5 kept a dictionary per benchmark; made from the version 2 file."""
    rows = _rows(_doc(OLD))
    doc = {"version": 1, "commit_hash": "28dbbd64", "results": {
        "bench_sort.Sorting.time_sorted": {
            "result": [rows[f"bench_sort.Sorting.time_sorted({n})"]["result"] for n in (100, 10000)],
            "params": [["100", "10000"]],
            "samples": [rows[f"bench_sort.Sorting.time_sorted({n})"]["samples"]
                        for n in (100, 10000)]},
        "bench_sort.time_join": {"result": rows["bench_sort.time_join"]["result"],
                                 "samples": rows["bench_sort.time_join"]["samples"]},
    }}
    got = read_benchmarks(write_json(tmp_path / "v1.json", doc))
    want = read_benchmarks(OLD)
    assert list(got) == list(want)
    for name in got:
        np.testing.assert_array_equal(got[name].design.data, want[name].design.data)


def test_failed_skipped_and_unsampled_benchmarks_are_left_out_with_notes(tmp_path):
    doc = _doc(OLD)
    entry = doc["results"]["bench_sort.Sorting.time_sorted"]
    entry[0] = [None, entry[0][1]]  # n=100 failed
    doc["results"]["bench_sort.mem_list"] = [[56], [], "abc", 0, 0.1]  # measured once
    doc["results"]["bench_sort.time_skipped"] = [[math.nan], [], "abc"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = read_benchmarks(write_json(tmp_path / "mixed.json", doc))
    notes = [str(w.message) for w in caught if issubclass(w.category, ez.EsizeWarning)]
    assert list(got) == ["bench_sort.Sorting.time_sorted(10000)", "bench_sort.time_join"]
    assert any("failed or skipped" in n and "time_sorted(100)" in n
               and "time_skipped" in n for n in notes)
    assert any("without samples" in n and "mem_list" in n for n in notes)


# -- the real file of summaries -------------------------------------------------------------------
def test_real_summary_file_is_refused_naming_the_flag():
    assert detect_format(SUMMARIES) == "asv"
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(SUMMARIES)
    text = str(err.value)
    assert text.startswith(str(SUMMARIES))
    assert "summaries only" in text and "--record-samples" in text
    # it does hold asv's summaries: a median and stats of each combination that ran
    entry = _doc(SUMMARIES)["results"]["asv.app_suite.QAOA.time_minvertex"]
    assert set(entry) == {"result", "stats", "params"}


def test_summary_file_with_samples_added_is_read_and_its_means_agree(tmp_path):
    """The real file keeps asv's ``stats``; with samples whose mean and median are
    those stats (a shape made from it), the reader's means are asv's means."""
    doc = _doc(SUMMARIES)
    entry = copy.deepcopy(doc["results"]["asv.core_suite.Optimization.time_optimization_tf"])
    st = entry["stats"][0]
    half = (st["mean"] - st["min"])
    entry["samples"] = [st["mean"] - half, st["mean"], st["mean"] + half]
    entry["result"] = st["mean"]
    got = read_benchmarks(write_json(tmp_path / "one.json",
                                     {**doc, "results": {"opt": entry}}))
    assert got["opt"].design.mean == pytest.approx(st["mean"], rel=REL)


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda d: d.update(version=3), "version 3 is not supported"),
        (lambda d: d.update(results={}), "no 'results'"),
        (lambda d: d.pop("result_columns"), "needs 'result_columns'"),
        (lambda d: d["results"]["bench_sort.time_join"].__setitem__(11, [[1.0, "x"]]),
         "samples, value 2 holds \"x\", not a number"),
        (lambda d: d["results"]["bench_sort.Sorting.time_sorted"].__setitem__(
            1, [["1", "2", "3"]]), "2 results for 3 combinations"),
        (lambda d: d["results"].update({"x.time_y": 5}), "not a row of 'result_columns'"),
    ],
)
def test_bad_documents(tmp_path, edit, words):
    doc = _doc(OLD)
    edit(doc)
    p = write_json(tmp_path / "bad.json", doc)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p, "asv")
    assert str(err.value).startswith(str(p)) and words in str(err.value)


def test_sniff_tells_it_from_the_other_harnesses():
    assert reader.sniff(_doc(OLD)) and reader.sniff(_doc(SUMMARIES))
    assert not reader.sniff({"results": [{"command": "x", "times": [1.0]}]})  # hyperfine
    assert not reader.sniff({"results": {}})  # no version, no commit
    assert not reader.sniff([])


# -- the command line -------------------------------------------------------------------------------
def _esize(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "esize", *args], capture_output=True,
                          text=True, check=False)


def test_cli_summary_and_compare_on_asv_files():
    proc = _esize("summary", str(OLD))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("benchmark   ") == 3 and "(asv)" in proc.stdout
    proc = _esize("compare", str(OLD), str(NEW))
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("time_join"))
    ratio = float(line.split()[2])
    samples = [np.array(_rows(_doc(p))["bench_sort.time_join"]["samples"]) for p in (OLD, NEW)]
    assert ratio == pytest.approx(samples[1].mean() / samples[0].mean(), abs=5e-5)
    assert "slower" in line  # 19 % slower, the interval well away from 1


def test_cli_refuses_the_summary_file_in_one_line():
    proc = _esize("summary", str(SUMMARIES))
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "--record-samples" in lines[0]
