"""Slow, literal implementations used as a second route in the tests.

These follow the paper's definitions and pseudo-code line by line (nested Python
loops), so that the fast vectorised code in ``esize`` can be checked against them.
"""

from __future__ import annotations

import itertools

import numpy as np

from esize._bootstrap import group_size, spawn_streams


def s2_loops(y: np.ndarray) -> np.ndarray:
    """S_i^2 by the M/V recipe of Table tSinterp, with explicit loops over groups."""
    y = np.asarray(y, dtype=float)
    out = []
    for axis in range(y.ndim):
        # units at this axis: means over everything below
        means = y.mean(axis=tuple(range(axis + 1, y.ndim))) if axis + 1 < y.ndim else y
        variances = []
        for parent in itertools.product(*(range(n) for n in y.shape[:axis])):
            units = [means[parent + (j,)] for j in range(y.shape[axis])]
            m = sum(units) / len(units)
            variances.append(sum((u - m) ** 2 for u in units) / (len(units) - 1))
        out.append(sum(variances) / len(variances))
    return np.array(out)


def resample_means_loops(y: np.ndarray, scheme: str, n_resamples: int, rng) -> np.ndarray:
    """The pseudo-code of Figure fBootOneAlgo, generalised to R/N per level and FLAT.

    Random draws come from the same per-level streams as ``esize.resample_means``
    so that, for a fixed seed, both routes must give identical replicates.
    """
    y = np.asarray(y, dtype=float)
    if scheme == "FLAT":
        (stream,) = spawn_streams(rng, 1)
        pool = y.ravel()
        out = []
        for _ in range(n_resamples):
            picks = stream.integers(pool.size, pool.size)
            out.append(sum(pool[k] for k in picks) / pool.size)
        return np.array(out)
    streams = spawn_streams(rng, y.ndim)
    depth = scheme.rfind("R")
    n_low = y.shape[depth] if depth >= 0 else 1
    k = group_size(int(np.prod(y.shape[:depth])), n_low) if depth >= 0 else 1
    # one code per slot at the lowest resampled level, drawn with the child above it
    joint = k == n_low > 1 and depth > 0 and scheme[depth - 1] == "R"

    def digits(code: int, n: int, count: int) -> list[int]:
        out = []
        for _ in range(count):
            code, d = divmod(code, n)
            out.append(d)
        return out[::-1]

    def resample(level: int, n: int, code):
        """Children of one unit at ``level``, each with the code handed down to it."""
        if scheme[level] == "N":
            return [(j, None) for j in range(n)]
        if level == depth - 1 and joint:
            m = n_low**k
            draws = streams[level].integers(n * m, n)
            return [divmod(int(v), m) for v in draws]
        if level != depth or k == 1:
            return [(int(j), None) for j in streams[level].integers(n, n)]
        # the lowest resampled level: groups of k children drawn as one code each
        full, rem = divmod(n, k)
        if code is None:
            codes = streams[level].integers(n**k, full + (rem > 0))
        else:
            codes = [code]
        children = []
        for g in range(full):
            children += digits(int(codes[g]), n, k)
        if rem:
            children += digits(int(codes[full]) % n**rem, n, rem)
        return [(j, None) for j in children]

    def visit(level: int, unit, code, simulated: list) -> None:
        if level == y.ndim:
            simulated.append(y[unit])
            return
        for j, child_code in resample(level, y.shape[level], code):
            visit(level + 1, unit + (j,), child_code, simulated)

    out = []
    for _ in range(n_resamples):
        simulated: list = []
        visit(0, (), None, simulated)
        out.append(sum(simulated) / len(simulated))
    return np.array(out)


def rrr_bootstrap_variance(y: np.ndarray, scheme: str) -> float:
    """Exact variance of the replicate mean under the bootstrap distribution.

    For a scheme of R/N letters, every R level contributes
    ((n_L - 1) / n_L) * S_L^2 / prod(n_1..n_L) (levels counted from the top), an N
    level nothing; FLAT is the plug-in variance of the pooled values over N.
    """
    y = np.asarray(y, dtype=float)
    if scheme == "FLAT":
        return float(y.var(ddof=0) / y.size)
    s = s2_loops(y)
    total, prod = 0.0, 1.0
    for level, n in enumerate(y.shape):
        prod *= n
        if scheme[level] == "R":
            total += (n - 1) / n * s[level] / prod
    return total
