"""The measuring configuration: its defaults, the check of every value (a bad one is
a :class:`ConfigProblem` naming its key) and the merging of YAML files.

A bad configuration ends with one line naming the file, exit status 2
(:func:`config_or_exit` in the Snakefile, ``measure.py``'s command line).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import measure_guard as G
from measure_common import PROGRAMS, VARIANT_CAPABLE

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
