"""``esize plan`` (:mod:`esize.cli.plan`): optimal repetition counts, costs and the
time budget."""

from __future__ import annotations

import json
import math
import sys

import numpy as np
import pytest

from .helpers import (
    WE_DATA,
    assert_one_line_error,
    cli,
    cli_json,
    synthetic_pair,
    write_csv,
)


def test_plan_we_drops_execution(we, capsys):
    out = cli_json(["plan", we, "--costs", "10,300"], capsys)
    assert out["dropped"] == ["execution"]
    assert out["levels"] == ["binary", "measurement"]
    assert set(out["counts"]) == {"measurement"}
    # After dropping the execution level every binary runs once, so a new binary
    # costs build + warm-up = 300 + 10 = 310 measurements (equation ecost with
    # n_2 = 1), and n_1 = ceil(sqrt(310 * 12.7222 / 0.38194)) = ceil(101.6) = 102.
    assert out["counts"]["measurement"] == 102


def test_plan_we_negligible_build_cost_matches_two_level(we, capsys):
    # The paper's example ignores the build cost (its c_2 = 300 is commented out);
    # with a negligible one the three-level plan reduces to the two-level answer.
    out = cli_json(["plan", we, "--costs", "10,1e-9"], capsys)
    assert out["dropped"] == ["execution"]
    assert out["counts"] == {"measurement": 19}


def test_plan_json_keys_and_types(we, capsys):
    out = cli_json(["plan", we, "--costs", "10,300"], capsys)
    assert set(out) >= {"dropped", "levels", "counts"}
    assert isinstance(out["dropped"], list) and isinstance(out["levels"], list)
    # counts for every remaining level but the top one
    assert list(out["counts"]) == out["levels"][1:]
    assert all(type(n) is int and n >= 1 for n in out["counts"].values())


def test_plan_three_levels_counts_every_level_but_top(tmp_path, capsys):
    old, _ = synthetic_pair(1.0)
    p = write_csv(tmp_path / "pilot.csv", old)
    out = cli_json(["plan", p, "--costs", "5,200"], capsys)
    assert out["dropped"] == []
    assert out["levels"] == ["binary", "execution", "measurement"]
    assert list(out["counts"]) == ["execution", "measurement"]


def test_one_binary_plan(tmp_path, capsys):
    p = write_csv(tmp_path / "one.csv", WE_DATA[:1])
    line = assert_one_line_error(
        *cli(["plan", p, "--costs", "10,300"], capsys), file=p, words=["a single binary"]
    )
    assert "not observed" in line and "2 or more binaries" in line


@pytest.mark.parametrize(
    "costs, words",
    [
        ("10", ["cost"]),  # two needed for three levels
        ("10,300,5", ["cost"]),
        ("10,0", ["positive"]),
        ("0,300", ["positive"]),
        ("10,-300", ["positive"]),
        ("nan,300", ["positive", "finite"]),
        ("10,abc", ["number"]),
        (",", ["cost"]),
    ],
)
def test_bad_costs(we, capsys, costs, words):
    code, out, err = cli(["plan", we, "--costs", costs], capsys)
    assert_one_line_error(code, out, err, words=words)


def test_wrong_number_of_costs_names_file(we, capsys):
    assert_one_line_error(*cli(["plan", we, "--costs", "10"], capsys), file=we, words=["cost"])


def test_plan_missing_costs(we, capsys):
    assert_one_line_error(*cli(["plan", we], capsys), words=["--costs", "required"])


# -- budget and output errors ---------------------------------------------------
@pytest.mark.parametrize("budget", ["nan", "inf", "0", "-5", "abc"])
def test_bad_budget(we, capsys, budget):
    assert_one_line_error(
        *cli(["plan", we, "--costs", "10,300", "--budget", budget], capsys), words=["budget"]
    )


def test_plan_budget_ok(we, capsys):
    out = cli_json(["plan", we, "--costs", "10,300", "--budget", "10000"], capsys)
    dim = out["dimensioning"]
    assert dim["budget"] == 10000
    # the plan's rounded-up optimum is 102 measurements per binary (24 binaries of
    # 310 + 102); the budget is spent best on 25 binaries of 310 + 90 = 400, which
    # gains a binary (and a degree of freedom) for a slightly noisier binary mean
    assert out["counts"]["measurement"] == 102
    # the prescribed design names every level of the pilot: the dropped execution
    # level runs once per binary, as the cost model (310 per binary) charges it
    assert dim["counts"] == {"binary": 25, "execution": 1, "measurement": 90}
    assert dim["cost"] == 25 * (310 + 90)


def test_costs_error_keeps_the_order_typed(we, capsys):
    code, out, err = cli(["plan", we, "--costs", "10,0"], capsys)
    assert code == 2 and "[10.0, 0.0]" in err


# == result objects ==================================================================
def test_plan_result_json_keys(we, capsys):
    from esize.cli import build_parser
    from esize.cli.plan import PlanResult, PlanRow, make_plans

    argv = ["plan", str(we), "--costs", "10,300", "--budget", "10000"]
    result = make_plans(build_parser().parse_args(argv))
    assert isinstance(result, PlanResult) and isinstance(result.rows[0], PlanRow)
    doc = result.to_json()
    assert doc == cli_json(argv, capsys)
    assert json.loads(json.dumps(doc)) == doc
    assert list(doc) == ["dropped", "levels", "counts", "T2", "costs", "given_costs",
                         "dropped_cost", "dimensioning", "benchmarks"]
    # every cost as given, the build cost included, beside the folded one
    assert doc["costs"] == {"binary": 310.0}
    assert doc["given_costs"] == {"binary": 300.0, "execution": 10.0}
    assert list(doc["dimensioning"]) == ["budget", "counts", "cost", "half_width_pct",
                                         "default_n", "default_half_width_pct"]
    assert "suggestion" not in doc  # a tidy table names no harness
    code, out, _ = cli(argv, capsys)
    assert code == 0 and out == result.render_text() + "\n"
    # with a budget the prescribed design is the dimensioned one; the plan's own
    # count is on its own line, named as the budget-free optimum
    assert "measurement       90 per execution" in out
    assert "no budget   measurement 102 per binary" in out


# == never a confident wrong answer (issue section Planning) ===========================
ADD10 = "org.example.ListBench.add:size=10"


@pytest.mark.parametrize("budget", ["0.5", "500", "621"])
def test_budget_below_two_top_units_is_an_error(we, capsys, budget):
    # a binary of one measurement costs 300 + 10 + 1 = 311: 622 buy 2 of them; below
    # that no design gives an interval (today: "binary 0 x ..." or "binary 1 x ...")
    line = assert_one_line_error(
        *cli(["plan", we, "--costs", "10,300", "--budget", budget], capsys),
        file=we, words=["--budget"],
    )
    assert "2 units" in line and "622" in line
    out = cli_json(["plan", we, "--costs", "10,300", "--budget", "622"], capsys)
    assert out["dimensioning"]["counts"]["binary"] == 2


def test_harness_budget_below_two_top_units_recommends_nothing(harness, capsys):
    # one fork of 6 iterations costs 106 with a warm-up of 100: 150 would buy 1 fork
    code, out, err = cli(["plan", harness["jmh-old"], "--benchmark", ADD10, "--costs", "100",
                          "--budget", "150"], capsys)
    assert_one_line_error(code, out, err, file=harness["jmh-old"], words=["--budget"])
    assert "fork" in err


def test_never_worse_than_the_one_level_default(harness, capsys):
    # variance-optimal counts with the top count floored gave fork 6 x iteration 2 for
    # +-1.77 % beside a one-level default (7 forks) of +-1.66 %
    for budget in ("80", "100", "200"):
        out = cli_json(["plan", harness["jmh-old"], "--benchmark", ADD10, "--costs", "10",
                        "--budget", budget], capsys)
        dim = out["dimensioning"]
        assert dim["half_width_pct"] <= dim["default_half_width_pct"]
        assert dim["counts"]["fork"] >= 2
        assert out["suggestion"] == (
            f"jmh -f {dim['counts']['fork']} -i {dim['counts']['iteration']}"
        )


def test_budget_ok_is_the_exhaustive_optimum(we, capsys):
    # binary > measurement after dropping executions: T^2 = (0.381944, 12.7222), a
    # binary costs 310 + n1; the reported half-width over every affordable design
    import math

    from scipy import stats

    from esize import variance_components

    from .helpers import WE_DATA

    out = cli_json(["plan", we, "--costs", "10,300", "--budget", "10000"], capsys)
    t2 = list(out["T2"].values())
    mean = variance_components(__import__("esize").Design(WE_DATA, ("b", "e", "m"))).mean
    best = None
    for n1 in range(1, 10000):
        n_top = math.floor(10000 / (310 + n1))
        if n_top < 2:
            break
        hw = stats.t.ppf(0.975, n_top - 1) * math.sqrt((t2[0] + t2[1] / n1) / n_top) / mean
        best = min(best or (hw, 0, 0), (hw, n_top, n1))
    dim = out["dimensioning"]
    assert dim["counts"] == {"binary": best[1], "execution": 1, "measurement": best[2]}
    assert dim["half_width_pct"] == pytest.approx(100 * best[0], rel=1e-9)


def test_dropped_top_level_keeps_two_top_units(harness, capsys):
    # 'iterate' has T^2 <= 0 between forks: the plan drops the fork level, but the
    # next run still needs at least 2 forks (summary refuses fewer), each paying its
    # warm-up
    out = cli_json(["plan", harness["jmh-old"], "--benchmark", "org.example.ListBench.iterate",
                    "--costs", "100", "--budget", "3000"], capsys)
    assert out["dropped"] == ["fork"]
    counts = out["dimensioning"]["counts"]
    assert list(counts) == ["fork", "iteration"] and counts["fork"] >= 2
    assert counts["fork"] * (100 + counts["iteration"]) <= 3000
    dim = out["dimensioning"]
    assert dim["half_width_pct"] <= dim["default_half_width_pct"]


def test_json_writes_inf_not_null_for_an_infinite_half_width(we, capsys):
    import math

    from esize import Dimensioning, plan_from_variances
    from esize.cli.plan import PlanRow
    from esize.readers.units import UnitInfo

    plan = plan_from_variances([1.0, 2.0], [10.0], ("binary", "measurement"))
    dim = Dimensioning({"binary": 3, "measurement": 4}, 0.05, 1, math.inf, plan)
    doc = PlanRow(None, UnitInfo(""), plan, 50.0, dim).to_json()["dimensioning"]
    assert doc["half_width_pct"] == 5.0 and doc["default_half_width_pct"] == "inf"
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc


@pytest.mark.parametrize("content", [None, "garbage\n", "binary,execution,time\n1,1,abc\n"])
def test_file_problem_before_missing_costs(tmp_path, capsys, content):
    p = tmp_path / "pilot.csv"
    if content is not None:
        p.write_text(content)
    line = assert_one_line_error(*cli(["plan", p], capsys), file=p)
    assert "--costs" not in line


def test_errors_name_no_library_function(tmp_path, capsys):
    # measurements that do not vary: nothing to plan, said without library names
    p = write_csv(tmp_path / "constant.csv", [[[5.0, 5.0], [5.0, 5.0]], [[5.0, 5.0], [5.0, 5.0]]])
    line = assert_one_line_error(*cli(["plan", p, "--costs", "10,300"], capsys), file=p)
    assert "plan_from" not in line and "optimal_counts" not in line
    assert "do not vary" in line


def test_negative_costs_with_equals(we, capsys):
    assert_one_line_error(
        *cli(["plan", we, "--costs=-5,10"], capsys), words=["costs must be positive"]
    )


def test_negative_costs_with_a_space(we, capsys):
    assert_one_line_error(
        *cli(["plan", we, "--costs", "-5,10"], capsys), words=["costs must be positive"]
    )


@pytest.mark.parametrize("budget", ["1e300", "1e16"])
def test_huge_budget_is_a_clear_error(we, capsys, budget):
    assert_one_line_error(
        *cli(["plan", we, "--costs", "10,300", "--budget", budget], capsys),
        words=["--budget"],
    )


# == the unit of measure (issue 10): values near 1e-300 or 1e300 plan like any other ====
SCALES = [1e-300, 1e-200, 1e-100, 1.0, 1e100, 1e200, 1e300]
PILOTS = {  # data, --costs, --budget, the levels dropped
    "worked-example": (WE_DATA, "10,300", "10000", ["execution"]),
    "all-levels": (synthetic_pair(1.0)[0], "5,200", "100000", []),
    "top-dropped": ([[[10, 11], [1, 2]], [[1, 2], [10, 11]]], "10,300", "5000", ["binary"]),
}


def _representable(x: float) -> bool:
    return math.isfinite(x) and abs(x) >= sys.float_info.min


def _assert_same_json(got, want, scale, path="", rel=1e-12):
    """``got`` (data times ``scale``) equals ``want`` (scale 1) key by key: floats up
    to ``rel``, variances (``T2``) times ``scale**2`` or None where that is no float."""
    if "/T2/" in path:
        expected = want * scale * scale  # inf or 0 (or subnormal) when it is no float
        assert got == (pytest.approx(expected, rel=rel) if _representable(expected) else None), path
        return
    assert type(got) is type(want), path
    if isinstance(want, dict):
        assert list(got) == list(want), path
        for k in want:
            _assert_same_json(got[k], want[k], scale, f"{path}/{k}", rel)
    elif isinstance(want, list):
        assert len(got) == len(want), path
        for k, (g, w) in enumerate(zip(got, want)):
            _assert_same_json(g, w, scale, f"{path}/{k}", rel)
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=rel), path
    else:
        assert got == want, path


@pytest.mark.parametrize("pilot", list(PILOTS))
@pytest.mark.parametrize("scale", SCALES)
def test_plan_does_not_depend_on_the_unit(tmp_path, capsys, pilot, scale):
    # values times 1e-300 gave "the measurements do not vary", times 1e300 "the variance
    # estimates are not finite": the variances were squared in the data's units
    data, costs, budget, dropped = PILOTS[pilot]
    argv = ["--costs", costs, "--budget", budget]
    p1 = write_csv(tmp_path / "one.csv", np.asarray(data, dtype=float))
    ps = write_csv(tmp_path / "scaled.csv", np.asarray(data, dtype=float) * scale)
    want = cli_json(["plan", p1, *argv], capsys)
    got = cli_json(["plan", ps, *argv], capsys)
    assert want["dropped"] == dropped
    _assert_same_json(got, want, scale)
    assert json.loads(json.dumps(got, allow_nan=False)) == got  # no inf, no NaN
    # the text output (counts, half-widths, dropped levels) is the same but for the file
    code1, text1, _ = cli(["plan", p1, *argv], capsys)
    codes, texts, _ = cli(["plan", ps, *argv], capsys)
    assert code1 == codes == 0
    assert texts.splitlines()[1:] == text1.splitlines()[1:]
    assert "+-" in texts and "%" in texts


def test_huge_values_plan_like_ordinary_ones(tmp_path, capsys):
    # values up to 1.1e301, whose squares overflow: planned as the same data in 1e290 units
    data = np.array([[[1e200, 5e200], [8e200, 3e200]], [[1e300, 6e300], [7e300, 1.1e301]]])
    big = cli_json(["plan", write_csv(tmp_path / "huge.csv", data), "--costs", "10,300",
                    "--budget", "5000"], capsys)
    small = cli_json(["plan", write_csv(tmp_path / "small.csv", data / 1e290), "--costs",
                      "10,300", "--budget", "5000"], capsys)
    _assert_same_json(big, small, 1e290)
    assert big["T2"]["binary"] is None  # about 1e601: not a float, and not inf either
