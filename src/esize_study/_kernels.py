"""The inner loop of the study's approximate bootstraps, compiled when numba is there.

:func:`gather_sums` adds up, for every replicate, the table entries its codes point
at. numpy needs an index array, a gathered array and a reduction for that, three
passes over memory per code; a compiled loop reads each code once and keeps the sum
in a register, about twice as fast on the paper-scale simulations. Both routes add
the entries in the same order (left to right, the partial group last), so they give
bit-identical sums: results never depend on whether numba is installed
(``tests/study/test_engine.py`` holds both routes to that).

Set ``ESIZE_STUDY_NUMBA=0`` to use the numpy route.
"""

from __future__ import annotations

import functools
import os

import numpy as np

#: Codes one numpy step works on (bounds its temporaries to a few MB).
_NUMPY_CHUNK_CODES = 1 << 16


def gather_sums(table: np.ndarray, codes: np.ndarray, full: int,
                rtable: np.ndarray | None, mr: int) -> np.ndarray:
    """Per-replicate sums of table entries.

    Parameters
    ----------
    table : ndarray (c, m), float64 or complex128
        Row ``i``: the tuple sums of comparison ``i``.
    codes : ndarray (c, R, full + (rtable is not None)), unsigned integers
        The codes of every replicate; the first ``full`` index ``table``.
    full : int
        Number of full groups per replicate (at least 1).
    rtable : ndarray (c, mr) or None
        Tuple sums of the partial group, indexed by the last code modulo ``mr``.
    mr : int
        Size of a row of ``rtable`` (ignored without it).

    Returns
    -------
    ndarray (c, R)
        :math:`\\sum_j T_{i, code_{irj}}` (plus the partial group), summed left to right.
    """
    kernel = _numba_kernel()
    if kernel is None:
        return _gather_sums_numpy(table, codes, full, rtable, mr)
    return _gather_sums_numba(kernel, table, codes, full, rtable, mr)


def _gather_sums_numba(kernel, table, codes, full, rtable, mr):
    c, R, _ = codes.shape
    out = np.empty((c, R), dtype=table.dtype)
    if rtable is None:
        rtable, mr = table[:, :1], 0
    kernel(np.ascontiguousarray(table), np.ascontiguousarray(codes), int(full),
           np.ascontiguousarray(rtable), int(mr), out)
    return out


def _gather_sums_numpy(table, codes, full, rtable, mr):
    c, R, ncodes = codes.shape
    m = table.shape[1]
    flat = table.ravel()
    out = np.empty((c, R), dtype=table.dtype)
    rows = max(1, _NUMPY_CHUNK_CODES // (R * ncodes))
    for i0 in range(0, c, rows):
        i1 = min(c, i0 + rows)
        # codes group-major, (full, rows, R): a sum over the first axis adds one
        # whole row after the other, left to right like the compiled loop
        idx = np.add(codes[i0:i1, :, :full].transpose(2, 0, 1),
                     (np.arange(i0, i1, dtype=np.intp) * m)[None, :, None], dtype=np.intp)
        acc = np.take(flat, idx).sum(axis=0)
        if rtable is not None:
            last = (codes[i0:i1, :, full] % mr).astype(np.intp)
            last += (np.arange(i0, i1, dtype=np.intp) * mr)[:, None]
            acc += np.take(rtable.ravel(), last)
        out[i0:i1] = acc
    return out


@functools.cache
def _numba_kernel():
    """The compiled loop, or None (numba missing, or ``ESIZE_STUDY_NUMBA=0``)."""
    if os.environ.get("ESIZE_STUDY_NUMBA", "1") == "0":
        return None
    try:
        from ._kernels_numba import gather_sums_kernel
    except ImportError:
        return None
    return gather_sums_kernel
