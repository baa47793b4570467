"""The geometric mean of a suite's ratios with its bootstrap and parametric intervals.

Part of the hierarchical bootstrap (:mod:`esize._bootstrap`): every benchmark of a
suite is resampled on its own, both systems as in
:func:`~esize.bootstrap_ratio_ci`, and the replicates of the geometric mean are
those of the benchmarks with the same index (:func:`geometric_mean_ratio_ci`);
:class:`SuiteInterval` holds the result beside the parametric companion.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from ._bootstrap_args import _as_array, _n_resamples, pair_schemes, scheme_label
from ._errors import DesignError, EsizeError
from ._estimators import mean_and_variance, scaled
from ._intervals import (
    _TINY,
    Interval,
    _check_alpha,
    check_ratio_range,
    geometric_mean_ratio_parametric,
)
from ._percentile import (
    _ratios,
    _result,
    interval_kind,
    jackknife_acceleration,
    percentile_interval,
    unit_means,
)
from ._resampling import Progress, _pair_tasks, _run_systems
from ._streams import _seed_sequence, benchmark_seed

__all__ = ["SuiteInterval", "geometric_mean_ratio_ci"]


@dataclass(frozen=True)
class SuiteInterval:
    """Geometric mean of a suite's ratios with its bootstrap and parametric intervals.

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
    intervals : tuple of BootstrapResult
        Each benchmark's own percentile interval for new/old (never inverted), from
        the same replicates, which it keeps as its ``bootstrap_distribution``.
    inverted : tuple of bool
        Benchmarks whose ratio entered the geometric mean as old/new.
    bootstrap_distribution : ndarray of shape (resamples,)
        Replicates of the geometric mean.
    parametric : Interval or None
        The parametric companion (:func:`esize.geometric_mean_ratio_parametric`):
        the t or normal interval for the mean of the log ratios. Unbounded when a
        system has a single top-level unit; None when it was not computed.

    A suite made by :meth:`parametric_only` has no bootstrap: ``resamples`` is 0,
    ``intervals`` empty, ``bootstrap_distribution`` None, ``lower`` and ``upper``
    NaN, and :attr:`verdict_interval` is the parametric interval.

    Notes
    -----
    With few top-level units the percentile bootstrap is too narrow (it resamples
    the few units it has as if they were the population), so a suite's verdict
    should not rest on it alone: :attr:`verdict_interval` is the smallest interval
    holding both the bootstrap and the parametric interval, and a verdict on it is
    one that both intervals support (when they disagree it is "inconclusive").

    Examples
    --------
    A suite without a bootstrap (:meth:`parametric_only`): the new system is faster in
    one benchmark and slower by the same factor in the other:

    >>> import esize as ez
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]],
    ...                 ("execution", "measurement"))
    >>> new = ez.Design([[9, 10, 11], [11, 12, 13], [10, 11, 12], [12, 13, 14]],
    ...                 ("execution", "measurement"))
    >>> suite = ez.SuiteInterval.parametric_only([(old, new), (new, old)])
    >>> suite.geometric_mean, suite.has_bootstrap, suite.resamples
    (1.0, False, 0)
    >>> v = suite.verdict_interval
    >>> v.method, round(v.lower, 4), round(v.upper, 4)
    ('parametric', 0.8891, 1.1248)
    """

    geometric_mean: float
    lower: float
    upper: float
    alpha: float
    resamples: int
    intervals: tuple
    inverted: tuple
    bootstrap_distribution: np.ndarray | None = field(repr=False, compare=False)
    parametric: Interval | None = None

    @classmethod
    def parametric_only(cls, pairs: Sequence, *, alpha: float = 0.05, normal: bool = False,
                        invert: Sequence[bool] | None = None,
                        names: Sequence[str] | None = None) -> SuiteInterval:
        """The suite's geometric mean with its parametric interval alone (no bootstrap).

        The geometric mean is computed exactly as by :func:`geometric_mean_ratio_ci`,
        the interval by :func:`esize.geometric_mean_ratio_parametric` (unbounded when a
        system has a single top-level unit); nothing random is drawn.

        Parameters
        ----------
        pairs : sequence of (old, new)
            One pair of designs (or arrays) per benchmark.
        alpha : float
            One minus the confidence level.
        normal : bool
            Use the normal instead of the t quantile.
        invert : sequence of bool, optional
            Benchmarks whose ratio enters the geometric mean as old/new.
        names : sequence of str, optional
            Benchmark names, for the messages.

        Returns
        -------
        SuiteInterval
            With ``resamples`` 0, no ``intervals``, NaN ``lower`` and ``upper``.

        Raises
        ------
        EsizeError
            No pair, non-positive means, or a ratio beyond the range of floats.
        """
        pairs = list(pairs)
        if not pairs:
            raise EsizeError("a suite needs at least one benchmark")
        alpha = _check_alpha(alpha)
        k = len(pairs)
        inv = [bool(x) for x in _per_benchmark(invert, k, "invert flags", default=False)]
        label = [str(x) for x in names] if names is not None else [str(j) for j in range(k)]
        log_est = []
        for j, (old, new) in enumerate(pairs):
            # the means of scaled(...) (as geometric_mean_ratio_ci takes them), from
            # mean_and_variance: computed once in a block of shared_statistics
            mo, _, eo = _mean_and_exponent(old)
            mn, _, en = _mean_and_exponent(new)
            if min(mo, mn) <= 0:
                raise EsizeError(f"benchmark {label[j]}: the geometric mean needs positive "
                                 "means (positive measurements)")
            log_e = math.log(check_ratio_range(mo, mn, en - eo, label[j]))
            log_est.append(-log_e if inv[j] else log_e)
        gm = float(np.exp(np.mean(log_est)))
        return cls(gm, math.nan, math.nan, alpha, 0, (), tuple(inv), None,
                   _parametric(pairs, alpha, normal, inv, gm))

    @property
    def has_bootstrap(self) -> bool:
        """Whether the bootstrap was run (False for :meth:`parametric_only`)."""
        return self.resamples > 0

    @property
    def bounded(self) -> bool:
        if not self.has_bootstrap:
            return self.parametric is not None and self.parametric.bounded
        return bool(math.isfinite(self.lower) and math.isfinite(self.upper))

    @property
    def ratios(self) -> np.ndarray:
        """Replicate ratios new/old, one row per benchmark (never inverted)."""
        return np.stack([iv.bootstrap_distribution for iv in self.intervals])

    @property
    def verdict_interval(self) -> Interval:
        """The interval a verdict on the suite rests on: the hull of both intervals.

        Its ``method`` says which interval it is: ``"bootstrap"`` (the bootstrap
        interval holds the parametric one, or there is no parametric one),
        ``"parametric"`` (the other way round, or the parametric interval is
        unbounded) or ``"bootstrap+parametric"`` (each sticks out on one side).
        """
        p = self.parametric
        boot = (self.lower, self.upper)
        if not self.has_bootstrap:
            ok = p is not None and p.bounded
            lo, hi = (p.lower, p.upper) if ok and p is not None else (-math.inf, math.inf)
            return Interval(self.geometric_mean, lo, hi, self.alpha, "parametric", ok)
        if p is None:
            lo, hi, source, ok = *boot, "bootstrap", self.bounded
        elif not p.bounded:
            lo, hi, source, ok = -math.inf, math.inf, "parametric", False
        else:
            lo, hi = min(self.lower, p.lower), max(self.upper, p.upper)
            source = ("bootstrap" if (lo, hi) == boot else
                      "parametric" if (lo, hi) == (p.lower, p.upper) else
                      "bootstrap+parametric")
            ok = self.bounded
        return Interval(self.geometric_mean, lo, hi, self.alpha, source, ok)

    def as_dict(self) -> dict:
        """JSON-ready summary (without the replicates); without a bootstrap,
        ``lower`` and ``upper`` are the parametric limits (None when unbounded) and
        ``resamples`` is left out."""
        out: dict
        if self.has_bootstrap:
            out = {
                "geometric_mean": self.geometric_mean,
                "lower": self.lower,
                "upper": self.upper,
                "alpha": self.alpha,
                "resamples": self.resamples,
            }
        else:
            v = self.verdict_interval
            out = {"geometric_mean": self.geometric_mean,
                   "lower": float(v.lower) if v.bounded else None,
                   "upper": float(v.upper) if v.bounded else None,
                   "alpha": self.alpha}
        if self.parametric is not None:
            p = self.parametric

            def fin(x):
                return float(x) if math.isfinite(x) else None

            out["parametric"] = {
                "lower": fin(p.lower),
                "upper": fin(p.upper),
                "bounded": p.bounded,
                "quantile": "normal" if p.method.endswith("normal") else "t",
                "df": p.extra.get("df"),
                "log_se": p.extra.get("log_se"),
            }
        return out



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
    progress: Progress | None = None,
    workers: int | None = None,
    normal: bool = False,
    parametric: bool = True,
    expand: bool = False,
    interval: str | None = None,
) -> SuiteInterval:
    r"""Geometric mean of several benchmarks' ratios new/old, with a bootstrap CI and
    a parametric companion.

    Every benchmark ``k`` of a suite has its own ratio of means
    :math:`r_k = \bar Y^{new}_k / \bar Y^{old}_k`; the suite's summary is

    .. math:: G = \Bigl(\prod_{k=1}^{K} r_k\Bigr)^{1/K}.

    In replicate ``i`` every benchmark is resampled on its own (both systems, as in
    :func:`bootstrap_ratio_ci`), giving :math:`r_k^{(i)}`, and :math:`G^{(i)}` is the
    geometric mean of the :math:`r_k^{(i)}` with the same index; the interval is
    the percentile interval of the :math:`G^{(i)}`. The benchmarks are
    independent, so pairing replicates by index is as good as any other pairing.

    The percentile bootstrap is too narrow when the benchmarks have few top-level
    units (measured: 86-88 % coverage for 95 % with 3 units when the top level
    dominates, 91 % with 5), so the result also carries the parametric interval of
    :func:`esize.geometric_mean_ratio_parametric` -- the t interval (normal with
    ``normal``) for the mean of the log ratios, delta-method variances,
    Welch-Satterthwaite degrees of freedom -- and
    :attr:`SuiteInterval.verdict_interval`, the smallest interval holding both: the
    more conservative choice, on which a verdict should rest. ``lower`` and
    ``upper`` stay the bootstrap's.

    Parameters
    ----------
    pairs : sequence of (old, new)
        One pair of designs (or arrays) per benchmark.
    scheme : str, sequence, or None
        Resampling scheme for every benchmark, one per benchmark, or None for
        ``"R"`` at every level of each; a benchmark whose systems have different
        levels takes ``"OLD/NEW"`` or a pair (see :func:`pair_schemes`).
    n_resamples : int
        Bootstrap replicates.
    alpha : float
        One minus the confidence level.
    rng : int, SeedSequence or numpy.random.Generator
        The suite's seed (keyword-only).
    names : sequence of str, optional
        Benchmark names. With names, benchmark ``k`` draws from
        ``benchmark_seed(rng, names[k])``, so its own interval does not change when
        other benchmarks are added or left out; without, from the ``k``-th child of
        ``rng`` -- except that a single unnamed pair draws from ``rng`` itself, so
        that it reproduces :func:`bootstrap_ratio_ci` exactly.
    invert : sequence of bool, optional
        Benchmarks whose ratio enters the geometric mean as old/new (to put rates,
        where higher is better, in the same direction as times).
    batch : int, optional
        Replicates per vectorised step (does not change the result).
    progress : callable, optional
        Called with the number of system-replicates just completed; the total is
        ``2 * len(pairs) * n_resamples``.
    workers : int, optional
        Threads (default: the number of CPUs); does not change the result.
    normal : bool
        Use the normal instead of the t quantile in the parametric interval.
    parametric : bool
        Compute the parametric interval (``parametric`` of the result is None
        without it; it is unbounded when a system has a single top-level unit).
    expand : bool, default False
        Give every benchmark Hesterberg's expanded percentile interval
        (:func:`esize._percentile.expanded_alpha` of the smaller system's top-level
        units) instead of the plain one, which is too narrow with few units; the
        geometric mean's interval stays the plain percentile interval.
    interval : {"percentile", "expanded", "bca"}, optional
        Every benchmark's interval kind, as in :func:`bootstrap_ratio_ci` (default:
        ``"expanded"`` with ``expand``, else ``"percentile"``); the geometric mean's
        interval stays the plain percentile interval.

    Returns
    -------
    SuiteInterval

    Raises
    ------
    EsizeError
        No pair, non-positive ratios, a ratio of means beyond the range of floats,
        fewer than :func:`minimum_resamples` (``alpha``) replicates, or more than
        fit in memory: the computation holds
        ``4 K + 2`` arrays of ``n_resamples`` floats for ``K`` benchmarks (both
        systems' means and the ratios of each, their logarithms, the geometric means
        and a sorted copy).

    Examples
    --------
    Two benchmarks, ratios 0.92 and 1, so a geometric mean of :math:`\sqrt{0.92}`:

    >>> import esize as ez
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]],
    ...                 ("execution", "measurement"))
    >>> new = ez.Design([[9, 10, 11], [11, 12, 13], [10, 11, 12], [12, 13, 14]],
    ...                 ("execution", "measurement"))
    >>> suite = ez.geometric_mean_ratio_ci([(old, new), (old, old)], n_resamples=2000,
    ...                                    rng=1, names=["sort", "hash"])
    >>> round(suite.geometric_mean, 4), round(suite.lower, 4), round(suite.upper, 4)
    (0.9592, 0.8755, 1.0517)
    >>> v = suite.verdict_interval  # the parametric interval holds the bootstrap's
    >>> len(suite.intervals), v.method, round(v.lower, 4), round(v.upper, 4)
    (2, 'parametric', 0.8549, 1.0762)
    """
    pairs = list(pairs)
    if not pairs:
        raise EsizeError("a suite needs at least one benchmark")
    alpha = _check_alpha(alpha)
    k = len(pairs)
    n = _n_resamples(n_resamples, alpha, arrays=4 * k + 2)
    schemes = _per_benchmark(scheme, k, "schemes")
    inv = [bool(x) for x in _per_benchmark(invert, k, "invert flags", default=False)]
    seeds = _suite_seeds(rng, k, names)
    kind = interval_kind(interval, expand)

    arrays, tasks = [], []
    for (old, new), s, ss in zip(pairs, schemes, seeds):
        (zo, eo), (zn, en) = scaled(_as_array(old)), scaled(_as_array(new))  # own scales
        both = pair_schemes(s, zo.ndim, zn.ndim)
        arrays.append((zo, zn, en - eo, scheme_label(both), both))
        tasks += _pair_tasks(zo, zn, both, ss)
    means = _run_systems(tasks, n, batch, progress, workers)

    label = [str(x) for x in names] if names is not None else [str(j) for j in range(k)]
    logs, log_est, intervals = [], [], []
    for j, (zo, zn, shift, sch, both) in enumerate(arrays):
        m_old, m_new = means[2 * j], means[2 * j + 1]
        if min(zo.mean(), zn.mean(), m_old.min(), m_new.min()) <= 0:
            raise EsizeError(
                f"benchmark {label[j]}: the geometric mean needs positive means "
                "(positive measurements)"
            )
        estimate = check_ratio_range(zo.mean(), zn.mean(), shift, label[j])
        units = min(zo.shape[0], zn.shape[0]) if kind == "expanded" else None
        accel = (jackknife_acceleration(unit_means(zo, both[0]), unit_means(zn, both[1]))
                 if kind == "bca" else None)
        iv = _result(estimate, _ratios(m_old, m_new, shift), alpha, sch, n, units, accel)
        intervals.append(iv)
        log_r = _log_ratios(cast(np.ndarray, iv.bootstrap_distribution), m_old, m_new, shift)
        log_e = math.log(iv.estimate)
        logs.append(-log_r if inv[j] else log_r)
        log_est.append(-log_e if inv[j] else log_e)
    with np.errstate(over="ignore"):
        gm_reps = np.exp(np.mean(logs, axis=0))
    lo, hi = percentile_interval(gm_reps, alpha)
    gm = float(np.exp(np.mean(log_est)))
    companion = None
    if parametric:
        companion = _parametric(pairs, alpha, normal, inv, gm)
    return SuiteInterval(gm, lo, hi, alpha, n, tuple(intervals), tuple(inv), gm_reps, companion)


def _log_ratios(ratios: np.ndarray, mean_old: np.ndarray, mean_new: np.ndarray,
                shift: int) -> np.ndarray:
    """Logarithms of the replicate ratios; where a ratio is beyond the floats (a
    replicate of stray values), from the logarithms of its scaled means instead."""
    with np.errstate(divide="ignore", over="ignore"):
        direct = np.log(ratios)
        in_range = (ratios >= _TINY) & (ratios < math.inf)
        if np.all(in_range):
            return direct
        parts = np.log(mean_new) - np.log(mean_old) + shift * math.log(2.0)
    return np.where(in_range, direct, parts)


def _mean_and_exponent(system) -> tuple[float, float, int]:
    """``scaled(system)``'s mean and exponent (with the variance of the mean), by
    :func:`~esize._estimators.mean_and_variance`: the mean of the scaled values is the
    same sum in both; one unit gets no variance (NaN) instead of an error."""
    y = _as_array(system)
    if y.shape[0] < 2:
        z, e = scaled(y)
        return float(z.mean()), math.nan, e
    return mean_and_variance(y)


def _parametric(pairs, alpha, normal, inv, gm) -> Interval:
    """The suite's parametric interval, unbounded when a top-level variance cannot be
    estimated (a single top-level unit)."""
    try:
        return geometric_mean_ratio_parametric(pairs, alpha=alpha, normal=normal, invert=inv)
    except DesignError:
        return Interval(gm, -math.inf, math.inf, alpha, "log-normal" if normal else "log-t",
                        False, extra={"df": None, "log_se": None})


def _per_benchmark(value, k: int, what: str, default=None) -> list:
    if value is None or isinstance(value, str):
        return [default if value is None else value] * k
    out = list(value)
    if len(out) != k:
        raise EsizeError(f"{len(out)} {what} for {k} benchmarks")
    return out


def _suite_seeds(rng, k: int, names) -> list:
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != k:
            raise EsizeError(f"{len(names)} names for {k} benchmarks")
        if len(set(names)) != k:
            raise EsizeError("benchmark names must be unique")
        base = _seed_sequence(rng)
        return [benchmark_seed(base, n) for n in names]
    if k == 1:
        return [rng]
    return _seed_sequence(rng).spawn(k)
