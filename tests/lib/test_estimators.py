"""Variance estimators: a loop-based second route, invariances, and unbiasedness."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import esize as ez
from conftest import hierarchical_normal
from reference import s2_loops

shapes = st.lists(st.integers(2, 4), min_size=1, max_size=4).map(tuple)
values = st.floats(0.5, 100.0, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(shape=shapes, data=st.data())
def test_s2_matches_loops(shape, data):
    y = data.draw(arrays(np.float64, shape, elements=values))
    np.testing.assert_allclose(ez.s2(y), s2_loops(y), rtol=1e-9, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(shape=shapes, data=st.data(), c=st.floats(0.01, 100.0), shift=st.floats(-50, 50))
def test_scaling_and_shift(shape, data, c, shift):
    y = data.draw(arrays(np.float64, shape, elements=values))
    s = ez.s2(y)
    np.testing.assert_allclose(ez.s2(c * y), c**2 * s, rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(ez.s2(y + shift), s, rtol=1e-7, atol=1e-7)
    vc = ez.variance_components(ez.Design(y, [f"l{k}" for k in range(y.ndim)]))
    vc_c = ez.variance_components(ez.Design(c * y, [f"l{k}" for k in range(y.ndim)]))
    np.testing.assert_allclose(vc.S_pct, vc_c.S_pct, rtol=1e-8, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(shape=shapes, data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_permuting_units_changes_nothing(shape, data, seed):
    y = data.draw(arrays(np.float64, shape, elements=values))
    rng = np.random.default_rng(seed)
    z = y.copy()
    # permute units at every level, independently within each parent
    for axis in range(z.ndim):
        z = rng.permuted(z, axis=axis) if axis == z.ndim - 1 else _permute_within(z, axis, rng)
    np.testing.assert_allclose(ez.s2(z), ez.s2(y), rtol=1e-9, atol=1e-9)


def _permute_within(z, axis, rng):
    """Shuffle whole sub-arrays along ``axis`` separately for every parent."""
    out = z.copy()
    for parent in np.ndindex(*z.shape[:axis]):
        perm = rng.permutation(z.shape[axis])
        out[parent] = z[parent][perm]
    return out


def test_t2_definition():
    s = np.array([5.0, 4.0, 3.0])
    np.testing.assert_allclose(ez.t2(s, [10, 4, 6]), [5 - 4 / 4, 4 - 3 / 6, 3])


def test_t2_unbiased_and_mean_variance_unbiased():
    # Under the hierarchical normal model E(T_i^2) = sigma_i^2 and
    # E(S_top^2 / n_top) = var(grand mean) (equation eMeanNormality).
    sig = np.array([1.5, 1.0, 2.0])
    shape = (6, 4, 5)
    rng = np.random.default_rng(7)
    y = hierarchical_normal(rng, sig, shape, size=4000)
    s = np.stack([ez.s2(e) for e in y])
    t = np.stack([ez.t2(row, shape) for row in s])
    se = t.std(axis=0, ddof=1) / np.sqrt(len(t))
    assert np.all(np.abs(t.mean(axis=0) - sig**2) < 4.5 * se)
    mv = s[:, 0] / shape[0]
    expected = ez.model_mean_variance(sig**2, shape)
    assert abs(mv.mean() - expected) < 4.5 * mv.std(ddof=1) / np.sqrt(len(mv))
    # and the grand means really do have that variance
    gm = y.reshape(len(y), -1).mean(axis=1)
    assert gm.var(ddof=1) == pytest.approx(expected, rel=0.08)


def test_model_mean_variance_formula():
    assert ez.model_mean_variance([4.0, 2.0, 1.0], [2, 3, 5]) == pytest.approx(
        4 / 2 + 2 / 6 + 1 / 30
    )


def test_estimators_need_two_units():
    with pytest.raises(ez.DesignError):
        ez.s2(np.ones((3, 1, 4)))
    with pytest.raises(ez.DesignError):
        ez.mean_variance(np.ones((1, 4)))


# -- exact zeros and the unit of measure ----------------------------------------------------
@pytest.mark.parametrize("shape", [(3, 2, 2), (5, 3, 7), (10, 4, 3), (4, 9), (2, 3, 2, 5)])
@pytest.mark.parametrize("c", [0.1, 0.3, 9.8, 10.0, 1 / 3, 7.7, 123.456, 1e-200, 3e250])
def test_constant_data_have_exactly_zero_variance(shape, c):
    # Whatever the rounding of the means, a constant design has S^2 = T^2 = 0 at every
    # level (variances below (1e-12 * max |y|)^2 are zero), every time.
    d = ez.Design(np.full(shape, c), [f"l{k}" for k in range(len(shape))])
    vc = ez.variance_components(d)
    assert np.all(vc.S2 == 0) and np.all(vc.T2 == 0)
    assert np.all(vc.S_pct == 0) and np.all(vc.T_pct == 0)
    assert np.all(ez.s2(d) == 0)
    assert ez.mean_variance(d) == 0
    assert vc.mean == pytest.approx(c, rel=1e-15)


def test_small_genuine_variation_is_kept():
    # instruction counts varying in the 9th digit are not "constant"
    rng = np.random.default_rng(1)
    y = 1e9 + rng.integers(0, 5, size=(4, 3, 5)).astype(float)
    s = ez.s2(y)
    assert np.all(s > 0)
    np.testing.assert_allclose(s, s2_loops(y), rtol=1e-6)
    assert ez.mean_variance(y) > 0


@settings(max_examples=80, deadline=None)
@given(k=st.integers(-300, 300), seed=st.integers(0, 2**32 - 1))
def test_variance_components_do_not_depend_on_the_unit(k, seed):
    import warnings

    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(2, 5, size=int(rng.integers(1, 4))))
    top = shape[:1] + (1,) * (len(shape) - 1)
    y = rng.lognormal(1.0, 0.5, size=shape) + rng.lognormal(0.0, 0.3, size=top)
    levels = [f"l{j}" for j in range(len(shape))]
    c = 10.0**k
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow or underflow on the way
        one = ez.variance_components(ez.Design(y, levels))
        sc = ez.variance_components(ez.Design(y * c, levels))
    assert sc.mean == pytest.approx(one.mean * c, rel=1e-12)
    np.testing.assert_allclose(sc.S_pct, one.S_pct, rtol=1e-9)
    np.testing.assert_allclose(sc.T_pct, one.T_pct, rtol=1e-9, atol=1e-9 * one.S_pct.max())
    # the data-unit variances, where c^2 S^2 is a float at all
    if abs(k) < 150:
        np.testing.assert_allclose(sc.S2, one.S2 * c * c, rtol=1e-9)


def _mean_and_variance_by_the_definition(y):
    """The formula as written before the one-pass scale: scale_exponent, then the zero
    rule on max |y / 2**e| computed anew."""
    from esize._design import scale_exponent
    from esize._estimators import _zero_small

    y = np.asarray(y, dtype=np.float64)
    e = scale_exponent(y)
    z = np.ldexp(y, -e) if e else y
    top = z.reshape(z.shape[0], -1).mean(axis=1)
    v = _zero_small(top.var(ddof=1), float(np.max(np.abs(z))))
    return float(z.mean()), float(v) / top.size, e


@settings(max_examples=150, deadline=None)
@given(shape=shapes.filter(lambda s: s[0] >= 2), k=st.integers(-320, 300),
       seed=st.integers(0, 2**32 - 1), constant=st.booleans(), negative=st.booleans())
def test_mean_and_variance_is_its_definition_bit_for_bit(shape, k, seed, constant, negative):
    from esize._estimators import mean_and_variance

    rng = np.random.default_rng(seed)
    y = np.full(shape, 3.0) if constant else rng.lognormal(0.0, 0.5, size=shape)
    y = y * 10.0**k * (-1.0 if negative else 1.0)
    got, want = mean_and_variance(y), _mean_and_variance_by_the_definition(y)
    assert got[2] == want[2]
    np.testing.assert_array_equal(np.array(got[:2]), np.array(want[:2]))


def test_shared_statistics_reuse_only_read_only_arrays_and_only_inside():
    from esize._estimators import _SHARED, mean_and_variance, shared_statistics

    d = ez.Design(np.arange(1.0, 13.0).reshape(4, 3), ["a", "b"])  # read-only data
    writable = np.arange(1.0, 13.0).reshape(4, 3)
    want = mean_and_variance(d)
    with shared_statistics():
        assert mean_and_variance(d) == want
        assert mean_and_variance(d) is mean_and_variance(d)  # remembered
        assert list(_SHARED.get()) == [id(d.data)]
        first = mean_and_variance(writable)
        writable[0, 0] = 100.0  # a writable array is never remembered
        assert mean_and_variance(writable) != first
        assert mean_and_variance(d, exponent=0) == mean_and_variance(d.data * 1.0, 0)
    assert _SHARED.get() is None
    assert mean_and_variance(d) is not mean_and_variance(d)  # outside: computed anew
