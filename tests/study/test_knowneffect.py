"""Known-effect experiment: subsampled intervals for a change of known size."""

import math

import numpy as np
import pandas as pd
import pytest

from esize import Design, fieller_ci, verdict
from esize_study.engine import seeds as eseeds
from esize_study.estimate import rates as erates
from esize_study.falsealarm import simulate as fa
from esize_study.knowneffect import records as kerec
from esize_study.knowneffect import simulate as ke
from esize_study.render import knowneffect as rke

LEVELS = ("binary", "execution", "iteration")


def _population(rng, nb, ratio=1.0, shape=(3, 4)):
    """Normal three-level data around 100 * ratio: binary sd 2, execution 1, iteration 1."""
    ne, n1 = shape
    y = (100.0 + rng.normal(0, 2.0, (nb, 1, 1)) + rng.normal(0, 1.0, (nb, ne, 1))
         + rng.normal(0, 1.0, (nb, ne, n1)))
    return ratio * y


@pytest.fixture(scope="module")
def small():
    rng = np.random.default_rng(3)
    return _population(rng, 12), _population(rng, 10, 1.02)


def _frame(old, new, cells, **kw):
    recs = ke.simulate(fa.bench_stats(old), fa.bench_stats(new), cells, **kw)
    return kerec.records_to_frame(recs, "v")


CELLS = [ke.KnownEffectCell(3, 45, 40), ke.KnownEffectCell(5, 30, 40)]


def test_draws_are_without_replacement_and_uniform():
    g = np.random.default_rng(0)
    u = ke.draw_binaries(g, 7, 4, 20_000)
    assert u.shape == (20_000, 4)
    assert all(len(set(row)) == 4 for row in u[:500])
    freq = np.bincount(u.ravel(), minlength=7) / u.size
    np.testing.assert_allclose(freq, 1 / 7, atol=0.01)
    with pytest.raises(ValueError):
        ke.draw_binaries(g, 3, 4, 1)


def test_same_seed_same_numbers_other_seed_others(small):
    old, new = small
    a = _frame(old, new, CELLS, seed=5, variant_id=1, block_size=10)
    b = _frame(old, new, CELLS, seed=5, variant_id=1, block_size=10)
    c = _frame(old, new, CELLS, seed=6, variant_id=1, block_size=10)
    d = _frame(old, new, CELLS, seed=5, variant_id=2, block_size=10)
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 3 * (45 + 30)
    assert not np.array_equal(a["lower"], c["lower"])
    assert not np.array_equal(a["lower"], d["lower"])


def test_shards_and_jobs_do_not_change_numbers(small):
    old, new = small
    ref = _frame(old, new, CELLS, seed=5, variant_id=1, block_size=10)
    parts = [_frame(old, new, CELLS, seed=5, variant_id=1, block_size=10, shard=(i, 3))
             for i in range(3)]
    sharded = kerec.records_to_frame(
        [r for i in range(3) for r in ke.simulate(fa.bench_stats(old), fa.bench_stats(new), CELLS,
                                                  seed=5, variant_id=1, block_size=10,
                                                  shard=(i, 3))], "v")
    assert sum(len(p) for p in parts) == len(ref)
    pd.testing.assert_frame_equal(sharded, ref)
    parallel = _frame(old, new, CELLS, seed=5, variant_id=1, block_size=10, n_jobs=2)
    pd.testing.assert_frame_equal(parallel, ref)


def test_parametric_intervals_are_the_librarys(small):
    # redraw the first block's binaries with the documented seed layout and compare with
    # esize.fieller_ci on the subsampled designs
    old, new = small
    cell = ke.KnownEffectCell(4, 6, 20)
    recs = ke.simulate_block(fa.bench_stats(old), fa.bench_stats(new), cell, seed=9,
                             variant_id=4, block=0, block_size=6)
    g = eseeds.generator(9, 4, cell.key, 0, 0)
    uo, un = ke.draw_binaries(g, 12, 4, 6), ke.draw_binaries(g, 10, 4, 6)
    by = {r["method"]: r for r in recs}
    for i in range(6):
        o, n = Design(old[uo[i]], LEVELS), Design(new[un[i]], LEVELS)
        for method, normal in (("fieller-t", False), ("fieller-normal", True)):
            iv = fieller_ci(o, n, normal=normal, df=None if normal else o.shape[0] - 1)
            assert by[method]["lower"][i] == pytest.approx(iv.lower, rel=1e-12)
            assert by[method]["upper"][i] == pytest.approx(iv.upper, rel=1e-12)
            assert by[method]["estimate"][i] == pytest.approx(iv.estimate, rel=1e-12)
    assert set(by) == set(kerec.METHODS)


def test_coverage_is_nominal_with_many_binaries():
    # A large pool, so that its own ratio is close to the injected one; k = 20 binaries
    # per system: Fieller with t and the bootstrap cover about 95 % of the time.
    rng = np.random.default_rng(11)
    old, new = _population(rng, 600), _population(rng, 600, 1.03)
    ref = ke.reference(Design(old, LEVELS), Design(new, LEVELS), ratio=1.03, resamples=200)
    assert ref["contains_injected"]
    frame = _frame(old, new, [ke.KnownEffectCell(20, 800, 400)], seed=1, variant_id=0,
                   block_size=100)
    info = {"v": {"base": "b", "ratio": 1.03, "full_ratio": ref["estimate"]}}
    rows = {r["method"]: r for r in kerec.coverage_rows(frame, info)}
    for method in ("fieller-t", "bootstrap-RRR"):
        r = rows[method]
        assert abs(r["coverage"] - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / 800) + 0.01, r
        assert r["comparisons"] == 800 and r["unbounded"] == 0
    # the normal quantile is a little narrower than t with 19 degrees of freedom
    assert rows["fieller-normal"]["median_halfwidth_pct"] < rows["fieller-t"]["median_halfwidth_pct"]
    # a 3 % change with 20 binaries of sd 2 % each: mostly detected at t = 0
    verd = {(r["method"], r["threshold_pct"]): r for r in kerec.verdict_rows(frame, info, [0, 1])}
    assert verd[("fieller-t", 0.0)]["slower"] > 0.9
    assert verd[("fieller-t", 0.0)]["expected"] == "slower"
    assert verd[("fieller-t", 0.0)]["wrong"] < 0.01


def test_approx_bootstrap_matches_exact(small):
    old, new = small
    res = {mode: _frame(old, new, [ke.KnownEffectCell(4, 80, 400, mode=mode)], seed=2,
                        variant_id=3, block_size=40) for mode in ("approx", "exact")}
    a = res["approx"][res["approx"]["method"] == "bootstrap-RRR"]
    e = res["exact"][res["exact"]["method"] == "bootstrap-RRR"]
    # same subsamples, so the same point estimates; interval ends close
    np.testing.assert_array_equal(a["estimate"].to_numpy(), e["estimate"].to_numpy())
    width = np.median(e["upper"] - e["lower"])
    assert np.median(np.abs(a["lower"].to_numpy() - e["lower"].to_numpy())) < 0.15 * width
    assert np.median(np.abs(a["upper"].to_numpy() - e["upper"].to_numpy())) < 0.15 * width


def test_sizes_beyond_the_pool_are_refused(small):
    old, new = small
    for k in (1, 11):
        with pytest.raises(ValueError, match="binaries"):
            ke.simulate(fa.bench_stats(old), fa.bench_stats(new), [ke.KnownEffectCell(k, 5, 20)],
                        seed=1, variant_id=1)


def test_verdicts_are_esize_verdict():
    rng = np.random.default_rng(4)
    lo = 1 + rng.normal(0, 0.02, 300)
    hi = lo + rng.uniform(0, 0.05, 300)
    ok = rng.random(300) > 0.1
    lo[:3], hi[:3] = 0.99, 1.01  # on the boundaries of t = 1 %
    for t in (0.0, 0.01, 0.02):
        got = kerec.verdicts(lo, hi, ok, t)
        want = [verdict(a, b, t, bounded=bool(c)) for a, b, c in zip(lo, hi, ok)]
        assert list(got) == want
    assert kerec.verdicts([0.99], [1.01], [True], 0.01)[0] == "same"


@pytest.mark.parametrize("ratio, t, expected, wrong", [
    (1.00, 0.00, "inconclusive", {"slower", "faster"}),
    (1.00, 0.01, "same", {"slower", "faster"}),
    (1.01, 0.00, "slower", {"faster", "same"}),
    (1.01, 0.01, "same", {"slower", "faster"}),  # exactly at the threshold: same
    (1.01, 0.02, "same", {"slower", "faster"}),
    (1.03, 0.02, "slower", {"faster", "same"}),
    (0.97, 0.01, "faster", {"slower", "same"}),
])
def test_expected_and_wrong_verdicts(ratio, t, expected, wrong):
    assert kerec.expected_verdict(ratio, t) == expected
    found = np.array(["slower", "same", "faster", "inconclusive"])
    flags = kerec.is_wrong(found, ratio, t)
    assert {v for v, w in zip(found, flags) if w} == wrong


def test_tables_count_and_call():
    # 100 intervals: 90 contain 1.01, 10 lie above 1.05
    n = 100
    lower = np.r_[np.full(90, 0.99), np.full(10, 1.05)]
    upper = np.r_[np.full(90, 1.03), np.full(10, 1.08)]
    frame = pd.DataFrame({"variant": "v", "size": 3, "method": "fieller-t",
                          "comparison": np.arange(n), "estimate": (lower + upper) / 2,
                          "lower": lower, "upper": upper, "bounded": True})
    info = {"v": {"base": "b", "ratio": 1.01, "full_ratio": 1.06}}
    (row,) = kerec.coverage_rows(frame, info)
    assert row["coverage"] == pytest.approx(0.9)
    assert row["coverage_se"] == pytest.approx(math.sqrt(0.9 * 0.1 / 100))
    assert row["coverage_call"] == "below"  # Wilson interval [0.826, 0.945]
    assert row["coverage_full"] == pytest.approx(0.1)
    assert row["coverage_full_call"] == "below"
    rows = {r["threshold_pct"]: r for r in kerec.verdict_rows(frame, info, [0, 2])}
    assert rows[0.0]["slower"] == pytest.approx(0.1) and rows[0.0]["inconclusive"] == pytest.approx(0.9)
    assert rows[0.0]["wrong"] == 0.0
    # at 2 %: 10 % "slower" (above 1.02) although the truth is 1.01: wrong
    assert rows[2.0]["slower"] == pytest.approx(0.1) and rows[2.0]["wrong"] == pytest.approx(0.1)
    assert rows[2.0]["wrong_se"] == pytest.approx(0.03)
    md = rke.render_markdown([], kerec.coverage_rows(frame, info), list(rows.values()))
    assert "wrong 10.0 ± 3.0" in md and "90.0 ± 3.0" in md


def test_wilson_call():
    assert erates.call(0.90, 1000, 0.95) == "below"
    assert erates.call(0.95, 1000, 0.95) == "undecided"
    assert erates.call(1.00, 1000, 0.95) == "above"
    assert erates.call(1.00, 40, 0.95) == "undecided"
    lo, hi = erates.wilson(0.0, 100)
    assert lo == 0.0 and 0.03 < hi < 0.04


def test_reference_is_the_full_data_ratio(small):
    old, new = (Design(x, LEVELS) for x in small)
    r = ke.reference(old, new, ratio=1.02, resamples=300, seed=1, variant_id=2,
                     cpu_old=old, cpu_new=new)
    assert r["estimate"] == pytest.approx(new.data.mean() / old.data.mean())
    iv = fieller_ci(old, new)
    assert (r["fieller_t_lower"], r["fieller_t_upper"]) == pytest.approx((iv.lower, iv.upper))
    assert r["contains_injected"] == (iv.lower <= 1.02 <= iv.upper)
    assert r["bootstrap_lower"] < r["estimate"] < r["bootstrap_upper"]
    assert r["cpu_estimate"] == pytest.approx(r["estimate"])
    again = ke.reference(old, new, ratio=1.02, resamples=300, seed=1, variant_id=2)
    assert again["bootstrap_lower"] == r["bootstrap_lower"] and again["cpu_estimate"] is None
