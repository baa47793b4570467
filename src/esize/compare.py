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
``"fieller"`` never does, ``"bootstrap"`` computes no Fieller interval.

Where the data cannot support a verdict the answer is ``inconclusive``, with a caveat
saying why, rather than a narrow interval:

* a benchmark's verdict comes from Fieller's interval whenever it is computed; when
  that interval is unbounded (the old mean is not distinguishable from zero) the
  verdict is ``inconclusive`` -- the bootstrap interval is still shown, but in
  exactly those cases it covers the ratio far less often than it claims;
* the bootstrap decides only when Fieller is not run (``method="bootstrap"``), and
  then only with :data:`MIN_BOOTSTRAP_UNITS` or more top-level units in each
  system: below, the percentile bootstrap is too narrow, the interval is shown with
  a caveat and the verdict is ``inconclusive`` (``assume_bootstrap_covers`` decides
  anyway);
* a system holding a single fork or process (its highest level, dropped by the
  reader) gives an interval that leaves out the variation between forks: the
  verdict is ``inconclusive`` (``assume_no_fork_variance`` decides anyway);
* a system with few top-level units that may carry most of the ratio's variance
  makes Fieller's interval use its ``n - 1`` degrees of freedom rather than
  Welch's, with a caveat (:func:`esize.ratio_df_rule`);
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
(0.7302, 'faster')
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ._bootstrap import (
    SuiteInterval,
    check_resamples,
    geometric_mean_ratio_ci,
    pair_schemes,
    scheme_label,
)
from ._compare_text import benchmark_caveats, design_text, suite_caveats
from ._decision import MIN_BOOTSTRAP_UNITS, describe, verdict, verdict_obstacle
from ._design import Design
from ._errors import EsizeError
from ._estimators import shared_statistics
from ._intervals import Interval, fieller_ci
from .readers import align_pair
from .readers.single import is_single
from .readers.units import UnitInfo
from .text import num

__all__ = [
    "Pair",
    "CompareRow",
    "SuiteRow",
    "CompareResult",
    "METHODS",
    "MIN_BOOTSTRAP_UNITS",
    "compare_pairs",
    "make_pair",
    "schemes_for",
    "align_designs",
    "reading_caveats",
    "unobserved_top",
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
METHODS = ("auto", "fieller", "bootstrap", "both")


@dataclass(frozen=True)
class Pair:
    """One benchmark of both files, ready to compare.

    Attributes
    ----------
    name, new_name : str or None
        Its name in the old file and in the new one (they differ only when two
        single-benchmark files are paired).
    unit : UnitInfo
        The old file's unit; the new design has been converted into it.
    old, new : Design
        The two designs; they may differ in counts and even in levels (each system's
        variance comes from its own top-level units).
    schemes : (str, str)
        Bootstrap resampling scheme of each system (``"RRR"``, ``"RNR"``,
        ``"FLAT"``, ...).
    caveats : tuple of str
        What reading the files found worth saying (a single fork, say), each
        starting with ``old:`` or ``new:``.
    warmup : dict or None
        The warm-up dropped from both systems (:func:`esize.text.merge_warmup`).
    unobserved_top : tuple of str
        The highest levels of which a system held a single unit (so that the reader
        dropped them), as ``"old: fork"``; empty when every level was observed.
    """

    name: str | None
    new_name: str | None
    unit: UnitInfo
    old: Design
    new: Design
    schemes: tuple
    caveats: tuple = ()
    warmup: dict | None = None
    unobserved_top: tuple = ()
    old_mean: float = field(init=False)
    new_mean: float = field(init=False)

    def __post_init__(self) -> None:  # the means are used several times: compute once
        object.__setattr__(self, "old_mean", self.old.mean)
        object.__setattr__(self, "new_mean", self.new.mean)

    @property
    def ratio(self) -> float:
        return self.new_mean / self.old_mean

    @property
    def scheme(self) -> str:
        """The scheme, or ``OLD/NEW`` when the systems are resampled differently."""
        return scheme_label(self.schemes)

    @property
    def same_design(self) -> bool:
        return self.old.counts == self.new.counts

    @property
    def single_level(self) -> str | None:
        """The level of which a system held a single unit (``"fork"``), or None."""
        return self.unobserved_top[0].split(": ", 1)[1] if self.unobserved_top else None

    @property
    def top_units(self) -> int:
        """Top-level units of the system with fewer."""
        return min(self.old.shape[0], self.new.shape[0])


@dataclass(frozen=True)
class CompareRow:
    """The comparison of one benchmark.

    Attributes
    ----------
    pair : Pair
        What was compared.
    alpha, threshold : float
        One minus the confidence level; the smallest relative change that matters.
    fieller : Interval or None
        Fieller's interval (None unless asked for); ``normal`` says its quantile.
    bootstrap : Interval or None
        The bootstrap interval (None unless asked for), from ``resamples``
        replicates drawn with ``seed``.
    verdict : str
        ``"faster"``, ``"slower"``, ``"same"`` or ``"inconclusive"``.
    verdict_method : str or None
        ``"fieller"`` or ``"bootstrap"``: the interval the verdict comes from
        (Fieller's whenever it was computed, bounded or not), None when there is
        none.
    description : str
        The verdict in words.
    caveats : tuple of str
        What the reader should know before trusting the result (empty when nothing
        needs saying).
    reason : str or None
        Why the interval draws no verdict although it is bounded
        (:func:`esize._decision.verdict_obstacle`), None when nothing stands in the way.
    """

    pair: Pair
    alpha: float
    threshold: float
    fieller: Interval | None
    normal: bool
    bootstrap: Interval | None
    resamples: int
    seed: int | None
    verdict: str
    verdict_method: str | None
    description: str
    caveats: tuple = ()
    reason: str | None = None

    @property
    def chosen(self) -> Interval | None:
        """The interval the verdict comes from."""
        return {"fieller": self.fieller, "bootstrap": self.bootstrap}.get(self.verdict_method)

    def to_json(self) -> dict:
        """JSON-ready dictionary; infinite limits become null."""
        p = self.pair
        out: dict = {"name": p.name}
        if p.new_name != p.name:
            out["new_name"] = p.new_name
        out.update(p.unit.as_dict())
        out.update(
            {
                "ratio": p.ratio,
                "old": {"mean": p.old_mean},
                "new": {"mean": p.new_mean},
                "alpha": self.alpha,
                "threshold": self.threshold,
            }
        )
        if self.fieller is not None:
            f = self.fieller
            out["fieller"] = {
                "lower": num(f.lower),
                "upper": num(f.upper),
                "bounded": f.bounded,
                "quantile": "normal" if self.normal else "t",
            }
        if self.bootstrap is not None:
            b = self.bootstrap
            out["bootstrap"] = {
                "lower": num(b.lower),
                "upper": num(b.upper),
                "scheme": p.scheme,
                "resamples": self.resamples,
                "seed": self.seed,
            }
        out["verdict"] = self.verdict
        out["verdict_method"] = self.verdict_method
        if self.reason is not None:
            out["verdict_reason"] = self.reason
        out["description"] = self.description
        out["caveats"] = list(self.caveats)
        out["design"] = {"old": p.old.counts, "new": p.new.counts}
        if not p.same_design:
            out["design_old"] = p.old.counts
            out["design_new"] = p.new.counts
        if p.warmup is not None:
            out["warmup"] = p.warmup
        return out

    def render_lines(self) -> list[str]:
        """The benchmark's block of the text output (a single comparison)."""
        from ._compare_text import row_lines

        return row_lines(self)

    def plot_row(self) -> dict:
        """What :func:`esize.plots.compare_figure` draws of this benchmark."""
        p, iv = self.pair, self.chosen
        return {
            "name": "data" if p.name is None else p.name,
            "ratio": p.ratio,
            "lower": num(iv.lower) if iv is not None else None,
            "upper": num(iv.upper) if iv is not None else None,
            "unit": p.unit.unit,
            "lower_is_better": p.unit.lower_is_better,
        }


@dataclass(frozen=True)
class SuiteRow:
    """The geometric mean of a suite's ratios, with its intervals and verdict.

    Attributes
    ----------
    interval : SuiteInterval
        The library's result (geometric mean, bootstrap limits, replicates, the
        parametric interval and the interval the verdict rests on).
    scheme : str or list of str
        The benchmarks' scheme, or one per benchmark when they differ.
    seed : int or None
        The suite's seed (None when no bootstrap was run).
    lower_is_better : bool
        Direction of the geometric mean (times unless every benchmark is a rate).
    inverted : list
        Benchmarks (rates among times) whose ratio entered as old/new.
    verdict, description : str
        The verdict against the threshold, and in words, from
        ``interval.verdict_interval``: the smallest interval holding both the
        bootstrap and the parametric interval.
    caveats : tuple of str
        What to know about the geometric mean's intervals (few top-level units).
    reason : str or None
        Why no verdict is drawn although the interval is bounded, or None.
    """

    interval: SuiteInterval
    scheme: str | list
    seed: int | None
    lower_is_better: bool
    inverted: list
    verdict: str
    description: str
    caveats: tuple = ()
    reason: str | None = None

    @property
    def verdict_method(self) -> str:
        """``"bootstrap"``, ``"parametric"`` or ``"bootstrap+parametric"``: which
        interval(s) the verdict interval is (see :attr:`SuiteInterval.verdict_interval`;
        always ``"parametric"`` when no bootstrap was run)."""
        return self.interval.verdict_interval.method

    def to_json(self) -> dict:
        """JSON-ready dictionary (without the replicates).

        ``lower`` and ``upper`` are the interval the verdict rests on
        (``interval.verdict_interval``, the smallest holding both the bootstrap and
        the parametric interval; ``verdict_method`` says which it is); the
        bootstrap's own percentile limits are under ``bootstrap``, the t (or
        normal) interval under ``parametric``. Until issue 26 ``lower`` and
        ``upper`` were the bootstrap's, which under-cover with few forks.

        Without a bootstrap (the default for a suite, and ``--method fieller``)
        ``bootstrap`` is null, ``scheme``, ``seed`` and ``resamples`` are left out,
        and ``verdict_method`` is ``"parametric"``."""
        v = self.interval.verdict_interval
        si = self.interval
        out = si.as_dict()
        out["lower"], out["upper"] = num(v.lower), num(v.upper)
        boot = {"bootstrap": {"lower": num(si.lower), "upper": num(si.upper)}
                if si.has_bootstrap else None}
        # the bootstrap's limits right after the verdict interval's
        out = {**{k: out[k] for k in ("geometric_mean", "lower", "upper")}, **boot,
               **{k: val for k, val in out.items() if k not in ("geometric_mean", "lower",
                                                                "upper")}}
        if si.has_bootstrap:  # without it nothing was resampled nor drawn
            out.update({"scheme": self.scheme, "seed": self.seed})
        out.update(
            {
                "lower_is_better": self.lower_is_better,
                "inverted": list(self.inverted),
                "verdict": self.verdict,
                "verdict_method": v.method,
            }
        )
        if self.reason is not None:
            out["verdict_reason"] = self.reason
        out["description"] = self.description
        out["caveats"] = list(self.caveats)
        return out


@dataclass(frozen=True)
class CompareResult:
    """``esize compare`` of two files.

    Attributes
    ----------
    old, new : str
        The files as given on the command line.
    old_format, new_format : str
        Their formats.
    alpha, threshold : float
        One minus the confidence level; the smallest relative change that matters.
    rows : list of CompareRow
        One per benchmark compared.
    only_in_old, only_in_new : list
        Names found in one file only.
    suite : SuiteRow or None
        The geometric mean, for two or more benchmarks of two files.
    baseline : str or None
        The command every other one is compared with, when one hyperfine file is
        compared within itself (``new`` is then None).
    """

    old: str
    new: str
    old_format: str
    new_format: str
    alpha: float
    threshold: float
    rows: list
    only_in_old: list = field(default_factory=list)
    only_in_new: list = field(default_factory=list)
    suite: SuiteRow | None = None
    baseline: str | None = None

    _SINGLE = ("ratio", "old", "new", "alpha", "threshold", "fieller", "bootstrap",
               "verdict", "verdict_method", "verdict_reason", "description", "caveats",
               "design_old",
               "design_new", "warmup")

    def to_json(self) -> dict:
        """JSON-ready dictionary; a single benchmark's fields are repeated at the top."""
        benchmarks = [r.to_json() for r in self.rows]
        out: dict = {"files": {"old": self.old, "new": self.new}}
        if self.baseline is not None:
            out["baseline"] = self.baseline
        if len(benchmarks) == 1:
            one = benchmarks[0]
            out.update({k: one[k] for k in self._SINGLE if k in one})
        else:
            out.update({"alpha": self.alpha, "threshold": self.threshold})
        out["benchmarks"] = benchmarks
        out["only_in_old"] = list(self.only_in_old)
        out["only_in_new"] = list(self.only_in_new)
        if self.suite is not None:
            out["suite"] = self.suite.to_json()
        return out

    def render_text(self) -> str:
        """The text printed without ``--json``: one block, or a table for a suite."""
        from ._compare_text import result_text

        return result_text(self)

    def plot(self, path: str) -> None:
        """Draw the ratios (and the geometric mean) into ``path``."""
        from .plots import compare_figure, nameless_label, save_plot

        suite = None if self.suite is None else self.suite.to_json()
        # a benchmark the files do not name is called after them (new / old), not "data"
        label = nameless_label(self.new, self.old)
        rows = [{**r.plot_row(), "name": label} if r.pair.name is None else r.plot_row()
                for r in self.rows]
        fig = compare_figure(rows, threshold=self.threshold, alpha=self.alpha, suite=suite)
        save_plot(path, fig)


def align_designs(bo, bn, **kw) -> tuple[Design, Design]:
    """:func:`~esize.readers.align_pair`, also when a system holds a single measurement
    (:mod:`esize.readers.single`): its value enters twice, which keeps its mean, for
    the same checks and unit conversion, and comes out as one value again."""
    if not (is_single(bo.design) or is_single(bn.design)):
        return align_pair(bo, bn, **kw)
    twice = [replace(b, design=Design(np.repeat(b.design.data.ravel(), 2), b.design.levels))
             if is_single(b.design) else b for b in (bo, bn)]
    aligned = align_pair(*twice, **kw)
    return tuple(Design(d.data[:1], d.levels) if is_single(b.design) else d
                 for d, b in zip(aligned, (bo, bn)))


def single_row(pair: Pair, *, alpha: float, threshold: float, normal: bool,
               resamples: int) -> CompareRow:
    """The comparison of a benchmark of which a system holds a single measurement: the
    point ratio, ``inconclusive``, and why (no interval can be computed)."""
    sides = [side for side, d in (("old", pair.old), ("new", pair.new)) if is_single(d)]
    who = " and ".join(sides)
    reason = (f"{who} {'holds' if len(sides) == 1 else 'hold'} a single measurement, so no "
              "interval can be computed; the ratio is a point estimate")
    amount = describe(pair.ratio, pair.ratio, pair.ratio, alpha,
                      lower_is_better=pair.unit.lower_is_better).split(" (", 1)[0]
    return CompareRow(pair, alpha, threshold, None, normal, None, resamples, None,
                      "inconclusive", None, f"{amount} (a single measurement: no interval)",
                      (*pair.caveats, f"no verdict: {reason}"), reason)


def reading_caveats(bo, bn) -> tuple[str, ...]:
    return tuple(f"old: {c}" for c in bo.caveats) + tuple(f"new: {c}" for c in bn.caveats)


def unobserved_top(bo, bn) -> tuple[str, ...]:
    """``("old: fork", ...)``: the highest levels the readers dropped for holding a
    single unit (:func:`esize.readers._common.drop_single_top`)."""
    return tuple(f"{side}: {level}" for side, b in (("old", bo), ("new", bn))
                 for level, parent in getattr(b, "unobserved", ()) if parent is None)


def directions(pairs: list[Pair]) -> tuple[list[bool], bool]:
    """Which benchmarks enter the geometric mean inverted, and whether the suite mixes
    rates with times (then the rates are inverted, so that every ratio is a time's)."""
    lib = [p.unit.lower_is_better for p in pairs]
    mixed = len(set(lib)) > 1
    return [mixed and not d for d in lib], mixed


def fresh_seed() -> int:
    """A random 32-bit seed (reported, so that the run can be repeated)."""
    return int.from_bytes(os.urandom(4), "big")


def suite_bootstrap(pairs: list[Pair], *, resamples: int, alpha: float, seed: int,
                    invert: list[bool], progress=None, normal: bool = False,
                    parametric: bool | None = None) -> SuiteInterval:
    """Bootstrap every pair (each with its own stream) and the geometric mean.

    A single unnamed pair draws from ``seed`` itself, so its interval equals
    :func:`esize.bootstrap_ratio_ci` with that seed; named pairs draw from streams
    derived from their names. Two or more pairs also get the parametric interval of
    the geometric mean (t, or normal with ``normal``) unless ``parametric`` is False.
    """
    unnamed = len(pairs) == 1 and pairs[0].name is None
    return geometric_mean_ratio_ci(
        [(p.old, p.new) for p in pairs],
        scheme=[p.scheme for p in pairs],
        n_resamples=resamples,
        alpha=alpha,
        rng=seed,
        names=None if unnamed else [p.name for p in pairs],
        invert=invert,
        progress=progress,
        normal=normal,
        parametric=len(pairs) >= 2 if parametric is None else parametric,
    )


def check_resamples_option(resamples: int, alpha: float, n_pairs: int) -> None:
    """Refuse ``--resamples`` too few for a percentile interval at ``alpha``, or too
    many for the memory (the suite holds ``4 K + 2`` replicate arrays for ``K``
    benchmarks); see :func:`esize._bootstrap.check_resamples`."""
    check_resamples(resamples, alpha, arrays=4 * n_pairs + 2, name="--resamples")


def fieller_interval(pair: Pair, *, alpha: float, normal: bool) -> Interval:
    """Fieller's interval for the ratio of the pair's means."""
    return fieller_ci(pair.old, pair.new, alpha=alpha, normal=normal)


def _assumed(assume: dict) -> tuple:
    return tuple(k for k, key in (("fork", "assume_no_fork_variance"),
                                  ("bootstrap", "assume_bootstrap_covers")) if assume.get(key))


def benchmark_row(pair: Pair, fieller: Interval | None, boot: Interval | None, *, alpha: float,
                  threshold: float, normal: bool, resamples: int, seed: int | None,
                  assume_no_fork_variance: bool = False,
                  assume_bootstrap_covers: bool = False) -> CompareRow:
    """The verdict of one benchmark: from Fieller's interval whenever it was computed
    (``inconclusive`` when it is unbounded), from the bootstrap's only when Fieller
    was not run; ``inconclusive`` too, with the reason, when a system held a single
    fork or process, or when the bootstrap decides on fewer than
    :data:`MIN_BOOTSTRAP_UNITS` top-level units (:func:`esize._decision.verdict_obstacle`),
    unless the matching ``assume_*`` flag forces a verdict."""
    method, chosen = None, None
    if fieller is not None:
        method, chosen = "fieller", fieller
    elif boot is not None:
        method, chosen = "bootstrap", boot
    lib = pair.unit.lower_is_better
    assume = {"assume_no_fork_variance": assume_no_fork_variance,
              "assume_bootstrap_covers": assume_bootstrap_covers}
    reason = None
    if chosen is None:
        word, text = "inconclusive", "no interval"
    else:
        support = {"method": method, "top_units": pair.top_units,
                   "unobserved_top": pair.single_level, **assume}
        word = verdict(chosen.lower, chosen.upper, threshold, bounded=chosen.bounded,
                       lower_is_better=lib, **support)
        text = describe(pair.ratio, chosen.lower, chosen.upper, alpha,
                        bounded=chosen.bounded, lower_is_better=lib)
        if chosen.bounded:
            reason = verdict_obstacle(**support)
    return CompareRow(pair, alpha, threshold, fieller, normal, boot, resamples, seed,
                      word, method, text,
                      benchmark_caveats(pair, fieller, boot, alpha=alpha, reason=reason,
                                        assumed=_assumed(assume)),
                      reason)


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
    """
    lib = mixed or pairs[0].unit.lower_is_better
    schemes = [p.scheme for p in pairs]
    v = suite.verdict_interval
    single = next((p.single_level for p in pairs if p.single_level is not None), None)
    support = {"method": v.method, "unobserved_top": single,
               "assume_no_fork_variance": assume_no_fork_variance}
    reason = verdict_obstacle(**support) if v.bounded else None
    caveats = suite_caveats(pairs, suite)
    if reason is not None:
        caveats += (f"no verdict: {reason} (--assume-no-fork-variance draws one)",)
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
    starts the message of a scheme that does not fit the designs."""
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


def make_pair(name: str | None, old: Design, new: Design, *, unit: UnitInfo | None = None,
              scheme: str | None = None, new_name: str | None = None,
              caveats: Sequence[str] = (), warmup: dict | None = None,
              unobserved_top: Sequence[str] = ()) -> Pair:
    """A :class:`Pair` of two designs already in one unit (``unit``: lower is better,
    no unit, by default), with the bootstrap schemes of ``scheme``
    (:func:`schemes_for`)."""
    return Pair(name, name if new_name is None else new_name,
                UnitInfo() if unit is None else unit, old, new,
                schemes_for(scheme, old, new), tuple(caveats), warmup, tuple(unobserved_top))


def compare_pairs(pairs: Sequence[Pair], *, method: str = "auto", alpha: float = 0.05,
                  threshold: float = 0.02, normal: bool = False, resamples: int = 10_000,
                  seed: int | None = None, assume_no_fork_variance: bool = False,
                  assume_bootstrap_covers: bool = False, files: tuple[str, str] = ("old", "new"),
                  formats: tuple[str, str] = ("", ""), only_in_old: Sequence = (),
                  only_in_new: Sequence = (), baseline: str | None = None,
                  progress: Callable | None = None) -> CompareResult:
    """Compare every pair, and the suite's geometric mean when there are two or more.

    Parameters
    ----------
    pairs : sequence of Pair
        The benchmarks, in the order their rows are wanted.
    method : {"auto", "fieller", "bootstrap", "both"}
        Which intervals are computed (the module's text): ``"auto"`` bootstraps a
        single benchmark only.
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

    Returns
    -------
    CompareResult

    Raises
    ------
    EsizeError
        ``method`` unknown, or ``resamples`` too few for ``alpha`` or too many for
        the memory.
    """
    if method not in METHODS:
        raise EsizeError(f"method: {method!r} is not one of {', '.join(METHODS)}")
    every = list(pairs)
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
        suite = None
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
                                                  names=[p.name for p in several])
        else:
            seed = None
        rows = {
            id(p): benchmark_row(
                p,
                fieller_interval(p, alpha=alpha, normal=normal) if want_fieller else None,
                suite.intervals[j] if want_boot else None,
                alpha=alpha, threshold=threshold, normal=normal, resamples=resamples,
                seed=seed, **assume,
            )
            for j, p in enumerate(several)
        }
    for p in singles:
        rows[id(p)] = single_row(p, alpha=alpha, threshold=threshold, normal=normal,
                                 resamples=resamples)
    srow = None
    if want_suite:
        srow = suite_row(several, suite, threshold=threshold, seed=seed, invert=invert,
                         mixed=mixed, assume_no_fork_variance=assume_no_fork_variance)
    return CompareResult(files[0], files[1], formats[0], formats[1], alpha, threshold,
                         [rows[id(p)] for p in every],  # in the pairs' order
                         list(only_in_old), list(only_in_new), srow, baseline)
