"""Seeded stand-in data of any size, from the model of :mod:`.calibration`.

Reproducibility
---------------
Every random draw comes from a :class:`numpy.random.Generator` seeded by a
:class:`numpy.random.SeedSequence` with ``entropy=seed`` and a spawn key: ``(k, 0)``
for the build factors of benchmark ``k`` (its position in :data:`.model.BENCHMARKS`) and
``(k, 1, b)`` for everything inside build ``b``. Data for one build therefore never
depends on how many builds are generated together, and the same seed, benchmark and
sizes always give the same array. Because the builds are stratified as a set, the
build factors (not the within-build draws) do depend on the number of builds.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtri

from .calibration import derive_params
from .model import (
    PAPER_BINARIES,
    PAPER_EXECUTIONS,
    StandinParams,
    _check_benchmark,
    warmup_count,
)

__all__ = ["generate", "generate_frame"]


def _lognormal_factor(z: np.ndarray, var: float) -> np.ndarray:
    """Mean-one log-normal factor with variance ``var`` from standard normals ``z``."""
    if var <= 0:
        return np.ones_like(z)
    s2 = math.log1p(var)
    return np.exp(math.sqrt(s2) * z - 0.5 * s2)


def _binary_factors(
    p: StandinParams, rng: np.random.Generator, n: int, stratified: bool
) -> np.ndarray:
    if stratified:
        strata = rng.permutation(n)
        u = (strata + rng.random(n)) / n
        z = ndtri(np.clip(u, 1e-300, 1.0 - 1e-16))
    else:
        z = rng.standard_normal(n)
    return _lognormal_factor(z, p.var_binary)


def _one_binary(
    p: StandinParams, rng: np.random.Generator, executions: int, raw: int
) -> np.ndarray:
    """Relative times ``E * X * W`` of one build, shape ``(executions, raw)``."""
    shape = (executions, raw)
    x = np.ones(shape)
    if p.noise_var > 0:
        theta = p.noise_var / math.sqrt(p.noise_var * p.noise_shape)  # var / mean
        g = rng.gamma(p.noise_shape, theta, size=shape)
        g -= p.noise_shape * theta
        x += g
    if p.placement_var > 0:
        k, pool = p.placement_shape, p.placement_pool
        theta = math.sqrt(p.placement_var / k)
        penalty = rng.gamma(k, theta, size=(executions, pool)) - k * theta
        move = rng.random(shape) < p.placement_switch
        move[:, 0] = True
        place = rng.integers(0, pool, size=shape)
        last = np.where(move, np.arange(raw), 0)
        np.maximum.accumulate(last, axis=1, out=last)
        place = np.take_along_axis(place, last, axis=1)
        x += np.take_along_axis(penalty, place, axis=1)
    if p.jitter_width > 0:
        u = (rng.random((executions, raw + 1)) < p.jitter_prob) * p.jitter_width
        x += u[:, 1:] - u[:, :-1]
    d = warmup_count(raw)
    amp = p.warmup_amplitude * rng.uniform(0.5, 1.5, size=executions)
    e = _lognormal_factor(rng.standard_normal(executions), p.var_execution)
    if d > 0:
        tau = d * p.warmup_tau_fraction
        x[:, :d] *= 1.0 + amp[:, None] * np.exp(-np.arange(d) / tau)
    x *= e[:, None]
    return x


def generate(
    benchmark: str,
    *,
    seed: int,
    binaries: int = PAPER_BINARIES,
    executions: int = PAPER_EXECUTIONS,
    measurements: int | None = None,
    stratified: bool = True,
) -> np.ndarray:
    """Stand-in Mono data for one benchmark: times in seconds, warm-up included.

    Parameters
    ----------
    benchmark : str
        One of :data:`.model.BENCHMARKS`.
    seed : int
        Non-negative seed; the same seed, benchmark and sizes give the same array.
    binaries, executions : int
        Builds, and executions per build.
    measurements : int, optional
        Raw iterations per execution (default :data:`.model.RAW_MEASUREMENTS`); the first
        :func:`warmup_count` of them are the warm-up.
    stratified : bool
        Draw the build factors by stratified sampling (default) or independently.

    Returns
    -------
    ndarray
        Shape ``(binaries, executions, measurements)``, positive float64 seconds.
        Wrap as ``Design(a[..., warmup_count(a.shape[-1]):], ("binary",
        "execution", "measurement"))`` for steady-state analysis.

    Notes
    -----
    The model is derived at the paper's shape (:func:`derive_params` defaults)
    whatever size is generated.
    """
    k = _check_benchmark(benchmark)
    p = derive_params(benchmark)
    raw = p.raw_measurements if measurements is None else int(measurements)
    binaries, executions = int(binaries), int(executions)
    if binaries < 1 or executions < 1 or raw < 1:
        raise ValueError("binaries, executions and measurements must all be >= 1")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")

    top = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k, 0)))
    b_factor = _binary_factors(p, top, binaries, stratified)
    out = np.empty((binaries, executions, raw))
    for b in range(binaries):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k, 1, b)))
        out[b] = _one_binary(p, rng, executions, raw)
        out[b] *= p.mean_seconds * b_factor[b]
    return out


def generate_frame(
    benchmark: str,
    *,
    seed: int,
    binaries: int = PAPER_BINARIES,
    executions: int = PAPER_EXECUTIONS,
    measurements: int | None = None,
    stratified: bool = True,
):
    """:func:`generate` as a tidy :class:`pandas.DataFrame`.

    Returns
    -------
    pandas.DataFrame
        Columns ``binary``, ``execution``, ``iteration`` (0-based integers; the
        iteration counts raw iterations, warm-up included) and ``time`` (seconds),
        one row per iteration in measurement order.
    """
    import pandas as pd

    y = generate(
        benchmark,
        seed=seed,
        binaries=binaries,
        executions=executions,
        measurements=measurements,
        stratified=stratified,
    )
    idx = np.indices(y.shape).reshape(3, -1)
    return pd.DataFrame(
        {
            "binary": idx[0],
            "execution": idx[1],
            "iteration": idx[2],
            "time": y.ravel(),
        }
    )
