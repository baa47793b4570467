"""Each system on its own power-of-two scale: the ratio intervals (Fieller, delta, the
bootstrap, a suite's geometric mean) depend on the two systems only through relative
quantities, so scaling one system by any factor scales the ratio and both limits by
exactly that factor, and the interval relative to the ratio not at all."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import esize as ez

#: "Exactly" for a factor that is not a power of two: each value is rounded once.
REL = 1e-9

L3 = ("binary", "execution", "measurement")


def _pair(seed: int, shape=(5, 3, 4), noise=0.05):
    """Two hierarchical systems near 10 and 8 with a few percent of noise per level."""
    rng = np.random.default_rng(seed)

    def one(mean):
        top = rng.normal(0.0, noise, (shape[0], 1, 1))
        mid = rng.normal(0.0, noise / 2, (shape[0], shape[1], 1))
        low = rng.normal(0.0, noise / 4, shape)
        return ez.Design(mean * (1 + top) * (1 + mid) * (1 + low), L3)

    return one(10.0), one(8.0)


def _scaled(design: ez.Design, factor: float) -> ez.Design:
    return ez.Design(design.data * factor, design.levels)


def _assert_scaled(got: ez.Interval, want: ez.Interval, factor: float) -> None:
    assert got.bounded == want.bounded
    for a, b in ((got.estimate, want.estimate), (got.lower, want.lower), (got.upper, want.upper)):
        assert math.isclose(a, b * factor, rel_tol=REL, abs_tol=0.0), (a, b, factor)


# -- Fieller and delta: a property over factors 10**k ----------------------------------
@settings(max_examples=150, deadline=None)
@given(k=st.integers(-300, 300), seed=st.integers(0, 2**16), side=st.sampled_from(["old", "new"]),
       normal=st.booleans())
def test_fieller_and_delta_scale_with_one_system(k, seed, side, normal):
    old, new = _pair(seed)
    c = 10.0**k
    if side == "old":
        args, factor = (_scaled(old, c), new), 1.0 / c
    else:
        args, factor = (old, _scaled(new, c)), c
    for ci in (ez.fieller_ci, ez.delta_ci):
        base, got = ci(old, new, normal=normal), ci(*args, normal=normal)
        _assert_scaled(got, base, factor)
        # Welch-Satterthwaite from relative variances (issue 26): equal up to rounding
        assert got.extra["df"] == (None if normal else pytest.approx(base.extra["df"], rel=1e-12))


@settings(max_examples=100, deadline=None)
@given(k=st.integers(-1000, 1000), seed=st.integers(0, 2**16))
def test_a_power_of_two_scales_the_limits_bit_for_bit(k, seed):
    # scaling by 2**k is exact, and so is every step on each system's own scale
    old, new = _pair(seed, shape=(4, 2, 3))
    scaled = _scaled(old, 2.0**k)
    for ci in (ez.fieller_ci, ez.delta_ci):
        base, got = ci(old, new), ci(scaled, new)
        assert (got.estimate, got.lower, got.upper) == tuple(
            math.ldexp(v, -k) for v in (base.estimate, base.lower, base.upper))
    boot = ez.bootstrap_ratio_ci(old, new, n_resamples=200, rng=seed)
    got = ez.bootstrap_ratio_ci(scaled, new, n_resamples=200, rng=seed)
    assert np.array_equal(got.bootstrap_distribution, np.ldexp(boot.bootstrap_distribution, -k))


def test_designs_of_different_shapes_scale_too():
    # different numbers of top-level units: the Welch-Satterthwaite degrees of freedom
    # come from relative variances, which do not see the scale
    old, _ = _pair(1, shape=(4, 2, 3))
    _, new = _pair(2, shape=(9, 3, 2))
    base = ez.fieller_ci(old, new)
    for k in (-300, -200, 200, 300):
        got = ez.fieller_ci(_scaled(old, 10.0**k), new)
        _assert_scaled(got, base, 10.0**-k)
        assert got.extra["df"] == pytest.approx(base.extra["df"], rel=1e-12)


def test_the_reported_interval_is_no_longer_narrow_or_unbounded():
    # old.csv of the examples (the paper's worked comparison): old times 1e200 gave a
    # Fieller interval some 90x too narrow relative to the ratio, old / 1e200 "unbounded"
    old = ez.Design([[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]], L3)
    new = ez.Design([[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]], L3)
    base = ez.fieller_ci(old, new)
    for c in (1e200, 1e-200):
        got = ez.fieller_ci(_scaled(old, c), new)
        assert got.bounded
        _assert_scaled(got, base, 1.0 / c)


def test_public_fieller_scales_each_system_on_its_own():
    # means 1e-150 apart, variances still floats: no common scale underflows
    lo, hi, ok = ez.fieller(1.0, 0.01, 0.9, 0.02, 2.0)
    lo2, hi2, ok2 = ez.fieller(1e-150, 0.01e-300, 0.9, 0.02, 2.0)
    assert ok and ok2
    assert lo2 == pytest.approx(lo * 1e150, rel=1e-12)
    assert hi2 == pytest.approx(hi * 1e150, rel=1e-12)
    # an array of such pairs, broadcast
    x = np.array([1.0, 1e-150, 1e150])
    lo3, hi3, ok3 = ez.fieller(x, 0.01 * x * x, 0.9, 0.02, 2.0)
    assert np.all(ok3)
    np.testing.assert_allclose(lo3 * x, lo, rtol=1e-12)
    np.testing.assert_allclose(hi3 * x, hi, rtol=1e-12)


def test_new_mean_near_zero_keeps_a_bounded_interval():
    # the new mean is tiny next to its own standard error: scaling it by its own mean
    # would overflow its variance; by the larger of mean and standard error it does not
    lo, hi, ok = ez.fieller(1.0, 0.01, 1e-300, 1.0, 2.0)
    assert ok
    assert lo == pytest.approx(-2.0 / math.sqrt(1 - 0.04), rel=1e-9)
    assert hi == pytest.approx(2.0 / math.sqrt(1 - 0.04), rel=1e-9)


def test_mean_ci_scales():
    old, _ = _pair(3)
    base = ez.mean_ci(old)
    for k in (-300, 300):
        _assert_scaled(ez.mean_ci(_scaled(old, 10.0**k)), base, 10.0**k)


# -- the bootstrap and the suite ------------------------------------------------------------
@pytest.mark.parametrize("k", [-300, -200, 200, 300])
def test_bootstrap_ratio_scales_with_one_system(k):
    old, new = _pair(4)
    c = 10.0**k
    base = ez.bootstrap_ratio_ci(old, new, n_resamples=500, rng=9)
    got = ez.bootstrap_ratio_ci(old, _scaled(new, c), n_resamples=500, rng=9)
    _assert_scaled(got, base, c)
    np.testing.assert_allclose(got.bootstrap_distribution, base.bootstrap_distribution * c,
                               rtol=REL)
    mean = ez.bootstrap_mean_ci(_scaled(new, c), n_resamples=500, rng=9)
    _assert_scaled(mean, ez.bootstrap_mean_ci(new, n_resamples=500, rng=9), c)


@pytest.mark.parametrize("k", [-300, -200, 200, 300])
@pytest.mark.parametrize("normal", [False, True])
def test_suite_geometric_mean_scales_with_one_file(k, normal):
    pairs = [_pair(s, shape=(4, 2, 3)) for s in (5, 6, 7)]
    c = 10.0**k
    scaled = [(_scaled(o, c), n) for o, n in pairs]  # the whole old file
    base = ez.geometric_mean_ratio_ci(pairs, n_resamples=400, rng=2, names=list("abc"),
                                      normal=normal)
    got = ez.geometric_mean_ratio_ci(scaled, n_resamples=400, rng=2, names=list("abc"),
                                     normal=normal)
    for a, b in ((got.geometric_mean, base.geometric_mean), (got.lower, base.lower),
                 (got.upper, base.upper)):
        assert math.isclose(a, b / c, rel_tol=REL)
    _assert_scaled(got.parametric, base.parametric, 1.0 / c)
    if normal:
        assert got.parametric.extra["df"] is base.parametric.extra["df"] is None
    else:
        assert got.parametric.extra["df"] == pytest.approx(base.parametric.extra["df"], rel=REL)
    assert got.parametric.extra["log_se"] == pytest.approx(base.parametric.extra["log_se"],
                                                           rel=REL)
    for g, b in zip(got.intervals, base.intervals):
        _assert_scaled(g, b, 1.0 / c)
    # one benchmark alone in a file 1e200 times the other: the parametric route too
    par = ez.geometric_mean_ratio_parametric(scaled, normal=normal)
    _assert_scaled(par, ez.geometric_mean_ratio_parametric(pairs, normal=normal), 1.0 / c)


def test_suite_with_one_stray_value_has_finite_relative_variances():
    # one corrupted value of 1e300 among a benchmark's old measurements: the other
    # system's squared mean, on a common scale, underflowed (ZeroDivisionError)
    pairs = [_pair(s, shape=(5, 2, 2)) for s in (1, 2)]
    data = pairs[0][0].data.copy()
    data[1, 0, 0] = 1e300
    pairs[0] = (ez.Design(data, L3), pairs[0][1])
    s = ez.geometric_mean_ratio_ci(pairs, n_resamples=400, rng=1, names=["x", "y"])
    assert np.isfinite(s.geometric_mean) and s.parametric is not None
    assert np.isfinite(s.parametric.extra["log_se"])
    assert not ez.fieller_ci(*pairs[0]).bounded  # that old mean is not distinguishable from 0


def test_replicates_near_the_end_of_the_range_are_no_error():
    # one tiny value among five: a replicate of five copies of it has a ratio of some
    # 1e304, a float; only the estimate's range matters
    old = np.array([41377.0, 1e-300, 40316.0, 41000.0, 40800.0])
    new = np.array([41000.0, 41200.0, 40900.0, 40700.0, 41100.0])
    s = ez.geometric_mean_ratio_ci([(old, new), (new, old)], n_resamples=10_000, rng=1,
                                   names=["a", "b"])
    assert s.intervals[0].bootstrap_distribution.max() > 1e300
    assert np.all(np.isfinite(s.bootstrap_distribution))


def test_replicate_ratio_beyond_the_floats_keeps_its_logarithm():
    # a replicate whose ratio overflows still enters the geometric mean by its logarithm
    old = np.array([1.0, 1e-300, 1.0])
    new = np.array([1e10, 1e10, 1e10])
    s = ez.geometric_mean_ratio_ci([(old, new), (new, new)], n_resamples=2000, rng=3,
                                   names=["a", "b"])
    ratios = s.intervals[0].bootstrap_distribution
    assert np.isinf(ratios).any()  # all three draws the tiny value: 1e310
    expected = 1e155  # that replicate's geometric mean, sqrt(1e310 * 1)
    gm = s.bootstrap_distribution[np.isinf(ratios)]
    np.testing.assert_allclose(gm, expected, rtol=1e-9)


# -- a ratio that truly leaves the floats ---------------------------------------------------
def test_ratio_beyond_the_floats_is_refused_by_every_route():
    a = np.arange(1.0, 13.0).reshape(4, 3)
    old, new = a * 1e-300, a * 1e300
    for call in (lambda: ez.fieller_ci(old, new), lambda: ez.delta_ci(old, new),
                 lambda: ez.bootstrap_ratio_ci(old, new, scheme="RR", rng=1, n_resamples=200),
                 lambda: ez.geometric_mean_ratio_ci([(old, new)], n_resamples=200, rng=1,
                                                    names=["x"])):
        with pytest.raises(ez.EsizeError, match=r"about 10\^600\) is beyond the floating"):
            call()


def test_zero_old_mean_is_unbounded_not_a_division_error():
    a = np.arange(1.0, 13.0).reshape(4, 3)
    ci = ez.fieller_ci(np.zeros((4, 3)), a)
    assert not ci.bounded and ci.lower == -math.inf and ci.upper == math.inf


# -- numbers in words -------------------------------------------------------------------
def test_unbounded_description_is_compact():
    text = ez.describe(6.190476190476191e199, -math.inf, math.inf, bounded=False)
    assert text == "ratio new/old = 6.19048e+199; the 95 % interval is unbounded"
    assert ez.describe(0.62, -math.inf, math.inf, bounded=False) == (
        "ratio new/old = 0.6200; the 95 % interval is unbounded")
    assert ez.describe(-1e250, 1.0, 2.0) == "ratio new/old = -1e+250: the change is undefined"
