"""How a measured dataset was measured, read from its ``provenance.json``.

:func:`how_measured` renders the keys ``guard`` (the quiet-machine guard: its
thresholds, processes, attempts, discarded and rerun processes, unclean ones, whether
it was forced, its preflight), ``interference`` (other processes' and the hypervisor's
share of a CPU over each process's wall time, and wall over CPU time per process) and
``plan`` (per program a pilot, the design chosen from it and the predicted half-width
of a ratio's interval). A key that is absent is said to be not recorded; the plan's
predicted half-width is set beside the achieved full-data Fieller half-width of every
variant of the program.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = ["how_measured", "achieved_half_widths"]

NOT_RECORDED = "not recorded"


def _num(x, nd: int = 2) -> str:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return NOT_RECORDED
    return f"{x:.{nd}f}" if math.isfinite(x) else NOT_RECORDED


def _stats(d, pct: bool) -> str:
    """``mean / median / max`` of a statistics entry (in % of a CPU when ``pct``)."""
    if not isinstance(d, Mapping):
        return NOT_RECORDED
    scale, unit = (100.0, " %") if pct else (1.0, "")
    vals = []
    for k in ("mean", "median", "max"):
        v = d.get(k)
        vals.append(f"{k} {_num(scale * float(v)) + unit}" if _is_num(v) else f"{k} {NOT_RECORDED}")
    return ", ".join(vals)


def _is_num(v) -> bool:
    try:
        return math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


def _pct(v, nd: int = 1) -> str:
    return f"{_num(100 * float(v), nd)} %" if _is_num(v) else NOT_RECORDED


def _guard(g) -> list[str]:
    if not isinstance(g, Mapping):
        return [f"- Quiet-machine guard: {NOT_RECORDED}."]
    th = g.get("thresholds") if isinstance(g.get("thresholds"), Mapping) else {}
    rule = (f"others at most {_pct(th.get('others_share'))} of a CPU and steal at most "
            f"{_pct(th.get('steal_share'))} of the time (beyond {th.get('resolution_ticks')} "
            f"clock ticks), wall time at most {th.get('wall_per_cpu')} x CPU time, "
            f"at most {th.get('max_attempts')} attempts per process"
            if th else f"thresholds {NOT_RECORDED}")
    counts = "; ".join(f"{k} {g[k]}" if k in g else f"{k} {NOT_RECORDED}"
                       for k in ("processes", "attempts", "discarded", "unclean"))
    forced = ("yes" if g["forced"] else "no") if "forced" in g else NOT_RECORDED
    pre = g.get("preflight")
    if isinstance(pre, Mapping) and pre:
        busiest = ", ".join(f"{r.get('command')} {_pct(r.get('cpu_share'))}"
                            for r in (pre.get("busiest") or [])[:3]) or "none"
        preflight = (f"other programs used {_pct(pre.get('others_share'))} of a CPU over "
                     f"{_num(pre.get('seconds'), 1)} s (busiest: {busiest})"
                     + ("; busy" if pre.get("busy") else ""))
    else:
        preflight = NOT_RECORDED
    return [f"- Quiet-machine guard ({rule}): {counts}; forced: {forced}. "
            f"Preflight: {preflight}."]


def _interference(i) -> list[str]:
    if not isinstance(i, Mapping):
        return [f"- Interference per process: {NOT_RECORDED}."]
    pooled = i.get("others_cpu_share_pooled")
    lead = (f"- Interference: over all processes together other programs used "
            f"{_pct(pooled, 2)} of a CPU, steal {_pct(i.get('steal_share_pooled'), 3)} of the "
            "time; per process (each to a clock tick of the CPU counters, so a single tick "
            "reads as a large share of a short process) other programs' share of a CPU "
            if _is_num(pooled) else
            "- Interference per process (over each process's wall time): other programs' "
            "share of a CPU ")
    return [f"{lead}{_stats(i.get('others_cpu_share'), True)}; wall time over CPU time "
            f"{_stats(i.get('wall_per_cpu'), False)}."]


def achieved_half_widths(refs: Sequence[Mapping]) -> dict[str, list[tuple[str, float]]]:
    """``{base program: [(variant, half-width % of the full-data Fieller interval)]}``."""
    out: dict[str, list[tuple[str, float]]] = {}
    for r in refs:
        lo, hi, est = (float(r[k]) for k in ("fieller_t_lower", "fieller_t_upper", "estimate"))
        hw = 100 * (hi - lo) / 2 / est if all(map(math.isfinite, (lo, hi, est))) else math.nan
        out.setdefault(str(r["base"]), []).append((str(r["variant"]), hw))
    return out


def _design(d) -> str:
    if not isinstance(d, Mapping):
        return NOT_RECORDED
    return " x ".join(str(d.get(k, "?")) for k in ("builds", "executions", "iterations"))


def _plan(plan, refs: Sequence[Mapping]) -> list[str]:
    if not isinstance(plan, Mapping) or not isinstance(plan.get("programs"), Mapping) \
            or not plan["programs"]:
        return [f"- Plan (pilot, design, predicted half-width): {NOT_RECORDED}."]
    budget = plan.get("budget_seconds")
    achieved = achieved_half_widths(refs)
    lines = [f"- Plan: budget {_num(budget, 0)}" + (" s" if _is_num(budget) else "")
             + "; per program the pilot (builds x executions x iterations, S % per level, "
             "mean s), the design run, and the ratio interval's half-width targeted, "
             "predicted by the plan and achieved on the full data (Fieller, t) per variant:",
             ""]
    head = ["program", "pilot", "pilot S % (b / e / i)", "pilot mean (s)", "design",
            "target %", "predicted %", "achieved % (variant)"]
    body = []
    for prog, p in plan["programs"].items():
        p = p if isinstance(p, Mapping) else {}
        pilot = p.get("pilot") if isinstance(p.get("pilot"), Mapping) else {}
        s = pilot.get("s_pct")
        s_txt = (" / ".join(_num(x) for x in s) if isinstance(s, Sequence) and s
                 else NOT_RECORDED)
        got = "; ".join(f"{_num(h)} ({v})" for v, h in achieved.get(str(prog), [])) or "-"
        body.append([str(prog), _design(pilot) if pilot else NOT_RECORDED, s_txt,
                     _num(pilot.get("mean"), 6), _design(p.get("design")),
                     _num(p.get("target_half_width_pct")),
                     _num(p.get("predicted_half_width_pct")), got])
    import pandas as pd

    lines.append(pd.DataFrame(body, columns=head).to_markdown(index=False, disable_numparse=True))
    return lines


def how_measured(prov: Mapping | None, refs: Sequence[Mapping] = ()) -> list[str]:
    """The part ``### How it was measured`` (Markdown lines), from ``provenance.json``
    (``prov``; None or empty when the dataset has none)."""
    out = ["### How it was measured", ""]
    if not prov:
        return out + [f"The dataset has no provenance.json: how it was measured is "
                      f"{NOT_RECORDED}.", ""]
    out += _guard(prov.get("guard"))
    out += _interference(prov.get("interference"))
    out += _plan(prov.get("plan"), refs)
    return out + [""]
