"""pytest-benchmark result files (``--benchmark-json=FILE``, or ``.benchmarks/``
files saved with ``--benchmark-save-data``).

``benchmarks[].stats.data`` holds one time per round, in seconds; each is already the
mean of ``stats.iterations`` calls of the benchmarked function. All rounds run inside
one pytest process: one level, ``round``. Benchmarks are named by ``fullname``
(``tests/test_x.py::test_y[param]``), else by ``name``.

A file saved with ``--benchmark-save`` or ``--benchmark-autosave`` alone keeps only
the summary statistics (no ``data``); it is refused with a message saying how to keep
the rounds. A benchmark whose ``data`` is not the full list of its rounds (fewer
values than ``stats.rounds``, or entries that are not numbers: files cut short by
hand exist) is left out with an :class:`~esize.EsizeWarning`, as it cannot give the
harness's own mean.
"""

from __future__ import annotations

import warnings

from .._errors import EsizeWarning, InputError
from ._common import mapping, need, numbers, one_process_caveat, plural, prefix, shown
from .units import unit_info

FORMAT = "pytest-benchmark"
LEVELS = ("round",)
#: Harness option setting the count of each level.
NEXT_RUN_OPTIONS = {"round": "--benchmark-min-rounds"}
#: The level above the file's own that none of its files can see: the harness
#: measures every round of a benchmark in its one process.
UNOBSERVED_TOP = "process"
#: What every benchmark read from such a file says of it.
UNOBSERVED_CAVEAT = one_process_caveat("round")

_KEEP_DATA = ("pytest-benchmark keeps each round's time in files written with "
              "--benchmark-json=FILE, or with --benchmark-save-data beside "
              "--benchmark-save/--benchmark-autosave")


def sniff(doc) -> bool:
    """Whether a parsed JSON document looks like pytest-benchmark's."""
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        return False
    benches = doc["benchmarks"]
    if "machine_info" in doc and "commit_info" in doc:
        return True
    return bool(benches) and all(
        isinstance(b, dict) and isinstance(b.get("stats"), dict) and "fullname" in b
        for b in benches
    )


def _cut(stats: dict, data: list) -> str | None:
    """Why ``data`` is not every round of ``stats``, or None when it is."""
    if not set(map(type, data)) <= {int, float}:  # bool, str, null, list ...: find it
        bad = next(k for k, x in enumerate(data, 1) if type(x) not in (int, float))
        return f"data value {bad} is {shown(data[bad - 1])}, not a number"
    rounds = stats.get("rounds")
    if isinstance(rounds, int) and not isinstance(rounds, bool) and rounds != len(data):
        return f"data holds {len(data)} values for {rounds} rounds"
    return None


def parse(doc, source) -> dict:
    """``{name: (round times, UnitInfo)}``.

    Raises
    ------
    InputError
        No benchmark holds ``stats.data`` (a file of summaries only), or every
        benchmark's data is cut short.

    Warns
    -----
    EsizeWarning
        For every benchmark left out because its data is cut short or edited.
    """
    need(isinstance(doc, dict), source, "a pytest-benchmark file holds a JSON object")
    benches = doc.get("benchmarks")
    need(isinstance(benches, list), source, "no 'benchmarks' list")
    need(len(benches) > 0, source, "the 'benchmarks' list is empty: no benchmark ran")
    out: dict = {}
    cut: list[tuple[str, str]] = []
    summaries = 0
    for k, b in enumerate(benches, 1):
        need(isinstance(b, dict), source, f"benchmark #{k} is not a JSON object")
        name = b.get("fullname") or b.get("name")
        need(isinstance(name, str) and name, source, f"benchmark #{k} has no name")
        stats = mapping(b.get("stats"), source, f"{prefix(name)}'stats'")
        need(bool(stats), source, f"{prefix(name)}no 'stats'")
        if "data" not in stats:
            summaries += 1
            continue
        data = stats["data"]
        need(isinstance(data, list), source,
             f"{prefix(name)}stats.data holds {shown(data)}, not a list of numbers")
        why = _cut(stats, data)
        if why is not None:
            cut.append((name, why))
            continue
        values = numbers(data, source, name, "stats.data")
        if name in out:
            raise InputError(source, f"{prefix(name)}appears twice in the file")
        out[name] = (values, unit_info("s"))
    if summaries == len(benches):
        raise InputError(
            source, f"holds only summary statistics (mean, stddev, ...) of its "
            f"{len(benches)} {plural('benchmark', len(benches))}, not the time of each "
            f"round (stats.data); {_KEEP_DATA}")
    if not out and cut:
        name, why = cut[0]
        more = f"; {len(cut) - 1} more alike" if len(cut) > 1 else ""
        raise InputError(
            source, f"no benchmark holds all its round times ({prefix(name)}{why}{more}): "
            f"the file was cut short or edited by hand; {_KEEP_DATA}")
    for name, why in cut:
        warnings.warn(f"{source}: {prefix(name)}left out: {why} (a file cut short or "
                      "edited by hand); its rounds cannot be analysed", EsizeWarning,
                      stacklevel=2)
    if summaries:
        warnings.warn(f"{source}: {summaries} {plural('benchmark', summaries)} without "
                      f"stats.data left out", EsizeWarning, stacklevel=2)
    return out

