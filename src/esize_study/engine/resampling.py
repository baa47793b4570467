"""Resampling: sums over units drawn with replacement, and percentile intervals.

* :func:`resampled_sums`, the sums of unit statistics over units drawn with
  replacement, the inner loop of every approximate bootstrap of the study (its
  entries added up by :func:`esize_study.engine._kernels.gather_sums`);
* :func:`percentile_interval`, the percentile bootstrap interval of ratios;
* :func:`tune_allocator` (from :mod:`esize_study.datasets.process`), glibc's reuse of freed
  memory for the large arrays.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from esize import tuple_sums

from ..datasets.process import tune_allocator
from ._kernels import gather_sums, integers_u16

__all__ = ["GROUP_ENTRIES", "group_size", "tune_allocator", "resampled_sums",
           "normal_shift", "percentile_interval"]


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
    added up by :func:`esize_study.engine._kernels.gather_sums` (a compiled C loop when a
    compiler is there; the same sums without it).
    """
    v = [np.asarray(x, dtype=np.float64) for x in values]
    c, u = v[0].shape
    R = int(resamples)
    g = group_size(u, R)
    full, rem = divmod(u, g)
    m = u**g
    ncodes = full + (rem > 0)
    if m <= 1 << 16:  # numpy's 16-bit draws, made by the compiled loop when there is one
        codes = integers_u16(rng, m, (c, R, ncodes))
    else:
        codes = rng.integers(0, m, size=(c, R, ncodes), dtype=np.uint32)
    packs = [v[i] + 1j * v[i + 1] if i + 1 < len(v) else v[i] for i in range(0, len(v), 2)]
    # the library's tables of tuple sums; one row of u**g entries per comparison
    tables = [tuple_sums(p, g) for p in packs]
    mr = u**rem
    rtables = [tuple_sums(p, rem) if rem else None for p in packs]
    res = []
    for t, rt in zip(tables, rtables):
        s = gather_sums(t, codes, full, rt, mr)
        res += [s.real, s.imag] if np.iscomplexobj(s) else [s]
    return res[: len(v)]


def normal_shift(base: np.ndarray, var: np.ndarray, z: np.ndarray, scale: float) -> np.ndarray:
    """``(base + sqrt(var) * z) / scale``, computed into one new array.

    The same IEEE operations in the same order as the expression (so the same
    numbers), without its three temporaries of the replicates' size.
    """
    out = np.sqrt(var)
    out *= z
    out += base
    out /= scale
    return out


def percentile_interval(ratios: np.ndarray, alpha: float, *,
                        overwrite_input: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap interval from replicate ratios.

    Parameters
    ----------
    ratios : ndarray (..., R)
        Bootstrap replicates of the ratio new/old along the last axis.
    alpha : float
        One minus the confidence level.
    overwrite_input : bool
        Sort ``ratios`` in place (a float64 array the caller no longer needs) instead
        of a copy.

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
    if overwrite_input:
        ratios.sort(axis=-1)
        ordered = ratios
    else:
        ordered = np.sort(ratios, axis=-1)
    return ordered[..., lo_k], ordered[..., hi_k]


@functools.lru_cache(maxsize=64)
def _order_statistics(n: int, alpha: float) -> tuple[int, int]:
    """0-based ranks of the inverted-CDF ``alpha/2`` and ``1-alpha/2`` quantiles of ``n``
    values (asked of numpy itself, so that the rule is numpy's)."""
    lo, hi = np.quantile(np.arange(n), [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
    return int(lo), int(hi)
