"""pyperf and pyperformance result files (``-o file.json``, optionally gzip-compressed).

Each run is one worker process; its ``values`` are the measurements, its ``warmups``
are ignored, and calibration runs -- warm-ups and no ``values`` key (or an empty
list), as pyperf writes them -- are skipped. Any other ``values`` that is not a list
of numbers (``false``, ``0``, ``{}``, ``null``) is an error, not a calibration run. Levels:
``process > value``. Format versions 1.0, 6 and 5 (``samples``,
``common_metadata``) are read, suites as well as single benchmarks.
"""

from __future__ import annotations

from .._errors import InputError
from ._common import mapping, need, numbers, prefix, shown
from .units import unit_info

FORMAT = "pyperf"
LEVELS = ("process", "value")
#: Harness option setting the count of each level (``pyperf`` / ``pyperformance``).
NEXT_RUN_OPTIONS = {"process": "--processes", "value": "--values"}

_VERSIONS = ("1.0", 6, 5)


def sniff(doc) -> bool:
    """Whether a parsed JSON document looks like pyperf's."""
    if not isinstance(doc, dict):
        return False
    benches = doc.get("benchmarks")
    if isinstance(benches, list) and all(isinstance(b, dict) and "runs" in b for b in benches):
        return True
    return "runs" in doc


def parse(doc, source) -> dict:
    """``{name: (units, UnitInfo)}``: per benchmark, one list of values per process."""
    need(isinstance(doc, dict), source, "a pyperf file holds a JSON object")
    version = doc.get("version")
    if version is not None and version not in _VERSIONS:
        raise InputError(
            source, f"pyperf file format version {version!r} is not supported (1.0, 6 and 5 are)"
        )
    suite_meta = mapping(doc.get("metadata"), source, "the file's 'metadata'")
    if "benchmarks" in doc:
        benches = doc["benchmarks"]
        need(isinstance(benches, list) and benches, source, "'benchmarks' is empty or not a list")
    else:
        need("runs" in doc, source, "neither 'benchmarks' nor 'runs': not a pyperf file")
        benches = [doc]
        suite_meta = {}
    out: dict = {}
    for k, bench in enumerate(benches, 1):
        need(isinstance(bench, dict), source, f"benchmark #{k} is not a JSON object")
        meta = {
            **suite_meta,
            **mapping(bench.get("common_metadata"), source, f"benchmark #{k}'s 'common_metadata'"),
            **mapping(bench.get("metadata"), source, f"benchmark #{k}'s 'metadata'"),
        }
        name = meta.get("name")
        if name is None:
            name = "(unnamed)" if len(benches) == 1 else f"#{k}"
        name = str(name)
        out_units = _processes(bench.get("runs"), source, name)
        if name in out:
            raise InputError(source, f"{prefix(name)}appears twice in the file")
        out[name] = (out_units, unit_info(meta.get("unit", "second")))
    return out


def _processes(runs, source, name) -> list[list[float]]:
    # the messages are built only when a check fails (a suite has thousands of runs)
    if not isinstance(runs, list):
        raise InputError(source, f"{prefix(name)}'runs' is missing or not a list")
    units = []
    for r, run in enumerate(runs, 1):
        if not isinstance(run, dict):
            raise InputError(source, f"{prefix(name)}run {r} is not a JSON object")
        key = "values" if "values" in run or "samples" not in run else "samples"
        vals = run.get(key)
        if key not in run or (isinstance(vals, list) and not vals):
            # a calibration run: pyperf writes its warm-ups and no values
            warmups = run.get("warmups")
            if not (isinstance(warmups, list) and len(warmups) > 0):
                raise InputError(source, f"{prefix(name)}run {r} has neither values nor warm-ups")
            continue
        if not isinstance(vals, list):
            raise InputError(
                source, f"{prefix(name)}run {r}: '{key}' holds {shown(vals)}, not a list of numbers"
            )
        units.append(numbers(vals, source, name, f"run {r}"))
    if not units:
        raise InputError(
            source, f"{prefix(name)}no run has values (only calibration or warm-up runs)"
        )
    return units
