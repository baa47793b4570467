"""Student t and normal quantiles without scipy (esize._tdist) against scipy's."""

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from esize import critical_value
from esize._tdist import normal_quantile, t_quantile, t_upper

scipy_special = pytest.importorskip("scipy.special")

DFS = [1.0, 1.0000001, 1.5, 2.0, 2.5, 3.0, 4.7, 9.5, 29.5, 70.7, 399.5, 400.5, 1999.9, 2000.0,
       3451.8, 1e5 + 0.3, 8.98e6, 1e9]
PS = [0.6, 0.9, 0.95, 0.975, 0.995, 0.9995, 1 - 1e-6, 1 - 1e-9, 0.05, 0.025, 1e-6, 1e-12]


@pytest.mark.parametrize("df", DFS)
def test_t_quantile_equals_scipys(df):
    for p in PS:
        ours, theirs = t_quantile(p, df), float(scipy_special.stdtrit(df, p))
        assert ours == pytest.approx(theirs, rel=1e-10, abs=0), (df, p)


@settings(max_examples=300, deadline=None)
@given(df=st.floats(1.0, 1e8), p=st.floats(1e-10, 1 - 1e-10))
def test_t_quantile_inverts_scipys_distribution_function(df, p):
    """Near the median scipy's stdtrit is the less accurate side; its stdtr is not."""
    q = t_quantile(p, df)
    assert float(scipy_special.stdtr(df, q)) == pytest.approx(p, rel=1e-10, abs=1e-15)
    if p >= 1e-4:  # 1 - p keeps enough digits of p
        assert t_quantile(1 - p, df) == pytest.approx(-q, rel=1e-9, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(df=st.floats(1.0, 1e6), t=st.floats(1e-3, 50.0))
def test_t_upper_equals_scipys(df, t):
    """Away from 0: there scipy's stdtr rounds 0.5 - tiny to 0.5 (see the closed forms)."""
    assert t_upper(t, df) == pytest.approx(float(scipy_special.stdtr(df, -t)), rel=1e-10,
                                           abs=1e-300)


@settings(max_examples=200, deadline=None)
@given(t=st.floats(0.0, 1e6))
def test_t_upper_equals_the_closed_forms_of_one_and_two_df(t):
    """Cauchy: 1/2 - atan(t)/pi; two df: (1 - t / sqrt(2 + t^2)) / 2, near 0 included."""
    one = 0.5 - math.atan(t) / math.pi if t <= 1 else math.atan(1 / t) / math.pi
    assert t_upper(t, 1.0) == pytest.approx(one, rel=1e-12, abs=1e-300)
    r = math.sqrt(2.0 + t * t)
    two = 1.0 / (r * (r + t))  # (1 - t/r) / 2 without cancelling
    assert t_upper(t, 2.0) == pytest.approx(two, rel=1e-12, abs=1e-300)


def test_normal_quantile_equals_scipys():
    ps = np.concatenate([np.geomspace(1e-300, 0.49, 400), [0.5],
                         1 - np.geomspace(1e-15, 0.49, 400)])
    for p in ps:
        assert normal_quantile(float(p)) == pytest.approx(float(scipy_special.ndtri(p)),
                                                          rel=1e-12, abs=1e-15)


def test_critical_value_for_fractional_df_needs_no_scipy():
    """The suite's Welch df (e.g. 3451.8) and odd levels: computed, scipy not imported."""
    code = ("import sys, esize; q = esize.critical_value(0.05, 3451.8); "
            "r = esize.critical_value(0.2, 7.25); z = esize.critical_value(0.3); "
            "print(q, r, z, 'scipy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[-1] == "False"
    q, r, z = (float(x) for x in out[:3])
    assert q == pytest.approx(float(scipy_special.stdtrit(3451.8, 0.975)), rel=1e-12)
    assert r == pytest.approx(float(scipy_special.stdtrit(7.25, 0.9)), rel=1e-12)
    assert z == pytest.approx(float(scipy_special.ndtri(0.85)), rel=1e-12)


def test_bad_arguments():
    for p in (0.0, 1.0, -0.1, math.nan):
        with pytest.raises(ValueError):
            t_quantile(p, 3.0)
        with pytest.raises(ValueError):
            normal_quantile(p)
    with pytest.raises(ValueError):
        t_quantile(0.9, 0.5)
    assert t_quantile(0.5, 3.0) == 0.0
    assert critical_value(0.05, 2.5) == pytest.approx(float(scipy_special.stdtrit(2.5, 0.975)),
                                                      rel=1e-12)


def test_newton_does_not_fall_back_to_bisection_near_the_root():
    # a Newton step below one ulp used to leave the iterate on the bracket's edge and
    # send it back to bisecting: 2e-11 off at 57 df, and three times the evaluations
    from scipy import stats

    from esize import _tdist

    calls = []
    real = _tdist.t_upper

    def counted(t, df):
        calls.append(t)
        return real(t, df)

    for df in (5.5, 19.3, 33.3, 57.0, 120.0, 399.5):
        for p in (0.9, 0.95, 0.975, 0.995):
            calls.clear()
            _tdist.t_upper = counted
            try:
                q = _tdist.t_quantile(p, df)
            finally:
                _tdist.t_upper = real
            assert abs(q / stats.t.ppf(p, df) - 1) < 1e-13, (df, p)
            assert len(calls) <= 4, (df, p, len(calls))
