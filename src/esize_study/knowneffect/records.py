"""The known-effect intervals as tables: coverage, verdicts and their Monte Carlo errors.

:func:`records_to_frame` is the simulation job's table of intervals;
:func:`coverage_rows` and :func:`verdict_rows` make ``known_effects.csv`` and
``known_effect_verdicts.csv`` from it, and :func:`read_tables` reads those back with
the reference table for the report.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from esize import RELATIVE_TOLERANCE, verdict

from ..estimate.rates import call

__all__ = [
    "METHODS",
    "VERDICTS",
    "records_to_frame",
    "verdicts",
    "expected_verdict",
    "is_wrong",
    "coverage_rows",
    "verdict_rows",
    "COVERAGE_COLUMNS",
    "VERDICT_COLUMNS",
    "REFERENCE_COLUMNS",
    "read_tables",
]

#: Methods, in table order.
METHODS = ("fieller-t", "fieller-normal", "bootstrap-RRR")
#: Verdicts of :func:`esize.verdict`, in table order.
VERDICTS = ("slower", "same", "faster", "inconclusive")


def records_to_frame(records: Sequence[dict], variant: str):
    """One row per simulated interval: ``variant, size, method, comparison, estimate,
    lower, upper, bounded``, sorted by size, method and comparison."""
    import pandas as pd

    parts = [
        pd.DataFrame({
            "variant": variant,
            "size": r["size"],
            "method": r["method"],
            "comparison": r["first"] + np.arange(len(r["lower"])),
            "estimate": r["estimate"],
            "lower": r["lower"],
            "upper": r["upper"],
            "bounded": r["bounded"],
        })
        for r in records
    ]
    if not parts:  # every size skipped: no interval, the columns all the same
        return pd.DataFrame({"variant": pd.Series(dtype=object), "size": pd.Series(dtype=np.int64),
                             "method": pd.Series(dtype=object),
                             "comparison": pd.Series(dtype=np.int64),
                             **{k: pd.Series(dtype=np.float64)
                                for k in ("estimate", "lower", "upper")},
                             "bounded": pd.Series(dtype=bool)})
    frame = pd.concat(parts, ignore_index=True)
    order = {m: i for i, m in enumerate(METHODS)}
    frame = frame.assign(_m=frame["method"].map(order))
    frame = frame.sort_values(["size", "_m", "comparison"], kind="stable").drop(columns="_m")
    return frame.reset_index(drop=True)


# -- verdicts, shares and their Monte Carlo errors ---------------------------------------
_verdict = np.vectorize(
    lambda lo, hi, ok, t: verdict(lo, hi, t, bounded=bool(ok)), otypes=[object]
)


def verdicts(lower, upper, bounded, threshold: float) -> np.ndarray:
    """:func:`esize.verdict` of every interval at ``threshold`` (a fraction).

    Returns
    -------
    ndarray of str
        ``"faster"``, ``"slower"``, ``"same"`` or ``"inconclusive"`` per interval.
    """
    return _verdict(np.asarray(lower, dtype=np.float64), np.asarray(upper, dtype=np.float64),
                    np.asarray(bounded, dtype=bool), float(threshold)).astype(str)


def expected_verdict(ratio: float, threshold: float) -> str:
    """The verdict the true ratio calls for at ``threshold`` (a fraction).

    ``"slower"`` when the ratio exceeds ``1 + t``, ``"faster"`` below ``1 - t``,
    ``"same"`` within ``[1 - t, 1 + t]`` for ``t > 0`` (the boundary belongs to it, as
    in :func:`esize.verdict`), and ``"inconclusive"`` for no change at ``t = 0``
    (no interval can show that two systems are the same at threshold 0).
    """
    hi = (1.0 + threshold) * (1.0 + RELATIVE_TOLERANCE)
    lo = (1.0 - threshold) * (1.0 - RELATIVE_TOLERANCE)
    if ratio > hi:
        return "slower"
    if ratio < lo:
        return "faster"
    return "same" if threshold > 0 else "inconclusive"


def is_wrong(found: np.ndarray, ratio: float, threshold: float) -> np.ndarray:
    """Whether each verdict states something false about the true ``ratio``.

    ``"slower"`` claims a ratio above ``1 + t``, ``"faster"`` one below ``1 - t``,
    ``"same"`` one within ``[1 - t, 1 + t]``; ``"inconclusive"`` claims nothing. A
    ratio within a relative :math:`10^{-12}` of a boundary counts as on it.
    """
    found = np.asarray(found)
    hi = (1.0 + threshold) * (1.0 + RELATIVE_TOLERANCE)
    lo = (1.0 - threshold) * (1.0 - RELATIVE_TOLERANCE)
    return (
        ((found == "slower") & (ratio <= hi))
        | ((found == "faster") & (ratio >= lo))
        | ((found == "same") & ((ratio > hi) | (ratio < lo)))
    )


def _se(p: float, n: int) -> float:
    return math.sqrt(p * (1 - p) / n) if n > 0 else math.nan


def _contains(g, value: float) -> np.ndarray:
    lo, hi = g["lower"].to_numpy(), g["upper"].to_numpy()
    return (lo <= value) & (value <= hi)


#: Columns of ``known_effects.csv``.
COVERAGE_COLUMNS = (
    "variant", "base", "ratio", "full_ratio", "size", "method", "comparisons", "unbounded",
    "coverage", "coverage_se", "coverage_call", "coverage_full", "coverage_full_se",
    "coverage_full_call", "median_halfwidth_pct",
)
#: Columns of ``known_effect_verdicts.csv``.
VERDICT_COLUMNS = (
    "variant", "base", "ratio", "size", "method", "threshold_pct", "comparisons", "expected",
    "slower", "slower_se", "same", "same_se", "faster", "faster_se", "inconclusive",
    "inconclusive_se", "wrong", "wrong_se",
)


#: Columns of ``known_effect_references.csv``.
REFERENCE_COLUMNS = (
    "variant", "base", "ratio", "base_binaries", "variant_binaries", "estimate",
    "fieller_t_lower", "fieller_t_upper", "fieller_normal_lower", "fieller_normal_upper",
    "bootstrap_lower", "bootstrap_upper", "bootstrap_resamples", "contains_injected",
    "cpu_estimate", "cpu_lower", "cpu_upper", "cpu_contains_injected",
)


def _groups(frame):
    order = {m: i for i, m in enumerate(METHODS)}
    keys = sorted(
        {(v, int(s), m) for v, s, m in zip(frame["variant"], frame["size"], frame["method"])},
        key=lambda x: (x[0], x[1], order.get(x[2], 99)),
    )
    by = dict(tuple(frame.groupby(["variant", "size", "method"], sort=False)))
    return [(k, by[k]) for k in keys]


def coverage_rows(frame, info: Mapping[str, Mapping], alpha: float = 0.05) -> list[dict]:
    """Rows of ``known_effects.csv``: coverage of the injected and full-data ratios.

    Parameters
    ----------
    frame : DataFrame
        Per-interval results (:func:`records_to_frame`), any number of variants.
    info : mapping
        Per variant name: ``base`` (name), ``ratio`` (injected) and ``full_ratio``
        (the full-data estimate, :func:`esize_study.knowneffect.simulate.reference`).
    alpha : float
        The intervals' level: coverage is called against ``1 - alpha``.
    """
    rows = []
    for (variant, size, method), g in _groups(frame):
        inf = info[variant]
        n = len(g)
        cov = float(_contains(g, inf["ratio"]).mean())
        full = float(_contains(g, inf["full_ratio"]).mean())
        ok = g["bounded"].to_numpy()
        half = 50.0 * (g["upper"] - g["lower"]).to_numpy()[ok] / g["estimate"].to_numpy()[ok]
        rows.append({
            "variant": variant, "base": inf["base"], "ratio": inf["ratio"],
            "full_ratio": inf["full_ratio"], "size": size, "method": method,
            "comparisons": n, "unbounded": int((~ok).sum()),
            "coverage": cov, "coverage_se": _se(cov, n), "coverage_call": call(cov, n, 1 - alpha),
            "coverage_full": full, "coverage_full_se": _se(full, n),
            "coverage_full_call": call(full, n, 1 - alpha),
            "median_halfwidth_pct": float(np.median(half)) if half.size else math.nan,
        })
    return rows


def verdict_rows(frame, info: Mapping[str, Mapping], thresholds_pct: Sequence[float]) -> list[dict]:
    """Rows of ``known_effect_verdicts.csv``: shares of each verdict per threshold.

    ``wrong`` is the share of verdicts that state something false about the injected
    ratio (:func:`is_wrong`); ``expected`` is the verdict it calls for
    (:func:`expected_verdict`).
    """
    rows = []
    for (variant, size, method), g in _groups(frame):
        inf = info[variant]
        n = len(g)
        for tp in thresholds_pct:
            t = float(tp) / 100.0
            found = verdicts(g["lower"], g["upper"], g["bounded"], t)
            row = {"variant": variant, "base": inf["base"], "ratio": inf["ratio"], "size": size,
                   "method": method, "threshold_pct": float(tp), "comparisons": n,
                   "expected": expected_verdict(inf["ratio"], t)}
            for v in VERDICTS:
                p = float(np.mean(found == v))
                row[v], row[f"{v}_se"] = p, _se(p, n)
            w = float(np.mean(is_wrong(found, inf["ratio"], t)))
            row["wrong"], row["wrong_se"] = w, _se(w, n)
            rows.append(row)
    return rows


def read_tables(coverage_csv: str | Path, verdicts_csv: str | Path,
                references_csv: str | Path) -> tuple[list, list, list]:
    """The ``known_effect_table`` rule's CSVs read back: the reference, coverage and
    verdict rows, their numbers as numbers."""

    def read(f):
        with open(f, newline="") as fh:
            return list(csv.DictReader(fh))

    refs = read(references_csv)
    floats = ("coverage", "coverage_se", "coverage_full", "coverage_full_se",
              "median_halfwidth_pct")
    cov = [{**r, "size": int(r["size"]), "comparisons": int(r["comparisons"]),
            **{k: float(r[k]) for k in floats}} for r in read(coverage_csv)]
    shares = [c for c in VERDICT_COLUMNS if c.endswith("_se") or c + "_se" in VERDICT_COLUMNS]
    verd = [{**r, "size": int(r["size"]), **{k: float(r[k]) for k in shares}}
            for r in read(verdicts_csv)]
    return refs, cov, verd
