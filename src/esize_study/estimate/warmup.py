"""The fixed warm-up cut beside what the data show (:func:`warmup_check`)."""

from __future__ import annotations

import math

import numpy as np

from esize import Design, EsizeError, auto_warmup

__all__ = ["warmup_check"]


def _spread(n: int, k: int) -> np.ndarray:
    """``min(k, n)`` indices spread evenly over ``0 .. n-1``."""
    return np.unique(np.linspace(0, n - 1, min(k, n)).round().astype(int))


def _excess(values: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """Mean and standard error over executions of ``values / ref - 1`` (per execution)."""
    d = (values / ref - 1.0).ravel()
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else math.nan


def warmup_check(raw: Design, warmup: int, *, binaries: int = 5, executions: int = 2,
                 name: str | None = None, cpu: Design | None = None) -> dict:
    """The fixed warm-up cut beside what the data show.

    Parameters
    ----------
    raw : Design
        All iterations of every execution (warm-up included), three levels.
    warmup : int
        Iterations the pipeline drops from each execution.
    binaries, executions : int
        :func:`esize.auto_warmup` runs on ``binaries x executions`` executions spread
        evenly over the design (a few, as a check; it needs the ruptures package).
    name : str, optional
        Benchmark name for messages.
    cpu : Design, optional
        The same iterations' CPU times (all of them): ``cpu_after`` and
        ``cpu_after_se`` then give ``after`` for them, which tells a compute warm-up
        left past the cut from time spent waiting for a CPU.

    Returns
    -------
    dict
        ``warmup``, ``iterations``; ``auto_*``: the executions checked, their cuts
        (median and largest among those with a steady state), the classes and the
        balanced ``kept`` count; ``first``, ``early``, ``late``: the mean relative
        excess over each execution's steady mean (iterations after the cut) of its
        first iteration, of iterations 2 to ``warmup // 2`` and of the rest of the
        warm-up, and ``after``: of the 5 iterations right after the cut over the
        iterations after them, each with its standard error over executions
        (``*_se``). An ``after`` consistent with 0 means no warm-up is left past the
        cut.
    """
    y = raw.data
    nb, ne, n = y.shape
    if not 0 < warmup < n - 1:
        raise EsizeError(f"{name or 'benchmark'}: warm-up {warmup} of {n} iterations leaves "
                         "nothing to check")
    groups = [y[b, e] for b in _spread(nb, binaries) for e in _spread(ne, executions)]
    rep = auto_warmup(groups, benchmark=name)
    settled = [p.cut for p in rep.processes if p.classification != "no_steady_state"]
    steady = y[:, :, warmup:].mean(axis=2)
    out = {
        "benchmark": name,
        "iterations": n,
        "warmup": warmup,
        "auto_checked": len(groups),
        "auto_median_cut": float(np.median(settled)) if settled else math.nan,
        "auto_max_cut": int(max(settled)) if settled else None,
        "auto_kept": rep.kept,
        "auto_classes": ", ".join(f"{k} {v}" for k, v in rep.classes.items() if v),
    }
    half = max(2, warmup // 2)
    parts = {"first": (0, 1), "early": (1, half), "late": (half, warmup)}
    for key, (a, b) in parts.items():
        if b > a:
            out[key], out[key + "_se"] = _excess(y[:, :, a:b].mean(axis=2), steady)
        else:
            out[key], out[key + "_se"] = math.nan, math.nan
    m = min(5, (n - warmup) // 2)
    out["after"], out["after_se"] = _excess(y[:, :, warmup:warmup + m].mean(axis=2),
                                            y[:, :, warmup + m:].mean(axis=2))
    out["after_iterations"] = m
    out["cpu_after"], out["cpu_after_se"] = math.nan, math.nan
    if cpu is not None and cpu.shape == raw.shape:
        c = cpu.data
        out["cpu_after"], out["cpu_after_se"] = _excess(c[:, :, warmup:warmup + m].mean(axis=2),
                                                        c[:, :, warmup + m:].mean(axis=2))
    return out
