"""JMH result files (``-rf json``).

``primaryMetric.rawData`` holds one list of iteration scores per fork;
``rawDataHistogram`` (sample-time mode) holds per fork and iteration a histogram of
``[value, count]`` pairs, of which the count-weighted mean is the iteration's value.
Levels: ``fork > iteration``. Benchmarks with ``params`` are named
``method:p1=v1,p2=v2``; a method measured in several modes gets `` [mode]``.
"""

from __future__ import annotations

from collections import Counter

from .._errors import InputError
from ._common import need, number, numbers, prefix
from .units import unit_info

FORMAT = "jmh"
LEVELS = ("fork", "iteration")
#: Harness option setting the count of each level.
NEXT_RUN_OPTIONS = {"fork": "-f", "iteration": "-i"}


def sniff(doc) -> bool:
    """Whether a parsed JSON document looks like JMH's."""
    return (
        isinstance(doc, list)
        and bool(doc)
        and all(isinstance(e, dict) for e in doc)
        and any("primaryMetric" in e for e in doc)
    )


def histogram_mean(hist, source, name, where) -> float:
    r"""Count-weighted mean of a JMH histogram ``[[value, count], ...]``.

    .. math:: \bar y = \sum_k v_k c_k \Big/ \sum_k c_k
    """
    need(isinstance(hist, list), source, f"{prefix(name)}{where}: histogram is not a list")
    total = weight = 0.0
    for pair in hist:  # a histogram is a few bins, summed in file order
        need(
            isinstance(pair, list) and len(pair) == 2,
            source,
            f"{prefix(name)}{where}: histogram entries must be [value, count] pairs",
        )
        v = number(pair[0], source, name, f"{where}, histogram value")
        c = number(pair[1], source, name, f"{where}, histogram count")
        # the same check as every measurement (rawData's included): positive values
        need(v > 0, source, f"{prefix(name)}{where}: the histogram holds the value {v!r}; "
             "times and rates must be positive")
        need(c >= 0 and c == int(c), source,
             f"{prefix(name)}{where}: the histogram holds the count {c!r}; counts are whole "
             "numbers >= 0")
        total += v * c
        weight += c
    need(weight > 0, source, f"{prefix(name)}{where}: the histogram holds no samples")
    return total / weight


def _forks(pm, source, name) -> list:
    if pm.get("rawData") is not None:
        raw = pm["rawData"]
        need(isinstance(raw, list), source, f"{prefix(name)}'rawData' is not a list")
        return [numbers(f, source, name, f"fork {i}") for i, f in enumerate(raw, 1)]
    if pm.get("rawDataHistogram") is not None:
        hist = pm["rawDataHistogram"]
        need(isinstance(hist, list), source, f"{prefix(name)}'rawDataHistogram' is not a list")
        forks = []
        for i, fork in enumerate(hist, 1):
            need(isinstance(fork, list), source, f"{prefix(name)}fork {i} is not a list")
            forks.append(
                [
                    histogram_mean(it, source, name, f"fork {i}, iteration {j}")
                    for j, it in enumerate(fork, 1)
                ]
            )
        return forks
    raise InputError(
        source,
        f"{prefix(name)}no 'rawData' or 'rawDataHistogram' in 'primaryMetric' "
        "(the measurements are needed, not only the score)",
    )


def parse(doc, source) -> dict:
    """``{name: (forks, UnitInfo)}``: per benchmark, one list of iterations per fork."""
    need(isinstance(doc, list), source, "a JMH result file holds a JSON array")
    need(len(doc) > 0, source, "the JMH result array is empty")
    parsed = []
    for k, entry in enumerate(doc, 1):
        need(isinstance(entry, dict), source, f"result #{k} is not a JSON object")
        base = entry.get("benchmark")
        need(isinstance(base, str) and base, source, f"result #{k} has no 'benchmark' name")
        params = entry.get("params") or {}
        need(isinstance(params, dict), source, f"{prefix(base)}'params' is not an object")
        name = base + (":" + ",".join(f"{p}={v}" for p, v in params.items()) if params else "")
        mode = str(entry.get("mode", ""))
        pm = entry.get("primaryMetric")
        need(isinstance(pm, dict), source, f"{prefix(name)}no 'primaryMetric'")
        unit = unit_info(pm.get("scoreUnit"), default_rate=(mode == "thrpt"))
        forks = _forks(pm, source, name)
        need(len(forks) > 0, source, f"{prefix(name)}no forks in the raw data")
        parsed.append((name, mode, forks, unit))
    counts = Counter(name for name, *_ in parsed)
    out: dict = {}
    for name, mode, forks, unit in parsed:
        key = f"{name} [{mode}]" if counts[name] > 1 else name
        if key in out:
            raise InputError(source, f"{prefix(key)}appears twice in the file")
        out[key] = (forks, unit)
    return out
