"""The words of a comparison (:mod:`esize.compare`): its caveats, and its text, one
block per benchmark or a table for a suite, as ``esize compare`` prints it. Nothing
here computes a statistic."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._decision import MIN_BOOTSTRAP_UNITS, SUITE_BOOTSTRAP_UNITS, number_text
from ._design import Design
from ._names import abbreviate, wrap_rows
from ._outliers import far_out, outlier_caveat
from .readers import names_text
from .readers._common import plural
from .readers.settings import CAVEAT_START
from .text import Column, format_table, num, unit_text, warmup_text

if TYPE_CHECKING:
    from ._bootstrap import SuiteInterval
    from ._compare_result import Pair
    from ._intervals import Interval

__all__ = ["row_lines", "result_text", "design_text", "benchmark_caveats", "suite_caveats",
           "assume_flag",
           "NAME_WIDTH", "MIN_PREFIX"]

#: Widest name column of the suite table; longer names wrap onto further lines.
NAME_WIDTH = 40
#: A prefix shared by every benchmark name is left out of the table (and said once
#: above it) when it is at least this long.
MIN_PREFIX = 8


def design_text(design: Design) -> str:
    """``"20 x 3 (process > value)"``.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import design_text
    >>> design_text(ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration")))
    '3 x 2 (fork > iteration)'
    """
    return f"{' x '.join(map(str, design.shape))} ({' > '.join(design.levels)})"


def _ratio_cells(ratio: float, lower: float | None, upper: float | None) -> tuple[str, str, str]:
    """A ratio and its limits as table cells (:func:`esize._decision.number_text`);
    an infinite or missing limit is ``-inf`` or ``inf``."""
    lo, hi = num(lower) if lower is not None else None, num(upper) if upper is not None else None
    return (number_text(ratio), "-inf" if lo is None else number_text(lo),
            "inf" if hi is None else number_text(hi))


def row_lines(row) -> list[str]:
    """The benchmark's block of the text output (a single comparison)."""
    p = row.pair
    conf = f"{100 * (1 - row.alpha):g} %"
    lines = []
    if p.name is not None:
        label = p.name if p.new_name == p.name else f"{p.name} (new: {p.new_name})"
        lines.append(f"benchmark       {label}   {unit_text(p.unit)}".rstrip())
    lines.append(
        f"ratio new/old   {p.ratio:.6g}   (old mean {p.old_mean:.6g}, "
        f"new mean {p.new_mean:.6g})"
    )
    if not p.same_design:
        lines.append(f"designs         old {design_text(p.old)}; new {design_text(p.new)}")
    if row.fieller is not None:
        f = row.fieller
        lines.append(
            f"Fieller {conf:<8}[{f.lower:.6g}, {f.upper:.6g}]"
            if f.bounded
            else f"Fieller {conf:<8}unbounded: the old mean is not distinguishable from zero"
        )
    if row.paired is not None:
        q = row.paired
        lines.append(
            f"paired {conf:<9}[{q.lower:.6g}, {q.upper:.6g}]  ({q.extra['rounds']} rounds, "
            f"{q.method.removeprefix('paired-')} interval of the rounds' ratios)"
            if q.bounded else f"paired {conf:<9}unbounded: too few rounds "
            f"({q.extra['rounds']})")
    if row.mixed is not None:
        lines.append(_mixed_line(row.mixed, conf))
    if row.bootstrap is not None:
        b = row.bootstrap
        lines.append(
            f"bootstrap {p.scheme:<6}[{b.lower:.6g}, {b.upper:.6g}]  "
            f"({row.resamples} resamples, seed {row.seed}"
            + (", expanded percentile)" if "expanded_alpha" in b.extra else ")")
        )
    lines.append(
        f"verdict         {row.verdict} at threshold {100 * row.threshold:g} % "
        f"(from {row.verdict_method or 'no interval'}): {row.description}"
    )
    w = p.warmup
    for side in ("old", "new"):
        if w is not None and w[side] is not None:
            lines.append(f"warm-up {side:<8}{warmup_text(w[side])}")
    lines += [f"caveat          {c}" for c in row.caveats]
    return lines


def _mixed_line(x, conf: str) -> str:
    """The line of the REML mixed model's interval (:func:`esize.mixed_ratio_ci`)."""
    df = x.extra.get("df")
    zero = [f"{side} {', '.join(x.extra[side]['zero'])}" for side in ("old", "new")
            if x.extra[side]["zero"]]
    return (f"mixed {conf:<10}[{x.lower:.6g}, {x.upper:.6g}]  (REML mixed model of log times: "
            f"ratio of geometric means {x.estimate:.6g}"
            + (f", {df:.1f} df" if df is not None else "")
            + (f"; variance 0 at {'; '.join(zero)}" if zero else "") + ")")


def result_text(result) -> str:
    """The text printed without ``--json``: one block, or a table for a suite."""
    if result.baseline is not None:
        text = "\n".join(_baseline_blocks(result))
    elif result.suite is None:  # one benchmark (or a few of single measurements)
        blocks = [row_lines(r) for r in result.rows]
        text = "\n\n".join("\n".join(b) for b in blocks)
    else:
        text = "\n".join(_suite_table(result))
    return "\n".join([text, *_note_lines(result)])


def _note_lines(result) -> list[str]:
    """What holds for the whole comparison, once, after everything else; the
    benchmarks the false discovery rate list keeps, where the multiplicity note is."""
    notes = list(getattr(result, "notes", ()))
    if not notes:
        return []
    lines = [""] + [f"note        {n}" for n in notes]
    fdr = getattr(result, "fdr", None)
    if fdr is not None and result.threshold == 0 and fdr["changed"]:
        shown = fdr["changed"][:10]
        more = len(fdr["changed"]) - len(shown)
        lines.append("changed at FDR " + f"{100 * fdr['q']:g} %: " + ", ".join(shown)
                     + (f" and {more} more" if more else ""))
    return lines

def _suite_table(result) -> list[str]:
    rows, s = result.rows, result.suite
    conf = f"{100 * (1 - result.alpha):g} %"
    # long names (JMH parameters) wrap onto continuation lines: the column stays
    # at most NAME_WIDTH wide and no text is lost
    common, names = abbreviate(str(r.pair.name) for r in rows)
    if len(common) < MIN_PREFIX:
        common, names = "", [str(r.pair.name) for r in rows]
    width = min(NAME_WIDTH, max(14, *(len(n) for n in names))) + 2
    units = [r.pair.unit.unit + ("" if r.pair.unit.lower_is_better else " ↑") for r in rows]
    uw = max(6, *(len(u) for u in units)) + 2
    cells = []
    for r, unit, short in zip(rows, units, names):
        iv = r.chosen
        lo, hi = (None, None) if iv is None else (iv.lower, iv.upper)
        point = iv.estimate if r.verdict_method == "mixed" else r.pair.ratio
        cells.append((short, unit, *_ratio_cells(point, lo, hi), r.verdict,
                      r.description))
    si = s.interval
    v = si.verdict_interval
    gm = ("geometric mean", "", *_ratio_cells(si.geometric_mean, v.lower, v.upper),
          s.verdict, s.description)
    # numbers are 9 wide unless one needs an exponent (a ratio far from 1)
    nw = max(9, *(len(c[k]) + 1 for c in (*cells, gm) for k in (2, 3, 4)))
    columns = (
        Column("benchmark", width),
        Column("unit", uw),
        Column("ratio", nw, ">"),
        Column("lower", nw, ">"),
        Column("upper", nw, ">"),
        Column("verdict", 14, gap="  "),
        Column("change"),
    )
    scheme = s.scheme if isinstance(s.scheme, str) else "/".join(s.scheme)
    pad = " " * width
    lines = [
        f"old         {result.old}   ({result.old_format})",
        f"new         {result.new}   ({result.new_format})",
        (f"intervals   {conf} REML mixed model of log times (ratios of geometric means); "
         if any(r.verdict_method == "mixed" for r in rows) else
         f"intervals   {conf} Fieller (bootstrap where Fieller is not run); ")
        + f"threshold {100 * result.threshold:g} %",
        *([f"names       all start with {common!r}, left out below"] if common else []),
        "",
        *format_table(columns, wrap_rows(cells, width - 2)),
        "",
        *format_table(columns, [gm], header=False),
        (f"{pad}bootstrap {scheme} within each benchmark ({si.resamples} resamples, "
         f"seed {s.seed}): [{number_text(si.lower)}, {number_text(si.upper)}]"
         if si.has_bootstrap else f"{pad}bootstrap: not run (--method both runs it)"),
        *_parametric_lines(result, pad),
    ]
    caveats = _caveat_lines(result)
    suite_caveats = [f"caveat      geometric mean: {c}" for c in s.caveats]
    lines += (caveats or ([""] if suite_caveats else [])) + suite_caveats
    if any(not r.pair.unit.lower_is_better for r in rows):
        lines.append("")
        lines.append(
            "↑ marks rates (higher is better): for them a ratio above 1 means new is faster"
        )
    if s.inverted:
        lines.append(
            "the geometric mean mixes rates and times: rates enter it as old/new, so below 1 "
            "means new is faster"
        )
    return lines

def _baseline_blocks(result) -> list[str]:
    lines = [f"file            {result.old}   ({result.old_format})",
             f"baseline        {result.baseline}  (old; every other command is new)"]
    for r in result.rows:
        lines += ["", *row_lines(r)]
    return lines

def _parametric_lines(result, pad: str) -> list[str]:
    p = result.suite.interval.parametric
    if p is None:
        return []
    quantile = "normal" if p.method.endswith("normal") else "t"
    df = p.extra.get("df")
    dof = f", {df:.1f} degrees of freedom" if df is not None else ""
    limits = f"[{number_text(p.lower)}, {number_text(p.upper)}]" if p.bounded else (
        "unbounded: a system has a single top-level unit")
    if not result.suite.interval.has_bootstrap:
        return [f"{pad}{quantile} interval of the mean log ratio{dof}: {limits}",
                f"{pad}the verdict rests on the {quantile} interval"]
    rests = {
        "bootstrap": "the bootstrap interval (it holds the other)",
        "parametric": f"the {quantile} interval (it holds the other)",
        "bootstrap+parametric": "the smallest interval holding both",
    }[result.suite.verdict_method]
    return [f"{pad}{quantile} interval of the mean log ratio{dof}: {limits}",
            f"{pad}the verdict rests on {rests}"]

def _caveat_lines(result) -> list[str]:
    """One line per distinct caveat, naming the benchmarks it concerns (``all N
    benchmarks``, or the first few and how many more)."""
    by_text: dict[str, list[str]] = {}
    for r in result.rows:
        for c in r.caveats:
            by_text.setdefault(c, []).append(str(r.pair.name))
    if not by_text:
        return []
    n = len(result.rows)

    def who(names: list[str]) -> str:
        return f"all {n} benchmarks" if len(names) == n else names_text(names)

    return ["", *(f"caveat      {who(names)}: {text}" for text, names in by_text.items())]


def assume_flag(level: str) -> str:
    """The option that assumes ``level`` (fork, process, ...) adds no variance.

    >>> assume_flag("process"), assume_flag("fork")
    ('--assume-no-process-variance', '--assume-no-fork-variance')
    """
    return "--assume-no-process-variance" if level == "process" else "--assume-no-fork-variance"


def benchmark_caveats(pair: Pair, fieller: Interval | None, boot: Interval | None, *,
                      alpha: float, reason: str | None = None,
                      assumed: tuple = (), verdict_method: str | None = "bootstrap",
                      ) -> tuple[str, ...]:
    """What to say about one benchmark's result: far-out measurements in a system
    (:func:`esize._outliers.far_out`), an unbounded Fieller interval, a bootstrap
    interval resting on fewer than
    :data:`MIN_BOOTSTRAP_UNITS` top-level units, why no verdict is drawn
    (``reason``), and the assumptions (``assumed``) a verdict was forced under.

    Examples
    --------
    A bootstrap interval on 3 forks, with no Fieller interval to take the verdict from:

    >>> import esize as ez
    >>> from esize.compare import benchmark_caveats, compare_pairs, make_pair
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> pair = make_pair("sort", old, new)
    >>> boot = compare_pairs([pair], method="bootstrap", resamples=2000, seed=1).rows[0].bootstrap
    >>> print(*benchmark_caveats(pair, None, boot, alpha=0.05))
    the bootstrap interval rests on 3 top-level units (fork); ...; no verdict is drawn from it ...
    """
    out = []
    conf = f"{100 * (1 - alpha):g} %"
    for side, design in (("old", pair.old), ("new", pair.new)):
        found = far_out(design.data)
        if found is not None:
            out.append(outlier_caveat(side, found))
    if fieller is not None and not fieller.bounded:
        text = (f"Fieller's interval is unbounded: the old mean is not distinguishable from "
                f"zero at {conf} confidence, so the data cannot bound the ratio")
        if boot is not None:
            text += "; the bootstrap interval is shown, but no verdict is drawn from it"
        out.append(text)
    few = min((pair.old, pair.new), key=lambda d: d.shape[0])
    units = few.shape[0]
    # said where the verdict would come from the bootstrap; beside Fieller's it is noise
    if boot is not None and units < MIN_BOOTSTRAP_UNITS and verdict_method != "fieller":
        text = (f"the bootstrap interval rests on {units} top-level units "
                f"({few.levels[0]}); with fewer than {MIN_BOOTSTRAP_UNITS} a bootstrap is "
                f"not known to cover the ratio {conf} of the time (the plain percentile "
                "interval covers 80-88 % at 2-3 units; the expanded one shown is wider, its "
                f"coverage measured from {MIN_BOOTSTRAP_UNITS} units on)")
        if fieller is None and "bootstrap" not in assumed:
            text += "; no verdict is drawn from it (--assume-bootstrap-covers draws one)"
        out.append(text)
    if reason is not None and pair.single_level is not None and "fork" not in assumed:
        out.append(f"no verdict: {reason} ({assume_flag(pair.single_level)} draws one)")
    if "fork" in assumed and pair.single_level is not None:
        out.append(f"verdict drawn assuming no variation between {plural(pair.single_level)} "
                   "(--assume-no-fork-variance)")
    if "bootstrap" in assumed and fieller is None and units < MIN_BOOTSTRAP_UNITS:
        out.append("verdict drawn from the bootstrap assuming it covers with "
                   f"{units} top-level units (--assume-bootstrap-covers)")
    return tuple(pair.caveats) + tuple(out)


def suite_caveats(pairs: list[Pair], suite: SuiteInterval) -> tuple[str, ...]:
    """What to say about the geometric mean: a bootstrap resting on few top-level units
    (its limits are then too narrow, and the verdict interval holds the t interval
    too), and systems of a single fork or process.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.compare import compare_pairs, make_pair, suite_caveats
    >>> old = ez.Design([[10, 11], [10, 11], [11, 12]], ("fork", "iteration"))
    >>> new = ez.Design([[8, 9], [8, 8], [8, 9]], ("fork", "iteration"))
    >>> pairs = [make_pair("sort", old, new),
    ...          make_pair("hash", old, new, unobserved_top=["new: fork"])]
    >>> suite = compare_pairs(pairs, method="both", resamples=2000, seed=1).suite.interval
    >>> for caveat in suite_caveats(pairs, suite):
    ...     print(caveat)
    the bootstrap interval of the geometric mean rests on as few as 3 top-level units ...
    1 of 2 benchmarks held a single fork or process in a system: ...
    """
    out = []
    units = min(p.top_units for p in pairs)
    conf = f"{100 * (1 - suite.alpha):g} %"
    if units < SUITE_BOOTSTRAP_UNITS and suite.has_bootstrap:  # plain percentile there
        out.append(
            f"the bootstrap interval of the geometric mean rests on as few as {units} "
            f"top-level units per system, where it covers less often than {conf}; lower "
            "and upper are the smallest interval holding it and the t interval"
        )
    single = [p.name for p in pairs if p.single_level is not None]
    if single:
        out.append(
            f"{len(single)} of {len(pairs)} benchmarks held a single fork or process in a "
            "system: the variation between them is not in the interval"
        )
    changed = [p for p in pairs if any(c.startswith(CAVEAT_START) for c in p.caveats)]
    if changed:
        out.append(f"{len(changed)} of {len(pairs)} benchmarks ran with different harness "
                   "settings in old and new (their caveats name them)")
    return tuple(out)
