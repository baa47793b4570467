"""The paper's worked examples recomputed with the library (``worked_examples.json``)."""

from __future__ import annotations

import copy
import math

import numpy as np

from esize import (
    Design,
    critical_value,
    fieller_ci,
    mean_ci,
    means_from_indices,
    optimal_counts,
    plan_from_design,
    variance_components,
)

from ..paper.examples import LEVELS as _LEVELS3
from ..paper.examples import PRINTED, WE_DATA, WQE_BOOT, WQE_NEW, WQE_OLD

__all__ = ["worked_examples"]


def worked_examples() -> dict:
    """Every number of the paper's worked examples, recomputed.

    The examples are those of Section "For Practitioners: The New Method without
    Statistics" (Tables tWEData, tWE2Data, tWQEData and tWQEBoot).
    """
    we = Design(WE_DATA, _LEVELS3)
    vc = variance_components(we)
    two = we.merge("execution")
    vc2 = variance_components(two)
    plan = plan_from_design(we, [300.0, 10.0], dropped_cost="replace")
    exact_n1 = math.sqrt(10 * vc2.T2[1] / vc2.T2[0])
    old, new = Design(WQE_OLD, _LEVELS3), Design(WQE_NEW, _LEVELS3)
    ci = mean_ci(old)
    # the paper's rule for two equal designs: Student's t on n - 1 degrees of freedom
    # (esize itself now uses Welch's for every design)
    fi = fieller_ci(old, new, df=old.shape[0] - 1)
    vo, vn = variance_components(old), variance_components(new)
    # replicate 1 of tWQEBoot from the indices the text states (0-based)
    rep1 = means_from_indices(
        old,
        "RRR",
        [
            np.array([[[0, 1, 0]]]),
            np.array([[[0, 1], [1, 1], [0, 0]]]),
            np.array([[[0, 1], [0, 0], [0, 1], [1, 0], [0, 0], [1, 0]]]),
        ],
    )[0]
    return {
        "tWEData": {
            "S3_sq": vc.S2[0],
            "S2_sq": vc.S2[1],
            "S1_sq": vc.S2[2],
            "grand_mean": vc.mean,
            "T3_sq": vc.T2[0],
            "T2_sq": vc.T2[1],
            "T1_sq": vc.T2[2],
            "dropped": list(plan.dropped),
        },
        "tWE2Data": {
            "S2_sq": vc2.S2[0],
            "S1_sq": vc2.S2[1],
            "T2_sq": vc2.T2[0],
            "T1_sq": vc2.T2[1],
            "c1": 10,
            "n1_exact_sqrt": exact_n1,
            "n1": plan.counts["measurement"],
            "n1_paper_rounding": int(optimal_counts([0.4, 12.7], [10])[0]),
            "note": (
                "The paper prints n1 = 18: it rounds T1^2 to 12.7 and T2^2 to 0.4 "
                "before the square root (sqrt(10*12.7/0.4) = 17.8). With the exact "
                f"estimates sqrt(10*{vc2.T2[1]:.4f}/{vc2.T2[0]:.4f}) = {exact_n1:.2f}, "
                "which rounds up to 19."
            ),
        },
        "tWQEData": {
            "old_mean": ci.estimate,
            "new_mean": new.mean,
            "t_quantile_2df": critical_value(0.05, 2),
            "old_ci_half_width": ci.half_width,
            "old_ci": [ci.lower, ci.upper],
            "S3_sq_old": vo.S2[0],
            "S3_sq_new": vn.S2[0],
            "ratio": fi.estimate,
            "fieller": [fi.lower, fi.upper],
        },
        "paper": copy.deepcopy(PRINTED),
        "tWQEBoot": {
            "replicate1_binaries": [1, 2, 1],
            "replicate1_mean_from_indices": float(rep1),
            "replicate_means": [float(np.mean(r)) for r in WQE_BOOT],
        },
    }
