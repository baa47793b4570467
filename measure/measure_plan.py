"""The pilot and the design: every program's pilot, built and run under the guard,
then the builds x executions x iterations of every set, from esize's plan
(:mod:`measure_sizing` holds the arithmetic) or fixed in the configuration.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path

import measure_sizing as Z
import numpy as np
from measure_build import build_one, copy_sources, sets
from measure_common import _log, _now, _write_json
from measure_run import _Priority, refused_path, run_guarded, schedule


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
