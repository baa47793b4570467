"""Simulation machinery shared by the "False Alarm Rate" and "Coverage" studies.

Both families of simulations run many independent cells (an experiment at one size),
each split into fixed-size blocks of comparisons or experiments. This module holds
what they have in common:

* :func:`bench_id`, a stable integer naming a benchmark in seeds;
* :func:`generator`, the random stream of one (seed, benchmark, cell, block, stream);
* :func:`resampled_sums`, the sums of unit statistics over units drawn with
  replacement, the inner loop of every approximate bootstrap of the study;
* :func:`percentile_interval`, the percentile bootstrap interval of ratios;
* :func:`tasks_for` and :func:`run_tasks`, which split cells into blocks, pick a
  shard of them and run them serially or with joblib.

Determinism
-----------
Block ``j`` of a cell draws only from
``SeedSequence(seed, spawn_key=(bench, *cell_key, j, stream))``, where ``cell_key``
is the family's integer description of the cell. A block's numbers therefore do not
depend on which other blocks run, in which order, in which process, or in which
shard: the union of all shards equals the unsharded run, whatever ``n_jobs``.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np

from esize._bootstrap import _sum_table

from ._kernels import gather_sums

__all__ = [
    "bench_id",
    "generator",
    "group_size",
    "resampled_sums",
    "percentile_interval",
    "tasks_for",
    "run_tasks",
]

Cell = TypeVar("Cell")
#: Runs one block of one cell and returns its records.
BlockFn = Callable[[Any, int], list[dict]]


def bench_id(name: str) -> int:
    """Stable integer identifying a benchmark in seeds.

    Parameters
    ----------
    name : str
        The benchmark's display name.

    Returns
    -------
    int
        The first four bytes of the name's SHA-256, little endian: the same for a
        benchmark whatever other benchmarks a dataset has and in whichever order.
    """
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "little")


def generator(seed: int, bench: int, cell_key: Sequence[int], block: int,
              stream: int) -> np.random.Generator:
    """The random generator of one block and stream.

    Parameters
    ----------
    seed : int
        The study's seed (entropy of the :class:`numpy.random.SeedSequence`).
    bench : int
        :func:`bench_id` of the benchmark.
    cell_key : sequence of int
        The family's integer description of the cell (experiment code, sizes...).
    block : int
        Block number within the cell.
    stream : int
        Which of the block's independent streams (units, old or new replicates...).

    Returns
    -------
    numpy.random.Generator
        A PCG64 generator seeded with ``spawn_key=(bench, *cell_key, block, stream)``.
    """
    key = (bench, *cell_key, block, stream)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


#: Largest table of precomputed sums of one comparison (entries): 4096 complex numbers
#: (64 KiB) stay in a core's cache while they are gathered from.
GROUP_ENTRIES = 1 << 12


def group_size(units: int, resamples: int) -> int:
    """How many unit draws are made as one draw from a table of sums.

    ``g`` independent uniform draws from ``units`` units are one uniform draw from
    the ``units**g`` ordered tuples. A table of ``units**g`` sums costs about half as
    much per entry as a replicate's gather costs per code, so ``g`` minimises
    ``units**g + 2 * resamples * ceil(units / g)`` over ``1 <= g <= units`` with at
    most :data:`GROUP_ENTRIES` entries (the smallest such ``g`` on ties). Part of the
    definition of the random streams of :func:`resampled_sums`.
    """
    best, best_cost = 1, None
    g = 1
    while g <= units and units**g <= GROUP_ENTRIES:
        cost = units**g + 2 * resamples * -(-units // g)
        if best_cost is None or cost < best_cost:
            best, best_cost = g, cost
        g += 1
    return best


@functools.cache
def tune_allocator() -> None:
    """Let this process reuse freed memory for large arrays (glibc only; else nothing).

    The simulations allocate and free arrays of a few MB thousands of times. By
    default glibc returns such blocks to the kernel at once and gets fresh pages on
    the next allocation, one page fault per 4 KiB, which costs about as much as the
    arithmetic. Blocks up to 32 MiB come from the heap instead, and up to 256 MiB of
    freed heap is kept. Numbers do not change, only the time; memory in use stays
    bounded by the largest block. Runs once per process.
    """
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_mmap_threshold, 32 << 20)
    mallopt(m_trim_threshold, 256 << 20)


def resampled_sums(values: Sequence[np.ndarray], resamples: int,
                   rng: np.random.Generator) -> list[np.ndarray]:
    r"""Sums of unit statistics over units drawn with replacement, per replicate.

    Row ``i`` of every array in ``values`` holds one statistic of the ``u`` units of
    comparison (or experiment) ``i``. Each replicate draws ``u`` units of its row
    uniformly with replacement; the result is, for every statistic,

    .. math:: \Sigma_{i r} = \sum_{j=1}^{u} v_{i, J_{irj}},
        \qquad J_{irj} \sim \mathcal{U}\{0, \dots, u-1\} \text{ i.i.d.},

    the same draws for all statistics.

    Parameters
    ----------
    values : sequence of ndarray (c, u)
        The statistics (float64), all of the same shape.
    resamples : int
        Replicates ``R`` per row.
    rng : numpy.random.Generator
        The stream of the draws (consumed by one call of ``integers``).

    Returns
    -------
    list of ndarray (c, R)
        One array of sums per statistic.

    Notes
    -----
    The draws are made ``g`` at a time (:func:`group_size`): one uniform code on
    ``[0, u**g)`` picks a tuple of ``g`` units, and its sum is read from a table of
    the ``u**g`` precomputed tuple sums of the row; a last partial group of ``r``
    units uses its code modulo ``u**r`` (uniform, because ``u**r`` divides
    ``u**g``). Codes are 16-bit draws (``u**g <= 4096``, or ``u`` when ``g = 1``),
    so a replicate of ``u`` units costs ``ceil(u/g)`` cheap draws and gathers instead
    of ``u``. Two statistics travel together as the real and imaginary parts of one
    complex table, so that one gather serves both. The distribution is exactly that of
    ``u`` independent unit draws; only the summation order differs. The entries are
    added up by :func:`esize_study._kernels.gather_sums` (a compiled C loop when a
    compiler is there; the same sums without it).
    """
    v = [np.asarray(x, dtype=np.float64) for x in values]
    c, u = v[0].shape
    R = int(resamples)
    g = group_size(u, R)
    full, rem = divmod(u, g)
    m = u**g
    ncodes = full + (rem > 0)
    codes = rng.integers(0, m, size=(c, R, ncodes), dtype=np.uint16 if m <= 1 << 16 else np.uint32)
    packs = [v[i] + 1j * v[i + 1] if i + 1 < len(v) else v[i] for i in range(0, len(v), 2)]
    # the library's tables of tuple sums (flat); one row of u**g entries per comparison
    tables = [_sum_table(p, g).reshape(c, -1) for p in packs]
    mr = u**rem
    rtables = [_sum_table(p, rem).reshape(c, -1) if rem else None for p in packs]
    res = []
    for t, rt in zip(tables, rtables):
        s = gather_sums(t, codes, full, rt, mr)
        res += [s.real, s.imag] if np.iscomplexobj(s) else [s]
    return res[: len(v)]


def percentile_interval(ratios: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap interval from replicate ratios.

    Parameters
    ----------
    ratios : ndarray (..., R)
        Bootstrap replicates of the ratio new/old along the last axis.
    alpha : float
        One minus the confidence level.

    Returns
    -------
    lower, upper : ndarray (...)
        The ``alpha/2`` and ``1 - alpha/2`` quantiles (inverted empirical CDF, so each
        end is one of the replicates: the same numbers as ``numpy.quantile`` with
        ``method="inverted_cdf"``, read off one sort: numpy's vectorised sort of
        float64 rows is about twice as fast as a partition at two ranks).
    """
    ratios = np.asarray(ratios)
    lo_k, hi_k = _order_statistics(ratios.shape[-1], float(alpha))
    ordered = np.sort(ratios, axis=-1)
    return ordered[..., lo_k], ordered[..., hi_k]


@functools.lru_cache(maxsize=64)
def _order_statistics(n: int, alpha: float) -> tuple[int, int]:
    """0-based ranks of the inverted-CDF ``alpha/2`` and ``1-alpha/2`` quantiles of ``n``
    values (asked of numpy itself, so that the rule is numpy's)."""
    lo, hi = np.quantile(np.arange(n), [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
    return int(lo), int(hi)


def tasks_for(cells: Iterable[Cell], n_blocks: Callable[[Cell], int]) -> list[tuple[Cell, int]]:
    """All (cell, block) work items, in a fixed order.

    Parameters
    ----------
    cells : iterable
        The cells to simulate.
    n_blocks : callable
        Number of blocks of a cell.

    Returns
    -------
    list of (cell, int)
        Every block of the first cell, then of the second, and so on.
    """
    return [(cell, j) for cell in cells for j in range(n_blocks(cell))]


def _run_batch(block_fn: BlockFn, batch: Sequence[tuple[Any, int]]) -> list[dict]:
    tune_allocator()
    return [r for cell, j in batch for r in block_fn(cell, j)]


def _batches(tasks: list, cost: Callable[[Any], float] | None, n_jobs: int) -> list[list]:
    """Consecutive groups of tasks of about equal cost (one task each without ``cost``)."""
    if cost is None:
        return [[t] for t in tasks]
    batches, cur, acc = [], [], 0.0
    target = sum(cost(c) for c, _ in tasks) / (8 * n_jobs)
    for t in tasks:
        cur.append(t)
        acc += cost(t[0])
        if acc >= target:
            batches.append(cur)
            cur, acc = [], 0.0
    if cur:
        batches.append(cur)
    return batches


def run_tasks(
    block_fn: BlockFn,
    cells: Sequence[Cell],
    n_blocks: Callable[[Cell], int],
    *,
    n_jobs: int = 1,
    shard: tuple[int, int] = (0, 1),
    cost: Callable[[Cell], float] | None = None,
) -> list[dict]:
    """Run every block of ``cells``, or shard ``i`` of ``n`` of them.

    Parameters
    ----------
    block_fn : callable
        ``block_fn(cell, block)`` simulates one block and returns its records. It
        must draw only from :func:`generator` streams of that block (and be picklable
        when ``n_jobs > 1``).
    cells : sequence
        The cells to simulate.
    n_blocks : callable
        Number of blocks of a cell.
    n_jobs : int, optional
        Worker processes (joblib); 1 runs in this process.
    shard : (int, int), optional
        ``(i, n)``: take every ``n``-th task starting with task ``i``.
    cost : callable, optional
        Rough relative cost of one block of a cell. With it, cheap tasks are grouped
        into batches of about equal cost for the workers; otherwise every task is its
        own batch. Batching never changes results.

    Returns
    -------
    list of dict
        The records of all tasks, in task order.
    """
    i, n = shard
    tasks = tasks_for(cells, n_blocks)[i::n]
    if n_jobs == 1 or len(tasks) <= 1:
        return _run_batch(block_fn, tasks)
    from joblib import Parallel, delayed

    parts = Parallel(n_jobs=n_jobs, batch_size=1)(
        delayed(_run_batch)(block_fn, b) for b in _batches(tasks, cost, n_jobs)
    )
    return [r for part in parts for r in part]
