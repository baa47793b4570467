"""Files whose every benchmark holds a single measurement.

A Google Benchmark run without ``--benchmark_repetitions``, a Go run with
``-count 1``, a one-row table: nothing varies, so no interval, variance or verdict
can be computed, yet the value itself is worth showing. The readers refuse such a
file (:func:`esize.readers._common.keep_replicated`); :func:`single_measurements`
reads it again for what it holds, so that ``esize summary`` can show each value and
``esize compare`` each point ratio, marked inconclusive, saying why.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from .._design import Design
from .._errors import EsizeWarning
from ._common import RECOMMENDED_UNITS, Benchmark, with_names

__all__ = ["SINGLE_WORDS", "is_single", "single_caveat", "single_measurements"]

#: What the readers' refusal of a file of single measurements says.
SINGLE_WORDS = "a single measurement in all"


def is_single(design: Design) -> bool:
    """Whether a design holds one measurement (as :func:`single_measurements` gives).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.readers.single import is_single
    >>> is_single(ez.Design([3.0], ("run",))), is_single(ez.Design([3.0, 3.1], ("run",)))
    (True, False)
    """
    return design.data.size == 1


def single_caveat(option: str | None = None) -> str:
    """The caveat of a benchmark of one measurement; ``option`` is the harness option
    that repeats it (``--benchmark_repetitions=``), None for a table.

    Examples
    --------
    >>> from esize.readers.single import single_caveat
    >>> single_caveat("--benchmark_repetitions=").split("; ")[1]
    'run with --benchmark_repetitions=5 or more'
    >>> single_caveat().split("; ")[1]
    'measure 5 or more times'
    """
    how = (f"run with {option}{'' if option.endswith('=') else ' '}{RECOMMENDED_UNITS} or more"
           if option else f"measure {RECOMMENDED_UNITS} or more times")
    return (f"a single measurement: nothing varies, so no interval, variance or verdict "
            f"can be computed; {how}")


def _values(units) -> list:
    """The numbers of a reader's nested units (lists or dicts), flattened."""
    if isinstance(units, dict):
        units = list(units.values())
    if isinstance(units, (list, tuple)):
        return [v for u in units for v in _values(u)]
    return [units]


def _parsed(path, fmt: str, *, levels, value, where, benchmark_column, gbench_time,
            max_bytes) -> tuple[dict, tuple, dict]:
    """``{name: (values, UnitInfo)}``, the format's levels and its harness options."""
    from . import _read, tidy

    source = str(path)
    p = Path(path)
    if fmt == "tidy":
        table, row_name = tidy._load(p, max_bytes)
        parsed = tidy.parse(table, source, levels=levels, value=value, where=where,
                            benchmark_column=benchmark_column, row_name=row_name)
        return ({n: (d.data.ravel().tolist(), u) for n, (d, u) in parsed.items()},
                (*levels, "measurement"), {})
    module = _read._MODULES[fmt]
    if fmt == "criterion" and module.is_directory(path):
        parsed = module.parse_path(path, source, max_bytes)
    elif fmt == "gotest":
        parsed = module.parse_text(module.read_text(p, max_bytes), source)
    else:
        doc = _read._parse_once(p, max_bytes)
        opts = {"gbench_time": gbench_time} if fmt == "gbench" else {}
        parsed = module.parse(doc, source, **opts)
    return ({n: (_values(units), u) for n, (units, u) in parsed.items()}, module.LEVELS,
            dict(getattr(module, "NEXT_RUN_OPTIONS", {})))


def single_measurements(path, fmt: str, *, levels=("binary", "execution"), value="time",
                        where=(), benchmark_column=None, gbench_time="real_time", only=(),
                        max_bytes=None) -> dict | None:
    """``{name: Benchmark}`` of a file whose every (wanted) benchmark holds exactly one
    measurement, each a one-value design with a caveat; None for any other file
    (the readers' own message then stands).

    Parameters are those of :func:`esize.readers.read_benchmarks`; the warm-up and
    balancing options do not apply to a single value.

    Examples
    --------
    A hyperfine file of one run per command, which the readers refuse:

    >>> import json, os, tempfile
    >>> from esize.readers.single import single_measurements
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "once.json")
    ...     with open(path, "w") as fh:
    ...         json.dump({"results": [{"command": "sort", "times": [1.02]},
    ...                                {"command": "hash", "times": [0.51]}]}, fh)
    ...     found = single_measurements(path, "hyperfine")
    >>> {name: b.design.data.tolist() for name, b in found.items()}
    {'sort': [1.02], 'hash': [0.51]}
    >>> print(found["sort"].caveats[0])
    a single measurement: nothing varies, so no interval, variance or verdict can be computed; run with --runs 5 or more
    """
    try:
        with warnings.catch_warnings():  # the first reading gave its notes already
            warnings.simplefilter("ignore", EsizeWarning)
            parsed, file_levels, options = _parsed(
                path, fmt, levels=list(levels), value=value, where=where,
                benchmark_column=benchmark_column, gbench_time=gbench_time,
                max_bytes=max_bytes)
    except Exception:  # noqa: BLE001 - not a readable file of single values: refused as before
        return None
    wanted = {str(n) for n in only}
    chosen = {n: pv for n, pv in parsed.items() if not wanted or str(n) in wanted}
    if not chosen or any(len(vals) != 1 for vals, _ in chosen.values()):
        return None
    lowest = file_levels[-1] if file_levels else "measurement"
    # the option of the highest level, as the readers' own message names it
    option = next((options[lev] for lev in file_levels if lev in options), None)
    out = {}
    for name, (vals, unit) in chosen.items():
        v = float(vals[0])
        if not (np.isfinite(v) and v > 0):
            return None
        out[name] = Benchmark(Design(np.array([v]), (lowest,)), unit, (single_caveat(option),))
    return with_names(out, parsed)
