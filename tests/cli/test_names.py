"""Shorter benchmark names: a shared prefix said once, long names wrapped."""

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from esize import _names
from esize._names import SEPARATORS, abbreviate, wrap_name

JMH = [
    "org.openjdk.bench.java.util.HashMapBench.put:size=1000,type=HASH_MAP",
    "org.openjdk.bench.java.util.HashMapBench.put:size=10,type=HASH_MAP",
    "org.openjdk.bench.java.util.HashMapBench.get:size=10,type=TREE_MAP",
]
GBENCH = ["BM_Foo/1024/threads:8", "BM_Foo/1024/threads:16", "BM_Foo/64/threads:8"]
PYPERF = ["json_dumps [a=1, b=2]", "json_dumps [a=1, b=3]", "json_dumps [a=10, b=2]"]


def test_the_examples_of_the_docstrings_hold():
    assert doctest.testmod(_names).failed == 0


def test_jmh_names_lose_their_package_and_class():
    prefix, short = abbreviate(JMH)
    assert prefix == "org.openjdk.bench.java.util.HashMapBench."
    assert short == ["put:size=1000,type=HASH_MAP", "put:size=10,type=HASH_MAP",
                     "get:size=10,type=TREE_MAP"]


def test_jmh_parameters_of_one_method_keep_their_keys():
    # the names differ in the value of size: the cut stays before "size=", at the ':'
    prefix, short = abbreviate(JMH[:2])
    assert prefix == "org.openjdk.bench.java.util.HashMapBench.put:"
    assert short == ["size=1000,type=HASH_MAP", "size=10,type=HASH_MAP"]


def test_google_benchmark_names():
    prefix, short = abbreviate(GBENCH)
    assert prefix == "BM_Foo/"
    assert short == ["1024/threads:8", "1024/threads:16", "64/threads:8"]


def test_pyperf_parameters_in_brackets_stay_whole():
    # the common "json_dumps [a=1" must not cut inside the brackets
    prefix, short = abbreviate(PYPERF)
    assert prefix == "json_dumps "
    assert short == ["[a=1, b=2]", "[a=1, b=3]", "[a=10, b=2]"]
    prefix, short = abbreviate(PYPERF[:2])
    assert prefix == "json_dumps "


def test_a_cut_between_parts_is_preferred_to_one_inside_a_word():
    # not "case_": the short names keep their word whole
    names = ["pyperformance.bm_suite.case_007 [n=1000]", "pyperformance.bm_suite.case_012 [n=1000]"]
    assert abbreviate(names) == ("pyperformance.bm_suite.", ["case_007 [n=1000]",
                                                             "case_012 [n=1000]"])
    assert abbreviate(["org.example.ListBench.put_fast", "org.example.ListBench.put_slow"]) == (
        "org.example.ListBench.", ["put_fast", "put_slow"])


def test_the_cut_never_falls_where_the_names_differ():
    # "BM_Foo" is common, but "Foo" and "Foo2" differ after it: cut after "BM_"
    assert abbreviate(["BM_Foo/1", "BM_Foo2/1"]) == ("BM_", ["Foo/1", "Foo2/1"])
    assert abbreviate(["bench_pickle_list", "bench_pickle_dict"]) == (
        "bench_pickle_", ["list", "dict"])
    assert abbreviate(["alpha", "beta"]) == ("", ["alpha", "beta"])


def test_no_name_becomes_empty():
    # all of "a.b." is shared, but removing it would leave nothing of the first name
    assert abbreviate(["a.b.", "a.b.c"]) == ("a.", ["b.", "b.c"])
    assert abbreviate(["x.", "x.y"]) == ("", ["x.", "x.y"])


def test_one_name_or_copies_of_it_keep_everything():
    assert abbreviate(["org.example.Bench.run"]) == ("", ["org.example.Bench.run"])
    assert abbreviate(["a.b", "a.b"]) == ("", ["a.b", "a.b"])
    assert abbreviate([]) == ("", [])


def test_other_objects_are_named_by_their_text():
    assert abbreviate([1, 2]) == ("", ["1", "2"])


names = st.lists(st.text(alphabet="ab./:_ -#,[]=", min_size=1, max_size=12),
                 min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(names)
def test_the_prefix_and_short_names_give_the_names_back(ns):
    prefix, short = abbreviate(ns)
    assert [prefix + s for s in short] == ns
    assert all(short)
    assert prefix == "" or prefix[-1] in SEPARATORS
    # the cut is not inside brackets: every "[" of the prefix is closed in it
    depth = 0
    for ch in prefix:
        depth = depth + 1 if ch == "[" else max(depth - 1, 0) if ch == "]" else depth
    assert depth == 0


def test_a_long_jmh_name_wraps_after_its_separators():
    lines = wrap_name(JMH[0], 40)
    assert lines == ["org.openjdk.bench.java.util.", "HashMapBench.put:size=1000,type=HASH_MAP"]
    lines = wrap_name(JMH[0], 30)
    assert lines == ["org.openjdk.bench.java.util.", "HashMapBench.put:size=1000,",
                     "type=HASH_MAP"]
    assert "".join(lines) == JMH[0]


def test_a_line_ends_between_parts_rather_than_inside_a_word():
    # after "," rather than after the "_" of HASH_MAP, which would fit more
    assert wrap_name("size=1000,type=HASH_MAP", 20) == ["size=1000,", "type=HASH_MAP"]
    # a weak break is taken when the strong one would leave the line too short
    assert wrap_name("a.very_long_identifier_name", 20) == ["a.very_long_", "identifier_name"]


def test_pyperf_parameters_wrap_after_commas():
    name = "json_dumps [alpha=1, beta=2, gamma=3, delta=4]"
    lines = wrap_name(name, 20)
    # no line starts with the space after a comma
    assert lines == ["json_dumps ", "[alpha=1, beta=2, ", "gamma=3, delta=4]"]
    assert "".join(lines) == name


def test_google_benchmark_name_and_double_separators():
    assert wrap_name("BM_Foo/1024/threads:8", 12) == ["BM_Foo/1024/", "threads:8"]
    # "::" is not split in two when it fits
    assert wrap_name("ns::Class::method", 9) == ["ns::", "Class::", "method"]


def test_a_run_without_separator_is_split_hard():
    assert wrap_name("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]


def test_a_short_name_is_one_line():
    assert wrap_name("get", 40) == ["get"]
    assert wrap_name("", 40) == [""]


def test_width_below_one_is_an_error():
    with pytest.raises(ValueError, match="width"):
        wrap_name("abc", 0)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab./:_ -#,[]=()", max_size=80), st.integers(1, 30))
def test_wrapping_keeps_the_text_within_the_width(name, width):
    lines = wrap_name(name, width)
    assert "".join(lines) == name
    assert all(len(line) <= width for line in lines)
    assert all(lines[:-1])  # no empty line but possibly the only one


def test_table_rows_get_continuation_rows_for_long_names():
    from esize._names import wrap_rows

    rows = [(JMH[0], "ns/op", 0.95), ("short", "ns/op", 1.01)]
    out = wrap_rows(rows, 30)
    assert out == [
        ("org.openjdk.bench.java.util.", "ns/op", 0.95),
        ("  HashMapBench.put:size=1000,", "", ""),
        ("  type=HASH_MAP", "", ""),
        ("short", "ns/op", 1.01),
    ]
    assert all(len(r[0]) <= 30 for r in out)
    # nothing of the name is lost
    assert "".join(r[0].strip() for r in out[:3]) == JMH[0]


def test_table_rows_wrap_any_column():
    from esize._names import wrap_rows

    out = wrap_rows([(1, "BM_Foo/1024/threads:8")], 13, column=1, indent="")
    assert out == [(1, "BM_Foo/1024/"), ("", "threads:8")]
    with pytest.raises(ValueError, match="indent"):
        wrap_rows([("a",)], 2)
