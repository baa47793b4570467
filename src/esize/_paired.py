r"""The ratio of two systems measured in shared rounds: a paired interval.

When old and new are measured interleaved in the same rounds (``esize run``), round
:math:`r` gives each system a mean, :math:`\bar X_r` (old) and :math:`\bar Y_r` (new).
Whatever the machine did during the round (load, clock, temperature) multiplies
both, so the log ratio of the round,

.. math:: d_r = \log \bar Y_r - \log \bar X_r,

is free of it, and the :math:`d_r` of :math:`R` rounds are independent and equally
distributed when the order within each round is random. The interval for the ratio
is Student's on their mean, carried back by the exponential:

.. math:: \exp\Bigl(\bar d \pm t_{R-1,\,1-\alpha/2}\, s_d / \sqrt{R}\Bigr),

its estimate :math:`\exp(\bar d)`, the geometric mean of the rounds' ratios. It
needs no variance of either system apart: the rounds' drift is in neither the
estimate nor the interval, where Fieller's interval on the same data (rounds as
independent top-level units of each system) adds it to both variances and is the
wider for it.

References
----------
W. S. Gosset ("Student"), The probable error of a mean, *Biometrika* 6 (1908):
the paired t interval, here on the log scale.
"""

from __future__ import annotations

import math

import numpy as np

from ._design import Design
from ._errors import EsizeError
from ._intervals import _check_alpha
from ._mean_ci import Interval
from ._tdist import normal_quantile, t_quantile

__all__ = ["PAIRED_KINDS", "paired_ratio_ci", "round_log_ratios", "signed_rank_interval"]


def round_log_ratios(old: Design, new: Design) -> np.ndarray:
    """The log ratio of the new and old means of every shared top-level unit (round).

    Parameters
    ----------
    old, new : Design
        The two systems, their top level the rounds both were measured in, in the
        same order; below it any levels.

    Returns
    -------
    numpy.ndarray
        :math:`d_r = \\log \\bar Y_r - \\log \\bar X_r`, one per round.

    Raises
    ------
    EsizeError
        The systems have different numbers of rounds, or a round's mean is not
        positive.

    Examples
    --------
    >>> import esize as ez
    >>> from esize._paired import round_log_ratios
    >>> old = ez.Design([[10.0, 10.0], [20.0, 20.0]], ("round", "process"))
    >>> new = ez.Design([[11.0, 11.0], [22.0, 22.0]], ("round", "process"))
    >>> round_log_ratios(old, new).round(6).tolist()  # the round's drift is gone
    [0.09531, 0.09531]
    """
    if old.shape[0] != new.shape[0]:
        raise EsizeError(
            f"a paired comparison needs the same rounds in both systems: old has "
            f"{old.shape[0]} {old.levels[0]}s, new {new.shape[0]} {new.levels[0]}s")
    mo, mn = old.unit_means(old.levels[0]), new.unit_means(new.levels[0])
    if np.any(mo <= 0) or np.any(mn <= 0):
        raise EsizeError("a paired comparison needs positive measurements (times); a "
                         "round's mean is zero or negative")
    return np.log(mn) - np.log(mo)


def signed_rank_cdf(n: int) -> np.ndarray:
    r"""The null distribution of Wilcoxon's signed-rank statistic :math:`T^+` of ``n``
    values: ``cdf[k]`` :math:`= P(T^+ \le k)`, ``k = 0 .. n(n+1)/2``, exactly (by
    counting the subsets of ranks of each sum).

    Examples
    --------
    >>> from esize._paired import signed_rank_cdf
    >>> c = signed_rank_cdf(5)
    >>> len(c), float(c[0] * 32), round(float(c[-1]), 12)  # P(T+ = 0) = 1/32
    (16, 1.0, 1.0)
    """
    m = n * (n + 1) // 2
    counts = np.zeros(m + 1)
    counts[0] = 1.0
    for r in range(1, n + 1):  # one pass per rank (n <= MAX_EXACT), vectorised over sums
        counts[r:] = counts[r:] + counts[:-r].copy()
        counts /= 2.0  # kept as probabilities: no overflow at large n
    return np.cumsum(counts)


#: Rounds up to which the signed-rank interval uses the exact distribution; above,
#: the normal approximation with continuity correction.
MAX_EXACT = 200
#: Rounds at most for the signed-rank interval: its n(n+1)/2 Walsh averages are held
#: in memory (2,001,000 at this size, 16 MB).
MAX_SIGNED_RANK = 2000


def _signed_rank_depth(n: int, alpha: float) -> int:
    r"""The ``k`` of the interval ``[A_(k), A_(M+1-k)]`` of the sorted Walsh averages:
    the largest with :math:`P(T^+ \le k - 1) \le \alpha/2`; 0 when no interval
    at this level exists (too few values)."""
    if n <= MAX_EXACT:
        cdf = signed_rank_cdf(n)
        return int(np.searchsorted(cdf, alpha / 2 * (1 + 1e-12), side="right"))
    m = n * (n + 1) / 2
    sd = math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    return max(0, int(math.floor(m / 2 - normal_quantile(1 - alpha / 2) * sd - 0.5)) + 1)


def signed_rank_interval(d: np.ndarray, alpha: float) -> tuple[float, float, float, bool]:
    """Hodges and Lehmann's estimate of the centre of symmetry of ``d`` and the
    Wilcoxon signed-rank interval around it: (estimate, lower, upper, bounded).

    Examples
    --------
    >>> import numpy as np
    >>> from esize._paired import signed_rank_interval
    >>> d = np.array([0.07, 0.024, 0.054, 0.044, 0.9, 0.048, 0.03, 0.048, 0.041, 0.083,
    ...               0.052, 0.046])  # 12 rounds, one of them wild
    >>> est, lo, hi, ok = signed_rank_interval(d, 0.05)
    >>> round(est, 4), round(lo, 4), round(hi, 4), ok
    (0.05, 0.039, 0.0765, True)
    >>> from scipy import stats  # Student's interval on the same values
    >>> [round(float(x), 4) for x in stats.ttest_1samp(d, 0).confidence_interval()]
    [-0.0364, 0.2764]
    """
    n = d.size
    if n > MAX_SIGNED_RANK:
        raise EsizeError(f"the signed-rank interval takes at most {MAX_SIGNED_RANK} rounds, "
                         f"got {n}; use the t interval")
    i, j = np.triu_indices(n)
    walsh = np.sort((d[i] + d[j]) / 2.0)
    est = float(np.median(walsh))
    k = _signed_rank_depth(n, alpha)
    if k < 1:
        return est, -math.inf, math.inf, False
    return est, float(walsh[k - 1]), float(walsh[walsh.size - k]), True


#: The paired intervals: Student's on the mean log ratio, Wilcoxon's on its centre.
PAIRED_KINDS = ("t", "signed-rank")


def paired_ratio_ci(old: Design, new: Design, *, alpha: float = 0.05,
                    normal: bool = False, kind: str = "t") -> Interval:
    r"""Confidence interval for the ratio new/old of two systems measured in the same
    rounds: Student's interval on the rounds' log ratios (the module's text).

    Parameters
    ----------
    old, new : Design
        The systems; their top-level units are the shared rounds, in the same order.
    alpha : float, default 0.05
        One minus the confidence level.
    normal : bool, default False
        The normal quantile instead of Student's with :math:`R - 1` degrees of freedom.
    kind : {"t", "signed-rank"}, default "t"
        ``"signed-rank"``: Hodges and Lehmann's estimate and Wilcoxon's signed-rank
        interval of the :math:`d_r` (exact up to :data:`MAX_EXACT` rounds), carried
        back by the exponential. With old and new in a random order within every
        round the :math:`d_r` are symmetric around the log ratio whatever the drift
        did, so the interval holds its level where a round caught a change of load
        halfway (a wild :math:`d_r` that widens Student's interval a great deal);
        it needs 6 rounds for a bounded 95 % interval.

    Returns
    -------
    Interval
        Method ``"paired-t"`` (``"paired-normal"``, ``"paired-signed-rank"``);
        ``extra`` holds ``rounds``, ``df`` (``R - 1``) and ``sd_log`` (the rounds'
        standard deviation of :math:`d_r`). With too few rounds the interval is
        unbounded.

    Examples
    --------
    Five rounds in which the machine drifted by up to 40 %; new is 5 % slower in
    every one of them, give or take 1 %:

    >>> import esize as ez
    >>> drift = [1.0, 1.4, 1.1, 0.9, 1.2]
    >>> noise = [1.00, 1.01, 0.99, 1.00, 1.01]
    >>> old = ez.Design([[10 * d] for d in drift], ("round", "process"))
    >>> new = ez.Design([[10.5 * d * e] for d, e in zip(drift, noise)], ("round", "process"))
    >>> iv = ez.paired_ratio_ci(old, new)
    >>> round(iv.estimate, 4), round(iv.lower, 4), round(iv.upper, 4), iv.extra["df"]
    (1.0521, 1.0412, 1.063, 4)
    >>> fieller = ez.fieller_ci(old, new)  # the drift is in both variances
    >>> round(fieller.lower, 3), round(fieller.upper, 3)
    (0.802, 1.379)
    """
    alpha = _check_alpha(alpha)
    if kind not in PAIRED_KINDS:
        raise EsizeError(f"paired interval: {kind!r} is not one of {', '.join(PAIRED_KINDS)}")
    d = round_log_ratios(old, new)
    r = d.size
    if kind == "signed-rank":
        est_log, lo, hi, ok = signed_rank_interval(d, alpha)
        sd = float(d.std(ddof=1)) if r > 1 else math.nan
        return Interval(math.exp(est_log), math.exp(lo) if ok else -math.inf,
                        math.exp(hi) if ok else math.inf, alpha, "paired-signed-rank", ok,
                        extra={"rounds": r, "df": r - 1, "sd_log": sd})
    method = "paired-normal" if normal else "paired-t"
    mean = float(d.mean())
    est = math.exp(mean)
    if r < 2:
        return Interval(est, -math.inf, math.inf, alpha, method, False,
                        extra={"rounds": r, "df": 0, "sd_log": math.nan})
    sd = float(d.std(ddof=1))
    q = normal_quantile(1 - alpha / 2) if normal else t_quantile(1 - alpha / 2, r - 1)
    half = q * sd / math.sqrt(r)
    return Interval(est, math.exp(mean - half), math.exp(mean + half), alpha, method, True,
                    extra={"rounds": r, "df": r - 1, "sd_log": sd})
