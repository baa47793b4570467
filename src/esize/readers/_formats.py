"""Reading benchmark results: tidy tables and the files of common benchmark harnesses.

Every reader turns one file into ``{benchmark name: Benchmark(design, unit)}``: a
balanced :class:`~esize.design.Design` per benchmark plus a :class:`UnitInfo` that
records the unit of the values and whether lower values are better. Nothing here
computes statistics; every problem with a file becomes an
:class:`~esize.errors.InputError` naming the file and, where there is one, the
benchmark.

Supported formats (``fmt``):

``tidy``
    CSV or Parquet, one row per measurement (see :func:`esize.io.load_design`).
    Optionally split into several benchmarks by a column (``benchmark_column``).
``pyperf``
    JSON written by pyperf or pyperformance (``-o file.json``, optionally
    gzip-compressed). Each run is one worker process; its ``values`` are the
    measurements, its ``warmups`` are ignored, and runs without values (calibration
    runs) are skipped. Levels: ``process > value``.
``jmh``
    JSON written by JMH with ``-rf json``. ``primaryMetric.rawData`` holds one list
    of iteration scores per fork; ``rawDataHistogram`` (sample-time mode) holds per
    fork and iteration a histogram of ``[value, count]`` pairs, of which the
    count-weighted mean is the iteration's value. Levels: ``fork > iteration``.
    Benchmarks with ``params`` are named ``method:p1=v1,p2=v2``.
``gbench``
    JSON written by Google Benchmark (``--benchmark_format=json`` or
    ``--benchmark_out``). Every repetition of a benchmark is one unit (one level,
    ``repetition``); aggregate rows (mean, median, stddev, cv, BigO, RMS) are
    ignored, and benchmarks the harness reports as failed are skipped with a note.
``hyperfine``
    JSON written by hyperfine's ``--export-json``: ``results[].times`` in seconds,
    one level (``run``, each run one process), named by ``command``.

Unbalanced data (a fork with fewer iterations, a process with fewer values) is an
error unless ``balance="truncate"``, which keeps the first ``m`` units of every group,
``m`` being the smallest group's size, and reports what it dropped in ``notes``.
"""

from __future__ import annotations

import gzip
import json
import math
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .._design import Design, from_tidy
from .._errors import DesignError, InputError
from .._io import PARQUET_SUFFIXES, apply_where, load_design, read_table

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

FORMATS = ("tidy", "pyperf", "jmh", "gbench", "hyperfine")
BALANCE_MODES = ("truncate",)
GBENCH_TIMES = ("real_time", "cpu_time")

#: Levels of each harness format, highest first.
FORMAT_LEVELS = {
    "pyperf": ("process", "value"),
    "jmh": ("fork", "iteration"),
    "gbench": ("repetition",),
    "hyperfine": ("run",),
}

_TABLE_SUFFIXES = (".csv", ".tsv", ".txt", *PARQUET_SUFFIXES)
_PYPERF_VERSIONS = ("1.0", 6, 5)

# seconds per unit of time, by the spellings the harnesses use
_TIME_UNITS = {
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


# -- units ------------------------------------------------------------------------
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
    """

    unit: str = ""
    lower_is_better: bool = True
    kind: str = "other"
    scale: float | None = None

    def factor_to(self, other: UnitInfo) -> float | None:
        """Multiplier turning values in this unit into values in ``other``'s unit.

        ``1.0`` for identical units, None when the two cannot be converted (different
        kinds, or an unrecognised unit).
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
    """
    text = "" if unit is None else str(unit).strip()
    low = text.lower()
    if low in _TIME_UNITS:
        return UnitInfo(text, True, "time", _TIME_UNITS[low])
    if "/" in low:
        num, _, den = (s.strip() for s in low.partition("/"))
        if den in ("op", "ops", "operation", "call", "invocation") and num in _TIME_UNITS:
            return UnitInfo(text, True, "time", _TIME_UNITS[num])
        if num in ("op", "ops", "operations", "calls", "items") and den in _TIME_UNITS:
            return UnitInfo(text, False, "rate", 1.0 / _TIME_UNITS[den])
    return UnitInfo(text, not default_rate, "other", None)


class Benchmark(NamedTuple):
    """One benchmark read from a file: its balanced design and its unit."""

    design: Design
    unit: UnitInfo


# -- small helpers ----------------------------------------------------------------------
def plural(word: str, n: int = 2) -> str:
    """English plural of a level name (``process`` -> ``processes``) unless ``n == 1``."""
    if n == 1:
        return word
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _prefix(benchmark) -> str:
    return "" if benchmark is None else f"benchmark {benchmark!r}: "


def _where(levels: Sequence[str], path: Sequence) -> str:
    return ", ".join(f"{levels[i]} {label}" for i, label in enumerate(path))


def _number(x, source, benchmark, where: str) -> float:
    """A finite float from a JSON value, or an InputError naming where it sits."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise InputError(
            source, f"{_prefix(benchmark)}{where} holds {json.dumps(x)[:40]}, not a number"
        )
    v = float(x)
    if not math.isfinite(v):
        raise InputError(source, f"{_prefix(benchmark)}{where} holds a NaN or infinite value")
    return v


def _numbers(seq, source, benchmark, where: str) -> list[float]:
    if not isinstance(seq, list):
        raise InputError(
            source, f"{_prefix(benchmark)}{where} should be a list of numbers, got {type(seq).__name__}"
        )
    return [_number(x, source, benchmark, f"{where}, value {k}") for k, x in enumerate(seq, 1)]


# -- ragged nested data -> balanced design ------------------------------------------------
def _items(node) -> list:
    if isinstance(node, dict):
        return list(node.items())
    return list(enumerate(node, 1))


def design_from_ragged(
    units,
    levels: Sequence[str],
    *,
    balance: str | None = None,
    source: str = "",
    benchmark: str | None = None,
    notes: list[str] | None = None,
) -> Design:
    """Build a balanced :class:`Design` from nested, possibly ragged groups.

    Parameters
    ----------
    units : list or dict
        The top-level units; each unit holds its children the same way, down to the
        measurements (numbers). A list names its children by 1-based position, a
        dict by its keys (used in messages).
    levels : sequence of str
        Level names, highest first; ``len(levels)`` is the nesting depth.
    balance : {None, "truncate"}
        What to do when groups differ in size: None raises, ``"truncate"`` keeps the
        first ``m`` children of every group (``m`` the smallest group at that level)
        and appends a note saying what was dropped.
    source, benchmark : str
        File and benchmark named in errors and notes.
    notes : list of str, optional
        Receives one line per level that was truncated.

    Raises
    ------
    InputError
        Unbalanced data without ``balance``, or a group with no children.
    """
    levels = tuple(levels)
    if balance not in (None, *BALANCE_MODES):
        raise InputError(source, f"unknown --balance mode {balance!r}; use one of {BALANCE_MODES}")
    frontier = [((), _items(units))]
    shape: list[int] = []
    for d, child in enumerate(levels):
        parent = levels[d - 1] if d > 0 else None
        counts = [len(items) for _, items in frontier]
        lo, hi = min(counts), max(counts)
        if lo == 0:
            path = next(p for p, items in frontier if not items)
            owner = _where(levels, path) if path else "the file"
            raise InputError(source, f"{_prefix(benchmark)}{owner} has no {plural(child)}")
        if lo != hi:
            short = [p for (p, items) in frontier if len(items) == lo]
            shown = "; ".join(_where(levels, p) for p in short[:3]) + (
                f" and {len(short) - 3} more" if len(short) > 3 else ""
            )
            hist = sorted(Counter(counts).items(), key=lambda kv: -kv[0])
            found = ", ".join(
                f"{n} {plural(parent, n)} with {c} {plural(child, c)}" for c, n in hist
            )
            if balance is None:
                raise InputError(
                    source,
                    f"{_prefix(benchmark)}unbalanced: {found} (shortest: {shown}); "
                    f"use --balance truncate to keep the first {lo} {plural(child, lo)} "
                    f"of every {parent}",
                )
            before = sum(_count_leaves(items, len(levels) - d - 1) for _, items in frontier)
            cut = sum(1 for c in counts if c > lo)
            frontier = [(p, items[:lo]) for p, items in frontier]
            after = sum(_count_leaves(items, len(levels) - d - 1) for _, items in frontier)
            if notes is not None:
                notes.append(
                    f"{source}: {_prefix(benchmark)}--balance truncate kept the first {lo} "
                    f"{plural(child, lo)} of every {parent} ({found}; {cut} "
                    f"{plural(parent, cut)} cut, {before - after} "
                    f"{plural(levels[-1], before - after)} dropped)"
                )
        shape.append(lo)
        if d < len(levels) - 1:
            frontier = [(p + (label,), _items(node)) for p, items in frontier for label, node in items]
    values = [v for _, items in frontier for _, v in items]
    try:
        return Design(np.asarray(values, dtype=np.float64).reshape(shape), levels)
    except DesignError as exc:
        raise InputError(source, f"{_prefix(benchmark)}{exc}") from None


def _count_leaves(items, depth_below: int) -> int:
    if depth_below == 0:
        return len(items)
    return sum(_count_leaves(_items(node), depth_below - 1) for _, node in items)


def _check_positive(design: Design, source, benchmark, value_name: str = "value") -> None:
    bad = np.flatnonzero(design.data.ravel() <= 0)
    if bad.size:
        idx = np.unravel_index(int(bad[0]), design.shape)
        where = _where(design.levels[:-1], [int(i) + 1 for i in idx[:-1]])
        at = f" (first at {where}, {design.levels[-1]} {int(idx[-1]) + 1})" if where else (
            f" (first at {design.levels[-1]} {int(idx[-1]) + 1})"
        )
        raise InputError(
            source,
            f"{_prefix(benchmark)}{bad.size} non-positive {plural(value_name, bad.size)}{at}; "
            "times and rates must be positive",
        )


def _trim(design: Design, source, benchmark, warmup: int) -> Design:
    try:
        return design.trim(warmup)
    except DesignError as exc:
        raise InputError(source, f"{_prefix(benchmark)}{exc}") from None


def _finish(design: Design, source, benchmark, warmup: int) -> Design:
    _check_positive(design, source, benchmark)
    return _trim(design, source, benchmark, warmup)


# -- format detection ------------------------------------------------------------------
def _open_text(p: Path):
    with open(p, "rb") as fh:
        magic = fh.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(p, "rt", encoding="utf-8")
    return open(p, encoding="utf-8")


def _looks_like_json(p: Path) -> bool:
    name = p.name.lower()
    if name.endswith((".json", ".json.gz")):
        return True
    if name.endswith(_TABLE_SUFFIXES) or name.endswith(tuple(s + ".gz" for s in _TABLE_SUFFIXES)):
        return False
    try:
        with _open_text(p) as fh:
            head = fh.read(256)
    except (OSError, UnicodeDecodeError, EOFError):
        return False
    return head.lstrip()[:1] in ("{", "[")


def _load_json(p: Path):
    try:
        with _open_text(p) as fh:
            return json.load(fh)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise InputError(p, f"cannot read: {exc}") from None
    except UnicodeDecodeError:
        raise InputError(p, "cannot read: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise InputError(p, f"not valid JSON ({exc.msg}, line {exc.lineno})") from None


def _sniff(data) -> str | None:
    """Name the harness that wrote ``data`` (a parsed JSON document), or None."""
    if isinstance(data, list):
        if data and all(isinstance(e, dict) for e in data) and any(
            "primaryMetric" in e for e in data
        ):
            return "jmh"
        return None
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("results"), list) and all(
        isinstance(r, dict) and ("times" in r or "command" in r) for r in data["results"]
    ):
        return "hyperfine"
    benches = data.get("benchmarks")
    if isinstance(benches, list):
        if "context" in data or any(
            isinstance(b, dict) and ("real_time" in b or "run_type" in b) for b in benches
        ):
            return "gbench"
        if all(isinstance(b, dict) and "runs" in b for b in benches):
            return "pyperf"
    if "runs" in data:
        return "pyperf"
    return None


def detect_format(path: str | os.PathLike) -> str:
    """Guess the format of a result file: ``tidy`` or the harness that wrote it.

    Files named ``*.csv``, ``*.tsv``, ``*.txt`` or ``*.parquet`` (and compressed
    CSV) are tidy tables; other files are read as JSON (gzip-compressed or not)
    when they start with ``{`` or ``[``, and the harness is recognised by the
    document's structure.

    Raises
    ------
    InputError
        The file is missing, or is JSON of no known harness.
    """
    p = Path(path)
    if not p.exists():
        raise InputError(p, "no such file")
    if p.is_dir():
        raise InputError(p, "is a directory, not a file")
    if not _looks_like_json(p):
        return "tidy"
    fmt = _sniff(_load_json(p))
    if fmt is None:
        raise InputError(
            p,
            "JSON of an unknown kind: expected pyperf, JMH (-rf json), Google Benchmark "
            "or hyperfine results; use --format to say which",
        )
    return fmt


# -- harness readers: each returns {name: (ragged units, UnitInfo)} -------------------------
def _need(cond: bool, source, message: str) -> None:
    if not cond:
        raise InputError(source, message)


def _mapping(x, source, what: str) -> dict:
    if x is None:
        return {}
    _need(isinstance(x, dict), source, f"{what} is not a JSON object")
    return x


def _parse_pyperf(data, source) -> dict:
    _need(isinstance(data, dict), source, "a pyperf file holds a JSON object")
    version = data.get("version")
    if version is not None and version not in _PYPERF_VERSIONS:
        raise InputError(
            source, f"pyperf file format version {version!r} is not supported (1.0, 6 and 5 are)"
        )
    suite_meta = _mapping(data.get("metadata"), source, "the file's 'metadata'")
    if "benchmarks" in data:
        benches = data["benchmarks"]
        _need(isinstance(benches, list) and benches, source, "'benchmarks' is empty or not a list")
    else:
        _need("runs" in data, source, "neither 'benchmarks' nor 'runs': not a pyperf file")
        benches = [data]
        suite_meta = {}
    out: dict = {}
    for k, bench in enumerate(benches, 1):
        _need(isinstance(bench, dict), source, f"benchmark #{k} is not a JSON object")
        meta = {
            **suite_meta,
            **_mapping(bench.get("common_metadata"), source, f"benchmark #{k}'s 'common_metadata'"),
            **_mapping(bench.get("metadata"), source, f"benchmark #{k}'s 'metadata'"),
        }
        name = meta.get("name")
        if name is None:
            name = "(unnamed)" if len(benches) == 1 else f"#{k}"
        name = str(name)
        runs = bench.get("runs")
        _need(
            isinstance(runs, list), source, f"{_prefix(name)}'runs' is missing or not a list"
        )
        units = []
        for r, run in enumerate(runs, 1):
            _need(isinstance(run, dict), source, f"{_prefix(name)}run {r} is not a JSON object")
            vals = run.get("values", run.get("samples"))
            if not vals:  # calibration run: warm-ups only
                continue
            units.append(_numbers(vals, source, name, f"run {r}"))
        if not units:
            raise InputError(
                source, f"{_prefix(name)}no run has values (only calibration or warm-up runs)"
            )
        if name in out:
            raise InputError(source, f"{_prefix(name)}appears twice in the file")
        out[name] = (units, unit_info(meta.get("unit", "second")))
    return out


def _histogram_mean(hist, source, name, where) -> float:
    _need(isinstance(hist, list), source, f"{_prefix(name)}{where}: histogram is not a list")
    total = weight = 0.0
    for pair in hist:
        _need(
            isinstance(pair, list) and len(pair) == 2,
            source,
            f"{_prefix(name)}{where}: histogram entries must be [value, count] pairs",
        )
        v = _number(pair[0], source, name, where)
        c = _number(pair[1], source, name, where)
        _need(c >= 0, source, f"{_prefix(name)}{where}: negative count in the histogram")
        total += v * c
        weight += c
    _need(weight > 0, source, f"{_prefix(name)}{where}: the histogram holds no samples")
    return total / weight


def _parse_jmh(data, source) -> dict:
    _need(isinstance(data, list), source, "a JMH result file holds a JSON array")
    _need(len(data) > 0, source, "the JMH result array is empty")
    parsed = []
    for k, entry in enumerate(data, 1):
        _need(isinstance(entry, dict), source, f"result #{k} is not a JSON object")
        base = entry.get("benchmark")
        _need(isinstance(base, str) and base, source, f"result #{k} has no 'benchmark' name")
        params = entry.get("params") or {}
        _need(isinstance(params, dict), source, f"{_prefix(base)}'params' is not an object")
        name = base + (":" + ",".join(f"{p}={v}" for p, v in params.items()) if params else "")
        mode = str(entry.get("mode", ""))
        pm = entry.get("primaryMetric")
        _need(isinstance(pm, dict), source, f"{_prefix(name)}no 'primaryMetric'")
        unit = unit_info(pm.get("scoreUnit"), default_rate=(mode == "thrpt"))
        if pm.get("rawData") is not None:
            raw = pm["rawData"]
            _need(isinstance(raw, list), source, f"{_prefix(name)}'rawData' is not a list")
            forks = [_numbers(f, source, name, f"fork {i}") for i, f in enumerate(raw, 1)]
        elif pm.get("rawDataHistogram") is not None:
            hist = pm["rawDataHistogram"]
            _need(isinstance(hist, list), source, f"{_prefix(name)}'rawDataHistogram' is not a list")
            forks = []
            for i, fork in enumerate(hist, 1):
                _need(isinstance(fork, list), source, f"{_prefix(name)}fork {i} is not a list")
                forks.append(
                    [
                        _histogram_mean(it, source, name, f"fork {i}, iteration {j}")
                        for j, it in enumerate(fork, 1)
                    ]
                )
        else:
            raise InputError(
                source,
                f"{_prefix(name)}no 'rawData' or 'rawDataHistogram' in 'primaryMetric' "
                "(the measurements are needed, not only the score)",
            )
        _need(len(forks) > 0, source, f"{_prefix(name)}no forks in the raw data")
        parsed.append((name, mode, forks, unit))
    counts = Counter(name for name, *_ in parsed)
    out: dict = {}
    for name, mode, forks, unit in parsed:
        key = f"{name} [{mode}]" if counts[name] > 1 else name
        if key in out:
            raise InputError(source, f"{_prefix(key)}appears twice in the file")
        out[key] = (forks, unit)
    return out


_GBENCH_AGGREGATE_SUFFIXES = ("_mean", "_median", "_stddev", "_cv", "_BigO", "_RMS")


def _parse_gbench(data, source, time_field: str, notes) -> dict:
    _need(isinstance(data, dict), source, "a Google Benchmark file holds a JSON object")
    benches = data.get("benchmarks")
    _need(isinstance(benches, list), source, "no 'benchmarks' list")
    groups: dict[str, list[float]] = {}
    units: dict[str, str] = {}
    failed: dict[str, str] = {}
    aggregates = 0
    for k, e in enumerate(benches, 1):
        _need(isinstance(e, dict), source, f"entry #{k} of 'benchmarks' is not a JSON object")
        name = e.get("run_name") or e.get("name")
        _need(isinstance(name, str) and name, source, f"entry #{k} of 'benchmarks' has no name")
        is_agg = e.get("run_type") == "aggregate" or "aggregate_name" in e
        if not is_agg and "run_type" not in e and str(e.get("name", "")).endswith(
            _GBENCH_AGGREGATE_SUFFIXES
        ):
            is_agg = True  # files from versions without run_type
        if is_agg:
            aggregates += 1
            continue
        if e.get("error_occurred"):
            failed[name] = str(e.get("error_message", "no message"))
            continue
        _need(time_field in e, source, f"{_prefix(name)}repetition without '{time_field}'")
        v = _number(e[time_field], source, name, f"'{time_field}' of entry #{k}")
        unit = str(e.get("time_unit", "ns"))
        if name in units and units[name] != unit:
            raise InputError(
                source, f"{_prefix(name)}repetitions in different time units ({units[name]}, {unit})"
            )
        units[name] = unit
        groups.setdefault(name, []).append(v)
    for name, msg in failed.items():
        if notes is not None:
            notes.append(f"{source}: {_prefix(name)}skipped: the harness reported an error ({msg})")
        groups.pop(name, None)
    if not groups:
        hint = (
            " (only aggregates: rerun without --benchmark_report_aggregates_only)"
            if aggregates
            else ""
        )
        raise InputError(source, f"no benchmark repetitions in the file{hint}")
    return {name: (vals, unit_info(units[name])) for name, vals in groups.items()}


def _parse_hyperfine(data, source) -> dict:
    _need(isinstance(data, dict), source, "a hyperfine file holds a JSON object")
    results = data.get("results")
    _need(isinstance(results, list) and results, source, "no 'results' list")
    out: dict = {}
    for k, r in enumerate(results, 1):
        _need(isinstance(r, dict), source, f"result #{k} is not a JSON object")
        name = r.get("command")
        _need(isinstance(name, str) and name, source, f"result #{k} has no 'command'")
        _need(
            "times" in r,
            source,
            f"{_prefix(name)}no 'times' (the individual run times are needed; "
            "they are exported by hyperfine's --export-json)",
        )
        times = _numbers(r["times"], source, name, "times")
        params = r.get("parameters") or {}
        if name in out and isinstance(params, dict) and params:
            name = name + " [" + ",".join(f"{p}={v}" for p, v in params.items()) + "]"
        if name in out:
            raise InputError(source, f"{_prefix(name)}appears twice in the file")
        out[name] = (times, unit_info("s"))
    return out


# -- tidy tables ------------------------------------------------------------------------
def _tidy_ragged(frame, levels, value, source, benchmark):
    """Nested dicts ``label -> ...`` down to lists of values, in order of first appearance."""
    import pandas as pd

    missing = [c for c in [*levels, value] if c not in frame.columns]
    if missing:
        raise InputError(
            source,
            f"{_prefix(benchmark)}missing column(s) {', '.join(repr(c) for c in missing)}; "
            f"columns are {list(map(str, frame.columns))}",
        )
    if len(frame) == 0:
        raise InputError(source, f"{_prefix(benchmark)}no rows")
    values = pd.to_numeric(frame[value], errors="coerce").to_numpy(dtype=np.float64)
    if not np.all(np.isfinite(values)):
        bad = np.flatnonzero(~np.isfinite(values))
        raise InputError(
            source,
            f"{_prefix(benchmark)}column {value!r} has {bad.size} missing, non-numeric, NaN "
            f"or infinite value(s)",
        )
    keys = [frame[c].to_numpy() for c in levels]
    for c, k in zip(levels, keys):
        if pd.isna(k).any():
            raise InputError(source, f"{_prefix(benchmark)}grouping column {c!r} has missing labels")
    root: dict | list = {} if levels else []
    for i in range(len(values)):
        node = root
        for depth in range(len(levels)):
            last = depth == len(levels) - 1
            node = node.setdefault(keys[depth][i], [] if last else {})
        node.append(float(values[i]))
    return root


def _read_tidy(
    path,
    *,
    levels,
    value,
    where,
    warmup,
    benchmark_column,
    balance,
    notes,
) -> dict:
    source = str(path)
    levels = list(levels)
    if benchmark_column is None and balance is None:
        design = load_design(path, levels=levels, value=value, where=where, warmup=warmup)
        return {None: Benchmark(design, UnitInfo())}
    frame = apply_where(read_table(path), where, source)
    if benchmark_column is None:
        groups = [(None, frame)]
    else:
        if benchmark_column not in frame.columns:
            raise InputError(
                source,
                f"no benchmark column {benchmark_column!r}; columns are "
                f"{list(map(str, frame.columns))}",
            )
        col = frame[benchmark_column]
        if col.isna().any():
            raise InputError(source, f"benchmark column {benchmark_column!r} has missing names")
        names = col.astype(str)
        groups = [(name, frame[names == name]) for name in dict.fromkeys(names)]
        if benchmark_column in levels:
            raise InputError(
                source, f"the benchmark column {benchmark_column!r} is also a --levels column"
            )
    out: dict = {}
    for name, sub in groups:
        if balance is None:
            try:
                design = from_tidy(sub, levels, value=value)
            except DesignError as exc:
                msg = str(exc)
                if msg.startswith("unbalanced"):
                    msg += "; use --balance truncate to keep the first units of every group"
                raise InputError(source, f"{_prefix(name)}{msg}") from None
        else:
            nested = _tidy_ragged(sub, levels, value, source, name)
            design = design_from_ragged(
                nested,
                (*levels, "measurement"),
                balance=balance,
                source=source,
                benchmark=name,
                notes=notes,
            )
        if np.any(design.data <= 0):
            bad = int(np.count_nonzero(design.data <= 0))
            raise InputError(
                source,
                f"{_prefix(name)}column {value!r} has {bad} non-positive value(s); "
                "times must be positive",
            )
        out[name] = Benchmark(_trim(design, source, name, warmup), UnitInfo())
    return out


# -- entry point ------------------------------------------------------------------------
def read_benchmarks(
    path: str | os.PathLike,
    fmt: str | None = None,
    *,
    levels: Sequence[str] = ("binary", "execution"),
    value: str = "time",
    where: Iterable[str] = (),
    warmup: int = 0,
    benchmark_column: str | None = None,
    balance: str | None = None,
    gbench_time: str = "real_time",
    notes: list[str] | None = None,
) -> dict[str | None, Benchmark]:
    """Read every benchmark of a result file.

    Parameters
    ----------
    path : path-like
        The file.
    fmt : str, optional
        One of :data:`FORMATS`; detected from the file when None
        (:func:`detect_format`).
    levels, value, where : optional
        Tidy tables only: grouping columns (highest first), the measured column, and
        ``COL=VALUE`` row filters.
    warmup : int
        Drop the first ``warmup`` measurements of every lowest-level group (pyperf
        values of a process, JMH iterations of a fork, the first runs or repetitions
        of a one-level file), after balancing.
    benchmark_column : str, optional
        Tidy tables only: split the rows into benchmarks by this column. Without it
        the whole table is one unnamed benchmark (key None).
    balance : {None, "truncate"}
        See :func:`design_from_ragged`.
    gbench_time : {"real_time", "cpu_time"}
        Google Benchmark only: which time to read.
    notes : list of str, optional
        Receives a line for everything dropped or skipped on the way.

    Returns
    -------
    dict
        ``{name: Benchmark(design, unit)}`` in file order.

    Raises
    ------
    InputError
        Any problem with the file, naming it and the benchmark concerned.
    """
    p = Path(path)
    source = str(path)
    if fmt is None:
        fmt = detect_format(p)
    elif fmt not in FORMATS:
        raise InputError(source, f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    if balance not in (None, *BALANCE_MODES):
        raise InputError(source, f"unknown --balance mode {balance!r}; use one of {BALANCE_MODES}")
    if fmt == "tidy":
        return _read_tidy(
            path,
            levels=levels,
            value=value,
            where=where,
            warmup=warmup,
            benchmark_column=benchmark_column,
            balance=balance,
            notes=notes,
        )
    if not p.exists():
        raise InputError(source, "no such file")
    if p.is_dir():
        raise InputError(source, "is a directory, not a file")
    data = _load_json(p)
    if fmt == "pyperf":
        raw = _parse_pyperf(data, source)
    elif fmt == "jmh":
        raw = _parse_jmh(data, source)
    elif fmt == "gbench":
        if gbench_time not in GBENCH_TIMES:
            raise InputError(source, f"--gbench-time must be one of {GBENCH_TIMES}")
        raw = _parse_gbench(data, source, gbench_time, notes)
    else:
        raw = _parse_hyperfine(data, source)
    lv = FORMAT_LEVELS[fmt]
    out: dict = {}
    for name, (units, unit) in raw.items():
        design = design_from_ragged(
            units, lv, balance=balance, source=source, benchmark=name, notes=notes
        )
        out[name] = Benchmark(_finish(design, source, name, warmup), unit)
    return out
