"""Joining a Mono dataset's sessions into its files, with provenance (``mono.py
collect``; ``mono.py session`` ends with it). See measure/mono/README.md."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import measure as M
import mono_build as B
import numpy as np

#: Each session's build records (gzip-compressed JSON: one copy of each record, about a
#: sixth of the plain size; sessions 1-5 were first written as plain ``builds.json``).
BUILDS_FILE = "builds.json.gz"


def write_builds(path: Path, obj) -> None:
    """``obj`` as JSON, gzip-compressed with no name or time in the header (the same
    records give the same bytes)."""
    text = (json.dumps(obj, indent=1) + "\n").encode()
    M._atomic_bytes(path, gzip.compress(text, compresslevel=9, mtime=0))


def read_builds(sdir: Path) -> dict:
    """A session's build records (``builds.json.gz``, or a plain ``builds.json``)."""
    gz = sdir / BUILDS_FILE
    if gz.exists():
        return json.loads(gzip.decompress(gz.read_bytes()))
    return json.loads((sdir / "builds.json").read_text())


def out_dir(cfg: Mapping) -> Path:
    return Path(cfg["out_dir"]) / cfg["name"]


def sessions_done(cfg: Mapping) -> list[int]:
    root = out_dir(cfg) / "sessions"
    return sorted(int(p.name[1:]) for p in root.glob("s[0-9][0-9]") if (p / "session.json").exists())


# -- the dataset's files -------------------------------------------------------------------


def software(cfg: Mapping) -> dict:
    import pandas as pd

    return {"mono": M._first_line([cfg["mono"], "--version"]),
            "mono_package": M._cmd_out(["dpkg-query", "-W", "-f", "${Version}", "mono-runtime"]),
            "mcs": M._first_line([cfg["mcs"], "--version"]),
            "python": M.platform.python_version(), "numpy": np.__version__,
            "pandas": pd.__version__}


def cmd_collect(cfg: Mapping, input_seed: int, seed_keys: str) -> Path:
    """Join every session into one file per set (``session``, ``build`` within the
    session, ``binary`` numbered across sessions), with costs.json, provenance.json and
    PROVENANCE.md. Rewrites only these joined files. A session may have measured some
    sets only (``mono.py session --families``): each set joins the sessions that
    measured it. Build records stay in the sessions (``sessions/sNN/builds.json.gz``)."""
    import pandas as pd

    out = out_dir(cfg)
    done = sessions_done(cfg)
    if not done:
        raise M.MeasureError(f"{out}: no session measured yet")
    all_sets = B.sets(cfg)
    design = json.loads((out / "design.json").read_text())["sets"]
    frames, builds, infos = {s: [] for s in all_sets}, {s: [] for s in all_sets}, []
    for k in done:
        sdir = out / "sessions" / f"s{k:02d}"
        info = json.loads((sdir / "session.json").read_text())
        measured = info.get("sets", list(all_sets))
        if not set(measured) <= set(all_sets) or \
                info["design"] != {s: design[s] for s in measured}:
            raise M.MeasureError(f"{sdir}: measured with another design than design.json")
        infos.append(info)
        for r in read_builds(sdir)["builds"]:
            builds[r["set"]].append(r)
        for s in measured:
            f = pd.read_parquet(sdir / f"{s}.parquet").rename(columns={"binary": "build"})
            f.insert(2, "binary", (k - 1) * design[s]["builds"] + f["build"])
            frames[s].append(f)
    joined = {}
    for s in all_sets:
        f = pd.concat(frames[s], ignore_index=True)
        f = f.sort_values(["binary", "execution", "iteration"], kind="stable").reset_index(drop=True)
        joined[s] = f
        M._write_parquet(out / f"{all_sets[s]['file']}.parquet", f)
    recs = {s: [{**r, "binary": (r["session"] - 1) * design[s]["builds"] + r["build"]}
                for r in builds[s]] for s in all_sets}
    (out / "builds.json").unlink(missing_ok=True)  # written by earlier versions
    # costs by file name: what the study calls each benchmark
    whole = pd.concat([f.assign(set=all_sets[s]["file"]) for s, f in joined.items()],
                      ignore_index=True)
    cost = M.costs(cfg, whole, {all_sets[s]["file"]: r for s, r in recs.items()})
    M._write_json(out / "costs.json", {"unit": "seconds", "fields": M.COSTS_README, "sets": cost})
    pilot = json.loads((out / "pilot.json").read_text())
    plan = json.loads((out / "design.json").read_text())
    for f, est in plan["programs"].items():
        est["pilot"] = {k: v for k, v in pilot["groups"][f].items() if k != "times"}
    prov = {
        "dataset": cfg["name"], "levels": ["session", "binary", "execution", "iteration"],
        "sets": {s: {**i, "design_per_session": design[s],
                     "units_per_iteration": recs[s][0]["units_per_iteration"]}
                 for s, i in all_sets.items()},
        "sessions": [{k: v for k, v in i.items() if k != "design"} for i in infos],
        "pilot": {k: v for k, v in pilot.items() if k != "groups"},
        "pilot_estimates": {g: {k: v for k, v in e.items() if k != "times"}
                            for g, e in pilot["groups"].items()},
        "machine": M.machine_info(), "software": software(cfg),
        "config": {k: v for k, v in cfg.items() if k not in ("force",)},
        "seeds": {"master": cfg["master_seed"], "input": input_seed,
                  "derivation": seed_keys},
        "build_method": __import__("mono_build").__doc__.strip(),
        "guard": guard_summary(infos), "interference": interference_summary(whole),
        "plan": plan,
    }
    M._write_json(out / "provenance.json", prov)
    (out / "PROVENANCE.md").write_text(provenance_markdown(prov, joined))
    return out


def guard_summary(infos: Sequence[Mapping]) -> dict:
    """The guard's counts over every session (the study's report reads these keys)."""
    g = [i["guard"] for i in infos]
    reasons: dict = {}
    for x in g:
        for k, v in x["reasons"].items():
            reasons[k] = reasons.get(k, 0) + v
    return {"thresholds": g[-1]["thresholds"], "forced": any(x["forced"] for x in g),
            "preflight": infos[-1]["preflight"], "reasons": reasons,
            **{k: sum(x[k] for x in g) for k in ("processes", "attempts", "discarded", "unclean")},
            "per_session": [{k: x[k] for k in ("processes", "attempts", "discarded", "unclean")}
                            for x in g]}


def interference_summary(whole) -> dict:
    """Other programs' share of a CPU and wall / CPU per process, over every process."""
    per = whole.groupby(["set", "binary", "execution"], sort=False).first()
    wall = per["process_wall"].to_numpy()
    return {"others_cpu_share": M._stats(per["others_share"]),
            "wall_per_cpu": M._stats(per["wall_per_cpu"]),
            "others_cpu_share_pooled": float(per["others_cpu"].sum() / wall.sum()),
            "steal_share_pooled": float((per["steal_share"] * wall).sum() / wall.sum())}


def provenance_markdown(prov: Mapping, joined: Mapping) -> str:
    """A page that says how the dataset was measured (all of it is in provenance.json)."""
    sw = prov["software"]
    lines = [f"# Provenance of `{prov['dataset']}`", "",
             "The paper's Mono benchmarks (Kalibera and Jones, section Benchmarks) written "
             "anew in C# (measure/mono/src), measured on Mono from Debian on this machine, "
             "in sessions at different times. Each file is one set; `sessions/sNN/` holds "
             "each session's rows as measured (never rewritten) and the files here join "
             "them.", "",
             "Measured by `measure/mono/mono.py` (`make measure-mono`; measure/mono/README.md). "
             "Levels: session > build (`binary`, numbered across sessions) > execution > "
             "iteration. Times in seconds (`time`), CPU time of the measured process in "
             "`cpu_time`.", "",
             f"Runtime: {sw['mono']} (Debian package {sw['mono_package']}); compiler: "
             f"{sw['mcs']}.", "",
             "## Sets", "", "| file | paper's name | Mono options | extra work | "
             "design per session | sessions | rows |", "|---|---|---|---|---|---|---|"]
    opt = " ".join(prov["config"]["opt_flags"])
    for s, i in prov["sets"].items():
        d = i["design_per_session"]
        f = joined[s]
        lines.append(f"| `{i['file']}.parquet` | {i['paper'] or '-'} | {opt if i['opt'] else 'default'} "
                     f"| {i['permille'] / 10:g} % | {d['builds']} x {d['executions']} x "
                     f"{d['iterations']} | {f['session'].nunique()} | {len(f)} |")
    lines += ["", "## Sessions", "", "| session | measured (UTC) | sets | processes | "
              "discarded and rerun | unclean | page cache dropped | load before / after | "
              "numpy normal ns before / after |", "|---|---|---|---|---|---|---|---|---|"]
    every = len(prov["sets"])
    for i in prov["sessions"]:
        g = i["guard"]
        measured = i.get("sets", list(prov["sets"]))
        fams = sorted({prov["sets"][s]["family"] for s in measured})
        sets = f"all {every}" if len(measured) == every else \
            f"{len(measured)}: families {', '.join(fams)}"
        lines.append(
            f"| {i['session']} | {i['started'][:19]} to {i['finished'][11:19]} | {sets} | "
            f"{g['processes']} | {g['discarded']} | {g['unclean']} | "
            f"{'yes' if i['page_cache_dropped'] else 'no'} | {i['loadavg_before'][0]:.2f} / "
            f"{i['loadavg_after'][0]:.2f} | {i['speed_before']['numpy_normal_ns']:.2f} / "
            f"{i['speed_after']['numpy_normal_ns']:.2f} |")
    lines += ["", "## Build method", "", prov["build_method"], "",
              "## Pilot", "", "S % of the mean per level (build / execution / iteration, "
              "after the warm-up cut) from the pilot; `-plain` groups are builds without "
              "pads and with the files in their listed order.", "",
              "| group | builds x executions x iterations | S % | T^2 > 0 at the build level |",
              "|---|---|---|---|"]
    for g, e in prov["pilot_estimates"].items():
        lines.append(f"| {g} | {e['builds']} x {e['executions']} x {e['iterations']} | "
                     f"{' / '.join(f'{x:.2f}' for x in e['s_pct'])} | "
                     f"{'yes' if e['t2'][0] > 0 else 'no'} |")
    lines += ["", "## Seeds", "", f"Master seed {prov['seeds']['master']}; "
              + prov["seeds"]["derivation"] + "."]
    return "\n".join(lines) + "\n"
