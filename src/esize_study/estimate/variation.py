"""Variation per level: Table tVariations, and the variance structure of a dataset.

:func:`variation_rows_from_estimates` turns the ``variances`` rule's per-benchmark
estimates into the rows of ``variations.csv``; :func:`variation_tolerance` is the
agreement rule beside the paper's table. :func:`variance_rows` says which level
dominates and where :math:`T^2 \\le 0`, beside the paper's Table tVariations, and
:func:`cpu_estimates` gives the same estimates for the CPU times of a measured
dataset.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from esize import Design, EsizeError
from esize import t2 as unbiased_t2

from ..paper import numbers as paper

__all__ = [
    "LEVELS",
    "VARIATION_COLUMNS",
    "variation_rows_from_estimates",
    "variation_tolerance",
    "cpu_estimates",
    "variance_rows",
]

#: Level names of a measured dataset, highest first (the paper's names).
LEVELS = paper.LEVELS

VARIATION_COLUMNS = ("benchmark", "level", "S_pct", "T_pct", "T2_positive")


def variation_rows_from_estimates(estimates: Sequence[Mapping]) -> list[dict]:
    """Rows of ``variations.csv`` from per-benchmark estimate records.

    Each record has ``benchmark``, ``S_pct``, ``T_pct`` and ``T2`` (three levels,
    highest first), as written by the pipeline's ``variances`` rule.
    """
    rows = []
    for e in estimates:
        if len(e["S_pct"]) != 3:
            raise EsizeError(f"{e['benchmark']}: expected 3 levels, got {len(e['S_pct'])}")
        for k, level in enumerate(paper.LEVELS):
            rows.append(
                {
                    "benchmark": e["benchmark"],
                    "level": level,
                    "S_pct": float(e["S_pct"][k]),
                    "T_pct": float(e["T_pct"][k]),
                    "T2_positive": bool(e["T2"][k] > 0),
                }
            )
    return rows


def variation_tolerance(paper_value: float) -> float:
    """Allowed deviation from a Table tVariations number: 10 % or 0.15 points."""
    return max(0.1 * abs(paper_value), 0.15)


def _shares(t2: np.ndarray) -> np.ndarray:
    pos = np.clip(t2, 0.0, None)
    total = pos.sum()
    return pos / total if total > 0 else np.full(pos.shape, math.nan)


def cpu_estimates(designs: Sequence[Design | None], estimates: Sequence[Mapping]) -> list[dict]:
    """Variance estimates of the CPU time of the same iterations, where files have it.

    Parameters
    ----------
    designs : sequence of Design or None
        The CPU times of every iteration of each raw file (warm-up included;
        :attr:`esize_study.datasets.measured.MeasuredFile.cpu`), None for a file
        without them, in the order of ``estimates``.
    estimates : sequence of mapping
        The wall-time estimates (for the benchmark names and warm-up counts).

    Returns
    -------
    list of dict
        ``benchmark``, ``S_pct``, ``T_pct``, ``T2``, ``counts`` per benchmark with a
        ``cpu_time`` column (the time the process ran, without the time it waited).
    """
    from esize import variance_components

    out = []
    for cpu, e in zip(designs, estimates):
        d = None if cpu is None else cpu.trim(int(e["warmup"]))
        if d is None:
            continue
        vc = variance_components(d)
        out.append({"benchmark": e["benchmark"], "S_pct": vc.S_pct.tolist(),
                    "T_pct": vc.T_pct.tolist(), "T2": vc.T2.tolist(), "counts": list(d.shape)})
    return out


def variance_rows(estimates: Sequence[Mapping], source: str = "data",
                  with_paper: bool = True) -> list[dict]:
    """Per benchmark: S and T per level, where :math:`T^2 \\le 0`, and which level
    dominates the variance of a single measurement (the largest share of the
    positive :math:`T^2`), with the same for the paper's benchmarks (Table tVariations,
    its counts).

    Parameters
    ----------
    estimates : sequence of mapping
        Records with ``benchmark``, ``S_pct``, ``T_pct``, ``T2`` (highest level first).
    source : str
        Label of these rows (``"data"``; ``"cpu"`` for :func:`cpu_estimates`).
    with_paper : bool
        Append the paper's rows (``source="paper"``).

    Returns
    -------
    list of dict
        ``source``, ``benchmark``, ``S_pct``, ``T_pct``,
        ``share`` (lists, highest level first), ``nonpositive`` (level names with
        :math:`T^2 \\le 0`) and ``dominant`` (level name).
    """
    rows = []
    for e in estimates:
        t2 = np.asarray(e["T2"], dtype=np.float64)
        share = _shares(t2)
        rows.append({
            "source": source, "benchmark": e["benchmark"],
            "S_pct": [float(x) for x in e["S_pct"]], "T_pct": [float(x) for x in e["T_pct"]],
            "share": [float(x) for x in share],
            "nonpositive": [LEVELS[k] for k in range(len(t2)) if t2[k] <= 0],
            "dominant": LEVELS[int(np.nanargmax(share))] if np.any(np.isfinite(share)) else "-",
        })
    for b in paper.BENCHMARKS if with_paper else ():
        s = np.asarray(paper.VARIATION_S[b], dtype=np.float64)
        counts = [paper.BINARIES, paper.EXECUTIONS, paper.steady_measurements(b)]
        t2 = unbiased_t2(s**2, counts)
        share = _shares(t2)
        rows.append({
            "source": "paper", "benchmark": b, "S_pct": s.tolist(),
            "T_pct": np.sqrt(np.clip(t2, 0, None)).tolist(), "share": share.tolist(),
            "nonpositive": [LEVELS[k] for k in range(3) if t2[k] <= 0],
            "dominant": LEVELS[int(np.nanargmax(share))],
        })
    return rows
