"""BenchmarkDotNet result files (the full JSON export, ``*-report-full.json`` or
``*-report-full-compressed.json``).

Every benchmark of ``Benchmarks[]`` lists its ``Measurements``: the jitting, pilot,
warm-up and actual iterations of the overhead and of the workload, and the
``Workload``/``Result`` iterations, which are the actual workload iterations with
the overhead subtracted and the outliers removed. The latter are the values the
harness computes ``Statistics`` from, and the ones read here, in nanoseconds per
operation (``Nanoseconds / Operations``); files of BenchmarkDotNet before 0.11 call
them ``IterationMode: "Result"`` and have no stage. Each iteration belongs to one
start of the benchmark's process, ``LaunchIndex``: levels ``launch > iteration``.
Outlier removal runs per launch, so launches can keep different numbers of
iterations (``--balance truncate`` then evens them out).

Benchmarks whose ``Statistics`` is null (the harness reports them as failed) are
left out with an :class:`~esize.EsizeWarning`. A file without ``Measurements``
(the brief export) holds statistics only and is refused with a message naming the
exporter that keeps them.
"""

from __future__ import annotations

import warnings
from collections import Counter

from .._errors import EsizeWarning, InputError
from ._common import need, number, prefix, shown
from .units import unit_info

FORMAT = "benchmarkdotnet"
LEVELS = ("launch", "iteration")
#: Harness option setting the count of each level (``--launchCount``,
#: ``--iterationCount`` of the command line made by ``BenchmarkSwitcher``).
NEXT_RUN_OPTIONS = {"launch": "--launchCount", "iteration": "--iterationCount"}

_FULL_EXPORT = (
    "export with BenchmarkDotNet's full JSON exporter (JsonExporter.Full or "
    "JsonExporter.FullCompressed, or --exporters json), which keeps every iteration"
)


def sniff(doc) -> bool:
    """Whether a parsed JSON document looks like BenchmarkDotNet's."""
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("Benchmarks"), list)
        and ("HostEnvironmentInfo" in doc or "Title" in doc)
    )


def _name(b: dict, k: int) -> str:
    full = b.get("FullName")
    if isinstance(full, str) and full:
        return full
    parts = [b.get(key) for key in ("Namespace", "Type", "Method")]
    base = ".".join(str(p) for p in parts if isinstance(p, str) and p)
    params = b.get("Parameters")
    if base and isinstance(params, str) and params:
        base += f"({params})"
    return base or f"#{k}"


def _is_result(m: dict) -> bool:
    mode, stage = m.get("IterationMode"), m.get("IterationStage")
    if stage is None:  # before 0.11: one mode, "Result", for the same iterations
        return mode == "Result"
    return mode == "Workload" and stage == "Result"


def _launches(ms: list, source, name) -> dict:
    """``{launch index: [ns per operation, ...]}`` of the Workload/Result iterations,
    in the file's order within each launch."""
    launches: dict = {}
    for j, m in enumerate(ms, 1):
        need(isinstance(m, dict), source,
             f"{prefix(name)}measurement #{j} is not a JSON object")
        if not _is_result(m):
            continue
        where = f"measurement #{j}"
        launch = m.get("LaunchIndex", 1)
        need(isinstance(launch, int) and not isinstance(launch, bool), source,
             f"{prefix(name)}{where} has 'LaunchIndex': {shown(launch)}, not a whole number")
        ns = number(m.get("Nanoseconds"), source, name, f"'Nanoseconds' of {where}")
        ops = number(m.get("Operations"), source, name, f"'Operations' of {where}")
        need(ops > 0 and ops == int(ops), source,
             f"{prefix(name)}{where} has 'Operations': {shown(m.get('Operations'))}; "
             "BenchmarkDotNet writes a whole number of at least 1")
        launches.setdefault(launch, []).append(ns / ops)
    return dict(sorted(launches.items()))


def _no_result(ms: list) -> str:
    """What to say of measurements without a Workload/Result iteration."""
    if not ms:
        return f"'Measurements' is empty; {_FULL_EXPORT}"
    kinds = dict.fromkeys(f"{m.get('IterationMode')}/{m.get('IterationStage')}" for m in ms)
    return (f"none of its {len(ms)} measurements is a Workload/Result iteration, the ones "
            f"the harness computes its statistics from (it holds {', '.join(kinds)} only): "
            "the file was cut short after the run")


def parse(doc, source) -> dict:
    """``{name: (launches, UnitInfo)}``: per benchmark, one list of iteration values
    (ns per operation) per launch.

    Warns
    -----
    EsizeWarning
        For every benchmark left out because the harness reported it as failed.
    """
    need(isinstance(doc, dict), source, "a BenchmarkDotNet file holds a JSON object")
    benches = doc.get("Benchmarks")
    need(isinstance(benches, list) and benches, source,
         "no benchmarks: 'Benchmarks' is empty or not a list")
    parsed, failed, brief = [], [], []
    for k, b in enumerate(benches, 1):
        need(isinstance(b, dict), source, f"benchmark #{k} is not a JSON object")
        name = _name(b, k)
        stats = b.get("Statistics")
        ms = b.get("Measurements")
        if ms is None:
            if stats is None:
                failed.append(name)
            else:
                brief.append(name)
            continue
        need(isinstance(ms, list), source,
             f"{prefix(name)}'Measurements' holds {shown(ms)}, not a list")
        launches = _launches(ms, source, name)
        if stats is None and not launches:
            failed.append(name)
            continue
        if not launches:
            raise InputError(source, f"{prefix(name)}{_no_result(ms)}")
        parsed.append((name, b.get("DisplayInfo"), launches))
    if brief and not parsed:
        raise InputError(
            source,
            f"the file holds BenchmarkDotNet's statistics only, no 'Measurements' "
            f"in any of its {len(brief)} {'benchmark' if len(brief) == 1 else 'benchmarks'}, "
            f"as the brief JSON exports write it; {_FULL_EXPORT}",
        )
    for name in failed:
        warnings.warn(f"{source}: {prefix(name)}skipped: the harness reported it as failed "
                      "(no statistics)", EsizeWarning, stacklevel=2)
    if brief:
        warnings.warn(
            f"{source}: {len(brief)} benchmark(s) without 'Measurements' left out: "
            f"{', '.join(brief[:5])}{' ...' if len(brief) > 5 else ''}",
            EsizeWarning, stacklevel=2)
    if not parsed:
        raise InputError(source, "every benchmark failed: the file holds no measurements")
    counts = Counter(name for name, _, _ in parsed)
    out: dict = {}
    for name, display, launches in parsed:
        key = name
        if counts[name] > 1 and isinstance(display, str) and ": " in display:
            key = f"{name} [{display.split(': ', 1)[1]}]"  # the same method in several jobs
        if key in out:
            raise InputError(source, f"{prefix(key)}appears twice in the file")
        out[key] = (launches, unit_info("ns"))
    return out
