"""Measuring a real three-level dataset (binary > execution > iteration).

Driven by ``measure/Snakefile`` (``make measure``, ``make measure-tiny``); the steps
are plain functions so that the tests can call them too, one module per part:

``measure_config``
    the configuration: defaults, checks, YAML files.
``measure_build``
    the sets, their seeds and layouts, and ``build_sets``, which builds every set's
    randomised binaries in one random order across the sets.
``measure_plan``
    ``run_pilot`` and ``make_design``: a pilot of every program, then esize's plan
    (the arithmetic in ``measure_sizing``).
``measure_run``
    ``run_schedule``, every process in one random order under the interference guard
    (the counters in ``measure_guard``), and ``run_harness``, the README's Google
    Benchmark and hyperfine examples.
``measure_collect``
    ``collect``: the tidy Parquet files (one per set), ``builds.json``,
    ``costs.json``, ``provenance.json`` and ``PROVENANCE.md`` (whose text and
    machine record are in ``measure_provenance``).
``measure_common``
    what they share: the programs, the seed keys, the step error, atomic writes.

This module is the command line; it also holds every step's name, so that the
Snakefile, ``recheck.py`` and ``mono/`` reach them all as ``measure.<name>``.

Command line (also used by the Makefile)::

    python measure/measure.py check-config FILE [FILE ...]
    python measure/measure.py make CONFIG [CONFIG ...] [--force] [-- SNAKEMAKE ARGS]
    python measure/measure.py plan --config FILE SET BUILD     # seed, flags, link order
    python measure/measure.py rebuild --config FILE SET BUILD DIR

A bad configuration ends with one line naming the file, exit status 2.
"""

from __future__ import annotations

import json
import platform  # noqa: F401 - mono/mono_collect.py reads it as measure.platform
import re
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

# Every step's name, for `import measure as M` (the Snakefile, recheck.py, mono/).
import measure_guard as G  # noqa: E402
from measure_build import (  # noqa: E402, F401
    _check_builds,
    _name_key,
    _run_checked,
    build_commands,
    build_one,
    build_order,
    build_seed,
    build_sets,
    copy_sources,
    derive_seed,
    input_seed,
    layout_plan,
    objects_of,
    parse_count,
    set_name,
    sets,
)
from measure_collect import COSTS_README, _guard_summary, _stats, collect, costs  # noqa: E402, F401
from measure_common import (  # noqa: E402, F401
    BINARY,
    COMMON,
    ENV_VAR,
    HARNESS_PROGRAMS,
    HEADERS,
    PROGRAMS,
    SEED_KEYS,
    SRC,
    VARIANT_CAPABLE,
    MeasureError,
    _atomic_bytes,
    _atomic_copy,
    _atomic_text,
    _log,
    _now,
    _write_json,
    _write_parquet,
)
from measure_config import (  # noqa: E402, F401
    DEFAULTS,
    ConfigProblem,
    _check_design,
    _check_guard,
    _int,
    _shown,
    check_config,
    config_or_exit,
    load_config_files,
)
from measure_plan import _target, make_design, pilot_set, run_pilot  # noqa: E402, F401
from measure_provenance import (  # noqa: E402, F401
    _cmd_out,
    _first_line,
    _guard_markdown,
    _lscpu_field,
    _plan_markdown,
    _read,
    machine_info,
    provenance_markdown,
    software_info,
)
from measure_run import (  # noqa: E402, F401
    GUARD_COLUMNS,
    _manifest_records,
    _pin,
    _Priority,
    _refuse,
    _rows,
    _RunnerAffinity,
    harness_commands,
    parse_times,
    refused_path,
    run_guarded,
    run_harness,
    run_process,
    run_schedule,
    schedule,
)
from measure_sizing import warmup_count  # noqa: E402, F401


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
