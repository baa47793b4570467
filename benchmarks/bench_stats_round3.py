"""Issue 40's simulations, judged by the rules of prereg/2026-11-28-stats-round3.md.

    python benchmarks/bench_stats_round3.py [--reps N] [--only R1,R2,...] [--json FILE]

R1 one-process formats (files of Go, Google Benchmark, pytest-benchmark, criterion,
Julia and asv, each built from a real file of the format with the simulated values in
place of its own), R2 unrecorded and labelled sessions (tidy CSV files), R3 the
bootstrap at 10-12 units, R4 the outlier caveat, R5 suites (multiplicity, Benjamini-
Hochberg), F1 the one-fork figure the docs quote, and R6 the df rule on a grid of
designs (see prereg/2026-11-28-r6-df-rule.md). Every comparison goes through the
command line's own code path (``esize compare`` in-process) or, for R3-R5,
:func:`esize.compare.compare_pairs`; R6 is vectorised and checked against
:func:`esize.fieller_ci` on its small designs.
Seeds: ``SeedSequence(20261128)`` spawned per scenario in the rules' order. Each rate
is printed with its Monte Carlo standard error and the rule's verdict (PASS / FAIL).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import esize as ez
from esize._ratio_df import DF_QUANTILE, welch_dfs  # the rule's quantile; Welch alone
from esize.cli import build_parser
from esize.cli._markdown import render_markdown
from esize.cli.compare import compare
from esize.compare import compare_pairs, make_pair

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "tests" / "data" / "real"
MADE = ROOT / "tests" / "data" / "made-here"
SEED = 20261128
SCENARIOS = ("R1", "R2", "R3", "R4", "R5", "F1", "R6")  # R6 last: the seeds before it stay


def _se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 0.0) / n)


def _values(rng, shape, sd_top, sd_low, sd_session=0.0, mean=1e-3):
    """Log-normal values, 1 ms times exp(session + top + low), the top effect per row."""
    top = rng.normal(0.0, sd_top, shape[:1] + (1,) * (len(shape) - 1))
    low = rng.normal(0.0, sd_low, shape)
    return mean * np.exp(rng.normal(0.0, sd_session) + top + low) if sd_session else \
        mean * np.exp(top + low)


# -- R1: files of one process, written from a real file of each format ---------------------
def _gbench(values, path):
    doc = json.loads((REAL / "gbench-bencode-10reps.json").read_text())
    entry = doc["benchmarks"][0]
    doc["benchmarks"] = [{**entry, "name": "BM_x", "run_name": "BM_x", "repetitions": len(values),
                          "repetition_index": i, "real_time": v * 1e9, "cpu_time": v * 1e9,
                          "time_unit": "ns"} for i, v in enumerate(values)]
    for e in doc["benchmarks"]:
        e.pop("bytes_per_second", None)
    path.write_text(json.dumps(doc))
    return path


def _pytestbench(values, path):
    doc = json.loads((REAL / "pytest-benchmark-sleep-cut.json").read_text())
    b = copy.deepcopy(doc["benchmarks"][0])
    v = [float(x) for x in values]
    b["stats"].update(data=v, rounds=len(v), min=min(v), max=max(v), mean=float(np.mean(v)),
                      median=float(np.median(v)), stddev=float(np.std(v, ddof=1)),
                      total=float(np.sum(v)), ops=1 / float(np.mean(v)))
    doc["benchmarks"] = [b]
    path.write_text(json.dumps(doc))
    return path


def _criterion(values, path):
    src = REAL / "criterion-deduplicate" / "get" / "moka get" / "256" / "new"
    out = path / "get" / "moka get" / "256" / "new"
    out.mkdir(parents=True)
    shutil.copy(src / "benchmark.json", out / "benchmark.json")
    shutil.copy(src / "estimates.json", out / "estimates.json")
    iters = [19.0] * len(values)
    (out / "sample.json").write_text(json.dumps(
        {"sampling_mode": "Flat", "iters": iters,
         "times": [float(v) * 1e9 * 19.0 for v in values]}))
    return path


def _julia(values, path):
    doc = json.loads((REAL / "julia-mlogit-bare-group.json").read_text())
    trial = doc[1]["data"]["mlogit"]
    trial[1]["times"] = [float(v) * 1e9 for v in values]
    trial[1]["gctimes"] = [0.0] * len(values)
    path.write_text(json.dumps(doc))
    return path


def _asv(values, path):
    doc = json.loads((MADE / "asv-sortbench-old.json").read_text())
    cols = doc["result_columns"]
    name = "bench_sort.time_join"
    row = dict(zip(cols, doc["results"][name]))
    v = [float(x) for x in values]
    row.update(result=[float(np.median(v))], params=[], samples=[v], stats_repeat=[len(v)],
               stats_number=[1], stats_q_25=[float(np.percentile(v, 25))],
               stats_q_75=[float(np.percentile(v, 75))], stats_ci_99_a=[min(v)],
               stats_ci_99_b=[max(v)])
    doc["results"] = {name: [row[c] for c in cols if c in row]}
    path.write_text(json.dumps(doc))
    return path


def _gotest(values, path):
    lines = ["goos: linux", "goarch: amd64", "pkg: example.com/x", "cpu: simulated"]
    lines += [f"BenchmarkX-8   \t    1000\t  {v * 1e9:.1f} ns/op" for v in values]
    lines += ["PASS", "ok  \texample.com/x\t1.234s"]
    path.write_text("\n".join(lines) + "\n")
    return path


WRITERS = {"gotest": (_gotest, "txt"), "gbench": (_gbench, "json"),
           "pytest-benchmark": (_pytestbench, "json"), "criterion": (_criterion, ""),
           "julia": (_julia, "json"), "asv": (_asv, "json")}


def _cli(argv):
    return compare(build_parser().parse_args(["compare", *map(str, argv)]))


def r1(rng, reps, tmp):
    out = {}
    for fmt, (write, ext) in WRITERS.items():
        confident = named = 0
        for i in range(reps):
            paths = []
            for side in ("old", "new"):
                vals = _values(rng, (1, 20), 0.01, 0.03)[0]
                name = f"{fmt}-{i}-{side}" + (f".{ext}" if ext else "")
                paths.append(write(vals, tmp / name))
            res = _cli([*paths, "--method", "fieller", "--threshold", "0"])
            for row in res.rows:
                confident += row.verdict != "inconclusive"
                named += bool(row.reason and "process" in row.reason)
            for p in paths:
                shutil.rmtree(p) if p.is_dir() else p.unlink()
        ok = confident == 0 and named == reps
        out[fmt] = {"pairs": reps, "confident": confident, "reason_names_process": named,
                    "rule": "PASS" if ok else "FAIL"}
        print(f"R1 {fmt:<17} confident {confident}/{reps}, reason names the process "
              f"{named}/{reps}: {out[fmt]['rule']}", flush=True)
    return out


# -- R2: sessions -----------------------------------------------------------------------------
def _tidy(path, data, levels):
    idx = np.indices(data.shape).reshape(data.ndim, -1).T
    rows = [",".join(map(str, (*ix, repr(float(v))))) for ix, v in zip(idx, data.ravel())]
    path.write_text(",".join((*levels, "time")) + "\n" + "\n".join(rows) + "\n")
    return path


def r2(rng, reps, tmp):
    out = {}
    for procs in (10, 30):
        carried, covered = 0, 0
        for i in range(reps):
            paths = [_tidy(tmp / f"s{i}{side}.csv",
                           _values(rng, (procs, 20), 0.005, 0.02, sd_session=0.003),
                           ("process", "iteration")) for side in ("old", "new")]
            res = _cli([*paths, "--levels", "process", "--method", "fieller", "--threshold",
                        "0"])
            doc = res.to_json()
            text, md = res.render_text(), render_markdown(doc)
            carried += all("drift: neither system" in t.lower()
                           for t in (text, json.dumps(doc), md))
            covered += res.rows[0].fieller.contains(1.0)
            for p in paths:
                p.unlink()
        ok = carried == reps
        key = f"{procs}x20"
        out[key] = {"reps": reps, "drift_note": carried, "coverage": covered / reps,
                    "coverage_se": _se(covered / reps, reps), "rule_2a": "PASS" if ok else "FAIL"}
        print(f"R2a {key}: drift note in text, JSON and markdown {carried}/{reps}: "
              f"{out[key]['rule_2a']} (coverage without rounds {100 * covered / reps:.1f} % "
              f"+- {100 * _se(covered / reps, reps):.1f}, not judged)", flush=True)
    covered, absent = 0, 0
    for i in range(reps):
        offsets = rng.normal(0.0, 0.003, (5, 1, 1))  # the round's, shared by old and new
        paths = []
        for side in ("old", "new"):
            data = _values(rng, (5, 2, 20), 0.0, 0.02)
            data = data * np.exp(offsets + rng.normal(0.0, 0.005, (5, 2, 1)))
            paths.append(_tidy(tmp / f"r{i}{side}.csv", data, ("round", "process", "iteration")))
        res = _cli([*paths, "--levels", "round,process", "--method", "fieller", "--threshold",
                    "0"])
        covered += res.rows[0].fieller.contains(1.0)
        absent += not any(n.startswith("drift") for n in res.notes)
        for p in paths:
            p.unlink()
    cov = covered / reps
    ok = cov >= 0.93 and absent == reps
    out["rounds"] = {"reps": reps, "coverage": cov, "coverage_se": _se(cov, reps),
                     "drift_note_absent": absent, "rule_2b": "PASS" if ok else "FAIL"}
    print(f"R2b 5 rounds x 2 x 20 interleaved: coverage {100 * cov:.1f} % +- "
          f"{100 * _se(cov, reps):.1f} (rule >= 93 %), drift note absent {absent}/{reps}: "
          f"{out['rounds']['rule_2b']}", flush=True)
    return out


# -- R3: the bootstrap with 10-12 units -------------------------------------------------------
def r3_false_verdicts(rng, units, reps):
    """R3's rate: `--method bootstrap` at threshold 0 on ``reps`` A/A pairs of ``units``
    processes x 10 iterations (also R7c's check at the floor, bench_boot_floor.py)."""
    false = 0
    for _ in range(reps):
        o = ez.Design(_values(rng, (units, 10), 0.01, 0.03), ("process", "iteration"))
        n = ez.Design(_values(rng, (units, 10), 0.01, 0.03), ("process", "iteration"))
        res = compare_pairs([make_pair(None, o, n)], method="bootstrap", threshold=0.0,
                            resamples=2000, seed=int(rng.integers(2**32)))
        false += res.rows[0].verdict in ("faster", "slower")
    return false / reps


def r3(rng, reps):
    out = {}
    for units in (10, 11, 12):
        rate = r3_false_verdicts(rng, units, reps)
        out[units] = {"reps": reps, "false_verdicts": rate, "se": _se(rate, reps),
                      "rule": "PASS" if rate <= 0.055 else "FAIL"}
        print(f"R3 {units} units: false verdicts {100 * rate:.2f} % +- "
              f"{100 * _se(rate, reps):.2f} (rule <= 5.5 %): {out[units]['rule']}", flush=True)
    return out


# -- R4: heavy tails --------------------------------------------------------------------------
def _outlier_fired(rng, heavy):
    designs = []
    for _ in range(2):
        x = _values(rng, (10, 100), 0.01, 0.02)
        if heavy:
            x = np.where(rng.random(x.shape) < 0.002, 10 * x, x)
        designs.append(ez.Design(x, ("process", "iteration")))
    res = compare_pairs([make_pair(None, *designs)], method="fieller", threshold=0.0)
    return any("lie far out" in c for c in res.rows[0].caveats)


def _heavy(rng, ratio=1.0):
    designs = []
    for r in (1.0, ratio):
        x = r * _values(rng, (10, 100), 0.01, 0.02)
        x = np.where(rng.random(x.shape) < 0.002, 10 * x, x)
        designs.append(ez.Design(x, ("process", "iteration")))
    return designs


def r4(rng, reps):
    fired = sum(_outlier_fired(rng, True) for _ in range(reps)) / reps
    clean = sum(_outlier_fired(rng, False) for _ in range(reps)) / reps
    out = {"reps": reps, "fired_heavy": fired, "fired_clean": clean,
           "rule_4a": "PASS" if fired >= 0.90 else "FAIL",
           "rule_4c": "PASS" if clean <= 0.05 else "FAIL"}
    print(f"R4a outlier caveat with heavy tails {100 * fired:.1f} % +- "
          f"{100 * _se(fired, reps):.1f} (rule >= 90 %): {out['rule_4a']}")
    print(f"R4c outlier caveat on clean data {100 * clean:.2f} % (rule <= 5 %): "
          f"{out['rule_4c']}", flush=True)
    for est in ("median", "trimmed", "mean"):
        covered = detected = 0
        for _ in range(reps):
            o, n = _heavy(rng)
            row = compare_pairs([make_pair(None, o, n, estimator=est)], method="fieller",
                                threshold=0.0).rows[0]
            covered += row.fieller.contains(1.0)
        for _ in range(reps):
            o, n = _heavy(rng, 1.03)
            row = compare_pairs([make_pair(None, o, n, estimator=est)], method="fieller",
                                threshold=0.0).rows[0]
            detected += row.verdict == "slower"
        cov, power = covered / reps, detected / reps
        ok = cov >= 0.94 and power >= 0.80
        out[f"robust_{est}"] = {"coverage": cov, "power_3pct": power,
                                "rule_4b": ("PASS" if ok else "FAIL") if est != "mean" else
                                "reference (the plain mean, not judged)"}
        print(f"R4b --estimator {est}: coverage {100 * cov:.1f} % +- {100 * _se(cov, reps):.1f}"
              f" (rule >= 94 %), power at 3 % {100 * power:.1f} % +- "
              f"{100 * _se(power, reps):.1f} (rule >= 80 %): {out[f'robust_{est}']['rule_4b']}",
              flush=True)
    return out


# -- R5: suites -------------------------------------------------------------------------------
def r5(rng, suites):
    noted, listed, agree, total = 0, 0, 0, 0
    for _ in range(suites):
        # systems x benchmarks x processes x iterations; process sd 1 %, iteration 3 %
        data = 1e-3 * np.exp(rng.normal(0, 0.01, (2, 100, 5, 1))
                             + rng.normal(0, 0.03, (2, 100, 5, 10)))
        pairs = [make_pair(f"b{k}", ez.Design(data[0, k], ("process", "iteration")),
                           ez.Design(data[1, k], ("process", "iteration"))) for k in range(100)]
        res = compare_pairs(pairs, method="fieller", threshold=0.0)
        noted += any("were each tested" in n for n in res.notes)
        listed += bool(res.fdr and res.fdr["changed"])
        for r in res.rows:
            excl = r.fieller.bounded and not r.fieller.contains(1.0)
            agree += (r.p_value < 0.05) == excl
            total += 1
    any_rate = listed / suites
    out = {"suites": suites, "note": noted, "any_listed": any_rate, "se": _se(any_rate, suites),
           "p_agrees": f"{agree}/{total}",
           "rule_5a": "PASS" if noted == suites else "FAIL",
           "rule_5b": "PASS" if 1 - any_rate >= 0.929 else "FAIL",
           "rule_5c": "PASS" if agree == total else "FAIL"}
    print(f"R5a multiplicity note {noted}/{suites}: {out['rule_5a']}")
    print(f"R5b suites with any benchmark listed at FDR 5 % {100 * any_rate:.1f} % +- "
          f"{100 * _se(any_rate, suites):.1f} (rule <= 7.1 %): {out['rule_5b']}")
    print(f"R5c p < 0.05 exactly when Fieller leaves 1 out: {agree}/{total}: {out['rule_5c']}",
          flush=True)
    return out

# -- R6: the df rule on a grid (addendum prereg/2026-11-28-r6-df-rule.md) ------------------
GRID = (2, 3, 4, 5, 6, 10, 20, 30)
SD_RATIOS = (0.1, 1.0, 10.0)
R6_REPS = 10_000


def _r6_units(rng, reps, scale, effect, normal):
    """Unit means of 30 units a replicate: 10 iterations each, process sd 1 % and
    iteration sd 3 % times ``scale``, centred log-normal (mean exactly 1 ms * effect),
    or normal unit means of the same sd; also the iterations (None when normal)."""
    sp, si = 0.01 * scale, 0.03 * scale
    if normal:
        sd = math.sqrt(sp * sp + si * si / 10)
        return 1e-3 * effect * (1.0 + sd * rng.standard_normal((reps, GRID[-1]))), None
    logs = (rng.standard_normal((reps, GRID[-1], 1)) * sp
            + rng.standard_normal((reps, GRID[-1], 10)) * si - 0.5 * (sp * sp + si * si))
    values = 1e-3 * effect * np.exp(logs)
    return values.mean(axis=-1), values


def _previous_dfs(wo, wn, n_old, n_new):
    """The two-branch rule this round replaces (Welch; Hsu's n - 1 for a system of fewer
    than 10 units, and fewer than the other, whose upper-quartile variance exceeds the
    other's), for comparison only."""
    from scipy.special import chdtri

    welch = welch_dfs(wo, wn, n_old, n_new)
    if n_old == n_new or min(n_old, n_new) >= 10:
        return welch
    n_few, w_few, w_other = (n_old, wo, wn) if n_old < n_new else (n_new, wn, wo)
    upper = w_few * (n_few - 1) / chdtri(n_few - 1, 0.75)
    return np.where((upper > w_other) & (welch > n_few - 1), float(n_few - 1), welch)


R6_RULES = {"rule": ez.ratio_dfs, "welch": welch_dfs, "previous": _previous_dfs}


def _r6_grid(rng, reps, normal, rules=R6_RULES):
    """Per df rule: covered (effect 1) and detected (effect 1.03, lower limit above 1)
    as boolean arrays over the replicates, keyed by (sd ratio, n_old, n_new, what),
    with common random numbers; and how many replicates were checked against
    ``fieller_ci`` (log-normal data only)."""
    from scipy.special import stdtrit

    out: dict = {name: {} for name in rules}
    checked = 0
    for ratio in SD_RATIOS:
        for effect, key in ((1.0, "covered"), (1.03, "detected")):
            uo, vals_o = _r6_units(rng, reps, 1.0, 1.0, normal)
            un, vals_n = _r6_units(rng, reps, ratio, effect, normal)
            for n_old in GRID:
                mo = uo[:, :n_old].mean(axis=1)
                vo = uo[:, :n_old].var(axis=1, ddof=1) / n_old
                for n_new in GRID:
                    mn = un[:, :n_new].mean(axis=1)
                    vn = un[:, :n_new].var(axis=1, ddof=1) / n_new
                    wo, wn = vo / (mo * mo), vn / (mn * mn)
                    for name, dfs in rules.items():
                        q = stdtrit(dfs(wo, wn, n_old, n_new), 0.975)
                        lo, hi, _ = ez.fieller(mo, vo, mn, vn, q)
                        hit = (lo <= effect) & (effect <= hi) if effect == 1.0 else lo > 1.0
                        out[name][(ratio, n_old, n_new, key)] = hit
                        if vals_o is not None and name == "rule" and max(n_old, n_new) <= 5:
                            checked += _r6_check(vals_o, vals_n, n_old, n_new, lo, hi)
    return out, checked


def _r6_check(vals_o, vals_n, n_old, n_new, lo, hi, first=200):
    """The library's own route (``fieller_ci`` on two-level designs) gives the same
    limits on the first replicates; returns how many were checked."""
    levels = ("process", "iteration")
    for k in range(first):
        ci = ez.fieller_ci(ez.Design(vals_o[k, :n_old], levels),
                           ez.Design(vals_n[k, :n_new], levels))
        if not (math.isclose(ci.lower, lo[k], rel_tol=1e-9)
                and math.isclose(ci.upper, hi[k], rel_tol=1e-9)):
            raise AssertionError(f"R6: fieller_ci and the vectorised route differ at "
                                 f"{n_old} v {n_new}, replicate {k}")
    return first


def _r6_judge(cells, reps, z=2.0):
    """Rule 6a (coverage >= 94.5 % in every cell) and 6b (power never lower by more than
    ``z`` = 2 MC SE of the paired difference for the next grid value on either side)."""
    keys = [(r, a, b) for r in SD_RATIOS for a in GRID for b in GRID]
    cov = {k: float(cells[(*k, "covered")].mean()) for k in keys}
    power = {k: float(cells[(*k, "detected")].mean()) for k in keys}
    low = sorted((c, k) for k, c in cov.items() if c < 0.945)
    drops = []
    for r, a, b in keys:
        i, j = GRID.index(a), GRID.index(b)
        nxt = ([(GRID[i + 1], b)] if i + 1 < len(GRID) else []) + (
            [(a, GRID[j + 1])] if j + 1 < len(GRID) else [])
        for a2, b2 in nxt:
            d = cells[(r, a2, b2, "detected")].astype(float) - cells[(r, a, b, "detected")]
            se = float(d.std(ddof=1)) / math.sqrt(reps)
            if d.mean() < -z * se:
                drops.append({"sd_ratio": r, "from": [a, b], "to": [a2, b2],
                              "power": [power[(r, a, b)], power[(r, a2, b2)]],
                              "se_diff": se})
    return cov, power, low, drops


def r6(rng, reps):
    out: dict = {"reps": reps, "grid": list(GRID), "sd_ratios": list(SD_RATIOS)}
    for normal, label in ((False, "lognormal"), (True, "normal")):
        cells, checked = _r6_grid(rng, reps, normal)
        part: dict = {}
        for name in R6_RULES:
            cov, power, low, drops = _r6_judge(cells[name], reps)
            (worst_key, worst) = min(cov.items(), key=lambda kv: kv[1])
            part[name] = {
                "min_coverage": worst, "min_cell": list(worst_key),
                "cells_below_94_5": [[*k, c] for c, k in low], "power_drops": drops,
                "coverage": {" ".join(map(str, k)): c for k, c in cov.items()},
                "power": {" ".join(map(str, k)): p for k, p in power.items()}}
            judged = name == "rule" and not normal
            if judged:
                part[name]["rule_6a"] = "PASS" if not low else "FAIL"
                part[name]["rule_6b"] = "PASS" if not drops else "FAIL"
            tail = (f" (6a {part[name]['rule_6a']}, 6b {part[name]['rule_6b']})" if judged
                    else " (not judged)")
            print(f"R6 {label} {name}: lowest coverage {100 * worst:.2f} % +- "
                  f"{100 * _se(worst, reps):.2f} at sd ratio {worst_key[0]:g}, "
                  f"{worst_key[1]} v {worst_key[2]}; {len(low)} of {len(cov)} cells below "
                  f"94.5 %; {len(drops)} power drops beyond 2 MC SE{tail}", flush=True)
            sample = ", ".join(f"{a} v {b} {100 * power[(1.0, a, b)]:.1f}"
                               for a, b in ((3, 3), (3, 4), (5, 5), (5, 6), (3, 20), (10, 10)))
            print(f"    power at 3 %, sd ratio 1: {sample}", flush=True)
        part["checked_against_fieller_ci"] = checked
        out[label] = part
    return out



def _r6_pair_z(cells, reps):
    """z of the paired power difference of every adjacent pair (one more unit on either
    side), keyed by (sd ratio, from, to)."""
    out = {}
    for r in SD_RATIOS:
        for a in GRID:
            for b in GRID:
                i, j = GRID.index(a), GRID.index(b)
                nxt = ([(GRID[i + 1], b)] if i + 1 < len(GRID) else []) + (
                    [(a, GRID[j + 1])] if j + 1 < len(GRID) else [])
                for a2, b2 in nxt:
                    d = (cells[(r, a2, b2, "detected")].astype(float)
                         - cells[(r, a, b, "detected")])
                    se = float(d.std(ddof=1)) / math.sqrt(reps)
                    out[(r, (a, b), (a2, b2))] = float(d.mean()) / se if se > 0 else 0.0
    return out


#: The confirmatory run of R6b (prereg/2026-11-29-r6b-confirmatory.md).
R6C_SEED, R6C_REPS, R6C_BONFERRONI = 20261129, 100_000, 3.62
R6C_FLAGGED = (0.1, (5, 5), (5, 6))


def r6_confirm(reps):
    """The confirmatory run of rule R6b: the df rule on log-normal data, a fresh seed,
    judged by R6b-c1 (the flagged pair, z > -2) and R6b-c2 (no pair below -3.62)."""
    rng = np.random.default_rng(np.random.SeedSequence(R6C_SEED).spawn(1)[0])
    cells, _ = _r6_grid(rng, reps, False, rules={"rule": ez.ratio_dfs})
    cov, power, low, drops = _r6_judge(cells["rule"], reps)
    z = _r6_pair_z(cells["rule"], reps)
    flagged = z[R6C_FLAGGED]
    worst_key, worst = min(z.items(), key=lambda kv: kv[1])
    c1, c2 = flagged > -2.0, worst > -R6C_BONFERRONI
    wk, wc = min(cov.items(), key=lambda kv: kv[1])
    out = {"seed": f"SeedSequence({R6C_SEED}).spawn(1)[0]", "reps": reps,
           "flagged_pair": {"key": [R6C_FLAGGED[0], *R6C_FLAGGED[1:]], "z": flagged,
                            "power": [power[(R6C_FLAGGED[0], *R6C_FLAGGED[1])],
                                      power[(R6C_FLAGGED[0], *R6C_FLAGGED[2])]]},
           "lowest_z": {"key": [worst_key[0], *worst_key[1:]], "z": worst},
           "pairs_below_minus_2": len(drops),
           "rule_c1": "PASS" if c1 else "FAIL", "rule_c2": "PASS" if c2 else "FAIL",
           "min_coverage": wc, "min_coverage_cell": list(wk), "cells_below_94_5": len(low),
           "z": {f"{k[0]:g} {k[1][0]}v{k[1][1]} -> {k[2][0]}v{k[2][1]}": v
                 for k, v in z.items()}}
    print(f"R6b confirmatory ({reps} replicates a cell): flagged pair 5 v 5 -> 5 v 6 at sd "
          f"ratio 0.1: power {100 * out['flagged_pair']['power'][0]:.2f} -> "
          f"{100 * out['flagged_pair']['power'][1]:.2f} %, z = {flagged:.2f} "
          f"(c1 {out['rule_c1']}); lowest z of 336 pairs {worst:.2f} at {worst_key} "
          f"(c2 {out['rule_c2']}); {len(drops)} pairs below -2 (not judged); lowest "
          f"coverage {100 * wc:.2f} % at {wk}, {len(low)} cells below 94.5 % (not judged)",
          flush=True)
    return out


#: The judged run of the df rule with its quantile at 0.15 (prereg/2026-11-29-r6-v2-df-quantile.md).
R6V2_REPS = 100_000


def _old_quantile_dfs(wo, wn, n_old, n_new, q=0.10):
    """The df rule with the quantile of 2026-11-28 (0.10), for comparison only."""
    from scipy.special import chdtri

    fo, fn = ((n - 1) / chdtri(n - 1, 1.0 - q) for n in (n_old, n_new))
    return np.minimum.reduce([welch_dfs(wo, wn, n_old, n_new),
                              welch_dfs(wo * fo, wn, n_old, n_new),
                              welch_dfs(wo, wn * fn, n_old, n_new)])


def r6_v2(reps):
    """R6 v2: the library's rule (quantile 0.15) on a fresh seed, judged by R6v2-a (every
    cell covers >= 94.5 %) and R6v2-b (no pair's power falls beyond z -3.62)."""
    rng = np.random.default_rng(np.random.SeedSequence(R6C_SEED).spawn(3)[1])
    rules = {"rule": ez.ratio_dfs, "quantile_0.10": _old_quantile_dfs}
    cells, checked = _r6_grid(rng, reps, False, rules=rules)
    out: dict = {"seed": f"SeedSequence({R6C_SEED}).spawn(3)[1]", "reps": reps,
                 "df_quantile": DF_QUANTILE,
                 "checked_against_fieller_ci": checked}
    for name in rules:
        cov, power, low, drops = _r6_judge(cells[name], reps)
        z = _r6_pair_z(cells[name], reps)
        (zk, zw), (ck, cw) = min(z.items(), key=lambda kv: kv[1]), min(cov.items(),
                                                                         key=lambda kv: kv[1])
        part = {"min_coverage": cw, "min_cell": list(ck), "cells_below_94_5": len(low),
                "lowest_z": {"key": [zk[0], *zk[1:]], "z": zw},
                "pairs_below_minus_2": len(drops),
                "pairs_below_bonferroni": sum(v < -R6C_BONFERRONI for v in z.values()),
                "coverage": {" ".join(map(str, k)): c for k, c in cov.items()},
                "power": {" ".join(map(str, k)): p for k, p in power.items()},
                "z": {f"{k[0]:g} {k[1][0]}v{k[1][1]} -> {k[2][0]}v{k[2][1]}": v
                      for k, v in z.items()}}
        judged = name == "rule"
        if judged:
            part["rule_a"] = "PASS" if not low else "FAIL"
            part["rule_b"] = "PASS" if part["pairs_below_bonferroni"] == 0 else "FAIL"
        out[name] = part
        tail = (f" (a {part['rule_a']}, b {part['rule_b']})" if judged else " (not judged)")
        sample = ", ".join(f"{a} v {b} {100 * power[(1.0, a, b)]:.1f}"
                           for a, b in ((2, 2), (2, 3), (3, 3), (5, 5), (3, 20), (10, 10)))
        print(f"R6 v2 {name}: lowest coverage {100 * cw:.2f} % at {ck}, {len(low)} cells "
              f"below 94.5 %; lowest z {zw:.2f} at {zk}, {part['pairs_below_bonferroni']} "
              f"pairs below -3.62, {len(drops)} below -2{tail}\n    power at 3 %, sd ratio "
              f"1: {sample}", flush=True)
    return out


# -- F1: the one-fork figure the docs quote (not a rule: a figure) -----------------------------
def f1(rng, reps):
    """One fork of 20 iterations against one, fork sd 1 %, iteration sd 3 %, ratio 1:
    how often the interval that ignores forks covers 1, and how often it claims a change
    at threshold 0 (with the verdict forced by assume_no_fork_variance)."""
    covered = claimed = 0
    for _ in range(reps):
        o = ez.Design(_values(rng, (1, 20), 0.01, 0.03)[0], ("iteration",))
        n = ez.Design(_values(rng, (1, 20), 0.01, 0.03)[0], ("iteration",))
        res = compare_pairs([make_pair(None, o, n)], method="fieller", threshold=0.0,
                            assume_no_fork_variance=True)
        covered += res.rows[0].fieller.contains(1.0)
        claimed += res.rows[0].verdict in ("faster", "slower")
    out = {"reps": reps, "coverage": covered / reps, "claimed": claimed / reps,
           "se": _se(covered / reps, reps)}
    print(f"F1 one fork of 20 iterations each (fork sd 1 %, iteration sd 3 %): coverage "
          f"{100 * covered / reps:.1f} % +- {100 * out['se']:.1f}, a change claimed in "
          f"{100 * claimed / reps:.1f} % (figure quoted by the docs)", flush=True)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=2000, help="replicates (suites for R5: half)")
    ap.add_argument("--r6-reps", type=int, default=None,
                    help="replicates per cell of R6's grid (the rule's: 10,000)")
    ap.add_argument("--r6-confirm", action="store_true",
                    help="R6: the confirmatory run of rule 6b instead (fresh seed, 100,000 "
                    "replicates a cell unless --r6-reps is given)")
    ap.add_argument("--r6-v2", action="store_true",
                    help="R6: the judged run of the df rule with quantile 0.15 instead "
                    "(prereg/2026-11-29-r6-v2-df-quantile.md; 100,000 replicates a cell)")
    ap.add_argument("--only", default=",".join(SCENARIOS))
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = ap.parse_args(argv)
    want = set(args.only.split(","))
    rngs = dict(zip(SCENARIOS, (np.random.default_rng(s)
                                for s in np.random.SeedSequence(SEED).spawn(len(SCENARIOS)))))
    results: dict = {"seed": SEED, "reps": args.reps}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if "R1" in want:
            results["R1"] = r1(rngs["R1"], args.reps, tmp)
        if "R2" in want:
            results["R2"] = r2(rngs["R2"], args.reps, tmp)
    if "R3" in want:
        results["R3"] = r3(rngs["R3"], args.reps)
    if "R4" in want:
        results["R4"] = r4(rngs["R4"], args.reps)
    if "R5" in want:
        results["R5"] = r5(rngs["R5"], args.reps // 2)
    if "F1" in want:
        results["F1"] = f1(rngs["F1"], args.reps)
    if "R6" in want and args.r6_v2:
        results["R6_v2"] = r6_v2(args.r6_reps or R6V2_REPS)
    elif "R6" in want and args.r6_confirm:
        results["R6b_confirmatory"] = r6_confirm(args.r6_reps or R6C_REPS)
    elif "R6" in want:
        results["R6"] = r6(rngs["R6"], args.r6_reps or R6_REPS)
    results["seconds"] = round(time.perf_counter() - start, 1)
    print(f"done in {results['seconds']} s")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
