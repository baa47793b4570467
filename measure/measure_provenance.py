"""What provenance records beside the data: the machine and the software it was
measured with (:func:`machine_info`, :func:`software_info`), and the text of
``PROVENANCE.md`` (:func:`provenance_markdown`).
"""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from measure_common import ENV_VAR


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
