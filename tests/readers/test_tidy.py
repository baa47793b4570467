"""Tidy tables: CSV without pandas, Parquet with pyarrow, and ``esize.from_tidy``,
the one route from a table to a design."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import re
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import esize as ez
from esize._design import tidy_design
from esize.readers import design_from_ragged, detect_format, read_benchmarks
from esize.readers import tidy as reader

from .reader_helpers import run_python, tidy_lines, write_csv
from .tidy_oracle import WORDS, expected, tidy_tables

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
        (b"a,b\n1,2,3\n", "cannot read: line 2 has 3 fields, expected at most 2 (the columns"),
        (b"a,a\n1,2\n", "cannot read: column 'a' appears twice"),
        (b"\xff\xfe\x00\x81binary\xc3\x28,time\n", "cannot read: line 1 holds a NUL byte"),
        (b"binary,execution,time\n", "no rows"),
    ],
)
def test_csv_bad_files(tmp_path, content, words):
    p = tmp_path / "bad.csv"
    p.write_bytes(content)
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p)
    assert str(err.value) == f"{p}: {words}" or str(err.value).startswith(f"{p}: {words}")


def _error(p, **kw) -> str:
    """The message of the InputError that reading ``p`` raises (one line, naming it)."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        with pytest.raises(ez.InputError) as err:
            read_benchmarks(p, **kw)
    msg = str(err.value)
    assert msg.startswith(f"{p}: ") and "\n" not in msg, msg
    assert rec == [], [str(w.message) for w in rec]  # nothing printed before the error
    return msg[len(f"{p}: "):]


def test_large_csv_with_one_bad_value_names_column_and_line(tmp_path):
    data = 1.0 + np.arange(3 * 3 * 20_000, dtype=float).reshape(3, 3, 20_000) % 7
    lines = tidy_lines(data)
    lines[100_000] = lines[100_000].rsplit(",", 1)[0] + ",oops"  # data row 99999, line 100001
    p = write_csv(tmp_path / "large.csv", lines)
    assert _error(p) == "column 'time' has a non-numeric value: line 100001 holds 'oops'"


@pytest.mark.parametrize(
    "text, words",
    [
        # the messages of the csv module are said in terms of the file
        ('binary,time\n1,1\n1,"2\n2,3\n2,4\n',
         "cannot read: a quoted field on line 3 is never closed (a '\"' is missing)"),
        ('binary,time\n1,1\n1,"2"x\n', "cannot read: line 3: text after the closing quote of a "
         "field (expected ',' or the end of the line)"),
        ("binary,time\n1,1\n1,2,5\n", "cannot read: line 3 has 3 fields, expected at most 2 "
         "(the columns of the header; a value with a ',' must be quoted)"),
        ('binary,time\n1,"' + "9" * 200_000 + "\n", "cannot read: a quoted field on line 2 is "
         "never closed"),
        ("binary,time\n1," + "9" * 200_000 + "\n", "cannot read: line 2 holds a field longer"),
    ],
)
def test_csv_syntax_errors_in_our_terms(tmp_path, text, words):
    p = tmp_path / "syntax.csv"
    p.write_text(text)
    msg = _error(p, levels=["binary"])
    assert msg.startswith(words), msg
    assert "Error" not in msg and "field limit" not in msg


@pytest.mark.parametrize(
    "cell, words",
    [
        ("", "column 'time' has a missing value: line 5 is empty"),
        ("  ", "column 'time' has a missing value: line 5 is empty"),
        ("fast", "column 'time' has a non-numeric value: line 5 holds 'fast'"),
        ("2024-03-01", "column 'time' holds dates or times, not measurements: line 5 holds "
         "'2024-03-01'"),
        ("2024-03-01 10:00:02Z", "holds dates or times, not measurements: line 5"),
        ("10:00:02", "holds dates or times, not measurements: line 5"),
        ("03/01/2024", "holds dates or times, not measurements: line 5"),
        ("nan", "column 'time' has a NaN (not-a-number) value: line 5"),
        ("-inf", "column 'time' has an infinite value: line 5 holds '-inf'"),
        ("0", "column 'time' has 1 non-positive value(s) (the first, line 5, holds '0')"),
        ("1e-320", "column 'time': 1 value(s) below 2.23e-308, the smallest normal double"),
    ],
)
def test_bad_cells_name_column_and_line(tmp_path, cell, words):
    lines = tidy_lines(WQE_OLD)
    lines.insert(1, "")  # a blank line: skipped, but it still counts as a line
    lines[4] = lines[4].rsplit(",", 1)[0] + "," + cell  # data row 3, on line 5
    p = write_csv(tmp_path / "cell.csv", lines)
    msg = _error(p)
    assert words in msg and msg.startswith("column 'time'"), msg


def test_datetime_column_of_every_row_is_refused(tmp_path):
    lines = ["binary,time"] + [f"{b},2024-01-0{b}T10:00:0{m}" for b in (1, 2) for m in (1, 2)]
    msg = _error(write_csv(tmp_path / "dates.csv", lines), levels=["binary"])
    assert msg == ("column 'time' holds dates or times, not measurements: line 2 holds "
                   "'2024-01-01T10:00:01' (4 cells of the column are not numbers)")


@pytest.mark.parametrize("kind", ["timestamp", "duration", "bool"])
def test_parquet_time_types_are_refused(tmp_path, kind):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    col = {
        "timestamp": pa.array(np.array(["2024-01-01T10:00", "2024-01-01T10:01"] * 2,
                                       dtype="datetime64[ms]")),
        "duration": pa.array(np.array([5, 6, 7, 8], dtype="timedelta64[ms]")),
        "bool": pa.array([True, True, True, True]),
    }[kind]
    p = tmp_path / f"{kind}.parquet"
    pq.write_table(pa.table({"binary": [1, 1, 2, 2], "time": col}), p)
    msg = _error(p, levels=["binary"])
    assert msg.startswith("column 'time' holds ") and {
        "timestamp": "timestamps", "duration": "durations", "bool": "true/false"}[kind] in msg


def test_parquet_missing_value_names_the_row(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    p = tmp_path / "null.parquet"
    pq.write_table(pa.table({"binary": [1, 1, 2, 2], "time": [1.0, None, 2.0, 3.0]}), p)
    assert _error(p, levels=["binary"]) == "column 'time' has a missing or NaN value: row 2"


def test_missing_label_and_benchmark_name_name_the_line(tmp_path):
    lines = tidy_lines(WQE_OLD, benchmark="x")
    lines[3] = "," + lines[3].split(",", 1)[1]
    p = write_csv(tmp_path / "label.csv", lines)
    assert _error(p) == "grouping column 'binary' has missing labels (line 4 is empty)"
    lines = tidy_lines(WQE_OLD, benchmark="x")
    lines[5] = lines[5].rsplit(",", 1)[0] + ","
    q = write_csv(tmp_path / "name.csv", lines)
    assert _error(q, benchmark_column="benchmark") == (
        "benchmark column 'benchmark' has missing names (line 6 is empty)")


def test_column_names_checked(tmp_path):
    p = write_csv(tmp_path / "t.csv", tidy_lines(WQE_OLD))
    assert _error(p, value="").startswith("the value column's name is empty")
    assert _error(p, value=" ").startswith("the value column's name is empty")
    assert _error(p, value="binary") == "the value column 'binary' is also a --levels column"
    assert _error(p, benchmark_column="time") == (
        "the benchmark column 'time' is also the value column")


def test_tab_separated_by_name_or_by_header(tmp_path):
    text = "\n".join(line.replace(",", "\t") for line in tidy_lines(WQE_OLD)) + "\n"
    for name in ("t.tsv", "t.tsv.gz", "t.txt", "t.csv"):
        p = tmp_path / name
        p.write_bytes(gzip.compress(text.encode()) if name.endswith(".gz") else text.encode())
        np.testing.assert_array_equal(read_benchmarks(p)[None].design.data, WQE_OLD)
    # a .tsv file is tab-separated even when its header holds a comma
    q = tmp_path / "comma.tsv"
    q.write_text("binary\texecution\ttime,s\n1\t1\t2.5\n")
    assert list(reader.read_table(q)) == ["binary", "execution", "time,s"]


def test_corrupt_compression_and_unreadable_files(tmp_path):
    gz = tmp_path / "bad.csv.gz"
    gz.write_bytes(b"\x1f\x8b" + b"garbage" * 10)
    assert _error(gz).startswith("cannot read: corrupt or truncated gzip data (")
    cut = tmp_path / "cut.csv.xz"
    cut.write_bytes(lzma.compress("\n".join(tidy_lines(WQE_OLD)).encode())[:40])
    assert _error(cut).startswith("cannot read: corrupt or truncated xz data (")
    long = tmp_path / ("x" * 300 + ".csv")
    assert _error(long) == "cannot read: file name too long"


# == random tables against an independent oracle ===========================================
@settings(max_examples=200, deadline=None)
@given(table=tidy_tables(), truncate=st.booleans())
def test_random_tables_match_the_oracle(table, truncate):
    want = expected(table, truncate)
    event(f"error: {want[1]}" if want[0] == "error" else f"design: {len(want[2]) - 1} levels")
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "random.csv"
        p.write_text(table.csv_text())
        kw = {"levels": list(table.levels), "balance": "truncate" if truncate else None}
        if want[0] == "design":
            _, flat, shape = want
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ez.EsizeWarning)
                got = read_benchmarks(p, **kw)
            design = got[None].design
            levels = (*table.levels, "measurement")
            assert design.shape == shape
            # highest levels of one unit are dropped with a caveat each, lower ones of
            # one unit per parent silently
            top = len(got[None].caveats)
            assert all(c.startswith(f"a single {lev}:")
                       for c, lev in zip(got[None].caveats, levels))
            assert set(design.levels) <= set(levels[top:]) and design.levels[0] == levels[top]
            assert len(got[None].unobserved) == len(levels) - len(shape)
            assert design.data.ravel().tolist() == flat
        else:
            _, category, line = want
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ez.EsizeWarning)
                with pytest.raises(ez.InputError) as err:
                    read_benchmarks(p, **kw)
            msg = str(err.value)
            assert msg.startswith(f"{p}: ") and "\n" not in msg
            assert WORDS[category] in msg, (category, msg)
            if line is not None:
                assert re.search(rf"\bline {line}\b", msg), (line, msg)


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
        "cut, 5 measurements dropped: 29.4 % of all measurements)"
    ]
    np.testing.assert_array_equal(got[None].design.data, data[..., :2])


def test_non_positive_values_and_warmup(tmp_path):
    p = write_csv(tmp_path / "z.csv", tidy_lines(np.asarray(WQE_OLD) - 5, benchmark="b"))
    with pytest.raises(ez.InputError, match=r"benchmark 'b': column 'time' has 1 non-positive"):
        read_benchmarks(p, benchmark_column="benchmark")
    q = write_csv(tmp_path / "w.csv", tidy_lines(WQE_OLD))
    # one measurement left per execution: the executions become the lowest level
    np.testing.assert_array_equal(read_benchmarks(q, warmup=1)[None].design.data,
                                  np.asarray(WQE_OLD)[..., 1])
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
