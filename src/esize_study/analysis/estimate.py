"""Variance per level, warm-up, plan and dimensioning of every benchmark of a dataset.

All statistics are esize's: :func:`esize.variance_components` (``S`` and ``T`` per
level in % of the mean, as ``esize summary`` prints them), :func:`esize.plan_from_design`
(optimal counts for the entry's costs, as ``esize plan``) and
:func:`esize.dimension_for_plan` (the counts and the half-width each budget buys, with
the one-level default beside them).

Costs are those of a new unit of each level but the lowest, in measurements: given in
the entry (a duration, converted with the duration of one measurement, or a number of
measurements), otherwise assumed and said so: a new unit of the level just above the
measurements (an execution, a process, a fork) costs the warm-up values dropped from
it (at least one measurement), any higher level (a build) one measurement. A duration
of one measurement is the cost given for the lowest level (``measurement: 0.1 s``) or
the mean of the values when they are times (a table's in its entry's ``unit``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from esize import EsizeError, dimension_for_plan, plan_from_design, variance_components
from esize.readers import next_run_options, plural
from esize.text import warmup_text

from .read import LOWEST_ALIASES, Dataset, Read

__all__ = ["variance_row", "dominance_sentence", "warmup_row", "warmup_sentence",
           "measurement_seconds", "harness_value_seconds", "level_costs", "plan_row", "estimate", "MAX_SERIES"]

#: Groups of one benchmark kept for the warm-up figure (esize's figure draws 40).
MAX_SERIES = 40


def _pct(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def _a(word: str) -> str:
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def dominance_sentence(levels, shares, t_pct) -> str:
    """One sentence on which level dominates the variance of a single measurement and
    what that means for the next experiment.

    ``shares`` are the levels' shares of the sum of their positive ``T^2`` (highest
    level first), ``t_pct`` their ``T`` in % of the mean.
    """
    levels = list(levels)
    if len(levels) == 1:
        return (f"One level: the {plural(levels[0])} vary by {t_pct[0]:.3g} % of the mean, and "
                f"only the number of {plural(levels[0])} sets the interval's width.")
    k = int(np.argmax(shares))
    lv, share = levels[k], 100.0 * shares[k]
    head = (f"The {lv} level dominates: {share:.0f} % of the variance of one measurement "
            f"(T = {t_pct[k]:.3g} % of the mean)")
    if k == 0:
        rest = "; ".join(f"{plural(x)} {100 * s:.0f} %" for x, s in zip(levels[1:], shares[1:]))
        return (f"{head} lies between {plural(lv)} ({rest} below): only more {plural(lv)} "
                f"narrow the interval, repeating what lies within {_a(lv)} does little.")
    parent = levels[k - 1]
    if k == len(levels) - 1:
        return (f"{head} is the noise of single {plural(lv)} within {_a(parent)}: it averages "
                f"out cheaply with more {plural(lv)} per {parent}, while the variation "
                f"between {plural(levels[0])} ({100 * shares[0]:.0f} %) sets what more "
                f"{plural(levels[0])} can gain.")
    return (f"{head} lies between {plural(lv)} within {_a(parent)}: repeat {plural(lv)} "
            f"per {parent}, not only the {plural(levels[-1])} within them.")


def variance_row(r: Read) -> dict:
    """Levels, counts, ``S`` and ``T`` in % of the mean, each level's share of the
    variance of one measurement, the dominant level and its sentence."""
    design = r.bench.design
    vc = variance_components(design)
    t2 = np.clip(np.asarray(vc.T2_scaled, dtype=float), 0.0, None)
    total = float(t2.sum())
    shares = t2 / total if total > 0 else np.zeros_like(t2)
    s_pct, t_pct = [float(x) for x in vc.S_pct], [float(x) for x in vc.T_pct]
    return {
        "levels": list(design.levels),
        "counts": [int(n) for n in design.shape],
        "mean": float(design.mean),
        "S_pct": s_pct,
        "T_pct": t_pct,
        "T2": [float(x) for x in vc.T2],
        "nonpositive": [lv for lv, x in zip(design.levels, vc.T2_scaled) if x <= 0],
        "share": [float(x) for x in shares],
        "dominant": design.levels[int(np.argmax(shares))] if total > 0 else None,
        "sentence": dominance_sentence(design.levels, shares, t_pct) if total > 0 else
        "The measurements do not vary: nothing dominates.",
    }


def warmup_sentence(info: Mapping | None, raw: int) -> str:
    """What was dropped, in esize's words (``--warmup``) or for a fraction."""
    if info is None or (info["mode"] == "fixed" and not info.get("per_group")):
        return ("none dropped (warmup 0, the default of make analyse and esize compare; "
                "warmup: auto detects a warm-up)")
    if info["mode"] == "fraction":
        return (f"fraction {info['fraction']:g}: the first {info['per_group']} of every group of "
                f"{raw} values, {info['dropped']} dropped")
    return warmup_text(info)


def warmup_row(r: Read) -> dict:
    """The warm-up dropped from one benchmark: mode, values per group before and after,
    values dropped in all, and the sentence of :func:`warmup_sentence`."""
    info = r.bench.warmup
    design = r.bench.design
    groups = int(np.prod(design.shape[:-1])) if design.n_levels > 1 else 1
    row = {
        "mode": None if info is None else info["mode"],
        "raw_per_group": int(r.raw_values),
        "kept_per_group": int(design.shape[-1]),
        "groups": groups,
        "dropped": 0 if info is None else int(info["dropped"]),
        "text": warmup_sentence(info, r.raw_values),
    }
    if info and info.get("classes"):
        row["classes"] = dict(info["classes"])
    if info and info.get("not_checked"):
        row["not_checked"] = info["not_checked"]
    return row


def measurement_seconds(r: Read, cost_map: Mapping) -> tuple[float | None, str]:
    """The duration of one measurement in seconds and where it comes from, or None
    when neither the entry nor the unit of the values gives it."""
    lowest = r.bench.design.levels[-1]
    for key in (lowest, *LOWEST_ALIASES):
        c = cost_map.get(key)
        if c is not None:
            if "seconds" not in c:
                return None, f"the cost of a {key} must be a duration"
            return float(c["seconds"]), f"given ({key}: {c['text']})"
    unit = r.bench.unit
    if r.fmt in ("pyperf", "jmh", "gbench"):
        found = harness_value_seconds(r)
        if found is not None:
            return found
        return None, (f"the {r.fmt} file does not say how long one {lowest} takes; give it as "
                      f"costs: {{{lowest}: 0.1 s}}")
    if unit.kind == "time" and unit.scale is not None:
        return float(r.bench.design.mean) * unit.scale, f"the mean value ({unit.unit or 's'})"
    return None, (f"the values are not times (unit {unit.unit!r}); give the duration of one "
                  f"{lowest} as costs: {{{lowest}: 0.1 s}}")


def _first(items, pred):
    return next((x for x in items if isinstance(x, dict) and pred(x)), None)


def harness_value_seconds(r: Read) -> tuple[float, str] | None:
    """How long one value of a harness takes, from its file: a pyperf value is the mean
    time of its ``loops`` (x ``inner_loops``) calls, a JMH iteration lasts its
    ``measurementTime``, a Google Benchmark repetition its ``iterations`` x time; None
    when the file does not say."""
    from esize.readers import load

    try:
        _, doc = load(r.path)
        mean = float(r.bench.design.mean) * (r.bench.unit.scale or math.nan)
        if r.fmt == "pyperf":
            common = doc.get("metadata") or {}
            b = _first(doc.get("benchmarks") or [],
                       lambda b: (b.get("metadata") or {}).get("name", common.get("name")) == r.inner)
            meta = {**common, **((b or {}).get("metadata") or {})}
            loops = float(meta.get("loops", 0)) * float(meta.get("inner_loops", 1))
            if loops > 0 and math.isfinite(mean):
                return mean * loops, f"the mean value x {loops:g} loops (pyperf metadata)"
        elif r.fmt == "jmh":
            e = _first(doc, lambda e: str(r.inner).startswith(str(e.get("benchmark"))))
            from .config import parse_amount

            amount = parse_amount(str((e or {}).get("measurementTime", "")).strip(), bare=None)
            if "seconds" in amount:
                return amount["seconds"], f"measurementTime {e['measurementTime']} (JMH)"
        elif r.fmt == "gbench":
            entries = [e for e in doc.get("benchmarks") or []
                       if isinstance(e, dict) and e.get("run_type", "iteration") == "iteration"
                       and r.inner in (e.get("run_name"), e.get("name"))]
            iters = [float(e["iterations"]) for e in entries if "iterations" in e]
            if iters and math.isfinite(mean):
                n = float(np.mean(iters))
                return mean * n, f"the mean value x {n:g} iterations (Google Benchmark)"
    except (ValueError, TypeError, KeyError, AttributeError, EsizeError):
        return None
    return None


def _warmup_values(r: Read) -> int:
    return max(int(r.raw_values) - int(r.bench.design.shape[-1]), 0)


def level_costs(r: Read, cost_map: Mapping, seconds: float | None) -> tuple[list, list, str | None]:
    """Costs of a new unit of every level but the lowest (highest first), in
    measurements, with one row per level saying where each comes from.

    Returns
    -------
    (list of float, list of dict, str or None)
        The costs, the rows (``level``, ``measurements``, ``source``), and the
        problem that stops the plan (a duration that cannot be converted), if any.
    """
    levels = list(r.bench.design.levels)
    costs, rows = [], []
    for j, lv in enumerate(levels[:-1]):
        c = cost_map.get(lv)
        if c is None:
            if j == len(levels) - 2:
                m = float(max(_warmup_values(r), 1))
                src = f"assumed: its warm-up, {_warmup_values(r)} values (at least 1)"
            else:
                m, src = 1.0, "assumed: 1 measurement (no cost given)"
        elif "measurements" in c:
            m, src = float(c["measurements"]), f"given ({c['text']})"
        elif seconds is None:
            return [], rows, (f"the cost of a {lv} is a duration ({c['text']}), but the duration "
                              "of one measurement is not known: give it as costs: "
                              "{measurement: 0.1 s}")
        else:
            m, src = float(c["seconds"]) / seconds, f"given ({c['text']})"
        costs.append(m)
        rows.append({"level": lv, "measurements": m, "source": src})
    return costs, rows, None


def _budget_measurements(b: Mapping, seconds: float | None) -> float | None:
    if "measurements" in b:
        return float(b["measurements"])
    return None if seconds is None else float(b["seconds"]) / seconds


def plan_row(r: Read, settings: Mapping) -> dict:
    """The plan of one benchmark for the entry's costs, and its dimensioning for each
    budget (a budget that buys fewer than 2 top-level units says so)."""
    design = r.bench.design
    seconds, how = measurement_seconds(r, settings["cost_map"])
    costs, cost_rows, problem = level_costs(r, settings["cost_map"], seconds)
    out = {"measurement_seconds": seconds, "measurement_source": how, "costs": cost_rows,
           "assumed": any(c["source"].startswith("assumed") for c in cost_rows),
           "plan": None, "problem": problem, "budgets": []}
    if problem:
        return out
    try:
        plan = plan_from_design(design, costs)
    except EsizeError as exc:
        out["problem"] = f"cannot plan: {exc}"
        return out
    out["plan"] = {"levels": list(plan.levels), "dropped": list(plan.dropped),
                   "counts": {k: int(v) for k, v in plan.counts.items()}}
    for b in settings["budget_list"]:
        row = {"budget": b["text"]}
        m = _budget_measurements(b, seconds)
        if m is None:
            row["problem"] = f"a budget in time needs the duration of one measurement: {how}"
        else:
            row["measurements"] = m
            try:
                dim = dimension_for_plan(plan, m, mean=design.mean, alpha=settings["alpha"])
            except EsizeError as exc:
                row["problem"] = str(exc)
            else:
                row.update(
                    counts={k: int(v) for k, v in dim.counts.items()},
                    half_width_pct=_pct(100 * dim.half_width),
                    default_n=int(dim.default_n),
                    default_half_width_pct=_pct(100 * dim.default_half_width),
                    options=next_run_options(r.fmt, dim.counts) if r.fmt != "tidy" else None,
                )
        out["budgets"].append(row)
    return out


def _series(r: Read) -> dict | None:
    """Every group's values before the cut (at most :data:`MAX_SERIES`) and the cuts,
    for the warm-up figure."""
    b = r.bench
    info = b.warmup or {}
    if b.series is not None:
        y = np.asarray(b.series, dtype=float)
        cuts = info.get("cuts") or [int(info.get("per_group", 0))] * y.shape[0]
        kept = int(info.get("kept", b.design.shape[-1]))
    else:
        y = b.design.data.reshape(-1, b.design.shape[-1])
        cuts, kept = [0] * y.shape[0], y.shape[1]
    k = min(y.shape[0], MAX_SERIES)
    return {"name": r.name, "values": y[:k].tolist(), "groups": int(y.shape[0]),
            "cuts": [int(c) for c in cuts[:k]], "kept": kept,
            "classes": dict(info.get("classes") or {}),
            "no_steady_state": [i for i in info.get("no_steady_state", []) if i < k],
            "group": b.design.levels[-2] if b.design.n_levels > 1 else "series",
            "unit": b.unit.unit}


def estimate(settings: Mapping, data: Dataset) -> dict:
    """``estimates.json`` of a dataset: its files, and for every benchmark its format,
    unit, design, caveats, variance row, warm-up row and plan; the series of the
    benchmark that lost the largest share to the warm-up, for its figure."""
    rows, worst, worst_share = [], None, -1.0
    for r in data.reads.values():
        b = r.bench
        row = {"name": r.name, "file": r.path, "format": r.fmt, "unit": b.unit.unit,
               "lower_is_better": b.unit.lower_is_better, "caveats": list(b.caveats),
               "unobserved": [list(u) for u in b.unobserved]}
        try:
            row["variance"] = variance_row(r)
        except EsizeError as exc:
            row["problem"] = str(exc)
        row["warmup"] = warmup_row(r)
        row["plan"] = plan_row(r, settings) if "variance" in row else None
        rows.append(row)
        total = row["warmup"]["groups"] * row["warmup"]["raw_per_group"]
        share = row["warmup"]["dropped"] / total if total else 0.0
        if share > worst_share:
            worst, worst_share = r, share
    files = [{"file": f.path, "format": f.fmt,
              "benchmarks": [n for n, (g, _) in data.index.names.items() if g is f]}
             for f in data.index.files]
    return {
        "dataset": settings["name"],
        "files": files,
        "notes": list(data.notes),
        "settings": {k: settings[k] for k in ("kind", "path", "files", "levels", "value", "order",
                                       "warmup", "unit", "alpha", "threshold")},
        "costs_given": {k: v["text"] for k, v in settings["cost_map"].items()},
        "budgets": [b["text"] for b in settings["budget_list"]],
        "benchmarks": rows,
        "series": None if worst is None else _series(worst),
    }
