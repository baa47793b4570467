"""Pairing the benchmarks of two files, aligning a pair, and next-run options."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import esize as ez
from esize.readers import (
    HARNESS_LEVELS,
    Benchmark,
    Matching,
    UnitInfo,
    align_pair,
    match_benchmarks,
    next_run_options,
    unit_info,
)

NS = unit_info("ns/op")


def bench(data, levels=("fork", "iteration"), unit=NS) -> Benchmark:
    return Benchmark(ez.Design(np.asarray(data, dtype=float), levels), unit)


A = bench([[1, 2], [3, 4]])
B = bench([[2, 3], [4, 5]])


def test_single_benchmark_files_pair_whatever_their_names():
    m = match_benchmarks({"old-cmd": A}, {"new-cmd": B})
    assert m == Matching([("old-cmd", "new-cmd", A, B)], [], [])
    with pytest.raises(ez.InputError, match="no benchmark matches"):
        match_benchmarks({"old-cmd": A}, {"new-cmd": B}, ["old-cmd"])


def test_names_in_one_file_warn_and_are_listed():
    old, new = {"x": A, "y": A}, {"z": B, "x": B}
    with pytest.warns(ez.EsizeWarning) as rec:
        m = match_benchmarks(old, new, old_source="o.json", new_source="n.json")
    assert m.pairs == [("x", "x", A, B)] and m.only_old == ["y"] and m.only_new == ["z"]
    assert [str(w.message) for w in rec] == [
        "only in o.json, not compared: y",
        "only in n.json, not compared: z",
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # wanted names in both files: no warning
        assert match_benchmarks(old, new, ["x", "x"]).pairs == [("x", "x", A, B)]


def test_matching_errors_name_the_files():
    with pytest.raises(ez.InputError) as err:
        match_benchmarks({"x": A, "y": A}, {"x": B}, ["nope"], old_source="o", new_source="n")
    assert str(err.value) == "o: benchmark 'nope': in neither file; o has x, y"
    many = {f"b{k}": A for k in range(10)}
    with pytest.raises(ez.InputError) as err:
        match_benchmarks(many, {"c": B, "d": B}, old_source="o", new_source="n")
    assert str(err.value) == (
        "n: no benchmark matches one in o (old: b0, b1, b2, b3, b4, b5, b6, b7 and 2 more; "
        "new: c, d)"
    )


def align(bo, bn, **kw):
    return align_pair(bo, bn, name="b", new_name="b", old_source="o", new_source="n", **kw)


def test_align_converts_units_with_a_warning():
    us = bench([[0.002, 0.003], [0.004, 0.005]], unit=unit_info("us/op"))
    with pytest.warns(ez.EsizeWarning, match="^n: benchmark 'b': values converted from us/op to ns/op$"):
        old, new = align(A, us)
    np.testing.assert_allclose(new.data, B.design.data, rtol=1e-12)
    assert old is A.design
    tidy = bench([[2, 3], [4, 5]], unit=UnitInfo())  # no unit: taken to be the other's
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert align(A, tidy)[1] is tidy.design


def test_align_refuses_what_cannot_be_compared():
    rate = bench([[1, 2], [3, 4]], unit=unit_info("ops/us"))
    with pytest.raises(ez.InputError, match="ops/us \\(higher is better\\) cannot be compared with "
                                            "ns/op \\(lower is better\\) in o"):
        align(A, rate)
    odd = bench([[1, 2], [3, 4]], unit=UnitInfo("widgets", True, "other", None))
    with pytest.raises(ez.InputError, match="unit 'widgets' cannot be converted to 'ns/op' of o"):
        align(A, odd)
    one = bench([[1, 2]])
    with pytest.raises(ez.InputError) as err:
        align(one, bench([[2, 3]]))
    assert str(err.value) == "o: benchmark 'b': level 'fork' has 1 unit(s); at least 2 needed"


def test_align_keeps_different_designs_as_they_are():
    """Each system's variance comes from its own top-level units: designs that differ
    in counts or even in levels are compared as they are, never cut to a common shape
    (which once kept the first 3 of 250 PyPy values per process: its warm-up)."""
    big = bench([[2, 3, 9], [4, 5, 9], [6, 7, 9]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        old, new = align(A, big)
        assert old is A.design and new is big.design
        flat = bench([1, 2, 3, 4, 5], levels=("iteration",))
        assert align(A, flat)[1] is flat.design
    with pytest.raises(ez.InputError) as err:
        align(A, bench([[1, 2, 3]]))
    assert str(err.value) == "n: benchmark 'b': level 'fork' has 1 unit(s); at least 2 needed"


@pytest.mark.parametrize(
    "fmt, counts, want",
    [
        ("pyperf", {"process": 20, "value": 3}, "--processes 20 --values 3"),
        ("pyperf", {"value": 3}, "--values 3"),
        ("jmh", {"iteration": 10, "fork": 5}, "-f 5 -i 10"),
        ("gbench", {"repetition": 10}, "--benchmark_repetitions=10"),
        ("hyperfine", {"run": 20}, "--runs 20"),
        ("hyperfine", {}, None),
        ("tidy", {"binary": 3}, None),
        ("nope", {"run": 3}, None),
    ],
)
def test_next_run_options(fmt, counts, want):
    assert next_run_options(fmt, counts) == want


def test_harness_levels():
    assert HARNESS_LEVELS == {"pyperf": ("process", "value"), "jmh": ("fork", "iteration"),
                              "gbench": ("repetition",), "hyperfine": ("run",),
                              "benchmarkdotnet": ("launch", "iteration"), "asv": ("sample",),
                              "julia": ("sample",), "gotest": ("process", "run"),
                              "pytest-benchmark": ("round",), "criterion": ("sample",)}
