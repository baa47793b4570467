"""Threshold decisions on a confidence interval for the ratio new/old, and the
ratio in words (:func:`describe`: percentages while every value is within a factor 1.5
of no change, factors for the whole sentence once one is not).

A ratio below 1 means the new system takes less time (it is faster) when the
measured quantity is a time; for rates (higher is better) the words swap, which
``lower_is_better=False`` expresses.
"""

from __future__ import annotations

import enum
import math

import numpy as np

from ._errors import EsizeError
from ._estimators import RELATIVE_TOLERANCE

__all__ = ["Verdict", "verdict", "verdict_obstacle", "describe", "wording_note",
           "number_text", "MIN_BOOTSTRAP_UNITS", "MIN_BOOTSTRAP_UNITS_BY_INTERVAL",
           "DEFAULT_BOOTSTRAP_INTERVAL", "benjamini_hochberg"]


class Verdict(enum.StrEnum):
    """What an interval for the ratio new/old says against a threshold.

    A string enumeration: a member equals its word (``Verdict.FASTER == "faster"``),
    prints as it and is written to JSON as it, so the words in the command line's
    text, JSON and markdown are these values and nothing else.

    Examples
    --------
    >>> Verdict.FASTER == "faster", f"{Verdict.SAME}"
    (True, 'same')
    >>> [v.value for v in Verdict if v.resolved]
    ['faster', 'slower']
    >>> Verdict("inconclusive").resolved
    False
    """

    #: new clearly better than old by more than the threshold
    FASTER = "faster"
    #: new clearly worse than old by more than the threshold
    SLOWER = "slower"
    #: the whole interval within the threshold of no change
    SAME = "same"
    #: none of these: the interval straddles a boundary, is unbounded, or is not
    #: known to cover
    INCONCLUSIVE = "inconclusive"

    @property
    def resolved(self) -> bool:
        """True for a change in one direction (faster or slower)."""
        return self is Verdict.FASTER or self is Verdict.SLOWER


#: every verdict word, in the order of :class:`Verdict`
VERDICTS = tuple(v.value for v in Verdict)

#: The fewest top-level units (in the system with fewer) from which each kind of
#: bootstrap interval of a ratio draws a verdict, as measured by rule R7a
#: (``benchmarks/prereg/2026-11-29-r7-bootstrap-floor.md``, judged run in
#: ``benchmarks/results/2026-11-29-r7-bootstrap-floor.json``; checked against it by
#: ``tests/test_bootstrap_floor.py``): from there on, the 95 % interval's coverage was
#: not below 94.5 % beyond 2 Monte Carlo SE in any scenario (2 x units x 10 log-normal
#: designs; top sd 1 % or 30 %, spread 10x on one side). The expanded percentile
#: interval qualified from 4 units, the smallest measured (95.5-99.7 % there); the BCa
#: interval nowhere up to 20 units (85-92 % with a skewed top level), so it draws no
#: verdict (None).
MIN_BOOTSTRAP_UNITS_BY_INTERVAL: dict[str, int | None] = {"expanded": 4, "bca": None}

#: The interval kind ``esize compare`` bootstraps with: the one with the lower measured
#: floor (R7b; ``expanded`` on a tie).
DEFAULT_BOOTSTRAP_INTERVAL = "expanded"

#: Fewer top-level units than this (in the system with fewer), and the bootstrap
#: interval of the default kind draws no verdict: its coverage is not measured there
#: (the plain percentile interval's, when the top level carries the variance: 80-83 %
#: at 2 units, 87-88 % at 3).
_DEFAULT_FLOOR = MIN_BOOTSTRAP_UNITS_BY_INTERVAL[DEFAULT_BOOTSTRAP_INTERVAL]
if _DEFAULT_FLOOR is None:  # pragma: no cover - a guard on the two constants above
    raise RuntimeError("the default bootstrap interval must have a measured floor")
MIN_BOOTSTRAP_UNITS: int = _DEFAULT_FLOOR

#: A suite's geometric mean keeps the plain percentile bootstrap interval, which R7 did
#: not measure (91-93 % at 5 units): below this many units its caveat stays.
SUITE_BOOTSTRAP_UNITS = 10


def verdict_obstacle(
    *,
    method: str = "fieller",
    top_units: int | None = None,
    unobserved_top: str | None = None,
    assume_no_fork_variance: bool = False,
    assume_bootstrap_covers: bool = False,
    bootstrap_interval: str | None = None,
) -> str | None:
    """Why an interval cannot support a verdict, or None when it can.

    An interval supports a verdict only where it is known to cover the ratio about
    as often as it claims. Two cases are known not to:

    * the data held a single unit of their highest level (one fork, one process)
      and that level was dropped: the variation between such units is not in the
      interval, which is then too narrow whenever they differ (one fork of 20
      iterations against one, fork sd 1 % and iteration sd 3 %: 73 % coverage, and
      a change claimed at a true ratio 1 in 27 % of runs, figure F1 of
      ``benchmarks/bench_stats_round3.py``); the same holds where a format pools
      its processes (asv) or holds one (Google Benchmark, criterion, ...);
    * a percentile bootstrap interval resting on fewer than
      :data:`MIN_BOOTSTRAP_UNITS` top-level units, where its coverage is not known
      (the floor of each interval kind: :data:`MIN_BOOTSTRAP_UNITS_BY_INTERVAL`).

    Parameters
    ----------
    method : str, default "fieller"
        The interval's method: ``"bootstrap"`` (or any name starting with it) for a
        percentile bootstrap interval; anything else is parametric.
    top_units : int, optional
        Top-level units of the system with fewer (unknown: no bootstrap rule).
    unobserved_top : str, optional
        The level (``"fork"``, ``"process"``) of which a system held one unit, so
        that it is not in the design; None when every level was observed.
    assume_no_fork_variance : bool, default False
        Assume the unobserved level adds no variance (its units would not differ),
        and decide anyway.
    assume_bootstrap_covers : bool, default False
        Assume the bootstrap interval covers despite few units, and decide anyway.
    bootstrap_interval : {"expanded", "bca"}, optional
        The bootstrap interval's kind (default :data:`DEFAULT_BOOTSTRAP_INTERVAL`),
        whose floor :data:`MIN_BOOTSTRAP_UNITS_BY_INTERVAL` applies; a kind without a
        measured floor draws no verdict.

    Returns
    -------
    str or None
        The reason, a phrase to follow "no verdict: ".

    Examples
    --------
    >>> verdict_obstacle(method="bootstrap", top_units=4) is None
    True
    >>> verdict_obstacle(method="bootstrap", top_units=3)
    'the bootstrap interval rests on 3 top-level units, fewer than 4, and is then not known to cover'
    >>> verdict_obstacle(method="bootstrap", top_units=30, bootstrap_interval="bca")
    'the bca bootstrap interval has no measured floor of top-level units at which it ...'
    >>> verdict_obstacle(unobserved_top="fork")
    'the forks of a system are not observed apart (a single fork, or forks pooled), so ...'
    """
    if unobserved_top is not None and not assume_no_fork_variance:
        many = _plural(unobserved_top)
        return (f"the {many} of a system are not observed apart (a single {unobserved_top}, "
                f"or {many} pooled), so the interval leaves out the variation between "
                f"{many} and may be far too narrow")
    if (str(method).startswith("bootstrap") and top_units is not None
            and not assume_bootstrap_covers):
        kind = bootstrap_interval or DEFAULT_BOOTSTRAP_INTERVAL
        floor = MIN_BOOTSTRAP_UNITS_BY_INTERVAL.get(kind)
        if floor is None:
            return (f"the {kind} bootstrap interval has no measured floor of top-level "
                    "units at which it covers (none up to 20), so it draws no verdict")
        if top_units < floor:
            return (f"the bootstrap interval rests on {top_units} top-level units, fewer "
                    f"than {floor}, and is then not known to cover")
    return None


def benjamini_hochberg(p_values, q: float = 0.05) -> np.ndarray:
    r"""Which hypotheses Benjamini and Hochberg's step-up rule rejects at false
    discovery rate ``q``.

    With the :math:`m` p-values sorted, :math:`p_{(1)} \le \dots \le p_{(m)}`, the
    rule finds the largest :math:`k` with :math:`p_{(k)} \le k q / m` and rejects
    the :math:`k` smallest. For independent (or positively dependent) tests the
    expected share of true hypotheses among those rejected is at most
    :math:`q m_0 / m \le q` (Benjamini & Hochberg 1995; Benjamini & Yekutieli
    2001). When every hypothesis holds, the chance of rejecting any is at most
    ``q``, where each test at level ``q`` would reject some :math:`q m` of them.

    Parameters
    ----------
    p_values : array_like
        One p-value per hypothesis, in [0, 1]; NaN (no test) is never rejected and
        does not count in :math:`m`.
    q : float, default 0.05
        The false discovery rate, in (0, 1).

    Returns
    -------
    ndarray of bool
        True where the hypothesis is rejected, in the order of ``p_values``.

    Examples
    --------
    >>> from esize import benjamini_hochberg
    >>> benjamini_hochberg([0.001, 0.04, 0.03, 0.5], q=0.05).tolist()
    [True, False, False, False]
    >>> benjamini_hochberg([0.01, 0.02, 0.03, 0.04], q=0.05).tolist()
    [True, True, True, True]
    """
    from ._mean_ci import _check_alpha

    q = _check_alpha(q)
    p = np.asarray(p_values, dtype=np.float64).ravel()
    tested = ~np.isnan(p)
    if np.any((p[tested] < 0) | (p[tested] > 1)):
        raise EsizeError("p_values must lie in [0, 1]")
    out = np.zeros(p.shape, dtype=bool)
    m = int(tested.sum())
    if m == 0:
        return out
    idx = np.flatnonzero(tested)
    order = idx[np.argsort(p[idx], kind="stable")]
    below = p[order] <= q * np.arange(1, m + 1) / m
    if below.any():
        k = int(np.flatnonzero(below)[-1]) + 1
        out[order[:k]] = True
    return out


def _plural(word: str) -> str:
    """``fork`` -> ``forks``, ``process`` -> ``processes``."""
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def check_threshold(threshold: float) -> float:
    """``threshold`` as a float, or :class:`EsizeError` unless it lies in [0, 1).

    Examples
    --------
    >>> check_threshold(0.02)
    0.02
    >>> check_threshold(1)
    Traceback (most recent call last):
    ...
    esize._errors.EsizeError: threshold must lie in [0, 1), got 1
    """
    t = float(threshold)
    if not (math.isfinite(t) and 0.0 <= t < 1.0):
        raise EsizeError(f"threshold must lie in [0, 1), got {threshold}")
    return t


def verdict(
    lower: float,
    upper: float,
    threshold: float = 0.0,
    *,
    bounded: bool = True,
    lower_is_better: bool = True,
    method: str = "fieller",
    top_units: int | None = None,
    unobserved_top: str | None = None,
    assume_no_fork_variance: bool = False,
    assume_bootstrap_covers: bool = False,
    bootstrap_interval: str | None = None,
) -> Verdict:
    r"""Classify a ratio CI against a relative threshold ``t``.

    * ``"faster"`` if ``upper < 1 - t`` (for times: new clearly below old),
    * ``"slower"`` if ``lower > 1 + t``,
    * ``"same"`` if ``t > 0`` and the CI lies within ``[1 - t, 1 + t]``,
    * ``"inconclusive"`` otherwise, for an unbounded interval, and for an interval
      not known to cover (:func:`verdict_obstacle` of ``method``, ``top_units``,
      ``unobserved_top`` and the two ``assume_*`` flags, which it takes as
      keywords: one fork or process per system, or a bootstrap interval on fewer
      than :data:`MIN_BOOTSTRAP_UNITS` top-level units).

    With ``lower_is_better=False`` (rates such as throughput) "faster" and
    "slower" swap.

    Limits that differ from a boundary :math:`1 \mp t` by no more than a relative
    :math:`10^{-12}` (:data:`esize._estimators.RELATIVE_TOLERANCE`, the tolerance
    below which variances are zero) count as lying on it, and the boundary belongs
    to ``[1 - t, 1 + t]``. A change of exactly the threshold, such as two constant
    systems 10 and 9.8 at ``t = 0.02``, is therefore ``"same"`` whatever the last
    bit of the computed ratio, and a ratio of 1 up to rounding is never a change.

    Parameters
    ----------
    lower, upper : float
        The interval's limits.
    threshold : float, default 0.0
        The smallest relative change that matters, in [0, 1).
    bounded : bool, default True
        False for an unbounded interval (always ``"inconclusive"``).
    lower_is_better : bool, default True
        True for times, False for rates.
    method, top_units, unobserved_top, assume_no_fork_variance, assume_bootstrap_covers
        What :func:`verdict_obstacle` needs to know; the defaults (a parametric
        interval, every level observed) never stand in the way, so a call with the
        limits alone classifies them as before.
    bootstrap_interval : {"expanded", "bca"}, optional
        The bootstrap interval's kind, whose unit floor applies (:func:`verdict_obstacle`).

    Returns
    -------
    Verdict
        A string enumeration: it compares equal to its word.

    Examples
    --------
    >>> verdict(0.93, 0.97)
    <Verdict.FASTER: 'faster'>
    >>> verdict(0.99, 1.01, 0.02), verdict(0.97, 1.01, 0.02)
    (<Verdict.SAME: 'same'>, <Verdict.INCONCLUSIVE: 'inconclusive'>)
    >>> verdict(1.05, 1.08, lower_is_better=False)  # a rate went up
    <Verdict.FASTER: 'faster'>
    >>> verdict(0.93, 0.97, unobserved_top="fork")  # one fork per system
    <Verdict.INCONCLUSIVE: 'inconclusive'>
    """
    t = check_threshold(threshold)
    if not bounded or not (math.isfinite(lower) and math.isfinite(upper)):
        return Verdict.INCONCLUSIVE
    if verdict_obstacle(method=method, top_units=top_units, unobserved_top=unobserved_top,
                        assume_no_fork_variance=assume_no_fork_variance,
                        assume_bootstrap_covers=assume_bootstrap_covers,
                        bootstrap_interval=bootstrap_interval) is not None:
        return Verdict.INCONCLUSIVE
    low_edge = (1.0 - t) * (1.0 - RELATIVE_TOLERANCE)  # below it: clearly under 1 - t
    high_edge = (1.0 + t) * (1.0 + RELATIVE_TOLERANCE)  # above it: clearly over 1 + t
    if upper < low_edge:
        down = True
    elif lower > high_edge:
        down = False
    elif t > 0.0 and lower >= low_edge and upper <= high_edge:
        return Verdict.SAME
    else:
        return Verdict.INCONCLUSIVE
    return Verdict.FASTER if down == lower_is_better else Verdict.SLOWER


def describe(
    ratio: float,
    lower: float,
    upper: float,
    alpha: float = 0.05,
    *,
    bounded: bool = True,
    lower_is_better: bool = True,
) -> str:
    """The ratio new/old and its interval in words.

    Parameters
    ----------
    ratio : float
        Point estimate of the ratio new/old of the measured quantity.
    lower, upper : float
        Limits of its confidence interval (infinite, zero or negative limits are
        allowed; they are put in order if given the wrong way round).
    alpha : float, default 0.05
        One minus the confidence level.
    bounded : bool, default True
        False when the interval is unbounded (Fieller's interval when the old mean
        is not distinguishable from zero): the sentence then gives the ratio only.
    lower_is_better : bool, default True
        True for times (a ratio below 1 is faster), False for rates such as
        throughput (a ratio above 1 is faster).

    Returns
    -------
    str
        For example ``"new is 5.50 % faster (95 % CI 3.00 % .. 8.00 %)"``,
        ``"new is 15.8x faster (95 % CI 14.9x .. 16.7x)"`` or
        ``"new is 3.10 % faster (95 % CI 1.20 % slower .. 7.50 % faster)"``.

    Notes
    -----
    The three values (estimate, then the limit least in the estimate's direction,
    then the one most in it) are worded in one unit, so that an interval never
    runs from a percentage to a factor:

    * while all three are changes of less than a factor :data:`FACTOR_WORDING` (1.5),
      each is a percentage of
      the old value of the measured quantity: for times, "x % faster" is
      ``1 - ratio`` (x % less time) and "x % slower" is ``ratio - 1`` (x % more
      time); for rates, "x % faster" is ``ratio - 1`` (x % more operations per
      unit of time) and "x % slower" is ``1 - ratio``;
    * once one of them is a change of a factor 1.5 or more (or unbounded), each is a
      factor, the larger of the two values over the smaller, as pyperf and hyperfine
      word it: for times "Nx faster" is ``1 / ratio`` and "Nx slower" is ``ratio``;
      for rates the other way round.
      A time that went from 100 to 64 with an interval reaching 0.457 reads "1.56x
      faster (95 % CI 1.02x .. 2.19x)", not "35.82 % faster (95 % CI 1.52 % ..
      2.19x)".

    The two meet at the factor 1.5: a time ratio of 0.6 is "1.67x faster", 0.7 is
    "30.00 % faster" (30 % less time), so the percentages of "faster" times stay
    below 33.4 %; a time ratio of 1.49 is "49.00 % slower" and 1.5 is "1.50x
    slower". A ratio within a relative :math:`10^{-12}` of 1 is "no
    change" (the estimate reads "the same as old") in either unit. A limit at zero
    or below (times) or at infinity reads "∞x": the data cannot bound the change
    in that direction.

    When both limits lie on the estimate's side of 1 the word is said once,
    after the estimate; otherwise every value carries its own word. A NaN or
    negative estimate, or a NaN limit, is reported as undefined rather than given a
    direction.

    Examples
    --------
    >>> describe(0.945, 0.93, 0.96, 0.05)
    'new is 5.50 % faster (95 % CI 4.00 % .. 7.00 %)'
    >>> describe(1.031, 1.01, 1.05, 0.05)
    'new is 3.10 % slower (95 % CI 1.00 % .. 5.00 %)'
    """
    conf = f"{100 * (1 - alpha):g} %"
    if not bounded:
        return f"ratio new/old = {number_text(ratio)}; the {conf} interval is unbounded"
    if math.isnan(ratio) or ratio < 0.0:
        return f"ratio new/old = {number_text(ratio)}: the change is undefined"
    if math.isnan(lower) or math.isnan(upper):
        amount, word = _change(ratio, lower_is_better)
        head = "new is the same as old" if word == _NO_CHANGE else f"new is {amount} {word}"
        return f"{head} ({conf} CI undefined)"
    lo, hi = sorted((lower, upper))
    factors = any(_large(r) for r in (ratio, lo, hi))  # one unit for the whole sentence
    amount, word = _change(ratio, lower_is_better, factors)
    head = "new is the same as old" if word == _NO_CHANGE else f"new is {amount} {word}"
    # least in the estimate's direction first: for a time that got faster, the
    # upper limit of the ratio is the smaller speed-up
    towards_lower = (word == "faster") == lower_is_better
    first, second = (hi, lo) if word != _NO_CHANGE and towards_lower else (lo, hi)
    a1, w1 = _change(first, lower_is_better, factors)
    a2, w2 = _change(second, lower_is_better, factors)
    if word != _NO_CHANGE and w1 == w2 == word:
        return f"{head} ({conf} CI {a1} .. {a2})"
    if w1 == w2 == _NO_CHANGE:
        return f"{head} ({conf} CI no change at either limit)"
    return f"{head} ({conf} CI {_phrase(a1, w1)} .. {_phrase(a2, w2)})"


_NO_CHANGE = "no change"


def wording_note(*, lower_is_better: bool = True) -> str:
    """One line saying what the percentages and factors of :func:`describe` mean.

    Parameters
    ----------
    lower_is_better : bool, default True
        True for times, False for rates (higher is better).

    Returns
    -------
    str
        A legend to print under a table of descriptions.
    """
    if lower_is_better:
        return ("for times, x % faster (slower) means x % less (more) time than old, "
                "and Nx faster (slower) N times less (more) time; a description is in "
                "factors when any of its values is 1.5x or more")
    return ("for rates, x % faster (slower) means an x % higher (lower) rate than old, "
            "and Nx faster (slower) an N times higher (lower) rate; a description is "
            "in factors when any of its values is 1.5x or more")


def number_text(x: float, decimals: int = 4) -> str:
    """A number for a sentence or a table cell: ``decimals`` places between 0.01 and
    10,000, six significant digits (with an exponent where needed) beyond.

    Parameters
    ----------
    x : float
        The number (a ratio, a limit); zero, infinities and NaN are allowed.
    decimals : int, default 4
        Places after the point in the fixed range.

    Returns
    -------
    str
        ``"0.6190"``, ``"6.19048e+199"``, ``"1.2e-05"``, ``"inf"``.
    """
    if x == 0.0 or 0.01 <= abs(x) < 1e4:
        return f"{x:.{decimals}f}"
    return f"{x:.6g}"


def _phrase(amount: str, word: str) -> str:
    return word if word == _NO_CHANGE else f"{amount} {word}"


#: From this factor on (either way) a change is worded as a factor ("1.64x faster"),
#: below it as a percentage ("5.50 % faster").
FACTOR_WORDING = 1.5


def _large(r: float) -> bool:
    """Whether a ratio is a change of a factor :data:`FACTOR_WORDING` or more (or
    unbounded) either way, which :func:`describe` words as a factor."""
    if math.isnan(r):
        return False
    return r <= 0.0 or math.isinf(r) or max(r, 1.0 / r) >= FACTOR_WORDING


def _change(r: float, lower_is_better: bool, factor_unit: bool | None = None
            ) -> tuple[str, str]:
    """``(amount, word)`` of one ratio new/old: ``("15.8x", "faster")``,
    ``("3.10 %", "slower")`` or ``("", "no change")`` (see :func:`describe`).

    ``factor_unit`` True words the change as a factor, False as a percentage (the
    ratio is then less than a factor :data:`FACTOR_WORDING` from 1), None by its own
    size."""
    if abs(r - 1.0) <= RELATIVE_TOLERANCE:
        return "", _NO_CHANGE
    up = r > 1.0  # the measured quantity grew
    word = "slower" if up == lower_is_better else "faster"
    if r <= 0.0 or math.isinf(r):
        return "∞x", word
    factor = r if up else 1.0 / r
    if factor_unit is None:
        factor_unit = factor >= FACTOR_WORDING
    if factor_unit:
        return f"{_factor_text(factor)}x", word
    pct = 100.0 * ((r - 1.0) if up else (1.0 - r))
    return f"{pct:.2f} %", word


def _factor_text(factor: float) -> str:
    """Three significant digits without an exponent below a million."""
    if math.isinf(factor):
        return "∞"
    if factor < 10.0:
        return f"{factor:.2f}"
    if factor < 100.0:
        return f"{factor:.1f}"
    if factor < 1e6:
        return f"{factor:.0f}"
    return f"{factor:.2e}"
