"""Benchmark: ``--warmup auto`` (changepoint detection) on files of realistic size.

Prints, best of several runs in this process:

* the one-off cost of importing ruptures (paid on the first call);
* :func:`esize._warmup.auto_warmup` on a synthetic pyperformance-sized PyPy file,
  60 benchmarks x 10 processes x 250 values (budget: about 5 s), with the classes
  found;
* the same on a JMH-sized file, 60 benchmarks x 5 forks x 20 iterations;
* one long flat series of 2,000 and of 10,000 values (PELT is linear with many
  changes but quadratic on a flat series, where it can prune nothing).

The data: lognormal noise of 1 to 5 %, a few outliers, and per benchmark a flat
series, an exponential warm-up, a step warm-up or a late slowdown. Not a test: run
it with ``python benchmarks/bench_warmup.py``.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from esize._warmup import CLASSES, auto_warmup, detect_steady_state  # noqa: E402

REPEAT = 3


def best(f) -> float:
    times = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def process(rng: np.random.Generator, n: int, shape: str) -> np.ndarray:
    t = np.arange(n)
    x = rng.lognormal(0.0, rng.uniform(0.01, 0.05), n)
    x *= np.where(rng.random(n) < 0.01, rng.uniform(1.5, 4.0), 1.0)  # collections
    if shape == "decay":
        x *= 1 + rng.uniform(0.5, 5.0) * np.exp(-t / rng.uniform(2, n / 8))
    elif shape == "step":
        x[: rng.integers(2, n // 4)] *= rng.uniform(1.2, 3.0)
    elif shape == "slowdown":
        x[rng.integers(n // 3, n // 2):] *= rng.uniform(1.05, 1.3)
    return x


def suite(seed: int, benchmarks: int, processes: int, n: int) -> list[list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    shapes = rng.choice(["flat", "decay", "step", "slowdown"], size=benchmarks)
    return [[process(rng, n, s) for _ in range(processes)] for s in shapes]


def run(files: list[list[np.ndarray]]) -> dict[str, int]:
    classes = dict.fromkeys(CLASSES, 0)
    for k, groups in enumerate(files):
        rep = auto_warmup(groups, benchmark=f"bench{k}")
        for c, m in rep.classes.items():
            classes[c] += m
    return classes


def main() -> None:
    t0 = time.perf_counter()
    import ruptures  # noqa: F401

    print(f"import ruptures: {time.perf_counter() - t0:.2f} s (once)")

    pypy = suite(2017, 60, 10, 250)
    classes = run(pypy)
    t = best(lambda: run(pypy))
    print(f"PyPy-sized file, 60 benchmarks x 10 processes x 250 values: {t:.2f} s "
          f"({t / 600 * 1e3:.2f} ms per process)")
    print("  processes per class: " + ", ".join(f"{c} {m}" for c, m in classes.items()))

    jmh = suite(2012, 60, 5, 20)
    t = best(lambda: run(jmh))
    print(f"JMH-sized file, 60 benchmarks x 5 forks x 20 iterations: {t:.3f} s")

    rng = np.random.default_rng(0)
    for n in (2_000, 10_000):
        x = rng.lognormal(0.0, 0.02, n)
        t = best(lambda x=x: detect_steady_state(x))
        print(f"one flat series of {n:,} values: {t * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
