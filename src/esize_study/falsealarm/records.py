"""The false-alarm jobs' records as columns, and the rates table made from them.

A simulation job writes one row per simulated comparison and method
(:func:`records_to_columns`: ``t*``, the largest threshold at which the comparison
still alarms, and whether its interval is bounded); :func:`rate_rows` turns them into
``false_alarm.csv``, the rate at every threshold of the grid. :func:`false_alarm_rows`
summarises that table for the report section on a measured dataset.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from esize import EsizeError

from ..estimate.rates import call, rates_at

__all__ = [
    "CSV_COLUMNS",
    "records_to_columns",
    "rate_rows",
    "FA_BINARIES",
    "FA_EXECUTIONS",
    "false_alarm_rows",
]

#: Columns of ``false_alarm.csv``.
CSV_COLUMNS = (
    "benchmark",
    "experiment",
    "method",
    "scheme",
    "binaries",
    "executions",
    "threshold_pct",
    "rate",
    "se",
    "comparisons",
    "unbounded",
)


def records_to_columns(records: Sequence[dict], benchmark: str) -> dict[str, np.ndarray]:
    """One entry per simulated comparison: ``tstar`` (fraction) and ``bounded``, as
    columns (numpy arrays) sorted by kind, size, method, scheme and comparison.

    The simulation scripts write these with
    :func:`esize_study.datasets.files.write_parquet_columns`, without pandas (whose import
    costs more than a small job's simulation).
    """
    if not records:
        raise EsizeError("no simulated comparisons")
    n = np.array([len(r["tstar"]) for r in records])

    def each(key):  # one value per record, repeated for its comparisons
        return np.repeat(np.array([r[key] for r in records], dtype=object), n)

    cols = {
        "benchmark": np.repeat(np.array([benchmark], dtype=object), n.sum()),
        "kind": each("experiment"),
        "size": np.repeat(np.array([r["size"] for r in records], dtype=np.int64), n),
        "method": each("method"),
        "scheme": each("scheme"),
        "comparison": np.concatenate([r["first"] + np.arange(k) for r, k in zip(records, n)]),
        "tstar": np.concatenate([np.asarray(r["tstar"], dtype=np.float64) for r in records]),
        "bounded": np.concatenate([np.asarray(r["bounded"], dtype=bool) for r in records]),
    }
    keys = [np.unique(cols[k].astype(str), return_inverse=True)[1] if cols[k].dtype == object
            else cols[k] for k in ("kind", "size", "method", "scheme", "comparison")]
    order = np.lexsort(keys[::-1])  # stable; the first key sorts first
    return {k: v[order] for k, v in cols.items()}


def _experiment_rows(kind: str, method: str, scheme: str) -> list[str]:
    if kind == "executions":
        return ["fFA2L"]
    out = []
    if method != "bootstrap" or scheme == "RRR":
        out.append("fFAFFT")
    if method == "bootstrap":
        out.append("fFABoot")
    return out


def rate_rows(frame, thresholds_pct: Sequence[float], executions: int) -> list[dict]:
    """Rows of ``false_alarm.csv`` from per-comparison results of one benchmark.

    ``executions`` is the number of executions per binary in the binaries experiment
    (all of them are used).
    """
    rows = []
    th = np.asarray(thresholds_pct, dtype=np.float64)
    for (bench, kind, size, method, scheme), g in frame.groupby(
        ["benchmark", "kind", "size", "method", "scheme"], sort=True
    ):
        ts = g["tstar"].to_numpy()
        c = ts.size
        rates = rates_at(ts, th / 100.0)
        unb = int((~g["bounded"].to_numpy()).sum())
        b, e = (int(size), executions) if kind == "binaries" else (1, int(size))
        for exp in _experiment_rows(kind, method, scheme):
            for t, p in zip(th, rates):
                rows.append(
                    {
                        "benchmark": bench,
                        "experiment": exp,
                        "method": method,
                        "scheme": scheme,
                        "binaries": b,
                        "executions": e,
                        "threshold_pct": float(t),
                        "rate": float(p),
                        "se": math.sqrt(p * (1 - p) / c),
                        "comparisons": c,
                        "unbounded": unb,
                    }
                )
    return rows


#: Sizes of the false-alarm experiments shown in the report (with the pool's own size).
FA_BINARIES = (2, 3, 5, 10, 20)
FA_EXECUTIONS = (2, 5)


def false_alarm_rows(table, pool, thresholds_pct: Sequence[float] = (0, 1, 2),
                     alpha: float = 0.05) -> list[dict]:
    """The false-alarm rates of the simulations on a measured pool, at a few thresholds.

    Parameters
    ----------
    table : DataFrame
        ``false_alarm.csv``.
    pool : (int, int) or mapping
        Binaries and executions per binary of the pool, or ``{benchmark: (binaries,
        executions)}`` when the benchmarks were measured with different designs. The rows
        are those of
        :data:`FA_BINARIES` binaries and :data:`FA_EXECUTIONS` executions and of the
        pool's own sizes, where simulated; sizes beyond the pool (drawn with
        replacement, so possible) are left out.
    thresholds_pct : sequence of float
        Thresholds shown (those on the simulated grid).
    alpha : float
        The intervals' level: the rate at threshold 0 is called against it.

    Returns
    -------
    list of dict
        ``benchmark``, ``experiment`` (``binaries``: k binaries with all their
        executions, the paper's fFAFFT; ``executions``: one binary, e executions,
        fFA2L), ``method``, ``size``, and per threshold ``rate_<t>``, ``se_<t>``;
        ``call_0``: the rate at 0 against ``alpha`` (:func:`esize_study.estimate.rates.call`).
    """
    rows = []
    have = sorted(set(table["threshold_pct"].astype(float)))
    shown = [t for t in thresholds_pct if any(abs(t - h) < 1e-9 for h in have)]
    pools = dict(pool) if isinstance(pool, Mapping) else {}
    top = (max([p[0] for p in pools.values()] or [0]), max([p[1] for p in pools.values()] or [0]))
    every = list(pools.values()) or [tuple(pool)]
    if not pools:
        top = tuple(pool)
    kb = [k for k in (*FA_BINARIES, *(p[0] for p in every)) if k <= top[0]]
    ke_ = [e for e in (*FA_EXECUTIONS, *(p[1] for p in every)) if e <= top[1]]
    sel = table[
        ((table["experiment"] == "fFAFFT") & table["binaries"].isin(kb))
        | ((table["experiment"] == "fFA2L") & (table["binaries"] == 1)
           & table["executions"].isin(ke_))
    ]
    sel = sel[(sel["method"] != "bootstrap") | (sel["scheme"] == "RRR")]
    for (bench, exp, method, b, e), g in sel.groupby(
            ["benchmark", "experiment", "method", "binaries", "executions"], sort=True):
        kind = "binaries" if exp == "fFAFFT" else "executions"
        own = pools.get(bench, top)
        if (b > own[0]) if kind == "binaries" else (e > own[1]):
            continue  # beyond this benchmark's own pool
        row = {"benchmark": bench, "experiment": kind,
               "method": method if method != "bootstrap" else "bootstrap-RRR",
               "size": int(b if kind == "binaries" else e),
               "comparisons": int(g["comparisons"].iloc[0])}
        for t in shown:
            hit = g[(g["threshold_pct"].astype(float) - t).abs() < 1e-9].iloc[0]
            row[f"rate_{t:g}"], row[f"se_{t:g}"] = float(hit["rate"]), float(hit["se"])
        if 0 in shown:
            row["call_0"] = call(row["rate_0"], row["comparisons"], alpha)
        rows.append(row)
    methods = {"asymptotic": 0, "normal": 1, "bootstrap-RRR": 2}
    rows.sort(key=lambda r: (r["benchmark"], r["experiment"] != "binaries",
                             methods.get(r["method"], 9), r["size"]))
    return rows
