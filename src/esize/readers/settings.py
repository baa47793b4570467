"""Harness settings recorded in a result file, and what to say when two files differ.

A harness run with other settings -- more warm-up iterations, another time per
iteration, more forks, another number of loops per value -- measures something else:
a JMH benchmark given 40 warm-up iterations instead of 10 can look 38 % faster with
the same code. The designs of the two files may show part of it (forks, iterations
measured); the rest only the files' settings say. This module reads them, per
benchmark, from the parsed JSON document, and words the difference as a caveat.

Settings read (missing ones are skipped, and reading them never fails a file):

* JMH: ``forks``, ``threads``, ``warmupIterations``, ``warmupTime``,
  ``warmupBatchSize``, ``measurementIterations``, ``measurementTime``,
  ``measurementBatchSize``;
* pyperf: ``loops`` and ``inner_loops`` (of the benchmark's or its runs' metadata)
  and ``warmups``, the warm-up values of every process that has values;
* pytest-benchmark: the ``options`` of each benchmark (``min_rounds``,
  ``min_time``, ``max_time``, ``warmup``, ``warmup_iterations``, ``timer``,
  ``disable_gc``, ``calibration_precision``).

Other formats record none of these (Google Benchmark's ``iterations`` are chosen by
the harness at every run, so they differ without anyone changing a setting).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

__all__ = ["SETTINGS", "CAVEAT_START", "harness_settings", "file_settings", "settings_caveat"]

#: How the caveat of :func:`settings_caveat` starts.
CAVEAT_START = "the harness settings differ: "

_JMH = ("forks", "threads", "warmupIterations", "warmupTime", "warmupBatchSize",
        "measurementIterations", "measurementTime", "measurementBatchSize")
_PYTEST = ("min_rounds", "min_time", "max_time", "warmup", "warmup_iterations", "timer",
           "disable_gc", "calibration_precision")
#: The settings read, per format.
SETTINGS = {"jmh": _JMH, "pyperf": ("loops", "inner_loops", "warmups"),
            "pytest-benchmark": _PYTEST}


def _jmh(doc) -> dict:
    """Per benchmark, named as :mod:`esize.readers.jmh` names it."""
    entries = [e for e in doc if isinstance(e, dict) and isinstance(e.get("benchmark"), str)]
    named = []
    for e in entries:
        params = e.get("params") or {}
        name = e["benchmark"] + (
            ":" + ",".join(f"{p}={v}" for p, v in params.items()) if isinstance(params, dict)
            and params else "")
        named.append((name, str(e.get("mode", "")), e))
    counts = Counter(name for name, _, _ in named)
    return {(f"{name} [{mode}]" if counts[name] > 1 else name):
            {k: e[k] for k in _JMH if k in e} for name, mode, e in named}


def _one(values: list):
    """The value all runs share, or their distinct values as one text."""
    distinct = list(dict.fromkeys(map(str, values)))
    return values[0] if len(distinct) == 1 else " / ".join(distinct)


def _pyperf(doc) -> dict:
    """Per benchmark, named as :mod:`esize.readers.pyperf` names it."""
    suite = doc.get("metadata") if isinstance(doc.get("metadata"), dict) else {}
    benches = doc.get("benchmarks") if "benchmarks" in doc else [doc]
    if "benchmarks" not in doc:
        suite = {}
    out = {}
    for k, bench in enumerate(benches, 1):
        if not isinstance(bench, dict):
            continue
        meta = {**suite}
        for key in ("common_metadata", "metadata"):
            if isinstance(bench.get(key), dict):
                meta.update(bench[key])
        name = meta.get("name")
        name = str(("(unnamed)" if len(benches) == 1 else f"#{k}") if name is None else name)
        runs = [r for r in bench.get("runs") or [] if isinstance(r, dict)
                and (r.get("values") or r.get("samples"))]
        found = {}
        for key in ("loops", "inner_loops"):
            per_run = [(r.get("metadata") or {}).get(key, meta.get(key)) for r in runs]
            per_run = [v for v in per_run if v is not None]
            if per_run:
                found[key] = _one(per_run)
        warm = [len(r["warmups"]) for r in runs if isinstance(r.get("warmups"), list)]
        if warm:
            found["warmups"] = _one(warm)
        out[name] = found
    return out


def _pytest(doc) -> dict:
    out = {}
    for b in doc.get("benchmarks") or []:
        if isinstance(b, dict) and isinstance(b.get("options"), dict):
            name = b.get("fullname") or b.get("name")
            out[name] = {k: b["options"][k] for k in _PYTEST if k in b["options"]}
    return out


_READERS = {"jmh": _jmh, "pyperf": _pyperf, "pytest-benchmark": _pytest}


def harness_settings(fmt: str, doc) -> dict:
    """``{benchmark name: {setting: value}}`` of a parsed result file of format ``fmt``.

    Empty for a format that records no settings (:data:`SETTINGS`) and for a document
    whose settings cannot be read: settings are advice, never a reason to refuse a
    file (the reader says what is wrong with it).

    Examples
    --------
    >>> from esize.readers.settings import harness_settings
    >>> doc = [{"benchmark": "b.Sort.run", "mode": "avgt", "forks": 5,
    ...         "warmupIterations": 10, "measurementTime": "1 s"}]
    >>> harness_settings("jmh", doc)
    {'b.Sort.run': {'forks': 5, 'warmupIterations': 10, 'measurementTime': '1 s'}}
    >>> harness_settings("gbench", {"benchmarks": []}), harness_settings("jmh", "garbled")
    ({}, {})
    """
    read = _READERS.get(fmt)
    if read is None or doc is None:
        return {}
    try:
        return read(doc)
    except Exception:  # noqa: BLE001 - a malformed file is the reader's to word
        return {}


def file_settings(path, fmt: str, max_bytes: int | None = None) -> dict:
    """:func:`harness_settings` of the file ``path`` (already read, so its document is
    taken from the readers' cache rather than parsed again).

    Examples
    --------
    >>> import json, os, tempfile
    >>> from esize.readers.settings import file_settings
    >>> doc = [{"benchmark": "b.Sort.run", "mode": "avgt", "forks": 5,
    ...         "warmupIterations": 10, "measurementTime": "1 s"}]
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "jmh.json")
    ...     with open(path, "w") as fh:
    ...         json.dump(doc, fh)
    ...     print(file_settings(path, "jmh"), file_settings(path, "hyperfine"))
    {'b.Sort.run': {'forks': 5, 'warmupIterations': 10, 'measurementTime': '1 s'}} {}
    """
    if fmt not in _READERS:
        return {}
    from pathlib import Path

    from ._read import _parse_once

    try:
        return harness_settings(fmt, _parse_once(Path(path), max_bytes))
    except Exception:  # noqa: BLE001 - unreadable here means the reader said so already
        return {}


def _shown(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def settings_caveat(old: Mapping | None, new: Mapping | None) -> str | None:
    """The caveat of a benchmark whose harness settings differ between the files, or
    None: every setting recorded in both with different values, named with both.

    Examples
    --------
    >>> from esize.readers.settings import settings_caveat
    >>> print(settings_caveat({"warmupIterations": 10, "forks": 5},
    ...                       {"warmupIterations": 40, "forks": 5}))
    the harness settings differ: warmupIterations 10 (old) and 40 (new); the change measured may come from them, not from the code
    >>> settings_caveat({"forks": 5}, {"forks": 5}) is None
    True
    """
    if not old or not new:
        return None
    changed = [f"{k} {_shown(old[k])} (old) and {_shown(new[k])} (new)"
               for k in old if k in new and old[k] != new[k]]
    if not changed:
        return None
    return (CAVEAT_START + ", ".join(changed)
            + "; the change measured may come from them, not from the code")
