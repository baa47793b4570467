"""Write the example dataset of README, "Add your own dataset": examples/analyse/data.

Four benchmarks measured as a build (binary) > process (execution) > iteration
hierarchy, 10 binaries x 3 executions x 12 iterations each, the first iterations of
every execution slower (a warm-up): ``qs-old`` and ``qs-new`` (the new one 5 % slower
by construction) and ``hash-old`` and ``hash-new`` (no change: an A/A pair). Made with
a seeded generator, so that running this script again writes the same files:

    .venv/bin/python examples/analyse/make_data.py
"""

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent / "data"
#: name -> (mean seconds, ratio to the old system, seed)
BENCHMARKS = {"qs-old": (0.25, 1.00, 11), "qs-new": (0.25, 1.05, 12),
              "hash-old": (0.08, 1.00, 13), "hash-new": (0.08, 1.00, 14)}


def table(mean: float, ratio: float, seed: int, binaries: int = 10, executions: int = 3,
          iterations: int = 12) -> str:
    """One benchmark's tidy CSV: binary, execution, iteration, time."""
    rng = np.random.default_rng(seed)
    lines = ["binary,execution,iteration,time"]
    for b in range(1, binaries + 1):
        fb = np.exp(rng.normal(0, 0.008))  # a build's layout
        for e in range(1, executions + 1):
            fe = np.exp(rng.normal(0, 0.006))  # a process's
            for i in range(1, iterations + 1):
                warm = 1 + 0.25 * np.exp(-(i - 1))  # the first iterations are slower
                t = ratio * mean * fb * fe * warm * np.exp(rng.normal(0, 0.01))
                lines.append(f"{b},{e},{i},{t:.6f}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for name, (mean, ratio, seed) in BENCHMARKS.items():
        (HERE / f"{name}.csv").write_text(table(mean, ratio, seed))
