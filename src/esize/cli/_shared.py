"""What the subcommands share: reading the input files with the command line's
options, one table formatter, JSON and number helpers, figures and the progress bar.

Reading is :func:`esize.readers.read_benchmarks`; this module only maps options to
its arguments and rejects options that do not apply to a file's format. Notes are
:class:`~esize.EsizeWarning` warnings, shown by :func:`esize.cli.main` after a
successful run.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .._design import Design
from .._errors import EsizeError, InputError
from ..readers import detect_format, names_text, read_benchmarks
from ..readers.single import SINGLE_WORDS, single_measurements
from ..readers.units import UnitInfo
from ._parser import DEFAULT_LEVELS

__all__ = [
    "prefix",
    "read_input",
    "select",
    "require_replication",
    "num",
    "unit_text",
    "file_line",
    "Column",
    "format_table",
    "dump_json",
    "save_plot",
    "progress_bar",
]

_TIDY_ONLY = (("--levels", "levels"), ("--value", "value"), ("--where", "where"),
              ("--benchmark-column", "benchmark_column"))


def prefix(name) -> str:
    """``"benchmark 'name': "`` to start a message, nothing for an unnamed benchmark."""
    return "" if name is None else f"benchmark {name!r}: "


# -- reading -----------------------------------------------------------------------------
def read_input(path: str, args, *, singles: bool = False) -> tuple[str, dict]:
    """The format and the benchmarks of one input file, read with the options in ``args``.

    Parameters
    ----------
    path : str
        The file.
    args : argparse.Namespace
        The parsed command line (``format``, ``levels``, ``value``, ``where``,
        ``warmup``, ``benchmark``, ``benchmark_column``, ``balance``,
        ``gbench_time``).
    singles : bool, default False
        Read a file whose every benchmark holds a single measurement (which the
        readers refuse) as one-value designs (:mod:`esize.readers.single`), for the
        commands that show them: ``summary`` and ``compare``.

    Returns
    -------
    (str, dict)
        The format and ``{name: Benchmark}`` in file order.

    Raises
    ------
    InputError
        A tidy-table option given for a harness file, ``--gbench-time`` for a file
        of another harness, or any problem the reader finds.
    """
    max_bytes = getattr(args, "max_input_size", None)
    fmt = args.format or detect_format(path, max_bytes=max_bytes)
    if fmt != "tidy":
        for opt, attr in _TIDY_ONLY:
            if getattr(args, attr) not in (None, []):
                raise InputError(
                    path, f"{opt} applies to tidy CSV/Parquet tables; this is a {fmt} file"
                )
    if args.gbench_time and fmt != "gbench":
        raise InputError(
            path, f"--gbench-time applies to Google Benchmark files; this is a {fmt} file"
        )
    column = args.benchmark_column
    if fmt == "tidy" and column is None and args.benchmark:
        column = "benchmark"
    options = {"levels": args.levels or DEFAULT_LEVELS,
               "value": "time" if args.value is None else args.value, "where": args.where,
               "benchmark_column": column, "gbench_time": args.gbench_time or "real_time",
               "only": args.benchmark, "max_bytes": max_bytes}
    try:
        benches = read_benchmarks(path, fmt, warmup=args.warmup, balance=args.balance,
                                  **options)
    except InputError as exc:
        # a file of single measurements: each value is shown, marked as such
        if not singles or SINGLE_WORDS not in str(exc):
            raise
        benches = single_measurements(path, fmt, **options)
        if benches is None:
            raise
    return fmt, benches


def select(path: str, benches: dict, wanted: Sequence[str]) -> dict:
    """The benchmarks named in ``wanted`` (all when empty), in the order asked for.

    Raises
    ------
    InputError
        A wanted name is not in the file.
    """
    if not wanted:
        return benches
    wanted = list(dict.fromkeys(wanted))
    missing = [n for n in wanted if n not in benches]
    if missing:
        names = getattr(benches, "names", None) or list(benches)
        raise InputError(path, f"{prefix(missing[0])}not in the file; it has {names_text(names)}")
    return {n: benches[n] for n in wanted}


def require_replication(path: str, name, design: Design) -> None:
    """Raise :class:`~esize.InputError` naming file and benchmark unless every level
    has at least two units (the variance estimators need them)."""
    try:
        design.require_replication(2)
    except EsizeError as exc:
        raise InputError(path, f"{prefix(name)}{exc}") from None


# -- numbers and text --------------------------------------------------------------------
def num(x: float) -> float | None:
    """``x`` as a float for JSON, None when it is infinite or NaN."""
    return float(x) if math.isfinite(x) else None


def unit_text(unit: UnitInfo) -> str:
    """``"(ns/op, lower is better)"``, or nothing for a table without a unit."""
    if not unit.unit:
        return ""
    return f"({unit.unit}, {unit.direction})"


def file_line(path: str, fmt: str) -> str:
    """The first line of a summary or a plan: the file and, for a harness, its format."""
    return f"file        {path}" + ("" if fmt == "tidy" else f"   ({fmt})")


@dataclass(frozen=True)
class Column:
    """One column of :func:`format_table`.

    Attributes
    ----------
    title : str
        Heading.
    width : int
        Minimum width of a cell (0: as wide as its text).
    align : {"<", ">"}
        Left or right alignment within the width.
    spec : str
        Format specification of numeric cells (``".4f"``); text cells are used as
        they are.
    gap : str
        Text put before the cell (after the previous column).
    """

    title: str
    width: int = 0
    align: str = "<"
    spec: str = ""
    gap: str = ""

    def cell(self, value) -> str:
        text = value if isinstance(value, str) else format(value, self.spec)
        return f"{self.gap}{text:{self.align}{self.width}}"


def format_table(columns: Sequence[Column], rows: Sequence[Sequence], *,
                 header: bool = True) -> list[str]:
    """Lines of a plain-text table, one per row, with a heading line first.

    Parameters
    ----------
    columns : sequence of Column
        Layout of every column.
    rows : sequence of sequence
        Cells, one per column: numbers (formatted with the column's ``spec``) or
        text.
    header : bool
        Whether to start with the columns' titles.
    """
    lines = ["".join(c.cell(c.title) for c in columns).rstrip()] if header else []
    for row in rows:
        lines.append("".join(c.cell(v) for c, v in zip(columns, row)).rstrip())
    return lines


def dump_json(doc: dict) -> str:
    """The JSON text of a result (indented; NaN and infinities are an error)."""
    return json.dumps(doc, indent=2, allow_nan=False)


# -- figures and progress ----------------------------------------------------------------
def save_plot(path: str, fig) -> None:
    """Write a figure atomically; a failure is an :class:`~esize.EsizeError`."""
    from .._atomic import OutputError
    from ._plots import save_figure

    try:
        save_figure(fig, path)
    except OutputError as exc:
        raise EsizeError(f"{path}: {exc.reason}") from None
    except OSError as exc:
        raise EsizeError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a file
        return False


@contextlib.contextmanager
def progress_bar(total: int, *, enabled: bool = True, stream=None, delay: float = 0.5,
                 desc: str = "bootstrap") -> Iterator[Callable[[int], None] | None]:
    """A progress callback drawing a :mod:`tqdm` bar, or None when no bar is shown.

    The bar is shown only when ``enabled``, when ``stream`` (standard error by
    default) is a terminal and when tqdm (the ``esize[progress]`` extra) is
    installed; it appears after ``delay`` seconds and is erased when done. The
    callback takes the number of units just completed, as the ``progress``
    argument of the bootstrap functions expects.

    Yields
    ------
    callable or None
    """
    stream = sys.stderr if stream is None else stream
    if not enabled or total <= 0 or not _isatty(stream):
        yield None
        return
    try:
        from tqdm import tqdm
    except ImportError:
        yield None
        return
    with tqdm(total=total, desc=desc, file=stream, leave=False, delay=delay,
              unit="replicate", unit_scale=True, dynamic_ncols=True) as bar:
        yield bar.update


def warmup_text(info: dict) -> str:
    """One line on the warm-up dropped: ``"auto: 120 values dropped (warm-up 98,
    balance 22); processes: 7 flat, 2 warm-up, 1 no steady state"``."""
    if info["mode"] == "fixed":
        return f"fixed: the first {info['per_group']} of every group, {info['dropped']} dropped"
    if "not_checked" in info:
        return f"auto: not checked, {info['not_checked']}"
    names = {"flat": "flat", "warmup": "warm-up", "slowdown": "slow-down",
             "no_steady_state": "no steady state"}
    classes = ", ".join(f"{n} {names[k]}" for k, n in info["classes"].items() if n)
    return (f"auto: {info['dropped']} values dropped (warm-up {info['dropped_warmup']}, "
            f"balance {info['dropped_balance']}), {info['kept']} kept per group; "
            f"groups: {classes}")


def merge_warmup(old: dict | None, new: dict | None) -> dict | None:
    """The warm-up of a compared benchmark: both systems' totals (``mode``,
    ``dropped``, ``classes`` summed) with each system's own under ``old`` and ``new``."""
    if old is None and new is None:
        return None
    parts = [w for w in (old, new) if w is not None]
    out: dict = {"mode": parts[0]["mode"], "dropped": sum(w["dropped"] for w in parts)}
    if all("classes" in w for w in parts):
        out["classes"] = {k: sum(w["classes"].get(k, 0) for w in parts)
                          for k in parts[0]["classes"]}
    out["old"], out["new"] = old, new
    return out

