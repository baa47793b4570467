"""Optimal repetition counts, cost model, and dimensioning (Section sDimensioning)."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import esize as ez


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
    # and the library rounds exactly these up (highest level first)
    got = ez.optimal_counts(s[::-1], c[::-1])
    assert got.tolist() == [max(1, math.ceil(round(x, 9))) for x in n][::-1]


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
    d = ez.dimension(t2, [5343, 19], budget, mean=100.0, levels=("binary", "execution", "measurement"))
    assert d.counts == {"binary": 16, "execution": 28, "measurement": 4}
    assert round(100 * d.half_width, 1) == 2.3
    assert d.default_n == 17
    assert round(100 * d.default_half_width, 1) == 4.7


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
