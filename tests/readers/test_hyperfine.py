"""hyperfine result files (--export-json)."""

from __future__ import annotations

import numpy as np
import pytest

import esize as ez
from esize.readers import UnitInfo, detect_format, read_benchmarks
from esize.readers import hyperfine as reader
from harness_data import hyperfine_results

from .reader_helpers import write_json


def test_hyperfine_commands_and_times(harness):
    assert detect_format(harness["hyperfine-old"]) == "hyperfine"
    got = read_benchmarks(harness["hyperfine-old"])
    doc = hyperfine_results("old")
    assert list(got) == [r["command"] for r in doc["results"]]
    for (design, unit), r in zip(got.values(), doc["results"]):
        assert design.levels == ("run",) and design.shape == (12,)
        np.testing.assert_array_equal(design.data, r["times"])
        assert unit == UnitInfo("s", True, "time", 1.0)
    trimmed = read_benchmarks(harness["hyperfine-old"], warmup=2)
    np.testing.assert_array_equal(
        trimmed["./prog parse big.txt"].design.data, doc["results"][0]["times"][2:]
    )


def test_hyperfine_parameter_scan_names(tmp_path):
    runs = [{"command": "sleep", "times": [1.0, 1.1], "parameters": {"t": t}} for t in ("1", "2")]
    got = read_benchmarks(write_json(tmp_path / "scan.json", {"results": runs}))
    assert list(got) == ["sleep", "sleep [t=2]"]
    dup = [{"command": "sleep", "times": [1.0, 1.1]}] * 2
    with pytest.raises(ez.InputError, match="benchmark 'sleep': appears twice"):
        read_benchmarks(write_json(tmp_path / "dup.json", {"results": dup}))


def test_hyperfine_sniff_and_options():
    assert reader.sniff(hyperfine_results("new"))
    assert not reader.sniff({"results": [1]}) and not reader.sniff([])
    assert reader.LEVELS == ("run",) and reader.NEXT_RUN_OPTIONS == {"run": "--runs"}


@pytest.mark.parametrize(
    "doc, words",
    [
        ({"results": []}, "no 'results' list"),
        ({"results": [{"times": [1.0]}]}, "result #1 has no 'command'"),
        ({"results": [{"command": "sleep 1", "mean": 1.0}]}, "benchmark 'sleep 1': no 'times'"),
        ({"results": [{"command": "sleep 1", "times": 3}]},
         "benchmark 'sleep 1': times should be a list of numbers, got int"),
        ({"results": [{"command": "sleep 1", "times": [1.0, float("nan")]}]},
         "times, value 2 holds a NaN or infinite value"),
    ],
)
def test_hyperfine_bad_documents(tmp_path, doc, words):
    p = write_json(tmp_path / "bad.json", doc)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p, "hyperfine")
    assert str(err.value).startswith(str(p)) and words in str(err.value)
