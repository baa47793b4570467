"""The paper's worked examples and tables as :mod:`esize_study.estimate` builds them
(rendered by :mod:`esize_study.render.tables`).

The worked examples are those of Section "For Practitioners: The New Method without
Statistics", reproduced exactly with the library. The design operations the
reproduction relies on (dropping the warm-up, merging a level) are checked here too.
"""

import numpy as np
import pytest
from scipy import stats

import esize as ez
from esize_study.estimate import costs as ecosts
from esize_study.estimate import examples as eex
from esize_study.estimate import precision as prec
from esize_study.paper import numbers as paper
from esize_study.render import tables as rtables


def test_twedata_variances(we_data):
    vc = ez.variance_components(we_data)
    assert vc.mean == pytest.approx(6.5)
    # S3^2 (binaries), S2^2 (executions), S1^2 (measurements): highest level first
    np.testing.assert_allclose(vc.S2, [3.5625, 2.583333333, 16.5], rtol=1e-9)
    np.testing.assert_allclose(vc.T2, [2.2708333333, -5.6666666667, 16.5], rtol=1e-9)
    # the intermediate tables of tWEData
    np.testing.assert_allclose(
        we_data.unit_means("execution"), [[7.0, 5.5], [8.0, 9.0], [6.5, 3.0]]
    )
    np.testing.assert_allclose(
        we_data.unit_means("binary"), [6.25, 8.5, 4.75]
    )


def test_twe2data_two_level_view(we_data):
    two = we_data.merge("execution")
    assert two.levels == ("binary", "measurement")
    assert two.shape == (3, 4)
    vc = ez.variance_components(two)
    np.testing.assert_allclose(vc.S2, [3.5625, 12.7222222222], rtol=1e-9)
    np.testing.assert_allclose(vc.T2, [0.3819444444, 12.7222222222], rtol=1e-9)


def test_optimal_n1_is_19_exactly(we_data):
    # The paper prints n1 = 18 because it rounds T1^2 to 12.7 and T2^2 to 0.4 before
    # taking ceil(sqrt(10 * 12.7 / 0.4)) = ceil(17.8) = 18. With the exact estimates,
    # sqrt(10 * 12.7222 / 0.381944) = 18.25, so the rounded-up optimum is 19.
    plan = ez.plan_from_design(we_data.merge("execution"), [10])
    assert plan.counts == {"measurement": 19}
    rounded = ez.optimal_counts([0.4, 12.7], [10])
    assert rounded.tolist() == [18]


def test_paper_convention_for_dropped_cost(we_data):
    # The paper plans the two-level experiment with c1 = 10, the warm-up alone, even
    # though every binary now also costs a build: dropped_cost="replace".
    plan = ez.plan_from_design(we_data, [300, 10], dropped_cost="replace")
    assert plan.counts == {"measurement": 19}
    assert plan.costs.tolist() == [310.0]  # the true cost is still build + warm-up


def test_plan_drops_execution_level(we_data):
    plan = ez.plan_from_design(we_data, [300, 10])
    assert plan.dropped == ("execution",)
    assert plan.levels == ("binary", "measurement")
    # one execution per binary now costs the build plus the warm-up
    np.testing.assert_allclose(plan.costs, [310.0])
    np.testing.assert_allclose(plan.t2, [0.3819444444, 12.7222222222], rtol=1e-9)


def test_twqedata_mean_interval(wqe_old):
    ci = ez.mean_ci(wqe_old)
    assert ci.estimate == pytest.approx(10.5)
    np.testing.assert_allclose(wqe_old.unit_means("binary"), [7.75, 12.25, 11.5])
    assert ez.s2(wqe_old)[0] == pytest.approx(5.8125)
    t = stats.t.ppf(0.975, 2)
    assert t == pytest.approx(4.303, abs=1e-3)
    assert ci.half_width == pytest.approx(t * np.sqrt(5.8125 / 3))
    assert ci.half_width == pytest.approx(5.99, abs=0.005)


def test_twqedata_fieller(wqe_old, wqe_new):
    assert ez.s2(wqe_new)[0] == pytest.approx(4.5625)
    # the paper's rule for two equal designs: t on n - 1 = 2 degrees of freedom
    ci = ez.fieller_ci(wqe_old, wqe_new, df=2)
    assert ci.bounded
    assert ci.estimate == pytest.approx(6.5 / 10.5)
    assert ci.lower == pytest.approx(0.1098, abs=5e-5)
    assert ci.upper == pytest.approx(1.7253, abs=5e-5)
    # esize's own default is Welch's df for every design: narrower here
    welch = ez.fieller_ci(wqe_old, wqe_new)
    assert welch.lower > ci.lower and welch.upper < ci.upper


def test_twqeboot_replicate_one_from_stated_indices(wqe_old):
    # Replicate 1 takes binaries 1, 2, 1. Within them (0-based below) the executions
    # and measurements are those that reproduce the printed values; the text states
    # that the third binary takes executions 1 and 1, with measurements (1, 1) and
    # (2, 1).
    binaries = np.array([[[0, 1, 0]]])
    executions = np.array([[[0, 1], [1, 1], [0, 0]]])
    measurements = np.array([[[0, 1], [0, 0], [0, 1], [1, 0], [0, 0], [1, 0]]])
    mean = ez.means_from_indices(wqe_old, "RRR", [binaries, executions, measurements])
    assert mean[0] == pytest.approx(9.0)
    # the printed replicate, value by value
    printed = np.array([[[9, 11], [5, 5]], [[12, 8], [8, 12]], [[9, 9], [11, 9]]])
    data = wqe_old.data
    rebuilt = np.array(
        [
            [
                [data[b, executions[0, i, j], m] for m in measurements[0, 2 * i + j]]
                for j in range(2)
            ]
            for i, b in enumerate(binaries[0, 0])
        ]
    )
    np.testing.assert_array_equal(rebuilt, printed)


def _is_rrr_replicate(original: np.ndarray, replicate: np.ndarray) -> bool:
    """Could ``replicate`` arise from RRR resampling of ``original``?"""
    for rb in replicate:  # each replicate binary must come from one original binary
        ok = False
        for ob in original:
            if all(
                any(set(row) <= set(orow) for orow in ob) for row in rb
            ):
                ok = True
                break
        if not ok:
            return False
    return True


def test_twqeboot_printed_replicates(wqe_old):
    # binary -> execution -> measurements, read off the printed tables (each binary
    # is a pair of columns; the rows are its executions)
    replicates = [
        [[[9, 11], [5, 5]], [[12, 8], [8, 12]], [[9, 9], [11, 9]]],
        [[[14, 10], [15, 7]], [[13, 13], [8, 12]], [[8, 8], [16, 13]]],
        [[[7, 7], [15, 15]], [[11, 11], [9, 11]], [[9, 9], [9, 9]]],
    ]
    means = []
    for rep in replicates:
        arr = np.array(rep, dtype=float)
        assert _is_rrr_replicate(wqe_old.data, arr)
        means.append(arr.mean())
    np.testing.assert_allclose(np.round(means, 1), [9.0, 11.4, 10.2])


# -- the reproduction's own functions ------------------------------------------------
def test_worked_examples_record_matches_the_paper():
    we = eex.worked_examples()
    assert we["tWQEData"]["fieller"] == pytest.approx([0.1098, 1.7253], abs=5e-5)
    assert we["tWE2Data"]["n1"] == 19 and we["tWE2Data"]["n1_paper_rounding"] == 18


def test_rendered_tables_are_markdown_and_latex():
    rows = [{"benchmark": "FFT", "level": lev, "S_pct": s, "T_pct": s, "T2_positive": True}
            for lev, s in zip(("compilation", "execution", "measurement"), (4.1, 6.7, 4.6))]
    md = rtables.render_variations(rows, "md")
    assert md.splitlines()[0].startswith("| benchmark") and "| FFT " in md
    tex = rtables.render_variations(rows, "tex")
    assert r"\begin{tabular}" in tex and r"[\%]" in tex and "FFT & 4.1 & 6.7 & 4.6" in tex
    with pytest.raises(ValueError):
        rtables.render_variations(rows, "html")


# -- Table tPrecisions: the paper's convention kept, our optimum beside it -----------
def _paper_row(rows, benchmark, hours):
    return next(r for r in rows if r["benchmark"] == benchmark and r["hours"] == hours)


def test_precision_rows_keep_the_papers_rule_and_add_the_optimum():
    rows = prec.precision_table([], "paper", dropped_cost="replace")
    assert list(rows[0]) == list(prec.PRECISION_COLUMNS)
    assert {r["convention"] for r in rows} == {"paper"}
    # the paper's column is the paper's procedure: FFT NA OPT at 3 h clamps n1 to 1
    r = _paper_row(rows, "FFT NA OPT", 3)
    assert (r["binaries"], r["n2"], r["n1"]) == (7, 42, 1)
    assert r["ours_pct"] == pytest.approx(3.27, abs=0.005)
    assert round(r["ours_pct"], 1) == paper.PRECISIONS["FFT NA OPT"][0][0]
    # ... and our optimum merges the measurement level and re-optimises
    assert (r["opt_binaries"], r["opt_n2"], r["opt_n1"]) == (8, 33, 1)
    assert r["optimum_pct"] == pytest.approx(3.01, abs=0.005)
    # Rijndael OPT at 3 h: the half-width itself is minimised, not the variance
    r = _paper_row(rows, "Rijndael OPT", 3)
    assert (r["binaries"], r["n2"], r["n1"]) == (3, 736, 12)
    assert (r["opt_binaries"], r["opt_n2"], r["opt_n1"]) == (5, 341, 11)
    assert r["optimum_pct"] == pytest.approx(0.341, abs=5e-4)
    # FFT at 6 h: the paper's worked design stays in the paper's column
    r = _paper_row(rows, "FFT", 6)
    assert (r["binaries"], r["n2"], r["n1"]) == (16, 28, 4)
    for r in rows:
        assert r["optimum_pct"] <= r["ours_pct"] * (1 + 1e-12)
        assert r["optimum_pct"] <= r["default_pct"]
        assert r["opt_binaries"] >= 2
    # the folded file differs from the paper's column only where executions are dropped
    folded = prec.precision_table([], "paper", dropped_cost="fold")
    assert {r["convention"] for r in folded} == {"paper-fold"}
    for a, b in zip(rows, folded):
        assert a["optimum_pct"] == b["optimum_pct"]
        if not a["dropped"]:
            assert a["ours_pct"] == b["ours_pct"]


def test_precision_tables_say_which_convention_each_number_follows():
    rows = prec.precision_table([], "paper", dropped_cost="replace")
    folded = prec.precision_table([], "paper", dropped_cost="fold")
    md = rtables.precisions_markdown(rows, folded)
    assert "convention `paper`" in md and "warm-up cost alone" in md
    assert "## Our optimum beside the paper's rule" in md
    assert "3.27 (7 x 42 x 1) -> 3.01 (8 x 33 x 1)" in md
    assert "0.51 (3 x 736 x 12) -> 0.34 (5 x 341 x 11)" in md
    tex = rtables.render_precisions(rows, "tex")
    assert "[paper / optimum / default \\%]" in tex and "t quantile" in tex
    assert "paper-fold / optimum / default" in rtables.render_precisions(folded, "md")


def test_precision_rows_for_a_budget_below_two_binaries():
    cost = ecosts.CostModel(measurement_seconds=1.0, build_seconds=3600.0, warmup=10)
    (row,) = prec.precision_rows("data", "slow", (1.0, 2.0, 3.0), (5, 5, 5), cost, [1.0])
    assert row["binaries"] == 0 and row["ours_pct"] == row["optimum_pct"] == float("inf")


# -- Table tPrecisions beside the paper: one marking rule, and what moves the TCP cells --
@pytest.mark.parametrize("ours, mark", [(1.30, ""), (1.35, ""), (1.25, ""), (1.36, "~"),
                                        (1.40, "~"), (1.41, "*"), (1.19, "*")])
def test_precision_mark_is_one_rule(ours, mark):
    assert prec.precision_mark(ours, 1.3) == mark


def test_precisions_markdown_counts_marks():
    md = rtables.precisions_markdown(prec.precision_table([], "paper"))
    assert ("Of 60 numbers, 39 round to the paper's, 14 more are within +-0.1 and 7 differ by "
            "more than 0.1.") in md
    assert "| TCP OPT " in md and "(1.3 / 34.9)*" in md  # the worse mark of the cell


def test_rounding_grid_moves_every_s_within_its_rounding():
    grid = prec.rounding_grid("TCP")
    assert len(grid) == 125
    base = tuple(paper.VARIATION_S["TCP"])
    printed = dict(grid)[base]
    rows = prec.precision_table([], "paper")
    assert printed[(3.0, "ours")] == pytest.approx(_paper_row(rows, "TCP", 3)["ours_pct"])
    assert all(abs(a - b) <= 0.05 + 1e-9 for s, _ in grid for a, b in zip(s, base))


def test_tcp_cells_move_with_the_binary_level_variance_only():
    for name in ("TCP OPT", "TCP"):
        r = prec.binary_level_sensitivity(name)
        assert r["dropped"] == ["execution"] and r["binaries"] == [8, 17, 26]
        # measurement time: no effect at all
        for cells in r["measurement_time"].values():
            assert cells == pytest.approx(r["ours"])
        # a binary costs a little more than a build: one binary fewer than the build alone
        assert r["build_only_binaries"] == [9, 18, 27]
        # the cells need a binary-level variation below the three-level T3
        lo, hi = r["fits"]
        assert lo < hi < r["t3"] and r["merged"] < r["t3"]
        assert r["stated"] == 0.5
    opt = prec.binary_level_sensitivity("TCP OPT")
    # counting the build alone fixes the 3 h cell only
    assert [prec.precision_mark(c, p) for c, p in zip(opt["build_only"], opt["paper"])] == [
        "", "~", "~"]
    assert opt["fits"][0] == pytest.approx(0.433, abs=0.003)
    assert opt["fits"][1] == pytest.approx(0.493, abs=0.003)
