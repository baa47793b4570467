"""Automatic warm-up detection: changepoints, classes, cuts and the balancing rule."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from esize import EsizeError, EsizeWarning
from esize._warmup import (
    CLASSES,
    MIN_VALUES,
    SteadyState,
    WarmupReport,
    auto_warmup,
    default_min_size,
    detect_steady_state,
)

HAVE_RUPTURES = importlib.util.find_spec("ruptures") is not None
#: tests that run without ruptures installed
WITHOUT_RUPTURES = {
    "test_missing_ruptures_is_a_one_line_error",
    "test_importing_the_module_loads_neither_ruptures_nor_scipy",
}


@pytest.fixture(autouse=True)
def _needs_ruptures(request):
    if not HAVE_RUPTURES and request.node.originalname not in WITHOUT_RUPTURES:
        pytest.skip("ruptures is not installed (pip install 'esize[warmup]')")

MISSING = "--warmup auto needs the ruptures package: pip install 'esize[warmup]'"
#: lengths of the simulated series of the rate checks, cycled
LENGTHS = (50, 100, 250, 500, 1000, 2000)


def flat(rng, n, sigma=0.05):
    return rng.lognormal(0.0, sigma, n)


def stepped(rng, n, at, factor, sigma=0.05):
    """Lognormal noise, values from ``at`` on multiplied by ``factor``."""
    x = flat(rng, n, sigma)
    x[at:] *= factor
    return x


def decay(rng, n, tau, amplitude=2.0, sigma=0.02):
    """Times of an exponential warm-up: 1 + amplitude * exp(-t / tau), times noise."""
    return (1 + amplitude * np.exp(-np.arange(n) / tau)) * flat(rng, n, sigma)


# -- single series -------------------------------------------------------------------------
def test_flat_series_is_flat_with_cut_zero():
    r = detect_steady_state(flat(np.random.default_rng(1), 250))
    assert isinstance(r, SteadyState)
    assert (r.classification, r.cut, r.steady_length) == ("flat", 0, 250)
    assert len(r.means) == len(r.changepoints) + 1
    assert r.means[-1] == pytest.approx(1.0, rel=0.02)
    assert r.sigma == pytest.approx(0.05, rel=0.2)


def test_exponential_warmup_is_cut_where_it_has_faded():
    tau = 10
    r = detect_steady_state(decay(np.random.default_rng(2), 250, tau))
    assert r.classification == "warmup"
    excess_at_cut = 2 * math.exp(-r.cut / tau)
    assert excess_at_cut < 0.06  # what is kept is within a few noise SDs of the end
    assert r.cut < tau * math.log(2 / 0.001)  # and not long after it faded below 0.1 %
    assert r.means[0] > 1.5 and r.means[-1] == pytest.approx(1.0, rel=0.01)
    assert list(r.changepoints) == sorted(r.changepoints)


def test_step_slowdown_is_found_at_its_position():
    r = detect_steady_state(stepped(np.random.default_rng(3), 250, 150, math.exp(0.15)))
    assert r.classification == "slowdown"
    assert abs(r.cut - 150) <= 3
    assert r.means[-1] > r.means[-2]


def test_late_change_means_no_steady_state():
    r = detect_steady_state(stepped(np.random.default_rng(4), 250, 220, 0.7))
    assert r.classification == "no_steady_state"
    assert abs(r.cut - 220) <= 3


def test_no_steady_state_boundary_is_the_steady_fraction_rounded_up():
    rng = np.random.default_rng(5)
    n = 100  # a steady state needs ceil(0.25 * 100) = 25 values
    on_edge = detect_steady_state(stepped(rng, n, 75, 0.5, sigma=0.01))
    assert (on_edge.cut, on_edge.classification) == (75, "warmup")
    short = detect_steady_state(stepped(rng, n, 76, 0.5, sigma=0.01))
    assert (short.cut, short.classification) == (76, "no_steady_state")
    lenient = detect_steady_state(stepped(rng, n, 76, 0.5, sigma=0.01), steady_fraction=0.2)
    assert lenient.classification == "warmup"


def test_rates_reverse_the_direction():
    rng = np.random.default_rng(6)
    rates = 1 / decay(rng, 250, 10)  # a throughput that rises while warming up
    up = detect_steady_state(rates, lower_is_better=False)
    assert up.classification == "warmup"
    assert detect_steady_state(rates).classification == "slowdown"  # read as times
    assert detect_steady_state(rates).cut == up.cut
    falling = stepped(rng, 250, 120, 0.8)  # throughput drops later: a slowdown
    assert detect_steady_state(falling, lower_is_better=False).classification == "slowdown"


def test_small_shift_is_equivalent_under_the_relative_tolerance():
    # a 0.5 % warm-up in very quiet data: a real changepoint, but below rel_tol = 1 %
    x = stepped(np.random.default_rng(7), 250, 40, 1 / 1.005, sigma=0.0005)
    r = detect_steady_state(x)
    assert r.changepoints  # it is detected ...
    assert (r.classification, r.cut) == ("flat", 0)  # ... and judged negligible
    strict = detect_steady_state(x, rel_tol=0.001)
    assert strict.classification == "warmup" and abs(strict.cut - 40) <= 2


def test_cut_extends_back_over_segments_equivalent_to_the_last():
    # slow, then steady, a short dip, steady again: the dip is not equivalent, so the
    # steady state starts after it; with a wide tolerance everything after the warm-up is
    x = flat(np.random.default_rng(8), 300, sigma=0.005)
    x[:30] *= 1.5
    x[150:160] *= 0.9
    r = detect_steady_state(x)
    assert r.classification == "slowdown" and abs(r.cut - 160) <= 1
    wide = detect_steady_state(x, rel_tol=0.2)
    assert wide.classification == "warmup" and abs(wide.cut - 30) <= 1


def test_jmh_sized_series_finds_a_short_warmup():
    x = flat(np.random.default_rng(9), 20)
    x[:3] *= 2.0
    r = detect_steady_state(x)
    assert default_min_size(20) == 2
    assert (r.classification, r.cut) == ("warmup", 3)


def test_outliers_do_not_make_changes_but_a_slow_start_does():
    rng = np.random.default_rng(10)
    x = flat(rng, 250, sigma=0.02)
    x[100] *= 5  # a collection in the middle
    x[180:182] *= 3  # two slow values in a row
    x[-1] *= 5  # a slow last value
    assert detect_steady_state(x).classification == "flat"
    y = flat(rng, 250, sigma=0.02)
    y[0] *= 10  # the first iteration: warm-up, dropped with its segment
    r = detect_steady_state(y)
    assert r.classification == "warmup" and 1 <= r.cut <= default_min_size(250)


def test_segments_respect_min_size():
    rng = np.random.default_rng(11)
    for min_size in (2, 3, 7):
        x = decay(rng, 120, 8, sigma=0.01)
        r = detect_steady_state(x, min_size=min_size)
        lengths = [b - a for a, b in r.segments]
        assert sum(lengths) == 120 and min(lengths) >= min_size
        assert len(r.changepoints) >= 2  # the decay is a staircase of several steps


def test_constant_and_coarse_timer_series():
    r = detect_steady_state(np.full(50, 3.0))
    assert (r.classification, r.cut, r.sigma, r.changepoints) == ("flat", 0, 0.0, ())
    assert r.means == pytest.approx((3.0,))
    # a coarse clock: most differences are exactly zero (MAD 0)
    rng = np.random.default_rng(12)
    ticks = np.round(rng.lognormal(0.0, 0.003, 200) * 100) / 100
    ticks[:20] = 1.5
    coarse = detect_steady_state(ticks)
    assert (coarse.classification, coarse.cut) == ("warmup", 20)


def test_penalty_is_in_noise_variances():
    x = stepped(np.random.default_rng(13), 250, 60, 1.05, sigma=0.02)  # 2.4 noise SDs
    default = detect_steady_state(x)
    assert default.penalty == pytest.approx(4 * math.log(250))
    assert default.classification == "slowdown"
    # a penalty above the gain of the split (about 60 * 190 / 250 * 2.4**2 = 265) hides it
    assert detect_steady_state(x, penalty=400).classification == "flat"


# -- rates of false and missed changes --------------------------------------------------------
NOISES = {
    "lognormal 5 %": lambda rng, n: rng.lognormal(0.0, 0.05, n),
    "lognormal 20 %": lambda rng, n: rng.lognormal(0.0, 0.2, n),
    "gamma(4)": lambda rng, n: rng.gamma(4.0, 1.0, n),
    "1 + exponential": lambda rng, n: 1 + rng.exponential(0.05, n),
    "log t(3)": lambda rng, n: np.exp(0.02 * rng.standard_t(3, n)),
}


@pytest.mark.slow
@pytest.mark.parametrize("noise", list(NOISES))
def test_false_alarms_on_flat_series_are_rare(noise):
    rng = np.random.default_rng(2017)
    series = [NOISES[noise](rng, LENGTHS[i % len(LENGTHS)]) for i in range(200)]
    alarms = sum(detect_steady_state(x).classification != "flat" for x in series)
    assert alarms / 200 < 0.05


@pytest.mark.slow
@pytest.mark.parametrize("direction", ["warmup", "slowdown"])
def test_a_step_of_three_noise_sds_is_found(direction):
    rng = np.random.default_rng(2012)
    sigma = 0.05
    factor = math.exp(-3 * sigma) if direction == "warmup" else math.exp(3 * sigma)
    hits = 0
    for i in range(200):
        n = LENGTHS[i % len(LENGTHS)]
        at = n // 4 if direction == "warmup" else (3 * n) // 5
        r = detect_steady_state(stepped(rng, n, at, factor, sigma))
        hits += r.classification == direction and abs(r.cut - at) <= 3
    assert hits / 200 > 0.9


# -- unit invariance ----------------------------------------------------------------------
def _examples():
    rng = np.random.default_rng(14)
    return {
        "flat": flat(rng, 300),
        "decay": decay(rng, 250, 15),
        "slowdown": stepped(rng, 200, 120, 1.2),
        "late": stepped(rng, 100, 90, 0.6),
        "jmh": stepped(rng, 20, 4, 0.5),
    }


@pytest.mark.parametrize("scale", [1e-300, 1e300, 3.7e-150, 1e150])
@pytest.mark.parametrize("name", list(_examples()))
def test_scaling_the_values_changes_nothing_but_the_means(name, scale):
    x = _examples()[name]
    a, b = detect_steady_state(x), detect_steady_state(x * scale)
    assert (b.cut, b.classification, b.changepoints) == (a.cut, a.classification, a.changepoints)
    assert np.allclose(np.array(b.means) / scale, a.means, rtol=1e-12, atol=0)
    assert b.sigma == pytest.approx(a.sigma, rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(MIN_VALUES, 400),
    at=st.floats(0.0, 1.0),
    log_factor=st.floats(-1.0, 1.0),
    exponent=st.floats(-300.0, 300.0),
)
def test_unit_invariance_property(seed, n, at, log_factor, exponent):
    rng = np.random.default_rng(seed)
    x = stepped(rng, n, int(at * n), math.exp(log_factor))
    a, b = detect_steady_state(x), detect_steady_state(x * 10.0**exponent)
    assert (b.cut, b.classification, b.changepoints) == (a.cut, a.classification, a.changepoints)
    groups = [x, stepped(rng, n + 7, n // 3, 1.3)]
    ra = auto_warmup(groups)
    rb = auto_warmup([g * 10.0**exponent for g in groups])
    assert rb.as_dict() == ra.as_dict()


# -- one benchmark: the balancing rule ---------------------------------------------------------
def _quiet(rng, n, warm=0, late=None):
    """Quiet series: ``warm`` slow first values, a drop from ``late`` on."""
    x = flat(rng, n, sigma=0.01)
    x[:warm] *= 2.0
    if late is not None:
        x[late:] *= 0.5
    return x


def test_balancing_keeps_the_last_values_of_the_shortest_steady_state():
    rng = np.random.default_rng(15)
    groups = [_quiet(rng, 100, warm=10), _quiet(rng, 120, warm=20), _quiet(rng, 80)]
    rep = auto_warmup(groups)
    assert isinstance(rep, WarmupReport)
    assert rep.cuts == (10, 20, 0)
    assert rep.kept == 80  # steady lengths 90, 100, 80
    assert rep.trimmed.shape == (3, 80) and not rep.trimmed.flags.writeable
    for row, g in zip(rep.trimmed, groups):
        assert np.array_equal(row, g[-80:])
    assert (rep.dropped_warmup, rep.dropped_balance) == (30, 30)
    assert rep.dropped == sum(map(len, groups)) - rep.trimmed.size == 60
    assert rep.classes == {"flat": 1, "warmup": 2, "slowdown": 0, "no_steady_state": 0}
    assert list(rep.classes) == list(CLASSES)
    assert rep.no_steady_state == ()
    assert rep.as_dict() == {
        "mode": "auto",
        "dropped": 60,
        "dropped_warmup": 30,
        "dropped_balance": 30,
        "kept": 80,
        "classes": {"flat": 1, "warmup": 2, "slowdown": 0, "no_steady_state": 0},
        "cuts": [10, 20, 0],
        "no_steady_state": [],
        "short_steady_state": [],
    }
    json.dumps(rep.as_dict())  # JSON-ready


def test_process_without_steady_state_is_kept_flagged_and_does_not_set_kept():
    rng = np.random.default_rng(16)
    groups = [_quiet(rng, 100), _quiet(rng, 100, warm=20), _quiet(rng, 100, late=90)]
    rep = auto_warmup(groups, benchmark="nbody")
    assert [p.classification for p in rep.processes] == ["flat", "warmup", "no_steady_state"]
    assert rep.no_steady_state == (2,)
    assert rep.kept == 80  # not the 10 values of the unsettled process
    assert np.array_equal(rep.trimmed[2], groups[2][-80:])  # reaches back before its cut
    # process 2 loses its first 20 values, all before its cut (90)
    assert (rep.dropped_warmup, rep.dropped_balance) == (20 + 20, 20 + 0)


def test_all_processes_without_steady_state_keep_the_shortest_last_part():
    rng = np.random.default_rng(17)
    groups = [_quiet(rng, 100, late=90), _quiet(rng, 100, late=85)]
    rep = auto_warmup(groups)
    assert rep.classes["no_steady_state"] == 2 and rep.no_steady_state == (0, 1)
    assert rep.kept == 10
    assert rep.dropped_warmup == 90 + 85 and rep.dropped_balance == 5


def test_kept_is_at_least_min_size():
    # the shortest possible steady state: one segment of min_size values at the end,
    # in every process (a single such process no longer sets kept: see
    # test_warmup_correlated.py, the balancing floor)
    rng = np.random.default_rng(18)
    groups = [_quiet(rng, 40, late=35), _quiet(rng, 40, late=35)]
    with pytest.warns(EsizeWarning, match="88 % of the values"):
        rep = auto_warmup(groups, min_size=5, steady_fraction=0.1)
    assert rep.processes[0].cut == 35 and rep.processes[0].classification == "warmup"
    assert rep.kept == 5 and rep.trimmed.shape == (2, 5)


def test_two_dimensional_array_of_processes():
    rng = np.random.default_rng(19)
    data = np.stack([_quiet(rng, 60, warm=6) for _ in range(4)])
    rep = auto_warmup(data)
    assert rep.cuts == (6, 6, 6, 6) and rep.kept == 54 and rep.dropped == 24


# -- errors -------------------------------------------------------------------------------------
def test_too_short_series_is_an_error():
    with pytest.raises(EsizeError, match=f"at least {MIN_VALUES}"):
        detect_steady_state(np.ones(MIN_VALUES - 1))
    with pytest.raises(EsizeError, match="too short for segments of at least 6"):
        detect_steady_state(np.linspace(1, 2, 11), min_size=6)
    with pytest.raises(EsizeError) as info:
        auto_warmup([np.ones(30), np.ones(5)], benchmark="fannkuch")
    message = str(info.value)
    assert message.startswith("fannkuch: process 1: 5 value(s) are too few")
    assert "\n" not in message


@pytest.mark.parametrize(
    "series, match",
    [
        (np.r_[np.ones(9), 0.0], "positive"),
        (np.r_[np.ones(9), -1.0], "positive"),
        (np.r_[np.ones(9), np.nan], "NaN"),
        (np.ones((3, 10)), "one-dimensional"),
    ],
)
def test_bad_values_are_errors(series, match):
    with pytest.raises(EsizeError, match=match):
        detect_steady_state(series)


@pytest.mark.parametrize(
    "option",
    [{"penalty": 0.0}, {"penalty": float("inf")}, {"min_size": 1}, {"min_size": 2.5},
     {"rel_tol": -0.1}, {"steady_fraction": 0.0}, {"steady_fraction": 1.5}],
)
def test_bad_options_are_errors(option):
    with pytest.raises(EsizeError):
        detect_steady_state(np.linspace(1, 2, 40), **option)


def test_no_process_is_an_error():
    with pytest.raises(EsizeError, match="richards: no process"):
        auto_warmup([], benchmark="richards")


def test_missing_ruptures_is_a_one_line_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ruptures", None)
    x = flat(np.random.default_rng(20), 50)
    for call in (lambda: detect_steady_state(x), lambda: auto_warmup([x, x])):
        with pytest.raises(EsizeError) as info:
            call()
        assert str(info.value) == MISSING


def test_importing_the_module_loads_neither_ruptures_nor_scipy():
    code = (
        "import sys, json, esize, esize._warmup; "
        "print(json.dumps([m for m in ('ruptures', 'scipy') if m in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert json.loads(out.stdout) == []


def test_a_short_process_without_a_steady_state_bounds_what_is_kept():
    """Found by the property test: a 9-value process that never settles beside a longer
    flat one; every process keeps as many values as the shortest can give."""
    rng = np.random.default_rng(0)
    short = stepped(rng, 9, 7, math.e)  # a change 2 values before its end
    long = stepped(rng, 16, 3, 1.3)  # settles after 3 values: 13 steady ones
    assert detect_steady_state(short).classification == "no_steady_state"
    assert detect_steady_state(long).steady_length > 9
    rep = auto_warmup([short, long])
    assert rep.trimmed.shape[1] == rep.kept <= 9
    assert rep.dropped == 9 + 16 - 2 * rep.kept
