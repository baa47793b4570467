"""Benchmark: ``esize run`` against hyperfine old-then-new on a machine whose load drifts.

The procedure and the rules are fixed in ``benchmarks/prereg/2026-11-29-run-drift.md``
(written before the judged run): a background load of one busy loop per CPU is
switched on and off every 1-4 s; two commands (identical, or the new one 5 % slower)
are measured 20 times each way, by ``esize run`` (interleaved rounds, paired) and by
two hyperfine batches one after the other compared with ``esize compare``. Prints the
verdict counts side by side and writes them, with every repetition's numbers, as
JSON.

Run it alone on the machine (no tests or other jobs)::

    python benchmarks/bench_run_drift.py --out benchmarks/results/2026-11-29-run-drift.json

``--repetitions 2`` makes a quick check of the script (not a judged run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
#: The second and third judged runs (prereg/2026-11-29-run-drift-2.md, -3.md) draw
#: from these masters.
MASTERS = {1: 20261129, 2: 20261130, 3: 20261131}
TARGET_SECONDS = 0.030


def build_spin(tmp: Path) -> str:
    exe = tmp / "spin"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(HERE / "run_drift" / "spin.c")],
                   check=True)
    return str(exe)


def wall(argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, check=True)
    return time.perf_counter() - t0


def spaced(f, argv: list[str], gap: float) -> float:
    """``f(argv)`` after ``gap`` seconds of sleep. Processes started back to back were
    hardly slowed by the load on this machine (1.00x), the same load 50 ms apart 1.89x:
    the load's probe spaces them in run 3."""
    if gap:
        time.sleep(gap)
    return f(argv)


def calibrate(spin: str) -> int:
    """N such that ``spin N`` takes about TARGET_SECONDS (median of 11, load off)."""
    n = 1_000_000
    for _ in range(3):
        t = float(np.median([wall([spin, str(n)]) for _ in range(11)]))
        n = max(1000, int(n * TARGET_SECONDS / max(t, 1e-4)))
    return n


class Load:
    """One busy loop per CPU, started and ended on a seeded schedule of 1-4 s.

    Every on period starts fresh processes and every off period kills them: loops
    stopped and continued (SIGSTOP/SIGCONT) hardly slowed a new process on this
    machine's scheduler (the first judged run measured 0.94x), fresh ones do.
    """

    def __init__(self, rng: np.random.Generator, cpus: int):
        self.cpus = cpus
        self.procs: list[subprocess.Popen] = []
        self.rng = rng
        self.on = False
        self.stop_event = threading.Event()
        self.switches = 0
        self.on_seconds = 0.0
        self.seconds = 0.0
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def resume(self) -> None:
        code = "while True: pass"
        self.procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(self.cpus)]
        self.on = True

    def pause(self) -> None:
        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()
        self.procs = []
        self.on = False

    def _loop(self) -> None:
        while not self.stop_event.is_set():
            period = float(self.rng.uniform(1.0, 4.0))
            t0 = time.perf_counter()
            self.stop_event.wait(period)
            dt = time.perf_counter() - t0
            self.seconds += dt
            if self.on:
                self.on_seconds += dt
            if self.stop_event.is_set():
                break
            self.pause() if self.on else self.resume()
            self.switches += 1

    def start(self) -> None:
        self.resume()
        self.thread.start()

    def close(self) -> None:
        self.stop_event.set()
        if self.thread.is_alive():
            self.thread.join()
        self.pause()


def esize(*args: str) -> dict:
    p = subprocess.run([sys.executable, "-m", "esize", *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"esize {' '.join(args)}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def by_esize_run(old: list[str], new: list[str], seed: int, tmp: Path) -> dict:
    save = tmp / "run.csv"
    t0 = time.perf_counter()
    doc = esize("run", "--pilot-rounds", "5", "--target-half-width", "0.02", "--max-rounds",
                "60", "--seed", str(seed), "--json", "--save", str(save), "--", *old, "--", *new)
    seconds = time.perf_counter() - t0
    lines = save.read_text().splitlines()[1:]
    disturbed = sum(line.endswith(",1") for line in lines)
    return {"verdict": doc["verdict"], "ratio": doc["ratio"],
            "lower": doc["paired"]["lower"], "upper": doc["paired"]["upper"],
            "rounds": doc["paired"]["rounds"], "processes": len(lines),
            "disturbed": disturbed, "seconds": seconds}


def by_hyperfine(old: list[str], new: list[str], runs: int, tmp: Path) -> dict:
    files = []
    t0 = time.perf_counter()
    for side, cmd in (("old", old), ("new", new)):
        out = tmp / f"{side}.json"
        subprocess.run(["hyperfine", "-N", "--runs", str(runs), "--style", "none",
                        "--export-json", str(out), " ".join(cmd)],
                       check=True, capture_output=True)
        files.append(str(out))
    seconds = time.perf_counter() - t0
    doc = esize("compare", *files, "--json")
    iv = doc.get(doc.get("verdict_method") or "fieller") or {}
    return {"verdict": doc["verdict"], "ratio": doc["ratio"], "lower": iv.get("lower"),
            "upper": iv.get("upper"), "runs": runs, "seconds": seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repetitions", type=int, default=20)
    ap.add_argument("--out", default=None)
    ap.add_argument("--run", type=int, choices=(1, 2, 3), default=3,
                    help="which judged run's seeds and load probe (default 3, the last)")
    a = ap.parse_args()
    if shutil.which("hyperfine") is None or shutil.which("gcc") is None:
        sys.exit("needs hyperfine and gcc")
    master = MASTERS[a.run]
    seeds = np.random.SeedSequence(master).spawn(2)
    load_rng = np.random.default_rng(seeds[0])
    run_seeds = np.random.default_rng(seeds[1]).integers(0, 2**31, size=2 * a.repetitions)
    cpus = os.cpu_count() or 1
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        spin = build_spin(tmp)
        n = calibrate(spin)
        n5 = round(1.05 * n)
        load = Load(load_rng, cpus)
        try:
            gap = 0.05 if a.run == 3 else 0.0  # run 3: 50 ms between the probe's processes
            quiet = float(np.median([spaced(wall, [spin, str(n)], gap) for _ in range(11)]))
            load.resume()
            time.sleep(0.5)
            loaded = float(np.median([spaced(wall, [spin, str(n)], gap) for _ in range(11)]))
            load.pause()
            load.start()
            reps = []
            for i in range(2 * a.repetitions):
                scenario = "same" if i % 2 == 0 else "plus5"
                old = [spin, str(n)]
                new = [spin, str(n if scenario == "same" else n5)]
                esize_first = (i // 2) % 2 == 0
                rec: dict = {"scenario": scenario, "seed": int(run_seeds[i]),
                             "esize_run_first": esize_first}
                if esize_first:
                    rec["esize_run"] = by_esize_run(old, new, int(run_seeds[i]), tmp)
                    rec["hyperfine"] = by_hyperfine(old, new, 2 * rec["esize_run"]["rounds"],
                                                    tmp)
                else:
                    # hyperfine first: its runs are those of the previous esize run of
                    # this scenario (or 2 x 15 rounds before there is one)
                    prev = [r["esize_run"]["rounds"] for r in reps if r["scenario"] == scenario]
                    runs = 2 * (prev[-1] if prev else 15)
                    rec["hyperfine"] = by_hyperfine(old, new, runs, tmp)
                    rec["esize_run"] = by_esize_run(old, new, int(run_seeds[i]), tmp)
                reps.append(rec)
                print(f"{i + 1:>3} {scenario:<6} esize run: {rec['esize_run']['verdict']:<13}"
                      f" ({rec['esize_run']['rounds']} rounds)   hyperfine + compare: "
                      f"{rec['hyperfine']['verdict']:<13} ratio {rec['hyperfine']['ratio']:.3f}",
                      flush=True)
        finally:
            load.close()

    def count(tool: str, scenario: str, words: tuple[str, ...]) -> int:
        return sum(r[tool]["verdict"] in words for r in reps if r["scenario"] == scenario)

    confident = ("slower", "faster")
    summary = {
        tool: {"no_change_confident": count(tool, "same", confident),
               "plus5_slower": count(tool, "plus5", ("slower",)),
               "plus5_faster": count(tool, "plus5", ("faster",))}
        for tool in ("esize_run", "hyperfine")
    }
    rules = {
        "D1": {"rule": "no change: esize run confident in <= 1 of 20",
               "value": summary["esize_run"]["no_change_confident"],
               "pass": summary["esize_run"]["no_change_confident"] <= 1},
        "D2": {"rule": "+5 %: esize run says slower in >= 15 of 20",
               "value": summary["esize_run"]["plus5_slower"],
               "pass": summary["esize_run"]["plus5_slower"] >= 15},
    }
    runs = [r["esize_run"] for r in reps]
    doc = {
        "prereg": "benchmarks/prereg/2026-11-29-run-drift"
                  + ("" if a.run == 1 else f"-{a.run}") + ".md",
        "repetitions_per_scenario": a.repetitions,
        "master_seed": master,
        "machine": {"cpus": cpus, "platform": platform.platform()},
        "spin_steps": n, "spin_steps_plus5": n5,
        "quiet_median_s": quiet, "loaded_median_s": loaded,
        "load_slowdown": loaded / quiet,
        "load": {"switches": load.switches, "on_share": load.on_seconds / max(load.seconds, 1e-9)},
        "esize_run_rounds": {"median": float(np.median([r["rounds"] for r in runs])),
                             "min": min(r["rounds"] for r in runs),
                             "max": max(r["rounds"] for r in runs)},
        "disturbed_share": sum(r["disturbed"] for r in runs) / sum(r["processes"] for r in runs),
        "summary": summary, "rules": rules,
        "load_effective": loaded / quiet >= 1.2,
        "seconds": time.perf_counter() - started,
        "repetitions": reps,
    }
    print()
    print(f"load slows spin by {loaded / quiet:.2f}x; on {100 * doc['load']['on_share']:.0f} % "
          f"of the time, {load.switches} switches; {doc['seconds']:.0f} s in all")
    print(f"{'':<28}{'esize run':>12}{'hyperfine+compare':>20}")
    print(f"{'no change: slower/faster':<28}{summary['esize_run']['no_change_confident']:>9}/"
          f"{a.repetitions:<2}{summary['hyperfine']['no_change_confident']:>17}/{a.repetitions}")
    print(f"{'+5 %: slower':<28}{summary['esize_run']['plus5_slower']:>9}/{a.repetitions:<2}"
          f"{summary['hyperfine']['plus5_slower']:>17}/{a.repetitions}")
    print(f"{'+5 %: faster (wrong way)':<28}{summary['esize_run']['plus5_faster']:>9}/"
          f"{a.repetitions:<2}{summary['hyperfine']['plus5_faster']:>17}/{a.repetitions}")
    for k, v in rules.items():
        print(f"{k}: {v['rule']}: {v['value']} -> {'PASS' if v['pass'] else 'FAIL'}")
    if a.out:
        Path(a.out).write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
