"""Benchmark: `esize compare` against `pyperf compare_to` on two pyperformance-sized suites.

Writes two suite files with pyperf's own API (100 benchmarks, 20 worker processes
x 3 values each after one warm-up, plus a calibration run, as pyperformance does),
then times, in one run on this machine, best of ``--repeat`` wall-clock runs:

* ``python -m pyperf compare_to --table old.json new.json``
* ``esize compare old.json new.json --seed 1`` (10,000 resamples, every benchmark
  bootstrapped for the suite geometric mean)

and prints the ratio. Not a test: run it with ``make bench``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def write_suite(path: Path, *, seed: int, shift: float, benchmarks: int = 100,
                processes: int = 20, values: int = 3) -> None:
    """A pyperformance-like suite written by pyperf itself."""
    import pyperf

    rng = np.random.default_rng(seed)
    suite = None
    for k in range(benchmarks):
        base = 10 ** rng.uniform(-5, -1)
        runs = [pyperf.Run([], warmups=[(1, base * 1.1)],
                           metadata={"name": f"bench_{k:03d}", "unit": "second"},
                           collect_metadata=False)]  # calibration run: warm-ups only
        for _ in range(processes):
            proc = base * (1 + shift) * rng.lognormal(0, 0.02)
            vals = (proc * rng.lognormal(0, 0.01, values)).tolist()
            runs.append(pyperf.Run(vals, warmups=[(1, proc * 1.05)],
                                   metadata={"name": f"bench_{k:03d}", "unit": "second"},
                                   collect_metadata=False))
        bench = pyperf.Benchmark(runs)
        if suite is None:
            suite = pyperf.BenchmarkSuite([bench])
        else:
            suite.add_benchmark(bench)
    suite.dump(str(path), replace=True)


def wall(cmd: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    esize = str(Path(sys.executable).with_name("esize"))
    with tempfile.TemporaryDirectory() as tmp:
        old, new = Path(tmp, "old.json"), Path(tmp, "new.json")
        write_suite(old, seed=1, shift=0.0)
        write_suite(new, seed=2, shift=-0.03)
        pyperf_t = wall([sys.executable, "-m", "pyperf", "compare_to", "--table",
                         str(old), str(new)], args.repeat)
        esize_t = wall([esize, "compare", str(old), str(new), "--seed", "1"], args.repeat)
        one_t = wall([esize, "compare", str(old), str(new), "--seed", "1",
                      "--method", "fieller", "--benchmark", "bench_000"], args.repeat)
    print("two suites of 100 benchmarks, 20 processes x 3 values (written by pyperf)")
    print(f"pyperf compare_to --table:                 {pyperf_t:.3f} s")
    print(f"esize compare (10000 resamples, suite GM): {esize_t:.3f} s  ({esize_t / pyperf_t:.2f}x)")
    print(f"esize compare, one benchmark, Fieller:     {one_t:.3f} s  ({one_t / pyperf_t:.2f}x)")


if __name__ == "__main__":
    main()
