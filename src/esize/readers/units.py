"""Units of benchmark values: what a harness's unit string means.

A harness writes its unit as text (``"second"``, ``"ns/op"``, ``"ops/ms"``);
:func:`unit_info` turns it into a :class:`UnitInfo`, which knows whether lower
values are better and how to convert into another unit of the same kind.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["UnitInfo", "unit_info", "TIME_UNITS"]

#: Seconds per unit of time, by the spellings the harnesses use.
TIME_UNITS = {
    "s": 1.0,
    "sec": 1.0,
    "second": 1.0,
    "seconds": 1.0,
    "ms": 1e-3,
    "millisecond": 1e-3,
    "milliseconds": 1e-3,
    "us": 1e-6,
    "µs": 1e-6,
    "μs": 1e-6,
    "microsecond": 1e-6,
    "microseconds": 1e-6,
    "ns": 1e-9,
    "nanosecond": 1e-9,
    "nanoseconds": 1e-9,
    "min": 60.0,
    "minute": 60.0,
    "minutes": 60.0,
    "hr": 3600.0,
    "h": 3600.0,
    "hour": 3600.0,
    "hours": 3600.0,
    "day": 86400.0,
    "days": 86400.0,
}

_PER_OPERATION = ("op", "ops", "operation", "call", "invocation")
_OPERATIONS = ("op", "ops", "operations", "calls", "items")


@dataclass(frozen=True)
class UnitInfo:
    """What the values of a benchmark measure.

    Attributes
    ----------
    unit : str
        The unit as the harness writes it (``"second"``, ``"ns/op"``, ``"ops/s"``,
        ``"ns"``); empty when unknown (tidy tables).
    lower_is_better : bool
        True for times and other costs, False for rates such as throughput.
    kind : str
        ``"time"`` (a duration, possibly per operation), ``"rate"`` (operations per
        unit of time) or ``"other"``.
    scale : float or None
        For a time, seconds per unit; for a rate, operations per second per unit;
        None when the unit is not recognised (then values convert to no other unit).

    Examples
    --------
    >>> from esize.readers import unit_info
    >>> ns = unit_info("ns/op")
    >>> ns.kind, ns.direction, ns.as_dict()
    ('time', 'lower is better', {'unit': 'ns/op', 'lower_is_better': True})
    >>> round(ns.factor_to(unit_info("us/op")), 12)  # ns/op values times this are us/op
    0.001
    >>> ns.factor_to(unit_info("ops/s")) is None  # a time is no rate
    True
    """

    unit: str = ""
    lower_is_better: bool = True
    kind: str = "other"
    scale: float | None = None

    def factor_to(self, other: UnitInfo) -> float | None:
        """Multiplier turning values in this unit into values in ``other``'s unit.

        Returns
        -------
        float or None
            ``1.0`` for identical units, ``self.scale / other.scale`` for two known
            units of the same kind, None when the two cannot be converted
            (different kinds, or an unrecognised unit).
        """
        if self.unit == other.unit and self.kind == other.kind:
            return 1.0
        if self.kind != other.kind or self.kind == "other":
            return None
        if self.scale is None or other.scale is None:
            return None
        return self.scale / other.scale

    @property
    def direction(self) -> str:
        """``"lower is better"`` or ``"higher is better"``."""
        return "lower is better" if self.lower_is_better else "higher is better"

    def as_dict(self) -> dict:
        """JSON-ready form: ``{"unit": .., "lower_is_better": ..}``."""
        return {"unit": self.unit, "lower_is_better": self.lower_is_better}


def unit_info(unit: str | None, *, default_rate: bool = False) -> UnitInfo:
    """Interpret a unit string such as ``"ns"``, ``"us/op"`` or ``"ops/ms"``.

    Parameters
    ----------
    unit : str or None
        The unit as written by a harness. ``"X/op"`` is a time per operation,
        ``"ops/X"`` a rate; bare time units are times.
    default_rate : bool
        Direction to assume when the unit is not recognised (JMH throughput mode
        with an unusual unit, for example).

    Returns
    -------
    UnitInfo

    Examples
    --------
    >>> from esize.readers import unit_info
    >>> unit_info("ms")
    UnitInfo(unit='ms', lower_is_better=True, kind='time', scale=0.001)
    >>> unit_info("ops/ms")
    UnitInfo(unit='ops/ms', lower_is_better=False, kind='rate', scale=1000.0)
    >>> unit_info("widgets").kind, unit_info("widgets", default_rate=True).lower_is_better
    ('other', False)
    """
    text = "" if unit is None else str(unit).strip()
    low = text.lower()
    if low in TIME_UNITS:
        return UnitInfo(text, True, "time", TIME_UNITS[low])
    if "/" in low:
        num, _, den = (s.strip() for s in low.partition("/"))
        if den in _PER_OPERATION and num in TIME_UNITS:
            return UnitInfo(text, True, "time", TIME_UNITS[num])
        if num in _OPERATIONS and den in TIME_UNITS:
            return UnitInfo(text, False, "rate", 1.0 / TIME_UNITS[den])
    return UnitInfo(text, not default_rate, "other", None)
