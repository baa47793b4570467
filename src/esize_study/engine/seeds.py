"""Random streams of the simulations: one per (seed, benchmark, cell, block, stream).

Block ``j`` of a cell draws only from
``SeedSequence(seed, spawn_key=(bench, *cell_key, j, stream))`` (:func:`generator`),
where ``bench`` is :func:`bench_id` of the benchmark's name and ``cell_key`` the
family's integer description of the cell, so that results do not depend on how
blocks are spread over jobs, shards or processes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from esize import benchmark_key

__all__ = ["bench_id", "generator"]


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

    Notes
    -----
    The library's key of a benchmark (:func:`esize.benchmark_key`):
    ``SeedSequence(seed, spawn_key=(bench_id(name), ...))`` of :func:`generator` is a
    child of the library's ``esize.benchmark_seed(seed, name)``
    (``tests/study/test_engine.py`` checks it).
    """
    return benchmark_key(name)


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
