"""Parts of the report section on a measured dataset: dimensioning with its own costs,
false alarms on its pool, its known effects, and the notes on its costs and on how it
was measured (:func:`costs_note`, :func:`conditions_note`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from ..estimate.costs import cost_model
from ..paper import numbers as paper

__all__ = ["costs_note", "conditions_note"]


def _f(x, nd: int = 1) -> str:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return "-"
    return "-" if not math.isfinite(x) else f"{x:.{nd}f}"


def _table(head: Sequence[str], body: Sequence[Sequence]) -> str:
    import pandas as pd

    return pd.DataFrame([list(map(str, r)) for r in body], columns=list(head)).to_markdown(
        index=False, disable_numparse=True)


def _dimensioning_section(rows: Sequence[Mapping], costs_note: str) -> list[str]:
    if not rows:
        return []
    body = []
    for r in rows:
        design = f"{r['binaries']} x {r['n2']} x {r['n1']}"
        opt = f"{r['opt_binaries']} x {r['opt_n2']} x {r['opt_n1']}"
        body.append([r["benchmark"], r["budget"], f"{_f(r['c2'], 0)} / {_f(r['c1'], 1)}",
                     f"{_f(r['ours_pct'], 2)} ({design})", f"{_f(r['optimum_pct'], 2)} ({opt})",
                     _f(r["default_pct"], 2), _f(r["actual_pct"], 2),
                     r["dropped"] or "-"])
    return [
        "### Dimensioning from this dataset's estimates and measured costs",
        "",
        costs_note,
        "",
        "Half-width (%) of the 95 % interval for the mean reachable within each budget: the "
        "paper's procedure (design binaries x executions x iterations), our optimum, the "
        "one-level default, and for the budget this dataset's measurement took per "
        "benchmark (`measured`) the half-width of the design that was run. Costs c2 / c1: "
        "a build / a further execution, in steady iterations.",
        "",
        _table(["benchmark", "budget", "c2 / c1", "paper's procedure", "optimum", "default",
                "as measured", "levels dropped"], body),
        "",
    ] + ([
        "Where T² ≤ 0 at the compilation level the plan drops that level: the paper's "
        "procedure then keeps the fewest builds an interval needs, 2, so its interval pays "
        "Student's t with 1 degree of freedom (12.7 at 95 %); the optimum counts the "
        "quantile and spreads the budget over many builds, which are cheap here.",
        "",
    ] if any("compilation" in str(r["dropped"]) for r in rows) else [])


def _pools_text(pool) -> tuple[str, str]:
    """The pool (or each benchmark's) in words, and its executions per binary."""
    if isinstance(pool, Mapping):
        ps = dict(pool)
        if len(set(ps.values())) > 1:
            return ("same benchmark's pool (" + "; ".join(
                f"{b}: {p[0]} binaries x {p[1]} executions" for b, p in ps.items())
                + "; sizes above a benchmark's own pool are left out)",
                "n (" + ", ".join(f"{b}: {p[1]}" for b, p in ps.items()) + ")")
        pool = next(iter(ps.values()))
    return (f"same pool of {pool[0]} binaries x {pool[1]} executions", str(pool[1]))


def _false_alarm_section(rows: Sequence[Mapping], pool,
                         alpha: float, var_rows: Sequence[Mapping] = ()) -> list[str]:
    if not rows:
        return []
    pool_text, execs = _pools_text(pool)
    ts = sorted({float(k[5:]) for r in rows for k in r if k.startswith("rate_")})
    benches = list(dict.fromkeys(r["benchmark"] for r in rows))
    order = {"fieller": 0, "asymptotic": 0, "normal": 1, "bootstrap-RRR": 2}
    keys = sorted({(r["experiment"], r["size"], r["method"]) for r in rows},
                  key=lambda x: (x[0] != "binaries", x[1], order.get(x[2], 9)))
    by = {(r["experiment"], r["size"], r["method"], r["benchmark"]): r for r in rows}
    out = [
        "### False alarms on the measured pool",
        "",
        f"Both systems are drawn (with replacement, as in the paper's experiment) from the "
        f"{pool_text}, so every verdict other "
        "than no change is a false alarm. `binaries`: k binaries with all their executions "
        "(the paper's fFAFFT, fFABoot; `asymptotic` is Fieller with t); `executions`: one "
        "binary, e executions, the binary level ignored (fFA2L). Rate (%) ± Monte Carlo "
        "standard error; at threshold 0 the rate is called against the nominal "
        f"{100 * alpha:g} % by its Wilson interval (`above`, `below`, `undecided`). The "
        "rates at every size and threshold are in `sim/false_alarm.csv`.",
        "",
    ]
    for t in ts:
        body = []
        for exp, size, method in keys:
            cells = []
            for b in benches:
                r = by.get((exp, size, method, b))
                if r is None:
                    cells.append("-")
                    continue
                txt = f"{_f(100 * r[f'rate_{t:g}'])} ± {_f(100 * r[f'se_{t:g}'])}"
                if t == 0 and "call_0" in r:
                    txt += f" {r['call_0']}"
                cells.append(txt)
            body.append([exp, str(size), method, *cells])
        out += [f"Threshold {t:g} %:", "",
                _table(["experiment", "size", "method", *benches], body), ""]
    high = [r for r in rows if r.get("call_0") == "above"]
    n0 = sum(1 for r in rows if "call_0" in r)
    hb = sum(1 for r in high if r["experiment"] == "binaries")
    he = sum(1 for r in high if r["experiment"] == "executions")
    out += [
        f"At threshold 0, {len(high)} of {n0} cells alarm more often than the nominal "
        f"{100 * alpha:g} % ({hb} in the binaries experiment, {he} when the binary level is "
        "ignored).",
        "",
    ]
    boot = [r for r in rows if r["experiment"] == "binaries" and r["method"] == "bootstrap-RRR"
            and "call_0" in r]
    low = {}
    for r in boot:
        low.setdefault(r["benchmark"], []).append(r["call_0"] == "below")
    mostly = [b for b, v in low.items() if sum(v) > len(v) / 2]
    flat = {r["benchmark"] for r in var_rows
            if r["source"] == "data" and "compilation" in r["nonpositive"]}
    if mostly:
        both = [b for b in mostly if b in flat]
        out += [
            f"The RRR bootstrap alarms less often than nominal for {', '.join(mostly)} (most "
            "of its cells `below`)"
            + (f"; of these, {', '.join(both)} have T² ≤ 0 at the compilation level: their "
               "binary means carry only the variance of the levels below, and resampling the "
               "executions and iterations inside each resampled binary counts that variance a "
               "second time, which widens its intervals" if both else "")
            + ".",
            "",
        ]
    if any(r["experiment"] == "executions" for r in rows):
        out += [
            f"In the executions experiment each system is one binary's {execs} measured "
            "executions, drawn with replacement. Two binaries then differ by the means of "
            "their own executions even where the builds themselves do not differ (the spread "
            f"of binary means holds S² of the execution level / {execs}), so the rates grow "
            "with e towards the pool size: they show what ignoring the binary level costs on "
            "this pool, and overstate it for an experiment with fresh executions.",
            "",
        ]
    return out


def _truthy(x) -> bool:
    return str(x).lower() in ("true", "1")


def _known_effect_summary(refs: Sequence[Mapping], cov: Sequence[Mapping],
                          verd: Sequence[Mapping]) -> list[str]:
    """A few sentences read off the known-effect tables."""
    if not cov or not verd:
        return []
    kmax = max(int(r["size"]) for r in cov)
    lines = []
    ratio = {r["variant"]: float(r["ratio"]) for r in refs}
    inside = {r["variant"] for r in refs if _truthy(r["contains_injected"])}
    full = {r["variant"]: float(r["estimate"]) for r in refs}
    up = [r for r in verd if int(r["size"]) == kmax and float(r["threshold_pct"]) == 0
          and ratio.get(r["variant"], 1.0) > 1.0 and r["method"] == "fieller-t"]
    if up:
        hw = [float(r["median_halfwidth_pct"]) for r in cov if int(r["size"]) == kmax]
        changes = sorted({round(100 * (ratio[r["variant"]] - 1), 6) for r in up})
        lines.append(
            f"Power: with {kmax} builds of each, the share of `slower` verdicts at threshold 0 "
            "(Fieller with t) is "
            + "; ".join(f"{100 * float(r['slower']):.1f} ± {100 * float(r['slower_se']):.1f} % "
                        f"for {r['variant']} (injected {ratio[r['variant']]:.2f}, full-data "
                        f"ratio {full[r['variant']]:.3f})" for r in up)
            + f"; the intervals' median half-widths at k = {kmax}, {min(hw):.1f} to "
            f"{max(hw):.1f} %, " + ("exceed" if min(hw) > max(changes) else "compare with")
            + f" the changes of {' and '.join(f'{c:g}' for c in changes)} %.")
    by = {(r["variant"], int(r["size"]), r["method"]): r for r in cov}
    ks = sorted({int(r["size"]) for r in cov})
    ratios = []
    for k in ks:
        q = [float(by[(v, k, "bootstrap-RRR")]["median_halfwidth_pct"])
             / float(by[(v, k, "fieller-t")]["median_halfwidth_pct"])
             for v in ratio if (v, k, "bootstrap-RRR") in by and (v, k, "fieller-t") in by]
        if q:
            ratios.append(f"{np.mean(q):.2f} at k = {k}")
    if ratios:
        lines.append("Width: the RRR bootstrap's median half-width over Fieller's with t is "
                     + ", ".join(ratios) + " (mean over variants).")
    w0 = [r for r in verd if float(r["threshold_pct"]) == 0]
    for group, label in ((inside, "whose full-data interval contains the injected ratio"),
                         (set(ratio) - inside, "whose full-data interval excludes it")):
        g = [r for r in w0 if r["variant"] in group]
        if g:
            worst = max(g, key=lambda r: float(r["wrong"]))
            lines.append(
                f"Wrong verdicts at threshold 0, variants {label}: at most "
                f"{100 * float(worst['wrong']):.1f} ± {100 * float(worst['wrong_se']):.1f} % "
                f"({worst['variant']}, k = {worst['size']}, {worst['method']}).")
    return [" ".join(lines), ""] if lines else []


def costs_note(costs: Mapping, estimates: Sequence[Mapping]) -> str:
    """One paragraph on the measured costs of the benchmarks of ``estimates``."""
    ms = []
    for e in estimates:
        entry = costs["sets"].get(e["benchmark"])
        if entry is None:
            continue
        c = cost_model(entry, int(e["warmup"]))
        ms.append((c, float(entry["execution_overhead_seconds"]["mean"]), int(e["warmup"])))
    if not ms:
        return "The costs file has no entry for these benchmarks."
    build = [c.build_seconds for c, _, _ in ms]
    start = [o for _, o, _ in ms]
    it = [c.measurement_seconds for c, _, _ in ms]
    c2 = [c.costs[0] for c, _, _ in ms]
    c1 = [c.costs[1] for c, _, _ in ms]
    w = sorted({x for _, _, x in ms})
    return (
        f"Costs measured with the data (costs file): a build takes {min(build):.2f} to "
        f"{max(build):.2f} s (mean per benchmark), a process's start-up and exit "
        f"{1e3 * min(start):.1f} to {1e3 * max(start):.1f} ms, a steady iteration "
        f"{1e3 * min(it):.2f} to {1e3 * max(it):.2f} ms. In iterations a build costs c2 = "
        f"{min(c2):.0f} to {max(c2):.0f} and a further execution c1 = {min(c1):.1f} to "
        f"{max(c1):.1f} (start-up plus the {', '.join(map(str, w))} dropped warm-up "
        "iterations and their excess over the steady time); the paper's FFT had c2 = "
        f"{paper.FFT_BUILD_COST_MEASUREMENTS} and c1 = 19. Builds are cheap here, so the "
        "plans favour many binaries."
    )


def conditions_note(conditions: Mapping) -> str:
    """A sentence on how a measured dataset was measured (empty when nothing is known).

    ``conditions`` is :func:`esize_study.datasets.measured.read_conditions` of the
    dataset's directory.
    """
    parts = []
    cpus, load = conditions.get("cpus"), conditions.get("load")
    if cpus and load is not None:
        parts.append(f"It was measured on a machine with {cpus} CPUs whose 1-minute "
                     f"load average was {float(load):.1f} on average while the processes ran "
                     "(the measured process itself counts 1 in it)")
    shares = conditions.get("cpu_shares") or []
    if shares:
        parts.append(f"the measured processes got {100 * float(np.mean(shares)):.0f} % of a "
                     "CPU on average (CPU time over wall time per iteration)")
    if not parts:
        return ""
    text = "; ".join(parts) + "."
    return text[0].upper() + text[1:]
