"""What the subcommands share: reading the input files with the command line's
options, writing figures and the progress bar (the table formatter and the number
and text helpers are :mod:`esize.text`).

Reading is :func:`esize.readers.read_benchmarks`; this module only maps options to
its arguments and rejects options that do not apply to a file's format. Notes are
:class:`~esize.EsizeWarning` warnings, shown by :func:`esize.cli.main` after a
successful run.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence

from .._design import Design
from .._errors import EsizeError, InputError
from ..readers import detect_format, names_text, read_benchmarks
from ..readers.single import SINGLE_WORDS, single_measurements
from ..text import prefix
from ._parser import DEFAULT_LEVELS

__all__ = [
    "read_input",
    "select",
    "require_replication",
    "save_plot",
    "progress_bar",
]

_TIDY_ONLY = (("--levels", "levels"), ("--value", "value"), ("--where", "where"),
              ("--benchmark-column", "benchmark_column"))


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
        singles_read = single_measurements(path, fmt, **options)
        if singles_read is None:
            raise
        benches = singles_read
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


# -- figures and progress ----------------------------------------------------------------
def save_plot(path: str, fig) -> None:
    """:func:`esize.plots.save_plot` (imported when a figure is drawn)."""
    from ..plots import save_plot as save

    save(path, fig)


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


