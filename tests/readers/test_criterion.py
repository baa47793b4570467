"""criterion.rs directories: baselines, the inputs accepted, criterion's own mean, and the
command line, on the real ``target/criterion`` of garypen/deduplicate."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from esize import EsizeWarning, InputError
from esize.readers import detect_format, read_benchmarks

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "criterion-deduplicate"
BENCH = REAL / "get" / "moka get" / "1024"
REL = 1e-9


def _read(path, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        benches = read_benchmarks(path, *args)
    return benches, [str(w.message) for w in caught if issubclass(w.category, EsizeWarning)]


def _samples(baseline: str) -> dict:
    """``{full_id: (times / iters, estimates.json mean)}``, read without the library."""
    out = {}
    for sample in sorted(REAL.rglob(f"{baseline}/sample.json")):
        raw = json.loads(sample.read_text())
        full_id = json.loads((sample.parent / "benchmark.json").read_text())["full_id"]
        mean = json.loads((sample.parent / "estimates.json").read_text())["mean"]
        out[full_id] = (np.divide(raw["times"], raw["iters"]), mean["point_estimate"])
    return out


@pytest.mark.parametrize("baseline, count", [("new", 18), ("base", 12), ("0.3.2", 12),
                                             ("0.3.6", 18)])
def test_means_equal_criterions_own_estimate(baseline, count):
    benches, notes = _read(f"{REAL}@{baseline}")
    raw = _samples(baseline)
    assert len(raw) == len(benches) == count
    for full_id, (per_iter, mean) in raw.items():
        design = benches[full_id].design
        assert design.levels == ("sample",)
        np.testing.assert_allclose(design.data, per_iter, rtol=REL)
        assert abs(design.mean / mean - 1) < REL
        assert benches[full_id].unit.unit == "ns"
    # the benchmarks lacking the baseline are named in one note
    assert len(notes) == (count < 18)
    if count < 18:
        assert f"6 benchmarks without the baseline {baseline!r} left out" in notes[0]


def test_default_baseline_is_new_and_a_note_names_the_others():
    benches, notes = _read(REAL)
    assert detect_format(REAL) == "criterion"
    assert sorted(benches) == sorted(_samples("new"))
    assert notes == [f"{REAL}: read the criterion baseline 'new'; the directory also holds "
                     "0.3.2, 0.3.6, base (read another as DIR@NAME)"]


def test_one_benchmark_one_baseline_or_one_sample_file():
    whole, _ = _read(REAL)
    one, _ = _read(BENCH)
    assert list(one) == ["get/moka get/1024"]
    np.testing.assert_array_equal(one["get/moka get/1024"].design.data,
                                  whole["get/moka get/1024"].design.data)
    base, notes = _read(BENCH / "base")
    assert notes == []
    same, _ = _read(BENCH / "base" / "sample.json")
    assert detect_format(BENCH / "base" / "sample.json") == "criterion"
    np.testing.assert_array_equal(base["get/moka get/1024"].design.data,
                                  same["get/moka get/1024"].design.data)
    at, _ = _read(f"{BENCH}@base")
    np.testing.assert_array_equal(at["get/moka get/1024"].design.data,
                                  base["get/moka get/1024"].design.data)


def test_the_change_directory_is_stale_and_never_read(tmp_path):
    # criterion's change/ of this benchmark says the mean rose by about 4 %, while the
    # samples of new and base differ by a factor of almost 3: it compares another pair
    change = json.loads((BENCH / "change" / "estimates.json").read_text())["mean"]
    new, base = _read(f"{BENCH}@new")[0], _read(f"{BENCH}@base")[0]
    ratio = new["get/moka get/1024"].design.mean / base["get/moka get/1024"].design.mean
    assert change["point_estimate"] > 0.03 and ratio < 0.4
    # a copy without any change/ directory reads the same
    copy = tmp_path / "criterion"
    shutil.copytree(REAL, copy, ignore=shutil.ignore_patterns("change"))
    without, _ = _read(copy)
    with_change, _ = _read(REAL)
    assert list(without) == list(with_change)
    for name, bench in with_change.items():
        np.testing.assert_array_equal(without[name].design.data, bench.design.data)


@pytest.mark.parametrize("path, message", [
    (f"{REAL}@nope", "no benchmark has a baseline 'nope'; the baselines here are 0.3.2, 0.3.6, "
     "base, new"),
    (BENCH / "change", "only criterion's change/ estimates, which compare two runs by a "
     "summary; esize needs the samples"),
    (BENCH / "base" / "estimates.json", "this is criterion's estimates.json (summaries"),
    (BENCH / "base" / "benchmark.json", "this is criterion's benchmark.json"),
    (f"{BENCH / 'base'}@new", "this is the baseline 'base' of one benchmark; @new names another"),
])
def test_unreadable_criterion_inputs_get_one_specific_line(path, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(".", r"\.")) as info:
        read_benchmarks(path)
    assert "\n" not in str(info.value)


def test_an_empty_directory_and_unnamed_baselines(tmp_path):
    # a directory holding none of criterion's files is not taken for criterion's
    with pytest.raises(InputError, match="is a directory, not a file"):
        read_benchmarks(tmp_path)
    with pytest.raises(InputError, match="no criterion results: no <benchmark>/<baseline>/"
                       "sample.json below this directory"):
        read_benchmarks(tmp_path, "criterion")
    # only named baselines, neither new nor base: the user must name one
    for name in ("0.3.2", "0.3.6"):
        shutil.copytree(BENCH / name, tmp_path / "b" / name)
    with pytest.raises(InputError, match="holds the baselines 0.3.2, 0.3.6 and neither 'new' "
                       "nor 'base'; name the one to read as DIR@NAME"):
        read_benchmarks(tmp_path)
    benches, _ = _read(f"{tmp_path}@0.3.2")
    assert list(benches) == ["get/moka get/1024"]


@pytest.mark.parametrize("edit, message", [
    ({"iters": [1.0, 2.0], "times": [10.0]}, "holds 2 'iters' and 1 'times'"),
    ({"iters": [1.0, 0.0], "times": [10.0, 12.0]}, "sample 2 has 0.0 iterations"),
    ({"iters": [1.0, 2.0], "times": [10.0, "x"]}, "not a number"),
])
def test_broken_sample_files(tmp_path, edit, message):
    d = tmp_path / "bench" / "new"
    d.mkdir(parents=True)
    (d / "sample.json").write_text(json.dumps({"sampling_mode": "Linear", **edit}))
    with pytest.raises(InputError, match=message):
        read_benchmarks(tmp_path)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "esize", *map(str, args)], capture_output=True,
                          text=True, check=False)


def test_cli_summary_and_compare_of_two_baselines():
    proc = _cli("summary", f"{REAL}@0.3.6", "--benchmark", "get/moka get/1024")
    assert proc.returncode == 0, proc.stderr
    assert "design      sample: 100" in proc.stdout
    proc = _cli("compare", f"{REAL}@0.3.2", f"{REAL}@0.3.6", "--json", "--seed", "7")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    old, new = _samples("0.3.2"), _samples("0.3.6")
    assert [b["name"] for b in out["benchmarks"]] == sorted(old)
    for b in out["benchmarks"]:
        # the ratio of means is that of criterion's own means of the two baselines
        assert abs(b["ratio"] / (new[b["name"]][1] / old[b["name"]][1]) - 1) < REL
    assert sorted(out["only_in_new"]) == sorted(set(new) - set(old))
    verdicts = {b["name"]: b["verdict"] for b in out["benchmarks"]}
    # every sample ran in one process: no verdict, unless processes are assumed alike
    assert set(verdicts.values()) == {"inconclusive"}
    proc = _cli("compare", f"{REAL}@0.3.2", f"{REAL}@0.3.6", "--json", "--seed", "7",
                "--assume-no-process-variance")
    verdicts = {b["name"]: b["verdict"] for b in json.loads(proc.stdout)["benchmarks"]}
    assert verdicts["get/moka get/1024"] == "faster"  # 2.8x faster from 0.3.2 to 0.3.6


def test_cli_refuses_a_missing_baseline_in_one_line():
    proc = _cli("summary", f"{REAL}@main")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"esize: error: {REAL}@main: no benchmark has a baseline 'main'; the baselines here "
        "are 0.3.2, 0.3.6, base, new"]
