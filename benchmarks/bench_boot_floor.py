"""R7: the bootstrap's unit floor from its measured coverage, judged by the rules of
prereg/2026-11-29-r7-bootstrap-floor.md.

    python benchmarks/bench_boot_floor.py [--reps N] [--seed S] [--processes P] [--json FILE]
    python benchmarks/bench_boot_floor.py --r7c-at UNITS [--json FILE]

For every cell (scenario S1-S3 x top-level units 4-20) ``reps`` data sets of two
two-level systems (``units`` processes x 10 iterations each, centred log-normal, true
ratio 1) get both interval kinds, Hesterberg's expanded percentile interval and
Efron's BCa, from the same 2,000 resamples: :func:`esize.bootstrap_ratio_ci` is
called twice with the same seed (``interval="expanded"``, then ``"bca"``; the
replicates are checked to be identical), scheme ``RR`` as ``esize compare`` uses for
two levels. Each cell's coverage of 1 is printed with its Monte Carlo standard error,
rule R7a gives each kind's floor, and the default kind follows (the lower floor;
``expanded`` on a tie).

The judged run is the default (``--reps 4000 --seed 20261129``: the third child of
``SeedSequence(20261129)``), and only it writes
``benchmarks/results/2026-11-29-r7-bootstrap-floor.json`` by default; a pilot (any
other seed or count) writes only where ``--json`` says. Every cell has its own
stream (the seed's child spawned once per cell, scenario-major), so the result does
not depend on ``--processes``.

``--r7c-at UNITS`` runs rule R7c's check at the floor instead: R3 (false verdicts at
threshold 0 through :func:`esize.compare.compare_pairs`, 2,000 data sets) at ``UNITS``
units, from child 27 of the R7 seed (the cells use children 0-26).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np

import esize as ez

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "2026-11-29-r7-bootstrap-floor.json"
PREREG = "benchmarks/prereg/2026-11-29-r7-bootstrap-floor.md"
SEED, REPS, RESAMPLES, ALPHA, ITERATIONS = 20261129, 4000, 2000, 0.05, 10
UNITS = (4, 5, 6, 7, 8, 10, 12, 15, 20)
KINDS = ("expanded", "bca")
#: scenario: ((old top sd, old low sd), (new top sd, new low sd)), sds of the logarithms
SCENARIOS = {
    "S1": ((0.01, 0.03), (0.01, 0.03)),  # "R3"
    "S2": ((0.01, 0.03), (0.10, 0.30)),  # "spread": the new system's sds times 10
    "S3": ((0.30, 0.03), (0.30, 0.03)),  # "skewed": a strongly skewed top level
}
TARGET = 0.945


def _system(rng, units, sd_top, sd_low, effect=1.0):
    """``units`` x 10 centred log-normal values: 1 ms * effect * exp(top + low - s^2/2)."""
    top = rng.normal(0.0, sd_top, (units, 1))
    low = rng.normal(0.0, sd_low, (units, ITERATIONS))
    return 1e-3 * effect * np.exp(top + low - 0.5 * (sd_top**2 + sd_low**2))


def run_cell(task):
    """Coverage counts of both kinds in one cell: ``(scenario, units, seed_seq, reps)``."""
    scenario, units, ss, reps = task
    rng = np.random.default_rng(ss)
    (so, lo), (sn, ln) = SCENARIOS[scenario]
    levels = ("process", "iteration")
    covered = {k: 0 for k in KINDS}
    unusable = {k: 0 for k in KINDS}
    width = {k: 0.0 for k in KINDS}
    for _ in range(reps):
        old = ez.Design(_system(rng, units, so, lo), levels)
        new = ez.Design(_system(rng, units, sn, ln), levels)
        seed = int(rng.integers(2**32))
        res = {k: ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=RESAMPLES,
                                        alpha=ALPHA, rng=seed, workers=1, interval=k)
               for k in KINDS}
        if not np.array_equal(res["expanded"].bootstrap_distribution,
                                         res["bca"].bootstrap_distribution):
            raise AssertionError(f"{scenario} {units}: the two kinds' replicates differ")
        for k, iv in res.items():
            covered[k] += iv.contains(1.0)
            unusable[k] += not iv.bounded
            if iv.bounded:
                width[k] += math.log(iv.upper / iv.lower)
    return scenario, units, covered, unusable, width


def _se(c: float, n: int) -> float:
    return math.sqrt(max(c * (1.0 - c), 0.0) / n)


def floor_of(cov: dict, n: int) -> int | None:
    """R7a: the smallest ``units`` of the grid at and above which every scenario's
    coverage ``c`` has ``c + 2 sqrt(c (1 - c) / n) >= 0.945``; None if none."""
    floor = None
    for units in reversed(UNITS):
        if all(cov[(s, units)] + 2.0 * _se(cov[(s, units)], n) >= TARGET for s in SCENARIOS):
            floor = units
        else:
            break
    return floor


# -- R7c at the floor: R3's check (false verdicts at threshold 0) at the floor itself ----------
def r7c_at(units: int, reps: int = 2000):
    """R3 as ``benchmarks/bench_stats_round3.py`` runs it (its data generator, R3's design
    of ``units`` processes x 10 iterations, process sd 1 %, iteration sd 3 %, true ratio 1,
    ``compare_pairs(method="bootstrap")`` at threshold 0 with 2,000 resamples), at
    ``units`` units; the stream is child 27 of the R7 seed (the cells use 0-26)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_stats_round3 import r3_false_verdicts

    rng = np.random.default_rng(np.random.SeedSequence(SEED).spawn(3)[2].spawn(28)[27])
    rate = r3_false_verdicts(rng, units, reps)
    out = {"units": units, "reps": reps, "false_verdicts": rate, "se": _se(rate, reps),
           "seed": f"SeedSequence({SEED}).spawn(3)[2].spawn(28)[27]",
           "rule": "PASS" if rate <= 0.055 else "FAIL"}
    print(f"R7c at the floor, {units} units: false verdicts {100 * rate:.2f} % +- "
          f"{100 * out['se']:.2f} (rule <= 5.5 %): {out['rule']}", flush=True)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=REPS, help="replicates per cell (judged: 4000)")
    ap.add_argument("--seed", type=int, default=SEED,
                    help="root of SeedSequence(seed).spawn(3)[2] (judged: 20261129)")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None,
                    help="write the results here (default: the results file, judged run only)")
    ap.add_argument("--r7c-at", type=int, default=None, metavar="UNITS",
                    help="instead: rule R7c's check at the floor (R3 at UNITS units, "
                    "--reps of them, 2000 by R3's default), written to --json if given")
    args = ap.parse_args(argv)
    if args.r7c_at is not None:
        doc = r7c_at(args.r7c_at, args.reps if args.reps != REPS else 2000)
        if args.json is not None:
            args.json.write_text(json.dumps(doc, indent=1) + "\n")
        return 0
    judged = args.seed == SEED and args.reps == REPS
    out_path = args.json if args.json is not None else (RESULTS if judged else None)
    root = np.random.SeedSequence(args.seed).spawn(3)[2]
    cells = [(s, u) for s in SCENARIOS for u in UNITS]
    tasks = [(s, u, ss, args.reps) for (s, u), ss in zip(cells, root.spawn(len(cells)))]
    start = time.perf_counter()
    print(f"R7 {'judged run' if judged else 'PILOT (not judged)'}: seed "
          f"SeedSequence({args.seed}).spawn(3)[2], {args.reps} replicates a cell, "
          f"{RESAMPLES} resamples, {100 * (1 - ALPHA):g} %", flush=True)
    results = {}
    with get_context("spawn").Pool(args.processes) as pool:
        for scenario, units, covered, unusable, width in pool.imap_unordered(run_cell, tasks):
            results[(scenario, units)] = (covered, unusable, width)
            print(f"  done {scenario} {units:>2} units ({time.perf_counter() - start:.0f} s)",
                  flush=True)
    n = args.reps
    cov = {k: {c: results[c][0][k] / n for c in cells} for k in KINDS}
    floors = {k: floor_of(cov[k], n) for k in KINDS}
    print(f"\ncoverage of the 95 % interval, % +- MC SE ({n} replicates a cell); "
          "* = below 94.5 % beyond 2 MC SE")
    print("units " + "".join(f"  {s} {k:<8}      " for s in SCENARIOS for k in KINDS))
    for u in UNITS:
        line = f"{u:>5} "
        for s in SCENARIOS:
            for k in KINDS:
                c = cov[k][(s, u)]
                flag = "*" if c + 2 * _se(c, n) < TARGET else " "
                line += f"  {100 * c:5.2f} +- {100 * _se(c, n):4.2f}{flag}  "
        print(line)
    for k in KINDS:
        print(f"R7a {k}: floor {floors[k] if floors[k] is not None else 'none in the grid'}")
    rank = {k: (floors[k] if floors[k] is not None else math.inf) for k in KINDS}
    default = "bca" if rank["bca"] < rank["expanded"] else "expanded"
    print(f"default kind (lower floor, expanded on a tie): {default}, floor "
          f"{floors[default] if floors[default] is not None else 'none in the grid'}")
    doc = {
        "prereg": PREREG, "judged": judged,
        "seed": f"SeedSequence({args.seed}).spawn(3)[2]", "reps": n,
        "resamples": RESAMPLES, "alpha": ALPHA, "iterations": ITERATIONS,
        "scheme": "RR", "units": list(UNITS),
        "scenarios": {s: {"old_sd_top_low": list(v[0]), "new_sd_top_low": list(v[1])}
                      for s, v in SCENARIOS.items()},
        "coverage": {k: {s: {str(u): {"coverage": cov[k][(s, u)], "se": _se(cov[k][(s, u)], n),
                                      "unusable": results[(s, u)][1][k],
                                      "mean_log_width": results[(s, u)][2][k] / max(
                                          n - results[(s, u)][1][k], 1)}
                                 for u in UNITS} for s in SCENARIOS} for k in KINDS},
        "floor": floors, "rule_R7a": {k: (f"floor {floors[k]}") if floors[k] is not None
                                      else "no floor in the grid" for k in KINDS},
        "default_interval": default, "default_floor": floors[default],
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(f"done in {doc['seconds']} s")
    if out_path is not None:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"wrote {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
