"""The simulation engine shared by the false-alarm and coverage families."""

import ctypes

import numpy as np
import pytest

import esize
from esize_study.coverage import model as cv
from esize_study.engine import _kernels, resampling
from esize_study.engine import seeds as eseeds
from esize_study.engine import tasks as etasks
from esize_study.falsealarm import records as farec
from esize_study.falsealarm import simulate as fa


def _stats():
    rng = np.random.default_rng(8)
    y = 10.0 * rng.lognormal(0, 0.04, (10, 1, 1)) * rng.gamma(20, 1 / 20, (10, 6, 12))
    return fa.bench_stats(y)


def _flat(records):
    """Records as comparable tuples, ordered by cell, method and first comparison."""
    out = []
    for r in records:
        key = tuple((k, r[k]) for k in sorted(r) if not isinstance(r[k], np.ndarray))
        arrays = tuple(r[k].tobytes() for k in sorted(r) if isinstance(r[k], np.ndarray))
        out.append((key, arrays))
    return sorted(out)


def test_bench_id_is_stable_and_order_free():
    assert eseeds.bench_id("FFT NA OPT") == eseeds.bench_id("FFT NA OPT")
    assert eseeds.bench_id("FFT NA OPT") != eseeds.bench_id("FFT NA")
    assert 0 <= eseeds.bench_id("x") < 2**32
    # the value is part of the seed layout: changing it would change every number
    assert eseeds.bench_id("FFT") == int.from_bytes(
        __import__("hashlib").sha256(b"FFT").digest()[:4], "little")


@pytest.mark.parametrize("name", ["FFT", "FFT NA OPT", "Rijndael plus3", "cipher-plus1",
                                  "FFT, binary shape check, population 3", "é ü"])
def test_bench_id_is_the_librarys_key_of_a_name(name):
    # each benchmark's streams are children of the library's seed sequence of that
    # benchmark (esize's benchmark_seed), extended by the cell, block and stream
    library = esize.benchmark_seed(20121105, name)
    assert eseeds.bench_id(name) == esize.benchmark_key(name)
    assert library.spawn_key == (eseeds.bench_id(name),)
    ours = np.random.SeedSequence(20121105, spawn_key=(eseeds.bench_id(name), 3, 4, 5, 0))
    theirs = np.random.SeedSequence(library.entropy, spawn_key=(*library.spawn_key, 3, 4, 5, 0))
    np.testing.assert_array_equal(ours.generate_state(8), theirs.generate_state(8))
    np.testing.assert_array_equal(
        eseeds.generator(20121105, eseeds.bench_id(name), (3, 4), 5, 0).random(4),
        np.random.Generator(np.random.PCG64(theirs)).random(4))


def test_generator_depends_on_every_part_of_the_key():
    base = eseeds.generator(1, 2, (3, 4), 5, 0).random(4)
    np.testing.assert_array_equal(base, eseeds.generator(1, 2, (3, 4), 5, 0).random(4))
    for other in (eseeds.generator(9, 2, (3, 4), 5, 0), eseeds.generator(1, 9, (3, 4), 5, 0),
                  eseeds.generator(1, 2, (3, 9), 5, 0), eseeds.generator(1, 2, (3, 4), 9, 0),
                  eseeds.generator(1, 2, (3, 4), 5, 1)):
        assert not np.array_equal(base, other.random(4))


def test_percentile_interval_takes_replicates():
    r = np.arange(1.0, 101.0)[None, :].repeat(2, axis=0)
    lo, hi = resampling.percentile_interval(r, 0.1)
    np.testing.assert_array_equal(lo, [5.0, 5.0])
    np.testing.assert_array_equal(hi, [95.0, 95.0])


def test_tasks_for_lists_every_block_in_order():
    tasks = etasks.tasks_for(["a", "bb", "ccc"], len)
    assert tasks == [("a", 0), ("bb", 0), ("bb", 1), ("ccc", 0), ("ccc", 1), ("ccc", 2)]


def _block(cell, block):
    g = eseeds.generator(3, 1, (len(cell),), block, 0)
    return [{"cell": cell, "block": block, "x": g.random(3)}]


@pytest.mark.parametrize("cost", [None, len])
def test_run_tasks_is_independent_of_jobs_shards_and_batching(cost):
    cells = ["a", "bb", "ccc", "dddd"]
    ref = etasks.run_tasks(_block, cells, len)
    assert [(r["cell"], r["block"]) for r in ref] == etasks.tasks_for(cells, len)
    par = etasks.run_tasks(_block, cells, len, n_jobs=2, cost=cost)
    sharded = [r for i in range(3) for r in etasks.run_tasks(_block, cells, len, shard=(i, 3))]
    assert _flat(par) == _flat(ref) == _flat(sharded)
    # parallel runs keep the task order
    assert [(r["cell"], r["block"]) for r in par] == [(r["cell"], r["block"]) for r in ref]


def test_false_alarm_results_do_not_depend_on_jobs_or_shards():
    st = _stats()
    cells = [fa.CellSpec("binaries", 2, 25, 20, ("RRR", "FLAT")),
             fa.CellSpec("executions", 3, 25, 20)]
    ref = fa.simulate_cells(st, cells, seed=4, bench_id=eseeds.bench_id("b"), block_size=10)
    par = fa.simulate_cells(st, cells, seed=4, bench_id=eseeds.bench_id("b"), block_size=10,
                            n_jobs=2)
    sharded = [r for i in range(2) for r in fa.simulate_cells(
        st, cells, seed=4, bench_id=eseeds.bench_id("b"), block_size=10, shard=(i, 2))]
    assert _flat(par) == _flat(ref) == _flat(sharded)


def test_coverage_results_do_not_depend_on_jobs_or_shards():
    model = cv.Model((0.02**2, 0.05**2, 0.04**2), 0.95)
    cells = [cv.CellSpec("fCOV", 3, 3, 4, 40, block=10, keep=True),
             cv.CellSpec("fCOVR", 1, 3, 4, 30, cv.PARAMETRIC, ("RRR",), 20, block=10, keep=True)]
    ref = cv.simulate_cells(model, cells, seed=2, bench_id=7)
    par = cv.simulate_cells(model, cells, seed=2, bench_id=7, n_jobs=2)
    sharded = [r for i in range(4) for r in cv.simulate_cells(model, cells, seed=2, bench_id=7,
                                                                 shard=(i, 4))]
    assert _flat(par) == _flat(ref) == _flat(sharded)


def test_block_split_changes_the_draws_but_keeps_the_layout():
    # Block size is part of the design (block j draws its own streams): a different
    # split gives other numbers but the same comparisons, each exactly once.
    st = _stats()
    cell = [fa.CellSpec("binaries", 2, 30, 20, ("RRR",))]
    for size in (7, 10, 30):
        recs = fa.simulate_cells(st, cell, seed=4, bench_id=1, block_size=size)
        cols = farec.records_to_columns(recs, "b")
        for key in set(zip(cols["method"], cols["scheme"])):
            mine = (cols["method"] == key[0]) & (cols["scheme"] == key[1])
            assert sorted(cols["comparison"][mine]) == list(range(30))


def _direct_sums(values, resamples, rng):
    """The sums of :func:`resampling.resampled_sums` by a second route: decode every code
    into its units and add the values of those units one by one."""
    c, u = values[0].shape
    g = resampling.group_size(u, resamples)
    full, rem = divmod(u, g)
    codes = rng.integers(0, u**g, size=(c, resamples, full + (rem > 0)),
                         dtype=np.uint16 if u**g <= 1 << 16 else np.uint32).astype(np.int64)
    units = []
    for j in range(full):
        x = codes[:, :, j]
        for _ in range(g):
            units.append(x % u)
            x = x // u
    if rem:
        x = codes[:, :, full] % u**rem
        for _ in range(rem):
            units.append(x % u)
            x = x // u
    units = np.stack(units, axis=-1)  # (c, R, u)
    assert units.shape[-1] == u
    rows = np.arange(c)[:, None, None]
    return [v[rows, units].sum(axis=-1) for v in values]


@pytest.mark.parametrize("u", [1, 2, 3, 5, 7, 10, 20, 50, 65, 100])
@pytest.mark.parametrize("nvalues", [1, 2, 3])
def test_resampled_sums_agree_with_unit_by_unit_draws(u, nvalues):
    rng = np.random.default_rng(u * 10 + nvalues)
    values = [rng.lognormal(0, 1, (7, u)) for _ in range(nvalues)]
    got = resampling.resampled_sums(values, 300, np.random.default_rng(5))
    want = _direct_sums(values, 300, np.random.default_rng(5))
    assert len(got) == nvalues
    for a, b in zip(got, want):
        assert a.shape == (7, 300)
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize(("m", "full", "mr"), [(5, 1, 0), (25, 3, 5), (4096, 7, 64), (100, 40, 0),
                                               (70_000, 2, 0)])
def test_compiled_and_numpy_sums_are_bit_identical(dtype, m, full, mr):
    # Results must not depend on whether the loop could be compiled: both routes add
    # the same entries in the same order. Without a compiler the pipeline is slower,
    # not different.
    if _kernels._compiled() is None:
        pytest.skip("no C compiler (cc) to build the compiled loop")
    rng = np.random.default_rng(m + full)
    c, R = 9, 301
    table = rng.lognormal(0, 3, (c, m))
    rtable = rng.lognormal(0, 3, (c, mr)) if mr else None
    if dtype is np.complex128:
        table = table + 1j * rng.normal(0, 1e3, (c, m))
        rtable = None if rtable is None else rtable - 1j * rng.lognormal(0, 3, (c, mr))
    codes = rng.integers(0, m, (c, R, full + bool(mr)), dtype=np.uint16 if m <= 1 << 16 else np.uint32)
    fast = _kernels._gather_sums_compiled(_kernels._compiled(), table, codes, full, rtable, mr)
    slow = _kernels._gather_sums_numpy(table, codes, full, rtable, mr)
    assert fast.dtype == slow.dtype == dtype
    np.testing.assert_array_equal(fast, slow)
    # and both are the sums asked for
    rows = np.arange(c)[:, None]
    want = sum(table[rows, codes[:, :, j]] for j in range(full))
    if mr:
        want = want + rtable[rows, codes[:, :, full] % mr]
    np.testing.assert_allclose(fast, want, rtol=1e-12)


def test_without_a_compiler_the_numpy_route_gives_the_same_sums(monkeypatch, tmp_path):
    values = [np.random.default_rng(3).lognormal(0, 1, (6, u)) for u in (7, 7, 7)]
    with_loop = resampling.resampled_sums(values, 200, np.random.default_rng(9))
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _kernels._compiled.cache_clear()
    _kernels._draw_library.cache_clear()
    try:
        assert _kernels._compiled() is None and _kernels._draw_library() is None
        without = resampling.resampled_sums(values, 200, np.random.default_rng(9))
    finally:
        monkeypatch.undo()
        _kernels._compiled.cache_clear()
        _kernels._draw_library.cache_clear()
    for a, b in zip(with_loop, without):
        np.testing.assert_array_equal(a, b)


def _pcg(seed):
    return np.random.Generator(np.random.PCG64(seed))


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 7])
def test_compiled_draws_are_numpys_and_leave_the_same_state(seed):
    # standard_normal and integers_u16 must give numpy's numbers and leave the
    # generator where numpy would: interleaved calls of odd sizes, the 16-bit
    # buffer's half words, every kind of range, and enough normals to reach the
    # ziggurat's tail (about 260 of 10**6) and wedges
    if _kernels._draw_library() is None:
        pytest.skip("no C compiler (cc) to build the compiled draws")
    mine, ref = _pcg(seed), _pcg(seed)
    for n in (0, 1, 3, 1000, 1_000_001):
        np.testing.assert_array_equal(_kernels.standard_normal(mine, n), ref.standard_normal(n))
        for high in (2, 3, 7, 100, 4096, 32_769, 40_000, 65_535, 65_536):
            size = (n % 5 + 1, 3) if n < 1000 else n
            np.testing.assert_array_equal(_kernels.integers_u16(mine, high, size),
                                          ref.integers(0, high, size=size, dtype=np.uint16))
        assert mine.bit_generator.state == ref.bit_generator.state
    shape = (4, 7, 3)
    z = _kernels.standard_normal(mine, shape)
    assert z.shape == shape and z.dtype == np.float64
    np.testing.assert_array_equal(z, ref.standard_normal(shape))


def test_draws_fall_back_to_numpy_where_the_loop_does_not_apply():
    # other bit generators, and ranges outside 2..65536, are numpy's own calls
    for make in (lambda: np.random.Generator(np.random.Philox(5)), lambda: _pcg(5)):
        a, b = make(), make()
        np.testing.assert_array_equal(_kernels.standard_normal(a, 10), b.standard_normal(10))
        for high in (1, 2, 65_536):
            np.testing.assert_array_equal(_kernels.integers_u16(a, high, 9),
                                          b.integers(0, high, size=9, dtype=np.uint16))
        np.testing.assert_array_equal(a.random(5), b.random(5))  # the same state after


def test_a_library_whose_draws_differ_from_numpy_is_not_used():
    if _kernels._compiled() is None:
        pytest.skip("no C compiler (cc) to build the compiled draws")
    real = _kernels._compiled()
    assert _kernels._draws_agree(real)

    class Shifted:  # numpy's numbers, each normal off by one ulp: must be refused
        bounded_u16_fill = real.bounded_u16_fill

        @staticmethod
        def normal_fill(state, n, out):
            real.normal_fill(state, n, out)
            a = np.ctypeslib.as_array(ctypes.cast(out, ctypes.POINTER(ctypes.c_double)), (n,))
            a[-1] = np.nextafter(a[-1], np.inf)

    assert not _kernels._draws_agree(Shifted)


@pytest.mark.parametrize("u", [4, 7, 30])
def test_resampled_sums_have_the_bootstrap_moments(u):
    # a replicate's sum of u draws with replacement: mean u * mean(v), variance
    # u * (population variance of v); 20,000 replicates make both checks sharp
    rng = np.random.default_rng(u)
    v = rng.normal(10, 2, (3, u))
    (s,) = resampling.resampled_sums([v], 20_000, np.random.default_rng(1))
    mean, var = v.mean(axis=1), v.var(axis=1)
    se = np.sqrt(u * var / 20_000)
    assert np.all(np.abs(s.mean(axis=1) - u * mean) < 5 * se)
    np.testing.assert_allclose(s.var(axis=1), u * var, rtol=0.06)


def test_group_size_balances_tables_and_draws():
    assert resampling.group_size(1, 1000) == 1
    assert resampling.group_size(2, 1000) == 2  # one code picks both units
    for u in range(1, 130):
        g = resampling.group_size(u, 1000)
        assert 1 <= g <= u and (g == 1 or u**g <= resampling.GROUP_ENTRIES)
    assert resampling.group_size(100, 1000) == 1  # 100**2 entries would not fit


@pytest.mark.parametrize("R", [19, 250, 999, 1000, 1001])
@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.01])
def test_percentile_interval_is_numpys_inverted_cdf(R, alpha):
    x = np.random.default_rng(R).lognormal(0, 1, (6, R))
    lo, hi = resampling.percentile_interval(x, alpha)
    want = np.quantile(x, [alpha / 2, 1 - alpha / 2], axis=-1, method="inverted_cdf")
    np.testing.assert_array_equal(lo, want[0])
    np.testing.assert_array_equal(hi, want[1])


def test_percentile_interval_in_place_gives_the_same_ends():
    x = np.random.default_rng(7).lognormal(0, 1, (5, 999))
    want = resampling.percentile_interval(x, 0.05)
    y = x.copy()
    got = resampling.percentile_interval(y, 0.05, overwrite_input=True)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_array_equal(y, np.sort(x, axis=-1))  # sorted where it was


def test_normal_shift_is_the_expression_bit_for_bit():
    rng = np.random.default_rng(8)
    base, var, z = rng.normal(5, 2, (4, 300)), rng.lognormal(0, 2, (4, 300)), rng.normal(size=(4, 300))
    for scale in (1, 3, 7.5):
        np.testing.assert_array_equal(resampling.normal_shift(base, var.copy(), z, scale),
                                      (base + np.sqrt(var) * z) / scale)


def test_tune_allocator_changes_no_number():
    st = _stats()
    cell = fa.CellSpec("binaries", 3, 20, 50, ("RRR", "RRN", "RNN"))
    before = fa.simulate_block(st, cell, seed=1, bench_id=2, block=0, block_size=20)
    resampling.tune_allocator()
    after = fa.simulate_block(st, cell, seed=1, bench_id=2, block=0, block_size=20)
    assert _flat(before) == _flat(after)
