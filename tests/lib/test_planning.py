"""Optimal repetition counts, cost model, and dimensioning (Section sDimensioning)."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import esize as ez
from strategies import FOUR_LEVEL_T2, THREE_COSTS


def _h(counts_low, s, c):
    """Variance of the mean per unit of budget (the paper's h, equation eH), paper order."""
    n = len(counts_low)
    k = counts_low[0]
    for i in range(1, n):
        k = (c[i - 1] + k) * counts_low[i]
    per_top = c[n - 1] + k
    f = s[n]
    for i in range(n):
        f += s[i] / math.prod(counts_low[i:])
    return per_top * f


@settings(max_examples=100, deadline=None)
@given(
    s=st.lists(st.floats(0.01, 100.0), min_size=2, max_size=4),
    data=st.data(),
)
def test_continuous_optimum_minimises_h(s, data):
    c = data.draw(st.lists(st.floats(0.5, 5000.0), min_size=len(s) - 1, max_size=len(s) - 1))
    # continuous optimum of equation eopt (paper order: level 1 first)
    n = [math.sqrt(c[0] * s[0] / s[1])]
    for i in range(1, len(s) - 1):
        n.append(math.sqrt(c[i] / c[i - 1] * s[i] / s[i + 1]))
    best = _h(n, s, c)
    for factors in itertools.product([0.8, 1.0, 1.25], repeat=len(n)):
        if all(f == 1.0 for f in factors):
            continue
        assert best <= _h([a * f for a, f in zip(n, factors)], s, c) * (1 + 1e-9)
    # where every optimum is at least 1 the library rounds exactly these up (highest
    # level first); see the tests below for optima under 1
    if min(n) >= 1:
        got = ez.optimal_counts(s[::-1], c[::-1])
        assert got.tolist() == [math.ceil(round(x, 9)) for x in n][::-1]


def test_experiment_cost_formula():
    # c = (c2 + (c1 + n1) n2) n3
    assert ez.experiment_cost([16, 28, 4], [5343, 19]) == (5343 + (19 + 4) * 28) * 16
    assert ez.experiment_cost([5, 7], [3]) == (3 + 7) * 5


def test_fft_dimensioning_example():
    # Section sDimensioning: FFT, 6 hours, c1 = 19, c2 = 5343 -> n1 = 4, n2 = 28,
    # 16 binaries, +-2.3 % against +-4.7 % for the 17-sample default.
    s_pct = np.array([4.1, 6.7, 4.6])  # Table tVariations, FFT
    t2 = ez.t2(s_pct**2, [150, 100, 45])
    budget = 6 * 3600 / (1200 / 5343)  # hours in measurements
    levels = ("binary", "execution", "measurement")
    # the paper's procedure: rounded-up optimal counts, the top count from the budget
    d = ez.dimension(t2, [5343, 19], budget, mean=100.0, levels=levels, objective="variance")
    assert d.counts == {"binary": 16, "execution": 28, "measurement": 4}
    assert round(100 * d.half_width, 1) == 2.3
    assert d.default_n == 17
    assert round(100 * d.default_half_width, 1) == 4.7
    # optimising the reported half-width itself can only do better
    best = ez.dimension(t2, [5343, 19], budget, mean=100.0, levels=levels)
    assert best.half_width <= d.half_width
    assert round(100 * best.half_width, 1) == 2.3


def test_drop_folds_cost_into_level_above():
    plan = ez.plan_from_variances([2.0, -1.0, 9.0], [1000, 10], ["b", "e", "m"])
    assert plan.dropped == ("e",)
    assert plan.levels == ("b", "m")
    assert plan.costs.tolist() == [1010.0]
    assert plan.counts == {"m": math.ceil(math.sqrt(1010 * 9 / 2))}


def test_top_level_can_be_dropped_too():
    plan = ez.plan_from_variances([-0.1, 3.0, 9.0], [1000, 10], ["b", "e", "m"])
    assert plan.dropped == ("b",)
    assert plan.costs.tolist() == [10.0]
    assert plan.counts == {"m": math.ceil(math.sqrt(10 * 9 / 3))}


def test_plan_from_design_reestimates_after_merging(we_data):
    plan = ez.plan_from_design(we_data, [300, 10])
    direct = ez.variance_components(we_data.merge("execution"))
    np.testing.assert_allclose(plan.t2, direct.T2)
    assert plan.counts == {"measurement": math.ceil(math.sqrt(310 * direct.T2[1] / direct.T2[0]))}


@pytest.mark.parametrize("costs", [[1.0], [1.0, 2.0, 3.0], [0.0, 5.0], [-1.0, 2.0]])
def test_bad_costs(costs):
    with pytest.raises(ez.EsizeError):
        ez.optimal_counts([1.0, 2.0, 3.0], costs)


# == below-one counts, the exact objective, the budget (issue "Never a confident wrong
# answer", section Planning) ===========================================================
def _cost(counts, costs):
    """Cost of a design (counts and costs highest level first), by equation ecost."""
    total = counts[-1]
    for k in range(len(counts) - 2, -1, -1):
        total = (costs[k] + total) * counts[k]
    return total


def _mean_var(t2, counts):
    return sum(s / math.prod(counts[: k + 1]) for k, s in enumerate(t2))


def _half_width(t2, counts, mean=1.0, alpha=0.05):
    """Reported half-width of a design: t with n_top - 1 df times the model's sd."""
    return stats.t.ppf(1 - alpha / 2, counts[0] - 1) * math.sqrt(_mean_var(t2, counts)) / mean


def _box_optimum(s, c):
    """Continuous minimiser of h with every count >= 1 (paper order), numerically."""
    from scipy.optimize import minimize

    def logh(logn):
        return math.log(_h(list(np.exp(logn)), s, c))

    best = None
    for start in ([0.0] * (len(s) - 1), [1.0] * (len(s) - 1), [3.0] * (len(s) - 1)):
        r = minimize(logh, start, bounds=[(0.0, 40.0)] * (len(s) - 1), method="L-BFGS-B",
                     options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 5000})
        if best is None or r.fun < best.fun:
            best = r
    return np.exp(best.x), math.exp(best.fun)


def test_count_below_one_merges_and_reoptimises():
    # variances (build, execution, measurement), costs (build 10, warm-up 30): the
    # executions' continuous optimum is sqrt(10/30 * 1e-5/4e-4) = 0.09, so a binary runs
    # once; a new binary then costs 10 + 30 and carries variance 4e-4 + 1e-5, and
    # n1 = sqrt(40 * 7e-4 / 4.1e-4) = 8.26, rounded up 9 (not 46).
    t2, costs = [4e-4, 1e-5, 7e-4], [10, 30]
    assert ez.optimal_counts(t2, costs).tolist() == [1, 9]
    # with 1e5 measurements: (2040, 1, 9) against the old (1162, 1, 46)
    for counts_low, worse in (([1, 9], False), ([1, 46], True)):
        n_top = math.floor(1e5 / _cost([1, *counts_low], costs))
        var = _mean_var(t2, [n_top, *counts_low])
        assert (var > 3.6e-7) is worse
    # the exact optimum within the budget: (2083, 1, 8), variance 2.39e-7
    d = ez.dimension(t2, costs, 1e5, levels=("b", "e", "m"))
    assert d.counts == {"b": 2083, "e": 1, "m": 8}
    assert _mean_var(t2, [2083, 1, 8]) == pytest.approx(2.388e-7, rel=1e-3)


@settings(max_examples=100, deadline=None)
@given(
    s=st.lists(st.floats(1e-4, 100.0), min_size=2, max_size=5),
    data=st.data(),
)
def test_continuous_counts_satisfy_the_optimality_conditions(s, data):
    # h is a posynomial, convex in log n: the counts >= 1 minimise it iff (KKT) the
    # derivative of log h in log n_i is 0 where n_i > 1 and >= 0 where n_i = 1
    c = data.draw(st.lists(st.floats(0.5, 5000.0), min_size=len(s) - 1, max_size=len(s) - 1))
    from esize._planning import continuous_counts

    x = continuous_counts(s[::-1], c[::-1])[::-1]  # paper order
    assert np.all(x >= 1.0)
    step = 1e-6
    for i in range(len(x)):
        up, down = x.copy(), x.copy()
        up[i] *= math.exp(step)
        down[i] *= math.exp(-step)
        slope = (math.log(_h(list(up), s, c)) - math.log(_h(list(down), s, c))) / (2 * step)
        if x[i] > 1.0:
            assert abs(slope) < 1e-5
        else:
            assert slope > -1e-5
    assert ez.optimal_counts(s[::-1], c[::-1]).tolist() == [
        math.ceil(round(v, 9)) for v in x
    ][::-1]


@pytest.mark.parametrize(
    "s, c",
    [
        ([7e-4, 1e-5, 4e-4], [30.0, 10.0]),  # the example above, paper order
        ([1.96, 67.24, 11.56], [19.0, 5343.0]),  # FFT NA OPT, S^2 of Table tVariations
        ([5.0, 0.01, 0.02, 3.0], [2.0, 40.0, 900.0]),
    ],
)
def test_continuous_counts_match_a_numerical_minimiser(s, c):
    from esize._planning import continuous_counts

    x = continuous_counts(s[::-1], c[::-1])[::-1]
    _, best = _box_optimum(s, c)
    assert _h(list(x), s, c) <= best * (1 + 1e-9)


def test_clamp_keeps_the_papers_formula():
    # below_one="clamp": every count max(1, ceil(...)), nothing re-optimised
    assert ez.optimal_counts([4e-4, 1e-5, 7e-4], [10, 30], below_one="clamp").tolist() == [1, 46]
    with pytest.raises(ez.EsizeError):
        ez.optimal_counts([1.0, 2.0], [3.0], below_one="round")


def _paper_inputs(s_pct, build_s, measurement_s, hours):
    t2 = ez.t2(np.asarray(s_pct) ** 2, [150, 100, 45])
    return t2, [build_s / measurement_s, 19.0], hours * 3600 / measurement_s


def test_fft_na_opt_3h_merges_the_measurement_level():
    # FFT NA OPT (Table tVariations: 3.4, 8.2, 1.4), 3 hours: clamping n1 to 1 kept
    # n2 = 42 and gave 7 x 42 x 1 for +-3.27 %; merging gives 8 x 33 x 1, +-3.01 %.
    t2, costs, budget = _paper_inputs((3.4, 8.2, 1.4), 1200.0, 1200.0 / 5343, 3)
    levels = ("compilation", "execution", "measurement")
    d = ez.dimension(t2, costs, budget, mean=100.0, levels=levels)
    assert d.counts == {"compilation": 8, "execution": 33, "measurement": 1}
    assert 100 * d.half_width == pytest.approx(3.01, abs=0.005)
    assert d.half_width == pytest.approx(_half_width(t2, [8, 33, 1], 100.0), rel=1e-12)
    old = ez.dimension(t2, costs, budget, mean=100.0, levels=levels, below_one="clamp",
                       objective="variance")
    assert old.counts == {"compilation": 7, "execution": 42, "measurement": 1}
    assert 100 * old.half_width == pytest.approx(3.27, abs=0.005)


def test_rijndael_opt_3h_optimises_the_reported_half_width():
    # Rijndael OPT (0.4, 3.8, 9.3), 64 raw measurements in 6 s, 3 hours: minimising
    # the variance plans 3 x 736 x 12 (+-0.512 %, t with 2 degrees of freedom);
    # 5 x 341 x 11 gives +-0.341 %.
    t2, costs, budget = _paper_inputs((0.4, 3.8, 9.3), 1200.0, 6.0 / 64, 3)
    levels = ("compilation", "execution", "measurement")
    d = ez.dimension(t2, costs, budget, mean=100.0, levels=levels)
    assert 100 * d.half_width <= 0.341 + 5e-4
    counts = [d.counts[k] for k in levels]
    assert _cost(counts, costs) <= budget
    assert d.half_width == pytest.approx(_half_width(t2, counts, 100.0), rel=1e-12)
    var = ez.dimension(t2, costs, budget, mean=100.0, levels=levels, objective="variance")
    assert var.counts == {"compilation": 3, "execution": 736, "measurement": 12}
    assert 100 * var.half_width == pytest.approx(0.512, abs=5e-4)


@settings(max_examples=25, deadline=None)
@given(
    s=st.lists(st.floats(0.01, 100.0), min_size=3, max_size=3),
    c=st.lists(st.floats(0.5, 60.0), min_size=2, max_size=2),
    budget=st.floats(20.0, 1500.0),
)
def test_dimension_is_the_exhaustive_optimum(s, c, budget):
    # every design (n_top, n2, n1) that fits the budget, the top count the largest one
    # affordable; dimension() must find the narrowest reported half-width
    if budget < 2 * (sum(c) + 1):
        with pytest.raises(ez.EsizeError, match="budget"):
            ez.dimension(s, c, budget)
        return
    n2, n1 = np.meshgrid(np.arange(1, int(budget) + 1), np.arange(1, int(budget) + 1),
                         indexing="ij")
    per_top = c[0] + (c[1] + n1) * n2
    n_top = np.floor(budget / per_top + 1e-9)
    ok = n_top >= 2
    n_top, n2, n1 = n_top[ok], n2[ok], n1[ok]
    var = (s[0] + s[1] / n2 + s[2] / (n2 * n1)) / n_top
    hw = stats.t.ppf(0.975, n_top - 1) * np.sqrt(var)
    d = ez.dimension(s, c, budget, levels=("b", "e", "m"))
    assert d.half_width == pytest.approx(hw.min(), rel=1e-9)
    assert d.half_width <= d.default_half_width * (1 + 1e-12)


@settings(max_examples=60, deadline=None)
@given(
    s=st.lists(st.one_of(st.just(0.0), st.floats(1e-6, 100.0)), min_size=1, max_size=4),
    data=st.data(),
)
def test_never_worse_than_the_one_level_default(s, data):
    s[-1] = max(s[-1], 0.01)
    c = data.draw(st.lists(st.floats(0.5, 5000.0), min_size=len(s) - 1, max_size=len(s) - 1))
    budget = data.draw(st.floats(2.0 * (sum(c) + 1), 1e7))
    d = ez.dimension(s, c, budget)
    counts = list(d.counts.values())
    assert counts[0] >= 2 and all(n >= 1 for n in counts)
    assert d.half_width <= d.default_half_width * (1 + 1e-12)


@pytest.mark.parametrize("budget", [0.5, 500.0, 621.0])
def test_budget_below_two_top_units_is_an_error(budget):
    # the cheapest top unit (one execution of one measurement) costs 300 + 10 + 1
    with pytest.raises(ez.EsizeError, match="budget"):
        ez.dimension([2.0, 1.0, 9.0], [300, 10], budget)
    assert ez.dimension([2.0, 1.0, 9.0], [300, 10], 622.0).counts["level3"] == 2


def test_huge_budget_is_a_clear_error():
    with pytest.raises(ez.EsizeError, match="budget"):
        ez.dimension([2.0, 1.0, 9.0], [300, 10], 1e300)


def test_dropped_top_level_still_gets_two_units():
    # T^2 <= 0 at the top: the remaining levels are planned alone, but the experiment
    # still needs 2 top units (each paying its cost) for an interval
    d = ez.dimension([-0.1, 3.0, 9.0], [1000, 10], 5000.0, levels=("b", "e", "m"))
    assert d.plan.dropped == ("b",)
    assert d.counts["b"] >= 2
    counts = [d.counts[k] for k in ("b", "e", "m")]
    assert _cost(counts, [1000, 10]) <= 5000.0
    t2 = [0.0, 3.0, 9.0]
    assert d.half_width == pytest.approx(_half_width(t2, counts), rel=1e-12)


def test_count_beyond_two_to_the_53_is_a_clear_error():
    with pytest.raises(ez.EsizeError, match="too large"):
        ez.optimal_counts([1e-300, 1.0], [10.0])


def test_dropped_top_level_cost_is_kept_for_the_budget():
    plan = ez.plan_from_variances([-0.1, -0.2, 9.0], [1000, 10], ["b", "e", "m"])
    assert plan.dropped == ("e", "b") and plan.levels == ("m",)
    # one binary, run once, costs the build and one warm-up
    assert (plan.outer_level, plan.outer_cost) == ("b", 1010.0)
    d = ez.dimension_for_plan(plan, 5000.0)
    assert list(d.counts) == ["b", "m"] and d.counts["b"] >= 2
    assert d.counts["b"] * (1010 + d.counts["m"]) <= 5000


def test_dimensioning_does_not_depend_on_the_unit():
    t2, costs = np.array([4e-4, 1e-5, 7e-4]), [10, 30]
    a = ez.dimension(t2, costs, 1e4, mean=0.5)
    b = ez.dimension(t2 * 1e6, costs, 1e4, mean=500.0)  # the same data in 1000x units
    assert a.counts == b.counts
    assert a.half_width == pytest.approx(b.half_width, rel=1e-12)


# == unit invariance at the ends of the float range (issue 10) =========================
SCALES = [1e-300, 1e-200, 1e-100, 1.0, 1e100, 1e200, 1e300]


def _designs():
    """Pilot designs: the worked example (drops the executions), three levels that all
    vary, and two identical binaries (the top level is dropped)."""
    rng = np.random.default_rng(11)
    kept = (100.0 + rng.normal(0, 3.0, (8, 1, 1)) + rng.normal(0, 2.0, (8, 3, 1))
            + rng.normal(0, 1.0, (8, 3, 4)))
    levels = ("binary", "execution", "measurement")
    return {
        "worked-example": (np.array([[[9, 5], [8, 3]], [[10, 6], [7, 11]], [[1, 12], [2, 4]]],
                                    dtype=float), levels),
        "all-levels": (kept, levels),
        "top-dropped": (np.array([[[10, 11], [1, 2]], [[1, 2], [10, 11]]], dtype=float),
                        levels),
    }


DROPPED = {"worked-example": ("execution",), "all-levels": (), "top-dropped": ("binary",)}


DESIGNS = _designs()
PILOT_COSTS, PILOT_BUDGET = [300.0, 10.0], 20_000.0


def _plan_and_dim(data, levels, scale):
    design = ez.Design(data * scale, levels)
    plan = ez.plan_from_design(design, PILOT_COSTS)
    return plan, ez.dimension_for_plan(plan, PILOT_BUDGET, mean=design.mean)


def _assert_same_plan(got, want, scale, rel=1e-12):
    """``got`` (data times ``scale``) plans and dimensions like ``want`` (scale 1)."""
    (plan, dim), (plan1, dim1) = got, want
    assert (plan.levels, plan.dropped, plan.counts) == (plan1.levels, plan1.dropped, plan1.counts)
    assert (plan.outer_level, plan.outer_cost) == (plan1.outer_level, plan1.outer_cost)
    assert plan.costs.tolist() == plan1.costs.tolist()
    assert (dim.counts, dim.default_n) == (dim1.counts, dim1.default_n)
    assert dim.half_width == pytest.approx(dim1.half_width, rel=rel)
    assert dim.default_half_width == pytest.approx(dim1.default_half_width, rel=rel)
    # the variances in the data's units: scale**2 times those at scale 1 where that is
    # a float, None (not inf or 0) in the dictionary where it is not
    for k, (v, v1) in enumerate(zip(plan.as_dict()["T2"].values(), plan1.t2)):
        with np.errstate(over="ignore", under="ignore"):
            expected = np.float64(v1) * np.float64(scale) ** 2
        if np.isfinite(expected) and expected >= np.finfo(float).tiny:
            assert v == pytest.approx(expected, rel=rel)
            assert plan.t2[k] == v
        else:
            assert v is None


@pytest.mark.parametrize("name", list(DESIGNS))
@pytest.mark.parametrize("scale", SCALES)
def test_plan_from_design_does_not_depend_on_the_unit(name, scale):
    # 1e-300 said "the measurements do not vary" and 1e300 "not finite": the variances
    # underflowed to 0 or overflowed to inf when squared
    data, levels = DESIGNS[name]
    at_one = _plan_and_dim(data, levels, 1.0)
    assert at_one[0].dropped == DROPPED[name]
    _assert_same_plan(_plan_and_dim(data, levels, scale), at_one, scale)


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(DESIGNS)),
    decimal=st.integers(-300, 300),
    binary=st.integers(-1000, 1000),
)
def test_plan_from_design_is_unit_invariant_for_every_exponent(name, decimal, binary):
    data, levels = DESIGNS[name]
    at_one = _plan_and_dim(data, levels, 1.0)
    _assert_same_plan(_plan_and_dim(data, levels, 10.0**decimal), at_one, 10.0**decimal)
    # a power of two scales every value exactly: the scaled estimates, the counts and
    # the half-widths are bit for bit those at scale 1
    plan, dim = _plan_and_dim(data, levels, 2.0**binary)
    assert plan.t2_scaled.tolist() == at_one[0].t2_scaled.tolist()
    assert plan.exponent == at_one[0].exponent + binary
    assert (dim.counts, dim.half_width, dim.default_half_width) == (
        at_one[1].counts, at_one[1].half_width, at_one[1].default_half_width
    )


@pytest.mark.parametrize("scale", SCALES)
def test_given_variances_do_not_depend_on_the_unit(scale):
    # variances and mean of the same data in another unit: t2 * scale, mean * sqrt(scale)
    t2, costs, mean = np.array([4e-4, 1e-5, 7e-4]), [10.0, 30.0], 0.5
    levels = ("b", "e", "m")
    a = ez.dimension(t2, costs, 1e5, mean=mean, levels=levels)
    b = ez.dimension(t2 * scale, costs, 1e5, mean=mean * math.sqrt(scale), levels=levels)
    assert b.counts == a.counts and b.plan.counts == a.plan.counts
    assert b.half_width == pytest.approx(a.half_width, rel=1e-12)
    assert b.default_half_width == pytest.approx(a.default_half_width, rel=1e-12)
    assert b.plan.t2.tolist() == (t2 * scale).tolist()  # the given values, as given


def test_given_variances_near_the_largest_float_do_not_overflow():
    # the count is sqrt(c * 1e305 / 1e300) = sqrt(1e11): c * 1e305 alone overflowed to inf
    plan = ez.plan_from_variances([1e300, 1e305], [1e6], ("b", "m"))
    assert plan.counts == {"m": math.ceil(math.sqrt(1e11))}
    assert ez.optimal_counts([1e300, 1e305], [1e6], below_one="clamp").tolist() == [
        math.ceil(math.sqrt(1e11))
    ]
    # the variance of one measurement, 3 * 1e308, is beyond the floats; the one-level
    # default's half-width is not therefore infinite
    big = ez.dimension([1e308, 1e308, 1e308], [10.0, 30.0], 1e4, mean=1e154)
    small = ez.dimension([1.0, 1.0, 1.0], [10.0, 30.0], 1e4, mean=1.0)
    assert big.counts == small.counts and big.default_n == small.default_n
    assert big.default_half_width == pytest.approx(small.default_half_width, rel=1e-12)
    assert big.half_width == pytest.approx(small.half_width, rel=1e-12)


# == the paper's procedure (objective="variance") never gives up the interval ===========
# Four-level settings where the plan's lower counts are dear for the budget: the top
# count floor(budget / cost of a top unit) was 0 or 1, and the half-width infinite.
DEAR_LOWER_COUNTS = [
    ([0.00399133, -0.06329326, 1.53213517, 0.00836698],
     [3.94038932, 1.87179868, 55.08040919], 271.68182984384407),
    ([1.14505203e-03, -2.84813362, 8.40969335, 6.74280684],
     [467.52696817, 293.17132014, 27.53998957], 3045.657379107782),
    ([0.00129856, 0.75314586, 0.00115869, 1.07597953],
     [612.79140095, 1.57851055, 334.15798146], 2405.6479739885776),
]


@pytest.mark.parametrize("t2, costs, budget", DEAR_LOWER_COUNTS)
def test_variance_objective_keeps_two_top_units(t2, costs, budget):
    d = ez.dimension(t2, costs, budget, mean=3.0, objective="variance")
    counts = list(d.counts.values())
    assert counts[0] == 2 and all(n >= 1 for n in counts)
    assert math.isfinite(d.half_width)
    assert d.cost <= budget
    # the half-width is the one of the counts returned
    full = ez.dimension_for_plan(d.plan, budget, mean=3.0, objective="variance")
    assert full.counts == d.counts and full.half_width == d.half_width


def _plan_with_counts(e, m):
    """A three-level plan whose counts are given (b > e > m, build 100, warm-up 5)."""
    return ez.Plan(("b", "e", "m"), (), np.array([1.0, 10.0, 1.0]), np.array([100.0, 5.0]),
                   {"e": e, "m": m})


def test_variance_objective_shrinks_from_the_top_down():
    # 10 executions of 10 measurements per binary: a binary costs
    # 100 + 10 * (5 + 10) = 250, and 300 buy 1. With 2 binaries each may cost 150:
    # 50 left for executions of 15 -> 3 executions, the measurements kept at 10
    d = ez.dimension_for_plan(_plan_with_counts(10, 10), 300.0, objective="variance")
    assert d.counts == {"b": 2, "e": 3, "m": 10}
    # 500 buy 2 binaries at the plan's counts: the paper's procedure unchanged
    d = ez.dimension_for_plan(_plan_with_counts(10, 10), 500.0, objective="variance")
    assert d.counts == {"b": 2, "e": 10, "m": 10}
    # not even one execution of 50 fits in 50: one execution, and as many
    # measurements as fit in what is left (150 - 100 - 5 = 45)
    d = ez.dimension_for_plan(_plan_with_counts(10, 50), 300.0, objective="variance")
    assert d.counts == {"b": 2, "e": 1, "m": 45}
    assert math.isfinite(d.half_width) and d.cost == 2 * (100 + 5 + 45)


def test_variance_objective_budget_below_two_top_units_is_an_error():
    with pytest.raises(ez.EsizeError, match="2 units"):
        ez.dimension([1.0, 2.0, 3.0, 4.0], [100.0, 10.0, 5.0], 231.0, objective="variance")
    d = ez.dimension([1.0, 2.0, 3.0, 4.0], [100.0, 10.0, 5.0], 232.0, objective="variance")
    assert list(d.counts.values()) == [2, 1, 1, 1]


@settings(max_examples=300, deadline=None)
@given(t2=FOUR_LEVEL_T2, costs=THREE_COSTS, units=st.floats(0.5, 40.0))
def test_variance_objective_half_width_is_finite(t2, costs, units):
    # four levels, any of the upper three possibly dropped; the budget pays for
    # `units` top units of the cheapest design (one unit of every level)
    t2[-1] = abs(t2[-1]) + 1e-4
    cheapest = sum(costs) + 1.0
    budget = units * cheapest
    if budget < 2.0 * cheapest:
        with pytest.raises(ez.EsizeError, match="2 units"):
            ez.dimension(t2, costs, budget, objective="variance")
        return
    d = ez.dimension(t2, costs, budget, objective="variance")
    counts = list(d.counts.values())
    top = 1 if d.plan.outer_level is not None else 0  # a dropped top runs once
    assert counts[:top] == [1] * top and counts[top] >= 2 and all(n >= 1 for n in counts)
    assert math.isfinite(d.half_width) and d.half_width > 0
    assert d.cost <= budget * (1 + 1e-9)
    # the design names every level of the four, dropped ones at 1
    design = d.design_counts
    assert list(design) == ["level4", "level3", "level2", "level1"]
    assert all(design[k] == 1 for k in d.plan.dropped if k != d.plan.outer_level)
    assert ez.experiment_cost(list(design.values()), costs) == pytest.approx(d.cost)


def test_plan_keeps_every_given_cost():
    # the top level dropped: its build cost is not among the plan's costs, but the
    # plan still says what it was given
    plan = ez.plan_from_variances([-0.1, 3.0, 9.0], [250.0, 40.0], ("b", "e", "m"))
    assert plan.levels == ("e", "m") and plan.costs.tolist() == [40.0]
    assert plan.given_costs == {"b": 250.0, "e": 40.0}
    assert plan.all_levels == ("b", "e", "m")
    doc = plan.as_dict()
    assert doc["given_costs"] == {"b": 250.0, "e": 40.0}
    assert list(doc) == ["dropped", "levels", "counts", "T2", "costs", "given_costs",
                         "dropped_cost"]


def test_paper_procedure_runs_one_binary_when_the_top_level_is_dropped():
    """Issue 42, item 6: with T3^2 <= 0 the paper removes the compilation level (one
    binary, executions on top, t with executions - 1 df); the procedure planned 2
    builds and took t with 1 df, 2.3x wider than the one-level default here."""
    from scipy import stats

    levels = ("compilation", "execution", "measurement")
    t2, costs, budget = [-0.01, 0.5, 4.0], [1000.0, 20.0], 20000.0
    d = ez.dimension(t2, costs, budget, mean=100.0, levels=levels, objective="variance",
                     below_one="clamp")
    assert d.plan.outer_level == "compilation" and d.counts["compilation"] == 1
    n2, n1 = d.counts["execution"], d.counts["measurement"]
    assert n2 >= 2 and ez.experiment_cost([1, n2, n1], costs) <= budget
    assert 1000.0 + n2 * (20.0 + n1) + (20.0 + n1) > budget  # one more execution won't fit
    var = 0.5 / n2 + 4.0 / (n2 * n1)
    assert d.half_width == pytest.approx(stats.t.ppf(0.975, n2 - 1) * math.sqrt(var) / 100.0)
    assert d.half_width < d.default_half_width
