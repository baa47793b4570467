"""Go benchmark text (``go test -bench . -count N``, benchstat's input).

Every result line reads ``BenchmarkName-P  N  v ns/op [v unit ...]``: the name (with
``-P``, the GOMAXPROCS the benchmark ran with, when it is not 1), the number of
iterations ``N`` the harness timed, and the value of each metric per iteration. The
time per operation (``ns/op``) is read; the other metrics (``B/op``,
``allocs/op``, ``MB/s``, custom ones) are ignored.

Levels: ``process > run``. One ``go test`` invocation builds a test binary per package
and runs each once: every ``-count N`` result line of a benchmark is one run, and the
runs of one binary share a process. Files that concatenate several invocations
(``for i in 1 2 3 4 5; do go test -bench . -count 4; done > old.txt``) hold several
processes, which is what shows the variation between processes. The end of a binary's
output is recognised by its status lines: ``PASS`` or ``FAIL`` alone on a line, and
the go command's summary of a package, ``ok  <pkg> <time>`` or ``FAIL  <pkg> ...``.
A repeated header (a ``goos:``, ``goarch:``, ``pkg:`` or ``cpu:`` line after results
of the current process) ends a process too, for logs whose status lines were cut
out. The first result line after such an end starts a new process; a file without
any is one process. A benchmark need not appear in every process (a ``pkg:`` block
that lacks it, a ``-run``/``-bench`` pattern changed between invocations): it gets
the processes it appears in.

The output of ``go test -json`` (test2json events) is read the same way, from the
text of its ``output`` events joined package by package.

Configuration lines (``goos: linux``, ``pkg: hash/crc32``, ``cpu: ...``) and any
other text (test logs, ``PASS``, ``ok  pkg 1.2s``) may come before, between and after
the results, as in a ``go test`` log; they are skipped. A benchmark's name is kept as
written, ``-P`` suffix included, which is how benchstat names its rows, so that
``BenchmarkX-8`` and ``BenchmarkX-16`` are two benchmarks (run with ``-cpu 1,8,16``,
say). A name found under two configurations (two ``pkg:`` headers, or benchstat's
``note: before`` and ``note: after`` in one file) is two benchmarks, named with the
keys that differ in brackets: ``BenchmarkX [note=after]``.

Which lines are results is decided as benchstat's reader (``golang.org/x/perf/benchfmt``)
does, except that it warns and goes on where a malformed line stops the reading here.
A line is a result when it starts with a benchmark name (``Benchmark``, then nothing
or a character that is not a lower-case letter) followed by blanks and an iteration
count. A name alone (what ``go test -v`` prints before a benchmark's results), or a
name followed by a word that is not a number (a benchmark's own output printed after
its name, ``--- FAIL``), is not a result and is skipped, where benchstat warns. Once
the second field is a number (digits of any script, with or without a sign, point,
exponent or separators), the line must be well formed, or reading stops with the
line's number: the count in ASCII digits (``[0-9]+``), then one or more pairs of
a value and a unit that is not a number, each value an ASCII decimal number (``12``,
``1.5``, ``1.2e+03``; ``NaN`` and ``Inf`` are read, then refused for ``ns/op``).
Digits of other scripts (``١٢``, ``𝟏𝟐``, ``²``) and underscores (``1_000``), which
Python's own conversions would accept, are refused, as Go refuses them.
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
LEVELS = ("process", "run")
#: Harness option setting the count of each level. ``go test`` has no option for the
#: number of processes (each invocation is one per package), so ``process`` has none.
NEXT_RUN_OPTIONS = {"run": "-count"}
#: How to observe a level no ``go test`` option sets: a file of one invocation holds one
#: process.
SINGLE_UNIT_ADVICE = {"process": "run go test 5 or more times into one file (each run "
                                 "is a process) to observe it"}
#: The metric read from every result line.
METRIC = "ns/op"
#: Bytes at the start of a file looked at to recognise Go benchmark text.
SNIFF_BYTES = 1 << 16

# a benchmark name: "Benchmark", then nothing or a character that is not a lower-case
# letter (BenchmarkFoo, Benchmark_foo, Benchmark/sub), then anything but blanks
_NAME = re.compile(r"Benchmark(?:[^\sa-z]\S*)?")
_CONFIG = re.compile(r"([a-z][^\s:]*):(?:\s(.*))?")
_KNOWN_CONFIG = ("goos", "goarch", "pkg", "cpu")
# the end of a test binary's output: its own PASS or FAIL, or the go command's line
# for the package ("ok  \tpkg\t1.2s", "FAIL\tpkg\t0.5s", "FAIL\tpkg [build failed]")
_END = re.compile(r"PASS|FAIL|(?:ok|FAIL)[ \t]+\S.*")
# an iteration count, and a value as Go's strconv.ParseFloat reads it in base 10
# (ASCII only: re.ASCII keeps IGNORECASE from matching a dotless i or a Kelvin sign)
_COUNT = re.compile(r"[0-9]+")
_VALUE = re.compile(
    r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?|inf(?:inity)?|nan)",
    re.ASCII | re.IGNORECASE,
)
# benchstat's own output: the table rules of benchstat 2 and the header of benchstat 1
_BENCHSTAT_OUT = re.compile(
    r"^\s*│.*│\s*$|^name\s+((old|new) )?\S+/(op|s)\b|^.*±.*\(p=\d\.\d+ n=\d+(\+\d+)?\)",
    re.M,
)


class _Malformed(Exception):
    """A line that has a benchmark name and an iteration count but is not a result."""


def _numeric(text: str) -> bool:
    """Whether a field was meant as a number: digits of any script (``١٢``, ``²``),
    possibly with a sign, a point, an exponent or separators (``1_000``, ``1,5``)."""
    return any(c.isnumeric() for c in text) and all(c.isnumeric() or c in "+-._,eE"
                                                      for c in text)


def _result(fields: list[str]) -> tuple[int, list[tuple[float, str]]] | None:
    """Iterations and (value, unit) pairs of a result line's fields.

    None when the line is not a result (no benchmark name, or no iteration count
    after it); :class:`_Malformed` when it has both but the rest is not value and
    unit pairs in ASCII digits.
    """
    if len(fields) < 2 or not _NAME.fullmatch(fields[0]):
        return None
    name, count, rest = fields[0], fields[1], fields[2:]
    if not _COUNT.fullmatch(count):
        if _numeric(count):
            raise _Malformed(f"the iteration count {count!r} of {name} is not a whole "
                             "number in ASCII digits")
        return None
    if not rest:
        raise _Malformed(f"{name} has an iteration count ({count}) but no value and unit")
    pairs = []
    for k in range(0, len(rest), 2):
        value = rest[k]
        if not _VALUE.fullmatch(value):
            raise _Malformed(f"the value {value!r} of {name} is not a number in ASCII "
                             "digits")
        if k + 1 == len(rest):
            raise _Malformed(f"the value {value} of {name} has no unit after it")
        unit = rest[k + 1]
        if _VALUE.fullmatch(unit) or _numeric(unit):
            raise _Malformed(f"{name} has a number ({unit!r}) where the unit of {value} "
                             "belongs")
        pairs.append((float(value), unit))
    return int(count), pairs


def _looks_like_result(fields: list[str]) -> bool:
    """Whether the fields of a line read as a result, well formed or not: a name, an
    iteration count, and pairs of a number and a unit that is not a number (in any
    script), which no header or row of a tidy table has."""
    try:
        if _result(fields) is not None:
            return True
    except _Malformed:
        values, units = fields[2::2], fields[3::2]
        return (len(fields) >= 4 and len(fields) % 2 == 0 and _numeric(fields[1])
                and all(_VALUE.fullmatch(v) or _numeric(v) for v in values)
                and not any(_VALUE.fullmatch(u) or _numeric(u) for u in units))
    return False


def sniff_text(head: str) -> bool:
    """Whether the start of a text file is Go benchmark output (or benchstat's summary
    of it, which :func:`parse_text` names as such).

    True when a line holds a benchmark result (a name starting with ``Benchmark``,
    an iteration count, then value and unit pairs with a unit that is not a number,
    which no header or row of a tidy table has; a count or value in other digits
    than ASCII still counts, for :func:`parse_text` to refuse by line), or when the
    first line that is not blank is one of ``go test``'s configuration lines
    (``goos:``, ``goarch:``, ``pkg:``, ``cpu:``).
    """
    lines = head.splitlines()
    if len(head) >= SNIFF_BYTES and lines:
        lines = lines[:-1]  # the last line may be cut
    first = next((ln.strip() for ln in lines if ln.strip()), "")
    m = _CONFIG.fullmatch(first)
    if m and m.group(1) in _KNOWN_CONFIG:
        return True
    if any(_looks_like_result(ln.split()) for ln in lines if ln.startswith("Benchmark")):
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
    """``{name: (units, UnitInfo)}`` in the order of first appearance, ``units`` the
    ns/op of every run of the benchmark, one list per process it appears in.

    Raises
    ------
    InputError
        The text holds benchstat's summary instead of results, no result line, no
        ``ns/op`` on any result line, a malformed result line (an iteration count
        not followed by value and unit pairs in ASCII digits; the message names the
        line), or an ``ns/op`` that is not a finite number.

    Warns
    -----
    EsizeWarning
        For benchmarks left out because none of their lines has ``ns/op``.
    """
    # (name, configuration) -> process number -> ns/op of its runs
    runs: dict[tuple[str, tuple], dict[int, list[float]]] = {}
    config: dict[str, str] = {}
    without: dict[tuple[str, tuple], str] = {}
    results = 0
    process, ended, in_process = 0, False, False
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.startswith("Benchmark"):
            stripped = line.rstrip()
            if _END.fullmatch(stripped):
                ended = True
                continue
            m = _CONFIG.fullmatch(stripped)  # indented log lines are not configuration
            if m:
                config[m.group(1)] = (m.group(2) or "").strip()
                ended = ended or (in_process and m.group(1) in _KNOWN_CONFIG)
            continue
        fields = line.split()
        try:
            parsed = _result(fields)
        except _Malformed as exc:
            raise InputError(source, f"line {lineno}: {exc}") from None
        if parsed is None:
            continue
        if ended:
            process, ended = process + 1, False
        in_process = True
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
        runs.setdefault(key, {}).setdefault(process, []).append(value)
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
    for (name, conf), processes in runs.items():
        out[_label(name, dict(conf), configs[name])] = (list(processes.values()), unit)
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
