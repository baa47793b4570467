r"""False-alarm simulations on real (or stand-in) three-level benchmark data.

Two "systems" are drawn from the *same* benchmark, so any verdict other than "no
change" is a false alarm. With a threshold :math:`t`, a comparison is a false alarm
when its confidence interval for the ratio new/old lies wholly above :math:`1+t` or
wholly below :math:`1-t`. Each comparison is summarised by the largest threshold at
which it still alarms,

.. math:: t^* = \max(\text{lower} - 1,\; 1 - \text{upper}),

so that the false-alarm rate at any threshold is the share of comparisons with
:math:`t^* > t` (unbounded intervals never alarm).

Experiments (the paper's Section "False Alarm Rate"):

``binaries``
    each system is ``k`` binaries drawn with replacement, with all their executions
    and measurements (Figures ``fFAFFT`` and ``fFABoot``). With ``k = 1`` the
    parametric methods treat executions as the top level (a two-level experiment).
``executions``
    each system is one random binary and ``e`` executions drawn from it with
    replacement; the methods ignore the binary level (Figure ``fFA2L``). With
    ``e = 1`` the experiment is flat: the measurements of one execution.

Speed
-----
Everything is computed from per-binary and per-execution statistics, once per
benchmark. The parametric intervals need only the chosen units' means. For the
bootstrap the top level is resampled exactly; in the default ``approx`` mode, the
resampled mean of one chosen unit (a binary under RRR/RRN, an execution in the
two-level experiment) is replaced by a normal draw with its exact bootstrap mean and
variance,

.. math::

    \operatorname{var}^*(\overline{Y}^*_b) = \frac{1}{n_2}\Big[\frac{n_2-1}{n_2}
        S_{2,b}^2 + \frac{n_1-1}{n_1^2}\, \overline{s^2_{1,b}}\Big]
    \quad\text{(RRR)},\qquad
    \frac{n_2-1}{n_2^2} S_{2,b}^2 \quad\text{(RRN)},

and FLAT resampling of :math:`N` pooled values by a normal draw with the pool's mean
and plug-in variance over :math:`N`. RNN needs no approximation. ``exact`` mode
resamples every level with :func:`esize.bootstrap.resample_means`; the pipeline
validates one against the other. The flat two-level case (``e = 1``) is always
resampled exactly.

Determinism
-----------
Comparisons are simulated in fixed-size blocks by :mod:`esize_study.engine`; block
``j`` of cell ``x`` of experiment ``E`` on benchmark ``b`` draws from
``SeedSequence(seed, spawn_key=(b, E, x, j, stream))``, so results do not depend on
how blocks are spread over jobs, shards or processes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from esize import Design, EsizeError, critical_value, fieller, resample_means

from ..engine._kernels import standard_normal
from ..engine.resampling import normal_shift, percentile_interval, resampled_sums
from ..engine.seeds import generator
from ..engine.tasks import run_tasks

__all__ = [
    "EXPERIMENTS",
    "BOOT_SCHEMES",
    "BenchStats",
    "bench_stats",
    "CellSpec",
    "simulate_block",
    "simulate_cells",
    "grid_cells",
    "refined_cells",
]

EXPERIMENTS = {"binaries": 1, "executions": 2}
BOOT_SCHEMES = ("RRR", "RRN", "RNN", "FLAT")
_STREAM_UNITS, _STREAM_BOOT_OLD, _STREAM_BOOT_NEW = 0, 1, 2


@dataclass(frozen=True)
class BenchStats:
    """Per-binary and per-execution statistics of one benchmark (steady state).

    Attributes
    ----------
    data : ndarray (n_binaries, n_executions, n_1)
        The measurements (needed for the flat case and for ``exact`` mode).
    binary_means, exec_means, exec_vars : ndarray
        Unit means, and within-execution sample variances (ddof = 1).
    v_rrr, v_rrn : ndarray (n_binaries,)
        Bootstrap variance of one binary's resampled mean under RRR / RRN.
    v_exec : ndarray (n_binaries, n_executions)
        Bootstrap variance of one execution's resampled mean.
    mean_sq : ndarray (n_binaries,)
        Mean of the squared measurements of each binary (for FLAT).
    """

    data: np.ndarray
    binary_means: np.ndarray
    exec_means: np.ndarray
    exec_vars: np.ndarray
    v_rrr: np.ndarray
    v_rrn: np.ndarray
    v_exec: np.ndarray
    mean_sq: np.ndarray

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.data.shape  # type: ignore[return-value]


def bench_stats(data) -> BenchStats:
    """Precompute :class:`BenchStats` from a three-level design or array."""
    y = data.data if isinstance(data, Design) else np.asarray(data, dtype=np.float64)
    if y.ndim != 3 or min(y.shape) < 2:
        raise EsizeError(f"false-alarm simulation needs 3 levels with >= 2 units, got {y.shape}")
    nb, ne, n1 = y.shape
    em = y.mean(axis=2)
    ev = y.var(axis=2, ddof=1)
    s2b = em.var(axis=1, ddof=1)
    v_exec = (n1 - 1) / n1**2 * ev
    v_rrr = ((ne - 1) / ne * s2b + v_exec.mean(axis=1)) / ne
    v_rrn = (ne - 1) / ne**2 * s2b
    mean_sq = (y * y).mean(axis=(1, 2))
    return BenchStats(y, em.mean(axis=1), em, ev, v_rrr, v_rrn, v_exec, mean_sq)


@dataclass(frozen=True)
class CellSpec:
    """One simulated cell: an experiment at one size.

    ``first`` comparisons are skipped (a multiple of the block size): a cell refined
    with more comparisons runs only the blocks beyond the grid's own, whose seeds are
    those the grid's cell would give them. ``bootstrap=False`` runs the parametric
    methods only (their draws do not depend on the bootstrap's streams).
    """

    experiment: str  # "binaries" or "executions"
    size: int  # k binaries, or e executions
    comparisons: int
    resamples: int
    schemes: tuple[str, ...] = ("RRR",)
    alpha: float = 0.05
    mode: str = "approx"
    first: int = 0
    bootstrap: bool = True

    def blocks(self, block: int) -> int:
        """Number of blocks of ``block`` comparisons, the skipped ones included."""
        return math.ceil(self.comparisons / block)

    def first_block(self, block: int) -> int:
        """The first block to run (``first`` must be a multiple of ``block``)."""
        if self.first % block:
            raise EsizeError(f"a refined cell starts at comparison {self.first}, not a "
                             f"multiple of the block of {block}")
        return self.first // block

    @property
    def key(self) -> tuple[int, int]:
        """The cell's part of the seed key: experiment code and size."""
        return (EXPERIMENTS[self.experiment], self.size)


def _tstar(lower, upper, bounded):
    t = np.maximum(lower - 1.0, 1.0 - upper)
    return np.where(bounded, t, -np.inf)


def _param(m_old, v_old, m_new, v_new, df, alpha):
    out = {}
    for method, q in (("asymptotic", critical_value(alpha, df)), ("normal", critical_value(alpha))):
        lo, hi, ok = fieller(m_old, v_old, m_new, v_new, q)
        out[method] = (lo, hi, ok)
    return out


def _boot_binaries(st: BenchStats, units: np.ndarray, rng, cell: CellSpec) -> dict:
    """Replicate means (c, R) of systems made of the binaries in ``units`` (c, k)."""
    c, k = units.shape
    R = cell.resamples
    out = {}
    schemes = [s for s in cell.schemes if s != "FLAT"]
    if cell.mode == "exact":
        for s in cell.schemes:
            out[s] = np.stack(
                [resample_means(st.data[u], s, R, rng=rng) for u in units]
            )
        return out
    if cell.schemes:
        # the means, and the bootstrap variances the schemes need, summed over the
        # same draws of k binaries per replicate (drawn for any scheme, FLAT alone too:
        # then FLAT's own draws follow the same ones whatever the subset of schemes)
        need = [st.binary_means] + [st.v_rrr if s == "RRR" else st.v_rrn
                                    for s in schemes if s != "RNN"]
        sums = resampled_sums([q[units] for q in need], R, rng)
        base = sums[0] / k
        z = standard_normal(rng, (c, R))
        extra = iter(sums[1:])
        for s in schemes:
            if s == "RNN":
                out[s] = base
                continue
            w = np.sqrt(next(extra))  # base + sqrt(v) / k * z, in place
            w /= k
            w *= z
            w += base
            out[s] = w
    if "FLAT" in cell.schemes:
        n_total = k * st.shape[1] * st.shape[2]
        pm = st.binary_means[units].mean(axis=1)
        pv = np.maximum(st.mean_sq[units].mean(axis=1) - pm**2, 0.0)
        flat = standard_normal(rng, (c, R))  # pm + sd * z, in place
        flat *= np.sqrt(pv / n_total)[:, None]
        flat += pm[:, None]
        out["FLAT"] = flat
    return out


def _boot_executions(st: BenchStats, binaries, execs, rng, cell: CellSpec) -> dict:
    """RR replicate means (c, R) of one binary's executions ``execs`` (c, e)."""
    c, e = execs.shape
    R = cell.resamples
    if e == 1 or cell.mode == "exact":
        # resample the real measurements (the flat case is cheap enough to be exact)
        if e == 1:
            return {
                "RRR": np.stack(
                    [resample_means(st.data[b, x[0]], "R", R, rng=rng) for b, x in zip(binaries, execs)]
                )
            }
        return {
            "RRR": np.stack(
                [resample_means(st.data[b][x], "RR", R, rng=rng) for b, x in zip(binaries, execs)]
            )
        }
    flat_units = binaries[:, None] * st.shape[1] + execs  # into the flat arrays
    base, v = resampled_sums([st.exec_means.ravel()[flat_units], st.v_exec.ravel()[flat_units]],
                             R, rng)
    z = standard_normal(rng, (c, R))
    return {"RRR": normal_shift(base, v, z, e)}


def grid_cells(cfg, kind: str) -> list[CellSpec]:
    """The cells of experiment ``kind`` for the ``false_alarm`` settings ``cfg``: every
    size of ``cfg[kind]`` with ``cfg["comparisons"]`` comparisons (bootstrap schemes:
    all of ``cfg["schemes"]`` for ``binaries``, RRR for ``executions``)."""
    schemes = tuple(cfg["schemes"]) if kind == "binaries" else ("RRR",)
    return [CellSpec(kind, int(size), cfg["comparisons"], cfg["resamples"], schemes, cfg["alpha"])
            for size in cfg[kind]]


def refined_cells(cfg, bench: str, kind: str) -> list[CellSpec]:
    """The extra comparisons of the cells that ``cfg["refine"]`` lists for ``bench``.

    Each entry of ``cfg["refine"]["cells"]`` names ``benchmarks`` (a list or ``"all"``),
    the sizes of ``binaries`` and/or ``executions`` (a list or ``"all"``, each among
    the grid's sizes), ``bootstrap`` (default true; false refines the parametric
    methods only, which is far cheaper) and ``schemes`` (default: the grid's; a subset
    refines only those bootstrap schemes, whose numbers do not depend on the others:
    the draws they share are made for any subset, and FLAT's own come after them). A
    listed cell gets ``factor`` times the grid's
    comparisons: the returned cells run only the comparisons beyond the grid's
    (``first``), with the seeds the grid's cell would give them, so the grid's results
    and the refined ones together are one cell simulated ``factor`` times as long.

    Examples
    --------
    >>> cfg = {"comparisons": 100, "resamples": 50, "alpha": 0.05, "schemes": ["RRR"],
    ...        "binaries": [2, 3, 10], "executions": [1, 2],
    ...        "refine": {"factor": 10, "cells": [
    ...            {"benchmarks": ["TCP"], "binaries": [2, 10]},
    ...            {"benchmarks": "all", "binaries": [10], "bootstrap": False}]}}
    >>> [(c.size, c.first, c.comparisons, c.bootstrap) for c in refined_cells(cfg, "TCP", "binaries")]
    [(2, 100, 1000, True), (10, 100, 1000, True)]
    >>> cfg["refine"]["cells"][0]["schemes"] = ["RRR"]
    >>> cfg["schemes"] = ["RRR", "FLAT"]
    >>> [(c.size, c.schemes) for c in refined_cells(cfg, "TCP", "binaries")]
    [(2, ('RRR',)), (10, ('RRR',))]
    >>> [(c.size, c.bootstrap) for c in refined_cells(cfg, "FFT", "binaries")]
    [(10, False)]
    >>> refined_cells(cfg, "FFT", "executions")
    []
    """
    refine = cfg.get("refine") or {}
    grid = grid_cells(cfg, kind)
    every = grid[0].schemes if grid else ()
    boot: dict[int, set] = {}  # size -> the schemes it refines (empty: parametric only)
    for entry in refine.get("cells") or ():
        names = entry.get("benchmarks", "all")
        want = entry.get(kind)
        if (names != "all" and bench not in names) or want is None:
            continue
        schemes = set(entry.get("schemes") or every) if entry.get("bootstrap", True) else set()
        for size in (cfg[kind] if want == "all" else want):
            boot.setdefault(int(size), set()).update(schemes & set(every))
    n = cfg["comparisons"]
    return [replace(c, comparisons=int(refine["factor"]) * n, first=n,
                    bootstrap=bool(boot[c.size]),
                    schemes=tuple(s for s in every if s in boot[c.size]) or c.schemes)
            for c in grid if c.size in boot]


def simulate_block(st: BenchStats, cell: CellSpec, *, seed: int, bench_id: int, block: int,
                   block_size: int) -> list[dict]:
    """Simulate comparisons ``[block * block_size, ...)`` of ``cell``.

    Returns one record per (method, scheme) with arrays ``tstar`` and ``bounded``
    (one entry per comparison of the block).
    """
    first = block * block_size
    c = min(block_size, cell.comparisons - first)
    if c <= 0:
        return []
    nb, ne, n1 = st.shape
    g_units = generator(seed, bench_id, cell.key, block, _STREAM_UNITS)
    g_old = generator(seed, bench_id, cell.key, block, _STREAM_BOOT_OLD)
    g_new = generator(seed, bench_id, cell.key, block, _STREAM_BOOT_NEW)
    if cell.experiment == "binaries":
        k = cell.size
        old = g_units.integers(0, nb, size=(c, k))
        new = g_units.integers(0, nb, size=(c, k))
        if k >= 2:
            mo, mn = st.binary_means[old], st.binary_means[new]
            df = k - 1
        else:  # one binary: executions are the top level
            mo, mn = st.exec_means[old[:, 0]], st.exec_means[new[:, 0]]
            df = ne - 1
        res = _param(mo.mean(1), mo.var(1, ddof=1) / mo.shape[1],
                     mn.mean(1), mn.var(1, ddof=1) / mn.shape[1], df, cell.alpha)
        if cell.bootstrap:
            boot_old = _boot_binaries(st, old, g_old, cell)
            boot_new = _boot_binaries(st, new, g_new, cell)
    elif cell.experiment == "executions":
        e = cell.size
        bo = g_units.integers(0, nb, size=c)
        bn = g_units.integers(0, nb, size=c)
        xo = g_units.integers(0, ne, size=(c, e))
        xn = g_units.integers(0, ne, size=(c, e))
        if e >= 2:
            mo, mn = st.exec_means[bo[:, None], xo], st.exec_means[bn[:, None], xn]
            res = _param(mo.mean(1), mo.var(1, ddof=1) / e, mn.mean(1), mn.var(1, ddof=1) / e,
                         e - 1, cell.alpha)
        else:  # flat: one execution, the measurements are the top level
            res = _param(st.exec_means[bo, xo[:, 0]], st.exec_vars[bo, xo[:, 0]] / n1,
                         st.exec_means[bn, xn[:, 0]], st.exec_vars[bn, xn[:, 0]] / n1,
                         n1 - 1, cell.alpha)
        if cell.bootstrap:
            boot_old = _boot_executions(st, bo, xo, g_old, cell)
            boot_new = _boot_executions(st, bn, xn, g_new, cell)
    else:
        raise EsizeError(f"unknown experiment {cell.experiment!r}")
    if not cell.bootstrap:
        boot_old = boot_new = {}
    records = []
    for method, (lo, hi, ok) in res.items():
        records.append({"method": method, "scheme": "-", "tstar": _tstar(lo, hi, ok),
                        "bounded": np.asarray(ok)})
    for scheme in boot_old:
        lo, hi = percentile_interval(boot_new[scheme] / boot_old[scheme], cell.alpha,
                                     overwrite_input=True)
        ok = np.ones(c, dtype=bool)
        records.append({"method": "bootstrap", "scheme": scheme, "tstar": _tstar(lo, hi, ok),
                        "bounded": ok})
    for r in records:
        r.update(experiment=cell.experiment, size=cell.size, block=block, first=first)
    return records


def simulate_cells(
    st: BenchStats,
    cells: Sequence[CellSpec],
    *,
    seed: int,
    bench_id: int,
    block_size: int = 50,
    n_jobs: int = 1,
    shard: tuple[int, int] = (0, 1),
) -> list[dict]:
    """Run every block of ``cells`` (or shard ``i`` of ``n`` of them).

    Records come back in task order; a shard takes every ``n``-th task, so the union
    of all shards equals the unsharded run, whatever ``n_jobs`` (see
    :func:`esize_study.engine.tasks.run_tasks`).
    """
    fn = partial(_block_task, st, seed=seed, bench_id=bench_id, block_size=block_size)
    return run_tasks(fn, cells, lambda c: c.blocks(block_size) - c.first_block(block_size),
                     n_jobs=n_jobs, shard=shard, cost=partial(_cost, n1=st.shape[2]))


def _cost(cell: CellSpec, n1: int) -> float:
    """Rough relative cost of one block (for batching only; never changes results).

    Batching matters here: every batch sends the benchmark's statistics (and data) to
    a worker, which costs more than a small block's work.
    """
    units = n1 if cell.experiment == "executions" and cell.size == 1 else cell.size
    if cell.mode == "exact":
        units *= 50
    return 1.0 + cell.bootstrap * len(cell.schemes) * cell.resamples * units / 20.0


def _block_task(st, cell, block, *, seed, bench_id, block_size):
    return simulate_block(st, cell, seed=seed, bench_id=bench_id,
                          block=block + cell.first_block(block_size), block_size=block_size)
