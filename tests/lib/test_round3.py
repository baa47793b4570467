"""Statistics round 3 (issue 40): Fieller's p-value, Benjamini-Hochberg, the drift and
multiplicity notes, the expanded percentile bootstrap, far-out values. Each checked
against a second route (scipy, the interval itself, the formula) where there is one.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import esize as ez
from esize._outliers import MIN_SHIFT, far_out
from esize._percentile import expanded_alpha
from esize.cli._markdown import render_markdown
from esize.compare import compare_pairs, drift_note, make_pair, multiplicity

LEVELS = ("process", "iteration")


def _design(rng, units, per=5, sd_top=0.01, sd_low=0.03, shift=0.0, levels=LEVELS):
    x = np.exp(shift + rng.normal(0, sd_top, (units, 1)) + rng.normal(0, sd_low, (units, per)))
    return ez.Design(x, levels)


# -- Fieller's p-value ------------------------------------------------------------------------
@pytest.mark.parametrize("normal", [False, True])
def test_p_value_below_alpha_exactly_when_fieller_leaves_one_out(normal):
    rng = np.random.default_rng(40)
    for _ in range(400):
        no, nn = rng.integers(2, 15, 2)
        old = _design(rng, no)
        new = _design(rng, nn, shift=rng.normal(0, 0.02))
        alpha = float(rng.uniform(0.001, 0.5))
        p = ez.fieller_p_value(old, new, normal=normal)
        ci = ez.fieller_ci(old, new, alpha=alpha, normal=normal)
        assert (p < alpha) == (ci.bounded and not ci.contains(1.0))


def test_p_value_is_welchs_statistic_with_fiellers_degrees_of_freedom():
    rng = np.random.default_rng(41)
    old, new = _design(rng, 8), _design(rng, 11, shift=0.01)
    mo, mn = old.data.mean(axis=1), new.data.mean(axis=1)
    ref = stats.ttest_ind(mn, mo, equal_var=False)  # the statistic of the unit means
    rule = ez.ratio_df_rule(mo.mean(), mo.var(ddof=1) / 8, mn.mean(), mn.var(ddof=1) / 11, 8, 11)
    expect = 2 * stats.t.sf(abs(ref.statistic), rule.df)
    assert ez.fieller_p_value(old, new) == pytest.approx(expect, rel=1e-9)


def test_p_value_does_not_depend_on_the_unit_of_either_file():
    rng = np.random.default_rng(42)
    old, new = _design(rng, 6), _design(rng, 9, shift=0.02)
    p = ez.fieller_p_value(old, new)
    scaled = ez.fieller_p_value(ez.Design(old.data * 1e-9, LEVELS), ez.Design(new.data * 1e-9, LEVELS))
    assert scaled == pytest.approx(p, rel=1e-12)
    const = ez.Design(np.ones((3, 2)), LEVELS)
    assert ez.fieller_p_value(const, const) == 1.0
    assert ez.fieller_p_value(const, ez.Design(2 * np.ones((3, 2)), LEVELS)) == 0.0


# -- Benjamini-Hochberg -----------------------------------------------------------------------
def test_benjamini_hochberg_agrees_with_scipy():
    rng = np.random.default_rng(43)
    for _ in range(200):
        m = int(rng.integers(1, 60))
        p = np.where(rng.random(m) < 0.3, rng.random(m) * 0.01, rng.random(m))
        q = float(rng.uniform(0.01, 0.2))
        assert np.array_equal(ez.benjamini_hochberg(p, q), stats.false_discovery_control(p) <= q)


def test_benjamini_hochberg_skips_nan_and_refuses_bad_input():
    got = ez.benjamini_hochberg([0.001, np.nan, 0.04, 0.5])
    assert got.tolist() == [True, False, False, False]
    assert not ez.benjamini_hochberg([np.nan, np.nan]).any()
    with pytest.raises(ez.EsizeError):
        ez.benjamini_hochberg([0.1, 1.5])
    with pytest.raises(ez.EsizeError):
        ez.benjamini_hochberg([0.1], q=0)


# -- the notes of a comparison ----------------------------------------------------------------
def test_drift_note_unless_both_systems_carry_a_session_or_round_level():
    rng = np.random.default_rng(44)
    flat = _design(rng, 5)
    rounds = ez.Design(np.exp(rng.normal(0, 0.02, (5, 2, 4))), ("round", "process", "iteration"))
    sessions = ez.Design(np.exp(rng.normal(0, 0.02, (5, 2, 4))), ("session", "process", "iteration"))
    assert drift_note([make_pair("a", flat, flat)]).startswith("drift: ")
    assert drift_note([make_pair("a", rounds, flat)]) is not None  # one side is not enough
    assert drift_note([make_pair("a", rounds, sessions)]) is None
    res = compare_pairs([make_pair("a", rounds, rounds)], method="fieller")
    assert not any(n.startswith("drift") for n in res.notes)
    assert not any(n.startswith("drift") for n in res.to_json()["notes"])
    res = compare_pairs([make_pair("a", flat, flat)], method="fieller")
    text, doc = res.render_text(), res.to_json()
    assert text.count("drift: neither") == 1 and doc["notes"][0].startswith("drift: neither")
    assert "Drift: neither" in render_markdown(doc)


def test_multiplicity_note_at_threshold_zero_and_the_fdr_list():
    rng = np.random.default_rng(45)
    pairs = [make_pair(f"b{k}", _design(rng, 6), _design(rng, 6, shift=0.2 if k < 3 else 0.0))
             for k in range(20)]
    res = compare_pairs(pairs, method="fieller", threshold=0.0)
    note = [n for n in res.notes if "were each tested" in n]
    assert len(note) == 1 and note[0].startswith("20 benchmarks were each tested at 95 %")
    assert res.fdr["tested"] == 20 and {"b0", "b1", "b2"} <= set(res.fdr["changed"])
    expect = ez.benjamini_hochberg([r.p_value for r in res.rows], 0.05)
    assert res.fdr["changed"] == [r.pair.name for r, c in zip(res.rows, expect) if c]
    assert "changed at FDR 5 %: b0, b1, b2" in res.render_text()
    assert "Changed at a false discovery rate of 5 %" in render_markdown(res.to_json())
    # above threshold 0 the verdicts are not tests of "no change": no note, the list stays
    res = compare_pairs(pairs, method="fieller", threshold=0.02)
    assert not any("were each tested" in n for n in res.notes) and res.fdr is not None
    note, fdr = multiplicity(res.rows[:1], alpha=0.05, threshold=0.0)
    assert note is None and fdr is None  # one benchmark: nothing to correct


def test_a_benchmark_that_cannot_decide_is_not_tested():
    rng = np.random.default_rng(46)
    pairs = [make_pair(f"b{k}", _design(rng, 6), _design(rng, 6)) for k in range(3)]
    pairs.append(make_pair("one", _design(rng, 6), _design(rng, 6), unobserved_top=["new: fork"]))
    res = compare_pairs(pairs, method="fieller", threshold=0.0)
    assert res.rows[-1].p_value is None and res.fdr["tested"] == 3


# -- the expanded percentile bootstrap --------------------------------------------------------
def test_expanded_alpha_is_hesterbergs_formula():
    for n in (2, 5, 10, 30, 1000):
        t = stats.t.ppf(0.975, n - 1)
        assert expanded_alpha(0.05, n) == pytest.approx(2 * stats.norm.cdf(-math.sqrt(n / (n - 1)) * t))
    assert expanded_alpha(0.05, 10) < expanded_alpha(0.05, 30) < 0.05
    with pytest.raises(ez.EsizeError):
        expanded_alpha(0.05, 1)


def test_compare_gives_the_expanded_interval_and_it_is_wider():
    rng = np.random.default_rng(47)
    old, new = _design(rng, 12), _design(rng, 12)
    plain = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=4000, rng=3)
    wide = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=4000, rng=3, expand=True)
    assert wide.lower < plain.lower and wide.upper > plain.upper
    row = compare_pairs([make_pair(None, old, new)], method="bootstrap", resamples=4000,
                        seed=3).rows[0]
    assert (row.bootstrap.lower, row.bootstrap.upper) == (wide.lower, wide.upper)
    doc = row.to_json()["bootstrap"]
    assert doc["expanded_alpha"] == pytest.approx(expanded_alpha(0.05, 12))


# -- far-out values ---------------------------------------------------------------------------
def test_far_out_fires_on_a_tenfold_value_and_not_on_clean_or_coarse_data():
    rng = np.random.default_rng(48)
    for _ in range(50):
        x = np.exp(rng.normal(0, 0.02, (10, 100)))
        assert far_out(x) is None
        x[rng.integers(10), rng.integers(100)] *= 10
        found = far_out(x)
        assert found is not None and found.count == 1 and found.largest > 9
        assert found.shift == pytest.approx(x.mean() / np.delete(x.ravel(), np.argmax(x)).mean() - 1)
    coarse = np.ones(100)
    coarse[:3] = 50.0
    assert far_out(coarse) is None  # half or more equal: too coarse to judge


def test_a_far_value_that_hardly_moves_the_mean_is_not_reported():
    rng = np.random.default_rng(49)
    x = 1 + rng.normal(0, 1e-4, 200)  # very tight
    x[0] = 1.04  # 400 robust sds out, moves the mean by 0.02 %
    assert far_out(x) is None and 0.0002 < MIN_SHIFT
    x[:5] = 3.0
    assert far_out(x) is not None


def test_compare_names_far_out_values_in_a_caveat():
    rng = np.random.default_rng(50)
    old = _design(rng, 10, per=100)
    data = old.data.copy()
    data[3, 17] *= 10
    res = compare_pairs([make_pair("x", old, ez.Design(data, LEVELS))], method="fieller")
    caveats = [c for c in res.rows[0].caveats if "lie far out" in c]
    assert len(caveats) == 1 and caveats[0].startswith("new: 1 of 1000 measurements")


# -- the robust estimators --------------------------------------------------------------------
def test_robust_design_is_numpys_median_and_scipys_trimmed_mean_per_group():
    from esize.compare import TRIM, robust_design

    rng = np.random.default_rng(51)
    d = ez.Design(np.exp(rng.normal(0, 0.1, (4, 3, 7))), ("binary", "execution", "iteration"))
    med = robust_design(d, "median")
    assert med.levels == ("binary", "execution")
    np.testing.assert_array_equal(med.data, np.median(d.data, axis=-1))
    np.testing.assert_allclose(robust_design(d, "trimmed").data,
                               stats.trim_mean(d.data, TRIM, axis=-1), rtol=1e-15)
    assert robust_design(d, "mean") is d
    with pytest.raises(ez.EsizeError, match="one level"):
        robust_design(ez.Design([1.0, 2.0, 3.0], ("run",)), "median")
    with pytest.raises(ez.EsizeError, match="not one of"):
        robust_design(d, "mode")


def test_a_tenfold_value_moves_the_mean_but_not_the_median_comparison():
    rng = np.random.default_rng(52)
    old, new = _design(rng, 10, per=100, sd_low=0.02), _design(rng, 10, per=100, sd_low=0.02)
    data = new.data.copy()
    data[0, 0] *= 10
    spiked = ez.Design(data, LEVELS)
    plain = compare_pairs([make_pair("x", old, spiked)], method="fieller").rows[0]
    robust = compare_pairs([make_pair("x", old, spiked, estimator="median")],
                           method="fieller").rows[0]
    assert plain.pair.ratio > 1.008 and abs(robust.pair.ratio - 1) < 0.008
    assert robust.fieller.half_width < plain.fieller.half_width / 2
    res = compare_pairs([make_pair("x", old, spiked, estimator="median")], method="fieller")
    assert any(n.startswith("estimator: every process is summarised by the median") for n in res.notes)
    assert res.to_json()["benchmarks"][0]["estimator"] == "median"
