"""The approximate coverage simulation against the exact one, case by case."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = ["validation_table"]


def validation_table(frame):
    """Approximate against exact simulation, per validation case and method.

    Rows with ``comparison``: ``paired`` (approximate bootstrap on the same simulated
    experiments as the exact one: the error of the normal approximation alone) or
    ``independent`` (statistics drawn directly against every measurement simulated:
    the whole shortcut). ``z`` is the coverage difference over its standard error
    (paired differences for ``paired``).
    """
    keys = ["benchmark", "experiment", "binaries", "executions", "measurements", "method", "scheme"]
    rows = []
    for key, g in frame.groupby(keys, sort=True):
        by = {m: x.sort_values("index") for m, x in g.groupby("mode")}
        base = dict(zip(keys, key))
        ex = by.get("exact")
        if ex is None:
            continue
        ce = ex["covered"].to_numpy().astype(float)
        n = ce.size
        pe = ce.mean()
        for mode, comp in (("paired", "paired"), ("approx", "independent")):
            other = by.get(mode)
            if other is None:
                continue
            ca = other["covered"].to_numpy().astype(float)
            pa = ca.mean()
            if comp == "paired":
                d = ca - ce
                se = d.std(ddof=1) / math.sqrt(n) if n > 1 else 0.0
                width = (ex["upper"] - ex["lower"]).to_numpy()
                ok = np.isfinite(width) & (width > 0)
                rel = np.abs(np.concatenate([
                    (other["lower"].to_numpy() - ex["lower"].to_numpy())[ok] / width[ok],
                    (other["upper"].to_numpy() - ex["upper"].to_numpy())[ok] / width[ok]]))
                med = float(np.median(rel)) if rel.size else math.nan
            else:
                se = math.sqrt((pe * (1 - pe) + pa * (1 - pa)) / n)
                med = math.nan
            z = (pa - pe) / se if se > 0 else 0.0 if pa == pe else math.inf
            rows.append({**base, "comparison": comp, "exact": pe, "approx": pa, "n": n,
                         "se_diff": se, "z": z, "median_end_shift": med,
                         "se_exact": math.sqrt(pe * (1 - pe) / n)})
    return pd.DataFrame(rows)
