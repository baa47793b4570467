"""Measuring a real three-level dataset (binary > execution > iteration).

Driven by ``measure/Snakefile`` (``make measure``, ``make measure-tiny``); the steps
are plain functions so that the tests can call them too:

``build_sets``
    builds the randomised binaries of every *set* (a benchmark, or one of its
    known-effect variants), in one random order across the sets (so that nothing
    that changes while the machine builds lines up with a set). Every build takes a
    seed derived from the master seed;
    the seed alone fixes the build's layout: the link order of the program's object
    files, ``-falign-functions`` and the sizes of a code pad and a data pad
    (:func:`layout_plan`). Compile and link commands use relative paths only, so
    the same seed gives byte-identical binaries in any directory.
``run_schedule``
    runs every binary as several processes, in one random order across all binaries
    and sets, each process with an environment of random size (one dummy variable);
    records the times each process prints (one per iteration), the start time, the
    process's wall time and the load average before and after it.
``run_harness``
    the README's Google Benchmark and hyperfine examples: real runs of the FFT and
    cipher programs, baseline against a known slowdown.
``collect``
    the tidy Parquet files (one per set), ``builds.json``, ``costs.json``,
    ``provenance.json`` and ``PROVENANCE.md``.

Seeds: every random draw comes from ``numpy.random.SeedSequence(master_seed,
spawn_key=...)`` with a fixed key per purpose (:data:`SEED_KEYS`); a build's key
also holds a hash of its set's name and its number, so adding a set or a build
leaves the others' seeds unchanged.

Command line (also used by the Makefile)::

    python measure/measure.py check-config FILE [FILE ...]
    python measure/measure.py plan --config FILE SET BUILD     # seed, flags, link order
    python measure/measure.py rebuild --config FILE SET BUILD DIR

A bad configuration ends with one line naming the file, exit status 2.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import math
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import measure_guard as G  # noqa: E402
import measure_sizing as Z  # noqa: E402
from measure_sizing import warmup_count  # noqa: E402

#: The programs: their own sources (besides ``harness.c`` and ``pad.c``).
PROGRAMS: dict[str, tuple[str, ...]] = {
    "fft": ("fft_main.c", "fft_core.c", "fft_bitrev.c", "fft_twiddle.c"),
    "cipher": ("cipher_main.c", "cipher_xtea.c", "cipher_key.c", "cipher_buffer.c"),
    "hashtable": ("hashtable_main.c", "hashtable_table.c", "hashtable_hash.c",
                  "hashtable_keys.c"),
    "interp": ("interp_main.c", "interp_vm.c", "interp_ops.c", "interp_asm.c"),
}
HEADERS: dict[str, tuple[str, ...]] = {
    "fft": ("fft.h",), "cipher": ("cipher.h",), "hashtable": ("hashtable.h",),
    "interp": ("interp.h",),
}
COMMON = ("harness.c", "pad.c")
#: Programs whose work is a whole multiple of a round count (``EXTRA_PERMILLE``).
VARIANT_CAPABLE = ("fft", "cipher")
#: What the Google Benchmark and hyperfine examples run.
HARNESS_PROGRAMS = ("fft", "cipher")
#: ``SeedSequence`` spawn keys, one per purpose.
SEED_KEYS = {"input": 0, "build": 1, "schedule": 2, "environment": 3, "pilot": 4,
             "build_order": 5, "recheck": 6}
ENV_VAR = "ESIZE_ENV_PAD"
BINARY = "bench"

DEFAULTS = {
    "out_dir": "data",
    "build_dir": "measure/build",
    "harness_dir": "tests/data/harness",
    "cc": "gcc",
    "cxx": "g++",
    "cflags": ["-O2", "-std=c11"],
    "cxxflags": ["-O2", "-std=c++17"],
    "variants": {},
    "layout": {"align_functions": [1, 2, 4, 8, 16, 32, 64], "text_pad_max": 4096,
               "data_pad_max": 4096},
    "env_pad_max": 4096,
    "nice": None,
    "warmup_fraction": 0.3,
    "design": {
        "mode": "plan",         # plan: a pilot, then esize's plan; fixed: builds/executions/iterations
        "pilot": {"builds": 10, "executions": 4, "iterations": 20},
        "targets_pct": {},      # per program: 95 % half-width of a ratio of two versions
        "default_target_pct": 1.0,
        "budget_minutes": 30.0,  # all builds and processes of the dataset (not the pilot)
        "min": {"builds": 10, "executions": 4, "iterations": 12},
        "max": {"builds": 300, "executions": 60, "iterations": 400},
    },
    "guard": dict(G.DEFAULTS),
    "force": False,
    "harness": {"enabled": True, "old_permille": 0, "new_permille": 30,
                "gbench_repetitions": 10, "gbench_min_time": None,
                "hyperfine_runs": 20, "hyperfine_warmup": 0, "hyperfine_iterations": 10},
}


class ConfigProblem(ValueError):
    """One bad value of the measuring configuration: ``key: message``."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(f"{key}: {message}" if key else message)


class MeasureError(RuntimeError):
    """A step failed (a compiler error, a program that printed the wrong thing)."""


# -- configuration -----------------------------------------------------------------


def _int(cfg, key, lo, hi=None, where=None):
    v = cfg.get(key)
    name = f"{where}.{key}" if where else key
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        rng = f"from {lo} to {hi}" if hi is not None else f">= {lo}"
        raise ConfigProblem(name, f"must be an integer {rng}, not {v!r}")
    return v


def check_config(raw: Mapping | None) -> dict:
    """The configuration with defaults filled in; :class:`ConfigProblem` if bad."""
    if not raw:
        raise ConfigProblem("", "no configuration (pass --configfile measure/config.yaml)")
    if not isinstance(raw, Mapping):
        raise ConfigProblem("", "must be a mapping of keys to values")
    known = set(DEFAULTS) | {"name", "master_seed", "builds", "executions", "iterations",
                             "benchmarks"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ConfigProblem(unknown[0], f"unknown key (known: {', '.join(sorted(known))})")
    cfg = json.loads(json.dumps(DEFAULTS))
    for k, v in raw.items():
        if isinstance(v, Mapping) and isinstance(cfg.get(k), dict) and k != "variants":
            sub_unknown = sorted(set(v) - set(cfg[k]))
            if sub_unknown:
                raise ConfigProblem(f"{k}.{sub_unknown[0]}",
                                    f"unknown key (known: {', '.join(sorted(cfg[k]))})")
            cfg[k].update(v)
        else:
            cfg[k] = v
    name = cfg.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        raise ConfigProblem("name", f"must be a lower-case directory name, not {name!r}")
    _int(cfg, "master_seed", 0)
    for k, lo, hi in (("builds", 2, None), ("executions", 1, None), ("iterations", 1, 1_000_000)):
        if k in cfg:
            _int(cfg, k, lo, hi)
    _check_design(cfg)
    _check_guard(cfg)
    if not isinstance(cfg["force"], bool):
        raise ConfigProblem("force", "must be true or false")
    _int(cfg, "env_pad_max", 0, 100_000)
    if cfg["nice"] is not None:
        _int(cfg, "nice", -20, 19)
    for k in ("out_dir", "build_dir", "harness_dir", "cc", "cxx"):
        if not isinstance(cfg[k], str) or not cfg[k]:
            raise ConfigProblem(k, f"must be a non-empty string, not {cfg[k]!r}")
    for k in ("cflags", "cxxflags"):
        if not isinstance(cfg[k], list) or not all(isinstance(x, str) for x in cfg[k]):
            raise ConfigProblem(k, "must be a list of strings")
    wf = cfg["warmup_fraction"]
    if isinstance(wf, bool) or not isinstance(wf, (int, float)) or not 0 <= wf < 1:
        raise ConfigProblem("warmup_fraction", f"must be a number in [0, 1), not {wf!r}")
    benches = cfg.get("benchmarks")
    if not isinstance(benches, list) or not benches:
        raise ConfigProblem("benchmarks", f"must be a non-empty list of {', '.join(PROGRAMS)}")
    for b in benches:
        if b not in PROGRAMS:
            raise ConfigProblem("benchmarks", f"unknown program {b!r} (known: {', '.join(PROGRAMS)})")
    if len(set(benches)) != len(benches):
        raise ConfigProblem("benchmarks", "lists a program twice")
    variants = cfg["variants"] or {}
    if not isinstance(variants, Mapping):
        raise ConfigProblem("variants", "must map a program to a list of permille values")
    for b, ps in variants.items():
        if b not in benches:
            raise ConfigProblem(f"variants.{b}", "is not one of the listed benchmarks")
        if b not in VARIANT_CAPABLE:
            raise ConfigProblem(f"variants.{b}", f"only {', '.join(VARIANT_CAPABLE)} have "
                                                 "known-effect variants")
        if not isinstance(ps, list) or not ps:
            raise ConfigProblem(f"variants.{b}", "must be a non-empty list of permille values")
        for p in ps:
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 1000 or p % 10:
                raise ConfigProblem(f"variants.{b}",
                                    f"{p!r}: extra work in permille must be 0, 10, 20, ... 1000")
        if len(set(ps)) != len(ps):
            raise ConfigProblem(f"variants.{b}", "lists a value twice")
    cfg["variants"] = {b: list(ps) for b, ps in variants.items()}
    lay = cfg["layout"]
    al = lay["align_functions"]
    if (not isinstance(al, list) or not al
            or not all(isinstance(a, int) and not isinstance(a, bool) and 1 <= a <= 4096
                       and a & (a - 1) == 0 for a in al)):
        raise ConfigProblem("layout.align_functions", "must be a list of powers of two, 1 .. 4096")
    _int(lay, "text_pad_max", 0, 1 << 20, "layout")
    _int(lay, "data_pad_max", 0, 1 << 20, "layout")
    h = cfg["harness"]
    if not isinstance(h["enabled"], bool):
        raise ConfigProblem("harness.enabled", "must be true or false")
    for k in ("old_permille", "new_permille"):
        p = _int(h, k, 0, 1000, "harness")
        if p % 10:
            raise ConfigProblem(f"harness.{k}", "must be a multiple of 10")
    _int(h, "gbench_repetitions", 1, where="harness")
    _int(h, "hyperfine_runs", 2, where="harness")
    _int(h, "hyperfine_warmup", 0, where="harness")
    _int(h, "hyperfine_iterations", 1, 1_000_000, "harness")
    mt = h["gbench_min_time"]
    if mt is not None and (isinstance(mt, bool) or not isinstance(mt, (int, float)) or mt <= 0):
        raise ConfigProblem("harness.gbench_min_time", "must be a positive number of seconds or null")
    return cfg


def _check_design(cfg: dict) -> None:
    d = cfg["design"]
    if d["mode"] not in ("plan", "fixed"):
        raise ConfigProblem("design.mode", f"must be plan or fixed, not {d['mode']!r}")
    if d["mode"] == "fixed":
        missing = [k for k in ("builds", "executions", "iterations") if k not in cfg]
        if missing:
            raise ConfigProblem(missing[0], "is needed with design.mode: fixed")
    for part, lo in (("pilot", 2), ("min", 2), ("max", 2)):
        sub = d[part]
        if not isinstance(sub, Mapping) or set(sub) != {"builds", "executions", "iterations"}:
            raise ConfigProblem(f"design.{part}", "must give builds, executions and iterations")
        _int(sub, "builds", lo, where=f"design.{part}")
        _int(sub, "executions", 2 if part == "pilot" else 1, where=f"design.{part}")
        _int(sub, "iterations", 2, 1_000_000, where=f"design.{part}")
    for k in ("builds", "executions", "iterations"):
        if d["min"][k] > d["max"][k]:
            raise ConfigProblem(f"design.min.{k}", "is above design.max")
    bm = d["budget_minutes"]
    if isinstance(bm, bool) or not isinstance(bm, (int, float)) or not 0 < bm <= 24 * 60:
        raise ConfigProblem("design.budget_minutes", f"must be minutes in (0, 1440], not {bm!r}")
    tg = d["targets_pct"] or {}
    if not isinstance(tg, Mapping):
        raise ConfigProblem("design.targets_pct", "must map a program to a percentage")
    for b, v in {**tg, "default": d["default_target_pct"]}.items():
        if b != "default" and b not in cfg["benchmarks"]:
            raise ConfigProblem(f"design.targets_pct.{b}", "is not one of the listed benchmarks")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < 100:
            raise ConfigProblem(f"design.targets_pct.{b}", f"must be a percentage in (0, 100), not {v!r}")
    d["targets_pct"] = dict(tg)


def _check_guard(cfg: dict) -> None:
    g = cfg["guard"]
    if not isinstance(g["enabled"], bool):
        raise ConfigProblem("guard.enabled", "must be true or false")
    cpu = g["cpu"]
    if not (cpu in ("last", "none", None) or (isinstance(cpu, int) and not isinstance(cpu, bool)
                                               and cpu >= 0)):
        raise ConfigProblem("guard.cpu", f"must be last, none or a CPU number, not {cpu!r}")
    for k in ("others_share", "steal_share", "quiet_share", "preflight_share",
              "max_unclean_fraction"):
        v = g[k]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:
            raise ConfigProblem(f"guard.{k}", f"must be a share in [0, 1], not {v!r}")
    for k in ("quiet_window", "quiet_wait_max", "preflight_seconds", "window"):
        v = g[k]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 3600:
            raise ConfigProblem(f"guard.{k}", f"must be seconds in (0, 3600], not {v!r}")
    v = g["wall_per_cpu"]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 1:
        raise ConfigProblem("guard.wall_per_cpu", f"must be a number >= 1, not {v!r}")
    _int(g, "resolution_ticks", 0, 100, "guard")
    _int(g, "max_attempts", 1, 100, "guard")


def load_config_files(paths: Sequence[str | Path]) -> dict:
    """Read and merge YAML files (later ones on top); :class:`ConfigProblem` names the file."""
    import yaml

    merged: dict = {}
    for p in paths:
        try:
            text = Path(p).read_text(encoding="utf-8")
            data = yaml.safe_load(text) or {}
        except OSError as exc:
            raise ConfigProblem("", f"{p}: cannot read: {exc.strerror or exc}") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = f":{mark.line + 1}" if mark is not None else ""
            what = getattr(exc, "problem", None) or "not valid YAML"
            raise ConfigProblem("", f"{p}{line}: {what}") from None
        if not isinstance(data, dict):
            raise ConfigProblem("", f"{p}: must be a mapping of keys to values")
        for k, v in data.items():
            if isinstance(v, dict) and isinstance(merged.get(k), dict):
                merged[k] = {**merged[k], **v}
            else:
                merged[k] = v
    return merged


def config_or_exit(raw: Mapping, sources: Sequence[str | Path]) -> dict:
    """:func:`check_config` for the Snakefile: one line naming the file, exit 2."""
    try:
        return check_config(raw)
    except ConfigProblem as exc:
        where = ", ".join(_shown(s) for s in sources) or "configuration"
        print(f"esize: error: {where}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _shown(path: str | Path) -> str:
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return p.name


# -- sets, seeds and layout --------------------------------------------------------


def set_name(benchmark: str, permille: int | None) -> str:
    """``fft`` for the baseline, ``fft-plus3`` for the variant with 30 permille extra work."""
    return benchmark if permille is None else f"{benchmark}-plus{permille // 10}"


def sets(cfg: Mapping) -> dict[str, dict]:
    """``{set name: {"benchmark", "permille", "variant"}}``, baselines first."""
    out = {b: {"benchmark": b, "permille": 0, "variant": "baseline"} for b in cfg["benchmarks"]}
    for b, ps in cfg["variants"].items():
        for p in ps:
            out[set_name(b, p)] = {"benchmark": b, "permille": p, "variant": f"plus{p // 10}"}
    return out


def _name_key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big")


def derive_seed(master: int, *key: int, bits: int = 32) -> int:
    """A seed for one purpose, from the master seed and a spawn key."""
    ss = np.random.SeedSequence(master, spawn_key=tuple(key))
    if bits == 64:
        return int(ss.generate_state(1, dtype=np.uint64)[0])
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def input_seed(cfg: Mapping) -> int:
    """The programs' input seed (the same for every build: the work is fixed)."""
    return derive_seed(cfg["master_seed"], SEED_KEYS["input"], bits=64)


def build_seed(cfg: Mapping, set_: str, build: int) -> int:
    """The seed of build ``build`` (1-based) of set ``set_``."""
    return derive_seed(cfg["master_seed"], SEED_KEYS["build"], _name_key(set_), build)


def objects_of(benchmark: str) -> list[str]:
    return [Path(f).with_suffix(".o").name for f in (*COMMON, *PROGRAMS[benchmark])]


def layout_plan(seed: int, benchmark: str, layout: Mapping) -> dict:
    """The randomised layout of one build; a function of ``seed`` alone (and the config).

    The draws, in this order from ``numpy.random.Generator(PCG64(seed))``: the link
    order (a permutation of the object files), the ``-falign-functions`` value, the
    code pad and the data pad in bytes (uniform on ``0 .. max``).
    """
    rng = np.random.Generator(np.random.PCG64(seed))
    objs = objects_of(benchmark)
    order = [objs[i] for i in rng.permutation(len(objs))]
    align = int(rng.choice(np.asarray(layout["align_functions"])))
    text_pad = int(rng.integers(0, layout["text_pad_max"] + 1))
    data_pad = int(rng.integers(0, layout["data_pad_max"] + 1))
    return {"seed": int(seed), "link_order": order, "align_functions": align,
            "text_pad": text_pad, "data_pad": data_pad}


def build_commands(cfg: Mapping, benchmark: str, permille: int, plan: Mapping) -> list[list[str]]:
    """Compile and link commands of one build, run in the binary's directory with the
    sources in ``../src`` (relative paths only)."""
    common = [
        cfg["cc"], *cfg["cflags"], f"-falign-functions={plan['align_functions']}",
        f"-DBENCH={benchmark}", f"-DEXTRA_PERMILLE={permille}",
        f"-DINPUT_SEED={input_seed(cfg)}ULL", "-I../src",
    ]
    cmds = []
    for src in (*COMMON, *PROGRAMS[benchmark]):
        extra = ([f"-DTEXT_PAD={plan['text_pad']}", f"-DDATA_PAD={plan['data_pad']}"]
                 if src == "pad.c" else [])
        cmds.append([*common, *extra, "-c", f"../src/{src}", "-o", Path(src).with_suffix(".o").name])
    cmds.append([cfg["cc"], "-o", BINARY, *plan["link_order"], "-lm"])
    return cmds


def copy_sources(dest: Path, benchmark: str | None = None, cxx: bool = False) -> None:
    """Copy the sources a build needs (all programs when ``benchmark`` is None)."""
    dest.mkdir(parents=True, exist_ok=True)
    names = ["bench.h", *COMMON]
    for b in ([benchmark] if benchmark else list(PROGRAMS)):
        names += [*PROGRAMS[b], *HEADERS[b]]
    if cxx:
        names.append("gbench.cpp")
    for n in names:
        shutil.copyfile(SRC / n, dest / n)


def _run_checked(cmd: Sequence[str], cwd: Path, what: str) -> subprocess.CompletedProcess:
    try:
        p = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True)
    except OSError as exc:
        raise MeasureError(f"{what}: cannot run {cmd[0]}: {exc.strerror or exc}") from None
    if p.returncode != 0:
        err = " ".join((p.stderr or p.stdout).split())[:500]
        raise MeasureError(f"{what}: `{shlex.join(cmd)}` failed (exit {p.returncode}): {err}")
    return p


def parse_count(text: str, what: str) -> tuple[int, str]:
    m = re.search(r"^units (\d+)$", text, re.M)
    c = re.search(r"^checksum ([0-9a-f]{16})$", text, re.M)
    if not m or not c:
        raise MeasureError(f"{what}: no 'units' and 'checksum' lines in its output")
    return int(m.group(1)), c.group(1)


def build_one(cfg: Mapping, set_: str, build: int, bindir: Path, info: Mapping | None = None,
              seed_set: str | None = None) -> dict:
    """Build one binary in ``bindir`` (sources expected in ``bindir/../src``); its record.

    ``info`` (default: the set's) gives the program and its extra work; ``seed_set``
    (default: ``set_``) names the seed (the pilot's builds have seeds of their own)."""
    info = info or sets(cfg)[set_]
    bench, permille = info["benchmark"], info["permille"]
    seed = build_seed(cfg, seed_set or set_, build)
    plan = layout_plan(seed, bench, cfg["layout"])
    cmds = build_commands(cfg, bench, permille, plan)
    bindir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    for cmd in cmds:
        _run_checked(cmd, bindir, f"{set_} build {build}")
    seconds = time.perf_counter() - t0
    for o in plan["link_order"]:
        (bindir / o).unlink()
    p = _run_checked([f"./{BINARY}", "--count"], bindir, f"{set_} build {build}")
    units, checksum = parse_count(p.stdout, f"{set_} build {build}")
    data = (bindir / BINARY).read_bytes()
    return {
        "set": set_, "benchmark": bench, "variant": info["variant"], "permille": permille,
        "build": build, **plan, "build_seconds": seconds, "units_per_iteration": units,
        "checksum_one_iteration": checksum, "sha256": hashlib.sha256(data).hexdigest(),
        "size_bytes": len(data), "commands": [shlex.join(c) for c in cmds],
    }


def build_order(cfg: Mapping, builds: Mapping[str, int]) -> list[tuple[str, int]]:
    """Every ``(set, build)`` in one random order across all sets (key ``build_order``).

    Building set after set would tie whatever changes while the machine builds (the
    page cache and allocator state the binaries' files land in, for one) to the set,
    as running set after set would tie drift to it; interleaved, it is independent of
    the set, like the process order of :func:`schedule`."""
    units = [(s, b) for s in builds for b in range(1, builds[s] + 1)]
    rng = np.random.Generator(np.random.PCG64(
        derive_seed(cfg["master_seed"], SEED_KEYS["build_order"], bits=64)))
    return [units[i] for i in rng.permutation(len(units))]


def _check_builds(set_: str, records: Sequence[dict]) -> None:
    units = {r["units_per_iteration"] for r in records}
    sums = {r["checksum_one_iteration"] for r in records}
    if len(units) != 1 or len(sums) != 1:
        raise MeasureError(f"{set_}: builds differ in their work (units {sorted(units)}, "
                           f"checksums {sorted(sums)}): the layout must not change results")


def build_sets(cfg: Mapping, manifests: Mapping[str, str | Path], design_path: str | Path,
               log=None) -> dict[str, list[dict]]:
    """Build every binary of every set under ``build_dir/bin/<set>/`` (as many as the
    design says), in the interleaved order of :func:`build_order`; write each set's
    manifest (``manifests``: set -> path), each build's record holding its position in
    that order (``build_position``)."""
    design = json.loads(Path(design_path).read_text())["sets"]
    n_builds = {s: design[s]["builds"] for s in manifests}
    roots = {s: Path(cfg["build_dir"]) / "bin" / s for s in manifests}
    for s, root in roots.items():
        if root.exists():
            shutil.rmtree(root)
        copy_sources(root / "src", sets(cfg)[s]["benchmark"])
    started = _now()
    records: dict[str, dict[int, dict]] = {s: {} for s in manifests}
    for pos, (s, b) in enumerate(build_order(cfg, n_builds), start=1):
        rec = build_one(cfg, s, b, roots[s] / f"b{b:03d}")
        records[s][b] = {**rec, "build_position": pos}
        _log(log, f"{pos}: {s} build {b}: seed {rec['seed']}, align "
                  f"{rec['align_functions']}, pads {rec['text_pad']}/{rec['data_pad']}, "
                  f"{rec['build_seconds']:.2f} s")
    finished = _now()
    out = {}
    for s in manifests:
        recs = [records[s][b] for b in sorted(records[s])]
        _check_builds(s, recs)
        out[s] = recs
    for s, path in manifests.items():
        _write_json(path, {"set": s, "started": started, "finished": finished,
                           "order": "interleaved across sets (seed key build_order)",
                           "builds": out[s]})
    return out


# -- the measurement ---------------------------------------------------------------


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


# -- the pilot and the plan ---------------------------------------------------------


def pilot_set(benchmark: str) -> str:
    """The seed name of a program's pilot builds (distinct from every dataset set)."""
    return f"pilot-{benchmark}"


def run_pilot(cfg: Mapping, out_path: str | Path, log=None) -> None:
    """Build and run every program's pilot under the guard; its estimates to ``out_path``."""
    pc = cfg["design"]["pilot"]
    root = Path(cfg["build_dir"]) / "pilot"
    if root.exists():
        shutil.rmtree(root)
    refused_path(cfg).unlink(missing_ok=True)
    records: dict[str, dict[int, dict]] = {}
    for bench in cfg["benchmarks"]:
        copy_sources(root / bench / "src", bench)
        info = {"benchmark": bench, "permille": 0, "variant": "baseline"}
        records[bench] = {b: build_one(cfg, bench, b, root / bench / f"b{b:03d}", info=info,
                                       seed_set=pilot_set(bench))
                          for b in range(1, pc["builds"] + 1)}
        _log(log, f"pilot {bench}: {pc['builds']} builds", echo=True)
    jobs = schedule(cfg, {b: pc["builds"] for b in records},
                    {b: pc["executions"] for b in records}, key="pilot")
    started = _now()
    with _Priority(cfg["nice"]):
        done, stats = run_guarded(cfg, jobs, lambda j: root / j["set"] / f"b{j['binary']:03d}",
                                  lambda j: pc["iterations"], log)
    out = {"started": started, "finished": _now(), "design": dict(pc), "guard": stats,
           "warmup_fraction": cfg["warmup_fraction"], "programs": {}}
    for bench in records:
        mine = sorted((d for d in done if d["set"] == bench),
                      key=lambda d: (d["binary"], d["execution"]))
        times = np.array([d["times_ns"] for d in mine], dtype=float).reshape(
            pc["builds"], pc["executions"], pc["iterations"]) / 1e9
        over = [d["wall"] - sum(d["times_ns"]) / 1e9 for d in mine]
        bsec = [r["build_seconds"] for r in records[bench].values()]
        out["programs"][bench] = Z.pilot_estimates(times, over, bsec, cfg["warmup_fraction"])
    _write_json(out_path, out)


def _target(cfg: Mapping, bench: str) -> float:
    return float(cfg["design"]["targets_pct"].get(bench, cfg["design"]["default_target_pct"]))


def make_design(cfg: Mapping, pilot_path: str | Path | None, out_path: str | Path) -> dict:
    """The design of every set: from the pilot and esize's plan, or fixed."""
    d = cfg["design"]
    per_program = {b: sum(1 for s in sets(cfg).values() if s["benchmark"] == b)
                   for b in cfg["benchmarks"]}
    if d["mode"] == "fixed":
        fixed = {"builds": cfg["builds"], "executions": cfg["executions"],
                 "iterations": cfg["iterations"]}
        doc = {"mode": "fixed", "programs": {b: {"design": dict(fixed)} for b in per_program}}
    else:
        pilot = json.loads(Path(pilot_path).read_text())
        sized = Z.size_all(pilot["programs"], {b: _target(cfg, b) for b in per_program},
                           per_program, cfg["warmup_fraction"], d["min"], d["max"],
                           60.0 * d["budget_minutes"])
        doc = {"mode": "plan", **sized,
               "rule": "smallest budget whose predicted ratio half-width (sqrt(2) x esize "
                       "dimension's half-width of one mean, planned with 80 % upper bounds "
                       "of the pilot's variances) meets the program's target; counts "
                       "clipped to design.min..design.max; scaled down together when all "
                       "programs do not fit budget_minutes",
               "pilot": {"design": pilot["design"], "guard": pilot["guard"],
                         "started": pilot["started"], "finished": pilot["finished"]}}
        for b, est in pilot["programs"].items():
            doc["programs"][b]["pilot"] = est
    doc["sets"] = {s: dict(doc["programs"][i["benchmark"]]["design"])
                   for s, i in sets(cfg).items()}
    _write_json(out_path, doc)
    return doc


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


# -- collecting --------------------------------------------------------------------


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


def _cmd_out(cmd: Sequence[str]) -> str | None:
    try:
        p = subprocess.run(list(cmd), capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (p.stdout or p.stderr).strip() if p.returncode == 0 else None


def _first_line(cmd: Sequence[str]) -> str | None:
    out = _cmd_out(cmd)
    return out.splitlines()[0] if out else None


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def machine_info() -> dict:
    lscpu = _cmd_out(["lscpu"])
    mem = _read("/proc/meminfo")
    memtotal = next((ln.split(":", 1)[1].strip() for ln in (mem or "").splitlines()
                     if ln.startswith("MemTotal")), None)
    return {
        "lscpu": lscpu.splitlines() if lscpu else None,
        "kernel": " ".join([platform.system(), platform.release(), platform.version(),
                            platform.machine()]),
        "cpus_online": os.cpu_count(),
        "memory_total": memtotal,
        "aslr_randomize_va_space": _read("/proc/sys/kernel/randomize_va_space"),
        "sched_autogroup_enabled": _read("/proc/sys/kernel/sched_autogroup_enabled"),
        "cpufreq_governor": _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        "os_release": next((ln.split("=", 1)[1].strip('"') for ln in
                            (_read("/etc/os-release") or "").splitlines()
                            if ln.startswith("PRETTY_NAME=")), None),
    }


def software_info(cfg: Mapping) -> dict:
    import pandas as pd
    import pyarrow

    def pkg(name):
        return _cmd_out(["dpkg-query", "-W", "-f", "${Version}", name])

    try:
        import snakemake
        smk = snakemake.__version__
    except Exception:  # noqa: BLE001 - only for the record
        smk = None
    return {
        "cc": _first_line([cfg["cc"], "--version"]),
        "cxx": _first_line([cfg["cxx"], "--version"]),
        "ld": _first_line(["ld", "--version"]),
        "glibc": _first_line(["ldd", "--version"]),
        "libbenchmark-dev": pkg("libbenchmark-dev"),
        "hyperfine": _first_line(["hyperfine", "--version"]),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "pyarrow": pyarrow.__version__,
        "snakemake": smk,
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


def provenance_markdown(prov: Mapping, cost: Mapping, frame) -> str:
    d = prov["design"]
    m = prov["machine"]
    sw = prov["software"]
    lines = [
        f"# Provenance of `{prov['dataset']}`",
        "",
        "Measured by `make measure` (`measure/Snakefile`, `measure/measure.py`); everything "
        "below is also in `provenance.json` (machine-readable), `builds.json` (every "
        "binary's seed, layout and exact commands) and `costs.json`.",
        "",
        "## Design",
        "",
        "- Binaries x executions x iterations per file (warm-up included) in the table "
        "below; " + ("chosen by a pilot and esize's plan (section Plan). "
                     if d.get("mode") == "plan" else "fixed in the configuration. ")
        + "Times in seconds (column `time`).",
        "- Each binary is a separate build with a randomised layout: shuffled link order "
        "of its object files, `-falign-functions` drawn from "
        f"{prov['config']['layout']['align_functions']}, a code pad of 0..."
        f"{prov['config']['layout']['text_pad_max']} bytes and a data pad of 0..."
        f"{prov['config']['layout']['data_pad_max']} bytes, all drawn from the build's seed; "
        "the builds of all sets were made in one random order across the sets.",
        f"- Each execution is a separate process whose only environment variable, "
        f"`{ENV_VAR}`, has a random length of 0...{prov['config']['env_pad_max']} bytes; "
        "all processes of all files ran in one random order.",
        "- Known effects: `-plusN` files do exactly N % more inner work per iteration "
        "(counted, set at compile time); `-plus0` is an independent set of builds of the "
        "unchanged program (an A/A comparison).",
        "",
        "| file | program | extra work | design | mean iteration (ms) | units per iteration |",
        "|---|---|---|---|---|---|",
    ]
    for s, info in d["sets"].items():
        lines.append(f"| `{info['file']}` | {info['benchmark']} | {info['permille'] / 10:g} % | "
                     f"{info.get('builds')} x {info.get('executions')} x "
                     f"{info.get('iterations')} | "
                     f"{cost[s]['iteration_seconds']['mean'] * 1e3:.4f} | "
                     f"{cost[s]['units_per_iteration']} |")
    lines += _plan_markdown(prov) + _guard_markdown(prov)
    dates = prov["dates"]
    lo = prov["load"]
    lines += [
        "",
        "## When and where",
        "",
        f"- Builds: {dates['builds_started']} to {dates['builds_finished']}; measuring: "
        f"{dates['run_started']} to {dates['run_finished']} "
        f"({prov['run']['wall_seconds'] / 60:.1f} min, {prov['run']['processes']} processes)"
        + (f"; harness runs: {dates['harness_started']} to {dates['harness_finished']}."
           if dates["harness_started"] else "."),
        f"- Machine: {_lscpu_field(m, 'Model name')}, {m['cpus_online']} CPUs "
        f"({_lscpu_field(m, 'Hypervisor vendor') or 'no hypervisor reported'}), "
        f"{m['memory_total']}; {m['os_release']}; kernel {m['kernel']}; ASLR "
        f"(randomize_va_space) {m['aslr_randomize_va_space']}; CPU governor "
        f"{m['cpufreq_governor'] or 'not exposed'}.",
        f"- The 1-minute load average was {lo['run_loadavg_before'][0]:.2f} "
        f"when measuring began and {lo['run_loadavg_after'][0]:.2f} when it ended; before the "
        f"processes it ranged {lo['process_load_before']['min']:.2f} to "
        f"{lo['process_load_before']['max']:.2f} (median "
        f"{lo['process_load_before']['median']:.2f}).",
        "- Priority: "
        + (f"the measured processes (and the harness runs) ran at niceness {lo['nice']}"
           + (". With the kernel's autogroup scheduling enabled (as here) a niceness ranks "
              "a process only against those of its own session, so other users' processes "
              "still shared the CPU with it"
              if m.get("sched_autogroup_enabled") == "1" else "")
           + "; the CPU time of every iteration is recorded beside its time (`cpu_time`): "
             "where `time` exceeds it, the process was waiting for a CPU."
           if lo["nice"] is not None else
           "the measured processes ran at the default niceness; the CPU time of every "
           "iteration is recorded beside its time (`cpu_time`)."),
        f"- Software: {sw['cc']}; {sw['cxx']}; {sw['ld']}; {sw['glibc']}; libbenchmark-dev "
        f"{sw['libbenchmark-dev']}; {sw['hyperfine']}; Python {sw['python']}, numpy "
        f"{sw['numpy']}, pandas {sw['pandas']}, pyarrow {sw['pyarrow']}, Snakemake "
        f"{sw['snakemake']}.",
        "",
        "## Seeds",
        "",
        f"- Master seed {prov['seeds']['master_seed']}; input seed "
        f"{prov['seeds']['input_seed']}; schedule seed {prov['seeds']['schedule_seed']}; "
        f"environment seed {prov['seeds']['environment_seed']}.",
        f"- Derivation: {prov['seeds']['derivation']}.",
        f"- Layout of a build: {prov['seeds']['layout_draws']}. "
        "`python measure/measure.py plan --config measure/config.yaml SET BUILD` prints it, "
        "`... rebuild ... DIR` rebuilds the binary (byte-identical with the same compiler).",
        "",
        "## Commands",
        "",
        f"- `{prov['commands']['measure']}`",
        f"- compile: `{prov['commands']['compile']}`",
        f"- link: `{prov['commands']['link']}`",
        f"- run: `{prov['commands']['run']}`",
    ]
    if prov["commands"]["harness"]:
        for k, r in prov["commands"]["harness"].items():
            lines.append(f"- {k} (in {r['cwd']}, copied to `{r['file']}`): `{r['command']}`")
    lines.append("")
    return "\n".join(lines)


def _plan_markdown(prov: Mapping) -> list[str]:
    plan = prov.get("plan") or {}
    if plan.get("mode") != "plan":
        return []
    pd_ = plan["pilot"]["design"]
    out = ["", "## Plan", "",
           f"- Pilot: {pd_['builds']} builds x {pd_['executions']} processes x "
           f"{pd_['iterations']} iterations per program ({plan['pilot']['started']} to "
           f"{plan['pilot']['finished']}), under the same guard.",
           f"- Rule: {plan['rule']}.",
           f"- Budget {plan['budget_seconds'] / 60:g} min; the plan predicts "
           f"{plan['predicted_seconds'] / 60:.1f} min of builds and processes"
           + (" (scaled down to fit)." if plan["scaled_to_budget"] else "."),
           "",
           "| program | pilot S % (binary / execution / iteration) | design | target 95 % "
           "half-width of a ratio | predicted |",
           "|---|---|---|---|---|"]
    for b, p in plan["programs"].items():
        s_ = " / ".join(f"{x:.2f}" for x in p["pilot"]["s_pct"])
        d = p["design"]
        out.append(f"| {b} | {s_} | {d['builds']} x {d['executions']} x {d['iterations']} | "
                   f"{p['target_half_width_pct']:g} % | {p['predicted_half_width_pct']:.2f} %"
                   + ("" if p["target_reached"] else
                      f" (not reached: {p.get('limited_by', 'the budget')})") + " |")
    return out


def _guard_markdown(prov: Mapping) -> list[str]:
    g, i = prov["guard"], prov["interference"]
    t = g["thresholds"] or {}
    pre = g.get("preflight") or {}
    out = ["", "## Interference", "",
           f"- Guard: {g['rule']}. Thresholds: others {100 * t.get('others_share', 0):g} % of a "
           f"CPU, steal {100 * t.get('steal_share', 0):g} %, resolution "
           f"{t.get('resolution_ticks')} ticks, wall/CPU {t.get('wall_per_cpu')}, at most "
           f"{t.get('max_attempts')} attempts; processes pinned to CPU {g['pinned_cpu']}.",
           f"- {g['processes']} processes, {g['attempts']} attempts: {g['discarded']} discarded "
           f"and run again ({', '.join(f'{k}: {v}' for k, v in (g['reasons'] or {}).items()) or 'none'}); "
           f"{g['clean_in_data']} of {g['processes_in_data']} processes in the data are clean."
           + (" **Measured with --force**: the guard only recorded." if g["forced"] else ""),
           "- Over all processes together, others used "
           f"{100 * i['others_cpu_share_pooled']:.2f} % of a CPU and the runner (starting "
           f"processes, on another CPU) {100 * i['runner_cpu_share_pooled']:.2f} %; per process "
           f"(to a clock tick) others' median {100 * i['others_cpu_share']['median']:.1f} %, "
           f"steal {100 * i.get('steal_share_pooled', 0):.3f} % of the time in all "
           f"(one tick in a process reads as {100 * prov['guard']['tick_seconds'] / i['process_wall_median']:.0f} %); "
           "wall / CPU time "
           f"{i['wall_per_cpu']['median']:.4f} (median; max {i['wall_per_cpu']['max']:.4f}).",
           ]
    if pre:
        out.append(f"- Preflight ({pre.get('at', 'time not recorded')}): other programs used "
                   f"{100 * pre['others_share']:.1f} % of a CPU over {pre['seconds']:.1f} s"
                   + (" (busy: --force)" if pre["busy"] else "") + ".")
    return out


def _lscpu_field(m: Mapping, field: str) -> str | None:
    for ln in m.get("lscpu") or []:
        if ln.startswith(field + ":"):
            return ln.split(":", 1)[1].strip()
    return None


# -- small helpers -----------------------------------------------------------------


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _log(log, msg: str, echo: bool = False) -> None:
    """A line to the step's log (stderr without one); ``echo`` also prints it as
    progress (``measure: ...`` on stderr, what ``measure.py make`` shows)."""
    line = f"{_now()} {msg}\n"
    if log:
        with open(log, "a") as fh:
            fh.write(line)
        if echo:
            sys.stderr.write(f"measure: {msg}\n")
            sys.stderr.flush()
    else:
        sys.stderr.write(line)


def _atomic_bytes(path: str | Path, data: bytes) -> None:
    from esize.io import atomic_write

    atomic_write(path, data)


def _atomic_text(path: str | Path, text: str) -> None:
    _atomic_bytes(path, text.encode("utf-8"))


def _atomic_copy(src: str | Path, dest: str | Path) -> None:
    _atomic_bytes(dest, Path(src).read_bytes())


def _write_json(path: str | Path, obj) -> None:
    _atomic_text(path, json.dumps(obj, indent=1) + "\n")


def _write_parquet(path: str | Path, frame) -> None:
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False, compression="zstd")
    _atomic_bytes(path, buf.getvalue())


# -- command line ------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="measure.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check-config", help="check configuration files (merged in order)")
    c.add_argument("files", nargs="+")
    mk = sub.add_parser("make", help="preflight, then measure (snakemake); what make measure runs")
    mk.add_argument("files", nargs="+", metavar="CONFIG")
    mk.add_argument("--force", action="store_true",
                    help="measure even on a busy machine (provenance records it)")
    for name, hlp in (("plan", "print a build's seed, layout and commands"),
                      ("rebuild", "rebuild one binary from its recorded seed")):
        p = sub.add_parser(name, help=hlp)
        p.add_argument("--config", action="append", required=True)
        p.add_argument("set")
        p.add_argument("build", type=int)
        if name == "rebuild":
            p.add_argument("dir", help="new directory; the binary is DIR/build/bench")
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        k = argv.index("--")
        argv, extra = argv[:k], argv[k + 1:]
    if "--force" in extra:  # `make measure ARGS=--force`
        extra.remove("--force")
        argv.append("--force")
    a = ap.parse_args(argv)
    files = a.files if a.cmd in ("check-config", "make") else a.config
    try:
        cfg = check_config(load_config_files(files))
    except ConfigProblem as exc:
        msg = str(exc)
        if not re.match(r"\S+(:\d+)?: ", msg) or exc.key:
            msg = f"{', '.join(files)}: {msg}"
        print(f"esize: error: {msg}", file=sys.stderr)
        return 2
    if a.cmd == "check-config":
        return 0
    if a.cmd == "make":
        return cmd_make(cfg, files, a.force, extra)
    if a.set not in sets(cfg):
        print(f"esize: error: {', '.join(files)}: no set {a.set!r} (sets: "
              f"{', '.join(sets(cfg))})", file=sys.stderr)
        return 2
    most = cfg["builds"] if cfg["design"]["mode"] == "fixed" else cfg["design"]["max"]["builds"]
    if not 1 <= a.build <= most:
        print(f"esize: error: {', '.join(files)}: build must be 1 .. {most}",
              file=sys.stderr)
        return 2
    info = sets(cfg)[a.set]
    if a.cmd == "plan":
        plan = layout_plan(build_seed(cfg, a.set, a.build), info["benchmark"], cfg["layout"])
        cmds = build_commands(cfg, info["benchmark"], info["permille"], plan)
        print(json.dumps({**plan, "commands": [shlex.join(x) for x in cmds]}, indent=1))
        return 0
    d = Path(a.dir)
    if d.exists():
        print(f"esize: error: {d}: exists; give a new directory", file=sys.stderr)
        return 2
    copy_sources(d / "src", info["benchmark"])
    try:
        rec = build_one(cfg, a.set, a.build, d / "build")
    except MeasureError as exc:
        print(f"esize: error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(rec, indent=1))
    return 0


def cmd_make(cfg: Mapping, files: Sequence[str], force: bool, extra: Sequence[str]) -> int:
    """The preflight, then the workflow; one line and exit 2 when the machine is too
    busy (before anything is measured, or when the guard gives up)."""
    build = Path(cfg["build_dir"])
    if cfg["guard"]["enabled"]:
        g = cfg["guard"]
        pre = G.preflight(G.Probe(), g, own=G.own_ancestors())
        if pre["busy"] and not force:
            print(f"esize: error: {G.preflight_line(pre)}", file=sys.stderr)
            return 2
        pre["forced"] = force
        pre["at"] = _now()
        build.mkdir(parents=True, exist_ok=True)
        _write_json(build / "preflight.json", pre)
    refused_path(cfg).unlink(missing_ok=True)
    (build / "logs").mkdir(parents=True, exist_ok=True)
    log = build / "logs" / "snakemake.log"
    cmd = [sys.executable, "-m", "snakemake", "-s", str(HERE / "Snakefile"),
           "--configfile", *files, "--cores", "1",
           *(["--config", "force=True"] if force else []), *extra]
    with open(log, "w") as fh:
        fh.write(shlex.join(cmd) + "\n")
        fh.flush()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert p.stdout is not None
        last_error = ""
        for line in p.stdout:
            fh.write(line)
            if line.startswith("measure: ") or re.search(r"\d+ of \d+ steps", line):
                sys.stderr.write(line)
            if "MeasureError" in line or "Error" in line:
                last_error = line.strip()
        rc = p.wait()
    if rc != 0:
        if refused_path(cfg).exists():
            print(f"esize: error: {refused_path(cfg).read_text().strip()}", file=sys.stderr)
            return 2
        print(f"esize: error: measuring failed (snakemake exit {rc}): {last_error[:300]}; "
              f"the whole log is {log}", file=sys.stderr)
        return 1
    sys.stderr.write(f"measure: done: {cfg['out_dir']}/{cfg['name']} (log: {log})\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
