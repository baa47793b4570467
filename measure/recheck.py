"""Run the committed dataset's binaries again, in a new session, and set each set's mean
beside the committed one.

A diagnostic, not a measurement of the dataset: nothing under ``data/`` is written.
It answers one question about a known-effect interval that misses: is a set's
deviation carried by its binaries (their code layouts, which the dataset's build level
samples and its intervals account for) or by the session it was measured in (which
they do not)? The binaries in ``<build_dir>/bin`` are checked against the SHA-256 of
``builds.json`` first: the same bytes, so only the session differs. Every process runs
under the same guard as ``make measure`` (pinned, interference judged, discarded and
rerun), in one random order of its own (seed key ``recheck``, and ``--round`` for a
further order), after the same preflight.

Usage::

    python measure/recheck.py --config measure/config.yaml \\
        --sets cipher,cipher-plus0,cipher-plus1,cipher-plus3 --out measure/build/recheck-1.json

Prints, per set: the committed mean and the new one (every iteration, as
``esize compare`` takes them), and each variant's ratio to the first set with its 95 %
Fieller interval, committed and new. Exit status 2 with one line on bad input or a busy
machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import measure as M  # noqa: E402
import measure_guard as G  # noqa: E402


def _design(rows):
    """The Design (binary > execution > iteration) of one set's tidy rows."""
    import esize

    return esize.from_tidy(rows, levels=["binary", "execution"], value="time")


def _ratio(old, new) -> dict:
    import esize

    iv = esize.fieller_ci(old, new)
    return {"ratio": iv.estimate, "lower": iv.lower, "upper": iv.upper}


def check_binaries(cfg, sets: list[str], builds_json: Path) -> dict[str, int]:
    """The number of builds of each set, after checking every binary's SHA-256 against
    the committed ``builds.json``."""
    records = json.loads(builds_json.read_text())["builds"]
    root = Path(cfg["build_dir"]) / "bin"
    counts: dict[str, int] = {}
    for s in sets:
        mine = sorted((r for r in records if r["set"] == s), key=lambda r: r["build"])
        if not mine:
            raise M.MeasureError(f"{builds_json}: no builds of set {s!r}")
        for r in mine:
            path = root / s / f"b{r['build']:03d}" / M.BINARY
            try:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError as exc:
                raise M.MeasureError(f"{path}: {exc.strerror}; run make measure first") from None
            if digest != r["sha256"]:
                raise M.MeasureError(f"{path}: not the committed binary (SHA-256 differs)")
        counts[s] = len(mine)
    return counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", action="append", required=True,
                    help="measure configuration (merged in order, as for make measure)")
    ap.add_argument("--sets", required=True,
                    help="comma-separated sets; the first is the base of the ratios")
    ap.add_argument("--executions", type=int, default=None,
                    help="processes per build (default: the committed design's)")
    ap.add_argument("--round", type=int, default=1, help="which random order (default 1)")
    ap.add_argument("--out", required=True, help="JSON file for the per-set results")
    ap.add_argument("--rows", default=None,
                    help="also a Parquet file of every iteration (set, binary, execution, "
                         "iteration, time, cpu_time), for esize summary and compare")
    args = ap.parse_args(argv)
    try:
        try:
            cfg = M.check_config(M.load_config_files(args.config))
        except M.ConfigProblem as exc:
            raise M.MeasureError(f"{', '.join(args.config)}: {exc}") from None
        sets = list(dict.fromkeys(s.strip() for s in args.sets.split(",") if s.strip()))
        if not sets:
            raise M.MeasureError("--sets names no set")
        data = Path(cfg["out_dir"]) / cfg["name"]
        counts = check_binaries(cfg, sets, data / "builds.json")
        design = json.loads((Path(cfg["build_dir"]) / "design.json").read_text())["sets"]
        if args.round < 1:
            raise M.MeasureError("--round must be at least 1")
        if args.executions is not None and args.executions < 2:
            raise M.MeasureError("--executions must be at least 2")
        missing = [s for s in sets if s not in design]
        if missing:
            raise M.MeasureError(f"{cfg['build_dir']}/design.json has no set {missing[0]!r}")
        executions = {s: args.executions or design[s]["executions"] for s in sets}
    except (M.MeasureError, OSError, KeyError, ValueError) as exc:
        print(f"recheck: error: {exc}", file=sys.stderr)
        return 2
    probe = G.Probe()
    pf = G.preflight(probe, cfg["guard"], own=G.own_ancestors())
    if pf["busy"]:
        print(f"recheck: error: {G.preflight_line(pf)}", file=sys.stderr)
        return 2
    plan = M.schedule({**cfg, "master_seed": M.derive_seed(cfg["master_seed"], args.round)},
                      counts, executions, key="recheck")
    root = Path(cfg["build_dir"]) / "bin"
    try:
        with M._Priority(cfg["nice"]):
            done, stats = M.run_guarded(
                {**cfg, "force": False}, plan, lambda j: root / j["set"] / f"b{j['binary']:03d}",
                lambda j: design[j["set"]]["iterations"], None, probe)
    except M.MeasureError as exc:
        print(f"recheck: error: {exc}", file=sys.stderr)
        return 2

    import pandas as pd

    rows = pd.DataFrame([
        {"set": d["set"], "binary": d["binary"], "execution": d["execution"],
         "iteration": k + 1, "time": t * 1e-9, "cpu_time": c * 1e-9}
        for d in done for k, (t, c) in enumerate(zip(d["times_ns"], d["cpu_ns"]))
    ])
    new = {s: _design(g) for s, g in rows.groupby("set", sort=False)}
    old = {s: _design(pd.read_parquet(data / f"{s}.parquet")) for s in sets}
    base = sets[0]
    result = {"sets": {}, "guard": {k: v for k, v in stats.items() if k != "thresholds"},
              "preflight_others_share": pf.get("others_share"), "round": args.round,
              "executions": executions}
    print(f"{'set':<14}{'builds':>7}{'committed ms':>14}{'again ms':>11}{'change':>9}"
          f"   ratio to {base}: committed [95 %]  /  again [95 %]")
    for s in sets:
        entry = {"builds": counts[s], "committed_mean": old[s].mean, "again_mean": new[s].mean}
        line = (f"{s:<14}{counts[s]:>7}{1e3 * old[s].mean:>14.4f}{1e3 * new[s].mean:>11.4f}"
                f"{100 * (new[s].mean / old[s].mean - 1):>8.2f}%")
        if s != base:
            entry["committed_ratio"] = _ratio(old[base], old[s])
            entry["again_ratio"] = _ratio(new[base], new[s])
            c, a = entry["committed_ratio"], entry["again_ratio"]
            line += (f"   {c['ratio']:.4f} [{c['lower']:.4f}, {c['upper']:.4f}]  /  "
                     f"{a['ratio']:.4f} [{a['lower']:.4f}, {a['upper']:.4f}]")
        result["sets"][s] = entry
        print(line)
    g = stats
    print(f"{len(done)} processes, {g['discarded']} attempts discarded and rerun, "
          f"{g['unclean']} never clean")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if args.rows:
        M._write_parquet(args.rows, rows.sort_values(["set", "binary", "execution", "iteration"],
                                                     kind="stable"))
    M._atomic_text(out, json.dumps(result, indent=1, default=_jsonable) + "\n")
    return 0


def _jsonable(x):
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return None if not math.isfinite(x) else float(x)
    return str(x)


if __name__ == "__main__":
    raise SystemExit(main())
