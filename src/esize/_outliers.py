r"""Measurements far out from the rest of their system: a diagnostic, not a filter.

A mean, and every interval built on it, follows a single stray measurement: one
value ten times the others among a thousand moves the mean by about 1 %, and the
spread between the processes that hold such values by far more. :func:`far_out`
finds values whose logarithm lies more than :data:`FAR_OUT` robust standard
deviations from the median of the system's logarithms, the robust standard deviation
being :math:`1.4826` times the median absolute deviation (consistent for the normal
distribution). For normal data a value beyond 8 such deviations has a probability of
about :math:`10^{-15}`, so the rule does not fire on clean data of any realistic
size; it does on a heavy tail. Tightly clustered data (timings that repeat to the
microsecond) have so small a spread that a value 4 % off is "far"; such values only
matter if they move the mean, so they are reported only when leaving them out would
change the system's mean by :data:`MIN_SHIFT` or more.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["FAR_OUT", "MIN_SHIFT", "FarOut", "far_out", "outlier_caveat"]

#: Robust standard deviations (of the logarithms) beyond which a value is far out.
FAR_OUT = 8.0

#: The relative change of a system's mean, were its far-out values left out, from which
#: they are reported: a quarter of the default threshold of 2 %.
MIN_SHIFT = 0.005

#: The median absolute deviation times this estimates the normal standard deviation.
_MAD_TO_SD = 1.482602218505602


@dataclass(frozen=True)
class FarOut:
    """The values of a system far out from the rest.

    Attributes
    ----------
    count, total : int
        How many values lie far out, of how many.
    largest : float
        The far-out value farthest from the median, as a multiple of the median
        (10.0: ten times it; 0.1: a tenth of it).
    shift : float
        How much the mean moves with them: mean with / mean without, minus 1.
    """

    count: int
    total: int
    largest: float
    shift: float = 0.0


def far_out(values, z: float = FAR_OUT) -> FarOut | None:
    """The values of a system (any shape, all positive) far out from their median.

    Parameters
    ----------
    values : array_like
        Every measurement of one system.
    z : float, default :data:`FAR_OUT`
        Robust standard deviations of the logarithms beyond which a value is far out.

    Returns
    -------
    FarOut or None
        None when no value is far out, when leaving them out moves the mean by less
        than :data:`MIN_SHIFT`, or when half or more of the values are equal (a median
        absolute deviation of zero: the data are too coarse to judge).

    Examples
    --------
    >>> import numpy as np
    >>> from esize._outliers import far_out
    >>> rng = np.random.default_rng(1)
    >>> x = np.exp(rng.normal(0, 0.02, 1000))
    >>> far_out(x) is None
    True
    >>> x[17] *= 10
    >>> f = far_out(x)
    >>> f.count, f.total, round(f.largest, 1), round(100 * f.shift, 2)
    (1, 1000, 9.9, 0.9)
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    logs = np.log(x)
    if logs.size < 3:
        return None
    med = float(np.median(logs))
    dev = np.abs(logs - med)
    mad = float(np.median(dev))
    if not mad > 0:
        return None
    far = dev > z * _MAD_TO_SD * mad
    count = int(far.sum())
    if count == 0 or count == x.size:
        return None
    shift = float(x.mean() / x[~far].mean() - 1.0)
    if abs(shift) < MIN_SHIFT:
        return None
    k = int(np.argmax(dev))
    return FarOut(count, int(logs.size), float(np.exp(logs[k] - med)), shift)


def outlier_caveat(side: str, found: FarOut) -> str:
    """The caveat of a system with far-out values.

    Examples
    --------
    >>> from esize._outliers import FarOut, outlier_caveat
    >>> print(outlier_caveat("new", FarOut(2, 1000, 9.7, 0.0174)))
    new: 2 of 1000 measurements lie far out (more than 8 robust standard deviations from the median; the farthest 9.7x the median) and move the mean by +1.74 %: the mean and its interval follow them, so check them before trusting the ratio
    """
    times = f"{found.largest:.3g}x" if found.largest >= 1 else f"1/{1 / found.largest:.3g}"
    return (f"{side}: {found.count} of {found.total} measurements lie far out (more than "
            f"{FAR_OUT:g} robust standard deviations from the median; the farthest {times} "
            f"the median) and move the mean by {100 * found.shift:+.2f} %: the mean and its "
            "interval follow them, so check them before trusting the ratio")
