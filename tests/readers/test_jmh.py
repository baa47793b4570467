"""JMH result files (-rf json): the hand-made documents of ``harness_data.py``."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import esize as ez
from esize.readers import jmh as reader
from esize.readers import read_benchmarks
from harness_data import jmh_results

from .reader_helpers import FI, write_json


def test_jmh_names_units_and_designs(harness):
    got = read_benchmarks(harness["jmh-old"])
    doc = jmh_results("old")
    assert list(got) == [
        "org.example.ListBench.add:size=10",
        "org.example.ListBench.add:size=1000",
        "org.example.ListBench.get",
        "org.example.ListBench.iterate",
    ]
    add = got["org.example.ListBench.add:size=10"]
    assert add.unit.lower_is_better is False and add.unit.kind == "rate"
    assert add.design.levels == FI
    np.testing.assert_array_equal(add.design.data, doc[0]["primaryMetric"]["rawData"])
    assert got["org.example.ListBench.get"].unit.lower_is_better is True
    # sample mode: each iteration is the count-weighted mean of its histogram
    hist = doc[3]["primaryMetric"]["rawDataHistogram"]
    want = [[sum(v * c for v, c in it) / sum(c for _, c in it) for it in fork] for fork in hist]
    np.testing.assert_allclose(got["org.example.ListBench.iterate"].design.data, want, rtol=1e-12)


def test_jmh_modes_and_params_make_distinct_names(tmp_path):
    doc = jmh_results("old")
    twin = copy.deepcopy(doc[2])
    twin["mode"] = "ss"
    p = write_json(tmp_path / "modes.json", [doc[2], twin, doc[0]])
    assert list(read_benchmarks(p)) == [
        "org.example.ListBench.get [avgt]",
        "org.example.ListBench.get [ss]",
        "org.example.ListBench.add:size=10",
    ]
    with pytest.raises(ez.InputError, match="twice"):
        read_benchmarks(write_json(tmp_path / "dup.json", [doc[2], doc[2]]))


def test_jmh_ragged_forks_error_and_truncate(tmp_path):
    doc = jmh_results("old")
    doc[2]["primaryMetric"]["rawData"][1].pop()  # fork 2 of 'get' has 4 iterations
    p = write_json(tmp_path / "ragged-jmh.json", doc)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    msg = str(err.value)
    assert "benchmark 'org.example.ListBench.get': unbalanced" in msg
    assert "2 forks with 5 iterations, 1 fork with 4 iterations (shortest: fork 2)" in msg
    with pytest.warns(ez.EsizeWarning, match="kept the first 4 iterations of every fork") as rec:
        got = read_benchmarks(p, balance="truncate")
    assert "2 forks cut, 2 iterations dropped" in str(rec[0].message)
    raw = doc[2]["primaryMetric"]["rawData"]
    np.testing.assert_array_equal(got["org.example.ListBench.get"].design.data, [f[:4] for f in raw])


def test_histogram_mean_and_its_errors():
    assert reader.histogram_mean([[1.0, 1], [4.0, 3]], "f", "b", "fork 1") == pytest.approx(3.25)
    with pytest.raises(ez.InputError, match="the count -1.0; counts are whole numbers"):
        reader.histogram_mean([[1.0, -1], [4.0, 3]], "f", "b", "fork 1")
    with pytest.raises(ez.InputError, match="the count 0.5; counts are whole numbers"):
        reader.histogram_mean([[1.0, 0.5], [4.0, 3]], "f", "b", "fork 1")
    # a bin value is a measurement: checked as rawData's values are (the weighted mean
    # of [-1 x 1, 4 x 3] would be a positive 2.75 and pass unnoticed)
    for bad in (-1.0, 0.0):
        with pytest.raises(ez.InputError, match=f"the value {bad!r}; times and rates must be"):
            reader.histogram_mean([[bad, 1], [4.0, 3]], "f", "b", "fork 1")
    with pytest.raises(ez.InputError, match="holds no samples"):
        reader.histogram_mean([[1.0, 0]], "f", "b", "fork 1")
    with pytest.raises(ez.InputError, match=r"\[value, count\] pairs"):
        reader.histogram_mean([[1.0, 2, 3]], "f", "b", "fork 1")


def test_jmh_sniff_and_options():
    assert reader.sniff(jmh_results("old"))
    assert not reader.sniff([]) and not reader.sniff({"primaryMetric": {}})
    assert reader.LEVELS == FI and reader.NEXT_RUN_OPTIONS == {"fork": "-f", "iteration": "-i"}


@pytest.mark.parametrize(
    "doc, words",
    [
        ([], "the JMH result array is empty"),
        ([{"mode": "avgt"}], "result #1 has no 'benchmark' name"),
        ([{"benchmark": "a.B.m", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op",
          "rawData": [[1.0, "fast"], [1.0, 2.0]]}}], "fork 1, value 2 holds \"fast\", not a number"),
        ([{"benchmark": "a.B.m", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op",
          "score": 3.0}}], "benchmark 'a.B.m': no 'rawData' or 'rawDataHistogram'"),
        ([{"benchmark": "a.B.m", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op",
          "rawData": [[1.0, -2.0], [1.0, 2.0]]}}], "non-positive value (first at fork 1, iteration 2)"),
        ([{"benchmark": "a.B.m", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op",
          "rawData": [[1.0, 2.0], []]}}], "benchmark 'a.B.m': fork 2 has no iterations"),
    ],
)
def test_jmh_bad_documents(tmp_path, doc, words):
    p = write_json(tmp_path / "bad.json", doc)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p, "jmh")
    assert str(err.value).startswith(str(p)) and words in str(err.value)
