"""The BCa interval of the ratio's bootstrap (``bootstrap_ratio_ci(interval="bca")``):
against a slow reference written from Efron & Tibshirani's formulas, against
:func:`scipy.stats.bootstrap` on one-level data, and its limiting and degenerate cases."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from scipy import stats

import esize as ez
from esize._percentile import _result, bca_levels, jackknife_acceleration, percentile_interval

LEVELS = ("process", "iteration")


def _pair(seed=3, n_old=6, n_new=8, sd_top=0.05, sd_low=0.03):
    rng = np.random.default_rng(seed)
    old = np.exp(rng.normal(0, sd_top, (n_old, 1)) + rng.normal(0, sd_low, (n_old, 10)))
    new = np.exp(rng.normal(0, sd_top, (n_new, 1)) + rng.normal(0, sd_low, (n_new, 10)))
    return old, new


def _reference(old, new, replicates, alpha):
    """BCa written out with loops: z0 from the share below (ties half), the jackknife
    deleting each top-level unit of each system in turn, the levels of Efron (1987)
    and the inverse empirical CDF."""
    est = new.mean() / old.mean()
    below = sum(1.0 if r < est else 0.5 if r == est else 0.0 for r in replicates)
    nd = NormalDist()
    z0 = nd.inv_cdf(below / len(replicates))
    num = den = 0.0
    for k, data in enumerate((old, new)):
        n = data.shape[0]
        thetas = []
        for i in range(n):
            rest = np.delete(data, i, axis=0)
            thetas.append(new.mean() / rest.mean() if k == 0 else rest.mean() / old.mean())
        dot = sum(thetas) / n
        for t in thetas:
            u = (n - 1) * (dot - t)
            num += u**3 / n**3
            den += u**2 / n**2
    a = num / (6.0 * den**1.5)
    ordered = sorted(replicates)
    limits = []
    for tail in (alpha / 2, 1 - alpha / 2):
        z = nd.inv_cdf(tail)
        level = nd.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
        limits.append(ordered[max(math.ceil(level * len(ordered)) - 1, 0)])
    return z0, a, limits


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_bca_equals_the_reference(seed):
    old, new = _pair(seed)
    res = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=4000, rng=seed,
                                interval="bca")
    z0, a, (lo, hi) = _reference(old, new, res.bootstrap_distribution.tolist(), 0.05)
    assert res.extra["z0"] == pytest.approx(z0, rel=1e-12, abs=1e-15)
    assert res.extra["acceleration"] == pytest.approx(a, rel=1e-9, abs=1e-15)
    assert (res.lower, res.upper) == (lo, hi)
    assert res.bounded and res.lower <= res.upper


def test_bca_matches_scipy_on_one_level_data():
    """One level resampled: the bootstrap and scipy's two-sample bootstrap of the ratio of
    means resample alike, so from scipy's replicates our levels give scipy's interval
    (scipy interpolates its percentiles linearly, hence ``np.percentile`` here)."""
    rng = np.random.default_rng(11)
    old, new = rng.lognormal(0, 0.3, 15), rng.lognormal(0.1, 0.4, 12)

    def ratio(x, y, axis=-1):
        return y.mean(axis=axis) / x.mean(axis=axis)

    sp = stats.bootstrap((old, new), ratio, method="BCa", n_resamples=5000,
                         confidence_level=0.95, rng=np.random.default_rng(2))
    reps = sp.bootstrap_distribution
    lo_level, hi_level, _ = bca_levels(reps, ratio(old, new), jackknife_acceleration(old, new),
                                       0.05)
    mine = np.percentile(reps, [100 * lo_level, 100 * hi_level])
    ci = sp.confidence_interval
    assert mine == pytest.approx([ci.low, ci.high], rel=1e-10)
    # and the library's own one-level route jackknifes the same units
    res = ez.bootstrap_ratio_ci(old, new, scheme="R", n_resamples=2000, rng=1, interval="bca")
    assert res.extra["acceleration"] == pytest.approx(jackknife_acceleration(old, new),
                                                      rel=1e-12)


def test_no_bias_and_no_acceleration_give_the_percentile_interval():
    reps = np.random.default_rng(0).normal(1.0, 0.1, 2001)
    est = float(np.median(reps))  # half below, one tie: z0 = 0 exactly
    assert bca_levels(reps, est, 0.0, 0.05) == (0.025, 0.975, 0.0)
    bca = _result(est, reps, 0.05, "RR", reps.size, acceleration=0.0)
    plain = _result(est, reps, 0.05, "RR", reps.size)
    assert (bca.lower, bca.upper) == (plain.lower, plain.upper) == percentile_interval(reps, 0.05)


def test_bias_and_acceleration_move_the_levels_as_efron_says():
    reps = np.arange(1, 1001) / 1000
    lo0, hi0, z0 = bca_levels(reps, 0.6, 0.0, 0.05)
    assert z0 > 0 and lo0 > 0.025 and hi0 > 0.975  # more below: both limits move up
    lo1, hi1, _ = bca_levels(reps, 0.6, 0.05, 0.05)
    assert lo1 > lo0 and hi1 > hi0  # positive acceleration: both levels move further up


def test_scaling_all_times_gives_the_same_interval():
    old, new = _pair(7)
    a = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=2000, rng=5, interval="bca")
    b = ez.bootstrap_ratio_ci(1000 * old, 1000 * new, scheme="RR", n_resamples=2000, rng=5,
                              interval="bca")
    for x, y in ((a.estimate, b.estimate), (a.lower, b.lower), (a.upper, b.upper),
                 (a.extra["z0"], b.extra["z0"])):
        assert x == pytest.approx(y, rel=1e-12)
    assert a.extra["acceleration"] == pytest.approx(b.extra["acceleration"], rel=1e-9, abs=1e-15)


def test_same_replicates_as_the_expanded_interval():
    old, new = _pair(8)
    e = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=2000, rng=9, expand=True)
    b = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=2000, rng=9, interval="bca")
    assert np.array_equal(e.bootstrap_distribution, b.bootstrap_distribution)
    e2 = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=2000, rng=9,
                               interval="expanded")
    assert (e.lower, e.upper) == (e2.lower, e2.upper)


def test_constant_data_give_a_point_without_nan():
    old = np.full((5, 4), 2.0)
    new = np.full((5, 4), 1.0)
    res = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=500, rng=1, interval="bca")
    assert (res.lower, res.upper, res.estimate) == (0.5, 0.5, 0.5)
    assert res.bounded and res.extra["acceleration"] == 0.0 and "bca_note" in res.extra


def test_every_replicate_on_one_side_is_not_usable():
    reps = np.linspace(1.1, 1.3, 1000)  # the estimate 1.0 lies below them all
    assert all(math.isnan(x) for x in bca_levels(reps, 1.0, 0.0, 0.05)[:2])
    res = _result(1.0, reps, 0.05, "RR", reps.size, acceleration=0.01)
    assert not res.bounded and (res.lower, res.upper) == (-math.inf, math.inf)
    assert "not defined" in res.extra["bca_note"]
    assert ez.verdict(res.lower, res.upper, bounded=res.bounded) == "inconclusive"


def test_arguments():
    old, new = _pair(1)
    with pytest.raises(ez.EsizeError, match="interval"):
        ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=500, rng=1,
                              interval="studentized")
    with pytest.raises(ez.EsizeError, match="expand=True"):
        ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=500, rng=1, expand=True,
                              interval="bca")
    with pytest.raises(ez.EsizeError, match="top level"):
        ez.bootstrap_ratio_ci(old, new, scheme="NR", n_resamples=500, rng=1, interval="bca")
    flat = ez.bootstrap_ratio_ci(old, new, scheme="FLAT", n_resamples=500, rng=1,
                                 interval="bca")
    assert flat.extra["acceleration"] == pytest.approx(
        jackknife_acceleration(old.ravel(), new.ravel()))


def test_acceleration_closed_form_equals_deleting_units():
    old, new = _pair(12, 5, 9)
    _, a, _ = _reference(old, new, [0.0, 5.0], 0.05)
    assert jackknife_acceleration(old.mean(axis=1), new.mean(axis=1)) == pytest.approx(
        a, rel=1e-9, abs=1e-15)
