"""A dataset's costs file: read, checked field by field, and the build time it gives.

The costs file of a measured dataset (``costs: {file: costs.json}``) holds, per
benchmark, the times the pipeline counts costs in (:data:`COSTS_FIELDS`). A problem
names the file, its line, the key and what is wrong, in one line.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from esize import InputError

from .settings import (
    _MISSING,
    _dotted,
    _not_a_file,
    _shown,
    _yaml_line,
    dataset_benchmarks,
    dataset_settings,
)
from .yamlfile import MAX_INT_DIGITS, load_yaml, read_text

__all__ = [
    "COSTS_FIELDS",
    "MIN_SECONDS",
    "MAX_SECONDS",
    "load_yaml",
    "read_costs_file",
    "costs_problem",
    "costs_entry_problem",
    "dataset_costs",
    "dataset_build_seconds",
]

#: seconds: ``(keys, required, positive, meaning)``. ``positive``: the number must be
#: more than 0 (otherwise any finite number). The schema documents the same fields
#: (``$defs: costs_entry`` in ``workflow/schemas/config.schema.yaml``; a test keeps
#: the two alike); other keys are allowed and not read.
COSTS_FIELDS: tuple[tuple[tuple[str, ...], bool, bool, str], ...] = (
    (("steady_iteration_seconds", "mean"), True, True,
     "mean time of one iteration after the warm-up, the unit every cost is counted in"),
    (("new_binary_seconds",), True, True, "mean time to build one binary"),
    (("execution_overhead_seconds", "mean"), True, True,
     "mean per execution of its process's wall time minus the sum of its iteration "
     "times (start-up, input set-up, exit)"),
    (("warmup_excess_seconds", "mean"), True, False,
     "mean per execution of the sum over its warm-up iterations of (time - the "
     "execution's steady mean), any sign (a negative mean counts as 0)"),
    (("process_seconds", "mean"), False, True,
     "mean wall time of one execution's process (optional; with the build time it "
     "gives the budget the measurement took, the 'measured' row)"),
)

#: The shortest time a positive field may hold (a nanosecond: no benchmark's cost is
#: less, and costs are divided by it) and the longest any field may hold (about 31
#: years); the schema's ``minimum`` and ``maximum`` of the fields.
MIN_SECONDS = 1e-9
MAX_SECONDS = 1e9



def dataset_costs(config: Mapping, name: str,
                  benchmarks: Iterable[str] | None = None) -> dict | None:
    """The measured costs of dataset ``name`` (its costs file), checked, or None.

    The file (:func:`read_costs_file`) holds ``sets: {benchmark: {...}}`` with the
    fields of :data:`COSTS_FIELDS` for every benchmark of the dataset (by display
    name, the data file's name without its extension; ``benchmarks`` when given,
    otherwise :func:`dataset_benchmarks`).

    Raises
    ------
    esize.InputError
        Naming the costs file (and the line), the key and the problem, when the file
        cannot be read or parsed or lacks a field (:func:`costs_problem`).
    """
    settings = dataset_settings(config, name)
    if not settings["costs_file"]:
        return None
    path = settings["costs_file"]
    data = read_costs_file(path)
    if benchmarks is None:
        benchmarks = dataset_benchmarks(config, name).values()
    problem = costs_problem(data, benchmarks)
    if problem:
        keys, message = problem
        line = _yaml_line(path, _present(data, keys))
        where = f"{_shown(path)}:{line}" if line else _shown(path)
        raise InputError(where, f"{_dotted(keys)}: {message}")
    return data


def read_costs_file(path: str | Path) -> dict:
    """A costs file's contents: JSON, or YAML when its name ends in ``.yaml``/``.yml``.

    Raises
    ------
    esize.InputError
        When the file cannot be read, does not parse (the message names the line as
        ``FILE:LINE``) or does not hold a mapping.
    """
    shown = _shown(path)
    what = _not_a_file(Path(path))
    if what:
        raise InputError(shown, f"costs file {what}")
    text = read_text(path, shown)  # a regular file of at most 1 MiB
    if not text.strip():
        raise InputError(shown, "the costs file is empty")
    if str(path).lower().endswith((".yaml", ".yml")):
        data = load_yaml(text, shown, "not valid YAML")
    else:
        try:
            data = json.loads(text, parse_int=_json_int)
        except json.JSONDecodeError as exc:
            raise InputError(f"{shown}:{exc.lineno}",
                             f"not valid JSON: {exc.msg} (column {exc.colno})") from None
        except _TooLong as exc:
            raise InputError(shown, str(exc)) from None
        except RecursionError:
            raise InputError(shown, "expected a few levels of nesting (the JSON is nested "
                                    "hundreds of levels deep)") from None
    if not isinstance(data, dict):
        raise InputError(shown, "a costs file holds a mapping with 'sets': {benchmark: "
                                f"costs}}, not {_brief(data)}")
    return data


class _TooLong(ValueError):
    """An integer of a JSON costs file with too many digits."""


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _TooLong(f"expected integers of at most {MAX_INT_DIGITS} digits, not one of "
                       f"{len(text.lstrip('-'))}")
    return int(text)


def _brief(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _present(data, keys: Sequence[str]) -> list[str]:
    """The longest prefix of ``keys`` that ``data`` holds (to find its line)."""
    out: list[str] = []
    for k in keys:
        if not (isinstance(data, Mapping) and k in data):
            break
        data = data[k]
        out.append(k)
    return out


def costs_entry_problem(entry) -> tuple[tuple[str, ...], str] | None:
    """The first problem of one benchmark's entry of a costs file: ``(keys, message)``
    with ``keys`` inside the entry, or None. The rules of :data:`COSTS_FIELDS`."""
    if not isinstance(entry, Mapping):
        return (), f"expected a mapping of costs, got {_brief(entry)}"
    for keys, required, positive, meaning in COSTS_FIELDS:
        value = entry
        for i, k in enumerate(keys):
            if not isinstance(value, Mapping):
                inner = "'" + "', '".join(keys[i:]) + "'"
                return keys[:i], f"expected a mapping with {inner}, got {_brief(value)}"
            if k not in value:
                if not required:
                    value = _MISSING
                    break
                return keys, f"missing, in seconds: {meaning}"
            value = value[k]
        if value is _MISSING:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return keys, f"expected a number of seconds, got {_brief(value)}"
        if not math.isfinite(value):
            return keys, f"{value!r} is not a finite number"
        if positive and value <= 0:
            return keys, f"{value!r} is not positive: a time in seconds must be more than 0"
        if positive and value < MIN_SECONDS:
            return keys, (f"{value!r} is less than {MIN_SECONDS:g}: expected a time in "
                          "seconds of at least a nanosecond")
        if abs(value) > MAX_SECONDS:
            return keys, (f"{value!r} is more than {MAX_SECONDS:g}: expected a time in "
                          "seconds of at most about 31 years")
    return None


def costs_problem(data: Mapping, benchmarks: Iterable[str]) -> tuple[tuple[str, ...], str] | None:
    """The first problem of a costs file's contents, ``(keys, message)``, or None.

    ``sets`` must hold an entry for each of ``benchmarks`` (display names), each with
    the fields of :data:`COSTS_FIELDS`; ``unit``, when given, must be ``seconds``.
    """
    unit = data.get("unit", "seconds")
    if unit != "seconds":
        return ("unit",), f"{_brief(unit)} is not supported: every time is in seconds"
    if "sets" not in data:
        return ("sets",), "missing: the costs of each benchmark, sets: {benchmark: costs}"
    sets = data["sets"]
    if not isinstance(sets, Mapping):
        return ("sets",), f"expected a mapping {{benchmark: costs}}, got {_brief(sets)}"
    for b in benchmarks:
        if b not in sets:
            has = [str(k) for k in sets]
            has = has[:8] + ["..."] if len(has) > 8 else has or ["none"]
            return ("sets", b), (f"missing: every benchmark of the dataset needs its costs "
                                 f"(has: {', '.join(has)})")
        problem = costs_entry_problem(sets[b])
        if problem:
            return ("sets", b, *problem[0]), problem[1]
    return None


def dataset_build_seconds(config: Mapping, name: str) -> float:
    """Seconds to build one binary for dataset ``name``: the mean measured build time
    of its benchmarks when it has a costs file, otherwise ``config["build_seconds"]``."""
    benchmarks = list(dataset_benchmarks(config, name).values())
    costs = dataset_costs(config, name, benchmarks)
    if costs is None:
        return float(config["build_seconds"])
    times = [float(costs["sets"][b]["new_binary_seconds"]) for b in benchmarks]
    return float(np.mean(times)) if times else float(config["build_seconds"])
