r"""A whole benchmark suite at once: the geometric mean of per-benchmark ratios.

Every benchmark ``k`` of a suite has its own ratio of means :math:`r_k = \bar Y^{new}_k
/ \bar Y^{old}_k`. The suite's summary is their geometric mean

.. math:: G = \Bigl(\prod_{k=1}^{K} r_k\Bigr)^{1/K},

with a percentile interval from the hierarchical bootstrap: in replicate ``i`` every
benchmark is resampled on its own (both systems, with the chosen scheme, exactly as
:func:`esize.bootstrap.bootstrap_ratio_ci` does), giving :math:`r_k^{(i)}`, and
:math:`G^{(i)}` is the geometric mean of the :math:`r_k^{(i)}` of the same replicate
index. The benchmarks are independent, so pairing replicates by index is as good as
any other pairing; it keeps the computation a single pass.

Random streams are keyed by benchmark *name* (:func:`benchmark_seed`), so a
benchmark's replicates, and hence its own interval, do not depend on which other
benchmarks are in the suite.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ._bootstrap import (
    _depth,
    _resample_with_streams,
    _seed_sequence,
    parse_scheme,
    percentile_interval,
    spawn_streams,
)
from ._design import Design
from ._errors import EsizeError
from ._intervals import Interval, _check_alpha

__all__ = ["SuiteInterval", "benchmark_seed", "ratio_replicates", "geometric_mean_ratio_ci"]

#: Replicates per progress report when a progress callback is given.
_PROGRESS_STEPS = 20


def _array(data) -> np.ndarray:
    y = data.data if isinstance(data, Design) else np.asarray(data, dtype=np.float64)
    if y.ndim < 1 or y.size == 0:
        raise EsizeError("bootstrap needs a non-empty array of measurements")
    return y


def benchmark_seed(rng, name: str) -> np.random.SeedSequence:
    """The seed sequence of benchmark ``name`` under the suite seed ``rng``.

    A child of ``rng`` whose spawn key is derived from a hash of the name, so the
    same benchmark gets the same random numbers whatever else is compared with it.

    Parameters
    ----------
    rng : int, SeedSequence or numpy.random.Generator
        The suite's seed (a Generator is advanced by one draw).
    name : str
        The benchmark's name.
    """
    base = _seed_sequence(rng)
    key = int.from_bytes(hashlib.sha256(str(name).encode("utf-8")).digest()[:4], "little")
    return np.random.SeedSequence(base.entropy, spawn_key=(*base.spawn_key, key))


def ratio_replicates(
    old,
    new,
    *,
    scheme: str,
    n_resamples: int,
    rng,
    batch: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Bootstrap replicates of the ratio of means new/old.

    The same numbers as ``bootstrap_ratio_ci(old, new, scheme=scheme,
    n_resamples=n_resamples, rng=rng, return_ratios=True)[1]``, computed in slices so
    that ``progress`` can be told how many replicates (of ``2 * n_resamples``, one
    per system) are done.

    Parameters
    ----------
    old, new : Design or array_like
        The two systems (same number of levels).
    scheme : str
        Resampling scheme (see :func:`esize.bootstrap.parse_scheme`).
    n_resamples : int
        Number of replicates.
    rng : int, SeedSequence or numpy.random.Generator
        Source of randomness.
    batch : int, optional
        Replicates per vectorised step (does not change the result).
    progress : callable, optional
        Called with the number of system-replicates completed since the last call.

    Returns
    -------
    ndarray of shape (n_resamples,)
    """
    yo, yn = _array(old), _array(new)
    if yo.ndim != yn.ndim:
        raise EsizeError(f"the two systems have {yo.ndim} and {yn.ndim} levels; they must agree")
    scheme = parse_scheme(scheme, yo.ndim)
    n_resamples = int(n_resamples)
    if n_resamples < 1:
        raise EsizeError(f"n_resamples must be positive, got {n_resamples}")
    seeds = _seed_sequence(rng).spawn(2)
    means = []
    for y, ss in zip((yo, yn), seeds):
        streams = spawn_streams(ss, 1 if scheme == "FLAT" else y.ndim)
        depth = _depth(scheme)
        if progress is None:
            means.append(_resample_with_streams(y, scheme, depth, streams, n_resamples, batch))
            continue
        # the streams are consumed in replicate order, so slicing changes nothing
        step = max(1, math.ceil(n_resamples / _PROGRESS_STEPS))
        parts = []
        for start in range(0, n_resamples, step):
            b = min(step, n_resamples - start)
            parts.append(_resample_with_streams(y, scheme, depth, streams, b, batch))
            progress(b)
        means.append(np.concatenate(parts))
    return means[1] / means[0]


@dataclass(frozen=True)
class SuiteInterval:
    """Geometric mean of a suite's ratios with its bootstrap interval.

    Attributes
    ----------
    geometric_mean : float
        Geometric mean of the per-benchmark ratios new/old (inverted where
        ``inverted`` says so).
    lower, upper : float
        Percentile bootstrap limits.
    alpha : float
        One minus the confidence level.
    resamples : int
        Number of bootstrap replicates.
    intervals : tuple of Interval
        Each benchmark's own percentile bootstrap interval for new/old (never
        inverted), from the same replicates.
    ratios : ndarray, shape (K, resamples)
        Replicate ratios new/old per benchmark (never inverted).
    inverted : tuple of bool
        Benchmarks whose ratio entered the geometric mean as old/new.
    """

    geometric_mean: float
    lower: float
    upper: float
    alpha: float
    resamples: int
    intervals: tuple
    ratios: np.ndarray
    inverted: tuple

    @property
    def bounded(self) -> bool:
        return bool(math.isfinite(self.lower) and math.isfinite(self.upper))

    def as_dict(self) -> dict:
        """JSON-ready summary (without the replicates)."""
        return {
            "geometric_mean": self.geometric_mean,
            "lower": self.lower,
            "upper": self.upper,
            "alpha": self.alpha,
            "resamples": self.resamples,
        }


def geometric_mean_ratio_ci(
    pairs: Sequence,
    *,
    scheme: str | Sequence[str] | None = None,
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    rng,
    names: Sequence[str] | None = None,
    invert: Sequence[bool] | None = None,
    batch: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SuiteInterval:
    """Geometric mean of several benchmarks' ratios new/old, with a bootstrap CI.

    Parameters
    ----------
    pairs : sequence of (old, new)
        One pair of designs (or arrays) per benchmark.
    scheme : str, sequence of str, or None
        Resampling scheme for every benchmark, one per benchmark, or None for
        ``"R"`` at every level of each.
    n_resamples : int
        Bootstrap replicates.
    alpha : float
        One minus the confidence level.
    rng : int, SeedSequence or numpy.random.Generator
        The suite's seed (keyword-only).
    names : sequence of str, optional
        Benchmark names. With names, benchmark ``k`` draws from
        ``benchmark_seed(rng, names[k])``; without, from the ``k``-th child of
        ``rng`` -- except that a single unnamed pair draws from ``rng`` itself, so
        that it reproduces :func:`esize.bootstrap.bootstrap_ratio_ci` exactly.
    invert : sequence of bool, optional
        Benchmarks whose ratio enters the geometric mean as old/new (to put rates,
        where higher is better, in the same direction as times).
    batch : int, optional
        Replicates per vectorised step (does not change the result).
    progress : callable, optional
        Called with the number of system-replicates just completed; the total is
        ``2 * len(pairs) * n_resamples``.

    Returns
    -------
    SuiteInterval
    """
    pairs = list(pairs)
    if not pairs:
        raise EsizeError("a suite needs at least one benchmark")
    alpha = _check_alpha(alpha)
    k = len(pairs)
    if scheme is None or isinstance(scheme, str):
        schemes = [scheme] * k
    else:
        schemes = list(scheme)
        if len(schemes) != k:
            raise EsizeError(f"{len(schemes)} schemes for {k} benchmarks")
    inv = [False] * k if invert is None else [bool(x) for x in invert]
    if len(inv) != k:
        raise EsizeError(f"{len(inv)} invert flags for {k} benchmarks")
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != k:
            raise EsizeError(f"{len(names)} names for {k} benchmarks")
        if len(set(names)) != k:
            raise EsizeError("benchmark names must be unique")
        base = _seed_sequence(rng)
        seeds = [benchmark_seed(base, n) for n in names]
    elif k == 1:
        seeds = [rng]
    else:
        seeds = _seed_sequence(rng).spawn(k)

    ratios = np.empty((k, int(n_resamples)))
    intervals = []
    estimates = []
    for j, ((old, new), s, ss) in enumerate(zip(pairs, schemes, seeds)):
        yo, yn = _array(old), _array(new)
        sch = parse_scheme("R" * yo.ndim if s is None else s, yo.ndim)
        ratios[j] = ratio_replicates(
            yo, yn, scheme=sch, n_resamples=n_resamples, rng=ss, batch=batch, progress=progress
        )
        est = float(yn.mean() / yo.mean())
        lo, hi = percentile_interval(ratios[j], alpha)
        ok = bool(math.isfinite(lo) and math.isfinite(hi))
        intervals.append(
            Interval(est, lo, hi, alpha, f"bootstrap-{sch}", ok, extra={"resamples": int(n_resamples)})
        )
        estimates.append(1.0 / est if inv[j] else est)
    if np.any(ratios <= 0) or np.any(np.array(estimates) <= 0):
        raise EsizeError("the geometric mean needs positive ratios (positive measurements)")
    logs = np.log(ratios)
    logs[np.array(inv, dtype=bool)] *= -1.0
    gm_reps = np.exp(logs.mean(axis=0))
    lo, hi = percentile_interval(gm_reps, alpha)
    gm = float(np.exp(np.mean(np.log(estimates))))
    return SuiteInterval(gm, lo, hi, alpha, int(n_resamples), tuple(intervals), ratios, tuple(inv))
