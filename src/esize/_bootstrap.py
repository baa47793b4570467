r"""Fast hierarchical bootstrap for balanced designs of any depth.

Implements the bootstrap intervals of the paper's Sections "Confidence Interval
for the Mean of One System" and "Confidence Interval for Ratio of Means" (with their
pseudo-code figures), and the geometric mean of a whole suite of ratios.

A *scheme* says, level by level from the top, whether units are drawn with
replacement (``R``) or kept intact (``N``): ``"RRR"`` is the paper's default for
three levels, ``"RRN"`` and ``"RNN"`` keep the lower levels intact, and ``"FLAT"``
pools every measurement and resamples the pool. At every ``R`` level, each chosen
unit receives as many children as it has, drawn with replacement from its own
children, as in the paper's pseudo-code.

Implementation
--------------
One replicate is a vector of leaf indices. Levels are processed top-down on a block
of replicates at once: an ``R`` level turns every parent slot into ``n_L`` child
slots with uniform random offsets, an ``N`` level into the ``n_L`` children in order.
Levels below the lowest ``R`` level are never expanded: their unit means are
precomputed once, so ``RNN`` costs ``n_top`` draws per replicate.

One engine serves every public function: the replicate means of one system
(:func:`resample_means`), the ratio of two (:func:`bootstrap_ratio_ci`) and the
geometric mean of many ratios (:func:`geometric_mean_ratio_ci`). Each system of
each benchmark is an independent task with its own random streams, so tasks run
on a thread pool (numpy releases the GIL while it draws, gathers and sums) and
the result is the same for any number of workers.

Scale: each system is resampled in units of its own power of two, the one that
brings its largest value into [1/2, 1) (dividing by it is exact, so the replicate
means are those of the data bit for bit at ordinary magnitudes), and the ratio of
two systems is formed from those scaled means and multiplied by
:math:`2^{e_{new} - e_{old}}` last. A file :math:`10^{\pm 300}` times the other, or
one stray value of :math:`10^{300}`, thus neither overflows a sum nor leaves the
ratio's replicates out of range unless the ratio itself is.

Random numbers: each resampled level of each system has its own stream, a
``PCG64`` generator spawned from a seed drawn once from ``rng``. Indices are exactly
uniform ``Generator.integers`` draws; a stream is consumed in replicate-major order
(32-bit draws are buffered in the bit generator's own state), so the replicate means
depend neither on ``batch`` nor on ``workers``.

The lowest resampled level draws its children in groups: ``k`` independent uniform
draws among ``n`` children are one uniform draw among the ``n**k`` ordered
``k``-tuples, so each group is drawn as a single index into a precomputed table of
the ``n**k`` sums of ``k`` children (one table per parent unit; ``k`` is chosen by
:func:`group_size` so that the tables stay in cache). Every replicate is still an
exact hierarchical resample; the streams are simply consumed fewer times, and the
replicates are gathered from fewer, cached values.

References
----------
A. C. Davison and D. V. Hinkley, *Bootstrap Methods and their Application*,
Cambridge University Press, 1997 (percentile intervals, hierarchical resampling).
"""

from __future__ import annotations

import numpy as np

# The bootstrap in parts: its arguments (_bootstrap_args), random streams (_streams),
# engine (_resampling), percentile intervals (_percentile) and the suite's geometric
# mean (_suite); one system and two systems here. The library imports them from here.
from ._bootstrap_args import (
    MIN_TAIL_REPLICATES,
    _as_array,
    _n_resamples,
    check_resamples,
    minimum_resamples,
    pair_schemes,
    parse_scheme,
    scheme_label,
)
from ._estimators import scaled
from ._intervals import _check_alpha, check_ratio_range
from ._percentile import (
    BootstrapResult,
    _ratios,
    _result,
    _unscale,
    interval_kind,
    jackknife_acceleration,
    percentile_interval,
    unit_means,
)
from ._resampling import Progress, _pair_tasks, _run_systems, means_from_indices, tuple_sums
from ._resampling import group_size as group_size  # (tests/reference.py)
from ._streams import IndexStream as IndexStream  # (tests/lib/test_bootstrap.py)
from ._streams import benchmark_seed, spawn_streams
from ._suite import SuiteInterval, geometric_mean_ratio_ci

__all__ = [
    "BootstrapResult",
    "SuiteInterval",
    "MIN_TAIL_REPLICATES",
    "minimum_resamples",
    "check_resamples",
    "parse_scheme",
    "pair_schemes",
    "resample_means",
    "bootstrap_mean_ci",
    "bootstrap_ratio_ci",
    "geometric_mean_ratio_ci",
    "percentile_interval",
    "spawn_streams",
    "benchmark_seed",
    "means_from_indices",
    "tuple_sums",
]


# -- public functions ---------------------------------------------------------------------
def resample_means(
    data,
    scheme: str = "RRR",
    n_resamples: int = 10_000,
    *,
    rng,
    batch: int | None = None,
    progress: Progress | None = None,
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
    progress : callable, optional
        Called with the number of replicates completed after every step.

    Returns
    -------
    ndarray of shape (n_resamples,)

    Examples
    --------
    Resampling executions and measurements, or nothing (every replicate is the
    grand mean):

    >>> import esize as ez
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]],
    ...                 ("execution", "measurement"))
    >>> means = ez.resample_means(old, "RR", 2000, rng=1)
    >>> means.shape, round(float(means.mean()), 4)
    ((2000,), 12.466)
    >>> set(ez.resample_means(old, "NN", 3, rng=1).tolist())
    {12.5}
    """
    z, e = scaled(_as_array(data))
    scheme = parse_scheme(scheme, z.ndim)
    n = _n_resamples(n_resamples, arrays=1)
    (means,) = _run_systems([(z, scheme, rng)], n, batch, progress, 1)
    return _unscale(means, e)



def bootstrap_mean_ci(
    data,
    *,
    scheme: str = "RRR",
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    rng,
    batch: int | None = None,
    progress: Progress | None = None,
) -> BootstrapResult:
    """Percentile bootstrap confidence interval for the mean of one system.

    Returns
    -------
    BootstrapResult
        The interval, with the replicate means as ``bootstrap_distribution``.

    Raises
    ------
    EsizeError
        Fewer than :func:`minimum_resamples` (``alpha``) replicates, or more than
        fit in memory (see :func:`check_resamples`).

    Examples
    --------
    Executions resampled, their measurements kept (``RN``): each replicate is the
    mean of four of the execution means 11, 12, 13 and 14:

    >>> import esize as ez
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]],
    ...                 ("execution", "measurement"))
    >>> ci = ez.bootstrap_mean_ci(old, scheme="RN", n_resamples=2000, rng=1)
    >>> ci.estimate, ci.lower, ci.upper, ci.method
    (12.5, 11.5, 13.5, 'bootstrap-RN')
    """
    z, e = scaled(_as_array(data))
    alpha = _check_alpha(alpha)
    scheme = parse_scheme(scheme, z.ndim)
    n = _n_resamples(n_resamples, alpha, arrays=2)  # the replicates, and a sorted copy
    (means,) = _run_systems([(z, scheme, rng)], n, batch, progress, 1)
    return _result(_unscale(z.mean(), e), _unscale(means, e), alpha, scheme, n)



def bootstrap_ratio_ci(
    old,
    new,
    *,
    scheme: str = "RRR",
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    rng,
    batch: int | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
    expand: bool = False,
    interval: str | None = None,
) -> BootstrapResult:
    r"""Percentile or BCa bootstrap confidence interval for the ratio of means new/old.

    Each replicate resamples both systems independently (with the same scheme) and
    takes the ratio of their means, as in the paper's bootstrap for the ratio of
    two systems. Each system is resampled within itself, so the two may have
    different designs: other repetition counts, or other levels (then give one
    scheme per system, see :func:`pair_schemes`).

    Parameters
    ----------
    old, new : Design or array_like
    scheme, n_resamples, alpha, rng, batch
        As in :func:`resample_means`.
    progress : callable, optional
        Called with the number of system-replicates just completed (the total is
        ``2 * n_resamples``), possibly from worker threads, never concurrently.
    workers : int, optional
        Threads (default: the number of CPUs, at most 2 here); does not change
        the result.
    expand : bool, default False
        Hesterberg's expanded percentile interval for the smaller system's top-level
        units (:func:`esize._percentile.expanded_alpha`) instead of the plain one,
        which is too narrow with few units (``esize compare`` uses it); the same as
        ``interval="expanded"``.
    interval : {"percentile", "expanded", "bca"}, optional
        The kind of interval from the replicates (default: ``"expanded"`` with
        ``expand``, else ``"percentile"``). ``"bca"`` is Efron's bias-corrected and
        accelerated interval: the replicates' quantiles at the tail levels of
        :func:`esize._percentile.bca_levels`, with :math:`\hat z_0` from the share of
        replicates below the estimate and the acceleration
        :math:`\hat a` from the jackknife of the top-level units of both systems
        (:func:`esize._percentile.jackknife_acceleration`: one unit left out of one
        system at a time, each system's influence values scaled by its unit count;
        ``FLAT`` leaves out single measurements). It needs a scheme that resamples the
        top level. The result's ``extra`` records ``z0``, ``acceleration`` and the
        levels ``bca_levels``; when the interval is not defined (every replicate on one
        side of the estimate) its limits are infinite and ``bounded`` is False, and
        when every replicate is equal it is that value (``bca_note`` says which).

    Returns
    -------
    BootstrapResult
        The interval, with the replicate ratios as ``bootstrap_distribution``.

    Raises
    ------
    EsizeError
        Fewer than :func:`minimum_resamples` (``alpha``) replicates, more than fit in
        memory (see :func:`check_resamples`), or a ratio of means beyond the range of
        floats (:func:`esize._intervals.check_ratio_range`). A replicate whose ratio
        alone is beyond it (a resample of a few stray values) is ``inf`` or 0.

    Examples
    --------
    The new system is one unit faster in every measurement:

    >>> import esize as ez
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]],
    ...                 ("execution", "measurement"))
    >>> new = ez.Design([[9, 10, 11], [11, 12, 13], [10, 11, 12], [12, 13, 14]],
    ...                 ("execution", "measurement"))
    >>> ci = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=2000, rng=1)
    >>> round(ci.estimate, 4), round(ci.lower, 4), round(ci.upper, 4), ci.contains(1.0)
    (0.92, 0.8, 1.0629, True)

    The BCa interval from the same replicates (the same seed), with its bias
    correction and acceleration:

    >>> bca = ez.bootstrap_ratio_ci(old, new, scheme="RR", n_resamples=2000, rng=1,
    ...                             interval="bca")
    >>> bool((bca.bootstrap_distribution == ci.bootstrap_distribution).all())
    True
    >>> round(bca.lower, 4), round(bca.upper, 4), sorted(bca.extra)
    (0.7987, 1.0612, ['acceleration', 'bca_levels', 'interval', 'resamples', 'z0'])
    """
    (zo, eo), (zn, en) = scaled(_as_array(old)), scaled(_as_array(new))  # each its own scale
    alpha = _check_alpha(alpha)
    schemes = pair_schemes(scheme, zo.ndim, zn.ndim)
    n = _n_resamples(n_resamples, alpha, arrays=4)  # both systems, ratios, sorted copy
    estimate = check_ratio_range(zo.mean(), zn.mean(), en - eo)
    m_old, m_new = _run_systems(_pair_tasks(zo, zn, schemes, rng), n, batch, progress, workers)
    kind = interval_kind(interval, expand)
    units = min(zo.shape[0], zn.shape[0]) if kind == "expanded" else None
    accel = (jackknife_acceleration(unit_means(zo, schemes[0]), unit_means(zn, schemes[1]))
             if kind == "bca" else None)
    return _result(estimate, _ratios(m_old, m_new, en - eo), alpha, scheme_label(schemes), n,
                   units, accel)

