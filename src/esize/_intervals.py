r"""Parametric confidence intervals: the mean of one system, the ratio of two, and
the geometric mean of a suite's ratios.

The mean interval is the asymptotic interval of the paper's Section "Confidence
Interval for the Mean of One System"; the ratio interval is Fieller's, from Section
"Confidence Interval for Ratio of Means", for independent systems, with the delta
method as a second parametric route. The suite's interval works on the logarithms
of the ratios (:func:`geometric_mean_ratio_parametric`).

Every function computes in units of a power of two that brings the data near 1
(see :mod:`esize._estimators`), so that no result depends on the unit of measure;
variances that are zero up to rounding are exactly zero, and two constant systems
have a point interval at their exact ratio. The two systems of a ratio each have
their own power of two: their means and variances meet only as relative quantities
(the ratio of the scaled means, relative variances :math:`v / \overline{Y}^2`), and
the ratio's power of two, :math:`2^{e_{new} - e_{old}}`, is applied last (exactly).
Scaling one system by any factor therefore scales the ratio and its limits by that
factor, from :math:`10^{-300}` to :math:`10^{300}`, until the ratio itself leaves
the range of floats.
"""

from __future__ import annotations

# The code lives in four modules, re-exported here (every name this module had is
# still importable from it): the Interval record, critical values and the mean's
# interval (_mean_ci), the ratio's degrees of freedom (_ratio_df), Fieller's and the
# delta method's ratio intervals (_ratio_ci), and a suite's geometric mean (_geomean_ci).
from ._geomean_ci import geometric_mean_limits, geometric_mean_ratio_parametric
from ._mean_ci import Interval, critical_value, mean_ci
from ._mean_ci import _check_alpha as _check_alpha
from ._mean_ci import _shifted as _shifted
from ._ratio_ci import _TINY as _TINY
from ._ratio_ci import _fieller_scalar as _fieller_scalar
from ._ratio_ci import _pair_stats as _pair_stats
from ._ratio_ci import (
    check_ratio_range,
    delta_ci,
    delta_ratio,
    fieller,
    fieller_ci,
    fieller_p_value,
)
from ._ratio_df import DF_QUANTILE as DF_QUANTILE
from ._ratio_df import DfRule, ratio_df, ratio_df_rule, ratio_dfs, welch_df

__all__ = [
    "Interval",
    "critical_value",
    "mean_ci",
    "fieller",
    "fieller_ci",
    "fieller_p_value",
    "delta_ratio",
    "delta_ci",
    "welch_df",
    "ratio_df",
    "ratio_df_rule",
    "ratio_dfs",
    "DfRule",
    "check_ratio_range",
    "geometric_mean_limits",
    "geometric_mean_ratio_parametric",
]
