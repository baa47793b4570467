"""Costs of a benchmark in measurements: the paper's, and a measured dataset's.

:class:`CostModel` (the paper's costs, :func:`paper_costs`, or a dataset's mean
steady time and build time) and :class:`MeasuredCost` (a measured dataset's costs
file, :func:`cost_model`) have the same interface: ``costs`` ``(c2, c1)`` in
measurements and ``budget(hours)``, which
:func:`esize_study.estimate.precision.precision_rows` plans with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from esize import EsizeError

from ..datasets.costs import costs_entry_problem
from ..paper import numbers as paper

__all__ = ["CostModel", "paper_costs", "MeasuredCost", "cost_model"]


@dataclass(frozen=True)
class CostModel:
    """Costs of one benchmark, in seconds and measurements.

    Attributes
    ----------
    measurement_seconds : float
        Time of one measurement; converts budgets and build times to measurements.
    build_seconds : float
        Time to build a new binary.
    warmup : int
        Warm-up measurements paid by every new execution (the paper's c1).
    """

    measurement_seconds: float
    build_seconds: float
    warmup: int

    @property
    def costs(self) -> tuple[float, float]:
        """``(c2, c1)``: build and warm-up in measurements, highest level first."""
        return (self.build_seconds / self.measurement_seconds, float(self.warmup))

    def budget(self, hours: float) -> float:
        return hours * 3600.0 / self.measurement_seconds


def paper_costs(benchmark: str) -> CostModel:
    """The paper's costs for one of its ten benchmarks (Section "Benchmarks")."""
    return CostModel(
        paper.measurement_seconds(benchmark),
        paper.BUILD_SECONDS,
        paper.warmup_count(paper.raw_measurements(benchmark)),
    )


@dataclass(frozen=True)
class MeasuredCost:
    """Measured costs of one benchmark, in seconds; :attr:`costs` in measurements.

    The same interface as :class:`CostModel`, so that
    :func:`esize_study.estimate.precision.precision_rows` plans with it.

    Attributes
    ----------
    measurement_seconds : float
        Mean steady-state iteration time: the unit of every cost and budget.
    build_seconds : float
        Mean time to build one binary.
    execution_seconds : float
        What a further execution costs beyond its kept iterations: process start-up,
        input set-up and exit, plus the time of its dropped warm-up iterations.
    """

    measurement_seconds: float
    build_seconds: float
    execution_seconds: float

    @property
    def costs(self) -> tuple[float, float]:
        """``(c2, c1)``: a build and a further execution, in measurements."""
        return (self.build_seconds / self.measurement_seconds,
                self.execution_seconds / self.measurement_seconds)

    def budget(self, hours: float) -> float:
        return hours * 3600.0 / self.measurement_seconds


def cost_model(entry: Mapping, warmup: int) -> MeasuredCost:
    """The cost model of one benchmark from its entry in a costs file.

    Parameters
    ----------
    entry : mapping
        ``sets[benchmark]`` of the costs file, in seconds (the fields of
        :data:`esize_study.datasets.costs.COSTS_FIELDS`): ``steady_iteration_seconds.mean``,
        ``new_binary_seconds``, ``execution_overhead_seconds.mean`` and
        ``warmup_excess_seconds.mean`` (the warm-up iterations' time above the steady
        mean, summed per execution, as measured).
    warmup : int
        Iterations the pipeline drops. A further execution costs its start-up, its
        ``warmup`` dropped iterations at the steady time, and their excess (measured
        for the file's warm-up count; when the pipeline's differs, the excess is
        kept as measured, a small error as it sits in the first iterations).
    """
    problem = costs_entry_problem(entry)
    if problem:
        keys, message = problem
        where = ": ".join(["costs file entry", *([".".join(keys)] if keys else [])])
        raise EsizeError(f"{where}: {message}")
    meas = float(entry["steady_iteration_seconds"]["mean"])
    build = float(entry["new_binary_seconds"])
    overhead = float(entry["execution_overhead_seconds"]["mean"])
    excess = float(entry["warmup_excess_seconds"]["mean"])
    return MeasuredCost(meas, build, overhead + warmup * meas + max(excess, 0.0))
