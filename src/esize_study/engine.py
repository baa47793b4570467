"""Simulation machinery shared by the "False Alarm Rate" and "Coverage" studies.

Both families of simulations run many independent cells (an experiment at one size),
each split into fixed-size blocks of comparisons or experiments. This module holds
what they have in common:

* :func:`bench_id`, a stable integer naming a benchmark in seeds;
* :func:`generator`, the random stream of one (seed, benchmark, cell, block, stream);
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

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np

__all__ = ["bench_id", "generator", "percentile_interval", "tasks_for", "run_tasks"]

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
        end is one of the replicates).
    """
    lo, hi = np.quantile(ratios, [alpha / 2, 1 - alpha / 2], axis=-1, method="inverted_cdf")
    return lo, hi


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
