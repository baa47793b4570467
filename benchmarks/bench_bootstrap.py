"""Benchmark: 10,000-replicate RRR bootstrap CI of a ratio, 30 x 10 x 20 per system.

Prints the time of the vectorised implementation (best of several runs, one core)
and, for scale, of the literal nested-loop algorithm of the paper's pseudo-code on a
few replicates, extrapolated to 10,000. Not a test: run it with ``make bench``.
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


def main() -> None:
    rng = np.random.default_rng(2012)
    old = rng.lognormal(0.0, 0.1, SHAPE)
    new = rng.lognormal(-0.05, 0.1, SHAPE)
    ez.bootstrap_ratio_ci(old, new, n_resamples=200, rng=0)  # warm up
    times = []
    for rep in range(5):
        t0 = time.perf_counter()
        ci = ez.bootstrap_ratio_ci(old, new, n_resamples=B, rng=rep)
        times.append(time.perf_counter() - t0)
    fast = min(times)
    print(f"design {SHAPE} per system, {B} replicates, scheme RRR")
    print(f"vectorised: best {fast:.3f} s, median {np.median(times):.3f} s  -> CI [{ci.lower:.4f}, {ci.upper:.4f}]")

    # the cost of the random indices alone (the floor the implementation approaches)
    per_replicate = sum(int(np.prod(SHAPE[: k + 1])) for k in range(len(SHAPE)))
    streams = ez.bootstrap.spawn_streams(0, 2)
    t0 = time.perf_counter()
    for s in streams:
        s.integers(0, 20, size=B * per_replicate, dtype=np.int32)
    print(
        f"drawing the {2 * B * per_replicate:,} random indices alone: "
        f"{time.perf_counter() - t0:.3f} s"
    )

    k = 20
    t0 = time.perf_counter()
    resample_means_loops(old, "RRR", k, rng=1)
    resample_means_loops(new, "RRR", k, rng=2)
    per = (time.perf_counter() - t0) / k
    print(f"nested loops (paper pseudo-code): {1000 * per:.1f} ms per replicate -> ~{per * B:.0f} s for {B}")
    print(f"speed-up: {per * B / fast:.0f}x")


if __name__ == "__main__":
    main()
