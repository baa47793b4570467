"""pytest-benchmark JSON: the rounds, pytest-benchmark's own mean, the shapes that cannot
be read (summaries only, data cut by hand), and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from esize import EsizeWarning, InputError
from esize.readers import detect_format, read_benchmarks

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
SLEEP = REAL / "pytest-benchmark-sleep-cut.json"
REL = 1e-9


def _read(path, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        benches = read_benchmarks(path, *args)
    return benches, [str(w.message) for w in caught if issubclass(w.category, EsizeWarning)]


def _doc(path=SLEEP) -> dict:
    return json.loads(Path(path).read_text())


def _write(tmp_path, doc, name="bench.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def test_whole_rounds_are_read_and_the_mean_is_pytest_benchmarks():
    benches, notes = _read(SLEEP)
    assert detect_format(SLEEP) == "pytest-benchmark"
    entry = next(b for b in _doc()["benchmarks"] if b["name"] == "test_sleep_2")
    bench = benches["bench.py::test_sleep_2"]
    np.testing.assert_array_equal(bench.design.data, entry["stats"]["data"])
    assert bench.design.levels == ("round",)
    assert abs(bench.design.mean / entry["stats"]["mean"] - 1) < REL
    assert bench.unit.unit == "s" and bench.unit.lower_is_better
    # the three benchmarks whose data were cut by hand are named, with the reason
    assert len(notes) == 3
    assert all("left out: data value 5 is \"... omitted to keep this file small\", not a "
               "number" in n for n in notes)


def test_data_shorter_than_the_rounds_is_left_out(tmp_path):
    doc = _doc()
    whole = doc["benchmarks"][3]
    short = json.loads(json.dumps(whole))
    short["fullname"] += "[short]"
    short["stats"]["data"].pop()  # 4 values for 5 rounds
    benches, notes = _read(_write(tmp_path, {**doc, "benchmarks": [whole, short]}))
    assert list(benches) == ["bench.py::test_sleep_2"]
    assert notes == [f"{tmp_path / 'bench.json'}: benchmark 'bench.py::test_sleep_2[short]': "
                     "left out: data holds 4 values for 5 rounds (a file cut short or edited "
                     "by hand); its rounds cannot be analysed"]
    with pytest.raises(InputError, match=r"no benchmark holds all its round times \(benchmark "
                       r"'bench.py::test_sleep_2\[short\]': data holds 4 values for 5 "
                       r"rounds\).*--benchmark-json=FILE"):
        read_benchmarks(_write(tmp_path, {**doc, "benchmarks": [short]}, "s.json"))


def test_summaries_only_get_one_line_saying_how_to_keep_the_rounds():
    path = REAL / "pytest-benchmark-storage-summary.json"
    with pytest.raises(InputError) as info:
        read_benchmarks(path)
    text = str(info.value)
    assert "\n" not in text
    assert "holds only summary statistics" in text
    assert "--benchmark-save-data" in text and "--benchmark-json=FILE" in text


def test_one_round_is_a_single_measurement(tmp_path):
    doc = _doc()
    entry = doc["benchmarks"][3]
    entry["stats"].update(rounds=1, data=entry["stats"]["data"][:1])
    doc["benchmarks"] = [entry]
    with pytest.raises(InputError, match=r"a single measurement in all.*"
                       r"--benchmark-min-rounds 5"):
        read_benchmarks(_write(tmp_path, doc))


def test_names_and_shapes(tmp_path):
    doc = _doc()
    entry = doc["benchmarks"][3]
    twice = {**doc, "benchmarks": [entry, entry]}
    with pytest.raises(InputError, match="appears twice"):
        read_benchmarks(_write(tmp_path, twice))
    nameless = {k: v for k, v in entry.items() if k != "fullname"}
    benches, _ = _read(_write(tmp_path, {**doc, "benchmarks": [nameless]}, "n.json"),
                       "pytest-benchmark")
    assert list(benches) == ["test_sleep_2"]
    bad = {**entry, "stats": {**entry["stats"], "data": "2.0"}}
    with pytest.raises(InputError, match="stats.data holds \"2.0\", not a list"):
        read_benchmarks(_write(tmp_path, {**doc, "benchmarks": [bad]}, "b.json"))
    with pytest.raises(InputError, match="the 'benchmarks' list is empty"):
        read_benchmarks(_write(tmp_path, {**doc, "benchmarks": []}, "e.json"),
                        "pytest-benchmark")


def test_not_taken_for_google_benchmark_or_pyperf():
    # pytest-benchmark files hold a 'benchmarks' list as Google Benchmark and pyperf
    # files do; the other real files keep their format (test_real_files checks all)
    assert detect_format(REAL / "pytest-benchmark-fib-cut.json") == "pytest-benchmark"
    assert detect_format(REAL / "gbench-bencode-10reps.json") == "gbench"
    assert detect_format(REAL / "pyperf-pyperformance-py36-telco.json") == "pyperf"


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "esize", *map(str, args)], capture_output=True,
                          text=True, check=False)


def test_cli_summary_and_compare():
    proc = _cli("summary", SLEEP)
    assert proc.returncode == 0, proc.stderr
    assert "benchmark   bench.py::test_sleep_2   (s, lower is better)" in proc.stdout
    assert "design      round: 5" in proc.stdout
    proc = _cli("compare", SLEEP, SLEEP, "--json", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    (bench,) = json.loads(proc.stdout)["benchmarks"]
    assert bench["ratio"] == 1.0 and bench["verdict"] == "inconclusive"  # one process
    proc = _cli("compare", SLEEP, SLEEP, "--json", "--seed", "3", "--assume-no-process-variance")
    (bench,) = json.loads(proc.stdout)["benchmarks"]
    assert bench["ratio"] == 1.0 and bench["verdict"] == "same"
    proc = _cli("compare", SLEEP, REAL / "pytest-benchmark-storage-summary.json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1
    assert "holds only summary statistics" in proc.stderr
