"""R8: coverage of ``esize compare --method mixed`` (prereg/2026-11-29-r8-mixed-coverage.md;
R8 v2, the df capped at the top level's n - 1: prereg/2026-11-29-r8-v2-mixed-df-cap.md).

    python benchmarks/bench_mixed.py [--v2] [--reps N] [--seed S] [--json FILE]

Two-level log-normal designs without an effect, balanced (through
:func:`esize.compare.compare_pairs` with ``method="mixed"``, the command line's path)
and unbalanced (2-20 iterations a process, through :func:`esize._mixed.reml_fit` and
:func:`esize.mixed_ratio_ci`). The true ratio of geometric means is 1. Each cell's
coverage is printed with its Monte Carlo SE and rule R8a's verdict.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

import esize as ez
from esize._mixed import reml_fit
from esize.compare import compare_pairs, make_pair

SEED = 20261129
DESIGNS = ((2, 2), (3, 3), (5, 5), (10, 10), (3, 20), (20, 3), (5, 10))
SPREADS = (1.0, 10.0)
BALANCES = ("balanced", "unbalanced")


def _logs(rng, units, iters, scale):
    """log(1 ms) + process effect + iteration effects; ``iters`` an int or per-unit counts."""
    top = rng.normal(0.0, 0.01 * scale, units)
    if np.isscalar(iters):
        return math.log(1e-3) + top[:, None] + rng.normal(0.0, 0.03 * scale, (units, iters))
    labels = np.repeat(np.arange(units), iters)
    return math.log(1e-3) + top[labels] + rng.normal(0.0, 0.03 * scale, labels.size), labels


def _cell(rng, reps, n_old, n_new, spread, balance):
    covered = unbounded = bad = 0
    widths, fieller_widths, seconds = [], [], []
    levels = ("process", "iteration")
    for _ in range(reps):
        if balance == "balanced":
            o = ez.Design(np.exp(_logs(rng, n_old, 10, 1.0)), levels)
            n = ez.Design(np.exp(_logs(rng, n_new, 10, spread)), levels)
            t0 = time.perf_counter()
            row = compare_pairs([make_pair(None, o, n)], method="mixed", threshold=0.0).rows[0]
            seconds.append(time.perf_counter() - t0)
            iv = row.mixed
            fi = ez.fieller_ci(o, n)
            if fi.bounded:
                fieller_widths.append(fi.upper - fi.lower)
        else:
            yo, lo = _logs(rng, n_old, rng.integers(2, 21, n_old), 1.0)
            yn, ln = _logs(rng, n_new, rng.integers(2, 21, n_new), spread)
            t0 = time.perf_counter()
            iv = ez.mixed_ratio_ci(reml_fit(np.exp(yo), [lo], levels=levels),
                                   reml_fit(np.exp(yn), [ln], levels=levels))
            seconds.append(time.perf_counter() - t0)
        if not (np.isfinite(iv.lower) or np.isinf(iv.lower)) or np.isnan(iv.upper):
            bad += 1
            continue
        if not (np.isfinite(iv.lower) and np.isfinite(iv.upper)):
            unbounded += 1
            covered += 1
            continue
        covered += iv.lower <= 1.0 <= iv.upper
        widths.append(iv.upper - iv.lower)
    c = covered / reps
    se = math.sqrt(c * (1 - c) / reps)
    return {"n_old": n_old, "n_new": n_new, "spread": spread, "balance": balance,
            "reps": reps, "coverage": c, "se": se, "unbounded": unbounded, "bad": bad,
            "rule_a": "PASS" if c + 2 * se >= 0.945 else "FAIL",
            "mean_width": float(np.mean(widths)) if widths else None,
            "fieller_mean_width": float(np.mean(fieller_widths)) if fieller_widths else None,
            "median_seconds": float(np.median(seconds))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=None,
                    help="a pilot seed (default: the judged SeedSequence(20261129).spawn(4)[3])")
    ap.add_argument("--v2", action="store_true",
                    help="the judged seed of R8 v2 (prereg/2026-11-29-r8-v2-mixed-df-cap.md): "
                    "SeedSequence(20261129).spawn(5)[4]")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    judged = (f"SeedSequence({SEED}).spawn(5)[4]" if args.v2
              else f"SeedSequence({SEED}).spawn(4)[3]")
    root = (np.random.SeedSequence(args.seed) if args.seed is not None
            else np.random.SeedSequence(SEED).spawn(5)[4] if args.v2
            else np.random.SeedSequence(SEED).spawn(4)[3])
    cells = [(b, s, d) for b in BALANCES for s in SPREADS for d in DESIGNS]
    children = root.spawn(len(cells))
    start, out = time.perf_counter(), []
    for (balance, spread, (n_old, n_new)), child in zip(cells, children):
        r = _cell(np.random.default_rng(child), args.reps, n_old, n_new, spread, balance)
        out.append(r)
        fw = (f", Fieller's width {r['fieller_mean_width']:.4f}"
              if r["fieller_mean_width"] is not None else "")
        print(f"R8 {balance:10s} spread {spread:4g} {n_old:2d} v {n_new:2d}: coverage "
              f"{100 * r['coverage']:.2f} % +- {100 * r['se']:.2f} ({r['rule_a']}); unbounded "
              f"{r['unbounded']}, bad {r['bad']}; mean width {r['mean_width']:.4f}{fw}; "
              f"{1000 * r['median_seconds']:.1f} ms", flush=True)
    a = all(r["rule_a"] == "PASS" for r in out)
    b = all(r["bad"] == 0 for r in out)
    seconds = round(time.perf_counter() - start, 1)
    print(f"R8a {'PASS' if a else 'FAIL'}; R8b {'PASS' if b else 'FAIL'}; {seconds} s")
    if args.json is not None:
        doc = {"seed": (f"SeedSequence({args.seed})" if args.seed is not None else judged),
               "reps": args.reps, "cells": out, "rule_a": "PASS" if a else "FAIL",
               "rule_b": "PASS" if b else "FAIL", "seconds": seconds}
        args.json.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
