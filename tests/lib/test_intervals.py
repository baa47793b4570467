"""Parametric intervals: Fieller, delta method, t/normal mean intervals."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

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


# -- coverage of Fieller's interval: exact expectation, power to see the quantile ------
def _fieller_exact_coverage(q: float, r: float, nu: int, m: int = 3000) -> float:
    r"""Probability that Fieller's set covers the true ratio ``r``, two independent
    systems whose top-level unit means have the same variance and ``nu + 1`` units each.

    The set is :math:`\{\rho : (\bar y_n - \rho \bar y_o)^2 \le q^2 (v_n + \rho^2 v_o)\}`.
    At :math:`\rho = r` the left side is :math:`Z^2 (1 + r^2)\sigma^2 / n` with ``Z``
    standard normal, and :math:`v = \sigma^2/n \cdot \chi^2_\nu / \nu` independently for
    each system, so the set covers ``r`` iff
    :math:`Z^2 \le q^2 (U + r^2 V) / (\nu (1 + r^2))` with ``U, V`` independent
    :math:`\chi^2_\nu`. The expectation over ``U, V`` of :math:`P(|Z| \le \dots)` is
    taken by the midpoint rule on an ``m x m`` grid of their quantiles (error ~1e-6).
    """
    from scipy.special import chdtri, ndtr

    p = (np.arange(m) + 0.5) / m
    u = chdtri(nu, p)  # quantiles of chi^2_nu (upper-tail inverse: the order is irrelevant)
    w = (u[:, None] + r * r * u[None, :]) / (nu * (1.0 + r * r))
    return float(np.mean(2.0 * ndtr(q * np.sqrt(w)) - 1.0))


def test_fieller_coverage_matches_the_exact_t_coverage():
    # 30000 experiments of 10 binaries x 3 executions x 4 measurements per system. The
    # t quantile with n_top - 1 = 9 degrees of freedom is conservative here (both
    # systems carry variance, so the pivot has more degrees of freedom than 9): the
    # exact coverage is 96.4 %, the normal quantile's 93.4 %. The standard error of
    # the simulated coverage is 0.11 %, so a tolerance of 3 standard errors around the
    # exact value fails if the quantile (or its degrees of freedom) is wrong.
    reps, r, nu = 30_000, 0.95, 9
    rng = np.random.default_rng(99)
    old = hierarchical_normal(rng, [1.0, 1.0, 2.0], (10, 3, 4), mean=100.0, size=reps)
    new = hierarchical_normal(rng, [1.0, 1.0, 2.0], (10, 3, 4), mean=95.0, size=reps)
    tops = [y.mean(axis=(2, 3)) for y in (old, new)]
    (mo, mn), (vo, vn) = [t.mean(axis=1) for t in tops], [t.var(axis=1, ddof=1) / 10 for t in tops]
    for normal in (False, True):
        q = ez.critical_value(0.05, None if normal else nu)
        exact = _fieller_exact_coverage(q, r, nu)
        lo, hi, ok = ez.fieller(mo, vo, mn, vn, q)
        covered = (lo <= r) & (r <= hi)
        se = math.sqrt(exact * (1 - exact) / reps)
        assert abs(covered.mean() - exact) < 3 * se + 1e-5, (normal, covered.mean(), exact)
        # the vectorised route is the one fieller_ci takes (with equal designs it uses
        # the degrees of freedom of ratio_df_rule, not n_top - 1: issues 26 and 40)
        for k in range(0, reps, 3001):
            ci = ez.fieller_ci(old[k], new[k], normal=normal)
            df = None if normal else float(ez.ratio_dfs(vo[k] / mo[k] ** 2, vn[k] / mn[k] ** 2,
                                                         10, 10))
            assert ci.extra["df"] == (None if normal else pytest.approx(df, rel=1e-12))
            lk, hk, _ = ez.fieller(mo[k], vo[k], mn[k], vn[k], ez.critical_value(0.05, df))
            assert (ci.lower, ci.upper) == pytest.approx((lk, hk), rel=1e-12)
    t_exact = _fieller_exact_coverage(ez.critical_value(0.05, nu), r, nu)
    z_exact = _fieller_exact_coverage(ez.critical_value(0.05), r, nu)
    assert t_exact == pytest.approx(0.964, abs=5e-4) and z_exact == pytest.approx(0.934, abs=5e-4)
    assert t_exact - z_exact > 10 * math.sqrt(0.05 * 0.95 / reps)  # the test has the power


# -- zero variance, extreme alpha -------------------------------------------------------
LEVELS3 = ("binary", "execution", "measurement")


@pytest.mark.parametrize("shape", [(3, 2, 2), (5, 3, 7), (10, 4, 3), (2, 2)])
@pytest.mark.parametrize("c_old, c_new", [(10.0, 9.8), (0.1, 0.098), (7.7, 7.546), (1 / 3, 0.3)])
def test_constant_systems_give_a_point_interval_at_the_exact_ratio(shape, c_old, c_new):
    levels = LEVELS3[: len(shape) - 1] + ("measurement",)
    old = ez.Design(np.full(shape, c_old), levels)
    new = ez.Design(np.full(shape, c_new), levels)
    for f in (ez.fieller_ci, ez.delta_ci):
        for normal in (False, True):
            ci = f(old, new, normal=normal)
            assert ci.bounded
            assert ci.lower == ci.upper == ci.estimate
            assert ci.estimate == pytest.approx(c_new / c_old, rel=1e-15)
    m = ez.mean_ci(old)
    assert m.lower == m.upper == m.estimate == pytest.approx(c_old, rel=1e-15)
    # the verdict does not depend on the last bit: a change of exactly 2 % is "same"
    if (c_old, c_new) != (1 / 3, 0.3):
        assert ez.verdict(ci.lower, ci.upper, 0.02) == "same"
        assert ez.verdict(ci.lower, ci.upper, 0.0) == "faster"


def test_fieller_of_exact_means():
    assert ez.fieller(10.0, 0.0, 9.8, 0.0, 2.0) == (9.8 / 10.0, 9.8 / 10.0, True)
    # only the new system varies: the delta and Fieller limits coincide, y/x +- q sd/x
    lo, hi, ok = ez.fieller(10.0, 0.0, 9.8, 0.04, 2.0)
    assert ok and (lo, hi) == pytest.approx((0.98 - 0.04, 0.98 + 0.04), rel=1e-14)


def test_tiny_alpha_gives_finite_quantiles_or_a_clear_error():
    from scipy.special import ndtri, stdtrit

    assert ez.critical_value(1e-300) == pytest.approx(-ndtri(5e-301), rel=1e-12)
    q = ez.critical_value(1e-300, 2)
    assert math.isfinite(q) and q == pytest.approx(-stdtrit(2, 5e-301), rel=1e-12)
    assert ez.critical_value(1e-20, 4) == pytest.approx(-stdtrit(4, 5e-21), rel=1e-12)
    with pytest.raises(ez.EsizeError, match="alpha"):
        ez.critical_value(1e-320, 1)  # the Cauchy quantile is beyond the largest float


def test_tiny_alpha_intervals(wqe_old, wqe_new):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow or invalid-value warnings either
        m = ez.mean_ci(wqe_old, alpha=1e-300)
        assert math.isfinite(m.lower) and math.isfinite(m.upper) and m.lower < 10.5 < m.upper
        f = ez.fieller_ci(wqe_old, wqe_new, alpha=1e-300)
        assert not f.bounded
        assert ez.verdict(f.lower, f.upper, 0.02, bounded=f.bounded) == "inconclusive"
        lo, hi, ok = ez.fieller(10.0, 1.0, 9.0, 1.0, 1e200)
        assert not ok and (lo, hi) == (-math.inf, math.inf)
        lo, hi, ok = ez.fieller(10.0, 0.0, 9.0, 0.0, 1e200)  # exact means: any quantile
        assert ok and lo == hi == 0.9


# -- the unit of measure does not matter -------------------------------------------------
def _two_systems(seed):
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(2, 6)), int(rng.integers(2, 4)), int(rng.integers(2, 4)))
    old = rng.lognormal(2.0, 0.3, size=(shape[0], 1, 1)) + rng.lognormal(0.0, 0.5, size=shape)
    new = old * rng.lognormal(-0.05, 0.1, size=shape)
    return ez.Design(old, LEVELS3), ez.Design(new, LEVELS3)


def _scaled(d: ez.Design, c: float) -> ez.Design:
    return ez.Design(d.data * c, d.levels)


@settings(max_examples=80, deadline=None)
@given(k=st.integers(-300, 300), seed=st.integers(0, 2**32 - 1), normal=st.booleans())
def test_intervals_do_not_depend_on_the_unit(k, seed, normal):
    import warnings

    old, new = _two_systems(seed)
    c = 10.0**k
    so, sn = _scaled(old, c), _scaled(new, c)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m, mk = ez.mean_ci(old, normal=normal), ez.mean_ci(so, normal=normal)
        for a, b in ((mk.estimate, m.estimate), (mk.lower, m.lower), (mk.upper, m.upper)):
            assert b * c == pytest.approx(a, rel=1e-9, abs=1e-9 * abs(m.estimate * c))
        for f in (ez.fieller_ci, ez.delta_ci):
            one, scaled = f(old, new, normal=normal), f(so, sn, normal=normal)
            assert scaled.bounded == one.bounded
            assert scaled.estimate == pytest.approx(one.estimate, rel=1e-12)
            if one.bounded:
                assert (scaled.lower, scaled.upper) == pytest.approx((one.lower, one.upper),
                                                                     rel=1e-9, abs=1e-12)
            for t in (0.0, 0.02, 0.1):
                assert ez.verdict(scaled.lower, scaled.upper, t, bounded=scaled.bounded) == \
                    ez.verdict(one.lower, one.upper, t, bounded=one.bounded)


# -- the parametric interval of a suite's geometric mean -----------------------------------
def _suite_by_hand(pairs, alpha, normal, invert):
    """The log-scale interval written out: delta-method variances, Welch-Satterthwaite."""
    from scipy.special import ndtri, stdtrit

    logs, w, nu = [], [], []
    for (o, n), inv in zip(pairs, invert):
        for y in (o.data, n.data):
            top = y.reshape(y.shape[0], -1).mean(axis=1)
            w.append(top.var(ddof=1) / top.size / top.mean() ** 2)
            nu.append(top.size - 1)
        lr = math.log(n.data.mean() / o.data.mean())
        logs.append(-lr if inv else lr)
    k = len(pairs)
    se = math.sqrt(sum(w)) / k
    df = sum(w) ** 2 / sum(wi * wi / v for wi, v in zip(w, nu))
    q = -ndtri(alpha / 2) if normal else -stdtrit(df, alpha / 2)
    g = math.exp(sum(logs) / k)
    return g, g * math.exp(-q * se), g * math.exp(q * se), df


def _suite_pairs(seed, k=3, shapes=None):
    rng = np.random.default_rng(seed)
    pairs = []
    for j in range(k):
        shape = shapes[j] if shapes else (int(rng.integers(2, 7)), 2, 3)
        mu = rng.uniform(5.0, 500.0)
        o = mu * (1 + 0.05 * rng.standard_normal((shape[0], 1, 1))
                  + 0.02 * rng.standard_normal(shape))
        n = mu * rng.uniform(0.8, 1.2) * (1 + 0.05 * rng.standard_normal((shape[0], 1, 1))
                                          + 0.02 * rng.standard_normal(shape))
        pairs.append((ez.Design(o, LEVELS3), ez.Design(n, LEVELS3)))
    return pairs


@pytest.mark.parametrize("normal", [False, True])
@pytest.mark.parametrize("invert", [None, [False, True, False]])
def test_suite_parametric_interval_by_hand(normal, invert):
    pairs = _suite_pairs(5, shapes=[(3, 2, 3), (5, 2, 3), (8, 2, 3)])
    iv = ez.geometric_mean_ratio_parametric(pairs, alpha=0.1, normal=normal, invert=invert)
    g, lo, hi, df = _suite_by_hand(pairs, 0.1, normal, invert or [False] * 3)
    assert isinstance(iv, ez.Interval) and iv.bounded
    assert (iv.estimate, iv.lower, iv.upper) == pytest.approx((g, lo, hi), rel=1e-12)
    assert iv.method == ("log-normal" if normal else "log-t") and iv.alpha == 0.1
    if normal:
        assert iv.extra["df"] is None
    else:
        assert iv.extra["df"] == pytest.approx(df, rel=1e-12)
        assert 2 <= iv.extra["df"] <= 2 + 2 + 4 + 4 + 7 + 7  # between min and sum of n - 1
    assert iv.as_dict()["df"] == iv.extra["df"]


def test_suite_parametric_interval_symmetries():
    pairs = _suite_pairs(8)
    iv = ez.geometric_mean_ratio_parametric(pairs)
    # swapping old and new inverts the interval
    sw = ez.geometric_mean_ratio_parametric([(n, o) for o, n in pairs])
    assert (sw.estimate, sw.lower, sw.upper) == pytest.approx(
        (1 / iv.estimate, 1 / iv.upper, 1 / iv.lower), rel=1e-12)
    # each benchmark in its own unit, scaled by wildly different factors
    far = [(_scaled(o, c), _scaled(n, c)) for (o, n), c in zip(pairs, (1e-300, 1.0, 1e300))]
    fv = ez.geometric_mean_ratio_parametric(far)
    assert (fv.estimate, fv.lower, fv.upper) == pytest.approx(
        (iv.estimate, iv.lower, iv.upper), rel=1e-9)
    assert fv.extra["df"] == pytest.approx(iv.extra["df"], rel=1e-9)
    # one benchmark alone: the delta method on the log scale
    one = ez.geometric_mean_ratio_parametric(pairs[:1])
    g, lo, hi, _ = _suite_by_hand(pairs[:1], 0.05, False, [False])
    assert (one.lower, one.upper) == pytest.approx((lo, hi), rel=1e-12)


def test_suite_parametric_interval_of_constant_systems_is_a_point():
    pairs = [(ez.Design(np.full((3, 2), a), ("b", "m")), ez.Design(np.full((3, 2), b), ("b", "m")))
             for a, b in ((10.0, 9.8), (4.0, 4.4))]
    iv = ez.geometric_mean_ratio_parametric(pairs)
    assert iv.bounded and iv.lower == iv.upper == iv.estimate
    assert iv.estimate == pytest.approx(math.sqrt(0.98 * 1.1), rel=1e-15)


def test_suite_parametric_interval_needs_two_top_level_units():
    one = ez.Design(np.ones((1, 4)) + np.arange(4), ("b", "m"))
    with pytest.raises(ez.DesignError, match="at least 2"):
        ez.geometric_mean_ratio_parametric([(one, one)])
    with pytest.raises(ez.EsizeError, match="positive"):
        neg = ez.Design(-np.ones((3, 2)) - np.arange(6).reshape(3, 2), ("b", "m"))
        ez.geometric_mean_ratio_parametric([(neg, neg)])


# Expected coverage of the 95 % log-t interval with Welch-Satterthwaite degrees of freedom
# for the two designs below, from 6 x 10**6 simulated suites of the same model by an
# independent numpy script (standard error about 1e-4); no closed form exists because the
# degrees of freedom are estimated. The other rules, on the same model: normal quantile
# 0.811 (A) and 0.932 (B); the sum of the n - 1 as degrees of freedom 0.839 (A) and
# 0.950 (B, where it is exact); the smallest n - 1 0.950 (A) and 0.9995 (B).
SUITE_DESIGNS = {
    # one system's variance dominates: the pivot is close to t with 2 degrees of freedom
    "dominant": dict(mu=[100.0, 50.0, 20.0], ratio=[0.95, 1.02, 0.9],
                     cv_old=[0.05, 5e-4, 5e-4], cv_new=[5e-4] * 3),
    # all eight systems alike: the pivot is t with 16 degrees of freedom
    "equal": dict(mu=[100.0, 50.0, 20.0, 10.0], ratio=[0.95, 1.02, 0.9, 1.0],
                  cv_old=[0.02] * 4, cv_new=[0.02] * 4),
}
SUITE_EXPECTED = {"dominant": 0.9490, "equal": 0.9618}


def welch_coverage_reference(design: str, reps: int = 10**6, seed: int = 12345) -> float:
    """How ``SUITE_EXPECTED`` was computed (six calls, seeds in turn, averaged): the same
    model as the test, simulated on the top-level unit means directly, with the interval
    written out in numpy rather than taken from esize."""
    from scipy.special import stdtrit

    spec, n_top, n1 = SUITE_DESIGNS[design], 3, 4
    rng = np.random.default_rng(seed)
    mu_old = np.asarray(spec["mu"])
    ratio = np.asarray(spec["ratio"])

    def top_means(mu, cv):
        z = rng.standard_normal((reps, mu.size, n_top)) * math.sqrt(1 + 1 / n1)
        return mu[:, None] * (1 + np.asarray(cv)[:, None] * z)

    to, tn = top_means(mu_old, spec["cv_old"]), top_means(mu_old * ratio, spec["cv_new"])
    mo, mn = to.mean(-1), tn.mean(-1)
    wo = to.var(-1, ddof=1) / n_top / mo**2
    wn = tn.var(-1, ddof=1) / n_top / mn**2
    w = (wo + wn).sum(-1)
    nu = w**2 / ((wo**2 + wn**2).sum(-1) / (n_top - 1))
    err = np.abs(np.log(mn / mo).mean(-1) - np.log(ratio).mean())
    return float(np.mean(err <= -stdtrit(nu, 0.025) * np.sqrt(w) / mu_old.size))


@pytest.mark.parametrize("design", list(SUITE_DESIGNS))
def test_suite_parametric_coverage(design):
    # 20000 simulated suites of two-level systems (3 units x 4 measurements): coverage
    # standard error about 0.15 %, and every wrong degrees-of-freedom rule above lies
    # more than 3 standard errors from the expected coverage in at least one design.
    spec, expected = SUITE_DESIGNS[design], SUITE_EXPECTED[design]
    reps, n_top, n1 = 20_000, 3, 4
    rng = np.random.default_rng(2024)
    mu_old = np.asarray(spec["mu"])
    ratio = np.asarray(spec["ratio"])

    def simulate(mu, cv):
        k = mu.size
        unit = rng.standard_normal((reps, k, n_top, 1))
        meas = rng.standard_normal((reps, k, n_top, n1))
        return mu[:, None, None] * (1 + np.asarray(cv)[:, None, None] * (unit + meas))

    old, new = simulate(mu_old, spec["cv_old"]), simulate(mu_old * ratio, spec["cv_new"])
    stats = []
    for y in (old, new):
        top = y.mean(axis=-1)
        m = top.mean(axis=-1)
        stats.append((m, top.var(axis=-1, ddof=1) / n_top / m**2))
    (mo, wo), (mn, wn) = stats
    nu = np.full(mo.shape, n_top - 1)
    est, lo, hi, df = ez.geometric_mean_limits(np.log(mn / mo), wo, wn, nu, nu, alpha=0.05)
    truth = math.exp(np.mean(np.log(ratio)))
    cover = np.mean((lo <= truth) & (truth <= hi))
    se = math.sqrt(expected * (1 - expected) / reps + 1e-4**2)
    assert abs(cover - expected) < 3 * se, (design, cover, expected)
    # the library's one-suite function agrees with the vectorised route
    for j in (0, reps // 2):
        pairs = [(ez.Design(old[j, b], ("b", "m")), ez.Design(new[j, b], ("b", "m")))
                 for b in range(mu_old.size)]
        iv = ez.geometric_mean_ratio_parametric(pairs)
        assert (iv.lower, iv.upper, iv.extra["df"]) == pytest.approx((lo[j], hi[j], df[j]),
                                                                     rel=1e-10)


# -- systems with different designs ----------------------------------------------------------
def test_welch_df_lies_between_its_bounds_and_serves_equal_designs_too():
    from esize._intervals import ratio_df, ratio_df_rule, welch_df

    assert welch_df(1.0, 0.0, 4, 20) == pytest.approx(3.0)  # the old system alone
    assert welch_df(0.0, 1.0, 4, 20) == pytest.approx(19.0)
    both = welch_df(3.0, 19.0, 4, 20)  # shares proportional to the df: their sum
    assert both == pytest.approx(22.0)
    assert 3.0 < welch_df(0.5, 0.5, 4, 20) < 22.0
    assert welch_df(0.0, 0.0, 4, 20) == 22.0
    # one rule for every design (issue 40): Welch at the estimated variances and with
    # each system's variance at its 85 % upper chi-square limit; the smallest of the three
    rule = ratio_df_rule(10.0, 1.0, 9.0, 0.01, 7, 30)
    wo, wn = 0.01, 0.01 / 81
    f7 = 6 / stats.chi2.ppf(0.15, 6)
    f30 = 29 / stats.chi2.ppf(0.15, 29)
    assert rule.df == pytest.approx(min(welch_df(wo, wn, 7, 30), welch_df(f7 * wo, wn, 7, 30),
                                        welch_df(wo, f30 * wn, 7, 30)), rel=1e-12)
    assert rule.side == "old" and rule.welch == pytest.approx(welch_df(wo, wn, 7, 30))
    assert 6.0 <= rule.df < rule.welch
    # equal designs too (no exemption): 7 against 7 lies between Hsu's 6 and Welch's
    rule = ratio_df_rule(10.0, 1.0, 9.0, 0.01, 7, 7)
    assert 6.0 <= rule.df < rule.welch == pytest.approx(welch_df(wo, wn, 7, 7))
    # a side that is negligible even at its upper limit leaves Welch's value
    rule = ratio_df_rule(10.0, 1e-9, 9.0, 1.0, 7, 30)
    assert rule.side is None and rule.df == pytest.approx(rule.welch) and rule.df > 28.0
    assert ratio_df_rule(10.0, 0.01, 9.0, 1.0, 30, 3).side == "new"
    assert ratio_df(10.0, 1.0, 9.0, 0.01, 7, 30) == ratio_df_rule(10.0, 1.0, 9.0, 0.01, 7, 30).df


@pytest.mark.parametrize("n_old, n_new", [(2, 2), (2, 30), (3, 20), (5, 5), (5, 6), (30, 4)])
def test_ratio_dfs_array_route_equals_the_scalar_rule(n_old, n_new):
    from esize._intervals import ratio_df_rule, ratio_dfs

    rng = np.random.default_rng(n_old * 100 + n_new)
    wo = rng.lognormal(-9, 2, 300)
    wn = rng.lognormal(-9, 2, 300)
    wo[:3] = 0.0
    wn[3:5] = 0.0
    wn[0] = 0.0
    arr = ratio_dfs(wo, wn, n_old, n_new)
    one = [ratio_df_rule(1.0, a, 1.0, b, n_old, n_new).df for a, b in zip(wo, wn)]
    np.testing.assert_allclose(arr, one, rtol=1e-12)
    # bounds: Hsu's min(n) - 1 below, Welch's value above
    assert (arr >= min(n_old, n_new) - 1 - 1e-9).all() and (arr <= n_old + n_new - 2).all()


@pytest.mark.parametrize(
    "n_old, n_new, sd_old, sd_new",
    [(20, 4, 1.0, 3.0), (4, 20, 3.0, 1.0), (10, 250, 1.0, 3.0)],
)
def test_fieller_with_different_designs_covers_at_the_nominal_level(n_old, n_new, sd_old, sd_new):
    """4,000 simulated experiments (normal model, one level per system): the
    Welch-Satterthwaite rule covers 95 % within 1.5 points (4 standard errors); the
    pooled rule (n_old + n_new - 2 degrees of freedom) covers 87.8 % in the first two
    cases, so the test can tell a wrong degrees-of-freedom rule."""
    rng = np.random.default_rng([n_old, n_new, 11])
    n = 4000
    old = rng.normal(10.0, sd_old, (n, n_old))
    new = rng.normal(9.0, sd_new, (n, n_new))
    hits = sum(ez.fieller_ci(o, w).contains(0.9) for o, w in zip(old, new))
    assert abs(hits / n - 0.95) < 0.015, hits / n
    # the same data with the pooled rule: an independent route through `fieller`
    mo, mn = old.mean(1), new.mean(1)
    vo, vn = old.var(1, ddof=1) / n_old, new.var(1, ddof=1) / n_new
    from scipy.special import stdtrit

    lo, hi, _ = ez.fieller(mo, vo, mn, vn, stdtrit(n_old + n_new - 2, 0.975))
    pooled = np.mean((lo <= 0.9) & (0.9 <= hi))
    if min(n_old, n_new) == 4:
        assert pooled < 0.92


def test_fieller_of_different_designs_uses_each_systems_own_top_level():
    rng = np.random.default_rng(5)
    old = rng.lognormal(0.0, 0.1, (20, 3))      # 20 processes x 3 values
    new = rng.lognormal(-1.5, 0.1, (10, 250))   # 10 processes x 250 values
    iv = ez.fieller_ci(old, new)
    ref = ez.fieller_ci(old.mean(1), new.mean(1))  # the top-level means alone
    assert iv.lower == pytest.approx(ref.lower, rel=1e-12)
    assert iv.upper == pytest.approx(ref.upper, rel=1e-12)
    assert 9.0 <= iv.extra["df"] <= 28.0
    # one level against two: still each system's own top-level means
    flat = ez.fieller_ci(old, new.ravel())
    assert flat.extra["df"] > 9.0 and flat.bounded
    with pytest.raises(ez.EsizeError, match="at least 2"):
        ez.fieller_ci(old, new[:1])


def _bits(values) -> list[tuple[float, float]]:
    """The values with the sign of each (so that -0.0 and 0.0 count as different)."""
    return [(float(v), math.copysign(1.0, v)) for v in values]


@settings(max_examples=400, deadline=None)
@given(
    x=st.floats(-1e150, 1e150, allow_subnormal=False),
    y=st.floats(-1e150, 1e150, allow_subnormal=False),
    rel_x=st.floats(0.0, 2.0),
    rel_y=st.floats(0.0, 2.0),
    q=st.floats(0.1, 1e3),
)
def test_fieller_on_floats_is_numpys_route_bit_for_bit(x, y, rel_x, rel_y, q):
    # two computation routes of one formula: fieller_ci takes the plain-float one
    # whenever it applies, and it must not move a limit by one unit in the last place
    from esize._intervals import _fieller_scalar

    vx, vy = (rel_x * x) ** 2, (rel_y * y) ** 2
    fast = _fieller_scalar(x, vx, y, vy, q)
    slow = ez.fieller(x, vx, y, vy, q)
    if fast is not None:
        assert fast[2] is True and slow[2] is True
        assert _bits(fast[:2]) == _bits(slow[:2])


def test_fieller_on_floats_leaves_the_edge_cases_to_numpy():
    from esize._intervals import _fieller_scalar

    assert _fieller_scalar(2.0, 1.0, 3.0, 1.0, 1.96) is not None  # the ordinary case
    assert _fieller_scalar(1.0, 4.0, 3.0, 1.0, 1.96) is None      # unbounded
    assert _fieller_scalar(2.0, 0.0, 3.0, 0.0, 1.96) is None      # constant systems
    assert _fieller_scalar(math.nan, 1.0, 3.0, 1.0, 1.96) is None
    assert _fieller_scalar(2.0, -1.0, 3.0, 1.0, 1.96) is None


@pytest.mark.parametrize("old, new", [
    ([[1.0, 1.0], [1.0, 1.0]], [[3.0, 3.0], [3.0, 3.0]]),      # constant: a point
    ([[0.1, 0.2], [-0.1, -0.15]], [[1.0, 1.1], [1.2, 0.9]]),   # old mean near 0: unbounded
    ([[1.0, 1.1], [1.2, 0.9], [1.05, 1.0]], [[2.0, 2.1], [2.2, 1.9], [2.0, 2.05]]),
])
def test_fieller_ci_is_the_vectorised_formula_on_its_statistics(old, new):
    from esize._intervals import _pair_stats, _shifted

    mo, vo, mn, vn, shift, rule = _pair_stats(old, new)
    q = ez.critical_value(0.05, rule.df)
    lo, hi, ok = ez.fieller(np.array([mo]), vo, mn, vn, q)  # the array route
    iv = ez.fieller_ci(old, new)
    assert iv.bounded == bool(ok[0])
    assert _bits([iv.lower, iv.upper]) == _bits([_shifted(lo[0], shift), _shifted(hi[0], shift)])
