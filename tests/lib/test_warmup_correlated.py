"""Warm-up detection on autocorrelated noise, where warm-ups end, and the balancing rule.

The Monte Carlo checks (``slow``) use fixed seeds; a rate is asserted against its
nominal value plus (false cuts) or minus (hits) 3 binomial standard errors at that
nominal value. Noise is multiplicative (on the log scale): ``sd`` is the standard
deviation of ``log x``, so 0.01 is about 1 %.
"""

from __future__ import annotations

import importlib.util
import math
import warnings

import numpy as np
import pytest

from esize import Design, EsizeWarning
from esize._warmup import (
    BALANCE_FLOOR,
    BALANCE_QUANTILE,
    DROP_WARNING,
    _long_run_variance,
    _refine,
    auto_warmup,
    detect_steady_state,
)
from esize.readers._common import drop_warmup

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ruptures") is None,
    reason="ruptures is not installed (pip install 'esize[warmup]')",
)


def ar1(rng, n, phi, sd=0.01, burn=200):
    """Stationary AR(1) log-noise of marginal SD ``sd``, exponentiated."""
    e = rng.normal(0.0, sd * math.sqrt(1 - phi * phi), n + burn)
    y = np.empty(n + burn)
    y[0] = rng.normal(0.0, sd)
    for t in range(1, n + burn):
        y[t] = phi * y[t - 1] + e[t]
    return np.exp(y[burn:])


def ar1_block(rng, shape, phi, sd=0.01, burn=200):
    """Many AR(1) series at once (rows), as :func:`ar1`."""
    rows, n = shape
    e = rng.normal(0.0, sd * math.sqrt(1 - phi * phi), (rows, n + burn))
    y = np.empty((rows, n + burn))
    y[:, 0] = rng.normal(0.0, sd, rows)
    for t in range(1, n + burn):
        y[:, t] = phi * y[:, t - 1] + e[:, t]
    return np.exp(y[:, burn:])


def bound_above(p, reps):
    return p + 3 * math.sqrt(p * (1 - p) / reps)


def bound_below(p, reps):
    return p - 3 * math.sqrt(p * (1 - p) / reps)


def quiet(rng, n, warm=0, sd=0.01):
    x = rng.lognormal(0.0, sd, n)
    x[:warm] *= 2.0
    return x


# -- the long-run variance ---------------------------------------------------------------------
def test_long_run_variance_of_independent_noise_is_close_to_the_variance():
    r = np.random.default_rng(1).normal(0.0, 1.0, 2000)
    # the upper bound on the autocorrelation inflates it a little (about 2 / sqrt(n))
    assert 0.95 < _long_run_variance(r - r.mean()) < 1.2


@pytest.mark.parametrize("phi", [0.5, 0.9])
def test_long_run_variance_of_ar1_noise(phi):
    y = np.log(ar1(np.random.default_rng(2), 5000, phi, sd=1.0))
    truth = (1 + phi) / (1 - phi)  # marginal variance 1
    assert _long_run_variance(y - y.mean()) == pytest.approx(truth, rel=0.3)


def test_constant_residuals_have_no_long_run_variance():
    assert _long_run_variance(np.zeros(50)) == 0.0


def test_scale_is_sigma_for_independent_noise_and_larger_for_correlated():
    rng = np.random.default_rng(3)
    iid = detect_steady_state(rng.lognormal(0.0, 0.01, 1000))
    assert iid.sigma <= iid.scale < 1.15 * iid.sigma
    corr = detect_steady_state(ar1(rng, 1000, 0.5))
    assert corr.classification == "flat"
    # differences see sigma * sqrt(1 - phi) of the marginal SD; the long-run SD is
    # sqrt((1 + phi) / (1 - phi)) times it
    assert corr.sigma == pytest.approx(0.01 * math.sqrt(0.5), rel=0.15)
    assert corr.scale == pytest.approx(0.01 * math.sqrt(3), rel=0.3)


def test_correlated_flat_series_that_the_independent_rule_cut_is_flat():
    rng = np.random.default_rng(4)
    x = ar1(rng, 100, 0.5)
    r = detect_steady_state(x)
    assert (r.classification, r.cut) == ("flat", 0)
    # charged in short-run variances (the old rule), the same series has changes
    assert detect_steady_state(x, penalty=r.penalty * (r.sigma / r.scale) ** 2).changepoints


# -- where a warm-up ends ------------------------------------------------------------------------
def test_a_gradual_warmup_is_cut_near_its_end():
    t = np.arange(200)
    ramp = 1 + np.where(t < 20, 0.2 * (1 - t / 20), 0.0)  # 20 % above, gone at t = 20
    r = detect_steady_state(ramp * np.random.default_rng(5).lognormal(0.0, 0.01, 200))
    assert r.classification == "warmup" and 16 <= r.cut <= 24


def test_refinement_moves_the_cut_over_a_slower_stretch_only():
    yc = np.zeros(100)
    yc[10:18] = 0.02  # the tail of a warm-up, left in the steady segment [10, 100)
    fine = np.array([0, 5, 10, 14, 18, 60])
    assert _refine(yc, 10, fine, 75, True) == 18  # last fine change ending it
    assert _refine(yc, 10, fine, 75, False) == 10  # for rates higher is faster
    assert _refine(yc, 10, fine, 16, True) == 14  # never past the steady fraction
    assert _refine(yc, 8, fine, 75, True) == 14  # nor more than doubling the cut
    assert _refine(-yc, 10, fine, 75, True) == 10  # a faster stretch is kept


# -- the balancing rule and the warning -------------------------------------------------------------
def test_one_late_cut_shrinks_the_others_by_a_quarter_at_most():
    rng = np.random.default_rng(7)
    groups = [quiet(rng, 100) for _ in range(9)] + [quiet(rng, 100, warm=70)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", EsizeWarning)  # 23 % dropped: no warning
        rep = auto_warmup(groups)
    assert rep.cuts == (0,) * 9 + (70,)
    assert rep.kept == math.ceil(BALANCE_FLOOR * 100) == 75  # not 30
    assert rep.short_steady_state == (9,) and rep.no_steady_state == ()
    assert np.array_equal(rep.trimmed[9], groups[9][-75:])  # reaches back before 70
    assert rep.dropped_warmup == 25 and rep.dropped_balance == 9 * 25
    assert rep.as_dict()["short_steady_state"] == [9]
    assert rep.warning is None and rep.dropped_share == pytest.approx(0.25)


def test_among_many_processes_one_late_cut_shrinks_none():
    rng = np.random.default_rng(11)
    groups = [quiet(rng, 100) for _ in range(19)] + [quiet(rng, 100, warm=40)]
    rep = auto_warmup(groups)
    assert rep.cuts == (0,) * 19 + (40,) and BALANCE_QUANTILE == 0.1
    # the lower 10 % quantile of 20 steady lengths is the second shortest: 100
    assert rep.kept == 100 and rep.dropped == 0 and rep.short_steady_state == (19,)
    assert np.array_equal(rep.trimmed, np.stack(groups))


def test_common_warmups_still_set_kept():
    rng = np.random.default_rng(8)
    groups = [quiet(rng, 100, warm=w) for w in (10, 15, 20, 30)]
    with pytest.warns(EsizeWarning, match="30 % of the values"):
        rep = auto_warmup(groups)
    assert rep.cuts == (10, 15, 20, 30) and rep.kept == 70
    assert rep.short_steady_state == ()


def test_dropping_more_than_a_quarter_warns():
    rng = np.random.default_rng(9)
    groups = [quiet(rng, 100, warm=30) for _ in range(4)]
    with pytest.warns(EsizeWarning, match=r"^fft: warm-up detection dropped 30 % of the "
                      r"values \(120 of 400\)"):
        rep = auto_warmup(groups, benchmark="fft")
    assert rep.dropped_share == pytest.approx(0.3) and rep.dropped_share > DROP_WARNING
    assert rep.warning.startswith("warm-up detection dropped 30 %")


def test_drop_warmup_turns_the_warning_and_short_processes_into_caveats():
    rng = np.random.default_rng(10)
    rows = [quiet(rng, 40, warm=w) for w in (0, 0, 0, 30)]
    design = Design(np.stack(rows), ("process", "value"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", EsizeWarning)  # a caveat, not also a note
        out, info, caveats, before = drop_warmup(design, "x.csv", "fft", "auto")
    assert out.shape == (4, 30) and info["short_steady_state"] == [3]
    assert any("1 of 4 processes settled later than most" in c for c in caveats)
    assert not any("dropped" in c for c in caveats)  # 40 of 160: exactly a quarter
    rows = [quiet(rng, 40, warm=20) for _ in range(3)]
    _, _, caveats, _ = drop_warmup(Design(np.stack(rows), ("process", "value")),
                                   "x.csv", "fft", "auto")
    assert caveats == ("--warmup auto: warm-up detection dropped 50 % of the values "
                       "(60 of 120): check the cuts on a plot of the series, or drop a "
                       "fixed number of values",)


# -- Monte Carlo -------------------------------------------------------------------------------
@pytest.mark.slow
def test_ten_flat_ar1_processes_are_rarely_cut():
    """Ten processes of 100 values, AR(1) log-noise with phi = 0.5 and marginal SD 1 %:
    at most 5 % of 1000 designs lose a value, and the median share dropped is under 5 %."""
    rng = np.random.default_rng(2612)
    reps = 1000
    data = ar1_block(rng, (reps * 10, 100), 0.5).reshape(reps, 10, 100)
    shares, cut, unsettled = [], 0, 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EsizeWarning)
        for design in data:
            rep = auto_warmup(design)
            shares.append(rep.dropped_share)
            cut += rep.dropped > 0
            unsettled += len(rep.no_steady_state)
    assert cut / reps <= bound_above(0.05, reps)
    assert np.median(shares) < 0.05
    assert np.mean(shares) < 0.05
    assert unsettled / reps < 0.1  # processes called "no steady state" per design


@pytest.mark.slow
def test_a_five_value_exponential_warmup_is_found_within_two_values():
    """Times 1 + exp(-t) (twice as slow at first, under 1 % extra from t = 5 on) times
    1 % independent lognormal noise; 1000 series of 30 to 400 values: the cut is within
    2 values of 5 in at least 95 % of them."""
    rng = np.random.default_rng(2605)
    reps = 1000
    lengths = (30, 50, 100, 200, 400)
    hits = 0
    for i in range(reps):
        n = lengths[i % len(lengths)]
        x = (1 + np.exp(-np.arange(n))) * rng.lognormal(0.0, 0.01, n)
        r = detect_steady_state(x)
        hits += r.classification == "warmup" and abs(r.cut - 5) <= 2
    assert hits / reps >= bound_below(0.95, reps)


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["linear", "exponential"])
def test_after_a_gradual_warmup_the_kept_mean_is_the_steady_mean(shape):
    """200 values, 1 % independent lognormal noise, a warm-up over 20 values: linear,
    20 % slower at first and gone at t = 20, or exponential, 1 + 0.5 exp(-t / 4) (under
    0.35 % extra from t = 20 on). In at least 95 % of 1000 series the arithmetic mean of
    the kept values is within 0.2 % of the steady mean exp(0.01**2 / 2)."""
    rng = np.random.default_rng(2620 if shape == "linear" else 2640)
    reps, n, sd = 1000, 200, 0.01
    t = np.arange(n)
    if shape == "linear":
        excess = np.where(t < 20, 0.2 * (1 - t / 20), 0.0)
    else:
        excess = 0.5 * np.exp(-t / 4)
    steady = math.exp(sd * sd / 2)
    close = 0
    for _ in range(reps):
        x = (1 + excess) * rng.lognormal(0.0, sd, n)
        r = detect_steady_state(x)
        close += abs(x[r.cut:].mean() / steady - 1) <= 0.002
    assert close / reps >= bound_below(0.95, reps)
