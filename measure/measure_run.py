"""Running the measured processes, and the Google Benchmark and hyperfine examples.

``run_schedule``
    runs every binary as several processes, in one random order across all binaries
    and sets (:func:`schedule`), each process with an environment of random size (one
    dummy variable); records the times each process prints (one per iteration), the
    start time, the process's wall time and the load average before and after it.
    Every process runs under the interference guard (:func:`run_guarded`, with the
    counters of :mod:`measure_guard`): one that is not clean is run again later, and
    too many that stay so refuse the measurement.
``run_harness``
    the README's Google Benchmark and hyperfine examples: real runs of the FFT and
    cipher programs, baseline against a known slowdown.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import measure_guard as G
import numpy as np
from measure_build import _run_checked, copy_sources, derive_seed, input_seed, parse_count
from measure_common import (
    BINARY,
    COMMON,
    ENV_VAR,
    HARNESS_PROGRAMS,
    PROGRAMS,
    SEED_KEYS,
    MeasureError,
    _atomic_copy,
    _atomic_text,
    _log,
    _now,
    _write_json,
    _write_parquet,
)
from measure_config import _shown


def schedule(cfg: Mapping, builds: Mapping[str, int], executions: Mapping[str, int] | None = None,
             key: str = "schedule") -> list[dict]:
    """The order of all processes: every (set, build) ``executions[set]`` times, shuffled
    together; each with its environment pad size. ``builds``: set -> number of builds;
    ``executions``: set -> processes per build (default: the configuration's)."""
    ex = executions or {s: cfg["executions"] for s in builds}
    units = [(s, b) for s in builds for b in range(1, builds[s] + 1)]
    slots = [u for u in units for _ in range(ex[u[0]])]
    rng = np.random.Generator(np.random.PCG64(
        derive_seed(cfg["master_seed"], SEED_KEYS[key], bits=64)))
    order = rng.permutation(len(slots))
    env_key = (SEED_KEYS["environment"],) if key == "schedule" else (
        SEED_KEYS["environment"], SEED_KEYS[key])
    env = np.random.Generator(np.random.PCG64(
        derive_seed(cfg["master_seed"], *env_key, bits=64)))
    pads = env.integers(0, cfg["env_pad_max"] + 1, size=len(slots))
    seen: dict[tuple[str, int], int] = {}
    out = []
    for pos, i in enumerate(order):
        s, b = slots[i]
        seen[(s, b)] = seen.get((s, b), 0) + 1
        out.append({"order": pos + 1, "set": s, "binary": b, "execution": seen[(s, b)],
                    "env_bytes": int(pads[pos])})
    return out


def parse_times(text: str, iterations: int, what: str) -> tuple[list[int], list[int], int]:
    """Times and CPU times (ns) of every iteration and the units per iteration."""
    pairs = [(int(m.group(1)), int(m.group(2)))
             for m in re.finditer(r"^t (\d+) (\d+)$", text, re.M)]
    if len(pairs) != iterations:
        raise MeasureError(f"{what}: printed {len(pairs)} times, expected {iterations}")
    if min(t for t, _ in pairs) <= 0:
        raise MeasureError(f"{what}: printed a time that is not positive")
    units, _ = parse_count(text, what)
    return [t for t, _ in pairs], [c for _, c in pairs], units


def _pin(cpu: int | None):
    if cpu is None:
        return None
    return lambda: os.sched_setaffinity(0, {cpu})


def run_process(bindir: Path, iterations: int, env_bytes: int, cpu: int | None = None,
                probe: G.Probe | None = None) -> dict:
    """One execution: ``./bench ITERATIONS`` with only the padding variable in its
    environment (``env_bytes`` characters), pinned to ``cpu`` (None: not pinned).

    Around it the CPU counters of the machine and the process's own CPU time
    (:mod:`measure_guard`) give what everything else did meanwhile.
    """
    probe = probe or G.Probe()
    env = {ENV_VAR: "x" * env_bytes}
    load_before = os.getloadavg()[0]
    start = time.time()
    self0, own0, s0 = probe.self_cpu(), probe.children_cpu(), probe.stat()
    t0 = time.perf_counter()
    try:
        p = subprocess.run([f"./{BINARY}", str(iterations)], cwd=bindir, env=env,
                           capture_output=True, text=True, preexec_fn=_pin(cpu))
    except (OSError, subprocess.SubprocessError) as exc:
        raise MeasureError(f"{bindir}: cannot run: {getattr(exc, 'strerror', None) or exc}") from None
    wall = time.perf_counter() - t0
    s1, own1, self1 = probe.stat(), probe.children_cpu(), probe.self_cpu()
    load_after = os.getloadavg()[0]
    if p.returncode != 0:
        raise MeasureError(f"{bindir}: exit status {p.returncode}: {' '.join(p.stderr.split())}")
    times, cpu_ns, units = parse_times(p.stdout, iterations, str(bindir))
    inter = G.interference(s0, s1, own1 - own0, wall, probe.tick, runner_cpu=self1 - self0)
    return {"times_ns": times, "cpu_ns": cpu_ns, "units": units, "start": start, "wall": wall,
            "load_before": load_before, "load_after": load_after, "interference": inter,
            "wall_per_cpu": sum(times) / max(1, sum(cpu_ns)), "cpu": cpu}


class _Priority:
    """Run the measured processes at niceness ``nice`` (None: unchanged).

    Linux keeps the niceness per thread and a child inherits its parent thread's, so
    the calling thread takes it for the duration and gives it back afterwards. A
    negative value needs root (or CAP_SYS_NICE); without it the step fails. With the
    kernel's autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled``, on
    by default in many distributions) a niceness only ranks a process against those
    of its own session: other users' sessions still get their share of the CPU.
    """

    def __init__(self, nice: int | None):
        self.nice = nice
        self.old: int | None = None

    def __enter__(self):
        if self.nice is not None:
            self.old = os.getpriority(os.PRIO_PROCESS, 0)
            try:
                os.setpriority(os.PRIO_PROCESS, 0, self.nice)
            except OSError as exc:
                raise MeasureError(f"cannot set niceness {self.nice}: {exc.strerror} "
                                   "(set nice: null in the configuration)") from None
        return self

    def __exit__(self, *exc):
        if self.old is not None:
            try:
                os.setpriority(os.PRIO_PROCESS, 0, self.old)
            except OSError:
                pass
        return False


class _RunnerAffinity:
    """Keep the runner (this thread) off the measured CPU while measuring."""

    def __init__(self, cpu: int | None):
        self.cpu, self.old = cpu, None

    def __enter__(self):
        if self.cpu is not None:
            self.old = os.sched_getaffinity(0)
            rest = self.old - {self.cpu}
            if rest:
                os.sched_setaffinity(0, rest)
        return self

    def __exit__(self, *exc):
        if self.old is not None:
            os.sched_setaffinity(0, self.old)
        return False


#: Per-process columns the guard adds to every row of a process.
GUARD_COLUMNS = ("attempt", "cpu", "process_wall", "process_cpu", "runner_cpu", "others_cpu",
                 "others_share", "steal_share", "wall_per_cpu", "clean")


def refused_path(cfg: Mapping) -> Path:
    """Where a refusal's one line is left for ``measure.py make`` to print."""
    return Path(cfg["build_dir"]) / "refused.txt"


def _refuse(cfg: Mapping, line: str) -> None:
    refused_path(cfg).parent.mkdir(parents=True, exist_ok=True)
    _atomic_text(refused_path(cfg), line + "\n")
    raise MeasureError(line)


def run_guarded(cfg: Mapping, jobs: Sequence[dict], bindir_of, iterations_of, log=None,
                probe: G.Probe | None = None, runner=None) -> tuple[list[dict], dict]:
    """Run ``jobs`` (from :func:`schedule`) under the guard; the accepted attempts.

    A process that is not clean (:func:`measure_guard.judge`) is discarded and run
    again at the end of the queue, at most ``max_attempts`` times in all; before the
    first process and after a discarded one the runner waits (bounded) for the machine
    to be quiet. A process never measured clean is kept with ``clean = False``. When
    more than ``max_unclean_fraction`` of the processes end so, :func:`_refuse` stops
    (as soon as that is certain). With ``force`` every first attempt is kept, clean or
    not, and nothing is refused. ``runner(bindir, iterations, env_bytes, cpu, probe)``
    defaults to :func:`run_process` (the tests pass a fake one).
    """
    import collections

    g = cfg["guard"]
    probe = probe or G.Probe()
    runner = runner or run_process
    force = bool(cfg["force"]) or not g["enabled"]
    cpu = G.pinned_cpu(g["cpu"]) if g["enabled"] else None
    queue = collections.deque((job, 1) for job in jobs)
    allowed = math.floor(g["max_unclean_fraction"] * len(jobs))
    done: list[dict] = []
    stats = {"processes": len(jobs), "attempts": 0, "discarded": 0, "unclean": 0,
             "quiet_waits": 0, "quiet_wait_seconds": 0.0, "not_quiet": 0,
             "reasons": collections.Counter()}
    need_quiet = not force
    window = G.Window(g["window"])
    t_start = time.perf_counter()
    step = max(1, len(jobs) // 20)
    with _RunnerAffinity(cpu):
        while queue:
            job, attempt = queue.popleft()
            if need_quiet:
                waited, quiet, _ = G.wait_quiet(probe, g)
                stats["quiet_waits"] += 1
                stats["quiet_wait_seconds"] += waited
                stats["not_quiet"] += int(not quiet)
                window.clear()
            r = runner(bindir_of(job), iterations_of(job), job["env_bytes"], cpu, probe)
            stats["attempts"] += 1
            why = G.judge(r["interference"], r["wall_per_cpu"], g)
            why += window.add(r["interference"], g)
            for w in why:
                stats["reasons"]["window" if "over the last" in w else w.split(" ")[0]] += 1
            if why and not force and attempt < g["max_attempts"]:
                stats["discarded"] += 1
                queue.append((job, attempt + 1))
                need_quiet = True
                _log(log, f"{job['set']} build {job['binary']} execution {job['execution']} "
                          f"attempt {attempt} discarded: {'; '.join(why)}")
                continue
            need_quiet = False
            clean = not why
            if not clean:
                stats["unclean"] += 1
                if not force and stats["unclean"] > allowed:
                    _refuse(cfg, f"the machine was too busy to measure clean: {stats['unclean']} of "
                                 f"{len(jobs)} processes stayed above the interference thresholds "
                                 f"after {g['max_attempts']} attempts (at most {allowed} allowed, "
                                 f"{100 * g['max_unclean_fraction']:g} %); last: {'; '.join(why)}. "
                                 "No dataset was written")
            done.append({**job, **r, "attempt": attempt, "clean": clean})
            if len(done) % step == 0 or len(done) == len(jobs):
                el = time.perf_counter() - t_start
                _log(log, f"{len(done)}/{len(jobs)} processes, {el:.0f} s, about "
                          f"{el / len(done) * (len(jobs) - len(done)):.0f} s left, "
                          f"{stats['discarded']} discarded so far", echo=True)
    stats["reasons"] = dict(stats["reasons"])
    stats["forced"] = bool(cfg["force"])
    stats["cpu"] = cpu
    stats["thresholds"] = {k: g[k] for k in G.DEFAULTS}
    stats["tick_seconds"] = probe.tick
    return done, stats


def _rows(done: Sequence[dict], records: Mapping, order_base: int = 0) -> dict[str, list]:
    """Tidy rows (one per iteration) of accepted processes, in the order they ran."""
    cols: dict[str, list] = {k: [] for k in (
        "set", "binary", "execution", "iteration", "time", "cpu_time", "build_seed", "env_bytes",
        "order", "start", "wall", "load_before", "load_after", *GUARD_COLUMNS)}
    ran = sorted(done, key=lambda d: d["start"])
    # executions are numbered in the order they ran (a re-run one takes its new place)
    seen: dict[tuple[str, int], int] = {}
    for pos, r in enumerate(ran):
        key = (r["set"], r["binary"])
        seen[key] = seen.get(key, 0) + 1
        r = {**r, "execution": seen[key]}
        rec = records[r["set"]][r["binary"]]
        if r["units"] != rec["units_per_iteration"]:
            raise MeasureError(f"{r['set']} build {r['binary']}: did {r['units']} units "
                               f"per iteration, its build recorded {rec['units_per_iteration']}")
        i = r["interference"]
        n = len(r["times_ns"])
        per = {"set": r["set"], "binary": r["binary"], "execution": r["execution"],
               "build_seed": rec["seed"], "env_bytes": r["env_bytes"],
               "order": order_base + pos + 1, "start": r["start"], "wall": r["wall"],
               "load_before": r["load_before"], "load_after": r["load_after"],
               "attempt": r["attempt"], "cpu": -1 if r["cpu"] is None else r["cpu"],
               "process_wall": i.wall, "process_cpu": i.own_cpu,
               "runner_cpu": i.runner_cpu, "others_cpu": i.others_cpu,
               "others_share": i.others_share, "steal_share": i.steal_share,
               "wall_per_cpu": r["wall_per_cpu"], "clean": r["clean"]}
        for k, v in per.items():
            cols[k].extend([v] * n)
        cols["iteration"].extend(range(1, n + 1))
        cols["time"].extend(t / 1e9 for t in r["times_ns"])
        cols["cpu_time"].extend(c / 1e9 for c in r["cpu_ns"])
    return cols


def _manifest_records(manifests: Sequence[str | Path]) -> dict[str, dict[int, dict]]:
    records = {}
    for m in manifests:
        doc = json.loads(Path(m).read_text())
        records[doc["set"]] = {r["build"]: r for r in doc["builds"]}
    return records


def run_schedule(cfg: Mapping, manifests: Sequence[str | Path], design_path: str | Path,
                 out_parquet: str | Path, out_info: str | Path, log=None) -> None:
    """Run the whole randomised schedule under the guard; raw rows to ``out_parquet``."""
    import pandas as pd

    records = _manifest_records(manifests)
    design = json.loads(Path(design_path).read_text())["sets"]
    plan = schedule(cfg, {s: len(r) for s, r in records.items()},
                    {s: design[s]["executions"] for s in records})
    root = Path(cfg["build_dir"]) / "bin"
    refused_path(cfg).unlink(missing_ok=True)
    pf = Path(cfg["build_dir"]) / "preflight.json"
    info = {"started": _now(), "loadavg_before": list(os.getloadavg()),
            "processes": len(plan), "nice": cfg["nice"],
            # the preflight of the `measure.py make` that ran this step (none without it)
            "preflight": json.loads(pf.read_text()) if pf.exists() else None}
    t_start = time.perf_counter()
    with _Priority(cfg["nice"]):
        done, stats = run_guarded(
            cfg, plan, lambda j: root / j["set"] / f"b{j['binary']:03d}",
            lambda j: design[j["set"]]["iterations"], log)
    info.update({"finished": _now(), "loadavg_after": list(os.getloadavg()),
                 "wall_seconds": time.perf_counter() - t_start, "guard": stats})
    _write_parquet(out_parquet, pd.DataFrame(_rows(done, records)))
    _write_json(out_info, info)


# -- Google Benchmark and hyperfine ------------------------------------------------


def harness_commands(cfg: Mapping) -> dict:
    """The commands of the harness step (relative to ``build_dir/harness``)."""
    h = cfg["harness"]
    gb = ["./gbench", f"--benchmark_repetitions={h['gbench_repetitions']}"]
    if h["gbench_min_time"] is not None:
        gb.append(f"--benchmark_min_time={h['gbench_min_time']}")
    out = {}
    for side in ("old", "new"):
        out[f"gbench-{side}"] = [*gb, "--benchmark_format=json",
                                 "--benchmark_out=gbench.json"]
        hf = ["hyperfine", "-N", "--runs", str(h["hyperfine_runs"])]
        if h["hyperfine_warmup"]:
            hf += ["--warmup", str(h["hyperfine_warmup"])]
        hf += ["--export-json", "hyperfine.json"]
        for prog in HARNESS_PROGRAMS:
            hf += ["--command-name", prog, f"./{prog} {h['hyperfine_iterations']}"]
        out[f"hyperfine-{side}"] = hf
    return out


def run_harness(cfg: Mapping, outputs: Mapping[str, str | Path], info_path: str | Path,
                log=None) -> None:
    """Build the old and new harness binaries (plain layout, no padding) and run them.

    ``outputs`` maps ``gbench-old``, ``gbench-new``, ``hyperfine-old``,
    ``hyperfine-new`` to the JSON files to write.
    """
    h = cfg["harness"]
    root = Path(cfg["build_dir"]) / "harness"
    if root.exists():
        shutil.rmtree(root)
    copy_sources(root / "src", cxx=True)
    seed = input_seed(cfg)
    cmds = harness_commands(cfg)
    info: dict = {"started": _now(), "loadavg_before": list(os.getloadavg()), "builds": {},
                  "runs": {}}
    for side in ("old", "new"):
        permille = h[f"{side}_permille"]
        d = root / side
        d.mkdir()
        build: list[list[str]] = []
        objs: dict[str, list[str]] = {}
        for prog in HARNESS_PROGRAMS:
            flags = [cfg["cc"], *cfg["cflags"], f"-DBENCH={prog}",
                     f"-DEXTRA_PERMILLE={permille}", f"-DINPUT_SEED={seed}ULL", "-I../src"]
            objs[prog] = []
            for src in (*PROGRAMS[prog], "harness.c", "pad.c"):
                o = f"{prog}_{Path(src).stem}.o" if src in COMMON else Path(src).with_suffix(".o").name
                build.append([*flags, "-c", f"../src/{src}", "-o", o])
                objs[prog].append(o)
            build.append([cfg["cc"], "-o", prog, *objs[prog], "-lm"])
        build.append([cfg["cxx"], *cfg["cxxflags"], f"-DINPUT_SEED={seed}ULL", "-I../src",
                      "-c", "../src/gbench.cpp", "-o", "gbench.o"])
        lib = [o for prog in HARNESS_PROGRAMS for o in objs[prog]
               if not o.endswith(("_harness.o", "_pad.o"))]
        build.append([cfg["cxx"], "-o", "gbench", "gbench.o", *lib, "-lbenchmark",
                      "-lpthread", "-lm"])
        for c in build:
            _run_checked(c, d, f"harness {side}")
        for prog in HARNESS_PROGRAMS:
            units, _ = parse_count(_run_checked([f"./{prog}", "--count"], d, prog).stdout, prog)
            info.setdefault("units_per_iteration", {}).setdefault(side, {})[prog] = units
        info["builds"][side] = [shlex.join(c) for c in build]
    info["nice"] = cfg["nice"]
    for tool in ("gbench", "hyperfine"):
        for side in ("old", "new"):
            d = root / side
            _log(log, f"{tool} {side}")
            start = _now()
            with _Priority(cfg["nice"]):
                _run_checked(cmds[f"{tool}-{side}"], d, f"{tool} {side}")
            produced = d / f"{tool}.json"
            json.loads(produced.read_text())  # complete JSON, or the step fails here
            _atomic_copy(produced, outputs[f"{tool}-{side}"])
            info["runs"][f"{tool}-{side}"] = {
                "command": shlex.join(cmds[f"{tool}-{side}"]), "started": start,
                "finished": _now(), "cwd": f"harness/{side}",
                "file": _shown(outputs[f"{tool}-{side}"])}
    info.update({"finished": _now(), "loadavg_after": list(os.getloadavg())})
    _write_json(info_path, info)
