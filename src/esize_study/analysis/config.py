"""A dataset entry of ``make analyse``: its defaults, durations, costs and checks.

``make analyse CONFIG=my.yaml`` loads ``config/analyse-defaults.yaml`` (``mode:
analyse`` and the shared ``analysis:`` settings) under the user's file, which replaces
``config/config.yaml``: only the user's datasets run. An entry::

    datasets:
      mine:
        kind: directory            # or files: {kind: files, files: [a.json, b.csv]}
        path: path/to/dir          # tidy CSV/Parquet (one benchmark per file) and/or
                                   # pyperf/JMH/gbench/hyperfine JSON files
        levels: [binary, execution]
        comparisons:
          - {old: qs-old, new: qs-new}
          - {old: fft, new: fft-plus3, ratio: 1.03}   # a known ratio new/old

Every other key has a default: the schema's (``workflow/schemas/config.schema.yaml``,
the one home of every default: :func:`esize_study.datasets.schema.with_defaults`), for
an entry of ``make analyse`` (:func:`entry_settings`) and for the shared settings
(:func:`analysis_settings`). :func:`esize_study.analysis.check.entry_problem` is what the
check of ``make analyse`` asks of each entry.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from esize.readers import JSON_SUFFIXES, PARQUET_SUFFIXES

from ._study import entry_with_defaults, section_with_defaults

__all__ = [
    "MODE",
    "COST_ALIASES",
    "EntryProblem",
    "is_analyse",
    "analysis_settings",
    "parse_amount",
    "parse_budget",
    "parse_cost",
    "parse_warmup",
    "dataset_files",
    "entry_settings",
]

#: The value of the top-level ``mode`` key that ``make analyse`` sets.
MODE = "analyse"

#: Other names of levels in ``costs``: a build is a new binary.
COST_ALIASES = {"build": "binary"}

#: Tables a directory dataset is read from, besides the harnesses' JSON files
#: (:data:`esize.readers.JSON_SUFFIXES`); any other file is left alone. The library's
#: endings, less ``.txt`` and most compressed forms: a directory's notes and archives
#: are not results.
TABLE_SUFFIXES = (".csv", ".csv.gz", ".tsv", *PARQUET_SUFFIXES)

_AMOUNT = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([^\s0-9.][^\s]*)?\s*")
_SECONDS = {
    "ms": 1e-3, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
    "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0,
    "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0,
    "d": 86400.0, "day": 86400.0, "days": 86400.0,
}
_MEASUREMENTS = ("measurement", "measurements")
_UNITS_TEXT = "ms, s, min, h, d or measurements"


class EntryProblem(Exception):
    """A problem with one value of a dataset entry: ``keys`` where it sits (from the
    top of the configuration), ``message`` what is wrong, in one line."""

    def __init__(self, keys: Sequence[str | int], message: str):
        super().__init__(message)
        self.keys = tuple(keys)
        self.message = message


def is_analyse(config: Mapping) -> bool:
    """Whether the configuration is ``make analyse``'s (``mode: analyse``)."""
    return config.get("mode") == MODE


def analysis_settings(config: Mapping) -> dict:
    """The shared ``analysis:`` settings with the schema's defaults filled in."""
    return section_with_defaults(config, "analysis")


# -- amounts: durations, measurements -----------------------------------------------------
def parse_amount(value, *, bare: str | None) -> dict:
    """``"20 s"`` -> ``{"seconds": 20.0}``, ``"5000 measurements"`` ->
    ``{"measurements": 5000.0}``; a bare number counts in ``bare`` (``"measurements"``)
    or is refused (``bare=None``). Every amount is positive and finite.

    Raises
    ------
    ValueError
        With a one-line reason.
    """
    if isinstance(value, bool):
        raise ValueError(f"expected an amount such as '20 s' or '10 min', got {value!r}")
    if isinstance(value, (int, float)):
        if bare is None:
            raise ValueError(f"{value!r} has no unit: write it with one ({_UNITS_TEXT}), "
                             f"e.g. '{value:g} s' or '{value:g} min'")
        number, unit = float(value), bare
    elif isinstance(value, str):
        m = _AMOUNT.fullmatch(value)
        if not m:
            raise ValueError(f"{value!r} is not an amount: a number and a unit ({_UNITS_TEXT})")
        number, unit = float(m.group(1)), (m.group(2) or "").lower()
        if not unit:
            if bare is None:
                raise ValueError(f"{value!r} has no unit: write it with one ({_UNITS_TEXT})")
            unit = bare
    else:
        raise ValueError(f"expected an amount such as '20 s' or '10 min', got {value!r}")
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{value!r} is not positive")
    if unit in _MEASUREMENTS:
        return {"measurements": number}
    if unit in _SECONDS:
        return {"seconds": number * _SECONDS[unit]}
    hint = " ('m' is ambiguous: write min or measurements)" if unit == "m" else ""
    raise ValueError(f"unknown unit {unit!r} in {value!r}: use {_UNITS_TEXT}{hint}")


def parse_budget(value) -> dict:
    """A budget: a duration (``"10 min"``, ``"1 h"``) or ``"N measurements"``."""
    out = parse_amount(value, bare=None)
    out["text"] = str(value)
    return out


def parse_cost(value) -> dict:
    """A level's cost: a duration (``"20 s"``) or a number of measurements (``5``)."""
    out = parse_amount(value, bare="measurements")
    out["text"] = str(value)
    return out


def parse_warmup(value) -> dict:
    """``auto``, a count of values per lowest-level group (``3``) or a fraction of each
    group (``0.3``): ``{"mode": "auto"}``, ``{"mode": "fixed", "count": 3}`` or
    ``{"mode": "fraction", "fraction": 0.3}``."""
    if isinstance(value, str) and value.strip().lower() == "auto":
        return {"mode": "auto"}
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"expected auto, a count (3) or a fraction (0.3), got {value!r}")
    if isinstance(value, float) and 0 < value < 1:
        return {"mode": "fraction", "fraction": float(value)}
    if value >= 0 and float(value).is_integer():
        return {"mode": "fixed", "count": int(value)}
    raise ValueError(f"{value!r} is neither a count (a whole number >= 0) nor a fraction "
                     "strictly between 0 and 1")


# -- the entry ------------------------------------------------------------------------------
def _is_result_file(p: Path) -> bool:
    name = p.name.lower()
    return (not name.startswith(".") and p.is_file()
            and name.endswith(TABLE_SUFFIXES + JSON_SUFFIXES))


def dataset_files(entry: Mapping, name: str) -> list[str]:
    """The result files of a dataset entry with its defaults (:func:`entry_settings`),
    in name order: those of its directory (``kind: directory``; files of other kinds
    are left alone) or those it lists (``kind: files``).

    Raises
    ------
    EntryProblem
        A missing directory or file, or no result file at all.
    """
    if entry["kind"] == "files":
        listed = entry.get("files") or []
        if not listed:
            raise EntryProblem(("datasets", name, "files"),
                               "a 'files' dataset lists its result files: files: [a.json, b.csv]")
        for i, f in enumerate(listed):
            p = Path(str(f))
            if not p.is_file():
                what = "does not exist" if not p.exists() else "is not a regular file"
                raise EntryProblem(("datasets", name, "files", i),
                                   f"{str(f)!r} {what} (a relative path starts from the "
                                   "directory Snakemake runs in)")
        return [str(f) for f in listed]
    path = entry.get("path")
    if not path:
        raise EntryProblem(("datasets", name), "a directory dataset needs a 'path'")
    d = Path(str(path))
    if not d.is_dir():
        what = "does not exist" if not d.exists() else "is not a directory"
        raise EntryProblem(("datasets", name, "path"),
                           f"directory {str(path)!r} {what} (a relative path starts from the "
                           "directory Snakemake runs in)")
    try:
        files = sorted(str(p) for p in d.iterdir() if _is_result_file(p))
    except OSError as exc:
        raise EntryProblem(("datasets", name, "path"),
                           f"directory {str(path)!r} cannot be read: {exc.strerror or exc}") from None
    if not files:
        raise EntryProblem(("datasets", name, "path"),
                           f"no result files in {str(path)!r}: expected tidy tables "
                           "(.csv, .parquet) or pyperf/JMH/gbench/hyperfine .json files")
    return files


def entry_settings(config: Mapping, name: str) -> dict:
    """Everything ``make analyse`` needs of dataset ``name``, defaults filled in.

    The entry's keys with the schema's defaults of an entry of ``make analyse``, with
    ``warmup``, ``budgets`` and ``costs`` parsed (``warmup_spec``, ``budget_list``,
    ``cost_map``), the shared ``analysis:`` settings (``alpha``, ``resamples``,
    ``seed``, ``false_alarm``, ``known_ratio``) and the entry's ``threshold`` or the
    shared one. Plain values only: the rules pass it as a param, so that a change
    reruns what it changes.

    Raises
    ------
    EntryProblem
        A value that cannot be parsed (:func:`esize_study.analysis.check.entry_problem`
        says which).
    """
    out = entry_with_defaults(config, name, MODE)
    out["name"] = name
    shared = analysis_settings(config)
    for key in ("alpha", "resamples", "seed", "false_alarm", "known_ratio"):
        out[key] = shared[key]
    if out["threshold"] is None:
        out["threshold"] = shared["threshold"]
    where = ("datasets", name)
    try:
        out["warmup_spec"] = parse_warmup(out["warmup"])
    except ValueError as exc:
        raise EntryProblem((*where, "warmup"), str(exc)) from None
    budgets = []
    for i, b in enumerate(out["budgets"] or []):
        try:
            budgets.append(parse_budget(b))
        except ValueError as exc:
            raise EntryProblem((*where, "budgets", i), str(exc)) from None
    out["budget_list"] = budgets
    costs = out["costs"]
    if costs is not None and not isinstance(costs, Mapping):
        raise EntryProblem((*where, "costs"),
                           f"{costs!r}: 'make analyse' takes the cost of a new unit of each level, "
                           "e.g. costs: {binary: 20 min, execution: 2 s}")
    if isinstance(costs, Mapping) and "file" in costs:
        raise EntryProblem((*where, "costs", "file"),
                           "a costs file is read by 'make reproduce'; 'make analyse' takes the "
                           "cost of a new unit of each level, e.g. {binary: 20 min, execution: 2 s}")
    cost_map = {}
    for level, value in (costs or {}).items():
        key = COST_ALIASES.get(str(level), str(level))
        if key in cost_map:
            raise EntryProblem((*where, "costs", level),
                               f"the cost of {key!r} is given twice ({level!r} means {key!r})")
        try:
            cost_map[key] = parse_cost(value)
        except ValueError as exc:
            raise EntryProblem((*where, "costs", level), str(exc)) from None
    out["cost_map"] = cost_map
    comparisons = []
    for i, c in enumerate(out["comparisons"] or []):
        if not isinstance(c, Mapping) or "old" not in c or "new" not in c:
            raise EntryProblem((*where, "comparisons", i),
                               "a comparison names two benchmarks: {old: NAME, new: NAME}")
        ratio = c.get("ratio")
        comparisons.append({"old": str(c["old"]), "new": str(c["new"]),
                            "ratio": None if ratio is None else float(ratio)})
    out["comparisons"] = comparisons
    return out
