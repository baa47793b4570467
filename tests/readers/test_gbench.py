"""Google Benchmark result files (--benchmark_format=json)."""

from __future__ import annotations

import numpy as np
import pytest

import esize as ez
from esize.readers import GBENCH_TIMES, detect_format, read_benchmarks
from esize.readers import gbench as reader
from harness_data import gbench_results

from .reader_helpers import write_json


def test_gbench_ignores_aggregates(harness):
    assert detect_format(harness["gbench-old"]) == "gbench"
    got = read_benchmarks(harness["gbench-old"])
    doc = gbench_results("old")
    assert list(got) == ["BM_Sort/1024", "BM_Sort/65536", "BM_Hash"]
    for name, (design, unit) in got.items():
        reps = [e for e in doc["benchmarks"] if e["run_name"] == name and e["run_type"] == "iteration"]
        assert design.levels == ("repetition",) and design.shape == (5,)
        np.testing.assert_array_equal(design.data, [e["real_time"] for e in reps])
        assert unit.unit == reps[0]["time_unit"] and unit.lower_is_better
    cpu = read_benchmarks(harness["gbench-old"], gbench_time="cpu_time")
    sort = [e["cpu_time"] for e in doc["benchmarks"] if e["name"] == "BM_Sort/1024"]
    np.testing.assert_array_equal(cpu["BM_Sort/1024"].design.data, sort)
    assert GBENCH_TIMES == ("real_time", "cpu_time")


def test_gbench_failed_benchmark_is_skipped_with_a_warning(tmp_path):
    doc = gbench_results("old")
    for e in doc["benchmarks"]:
        if e["name"] == "BM_Hash":
            e["error_occurred"] = True
            e["error_message"] = "out of memory"
    p = write_json(tmp_path / "failed.json", doc)
    with pytest.warns(ez.EsizeWarning) as rec:
        got = read_benchmarks(p)
    assert list(got) == ["BM_Sort/1024", "BM_Sort/65536"]
    assert [str(w.message) for w in rec] == [
        f"{p}: benchmark 'BM_Hash': skipped: the harness reported an error (out of memory)"
    ]


def test_gbench_aggregates_only_and_old_names(tmp_path):
    aggs = [e for e in gbench_results("old")["benchmarks"] if e["run_type"] == "aggregate"]
    p = write_json(tmp_path / "agg.json", {"context": {}, "benchmarks": aggs})
    with pytest.raises(ez.InputError, match="only aggregates: rerun without"):
        read_benchmarks(p)
    # files of versions without run_type: aggregates are known by their suffix
    rows = [{"name": "BM_X", "real_time": t, "cpu_time": t, "time_unit": "us"} for t in (1.0, 2.0)]
    rows.append({"name": "BM_X_mean", "real_time": 1.5, "cpu_time": 1.5, "time_unit": "us"})
    got = read_benchmarks(write_json(tmp_path / "old.json", {"benchmarks": rows}))
    assert list(got) == ["BM_X"] and got["BM_X"].design.shape == (2,)
    assert got["BM_X"].unit.scale == pytest.approx(1e-6)


def test_gbench_bad_options_and_units(tmp_path, harness):
    with pytest.raises(ez.InputError, match="--gbench-time must be one of"):
        read_benchmarks(harness["gbench-old"], gbench_time="wall")
    rows = [{"name": "BM_X", "real_time": 1.0, "time_unit": u} for u in ("ns", "us")]
    with pytest.raises(ez.InputError, match=r"different time units \(ns, us\)"):
        read_benchmarks(write_json(tmp_path / "u.json", {"context": {}, "benchmarks": rows}))


def test_gbench_sniff_and_options():
    assert reader.sniff(gbench_results("old"))
    assert reader.sniff({"benchmarks": [{"name": "a", "real_time": 1.0}]})
    assert not reader.sniff({"benchmarks": [{"runs": []}]})  # pyperf's
    assert reader.LEVELS == ("repetition",)
    assert reader.NEXT_RUN_OPTIONS == {"repetition": "--benchmark_repetitions="}


@pytest.mark.parametrize("flag", ["false", "true", 0, None])
def test_gbench_error_occurred_must_be_a_boolean(tmp_path, flag):
    rows = [{"name": "BM_X", "run_type": "iteration", "real_time": t, "time_unit": "ns",
             "error_occurred": flag} for t in (1.0, 2.0)]
    p = write_json(tmp_path / "flag.json", {"context": {}, "benchmarks": rows})
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    shown = {"false": '"false"', "true": '"true"', 0: "0", None: "null"}[flag]
    assert str(err.value) == (f"{p}: benchmark 'BM_X': entry #1 has 'error_occurred': {shown}; "
                              "Google Benchmark writes true or false")
    for e in rows:
        e["error_occurred"] = False  # a real boolean false: read
    q = write_json(tmp_path / "ok.json", {"context": {}, "benchmarks": rows})
    assert read_benchmarks(q)["BM_X"].design.data.tolist() == [1.0, 2.0]


def test_gbench_benchmark_that_skipped_itself_is_left_out(tmp_path):
    # SkipWithMessage: "skipped": true and a message; its times are not measurements
    rows = [{"name": n, "run_type": "iteration", "real_time": t, "time_unit": "ns"}
            for n in ("BM_A", "BM_B") for t in (1.0, 2.0)]
    for e in rows[2:]:
        e.update(skipped=True, skip_message="needs AVX-512", real_time=0.0)
    p = write_json(tmp_path / "skip.json", {"context": {}, "benchmarks": rows})
    with pytest.warns(ez.EsizeWarning) as rec:
        got = read_benchmarks(p)
    assert list(got) == ["BM_A"]
    assert [str(w.message) for w in rec] == [
        f"{p}: benchmark 'BM_B': skipped: the benchmark skipped itself (needs AVX-512)"]


def test_benchmarks_of_one_measurement_are_left_out_with_a_note(tmp_path):
    """BM_Hash run once (no repetitions) beside two benchmarks of five: it is left out
    with a note naming it; a file where every benchmark ran once is one error naming
    them all and the option that repeats them."""
    doc = gbench_results("old")
    hash_reps = [e for e in doc["benchmarks"] if e["run_name"] == "BM_Hash"
                 and e["run_type"] == "iteration"]
    doc["benchmarks"] = [e for e in doc["benchmarks"]
                         if e["run_name"] != "BM_Hash"] + hash_reps[:1]
    p = write_json(tmp_path / "mixed.json", doc)
    with pytest.warns(ez.EsizeWarning, match="1 benchmark with a single measurement left out: "
                                             "BM_Hash$"):
        got = read_benchmarks(p)
    assert list(got) == ["BM_Sort/1024", "BM_Sort/65536"]
    once = {"benchmarks": [dict(e, repetitions=1, repetition_index=0)
                           for e in doc["benchmarks"] if e["run_type"] == "iteration"
                           and e.get("repetition_index") == 0]}
    q = write_json(tmp_path / "once.json", once)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(q)
    assert str(err.value) == (
        f"{q}: every benchmark (3: BM_Sort/1024, BM_Sort/65536, BM_Hash) holds a single "
        "measurement in all; at least 2 are needed, better 5 or more repetitions "
        "(run with --benchmark_repetitions=5 or more)"
    )
