"""airspeed velocity (asv) result files (``results/<machine>/<commit>-<env>.json``).

asv keeps the raw timings of a benchmark only when it runs with
``--record-samples``; otherwise a result file holds summaries alone (the median,
quartiles and a confidence interval per benchmark), from which no interval of this
method can be computed, and such a file is refused with one line saying so.
Benchmarks without samples in a file where others have them (``mem_`` and
``track_`` benchmarks, which asv measures once) are left out with an
:class:`~esize.EsizeWarning`, and so are those asv reports as failed (``null``)
or skipped (``NaN``).

Each sample is the time of one call in seconds (asv divides by ``number``, the
calls per sample). asv runs a benchmark in ``rounds`` separate processes (two by
default) and stores the samples of all rounds as one list without marking where
each process starts, so one level is read, ``sample``, and every benchmark carries
a caveat that the variation between processes is not separated.

A parametrised benchmark gives one benchmark per combination of parameter values,
named as asv shows it: ``suite.Class.time_x(100, 'a')``. Format versions 2 (asv
0.5 and later: ``result_columns``) and 1 (a dictionary or a number per benchmark)
are read.
"""

from __future__ import annotations

import itertools
import math
import warnings

from .._errors import EsizeWarning, InputError
from ._common import need, numbers, prefix, shown
from .units import unit_info

FORMAT = "asv"
LEVELS = ("sample",)
#: Harness option setting the count of each level (an ``=`` joins it to the count).
NEXT_RUN_OPTIONS = {"sample": "--record-samples -a repeat="}
#: The level above the file's own that none of its files can see apart: asv pools the
#: samples of all its rounds (separate processes) into one list.
UNOBSERVED_TOP = "process"
#: What every benchmark read from an asv file says of it.
UNOBSERVED_CAVEAT = (
    "asv stores the samples of all its rounds (separate processes) as one list, so "
    "variation between processes is not separated from that within one: the interval "
    "is too narrow if processes differ; compare the processes' samples as one tidy table "
    "with a process column to observe it"
)

_SUMMARY_ONLY = (
    "the asv results hold summaries only (median, quartiles, confidence interval), no "
    "samples; asv keeps the samples when run with --record-samples"
)


def sniff(doc) -> bool:
    """Whether a parsed JSON document looks like an asv result file."""
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("results"), dict)
        and "version" in doc
        and any(k in doc for k in ("commit_hash", "env_name", "result_columns"))
    )


def _unit(name: str):
    """The unit of a benchmark, from the prefix of its method name."""
    method = name.rsplit(".", 1)[-1]
    if method.startswith("time_"):
        return unit_info("seconds")
    if method.startswith(("mem_", "peakmem_")):
        return unit_info("bytes")
    return unit_info("")  # track_: the unit is in benchmarks.json, not in the results


def _fields(entry, columns, source, name) -> dict:
    """``{"result": [...], "params": [...], "samples": [...] or None}`` of one entry."""
    if columns is not None:  # version 2: a row of the columns, trailing ones left out
        need(isinstance(entry, list), source,
             f"{prefix(name)}holds {shown(entry)}, not a row of 'result_columns'")
        row = dict(zip(columns, entry))
    elif isinstance(entry, dict):  # version 1
        row = entry
    else:  # version 1, an unparametrised benchmark without stats: the value alone
        row = {"result": entry}
    result, params, samples = row.get("result"), row.get("params") or [], row.get("samples")
    need(isinstance(params, list) and all(isinstance(p, list) for p in params), source,
         f"{prefix(name)}'params' should be a list of lists of values")
    if result is None and params:  # the benchmark failed for every combination
        result = [None] * len(_product(params))
    if not isinstance(result, list):  # one value of an unparametrised benchmark
        result = [result]
        if isinstance(samples, list) and all(not isinstance(s, list) for s in samples):
            samples = [samples]
    return {"result": result, "params": params, "samples": samples}


def _product(params) -> list[tuple]:
    return list(itertools.product(*params)) if params else [()]


def _combinations(params, n, source, name) -> list[str]:
    combos = _product(params)
    need(len(combos) == n, source,
         f"{prefix(name)}{n} results for {len(combos)} combinations of parameters")
    return [f"{name}({', '.join(map(str, c))})" if c else name for c in combos]


def parse(doc, source) -> dict:
    """``{name: (samples, UnitInfo)}``, one entry per benchmark and parameter combination.

    Warns
    -----
    EsizeWarning
        For every benchmark left out: failed, skipped, or without samples.
    """
    need(isinstance(doc, dict), source, "an asv result file holds a JSON object")
    version = doc.get("version")
    need(version in (1, 2), source,
         f"asv result format version {shown(version)} is not supported (1 and 2 are)")
    columns = None
    if version == 2:
        columns = doc.get("result_columns")
        need(isinstance(columns, list) and all(isinstance(c, str) for c in columns)
             and "result" in columns, source,
             "an asv version 2 file needs 'result_columns' naming its columns")
    results = doc.get("results")
    need(isinstance(results, dict) and results, source, "no 'results' in the file")
    out: dict = {}
    failed: list[str] = []
    summary_only: list[str] = []
    for base, entry in results.items():
        f = _fields(entry, columns, source, base)
        names = _combinations(f["params"], len(f["result"]), source, base)
        samples = f["samples"]
        need(samples is None or (isinstance(samples, list) and len(samples) == len(names)),
             source, f"{prefix(base)}'samples' should hold one list per result "
             f"({len(names)})")
        for k, (name, value) in enumerate(zip(names, f["result"])):
            if value is None or (isinstance(value, float) and math.isnan(value)):
                failed.append(name)
                continue
            got = None if samples is None else samples[k]
            if got is None:
                summary_only.append(name)
                continue
            vals = numbers(got, source, name, "samples")
            if not vals:
                summary_only.append(name)
                continue
            if name in out:
                raise InputError(source, f"{prefix(name)}appears twice in the file")
            out[name] = (vals, _unit(base))
    if not out:
        if summary_only:
            raise InputError(source, _SUMMARY_ONLY)
        raise InputError(source, f"every benchmark failed or was skipped ({_few(failed)}): "
                         "nothing was measured")
    if failed:
        warnings.warn(f"{source}: {len(failed)} benchmark(s) left out, failed or skipped in "
                      f"asv (no result): {_few(failed)}", EsizeWarning, stacklevel=2)
    if summary_only:
        warnings.warn(f"{source}: {len(summary_only)} benchmark(s) without samples left out "
                      f"(asv records samples of time_ benchmarks only): {_few(summary_only)}",
                      EsizeWarning, stacklevel=2)
    return out


def _few(names, limit: int = 5) -> str:
    return ", ".join(names[:limit]) + (f" and {len(names) - limit} more" if len(names) > limit
                                      else "")
