r"""Known-effect experiment: intervals for a change injected into measured programs.

A measured dataset may hold, beside a base benchmark ``b``, variants ``v`` whose only
difference is a known change: ``v`` does a fraction more work per iteration (the
injected ratio :math:`r`, e.g. 1.01), or none at all (``r = 1``: an independent set of
builds of the same program, an A/A comparison). Every variant was built independently
of its base (its own randomised layouts), so a comparison of ``v`` with ``b`` is what
a user comparing two versions of a program sees.

The experiment subsamples the data as a user's smaller experiment would look. For
each variant and each size ``k``, ``comparisons`` times:

* draw ``k`` binaries *without replacement* from the base's builds ("old") and ``k``
  from the variant's builds ("new"), each with all its executions and steady-state
  iterations;
* compute Fieller's interval for the ratio of means new/old with Student's t
  quantile (``k - 1`` degrees of freedom, the paper's rule for two systems of ``k``
  binaries; ``esize.fieller_ci(..., df=k - 1)``), the same with the normal quantile,
  and the percentile
  bootstrap with the RRR scheme;
* record the interval.

The table gives, per (variant, ``k``, method), the share of intervals that contain
the injected ratio and the share that contain the *full-data* ratio (all base builds
against all variant builds), and the verdicts of :func:`esize.verdict` at each
threshold, every share with its Monte Carlo standard error.

Speed
-----
The parametric intervals need only the drawn binaries' means. The bootstrap is
:mod:`esize_study.falsealarm.simulate`'s: binaries are resampled exactly, and the resampled
mean of one chosen binary is, in the default ``approx`` mode, a normal draw with its
exact RRR bootstrap mean and variance (``exact`` mode resamples every level with
:func:`esize.resample_means`; the false-alarm rules validate one against the other
on the same data, and the tests do it here).

Determinism
-----------
Block ``j`` of the cell of size ``k`` of variant ``v`` draws only from
``SeedSequence(seed, spawn_key=(id(v), 3, k, j, stream))``
(:func:`esize_study.engine.seeds.generator`, with ``id``
:func:`esize_study.engine.seeds.bench_id` of the variant's name and 3 this
experiment's code), so results do not depend on how blocks are spread over jobs,
shards or processes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from esize import Design, EsizeError, bootstrap_ratio_ci, critical_value, fieller, fieller_ci

from ..engine.resampling import percentile_interval
from ..engine.seeds import generator
from ..engine.tasks import run_tasks
from ..falsealarm import simulate as fa

__all__ = [
    "EXPERIMENT",
    "KnownEffectCell",
    "draw_binaries",
    "sizes_within",
    "simulate_block",
    "simulate",
    "reference",
]

#: This experiment's code in the seed keys (the false-alarm experiments use 1 and 2).
EXPERIMENT = 3
# the same stream numbers as the false-alarm experiment's blocks
_STREAM_UNITS, _STREAM_BOOT_OLD, _STREAM_BOOT_NEW = (
    fa._STREAM_UNITS, fa._STREAM_BOOT_OLD, fa._STREAM_BOOT_NEW)


@dataclass(frozen=True)
class KnownEffectCell:
    """One simulated cell: ``comparisons`` subsampled comparisons of ``size`` binaries.

    Attributes
    ----------
    size : int
        Binaries drawn for each system (at least 2).
    comparisons : int
        Subsampled comparisons.
    resamples : int
        Bootstrap replicates per interval.
    alpha : float
        One minus the confidence level.
    mode : {"approx", "exact"}
        Bootstrap of :mod:`esize_study.falsealarm.simulate` (see the module notes).
    """

    size: int
    comparisons: int
    resamples: int
    alpha: float = 0.05
    mode: str = "approx"

    def blocks(self, block: int) -> int:
        """Number of blocks of ``block`` comparisons."""
        return math.ceil(self.comparisons / block)

    @property
    def key(self) -> tuple[int, int]:
        """The cell's part of the seed key: experiment code and size."""
        return (EXPERIMENT, self.size)


def sizes_within(sizes: Sequence[int], *builds: int) -> tuple[list[int], list[int]]:
    """Split the configured numbers of builds per system into those that can be drawn
    without replacement from every set (2 to the fewest ``builds``) and those that
    cannot (returned second, to be skipped and reported)."""
    top = min(int(b) for b in builds)
    keep = [int(k) for k in sizes if 2 <= int(k) <= top]
    return keep, [int(k) for k in sizes if not 2 <= int(k) <= top]


def draw_binaries(rng: np.random.Generator, n: int, k: int, c: int) -> np.ndarray:
    """``k`` of ``n`` binaries without replacement, independently for ``c`` comparisons.

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
        Binaries available.
    k : int
        Binaries drawn (``1 <= k <= n``).
    c : int
        Comparisons.

    Returns
    -------
    ndarray of int, shape (c, k)
        The first ``k`` entries of a uniformly random permutation per row (the ranks
        of ``n`` uniform keys), so every ``k``-subset is equally likely.
    """
    if not 1 <= k <= n:
        raise EsizeError(f"cannot draw {k} of {n} binaries without replacement")
    return np.argsort(rng.random((c, n)), axis=1, kind="stable")[:, :k]


def simulate_block(old: fa.BenchStats, new: fa.BenchStats, cell: KnownEffectCell, *,
                   seed: int, variant_id: int, block: int, block_size: int) -> list[dict]:
    """Simulate comparisons ``[block * block_size, ...)`` of ``cell``.

    Parameters
    ----------
    old, new : BenchStats
        Statistics of the base and of the variant (:func:`esize_study.falsealarm.simulate.bench_stats`).
    cell : KnownEffectCell
    seed, variant_id, block, block_size : int
        The seed key (see the module notes) and the block's place.

    Returns
    -------
    list of dict
        One record per method with arrays ``estimate``, ``lower``, ``upper`` and
        ``bounded`` (one entry per comparison of the block), and ``method``, ``size``,
        ``block``, ``first`` (the first comparison's number).
    """
    first = block * block_size
    c = min(block_size, cell.comparisons - first)
    if c <= 0:
        return []
    k = cell.size
    g_units = generator(seed, variant_id, cell.key, block, _STREAM_UNITS)
    g_old = generator(seed, variant_id, cell.key, block, _STREAM_BOOT_OLD)
    g_new = generator(seed, variant_id, cell.key, block, _STREAM_BOOT_NEW)
    uo = draw_binaries(g_units, old.shape[0], k, c)
    un = draw_binaries(g_units, new.shape[0], k, c)
    mo, mn = old.binary_means[uo], new.binary_means[un]
    xo, xn = mo.mean(axis=1), mn.mean(axis=1)
    vo, vn = mo.var(axis=1, ddof=1) / k, mn.var(axis=1, ddof=1) / k
    estimate = xn / xo
    records = []
    for method, q in (("fieller-t", critical_value(cell.alpha, k - 1)),
                      ("fieller-normal", critical_value(cell.alpha))):
        lo, hi, ok = fieller(xo, vo, xn, vn, q)
        records.append({"method": method, "estimate": estimate, "lower": lo, "upper": hi,
                        "bounded": np.asarray(ok)})
    spec = fa.CellSpec("binaries", k, cell.comparisons, cell.resamples, ("RRR",), cell.alpha,
                       cell.mode)
    # the false-alarm engine's bootstrap of systems made of the drawn binaries
    boot_old = fa._boot_binaries(old, uo, g_old, spec)["RRR"]
    boot_new = fa._boot_binaries(new, un, g_new, spec)["RRR"]
    lo, hi = percentile_interval(boot_new / boot_old, cell.alpha)
    records.append({"method": "bootstrap-RRR", "estimate": estimate, "lower": lo, "upper": hi,
                    "bounded": np.ones(c, dtype=bool)})
    for r in records:
        r.update(size=k, block=block, first=first)
    return records


def _block_task(old, new, cell, block, *, seed, variant_id, block_size):
    return simulate_block(old, new, cell, seed=seed, variant_id=variant_id, block=block,
                          block_size=block_size)


def simulate(
    old: fa.BenchStats,
    new: fa.BenchStats,
    cells: Sequence[KnownEffectCell],
    *,
    seed: int,
    variant_id: int,
    block_size: int = 50,
    n_jobs: int = 1,
    shard: tuple[int, int] = (0, 1),
) -> list[dict]:
    """Run every block of ``cells`` (or shard ``i`` of ``n`` of them).

    Records come back in task order; the union of all shards equals the unsharded
    run, whatever ``n_jobs`` (:func:`esize_study.engine.tasks.run_tasks`).

    Raises
    ------
    EsizeError
        A size below 2 or above the binaries either system has.
    """
    for cell in cells:
        if not 2 <= cell.size <= min(old.shape[0], new.shape[0]):
            raise EsizeError(
                f"known effect: {cell.size} binaries per system cannot be drawn without "
                f"replacement from {old.shape[0]} and {new.shape[0]} binaries (need 2..."
                f"{min(old.shape[0], new.shape[0])})"
            )
    fn = partial(_block_task, old, new, seed=seed, variant_id=variant_id, block_size=block_size)
    return run_tasks(fn, cells, lambda c: c.blocks(block_size), n_jobs=n_jobs, shard=shard)


# -- the full-data reference ------------------------------------------------------------
def reference(old: Design, new: Design, *, ratio: float, alpha: float = 0.05,
              resamples: int = 2000, seed: int = 0, variant_id: int = 0,
              cpu_old: Design | None = None, cpu_new: Design | None = None) -> dict:
    """The full-data ratio of means (every build of both) with its intervals.

    Parameters
    ----------
    old, new : Design
        Steady-state designs of the base and of the variant (all binaries).
    ratio : float
        The injected ratio, to say whether each interval contains it.
    alpha : float
    resamples : int
        Replicates of the library's RRR bootstrap (:func:`esize.bootstrap_ratio_ci`),
        seeded by ``SeedSequence(seed, spawn_key=(variant_id, 3))``, a key no block of
        the subsampling draws from.
    cpu_old, cpu_new : Design, optional
        The same iterations' CPU times: their Fieller (t) interval as a diagnostic
        (time the process spent waiting for a CPU is in the wall time only).

    Returns
    -------
    dict
        The keys of :data:`esize_study.knowneffect.records.REFERENCE_COLUMNS` but
        ``variant``, ``base``.
    """
    ft = fieller_ci(old, new, alpha=alpha)
    fn = fieller_ci(old, new, alpha=alpha, normal=True)
    rng = np.random.SeedSequence(seed, spawn_key=(variant_id, EXPERIMENT))
    bs = bootstrap_ratio_ci(old, new, scheme="RRR", n_resamples=resamples, alpha=alpha, rng=rng,
                            workers=1)
    out = {
        "ratio": float(ratio),
        "base_binaries": old.shape[0],
        "variant_binaries": new.shape[0],
        "estimate": ft.estimate,
        "fieller_t_lower": ft.lower, "fieller_t_upper": ft.upper,
        "fieller_normal_lower": fn.lower, "fieller_normal_upper": fn.upper,
        "bootstrap_lower": bs.lower, "bootstrap_upper": bs.upper,
        "bootstrap_resamples": int(resamples),
        "contains_injected": bool(ft.lower <= ratio <= ft.upper),
        "cpu_estimate": None, "cpu_lower": None, "cpu_upper": None,
        "cpu_contains_injected": None,
    }
    if cpu_old is not None and cpu_new is not None:
        c = fieller_ci(cpu_old, cpu_new, alpha=alpha)
        out.update(cpu_estimate=c.estimate, cpu_lower=c.lower, cpu_upper=c.upper,
                   cpu_contains_injected=bool(c.lower <= ratio <= c.upper))
    return out
