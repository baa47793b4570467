r"""Coverage of 95 % intervals for a ratio of means in a hierarchical normal model.

The model (the paper's Section "Coverage") is normal at every level. Both systems
have the same true variances :math:`\sigma^2_3, \sigma^2_2, \sigma^2_1` (binary,
execution, measurement; highest level first), taken from a benchmark's :math:`S^2_i`
estimates, and means :math:`\mu_O = 1` and :math:`\mu_N = \theta = 0.95`: everything
is in units of the old mean, which changes no interval's coverage (Fieller's and the
percentile intervals are scale equivariant). The coverage of a method is the share of
simulated experiments whose interval for :math:`\mu_N/\mu_O` contains :math:`\theta`;
an unbounded Fieller set contains it.

Experiments
-----------
``fCOV``, ``fCOVGrid`` (three levels)
    each system is ``k`` binaries x ``n_2`` executions x ``n_1`` measurements; the
    parametric intervals use the ``k`` binary means (:math:`k-1` degrees of freedom).
``fCOVR``, ``fCOVRSGrid`` (two levels)
    each system is *one* binary, whose effect is drawn from the binary-level
    distribution, with ``e`` executions of ``n_1`` measurements; the methods treat
    executions as the top level (:math:`e-1` degrees of freedom), so they ignore the
    variation between binaries that the truth still has.

Speed: what the model allows
----------------------------
Measurements are never simulated in the default ``approx`` mode. With ``n_2``
executions of ``n_1`` measurements, a binary mean is exactly
:math:`N(\mu, \tau^2)` with :math:`\tau^2 = \sigma^2_3 + \sigma^2_2/n_2 +
\sigma^2_1/(n_1 n_2)`, and normal theory makes the within-unit sample variances
scaled chi-square variables independent of the means:

* parametric cells draw, per system, the grand mean :math:`N(\mu, \tau^2/k)` and the
  sample variance of the binary means :math:`\tau^2\chi^2_{k-1}/(k-1)` (two numbers
  per system, whatever the design);
* bootstrap cells draw, per binary, its mean, the sample variance of its execution
  means :math:`S^2_{2,b} \sim (\sigma^2_2 + \sigma^2_1/n_1)\chi^2_{n_2-1}/(n_2-1)` and
  its pooled within-execution variance :math:`W_b \sim \sigma^2_1
  \chi^2_{n_2(n_1-1)}/(n_2(n_1-1))`. These are the statistics the false-alarm engine
  (:mod:`esize_study.falsealarm.simulate`) resamples approximately: binaries are resampled exactly
  and the resampled mean of one chosen binary is a normal draw with its exact
  bootstrap mean and variance,

  .. math::

      \operatorname{var}^* = \frac{1}{n_2}\Big[\frac{n_2-1}{n_2} S^2_{2,b}
          + \frac{n_1-1}{n_1^2} W_b\Big] \ \text{(RRR)},\qquad
      \frac{n_2-1}{n_2^2} S^2_{2,b} \ \text{(RRN)},

  RNN needs no approximation, and FLAT is a normal draw with the pooled mean and the
  pooled plug-in variance over :math:`N = k n_2 n_1` (computed from the same three
  statistics);
* two-level bootstrap cells draw the ``e`` execution means and within-execution
  variances (:math:`\sigma^2_1\chi^2_{n_1-1}/(n_1-1)`), resample executions exactly and
  replace each chosen execution's resampled mean by a normal draw (scheme label
  ``RRR``: every level the two-level experiment has is resampled).

``exact`` mode simulates every measurement, computes the same statistics from the
data, and bootstraps with :func:`esize.bootstrap.resample_means`. With ``paired`` it
also runs the approximate bootstrap on the statistics of the *same* simulated
experiments (records of mode ``paired``), which isolates the error of the normal
approximation; the pipeline checks both against each other.

Determinism
-----------
Experiments are simulated in blocks of ``cell.block`` by :mod:`esize_study.engine`;
block ``j`` of a cell draws
from ``SeedSequence(seed, spawn_key=(b, E, k, e, n, boot, mode, j, stream))`` (``b``
benchmark id, ``E`` experiment code, the cell's sizes, whether it is a bootstrap
cell, the mode), so results do not depend on how blocks are spread over jobs, shards
or processes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from esize import EsizeError, critical_value, fieller, resample_means

from ..engine._kernels import standard_normal
from ..engine.resampling import normal_shift, percentile_interval, resampled_sums
from ..engine.seeds import generator
from ..engine.tasks import run_tasks
from ..estimate.coverage import relative_variances

__all__ = [
    "EXPERIMENTS",
    "TWO_LEVEL",
    "BOOT_SCHEMES",
    "PARAMETRIC",
    "Model",
    "CellSpec",
    "simulate_block",
    "simulate_cells",
    "cells_from_config",
    "refine_factor",
    "validation_cells",
]

EXPERIMENTS = {"fCOV": 1, "fCOVGrid": 2, "fCOVR": 3, "fCOVRSGrid": 4}
TWO_LEVEL = frozenset({"fCOVR", "fCOVRSGrid"})
BOOT_SCHEMES = ("RRR", "RRN", "RNN", "FLAT")
PARAMETRIC = ("asymptotic", "normal")
MODES = {"approx": 0, "exact": 1}
_UNITS, _BOOT_OLD, _BOOT_NEW, _PAIRED_OLD, _PAIRED_NEW = range(5)


@dataclass(frozen=True)
class Model:
    """True parameters, in units of the old system's mean.

    Attributes
    ----------
    variances : tuple of 3 floats
        :math:`\\sigma^2` per level, highest first (binary, execution, measurement),
        relative to the squared old mean.
    ratio : float
        True ratio of means new/old.
    """

    variances: tuple[float, float, float]
    ratio: float = 0.95

    @classmethod
    def from_estimates(cls, S2: Sequence[float], mean: float, ratio: float = 0.95) -> Model:
        """Model fed with a benchmark's :math:`S^2_i` (absolute units) and grand mean
        (:func:`esize_study.estimate.coverage.relative_variances`)."""
        return cls(relative_variances(S2, mean), float(ratio))


@dataclass(frozen=True)
class CellSpec:
    """One point of a coverage experiment.

    ``binaries`` is 1 for the two-level experiments. ``methods`` are the parametric
    methods to evaluate (``asymptotic``: Fieller with the t quantile, ``normal``:
    with the normal quantile); ``schemes`` the bootstrap schemes. ``keep`` keeps every
    experiment's interval (for validation), otherwise only counts are returned.
    """

    experiment: str
    binaries: int
    executions: int
    measurements: int
    experiments: int
    methods: tuple[str, ...] = PARAMETRIC
    schemes: tuple[str, ...] = ()
    resamples: int = 1000
    alpha: float = 0.05
    mode: str = "approx"
    block: int = 50
    keep: bool = False
    paired: bool = False

    def __post_init__(self):
        if self.experiment not in EXPERIMENTS:
            raise EsizeError(f"unknown coverage experiment {self.experiment!r}")
        if self.mode not in MODES:
            raise EsizeError(f"unknown mode {self.mode!r}")
        if self.experiment in TWO_LEVEL:
            if self.binaries != 1 or self.executions < 2:
                raise EsizeError("two-level cells have one binary and >= 2 executions")
            if set(self.schemes) - {"RRR"}:
                raise EsizeError("two-level cells support only the RRR (all levels) bootstrap")
        elif self.binaries < 2 or self.executions < 1:
            raise EsizeError("three-level cells need >= 2 binaries and >= 1 execution")
        if self.measurements < 1 or self.experiments < 1 or self.block < 1:
            raise EsizeError("measurements, experiments and block must be positive")
        if set(self.methods) - set(PARAMETRIC) or set(self.schemes) - set(BOOT_SCHEMES):
            raise EsizeError(f"unknown method in {self.methods} / {self.schemes}")

    @property
    def two_level(self) -> bool:
        return self.experiment in TWO_LEVEL

    @property
    def top(self) -> int:
        """Number of top-level units the methods see (binaries, or executions)."""
        return self.executions if self.two_level else self.binaries

    def blocks(self) -> int:
        """Number of blocks of ``block`` experiments."""
        return math.ceil(self.experiments / self.block)

    @property
    def key(self) -> tuple[int, ...]:
        """The cell's part of the seed key: experiment code, sizes, bootstrap, mode."""
        return (EXPERIMENTS[self.experiment], self.binaries, self.executions, self.measurements,
                int(bool(self.schemes)), MODES[self.mode])


def _chi2_scaled(rng, scale: float, df: int, size) -> np.ndarray:
    """``scale * chi2(df) / df`` (zeros when ``df == 0``)."""
    if df <= 0:
        return np.zeros(size)
    return scale * rng.chisquare(df, size) / df


# -- one system -------------------------------------------------------------------------
def _system(model: Model, cell: CellSpec, mu: float, rng, c: int, detailed: bool) -> dict:
    """Statistics of ``c`` simulated systems with true mean ``mu``.

    Keys: ``mean`` and ``vmean`` (grand mean and estimated variance of it), and when
    ``detailed``: ``m`` (c, u) top-level unit means, and ``s2b``, ``w`` (three
    levels) or ``ev`` (two levels); in exact mode also ``data``.
    """
    s3, s2, s1 = model.variances
    k, n2, n1 = cell.binaries, cell.executions, cell.measurements
    out: dict = {}
    if cell.mode == "exact":
        if cell.two_level:
            a = math.sqrt(s3) * standard_normal(rng, (c, 1, 1))
            y = (mu + a + math.sqrt(s2) * standard_normal(rng, (c, n2, 1))
                 + math.sqrt(s1) * standard_normal(rng, (c, n2, n1)))
            out["m"] = y.mean(axis=2)
            out["ev"] = y.var(axis=2, ddof=1) if n1 > 1 else np.zeros((c, n2))
        else:
            y = (mu + math.sqrt(s3) * standard_normal(rng, (c, k, 1, 1))
                 + math.sqrt(s2) * standard_normal(rng, (c, k, n2, 1))
                 + math.sqrt(s1) * standard_normal(rng, (c, k, n2, n1)))
            em = y.mean(axis=3)
            out["m"] = em.mean(axis=2)
            out["s2b"] = em.var(axis=2, ddof=1) if n2 > 1 else np.zeros((c, k))
            out["w"] = y.var(axis=3, ddof=1).mean(axis=2) if n1 > 1 else np.zeros((c, k))
        out["data"] = y
    elif cell.two_level:
        a = math.sqrt(s3) * standard_normal(rng, c)
        ve = s2 + s1 / n1  # variance of one execution mean given the binary
        if detailed:
            out["m"] = mu + a[:, None] + math.sqrt(ve) * standard_normal(rng, (c, n2))
            out["ev"] = _chi2_scaled(rng, s1, n1 - 1, (c, n2))
        else:
            out["mean"] = mu + a + math.sqrt(ve / n2) * standard_normal(rng, c)
            out["vmean"] = _chi2_scaled(rng, ve, n2 - 1, c) / n2
    else:
        tau2 = s3 + s2 / n2 + s1 / (n1 * n2)
        if detailed:
            out["m"] = mu + math.sqrt(tau2) * standard_normal(rng, (c, k))
            out["s2b"] = _chi2_scaled(rng, s2 + s1 / n1, n2 - 1, (c, k))
            out["w"] = _chi2_scaled(rng, s1, n2 * (n1 - 1), (c, k))
        else:
            out["mean"] = mu + math.sqrt(tau2 / k) * standard_normal(rng, c)
            out["vmean"] = _chi2_scaled(rng, tau2, k - 1, c) / k
    if "m" in out:
        u = out["m"].shape[1]
        out["mean"] = out["m"].mean(axis=1)
        out["vmean"] = out["m"].var(axis=1, ddof=1) / u
    return out


# -- bootstrap --------------------------------------------------------------------------
def _boot_approx(st: dict, cell: CellSpec, rng) -> dict:
    """Approximate bootstrap replicate means (c, R) per scheme, from the statistics."""
    m = st["m"]
    c, u = m.shape
    R = cell.resamples
    n2, n1 = cell.executions, cell.measurements
    out = {}
    if cell.two_level:
        base, vsum = resampled_sums([m, ((n1 - 1) / n1**2) * st["ev"]], R, rng)
        z = standard_normal(rng, (c, R))
        out["RRR"] = normal_shift(base, vsum, z, u)
        return out
    tops = [s for s in cell.schemes if s != "FLAT"]
    if tops:
        # the unit means, and each binary's bootstrap variance under the schemes that
        # need one, summed over the same draws (RRR alone: one complex gather)
        var = {"RRR": ((n2 - 1) / n2 * st["s2b"] + (n1 - 1) / n1**2 * st["w"]) / n2,
               "RRN": (n2 - 1) / n2**2 * st["s2b"]}
        with_var = [s for s in tops if s in var]
        base, *vsums = resampled_sums([m] + [var[s] for s in with_var], R, rng)
        z = standard_normal(rng, (c, R))
        for s, v in zip(with_var, vsums):
            out[s] = normal_shift(base, v, z, u)
        if "RNN" in tops:
            out["RNN"] = base / u
    if "FLAT" in cell.schemes:
        n_total = u * n2 * n1
        gm = m.mean(axis=1)
        ss = (n2 * n1 * ((m - gm[:, None]) ** 2).sum(axis=1)
              + n1 * (n2 - 1) * st["s2b"].sum(axis=1)
              + n2 * (n1 - 1) * st["w"].sum(axis=1))
        sd = np.sqrt(ss / n_total / n_total)
        flat = standard_normal(rng, (c, R))  # gm + sd * z, in place
        flat *= sd[:, None]
        flat += gm[:, None]
        out["FLAT"] = flat
    return {s: out[s] for s in cell.schemes}


def _boot_exact(st: dict, cell: CellSpec, rng) -> dict:
    """Bootstrap of the simulated measurements with :func:`resample_means`."""
    y = st["data"]
    out = {}
    for s in cell.schemes:
        scheme = "RR" if cell.two_level else s
        out[s] = np.stack([resample_means(y[i], scheme, cell.resamples, rng=rng)
                           for i in range(y.shape[0])])
    return out


# -- one block --------------------------------------------------------------------------
def simulate_block(model: Model, cell: CellSpec, *, seed: int, bench_id: int,
                   block: int) -> list[dict]:
    """Simulate experiments ``[block * cell.block, ...)`` of ``cell``.

    Returns one record per (method, scheme, mode) with counts ``n``, ``covered`` and
    ``unbounded``, and (if ``cell.keep``) the arrays ``lower``, ``upper``.
    """
    first = block * cell.block
    c = min(cell.block, cell.experiments - first)
    if c <= 0:
        return []
    boot = bool(cell.schemes)
    detailed = boot or cell.mode == "exact"
    g = generator(seed, bench_id, cell.key, block, _UNITS)
    old = _system(model, cell, 1.0, g, c, detailed)
    new = _system(model, cell, model.ratio, g, c, detailed)
    theta = model.ratio
    results = []  # (method, scheme, mode, lower, upper, bounded)
    df = cell.top - 1
    for method in cell.methods:
        q = critical_value(cell.alpha, df if method == "asymptotic" else None)
        lo, hi, ok = fieller(old["mean"], old["vmean"], new["mean"], new["vmean"], q)
        results.append((method, "-", cell.mode, lo, hi, np.asarray(ok)))
    if boot:
        runs = []
        if cell.mode == "exact":
            runs.append(("exact", _boot_exact, _BOOT_OLD, _BOOT_NEW))
            if cell.paired:
                runs.append(("paired", _boot_approx, _PAIRED_OLD, _PAIRED_NEW))
        else:
            runs.append(("approx", _boot_approx, _BOOT_OLD, _BOOT_NEW))
        for mode, fn, so, sn in runs:
            bo = fn(old, cell, generator(seed, bench_id, cell.key, block, so))
            bn = fn(new, cell, generator(seed, bench_id, cell.key, block, sn))
            for s in cell.schemes:
                lo, hi = percentile_interval(bn[s] / bo[s], cell.alpha, overwrite_input=True)
                results.append(("bootstrap", s, mode, lo, hi, np.ones(c, dtype=bool)))
    records = []
    for method, scheme, mode, lo, hi, ok in results:
        cov = (lo <= theta) & (theta <= hi)
        r = {
            "experiment": cell.experiment,
            "binaries": cell.binaries,
            "executions": cell.executions,
            "measurements": cell.measurements,
            "method": method,
            "scheme": scheme,
            "mode": mode,
            "block": block,
            "first": first,
            "n": c,
            "covered": int(cov.sum()),
            "unbounded": int((~ok).sum()),
        }
        if cell.keep:
            r.update(lower=np.asarray(lo, dtype=float), upper=np.asarray(hi, dtype=float),
                     cover=np.asarray(cov))
        records.append(r)
    return records


def _block_task(model: Model, cell: CellSpec, block: int, *, seed: int, bench_id: int):
    return simulate_block(model, cell, seed=seed, bench_id=bench_id, block=block)


def simulate_cells(model: Model, cells: Sequence[CellSpec], *, seed: int, bench_id: int,
                   n_jobs: int = 1, shard: tuple[int, int] = (0, 1)) -> list[dict]:
    """Run every block of ``cells`` (or shard ``i`` of ``n`` of them).

    A shard takes every ``n``-th task; records come back in task order, and their
    union over shards equals the unsharded run, whatever ``n_jobs``. Cheap tasks are
    grouped into batches of about equal cost for the workers (see
    :func:`esize_study.engine.tasks.run_tasks`).
    """
    fn = partial(_block_task, model, seed=seed, bench_id=bench_id)
    return run_tasks(fn, cells, CellSpec.blocks, n_jobs=n_jobs, shard=shard, cost=_cost)


def _cost(cell: CellSpec) -> float:
    """Rough relative cost of one block (for batching only; never changes results)."""
    n = min(cell.block, cell.experiments)
    if cell.mode == "exact":
        size = cell.top * (1 if cell.two_level else cell.executions) * cell.measurements
        return n * (1 + len(cell.schemes) * cell.resamples * size / 50.0)
    if cell.schemes:
        return n * (1 + len(cell.schemes) * cell.resamples * cell.top / 20.0)
    return n * 0.01 + 20.0


# -- cells from the configuration ------------------------------------------------------------
def cells_from_config(cfg: Mapping, *, boot_grid: bool = True,
                      bench: str | None = None) -> list[CellSpec]:
    """All cells of one benchmark for the ``coverage`` configuration section.

    ``boot_grid``: whether this benchmark also gets the bootstrap fCOVGrid. The cells
    that ``cfg["refine"]`` lists for ``bench`` (:func:`refine_factor`) get that many
    times the experiments; their first experiments are the unrefined cell's, since a
    block's seed does not depend on the count.
    """
    a, R = cfg["alpha"], cfg["resamples"]
    npar, nboot = cfg["experiments"], cfg["boot_experiments"]
    bp, bb = cfg["param_block"], cfg["block"]
    schemes = tuple(cfg["fCOV"]["schemes"])

    def par(exp, k, e, n):
        return CellSpec(exp, k, e, n, npar, PARAMETRIC, (), R, a, block=bp)

    def boot(exp, k, e, n, sch):
        return CellSpec(exp, k, e, n, nboot, (), sch, R, a, block=bb)

    cells: list[CellSpec] = []
    f = cfg["fCOV"]
    cells += [par("fCOV", k, f["executions"], f["measurements"]) for k in f["binaries"]]
    cells += [boot("fCOV", k, f["executions"], f["measurements"], schemes)
              for k in f["boot_binaries"]]
    g = cfg["fCOVGrid"]
    cells += [par("fCOVGrid", k, e, g["measurements"]) for k in g["binaries"] for e in g["executions"]]
    if boot_grid:
        cells += [boot("fCOVGrid", k, e, g["measurements"], ("RRR",))
                  for k in g["boot_binaries"] for e in g["boot_executions"]]
    r = cfg["fCOVR"]
    cells += [par("fCOVR", 1, e, r["measurements"]) for e in r["executions"]]
    cells += [boot("fCOVR", 1, e, r["measurements"], ("RRR",)) for e in r["boot_executions"]]
    s = cfg["fCOVRSGrid"]
    cells += [par("fCOVRSGrid", 1, e, n) for e in s["executions"] for n in s["measurements"]]
    refine = cfg.get("refine")
    if refine and bench is not None:
        cells = [replace(c, experiments=c.experiments * refine_factor(refine, bench, c))
                 for c in cells]
    return cells


def refine_factor(refine: Mapping, bench: str, cell: CellSpec) -> int:
    """How many times its experiments a cell gets: ``refine["factor"]`` when an entry of
    ``refine["cells"]`` names it, else 1.

    An entry names ``benchmarks`` (a list, or ``"all"``), an ``experiment``, a
    ``method`` (``parametric`` or ``bootstrap``) and optionally lists of ``binaries``,
    ``executions`` and ``measurements`` (a size it leaves out is any size).
    """
    boot = bool(cell.schemes)
    for entry in refine.get("cells") or ():
        names = entry.get("benchmarks", "all")
        if names != "all" and bench not in names:
            continue
        if entry["experiment"] != cell.experiment or (entry["method"] == "bootstrap") != boot:
            continue
        if all(entry.get(k) is None or getattr(cell, k) in entry[k]
               for k in ("binaries", "executions", "measurements")):
            return int(refine["factor"])
    return 1


def validation_cells(cfg: Mapping) -> list[CellSpec]:
    """Small cases run in both modes (``exact`` with ``paired`` approximate bootstrap)."""
    v = cfg["validation"]
    a = cfg["alpha"]
    cells = []
    for mode in ("approx", "exact"):
        kw = dict(resamples=v["resamples"], alpha=a, mode=mode, block=v["block"], keep=True,
                  paired=mode == "exact")
        cells += [CellSpec("fCOV", int(k), v["executions"], v["measurements"], v["experiments"],
                           PARAMETRIC, tuple(cfg["fCOV"]["schemes"]), **kw) for k in v["binaries"]]
        cells += [CellSpec("fCOVR", 1, int(e), v["measurements"], v["experiments"],
                           PARAMETRIC, ("RRR",), **kw) for e in v["two_level_executions"]]
    return cells
