"""The simulations' approximations against the exact computations, in Markdown.

:func:`false_alarm_validation`: the approximate bootstrap of the false-alarm
simulations against the exact one on the same comparisons; :func:`coverage_validation`:
the approximate coverage simulation against the exact one
(:func:`esize_study.coverage.validation.validation_table`). Each is a sub-section of
its family's report section.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..coverage.validation import validation_table
from ..estimate.rates import rates_at
from . import registry
from .tables import _ref

__all__ = ["false_alarm_validation", "coverage_validation"]


def false_alarm_validation(frame, thresholds_pct) -> str:
    """How well the approximate bootstrap matches the exact one (same comparisons)."""
    th = np.asarray(thresholds_pct, dtype=float) / 100
    rows, zmax, n_within, n_all = [], 0.0, 0, 0
    for (b, kind, size, scheme), g in frame.groupby(["benchmark", "kind", "size", "scheme"], sort=True):
        ex = g[g["mode"] == "exact"]["tstar"].to_numpy()
        ap = g[g["mode"] == "approx"]["tstar"].to_numpy()
        if ex.size == 0 or ap.size == 0:
            continue
        pe, pa = rates_at(ex, th), rates_at(ap, th)
        se = np.sqrt((pe * (1 - pe) + pa * (1 - pa)) / ex.size)
        z = np.where(se > 0, np.abs(pe - pa) / np.where(se > 0, se, 1), 0.0)
        zmax = max(zmax, float(z.max()))
        n_within += int((z <= 2).sum())
        n_all += z.size
        unit = "binaries" if kind == "binaries" else "executions"
        rows.append({"benchmark": b, "size": f"{size} {unit}", "scheme": scheme,
                     "exact, 0 %": f"{100 * pe[0]:.1f} %", "approx, 0 %": f"{100 * pa[0]:.1f} %",
                     "max abs z": f"{float(z.max()):.2f}"})
    cols = ["benchmark", "size", "scheme", "exact, 0 %", "approx, 0 %", "max abs z"]
    table = pd.DataFrame(rows, columns=cols).to_markdown(index=False, disable_numparse=True)
    head = [
        "### Approximate against exact bootstrap",
        "",
        "The simulations replace the resampled mean of one chosen unit by a normal draw with "
        "its exact bootstrap mean and variance. On the grid below the exact bootstrap was "
        f"run on the same comparisons: {n_within} of {n_all} rate differences (all thresholds) "
        f"are within two Monte Carlo standard errors, the largest is {zmax:.2f} standard errors "
        f"({_ref(registry.FA_VALIDATION)}).",
        "",
        table,
    ]
    return "\n".join(head) + "\n"


def _pct(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f} %"


def coverage_validation(frame) -> str:
    """Markdown: how well the approximate simulation matches the exact one."""
    t = validation_table(frame)
    if t.empty:
        return ""
    lines = [f"### Approximate against exact simulation ({_ref(registry.COV_VALIDATION)})",
             ""]
    p = t[t["comparison"] == "paired"]
    i = t[t["comparison"] == "independent"]
    n_exp = int(t["n"].max())
    rnn_rows = p[p["scheme"] == "RNN"]
    rnn = float(rnn_rows["median_end_shift"].median()) if len(rnn_rows) else math.nan
    text = (
        f"On the validation cases every measurement was simulated ({n_exp} experiments per "
        "case) and the exact hierarchical bootstrap run on them. *Paired*: the approximate "
        "bootstrap (top level resampled exactly, a normal draw for the rest) on the statistics "
        f"of the same experiments: {int((p['z'].abs() <= 2).sum())} of {len(p)} coverage "
        f"differences are within two standard errors of the paired difference, the largest "
        f"is {p['z'].abs().max():.2f} SE and {100 * p['exact'].sub(p['approx']).abs().max():.2f} "
        "points; interval ends move by a median "
        f"{100 * p[p['scheme'] != 'RNN']['median_end_shift'].median():.1f} % of the interval's "
        "width" + (
            f", against {100 * rnn:.1f} % for RNN, where both paths resample the same binary "
            "means and differ only in their random replicates. " if math.isfinite(rnn) else ". ")
        +         f"*Independent*: statistics drawn from their exact distributions against simulated "
        f"measurements, different experiments: {int((i['z'].abs() <= 2).sum())} of {len(i)} "
        f"differences within two standard errors, the largest {i['z'].abs().max():.2f} SE."
    )
    keys = ["benchmark", "experiment", "binaries", "executions", "measurements", "method", "scheme"]
    rows = []
    for key, g in t.groupby(keys, sort=True):
        b, e, k, n2, n1, m, s = key
        case = (f"{k} b x {n2} e x {n1} m" if e == "fCOV" else f"1 b, {n2} e x {n1} m")
        pa = g[g["comparison"] == "paired"]
        ia = g[g["comparison"] == "independent"]
        rows.append({
            "benchmark": b, "case": case, "method": m if s == "-" else f"{m} {s}",
            "exact": _pct(g["exact"].iloc[0]),
            "paired approx": _pct(pa["approx"].iloc[0]) if len(pa) else "-",
            "independent approx": _pct(ia["approx"].iloc[0]) if len(ia) else "-",
            "max abs z": f"{g['z'].abs().max():.2f}",
        })
    lines += [text, "", pd.DataFrame(rows).to_markdown(index=False, disable_numparse=True)]
    return "\n".join(lines) + "\n"
