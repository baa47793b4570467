"""The fast hierarchical bootstrap against the paper's pseudo-code and exact moments."""

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import esize as ez
from esize._bootstrap import IndexStream, group_size
from reference import resample_means_loops, rrr_bootstrap_variance

SCHEMES3 = ["RRR", "RRN", "RNN", "NRR", "NNR", "RNR", "FLAT"]


@pytest.mark.parametrize("scheme", SCHEMES3)
def test_fast_equals_reference_loops(scheme):
    y = np.random.default_rng(5).lognormal(0.0, 0.3, size=(4, 3, 5))
    fast = ez.resample_means(y, scheme, 40, rng=123)
    slow = resample_means_loops(y, scheme, 40, rng=123)
    np.testing.assert_allclose(fast, slow, rtol=1e-12)


@settings(max_examples=25, deadline=None)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_fast_equals_reference_any_depth(shape, data, seed):
    letters = data.draw(st.text(alphabet="RN", min_size=len(shape), max_size=len(shape)))
    scheme = data.draw(st.sampled_from([letters, "FLAT"]))
    y = np.random.default_rng(seed).gamma(2.0, 1.0, size=shape) + 0.1
    fast = ez.resample_means(y, scheme, 7, rng=seed, batch=3)
    slow = resample_means_loops(y, scheme, 7, rng=seed)
    np.testing.assert_allclose(fast, slow, rtol=1e-12)


@pytest.mark.parametrize("high", [179, 35800, 70001])
def test_a_stream_that_knows_its_total_gives_the_same_values(high):
    # Told its total, a stream draws no more than that from the generator; the
    # values must be those of full chunks, over several chunks and odd request sizes
    # (16-bit draws with heavy rejection, and 32-bit ones).
    sizes = [1, 7, IndexStream.CHUNK - 3, 5, 2 * IndexStream.CHUNK + 11, 999]
    seed = np.random.SeedSequence(42)
    full, capped = IndexStream(seed), IndexStream(seed)
    capped.expect(sum(sizes))
    for n in sizes:
        np.testing.assert_array_equal(capped.integers(high, n), full.integers(high, n))
    with pytest.raises(ez.EsizeError, match="more values than expected"):
        capped.integers(high, 1)


@pytest.mark.parametrize("shape", [(3, 7), (2, 3, 11), (5, 20)])
def test_grouped_draws_with_a_partial_group(shape):
    # The lowest resampled level draws k children as one code; here k does not
    # divide the number of children, so every slot also has a partial group.
    units, n = int(np.prod(shape[:-1])), shape[-1]
    k = group_size(units, n)
    assert 1 < k < n and n % k
    y = np.random.default_rng(8).lognormal(0.0, 0.3, size=shape)
    fast = ez.resample_means(y, "R" * len(shape), 60, rng=77, batch=7)
    np.testing.assert_allclose(fast, resample_means_loops(y, "R" * len(shape), 60, rng=77),
                               rtol=1e-12)
    np.testing.assert_array_equal(fast, ez.resample_means(y, "R" * len(shape), 60, rng=77))


@pytest.mark.parametrize("shape", [(20, 3), (5, 4, 2)])
def test_joint_draw_of_a_child_and_its_code(shape):
    # A pyperf-like design (processes x values): each value group is one code, drawn
    # together with the process above it as a single index.
    assert group_size(int(np.prod(shape[:-1])), shape[-1]) == shape[-1]
    y = np.random.default_rng(3).lognormal(0.0, 0.2, size=shape)
    scheme = "R" * len(shape)
    fast = ez.resample_means(y, scheme, 50, rng=5, batch=6)
    np.testing.assert_allclose(fast, resample_means_loops(y, scheme, 50, rng=5), rtol=1e-12)
    np.testing.assert_array_equal(fast, ez.resample_means(y, scheme, 50, rng=5))


@pytest.mark.parametrize("units, n, k", [(1, 3, 1), (2, 3, 2), (3, 2, 4), (2, 5, 3)])
def test_tuple_sums_are_the_sums_of_the_digits(units, n, k):
    import itertools

    v = np.random.default_rng(units + n + k).lognormal(size=(units, n))
    table = ez.tuple_sums(v, k)
    assert table.shape == (units, n**k)
    for code, digits in enumerate(itertools.product(range(n), repeat=k)):  # first digit first
        for u in range(units):
            assert table[u, code] == pytest.approx(sum(v[u, d] for d in digits), rel=1e-15)
    both = ez.tuple_sums(v + 1j * v[::-1], k)  # two statistics in one complex table
    np.testing.assert_array_equal(both.real, table)
    np.testing.assert_array_equal(both.imag, ez.tuple_sums(v[::-1], k))


def test_tuple_sums_refuse_what_is_not_a_table():
    import doctest

    with pytest.raises(ez.EsizeError, match="2-D array"):
        ez.tuple_sums([1.0, 2.0], 2)
    with pytest.raises(ez.EsizeError, match="positive integer"):
        ez.tuple_sums([[1.0, 2.0]], 0)
    with pytest.raises(ez.EsizeError, match="positive integer"):
        ez.tuple_sums([[1.0, 2.0]], 1.5)
    assert ez.tuple_sums(np.zeros((0, 3)), 2).shape == (0, 9)
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(ez.tuple_sums, "tuple_sums"):
        runner.run(test)
    assert runner.tries >= 2 and runner.failures == 0


@pytest.mark.parametrize("scheme", ["RRR", "RNR", "FLAT"])
def test_batch_size_does_not_change_replicates(scheme):
    y = np.random.default_rng(1).normal(10, 1, size=(6, 5, 7))
    ref = ez.resample_means(y, scheme, 101, rng=9)
    for batch in (1, 2, 7, 50, 1000):
        np.testing.assert_array_equal(ez.resample_means(y, scheme, 101, rng=9, batch=batch), ref)


def test_generator_and_seed_routes():
    y = np.random.default_rng(1).normal(10, 1, size=(6, 5, 7))
    a = ez.resample_means(y, "RRR", 50, rng=np.random.default_rng(3))
    b = ez.resample_means(y, "RRR", 50, rng=np.random.default_rng(3))
    c = ez.resample_means(y, "RRR", 50, rng=np.random.default_rng(4))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("scheme", ["RRR", "RRN", "RNN", "NRR", "FLAT"])
def test_bootstrap_variance_matches_exact_moment(scheme):
    # The variance of the replicate mean under resampling has a closed form; 20000
    # replicates estimate it with a relative standard error of about 1 %.
    y = np.random.default_rng(11).lognormal(0.0, 0.4, size=(8, 6, 10))
    means = ez.resample_means(y, scheme, 20_000, rng=2024)
    expected = rrr_bootstrap_variance(y, scheme)
    assert means.mean() == pytest.approx(y.mean(), abs=4 * np.sqrt(expected / 20_000))
    assert means.var(ddof=1) == pytest.approx(expected, rel=0.06)


def test_all_intact_scheme_is_constant():
    y = np.random.default_rng(0).normal(size=(3, 4))
    np.testing.assert_allclose(ez.resample_means(y, "NN", 5, rng=1), y.mean())


def test_memory_is_bounded_on_paper_sized_data():
    # 150 x 100 x 64 as in the paper. Memory must not grow with the number of
    # replicates beyond the output vector: B = 100000 would need ~0.8 MB for the
    # output and the same bounded working set as B = 30.
    y = np.ones((150, 100, 64))
    tracemalloc.start()
    ez.resample_means(y, "RRR", 30, rng=0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 64 * 2**20, f"peak {peak / 2**20:.1f} MiB"


def test_ratio_interval_and_percentiles():
    rng = np.random.default_rng(3)
    old = rng.normal(10.0, 0.5, size=(20, 5, 8))
    new = rng.normal(9.0, 0.5, size=(20, 5, 8))
    ci = ez.bootstrap_ratio_ci(old, new, n_resamples=2000, rng=1)
    ratios = ci.bootstrap_distribution
    assert ci.lower < new.mean() / old.mean() < ci.upper
    assert ratios.shape == (2000,)
    s = np.sort(ratios)
    # inverse-ECDF percentiles: the 50th and 1950th ordered values for B = 2000
    assert ci.lower == s[49] and ci.upper == s[1949]
    again = ez.bootstrap_ratio_ci(old, new, n_resamples=2000, rng=1)
    assert (again.lower, again.upper) == (ci.lower, ci.upper)


def test_percentile_matches_paper_order_statistics():
    v = np.arange(1, 1001, dtype=float)[::-1]
    assert ez.percentile_interval(v, 0.05) == (25.0, 975.0)


@pytest.mark.parametrize("bad", ["RR", "RRRR", "RXR", "", "flatten"])
def test_bad_scheme(bad):
    with pytest.raises(ez.EsizeError):
        ez.resample_means(np.ones((2, 2, 2)), bad, 5, rng=0)


def test_bad_rng_type():
    with pytest.raises(ez.EsizeError):
        ez.resample_means(np.ones((2, 2)), "RR", 5, rng="seed")


PV = ("process", "value")


def test_suite_and_ratio_share_one_engine():
    rng = np.random.default_rng(4)
    a = ez.Design(1 + rng.random((6, 4)), PV)
    b = ez.Design(1.1 + rng.random((6, 4)), PV)
    ticks = []
    ci = ez.bootstrap_ratio_ci(a, b, scheme="RN", n_resamples=777, rng=9, progress=ticks.append)
    assert sum(ticks) == 2 * 777
    reps = ci.bootstrap_distribution
    assert isinstance(ci, ez.BootstrapResult) and reps.shape == (777,)
    assert ci.standard_error == pytest.approx(np.std(reps, ddof=1))
    one = ez.geometric_mean_ratio_ci([(a, b)], scheme="RN", n_resamples=777, rng=9)
    assert (one.lower, one.upper) == (ci.lower, ci.upper)
    np.testing.assert_array_equal(one.intervals[0].bootstrap_distribution, reps)
    np.testing.assert_array_equal(one.bootstrap_distribution, reps)
    two = ez.geometric_mean_ratio_ci([(a, b), (b, a)], n_resamples=500, rng=9, names=["p", "q"])
    again = ez.geometric_mean_ratio_ci([(a, b)], n_resamples=500, rng=9, names=["p"])
    np.testing.assert_array_equal(two.ratios[0], again.ratios[0])  # keyed by name
    assert two.geometric_mean == pytest.approx(1.0)
    gm = np.exp(np.log(two.ratios).mean(axis=0))
    np.testing.assert_allclose(two.bootstrap_distribution, gm, rtol=0, atol=0)
    assert (two.lower, two.upper) == ez.percentile_interval(gm, 0.05)


@pytest.mark.parametrize("workers", [1, 2, 3])
@pytest.mark.parametrize("batch", [None, 7])
def test_results_do_not_depend_on_workers_or_batch(workers, batch):
    rng = np.random.default_rng(5)
    pairs = [(rng.lognormal(size=(5, 3, 4)), rng.lognormal(size=(4, 3, 4))) for _ in range(3)]
    ref = ez.geometric_mean_ratio_ci(pairs, n_resamples=300, rng=11, names=list("abc"), workers=1)
    ticks = []
    got = ez.geometric_mean_ratio_ci(
        pairs, n_resamples=300, rng=11, names=list("abc"), workers=workers, batch=batch,
        progress=ticks.append,
    )
    assert sum(ticks) == 2 * 3 * 300
    np.testing.assert_array_equal(got.ratios, ref.ratios)
    assert (got.lower, got.upper) == (ref.lower, ref.upper)
    pair = ez.bootstrap_ratio_ci(*pairs[0], n_resamples=300, rng=3, workers=workers, batch=batch)
    alone = ez.bootstrap_ratio_ci(*pairs[0], n_resamples=300, rng=3, workers=1)
    np.testing.assert_array_equal(pair.bootstrap_distribution, alone.bootstrap_distribution)


def test_bad_workers_and_mismatched_levels():
    y = np.ones((3, 2))
    with pytest.raises(ez.EsizeError, match="workers"):
        ez.bootstrap_ratio_ci(y, y, scheme="RR", rng=1, workers=0)
    with pytest.raises(ez.EsizeError, match="2 and 3 levels"):
        ez.bootstrap_ratio_ci(y, np.ones((3, 2, 2)), scheme="RR", rng=1)
    with pytest.raises(ez.EsizeError, match="schemes"):
        ez.geometric_mean_ratio_ci([(y, y)], scheme=["R", "R"], rng=1)


# -- how many resamples a percentile interval needs; what fits in memory ---------------------
def test_minimum_resamples_rule():
    # each alpha/2 tail must hold at least 5 replicates: B >= 5 / (alpha / 2)
    assert ez.minimum_resamples(0.05) == 200
    assert ez.minimum_resamples(0.1) == 100
    assert ez.minimum_resamples(0.01) == 1000
    assert ez.minimum_resamples(0.03) == 334
    with pytest.raises(ez.EsizeError):
        ez.minimum_resamples(0.0)


@pytest.mark.parametrize("route", ["ratio", "mean", "suite"])
def test_too_few_resamples_are_refused(route):
    y = np.random.default_rng(0).lognormal(size=(4, 3))

    def run(n, alpha):
        if route == "ratio":
            return ez.bootstrap_ratio_ci(y, 1.1 * y, scheme="RR", n_resamples=n, alpha=alpha,
                                         rng=1)
        if route == "mean":
            return ez.bootstrap_mean_ci(y, scheme="RR", n_resamples=n, alpha=alpha, rng=1)
        return ez.geometric_mean_ratio_ci([(y, 1.1 * y)], n_resamples=n, alpha=alpha, rng=1)

    for n, alpha in ((1, 0.05), (199, 0.05), (999, 0.01), (99, 0.1)):
        with pytest.raises(ez.EsizeError, match="too few") as info:
            run(n, alpha)
        assert str(ez.minimum_resamples(alpha)) in str(info.value)
    for n, alpha in ((200, 0.05), (1000, 0.01), (100, 0.1)):
        ci = run(n, alpha)
        reps = np.sort(ci.bootstrap_distribution)
        # the limits are the 5th order statistics from each end (or further in)
        assert reps[4] <= ci.lower < ci.upper <= reps[-5]


def test_the_minimum_interval_is_not_degenerate():
    # one resample used to give a zero-width interval that excluded the estimate
    y = np.random.default_rng(0).lognormal(size=(4, 3))
    ci = ez.bootstrap_ratio_ci(y, 1.1 * y, scheme="RR", n_resamples=200, rng=1)
    s = np.sort(ci.bootstrap_distribution)
    assert ci.lower == s[4] and ci.upper == s[194]
    assert ci.lower < ci.estimate < ci.upper


@pytest.mark.parametrize("route", ["means", "ratio", "mean", "suite"])
def test_resamples_beyond_memory_are_refused_up_front(route):
    y = np.ones((3, 2))
    n = 10**12  # 8 TB per replicate array
    with pytest.raises(ez.EsizeError, match="memory"):
        if route == "means":
            ez.resample_means(y, "RR", n, rng=1)
        elif route == "ratio":
            ez.bootstrap_ratio_ci(y, y, scheme="RR", n_resamples=n, rng=1)
        elif route == "mean":
            ez.bootstrap_mean_ci(y, scheme="RR", n_resamples=n, rng=1)
        else:
            ez.geometric_mean_ratio_ci([(y, y), (y, y)], n_resamples=n, rng=1)


# -- the unit of measure ---------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(k=st.integers(-300, 300), seed=st.integers(0, 2**32 - 1))
def test_bootstrap_does_not_depend_on_the_unit(k, seed):
    rng = np.random.default_rng(seed)
    old = rng.lognormal(2.0, 0.3, size=(4, 1, 1)) + rng.lognormal(0.0, 0.3, size=(4, 3, 5))
    new = old * rng.lognormal(0.0, 0.1, size=old.shape)
    c = 10.0**k
    a = ez.bootstrap_ratio_ci(old, new, n_resamples=400, rng=seed)
    b = ez.bootstrap_ratio_ci(old * c, new * c, n_resamples=400, rng=seed)
    np.testing.assert_allclose(b.bootstrap_distribution, a.bootstrap_distribution, rtol=1e-12)
    assert (b.estimate, b.lower, b.upper) == pytest.approx((a.estimate, a.lower, a.upper), rel=1e-12)
    for t in (0.0, 0.02):
        assert ez.verdict(b.lower, b.upper, t) == ez.verdict(a.lower, a.upper, t)
    m, mc = ez.bootstrap_mean_ci(old, n_resamples=400, rng=seed), ez.bootstrap_mean_ci(
        old * c, n_resamples=400, rng=seed)
    assert (mc.lower, mc.upper) == pytest.approx((m.lower * c, m.upper * c), rel=1e-12)
    # a suite whose benchmarks are in units 10**k apart
    pairs = [(old, new), (new, old * 1.05)]
    s = ez.geometric_mean_ratio_ci(pairs, n_resamples=400, rng=seed, names=["a", "b"])
    sc = ez.geometric_mean_ratio_ci([(old * c, new * c), pairs[1]], n_resamples=400, rng=seed,
                                    names=["a", "b"])
    assert (sc.geometric_mean, sc.lower, sc.upper) == pytest.approx(
        (s.geometric_mean, s.lower, s.upper), rel=1e-12)
    assert (sc.parametric.lower, sc.parametric.upper) == pytest.approx(
        (s.parametric.lower, s.parametric.upper), rel=1e-9)


# -- the suite's parametric companion and the interval its verdict rests on -------------------
def _suite(seed, n_top=3):
    rng = np.random.default_rng(seed)
    pairs = []
    for mu in (100.0, 40.0, 7.0):
        o = mu * (1 + 0.05 * rng.standard_normal((n_top, 1)) + 0.02 * rng.standard_normal((n_top, 4)))
        n = 0.95 * mu * (1 + 0.05 * rng.standard_normal((n_top, 1))
                         + 0.02 * rng.standard_normal((n_top, 4)))
        pairs.append((ez.Design(o, PV), ez.Design(n, PV)))
    return pairs


@pytest.mark.parametrize("normal", [False, True])
def test_suite_interval_carries_the_parametric_interval(normal):
    pairs = _suite(1)
    s = ez.geometric_mean_ratio_ci(pairs, n_resamples=1000, rng=3, names=list("abc"),
                                   normal=normal, invert=[False, True, False])
    p = ez.geometric_mean_ratio_parametric(pairs, normal=normal, invert=[False, True, False])
    assert isinstance(s.parametric, ez.Interval)
    assert (s.parametric.estimate, s.parametric.lower, s.parametric.upper) == (
        p.estimate, p.lower, p.upper)
    assert s.parametric.estimate == pytest.approx(s.geometric_mean, rel=1e-12)
    v = s.verdict_interval
    assert v.lower == min(s.lower, p.lower) and v.upper == max(s.upper, p.upper)
    assert v.estimate == s.geometric_mean and v.alpha == s.alpha
    expected = ("bootstrap" if (v.lower, v.upper) == (s.lower, s.upper) else
                "parametric" if (v.lower, v.upper) == (p.lower, p.upper) else
                "bootstrap+parametric")
    assert v.method == expected
    d = s.as_dict()
    assert d["parametric"]["lower"] == p.lower and d["parametric"]["df"] == p.extra["df"]
    assert d["parametric"]["quantile"] == ("normal" if normal else "t")


def test_with_few_units_the_parametric_interval_is_the_wider():
    # 3 binaries per system: the percentile bootstrap is too narrow, the t interval with
    # its few degrees of freedom is not, and the verdict interval holds both
    s = ez.geometric_mean_ratio_ci(_suite(1), n_resamples=2000, rng=3, names=list("abc"))
    v = s.verdict_interval
    assert v.method in ("parametric", "bootstrap+parametric")
    assert v.upper - v.lower > s.upper - s.lower


def test_suite_with_one_top_level_unit_has_an_unbounded_verdict_interval():
    y = ez.Design(np.arange(1.0, 5.0).reshape(1, 4), PV)
    s = ez.geometric_mean_ratio_ci([(y, y)], scheme="NR", n_resamples=200, rng=1)
    assert s.bounded  # the bootstrap has an interval ...
    assert not s.parametric.bounded  # ... but no top-level variance can be estimated
    v = s.verdict_interval
    assert not v.bounded and (v.lower, v.upper) == (-np.inf, np.inf) and v.method == "parametric"


def test_suite_ratio_beyond_float_range_is_named():
    # Two results in wildly different units: the ratio of means (about e^-1382) is not
    # a float; the suite says which benchmark, instead of a misleading positivity error.
    a = 1e300 * (1 + np.arange(12.0).reshape(4, 3) * 0.01)
    with pytest.raises(ez.EsizeError, match=r"benchmark x: .*beyond the floating-point range"):
        ez.geometric_mean_ratio_ci([(a, a / 1e300 / 1e300), (a, a)],
                                   n_resamples=400, rng=1, names=["x", "y"])


def test_systems_with_different_designs_are_resampled_within_themselves():
    rng = np.random.default_rng(8)
    old = rng.lognormal(0.0, 0.01, (20, 3))
    # processes of the new system differ (sd 0.1 on the log scale): flattening them away
    # must narrow its interval
    new = rng.lognormal(-1.5 + rng.normal(0.0, 0.1, (10, 1)), 0.1, (10, 250))
    r = ez.bootstrap_ratio_ci(old, new, scheme=None, rng=3, n_resamples=2000)
    assert r.method == "bootstrap-RR"
    assert r.lower < new.mean() / old.mean() < r.upper
    # other levels: one scheme per system, named OLD/NEW
    flat = ez.bootstrap_ratio_ci(old, new.ravel(), scheme="RR/R", rng=3, n_resamples=2000)
    assert flat.method == "bootstrap-RR/R"
    assert flat.upper - flat.lower < 0.5 * (r.upper - r.lower)  # 2500 'independent' values
    with pytest.raises(ez.EsizeError, match="OLD/NEW"):
        ez.bootstrap_ratio_ci(old, new.ravel(), scheme="RR", rng=3)
    suite = ez.geometric_mean_ratio_ci([(old, new), (old, new.ravel())], rng=3,
                                       n_resamples=2000)
    assert [iv.method for iv in suite.intervals] == ["bootstrap-RR", "bootstrap-RR/R"]
