"""Benchmark: the inner loop of the study's approximate bootstraps.

One block of the false-alarm and coverage simulations draws, for each of 50
comparisons and 1,000 replicates, ``u`` units with replacement and sums two or three
statistics of the drawn units. Prints, per ``u``, best of several runs:

* ``per-draw``: one 32-bit draw per unit, one gather and ``sum`` per statistic (the
  engine before grouped draws);
* ``grouped``: :func:`esize_study.engine.resampling.resampled_sums` (``g`` units per 16-bit
  code from tables of tuple sums, two statistics per complex gather), its entries
  added by the compiled loop (``_gather.c``) and its codes drawn by the compiled
  draws (``_draws.c``), and, in column ``numpy``, by the numpy route that gives the
  same sums without a C compiler;

then the percentile interval of 50 x 1,000 ratios by ``numpy.quantile`` (what the
engine used) and by :func:`esize_study.engine.resampling.percentile_interval` (one sort);
then numpy's normal and 16-bit integer draws against the compiled loop's (the same
numbers) on one block's 50,000 values.

Not a test: run it with ``make bench``.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from esize_study.engine import _kernels  # noqa: E402
from esize_study.engine import resampling as engine  # noqa: E402

C, R, REPEAT = 50, 1000, 7


def best(f) -> float:
    f()
    times = []
    for _ in range(REPEAT):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def per_draw(values, rng):
    c, u = values[0].shape
    pos = rng.integers(0, u, size=(c, R, u), dtype=np.int32)
    idx = (pos + (np.arange(c, dtype=np.intp) * u)[:, None, None]).reshape(c * R, u)
    return [np.take(v.ravel(), idx).sum(axis=1) for v in values]


def _clear() -> None:
    _kernels._compiled.cache_clear()
    _kernels._draw_library.cache_clear()


def draws(rng) -> None:
    """numpy's draws against the compiled loop's (the same numbers), one block's worth."""
    n = C * R
    out, out16 = np.empty(n), np.empty(n, dtype=np.uint16)
    lib = _kernels._draw_library()
    if lib is None:
        print("draws: no compiled library (no C compiler): numpy draws")
        return
    g = np.random.Generator(np.random.PCG64(1))
    state = g.bit_generator.ctypes.state_address
    a = best(lambda: g.standard_normal(out=out))
    b = best(lambda: lib.normal_fill(state, n, out.ctypes.data))
    print(f"draws of {n:,} values, ns per value: standard_normal numpy {a / n * 1e6:.2f}, "
          f"compiled {b / n * 1e6:.2f} ({a / b:.2f}x)")
    for high in (10, 1000, 4096):
        a = best(lambda h=high: g.integers(0, h, size=n, dtype=np.uint16))
        b = best(lambda h=high: lib.bounded_u16_fill(state, h, n, out16.ctypes.data))
        print(f"  integers(0, {high}, uint16) numpy {a / n * 1e6:.2f}, compiled "
              f"{b / n * 1e6:.2f} ({a / b:.2f}x)")


def main() -> None:
    engine.tune_allocator()  # as in the simulation processes
    rng = np.random.default_rng(1)
    print(f"one block: {C} comparisons x {R} replicates, 3 statistics; ms, best of {REPEAT}")
    compiled = _kernels._compiled() is not None
    print(f"{'units':>6} {'g':>3} {'per-draw':>9} {'grouped':>9} {'speed-up':>9} {'numpy':>9}"
          + ("" if compiled else "   (no C compiler: both columns are numpy)"))
    for u in (2, 3, 5, 10, 20, 30, 50, 100):
        values = [rng.lognormal(0, 1, (C, u)) for _ in range(3)]
        a = best(lambda v=values: per_draw(v, rng))
        b = best(lambda v=values: engine.resampled_sums(v, R, rng))
        os.environ["ESIZE_STUDY_KERNEL"] = "numpy"
        _clear()
        c = best(lambda v=values: engine.resampled_sums(v, R, rng))
        del os.environ["ESIZE_STUDY_KERNEL"]
        _clear()
        print(f"{u:>6} {engine.group_size(u, R):>3} {a:>9.2f} {b:>9.2f} {a / b:>8.1f}x {c:>9.2f}")
    ratios = rng.lognormal(0, 0.01, (C, R))
    q = best(lambda: np.quantile(ratios, [0.025, 0.975], axis=-1, method="inverted_cdf"))
    s = best(lambda: engine.percentile_interval(ratios, 0.05))
    print(f"percentile interval of {C} x {R}: numpy.quantile {q:.2f} ms, one sort {s:.2f} ms")
    draws(rng)


if __name__ == "__main__":
    main()
