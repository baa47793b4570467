"""Pairing the benchmarks of two result files, and making each pair comparable.

What the command line's ``compare`` does between reading two files and computing
intervals: :func:`match_benchmarks` decides which benchmark of the old file goes
with which of the new one, :func:`align_pair` brings the two designs of a pair to
one unit and one shape (Section "Confidence Interval for Ratio of Means" needs
both systems measured with the same repetition counts).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .._design import Design
from .._errors import EsizeWarning, InputError
from ._common import Benchmark, prefix

__all__ = ["Matching", "match_benchmarks", "align_pair", "names_text"]


def names_text(names: Sequence, limit: int = 8) -> str:
    """Up to ``limit`` names joined by commas, ``"and N more"`` for the rest.

    Examples
    --------
    >>> from esize.readers import names_text
    >>> names_text(["sort", "hash", "fft"], limit=2), names_text([])
    ('sort, hash and 1 more', 'none')
    """
    names = list(names)
    shown = [str(n) for n in names[:limit]]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(shown) + more if shown else "none"


@dataclass(frozen=True)
class Matching:
    """Benchmarks of two files, paired by name.

    Attributes
    ----------
    pairs : list of tuple
        ``(name, new_name, old Benchmark, new Benchmark)`` in the order of the old
        file (then the new one); ``new_name`` differs from ``name`` only when two
        single-benchmark files are paired.
    only_old, only_new : list
        Names found in one file only (among the wanted ones), not compared.

    Examples
    --------
    >>> import warnings
    >>> from esize.readers import Benchmark, Matching, match_benchmarks, unit_info
    >>> import esize as ez
    >>> def bench(values, unit="ms"):
    ...     return Benchmark(ez.Design(values, ("fork", "iteration")), unit_info(unit))
    >>> old = {"sort": bench([[10, 11], [12, 13]]), "hash": bench([[5, 6], [5, 6]])}
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m = match_benchmarks(old, {"sort": bench([[9, 10], [11, 12]])})
    >>> isinstance(m, Matching), [pair[0] for pair in m.pairs], m.only_old, m.only_new
    (True, ['sort'], ['hash'], [])
    """

    pairs: list = field(default_factory=list)
    only_old: list = field(default_factory=list)
    only_new: list = field(default_factory=list)


def match_benchmarks(
    old: dict,
    new: dict,
    wanted: Sequence = (),
    *,
    old_source: str = "old",
    new_source: str = "new",
) -> Matching:
    """Pair the benchmarks of two files by name.

    Parameters
    ----------
    old, new : dict
        ``{name: Benchmark}`` of each file (as :func:`~esize.readers.read_benchmarks`
        returns).
    wanted : sequence, optional
        Names to compare; all names when empty.
    old_source, new_source : str
        The files, named in messages.

    Returns
    -------
    Matching
        Two single-benchmark files (and nothing wanted) pair whatever their names.

    Raises
    ------
    InputError
        A wanted name is in neither file, or no name is in both.

    Warns
    -----
    EsizeWarning
        For names found in one file only.

    Examples
    --------
    >>> import warnings
    >>> from esize.readers import Benchmark, match_benchmarks, unit_info
    >>> import esize as ez
    >>> def bench(values, unit="ms"):
    ...     return Benchmark(ez.Design(values, ("fork", "iteration")), unit_info(unit))
    >>> old = {"sort": bench([[10, 11], [12, 13]]), "hash": bench([[5, 6], [5, 6]])}
    >>> new = {"sort": bench([[9, 10], [11, 12]])}
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     m = match_benchmarks(old, new, old_source="old.json", new_source="new.json")
    >>> name, new_name, b_old, b_new = m.pairs[0]
    >>> name, b_new.design.mean, m.only_old
    ('sort', 10.5, ['hash'])
    >>> print(caught[0].message)
    only in old.json, not compared: hash
    """
    if len(old) == 1 and len(new) == 1 and not wanted:
        (no, bo), (nn, bn) = next(iter(old.items())), next(iter(new.items()))
        return Matching([(no, nn, bo, bn)], [], [])
    if wanted:
        names = list(dict.fromkeys(wanted))
        absent = [n for n in names if n not in old and n not in new]
        if absent:
            every = getattr(old, "names", None) or list(old)
            raise InputError(
                old_source,
                f"{prefix(absent[0])}in neither file; {old_source} has {names_text(every)}",
            )
    else:
        names = list(old) + [n for n in new if n not in old]
    common = [n for n in names if n in old and n in new]
    only_old = [n for n in names if n in old and n not in new]
    only_new = [n for n in names if n in new and n not in old]
    if not common:
        raise InputError(
            new_source,
            f"no benchmark matches one in {old_source} (old: {names_text(list(old))}; "
            f"new: {names_text(list(new))})",
        )
    if only_old:
        warnings.warn(
            f"only in {old_source}, not compared: {names_text(only_old)}", EsizeWarning, stacklevel=2
        )
    if only_new:
        warnings.warn(
            f"only in {new_source}, not compared: {names_text(only_new)}", EsizeWarning, stacklevel=2
        )
    return Matching([(n, n, old[n], new[n]) for n in common], only_old, only_new)


def _converted(values: np.ndarray, factor: float, what: str, source: str) -> np.ndarray:
    """``values * factor``, refused when a value leaves the range of normal floats
    (overflows, or a normal value becomes zero or a subnormal, losing its digits)."""
    with np.errstate(over="ignore", under="ignore"):
        out = values * factor
    tiny = np.finfo(np.float64).tiny
    if not np.all(np.isfinite(out) & ((np.abs(out) >= tiny) | (np.abs(values) < tiny))):
        raise InputError(source, f"{what} are beyond the floating-point range")
    return out


def align_pair(
    bo: Benchmark,
    bn: Benchmark,
    *,
    name,
    new_name,
    old_source: str,
    new_source: str,
) -> tuple[Design, Design]:
    """The two designs of one benchmark in the same unit.

    The designs may differ (a default pyperf run against a ``--rigorous`` one, 20
    processes of CPython against 10 long processes of PyPy, one fork against five):
    each system's mean and the variance of that mean come from its own top-level
    units, so they are compared as they are. Nothing is cut to a common shape.

    Parameters
    ----------
    bo, bn : Benchmark
        The old and the new system's benchmark.
    name, new_name : str or None
        The benchmark's name in each file (None for an unnamed tidy table).
    old_source, new_source : str
        The files, named in messages.

    Returns
    -------
    (Design, Design)
        The old design and the new one, the latter converted into the old unit.

    Raises
    ------
    InputError
        Opposite directions (a rate against a time), units that do not convert,
        values that leave the range of floats when converted, a system with fewer
        than two top-level units, or a ratio of the means that is beyond the range
        of floats (each mean is computed on its own scale, so that is the only
        magnitude refused).

    Warns
    -----
    EsizeWarning
        When values are converted.

    Examples
    --------
    The new file's seconds become the old file's milliseconds:

    >>> import warnings
    >>> from esize.readers import Benchmark, align_pair, unit_info
    >>> import esize as ez
    >>> def bench(values, unit="ms"):
    ...     return Benchmark(ez.Design(values, ("fork", "iteration")), unit_info(unit))
    >>> old, new = bench([[10.0, 11.0], [12.0, 13.0]]), bench([[0.009, 0.010], [0.011, 0.012]], "s")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     d_old, d_new = align_pair(old, new, name="sort", new_name="sort",
    ...                               old_source="old.json", new_source="new.json")
    >>> d_new.data.round(6).tolist()
    [[9.0, 10.0], [11.0, 12.0]]
    >>> print(caught[0].message)
    new.json: benchmark 'sort': values converted from s to ms
    >>> try:
    ...     align_pair(old, bench([[1.0, 2.0], [3.0, 4.0]], "ops/s"), name="sort",
    ...                new_name="sort", old_source="old.json", new_source="new.json")
    ... except ez.InputError as exc:
    ...     print(exc)
    new.json: benchmark 'sort': ops/s (higher is better) cannot be compared with ms (lower is better) in old.json
    """
    uo, un = bo.unit, bn.unit
    old, new = bo.design, bn.design
    if uo.lower_is_better != un.lower_is_better:
        raise InputError(
            new_source,
            f"{prefix(new_name)}{un.unit or 'unit'} ({un.direction}) cannot be compared with "
            f"{uo.unit or 'unit'} ({uo.direction}) in {old_source}",
        )
    # a tidy table carries no unit: it is taken to be the other file's
    if uo.unit and un.unit and (uo.unit, uo.kind) != (un.unit, un.kind):
        factor = un.factor_to(uo)
        if factor is None:
            raise InputError(
                new_source,
                f"{prefix(new_name)}unit {un.unit!r} cannot be converted to {uo.unit!r} "
                f"of {old_source}",
            )
        new = Design(_converted(new.data, factor, f"{prefix(new_name)}values in {un.unit} "
                                f"converted to {uo.unit} of {old_source}", new_source),
                     new.levels)
        warnings.warn(
            f"{new_source}: {prefix(new_name)}values converted from {un.unit} to {uo.unit}",
            EsizeWarning,
            stacklevel=2,
        )
    # Each system's mean and its variance come from its own top-level units, so the
    # two need not share a design: other counts, even other levels, are compared as
    # they are (never cut to a common shape, which would throw away data).
    for design, source, label in ((old, old_source, name), (new, new_source, new_name)):
        if design.shape[0] < 2:
            raise InputError(
                source,
                f"{prefix(label)}level {design.levels[0]!r} has {design.shape[0]} unit(s); "
                "at least 2 needed",
            )
    _check_ratio(old, new, new_name, old_source, new_source)
    return old, new


def _check_ratio(old: Design, new: Design, new_name, old_source: str, new_source: str) -> None:
    """Refuse two designs whose ratio of means is not a normal float (results some 600
    orders of magnitude apart): every interval is relative to it."""
    mo, mn = abs(old.mean), abs(new.mean)  # floats at any magnitude (Design.mean)
    if mo == 0.0 or mn == 0.0 or np.finfo(np.float64).tiny <= mn / mo < math.inf:
        return
    raise InputError(
        new_source,
        f"{prefix(new_name)}the ratio of its mean to that of {old_source} (about "
        f"10^{math.log10(mn) - math.log10(mo):.0f}) is beyond the floating-point range; are "
        "the two results in the same unit?",
    )
