"""Comparing two systems benchmark by benchmark: the engine of ``esize compare``.

For every benchmark of both systems: the ratio of means new/old with Fieller's
interval (Kalibera and Jones, section "Confidence Interval for Ratio of Means") and a
verdict against a threshold of relevance; for a suite of several benchmarks also the
geometric mean of the ratios with a parametric (t) interval on the log scale.
:func:`compare_pairs` does the whole comparison on :class:`Pair` objects and returns a
:class:`CompareResult`, which renders the command line's text (:meth:`CompareResult.
render_text`) and JSON (:meth:`CompareResult.to_json`) and draws its figure.

``method`` says which intervals are computed. The default, ``"auto"``, adds the
hierarchical bootstrap's percentile interval (section "Bootstrap Methods") when a
single benchmark is compared, and runs no bootstrap when two or more are: the
verdicts do not need it, since a benchmark's verdict comes from Fieller whenever it
is computed and the suite's t interval covers on its own (measured at 94 % or more
for a 95 % interval with two forks per benchmark), while the 10,000 resamples of
every benchmark would take most of the run. ``"both"`` always adds the bootstrap
(then the geometric mean's bootstrap interval comes from the same replicates),
``"fieller"`` never does, ``"bootstrap"`` computes no Fieller interval. ``"mixed"``
computes neither: every benchmark's interval and verdict come from a REML mixed model of
the log times (:func:`esize.mixed_ratio_ci`), whose estimand is the ratio of the
geometric means, not of the means; a cross-check of Fieller's interval that also
weighs the units by their information.

Where the data cannot support a verdict the answer is ``inconclusive``, with a caveat
saying why, rather than a narrow interval:

* a benchmark's verdict comes from Fieller's interval whenever it is computed; when
  that interval is unbounded (the old mean is not distinguishable from zero) the
  verdict is ``inconclusive`` -- the bootstrap interval is still shown, but in
  exactly those cases it covers the ratio far less often than it claims;
* the bootstrap decides only when Fieller is not run (``method="bootstrap"``), and
  then only with :data:`MIN_BOOTSTRAP_UNITS` or more top-level units in each
  system: below, a bootstrap is not known to cover, the interval is shown with
  a caveat and the verdict is ``inconclusive`` (``assume_bootstrap_covers`` decides
  anyway). Every benchmark's bootstrap interval is Hesterberg's expanded percentile
  interval (:func:`esize._percentile.expanded_alpha`): the plain one is too narrow
  with 10-30 units (about 91-94 % at 10-12);
* a system's values far out from the rest (:mod:`esize._outliers`) get a caveat:
  the mean and every interval follow them;
* the files of a format that cannot see its processes apart (Go of one ``go test``
  run, Google Benchmark, pytest-benchmark, criterion, Julia, asv:
  :data:`esize.readers.UNOBSERVED_LEVELS`) are treated as one process per system;
* a comparison whose systems carry no session or round level says once that drift
  between the two runs is not in the intervals (:func:`drift_note`); at threshold
  0 a comparison of several benchmarks says how many were tested and lists those
  that hold at a false discovery rate of ``alpha`` (:func:`multiplicity`);
* a system holding a single fork or process (its highest level, dropped by the
  reader) gives an interval that leaves out the variation between forks: the
  verdict is ``inconclusive`` (``assume_no_fork_variance`` decides anyway);
* Fieller's t quantile has Welch's degrees of freedom lowered where either
  system's variance may be larger than its units show (:func:`esize.ratio_df_rule`);
* the suite's verdict rests on the t interval of the geometric mean when no
  bootstrap was run, and otherwise on the smallest interval holding both the
  bootstrap and the t interval (:attr:`esize.SuiteInterval.verdict_interval`);
* a benchmark of which a system holds a single measurement
  (:mod:`esize.readers.single`) has no interval: its point ratio is given,
  ``inconclusive``, with the reason.

Reading files is not done here: :mod:`esize.cli.compare` reads them with the command
line's options and builds the pairs (:func:`align_designs`, :func:`reading_caveats`).

Examples
--------
>>> import esize as ez
>>> from esize.compare import compare_pairs, make_pair
>>> levels = ("binary", "execution", "measurement")
>>> old = ez.Design([[[9, 11], [10, 12]], [[8, 10], [11, 13]], [[10, 12], [9, 11]]], levels)
>>> new = ez.Design([[[7, 8], [7, 9]], [[6, 8], [8, 9]], [[7, 9], [6, 8]]], levels)
>>> result = compare_pairs([make_pair(None, old, new)], method="fieller")
>>> row = result.rows[0]
>>> round(row.pair.ratio, 4), row.verdict
(0.7302, <Verdict.FASTER: 'faster'>)
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, cast

import numpy as np

from ._bootstrap import (
    SuiteInterval,
    check_resamples,
    geometric_mean_ratio_ci,
    pair_schemes,
    scheme_label,
)
from ._compare_result import CompareResult, CompareRow, Pair, SuiteRow
from ._compare_text import assume_flag, benchmark_caveats, design_text, suite_caveats
from ._decision import (
    MIN_BOOTSTRAP_UNITS,
    Verdict,
    benjamini_hochberg,
    check_threshold,
    describe,
    number_text,
    verdict,
    verdict_obstacle,
)
from ._design import Design
from ._errors import EsizeError
from ._estimators import RELATIVE_TOLERANCE, shared_statistics
from ._intervals import Interval, _check_alpha, fieller_ci, fieller_p_value
from ._mixed import mixed_ratio_ci
from ._paired import paired_ratio_ci
from ._warmup import DEFAULT_WARMUP
from .readers import align_pair
from .readers.single import is_single
from .readers.units import UnitInfo

__all__ = [
    "Pair",
    "CompareRow",
    "SuiteRow",
    "CompareResult",
    "METHODS",
    "MIN_BOOTSTRAP_UNITS",
    "Verdict",
    "compare_pairs",
    "make_pair",
    "schemes_for",
    "align_designs",
    "reading_caveats",
    "unobserved_top",
    "SESSION_LEVELS",
    "DEFAULT_WARMUP",
    "band_reason",
    "ESTIMATORS",
    "robust_design",
    "estimator_note",
    "drift_note",
    "BUILD_LEVELS",
    "build_note",
    "multiplicity",
    "design_text",
    "directions",
    "fresh_seed",
    "suite_bootstrap",
    "check_resamples_option",
    "fieller_interval",
    "benchmark_caveats",
    "benchmark_row",
    "single_row",
    "suite_caveats",
    "suite_row",
]

#: What ``method`` may be: which intervals are computed (see the module's text).
METHODS = ("auto", "fieller", "bootstrap", "both", "mixed")


def align_designs(bo, bn, **kw) -> tuple[Design, Design]:
    """:func:`~esize.readers.align_pair`, also when a system holds a single measurement
    (:mod:`esize.readers.single`): its value enters twice, which keeps its mean, for
    the same checks and unit conversion, and comes out as one value again.

    Examples
    --------
    A new system of one measurement in seconds, against the old one's milliseconds:

    >>> import warnings
    >>> import esize as ez
    >>> from esize.compare import align_designs
    >>> from esize.readers import Benchmark, unit_info
    >>> bo = Benchmark(ez.Design([[10, 11], [9, 10]], ("fork", "iteration")), unit_info("ms"))
    >>> bn = Benchmark(ez.Design([0.0085], ("run",)), unit_info("s"))
    >>> with warnings.catch_warnings(record=True):  # the note that s became ms
    ...     d_old, d_new = align_designs(bo, bn, name="sort", new_name="sort",
    ...                                  old_source="old.json", new_source="new.json")
    >>> d_old.shape, d_new.shape, d_new.data.round(6).tolist()
    ((2, 2), (1,), [8.5])
    """
    if not (is_single(bo.design) or is_single(bn.design)):
        return align_pair(bo, bn, **kw)
    twice = [replace(b, design=Design(np.repeat(b.design.data.ravel(), 2), b.design.levels))
             if is_single(b.design) else b for b in (bo, bn)]
    aligned = align_pair(*twice, **kw)
    d_old, d_new = (Design(d.data[:1], d.levels) if is_single(b.design) else d
                    for d, b in zip(aligned, (bo, bn)))
    return d_old, d_new


def single_row(pair: Pair, *, alpha: float, threshold: float, normal: bool,
               resamples: int) -> CompareRow:
    """The comparison of a benchmark of which a system holds a single measurement: the
    point ratio, ``inconclusive``, and why (no interval can be computed).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import make_pair, single_row
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> pair = make_pair("sort", old, ez.Design([8.4], ("run",)))
    >>> row = single_row(pair, alpha=0.05, threshold=0.02, normal=False, resamples=0)
    >>> print(row.verdict, row.fieller, row.description)
    inconclusive None new is 22.46 % faster (a single measurement: no interval)
    >>> row.reason
    'new holds a single measurement, so no interval can be computed; ...'
    """
    sides = [side for side, d in (("old", pair.old), ("new", pair.new)) if is_single(d)]
    who = " and ".join(sides)
    reason = (f"{who} {'holds' if len(sides) == 1 else 'hold'} a single measurement, so no "
              "interval can be computed; the ratio is a point estimate")
    amount = describe(pair.ratio, pair.ratio, pair.ratio, alpha,
                      lower_is_better=pair.unit.lower_is_better).split(" (", 1)[0]
    return CompareRow(pair, alpha, threshold, None, normal, None, resamples, None,
                      Verdict.INCONCLUSIVE, None, f"{amount} (a single measurement: no interval)",
                      (*pair.caveats, f"no verdict: {reason}"), reason)


def reading_caveats(bo, bn) -> tuple[str, ...]:
    """What the readers said of both systems' benchmarks, each caveat starting with
    ``old:`` or ``new:`` (:attr:`Pair.caveats`).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import reading_caveats
    >>> from esize.readers import Benchmark, unit_info
    >>> forks = Benchmark(ez.Design([[1.0, 1.1], [0.9, 1.0]], ("fork", "iteration")),
    ...                   unit_info("ms"))
    >>> one_fork = Benchmark(ez.Design([1.0, 1.1, 0.9], ("iteration",)), unit_info("ms"),
    ...                      caveats=("a single fork",))
    >>> reading_caveats(forks, one_fork), reading_caveats(forks, forks)
    (('new: a single fork',), ())
    """
    return tuple(f"old: {c}" for c in bo.caveats) + tuple(f"new: {c}" for c in bn.caveats)


def unobserved_top(bo, bn) -> tuple[str, ...]:
    """``("old: fork", ...)``: the highest levels the readers dropped for holding a
    single unit (:func:`esize.readers._common.drop_single_top`).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import unobserved_top
    >>> from esize.readers import Benchmark, unit_info
    >>> forks = Benchmark(ez.Design([[1.0, 1.1], [0.9, 1.0]], ("fork", "iteration")),
    ...                   unit_info("ms"))
    >>> one_fork = Benchmark(ez.Design([1.0, 1.1, 0.9], ("iteration",)), unit_info("ms"),
    ...                      unobserved=(("fork", None),))
    >>> unobserved_top(forks, one_fork), unobserved_top(forks, forks)
    (('new: fork',), ())
    """
    return tuple(f"{side}: {level}" for side, b in (("old", bo), ("new", bn))
                 for level, parent in getattr(b, "unobserved", ()) if parent is None)


def directions(pairs: list[Pair]) -> tuple[list[bool], bool]:
    """Which benchmarks enter the geometric mean inverted, and whether the suite mixes
    rates with times (then the rates are inverted, so that every ratio is a time's).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import directions, make_pair
    >>> from esize.readers import unit_info
    >>> d = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> times = make_pair("sort", d, d, unit=unit_info("ms"))
    >>> rates = make_pair("parse", d, d, unit=unit_info("ops/s"))
    >>> directions([times, rates]), directions([times, times])
    (([False, True], True), ([False, False], False))
    """
    lib = [p.unit.lower_is_better for p in pairs]
    mixed = len(set(lib)) > 1
    return [mixed and not d for d in lib], mixed


def fresh_seed() -> int:
    """A random 32-bit seed (reported, so that the run can be repeated).

    Examples
    --------
    >>> from esize.compare import fresh_seed
    >>> seed = fresh_seed()
    >>> isinstance(seed, int) and 0 <= seed < 2**32
    True
    """
    return int.from_bytes(os.urandom(4), "big")


def suite_bootstrap(pairs: list[Pair], *, resamples: int, alpha: float, seed: int,
                    invert: list[bool], progress=None, normal: bool = False,
                    parametric: bool | None = None) -> SuiteInterval:
    """Bootstrap every pair (each with its own stream) and the geometric mean.

    A single unnamed pair draws from ``seed`` itself, so its interval equals
    :func:`esize.bootstrap_ratio_ci` with that seed; named pairs draw from streams
    derived from their names. Two or more pairs also get the parametric interval of
    the geometric mean (t, or normal with ``normal``) unless ``parametric`` is False.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import make_pair, suite_bootstrap
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> newer = ez.Design([[10, 12], [11, 11], [11, 12]], ("fork", "iteration"))
    >>> pairs = [make_pair("sort", old, new), make_pair("hash", old, newer)]
    >>> suite = suite_bootstrap(pairs, resamples=2000, alpha=0.05, seed=1, invert=[False, False])
    >>> round(suite.geometric_mean, 4), round(suite.lower, 3), round(suite.upper, 3)
    (0.8904, 0.843, 0.944)
    >>> len(suite.intervals), suite.parametric.method, suite.verdict_interval.method
    (2, 'log-t', 'parametric')
    """
    unnamed = len(pairs) == 1 and pairs[0].name is None
    return geometric_mean_ratio_ci(
        [(p.old, p.new) for p in pairs],
        scheme=[p.scheme for p in pairs],
        n_resamples=resamples,
        alpha=alpha,
        rng=seed,
        # a suite of two or more has every benchmark named (the readers name them)
        names=None if unnamed else cast(list[str], [p.name for p in pairs]),
        invert=invert,
        progress=progress,
        normal=normal,
        parametric=len(pairs) >= 2 if parametric is None else parametric,
        expand=True,  # the plain percentile interval is too narrow with 10-30 units
    )


def check_resamples_option(resamples: int, alpha: float, n_pairs: int) -> None:
    """Refuse ``--resamples`` too few for a percentile interval at ``alpha``, or too
    many for the memory (the suite holds ``4 K + 2`` replicate arrays for ``K``
    benchmarks); see :func:`esize._bootstrap.check_resamples`.

    Examples
    --------
    >>> from esize import EsizeError
    >>> from esize.compare import check_resamples_option
    >>> check_resamples_option(2000, 0.05, 3)  # enough: nothing happens
    >>> try:
    ...     check_resamples_option(100, 0.05, 3)
    ... except EsizeError as exc:
    ...     print(exc)
    --resamples 100 is too few for a 95 % percentile interval: at least 200 are needed ...
    """
    check_resamples(resamples, alpha, arrays=4 * n_pairs + 2, name="--resamples")


def fieller_interval(pair: Pair, *, alpha: float, normal: bool) -> Interval:
    """Fieller's interval for the ratio of the pair's means.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import fieller_interval, make_pair
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> pair = make_pair("sort", old, new)
    >>> iv = fieller_interval(pair, alpha=0.05, normal=False)
    >>> round(iv.lower, 4), round(iv.upper, 4), iv.method, iv.bounded
    (0.6703, 0.8899, 'fieller-t', True)
    >>> iv = fieller_interval(pair, alpha=0.05, normal=True)  # narrower
    >>> round(iv.lower, 4), round(iv.upper, 4), iv.method
    (0.7165, 0.8275, 'fieller-normal')
    """
    return fieller_ci(pair.old, pair.new, alpha=alpha, normal=normal)


def _assumed(assume: dict) -> tuple:
    return tuple(k for k, key in (("fork", "assume_no_fork_variance"),
                                  ("bootstrap", "assume_bootstrap_covers")) if assume.get(key))


def benchmark_row(pair: Pair, fieller: Interval | None, boot: Interval | None, *, alpha: float,
                  threshold: float, normal: bool, resamples: int, seed: int | None,
                  assume_no_fork_variance: bool = False,
                  assume_bootstrap_covers: bool = False,
                  paired: Interval | None = None, mixed: Interval | None = None
                  ) -> CompareRow:
    """The verdict of one benchmark: from Fieller's interval whenever it was computed
    (``inconclusive`` when it is unbounded), from the bootstrap's only when Fieller
    was not run; ``inconclusive`` too, with the reason, when a system held a single
    fork or process, or when the bootstrap decides on fewer than
    :data:`MIN_BOOTSTRAP_UNITS` top-level units (:func:`esize._decision.verdict_obstacle`),
    unless the matching ``assume_*`` flag forces a verdict. A ``paired`` interval
    (systems measured in shared rounds, :func:`esize.paired_ratio_ci`) takes the
    verdict from both; a ``mixed`` interval (:func:`esize.mixed_ratio_ci`, the ratio of
    geometric means, whose estimate the description then gives) takes it otherwise.

    Examples
    --------
    New is 14 % to 31 % faster (Fieller's 95 % interval), so the verdict depends on
    the threshold:

    >>> import esize as ez
    >>> from esize.compare import benchmark_row, fieller_interval, make_pair
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> pair = make_pair("sort", old, new)
    >>> fieller = fieller_interval(pair, alpha=0.05, normal=False)
    >>> for t in (0.02, 0.3, 0.5):
    ...     row = benchmark_row(pair, fieller, None, alpha=0.05, threshold=t, normal=False,
    ...                         resamples=0, seed=None)
    ...     print(t, row.verdict)
    0.02 faster
    0.3 inconclusive
    0.5 same
    """
    method, chosen = None, None
    if paired is not None:
        method, chosen = "paired", paired
    elif mixed is not None:
        method, chosen = "mixed", mixed
    elif fieller is not None:
        method, chosen = "fieller", fieller
    elif boot is not None:
        method, chosen = "bootstrap", boot
    lib = pair.unit.lower_is_better
    assume: dict[str, Any] = {"assume_no_fork_variance": assume_no_fork_variance,
                              "assume_bootstrap_covers": assume_bootstrap_covers}
    reason, band, p_value = None, None, None
    if chosen is None:
        word, text = Verdict.INCONCLUSIVE, "no interval"
    else:
        support: dict[str, Any] = {"method": method, "top_units": pair.top_units,
                                   "unobserved_top": pair.single_level, **assume}
        word = verdict(chosen.lower, chosen.upper, threshold, bounded=chosen.bounded,
                       lower_is_better=lib, **support)
        point = chosen.estimate if method == "mixed" else pair.ratio
        text = describe(point, chosen.lower, chosen.upper, alpha,
                        bounded=chosen.bounded, lower_is_better=lib)
        obstacle = verdict_obstacle(**support)
        if chosen.bounded:
            band = None if obstacle else band_reason(chosen, threshold, lower_is_better=lib)
            reason = obstacle or band
        if method == "fieller" and obstacle is None:
            p_value = fieller_p_value(pair.old, pair.new, normal=normal)
        elif method == "mixed" and obstacle is None:
            p_value = chosen.extra["p_value"]
    caveats = benchmark_caveats(pair, fieller if paired is None else None, boot, alpha=alpha,
                                reason=reason, assumed=_assumed(assume), verdict_method=method)
    if paired is not None and not paired.bounded:
        caveats += (f"the paired interval is unbounded: {paired.extra['rounds']} round(s) "
                    f"are too few for a {100 * (1 - alpha):g} % interval",)
    if band is not None:
        caveats += (f"no verdict: {band}",)
    return CompareRow(pair, alpha, threshold, fieller, normal, boot, resamples, seed,
                      word, method, text, caveats, reason, p_value, paired, mixed)


def band_reason(interval: Interval, threshold: float, *, lower_is_better: bool = True
                ) -> str | None:
    """Why an interval that leaves out no change still draws no verdict: it reaches
    into the threshold band, so the change may be smaller than the threshold.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import band_reason
    >>> iv = ez.Interval(0.975, 0.965, 0.985, 0.05, "fieller-t", True)
    >>> print(band_reason(iv, 0.02))
    new is faster (the interval leaves out 1), but possibly by less than the 2 % threshold
    >>> band_reason(iv, 0.0) is None, band_reason(ez.Interval(1.0, 0.99, 1.01, 0.05, "t", True), 0.02)
    (True, None)
    """
    if threshold <= 0 or not interval.bounded:
        return None
    if verdict(interval.lower, interval.upper, threshold,
               lower_is_better=lower_is_better) is not Verdict.INCONCLUSIVE:
        return None
    # clearly beside 1: by more than the tolerance under which a limit counts as on it
    below = interval.upper < 1.0 - RELATIVE_TOLERANCE
    above = interval.lower > 1.0 + RELATIVE_TOLERANCE
    if not (below or above):
        return None
    word = "faster" if below == lower_is_better else "slower"
    return (f"new is {word} (the interval leaves out 1), but possibly by less than the "
            f"{100 * threshold:g} % threshold")


def _both_label(pairs: Sequence[Pair], names: tuple[str, ...]) -> bool:
    """Whether both systems of every pair have a level named in ``names``."""
    return all(any(level in names for level in d.levels) for p in pairs for d in (p.old, p.new))


#: Level names that mark a session or round: old and new measured at the same time
#: (interleaved in rounds) or the runs' own drift observed as a level of the design.
SESSION_LEVELS = ("session", "round")


def drift_note(pairs: Sequence[Pair]) -> str | None:
    """The note of a comparison whose systems carry no session or round level: drift
    of the machine between the old and the new run is in neither interval.

    Two files written one after the other (two CI jobs, hyperfine old then new) differ
    also by whatever changed on the machine in between: load, clock, temperature. That
    difference is not variance inside either file, so no interval computed from them
    holds it, and more measurements only make the interval narrower around it. Only a
    design that measures old and new in several sessions or rounds, labelled as a level
    (:data:`SESSION_LEVELS`), observes it.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import drift_note, make_pair
    >>> flat = ez.Design([[1.0, 1.1], [0.9, 1.0]], ("process", "iteration"))
    >>> rounds = ez.Design([[[1.0, 1.1], [0.9, 1.0]]] * 5, ("round", "process", "iteration"))
    >>> print(drift_note([make_pair("sort", flat, flat)]))
    drift: neither system's data label a session or round, so whatever changed on the machine between the old and the new run (load, clock, temperature) is not in the intervals; measure them interleaved in rounds (esize run does), or label rounds in a tidy table and compare with --paired, to include it
    >>> drift_note([make_pair("sort", rounds, rounds)]) is None
    True
    """
    if _both_label(pairs, SESSION_LEVELS):
        return None
    return ("drift: neither system's data label a session or round, so whatever changed "
            "on the machine between the old and the new run (load, clock, temperature) is "
            "not in the intervals; measure them interleaved in rounds (esize run does), or "
            "label rounds in a tidy table and compare with --paired, to include it")


#: Level names that mark builds of the code: several compilations of one version
#: (the paper's binaries), whose code layout differs.
BUILD_LEVELS = ("binary", "build", "compilation")


def build_note(pairs: Sequence[Pair]) -> str | None:
    """The note of a comparison whose systems carry no build level: the variation
    between builds of the same code (code layout, link order, the paper's top level)
    is in neither interval.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import build_note, make_pair
    >>> runs = ez.Design([[1.0, 1.1], [0.9, 1.0]], ("process", "iteration"))
    >>> builds = ez.Design([[1.0, 1.1], [0.9, 1.0]], ("binary", "execution"))
    >>> print(build_note([make_pair("sort", runs, runs)]))
    builds: neither system's data label builds (binaries), so the variation between builds of the same code (code layout, link order) is not in the intervals; build each version 3 or more times and measure each build, with a binary column in a tidy table, to include it
    >>> build_note([make_pair("sort", builds, builds)]) is None
    True
    """
    if _both_label(pairs, BUILD_LEVELS):
        return None
    return ("builds: neither system's data label builds (binaries), so the variation "
            "between builds of the same code (code layout, link order) is not in the "
            "intervals; build each version 3 or more times and measure each build, with a "
            "binary column in a tidy table, to include it")


def multiplicity(rows: Sequence[CompareRow], *, alpha: float, threshold: float
                 ) -> tuple[str | None, dict | None]:
    """The false discovery rate list of a comparison of two or more benchmarks, and at
    threshold 0 (each benchmark a test of "no change") the note that many were tested.

    Each benchmark's verdict at threshold 0 is a test at level ``alpha``: among many
    unchanged benchmarks some ``alpha`` of them are called faster or slower by chance.
    Benjamini and Hochberg's rule (:func:`esize.benjamini_hochberg`) on the p-values
    of Fieller's intervals (:func:`esize.fieller_p_value`) lists the benchmarks whose
    change holds at false discovery rate ``alpha``. Benchmarks whose interval cannot
    support a verdict are not tested.

    Returns
    -------
    (str or None, dict or None)
        The note (None above threshold 0 or for fewer than two tested benchmarks) and
        ``{"method", "q", "tested", "changed"}`` (None for fewer than two).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import compare_pairs, make_pair, multiplicity
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> result = compare_pairs([make_pair("a", old, new), make_pair("b", old, old)],
    ...                        method="fieller", threshold=0.0)
    >>> note, fdr = multiplicity(result.rows, alpha=0.05, threshold=0.0)
    >>> fdr["changed"], fdr["tested"]
    (['a'], 2)
    >>> print(note)
    2 benchmarks were each tested at 95 %: ...
    """
    tested = [r for r in rows if r.p_value is not None]
    if len(tested) < 2:
        return None, None
    changed = benjamini_hochberg([r.p_value for r in tested], q=alpha)
    names = [str(r.pair.name) for r, c in zip(tested, changed) if c]
    fdr = {"method": "benjamini-hochberg", "q": alpha, "tested": len(tested),
           "changed": names}
    if threshold > 0:
        return None, fdr
    m, conf = len(tested), f"{100 * (1 - alpha):g} %"
    note = (f"{m} benchmarks were each tested at {conf}: were none of them changed, some "
            f"{number_text(alpha * m, 2)} would still be called faster or slower by chance; "
            f"{len(names)} hold as changed at a false discovery rate of "
            f"{100 * alpha:g} % (Benjamini-Hochberg: fdr in the JSON)")
    return note, fdr


def suite_row(pairs: list[Pair], suite: SuiteInterval, *, threshold: float, seed: int | None,
              invert: list[bool], mixed: bool, assume_no_fork_variance: bool = False
              ) -> SuiteRow:
    """The suite's verdict; rates mixed with times enter as old/new.

    The verdict rests on :attr:`esize.SuiteInterval.verdict_interval`, the smallest
    interval holding both the bootstrap and the parametric interval of the geometric
    mean: it is the verdict both intervals support, ``inconclusive`` when they do
    not agree, and the percentile bootstrap's narrowness with few top-level units
    cannot make it confident on its own; without a bootstrap
    (:meth:`esize.SuiteInterval.parametric_only`) it is the parametric interval. It
    is ``inconclusive`` too when a benchmark's system held a single fork or process,
    unless ``assume_no_fork_variance``.

    Examples
    --------
    The geometric mean, new 5 % to 16 % faster, at two thresholds:

    >>> import esize as ez
    >>> from esize.compare import compare_pairs, make_pair, suite_row
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> newer = ez.Design([[10, 12], [11, 11], [11, 12]], ("fork", "iteration"))
    >>> pairs = [make_pair("sort", old, new), make_pair("hash", old, newer)]
    >>> interval = compare_pairs(pairs).suite.interval
    >>> for t in (0.02, 0.3):
    ...     row = suite_row(pairs, interval, threshold=t, seed=None, invert=[False, False],
    ...                     mixed=False)
    ...     print(t, row.verdict, row.verdict_method, round(row.interval.geometric_mean, 4))
    0.02 faster parametric 0.8904
    0.3 same parametric 0.8904
    """
    lib = mixed or pairs[0].unit.lower_is_better
    schemes = [p.scheme for p in pairs]
    v = suite.verdict_interval
    single = next((p.single_level for p in pairs if p.single_level is not None), None)
    support: dict[str, Any] = {"method": v.method, "unobserved_top": single,
                               "assume_no_fork_variance": assume_no_fork_variance}
    reason = verdict_obstacle(**support) if v.bounded else None
    caveats = suite_caveats(pairs, suite)
    if reason is not None:
        caveats += (f"no verdict: {reason} ({assume_flag(single or 'fork')} draws one)",)
    return SuiteRow(
        interval=suite,
        scheme=schemes[0] if len(set(schemes)) == 1 else schemes,
        seed=seed,
        lower_is_better=lib,
        inverted=[p.name for p, inv in zip(pairs, invert) if inv],
        verdict=verdict(v.lower, v.upper, threshold, bounded=v.bounded, lower_is_better=lib,
                        **support),
        description=describe(suite.geometric_mean, v.lower, v.upper, suite.alpha,
                             bounded=v.bounded, lower_is_better=lib),
        caveats=caveats,
        reason=reason,
    )


def schemes_for(scheme: str | None, old: Design, new: Design, *, bootstrap: bool = True,
                option: str | None = None) -> tuple[str, str]:
    """The bootstrap schemes of both systems from one ``scheme`` (``"RRN"``,
    ``"FLAT"``, ``"RRN/RR"`` for different designs, None: every level ``R``), as
    :func:`esize._bootstrap.pair_schemes` fits it to each design; with ``bootstrap``
    a scheme that resamples no level of a system is refused. ``option`` (``"--scheme"``)
    starts the message of a scheme that does not fit the designs.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import schemes_for
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> flat = ez.Design([8, 9, 8, 8], ("run",))
    >>> schemes_for(None, old, flat), schemes_for("RN/R", old, flat)
    (('RR', 'R'), ('RN', 'R'))
    >>> try:
    ...     schemes_for("NN/R", old, flat)
    ... except ez.EsizeError as exc:
    ...     print(exc)
    scheme 'NN/R' resamples no level of a system; use at least one R, or FLAT
    """
    try:
        schemes = pair_schemes(scheme, old.n_levels, new.n_levels)
    except EsizeError as exc:
        if option is None:
            raise
        raise EsizeError(f"{option}: {exc}") from None
    if bootstrap and any("R" not in sch and sch != "FLAT" for sch in schemes):
        raise EsizeError(
            f"scheme {scheme_label(schemes)!r} resamples no level of a system; use at least "
            "one R, or FLAT"
        )
    return schemes


#: What ``estimator`` may be: the plain mean, or a robust summary of every lowest-level
#: group (the values of one process, fork or execution) before the comparison.
ESTIMATORS = ("mean", "median", "trimmed")

#: The share cut from each end of a group by the ``"trimmed"`` estimator.
TRIM = 0.2


def robust_design(design: Design, estimator: str = "mean") -> Design:
    """The design with every lowest-level group replaced by its median or trimmed mean.

    A value ten times the others inflates the mean of its process and, through it, the
    spread between processes: the interval stays valid but wide. Summarising each
    process (fork, execution) by its median, or by its mean with :data:`TRIM` of its
    values cut from each end, before the comparison leaves such values out of the
    ratio, which then compares those summaries: the change of a typical run, not of
    the mean run time. The design loses its lowest level; the levels above keep their
    variance, and Fieller's interval treats the summaries as the units' values.

    Parameters
    ----------
    design : Design
        Two or more levels (a design of one level has no group to summarise).
    estimator : {"mean", "median", "trimmed"}
        ``"mean"`` returns ``design`` unchanged.

    Raises
    ------
    EsizeError
        An unknown estimator, or a design of one level.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import robust_design
    >>> d = ez.Design([[1.0, 1.1, 9.0], [1.2, 1.0, 1.1]], ("process", "iteration"))
    >>> robust_design(d, "median").data.tolist(), robust_design(d, "median").levels
    ([1.1, 1.1], ('process',))
    """
    if estimator not in ESTIMATORS:
        raise EsizeError(f"estimator: {estimator!r} is not one of {', '.join(ESTIMATORS)}")
    if estimator == "mean" or is_single(design):
        return design
    if design.n_levels < 2:
        raise EsizeError(
            f"--estimator {estimator} summarises the values of each group of the lowest "
            f"level, but the data have one level ({design.levels[0]}): there is nothing to "
            "summarise; use the mean")
    x = design.data
    if estimator == "median":
        y = np.median(x, axis=-1)
    else:
        from scipy.stats import trim_mean  # here, so that `import esize` stays light

        y = trim_mean(x, TRIM, axis=-1)
    return Design(y, design.levels[:-1])


def make_pair(name: str | None, old: Design, new: Design, *, unit: UnitInfo | None = None,
              scheme: str | None = None, new_name: str | None = None,
              caveats: Sequence[str] = (), warmup: dict | None = None,
              unobserved_top: Sequence[str] = (), estimator: str = "mean") -> Pair:
    """A :class:`Pair` of two designs already in one unit (``unit``: lower is better,
    no unit, by default), with the bootstrap schemes of ``scheme``
    (:func:`schemes_for`), each design first summarised by ``estimator``
    (:func:`robust_design`).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import make_pair
    >>> from esize.readers import unit_info
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> pair = make_pair("sort", old, new, unit=unit_info("ms"), scheme="RN", new_name="sort2")
    >>> pair.name, pair.new_name, pair.unit.unit, pair.schemes, round(pair.new_mean, 4)
    ('sort', 'sort2', 'ms', ('RN', 'RN'), 8.3333)
    """
    old, new = robust_design(old, estimator), robust_design(new, estimator)
    return Pair(name, name if new_name is None else new_name,
                UnitInfo() if unit is None else unit, old, new,
                schemes_for(scheme, old, new), tuple(caveats), warmup, tuple(unobserved_top),
                estimator)


def estimator_note(pairs: Sequence[Pair]) -> str | None:
    """The note of a comparison of robust summaries (:func:`robust_design`).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import estimator_note, make_pair
    >>> d = ez.Design([[1.0, 1.1, 9.0], [1.2, 1.0, 1.1]], ("process", "iteration"))
    >>> print(estimator_note([make_pair("a", d, d, estimator="median")]))
    estimator: every process is summarised by the median of its values, and the ratio is that of the means of those medians, not of the plain means
    """
    used = {p.estimator for p in pairs} - {"mean"}
    if not used:
        return None
    est = used.pop()
    what = "median" if est == "median" else f"mean of the middle {100 - 200 * TRIM:g} %"
    groups = next(p.old.levels[-1] for p in pairs if p.estimator == est)
    return (f"estimator: every {groups} is summarised by the {what} of its values, and the "
            f"ratio is that of the means of those {'medians' if est == 'median' else 'summaries'}"
            ", not of the plain means")


def _check_paired(pairs: Sequence[Pair]) -> None:
    """Refuse to pair systems that were not measured in the same labelled rounds."""
    for p in pairs:
        tops = (p.old.levels[0], p.new.levels[0])
        if any(t not in SESSION_LEVELS for t in tops) or p.old.shape[0] != p.new.shape[0]:
            raise EsizeError(
                "a paired comparison needs both systems measured in the same rounds: a top "
                f"level named {' or '.join(SESSION_LEVELS)} with as many units in each "
                f"(old: {p.old.shape[0]} {tops[0]}, new: {p.new.shape[0]} {tops[1]})")


def compare_pairs(pairs: Sequence[Pair], *, method: str = "auto", alpha: float = 0.05,
                  threshold: float = 0.02, normal: bool = False, resamples: int = 10_000,
                  seed: int | None = None, assume_no_fork_variance: bool = False,
                  assume_bootstrap_covers: bool = False, files: tuple[str, str] = ("old", "new"),
                  formats: tuple[str, str] = ("", ""), only_in_old: Sequence = (),
                  only_in_new: Sequence = (), baseline: str | None = None,
                  progress: Callable | None = None, paired: bool | str = False
                  ) -> CompareResult:
    """Compare every pair, and the suite's geometric mean when there are two or more.

    Parameters
    ----------
    pairs : sequence of Pair
        The benchmarks, in the order their rows are wanted.
    method : {"auto", "fieller", "bootstrap", "both", "mixed"}
        Which intervals are computed (the module's text): ``"auto"`` bootstraps a
        single benchmark only; ``"mixed"`` computes the REML mixed model's interval of
        the ratio of geometric means alone (:func:`esize.mixed_ratio_ci`), and the
        verdicts come from it.
    alpha, threshold : float
        One minus the confidence level; the smallest relative change that matters.
    normal : bool
        The normal quantile instead of Student's t.
    resamples : int
        Bootstrap replicates per benchmark.
    seed : int or None
        The bootstrap's seed; None draws a fresh one (:func:`fresh_seed`, reported in
        the result) when a bootstrap runs.
    assume_no_fork_variance, assume_bootstrap_covers : bool
        Draw a verdict anyway under the assumption named (:func:`esize.verdict`).
    files, formats : (str, str)
        What to call the old and the new system, and their formats, in the output.
    only_in_old, only_in_new : sequence
        Names found in one system only (reported).
    baseline : str or None
        The command every pair is compared with, when one hyperfine file is compared
        within itself (no suite is formed then).
    progress : callable or None
        ``progress(total)`` returning a context manager that yields an ``update(n)``
        function, for a progress bar over the bootstrap's replicates.
    paired : bool or {"t", "signed-rank"}
        The systems were measured in shared rounds (their top level, named in
        :data:`SESSION_LEVELS`, the same rounds in the same order, as ``esize run``
        measures them): every verdict comes from the paired interval of this kind
        (:func:`esize.paired_ratio_ci`; True is ``"t"``), in which the rounds' drift
        cancels; the other intervals are still shown.

    Returns
    -------
    CompareResult

    Raises
    ------
    EsizeError
        ``method`` unknown, ``alpha`` outside (0, 1), ``threshold`` outside [0, 1),
        or ``resamples`` too few for ``alpha`` or too many for the memory.

    Examples
    --------
    One benchmark with both intervals (a seeded bootstrap); the verdict is Fieller's:

    >>> import esize as ez
    >>> from esize.compare import compare_pairs, make_pair
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> result = compare_pairs([make_pair("sort", old, new)], method="both", resamples=2000,
    ...                        seed=1)
    >>> row, boot = result.rows[0], result.rows[0].bootstrap
    >>> print(row.verdict, row.verdict_method, round(boot.lower, 3), round(boot.upper, 3))
    faster fieller 0.686 0.885
    >>> row.caveats  # the bootstrap's few units matter only where it decides
    ()
    >>> for note in result.notes:
    ...     print(note[:60])
    drift: neither system's data label a session or round, so wh
    builds: neither system's data label builds (binaries), so th
    """
    # the boundary: both checked here, by the rules every interval function applies
    alpha = _check_alpha(alpha)
    threshold = check_threshold(threshold)
    if method not in METHODS:
        raise EsizeError(f"method: {method!r} is not one of {', '.join(METHODS)}")
    every = list(pairs)
    if paired:
        _check_paired(every)
    want_fieller = method in ("auto", "fieller", "both")
    # auto: the bootstrap for one benchmark only (a suite's verdicts need none of it)
    want_boot = method in ("bootstrap", "both") or (method == "auto" and len(every) == 1)
    # a benchmark of a single measurement (in either system) gets its point ratio only;
    # a file holds either only such benchmarks or none (the readers leave them out of
    # a file with others), so that they never meet a geometric mean
    singles = [p for p in every if is_single(p.old) or is_single(p.new)]
    several = [p for p in every if not (is_single(p.old) or is_single(p.new))]
    want_suite = baseline is None and len(several) >= 2
    invert, mixed = directions(several) if several else ([], False)
    assume = {"assume_no_fork_variance": assume_no_fork_variance,
              "assume_bootstrap_covers": assume_bootstrap_covers}
    # every system's mean and variance once, for Fieller and the suite alike
    with shared_statistics():
        suite: SuiteInterval | None = None
        if several and want_boot:
            check_resamples_option(resamples, alpha, len(several))
            seed = seed if seed is not None else fresh_seed()
            bar = progress(2 * len(several) * resamples) if progress is not None \
                else contextlib.nullcontext(None)
            with bar as update:
                suite = suite_bootstrap(several, resamples=resamples, alpha=alpha, seed=seed,
                                        invert=invert, progress=update, normal=normal,
                                        parametric=want_suite)
        elif want_suite:  # Fieller per benchmark, the t interval for the suite: nothing random
            seed = None
            suite = SuiteInterval.parametric_only([(p.old, p.new) for p in several],
                                                  alpha=alpha, normal=normal, invert=invert,
                                                  names=cast(list[str], [p.name for p in several]))
        else:
            seed = None
        rows = {
            id(p): benchmark_row(
                p,
                fieller_interval(p, alpha=alpha, normal=normal) if want_fieller else None,
                suite.intervals[j] if want_boot and suite is not None else None,
                alpha=alpha, threshold=threshold, normal=normal, resamples=resamples,
                seed=seed, **assume,
                paired=paired_ratio_ci(p.old, p.new, alpha=alpha, normal=normal,
                                       kind="t" if paired is True else str(paired))
                if paired else None,
                mixed=mixed_ratio_ci(p.old, p.new, alpha=alpha, normal=normal)
                if method == "mixed" else None,
            )
            for j, p in enumerate(several)
        }
    for p in singles:
        rows[id(p)] = single_row(p, alpha=alpha, threshold=threshold, normal=normal,
                                 resamples=resamples)
    srow = None
    if want_suite and suite is not None:  # a suite is formed whenever want_suite
        srow = suite_row(several, suite, threshold=threshold, seed=seed, invert=invert,
                         mixed=mixed, assume_no_fork_variance=assume_no_fork_variance)
    ordered = [rows[id(p)] for p in every]  # in the pairs' order
    many, fdr = multiplicity(ordered, alpha=alpha, threshold=threshold)
    notes = tuple(n for n in (drift_note(every) if every else None,
                              build_note(every) if every else None,
                              estimator_note(every), many) if n is not None)
    return CompareResult(files[0], files[1], formats[0], formats[1], alpha, threshold,
                         ordered, list(only_in_old), list(only_in_new), srow, baseline,
                         notes, fdr)
