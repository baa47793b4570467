"""Coverage simulations: determinism, sharding and the model's shortcuts."""

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from esize import EsizeError
from esize_study.coverage import model as cv
from esize_study.coverage import records as cvrec

MODEL = cv.Model((0.02**2, 0.05**2, 0.04**2), 0.95)

CELLS = [
    cv.CellSpec("fCOV", 3, 4, 5, 70, block=20),
    cv.CellSpec("fCOV", 4, 3, 6, 45, (), ("RRR", "RRN", "RNN", "FLAT"), 40, block=10),
    cv.CellSpec("fCOVGrid", 2, 5, 4, 30, cv.PARAMETRIC, ("RRR",), 40, block=10),
    cv.CellSpec("fCOVR", 1, 3, 5, 35, cv.PARAMETRIC, ("RRR",), 40, block=10),
    cv.CellSpec("fCOVRSGrid", 1, 4, 7, 50, block=15),
    cv.CellSpec("fCOV", 3, 2, 3, 24, cv.PARAMETRIC, ("RRR", "FLAT"), 30, mode="exact",
                block=8, keep=True, paired=True),
]


def _counts(records):
    return cvrec.summarise(records, "b").reset_index(drop=True)


def test_shards_and_jobs_do_not_change_numbers():
    ref = _counts(cv.simulate_cells(MODEL, CELLS, seed=5, bench_id=1))
    sharded = []
    for i in range(3):
        sharded += cv.simulate_cells(MODEL, CELLS, seed=5, bench_id=1, shard=(i, 3))
    parallel = cv.simulate_cells(MODEL, CELLS, seed=5, bench_id=1, n_jobs=2)
    for other in (_counts(sharded), _counts(parallel)):
        pd.testing.assert_frame_equal(other, ref)
    # per-experiment intervals too
    a = cvrec.intervals_frame(cv.simulate_cells(MODEL, CELLS[-1:], seed=5, bench_id=1), "b")
    b = cvrec.intervals_frame(sharded, "b")
    pd.testing.assert_frame_equal(a, b)


def test_seed_and_benchmark_change_numbers():
    cell = [cv.CellSpec("fCOV", 3, 4, 5, 400, block=400, keep=True)]
    a = cvrec.intervals_frame(cv.simulate_cells(MODEL, cell, seed=5, bench_id=1), "b")
    b = cvrec.intervals_frame(cv.simulate_cells(MODEL, cell, seed=6, bench_id=1), "b")
    c = cvrec.intervals_frame(cv.simulate_cells(MODEL, cell, seed=5, bench_id=2), "b")
    assert not np.allclose(a["lower"], b["lower"]) and not np.allclose(a["lower"], c["lower"])


def test_model_from_estimates_uses_relative_units():
    m = cv.Model.from_estimates([4.0, 9.0, 16.0], 200.0, 0.9)
    assert m.variances == pytest.approx((1e-4, 2.25e-4, 4e-4))
    assert m.ratio == 0.9
    with pytest.raises(EsizeError):
        cv.Model.from_estimates([1.0, 2.0], 1.0)


def test_cells_are_checked():
    with pytest.raises(EsizeError):
        cv.CellSpec("fCOVR", 2, 5, 5, 10)
    with pytest.raises(EsizeError):
        cv.CellSpec("fCOVR", 1, 5, 5, 10, (), ("RRN",))
    with pytest.raises(EsizeError):
        cv.CellSpec("fCOV", 1, 5, 5, 10)


@pytest.mark.parametrize("two_level", [False, True])
def test_drawn_statistics_have_the_exact_distribution(two_level):
    # The approx mode draws unit means and within-unit variances from their
    # distributions; compare their moments with statistics of simulated measurements.
    exp, k = ("fCOVR", 1) if two_level else ("fCOV", 3)
    out = {}
    for mode in ("approx", "exact"):
        cell = cv.CellSpec(exp, k, 4, 6, 4000, (), ("RRR",), 10, mode=mode, block=4000)
        rng = np.random.default_rng(3 if mode == "approx" else 4)
        out[mode] = cv._system(MODEL, cell, 1.0, rng, 4000, True)
    keys = ["m", "ev"] if two_level else ["m", "s2b", "w"]
    for key in keys:
        a, e = out["approx"][key].ravel(), out["exact"][key].ravel()
        assert a.mean() == pytest.approx(e.mean(), abs=4 * e.std() / math.sqrt(e.size) * 1.5)
        assert a.var() == pytest.approx(e.var(), rel=0.08), key
    # within-unit statistics are independent of the unit means
    if not two_level:
        r = np.corrcoef(out["approx"]["m"].ravel(), out["approx"]["s2b"].ravel())[0, 1]
        assert abs(r) < 0.05


def test_parametric_shortcut_matches_simulated_measurements():
    cells = [cv.CellSpec(exp, k, 3, 4, 6000, mode=mode, block=3000)
             for exp, k in (("fCOV", 3), ("fCOVR", 1)) for mode in ("approx", "exact")]
    c = cvrec.summarise(cv.simulate_cells(MODEL, cells, seed=1, bench_id=7), "b")
    for (exp, method), g in c.groupby(["experiment", "method"]):
        p = dict(zip(g["mode"], g["covered"] / g["n"]))
        se = math.sqrt(2 * p["exact"] * (1 - p["exact"]) / 6000)
        assert abs(p["approx"] - p["exact"]) <= 4 * se, (exp, method, p)


def test_asymptotic_and_normal_coverage_follow_theory():
    # Fieller with the t quantile (df = k - 1) is conservative for two systems: about
    # 99 % with 3 binaries; the normal quantile under-covers (about 88 %).
    cells = [cv.CellSpec("fCOV", 3, 100, 100, 20000, block=20000),
             cv.CellSpec("fCOV", 60, 100, 100, 20000, block=20000)]
    c = cvrec.summarise(cv.simulate_cells(MODEL, cells, seed=2, bench_id=0), "b")
    cov = {(r.binaries, r.method): r.covered / r.n for r in c.itertuples()}
    assert cov[(3, "asymptotic")] == pytest.approx(0.987, abs=0.004)
    assert cov[(3, "normal")] == pytest.approx(0.878, abs=0.008)
    assert cov[(60, "normal")] == pytest.approx(0.948, abs=0.006)


def test_approximate_bootstrap_matches_exact_on_the_same_experiments():
    cell = cv.CellSpec("fCOV", 4, 4, 8, 60, (), ("RRR", "RRN", "FLAT"), 2000, mode="exact",
                       block=30, keep=True, paired=True)
    two = cv.CellSpec("fCOVR", 1, 6, 8, 60, (), ("RRR",), 2000, mode="exact", block=30,
                      keep=True, paired=True)
    f = cvrec.intervals_frame(cv.simulate_cells(MODEL, [cell, two], seed=3, bench_id=1), "b")
    for key, g in f.groupby(["experiment", "scheme"]):
        ex = g[g["mode"] == "exact"].sort_values("index")
        pa = g[g["mode"] == "paired"].sort_values("index")
        width = (ex["upper"] - ex["lower"]).to_numpy()
        shift = np.abs(pa["lower"].to_numpy() - ex["lower"].to_numpy()) / width
        assert np.median(shift) < 0.05, key


def test_coverage_rows_follow_the_contract():
    cells = [cv.CellSpec("fCOV", 3, 4, 5, 30, block=10),
             cv.CellSpec("fCOVR", 1, 4, 5, 30, (), ("RRR",), 20, block=10)]
    rows = cvrec.coverage_rows(cvrec.summarise(cv.simulate_cells(MODEL, cells, seed=1, bench_id=1), "b"))
    frame = pd.DataFrame(rows, columns=cvrec.CSV_COLUMNS)
    assert set(frame["method"]) == {"asymptotic", "normal", "bootstrap"}
    assert set(frame.loc[frame["method"] != "bootstrap", "scheme"]) == {"-"}
    assert (frame.loc[frame["experiment"] == "fCOVR", "binaries"] == 1).all()
    p = frame["coverage"]
    np.testing.assert_allclose(frame["se"], np.sqrt(p * (1 - p) / frame["experiments"]))


def test_cells_from_config_cover_every_experiment():
    cfg = {
        "alpha": 0.05, "resamples": 20, "experiments": 50, "boot_experiments": 10, "block": 5,
        "param_block": 50,
        "fCOV": {"executions": 3, "measurements": 4, "binaries": [2, 3], "boot_binaries": [2],
                 "schemes": ["RRR", "FLAT"]},
        "fCOVGrid": {"measurements": 4, "binaries": [2, 3], "executions": [2, 4],
                     "boot_binaries": [2], "boot_executions": [2, 3]},
        "fCOVR": {"measurements": 4, "executions": [2, 3, 4], "boot_executions": [3]},
        "fCOVRSGrid": {"executions": [2, 3], "measurements": [2, 5, 9]},
        "validation": {"binaries": [3], "executions": 2, "measurements": 3,
                       "two_level_executions": [3], "experiments": 10, "resamples": 20, "block": 5},
    }
    cells = cv.cells_from_config(cfg)
    assert len(cells) == 2 + 1 + 4 + 2 + 3 + 1 + 6
    assert len(cv.cells_from_config(cfg, boot_grid=False)) == len(cells) - 2
    v = cv.validation_cells(cfg)
    assert {c.mode for c in v} == {"approx", "exact"} and all(c.keep for c in v)


def test_refined_points_get_more_experiments_and_keep_their_first_ones():
    cfg = {
        "alpha": 0.05, "resamples": 20, "experiments": 40, "boot_experiments": 10, "block": 5,
        "param_block": 20,
        "fCOV": {"executions": 3, "measurements": 4, "binaries": [2, 3], "boot_binaries": [2, 3],
                 "schemes": ["RRR"]},
        "fCOVGrid": {"measurements": 4, "binaries": [2], "executions": [2],
                     "boot_binaries": [2], "boot_executions": [2]},
        "fCOVR": {"measurements": 4, "executions": [2], "boot_executions": [3]},
        "fCOVRSGrid": {"executions": [2, 3], "measurements": [2, 5]},
        "refine": {"factor": 4, "cells": [
            {"benchmarks": ["b"], "experiment": "fCOV", "method": "bootstrap", "binaries": [3]},
            {"benchmarks": "all", "experiment": "fCOVRSGrid", "method": "parametric",
             "executions": [3]}]},
    }
    plain = cv.cells_from_config(cfg)
    for bench, want in (("b", {("fCOV", 3, 1): 40, ("fCOVRSGrid", 3, 0): 160}),
                        ("other", {("fCOVRSGrid", 3, 0): 160})):
        refined = cv.cells_from_config(cfg, bench=bench)
        changed = {(r.experiment, r.top, int(bool(r.schemes))): r.experiments
                   for r, p in zip(refined, plain) if r != p}
        assert changed == want
    # a point's first block is the same whatever its count: its seed ignores the count
    for cell in (cv.CellSpec("fCOVRSGrid", 1, 3, 5, 40, block=20, keep=True),
                 cv.CellSpec("fCOV", 3, 3, 4, 10, (), ("RRR",), 20, block=5, keep=True)):
        short = cvrec.intervals_frame(cv.simulate_cells(MODEL, [cell], seed=3, bench_id=1), "b")
        long = cvrec.intervals_frame(cv.simulate_cells(
            MODEL, [replace(cell, experiments=4 * cell.experiments)], seed=3, bench_id=1), "b")
        assert len(long) == 4 * len(short)
        for method, part in short.groupby(["method", "scheme"]):
            whole = long.set_index(["method", "scheme"]).loc[method].reset_index()
            pd.testing.assert_frame_equal(whole.iloc[:len(part)],
                                          part.reset_index(drop=True)[whole.columns])


def test_two_level_coverage_is_exact_for_the_simulated_model():
    """Two routes: quadrature under the model against 40,000 simulated experiments."""
    from esize import critical_value
    from esize_study.estimate.coverage import two_level_coverage

    cells = [cv.CellSpec("fCOVRSGrid", 1, e, n, 40000, block=40000)
             for e, n in ((3, 2), (3, 50), (10, 5), (40, 100))]
    c = cvrec.summarise(cv.simulate_cells(MODEL, cells, seed=4, bench_id=0), "b")
    for r in c[c["method"] == "asymptotic"].itertuples():
        exact = two_level_coverage(MODEL.variances, r.executions, r.measurements,
                                   critical_value(0.05, r.executions - 1), MODEL.ratio)
        se = math.sqrt(exact * (1 - exact) / r.n)
        assert abs(r.covered / r.n - exact) <= 4 * se, (r.executions, r.measurements, exact)
    # the binaries' variance left out: far below 95 % with many executions
    assert two_level_coverage(MODEL.variances, 40, 100, critical_value(0.05, 39)) < 0.6


def test_the_extreme_of_noisy_cells_falls_where_its_interval_says():
    """Two routes: the exact distribution of the lowest (highest) binomial share against
    20,000 simulated grids of 60 cells."""
    from esize_study.estimate.coverage import extreme_interval

    p = np.linspace(0.95, 0.99, 60)
    n = 2000
    rng = np.random.default_rng(11)
    shares = rng.binomial(n, p, size=(20000, p.size)) / n
    for lowest, seen in ((True, shares.min(axis=1)), (False, shares.max(axis=1))):
        lo, hi = extreme_interval(p, n, lowest=lowest)
        inside = np.mean((seen >= lo) & (seen <= hi))
        assert 0.95 <= inside <= 0.985, (lowest, lo, hi, inside)  # lattice: at least 95 %
        assert np.mean(seen < lo) <= 0.025 + 0.004 and np.mean(seen > hi) <= 0.025 + 0.004
