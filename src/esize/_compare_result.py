"""The results of a comparison: a pair of systems (:class:`Pair`), a benchmark's row
(:class:`CompareRow`), the suite's (:class:`SuiteRow`) and the whole
(:class:`CompareResult`), with their JSON and the text :mod:`esize.compare` prints.

Apart from :mod:`esize.compare`, which exports them and builds them, so that each
module holds one thing: the data here, the computation there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ._bootstrap import SuiteInterval, scheme_label
from ._decision import Verdict
from ._design import Design
from ._intervals import Interval
from .readers.units import UnitInfo
from .text import num

__all__ = ["Pair", "CompareRow", "SuiteRow", "CompareResult"]


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
    estimator : str
        ``"mean"``, or the robust summary (``"median"``, ``"trimmed"``) that replaced
        every lowest-level group of both designs (:func:`esize.compare.robust_design`).

    Examples
    --------
    :func:`make_pair` builds one (lower is better, every level resampled):

    >>> import esize as ez
    >>> from esize.compare import make_pair
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> pair = make_pair("sort", old, new)
    >>> round(pair.ratio, 4), pair.scheme, pair.top_units, pair.same_design
    (0.7692, 'RR', 3, True)
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
    estimator: str = "mean"
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
    verdict : Verdict
        Faster, slower, same or inconclusive (a string enumeration: it equals its
        word).
    verdict_method : str or None
        ``"fieller"``, ``"bootstrap"``, ``"paired"`` or ``"mixed"``: the interval the verdict comes
        from (the paired one when the systems were measured in shared rounds and the
        comparison was asked to pair them, else Fieller's whenever it was computed,
        bounded or not), None when there is none.
    description : str
        The verdict in words.
    caveats : tuple of str
        What the reader should know before trusting the result (empty when nothing
        needs saying).
    reason : str or None
        Why the interval draws no verdict although it is bounded
        (:func:`esize._decision.verdict_obstacle`), None when nothing stands in the way.
    p_value : float or None
        The p-value of "no change" that matches Fieller's interval
        (:func:`esize.fieller_p_value`); None without Fieller's interval or when the
        interval cannot support a verdict (``reason``).
    paired : Interval or None
        The paired interval of systems measured in shared rounds
        (:func:`esize.paired_ratio_ci`), None unless the comparison paired them.
    mixed : Interval or None
        The REML mixed model's interval of the ratio of geometric means
        (:func:`esize.mixed_ratio_ci`), None unless ``method="mixed"``.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import compare_pairs, make_pair
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> row = compare_pairs([make_pair("sort", old, new)], method="fieller").rows[0]
    >>> print(row.verdict, row.verdict_method, row.chosen is row.fieller, row.bootstrap)
    faster fieller True None
    >>> row.description
    'new is 23.08 % faster (95 % CI 11.01 % .. 32.97 %)'
    """

    pair: Pair
    alpha: float
    threshold: float
    fieller: Interval | None
    normal: bool
    bootstrap: Interval | None
    resamples: int
    seed: int | None
    verdict: Verdict
    verdict_method: str | None
    description: str
    caveats: tuple = ()
    reason: str | None = None
    p_value: float | None = None
    paired: Interval | None = None
    mixed: Interval | None = None

    @property
    def chosen(self) -> Interval | None:
        """The interval the verdict comes from."""
        if self.verdict_method is None:
            return None
        return {"fieller": self.fieller, "bootstrap": self.bootstrap,
                "paired": self.paired, "mixed": self.mixed}.get(self.verdict_method)

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
            if self.p_value is not None:
                out["fieller"]["p_value"] = self.p_value
        if self.paired is not None:
            q = self.paired
            out["paired"] = {"lower": num(q.lower), "upper": num(q.upper),
                             "bounded": q.bounded, "estimate": q.estimate,
                             "rounds": q.extra["rounds"], "interval":
                             q.method.removeprefix("paired-")}
        if self.mixed is not None:
            x = self.mixed
            out["mixed"] = {"lower": num(x.lower), "upper": num(x.upper),
                            "bounded": x.bounded, "estimate": x.estimate,
                            "quantile": "normal" if self.normal else "t",
                            **{k: x.extra[k] for k in ("estimand", "df", "df_welch",
                                                        "df_side", "p_value", "old", "new")}}
        if self.bootstrap is not None:
            b = self.bootstrap
            out["bootstrap"] = {
                "lower": num(b.lower),
                "upper": num(b.upper),
                "scheme": p.scheme,
                "resamples": self.resamples,
                "seed": self.seed,
            }
            if "expanded_alpha" in b.extra:  # Hesterberg's expanded percentile interval
                out["bootstrap"]["expanded_alpha"] = b.extra["expanded_alpha"]
        out["verdict"] = self.verdict
        out["verdict_method"] = self.verdict_method
        if self.reason is not None:
            out["verdict_reason"] = self.reason
        out["description"] = self.description
        out["caveats"] = list(self.caveats)
        if p.estimator != "mean":
            out["estimator"] = p.estimator
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

    Examples
    --------
    Two benchmarks; without a bootstrap the verdict rests on the t interval:

    >>> import esize as ez
    >>> from esize.compare import compare_pairs, make_pair
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> newer = ez.Design([[10, 12], [11, 11], [11, 12]], ("fork", "iteration"))
    >>> suite = compare_pairs([make_pair("sort", old, new), make_pair("hash", old, newer)]).suite
    >>> print(suite.verdict, suite.verdict_method, round(suite.interval.geometric_mean, 4))
    faster parametric 0.8904
    >>> suite.description
    'new is 10.96 % faster (95 % CI 5.39 % .. 16.19 %)'
    """

    interval: SuiteInterval
    scheme: str | list
    seed: int | None
    lower_is_better: bool
    inverted: list
    verdict: Verdict
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
    notes : tuple of str
        What holds for the whole comparison, said once: that drift between the two
        runs is not in the intervals (:func:`esize.compare.drift_note`), that many
        benchmarks were tested at once (:func:`esize.compare.multiplicity`).
    fdr : dict or None
        For two or more benchmarks with Fieller's p-values: ``{"method":
        "benjamini-hochberg", "q": alpha, "tested": n, "changed": [names]}``, the
        benchmarks whose change holds at false discovery rate ``q``.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import compare_pairs, make_pair
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> result = compare_pairs([make_pair(None, old, new)], method="fieller")
    >>> print(result.render_text())
    ratio new/old   0.769231   (old mean 10.8333, new mean 8.33333)
    Fieller 95 %    [0.670345, 0.889932]
    verdict         faster at threshold 2 % (from fieller): new is 23.08 % faster (95 % CI ...)
    <BLANKLINE>
    note        drift: neither system's data label a session or round, so whatever ...
    >>> doc = result.to_json()
    >>> print(doc["verdict"], round(doc["fieller"]["lower"], 4), len(doc["benchmarks"]))
    faster 0.6703 1
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
    notes: tuple = ()
    fdr: dict | None = None

    _SINGLE = ("ratio", "old", "new", "alpha", "threshold", "fieller", "paired", "mixed",
               "bootstrap",
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
        out["notes"] = list(self.notes)
        if self.fdr is not None:
            out["fdr"] = dict(self.fdr)
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
