"""``esize plan``: how many repetitions at each level should the next experiment make?

From a pilot experiment's variance estimates and the cost of a new unit at each level,
the repetition counts that give the narrowest interval for a given cost (Section
"Experiment Planning"), levels whose estimated variance is not positive dropped
first; with a time budget, also how many top-level units it buys and the interval
half-width to expect (Section "Dimensioning the Experiments"). For a harness file the
plan is translated into the harness's options for the next run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .._errors import EsizeError, InputError
from .._planning import Dimensioning, Plan, dimension_for_plan, experiment_cost, plan_from_design
from ..readers import HARNESS_LEVELS, detect_format, next_run_options, plural
from ..readers.units import UnitInfo
from ._shared import (
    Column,
    file_line,
    format_table,
    num,
    prefix,
    read_input,
    require_replication,
    select,
    unit_text,
)

__all__ = ["PlanRow", "PlanResult", "next_run", "make_plans", "cmd_plan"]

_COUNT_TABLE = (Column("level", 12), Column("n", 8, ">"), Column("per"))


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
    """

    name: str | None
    unit: UnitInfo
    plan: Plan
    budget: float | None = None
    dimensioning: Dimensioning | None = None

    def to_json(self) -> dict:
        """JSON-ready dictionary: name, unit, the plan's fields and the dimensioning."""
        out = {"name": self.name, **self.unit.as_dict(), **self.plan.as_dict()}
        dim = self.dimensioning
        if dim is not None:
            out["dimensioning"] = {
                "budget": self.budget,
                "counts": dim.counts,
                "half_width_pct": num(100 * dim.half_width),
                "default_n": dim.default_n,
                "default_half_width_pct": num(100 * dim.default_half_width),
            }
        return out

    def render_lines(self) -> list[str]:
        """The benchmark's block of the text output."""
        plan = self.plan
        lines = [] if self.name is None else [
            f"benchmark   {self.name}   {unit_text(self.unit)}".rstrip()
        ]
        lines.append(
            f"levels      {' > '.join(plan.levels)}"
            + (f"   (dropped: {', '.join(plan.dropped)}, T^2 <= 0)" if plan.dropped else "")
        )
        levels = list(plan.levels)
        rows = [(lv, str(n), f" per {levels[levels.index(lv) - 1]}") for lv, n in plan.counts.items()]
        if not plan.counts:
            rows.append((levels[0], "", " nothing to optimise: only the number of "
                         f"{plural(levels[0])} matters (see --budget)"))
        lines += format_table(_COUNT_TABLE, rows, header=False)
        dim = self.dimensioning
        if dim is not None:
            counts = " x ".join(f"{k} {v}" for k, v in dim.counts.items())
            lines.append(
                f"budget {self.budget:g}: {counts} gives +-{100 * dim.half_width:.2f} %; "
                f"one-level default ({dim.default_n} samples) "
                f"+-{100 * dim.default_half_width:.2f} %"
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
def next_run(fmt: str, plans: list, costs, budget, n_benchmarks: int) -> tuple[str | None, str]:
    """Harness options for the next run and a note on how they were chosen.

    Every lower level gets the largest count over the benchmarks whose plan kept
    every level (``plans`` holds None for the others); with a budget, the top level
    gets the number of units that the budget buys at those counts.
    """
    levels = HARNESS_LEVELS.get(fmt)
    kept = [p for p in plans if p is not None]
    if not levels or not kept:
        return None, ""
    lower = {lv: max(p.counts[lv] for p in kept) for lv in levels[1:]}
    counts = dict(lower)
    if budget is not None:
        per_top = experiment_cost([1, *lower.values()], list(reversed(costs))) if lower else 1.0
        counts = {levels[0]: int(math.floor(budget / per_top + 1e-9)), **lower}
    options = next_run_options(fmt, counts)
    if not options:
        return None, ""
    top = levels[0]
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


def _is_json(path: str) -> bool:
    try:
        return detect_format(path) != "tidy"
    except EsizeError:
        return False


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


def make_plans(args) -> PlanResult:
    """Plan the next experiment for every (selected) benchmark of ``args.data``."""
    if args.costs is None and (
        args.format == "tidy" or (args.format is None and not _is_json(args.data))
    ):
        raise EsizeError("the following arguments are required: --costs")
    fmt, benches = read_input(args.data, args)
    benches = select(args.data, benches, args.benchmark)
    if args.costs is not None:
        if not all(math.isfinite(c) and c > 0 for c in args.costs):
            raise EsizeError(f"--costs must be positive and finite, got {args.costs}")
    costs = [] if args.costs is None else list(args.costs)
    rows, for_options = [], []
    for name, (design, unit) in benches.items():
        require_replication(args.data, name, design)
        _check_costs(args.data, name, args.costs, design.n_levels, design.levels)
        plan = plan_from_design(design, list(reversed(costs)), dropped_cost=args.dropped_cost)
        dim = None
        if args.budget is not None:
            dim = dimension_for_plan(plan, args.budget, mean=design.mean, alpha=args.alpha)
        rows.append(PlanRow(name, unit, plan, args.budget, dim))
        # a benchmark whose plan dropped a level puts no constraint on the counts
        for_options.append(None if plan.dropped else plan)
    options, note = next_run(fmt, for_options, costs, args.budget, len(rows))
    return PlanResult(args.data, fmt, rows, options, note)


def cmd_plan(args) -> PlanResult:
    """``esize plan``."""
    return make_plans(args)
