"""``esize plan``: how many repetitions at each level should the next experiment make?

From a pilot experiment's variance estimates and the cost of a new unit at each level,
the repetition counts that give the narrowest interval for a given cost (Section
"Experiment Planning"), levels whose estimated variance is not positive dropped
first; with a time budget, also how many top-level units it buys and the interval
half-width to expect (Section "Dimensioning the Experiments"). For a harness file the
plan is translated into the harness's options for the next run.

With a budget, the counts are the whole numbers that give the narrowest interval
half-width the budget can buy (the t quantile with the number of top-level units
minus one degrees of freedom included), never fewer than 2 top-level units and never
wider than the one-level default printed beside them; a budget that cannot pay for
2 top-level units is an error. A top level dropped for its T^2 <= 0 still
gets at least 2 units in the dimensioning.

One design is prescribed, and the text and the JSON name the same counts. Without a
budget it is the plan: the optimal count of every level but the top, the top's
left to the budget. With a budget it is the dimensioned design, a count for every
level of the pilot's design: the levels the plan dropped under the top run once per
unit above (the cost model charges them so), and a top level the plan dropped still
gets its units, at least 2, because the interval's degrees of freedom count them.
The plan's own counts, which minimise the variance per unit of cost whatever the
budget, are then shown on a line of their own (``no budget``) when they
differ from the prescribed ones: whole counts for a given budget trade a little
variance for more top-level units.

JSON: ``counts`` are the plan's counts, ``costs`` the costs they were optimised with
(dropped levels folded in) and ``given_costs`` every cost as given, a dropped
level's included. ``dimensioning`` holds ``budget``, ``counts`` (the prescribed
design: every level of the pilot's design, highest first), ``cost`` (what that
design costs, in measurements), ``half_width_pct``, ``default_n`` and
``default_half_width_pct``. A half-width is a number, or the string ``"inf"`` when
the design cannot give an interval (the one-level default when the budget buys fewer
than 2 of its samples); it is never ``null``.

Counts, half-widths and dropped levels do not depend on the unit of measure: they
are computed from variances relative to each other and to the squared mean, in the
data's scaled units, so values near 1e-300 or 1e300 are planned like any other. A
variance ``T2`` beyond the range of floats (the square of such values) is ``null``
in the JSON output, as in ``esize summary``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import cast

from .._errors import EsizeError, EsizeWarning, InputError
from .._planning import Dimensioning, Plan, dimension_for_plan, experiment_cost, plan_from_design
from ..readers import HARNESS_LEVELS, next_run_options, plural
from ..readers.units import UnitInfo
from ..text import Column, file_line, format_table, prefix, unit_text
from ._shared import read_input, require_replication, select

__all__ = ["PlanRow", "PlanResult", "next_run", "make_plans", "cmd_plan"]

_COUNT_TABLE = (Column("level", 12), Column("n", 8, ">"), Column("per"))

#: Largest budget accepted: counts above 2**53 are not exact in floating point.
MAX_BUDGET = float(2**53)


def pct(x: float) -> float | str:
    """A relative half-width in % for JSON: a number, or ``"inf"`` when infinite."""
    return 100.0 * float(x) if math.isfinite(x) else "inf"


@dataclass(frozen=True)
class PlanRow:
    """The plan of one benchmark.

    Attributes
    ----------
    name : str or None
        The benchmark (None for a tidy table read as one design).
    unit : UnitInfo
        Unit of the values and their direction.
    plan : Plan
        Optimal counts per level (the top level's count is left to the budget).
    budget : float or None
        The time budget, in measurements.
    dimensioning : Dimensioning or None
        With a budget: the counts it buys and the half-width to expect.

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.plan import make_plans
    >>> old = str(Path(esize.__file__).parents[2] / "examples" / "old.csv")  # in the repository
    >>> row = make_plans(build_parser().parse_args(["plan", old, "--costs", "1,10"])).rows[0]
    >>> row.prescribed(), row.budget, row.dimensioning
    ({'execution': 4, 'measurement': 2}, None, None)
    >>> for line in row.render_lines():
    ...     print(line)
    levels      binary > execution > measurement
    execution          4 per binary
    measurement        2 per execution
    """

    name: str | None
    unit: UnitInfo
    plan: Plan
    budget: float | None = None
    dimensioning: Dimensioning | None = None

    def to_json(self) -> dict:
        """JSON-ready dictionary: name, unit, the plan's fields and the dimensioning.

        Half-widths are numbers in %, or the string ``"inf"`` (never ``null``).
        """
        out = {"name": self.name, **self.unit.as_dict(), **self.plan.as_dict()}
        dim = self.dimensioning
        if dim is not None:
            out["dimensioning"] = {
                "budget": self.budget,
                "counts": self.prescribed(),
                "cost": dim.cost,
                "half_width_pct": pct(dim.half_width),
                "default_n": dim.default_n,
                "default_half_width_pct": pct(dim.default_half_width),
            }
        return out

    def prescribed(self) -> dict[str, int]:
        """The counts this benchmark's block prescribes, highest first: the
        dimensioned design with a budget (:attr:`Dimensioning.design_counts`), else
        the plan's counts (the top level's left to the budget). The text and the JSON
        are both written from these."""
        if self.dimensioning is not None:
            return self.dimensioning.design_counts
        return {k: int(v) for k, v in self.plan.counts.items()}

    def render_lines(self) -> list[str]:
        """The benchmark's block of the text output: the levels, then one row per
        prescribed count (:meth:`prescribed`)."""
        plan = self.plan
        lines = [] if self.name is None else [
            f"benchmark   {self.name}   {unit_text(self.unit)}".rstrip()
        ]
        lines.append(
            f"levels      {' > '.join(plan.levels)}"
            + (f"   (dropped: {', '.join(plan.dropped)}, T^2 <= 0)" if plan.dropped else "")
        )
        if self.dimensioning is None:
            levels = list(plan.levels)
            rows = [(lv, str(n), f" per {levels[levels.index(lv) - 1]}")
                    for lv, n in plan.counts.items()]
            if not plan.counts:
                rows.append((levels[0], "", " nothing to optimise: only the number of "
                             f"{plural(levels[0])} matters (see --budget)"))
            return lines + format_table(_COUNT_TABLE, rows, header=False)
        budget = cast(float, self.budget)  # dimensioned: for a budget
        return lines + _budget_lines(budget, self.dimensioning, self.prescribed())


def _hw_text(x: float) -> str:
    return f"+-{100 * x:.2f} %" if math.isfinite(x) else "no interval"


def _budget_lines(budget: float, dim: Dimensioning, counts: dict[str, int]) -> list[str]:
    """The text of a dimensioned design: a heading with the budget and what the design
    costs, one row per level of ``counts`` (:meth:`PlanRow.prescribed`, each dropped
    level's row saying why it is there), the half-width beside the one-level default,
    and the plan's own counts when they differ from the prescribed ones."""
    plan = dim.plan
    names = list(counts)
    lines = [f"budget      {budget:g} measurements buy this design (it costs {dim.cost:g})"]
    rows = []
    for k, (level, n) in enumerate(counts.items()):
        per = "" if k == 0 else f" per {names[k - 1]}"
        if level == plan.outer_level:
            why = f"   dropped (T^2 <= 0) but kept: an interval needs 2 or more {plural(level)}"
        elif level in plan.dropped:
            why = "   dropped (T^2 <= 0): runs once"
        else:
            why = ""
        rows.append((level, str(n), per + why))
    lines += format_table(_COUNT_TABLE, rows, header=False)
    gives = f"half-width  {_hw_text(dim.half_width)}"
    top, *low = dim.counts.values()
    if not low:
        lines.append(gives)  # one level: the design is the default
    elif all(n == 1 for n in low) and top == dim.default_n:
        lines.append(gives + " (the one-level default: nothing better fits the budget)")
    else:
        lines.append(
            gives + f"; one-level default ({dim.default_n} samples) "
            f"{_hw_text(dim.default_half_width)}"
        )
    own = {k: int(v) for k, v in plan.counts.items()}
    if any(counts.get(k) != v for k, v in own.items()):
        levels = list(plan.levels)
        text = ", ".join(f"{k} {v} per {levels[levels.index(k) - 1]}" for k, v in own.items())
        lines.append(
            f"no budget   {text} (least variance per unit of cost; the counts above "
            "give the narrowest interval this budget buys)"
        )
    return lines


@dataclass(frozen=True)
class PlanResult:
    """``esize plan`` of one file.

    Attributes
    ----------
    file : str
        The file as given on the command line.
    format : str
        Its format.
    rows : list of PlanRow
        One per benchmark.
    options : str or None
        Harness options for the next run (``"--processes 20 --values 3"``).
    options_note : str
        How ``options`` were chosen among several benchmarks ("" when obvious).

    Examples
    --------
    A pyperf file of the repository, and the options of pyperf's next run:

    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.plan import make_plans
    >>> telco = str(Path(esize.__file__).parents[2] / "examples" / "pyperf" / "telco.json")
    >>> result = make_plans(build_parser().parse_args(["plan", telco, "--costs", "1"]))
    >>> print(result.render_text())
    file        ...telco.json   (pyperf)
    benchmark   telco   (second, lower is better)
    levels      process > value
    value              2 per process
    <BLANKLINE>
    next run    pyperf options: --values 2
    >>> result.to_json()["suggestion"]
    'pyperf --values 2'
    """

    file: str
    format: str
    rows: list = field(default_factory=list)
    options: str | None = None
    options_note: str = ""

    def to_json(self) -> dict:
        """JSON-ready dictionary; a single benchmark's fields are at the top."""
        benchmarks = [r.to_json() for r in self.rows]
        out: dict = {}
        if len(benchmarks) == 1:
            drop = ("name", "unit", "lower_is_better")
            out.update({k: v for k, v in benchmarks[0].items() if k not in drop})
        else:
            out["file"] = self.file
        out["benchmarks"] = benchmarks
        if self.options:
            out["suggestion"] = f"{self.format} {self.options}"
        return out

    def render_text(self) -> str:
        """The text printed without ``--json``."""
        lines = [file_line(self.file, self.format)]
        for k, row in enumerate(self.rows):
            if k:
                lines.append("")
            lines += row.render_lines()
        if self.options:
            note = f" ({self.options_note})" if self.options_note else ""
            lines += ["", f"next run    {self.format} options: {self.options}{note}"]
        return "\n".join(lines)


# -- the computation ---------------------------------------------------------------------
def next_run(fmt: str, plans: list, costs, budget, n_benchmarks: int,
             dims: list | None = None) -> tuple[str | None, str]:
    """Harness options for the next run and a note on how they were chosen.

    Every lower level gets the largest count over the benchmarks whose plan kept
    every level (``plans`` holds None for the others): the plan's counts, or with a
    budget the dimensioned ones (``dims``, parallel to ``plans``); with a budget, the
    top level gets the number of units that the budget buys at those counts. When
    that is fewer than 2, there are no options and a note says why.

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.plan import make_plans, next_run
    >>> telco = str(Path(esize.__file__).parents[2] / "examples" / "pyperf" / "telco.json")
    >>> result = make_plans(build_parser().parse_args(["plan", telco, "--costs", "1"]))
    >>> plans = [row.plan for row in result.rows]
    >>> next_run("pyperf", plans, [1.0], None, 1)
    ('--values 2', '')
    >>> next_run("pyperf", plans, [1.0], 1000, 1)  # a budget of 1000 values
    ('--processes 333 --values 2', 'processes: what the budget buys with those counts')
    """
    levels = HARNESS_LEVELS.get(fmt)
    kept = [k for k, p in enumerate(plans) if p is not None]
    if not levels or not kept:
        return None, ""
    if budget is not None and dims is not None:
        lower = {lv: max(dims[k].counts[lv] for k in kept) for lv in levels[1:]}
    else:
        lower = {lv: max(plans[k].counts[lv] for k in kept) for lv in levels[1:]}
    counts = dict(lower)
    top = levels[0]
    if budget is not None:
        per_top = experiment_cost([1, *lower.values()], list(reversed(costs))) if lower else 1.0
        n_top = int(math.floor(budget / per_top + 1e-9))
        if n_top < 2:
            warnings.warn(
                f"no options for the next run: with the largest counts over the benchmarks "
                f"the budget buys {n_top} {plural(top) if n_top != 1 else top}, fewer than 2",
                EsizeWarning,
                stacklevel=2,
            )
            return None, ""
        counts = {top: n_top, **lower}
    options = next_run_options(fmt, counts)
    if not options:
        return None, ""
    notes = []
    if n_benchmarks > 1 and len(levels) > 1:
        used = len(kept)
        among = f"the {used}" if used == n_benchmarks else f"{used} of the {n_benchmarks}"
        notes.append(
            f"counts per {top}: the largest over {among} benchmarks"
            + ("" if used == n_benchmarks else " that keep every level")
        )
    if budget is not None:
        notes.append(f"{plural(top)}: what the budget buys with those counts")
    return options, "; ".join(notes)


def _check_costs(path: str, name, costs: list, n_levels: int, levels) -> None:
    if costs is None and n_levels > 1:
        raise InputError(
            path,
            f"{prefix(name)}the following arguments are required: --costs "
            f"({n_levels - 1} for levels {list(levels)}, from the lowest level up)",
        )
    given = 0 if costs is None else len(costs)
    if given != n_levels - 1:
        raise InputError(
            path,
            f"{prefix(name)}{given} cost(s) given for {n_levels} levels "
            f"{list(levels)}; --costs needs {n_levels - 1} (from the lowest level up)",
        )


def _check_budget(budget) -> None:
    if budget is None:
        return
    if not (math.isfinite(budget) and budget > 0):
        raise EsizeError(f"--budget must be a positive number of measurements, got {budget:g}")
    if budget > MAX_BUDGET:
        raise EsizeError(
            f"--budget {budget:g} is too large: at most 2**53 = {MAX_BUDGET:.6g} measurements"
        )


def make_plans(args) -> PlanResult:
    """Plan the next experiment for every (selected) benchmark of ``args.data``.

    The file is read first, so that a missing or unreadable file is reported as
    such, whatever the options; then the options are checked against its levels.

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.plan import make_plans
    >>> old = str(Path(esize.__file__).parents[2] / "examples" / "old.csv")  # in the repository
    >>> args = build_parser().parse_args(["plan", old, "--costs", "1,10", "--budget", "200"])
    >>> row = make_plans(args).rows[0]
    >>> row.plan.counts, row.prescribed(), round(100 * row.dimensioning.half_width, 2)
    ({'execution': 4, 'measurement': 2}, {'binary': 11, 'execution': 2, 'measurement': 3}, 14.38)
    """
    fmt, benches = read_input(args.data, args)
    benches = select(args.data, benches, args.benchmark)
    if args.costs is not None:
        if not all(math.isfinite(c) and c > 0 for c in args.costs):
            raise EsizeError(f"--costs must be positive and finite, got {args.costs}")
    _check_budget(args.budget)
    costs = [] if args.costs is None else list(args.costs)
    rows, for_options, dims = [], [], []
    for name, bench in benches.items():
        design, unit = bench
        if bench.unobserved:
            level, parent = bench.unobserved[0]
            per = "" if parent is None else f" per {parent}"
            raise InputError(
                args.data,
                f"{prefix(name)}a single {level}{per}: the variation between {plural(level)} "
                f"is not observed, so no plan can say how many to measure; plan from a "
                f"pilot with 2 or more {plural(level)}{per}",
            )
        require_replication(args.data, name, design)
        _check_costs(args.data, name, args.costs, design.n_levels, design.levels)
        try:
            plan = plan_from_design(design, list(reversed(costs)), dropped_cost=args.dropped_cost)
        except EsizeError as exc:
            raise InputError(args.data, f"{prefix(name)}cannot plan: {exc}") from None
        dim = None
        if args.budget is not None:
            try:
                dim = dimension_for_plan(plan, args.budget, mean=design.mean, alpha=args.alpha)
            except EsizeError as exc:
                text = str(exc)  # "budget 500 does not pay ..." -> "--budget 500 ..."
                text = f"--{text}" if text.startswith("budget ") else f"--budget: {text}"
                raise InputError(args.data, f"{prefix(name)}{text}") from None
        rows.append(PlanRow(name, unit, plan, args.budget, dim))
        # a benchmark whose plan dropped a level puts no constraint on the counts
        for_options.append(None if plan.dropped else plan)
        dims.append(dim)
    options, note = next_run(fmt, for_options, costs, args.budget, len(rows), dims)
    return PlanResult(args.data, fmt, rows, options, note)


def cmd_plan(args) -> PlanResult:
    """``esize plan``.

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.plan import cmd_plan
    >>> old = str(Path(esize.__file__).parents[2] / "examples" / "old.csv")  # in the repository
    >>> args = build_parser().parse_args(["plan", old, "--costs", "1,10", "--budget", "200"])
    >>> for line in cmd_plan(args).render_text().splitlines()[2:7]:
    ...     print(line)
    budget      200 measurements buy this design (it costs 198)
    binary            11
    execution          2 per binary
    measurement        3 per execution
    half-width  +-14.38 %; one-level default (16 samples) +-18.89 %
    """
    return make_plans(args)
