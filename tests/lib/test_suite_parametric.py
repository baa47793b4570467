"""``SuiteInterval.parametric_only``: a suite's geometric mean without a bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pytest

import esize as ez
from esize import EsizeError, SuiteInterval


def _suite(seed: int, k: int = 4, units: int = 5):
    rng = np.random.default_rng(seed)
    pairs = []
    for j in range(k):
        mu = 10.0 ** rng.uniform(-3, 3)
        old = mu * (1 + rng.normal(0, 0.02, (units, 1)) + rng.normal(0, 0.01, (units, 3)))
        new = old * (0.95 + 0.01 * j) * (1 + rng.normal(0, 0.01, (units, 3)))
        pairs.append((ez.Design(old, ("fork", "iteration")),
                      ez.Design(new, ("fork", "iteration"))))
    return pairs


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_same_geometric_mean_and_parametric_interval_as_with_the_bootstrap(seed):
    pairs = _suite(seed)
    invert = [False, True, False, False]
    boot = ez.geometric_mean_ratio_ci(pairs, n_resamples=200, rng=seed, invert=invert)
    only = SuiteInterval.parametric_only(pairs, invert=invert)
    assert only.geometric_mean == boot.geometric_mean
    assert only.parametric == boot.parametric
    assert only.parametric.extra == boot.parametric.extra
    assert not only.has_bootstrap and boot.has_bootstrap
    assert only.resamples == 0 and only.intervals == () and only.bootstrap_distribution is None
    assert only.inverted == tuple(invert)
    v = only.verdict_interval
    assert (v.lower, v.upper, v.method) == (only.parametric.lower, only.parametric.upper,
                                            "parametric")
    assert v.bounded and only.bounded and v.estimate == only.geometric_mean
    d = only.as_dict()
    assert "resamples" not in d and (d["lower"], d["upper"]) == (v.lower, v.upper)
    assert d["parametric"] == boot.as_dict()["parametric"]


def test_single_top_level_unit_gives_an_unbounded_interval():
    pairs = _suite(3, units=5)
    old, new = pairs[0]
    pairs[0] = (ez.Design(old.data[:1], old.levels), new)
    only = SuiteInterval.parametric_only(pairs)
    v = only.verdict_interval
    assert not only.bounded and not v.bounded
    assert (v.lower, v.upper) == (-math.inf, math.inf)
    assert only.as_dict()["lower"] is None


def test_bad_suites_are_refused():
    with pytest.raises(EsizeError, match="at least one benchmark"):
        SuiteInterval.parametric_only([])
    pairs = _suite(4, k=2)
    with pytest.raises(EsizeError, match="invert flags"):
        SuiteInterval.parametric_only(pairs, invert=[True])
    old, new = pairs[1]
    pairs[1] = (old, ez.Design(-new.data, new.levels))
    with pytest.raises(EsizeError, match="benchmark b: the geometric mean needs positive"):
        SuiteInterval.parametric_only(pairs, names=["a", "b"])
