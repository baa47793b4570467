"""The coverage jobs' counts and intervals as tables, and ``coverage.csv`` from them.

A simulation job writes its counts per cell, method and mode
(:func:`summary_columns`); :func:`coverage_rows` sums them into ``coverage.csv``. A
validation job keeps every experiment's interval (:func:`intervals_frame`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["CSV_COLUMNS", "summary_columns", "summarise", "coverage_rows", "intervals_frame"]

#: Columns of ``coverage.csv``.
CSV_COLUMNS = ("benchmark", "experiment", "method", "scheme", "binaries", "executions",
               "measurements", "coverage", "se", "experiments")
_KEY = ["benchmark", "experiment", "method", "scheme", "binaries", "executions",
        "measurements", "mode"]


def summary_columns(records: Sequence[dict], benchmark: str) -> dict[str, np.ndarray]:
    """Counts per cell, method and mode (blocks summed), as columns sorted by the key.

    The simulation script writes these with
    :func:`esize_study.datasets.files.write_parquet_columns`, without pandas.
    """
    fields = [k for k in _KEY if k != "benchmark"]
    acc: dict[tuple, list[int]] = {}
    for r in records:
        a = acc.setdefault(tuple(r[k] for k in fields), [0, 0, 0])
        a[0] += int(r["n"])
        a[1] += int(r["covered"])
        a[2] += int(r["unbounded"])
    keys = sorted(acc)
    cols: dict[str, np.ndarray] = {"benchmark": np.array([benchmark] * len(keys), dtype=object)}
    for i, k in enumerate(fields):
        vals = [key[i] for key in keys]
        cols[k] = np.array(vals, dtype=object if isinstance(vals[0], str) else np.int64) \
            if vals else np.array([], dtype=object)
    for i, k in enumerate(("n", "covered", "unbounded")):
        cols[k] = np.array([acc[key][i] for key in keys], dtype=np.int64)
    return cols


def summarise(records: Sequence[dict], benchmark: str):
    """:func:`summary_columns` as a DataFrame."""
    import pandas as pd

    return pd.DataFrame(summary_columns(records, benchmark))


def coverage_rows(counts) -> list[dict]:
    """Rows of ``coverage.csv`` from summed counts (approx-mode rows only)."""
    g = counts[counts["mode"] == "approx"]
    g = g.groupby([k for k in _KEY if k != "mode"], sort=True, as_index=False)[["n", "covered"]].sum()
    rows = []
    for r in g.itertuples(index=False):
        p = r.covered / r.n
        rows.append({
            "benchmark": r.benchmark, "experiment": r.experiment, "method": r.method,
            "scheme": r.scheme, "binaries": int(r.binaries), "executions": int(r.executions),
            "measurements": int(r.measurements), "coverage": p,
            "se": math.sqrt(p * (1 - p) / r.n), "experiments": int(r.n),
        })
    return rows


def intervals_frame(records: Sequence[dict], benchmark: str):
    """One row per experiment and method from records of cells with ``keep``."""
    import pandas as pd

    parts = []
    for r in records:
        if "lower" not in r:
            continue
        n = r["n"]
        parts.append(pd.DataFrame({
            "benchmark": benchmark, "experiment": r["experiment"], "binaries": r["binaries"],
            "executions": r["executions"], "measurements": r["measurements"],
            "method": r["method"], "scheme": r["scheme"], "mode": r["mode"],
            "index": r["first"] + np.arange(n), "lower": r["lower"], "upper": r["upper"],
            "covered": r["cover"],
        }))
    frame = pd.concat(parts, ignore_index=True)
    return frame.sort_values(_KEY[1:] + ["index"], kind="stable", ignore_index=True)
