"""esize: effect-size confidence intervals for performance comparison.

An implementation of T. Kalibera and R. Jones, "Quantifying Performance Changes with
Effect Size Confidence Intervals": the n-level random-effects model, per-level
variance estimates, optimal repetition counts, parametric (t / normal, Fieller,
delta) and hierarchical bootstrap confidence intervals, and threshold decisions.

The statistics live in private modules (``esize._design``, ``_estimators``,
``_intervals``, ``_bootstrap``, ``_planning``, ``_decision``, ``_warmup``,
``_errors``) and are used from here. Public modules: :mod:`esize.readers` (harness
result files), :mod:`esize.compare` (the comparison of two systems, as ``esize
compare`` does it), :mod:`esize.text`, :mod:`esize.plots` and :mod:`esize.io` (text,
figures and safe output); the command line is :mod:`esize.cli`. Importing ``esize``
loads numpy only; planning and warm-up load their modules on first use. (The
comparison is imported from :mod:`esize.compare`, not from here: the study's code
hashes follow every import this module names, and a simulation does not depend on
the readers the comparison needs.)
"""

from typing import TYPE_CHECKING

from ._bootstrap import (
    BootstrapResult,
    SuiteInterval,
    bootstrap_mean_ci,
    bootstrap_ratio_ci,
    geometric_mean_ratio_ci,
    means_from_indices,
    minimum_resamples,
    parse_scheme,
    percentile_interval,
    resample_means,
    tuple_sums,
)
from ._decision import (
    MIN_BOOTSTRAP_UNITS,
    Verdict,
    benjamini_hochberg,
    describe,
    verdict,
    verdict_obstacle,
)
from ._design import Design, from_tidy
from ._errors import DesignError, EsizeError, EsizeWarning, InputError
from ._estimators import (
    RELATIVE_TOLERANCE,
    VarianceComponents,
    mean_variance,
    model_mean_variance,
    s2,
    t2,
    variance_components,
)
from ._intervals import (
    DfRule,
    Interval,
    critical_value,
    delta_ci,
    fieller,
    fieller_ci,
    fieller_p_value,
    geometric_mean_limits,
    geometric_mean_ratio_parametric,
    mean_ci,
    ratio_df_rule,
    ratio_dfs,
    welch_df,
)
from ._mixed import mixed_ratio_ci
from ._paired import paired_ratio_ci
from ._streams import benchmark_key, benchmark_seed

if TYPE_CHECKING:  # for type checkers and editors; at run time see __getattr__ below
    from types import ModuleType

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
    from ._warmup import SteadyState, WarmupReport, auto_warmup, detect_steady_state

__version__ = "0.3.0"

#: Names loaded on first use: planning and warm-up detection are not needed to compare
#: two files, and their modules add a few milliseconds to every start of the command line.
_PLANNING = ("Dimensioning", "Plan", "dimension", "dimension_for_plan", "experiment_cost",
             "optimal_counts", "plan_from_design", "plan_from_variances")
_WARMUP = ("SteadyState", "WarmupReport", "auto_warmup", "detect_steady_state")


def __getattr__(name: str):
    # literal imports, so that the study's code hashes (which read the imports off the
    # source) see exactly these two modules, not the whole package
    module: ModuleType
    if name in _PLANNING:
        from . import _planning as module
    elif name in _WARMUP:
        from . import _warmup as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value  # the next lookup does not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PLANNING) | set(_WARMUP))

__all__ = [
    # data
    "Design",
    "from_tidy",
    # variance components (Section "Estimating Unknown Variances")
    "VarianceComponents",
    "variance_components",
    "s2",
    "t2",
    "mean_variance",
    "model_mean_variance",
    "RELATIVE_TOLERANCE",
    # parametric intervals
    "Interval",
    "critical_value",
    "mean_ci",
    "fieller",
    "fieller_ci",
    "fieller_p_value",
    "delta_ci",
    "geometric_mean_limits",
    "geometric_mean_ratio_parametric",
    "welch_df",
    "ratio_df_rule",
    "ratio_dfs",
    "DfRule",
    "paired_ratio_ci",
    "mixed_ratio_ci",
    # bootstrap
    "BootstrapResult",
    "SuiteInterval",
    "parse_scheme",
    "resample_means",
    "bootstrap_mean_ci",
    "bootstrap_ratio_ci",
    "geometric_mean_ratio_ci",
    "percentile_interval",
    "minimum_resamples",
    "means_from_indices",
    "tuple_sums",
    "benchmark_key",
    "benchmark_seed",
    # planning (Sections "Experiment Planning", "Dimensioning the Experiments")
    "Plan",
    "Dimensioning",
    "optimal_counts",
    "plan_from_design",
    "plan_from_variances",
    "experiment_cost",
    "dimension",
    "dimension_for_plan",
    # decisions
    "Verdict",
    "verdict",
    "verdict_obstacle",
    "MIN_BOOTSTRAP_UNITS",
    "benjamini_hochberg",
    "describe",
    # errors and notes
    "EsizeError",
    "DesignError",
    "InputError",
    "EsizeWarning",
    # warm-up inside the values (changepoints; needs the ruptures package)
    "SteadyState",
    "WarmupReport",
    "detect_steady_state",
    "auto_warmup",
]
