"""Benchmark: `esize compare` against `pyperf compare_to` on pyperformance-sized suites.

Writes pairs of suite files with pyperf's own API (100 benchmarks, each with a
calibration run of warm-ups only and then ``P`` worker processes of one warm-up and
``V`` values, as pyperformance does) in two shapes, 20 x 3 and 40 x 10. Old and new
share each benchmark's base time (drawn from a fixed seed); new is old x 0.97, and
only the measurement noise differs between the sides (a seed per side).

For each shape it times, in the same run, best of ``--repeat`` wall-clock runs with
the commands alternating within each round:

* ``python -m pyperf compare_to --table old.json new.json``
* ``esize compare old.json new.json --seed 1`` (the default ``--method auto``:
  Fieller per benchmark, the parametric interval for the suite, no bootstrap)
* the same with ``--method fieller``
* the same with ``--method both`` (10,000 resamples of every benchmark)

and prints seconds and the ratio to pyperf, with the date (UTC), the commit and the
CPU model. Each command runs once untimed first, with ``PYTHONDONTWRITEBYTECODE``
removed from its environment, so that both programs start from up-to-date bytecode
as they do for anyone after their first run (a stale cache recompiles every edited
module at each start). Not a test: run it with ``make bench``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

#: Seed of the base times, shared by old and new.
BASE_SEED = 12345
#: Suite shapes: (worker processes, values per process).
SHAPES = ((20, 3), (40, 10))


def write_suite(path: Path, *, noise_seed: int, shift: float, benchmarks: int = 100,
                processes: int = 20, values: int = 3, base_seed: int = BASE_SEED) -> None:
    """A pyperformance-like suite written by pyperf itself.

    The base time of every benchmark comes from ``base_seed`` (the same for both
    sides of a comparison), the noise of processes and values from ``noise_seed``;
    every time is multiplied by ``1 + shift``.
    """
    import pyperf

    bases = 10 ** np.random.default_rng(base_seed).uniform(-5, -1, benchmarks)
    rng = np.random.default_rng(noise_seed)
    suite = None
    for k, base in enumerate(bases):
        meta = {"name": f"bench_{k:03d}", "unit": "second"}
        runs = [pyperf.Run([], warmups=[(1, base * 1.1)], metadata=meta,
                           collect_metadata=False)]  # calibration run: warm-ups only
        procs = base * (1 + shift) * rng.lognormal(0, 0.02, processes)
        vals = procs[:, None] * rng.lognormal(0, 0.01, (processes, values))
        for proc, row in zip(procs, vals):
            runs.append(pyperf.Run(row.tolist(), warmups=[(1, proc * 1.05)], metadata=meta,
                                   collect_metadata=False))
        bench = pyperf.Benchmark(runs)
        if suite is None:
            suite = pyperf.BenchmarkSuite([bench])
        else:
            suite.add_benchmark(bench)
    suite.dump(str(path), replace=True)


def best_times(commands: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """Best wall-clock seconds of each command over ``repeat`` rounds; every round runs
    all commands once, in turn (so that a slow spell of the machine hits them alike)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for cmd in commands.values():  # untimed: brings the bytecode caches up to date
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(repeat):
        for label, cmd in commands.items():
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
            best[label] = min(best[label], time.perf_counter() - t0)
    return best


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=Path(__file__).resolve().parent, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="rounds (best of; default 7)")
    args = ap.parse_args()
    esize = str(Path(sys.executable).with_name("esize"))
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{now}, commit {commit()}, {cpu_model()}, best of {args.repeat}")
    with tempfile.TemporaryDirectory() as tmp:
        for processes, values in SHAPES:
            old = Path(tmp, f"old-{processes}x{values}.json")
            new = Path(tmp, f"new-{processes}x{values}.json")
            shape = {"processes": processes, "values": values}
            write_suite(old, noise_seed=1, shift=0.0, **shape)
            write_suite(new, noise_seed=2, shift=-0.03, **shape)
            files = [str(old), str(new)]
            commands = {
                "pyperf compare_to --table": [sys.executable, "-m", "pyperf", "compare_to",
                                              "--table", *files],
                "esize compare --seed 1": [esize, "compare", *files, "--seed", "1"],
                "esize compare --method fieller": [esize, "compare", *files,
                                                   "--method", "fieller"],
                "esize compare --method both --seed 1": [esize, "compare", *files, "--seed",
                                                         "1", "--method", "both"],
            }
            times = best_times(commands, args.repeat)
            ref = times["pyperf compare_to --table"]
            print(f"\n100 benchmarks, {processes} processes x {values} values "
                  "(written by pyperf)")
            for label, t in times.items():
                print(f"  {label:<38}{t:7.3f} s  {t / ref:5.2f}x")


if __name__ == "__main__":
    main()
