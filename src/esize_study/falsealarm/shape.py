"""Does the shape of the binary distribution set the false-alarm rate with 3 binaries?

:func:`shape_check` simulates FFT NA OPT's variances with normal and with log-normal
binaries through the false-alarm engine, to tell whether the shape of the binary
distribution or the bootstrap's coverage sets the rate of the 3-binary RRR bootstrap
at a 2 % threshold. The pipeline runs it once (rule ``fa_shape_check``,
``fa_shape_check.json``); the false-alarm claims quote its result.
"""

from __future__ import annotations

import math

import numpy as np

from esize import t2 as unbiased_t2

from ..engine.seeds import bench_id, generator
from ..estimate.rates import proportion_interval, rates_at
from ..paper import numbers as paper
from .simulate import CellSpec, bench_stats, simulate_cells

__all__ = ["shape_check"]


def shape_check(s_pct, *, seed: int, comparisons: int, resamples: int, binaries: int = 3,
                threshold: float = 0.02, design=(paper.BINARIES, paper.EXECUTIONS, 45),
                populations: int = 4, benchmark: str = "FFT NA OPT",
                block: int = 50) -> dict:
    """False alarms with a benchmark's variances and normal or log-normal binaries.

    Builds two populations of ``design`` (binaries x executions x measurements)
    with the variances that give Table tVariations' ``s_pct`` in expectation
    (:func:`esize.t2`), normal executions and measurements, and binaries drawn by
    stratified sampling either from a normal or from a log-normal distribution with
    the same mean and variance (the same strata and random numbers: only the shape
    differs). Both go through the false-alarm engine with the same seed. Each of
    ``populations`` populations has its own random streams, so the rates average over
    finite populations as well as over comparisons.

    Parameters
    ----------
    s_pct : sequence of 3 floats
        S per level (binary, execution, measurement) in % of the mean.
    seed : int
        Seed of the populations and of the simulated comparisons.
    comparisons, resamples : int
        Comparisons per population, and bootstrap replicates per interval.
    binaries : int
        Binaries per system.
    threshold : float
        Threshold (fraction) of the reported rate.
    design : (int, int, int)
        Binaries, executions and steady measurements of a population (the paper's
        shape for FFT by default).
    populations : int
        Number of populations, each of ``comparisons`` comparisons.
    benchmark : str
        Name used in the text and in the random streams' keys.
    block : int
        Comparisons per seeded block.

    Returns
    -------
    dict
        ``normal`` and ``lognormal``: ``rate2`` (RRR bootstrap at ``threshold``),
        ``interval2`` (its Wilson interval), ``rate0`` (at 0 %: one minus the
        coverage of the true ratio), ``asymptotic2``, ``asymptotic0``, ``n``,
        ``skewness`` (of the binary factor); and the inputs.
    """
    from scipy.special import ndtri

    nb, ne, n1 = (int(x) for x in design)
    t2 = unbiased_t2((np.asarray(s_pct, dtype=float) / 100) ** 2, [nb, ne, n1])
    if np.any(t2 <= 0):
        raise ValueError(f"shape check needs positive variances, got T^2 = {t2}")
    s2 = math.log1p(t2[0])
    skew = {"normal": 0.0, "lognormal": (math.exp(s2) + 2) * math.sqrt(math.expm1(s2))}
    ts = {(shape, m): [] for shape in skew for m in ("bootstrap", "asymptotic")}
    for j in range(populations):
        who = bench_id(f"{benchmark}, binary shape check, population {j}")
        g = generator(seed, who, (0,), 0, 0)
        z = ndtri((g.permutation(nb) + g.random(nb)) / nb)
        rest = (math.sqrt(t2[1]) * g.standard_normal((nb, ne, 1))
                + math.sqrt(t2[2]) * g.standard_normal((nb, ne, n1)))
        factors = {"normal": 1.0 + math.sqrt(t2[0]) * z,
                   "lognormal": np.exp(math.sqrt(s2) * z - s2 / 2)}
        for shape, b in factors.items():
            st = bench_stats(b[:, None, None] + rest)
            cell = CellSpec("binaries", binaries, comparisons, resamples, ("RRR",))
            for r in simulate_cells(st, [cell], seed=seed, bench_id=who, block_size=block):
                if r["method"] in ("bootstrap", "asymptotic"):
                    ts[shape, r["method"]].append(r["tstar"])
    out = {"benchmark": benchmark, "s_pct": [float(x) for x in s_pct], "design": [nb, ne, n1],
           "seed": int(seed), "binaries": binaries, "threshold": threshold,
           "resamples": resamples, "populations": populations}
    for shape in skew:
        boot = np.concatenate(ts[shape, "bootstrap"])
        asym = np.concatenate(ts[shape, "asymptotic"])
        r0, r2 = (float(x) for x in rates_at(boot, [0.0, threshold]))
        a0, a2 = (float(x) for x in rates_at(asym, [0.0, threshold]))
        out[shape] = {"rate2": r2, "interval2": list(proportion_interval(r2, boot.size)),
                      "rate0": r0, "asymptotic2": a2, "asymptotic0": a0, "n": int(boot.size),
                      "skewness": float(skew[shape])}
    return out
