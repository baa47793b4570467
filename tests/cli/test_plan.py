"""``esize plan`` (:mod:`esize.cli.plan`): optimal repetition counts, costs and the
time budget."""

from __future__ import annotations

import json

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
    assert_one_line_error(
        *cli(["plan", p, "--costs", "10,300"], capsys), file=p, words=["at least 2", "unit"]
    )


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
    assert dim["counts"]["measurement"] == 102
    # one binary costs 310 + 102 measurements: floor(10000 / 412) = 24 binaries
    assert dim["counts"]["binary"] == 24


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
    assert list(doc) == ["dropped", "levels", "counts", "T2", "costs", "dropped_cost",
                         "dimensioning", "benchmarks"]
    assert list(doc["dimensioning"]) == ["budget", "counts", "half_width_pct", "default_n",
                                         "default_half_width_pct"]
    assert "suggestion" not in doc  # a tidy table names no harness
    code, out, _ = cli(argv, capsys)
    assert code == 0 and out == result.render_text() + "\n"
    assert "measurement      102 per binary" in out
