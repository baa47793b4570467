"""False alarms on a dataset's own pool, and coverage and power of a known ratio by
subsampling: the simulations of the reproduction study, run on the user's data.

The study's code comes through :mod:`._study`, the one module of
:mod:`esize_study.analysis` that imports it: the false-alarm engine
(:mod:`esize_study.falsealarm.simulate`), the known-effect experiment
(:mod:`esize_study.knowneffect`) and the seeds of :mod:`esize_study.engine.seeds`.

False alarms (A/A). For a benchmark of three levels (binaries, executions,
measurements) with at least ``analysis.false_alarm.min_binaries`` binaries, two
systems of ``k`` binaries are drawn with replacement from its own binaries, many
times: any interval that excludes 1 is a false alarm. The table gives the rate at
threshold 0 (the interval's miss rate of a true ratio of 1, about ``alpha`` for a
well-calibrated method) and at the comparisons' threshold, and the smallest threshold
that keeps the rate at 5 % or below (the 95th percentile of the largest threshold each
comparison still alarms at).

Known ratio. For a comparison given a known ratio whose two systems have three levels,
``k`` binaries are drawn without replacement from each (``2 <= k <= half`` the fewer
binaries), many times: the share of intervals that hold the known ratio is the
coverage, the share of verdicts that say what the ratio calls for
(:func:`esize_study.knowneffect.records.expected_verdict`) the power.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ._study import bench_id, fa, ke, ke_records, rates_at

__all__ = ["METHOD_NAMES", "false_alarms", "known_ratios"]

#: The methods' names in the report, by the simulations' names.
METHOD_NAMES = {
    "asymptotic": "Fieller (t)", "normal": "Fieller (normal)", "bootstrap": "bootstrap RRR",
    "fieller-t": "Fieller (t)", "fieller-normal": "Fieller (normal)",
    "bootstrap-RRR": "bootstrap RRR",
}
_TARGET = 0.05


def _three_levels(design) -> str | None:
    """Why ``design`` cannot feed the simulations (None when it can)."""
    if design.n_levels != 3:
        return (f"{design.n_levels} level(s) ({' > '.join(design.levels)}); the simulations "
                "need three (binaries, executions, measurements)")
    if min(design.shape) < 2:
        return f"a level with a single unit ({' x '.join(map(str, design.shape))})"
    return None


def false_alarms(reads: Mapping, settings: Mapping) -> dict:
    """False-alarm rates of every benchmark that has enough binaries (see the module
    notes); the others are listed with the reason."""
    cfg, alpha, threshold = settings["false_alarm"], settings["alpha"], settings["threshold"]
    out = {"settings": {**cfg, "alpha": alpha, "threshold": threshold}, "rows": [],
           "left_out": []}
    for name, r in reads.items():
        design = r.bench.design
        why = _three_levels(design)
        if why is None and design.shape[0] < cfg["min_binaries"]:
            why = (f"{design.shape[0]} binaries; the pool needs at least {cfg['min_binaries']} "
                   "(analysis.false_alarm.min_binaries)")
        sizes = [k for k in cfg["binaries"] if 2 <= k <= design.shape[0]]
        if why is None and not sizes:
            why = f"no size of {cfg['binaries']} fits {design.shape[0]} binaries"
        if why is not None:
            out["left_out"].append({"benchmark": name, "reason": why})
            continue
        st = fa.bench_stats(design)
        cells = [fa.CellSpec("binaries", k, cfg["comparisons"], cfg["resamples"], ("RRR",), alpha)
                 for k in sizes]
        records = fa.simulate_cells(st, cells, seed=settings["seed"], bench_id=bench_id(name))
        groups: dict = {}
        for rec in records:
            key = (rec["size"], rec["method"])
            groups.setdefault(key, ([], []))
            groups[key][0].append(rec["tstar"])
            groups[key][1].append(rec["bounded"])
        for (size, method), (ts, ok) in sorted(groups.items(), key=lambda x: (x[0][0], x[0][1])):
            tstar, bounded = np.concatenate(ts), np.concatenate(ok)
            rate0, rate_t = rates_at(tstar, [0.0, threshold])
            t95 = float(np.quantile(np.where(np.isfinite(tstar), tstar, 0.0), 1 - _TARGET))
            out["rows"].append({
                "benchmark": name, "pool": [int(x) for x in design.shape], "binaries": int(size),
                "method": METHOD_NAMES.get(method, method), "comparisons": int(tstar.size),
                "unbounded": int((~bounded).sum()), "rate_0": float(rate0),
                "rate_threshold": float(rate_t), "threshold_5pct": max(t95, 0.0),
            })
    return out


def known_ratios(pairs: list, resolved: list, settings: Mapping) -> dict:
    """Coverage and power, by subsampling, of every comparison with a known ratio whose
    systems have three levels and at least 4 binaries each (see the module notes)."""
    cfg, alpha, threshold = settings["known_ratio"], settings["alpha"], settings["threshold"]
    out = {"settings": {**cfg, "alpha": alpha, "threshold": threshold}, "rows": [],
           "left_out": []}
    for p, pair in zip(resolved, pairs):
        if p["ratio"] is None:
            continue
        why = _three_levels(pair.old) or _three_levels(pair.new)
        few = min(pair.old.shape[0], pair.new.shape[0])
        sizes = [k for k in cfg["binaries"] if 2 <= k <= few // 2]
        if why is None and not sizes:
            why = (f"{few} binaries in the smaller system: subsampling needs at least twice the "
                   f"smallest size of {cfg['binaries']}")
        if why is not None:
            out["left_out"].append({"comparison": p["label"], "reason": why})
            continue
        label, ratio = p["label"], float(p["ratio"])
        cells = [ke.KnownEffectCell(k, cfg["comparisons"], cfg["resamples"], alpha) for k in sizes]
        records = ke.simulate(fa.bench_stats(pair.old), fa.bench_stats(pair.new), cells,
                              seed=settings["seed"], variant_id=bench_id(label))
        frame = ke_records.records_to_frame(records, label)
        info = {label: {"base": p["old"], "ratio": ratio, "full_ratio": float(pair.ratio)}}
        verdicts = {(v["size"], v["method"]): v
                    for v in ke_records.verdict_rows(frame, info, [100.0 * threshold])}
        for c in ke_records.coverage_rows(frame, info, alpha):
            v = verdicts[(c["size"], c["method"])]
            expected = v["expected"]
            out["rows"].append({
                "comparison": label, "ratio": ratio, "full_ratio": float(pair.ratio),
                "binaries": int(c["size"]), "method": METHOD_NAMES.get(c["method"], c["method"]),
                "comparisons": int(c["comparisons"]), "coverage": c["coverage"],
                "coverage_se": c["coverage_se"], "coverage_call": c["coverage_call"],
                "expected": expected, "power": v[expected], "power_se": v[f"{expected}_se"],
                "wrong": v["wrong"], "median_halfwidth_pct": c["median_halfwidth_pct"],
            })
    return out
