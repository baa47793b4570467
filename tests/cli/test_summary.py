"""``esize summary`` (:mod:`esize.cli.summary`): per-level variances and the interval
for the mean, checked on the paper's worked examples and on tidy-table options."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from .helpers import (
    T975_2DF,
    WE_DATA,
    WQE_OLD,
    assert_one_line_error,
    cli,
    cli_json,
    tidy,
    write_csv,
)


def test_summary_wqe_old_mean_and_t_ci(wqe, capsys):
    old, _ = wqe
    out = cli_json(["summary", old], capsys)
    assert out["mean"] == pytest.approx(10.5, abs=1e-12)
    # S3^2 (variance of binary means) of the old system is 5.8125 (paper: 10.5 +- 6.0)
    assert out["variance"]["binary"]["S2"] == pytest.approx(5.8125, abs=1e-12)
    half = T975_2DF * math.sqrt(5.8125 / 3)
    assert half == pytest.approx(5.99, abs=0.005)
    assert out["ci"]["method"] == "t"
    assert out["ci"]["alpha"] == 0.05
    assert out["ci"]["lower"] == pytest.approx(10.5 - half, rel=1e-9)
    assert out["ci"]["upper"] == pytest.approx(10.5 + half, rel=1e-9)


def test_summary_wqe_new_variance(wqe, capsys):
    _, new = wqe
    out = cli_json(["summary", new], capsys)
    assert out["mean"] == pytest.approx(6.5)
    assert out["variance"]["binary"]["S2"] == pytest.approx(4.5625, abs=1e-12)


def test_summary_we_variance_components(we, capsys):
    out = cli_json(["summary", we], capsys)
    v = out["variance"]
    assert out["mean"] == pytest.approx(6.5)
    assert v["binary"]["S2"] == pytest.approx(3.5625, abs=1e-12)
    assert round(v["execution"]["S2"], 4) == 2.5833
    assert v["measurement"]["S2"] == pytest.approx(16.5, abs=1e-12)
    assert round(v["execution"]["T2"], 4) == -5.6667
    assert round(v["binary"]["T2"], 4) == 2.2708
    assert v["measurement"]["T2"] == pytest.approx(16.5)
    assert out["counts"] == {"binary": 3, "execution": 2, "measurement": 2}


def test_we2_summary_and_plan(we2, capsys):
    s = cli_json(["summary", we2, "--levels", "binary"], capsys)
    assert s["levels"] == ["binary", "measurement"]
    assert s["counts"] == {"binary": 3, "measurement": 4}
    assert s["variance"]["binary"]["S2"] == pytest.approx(3.5625, abs=1e-12)
    assert round(s["variance"]["measurement"]["S2"], 3) == 12.722
    assert round(s["variance"]["binary"]["T2"], 4) == 0.3819

    out = cli_json(["plan", we2, "--levels", "binary", "--costs", "10"], capsys)
    assert out["dropped"] == []
    assert out["levels"] == ["binary", "measurement"]
    # The paper prints n_1 = 18: it rounded T_1^2 to 12.7 and T_2^2 to 0.4 first,
    # sqrt(10 * 12.7 / 0.4) = 17.8 -> 18.  Computed exactly,
    # sqrt(10 * 12.7222 / 0.38194) = 18.25 -> 19, which is what esize reports.
    assert math.ceil(math.sqrt(10 * 12.7 / 0.4)) == 18
    assert out["counts"] == {"measurement": 19}


def test_we_as_one_grouping_level_equals_we2(we, we2, capsys):
    # tWEData read with --levels binary (execution column ignored) holds the same
    # per-binary values as tWE2Data, so the variance estimates agree.
    a = cli_json(["summary", we, "--levels", "binary"], capsys)
    b = cli_json(["summary", we2, "--levels", "binary"], capsys)
    for lvl in ("binary", "measurement"):
        for k in ("S2", "T2"):
            assert a["variance"][lvl][k] == pytest.approx(b["variance"][lvl][k])


def _check_summary_json(out, levels):
    assert set(out) >= {"levels", "counts", "mean", "ci", "variance"}
    assert out["levels"] == levels
    assert all(isinstance(x, str) for x in out["levels"])
    assert list(out["counts"]) == levels
    assert all(type(n) is int for n in out["counts"].values())
    assert isinstance(out["mean"], float)
    assert set(out["ci"]) >= {"method", "alpha", "lower", "upper"}
    assert out["ci"]["method"] in ("t", "normal")
    for k in ("alpha", "lower", "upper"):
        assert isinstance(out["ci"][k], float)
    assert out["ci"]["lower"] < out["mean"] < out["ci"]["upper"]
    assert list(out["variance"]) == levels
    for lvl in levels:
        assert set(out["variance"][lvl]) >= {"S2", "T2"}
        assert isinstance(out["variance"][lvl]["S2"], float)
        assert isinstance(out["variance"][lvl]["T2"], float)


def test_summary_json_keys_and_types(we, capsys):
    _check_summary_json(cli_json(["summary", we], capsys), ["binary", "execution", "measurement"])


def test_where_filters_benchmarks(tmp_path, capsys):
    a = tidy(WE_DATA, benchmark="fft")
    b = tidy(WQE_OLD, benchmark="tcp")
    both = write_csv(tmp_path / "both.csv", pd.concat([a, b], ignore_index=True))
    out = cli_json(["summary", both, "--where", "benchmark=fft"], capsys)
    assert out["mean"] == pytest.approx(6.5)
    assert out["counts"] == {"binary": 3, "execution": 2, "measurement": 2}
    out = cli_json(["summary", both, "--where", "benchmark=tcp"], capsys)
    assert out["mean"] == pytest.approx(10.5)
    # repeated --where conditions all apply
    out = cli_json(
        [
            "summary",
            both,
            "--where",
            "benchmark=tcp",
            "--where",
            "binary=1",
            "--levels",
            "execution",
        ],
        capsys,
    )
    assert out["mean"] == pytest.approx(np.mean(WQE_OLD[0]))
    # without --where the two benchmarks are not pooled into one design (issue 41)
    code, out, err = cli(["summary", both], capsys)
    assert code == 2 and out == ""
    assert "column 'benchmark' holds 2 benchmarks ('fft', 'tcp')" in err


def test_warmup_trims_first_measurements(tmp_path, capsys):
    rng = np.random.default_rng(1)
    data = 10.0 + rng.random((3, 2, 5))
    data[..., 0] += 50.0  # a slow first iteration in every execution
    p = write_csv(tmp_path / "warm.csv", data)
    full = cli_json(["summary", p], capsys)
    assert full["counts"]["measurement"] == 5
    assert full["mean"] == pytest.approx(data.mean())
    trimmed = cli_json(["summary", p, "--warmup", "1"], capsys)
    assert trimmed["counts"] == {"binary": 3, "execution": 2, "measurement": 4}
    assert trimmed["mean"] == pytest.approx(data[..., 1:].mean())
    assert trimmed["mean"] < full["mean"] - 9.0
    t3 = cli_json(["summary", p, "--warmup", "3"], capsys)
    assert t3["counts"]["measurement"] == 2
    assert t3["mean"] == pytest.approx(data[..., 3:].mean())


def test_value_other_column(tmp_path, capsys):
    frame = tidy(WE_DATA)
    frame["cycles"] = frame["time"] * 1000.0 + 1.0
    p = write_csv(tmp_path / "cyc.csv", frame)
    out = cli_json(["summary", p, "--value", "cycles"], capsys)
    assert out["mean"] == pytest.approx(6501.0)
    assert out["variance"]["binary"]["S2"] == pytest.approx(3.5625e6)


def test_levels_three_grouping_levels(tmp_path, capsys):
    rng = np.random.default_rng(3)
    data = (
        100.0
        + rng.normal(0, 6.0, (3, 1, 1, 1))
        + rng.normal(0, 4.0, (3, 2, 1, 1))
        + rng.normal(0, 3.0, (3, 2, 2, 1))
        + rng.normal(0, 0.5, (3, 2, 2, 3))
    )
    p = write_csv(tmp_path / "deep.csv", data, levels=("binary", "execution", "iteration"))
    out = cli_json(["summary", p, "--levels", "binary,execution,iteration"], capsys)
    assert out["levels"] == ["binary", "execution", "iteration", "measurement"]
    assert out["counts"] == {"binary": 3, "execution": 2, "iteration": 2, "measurement": 3}
    assert out["mean"] == pytest.approx(data.mean())
    top = data.mean(axis=(1, 2, 3))
    assert out["variance"]["binary"]["S2"] == pytest.approx(top.var(ddof=1))
    assert out["variance"]["measurement"]["S2"] == pytest.approx(data.var(axis=-1, ddof=1).mean())
    # plan needs one cost per level but the lowest (three here)
    plan = cli_json(
        ["plan", p, "--levels", "binary,execution,iteration", "--costs", "1,2,3"], capsys
    )
    assert plan["dropped"] == [], plan
    assert plan["levels"] == out["levels"]
    assert list(plan["counts"]) == ["execution", "iteration", "measurement"]
    assert_one_line_error(
        *cli(["plan", p, "--levels", "binary,execution,iteration", "--costs", "1,2"], capsys),
        file=p,
        words=["cost"],
    )


def test_levels_one_grouping_level(tmp_path, capsys):
    data = np.arange(1.0, 13.0).reshape(4, 3)
    p = write_csv(tmp_path / "flat.csv", data, levels=("binary",))
    out = cli_json(["summary", p, "--levels", "binary"], capsys)
    assert out["levels"] == ["binary", "measurement"]
    assert out["counts"] == {"binary": 4, "measurement": 3}
    assert out["mean"] == pytest.approx(6.5)
    assert out["variance"]["binary"]["S2"] == pytest.approx(data.mean(axis=1).var(ddof=1))


def test_parquet_equals_csv(tmp_path, capsys):
    frame = tidy(WE_DATA)
    csv = write_csv(tmp_path / "d.csv", frame)
    pq = tmp_path / "d.parquet"
    frame.to_parquet(pq, index=False)
    a = cli_json(["summary", csv], capsys)
    b = cli_json(["summary", pq], capsys)
    a.pop("file", None), b.pop("file", None)
    assert a == b
    pa_ = cli_json(["plan", csv, "--costs", "10,300"], capsys)
    pb_ = cli_json(["plan", pq, "--costs", "10,300"], capsys)
    assert pa_ == pb_


def test_normal_ci_narrower_than_t(we, capsys):
    t = cli_json(["summary", we], capsys)
    z = cli_json(["summary", we, "--normal"], capsys)
    assert z["ci"]["method"] == "normal"
    assert z["mean"] == t["mean"]
    assert z["ci"]["upper"] - z["ci"]["lower"] < t["ci"]["upper"] - t["ci"]["lower"]
    # half-widths in the ratio of the quantiles 1.96 / 4.30
    ratio = (z["ci"]["upper"] - z["mean"]) / (t["ci"]["upper"] - t["mean"])
    assert ratio == pytest.approx(1.959963984540054 / T975_2DF, rel=1e-9)


def test_alpha_changes_ci(we, capsys):
    a05 = cli_json(["summary", we], capsys)
    a20 = cli_json(["summary", we, "--alpha", "0.2"], capsys)
    assert a20["ci"]["alpha"] == 0.2
    assert a20["ci"]["upper"] - a20["ci"]["lower"] < a05["ci"]["upper"] - a05["ci"]["lower"]


@pytest.mark.parametrize(
    "opts, words",
    [
        (["--value", "nope"], ["missing column", "nope"]),
        (["--levels", "nope"], ["missing column", "nope"]),
        (["--levels", "binary,nope"], ["missing column", "nope"]),
        (["--where", "nope=1"], ["unknown column"]),
        (["--where", "binary=99"], ["no rows"]),
        (["--where", "binary"], ["col=value", "form"]),
        (["--warmup", "2"], ["warm-up", "warmup"]),
        (["--warmup", "7"], ["warm-up", "warmup"]),
    ],
)
def test_bad_input_options(we, capsys, opts, words):
    assert_one_line_error(*cli(["summary", we, *opts], capsys), file=we, words=words)


def test_where_with_benchmarks_unknown_value(tmp_path, capsys):
    both = write_csv(tmp_path / "bench.csv", tidy(WE_DATA, benchmark="fft"))
    assert_one_line_error(
        *cli(["summary", both, "--where", "benchmark=http"], capsys), file=both, words=["no rows"]
    )


def test_warmup_leaving_one_measurement(we, capsys):
    """--warmup 1 leaves one measurement per execution: the execution is then the
    lowest level (its one value is its mean), and the warm-up is reported."""
    out = cli_json(["summary", we, "--warmup", "1"], capsys)
    assert out["counts"] == {"binary": 3, "execution": 2}
    assert out["mean"] == pytest.approx(np.asarray(WE_DATA)[..., 1].mean())
    assert out["benchmarks"][0]["warmup"] == {"mode": "fixed", "per_group": 1, "dropped": 6}
    assert out["caveats"] == []


def test_one_binary_summary(tmp_path, capsys):
    """A single binary: its executions become the top level, and a caveat says that
    the variation between binaries is not observed."""
    p = write_csv(tmp_path / "one.csv", WE_DATA[:1])
    out = cli_json(["summary", p], capsys)
    assert out["counts"] == {"execution": 2, "measurement": 2}
    assert len(out["caveats"]) == 1 and out["caveats"][0].startswith(
        "a single binary: variation between binaries is not observed")
    assert out["benchmarks"][0]["caveats"] == out["caveats"]
    code, text, _ = cli(["summary", p], capsys)
    assert code == 0 and "\ncaveat      a single binary: " in text
    whole = cli_json(["summary", write_csv(tmp_path / "all.csv", WE_DATA)], capsys)
    assert whole["caveats"] == []  # present and empty when nothing needs saying
    single = write_csv(tmp_path / "single.csv", np.asarray(WE_DATA)[:1, :1, :1])
    assert_one_line_error(*cli(["plan", single, "--budget", "100"], capsys), file=single,
                          words=["a single measurement in all"])
    one = cli_json(["summary", single], capsys)  # shown, without an interval
    assert one["mean"] == WE_DATA[0][0][0] and one["ci"] is None


def test_one_measurement_per_execution(tmp_path, capsys):
    p = write_csv(tmp_path / "single.csv", np.asarray(WE_DATA)[..., :1])
    out = cli_json(["summary", p], capsys)  # executions of one value: the lowest level
    assert out["counts"] == {"binary": 3, "execution": 2}
    line = assert_one_line_error(
        *cli(["plan", p, "--costs", "10,300"], capsys), file=p,
        words=["a single measurement per execution"],
    )
    assert "2 or more measurements per execution" in line


# == result objects ==================================================================
def test_summary_result_json_keys(we, capsys):
    from esize.cli import build_parser
    from esize.cli.summary import SummaryResult, SummaryRow, summarize

    argv = ["summary", str(we)]
    result = summarize(build_parser().parse_args(argv))
    assert isinstance(result, SummaryResult) and isinstance(result.rows[0], SummaryRow)
    doc = result.to_json()
    assert doc == cli_json(argv, capsys)
    assert json.loads(json.dumps(doc)) == doc  # plain JSON types only
    assert list(doc) == ["file", "levels", "counts", "mean", "ci", "variance", "caveats",
                         "benchmarks"]
    assert list(doc["benchmarks"][0]) == [
        "name", "unit", "lower_is_better", "levels", "counts", "mean", "ci", "variance",
        "caveats"]
    code, out, _ = cli(argv, capsys)
    assert code == 0 and out == result.render_text() + "\n"
    assert result.render_text().splitlines()[5].split() == ["level", "n", "S2", "T2", "S", "%",
                                                           "T", "%"]


# == the unit of measure, tiny alpha, constant data ======================================
def _pct(doc):
    return {lvl: (v["S_pct"], v["T_pct"]) for lvl, v in doc["variance"].items()}


@pytest.mark.parametrize("k", [-300, -200, -160, -77, 77, 160, 200, 300])
def test_summary_does_not_depend_on_the_unit(tmp_path, capsys, k):
    rng = np.random.default_rng(5)
    data = 50.0 + rng.normal(0, 4.0, (4, 1, 1)) + rng.normal(0, 2.0, (4, 3, 1)) + rng.normal(
        0, 1.0, (4, 3, 5))
    c = 10.0**k
    one = cli_json(["summary", write_csv(tmp_path / "one.csv", data)], capsys)
    scaled = cli_json(["summary", write_csv(tmp_path / "scaled.csv", data * c)], capsys)
    pa, pb = _pct(one), _pct(scaled)
    assert pa.keys() == pb.keys()
    for lvl in pa:
        assert pb[lvl] == pytest.approx(pa[lvl], rel=1e-9)
        assert pa[lvl][0] > 0
    assert scaled["mean"] == pytest.approx(one["mean"] * c, rel=1e-12)
    for key in ("lower", "upper"):
        assert scaled["ci"][key] == pytest.approx(one["ci"][key] * c, rel=1e-9)
    # S^2 in the data's units, where it is a float at all
    for lvl, v in scaled["variance"].items():
        s2 = v["S2"]
        if abs(k) < 150:
            assert s2 == pytest.approx(one["variance"][lvl]["S2"] * c * c, rel=1e-9)
        else:
            assert s2 is None or s2 == 0 or math.isfinite(s2)
    code, text, err = cli(["summary", tmp_path / "scaled.csv"], capsys)
    assert code == 0 and "Traceback" not in err
    rows = [line.split() for line in text.splitlines() if line.startswith(("binary", "execution"))]
    assert [r[-2:] for r in rows] == [[f"{pa[r[0]][0]:.3f}", f"{pa[r[0]][1]:.3f}"] for r in rows]


def test_summary_tiny_alpha(we, tmp_path, capsys):
    # below 1e-6 the level would be shown as 100 %: refused in one line (issue 43)
    assert_one_line_error(*cli(["summary", we, "--alpha", "1e-300"], capsys),
                          words=["--alpha"])
    out = cli_json(["summary", we, "--alpha", "1e-6"], capsys)
    assert math.isfinite(out["ci"]["lower"]) and math.isfinite(out["ci"]["upper"])
    assert out["ci"]["lower"] < out["mean"] < out["ci"]["upper"]
    two = write_csv(tmp_path / "two.csv", [[[1, 2], [1, 2]], [[98, 99], [99, 98]]])
    code, text, err = cli(["summary", two, "--alpha", "1e-6"], capsys)  # 1 df: t ~ 6e5
    assert code == 0 and err == ""
    assert "99.9999 % CI" in text
    assert "+-6.18e+07 % of the mean" in text  # not 8 digits


@pytest.mark.parametrize("c", [0.1, 9.8, 1 / 3, 123.456])
def test_summary_of_constant_data(tmp_path, capsys, c):
    out = cli_json(["summary", write_csv(tmp_path / "c.csv", np.full((3, 2, 2), c))], capsys)
    for v in out["variance"].values():
        assert v["S2"] == v["T2"] == v["S_pct"] == v["T_pct"] == 0.0
    assert out["ci"]["lower"] == out["ci"]["upper"] == out["mean"]
