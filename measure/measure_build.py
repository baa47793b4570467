"""Building the randomised binaries: the sets, the seeds, each build's layout and the
build step.

``build_sets``
    builds the randomised binaries of every *set* (a benchmark, or one of its
    known-effect variants), in one random order across the sets (so that nothing
    that changes while the machine builds lines up with a set). Every build takes a
    seed derived from the master seed;
    the seed alone fixes the build's layout: the link order of the program's object
    files, ``-falign-functions`` and the sizes of a code pad and a data pad
    (:func:`layout_plan`). Compile and link commands use relative paths only, so
    the same seed gives byte-identical binaries in any directory.

Seeds: every random draw comes from ``numpy.random.SeedSequence(master_seed,
spawn_key=...)`` with a fixed key per purpose (:data:`SEED_KEYS`); a build's key
also holds a hash of its set's name and its number, so adding a set or a build
leaves the others' seeds unchanged.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from measure_common import (
    BINARY,
    COMMON,
    HEADERS,
    PROGRAMS,
    SEED_KEYS,
    SRC,
    MeasureError,
    _log,
    _now,
    _write_json,
)


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
