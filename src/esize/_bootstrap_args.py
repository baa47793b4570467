"""The arguments of a bootstrap: resampling schemes and numbers of replicates.

Part of the hierarchical bootstrap (:mod:`esize._bootstrap`): a scheme is checked
against the levels of a design (:func:`parse_scheme`, one per system of a pair with
:func:`pair_schemes`), and a number of replicates against the level of the interval
and the machine's memory (:func:`check_resamples`).
"""

from __future__ import annotations

import math
import os

import numpy as np

from ._design import Design
from ._errors import EsizeError
from ._intervals import _check_alpha

__all__ = [
    "MIN_TAIL_REPLICATES",
    "MEMORY_CAP",
    "parse_scheme",
    "pair_schemes",
    "scheme_label",
    "minimum_resamples",
    "check_resamples",
]


def parse_scheme(scheme: str, n_levels: int) -> str:
    """Validate a resampling scheme and return it upper-cased.

    ``FLAT`` or a string of ``R``/``N`` with one letter per level, highest first.

    Examples
    --------
    >>> import esize as ez
    >>> ez.parse_scheme("rrn", 3), ez.parse_scheme(" flat", 2)
    ('RRN', 'FLAT')
    >>> try:
    ...     ez.parse_scheme("RR", 3)
    ... except ez.EsizeError as exc:
    ...     print(exc)
    scheme 'RR' is not valid for 3 levels: use FLAT or 3 letters R (resample) /
    N (keep intact), e.g. 'RRR'
    """
    s = str(scheme).strip().upper()
    if s == "FLAT":
        return s
    if len(s) != n_levels or set(s) - {"R", "N"}:
        raise EsizeError(
            f"scheme {scheme!r} is not valid for {n_levels} levels: use FLAT or "
            f"{n_levels} letters R (resample) / N (keep intact), e.g. {'R' * n_levels!r}"
        )
    return s


def _as_array(data) -> np.ndarray:
    y = data.data if isinstance(data, Design) else np.asarray(data, dtype=np.float64)
    if y.ndim < 1 or y.size == 0:
        raise EsizeError("bootstrap needs a non-empty array of measurements")
    return y


#: Replicates that each tail beyond a percentile limit must hold at least.
MIN_TAIL_REPLICATES = 5

#: Bytes of memory assumed when the operating system does not say (1 TiB).
MEMORY_CAP = 1 << 40


def minimum_resamples(alpha: float) -> int:
    r"""Fewest replicates for a percentile interval at level ``alpha``.

    Each tail, below the lower and above the upper limit, must hold at least
    :data:`MIN_TAIL_REPLICATES` = 5 replicates: :math:`B \alpha / 2 \ge 5`, so
    :math:`B \ge \lceil 10 / \alpha \rceil` (200 at :math:`\alpha = 0.05`, 1000 at
    0.01).

    Why 5: the lower limit is the :math:`m`-th smallest of the :math:`B` replicates,
    :math:`m = \lceil B\alpha/2 \rceil`, and the expected bootstrap probability
    below it is :math:`m / (B + 1)`, which exceeds :math:`\alpha / 2` by less than
    :math:`1 / B` (the upper limit likewise). With :math:`B\alpha/2 \ge 5` that excess
    is at most a fifth of :math:`\alpha/2` per tail, so a 95 % interval keeps more
    than 94 % of its nominal level to this rounding, and the limits are distinct order
    statistics well inside the sample. (With one replicate, as was once allowed, the
    "interval" is a single value of zero width, which usually excludes the estimate.)

    Examples
    --------
    >>> import esize as ez
    >>> ez.minimum_resamples(0.05), ez.minimum_resamples(0.01), ez.minimum_resamples(0.03)
    (200, 1000, 334)
    """
    alpha = _check_alpha(alpha)
    b = 2.0 * MIN_TAIL_REPLICATES / alpha
    nearest = round(b)
    if abs(b - nearest) <= 1e-9 * b:  # 10 / 0.05 is 200 up to rounding
        return int(nearest)
    return int(math.ceil(b))


def _memory_bytes() -> int:
    """Physical memory of the machine (``os.sysconf``), or :data:`MEMORY_CAP`."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return MEMORY_CAP


def _bytes_text(n: float) -> str:
    if n >= 1024**5 * 10**15:  # beyond a float, perhaps: counted in PiB, exactly
        return f"{_count_text(int(n) // 1024**5)} PiB"
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} EiB"  # pragma: no cover


def _count_text(n: int) -> str:
    """``n`` in digits, or as ``1.23e+45`` from 10**15 on (also beyond a float's range).

    >>> _count_text(12), _count_text(10**20), _count_text(3 * 10**400)
    ('12', '1e+20', '3e+400')
    """
    if n < 10**15:
        return str(n)
    if n < 10**300:
        return f"{n:.3g}"
    exponent = math.floor(math.log10(n))  # log10 takes ints of any size
    mantissa = f"{10 ** (math.log10(n) - exponent):.3g}"
    if mantissa == "10":
        mantissa, exponent = "1", exponent + 1
    return f"{mantissa}e+{exponent}"


def check_resamples(n, alpha: float | None = None, *, arrays: int = 1,
                    name: str = "n_resamples") -> int:
    """Validate a number of bootstrap replicates and return it as an int.

    Parameters
    ----------
    n : int
        The number asked for.
    alpha : float, optional
        The level of the percentile interval to be made from them: ``n`` must be at
        least :func:`minimum_resamples` (``alpha``).
    arrays : int
        How many arrays of ``n`` float64 replicates the computation holds at once.
        Their ``8 * n * arrays`` bytes must fit in the machine's physical memory
        (``os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")``, or 1 TiB
        where the system does not tell), so that an impossible request is refused
        at once instead of failing (or swapping) half-way.
    name : str
        How the caller calls the number (``"--resamples"`` on the command line).

    Raises
    ------
    EsizeError
        ``n`` not positive, too few for ``alpha``, or too many for the memory.
    """
    n = int(n)
    if n < 1:
        raise EsizeError(f"{name} must be positive, got {n}")
    if alpha is not None:
        need = minimum_resamples(alpha)
        if n < need:
            raise EsizeError(
                f"{name} {n} is too few for a {100 * (1 - alpha):g} % percentile interval: "
                f"at least {_count_text(need)} are needed (alpha {alpha:g}), so that "
                f"{MIN_TAIL_REPLICATES} replicates lie in each tail beyond a limit"
            )
    size = 8 * n * arrays  # an int: exact, of any size (10**400 is no float)
    have = _memory_bytes()
    if size > have:
        shown = str(n) if n < 10**30 else _count_text(n)
        raise EsizeError(
            f"{name} {shown} would need {_bytes_text(size)} of memory for the bootstrap "
            f"replicates ({arrays} array(s) of {shown} 8-byte values), more than the "
            f"{_bytes_text(have)} this machine has"
        )
    return n


def _n_resamples(n, alpha=None, arrays: int = 1) -> int:
    return check_resamples(n, alpha, arrays=arrays)



def pair_schemes(scheme, old_levels: int, new_levels: int) -> tuple[str, str]:
    """The resampling scheme of each system of a pair.

    ``scheme`` is None (``R`` at every level of each system), one scheme for both
    (their numbers of levels must agree, unless it is ``FLAT``), a pair
    ``(old, new)``, or a string ``"OLD/NEW"`` such as ``"RR/R"`` for systems whose
    designs have different levels.
    """
    if scheme is None:
        return "R" * old_levels, "R" * new_levels
    if isinstance(scheme, str) and "/" in scheme:
        scheme = tuple(scheme.split("/"))
        if len(scheme) != 2:
            raise EsizeError(f"scheme {'/'.join(scheme)!r}: give one scheme, or OLD/NEW")
    if isinstance(scheme, str):
        if old_levels != new_levels and scheme.strip().upper() != "FLAT":
            raise EsizeError(
                f"scheme {scheme!r} is one scheme for systems of {old_levels} and "
                f"{new_levels} levels; give one per system as OLD/NEW, e.g. "
                f"{'R' * old_levels + '/' + 'R' * new_levels!r}"
            )
        scheme = (scheme, scheme)
    so, sn = scheme
    return parse_scheme(so, old_levels), parse_scheme(sn, new_levels)


def scheme_label(schemes: tuple[str, str]) -> str:
    """One scheme, or ``OLD/NEW`` when the systems are resampled differently."""
    so, sn = schemes
    return so if so == sn else f"{so}/{sn}"

