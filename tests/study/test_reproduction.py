"""The paper's worked examples and tables as :mod:`esize_study.reproduction` builds them.

The worked examples are those of Section "For Practitioners: The New Method without
Statistics", reproduced exactly with the library. The design operations the
reproduction relies on (dropping the warm-up, merging a level) are checked here too.
"""

import numpy as np
import pytest
from scipy import stats

import esize as ez


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
    ci = ez.fieller_ci(wqe_old, wqe_new)
    assert ci.bounded
    assert ci.estimate == pytest.approx(6.5 / 10.5)
    assert ci.lower == pytest.approx(0.1098, abs=5e-5)
    assert ci.upper == pytest.approx(1.7253, abs=5e-5)


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
    from esize_study import reproduction as rp

    we = rp.worked_examples()
    assert we["tWQEData"]["fieller"] == pytest.approx([0.1098, 1.7253], abs=5e-5)
    assert we["tWE2Data"]["n1"] == 19 and we["tWE2Data"]["n1_paper_rounding"] == 18


def test_rendered_tables_are_markdown_and_latex():
    from esize_study import reproduction as rp

    rows = [{"benchmark": "FFT", "level": lev, "S_pct": s, "T_pct": s, "T2_positive": True}
            for lev, s in zip(("compilation", "execution", "measurement"), (4.1, 6.7, 4.6))]
    md = rp.render_variations(rows, "md")
    assert md.splitlines()[0].startswith("| benchmark") and "| FFT " in md
    tex = rp.render_variations(rows, "tex")
    assert r"\begin{tabular}" in tex and r"[\%]" in tex and "FFT & 4.1 & 6.7 & 4.6" in tex
    with pytest.raises(ValueError):
        rp.render_variations(rows, "html")
