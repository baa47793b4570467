"""Benchmark: 10,000-replicate RRR bootstrap CI of a ratio, 30 x 10 x 20 per system.

Prints, best of several runs in this process:

* the time of drawing the 126.6 M random indices of the paper's algorithm alone with
  ``Generator.integers(..., dtype=np.uint16)`` (the floor an index-based bootstrap
  approaches), and with ``dtype=np.int32`` for comparison (the bootstrap itself
  draws 16-bit indices, and draws each group of children of the lowest level as one
  index, so it makes fewer draws than that);
* the bootstrap on one thread (``workers=1``) and on every core (``workers=None``),
  with their ratios to the uint16 draws;
* for scale, the literal nested-loop algorithm of the paper's pseudo-code on a few
  replicates, extrapolated to 10,000.

Not a test: run it with ``make bench``.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import esize as ez  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from reference import resample_means_loops  # noqa: E402

SHAPE = (30, 10, 20)
B = 10_000
REPEAT = 5


def best(f) -> float:
    times = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def draws(dtype) -> None:
    g = np.random.default_rng(0)
    for _ in range(2):  # two systems
        for k in range(len(SHAPE)):
            g.integers(0, SHAPE[k], size=(B, int(np.prod(SHAPE[:k + 1]))), dtype=dtype)


def main() -> None:
    rng = np.random.default_rng(2012)
    old = rng.lognormal(0.0, 0.1, SHAPE)
    new = rng.lognormal(-0.05, 0.1, SHAPE)
    ez.bootstrap_ratio_ci(old, new, n_resamples=200, rng=0)  # warm up
    n_idx = 2 * B * sum(int(np.prod(SHAPE[: k + 1])) for k in range(len(SHAPE)))
    d16 = best(lambda: draws(np.uint16))
    d32 = best(lambda: draws(np.int32))
    one = best(lambda: ez.bootstrap_ratio_ci(old, new, n_resamples=B, rng=1, workers=1))
    allc = best(lambda: ez.bootstrap_ratio_ci(old, new, n_resamples=B, rng=1))
    ci = ez.bootstrap_ratio_ci(old, new, n_resamples=B, rng=1)
    print(f"design {SHAPE} per system, {B} replicates, scheme RRR, {os.cpu_count()} CPUs")
    print(f"drawing the {n_idx:,} indices alone, uint16: {d16:.3f} s")
    print(f"drawing the {n_idx:,} indices alone, int32:  {d32:.3f} s")
    print(f"bootstrap, one thread:   {one:.3f} s  ({one / d16:.2f}x the uint16 draws)")
    print(f"bootstrap, every core:   {allc:.3f} s  ({allc / d16:.2f}x the uint16 draws)")
    print(f"CI [{ci.lower:.4f}, {ci.upper:.4f}]")

    k = 20
    t0 = time.perf_counter()
    resample_means_loops(old, "RRR", k, rng=1)
    resample_means_loops(new, "RRR", k, rng=2)
    per = (time.perf_counter() - t0) / k
    print(f"nested loops (paper pseudo-code): {1000 * per:.1f} ms per replicate "
          f"-> ~{per * B:.0f} s for {B}; speed-up {per * B / allc:.0f}x")


if __name__ == "__main__":
    main()
