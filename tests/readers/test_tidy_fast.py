"""The tidy reader's pyarrow route against its standard-library route.

Both must give the same designs, caveats, notes and error messages on every table;
the pyarrow route must answer itself (not hand over) on the well-formed tables it is
meant for, CSV and Parquet, and hand over on what it reads differently.
"""

from __future__ import annotations

import gzip
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import esize as ez
from esize.readers import _tidy_arrow as fast
from esize.readers import tidy as reader

from .reader_helpers import run_python, tidy_lines, write_csv
from .tidy_oracle import expected, tidy_tables

pa = pytest.importorskip("pyarrow", reason="the fast route needs pyarrow (parquet extra)")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture(autouse=True, scope="module")
def _small_files_too():
    """The fast route takes CSV files from FAST_MIN_BYTES on; here every file."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fast, "FAST_MIN_BYTES", 0)
        yield


def _slow(*args, **kwargs):
    raise fast._Fallback


def _outcome(path, monkeypatch=None, **kw):
    """``tidy.read`` as data: designs, caveats and notes, or the error message."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        try:
            got = reader.read(path, **kw)
        except ez.InputError as exc:
            return ("error", str(exc))
    notes = [str(w.message) for w in rec if issubclass(w.category, ez.EsizeWarning)]
    return ("read", {n: (b.design.levels, b.design.data.tolist(), b.caveats, b.unobserved)
                     for n, b in got.items()}, notes)


def _both(path, **kw):
    """(pyarrow route, standard-library route) of reading ``path``."""
    fast = _outcome(path, **kw)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "_fast_parse", _slow)
        slow = _outcome(path, **kw)
    return fast, slow


def _answers(path, **kw) -> bool:
    """Whether the pyarrow route reads ``path`` itself."""
    args = {"levels": ("binary", "execution"), "value": "time", "where": (),
            "benchmark_column": None, "balance": None, **kw}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ez.EsizeWarning)
            fast._fast_parse(Path(path), max_bytes=None, **args)
    except fast._Fallback:
        return False
    except ez.InputError:
        return True  # it answered, with an error of the design
    return True


@st.composite
def tables_with_benchmarks(draw):
    """A random tidy table (:func:`tidy_tables`), sometimes with a benchmark column
    splitting its rows in two or three, and a ``--where`` on a constant column."""
    table = draw(tidy_tables())
    names = draw(st.lists(st.sampled_from(["x", "y", "z"]), min_size=len(table.rows),
                          max_size=len(table.rows)))
    split = draw(st.booleans())
    quoted_header = draw(st.booleans())
    header = [*table.levels, "time", "bench", "site"]
    if quoted_header:
        header = [f'"{c}"' for c in header]
    lines = [",".join(header)]
    lines += [",".join([*labels, cell, names[k], "here"])
              for k, (labels, cell) in enumerate(table.rows)]
    return table, "\n".join(lines) + "\n", split


@settings(max_examples=150, deadline=None)
@given(case=tables_with_benchmarks(), truncate=st.booleans(), where=st.booleans(),
       pack=st.sampled_from(["", ".gz"]))
def test_random_tables_read_alike_on_both_routes(case, truncate, where, pack):
    table, text, split = case
    kw = {"levels": list(table.levels), "balance": "truncate" if truncate else None,
          "benchmark_column": "bench" if split else None,
          "where": ["site=here"] if where else []}
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / f"t.csv{pack}"
        p.write_bytes(gzip.compress(text.encode()) if pack else text.encode())
        fast, slow = _both(p, **kw)
        assert fast == slow
        if expected(table, truncate)[0] == "design" and not split:
            # a benchmark-like column left unsplit: the route that checks its names reads
            assert not _answers(p, **kw)


@settings(max_examples=60, deadline=None)
@given(table=tidy_tables(), truncate=st.booleans(), split=st.booleans())
def test_random_parquet_tables_read_alike_on_both_routes(table, truncate, split):
    cells = []
    for _, text in table.rows:
        try:
            cells.append(float(text))
        except ValueError:
            cells.append(None)  # a missing value
    cols = {lev: [labels[k] for labels, _ in table.rows] for k, lev in enumerate(table.levels)}
    cols["time"] = cells
    cols["bench"] = ["x" if k % 3 else "y" for k in range(len(table.rows))]
    kw = {"levels": list(table.levels), "balance": "truncate" if truncate else None,
          "benchmark_column": "bench" if split else None}
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "t.parquet"
        pq.write_table(pa.table(cols), p, row_group_size=max(1, len(cells) // 2))
        fast, slow = _both(p, **kw)
        assert fast == slow


@settings(max_examples=300, deadline=None)
@given(x=st.floats(min_value=2.3e-308, max_value=1e300, allow_nan=False),
       style=st.sampled_from(["repr", ".17g", ".6e", ".3f", "E"]))
def test_values_parse_to_the_same_double(x, style):
    text = {"repr": repr(x), "E": f"{x:.10E}"}.get(style) or format(x, style)
    if float(text) <= 0:
        return  # .3f of a tiny value: zero, refused by both routes alike
    lines = ["binary,execution,time"] + [f"a,{e},{text}" for e in (1, 2) for _ in (1, 2)]
    with tempfile.TemporaryDirectory() as d:
        p = write_csv(Path(d) / "v.csv", lines)
        assert _answers(p, levels=("execution",))
        got = reader.read(p, levels=["execution"])[None].design.data
        assert got.ravel().tolist() == [float(text)] * 4


def test_large_grouped_and_shuffled_tables(tmp_path):
    rng = np.random.default_rng(28)
    data = rng.lognormal(0, 0.1, (4, 5, 300))
    lines = tidy_lines(data)
    for name, body in (("grouped.csv", lines[1:]),
                       ("shuffled.csv", [lines[1:][k] for k in rng.permutation(len(lines) - 1)])):
        p = write_csv(tmp_path / name, [lines[0], *body])
        assert _answers(p)
        fast, slow = _both(p)
        assert fast == slow and fast[0] == "read"
    got = reader.read(tmp_path / "grouped.csv")[None].design.data
    np.testing.assert_array_equal(got, data)


@pytest.mark.parametrize("body, why", [
    ('a,1,"1.5"\na,1,2\nb,1,3\nb,1,4\n', "a quoted cell"),
    ('a,1,1.5\r\na,1,2\rb,1,3\nb,1,4\n', "a lone carriage return"),
    ("a,1,1.5\na,1,2\nb,1,3\nb,1\n", "a short row"),
    ("a,1,1.5\na,1,2\nb,1,3\nb,1,nan\n", "a NaN"),
    ("a,1,1.5\na,1,2\n,1,3\nb,1,4\n", "an empty label"),
])
def test_handed_over_when_pyarrow_would_read_differently(tmp_path, body, why):
    p = tmp_path / "t.csv"
    p.write_text("binary,execution,time\n" + body, newline="")
    assert not _answers(p), why
    fast, slow = _both(p)
    assert fast == slow


@pytest.mark.parametrize("labels", [["a", "a", "", "b"], ["a", "a", None, "b"]])
def test_parquet_missing_label_handed_over(tmp_path, labels):
    p = tmp_path / "t.parquet"
    pq.write_table(pa.table({"binary": labels, "execution": ["1"] * 4,
                             "time": [1.0, 2.0, 3.0, 4.0]}), p)
    assert not _answers(p)
    fast, slow = _both(p)
    assert fast == slow and "grouping column 'binary' has missing labels" in fast[1]


def test_text_after_a_closing_quote_keeps_its_message(tmp_path):
    p = tmp_path / "q.csv"
    p.write_text('binary,execution,time\n"a"b,1,1.5\na,1,2\n')
    fast, slow = _both(p)
    assert fast == slow == ("error", f"{p}: cannot read: line 2: text after the closing "
                            "quote of a field (expected ',' or the end of the line)")


def test_duplicate_header_names_keep_their_message(tmp_path):
    p = write_csv(tmp_path / "d.csv", ["binary,execution,time,time", "a,1,1,2", "a,2,1,2"])
    fast, _ = _both(p)
    assert fast == ("error", f"{p}: cannot read: column 'time' appears twice in the header")


def test_csv_without_pyarrow_is_read_by_the_standard_library(tmp_path):
    p = write_csv(tmp_path / "t.csv", tidy_lines([[[1.0, 2.0], [3.0, 4.0]],
                                                  [[5.0, 6.0], [7.0, 8.5]]]))
    code = (
        "sys.modules['pyarrow'] = None\n"  # import pyarrow now fails
        "import esize.readers as r\n"
        f"print(r.read_benchmarks({str(p)!r})[None].design.data.ravel().tolist())"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.5]"


def test_small_csv_files_take_the_standard_library(tmp_path, monkeypatch):
    p = write_csv(tmp_path / "t.csv", tidy_lines([[[1.0, 2.0], [3.0, 4.0]],
                                                  [[5.0, 6.0], [7.0, 8.5]]]))
    assert _answers(p)
    monkeypatch.setattr(fast, "FAST_MIN_BYTES", p.stat().st_size + 1)
    assert not _answers(p)
