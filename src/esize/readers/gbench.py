"""Google Benchmark result files (``--benchmark_format=json`` or ``--benchmark_out``).

Every repetition of a benchmark is one unit (one level, ``repetition``); aggregate
rows (mean, median, stddev, cv, BigO, RMS) are ignored, and benchmarks the harness
reports as failed (``"error_occurred": true``) or that skipped themselves
(``"skipped": true``, ``SkipWithMessage``) are left out with an
:class:`~esize.EsizeWarning`; either flag not being a JSON boolean is an error rather
than a guess.
"""

from __future__ import annotations

import warnings

from .._errors import EsizeWarning, InputError
from ._common import need, number, one_process_caveat, prefix, shown
from .units import unit_info

FORMAT = "gbench"
LEVELS = ("repetition",)
#: Harness option setting the count of each level (an ``=`` joins it to the count).
NEXT_RUN_OPTIONS = {"repetition": "--benchmark_repetitions="}
#: The level above the file's own that none of its files can see: the harness
#: measures every repetition of a benchmark in its one process.
UNOBSERVED_TOP = "process"
#: What every benchmark read from such a file says of it.
UNOBSERVED_CAVEAT = one_process_caveat("repetition")
#: The times a Google Benchmark file holds for every repetition.
TIMES = ("real_time", "cpu_time")

_AGGREGATE_SUFFIXES = ("_mean", "_median", "_stddev", "_cv", "_BigO", "_RMS")


def sniff(doc) -> bool:
    """Whether a parsed JSON document looks like Google Benchmark's."""
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        return False
    return "context" in doc or any(
        isinstance(b, dict) and ("real_time" in b or "run_type" in b) for b in doc["benchmarks"]
    )


def _is_aggregate(e: dict) -> bool:
    if e.get("run_type") == "aggregate" or "aggregate_name" in e:
        return True
    # files from versions without run_type
    return "run_type" not in e and str(e.get("name", "")).endswith(_AGGREGATE_SUFFIXES)


def parse(doc, source, gbench_time: str = "real_time") -> dict:
    """``{name: (repetition times, UnitInfo)}``.

    Warns
    -----
    EsizeWarning
        For every benchmark left out because the harness reported an error or the
        benchmark skipped itself.
    """
    if gbench_time not in TIMES:
        raise InputError(source, f"--gbench-time must be one of {TIMES}")
    need(isinstance(doc, dict), source, "a Google Benchmark file holds a JSON object")
    benches = doc.get("benchmarks")
    need(isinstance(benches, list), source, "no 'benchmarks' list")
    groups: dict[str, list[float]] = {}
    units: dict[str, str] = {}
    failed: dict[str, str] = {}
    aggregates = 0
    for k, e in enumerate(benches, 1):
        need(isinstance(e, dict), source, f"entry #{k} of 'benchmarks' is not a JSON object")
        name = e.get("run_name") or e.get("name")
        need(isinstance(name, str) and name, source, f"entry #{k} of 'benchmarks' has no name")
        if _is_aggregate(e):
            aggregates += 1
            continue
        for flag in ("error_occurred", "skipped"):
            v = e.get(flag, False)
            need(
                isinstance(v, bool),
                source,
                f"{prefix(name)}entry #{k} has '{flag}': {shown(v)}; "
                "Google Benchmark writes true or false",
            )
        if e.get("error_occurred", False):
            failed[name] = f"the harness reported an error ({e.get('error_message', 'no message')})"
            continue
        if e.get("skipped", False):
            failed[name] = f"the benchmark skipped itself ({e.get('skip_message', 'no message')})"
            continue
        need(gbench_time in e, source, f"{prefix(name)}repetition without '{gbench_time}'")
        v = number(e[gbench_time], source, name, f"'{gbench_time}' of entry #{k}")
        unit = str(e.get("time_unit", "ns"))
        if name in units and units[name] != unit:
            raise InputError(
                source, f"{prefix(name)}repetitions in different time units ({units[name]}, {unit})"
            )
        units[name] = unit
        groups.setdefault(name, []).append(v)
    for name, msg in failed.items():
        warnings.warn(
            f"{source}: {prefix(name)}skipped: {msg}",
            EsizeWarning,
            stacklevel=2,
        )
        groups.pop(name, None)
    if not groups:
        hint = (
            " (only aggregates: rerun without --benchmark_report_aggregates_only)"
            if aggregates
            else ""
        )
        raise InputError(source, f"no benchmark repetitions in the file{hint}")
    return {name: (vals, unit_info(units[name])) for name, vals in groups.items()}
