"""No confident wrong answer (issue 26, items 1-4 and 6): a verdict only where the
interval behind it covers, and degrees of freedom that cover in every design.

The Monte Carlo tests (``slow``) draw from known truth with fixed seeds, at least 2000
replicates where a rate is asserted, and bound each rate at its nominal value plus
three standard errors (or tighter, where the issue asks for it). They are vectorised
where the library is (Fieller, the geometric mean's limits); the rest are loops over
cheap scalar calls.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import esize as ez
from esize._decision import MIN_BOOTSTRAP_UNITS, verdict_obstacle
from esize._intervals import ratio_df_rule

CHANGES = ("faster", "slower")


def _se(p: float, n: int) -> float:
    return math.sqrt(p * (1.0 - p) / n)


# -- fast: the rules -------------------------------------------------------------------------
def test_one_unobserved_fork_draws_no_verdict_unless_assumed():
    args = (0.90, 0.95, 0.0)
    assert ez.verdict(*args) == "faster"
    assert ez.verdict(*args, unobserved_top="fork") == "inconclusive"
    assert ez.verdict(*args, unobserved_top="fork", assume_no_fork_variance=True) == "faster"
    reason = verdict_obstacle(unobserved_top="process")
    assert "a single process" in reason and "processes" in reason
    assert verdict_obstacle(unobserved_top="fork", assume_no_fork_variance=True) is None


@pytest.mark.parametrize("units", sorted({2, 3, MIN_BOOTSTRAP_UNITS - 1}))
def test_bootstrap_decides_only_on_enough_units(units):
    args = (1.05, 1.10, 0.02)
    assert ez.verdict(*args, method="bootstrap", top_units=units) == "inconclusive"
    assert f"{units} top-level units" in verdict_obstacle(method="bootstrap", top_units=units)
    assert ez.verdict(*args, method="bootstrap", top_units=units,
                      assume_bootstrap_covers=True) == "slower"
    assert ez.verdict(*args, method="bootstrap-RRR", top_units=MIN_BOOTSTRAP_UNITS) == "slower"
    # a parametric interval is not concerned by the bootstrap's rule
    assert ez.verdict(*args, method="fieller", top_units=units) == "slower"


def test_the_default_verdict_is_unchanged():
    assert ez.verdict(0.97, 0.99, 0.0) == "faster"
    assert ez.verdict(0.99, 1.01, 0.02) == "same"
    assert ez.verdict(0.97, 1.01, 0.0) == "inconclusive"
    assert verdict_obstacle() is None


def test_fieller_df_follows_the_rule_for_equal_and_unequal_designs():
    rng = np.random.default_rng(5)
    old, new = rng.normal(100, 3, 5), rng.normal(100, 3, 5)
    ci = ez.fieller_ci(old, new)
    wo = old.var(ddof=1) / 5 / old.mean() ** 2
    wn = new.var(ddof=1) / 5 / new.mean() ** 2
    assert ci.extra["df"] == pytest.approx(float(ez.ratio_dfs(wo, wn, 5, 5)), rel=1e-12)
    assert ci.extra["df_welch"] == pytest.approx(ez.welch_df(wo, wn, 5, 5), rel=1e-12)
    assert 4.0 <= ci.extra["df"] < ci.extra["df_welch"] <= 8.0
    # 3 units against 20 of the same spread: the 3 carry most of the variance
    few, many = rng.normal(100, 3, 3), rng.normal(100, 3, 20)
    ci = ez.fieller_ci(few, many)
    assert 2.0 <= ci.extra["df"] < 2.5 and ci.extra["df_side"] == "old"
    assert ci.extra["df_welch"] > ci.extra["df"]
    # an explicit df (the paper's n - 1, say) overrides the rule
    assert ez.fieller_ci(old, new, df=4).extra["df"] == 4.0


def test_ratio_df_rule_ignores_negligible_few_units():
    # 3 nearly constant units against 20 noisy ones: Welch, near 19
    rule = ratio_df_rule(100.0, 1e-8, 100.0, 1.0, 3, 20)
    assert rule.side is None and rule.df == pytest.approx(rule.welch) and rule.df > 18.0


def test_tiny_alpha_with_fractional_df_is_finite():
    q = ez.critical_value(1e-300, 3.5)
    assert math.isfinite(q) and q > ez.critical_value(1e-300, 4)
    assert ez.critical_value(1e-20, 3.5) == pytest.approx(-_stdtrit(3.5, 0.5e-20), rel=1e-6)


def _stdtrit(df, p):
    from scipy.special import stdtrit

    return float(stdtrit(df, p))


# -- slow: Monte Carlo on known truth --------------------------------------------------------
def _fieller_runs(old: np.ndarray, new: np.ndarray):
    """Library Fieller intervals of every replicate (rows of ``old`` and ``new``)."""
    out = [ez.fieller_ci(o, n) for o, n in zip(old, new)]
    lo = np.array([c.lower for c in out])
    hi = np.array([c.upper for c in out])
    return lo, hi, out


@pytest.mark.slow
def test_mc_one_fork_each_gives_no_confident_wrong_answer():
    # item 1: one fork against one, true ratio 1, fork sd 1 %, iteration sd 3 %, 20
    # iterations; the reader drops the one-unit fork level, so the iterations are the
    # top level and the fork's variation is not in the interval
    reps, iters = 2000, 20
    rng = np.random.default_rng(261)
    old = 1.0 + rng.normal(0, 0.01, (reps, 1)) + rng.normal(0, 0.03, (reps, iters))
    new = 1.0 + rng.normal(0, 0.01, (reps, 1)) + rng.normal(0, 0.03, (reps, iters))
    lo, hi, cis = _fieller_runs(old, new)
    words = [ez.verdict(c.lower, c.upper, 0.0, bounded=c.bounded, unobserved_top="fork")
             for c in cis]
    changes = sum(w in CHANGES for w in words) / reps
    assert changes <= 0.05
    # the old behaviour, now only with the explicit assumption: often a wrong change
    forced = [ez.verdict(c.lower, c.upper, 0.0, bounded=c.bounded, unobserved_top="fork",
                         assume_no_fork_variance=True) for c in cis]
    forced_rate = sum(w in CHANGES for w in forced) / reps
    coverage = float(np.mean((lo <= 1.0) & (1.0 <= hi)))
    assert forced_rate > 0.05 + 3 * _se(0.05, reps)  # the test has the power
    assert coverage < 0.95 - 3 * _se(0.95, reps)


def _bootstrap_limits(old: np.ndarray, new: np.ndarray, rng, resamples: int = 1000,
                      alpha: float = 0.05):
    """Percentile bootstrap of the ratio of means, top-level units resampled (the FLAT
    scheme of one-level data), vectorised over replicates (rows)."""
    reps, no = old.shape
    nn = new.shape[1]
    lo, hi = np.empty(reps), np.empty(reps)
    for start in range(0, reps, 250):
        o, n = old[start:start + 250], new[start:start + 250]
        k = o.shape[0]
        io = rng.integers(0, no, (k, resamples, no))
        i_n = rng.integers(0, nn, (k, resamples, nn))
        ro = np.take_along_axis(o[:, None, :].repeat(resamples, 1), io, 2).mean(2)
        rn = np.take_along_axis(n[:, None, :].repeat(resamples, 1), i_n, 2).mean(2)
        q = np.quantile(rn / ro, [alpha / 2, 1 - alpha / 2], axis=1)
        lo[start:start + k], hi[start:start + k] = q
    return lo, hi


@pytest.mark.slow
@pytest.mark.parametrize("units", [2, 3])  # below the floor (MIN_BOOTSTRAP_UNITS, R7)
def test_mc_bootstrap_with_few_units_draws_no_verdict(units):
    # item 2: --method bootstrap with few binaries, true ratio 1, binary sd 3 %
    reps = 2000
    rng = np.random.default_rng(262 + units)
    old = rng.normal(1.0, 0.03, (reps, units))
    new = rng.normal(1.0, 0.03, (reps, units))
    lo, hi = _bootstrap_limits(old, new, rng)
    raw = np.mean((hi < 1.0) | (lo > 1.0))  # what a verdict from the interval would say
    words = [ez.verdict(a, b, 0.0, method="bootstrap", top_units=units) for a, b in zip(lo, hi)]
    assert sum(w in CHANGES for w in words) == 0
    # the interval is too narrow there: a verdict from it would be wrong too often
    assert raw > 0.05 + 3 * _se(0.05, reps)


def _coverage_and_detection(n_old, n_new, ratio, reps, seed, sd=0.03):
    rng = np.random.default_rng(seed)
    old = rng.normal(1.0, sd, (reps, n_old))
    new = rng.normal(ratio, sd, (reps, n_new))
    lo, hi, _ = _fieller_runs(old, new)
    return float(np.mean((lo <= ratio) & (ratio <= hi))), float(np.mean((lo > 1) | (hi < 1)))


@pytest.mark.slow
@pytest.mark.parametrize("n_old, n_new", [(3, 20), (20, 3), (2, 20)])
def test_mc_few_dominant_units_cover(n_old, n_new):
    # item 3: Welch alone covered 93 % at 3 vs 20 (88 % at 2 vs 20)
    reps = 4000
    cov, _ = _coverage_and_detection(n_old, n_new, 1.0, reps, 263)
    assert cov >= 0.945
    assert cov >= 0.95 - 3 * _se(0.95, reps)


@pytest.mark.slow
def test_mc_equal_designs_cover_and_one_more_unit_does_not_cost_power():
    # item 4 of issue 26: at 5 vs 5 the paper's n - 1 over-covered (97.7 %) and detected
    # a 3 % change less often than 5 vs 6 did. Issue 40's rule covers at least the
    # nominal level there (96.5 % in this simulation) and stays below the paper's
    reps = 10_000
    cov55, _ = _coverage_and_detection(5, 5, 1.0, reps, 264)
    assert 0.95 - 3 * _se(0.95, reps) <= cov55 <= 0.972
    _, det55 = _coverage_and_detection(5, 5, 1.03, reps, 265)
    _, det56 = _coverage_and_detection(5, 6, 1.03, reps, 266)
    # one more unit does not cost power (the two-branch rule before issue 40 lost 4-5
    # points here): 5 v 6 detects at least as often, up to 2 MC SE of the difference
    se = math.sqrt((det55 * (1 - det55) + det56 * (1 - det56)) / reps)
    assert det56 >= det55 - 2 * se


@pytest.mark.slow
def test_mc_suite_of_two_forks_per_benchmark_covers():
    # item 6: 10 benchmarks, 2 forks each, fork sd 2 %, 10 iterations of sd 1 %: the
    # parametric interval of the geometric mean covers; the JSON's lower and upper are
    # the hull of it and the bootstrap's (tests/cli/test_verdict_rules.py), so they
    # cover at least as often
    reps, k, forks, iters = 2000, 10, 2, 10
    rng = np.random.default_rng(266)
    truth = np.exp(rng.normal(0, 0.05, k))

    def fork_means(scale):
        return scale[None, :, None] * (1.0 + rng.normal(0, 0.02, (reps, k, forks))
                                       + rng.normal(0, 0.01 / math.sqrt(iters),
                                                    (reps, k, forks)))

    old, new = fork_means(np.ones(k)), fork_means(truth)
    mo, mn = old.mean(2), new.mean(2)
    wo = old.var(2, ddof=1) / forks / mo**2
    wn = new.var(2, ddof=1) / forks / mn**2
    est, lo, hi, df = ez.geometric_mean_limits(np.log(mn / mo), wo, wn, forks - 1, forks - 1)
    gm = float(np.exp(np.log(truth).mean()))
    cov = float(np.mean((lo <= gm) & (gm <= hi)))
    assert cov >= 0.94
    assert cov >= 0.95 - 3 * _se(0.95, reps)
