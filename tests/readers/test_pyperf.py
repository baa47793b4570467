"""pyperf result files: real files shipped with pyperf, checked against pyperf's loader."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

import esize as ez
from esize.readers import UnitInfo, detect_format, read_benchmarks
from esize.readers import pyperf as reader

from .reader_helpers import PV, needs_pyperf, pyperf, pyperf_designs, pyperf_file, write_json


@needs_pyperf
def test_pyperf_telco_matches_pyperf_loader():
    path = pyperf_file("telco.json")
    assert detect_format(path) == "pyperf"
    got = read_benchmarks(path)
    want = pyperf_designs(path)
    assert list(got) == ["telco"] == list(want)
    design, unit = got["telco"]
    assert design.levels == PV
    assert design.shape == (40, 3)  # the calibration run (warm-ups only) is skipped
    np.testing.assert_array_equal(design.data, want["telco"].data)
    assert unit == UnitInfo("second", True, "time", 1.0)
    bench = pyperf.Benchmark.load(str(path))
    assert design.mean == pytest.approx(bench.mean(), rel=1e-12)


@needs_pyperf
@pytest.mark.parametrize("name", ["mult_list_py36.json", "mult_list_py37.json", "mult_list_py38.json"])
def test_pyperf_suites_match_pyperf_loader(name):
    path = pyperf_file(name)
    got = read_benchmarks(path)
    want = pyperf_designs(path)
    assert list(got) == list(want) == ["[1]*1000", "[1,2]*1000", "[1,2,3]*1000"]
    for k, design in want.items():
        np.testing.assert_array_equal(got[k].design.data, design.data)
        assert got[k].design.shape == (20, 3)


@needs_pyperf
def test_pyperf_gzip_and_forced_format(tmp_path):
    src = pyperf_file("telco.json")
    gz = tmp_path / "telco.json.gz"
    gz.write_bytes(gzip.compress(src.read_bytes()))
    plain = tmp_path / "telco-result"  # no extension: sniffed as JSON
    plain.write_bytes(src.read_bytes())
    ref = read_benchmarks(src)["telco"].design.data
    for p in (gz, plain):
        assert detect_format(p) == "pyperf"
        np.testing.assert_array_equal(read_benchmarks(p)["telco"].design.data, ref)
        np.testing.assert_array_equal(read_benchmarks(p, "pyperf")["telco"].design.data, ref)


def test_pyperf_older_and_single_layouts(tmp_path):
    values = [[1.0, 1.1], [1.2, 1.3], [0.9, 1.0]]
    old_style = {  # format version 5: 'samples', metadata under 'common_metadata'
        "version": 5,
        "benchmarks": [{"common_metadata": {"name": "bm"}, "runs": [{"samples": v} for v in values]}],
    }
    single = {"metadata": {"name": "solo", "unit": "second"}, "runs": [{"warmups": [[1, 2.0]]}]
              + [{"values": v, "warmups": [[1, 5.0]]} for v in values]}
    for doc, name in ((old_style, "bm"), (single, "solo")):
        got = read_benchmarks(write_json(tmp_path / f"{name}.json", doc))
        assert list(got) == [name]
        np.testing.assert_array_equal(got[name].design.data, values)
    bad = write_json(tmp_path / "future.json", {"version": "9.9", "benchmarks": [{"runs": []}]})
    with pytest.raises(ez.InputError, match="version"):
        read_benchmarks(bad)


def _unbalanced(tmp_path):
    doc = json.loads(pyperf_file("mult_list_py36.json").read_text())
    doc["benchmarks"][1]["runs"][5]["values"].pop()  # run 6 (process 5): 2 values
    return write_json(tmp_path / "ragged.json", doc), doc


@needs_pyperf
def test_pyperf_unbalanced_error_names_benchmark_and_counts(tmp_path):
    p, _ = _unbalanced(tmp_path)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    msg = str(err.value)
    assert msg.startswith(f"{p}: benchmark '[1,2]*1000': unbalanced")
    assert "19 processes with 3 values, 1 process with 2 values" in msg
    assert "(shortest: process 5)" in msg and "--balance truncate" in msg


@needs_pyperf
def test_pyperf_truncate_warns_what_it_dropped(tmp_path):
    p, doc = _unbalanced(tmp_path)
    with pytest.warns(ez.EsizeWarning) as rec:
        got = read_benchmarks(p, balance="truncate")
    assert len(rec) == 1
    note = str(rec[0].message)
    assert note.startswith(f"{p}: benchmark '[1,2]*1000': --balance truncate kept the first 2 values")
    assert "19 processes cut, 19 values dropped" in note
    runs = doc["benchmarks"][1]["runs"]
    cut = np.array([r["values"][:2] for r in runs if r.get("values")])
    np.testing.assert_array_equal(got["[1,2]*1000"].design.data, cut)
    assert got["[1]*1000"].design.shape == (20, 3)  # the balanced ones keep everything


def test_pyperf_warmup_and_parse_directly(tmp_path):
    doc = {"metadata": {"name": "b", "unit": "ms"},
           "runs": [{"values": [3.0, 2.0, 1.0]}, {"values": [6.0, 5.0, 4.0]}]}
    assert reader.sniff(doc) and not reader.sniff([doc])
    raw = reader.parse(doc, "f.json")
    assert raw["b"][0] == [[3.0, 2.0, 1.0], [6.0, 5.0, 4.0]]
    assert raw["b"][1].unit == "ms" and raw["b"][1].scale == pytest.approx(1e-3)
    got = read_benchmarks(write_json(tmp_path / "w.json", doc), warmup=1)["b"].design
    np.testing.assert_array_equal(got.data, [[2.0, 1.0], [5.0, 4.0]])
    with pytest.raises(ez.InputError, match="warm-up of 3 leaves no measurements"):
        read_benchmarks(tmp_path / "w.json", warmup=3)
    assert reader.LEVELS == ("process", "value")
    assert reader.NEXT_RUN_OPTIONS == {"process": "--processes", "value": "--values"}


@pytest.mark.parametrize(
    "doc, words",
    [
        ({"benchmarks": []}, "'benchmarks' is empty"),
        ({"benchmarks": [{"metadata": {"name": "bm"}, "runs": [{"warmups": [[1, 1.0]]}]}]},
         "benchmark 'bm': no run has values"),
        ({"benchmarks": [{"metadata": {"name": "bm"}, "runs": [{"values": [1.0, "x"]}]}]},
         "benchmark 'bm': run 1, value 2 holds \"x\", not a number"),
        ({"benchmarks": [{"metadata": {"name": "a"}, "runs": [{"values": [1.0]}] * 2}] * 2},
         "benchmark 'a': appears twice"),
        ({"runs": [{"values": [1.0, -1.0]}, {"values": [1.0, 2.0]}]},
         "1 non-positive value (first at process 1, value 2)"),
    ],
)
def test_pyperf_bad_documents(tmp_path, doc, words):
    p = write_json(tmp_path / "bad.json", doc)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p, "pyperf")
    assert str(err.value).startswith(str(p)) and words in str(err.value)


@pytest.mark.parametrize("values, shown", [(False, "false"), (0, "0"), ({}, "an object"),
                                           (None, "null"), ("1.0", '"1.0"')])
def test_pyperf_values_that_are_not_a_list_are_refused(tmp_path, values, shown):
    # only a missing 'values' (or an empty list) with warm-ups is a calibration run
    runs = [{"values": [1.0, 2.0]}, {"warmups": [[1, 0.5]], "values": values},
            {"values": [1.5, 2.5]}]
    p = write_json(tmp_path / "v.json", {"metadata": {"name": "bm"}, "runs": runs})
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    assert str(err.value) == (
        f"{p}: benchmark 'bm': run 2: 'values' holds {shown}, not a list of numbers")


def test_pyperf_calibration_runs_and_runs_without_anything(tmp_path):
    runs = [{"warmups": [[1, 0.5]]}, {"warmups": [[2, 0.4]], "values": []},
            {"values": [1.0, 2.0]}, {"values": [1.5, 2.5]}]
    p = write_json(tmp_path / "c.json", {"metadata": {"name": "bm"}, "runs": runs})
    np.testing.assert_array_equal(read_benchmarks(p)["bm"].design.data, [[1, 2], [1.5, 2.5]])
    runs[1] = {"values": []}  # neither values nor warm-ups: not something pyperf writes
    p = write_json(tmp_path / "e.json", {"metadata": {"name": "bm"}, "runs": runs})
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    assert str(err.value) == f"{p}: benchmark 'bm': run 2 has neither values nor warm-ups"
