"""``esize compare`` (:mod:`esize.cli.compare`): Fieller and bootstrap intervals for
the ratio of means, verdicts, bootstrap options, and the progress bar."""

from __future__ import annotations

import contextlib
import io
import json
import sys

import pandas as pd
import pytest

from .helpers import (
    WE_DATA,
    WQE_NEW,
    WQE_OLD,
    assert_one_line_error,
    cli,
    cli_json,
    synthetic_pair,
    tidy,
    write_csv,
)


def test_compare_wqe_fieller_bootstrap_verdict(wqe, capsys):
    old, new = wqe
    out = cli_json(
        ["compare", old, new, "--seed", "12345", "--resamples", "500", "--threshold", "0.02"],
        capsys,
    )
    assert out["ratio"] == pytest.approx(6.5 / 10.5, rel=1e-12)
    assert out["old"]["mean"] == pytest.approx(10.5)
    assert out["new"]["mean"] == pytest.approx(6.5)
    assert out["alpha"] == 0.05
    assert out["threshold"] == 0.02
    f = out["fieller"]
    assert f["bounded"] is True
    assert round(f["lower"], 4) == 0.1098
    assert round(f["upper"], 4) == 1.7253
    b = out["bootstrap"]
    assert b["seed"] == 12345
    assert b["resamples"] == 500
    assert b["scheme"] == "RRR"
    assert isinstance(b["lower"], float) and isinstance(b["upper"], float)
    assert b["lower"] <= out["ratio"] <= b["upper"]
    assert out["verdict"] == "inconclusive"


def test_compare_json_keys_and_types(wqe, capsys):
    old, new = wqe
    out = cli_json(["compare", old, new, "--seed", "3", "--resamples", "300"], capsys)
    assert set(out) >= {
        "ratio",
        "old",
        "new",
        "alpha",
        "threshold",
        "fieller",
        "bootstrap",
        "verdict",
    }
    for k in ("ratio", "alpha", "threshold"):
        assert isinstance(out[k], float)
    assert isinstance(out["old"]["mean"], float)
    assert isinstance(out["new"]["mean"], float)
    f = out["fieller"]
    assert set(f) >= {"lower", "upper", "bounded"}
    assert isinstance(f["bounded"], bool)
    assert isinstance(f["lower"], float) and isinstance(f["upper"], float)
    b = out["bootstrap"]
    assert set(b) >= {"lower", "upper", "scheme", "resamples", "seed"}
    assert isinstance(b["lower"], float) and isinstance(b["upper"], float)
    assert isinstance(b["scheme"], str)
    assert type(b["resamples"]) is int and type(b["seed"]) is int
    assert out["verdict"] in ("faster", "slower", "same", "inconclusive")


def test_where_on_compare(tmp_path, capsys):
    o = pd.concat([tidy(WQE_OLD, benchmark="x"), tidy(WE_DATA, benchmark="y")])
    n = pd.concat([tidy(WQE_NEW, benchmark="x"), tidy(WE_DATA, benchmark="y")])
    po, pn = write_csv(tmp_path / "o.csv", o), write_csv(tmp_path / "n.csv", n)
    out = cli_json(["compare", po, pn, "--where", "benchmark=x", "--method", "fieller"], capsys)
    assert out["ratio"] == pytest.approx(6.5 / 10.5)
    assert round(out["fieller"]["lower"], 4) == 0.1098


def test_parquet_compare_equals_csv(tmp_path, capsys):
    o, n = tidy(WQE_OLD), tidy(WQE_NEW)
    o.to_parquet(tmp_path / "o.parquet", index=False)
    n.to_parquet(tmp_path / "n.parquet", index=False)
    write_csv(tmp_path / "o.csv", o), write_csv(tmp_path / "n.csv", n)
    args = ["--seed", "9", "--resamples", "300"]
    a = cli_json(["compare", tmp_path / "o.csv", tmp_path / "n.csv", *args], capsys)
    b = cli_json(["compare", tmp_path / "o.parquet", tmp_path / "n.parquet", *args], capsys)
    a.pop("files", None), b.pop("files", None)
    assert a == b


def test_compare_normal_fieller_narrower(wqe, capsys):
    t = cli_json(["compare", *wqe, "--method", "fieller"], capsys)
    z = cli_json(["compare", *wqe, "--method", "fieller", "--normal"], capsys)
    assert z["fieller"]["lower"] > t["fieller"]["lower"]
    assert z["fieller"]["upper"] < t["fieller"]["upper"]


def test_method_fieller_omits_bootstrap(wqe, capsys):
    out = cli_json(["compare", *wqe, "--method", "fieller"], capsys)
    assert "fieller" in out and "bootstrap" not in out


def test_method_bootstrap_omits_fieller(wqe, capsys):
    out = cli_json(
        ["compare", *wqe, "--method", "bootstrap", "--seed", "1", "--resamples", "300"], capsys
    )
    assert "bootstrap" in out and "fieller" not in out
    assert out["bootstrap"]["resamples"] == 300


def test_bootstrap_seed_reproducible(wqe, capsys):
    args = ["compare", *wqe, "--method", "bootstrap", "--resamples", "500"]
    a = cli_json([*args, "--seed", "42"], capsys)
    b = cli_json([*args, "--seed", "42"], capsys)
    c = cli_json([*args, "--seed", "43"], capsys)
    assert a["bootstrap"] == b["bootstrap"]
    assert (a["bootstrap"]["lower"], a["bootstrap"]["upper"]) != (
        c["bootstrap"]["lower"],
        c["bootstrap"]["upper"],
    )


def test_bootstrap_fresh_seed_is_reported_and_reusable(wqe, capsys):
    args = ["compare", *wqe, "--method", "bootstrap", "--resamples", "300"]
    a = cli_json(args, capsys)
    seed = a["bootstrap"]["seed"]
    assert type(seed) is int and seed >= 0
    b = cli_json([*args, "--seed", seed], capsys)
    assert b["bootstrap"] == a["bootstrap"]


def test_bootstrap_scheme_option(wqe, capsys):
    out = cli_json(
        [
            "compare",
            *wqe,
            "--method",
            "bootstrap",
            "--scheme",
            "rnr",
            "--seed",
            "1",
            "--resamples",
            "200",
        ],
        capsys,
    )
    assert out["bootstrap"]["scheme"] == "RNR"
    out = cli_json(
        [
            "compare",
            *wqe,
            "--method",
            "bootstrap",
            "--scheme",
            "FLAT",
            "--seed",
            "1",
            "--resamples",
            "200",
        ],
        capsys,
    )
    assert out["bootstrap"]["scheme"] == "FLAT"


@pytest.mark.parametrize(
    "factor, threshold, expected",
    [(0.8, 0.02, "faster"), (1.25, 0.02, "slower"), (1.001, 0.5, "same")],
)
@pytest.mark.parametrize("method", ["both", "bootstrap"])
def test_verdicts(tmp_path, capsys, factor, threshold, expected, method):
    old, new = synthetic_pair(factor)
    po, pn = write_csv(tmp_path / "old.csv", old), write_csv(tmp_path / "new.csv", new)
    out = cli_json(
        [
            "compare",
            po,
            pn,
            "--method",
            method,
            "--threshold",
            threshold,
            "--seed",
            "11",
            "--resamples",
            "1000",
        ],
        capsys,
    )
    assert out["ratio"] == pytest.approx(factor, rel=0.01)
    assert out["verdict"] == expected
    if method == "both":
        assert out["fieller"]["bounded"] is True
        assert out["fieller"]["lower"] < out["ratio"] < out["fieller"]["upper"]


def test_tiny_change_zero_threshold_is_not_same(tmp_path, capsys):
    old, new = synthetic_pair(1.001)
    po, pn = write_csv(tmp_path / "old.csv", old), write_csv(tmp_path / "new.csv", new)
    out = cli_json(["compare", po, pn, "--method", "fieller", "--threshold", "0"], capsys)
    assert out["verdict"] != "same"


def test_one_binary_compare(tmp_path, capsys):
    o = write_csv(tmp_path / "one_old.csv", WQE_OLD[:1])
    n = write_csv(tmp_path / "one_new.csv", WQE_NEW[:1])
    assert_one_line_error(
        *cli(["compare", o, n, "--seed", "1", "--resamples", "200"], capsys),
        file=o,
        words=["at least 2", "unit"],
    )


def test_compare_differing_designs(tmp_path, capsys):
    o = write_csv(tmp_path / "old3.csv", WQE_OLD)
    n = write_csv(tmp_path / "new4.csv", [*WQE_NEW, WQE_NEW[0]])  # 4 x 2 x 2
    line = assert_one_line_error(
        *cli(["compare", o, n, "--seed", "1", "--resamples", "200"], capsys),
        file=n,
        words=["differs", "design"],
    )
    assert "old3.csv" in line


def test_compare_bad_old_file_named(tmp_path, capsys):
    o = tmp_path / "absent_old.csv"
    n = write_csv(tmp_path / "new.csv", WQE_NEW)
    assert_one_line_error(*cli(["compare", o, n], capsys), file=o, words=["no such file"])


@pytest.mark.parametrize("threshold", ["1", "1.5", "-0.01", "abc", "nan", "inf"])
def test_bad_threshold(wqe, capsys, threshold):
    assert_one_line_error(
        *cli(["compare", *wqe, "--threshold", threshold], capsys), words=["threshold"]
    )


@pytest.mark.parametrize("scheme", ["RRX", "RR", "RRRR", "flatten", "R-R"])
def test_bad_scheme(wqe, capsys, scheme):
    assert_one_line_error(
        *cli(["compare", *wqe, "--scheme", scheme, "--seed", "1", "--resamples", "200"], capsys),
        words=["scheme"],
    )


@pytest.mark.parametrize(
    "opts, words",
    [
        (["--resamples", "0"], ["resamples"]),
        (["--resamples", "ten"], ["resamples"]),
        (["--seed", "-1"], ["seed"]),
        (["--method", "magic"], ["method"]),
        (["--warmup", "-1"], ["warmup"]),
        (["--levels", ","], ["levels"]),
        (["--bogus"], ["unrecognized", "bogus"]),
    ],
)
def test_bad_compare_options(wqe, capsys, opts, words):
    assert_one_line_error(*cli(["compare", *wqe, *opts], capsys), words=words)


def test_scheme_that_resamples_nothing_is_rejected(tmp_path, capsys):
    write_csv(tmp_path / "old.csv", WQE_OLD)
    write_csv(tmp_path / "new.csv", WQE_NEW)
    for scheme in ("NNN", ""):
        assert_one_line_error(
            *cli(["compare", str(tmp_path / "old.csv"), str(tmp_path / "new.csv"), "--scheme", scheme], capsys),
            words=["scheme"],
        )


# == result objects ==================================================================
def test_compare_result_json_keys(wqe, tmp_path, capsys):
    from esize.cli import build_parser
    from esize.cli.compare import CompareResult, CompareRow, compare

    argv = ["compare", *map(str, wqe), "--seed", "4", "--resamples", "200"]
    result = compare(build_parser().parse_args(argv))
    assert isinstance(result, CompareResult) and isinstance(result.rows[0], CompareRow)
    doc = result.to_json()
    assert doc == cli_json(argv, capsys)
    assert json.loads(json.dumps(doc)) == doc  # plain JSON types only
    assert list(doc) == ["files", "ratio", "old", "new", "alpha", "threshold", "fieller",
                         "bootstrap", "verdict", "verdict_method", "description", "benchmarks",
                         "only_in_old", "only_in_new"]
    assert list(doc["benchmarks"][0]) == [
        "name", "unit", "lower_is_better", "ratio", "old", "new", "alpha", "threshold",
        "fieller", "bootstrap", "verdict", "verdict_method", "description", "design"]
    assert result.suite is None
    code, out, _ = cli(argv, capsys)
    assert code == 0 and out == result.render_text() + "\n"


def test_compare_suite_result_json_keys(tmp_path, capsys):
    from esize.cli import build_parser
    from esize.cli.compare import SuiteRow, compare

    o = pd.concat([tidy(WQE_OLD, benchmark="x"), tidy(WE_DATA, benchmark="y")])
    n = pd.concat([tidy(WQE_NEW, benchmark="x"), tidy(WE_DATA, benchmark="y")])
    po, pn = write_csv(tmp_path / "o.csv", o), write_csv(tmp_path / "n.csv", n)
    argv = ["compare", str(po), str(pn), "--benchmark-column", "--seed", "1", "--resamples", "200"]
    result = compare(build_parser().parse_args(argv))
    assert isinstance(result.suite, SuiteRow)
    doc = result.to_json()
    assert doc == cli_json(argv, capsys)
    assert list(doc) == ["files", "alpha", "threshold", "benchmarks", "only_in_old",
                         "only_in_new", "suite"]
    assert list(doc["suite"]) == ["geometric_mean", "lower", "upper", "alpha", "resamples",
                                  "scheme", "seed", "lower_is_better", "inverted", "verdict",
                                  "description"]
    assert json.loads(json.dumps(doc)) == doc
    assert result.render_text().splitlines()[4].startswith("benchmark ")


# == progress bar (tqdm) ===============================================================
class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_draws_only_on_a_terminal():
    pytest.importorskip("tqdm")
    from esize.cli._shared import progress_bar

    tty = _Tty()
    with progress_bar(10, stream=tty, delay=0.0) as update:
        assert update is not None
        for _ in range(10):
            update(1)
    text = tty.getvalue()
    assert "\r" in text and "bootstrap" in text and text.endswith("\r")  # erased when done
    pipe = io.StringIO()
    with progress_bar(10, stream=pipe, delay=0.0) as update:
        assert update is None
    assert pipe.getvalue() == ""
    with progress_bar(10, stream=_Tty(), enabled=False) as update:
        assert update is None


def test_no_bar_without_tqdm(monkeypatch):
    from esize.cli._shared import progress_bar

    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    tty = _Tty()
    with progress_bar(10, stream=tty, delay=0.0) as update:
        assert update is None
    assert tty.getvalue() == ""


def test_compare_shows_progress_on_terminal_only(harness, capsys, monkeypatch):
    pytest.importorskip("tqdm")
    from esize.cli import _shared, compare

    shown = []

    @contextlib.contextmanager
    def forced(total, *, enabled=True, **kw):
        tty = _Tty()
        done = []
        with _shared.progress_bar(total, enabled=enabled, stream=tty, delay=0.0) as update:
            def count(n):
                done.append(n)
                update(n)

            shown.append((total, done, tty))
            yield count if update is not None else None

    monkeypatch.setattr(compare, "progress_bar", forced)
    args = ["compare", harness["hyperfine-old"], harness["hyperfine-new"], "--seed", "1",
            "--resamples", "400"]
    assert cli(args, capsys)[0] == 0
    total, done, tty = shown[-1]
    assert total == sum(done) == 2 * 2 * 400 and "bootstrap" in tty.getvalue()
    assert cli([*args, "--json"], capsys)[0] == 0
    total, done, tty = shown[-1]
    assert done == [] and tty.getvalue() == ""  # silent in --json mode
