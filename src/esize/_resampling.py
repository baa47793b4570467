"""The engine of the hierarchical bootstrap: replicate means of one system at a time.

See :mod:`esize._bootstrap` for the method. One replicate is a vector of leaf indices,
expanded level by level from the top on a block of replicates at once
(:func:`_slot_indices`); the lowest resampled level draws its children ``k`` at a
time from tables of tuple sums (:func:`tuple_sums`, :func:`group_size`). Every
system of every benchmark is one task (:func:`_system_means`) with its own streams
(:mod:`esize._streams`); tasks run on a thread pool (:func:`_run_systems`).
"""

from __future__ import annotations

import math
import operator
import os
import threading
from collections.abc import Callable

import numpy as np

from ._bootstrap_args import _as_array, parse_scheme
from ._errors import EsizeError
from ._streams import IndexStream, _seed_sequence, spawn_streams

__all__ = [
    "DEFAULT_SLOTS_PER_STEP",
    "GROUP_TABLE_ENTRIES",
    "Progress",
    "group_size",
    "tuple_sums",
    "means_from_indices",
]

#: Index slots processed per vectorised step when ``batch`` is not given; about
#: 2**18 keeps the working set (draws, indices, gathered values) in cache.
DEFAULT_SLOTS_PER_STEP = 1 << 18

#: A progress callback: called with the number of system-replicates just completed.
Progress = Callable[[int], None]


def _depth(scheme: str):
    """Axis of the lowest resampled level (``-1`` if none, ``None`` for FLAT)."""
    if scheme == "FLAT":
        return None
    return scheme.rfind("R")


def _leaf_values(y: np.ndarray, depth: int) -> np.ndarray:
    """Unit means at axis ``depth`` (levels below it averaged), flattened."""
    below = tuple(range(depth + 1, y.ndim))
    v = y.mean(axis=below) if below else y
    return np.ascontiguousarray(v, dtype=np.float64).ravel()


_scratch = threading.local()


def _scratch_array(key, shape, dtype) -> np.ndarray:
    """An uninitialised array from this thread's scratch space, reused across blocks.

    The blocks of a bootstrap allocate the same few MB of draws, indices and values
    thousands of times; fresh allocations of that size come from the kernel page by
    page (a page fault every 4 KiB), which costs as much as the arithmetic. Reusing
    the arrays avoids that. :func:`_release_scratch` frees them.
    """
    store = getattr(_scratch, "arrays", None)
    if store is None:
        store = _scratch.arrays = {}
    size = math.prod(shape)
    a = store.get(key)
    if a is None or a.dtype != dtype or a.size < size:
        a = store[key] = np.empty(size, dtype=dtype)
    return a[:size].reshape(shape)


def _release_scratch() -> None:
    _scratch.arrays = {}


def _gather(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``values[idx]`` into scratch space (indices are known to be in range)."""
    return np.take(values, idx, out=_scratch_array("values", idx.shape, values.dtype), mode="clip")


def _slot_indices(y, scheme, levels, draw, b, itype) -> np.ndarray:
    """Unit indices, shape ``(b, slots)``, after expanding the top ``levels`` levels.

    An ``R`` level turns every parent slot into ``n_L`` child slots with offsets from
    ``draw(level, shape, n)``, an ``N`` level into its ``n_L`` children in order.
    """
    idx = np.zeros((b, 1), dtype=itype)
    for level in range(levels):
        n = y.shape[level]
        slots = idx.shape[1]
        if scheme[level] == "R":
            child = np.add(
                idx[:, :, None] * itype(n), draw(level, (b, slots, n), n),
                out=_scratch_array(("index", level), (b, slots, n), itype),
            )
        else:
            child = idx[:, :, None] * itype(n) + np.arange(n, dtype=itype)
        idx = child.reshape(b, slots * n)
    return idx


def _row_sums(values: np.ndarray) -> np.ndarray:
    """Sums over everything but the first axis.

    ``einsum`` sums short rows several times faster than ``sum(axis=1)``, and each
    row's sum does not depend on the other rows (a matrix-vector product is faster
    still, but BLAS kernels round a row differently depending on where it falls in
    the block, which would make replicates depend on ``batch``).
    """
    return np.einsum("ij->i", values.reshape(values.shape[0], -1))


def _block_means(y, scheme, depth, leaves, draw, b, itype) -> np.ndarray:
    """Means of ``b`` replicates; ``draw(level, shape, n)`` supplies child offsets."""
    if scheme == "FLAT":
        n = leaves.size
        idx = draw(0, (b, n), n)
        return _row_sums(_gather(leaves, idx)) / n
    idx = _slot_indices(y, scheme, depth + 1, draw, b, itype)
    return _row_sums(_gather(leaves, idx)) / idx.shape[1]


def _slots_per_replicate(shape, scheme, depth) -> int:
    if scheme == "FLAT":
        return int(np.prod(shape))
    return int(np.prod(shape[: depth + 1]))


#: Upper bound on the entries of the tables of precomputed sums that the lowest
#: resampled level may use (float64, all parent units together): 2**17 entries,
#: 1 MiB, small enough to stay in cache.
GROUP_TABLE_ENTRIES = 1 << 17


def group_size(units: int, n: int) -> int:
    """How many child draws of the lowest resampled level are made as one draw.

    The lowest resampled level draws ``n`` children (with replacement) for each of
    ``units`` parent slots. ``k`` independent uniform draws from ``n`` children are
    one uniform draw from ``n**k`` ordered tuples, so each group of ``k`` children is
    drawn as one index into a table of the ``n**k`` sums of their values; ``k`` is
    the largest size with at most :data:`GROUP_TABLE_ENTRIES` table entries (and
    ``n**k`` below 2**16). Part of the definition of the random streams.
    """
    k = 1
    while k < n and n ** (k + 1) < 1 << 16 and units * n ** (k + 1) <= GROUP_TABLE_ENTRIES:
        k += 1
    return k


def _sum_table(v: np.ndarray, k: int) -> np.ndarray:
    """``T[u, code]``: sum of ``v[u, d]`` over the base-``n`` digits ``d`` of ``code``."""
    t = v
    for _ in range(k - 1):
        t = (t[:, :, None] + v[:, None, :]).reshape(v.shape[0], -1)
    return np.ascontiguousarray(t).ravel()



def tuple_sums(values, k: int) -> np.ndarray:
    r"""Sums of the values of every ordered ``k``-tuple of children, unit by unit.

    Row ``u`` of ``values`` holds the values of the ``n`` children of one unit.
    Drawing ``k`` children independently and uniformly with replacement is one
    uniform draw of a code :math:`c` in :math:`[0, n^k)`, whose base-``n`` digits
    :math:`d_1 \dots d_k` (most significant first) name the children drawn; the
    table holds every code's sum,

    .. math:: T_{u c} = \sum_{j=1}^{k} v_{u, d_j},

    so that a replicate gathers one entry per ``k`` draws instead of ``k`` values.
    The bootstrap draws the children of its lowest resampled level this way, ``k`` at
    a time (:func:`group_size` chooses ``k``).

    Parameters
    ----------
    values : array_like, shape (units, n)
        The children's values, one row per unit: real or complex numbers (two real
        statistics can travel as the real and imaginary parts of one table).
    k : int
        How many children a code draws, at least 1.

    Returns
    -------
    ndarray, shape (units, n**k)
        Entry ``[u, c]``: the sum of the values of row ``u`` at the base-``n`` digits
        of ``c``, added in the order of the digits, in the type of ``values``. For
        ``k = 1`` these are the values themselves (the same memory when ``values`` is
        a C-contiguous array).

    Raises
    ------
    EsizeError
        ``values`` is not two-dimensional, or ``k`` is not a positive integer.

    Examples
    --------
    Two units of two children each; code 1 is the digits (0, 1), the first child
    then the second:

    >>> import esize
    >>> esize.tuple_sums([[1.0, 2.0], [10.0, 20.0]], 2)
    array([[ 2.,  3.,  3.,  4.],
           [20., 30., 30., 40.]])
    >>> float(esize.tuple_sums([[1.0, 2.0, 4.0]], 3)[0, 5])  # digits (0, 1, 2): 1 + 2 + 4
    7.0
    """
    v = np.asarray(values)
    if v.ndim != 2:
        raise EsizeError(f"tuple sums need a 2-D array (units, n), got {v.ndim} dimension(s)")
    try:
        k = operator.index(k)
    except TypeError:
        raise EsizeError(f"k must be a positive integer, got {k!r}") from None
    if k < 1:
        raise EsizeError(f"k must be a positive integer, got {k!r}")
    units, n = v.shape
    if v.size == 0:
        return np.zeros((units, n**k), dtype=v.dtype)
    return _sum_table(v, k).reshape(units, n**k)


def _grouped_block(y, scheme, depth, tables, k, draw, b, itype) -> np.ndarray:
    """Means of ``b`` replicates, the lowest resampled level drawn in groups of ``k``.

    Levels above ``depth`` are expanded by :func:`_slot_indices`; at ``depth`` each
    slot draws ``ceil(n / k)`` codes, all uniform on ``[0, n**k)`` in one call (a
    last partial group of ``r`` children uses its code modulo ``n**r``, uniform on
    ``[0, n**r)`` because ``n**r`` divides ``n**k``), and a replicate's total is
    the sum of the table entries its codes point at.

    When a slot needs a single code (``k == n``) and the level above is resampled
    too, a child of that level and its code are drawn together as one index
    uniform on ``[0, n_above * n**k)`` from the stream of the level above: the
    offset of the child and the code of its group are independent and uniform, and
    the index is the child's row in the table.
    """
    n = y.shape[depth]
    full, rem = divmod(n, k)
    m = n**k
    if full == 1 and not rem and depth > 0 and scheme[depth - 1] == "R":
        idx = _slot_indices(y, scheme, depth - 1, draw, b, itype)
        above = y.shape[depth - 1]
        shape = (b, idx.shape[1], above)
        joint = np.add(
            idx[:, :, None] * itype(above * m), draw(depth - 1, shape, above * m),
            out=_scratch_array("codes", shape, itype),
        )
        return _row_sums(_gather(tables[k], joint)) / (idx.shape[1] * above * n)
    idx = _slot_indices(y, scheme, depth, draw, b, itype)
    slots = idx.shape[1]
    codes = draw(depth, (b, slots, full + (rem > 0)), m)
    total = np.zeros(b)
    if rem:
        mr = n**rem
        last = np.add(idx * itype(mr), codes[:, :, full] % mr, dtype=itype)
        total += _row_sums(_gather(tables[rem], last))
    grouped = np.add(
        idx[:, :, None] * itype(m), codes[:, :, :full],  # full >= 1: k <= n
        out=_scratch_array("codes", (b, slots, full), itype),
    )
    total += _row_sums(_gather(tables[k], grouped))
    return total / (slots * n)


def _system_means(y, scheme, seed, n_resamples, batch, progress) -> np.ndarray:
    """Replicate means of one system: the one task every public function runs.

    ``seed`` (anything :func:`spawn_streams` accepts) gives one stream per level
    (one for FLAT), consumed in replicate order; ``progress(b)`` is called after
    every step of ``b`` replicates.
    """
    depth = _depth(scheme)
    streams = spawn_streams(seed, 1 if scheme == "FLAT" else y.ndim)
    if scheme != "FLAT" and depth < 0:  # all levels kept intact: no randomness
        if progress is not None:
            progress(n_resamples)
        return np.full(n_resamples, float(y.mean()))
    leaves = y.ravel().astype(np.float64) if scheme == "FLAT" else _leaf_values(y, depth)
    slots = _slots_per_replicate(y.shape, scheme, depth)
    itype = np.intp  # index arithmetic in the type numpy indexes with

    def draw(level, shape, n):
        out = _scratch_array(("draw", level), shape, IndexStream.dtype_for(n))
        stream = streams[level]
        if not stream.expecting:  # every replicate asks a level for the same number
            stream.expect(n_resamples * (out.size // shape[0]))
        return stream.integers(n, shape, out=out)

    k = 1 if scheme == "FLAT" else group_size(slots // y.shape[depth], y.shape[depth])
    if k > 1:
        n = y.shape[depth]
        tables = {r: _sum_table(leaves.reshape(-1, n), r) for r in {k, n % k} if r}
        slots = slots // n * -(-n // k)  # table entries gathered per replicate

        def block(b):
            return _grouped_block(y, scheme, depth, tables, k, draw, b, itype)
    else:

        def block(b):
            return _block_means(y, scheme, depth, leaves, draw, b, itype)

    if batch is None:
        batch = max(1, DEFAULT_SLOTS_PER_STEP // slots)
    batch = int(batch)
    if batch < 1:
        raise EsizeError(f"batch must be positive, got {batch}")

    out = np.empty(n_resamples)
    for start in range(0, n_resamples, batch):
        b = min(batch, n_resamples - start)
        out[start : start + b] = block(b)
        if progress is not None:
            progress(b)
    return out


def _workers(workers: int | None, tasks: int) -> int:
    if workers is None:
        workers = os.cpu_count() or 1
    workers = int(workers)
    if workers < 1:
        raise EsizeError(f"workers must be positive, got {workers}")
    return max(1, min(workers, tasks))


def _run_systems(tasks, n_resamples, batch, progress, workers) -> list[np.ndarray]:
    """Replicate means of every ``(y, scheme, seed)`` task, on a thread pool.

    Tasks are independent (each has its own streams), so the results do not depend
    on the number of workers or on the order in which the tasks finish. Once nobody
    waits for them (Ctrl-C's KeyboardInterrupt in the calling thread, another task's
    error), the pool's tasks end at their next step rather than at their last one.
    """
    abandoned = threading.Event()
    lock = threading.Lock()

    def step(n: int) -> None:  # after every step of every task
        if abandoned.is_set():
            raise _Abandoned
        if progress is not None:
            with lock:  # the caller's callback, one thread at a time
                progress(n)

    def one(task):
        y, scheme, seed = task
        return _system_means(y, scheme, seed, n_resamples, batch, step)

    n = _workers(workers, len(tasks))
    if n == 1:
        try:
            return [one(t) for t in tasks]
        finally:
            _release_scratch()
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="esize-bootstrap")
    try:
        return list(pool.map(one, tasks))
    except BaseException:  # the caller stops waiting: so do the tasks still running
        abandoned.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # its threads, and their scratch, end


class _Abandoned(Exception):
    """Ends a bootstrap task whose result nobody waits for any more."""


def means_from_indices(data, scheme: str, indices) -> np.ndarray:
    """Replicate means for explicitly given draws (for checks and worked examples).

    Parameters
    ----------
    data : Design or array_like
    scheme : str
        As in :func:`resample_means`.
    indices : sequence
        One entry per level, highest first: for an ``R`` level an integer array of
        shape ``(B, slots, n_L)`` with the 0-based children drawn for every parent
        slot (slots in row-major order of the levels above), ``None`` for ``N``
        levels. For ``FLAT`` a single array of shape ``(B, N)``.

    Examples
    --------
    Two replicates drawing executions (execution means 11, 13, 12, 14), measurements
    kept: the first execution four times, then the last and the second twice each:

    >>> import numpy as np
    >>> import esize as ez
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]],
    ...                 ("execution", "measurement"))
    >>> draws = np.array([[[0, 0, 0, 0]], [[3, 3, 1, 1]]])  # shape (B, slots, n) = (2, 1, 4)
    >>> ez.means_from_indices(old, "RN", [draws, None]).tolist()
    [11.0, 13.5]
    """
    y = _as_array(data)
    scheme = parse_scheme(scheme, y.ndim)
    depth = _depth(scheme)
    arrays: list[np.ndarray | None]
    if scheme == "FLAT":
        arrays = [np.asarray(indices[0])]
        leaves = y.ravel().astype(np.float64)
    else:
        arrays = [None if a is None else np.asarray(a) for a in indices]
        leaves = _leaf_values(y, depth)
    b = next(a.shape[0] for a in arrays if a is not None)

    def draw(level, shape, n):
        a = arrays[level]
        if a is None or a.shape != shape:
            raise EsizeError(f"indices for level {level} must have shape {shape}")
        if a.min() < 0 or a.max() >= n:
            raise EsizeError(f"indices for level {level} must lie in [0, {n})")
        return a.astype(np.int64, copy=True)  # _block_means works in place

    try:
        return _block_means(y, scheme, depth, leaves, draw, b, np.intp)
    finally:
        _release_scratch()



def _pair_tasks(yo, yn, schemes, seed):
    ss_old, ss_new = _seed_sequence(seed).spawn(2)
    return [(yo, schemes[0], ss_old), (yn, schemes[1], ss_new)]

