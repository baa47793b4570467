"""Julia BenchmarkTools files (``BenchmarkTools.save``): the real file of estimates
(tests/data/real/SOURCES.md) and trials written in the same layout.

No committed file of ``Trial``\\ s was found in a public repository; the trial files
here follow the layout of the real one (versions, then ``[type, fields]`` values,
groups nesting under ``data``), with ``times`` drawn from a seeded generator."""

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
from esize.readers import julia as reader

from .reader_helpers import write_json

ESTIMATES = Path(__file__).resolve().parents[1] / "data" / "real" / "julia-fib-trialestimates.json"
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
        assert bench.unit.unit == "ns" and bench.caveats == ()
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
