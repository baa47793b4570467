"""Reading a dataset entry's files in any format esize reads, with its warm-up.

Names. A tidy table (CSV or Parquet) is one benchmark, named by its file name without
the extension (``qs-old.csv`` is ``qs-old``). A harness file (pyperf, JMH, Google
Benchmark, hyperfine JSON; the reader chosen as the command line chooses it,
:func:`esize.readers.detect_format`) holds benchmarks named by the harness; a name
held by several files is qualified by the file's stem (``py36/telco`` and
``py37/telco``). A comparison may name a benchmark, or a harness file by its stem: two
files are then compared benchmark by benchmark, matched by name as ``esize compare
old.json new.json`` matches them.

Order. A table's measurements are taken in the order of its ``order`` column
(``iteration`` when the table has one), so that the warm-up is the first values of
each execution whatever the order of the rows.

Warm-up (``warmup:``): ``auto`` (:func:`esize.auto_warmup`, as ``--warmup auto``), a
count of values per lowest-level group, or a fraction of each group (rounded half up).
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from esize import EsizeError, EsizeWarning, InputError
from esize.readers import (
    HARNESS_LEVELS,
    JSON_SUFFIXES,
    PARQUET_SUFFIXES,
    Benchmark,
    detect_format,
    drop_single_top,
    drop_warmup,
    read_benchmarks,
    trim,
    unit_info,
)

from .config import TABLE_SUFFIXES, EntryProblem

__all__ = ["FileInfo", "Index", "Read", "Dataset", "scan", "read_dataset", "warmup_count",
           "table_columns"]

#: Name of the lowest level of a tidy table's design (:func:`esize.from_tidy`), and the
#: other names ``costs`` may give it.
LOWEST_ALIASES = ("measurement", "iteration")
_NONE = "\x00"  # a benchmark name no file holds: read_benchmarks(only=...) lists names only


def stem(path: str | Path) -> str:
    """The file's name without its result-file extension (``a.csv.gz`` -> ``a``)."""
    name = Path(path).name
    for suffix in sorted(TABLE_SUFFIXES + JSON_SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def table_columns(path: str | Path) -> list[str]:
    """The column names of a tidy table, from its header (CSV) or schema (Parquet)."""
    from esize.readers import tidy

    p = Path(path)
    if p.suffix.lower() in PARQUET_SUFFIXES:
        import pyarrow.parquet as pq

        return list(pq.read_schema(p).names)
    opener, _ = tidy._compression(p)
    with opener(p, "rt", encoding="utf-8-sig", newline="") as fh:
        header = fh.readline().rstrip("\r\n")
    import csv

    return next(csv.reader([header], delimiter=tidy._delimiter(p, header)), [])


@dataclass
class FileInfo:
    """One result file: its format and the (harness) names of its benchmarks."""

    path: str
    fmt: str
    inner: list  # harness names; [None] for a table
    stem: str


@dataclass
class Index:
    """The benchmarks of a dataset, by name, before any is read.

    Attributes
    ----------
    files : list of FileInfo
    names : dict
        Benchmark name -> ``(FileInfo, harness name)``.
    skipped : list of (str, str)
        Files left out, with the reason (JSON of no known harness: a costs file, say).
    """

    files: list = field(default_factory=list)
    names: dict = field(default_factory=dict)
    skipped: list = field(default_factory=list)

    def levels(self) -> set[str]:
        """Every level name a file of the dataset may have (costs are keyed by them)."""
        out = set()
        for f in self.files:
            out.update(HARNESS_LEVELS.get(f.fmt, ()))
        return out

    def resolve(self, text: str) -> tuple[FileInfo | None, list[str]]:
        """The benchmark names a comparison's ``old`` or ``new`` stands for: one name,
        or a harness file's (by its stem), which returns that file too.

        Raises
        ------
        KeyError
            With the reason, when ``text`` names nothing (or several files' benchmarks).
        """
        if text in self.names:
            return None, [text]
        files = [f for f in self.files if f.fmt != "tidy" and text in (f.stem, Path(f.path).name)]
        if len(files) == 1:
            f = files[0]
            return f, [n for n, (g, _) in self.names.items() if g is f]
        held = [n for n, (g, inner) in self.names.items() if inner == text]
        if held:
            raise KeyError(f"{text!r} is a benchmark of several files: write "
                           f"{' or '.join(map(repr, held[:3]))}")
        shown = list(self.names)[:8]
        more = f" and {len(self.names) - 8} more" if len(self.names) > 8 else ""
        raise KeyError(f"no benchmark {text!r} in the dataset (it has "
                       f"{', '.join(map(repr, shown))}{more})")

    def pairs(self, old: str, new: str) -> list[tuple[str, str]]:
        """The benchmark pairs ``(old, new)`` a comparison stands for: two benchmarks,
        or two harness files' benchmarks matched by name.

        Raises
        ------
        KeyError
            With the reason (:meth:`resolve`'s, a file against one benchmark, or two
            files with no benchmark in common).
        """
        fo, olds = self.resolve(old)
        fn, news = self.resolve(new)
        if fo is None and fn is None:
            if olds == news:
                raise KeyError(f"old and new are the same benchmark {old!r}")
            return [(olds[0], news[0])]
        if fo is None or fn is None:
            raise KeyError(f"{old!r} and {new!r}: compare a file with a file (benchmark by "
                           "benchmark), or a benchmark with a benchmark")
        by_new = {self.names[n][1]: n for n in news}
        out = [(o, by_new[self.names[o][1]]) for o in olds if self.names[o][1] in by_new]
        if not out:
            raise KeyError(f"{old!r} and {new!r} have no benchmark in common")
        return out

    def check(self, settings: Mapping) -> None:
        """Raise :class:`EntryProblem` for what the entry names and the files lack:
        comparisons, the ``benchmarks`` subset, the levels of the costs, the columns
        of the tables."""
        where = ("datasets", settings["name"])
        for i, c in enumerate(settings["comparisons"]):
            for side in ("old", "new"):
                try:
                    self.resolve(c[side])
                except KeyError as exc:
                    raise EntryProblem((*where, "comparisons", i, side), exc.args[0]) from None
            try:
                self.pairs(c["old"], c["new"])
            except KeyError as exc:
                raise EntryProblem((*where, "comparisons", i), exc.args[0]) from None
        for i, b in enumerate(settings.get("benchmarks") or []):
            try:
                self.resolve(str(b))
            except KeyError as exc:
                raise EntryProblem((*where, "benchmarks", i), exc.args[0]) from None
        known = self.levels() | (set(settings["levels"]) | set(LOWEST_ALIASES)
                                 if any(f.fmt == "tidy" for f in self.files) else set())
        for level in settings["cost_map"]:
            if level not in known:
                raise EntryProblem((*where, "costs", level),
                                   f"no file of the dataset has a level {level!r} (levels: "
                                   f"{', '.join(sorted(known))}; build means binary)")
        for f in self.files:
            if f.fmt != "tidy":
                continue
            try:
                columns = table_columns(f.path)
            except Exception as exc:  # noqa: BLE001 - the reader will say more; name the file
                raise EntryProblem((*where, "path"), f"{f.path}: cannot read its header: {exc}") from None
            order = [settings["order"]] if settings.get("order") else []
            wanted = [*settings["levels"], settings["value"], *order]
            missing = [c for c in wanted if c not in columns]
            if missing:
                key = ("order" if settings.get("order") in missing else
                       "value" if settings["value"] in missing else "levels")
                raise EntryProblem((*where, key),
                                   f"{f.path} has no column {missing[0]!r} (columns: "
                                   f"{', '.join(columns)})")


def scan(settings: Mapping, files: Iterable[str]) -> Index:
    """Detect every file's format and list its benchmarks' names (nothing is read
    beyond a harness file's parse).

    Raises
    ------
    EntryProblem
        Two tables with one name, or a harness file that cannot be parsed.
    """
    index = Index()
    where = ("datasets", settings["name"], "files" if settings.get("kind") == "files" else "path")
    for path in files:
        try:
            fmt = detect_format(path)
        except InputError as exc:
            if str(path).lower().endswith(JSON_SUFFIXES):
                index.skipped.append((str(path), str(exc).removeprefix(f"{path}: ")))
                continue
            raise EntryProblem(where, str(exc)) from None
        if fmt == "tidy":
            index.files.append(FileInfo(str(path), fmt, [None], stem(path)))
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", EsizeWarning)
                names = read_benchmarks(path, fmt, only=[_NONE]).names
        except EsizeError as exc:
            raise EntryProblem(where, str(exc)) from None
        index.files.append(FileInfo(str(path), fmt, [str(n) for n in names], stem(path)))
    count: dict = {}
    for f in index.files:
        for inner in f.inner:
            key = f.stem if inner is None else inner
            count[key] = count.get(key, 0) + 1
    for f in index.files:
        for inner in f.inner:
            if inner is None:
                name = f.stem
                if name in index.names:
                    other = index.names[name][0].path
                    raise EntryProblem(where, f"two files name the benchmark {name!r}: "
                                              f"{other} and {f.path}")
            else:
                name = inner if count[inner] == 1 else f"{f.stem}/{inner}"
            index.names[name] = (f, inner)
    if not index.names:
        raise EntryProblem(where, "no benchmark in the dataset's files")
    return index


def warmup_count(spec: Mapping, n: int) -> int:
    """Values dropped per lowest-level group of ``n`` values for a fixed or fraction
    warm-up (a fraction rounded half up)."""
    if spec["mode"] == "fixed":
        return int(spec["count"])
    return int(math.floor(spec["fraction"] * n + 0.5 + 1e-9))


@dataclass
class Read:
    """One benchmark as read: its file, format, harness name and
    :class:`esize.readers.Benchmark` (design after the warm-up, unit, caveats, the
    warm-up dropped, and every group's values before the cut in ``series``)."""

    name: str
    path: str
    fmt: str
    inner: str | None
    bench: Benchmark
    raw_values: int  # values per lowest-level group before the warm-up


@dataclass
class Dataset:
    """A dataset as read: its index, its benchmarks by name and the readers' notes."""

    index: Index
    reads: dict
    notes: list = field(default_factory=list)


def _fixed_warmup(bench: Benchmark, spec: Mapping, source: str, name) -> Benchmark:
    design = bench.design
    n = design.shape[-1]
    k = warmup_count(spec, n)
    series = design.data.reshape(-1, n)
    info = {"mode": spec["mode"], "per_group": k, "dropped": k * series.shape[0], "kept": n - k}
    if spec["mode"] == "fraction":
        info["fraction"] = spec["fraction"]
    if k:
        design = trim(design, source, name, k)
    return dataclasses.replace(bench, design=design, warmup=info, series=series)


def _read_table(path: str, settings: Mapping) -> tuple[Benchmark, int]:
    """One tidy table, its rows in the order of the ``order`` column."""
    from esize.readers import tidy

    p = Path(path)
    table, row_name = tidy._load(p)
    order = settings.get("order") or ("iteration" if "iteration" in table else None)
    if order is not None:
        if order not in table:
            raise InputError(path, f"no column {order!r} to order the measurements by")
        try:
            key = np.asarray(table[order], dtype=np.float64)
        except (TypeError, ValueError):
            raise InputError(path, f"column {order!r} (the order of the measurements) holds "
                                   "a value that is not a number") from None
        perm = np.argsort(key, kind="stable")
        table = {c: np.asarray(v)[perm] for c, v in table.items()}
        row_name = (lambda name_of: (lambda k: name_of(int(perm[k]))))(row_name)
    parsed = tidy.parse(table, path, levels=list(settings["levels"]), value=settings["value"],
                        row_name=row_name)
    design, _ = parsed[None]
    unit = unit_info(settings["unit"])
    raw = design.shape[-1]
    spec = settings["warmup_spec"]
    if spec["mode"] == "auto":
        design, info, caveats, series = drop_warmup(design, path, None, "auto",
                                                    unit.lower_is_better)
        bench = Benchmark(design, unit, caveats, info, (), series)
    else:
        bench = _fixed_warmup(Benchmark(design, unit), spec, path, None)
    design, caveats, dropped = drop_single_top(bench.design, path, None)
    return dataclasses.replace(bench, design=design, caveats=bench.caveats + caveats,
                               unobserved=dropped), raw


def _read_harness(f: FileInfo, inner: list[str], settings: Mapping) -> dict:
    spec = settings["warmup_spec"]
    auto = spec["mode"] == "auto"
    benches = read_benchmarks(f.path, f.fmt, warmup="auto" if auto else 0, only=inner)
    out = {}
    for name, bench in benches.items():
        raw = bench.series.shape[1] if auto and bench.series is not None else bench.design.shape[-1]
        if not auto:
            bench = _fixed_warmup(bench, spec, f.path, name)
        out[name] = (bench, raw)
    return out


def read_dataset(settings: Mapping, files: Iterable[str],
                 only: Iterable[str] | None = None) -> Dataset:
    """Read the benchmarks of a dataset entry (``only`` these names, when given).

    The entry's ``benchmarks`` subset applies first. Notes of the readers (what
    ``balance`` dropped, failed entries of a harness file skipped) are kept, one line
    each, with the files left out.

    Raises
    ------
    EntryProblem
        What :func:`scan` finds.
    esize.InputError
        A file that cannot be read as configured, naming it and the benchmark.
    """
    index = scan(settings, files)
    wanted = list(index.names)
    if settings.get("benchmarks"):
        keep = set()
        for b in settings["benchmarks"]:
            keep.update(index.resolve(str(b))[1])
        wanted = [n for n in wanted if n in keep]
    if only is not None:
        only = set(only)
        wanted = [n for n in wanted if n in only]
    reads: dict = {}
    notes = [f"{path}: left out: {why}" for path, why in index.skipped]
    by_file: dict = {}
    for n in wanted:
        f, inner = index.names[n]
        by_file.setdefault(f.path, (f, []))[1].append((n, inner))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", EsizeWarning)
        for f, members in by_file.values():
            if f.fmt == "tidy":
                name, _ = members[0]
                bench, raw = _read_table(f.path, settings)
                reads[name] = Read(name, f.path, f.fmt, None, bench, raw)
                continue
            got = _read_harness(f, [inner for _, inner in members], settings)
            for name, inner in members:
                if inner in got:
                    bench, raw = got[inner]
                    reads[name] = Read(name, f.path, f.fmt, inner, bench, raw)
    notes += [" ".join(str(w.message).split()) for w in caught
              if issubclass(w.category, EsizeWarning)]
    ordered = {n: reads[n] for n in wanted if n in reads}
    return Dataset(index, ordered, notes)
