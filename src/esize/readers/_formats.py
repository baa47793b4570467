"""Temporary: the old names of the readers, for code not yet moved to
:mod:`esize.readers` (the command line). To be removed."""

from __future__ import annotations

import warnings

from .._errors import EsizeWarning
from ._common import BALANCE_MODES, Benchmark, design_from_ragged, plural
from ._read import FORMATS, GBENCH_TIMES, HARNESS_LEVELS, detect_format
from ._read import read_benchmarks as _read_benchmarks
from .units import UnitInfo, unit_info

FORMAT_LEVELS = HARNESS_LEVELS

__all__ = [
    "FORMATS",
    "BALANCE_MODES",
    "GBENCH_TIMES",
    "UnitInfo",
    "Benchmark",
    "unit_info",
    "detect_format",
    "read_benchmarks",
    "design_from_ragged",
    "plural",
]


def read_benchmarks(path, fmt=None, *, notes=None, **kw):
    """:func:`esize.readers.read_benchmarks`, its warnings appended to ``notes``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", EsizeWarning)
        out = _read_benchmarks(path, fmt, **kw)
    for w in caught:
        if issubclass(w.category, EsizeWarning) and notes is not None:
            notes.append(str(w.message))
        elif not issubclass(w.category, EsizeWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return out
