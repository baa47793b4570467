r"""Fast hierarchical bootstrap for balanced designs of any depth.

A *scheme* says, level by level from the top, whether units are drawn with
replacement (``R``) or kept intact (``N``): ``"RRR"`` is the paper's default for
three levels, ``"RRN"`` and ``"RNN"`` keep the lower levels intact, and ``"FLAT"``
pools every measurement and resamples the pool. The semantics are those of the
paper's pseudo-code (Figures ``fBootOneAlgo`` and ``fBootRatio``): at every ``R``
level, each chosen unit receives as many children as it has, drawn with replacement
from its own children.

Implementation
--------------
One replicate is a vector of leaf indices. Levels are processed top-down on a block
of replicates at once: an ``R`` level turns every parent slot into ``n_L`` child
slots with uniform random offsets, an ``N`` level into the ``n_L`` children in order.
Levels below the lowest ``R`` level are never expanded: their unit means are
precomputed once, so ``RNN`` costs ``n_top`` draws per replicate.

Random numbers: each resampled level (and each system) has its own stream, a
``PCG64`` generator spawned from a seed drawn once from ``rng``. Indices are exactly
uniform ``Generator.integers`` draws; a stream is consumed in replicate-major order
(32-bit draws are buffered in the bit generator's own state), so the replicate means
do not depend on ``batch``.
"""

from __future__ import annotations

import math

import numpy as np

from ._design import Design
from ._errors import EsizeError
from ._intervals import Interval, _check_alpha

__all__ = [
    "parse_scheme",
    "resample_means",
    "bootstrap_mean_ci",
    "bootstrap_ratio_ci",
    "percentile_interval",
    "spawn_streams",
    "means_from_indices",
]

#: Index slots processed per vectorised step when ``batch`` is not given; about
#: 2**18 keeps the working set (draws, indices, gathered values) in cache.
DEFAULT_SLOTS_PER_STEP = 1 << 18


def parse_scheme(scheme: str, n_levels: int) -> str:
    """Validate a resampling scheme and return it upper-cased.

    ``FLAT`` or a string of ``R``/``N`` with one letter per level, highest first.
    """
    s = str(scheme).strip().upper()
    if s == "FLAT":
        return s
    if len(s) != n_levels or set(s) - {"R", "N"}:
        raise EsizeError(
            f"scheme {scheme!r} is not valid for {n_levels} levels: use FLAT or "
            f"{n_levels} letters R (resample) / N (keep intact), e.g. {'R' * n_levels!r}"
        )
    return s


def _as_array(data) -> np.ndarray:
    y = data.data if isinstance(data, Design) else np.asarray(data, dtype=np.float64)
    if y.ndim < 1 or y.size == 0:
        raise EsizeError("bootstrap needs a non-empty array of measurements")
    return y


def _seed_sequence(rng) -> np.random.SeedSequence:
    if isinstance(rng, np.random.SeedSequence):
        return rng
    if isinstance(rng, np.random.Generator):
        return np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist())
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.SeedSequence(int(rng))
    raise EsizeError(
        "rng must be a numpy.random.Generator, a SeedSequence or an integer seed"
    )


def spawn_streams(rng, k: int) -> list[np.random.Generator]:
    """``k`` independent generators derived from ``rng`` (Generator, SeedSequence or int)."""
    return [np.random.Generator(np.random.PCG64(s)) for s in _seed_sequence(rng).spawn(k)]


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


def _block_means(y, scheme, depth, leaves, draw, b, itype) -> np.ndarray:
    """Means of ``b`` replicates; ``draw(level, shape, n)`` supplies child offsets."""
    if scheme == "FLAT":
        n = leaves.size
        idx = draw(0, (b, n), n)
        return leaves[idx].sum(axis=1) / n
    idx = np.zeros((b, 1), dtype=itype)
    for level in range(depth + 1):
        n = y.shape[level]
        slots = idx.shape[1]
        if scheme[level] == "R":
            child = np.asarray(draw(level, (b, slots, n), n), dtype=itype)
            child += idx[:, :, None] * itype(n)
        else:
            child = idx[:, :, None] * itype(n) + np.arange(n, dtype=itype)
        idx = child.reshape(b, slots * n)
    return leaves[idx].sum(axis=1) / idx.shape[1]


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
    """
    y = _as_array(data)
    scheme = parse_scheme(scheme, y.ndim)
    depth = _depth(scheme)
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

    return _block_means(y, scheme, depth, leaves, draw, b, np.int64)


def _slots_per_replicate(shape, scheme, depth) -> int:
    if scheme == "FLAT":
        return int(np.prod(shape))
    return int(np.prod(shape[: depth + 1]))


def resample_means(
    data,
    scheme: str = "RRR",
    n_resamples: int = 10_000,
    *,
    rng,
    batch: int | None = None,
) -> np.ndarray:
    """Grand means of ``n_resamples`` hierarchical bootstrap replicates.

    Parameters
    ----------
    data : Design or array_like
        Balanced data, highest level on axis 0.
    scheme : str
        ``FLAT`` or one letter per level (``R`` resample, ``N`` keep), highest first.
    n_resamples : int
        Number of replicates.
    rng : numpy.random.Generator, SeedSequence or int
        Source of randomness (keyword-only). A Generator is advanced by one draw.
    batch : int, optional
        Replicates per vectorised step (bounds memory; does not change the result).
        By default about 2**18 index slots per step.

    Returns
    -------
    ndarray of shape (n_resamples,)
    """
    y = _as_array(data)
    scheme = parse_scheme(scheme, y.ndim)
    n_resamples = int(n_resamples)
    if n_resamples < 1:
        raise EsizeError(f"n_resamples must be positive, got {n_resamples}")
    depth = _depth(scheme)
    streams = spawn_streams(rng, 1 if scheme == "FLAT" else y.ndim)
    return _resample_with_streams(y, scheme, depth, streams, n_resamples, batch)


def _resample_with_streams(y, scheme, depth, streams, n_resamples, batch):
    if scheme != "FLAT" and depth < 0:  # all levels kept intact: no randomness
        return np.full(n_resamples, float(y.mean()))
    if scheme == "FLAT":
        leaves = y.ravel().astype(np.float64)
    else:
        leaves = _leaf_values(y, depth)
    slots = _slots_per_replicate(y.shape, scheme, depth)
    itype = np.int32 if leaves.size < 2**31 else np.int64
    if batch is None:
        batch = max(1, DEFAULT_SLOTS_PER_STEP // slots)
    batch = int(batch)
    if batch < 1:
        raise EsizeError(f"batch must be positive, got {batch}")

    def draw(level, shape, n):
        return streams[level].integers(0, n, size=shape, dtype=itype)

    out = np.empty(n_resamples)
    for start in range(0, n_resamples, batch):
        b = min(batch, n_resamples - start)
        out[start : start + b] = _block_means(y, scheme, depth, leaves, draw, b, itype)
    return out


def percentile_interval(values, alpha: float) -> tuple[float, float]:
    """Percentile limits: the ``alpha/2`` and ``1 - alpha/2`` sample quantiles.

    Uses the inverse empirical CDF, so with 1000 values and ``alpha = 0.05`` the
    limits are the 25th and 975th ordered values, as in the paper.
    """
    alpha = _check_alpha(alpha)
    lo, hi = np.quantile(values, [alpha / 2.0, 1.0 - alpha / 2.0], method="inverted_cdf")
    return float(lo), float(hi)


def bootstrap_mean_ci(
    data,
    *,
    scheme: str = "RRR",
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    rng,
    batch: int | None = None,
) -> Interval:
    """Percentile bootstrap confidence interval for the mean of one system."""
    y = _as_array(data)
    means = resample_means(y, scheme, n_resamples, rng=rng, batch=batch)
    lo, hi = percentile_interval(means, alpha)
    return Interval(
        float(y.mean()), lo, hi, alpha, f"bootstrap-{parse_scheme(scheme, y.ndim)}",
        extra={"resamples": int(n_resamples)},
    )


def bootstrap_ratio_ci(
    old,
    new,
    *,
    scheme: str = "RRR",
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    rng,
    batch: int | None = None,
    return_ratios: bool = False,
):
    """Percentile bootstrap confidence interval for the ratio of means new/old.

    Each replicate resamples both systems independently (with the same scheme) and
    takes the ratio of their means (Figure ``fBootRatio``). The systems may differ in
    their repetition counts but must have the same number of levels.

    Returns
    -------
    Interval, or (Interval, ndarray) if ``return_ratios``
    """
    yo, yn = _as_array(old), _as_array(new)
    if yo.ndim != yn.ndim:
        raise EsizeError(
            f"the two systems have {yo.ndim} and {yn.ndim} levels; they must agree"
        )
    scheme = parse_scheme(scheme, yo.ndim)
    ss_old, ss_new = _seed_sequence(rng).spawn(2)
    m_old = resample_means(yo, scheme, n_resamples, rng=ss_old, batch=batch)
    m_new = resample_means(yn, scheme, n_resamples, rng=ss_new, batch=batch)
    ratios = m_new / m_old
    lo, hi = percentile_interval(ratios, alpha)
    est = float(yn.mean() / yo.mean())
    ok = bool(math.isfinite(lo) and math.isfinite(hi))
    ci = Interval(
        est, lo, hi, alpha, f"bootstrap-{scheme}", ok, extra={"resamples": int(n_resamples)}
    )
    return (ci, ratios) if return_ratios else ci
