"""Go benchmark text (``go test -bench . -count N``, benchstat's input).

Every result line reads ``BenchmarkName-P  N  v ns/op [v unit ...]``: the name (with
``-P``, the GOMAXPROCS the benchmark ran with, when it is not 1), the number of
iterations ``N`` the harness timed, and the value of each metric per iteration. The
time per operation (``ns/op``) is read; the other metrics (``B/op``,
``allocs/op``, ``MB/s``, custom ones) are ignored. Every line of a benchmark is one
run of it: one level, ``run`` (``-count`` sets how many). The runs of one ``-count N``
share a ``go test`` process, so the variation between processes is only seen in
files that concatenate several ``go test`` invocations.

The output of ``go test -json`` (test2json events) is read the same way, from the
text of its ``output`` events.

Configuration lines (``goos: linux``, ``pkg: hash/crc32``, ``cpu: ...``) and any
other text (test logs, ``PASS``, ``ok  pkg 1.2s``) may come before, between and after
the results, as in a ``go test`` log; they are skipped. A benchmark's name is kept as
written, ``-P`` suffix included, which is how benchstat names its rows, so that
``BenchmarkX-8`` and ``BenchmarkX-16`` are two benchmarks (run with ``-cpu 1,8,16``,
say). A name found under two configurations (two ``pkg:`` headers, or benchstat's
``note: before`` and ``note: after`` in one file) is two benchmarks, named with the
keys that differ in brackets: ``BenchmarkX [note=after]``.
"""

from __future__ import annotations

import json
import math
import re
import warnings

from .._errors import EsizeWarning, InputError
from ._common import decode_text, plural, prefix, read_bytes
from .units import unit_info

FORMAT = "gotest"
LEVELS = ("run",)
#: Harness option setting the count of each level.
NEXT_RUN_OPTIONS = {"run": "-count"}
#: The metric read from every result line.
METRIC = "ns/op"
#: Bytes at the start of a file looked at to recognise Go benchmark text.
SNIFF_BYTES = 1 << 16

# a benchmark name: "Benchmark", then nothing or a character that is not a lower-case
# letter (BenchmarkFoo, Benchmark_foo, Benchmark/sub), then anything but blanks
_NAME = re.compile(r"Benchmark(?:[^\sa-z]\S*)?")
_CONFIG = re.compile(r"([a-z][^\s:]*):(?:\s(.*))?")
_KNOWN_CONFIG = ("goos", "goarch", "pkg", "cpu")
# benchstat's own output: the table rules of benchstat 2 and the header of benchstat 1
_BENCHSTAT_OUT = re.compile(
    r"^\s*│.*│\s*$|^name\s+((old|new) )?\S+/(op|s)\b|^.*±.*\(p=\d\.\d+ n=\d+(\+\d+)?\)",
    re.M,
)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _result(fields: list[str]) -> tuple[int, list[tuple[float, str]]] | None:
    """Iterations and (value, unit) pairs of a result line's fields, or None."""
    if len(fields) < 4 or len(fields) % 2 != 0 or not _NAME.fullmatch(fields[0]):
        return None
    if not fields[1].isdigit():
        return None
    pairs = []
    for k in range(2, len(fields), 2):
        v = _number(fields[k])
        unit = fields[k + 1]
        if v is None or _number(unit) is not None:
            return None
        pairs.append((v, unit))
    return int(fields[1]), pairs


def sniff_text(head: str) -> bool:
    """Whether the start of a text file is Go benchmark output (or benchstat's summary
    of it, which :func:`parse_text` names as such).

    True when a line holds a benchmark result (a name starting with ``Benchmark``,
    an iteration count, then value and unit pairs with a unit that is not a number,
    which no header or row of a tidy table has), or when the first line that is not
    blank is one of ``go test``'s configuration lines (``goos:``, ``goarch:``,
    ``pkg:``, ``cpu:``).
    """
    lines = head.splitlines()
    if len(head) >= SNIFF_BYTES and lines:
        lines = lines[:-1]  # the last line may be cut
    first = next((ln.strip() for ln in lines if ln.strip()), "")
    m = _CONFIG.fullmatch(first)
    if m and m.group(1) in _KNOWN_CONFIG:
        return True
    if any(_result(ln.split()) is not None for ln in lines if ln.startswith("Benchmark")):
        return True
    return _BENCHSTAT_OUT.search(head) is not None


def is_test2json(head: str) -> bool:
    """Whether the start of a file is ``go test -json`` output (test2json events, one
    JSON object per line, with an ``Action``)."""
    first = next((ln for ln in head.splitlines() if ln.strip()), "")
    if '"Action"' not in first:
        return False
    try:
        event = json.loads(first)
    except (ValueError, RecursionError):
        return False
    return isinstance(event, dict) and "Action" in event and (
        "Package" in event or "Output" in event)


def events_text(text: str, source) -> str:
    """The output that ``go test -json`` wrapped in events, package by package.

    test2json splits a benchmark's result line in two events (the name, then the
    numbers); joining every package's ``output`` events in order gives the text
    ``go test`` would have printed.
    """
    per_package: dict = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            raise InputError(source, f"line {lineno} of the go test -json output is not a "
                             "JSON object") from None
        if not isinstance(event, dict):
            raise InputError(source, f"line {lineno} of the go test -json output is not a "
                             "JSON object")
        if event.get("Action") == "output" and isinstance(event.get("Output"), str):
            per_package.setdefault(str(event.get("Package", "")), []).append(event["Output"])
    return "".join("".join(parts) + "\n" for parts in per_package.values())


def read_text(p, max_bytes: int | None = None) -> str:
    """The UTF-8 text of file ``p`` (gzip-compressed or not), or an InputError; the
    output ``go test -json`` wrapped in events is unwrapped (:func:`events_text`)."""
    text = decode_text(read_bytes(p), p, max_bytes, "Go benchmark")
    if is_test2json(text[:SNIFF_BYTES]):
        return events_text(text, p)
    return text


def parse_text(text: str, source) -> dict:
    """``{name: (ns/op of every run, UnitInfo)}`` in the order of first appearance.

    Raises
    ------
    InputError
        The text holds benchstat's summary instead of results, no result line, no
        ``ns/op`` on any result line, or a value that is not a finite number.

    Warns
    -----
    EsizeWarning
        For benchmarks left out because none of their lines has ``ns/op``.
    """
    runs: dict[tuple[str, tuple], list[float]] = {}
    config: dict[str, str] = {}
    without: dict[tuple[str, tuple], str] = {}
    results = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.startswith("Benchmark"):
            m = _CONFIG.fullmatch(line.rstrip())  # indented log lines are not configuration
            if m:
                config[m.group(1)] = (m.group(2) or "").strip()
            continue
        fields = line.split()
        parsed = _result(fields)
        if parsed is None:
            continue
        results += 1
        _, pairs = parsed
        key = (fields[0], tuple(sorted(config.items())))
        value = next((v for v, unit in pairs if unit == METRIC), None)
        if value is None:
            without.setdefault(key, pairs[0][1])
            continue
        if not math.isfinite(value):
            raise InputError(
                source, f"{prefix(fields[0])}line {lineno}: {METRIC} is {value!r}, not a "
                "finite number")
        runs.setdefault(key, []).append(value)
    if not results:
        if _BENCHSTAT_OUT.search(text):
            raise InputError(
                source, "this is benchstat's summary (medians and ± ranges), not the "
                "measurements; give esize the 'go test -bench' output benchstat read")
        raise InputError(
            source, "Go benchmark text without any result line ('BenchmarkName  N  "
            "v ns/op'); did the benchmarks fail, or does -bench match none?")
    left_out = [k for k in without if k not in runs]
    if not runs:
        units = sorted({without[k] for k in left_out})
        raise InputError(
            source, f"no result line has {METRIC} (units found: {', '.join(units)}); "
            f"esize reads the time per operation")
    if left_out:
        names = ", ".join(k[0] for k in left_out[:5]) + (
            f" and {len(left_out) - 5} more" if len(left_out) > 5 else "")
        warnings.warn(
            f"{source}: {len(left_out)} {plural('benchmark', len(left_out))} without "
            f"{METRIC} left out: {names}", EsizeWarning, stacklevel=2)
    configs: dict[str, list[dict]] = {}
    for name, conf in runs:
        configs.setdefault(name, []).append(dict(conf))
    unit = unit_info(METRIC)
    out: dict = {}
    for (name, conf), values in runs.items():
        out[_label(name, dict(conf), configs[name])] = (values, unit)
    return out


def _label(name: str, conf: dict, all_confs: list[dict]) -> str:
    """``name``, or ``name [key=value, ...]`` with the configuration keys that differ
    between the blocks of the file where the benchmark appears (two ``pkg:``, or
    benchstat's ``note: before`` / ``note: after`` in one file)."""
    if len(all_confs) == 1:
        return name
    keys = sorted({k for c in all_confs for k in c}, key=lambda k: (k != "pkg", k))
    differ = [k for k in keys if len({c.get(k) for c in all_confs}) > 1]
    tags = ", ".join(f"{k}={conf.get(k, '')}" for k in differ)
    return f"{name} [{tags}]"
