"""Tidy tables: CSV without pandas, Parquet with pyarrow, and ``esize.from_tidy``,
the one route from a table to a design."""

from __future__ import annotations

import bz2
import gzip
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import esize as ez
from esize._design import tidy_design
from esize.readers import design_from_ragged, detect_format, read_benchmarks
from esize.readers import tidy as reader

from .reader_helpers import run_python, tidy_lines, write_csv

WQE_OLD = [[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]]
WQE_NEW = [[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]]
L3 = ("binary", "execution", "measurement")


# == reading CSV ==========================================================================
def test_csv_columns_are_text_in_file_order(tmp_path):
    p = write_csv(tmp_path / "t.csv", ["binary,execution,time", "a,1,1.5", "a,2,2", "b,1,3e2"])
    table = reader.read_table(p)
    assert list(table) == ["binary", "execution", "time"]
    assert table["binary"].tolist() == ["a", "a", "b"] and table["time"].dtype.kind == "U"
    assert detect_format(p) == "tidy"


@pytest.mark.parametrize("name, pack", [
    ("t.csv.gz", gzip.compress), ("t.csv.bz2", bz2.compress), ("t.tsv", None), ("t-no-suffix", None)
])
def test_csv_compressed_tab_separated_or_unnamed(tmp_path, name, pack):
    sep = "\t" if name.endswith(".tsv") else ","
    text = "\n".join(line.replace(",", sep) for line in tidy_lines(WQE_OLD)) + "\n"
    p = tmp_path / name
    p.write_bytes(pack(text.encode()) if pack else text.encode())
    assert detect_format(p) == "tidy"
    (design, unit), = read_benchmarks(p).values()
    np.testing.assert_array_equal(design.data, WQE_OLD)
    assert design.levels == L3 and unit == ez.readers.UnitInfo()


def test_csv_blank_lines_bom_and_short_rows(tmp_path):
    p = tmp_path / "t.csv"
    p.write_bytes("\ufeffbinary,time,extra\n\n1,1.0,x\n1,2.0\n2,3.0,y\n2,4.0,\n".encode())
    table = reader.read_table(p)
    assert list(table) == ["binary", "time", "extra"]
    assert table["extra"].tolist() == ["x", "", "y", ""]
    d = ez.from_tidy(table, ["binary"])
    np.testing.assert_array_equal(d.data, [[1, 2], [3, 4]])


@pytest.mark.parametrize(
    "content, words",
    [
        (b"", "cannot read: the file is empty"),
        (b"a,b\n1,2,3\n", "cannot read: data row 1 has 3 fields, the header 2"),
        (b"a,a\n1,2\n", "cannot read: column 'a' appears twice"),
        (b"\xff\xfe\x00\x81binary\xc3\x28,time\n", "cannot read: not UTF-8 text"),
        (b"binary,execution,time\n", "no rows"),
    ],
)
def test_csv_bad_files(tmp_path, content, words):
    p = tmp_path / "bad.csv"
    p.write_bytes(content)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    assert str(err.value) == f"{p}: {words}" or str(err.value).startswith(f"{p}: {words}")


def test_csv_without_pandas_in_a_fresh_interpreter(tmp_path):
    p = write_csv(tmp_path / "t.csv", tidy_lines(WQE_OLD))
    code = (
        "sys.modules['pandas'] = None\n"  # import pandas now fails
        "import json, esize, esize.readers as r\n"
        f"b = r.read_benchmarks({str(p)!r})[None]\n"
        "d = esize.from_tidy(r.tidy.read_table(" + repr(str(p)) + "), ['binary', 'execution'])\n"
        "print(json.dumps([b.design.data.tolist(), d.data.tolist(), 'pandas' in sys.modules"
        " and sys.modules['pandas'] is not None]))"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    got, direct, loaded = json.loads(done.stdout)
    assert got == direct == WQE_OLD and loaded is False


# == Parquet ==============================================================================
def test_parquet_with_pyarrow(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    y = np.asarray(WQE_NEW, dtype=float)
    idx = np.indices(y.shape).reshape(3, -1)
    t = pa.table({"binary": [f"b{i}" for i in idx[0]], "execution": idx[1] + 1, "time": y.ravel()})
    p = tmp_path / "t.parquet"
    pq.write_table(t, p)
    table = reader.read_table(p)
    assert table["execution"].dtype.kind == "i" and table["time"].dtype.kind == "f"
    (design, _), = read_benchmarks(p).values()
    np.testing.assert_array_equal(design.data, y)
    with pytest.raises(ez.InputError, match="cannot read"):
        (tmp_path / "junk.parquet").write_bytes(b"PAR1 not parquet \x00")
        read_benchmarks(tmp_path / "junk.parquet")


def test_parquet_without_pyarrow_says_what_to_install(tmp_path):
    p = tmp_path / "t.parquet"
    p.write_bytes(b"PAR1")
    code = (
        "sys.modules['pyarrow'] = None; sys.modules['pyarrow.parquet'] = None\n"
        "from esize.readers import read_benchmarks\n"
        f"try:\n    read_benchmarks({str(p)!r})\n"
        "except Exception as exc:\n    print(type(exc).__name__, exc)"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"InputError {p}: reading Parquet needs pyarrow: pip install 'esize[parquet]'"


# == options ==============================================================================
def _two_benchmarks(tmp_path):
    lines = tidy_lines(WQE_OLD, benchmark="x") + tidy_lines(WQE_NEW, benchmark="y")[1:]
    return write_csv(tmp_path / "two.csv", lines)


def test_benchmark_column_and_where(tmp_path):
    p = _two_benchmarks(tmp_path)
    got = read_benchmarks(p, benchmark_column="benchmark")
    assert list(got) == ["x", "y"]
    np.testing.assert_array_equal(got["x"].design.data, WQE_OLD)
    np.testing.assert_array_equal(got["y"].design.data, WQE_NEW)
    only = read_benchmarks(p, where=["benchmark=y", "binary=2"], levels=["execution"])
    np.testing.assert_array_equal(only[None].design.data, WQE_NEW[1])
    for kw, words in (
        ({"benchmark_column": "nope"}, "no benchmark column 'nope'; columns are"),
        ({"benchmark_column": "binary"}, "the benchmark column 'binary' is also a --levels column"),
        ({"where": ["benchmark=z"]}, "no rows left after --where benchmark=z"),
        ({"where": ["benchmark"]}, "--where 'benchmark' is not of the form COL=VALUE"),
        ({"where": ["nope=1"]}, "--where names unknown column 'nope'"),
        ({"value": "nope"}, "missing column(s) 'nope'"),
    ):
        with pytest.raises(ez.InputError) as err:
            read_benchmarks(p, **kw)
        assert str(err.value).startswith(f"{p}: {words}"), err.value


def test_unbalanced_table_error_and_truncate_warnings(tmp_path):
    data = 10.0 + np.arange(18.0).reshape(3, 2, 3) % 7
    p = write_csv(tmp_path / "short.csv", tidy_lines(data)[:-1])  # binary 3, execution 2 loses one
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    assert str(err.value) == (
        f"{p}: unbalanced design: each 'execution' group should have the same number of "
        "measurements, found between 2 and 3; use --balance truncate to keep the first "
        "units of every group"
    )
    with pytest.warns(ez.EsizeWarning) as rec:
        got = read_benchmarks(p, balance="truncate")
    assert [str(w.message) for w in rec] == [
        f"{p}: --balance truncate kept the first 2 measurements of every execution "
        "(5 executions with 3 measurements, 1 execution with 2 measurements; 5 executions "
        "cut, 5 measurements dropped)"
    ]
    np.testing.assert_array_equal(got[None].design.data, data[..., :2])


def test_non_positive_values_and_warmup(tmp_path):
    p = write_csv(tmp_path / "z.csv", tidy_lines(np.asarray(WQE_OLD) - 5, benchmark="b"))
    with pytest.raises(ez.InputError, match=r"benchmark 'b': column 'time' has 1 non-positive"):
        read_benchmarks(p, benchmark_column="benchmark")
    q = write_csv(tmp_path / "w.csv", tidy_lines(WQE_OLD))
    np.testing.assert_array_equal(read_benchmarks(q, warmup=1)[None].design.data,
                                  np.asarray(WQE_OLD)[..., 1:])
    with pytest.raises(ez.InputError, match="warm-up of 2 leaves no measurements"):
        read_benchmarks(q, warmup=2)


# == from_tidy ==============================================================================
def test_round_trip_and_row_order():
    y = np.arange(24, dtype=float).reshape(2, 3, 4) + 1
    d = ez.Design(y, ("binary", "execution", "measurement"))
    frame = d.to_frame()
    # shuffle rows across groups but keep the order inside each execution
    rng = np.random.default_rng(0)
    groups = [g for _, g in frame.groupby(["binary", "execution"])]
    shuffled = pd.concat([groups[k] for k in rng.permutation(len(groups))])
    back = ez.from_tidy(shuffled, ["binary", "execution"])
    assert back.shape == (2, 3, 4)
    # units are numbered by first appearance, so compare the multiset of executions
    rows = sorted(map(tuple, back.data.reshape(-1, 4)))
    assert rows == sorted(map(tuple, y.reshape(-1, 4)))
    assert ez.s2(back) == pytest.approx(ez.s2(d))
    # a mapping of numpy arrays gives the same design as the DataFrame
    as_dict = {c: shuffled[c].to_numpy() for c in shuffled.columns}
    np.testing.assert_array_equal(ez.from_tidy(as_dict, ["binary", "execution"]).data, back.data)


def test_labels_are_local_to_parent_and_numbered_by_first_appearance():
    table = {"binary": np.array(["b"] * 4 + ["a"] * 4),
             "execution": np.array([2, 2, 1, 1] * 2), "time": np.arange(1, 9.0)}
    d = ez.from_tidy(table, ["binary", "execution"])
    assert d.shape == (2, 2, 2)
    np.testing.assert_array_equal(d.data, [[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
    # labels of mixed types that do not sort still group
    mixed = dict(table, binary=np.array([1, 1, 1, 1, "a", "a", "a", "a"], dtype=object))
    np.testing.assert_array_equal(ez.from_tidy(mixed, ["binary", "execution"]).data, d.data)


@pytest.mark.parametrize(
    "table, message",
    [
        ({"binary": [1, 1, 1, 2, 2], "time": [1.0] * 5},
         "unbalanced design: each 'binary' group should have the same number of measurements, "
         "found between 2 and 3"),
        ({"binary": [1, 1, 1, 2, 2, 2], "execution": [1, 1, 2, 1, 1, 1], "time": [1.0] * 6},
         "unbalanced design: each 'binary' should have the same number of 'execution' units, "
         "found between 1 and 2"),
        ({"binary": [1, 2], "time": [1.0, float("nan")]},
         "column 'time' has 1 missing, non-numeric, NaN or infinite value(s) (first in data row 2)"),
        ({"binary": [1, 2], "time": ["x", "1"]}, "non-numeric"),
        ({"binary": [1, 2], "t": [1.0, 2.0]}, "missing column(s) 'time'; columns are ['binary', 't']"),
        ({"binary": [1.0, float("nan")], "time": [1.0, 2.0]}, "grouping column 'binary' has missing labels"),
        ({"binary": np.array(["a", ""]), "time": [1.0, 2.0]}, "grouping column 'binary' has missing labels"),
        ({"binary": np.array(["a", None], dtype=object), "time": [1.0, 2.0]}, "missing labels"),
        ({"binary": np.array([], dtype=str), "time": np.array([], dtype=str)}, "no rows"),
    ],
)
def test_bad_tidy_input(table, message):
    table = {k: np.asarray(v) for k, v in table.items()}
    levels = [c for c in ("binary", "execution") if c in table]
    with pytest.raises(ez.DesignError) as err:
        ez.from_tidy(table, levels)
    assert message in str(err.value)
    frame = pd.DataFrame(table)  # the same from a DataFrame
    with pytest.raises(ez.DesignError, match="no rows|unbalanced|missing|non-numeric|NaN"):
        ez.from_tidy(frame, levels)


def test_from_tidy_lowest_name_clash():
    with pytest.raises(ez.DesignError, match="lowest level name 'binary' is also a grouping column"):
        ez.from_tidy({"binary": np.ones(2), "time": np.ones(2)}, ["binary"], lowest="binary")


# == one route: the table and the nested lists agree ==========================================
ragged = st.lists(  # binaries -> executions -> measurements, possibly ragged
    st.lists(st.lists(st.integers(1, 50), min_size=1, max_size=4), min_size=1, max_size=3),
    min_size=1,
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(ragged)
def test_table_truncate_equals_ragged_truncate(units):
    rows = [(b, e, float(v)) for b, ex in enumerate(units, 1)
            for e, ms in enumerate(ex, 1) for v in ms]
    table = {"binary": np.array([r[0] for r in rows]),
             "execution": np.array([r[1] for r in rows]),
             "time": np.array([r[2] for r in rows])}
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        want = design_from_ragged(units, L3, balance="truncate", source="f")
    design, cuts = tidy_design(table, ["binary", "execution"], truncate=True)
    np.testing.assert_array_equal(design.data, want.data)
    assert len(cuts) == len(rec)
    for cut, w in zip(cuts, rec):
        assert f"kept the first {cut.kept} " in str(w.message)
        assert f", {cut.dropped} measurement" in str(w.message)
    balanced = not cuts
    try:
        ez.from_tidy(table, ["binary", "execution"])
    except ez.DesignError as exc:
        assert not balanced and str(exc).startswith("unbalanced design")
    else:
        assert balanced
