"""Collecting the dataset directory: the tidy Parquet files (one per set),
``builds.json``, ``costs.json`` (:func:`costs`), ``provenance.json`` and
``PROVENANCE.md`` (its text and the machine's record: :mod:`measure_provenance`).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

import measure_guard as G
import numpy as np
from measure_build import derive_seed, input_seed, sets
from measure_common import (
    BINARY,
    ENV_VAR,
    SEED_KEYS,
    _atomic_text,
    _now,
    _write_json,
    _write_parquet,
)
from measure_provenance import machine_info, provenance_markdown, software_info
from measure_sizing import warmup_count


def _stats(x) -> dict:
    a = np.asarray(x, dtype=float)
    return {"mean": float(a.mean()), "median": float(np.median(a)), "min": float(a.min()),
            "max": float(a.max())}


def costs(cfg: Mapping, frame, builds: Mapping[str, list[dict]]) -> dict:
    """Measured costs per set (seconds), for dimensioning experiments."""
    out = {}
    for s, recs in builds.items():
        f = frame[frame["set"] == s]
        w = warmup_count(cfg["warmup_fraction"], int(f["iteration"].max()))
        per = f.groupby(["binary", "execution"], sort=True)
        t = np.stack([g["time"].to_numpy() for _, g in per])  # executions x iterations
        cpu = np.stack([g["cpu_time"].to_numpy() for _, g in per])
        wall = per["wall"].first().to_numpy()
        steady = t[:, w:] if w < t.shape[1] else t[:, -1:]
        steady_mean = steady.mean(axis=1)
        overhead = wall - t.sum(axis=1)
        excess = (t[:, :w] - steady_mean[:, None]).sum(axis=1) if w else np.zeros(len(t))
        it = float(steady.mean())
        new_exec = float(np.mean(overhead) + np.mean(excess))
        bsec = [r["build_seconds"] for r in recs]
        out[s] = {
            "iteration_seconds": _stats(t.ravel()),
            "steady_iteration_seconds": _stats(steady.ravel()),
            "first_iteration_seconds": _stats(t[:, 0]),
            "warmup_iterations": w,
            "warmup_excess_seconds": _stats(excess),
            "process_seconds": _stats(wall),
            "execution_overhead_seconds": _stats(overhead),
            "build_seconds": _stats(bsec),
            "new_execution_seconds": new_exec,
            "new_binary_seconds": float(np.mean(bsec)),
            "new_execution_iterations": new_exec / it,
            "new_binary_iterations": float(np.mean(bsec)) / it,
            "units_per_iteration": recs[0]["units_per_iteration"],
            "cpu_share": _stats(cpu.ravel() / t.ravel()),
        }
    return out


COSTS_README = {
    "iteration_seconds": "time of one iteration as measured in-process, all iterations",
    "steady_iteration_seconds": "the same without the first warmup_iterations of each execution",
    "first_iteration_seconds": "the first iteration of each execution",
    "warmup_iterations": "iterations counted as warm-up: warmup_fraction * iterations, rounded half up",
    "warmup_excess_seconds": "per execution: the sum over its warm-up iterations of (time - the execution's steady mean)",
    "process_seconds": "wall time of one process as seen by the runner (start to exit)",
    "execution_overhead_seconds": "process_seconds minus the sum of its iteration times: "
                                  "process start-up, input set-up, printing, exit",
    "build_seconds": "wall time of compiling and linking one binary (all its commands in sequence)",
    "new_execution_seconds": "mean execution_overhead_seconds + mean warmup_excess_seconds: "
                             "what a further execution costs beyond its steady iterations",
    "new_binary_seconds": "mean build_seconds",
    "new_execution_iterations": "new_execution_seconds / mean steady iteration time",
    "new_binary_iterations": "new_binary_seconds / mean steady iteration time",
    "units_per_iteration": "inner work units per iteration, counted by the program",
    "cpu_share": "per iteration: cpu_time / time (below 1 when the process waited for a CPU)",
    "statistics": "each *_seconds entry holds mean, median, min and max over builds, "
                  "executions or iterations as its name says",
}


def _guard_summary(cfg: Mapping, per, ri: Mapping, design: Mapping) -> tuple[dict, dict]:
    """Provenance's ``guard`` (what was discarded and re-run) and ``interference``
    (per process: others' share of a CPU, steal, wall / CPU) entries."""
    g = dict(ri.get("guard") or {})
    pre = ri.get("preflight")
    guard = {
        "rule": "a process is clean when others used at most others_share of one CPU and "
                "steal took at most steal_share of its wall time (each beyond "
                "resolution_ticks clock ticks of /proc/stat resolution) and the sum of its "
                "iteration times is at most wall_per_cpu x the sum of their CPU times; a "
                "process that is not clean is discarded and run again at the end of the "
                "queue, at most max_attempts times in all; and over the last `window` seconds "
                "of processes others used at most others_share of a CPU beyond the same "
                "allowance",
        "thresholds": g.get("thresholds"), "processes": g.get("processes"),
        "attempts": g.get("attempts"), "discarded": g.get("discarded"),
        "reruns": g.get("discarded"), "unclean": g.get("unclean"),
        "reasons": g.get("reasons"), "forced": bool(cfg["force"]),
        "pinned_cpu": g.get("cpu"), "tick_seconds": g.get("tick_seconds"),
        "quiet_waits": g.get("quiet_waits"),
        "quiet_wait_seconds": g.get("quiet_wait_seconds"), "not_quiet": g.get("not_quiet"),
        "clean_in_data": int(per["clean"].sum()), "processes_in_data": int(len(per)),
        "preflight": pre,
        "pilot": (design.get("pilot") or {}).get("guard"),
    }
    inter = {
        "others_cpu_share_pooled": float(per["others_cpu"].sum() / per["process_wall"].sum()),
        "runner_cpu_share_pooled": float(per["runner_cpu"].sum() / per["process_wall"].sum()),
        "steal_share_pooled": float((per["steal_share"] * per["process_wall"]).sum()
                                    / per["process_wall"].sum()),
        "process_wall_median": float(per["process_wall"].median()),
        "others_cpu_share": G.summary(per["others_share"]),
        "steal_share": G.summary(per["steal_share"]),
        "wall_per_cpu": G.summary(per["wall_per_cpu"]),
        "note": "per process; shares are fractions of one CPU over the process's wall time "
                "(others: all CPUs' busy time from /proc/stat minus the process's own and the "
                "runner's CPU time, so within a few clock ticks of resolution: a 35 ms process "
                "reads 0 or +-29 % for one tick; slightly negative at times); *_pooled: the "
                "sum over all processes over the sum of their wall times, where the ticks "
                "average out; wall_per_cpu: sum of its iteration times / sum of their CPU "
                "times",
    }
    return guard, inter


def collect(cfg: Mapping, manifests: Sequence[str | Path], runs: str | Path,
            run_info: str | Path, harness_info: str | Path | None, out_dir: str | Path,
            config_sources: Sequence[str] = (), design_path: str | Path | None = None) -> None:
    """Write the dataset directory: tidy Parquet per set, builds, costs, provenance."""
    import pandas as pd

    design = json.loads(Path(design_path).read_text()) if design_path else {"sets": {}}

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    frame = pd.read_parquet(runs)
    builds = {}
    started = []
    for m in manifests:
        doc = json.loads(Path(m).read_text())
        builds[doc["set"]] = doc["builds"]
        started.append((doc["started"], doc["finished"]))
    info_sets = sets(cfg)
    for s in builds:
        f = frame[frame["set"] == s].sort_values(["binary", "execution", "iteration"])
        tidy = pd.DataFrame({
            "binary": f["binary"].astype("int16"),
            "execution": f["execution"].astype("int16"),
            "iteration": f["iteration"].astype("int32"),
            "time": f["time"].astype("float64"),
            "cpu_time": f["cpu_time"].astype("float32"),
            "variant": info_sets[s]["variant"],
            "permille": np.int16(info_sets[s]["permille"]),
            "build_seed": f["build_seed"].astype("int64"),
            "env_bytes": f["env_bytes"].astype("int32"),
            "order": f["order"].astype("int32"),
            "start": f["start"].astype("float64"),
            "load_before": f["load_before"].astype("float32"),
            "load_after": f["load_after"].astype("float32"),
            "attempt": f["attempt"].astype("int8"),
            "cpu": f["cpu"].astype("int16"),
            "process_wall": f["process_wall"].astype("float32"),
            "process_cpu": f["process_cpu"].astype("float32"),
            "runner_cpu": f["runner_cpu"].astype("float32"),
            "others_cpu": f["others_cpu"].astype("float32"),
            "others_share": f["others_share"].astype("float32"),
            "steal_share": f["steal_share"].astype("float32"),
            "wall_per_cpu": f["wall_per_cpu"].astype("float32"),
            "clean": f["clean"].astype("bool"),
        })
        _write_parquet(out / f"{s}.parquet", tidy)
    _write_json(out / "builds.json", {
        "description": "one record per binary: its seed, the layout drawn from it, the exact "
                       "commands (run in the binary's directory, sources in ../src), "
                       "build time, work units per iteration and the binary's SHA-256",
        "builds": [r for s in builds for r in builds[s]]})
    cost = costs(cfg, frame, builds)
    ri = json.loads(Path(run_info).read_text())
    hi = json.loads(Path(harness_info).read_text()) if harness_info else None
    total_build = sum(r["build_seconds"] for s in builds for r in builds[s])
    _write_json(out / "costs.json", {
        "unit": "seconds", "fields": COSTS_README, "sets": cost,
        "totals": {"build_seconds": total_build, "run_wall_seconds": ri["wall_seconds"],
                   "processes": ri["processes"]}})
    per = frame.groupby("order").first()  # one row per process
    load = per[["load_before", "load_after"]]
    guard, inter = _guard_summary(cfg, per, ri, design)
    prov = {
        "dataset": cfg["name"],
        "design": {"levels": ["binary", "execution", "iteration"], "mode": design.get("mode"),
                   "sets": {s: {**info_sets[s], **design["sets"].get(s, {}),
                                "file": f"{s}.parquet"} for s in builds},
                   "time_unit": "seconds",
                   "extra_columns": {
                       "cpu_time": "CPU time of the process during the iteration (seconds, "
                                   "CLOCK_PROCESS_CPUTIME_ID); below `time` when the process "
                                   "waited for a CPU",
                       "variant": "baseline, or plusN: N % more inner work (known effect)",
                       "permille": "extra inner work in permille (0, 10, 30)",
                       "build_seed": "the binary's layout seed (see builds.json)",
                       "env_bytes": f"length of the {ENV_VAR} variable, the process's only "
                                    "environment variable",
                       "order": "position of the process in the run (1 = first)",
                       "start": "process start, Unix time in seconds",
                       "load_before": "1-minute load average just before the process",
                       "load_after": "1-minute load average just after it",
                       "attempt": "which attempt of this process was kept (1: the first; "
                                  "earlier ones were discarded by the guard)",
                       "cpu": "the CPU the process was pinned to (-1: not pinned)",
                       "process_wall": "the process's wall time as the runner saw it "
                                       "(seconds, start-up and exit included)",
                       "process_cpu": "the process's own CPU time, user + system (seconds, "
                                      "rusage), start-up included",
                       "runner_cpu": "CPU time of the runner itself meanwhile (starting the "
                                     "process, reading its output; seconds, on another CPU)",
                       "others_cpu": "CPU time everything else used on all CPUs while the "
                                     "process ran (seconds, /proc/stat busy time minus "
                                     "process_cpu and runner_cpu)",
                       "others_share": "others_cpu / the process's wall time (share of one CPU)",
                       "steal_share": "steal time / the process's wall time",
                       "wall_per_cpu": "sum of the process's iteration times / sum of their "
                                       "CPU times",
                       "clean": "the process passed the guard (provenance: guard.rule)"}},
        "guard": guard,
        "interference": inter,
        "plan": {k: v for k, v in design.items() if k not in ("sets",)},
        "dates": {"builds_started": min(a for a, _ in started),
                  "builds_finished": max(b for _, b in started),
                  "run_started": ri["started"], "run_finished": ri["finished"],
                  "harness_started": hi["started"] if hi else None,
                  "harness_finished": hi["finished"] if hi else None,
                  "collected": _now()},
        "seeds": {
            "master_seed": cfg["master_seed"],
            "input_seed": input_seed(cfg),
            "schedule_seed": derive_seed(cfg["master_seed"], SEED_KEYS["schedule"], bits=64),
            "environment_seed": derive_seed(cfg["master_seed"], SEED_KEYS["environment"], bits=64),
            "build_seeds": {s: [r["seed"] for r in builds[s]] for s in builds},
            "derivation": "numpy SeedSequence(master_seed, spawn_key=K).generate_state(1): "
                          "K=(0,) input (uint64, compiled in as INPUT_SEED), "
                          "K=(1, first 4 bytes of sha256(set name) as a big-endian integer, "
                          "build) a build's seed (uint32), K=(2,) the order of the processes, "
                          "K=(3,) the environment sizes, K=(4,) the order of the pilot's "
                          "processes and K=(3, 4) their environment sizes, K=(5,) the "
                          "order of the builds across all sets (uint64 seeds of "
                          "PCG64 generators); the pilot's builds take the seeds of a set "
                          "named pilot-<program>",
            "layout_draws": "Generator(PCG64(build seed)): permutation of the object files, "
                            "then choice of align_functions, then integers 0..text_pad_max "
                            "and 0..data_pad_max",
        },
        "machine": machine_info(),
        "software": software_info(cfg),
        "load": {
            "note": "the 1-minute load average before and after every process, for the "
                    "record; interference is measured per process (see guard, interference)",
            "nice": cfg["nice"],
            "run_loadavg_before": ri["loadavg_before"], "run_loadavg_after": ri["loadavg_after"],
            "process_load_before": _stats(load["load_before"]),
            "process_load_after": _stats(load["load_after"])},
        "commands": {
            "measure": "python measure/measure.py make "
                       f"{' '.join(config_sources) or 'measure/config.yaml'}"
                       + (" --force" if cfg["force"] else "")
                       + "   (make measure: measure/config.yaml; make measure-tiny: "
                       "measure/config-tiny.yaml; it runs the preflight, then "
                       "snakemake -s measure/Snakefile --cores 1)",
            "config_files": list(config_sources),
            "compile": shlex.join([
                cfg["cc"], *cfg["cflags"], "-falign-functions=<align_functions>",
                "-DBENCH=<program>", "-DEXTRA_PERMILLE=<permille>",
                f"-DINPUT_SEED={input_seed(cfg)}ULL", "-I../src", "-c", "../src/<file>.c",
                "-o", "<file>.o"]) + "   (pad.c also gets -DTEXT_PAD=<text_pad> "
                                    "-DDATA_PAD=<data_pad>)",
            "link": f"{cfg['cc']} -o {BINARY} <objects in link order> -lm",
            "per_build": "builds.json lists every build's exact commands",
            "run": "cd <binary directory> && "
                   + (f"nice -n {cfg['nice']} " if cfg["nice"] is not None else "")
                   + f"taskset -c <cpu> env -i {ENV_VAR}=<env_bytes x's> ./{BINARY} <iterations>"
                   + ("   (the runner sets the niceness on itself; the processes inherit it)"
                      if cfg["nice"] is not None else ""),
            "count": f"./{BINARY} --count   (after each build: units of inner work and a checksum "
                     "of one iteration)",
            "harness": hi["runs"] if hi else None,
            "harness_builds": hi["builds"] if hi else None,
        },
        "config": dict(cfg),
        "run": ri,
    }
    _write_json(out / "provenance.json", prov)
    _atomic_text(out / "PROVENANCE.md", provenance_markdown(prov, cost, frame))
