"""esize: effect-size confidence intervals for performance comparison.

An implementation of T. Kalibera and R. Jones, "Quantifying Performance Changes with
Effect Size Confidence Intervals": the n-level random-effects model, per-level
variance estimates, optimal repetition counts, parametric (t / normal, Fieller,
delta) and hierarchical bootstrap confidence intervals, and threshold decisions.
"""

from ._bootstrap import (
    bootstrap_mean_ci,
    bootstrap_ratio_ci,
    means_from_indices,
    parse_scheme,
    percentile_interval,
    resample_means,
)
from ._decision import describe, verdict
from ._design import Design, from_tidy
from ._errors import DesignError, EsizeError, EsizeWarning, InputError
from ._estimators import (
    VarianceComponents,
    mean_variance,
    model_mean_variance,
    s2,
    t2,
    variance_components,
)
from .readers import Benchmark, UnitInfo, read_benchmarks
from ._intervals import Interval, critical_value, delta_ci, fieller, fieller_ci, mean_ci
from ._planning import (
    Dimensioning,
    Plan,
    dimension,
    dimension_for_plan,
    experiment_cost,
    optimal_counts,
    plan_from_design,
    plan_from_variances,
)
from ._suite import SuiteInterval, geometric_mean_ratio_ci

__version__ = "0.1.0"

__all__ = [
    "Benchmark",
    "Design",
    "DesignError",
    "Dimensioning",
    "EsizeError",
    "EsizeWarning",
    "InputError",
    "Interval",
    "Plan",
    "SuiteInterval",
    "UnitInfo",
    "VarianceComponents",
    "bootstrap_mean_ci",
    "bootstrap_ratio_ci",
    "critical_value",
    "delta_ci",
    "describe",
    "dimension",
    "dimension_for_plan",
    "experiment_cost",
    "fieller",
    "fieller_ci",
    "from_tidy",
    "geometric_mean_ratio_ci",
    "mean_ci",
    "means_from_indices",
    "mean_variance",
    "model_mean_variance",
    "optimal_counts",
    "parse_scheme",
    "percentile_interval",
    "plan_from_design",
    "plan_from_variances",
    "read_benchmarks",
    "resample_means",
    "s2",
    "t2",
    "variance_components",
    "verdict",
]
