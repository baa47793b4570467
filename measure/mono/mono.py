"""Measuring the paper's benchmarks on Mono, in sessions (session > build > execution >
iteration). See measure/mono/README.md.

    python measure/mono/mono.py pilot CONFIG [--force]     # pilot and design (once)
    python measure/mono/mono.py plan CONFIG                # the design again from the pilot
    python measure/mono/mono.py session CONFIG [--force] [--families F,..]
                                                           # one more session, appended
    python measure/mono/mono.py collect CONFIG             # the dataset's files again
    python measure/mono/mono.py check-config CONFIG

Every step refuses a busy machine in one line (exit 2) unless ``--force``; a bad
configuration is one line naming the file, exit 2. Sessions are never rewritten:
``session`` adds ``sessions/sNN/`` beside the earlier ones and then collects.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import measure as M  # noqa: E402
import measure_guard as G  # noqa: E402
import measure_sizing as Z  # noqa: E402
import mono_build as B  # noqa: E402
from mono_collect import BUILDS_FILE, cmd_collect, out_dir, sessions_done, write_builds  # noqa: E402

SEED_KEYS = {"input": 0, "build": 1, "schedule": 2, "environment": 3, "pilot": 4,
             "build_order": 5}
SEED_DERIVATION = ("numpy SeedSequence(master_seed, spawn_key=K): K=(0,) input, K=(1, first "
                   "4 bytes of sha256(set) big-endian, session, build) a build, K=(2, "
                   "session) the process order, K=(3, session) the environment sizes, K=(5, "
                   "session) the build order, K=(4, ...) the pilot")
ENV_VAR = "ESIZE_ENV_PAD"

DEFAULTS = {
    "out_dir": "data",
    "build_dir": "measure/build-mono",
    "mono": "mono",
    "mcs": "mcs",
    "mcs_flags": ["-nologo", "-optimize+", "-warn:0"],
    "opt_flags": ["-O=all"],
    "variants": {},
    "layout": {"pad_methods_max": 64, "pad_statements_max": 200, "data_pad_max": 1 << 20},
    "env_pad_max": 4096,
    "nice": None,
    "warmup_fraction": 0.3,
    "drop_caches": True,
    # benchmarks whose processes wait by design (HTTP's first request, its keep-alive
    # timers): their wall / CPU ratio is recorded but not judged by the guard
    "wall_exempt": [],
    "design": {
        "pilot": {"builds": 4, "executions": 3, "iterations": 20},
        "pilot_plain": [],            # benchmarks also piloted with plain builds
        "targets_pct": {}, "default_target_pct": 2.0,
        "budget_minutes": 10.0,       # one session's builds and processes
        "min": {"builds": 4, "executions": 3, "iterations": 12},
        "max": {"builds": 30, "executions": 30, "iterations": 400},
    },
    "guard": {**G.DEFAULTS},
}


class Problem(ValueError):
    """A bad configuration value: ``key: message``."""


def check_config(raw: Mapping) -> dict:
    """The configuration with defaults; :class:`Problem` when a value is wrong."""
    if not isinstance(raw, Mapping) or not raw:
        raise Problem("no configuration")
    known = set(DEFAULTS) | {"name", "master_seed", "benchmarks"}
    for k in raw:
        if k not in known:
            raise Problem(f"{k}: unknown key (known: {', '.join(sorted(known))})")
    cfg = json.loads(json.dumps(DEFAULTS))
    for k, v in raw.items():
        if isinstance(v, Mapping) and isinstance(cfg.get(k), dict) and k != "variants":
            bad = sorted(set(v) - set(cfg[k]))
            if bad:
                raise Problem(f"{k}.{bad[0]}: unknown key (known: {', '.join(sorted(cfg[k]))})")
            cfg[k].update(v)
        else:
            cfg[k] = v
    if not isinstance(cfg.get("name"), str) or not M.re.fullmatch(r"[a-z0-9][a-z0-9_-]*", cfg["name"]):
        raise Problem(f"name: must be a lower-case directory name (letters, digits, - and _), not "
                      f"{cfg.get('name')!r}")
    M._int(cfg, "master_seed", 0)
    benches = cfg.get("benchmarks")
    if not isinstance(benches, list) or not benches or not set(benches) <= set(B.BENCHMARKS) \
            or len(set(benches)) != len(benches):
        raise Problem(f"benchmarks: must be a list of distinct names from "
                      f"{', '.join(B.BENCHMARKS)}, not {benches!r}")
    for b, ps in (cfg["variants"] or {}).items():
        if b not in benches or b not in B.VARIANT_CAPABLE:
            raise Problem(f"variants.{b}: known effects need one of the listed benchmarks "
                          f"among {', '.join(B.VARIANT_CAPABLE)}")
        if not isinstance(ps, list) or not ps or any(
                isinstance(p, bool) or not isinstance(p, int) or p % 10 or not 0 <= p <= 1000
                for p in ps):
            raise Problem(f"variants.{b}: must list extra work in permille: 0, 10, 20 ... 1000")
    d = cfg["design"]
    for part in ("pilot", "min", "max"):
        for k, lo in (("builds", 2), ("executions", 1), ("iterations", 2)):
            M._int(d[part], k, lo, 100_000, f"design.{part}")
    for b in list(d["pilot_plain"]) + list(cfg["wall_exempt"]):
        if b not in benches:
            raise Problem(f"design.pilot_plain, wall_exempt: {b!r} is not a listed benchmark")
    bm = d["budget_minutes"]
    if isinstance(bm, bool) or not isinstance(bm, (int, float)) or not 0 < bm <= 120:
        raise Problem(f"design.budget_minutes: must be minutes in (0, 120], not {bm!r}")
    for k in ("pad_methods_max", "pad_statements_max", "data_pad_max"):
        M._int(cfg["layout"], k, 0 if k != "pad_statements_max" else 1, 1 << 26, "layout")
    M._int(cfg, "env_pad_max", 0, 100_000)
    if cfg["nice"] is not None:
        M._int(cfg, "nice", -20, 19)
    wf = cfg["warmup_fraction"]
    if isinstance(wf, bool) or not isinstance(wf, (int, float)) or not 0 <= wf < 1:
        raise Problem(f"warmup_fraction: must be a number in [0, 1), not {wf!r}")
    cfg["force"] = False
    cfg["mono_path"] = shutil.which(cfg["mono"]) or ""
    M._check_guard(cfg)
    return cfg


def load(path: str) -> dict:
    """Read and check a configuration file; :class:`Problem` names the file."""
    try:
        return check_config(M.load_config_files([path]))
    except (Problem, M.ConfigProblem) as exc:
        msg = str(exc)
        raise Problem(msg if msg.startswith(path) else f"{path}: {msg}") from None


# -- seeds ------------------------------------------------------------------------


def input_seed(cfg: Mapping) -> int:
    return M.derive_seed(cfg["master_seed"], SEED_KEYS["input"], bits=64)


def build_seed(cfg: Mapping, session: int, set_: str, build: int) -> int:
    """A build's seed: key (build, hash of the set's name, session, build number)."""
    return M.derive_seed(cfg["master_seed"], SEED_KEYS["build"], M._name_key(set_), session,
                         build)


def _rng(cfg: Mapping, *key: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(M.derive_seed(cfg["master_seed"], *key, bits=64)))


# -- running one process ------------------------------------------------------------


def run_process(cfg: Mapping, bindir: Path, opt: bool, two_process: bool, iterations: int,
                env_bytes: int, cpu: int | None, probe: G.Probe) -> dict:
    """One execution of a build under the guard's counters (as measure.run_process).

    For the two-process benchmarks the CPU time the program prints per iteration is
    the pair's (the client's own and the server's, which the server sends with every
    reply), so the wall / CPU check means the same for every benchmark.
    """
    env = {ENV_VAR: "x" * env_bytes}
    load_before = os.getloadavg()[0]
    start = time.time()
    self0, own0, s0 = probe.self_cpu(), probe.children_cpu(), probe.stat()
    t0 = time.perf_counter()
    try:
        p = subprocess.run(B.run_command(cfg, opt, iterations), cwd=bindir, env=env,
                           capture_output=True, text=True, preexec_fn=M._pin(cpu), timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        raise M.MeasureError(f"{bindir}: cannot run: {exc}") from None
    wall = time.perf_counter() - t0
    s1, own1, self1 = probe.stat(), probe.children_cpu(), probe.self_cpu()
    load_after = os.getloadavg()[0]
    if p.returncode != 0:
        raise M.MeasureError(f"{bindir}: exit status {p.returncode}: {' '.join(p.stderr.split())[:300]}")
    times, cpu_ns, units = M.parse_times(p.stdout, iterations, str(bindir))
    inter = G.interference(s0, s1, own1 - own0, wall, probe.tick, runner_cpu=self1 - self0)
    ratio = sum(times) / max(1, sum(cpu_ns))
    return {"times_ns": times, "cpu_ns": cpu_ns, "units": units, "start": start, "wall": wall,
            "load_before": load_before, "load_after": load_after, "interference": inter,
            "wall_per_cpu": ratio, "cpu": cpu}


def _guarded(cfg, jobs, dirs: Mapping, infos: Mapping, iterations_of, log):
    """:func:`measure.run_guarded` with the Mono runner."""
    def runner(bindir, n, env_bytes, cpu, probe):
        info = infos[bindir]
        r = run_process(cfg, bindir, info["opt"], info["benchmark"] in B.TWO_PROCESS, n,
                        env_bytes, cpu, probe)
        if info["benchmark"] in cfg["wall_exempt"]:
            r["wall_per_cpu"] = 1.0  # not judged; the rows get the measured ratio back
        return r

    with M._Priority(cfg["nice"]):
        return M.run_guarded(cfg, jobs, lambda j: dirs[(j["set"], j["binary"])],
                             iterations_of, log, runner=runner)


def _schedule(cfg, units: Sequence[tuple[str, int]], executions: Mapping[str, int],
              key: tuple[int, ...]) -> list[dict]:
    """All processes of ``units`` (set, build) in one random order, with env pads."""
    slots = [u for u in units for _ in range(executions[u[0]])]
    order = _rng(cfg, SEED_KEYS["schedule"], *key).permutation(len(slots))
    pads = _rng(cfg, SEED_KEYS["environment"], *key).integers(0, cfg["env_pad_max"] + 1,
                                                             size=len(slots))
    seen: dict = {}
    out = []
    for pos, i in enumerate(order):
        s, b = slots[i]
        seen[(s, b)] = seen.get((s, b), 0) + 1
        out.append({"order": pos + 1, "set": s, "binary": b, "execution": seen[(s, b)],
                    "env_bytes": int(pads[pos])})
    return out


def _with_wall_ratio(frame):
    """The ``wall_per_cpu`` column as measured (sum of the iteration times over the sum
    of their CPU times, per process), also for benchmarks exempt from its judgement."""
    key = ["set", "binary", "execution"]
    sums = frame.groupby(key, sort=False)[["time", "cpu_time"]].transform("sum")
    frame["wall_per_cpu"] = sums["time"] / sums["cpu_time"]
    return frame


def _preflight(cfg: Mapping, force: bool) -> dict:
    pre = G.preflight(G.Probe(), cfg["guard"], own=G.own_ancestors())
    if pre["busy"] and not force:
        raise M.MeasureError("REFUSED " + G.preflight_line(pre))
    return {**pre, "forced": force, "at": M._now()}


def drop_caches() -> bool:
    """Drop the page cache (root only); whether it worked."""
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def speed_probe() -> dict:
    """The host's speed now: ns per normal draw of numpy (best of 5 x 2e6) and a
    fixed Mono-free integer loop in Python (best of 5), for the record."""
    rng = np.random.default_rng(0)
    best = min(_timed(lambda: rng.standard_normal(2_000_000)) for _ in range(5))
    loop = min(_timed(lambda: sum(range(1_000_000))) for _ in range(5))
    return {"numpy_normal_ns": best / 2e6 * 1e9, "python_sum_1e6_ms": loop * 1e3}


def _timed(f) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


# -- the pilot and the design ----------------------------------------------------------


def cmd_pilot(cfg: dict, force: bool, log) -> dict:
    """Pilot builds of every paper variant (and plain builds of ``pilot_plain``), run in
    one random order under the guard; the estimates and the design per session."""
    pc = cfg["design"]["pilot"]
    root = Path(cfg["build_dir"]) / "pilot"
    shutil.rmtree(root, ignore_errors=True)
    pre = _preflight(cfg, force)
    cfg["force"] = force
    paper = {s: i for s, i in B.sets(cfg).items() if i["permille"] == 0 and i["family"] == s}
    groups = {s: (i, True) for s, i in paper.items()}
    groups.update({f"{b}-plain": (paper[b], False) for b in cfg["design"]["pilot_plain"]})
    dirs, infos, records = {}, {}, {}
    for g, (info, rand) in groups.items():
        for b in range(1, pc["builds"] + 1):
            d = root / g / f"b{b:03d}"
            seed = M.derive_seed(cfg["master_seed"], SEED_KEYS["pilot"], M._name_key(g), b)
            records[(g, b)] = B.build_one(cfg, info, seed, d, input_seed(cfg), randomise=rand)
            dirs[(g, b)], infos[d] = d, info
        M._log(log, f"pilot {g}: {pc['builds']} builds", echo=True)
    jobs = _schedule(cfg, list(dirs), {g: pc["executions"] for g in groups}, (SEED_KEYS["pilot"],))
    started = M._now()
    done, stats = _guarded(cfg, jobs, dirs, infos, lambda j: pc["iterations"], log)
    out = {"started": started, "finished": M._now(), "design": dict(pc), "preflight": pre,
           "guard": stats, "warmup_fraction": cfg["warmup_fraction"], "groups": {}}
    for g in groups:
        mine = sorted((d for d in done if d["set"] == g), key=lambda d: (d["binary"], d["execution"]))
        times = np.array([d["times_ns"] for d in mine], float).reshape(
            pc["builds"], pc["executions"], pc["iterations"]) / 1e9
        over = [d["wall"] - sum(d["times_ns"]) / 1e9 for d in mine]
        bsec = [records[(g, b)]["build_seconds"] for b in range(1, pc["builds"] + 1)]
        est = Z.pilot_estimates(times, over, bsec, cfg["warmup_fraction"])
        est["process_seconds"] = float(np.mean([d["wall"] for d in mine]))
        est["randomised"] = groups[g][1]
        est["times"] = times.tolist()
        out["groups"][g] = est
    design = make_design(cfg, out)
    out["plan"] = design
    return out


def make_design(cfg: Mapping, pilot: Mapping) -> dict:
    """One session's design per family, from the pilot and esize's plan (measure_sizing)."""
    d = cfg["design"]
    all_sets = B.sets(cfg)
    fams = sorted({i["family"] for i in all_sets.values()})
    per = {f: sum(1 for i in all_sets.values() if i["family"] == f) for f in fams}
    targets = {f: float(d["targets_pct"].get(f, d["default_target_pct"])) for f in fams}
    est = {f: pilot["groups"][f] for f in fams}
    sized = Z.size_all(est, targets, per, cfg["warmup_fraction"], d["min"], d["max"],
                       60.0 * d["budget_minutes"])
    sized["sets"] = {s: dict(sized["programs"][i["family"]]["design"]) for s, i in all_sets.items()}
    sized["rule"] = ("per session: the smallest budget whose predicted ratio half-width "
                     "(sqrt(2) x esize dimension's half-width of one mean, with 80 % upper "
                     "bounds of the pilot's variances) meets the family's target; clipped to "
                     "design.min..max; scaled down together to budget_minutes")
    return sized


# -- a session ---------------------------------------------------------------------------


def session_sets(cfg: Mapping, families: Sequence[str] | None) -> dict[str, dict]:
    """The sets a session measures: every set, or only those of ``families`` (a base
    set and its known-effect variants share the family of the base's name)."""
    all_sets = B.sets(cfg)
    if not families:
        return all_sets
    known = sorted({i["family"] for i in all_sets.values()})
    bad = [f for f in families if f not in known]
    if bad:
        raise M.MeasureError(f"--families: {bad[0]!r} is not a family of this "
                             f"configuration (known: {', '.join(known)})")
    return {s: i for s, i in all_sets.items() if i["family"] in families}


def cmd_session(cfg: dict, force: bool, log, families: Sequence[str] | None = None) -> int:
    """Measure one more session of every set (or of ``families``' sets only) and
    append it; the session's number."""
    import pandas as pd

    design_path = out_dir(cfg) / "design.json"
    if not design_path.exists():
        raise M.MeasureError(f"{design_path}: no design yet: run `mono.py pilot` first")
    design = json.loads(design_path.read_text())["sets"]
    session = (sessions_done(cfg) or [0])[-1] + 1
    sdir = out_dir(cfg) / "sessions" / f"s{session:02d}"
    if sdir.exists():
        raise M.MeasureError(f"{sdir}: exists without its session.json (an interrupted "
                             "session): remove it, then measure again")
    cfg["force"] = force
    dropped = drop_caches()
    pre = _preflight(cfg, force)
    speed_before = speed_probe()
    all_sets = session_sets(cfg, families)
    root = Path(cfg["build_dir"]) / f"s{session:02d}"
    shutil.rmtree(root, ignore_errors=True)
    units = [(s, b) for s in all_sets for b in range(1, design[s]["builds"] + 1)]
    order = _rng(cfg, SEED_KEYS["build_order"], session).permutation(len(units))
    records: dict[str, dict[int, dict]] = {s: {} for s in all_sets}
    dirs, infos = {}, {}
    built0 = M._now()
    for pos, i in enumerate(order, start=1):
        s, b = units[i]
        d = root / s / f"b{b:03d}"
        rec = B.build_one(cfg, all_sets[s], build_seed(cfg, session, s, b), d, input_seed(cfg))
        records[s][b] = {**rec, "set": s, "session": session, "build": b, "build_position": pos}
        dirs[(s, b)], infos[d] = d, all_sets[s]
    built1 = M._now()
    for s, recs in records.items():
        if len({(r["units_per_iteration"], r["checksum_one_iteration"]) for r in recs.values()}) != 1:
            raise M.MeasureError(f"{s}: builds of session {session} differ in their work")
    M._log(log, f"session {session}: {len(units)} builds ({built0} to {built1})", echo=True)
    jobs = _schedule(cfg, units, {s: design[s]["executions"] for s in all_sets}, (session,))
    info = {"session": session, "sets": list(all_sets), "started": M._now(),
            "loadavg_before": list(os.getloadavg())}
    t0 = time.perf_counter()
    done, stats = _guarded(cfg, jobs, dirs, infos, lambda j: design[j["set"]]["iterations"], log)
    info.update({"finished": M._now(), "loadavg_after": list(os.getloadavg()),
                 "wall_seconds": time.perf_counter() - t0, "guard": stats,
                 "preflight": pre, "page_cache_dropped": dropped,
                 "speed_before": speed_before, "speed_after": speed_probe(),
                 "builds_started": built0, "builds_finished": built1,
                 "design": {s: design[s] for s in all_sets}})
    frame = _with_wall_ratio(pd.DataFrame(M._rows(done, records)))
    frame.insert(0, "session", session)
    sdir.mkdir(parents=True)
    for s in all_sets:
        part = frame[frame["set"] == s].drop(columns=["set"]).reset_index(drop=True)
        M._write_parquet(sdir / f"{s}.parquet", part)
    write_builds(sdir / BUILDS_FILE, {"session": session, "builds": [
        records[s][b] for s in all_sets for b in sorted(records[s])]})
    M._write_json(sdir / "session.json", info)  # last: marks the session complete
    shutil.rmtree(root, ignore_errors=True)
    return session


def collect(cfg: Mapping) -> Path:
    """:func:`mono_collect.cmd_collect` with this module's seeds."""
    return cmd_collect(cfg, input_seed(cfg), SEED_DERIVATION)


# -- command line ------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="mono.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=["pilot", "plan", "session", "collect", "check-config"])
    ap.add_argument("config")
    ap.add_argument("--force", action="store_true", help="measure even on a busy machine")
    ap.add_argument("--families", default="", metavar="F,..",
                    help="session: measure only these families' sets (e.g. fftna,rijndael: "
                         "each base set and its known-effect variants)")
    a = ap.parse_args(argv)
    try:
        cfg = load(a.config)
    except Problem as exc:
        print(f"esize: error: {exc}", file=sys.stderr)
        return 2
    if a.step == "check-config":
        return 0
    if not cfg["mono_path"] or shutil.which(cfg["mcs"]) is None:
        print(f"esize: error: {a.config}: needs {cfg['mono']} and {cfg['mcs']} "
              "(Debian: apt-get install mono-runtime mono-mcs)", file=sys.stderr)
        return 2
    log_dir = Path(cfg["build_dir"]) / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    log = str(log_dir / f"{a.step}.log")
    try:
        if a.step == "pilot":
            pilot = cmd_pilot(cfg, a.force, log)
            out_dir(cfg).mkdir(parents=True, exist_ok=True)
            M._write_json(out_dir(cfg) / "pilot.json", pilot)
            M._write_json(out_dir(cfg) / "design.json", pilot["plan"])
            print(f"measure: pilot done: {out_dir(cfg)}/design.json", file=sys.stderr)
        elif a.step == "plan":
            if sessions_done(cfg):
                raise M.MeasureError(f"{out_dir(cfg)}: sessions were measured with the "
                                     "design there; a new design needs a new dataset")
            pilot = json.loads((out_dir(cfg) / "pilot.json").read_text())
            pilot["plan"] = make_design(cfg, pilot)
            M._write_json(out_dir(cfg) / "pilot.json", pilot)
            M._write_json(out_dir(cfg) / "design.json", pilot["plan"])
            print(f"measure: planned: {out_dir(cfg)}/design.json", file=sys.stderr)
        elif a.step == "session":
            families = [f for f in a.families.split(",") if f] or None
            try:
                session_sets(cfg, families)
            except M.MeasureError as exc:
                print(f"esize: error: {exc}", file=sys.stderr)
                return 2
            k = cmd_session(cfg, a.force, log, families)
            collect(cfg)
            print(f"measure: session {k} done: {out_dir(cfg)}", file=sys.stderr)
        else:
            print(f"measure: collected {collect(cfg)}", file=sys.stderr)
    except (M.MeasureError, B.BuildError) as exc:
        msg = str(exc).removeprefix("REFUSED ")
        print(f"esize: error: {msg}", file=sys.stderr)
        return 2 if str(exc).startswith("REFUSED") or "too busy" in msg else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
