"""The paper's worked examples as printed (Section "For Practitioners: The New Method
without Statistics"): the data of Tables tWEData, tWQEData and tWQEBoot, and the values
the paper prints for them (:data:`PRINTED`). Recomputed by
:func:`esize_study.estimate.examples.worked_examples`.
"""

from __future__ import annotations

__all__ = ["LEVELS", "WE_DATA", "WQE_OLD", "WQE_NEW", "WQE_BOOT", "PRINTED"]

#: Levels of the examples' designs, highest first.
LEVELS = ("binary", "execution", "measurement")
WE_DATA = [[[9, 5], [8, 3]], [[10, 6], [7, 11]], [[1, 12], [2, 4]]]
WQE_OLD = [[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]]
WQE_NEW = [[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]]
#: tWQEBoot replicates, binary -> execution -> measurements, as printed.
WQE_BOOT = [
    [[[9, 11], [5, 5]], [[12, 8], [8, 12]], [[9, 9], [11, 9]]],
    [[[14, 10], [15, 7]], [[13, 13], [8, 12]], [[8, 8], [16, 13]]],
    [[[7, 7], [15, 15]], [[11, 11], [9, 11]], [[9, 9], [9, 9]]],
]

#: The values the paper prints, by table (rounded as printed).
PRINTED = {
    "tWEData": {"S3_sq": 3.6, "S2_sq": 2.6, "S1_sq": 16.5, "grand_mean": 6.5,
                "T2_sq": -5.7, "T3_sq": 2.3},
    "tWE2Data": {"S2_sq": 3.6, "S1_sq": 12.7, "T2_sq": 0.4, "n1": 18},
    "tWQEData": {"old_mean": 10.5, "old_ci_half_width": 6.0, "t_quantile_2df": 4.3,
                 "S3_sq_old": 5.8, "S3_sq_new": 4.6, "fieller": [0.1, 1.7]},
    "tWQEBoot": {"replicate_means": [9.0, 11.4, 10.2]},
}
