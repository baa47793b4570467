"""The words of the readers' messages (plurals, ``benchmark 'name': ``, a unit named
by its labels) and the checks of parsed JSON values that use them: a JSON object, a
finite number or a list of them, or an :class:`~esize.InputError` naming the file, the
benchmark and where the value sits. Re-exported by :mod:`esize.readers._common`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from .._errors import InputError

__all__ = [
    "plural",
    "prefix",
    "where_text",
    "need",
    "mapping",
    "shown",
    "number",
    "numbers",
]


# -- words ------------------------------------------------------------------------------
def plural(word: str, n: int = 2) -> str:
    """English plural of a level name (``process`` -> ``processes``) unless ``n == 1``.

    Examples
    --------
    >>> from esize.readers import plural
    >>> plural("process"), plural("binary"), plural("iteration", 3), plural("fork", 1)
    ('processes', 'binaries', 'iterations', 'fork')
    """
    if n == 1:
        return word
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def prefix(benchmark) -> str:
    """``"benchmark 'name': "`` to start a message, or nothing for an unnamed one."""
    return "" if benchmark is None else f"benchmark {benchmark!r}: "


def where_text(levels: Sequence[str], path: Sequence) -> str:
    """``"fork 2, iteration 3"``: a unit named by its labels from the top."""
    return ", ".join(f"{levels[i]} {label}" for i, label in enumerate(path))


# -- checks of parsed JSON --------------------------------------------------------------
def need(cond: object, source, message: str) -> None:
    """Raise ``InputError(source, message)`` unless ``cond``."""
    if not cond:
        raise InputError(source, message)


def mapping(x, source, what: str) -> dict:
    """``x`` if it is a JSON object, ``{}`` if it is absent, else an InputError."""
    if x is None:
        return {}
    need(isinstance(x, dict), source, f"{what} is not a JSON object")
    return x


_PLAIN_NUMBERS = {int, float}


def shown(x) -> str:
    """A short description of a JSON value for a message (never a deep walk of it)."""
    if isinstance(x, (list, dict)):
        return "a list" if isinstance(x, list) else "an object"
    return json.dumps(x)[:40]


def number(x, source, benchmark, where: str) -> float:
    """A finite float from a JSON value, or an InputError naming where it sits."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise InputError(source, f"{prefix(benchmark)}{where} holds {shown(x)}, not a number")
    try:
        v = float(x)
    except OverflowError:  # an integer beyond the range of a double
        v = math.inf
    if not math.isfinite(v):
        raise InputError(source, f"{prefix(benchmark)}{where} holds a NaN or infinite value")
    return v


def numbers(seq, source, benchmark, where: str) -> list[float]:
    """A JSON list of finite numbers, or an InputError naming the first bad entry."""
    if not isinstance(seq, list):
        raise InputError(
            source,
            f"{prefix(benchmark)}{where} should be a list of numbers, got {type(seq).__name__}",
        )
    # the usual case, checked at C speed: JSON numbers only (bool is not int here), finite
    if set(map(type, seq)) <= _PLAIN_NUMBERS:
        try:
            if all(map(math.isfinite, seq)):
                return list(map(float, seq))
        except OverflowError:  # an integer beyond the range of a double: named below
            pass
    return [number(x, source, benchmark, f"{where}, value {k}") for k, x in enumerate(seq, 1)]
