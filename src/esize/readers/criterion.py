"""criterion.rs result directories (``target/criterion``).

criterion keeps one directory per benchmark (``group/function/value``), and in it one
directory per baseline: ``new`` (the last run), ``base`` (what the next run is
compared with) and any named with ``--save-baseline NAME``. Each baseline's
``sample.json`` holds the samples: ``iters[k]`` iterations took ``times[k]``
nanoseconds in all, so a sample's value is ``times[k] / iters[k]``, the time of one
iteration, and the mean of these is criterion's own ``mean`` estimate
(``estimates.json``). Every sample of a benchmark is taken inside one process: one
level, ``sample``. Benchmarks are named by ``full_id`` in ``benchmark.json`` (else by
their directory), as criterion names them.

Input is a directory: ``target/criterion``, a group, one benchmark's directory, or
one baseline's directory; or one ``sample.json``. The baseline is chosen by
appending ``@NAME`` to the directory (``target/criterion@main``); without it the
reader takes ``new``, else ``base``, else the only baseline there is. Only the
samples are read: ``change/estimates.json``, criterion's own comparison, may be
stale (from a run against another baseline) and is never used, nor are the other
estimates.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import numpy as np

from .._errors import EsizeWarning, InputError
from ._common import (
    check_file,
    need,
    numbers,
    one_process_caveat,
    parse_json,
    plural,
    prefix,
    read_bytes,
)
from .units import unit_info

FORMAT = "criterion"
LEVELS = ("sample",)
#: Harness option setting the count of each level (``cargo bench -- --sample-size N``).
NEXT_RUN_OPTIONS = {"sample": "--sample-size"}
#: The level above the file's own that none of its files can see: the harness
#: measures every sample of a benchmark in its one process.
UNOBSERVED_TOP = "process"
#: What every benchmark read from such a file says of it.
UNOBSERVED_CAVEAT = one_process_caveat("sample")
#: Directories criterion writes beside the baselines, which hold no samples.
NOT_BASELINES = ("change", "report")
#: Baselines taken, in this order, when none is named.
DEFAULT_BASELINES = ("new", "base")
SAMPLE = "sample.json"


def sniff(doc) -> bool:
    """Whether a parsed JSON document is one of criterion's files: a ``sample.json``
    (read), or an ``estimates.json`` or ``benchmark.json`` (named, then refused)."""
    return _kind(doc) is not None


def _kind(doc) -> str | None:
    if not isinstance(doc, dict):
        return None
    if "iters" in doc and "times" in doc:
        return "sample"
    est = doc.get("mean")
    if isinstance(est, dict) and "point_estimate" in est and "confidence_interval" in est:
        return "estimates"
    if {"group_id", "full_id", "directory_name"} <= set(doc):
        return "benchmark"
    return None


def split_baseline(path) -> tuple[Path, str | None]:
    """``DIR@NAME`` as ``(DIR, NAME)``; a path that exists as given, or holds no ``@``,
    as ``(path, None)``."""
    text = os.fspath(path)
    p = Path(text)
    if "@" not in text or _exists(p):
        return p, None
    head, _, name = text.rpartition("@")
    return Path(head), name


def _exists(p: Path) -> bool:
    try:
        p.stat()
    except (OSError, ValueError):  # missing, a name too long, a NUL in the name ...
        return False
    return True


def _is_dir(p: Path) -> bool:
    """``p.is_dir()``, False where the name cannot even be looked up (the file reader
    then says why)."""
    try:
        return p.is_dir()
    except (OSError, ValueError):
        return False


#: Files criterion writes in every baseline directory.
_FILES = (SAMPLE, "estimates.json", "benchmark.json")
#: Entries looked at below a directory before it is judged not to be criterion's.
_SNIFF_ENTRIES = 20_000


def is_directory(path) -> bool:
    """Whether ``path`` (``DIR`` or ``DIR@NAME``) names a directory."""
    return _is_dir(split_baseline(path)[0])


def is_input(path) -> bool:
    """Whether ``path`` is criterion's input: ``DIR@NAME``, or a directory holding one
    of criterion's files (``sample.json``, ``estimates.json``, ``benchmark.json``)
    somewhere below it (the first entries only, so that a huge tree is not walked)."""
    p, name = split_baseline(path)
    if not _is_dir(p):
        return False
    if name is not None:
        return True
    seen = 0
    for _, dirnames, filenames in os.walk(p):
        if any(f in _FILES for f in filenames):
            return True
        seen += len(dirnames) + len(filenames)
        if seen > _SNIFF_ENTRIES:
            return False
    return False


def _samples(raw, source, name) -> list[float]:
    """Time per iteration of every sample of one ``sample.json`` document."""
    need(isinstance(raw, dict), source, f"{prefix(name)}{SAMPLE} is not a JSON object")
    need("iters" in raw and "times" in raw, source,
         f"{prefix(name)}{SAMPLE} has no 'iters' and 'times'")
    iters = numbers(raw["iters"], source, name, f"{SAMPLE} 'iters'")
    times = numbers(raw["times"], source, name, f"{SAMPLE} 'times'")
    need(len(iters) == len(times), source,
         f"{prefix(name)}{SAMPLE} holds {len(iters)} 'iters' and {len(times)} 'times'; "
         "they go in pairs")
    n = np.asarray(iters)
    # a count of iterations: a whole number of at least one (19.0 is one, 0.5 is not)
    bad = np.flatnonzero((n < 1) | (n != np.floor(n)))
    if bad.size:
        raise InputError(
            source, f"{prefix(name)}{SAMPLE} sample {int(bad[0]) + 1} has "
            f"{float(n[bad[0]])!r} iterations; every sample needs a whole number of "
            "iterations, at least one")
    return (np.asarray(times) / n).tolist()


def _name(bench_dir: Path, root: Path, baseline_dir: Path, max_bytes: int | None = None) -> str:
    """criterion's ``full_id`` of a benchmark, else its directory relative to the input.

    A ``benchmark.json`` that is there but not a regular file (a FIFO, a device) or
    over the size limit is an InputError, never opened."""
    meta = baseline_dir / "benchmark.json"
    if _exists(meta):  # (a dangling link is no benchmark.json: the directory names it)
        check_file(meta, max_bytes)
    try:
        doc = json.loads(meta.read_text(encoding="utf-8"))
        full = doc.get("full_id") if isinstance(doc, dict) else None
        if isinstance(full, str) and full:
            return full
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        pass
    rel = bench_dir.relative_to(root).as_posix() if bench_dir != root else bench_dir.name
    return rel or bench_dir.name


def _find(root: Path) -> dict[Path, dict[str, Path]]:
    """``{benchmark directory: {baseline: its sample.json}}`` under ``root``, sorted."""
    found: dict[Path, dict[str, Path]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "report")
        if SAMPLE in filenames:
            here = Path(dirpath)
            if here.name not in NOT_BASELINES:
                found.setdefault(here.parent, {})[here.name] = here / SAMPLE
    return found


def _choose(found: dict, wanted: str | None, source) -> tuple[str, list]:
    """The baseline to read and the benchmarks that lack it."""
    names = sorted({b for baselines in found.values() for b in baselines})
    if wanted is not None:
        missing = [d for d, baselines in found.items() if wanted not in baselines]
        if len(missing) == len(found):
            raise InputError(
                source, f"no benchmark has a baseline {wanted!r}; the baselines here are "
                f"{', '.join(names)}")
        return wanted, missing
    for name in DEFAULT_BASELINES:
        if name in names:
            break
    else:
        if len(names) != 1:
            raise InputError(
                source, f"holds the baselines {', '.join(names)} and neither 'new' nor "
                "'base'; name the one to read as DIR@NAME")
        name = names[0]
    missing = [d for d, baselines in found.items() if name not in baselines]
    if len(names) > 1:
        others = ", ".join(n for n in names if n != name)
        warnings.warn(
            f"{source}: read the criterion baseline {name!r}; the directory also holds "
            f"{others} (read another as DIR@NAME)", EsizeWarning, stacklevel=3)
    return name, missing


def parse_path(path, source, max_bytes: int | None = None) -> dict:
    """``{full_id: (time per iteration of every sample, UnitInfo)}`` of a criterion
    directory (``DIR`` or ``DIR@NAME``) or of one ``sample.json``.

    Raises
    ------
    InputError
        No ``sample.json`` under the directory (only ``change/`` or ``report/``), no
        benchmark with the baseline named, several baselines and none of them
        ``new`` or ``base``, or a ``sample.json`` that is not one.

    Warns
    -----
    EsizeWarning
        Which baseline was read when the directory holds several, and the
        benchmarks left out because they lack it.
    """
    p, wanted = split_baseline(path)
    unit = unit_info("ns")
    if p.is_file():
        check_file(p, max_bytes)
        doc = parse_json(read_bytes(p), p, max_bytes)
        kind = _kind(doc)
        need(kind is not None, source, "not a criterion sample.json (no 'iters' and 'times')")
        _refuse_summary(kind, source)
        name = _name(p.parent.parent, p.parent.parent, p.parent, max_bytes)
        return {name: (_samples(doc, source, name), unit)}
    if not p.is_dir():
        raise InputError(source, "no such file or directory")
    if (p / SAMPLE).is_file() and p.name not in NOT_BASELINES:
        # one baseline's directory: the baseline is the directory
        if wanted is not None and wanted != p.name:
            raise InputError(source, f"this is the baseline {p.name!r} of one benchmark; "
                             f"@{wanted} names another (give the benchmark's directory)")
        found = {p.parent: {p.name: p / SAMPLE}}
        wanted = p.name
        root = p.parent
    else:
        found = _find(p)
        root = p
    if not found:
        change = any((Path(d) / "estimates.json").is_file()
                     for d, _, _ in os.walk(p) if Path(d).name == "change")
        what = ("only criterion's change/ estimates, which compare two runs by a "
                "summary; esize needs the samples" if change else "no criterion results")
        raise InputError(
            source, f"{what}: no <benchmark>/<baseline>/{SAMPLE} below this directory "
            "(give target/criterion, or a benchmark's directory, after cargo bench)")
    baseline, missing = _choose(found, wanted, source)
    out: dict = {}
    for bench_dir, baselines in sorted(found.items()):
        if baseline not in baselines:
            continue
        sample = baselines[baseline]
        check_file(sample, max_bytes)
        name = _name(bench_dir, root, sample.parent, max_bytes)
        doc = parse_json(read_bytes(sample), sample, max_bytes)
        if name in out:
            raise InputError(source, f"{prefix(name)}appears twice (two directories give "
                             "the same full_id)")
        out[name] = (_samples(doc, sample, name), unit)  # a bad sample names its file
    if missing:
        names = ", ".join(_name(d, root, next(iter(found[d].values())).parent, max_bytes)
                          for d in missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        warnings.warn(
            f"{source}: {len(missing)} {plural('benchmark', len(missing))} without the "
            f"baseline {baseline!r} left out: {names}", EsizeWarning, stacklevel=2)
    return out


def _refuse_summary(kind: str | None, source) -> None:
    if kind == "estimates":
        raise InputError(
            source, "this is criterion's estimates.json (summaries: mean, median, "
            "slope with intervals); esize needs the samples: give sample.json or the "
            "benchmark's directory")
    if kind == "benchmark":
        raise InputError(
            source, "this is criterion's benchmark.json (the benchmark's name only); give "
            "sample.json or the benchmark's directory")


def parse(doc, source) -> dict:
    """``{name: (samples, UnitInfo)}`` of one parsed ``sample.json`` document, named
    after the file; the other criterion files are refused with what to give."""
    kind = _kind(doc)
    need(kind is not None, source, "not a criterion file")
    _refuse_summary(kind, source)
    return parse_path(source, source)
