"""Reading a result file: detect its format from one parsed document, then read it."""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from .._errors import EsizeError, InputError
from . import (
    asv,
    benchmarkdotnet,
    criterion,
    gbench,
    gotest,
    hyperfine,
    jmh,
    julia,
    pyperf,
    pytestbench,
)
from ._common import (
    Benchmark,
    check_balance_mode,
    check_file,
    design_from_ragged,
    drop_single_top,
    finish,
    keep_replicated,
    open_text,
    parse_json,
    read_bytes,
    size_text,
    with_names,
)
from ._suffixes import PARQUET_SUFFIXES, is_json_name, is_table_name

__all__ = [
    "FORMATS",
    "GBENCH_TIMES",
    "HARNESS_LEVELS",
    "UNOBSERVED_LEVELS",
    "load",
    "detect_format",
    "read_benchmarks",
    "next_run_options",
]

#: The harness modules in the order their documents are recognised.
_HARNESSES: tuple[ModuleType, ...] = (jmh, hyperfine, gbench, benchmarkdotnet, asv, julia, pyperf)
# pytest-benchmark and criterion documents share no key with the ones above
_HARNESSES += (pytestbench, criterion)


class _Modules(dict):
    """``{format: reader module}``; the table reader is imported when first asked for
    (a comparison of harness files never needs it)."""

    def __missing__(self, fmt: str):
        if fmt != "tidy":
            raise KeyError(fmt)
        from . import tidy

        self[fmt] = tidy
        return tidy

    def get(self, fmt, default=None):
        try:
            return self[fmt]
        except KeyError:
            return default

    def __contains__(self, fmt) -> bool:
        return fmt == "tidy" or dict.__contains__(self, fmt)


_MODULES = _Modules({m.FORMAT: m for m in (*_HARNESSES, gotest)})
FORMATS: tuple[str, ...] = ("tidy", "pyperf", "jmh", "gbench", "hyperfine")
FORMATS += ("benchmarkdotnet", "asv", "julia")
FORMATS += ("gotest", "pytest-benchmark", "criterion")
GBENCH_TIMES = gbench.TIMES
#: Levels of each harness format, highest first.
HARNESS_LEVELS = {m.FORMAT: m.LEVELS for m in (pyperf, jmh, gbench, hyperfine)}
HARNESS_LEVELS.update({m.FORMAT: m.LEVELS for m in (benchmarkdotnet, asv, julia)})
HARNESS_LEVELS.update({m.FORMAT: m.LEVELS for m in (gotest, pytestbench, criterion)})
#: ``{format: level}``: the level above a format's own that its files cannot see apart
#: (the ``process`` of a Google Benchmark, pytest-benchmark, criterion, Julia or asv
#: file); a benchmark read from one is inconclusive unless that level is assumed not
#: to vary. Formats whose files can see every level they name are not listed.
UNOBSERVED_LEVELS = {m.FORMAT: m.UNOBSERVED_TOP for m in (*_HARNESSES, gotest)
                     if getattr(m, "UNOBSERVED_TOP", None)}

# the last document parsed, so that detecting a file's format and then reading it
# parse the file once: (path, digest of its bytes) -> document
_last: dict = {}


def _looks_like_json(p: Path) -> bool:
    name = p.name.lower()
    if is_json_name(name):
        return True
    if is_table_name(name):
        return False
    try:
        with open_text(p) as fh:
            head = fh.read(256)
    except (OSError, UnicodeDecodeError, EOFError, zlib.error):
        return False  # not JSON text; the table reader says what is wrong with it
    return head.lstrip()[:1] in ("{", "[")


def _looks_like_go(p: Path, *, events: bool = False) -> bool:
    """Whether a file that is not JSON starts like Go benchmark text
    (:func:`esize.readers.gotest.sniff_text`), or with ``events`` whether a file
    that starts like JSON is ``go test -json`` output; a Parquet file is not read."""
    if p.name.lower().endswith(PARQUET_SUFFIXES):
        return False
    try:
        with open_text(p) as fh:
            head = fh.read(gotest.SNIFF_BYTES)
    except (OSError, UnicodeDecodeError, EOFError, zlib.error):
        return False  # not text; the table reader says what is wrong with it
    return gotest.is_test2json(head) if events else gotest.sniff_text(head)


def _sniff(doc) -> str | None:
    """Name the harness that wrote ``doc`` (a parsed JSON document), or None."""
    return next((m.FORMAT for m in _HARNESSES if m.sniff(doc)), None)


def _parse_once(p: Path, max_bytes: int | None = None):
    """The JSON document of ``p``; parsed again only when its bytes changed."""
    raw = read_bytes(p)
    key = (str(p.resolve()), raw)  # the bytes themselves: equal means unchanged
    if key not in _last:
        doc = parse_json(raw, p, max_bytes)
        _last.clear()
        _last[key] = doc
    return _last[key]


@contextmanager
def reading(path) -> Iterator[None]:
    """The one boundary of every reader: whatever reading ``path`` raises leaves it as
    an :class:`~esize.EsizeError` naming the file, never as a traceback.

    Running out of memory says the file is too big for this machine (not the
    bootstrap's advice); any other unforeseen exception is named with its type, so
    that it can be reported and given its own message.
    """
    try:
        yield
    except EsizeError:
        raise
    except MemoryError:
        try:
            size = f" ({size_text(os.stat(path).st_size)})"
        except (OSError, ValueError):
            size = ""
        raise InputError(
            path, f"too big to read into the memory of this machine{size}; split it, or "
            "keep only the benchmarks wanted (--benchmark, --where)") from None
    except RecursionError:
        raise InputError(path, "cannot read: nested too deeply") from None
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except Exception as exc:  # noqa: BLE001 - the boundary: nothing escapes as a traceback
        detail = " ".join(str(exc).split())[:200]
        raise InputError(
            path, f"cannot read: unexpected content ({type(exc).__name__}"
            f"{': ' + detail if detail else ''}); please report this file") from None


def load(path: str | os.PathLike, *, max_bytes: int | None = None) -> tuple[str, object]:
    """The format of a result file and its parsed JSON document (None for a table).

    The document of the last file loaded is kept with a digest of the file's bytes,
    so that :func:`detect_format` followed by :func:`read_benchmarks` parses the file
    once (and a changed file is parsed again).

    Raises
    ------
    InputError
        The file is missing or unreadable, or is JSON of no known harness.

    Examples
    --------
    >>> import json, os, tempfile
    >>> from esize.readers import load
    >>> doc = {"results": [{"command": "sort", "times": [1.02, 0.98, 1.01, 0.99]},
    ...                    {"command": "hash", "times": [0.51, 0.49, 0.50]}]}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "old.json")
    ...     with open(path, "w") as fh:
    ...         json.dump(doc, fh)
    ...     fmt, parsed = load(path)
    >>> fmt, [r["command"] for r in parsed["results"]]
    ('hyperfine', ['sort', 'hash'])
    """
    p = Path(path)
    _named(path)
    with reading(path):
        if criterion.is_input(path):  # a directory (DIR@BASELINE): criterion's results
            return "criterion", None
        check_file(p, max_bytes)
        if not _looks_like_json(p):
            return ("gotest" if _looks_like_go(p) else "tidy"), None
        if _looks_like_go(p, events=True):  # go test -json: one JSON object per line
            return "gotest", None
        doc = _parse_once(p, max_bytes)
        fmt = _sniff(doc)
    if fmt is None:
        raise InputError(
            p,
            "JSON of an unknown kind: expected pyperf, JMH (-rf json), Google Benchmark, "
            "hyperfine, BenchmarkDotNet (full JSON export), asv, Julia BenchmarkTools, "
            "pytest-benchmark or criterion results; use --format to say which",
        )
    return fmt, doc


def detect_format(path: str | os.PathLike, *, max_bytes: int | None = None) -> str:
    """Guess the format of a result file: ``tidy`` or the harness that wrote it.

    A directory holding criterion's files (``sample.json``, ...) below it, or
    ``DIR@BASELINE``, is criterion's. Files named ``*.csv``, ``*.tsv``, ``*.txt`` or
    ``*.parquet`` (and compressed CSV) are tidy tables unless their text starts like
    Go benchmark output (``goos:``/``pkg:`` headers, or ``BenchmarkName  N  v ns/op``
    lines: :func:`~esize.readers.gotest.sniff_text`); other files are read as JSON
    (gzip-compressed or not) when they start with ``{`` or ``[`` (one JSON event per
    line is ``go test -json`` output), and the harness is recognised by the
    document's structure.

    Raises
    ------
    InputError
        The file is missing, not a regular file, larger than ``max_bytes`` (default:
        :func:`~esize.readers._common.max_input_bytes`), or JSON of no known harness.

    Examples
    --------
    >>> import json, os, tempfile
    >>> from esize.readers import detect_format
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     jmh = os.path.join(tmp, "jmh.json")
    ...     with open(jmh, "w") as fh:
    ...         json.dump([{"benchmark": "b.Sort.run", "mode": "avgt",
    ...                     "primaryMetric": {"rawData": [[1.0, 1.1], [0.9, 1.0]]}}], fh)
    ...     table = os.path.join(tmp, "runs.csv")
    ...     with open(table, "w") as fh:
    ...         print("binary,execution,time", file=fh)
    ...     print(detect_format(jmh), detect_format(table))
    jmh tidy
    """
    return load(path, max_bytes=max_bytes)[0]


def read_benchmarks(
    path: str | os.PathLike,
    fmt: str | None = None,
    *,
    levels: Sequence[str] = ("binary", "execution"),
    value: str = "time",
    where: Iterable[str] = (),
    warmup: int | str = 0,
    benchmark_column: str | None = None,
    balance: str | None = None,
    gbench_time: str = "real_time",
    only: Iterable[str] = (),
    max_bytes: int | None = None,
) -> dict[str | None, Benchmark]:
    """Read every benchmark of a result file.

    Parameters
    ----------
    path : path-like
        The file.
    fmt : str, optional
        One of :data:`FORMATS`; detected from the file when None
        (:func:`detect_format`).
    levels, value, where : optional
        Tidy tables only: grouping columns (highest first), the measured column, and
        ``COL=VALUE`` row filters.
    warmup : int or "auto"
        Drop the first ``warmup`` measurements of every lowest-level group (pyperf
        values of a process, JMH iterations of a fork, the first runs or repetitions
        of a one-level file), after balancing; ``"auto"`` finds where each group's
        steady state starts (:func:`esize.readers.drop_warmup`).
    benchmark_column : str, optional
        Tidy tables only: split the rows into benchmarks by this column. Without it
        the whole table is one unnamed benchmark (key None).
    balance : {None, "truncate"}
        Unbalanced data is an error unless ``"truncate"``, which keeps the first
        ``m`` units of every group, ``m`` being the smallest group's size (see
        :func:`~esize.readers.design_from_ragged`).
    gbench_time : {"real_time", "cpu_time"}
        Google Benchmark only: which time to read.
    only : iterable of str, optional
        Read only these benchmarks (names absent from the file are left for the
        caller to report); nothing else is checked, so that a problem of a benchmark
        left out is not reported.
    max_bytes : int, optional
        Refuse a file larger than this (also once decompressed); default
        ``ESIZE_MAX_INPUT_BYTES`` from the environment, else 4 GiB.

    Returns
    -------
    dict
        ``{name: Benchmark(design, unit)}`` in file order.

    Raises
    ------
    InputError
        Any problem with the file, naming it and the benchmark concerned: whatever
        reading the file raises becomes one (:func:`reading`), so that no file can
        end in a traceback.

    Warns
    -----
    EsizeWarning
        For everything dropped or skipped on the way (``balance="truncate"``, Google
        Benchmark entries the harness reports as failed).

    Examples
    --------
    A hyperfine file of two commands (one level, ``run``, times in seconds):

    >>> import json, os, tempfile
    >>> from esize.readers import read_benchmarks
    >>> doc = {"results": [{"command": "sort", "times": [1.02, 0.98, 1.01, 0.99]},
    ...                    {"command": "hash", "times": [0.51, 0.49, 0.50]}]}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "old.json")
    ...     with open(path, "w") as fh:
    ...         json.dump(doc, fh)
    ...     benchmarks = read_benchmarks(path)
    >>> list(benchmarks)
    ['sort', 'hash']
    >>> design, unit = benchmarks["sort"]
    >>> design.levels, design.shape, unit.unit, round(design.mean, 4)
    (('run',), (4,), 's', 1.0)
    """
    with reading(path):
        return _read_benchmarks(path, fmt, levels=levels, value=value, where=where,
                                warmup=warmup, benchmark_column=benchmark_column,
                                balance=balance, gbench_time=gbench_time, only=only,
                                max_bytes=max_bytes)


def _named(path) -> None:
    """InputError for an empty file name, which ``Path`` would take for the current
    directory (and criterion's reader walk it)."""
    if not os.fspath(path):
        raise InputError("''", "the input file name is empty")


def _read_benchmarks(path, fmt, *, levels, value, where, warmup, benchmark_column,
                     balance, gbench_time, only, max_bytes) -> dict:
    _named(path)
    p = Path(path)
    source = str(path)
    doc = None
    if fmt is None:
        fmt, doc = load(p, max_bytes=max_bytes)
    elif fmt not in FORMATS:
        raise InputError(source, f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    check_balance_mode(balance, source)
    if fmt == "tidy":
        return _MODULES["tidy"].read(
            path,
            levels=levels,
            value=value,
            where=where,
            warmup=warmup,
            benchmark_column=benchmark_column,
            balance=balance,
            only=only,
            max_bytes=max_bytes,
        )
    module = _MODULES[fmt]
    if fmt == "criterion" and criterion.is_directory(path):  # a tree, not one document
        parsed = criterion.parse_path(path, source, max_bytes)
    elif fmt == "gotest":  # text, not JSON
        check_file(p, max_bytes)
        parsed = gotest.parse_text(gotest.read_text(p, max_bytes), source)
    else:
        if doc is None:
            check_file(p, max_bytes)
            doc = _parse_once(p, max_bytes)
        opts = {"gbench_time": gbench_time} if fmt == "gbench" else {}
        parsed = module.parse(doc, source, **opts)
    read: dict = {}
    wanted = set(only)
    for name, (units, unit) in parsed.items():
        if wanted and name not in wanted:
            continue
        design = design_from_ragged(
            units, module.LEVELS, balance=balance, source=source, benchmark=name
        )
        read[name] = (*finish(design, source, name, warmup, unit.lower_is_better), unit)
    kept = keep_replicated({n: r[0] for n, r in read.items()}, source, module.NEXT_RUN_OPTIONS)
    out: dict = {}
    for name in kept:
        design, info, warm, series, unit = read[name]
        design, caveats, dropped = drop_single_top(design, source, name, module.NEXT_RUN_OPTIONS,
                                                   getattr(module, "SINGLE_UNIT_ADVICE", None))
        hidden = getattr(module, "UNOBSERVED_TOP", None)  # a level no file of it can see
        if hidden is not None:
            dropped = ((hidden, None), *dropped)
            caveats = (module.UNOBSERVED_CAVEAT, *caveats)
        out[name] = Benchmark(design, unit, warm + caveats, info, dropped, series)
    return with_names(out, parsed)


def next_run_options(fmt: str, counts: Mapping[str, int]) -> str | None:
    """The harness options that produce a design with these counts per level.

    Parameters
    ----------
    fmt : str
        A harness format (``"pyperf"``, ``"jmh"``, ``"gbench"``, ``"hyperfine"``).
    counts : mapping
        Level name -> count; levels left out here are left out of the options.

    Returns
    -------
    str or None
        For example ``"--processes 20 --values 3"`` for pyperf; None for a tidy
        table, an unknown format, or no known level in ``counts``.

    Examples
    --------
    >>> from esize.readers import next_run_options
    >>> next_run_options("pyperf", {"process": 20, "value": 3})
    '--processes 20 --values 3'
    >>> next_run_options("gbench", {"repetition": 10})
    '--benchmark_repetitions=10'
    >>> next_run_options("tidy", {"binary": 3}) is None
    True
    """
    module = _MODULES.get(fmt)
    if module is None:
        return None
    parts = [
        f"{opt}{'' if opt.endswith('=') else ' '}{int(counts[level])}"
        for level, opt in module.NEXT_RUN_OPTIONS.items()
        if level in counts
    ]
    return " ".join(parts) or None
