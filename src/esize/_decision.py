"""Threshold decisions on a confidence interval for the ratio new/old.

A ratio below 1 means the new system takes less time (it is faster) when the
measured quantity is a time; for rates (higher is better) the words swap, which
``lower_is_better=False`` expresses.
"""

from __future__ import annotations

import math

from ._errors import EsizeError
from ._estimators import RELATIVE_TOLERANCE

__all__ = ["verdict", "describe"]

VERDICTS = ("faster", "slower", "same", "inconclusive")


def verdict(
    lower: float,
    upper: float,
    threshold: float = 0.0,
    *,
    bounded: bool = True,
    lower_is_better: bool = True,
) -> str:
    r"""Classify a ratio CI against a relative threshold ``t``.

    * ``"faster"`` if ``upper < 1 - t`` (for times: new clearly below old),
    * ``"slower"`` if ``lower > 1 + t``,
    * ``"same"`` if ``t > 0`` and the CI lies within ``[1 - t, 1 + t]``,
    * ``"inconclusive"`` otherwise, and for an unbounded interval.

    With ``lower_is_better=False`` (rates such as throughput) "faster" and
    "slower" swap.

    Limits that differ from a boundary :math:`1 \mp t` by no more than a relative
    :math:`10^{-12}` (:data:`esize._estimators.RELATIVE_TOLERANCE`, the tolerance
    below which variances are zero) count as lying on it, and the boundary belongs
    to ``[1 - t, 1 + t]``. A change of exactly the threshold, such as two constant
    systems 10 and 9.8 at ``t = 0.02``, is therefore ``"same"`` whatever the last
    bit of the computed ratio, and a ratio of 1 up to rounding is never a change.
    """
    t = float(threshold)
    if not (math.isfinite(t) and 0.0 <= t < 1.0):
        raise EsizeError(f"threshold must lie in [0, 1), got {threshold}")
    if not bounded or not (math.isfinite(lower) and math.isfinite(upper)):
        return "inconclusive"
    low_edge = (1.0 - t) * (1.0 - RELATIVE_TOLERANCE)  # below it: clearly under 1 - t
    high_edge = (1.0 + t) * (1.0 + RELATIVE_TOLERANCE)  # above it: clearly over 1 + t
    if upper < low_edge:
        out = "faster"
    elif lower > high_edge:
        out = "slower"
    elif t > 0.0 and lower >= low_edge and upper <= high_edge:
        return "same"
    else:
        return "inconclusive"
    if not lower_is_better:
        out = "slower" if out == "faster" else "faster"
    return out


def describe(
    ratio: float,
    lower: float,
    upper: float,
    alpha: float = 0.05,
    *,
    bounded: bool = True,
    lower_is_better: bool = True,
) -> str:
    """A sentence such as ``"new is 5.5 % faster (95 % CI 3.0 % .. 8.0 %)"``.

    The change is expressed relative to the old system: ``1 - ratio`` for times.
    """
    conf = f"{100 * (1 - alpha):g} %"
    if not bounded:
        return f"ratio new/old = {ratio:.4f}; the {conf} interval is unbounded"
    change = (1.0 - ratio) * 100.0
    lo, hi = (1.0 - upper) * 100.0, (1.0 - lower) * 100.0
    if not lower_is_better:
        change, lo, hi = -change, -hi, -lo
    word = "faster" if change >= 0 else "slower"
    if change < 0:
        change, lo, hi = -change, -hi, -lo
    return f"new is {change:.2f} % {word} ({conf} CI {lo:.2f} % .. {hi:.2f} %)"
