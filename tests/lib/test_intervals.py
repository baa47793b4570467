"""Parametric intervals: Fieller, delta method, t/normal mean intervals."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import esize as ez
from conftest import hierarchical_normal

pos = st.floats(0.1, 1e3)
var = st.floats(1e-6, 10.0)


@settings(max_examples=200, deadline=None)
@given(x=pos, y=pos, vx=var, vy=var, q=st.floats(0.5, 5.0))
def test_fieller_contains_point_ratio_when_bounded(x, y, vx, vy, q):
    lo, hi, ok = ez.fieller(x, vx, y, vy, q)
    if ok:
        assert lo <= y / x <= hi
        assert lo < hi
    else:
        assert q**2 >= x**2 / vx * (1 - 1e-12)
        assert lo == -math.inf and hi == math.inf


@settings(max_examples=200, deadline=None)
@given(x=pos, y=pos, vx=var, vy=var, q=st.floats(0.5, 5.0), k=st.floats(0.01, 100.0))
def test_fieller_scales_with_the_data(x, y, vx, vy, q, k):
    lo, hi, ok = ez.fieller(x, vx, y, vy, q)
    assume(ok)
    # scaling the new system by k scales the ratio and its limits by k
    lo2, hi2, ok2 = ez.fieller(x, vx, k * y, k**2 * vy, q)
    assert ok2
    assert lo2 == pytest.approx(k * lo, rel=1e-7, abs=1e-12)
    assert hi2 == pytest.approx(k * hi, rel=1e-7, abs=1e-12)
    # scaling both systems by k changes nothing
    lo3, hi3, _ = ez.fieller(k * x, k**2 * vx, k * y, k**2 * vy, q)
    assert lo3 == pytest.approx(lo, rel=1e-7, abs=1e-12)
    assert hi3 == pytest.approx(hi, rel=1e-7, abs=1e-12)


def test_fieller_limits_solve_the_pivot():
    # The limits are the roots of (y - r x)^2 = q^2 (vyy + r^2 vxx).
    x, y, vx, vy, q = 10.0, 8.0, 0.7, 0.5, 2.1
    lo, hi, ok = ez.fieller(x, vx, y, vy, q)
    assert ok
    for r in (lo, hi):
        assert (y - r * x) ** 2 == pytest.approx(q**2 * (vy + r**2 * vx))


def test_fieller_unbounded_is_explicit():
    old = ez.Design([[1.0, 1.1], [-0.9, -1.0], [0.05, 0.0]], ["binary", "measurement"])
    new = ez.Design([[1.0, 1.2], [1.1, 1.0], [0.9, 1.0]], ["binary", "measurement"])
    ci = ez.fieller_ci(old, new)
    assert not ci.bounded
    assert ci.lower == -math.inf and ci.upper == math.inf
    assert ci.as_dict()["lower"] is None
    assert ez.verdict(ci.lower, ci.upper, 0.02, bounded=ci.bounded) == "inconclusive"


def test_fieller_vectorised_matches_scalar():
    rng = np.random.default_rng(0)
    x, y = rng.uniform(1, 2, 50), rng.uniform(1, 2, 50)
    vx, vy = rng.uniform(0.001, 0.5, 50), rng.uniform(0.001, 0.5, 50)
    lo, hi, ok = ez.fieller(x, vx, y, vy, 2.0)
    for k in range(50):
        a, b, c = ez.fieller(x[k], vx[k], y[k], vy[k], 2.0)
        assert c == ok[k]
        if c:
            assert (a, b) == pytest.approx((lo[k], hi[k]))


def test_fieller_and_delta_agree_for_precise_data():
    rng = np.random.default_rng(4)
    old = ez.Design(rng.normal(100, 0.5, (40, 10)), ["binary", "measurement"])
    new = ez.Design(rng.normal(95, 0.5, (40, 10)), ["binary", "measurement"])
    f, d = ez.fieller_ci(old, new), ez.delta_ci(old, new)
    assert f.lower == pytest.approx(d.lower, abs=2e-4)
    assert f.upper == pytest.approx(d.upper, abs=2e-4)


def test_normal_is_narrower_than_t(wqe_old, wqe_new):
    assert ez.mean_ci(wqe_old, normal=True).half_width < ez.mean_ci(wqe_old).half_width
    fn, ft = ez.fieller_ci(wqe_old, wqe_new, normal=True), ez.fieller_ci(wqe_old, wqe_new)
    assert ft.lower < fn.lower < fn.upper < ft.upper


def test_t_interval_covers_95_percent_on_hierarchical_normal_data():
    # 4000 experiments of 5 binaries x 4 executions x 3 measurements. The t interval
    # with n_top - 1 degrees of freedom is exact under this model, so the coverage
    # must be 95 % up to Monte Carlo error (standard error 0.34 %).
    rng = np.random.default_rng(2012)
    y = hierarchical_normal(rng, [1.0, 2.0, 3.0], (5, 4, 3), mean=50.0, size=4000)
    hits = [ez.mean_ci(e).contains(50.0) for e in y]
    assert np.mean(hits) == pytest.approx(0.95, abs=0.012)
    # the normal quantile with 5 top-level units under-covers clearly
    hits_n = [ez.mean_ci(e, normal=True).contains(50.0) for e in y]
    assert np.mean(hits_n) < 0.93


def test_ratio_intervals_cover_on_normal_data():
    rng = np.random.default_rng(99)
    old = hierarchical_normal(rng, [1.0, 1.0, 2.0], (10, 3, 4), mean=100.0, size=1500)
    new = hierarchical_normal(rng, [1.0, 1.0, 2.0], (10, 3, 4), mean=95.0, size=1500)
    hits = [ez.fieller_ci(o, n).contains(0.95) for o, n in zip(old, new)]
    assert np.mean(hits) == pytest.approx(0.95, abs=0.02)
