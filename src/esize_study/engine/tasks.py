"""Cells split into blocks, a shard of them picked, run serially or with joblib.

:func:`run_tasks` runs every block of a list of cells (or shard ``i`` of ``n`` of
them) through a family's block function; records come back in task order, and their
union over shards equals the unsharded run, whatever ``n_jobs``, because every block
draws only from its own streams (:func:`esize_study.engine.seeds.generator`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from .resampling import tune_allocator

__all__ = ["tasks_for", "run_tasks"]

Cell = TypeVar("Cell")
#: Runs one block of one cell and returns its records.
BlockFn = Callable[[Any, int], list[dict]]


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
        must draw only from :func:`esize_study.engine.seeds.generator` streams of that block (and be picklable
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
