"""False-alarm simulation engine: determinism, sharding, and its approximations."""

import numpy as np
import pytest

from esize import EsizeError, critical_value, fieller
from esize_study.engine import seeds as eseeds
from esize_study.estimate import rates as erates
from esize_study.falsealarm import simulate as fa


@pytest.fixture(scope="module")
def stats():
    rng = np.random.default_rng(8)
    y = (
        10.0
        * rng.lognormal(0, 0.03, (12, 1, 1))
        * rng.lognormal(0, 0.05, (12, 8, 1))
        * rng.gamma(20, 1 / 20, (12, 8, 15))
    )
    return fa.bench_stats(y)


CELLS = [
    fa.CellSpec("binaries", 1, 30, 40, ("RRR", "RRN", "RNN", "FLAT")),
    fa.CellSpec("binaries", 3, 45, 40, ("RRR", "FLAT")),
    fa.CellSpec("executions", 1, 25, 40),
    fa.CellSpec("executions", 4, 25, 40),
]


def _by_key(records):
    out = {}
    for r in records:
        key = (r["experiment"], r["size"], r["method"], r["scheme"])
        out.setdefault(key, []).append((r["first"], r["tstar"]))
    return {k: np.concatenate([t for _, t in sorted(v, key=lambda x: x[0])]) for k, v in out.items()}


def test_shards_and_jobs_do_not_change_numbers(stats):
    ref = _by_key(fa.simulate_cells(stats, CELLS, seed=5, bench_id=1, block_size=10))
    sharded = []
    for i in range(3):
        sharded += fa.simulate_cells(stats, CELLS, seed=5, bench_id=1, block_size=10, shard=(i, 3))
    parallel = fa.simulate_cells(stats, CELLS, seed=5, bench_id=1, block_size=10, n_jobs=2)
    for other in (_by_key(sharded), _by_key(parallel)):
        assert other.keys() == ref.keys()
        for k in ref:
            np.testing.assert_array_equal(other[k], ref[k])


def test_seed_and_benchmark_change_numbers(stats):
    a = _by_key(fa.simulate_cells(stats, CELLS[:2], seed=5, bench_id=1, block_size=10))
    b = _by_key(fa.simulate_cells(stats, CELLS[:2], seed=6, bench_id=1, block_size=10))
    c = _by_key(fa.simulate_cells(stats, CELLS[:2], seed=5, bench_id=2, block_size=10))
    key = ("binaries", 3, "asymptotic", "-")
    assert not np.array_equal(a[key], b[key]) and not np.array_equal(a[key], c[key])


def test_parametric_cell_matches_direct_fieller(stats):
    # Re-draw the first block's systems with the documented seed layout and check the
    # asymptotic t* against Fieller computed directly.
    cell = fa.CellSpec("binaries", 3, 10, 20, ("RNN",))
    recs = fa.simulate_block(stats, cell, seed=9, bench_id=4, block=0, block_size=10)
    g = eseeds.generator(9, 4, cell.key, 0, 0)
    old = g.integers(0, 12, size=(10, 3))
    new = g.integers(0, 12, size=(10, 3))
    mo, mn = stats.binary_means[old], stats.binary_means[new]
    lo, hi, ok = fieller(mo.mean(1), mo.var(1, ddof=1) / 3, mn.mean(1), mn.var(1, ddof=1) / 3,
                         critical_value(0.05, 2))
    expected = np.where(ok, np.maximum(lo - 1, 1 - hi), -np.inf)
    got = next(r for r in recs if r["method"] == "asymptotic")["tstar"]
    np.testing.assert_allclose(got, expected)


def test_bootstrap_variances_are_exact(stats):
    # The normal approximation uses the exact bootstrap variance of a binary's mean.
    from esize import resample_means

    b = 3
    y = stats.data[b]
    for scheme, v in (("RR", stats.v_rrr[b]), ("RN", stats.v_rrn[b])):
        m = resample_means(y, scheme, 40_000, rng=11)
        assert m.var(ddof=1) == pytest.approx(v, rel=0.05)
        assert m.mean() == pytest.approx(stats.binary_means[b], abs=4 * np.sqrt(v / 40_000))


def test_approx_matches_exact_bootstrap(stats):
    cells = {
        mode: [fa.CellSpec("binaries", 3, 150, 400, ("RRR", "RRN", "FLAT"), mode=mode),
               fa.CellSpec("executions", 3, 150, 400, ("RRR",), mode=mode)]
        for mode in ("approx", "exact")
    }
    res = {m: _by_key(fa.simulate_cells(stats, c, seed=2, bench_id=3, block_size=50))
           for m, c in cells.items()}
    th = np.array([0.0, 0.005, 0.01, 0.02])
    for key in res["exact"]:
        if key[2] != "bootstrap":
            continue
        pe, pa = erates.rates_at(res["exact"][key], th), erates.rates_at(res["approx"][key], th)
        se = np.sqrt((pe * (1 - pe) + pa * (1 - pa)) / 150) + 1e-9
        assert np.all(np.abs(pe - pa) <= 3 * se + 0.01), (key, pe, pa)
        # same comparisons: interval ends agree closely, comparison by comparison
        # (up to the Monte Carlo noise of a 2.5 % percentile from 400 replicates)
        diff = np.median(np.abs(res["exact"][key] - res["approx"][key]))
        assert diff <= 0.2 * np.median(np.abs(res["exact"][key])), key


def test_rates_and_min_threshold():
    ts = np.array([-np.inf, 0.001, 0.01, 0.02, 0.05])
    np.testing.assert_allclose(erates.rates_at(ts, [0, 0.01, 0.05]), [0.8, 0.4, 0.0])
    th = [0.0, 1.0, 2.0, 3.0]
    assert erates.min_threshold(th, [0.10, 0.06, 0.02, 0.0], 0.04) == pytest.approx(1.5)
    assert erates.min_threshold(th, [0.03, 0.02, 0.0, 0.0], 0.05) == 0.0
    assert np.isnan(erates.min_threshold(th, [0.5, 0.4, 0.3, 0.2], 0.05))


def test_identical_systems_alarm_at_nominal_rate_for_large_k():
    # With binaries drawn from a normal population and no lower levels, the
    # t-based Fieller interval is close to exact: the 0 % threshold rate is ~5 %.
    rng = np.random.default_rng(1)
    y = 100 + rng.normal(0, 2, (400, 2, 2)) + rng.normal(0, 1e-3, (400, 2, 2))
    st = fa.bench_stats(y)
    recs = fa.simulate_cells(st, [fa.CellSpec("binaries", 20, 2000, 20, ("RNN",))], seed=1,
                             bench_id=0, block_size=500)
    t = np.concatenate([r["tstar"] for r in recs if r["method"] == "asymptotic"])
    assert erates.rates_at(t, [0.0])[0] == pytest.approx(0.05, abs=0.015)


def test_a_refined_cell_continues_the_grid_cell(stats):
    """A cell simulated 3 times as long is the grid's cell and its refinement: two routes,
    the same numbers (the refined blocks draw the seeds the long cell would)."""
    cfg = {"comparisons": 100, "resamples": 40, "alpha": 0.05, "schemes": ["RRR", "FLAT"],
           "binaries": [1, 3], "executions": [1, 4],
           "refine": {"factor": 3, "cells": [{"benchmarks": "all", "binaries": [3],
                                              "executions": "all"}]}}
    kw = dict(seed=5, bench_id=2, block_size=50)
    for kind, size in (("binaries", 3), ("executions", 4), ("executions", 1)):
        grid = [c for c in fa.grid_cells(cfg, kind) if c.size == size]
        refined = [c for c in fa.refined_cells(cfg, "x", kind) if c.size == size]
        assert len(grid) == len(refined) == 1 and refined[0].first == 100
        long = fa.CellSpec(kind, size, 300, 40, grid[0].schemes)
        a = _by_key(fa.simulate_cells(stats, grid + refined, **kw))
        b = _by_key(fa.simulate_cells(stats, [long], **kw))
        assert a.keys() == b.keys()
        for k in a:
            assert a[k].shape == (300,)
            np.testing.assert_array_equal(a[k], b[k])


def test_a_parametric_refinement_gives_the_parametric_numbers_of_a_full_one(stats):
    full = fa.CellSpec("binaries", 3, 150, 40, ("RRR",), first=50)
    par = fa.CellSpec("binaries", 3, 150, 40, ("RRR",), first=50, bootstrap=False)
    kw = dict(seed=9, bench_id=1, block_size=50)
    a, b = _by_key(fa.simulate_cells(stats, [full], **kw)), _by_key(fa.simulate_cells(stats, [par], **kw))
    assert set(b) == {("binaries", 3, m, "-") for m in ("asymptotic", "normal")}
    for k in b:
        assert b[k].shape == (100,)
        np.testing.assert_array_equal(a[k], b[k])


def test_a_refined_cell_must_start_on_a_block():
    with pytest.raises(EsizeError, match="not a multiple"):
        fa.CellSpec("binaries", 3, 150, 40, first=30).first_block(50)


@pytest.mark.parametrize("subset", [("RRR",), ("RNN", "FLAT"), ("FLAT",), ("RRN",)])
def test_a_subset_of_schemes_gives_their_numbers_of_the_whole_set(stats, subset):
    every = ("RRR", "RRN", "RNN", "FLAT")
    kw = dict(seed=4, bench_id=3, block_size=50)
    whole = _by_key(fa.simulate_cells(stats, [fa.CellSpec("binaries", 3, 100, 40, every)], **kw))
    part = _by_key(fa.simulate_cells(stats, [fa.CellSpec("binaries", 3, 100, 40, subset)], **kw))
    assert {k[3] for k in part} == set(subset) | {"-"}
    for k in part:
        np.testing.assert_array_equal(part[k], whole[k])
