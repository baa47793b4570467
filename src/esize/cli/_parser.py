"""The command line's argument parser and the types of its options.

Building the parser loads nothing but :mod:`argparse`: no statistics, no reader, so
that ``esize --version`` and ``esize --help`` start as fast as ``import esize``
allows. The choices of ``--format``, ``--balance`` and ``--gbench-time`` are
therefore spelled out here; a test checks that they equal those of
:mod:`esize.readers`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import NoReturn, TextIO, cast

from .. import __version__
from .._decision import MIN_BOOTSTRAP_UNITS, Verdict
from .._errors import EsizeError
from .._intervals import _check_alpha
from .._warmup import DEFAULT_WARMUP

__all__ = ["EXIT_BAD_INPUT", "DEFAULT_LEVELS", "build_parser"]

#: Exit status of every user mistake (bad option, bad file, bad data).
EXIT_BAD_INPUT = 2

#: Grouping columns of a tidy table when ``--levels`` is not given.
DEFAULT_LEVELS = ["binary", "execution"]

# equal to esize.readers.FORMATS, BALANCE_MODES and GBENCH_TIMES (tested)
FORMATS: tuple[str, ...] = ("tidy", "pyperf", "jmh", "gbench", "hyperfine")
FORMATS += ("benchmarkdotnet", "asv", "julia")
FORMATS += ("gotest", "pytest-benchmark", "criterion")
BALANCE_MODES = ("truncate",)
GBENCH_TIMES = ("real_time", "cpu_time")
METHODS = ("auto", "fieller", "bootstrap", "both", "mixed")
DROPPED_COST_RULES = ("fold", "replace")
#: Verdicts ``--fail-on`` takes (``change``: slower or faster); see esize.cli._gate.
FAIL_ON = (Verdict.SLOWER.value, Verdict.FASTER.value, "change", Verdict.INCONCLUSIVE.value)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit status 2."""

    def _parse_optional(self, arg_string):
        if re.fullmatch(r"-[0-9.][0-9.eE+,-]*", arg_string):  # a negative number, not an option
            return None
        return super()._parse_optional(arg_string)

    def _get_values(self, action, arg_strings):
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            # ``--budget=--``: argparse (3.11) drops the "--" as the end of the options
            # and gives [] unconverted; it is the value given, checked like any other
            value = self._get_value(action, "--")
            self._check_value(action, value)
            return value
        return super()._get_values(action, arg_strings)

    def error(self, message: str) -> NoReturn:
        try:
            print(f"{self.prog}: error: {message}", file=sys.stderr, flush=True)
        except (OSError, ValueError, AttributeError):  # stderr full, closed or absent
            pass  # the status still says it (esize.cli._main.run quiets the stream)
        raise SystemExit(EXIT_BAD_INPUT)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, its width found without :mod:`shutil`: argparse makes
    one at every ``add_argument``, and shutil (with zlib, bz2 and lzma) was 2 ms of
    every start of the command line."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None, **kwargs):
        super().__init__(prog, indent_increment, max_help_position,
                         _help_width() if width is None else width, **kwargs)


def _help_width() -> int:
    """The width argparse gives help text: ``shutil.get_terminal_size().columns - 2``
    (``COLUMNS`` when set and positive, else the terminal's, else 80), without shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            stdout = cast(TextIO, sys.__stdout__)  # None: the AttributeError below
            columns = os.get_terminal_size(stdout.fileno()).columns or 80
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns - 2


# -- argument types ----------------------------------------------------------------------
def levels_arg(text: str) -> list[str]:
    """``--levels``: comma-separated column names, at least one."""
    levels = [x.strip() for x in text.split(",") if x.strip()]
    if not levels:
        raise argparse.ArgumentTypeError("--levels needs at least one column name")
    return levels


def column_arg(text: str) -> str:
    """``--value``, ``--benchmark-column``: a column name, which cannot be blank."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"a column name cannot be empty, got {text!r}")
    return text


def costs_arg(text: str) -> list[float]:
    """``--costs``: comma-separated numbers, at least one (checked for sign later)."""
    try:
        if not _plain_number(text):
            raise ValueError(text)
        costs = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"costs must be numbers, got {text!r}") from None
    if not costs:
        raise argparse.ArgumentTypeError("--costs needs at least one number")
    return costs


#: An integer as the command line takes it: ASCII digits, an optional sign, blanks around.
_WHOLE = re.compile(r"\s*[+-]?[0-9]+\s*", re.ASCII)


def _plain_number(text: str, *, whole: bool = False) -> bool:
    """Whether ``text`` may be given to ``int`` (``whole``) or ``float``: ASCII only and
    no ``_``, which both would take (``int("١٢")`` is 12, ``int("1_2")`` too), and
    for an integer digits alone."""
    if whole:
        return _WHOLE.fullmatch(text) is not None
    return text.isascii() and "_" not in text


def float_arg(text: str) -> float:
    """A number in ASCII (``--budget``); its range is checked by the command."""
    if not _plain_number(text):
        raise argparse.ArgumentTypeError(f"not a number: {text!r} (digits 0-9 only)")
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def number_arg(convert, ok, requirement: str):
    """An argument type that converts the text and checks the value.

    Parameters
    ----------
    convert : callable
        ``int`` or ``float``.
    ok : callable
        Predicate on the converted value.
    requirement : str
        What the value must satisfy, said when ``ok`` is false.
    """

    def parse(text: str):
        kind = "an integer" if convert is int else "a number"
        if not _plain_number(text, whole=convert is int):
            raise argparse.ArgumentTypeError(f"not {kind}: {text!r} (digits 0-9 only)")
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {kind}: {text!r}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{requirement}, got {value}")
        return value

    return parse


#: Smallest ``--alpha``: confidence levels are shown as ``f"{100 * (1 - alpha):g} %"``
#: (six significant digits), which reads ``99.9999 %`` at this alpha and ``100 %`` a
#: little below it.
MIN_ALPHA = 1e-6


def alpha_arg(text: str) -> float:
    """``--alpha``: a number, checked by the rule every interval function applies, and
    at least :data:`MIN_ALPHA`.

    A smaller alpha would be shown as a 100 % interval, in the text, the markdown, the
    ``--fail-on`` line and the figures alike, and such a level is nothing that
    measurements of a machine can support (a percentile bootstrap would need millions
    of resamples): it is refused here, once for every command and every output, rather
    than shown as what it is not.
    """
    value = number_arg(float, lambda a: True, "")(text)
    try:
        value = _check_alpha(value)
    except EsizeError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    if value < MIN_ALPHA:
        raise argparse.ArgumentTypeError(
            f"alpha {value:g} is below 1e-6: a confidence level above 99.9999 % cannot be "
            "told from 100 %, nor supported by measurements; use an alpha of 1e-6 or more")
    return value



positive_int = number_arg(int, lambda v: v >= 1, "must be a positive integer")
nonneg_int = number_arg(int, lambda v: v >= 0, "must be >= 0")
threshold_arg = number_arg(
    float, lambda t: 0 <= t < 1, "threshold is a fraction in [0, 1) (0.02 means 2 %)"
)


def warmup_arg(text: str) -> int | str:
    """``--warmup``: ``auto`` or a number of values (>= 0)."""
    if text.strip().lower() == "auto":
        return "auto"
    try:
        return nonneg_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"--warmup takes auto or a whole number >= 0, got {text!r}"
        ) from None


def size_arg(text: str) -> int:
    """``--max-input-size``: bytes, or a number with K, M, G or T (powers of 1024)."""
    from .._sizes import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def fail_on_arg(text: str) -> list[str]:
    """``--fail-on``: verdicts separated by commas (the option is also repeatable)."""
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    bad = [w for w in words if w not in FAIL_ON]
    if bad or not words:
        raise argparse.ArgumentTypeError(
            f"--fail-on takes {', '.join(FAIL_ON)} (comma-separated or repeated), got {text!r}"
        )
    return words


def bench_arg(text: str) -> tuple[str, str]:
    """``--bench``: ``NAME=SHELL_LINE``, both non-empty."""
    name, eq, line = text.partition("=")
    if not eq or not name.strip() or not line.strip():
        raise argparse.ArgumentTypeError(f"--bench takes NAME=SHELL_LINE, got {text!r}")
    return name.strip(), line


def input_arg(text: str) -> str:
    """An input file or directory, whose name cannot be empty (``Path("")`` is the
    current directory)."""
    if not text:
        raise argparse.ArgumentTypeError("the input file name is empty")
    return text


def markdown_arg(text: str) -> str:
    """``--markdown``: a file name, or ``-`` for standard output."""
    if not text:
        raise argparse.ArgumentTypeError("the markdown file name is empty (- is standard output)")
    return text


def plot_arg(text: str) -> str:
    """``--plot``: a file name ending in ``.png``, ``.pdf`` or ``.svg``."""
    from ..plots import PLOT_SUFFIXES

    suffix = text[text.rfind(".") :].lower() if "." in text else ""
    if suffix not in PLOT_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"the plot file must end in {', '.join(PLOT_SUFFIXES)}, got {text!r}"
        )
    return text


# -- the parser --------------------------------------------------------------------------
def _add_input_options(p: argparse.ArgumentParser, *, plot: bool = False) -> None:
    g = p.add_argument_group("input")
    g.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="input format (default: detected; tidy for CSV/Parquet, else the harness "
        "that wrote the JSON: pyperf, jmh, gbench, hyperfine, benchmarkdotnet, asv, julia "
        "or pytest-benchmark; gotest for Go benchmark text; criterion for a directory)",
    )
    g.add_argument(
        "--benchmark",
        action="append",
        default=[],
        metavar="NAME",
        help="only this benchmark (repeatable); in a tidy table it implies "
        "--benchmark-column benchmark",
    )
    g.add_argument(
        "--balance",
        choices=BALANCE_MODES,
        default=None,
        help="make unbalanced data balanced: 'truncate' keeps the first m units of every "
        "group, m being the smallest group's size, and reports what it dropped "
        "(default: unbalanced data is an error)",
    )
    g.add_argument(
        "--warmup",
        type=warmup_arg,
        default=DEFAULT_WARMUP,
        metavar="K|auto",
        help="drop the first K measurements of every lowest-level group (process, fork, "
        "execution); 'auto' finds where each group's steady state starts (changepoint "
        "detection) and keeps every group's last values after it",
    )
    g.add_argument(
        "--max-input-size",
        type=size_arg,
        default=None,
        metavar="SIZE",
        help="refuse an input file larger than SIZE, also once decompressed (e.g. 500M, "
        "16G; default: $ESIZE_MAX_INPUT_BYTES, else 4G)",
    )
    t = p.add_argument_group("tidy CSV/Parquet tables")
    t.add_argument(
        "--levels",
        type=levels_arg,
        default=None,
        help="grouping columns, highest level first (default: binary,execution); "
        "the rows are the lowest level, 'measurement'",
    )
    t.add_argument(
        "--value",
        type=column_arg,
        default=None,
        help="column with the measured values (default: time)",
    )
    t.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="COL=VALUE",
        help="keep only rows where COL equals VALUE (repeatable)",
    )
    t.add_argument(
        "--benchmark-column",
        type=column_arg,
        nargs="?",
        const="benchmark",
        default=None,
        metavar="COL",
        help="split the table into benchmarks by column COL (default COL: benchmark); "
        "without it the whole table is one benchmark",
    )
    h = p.add_argument_group("Google Benchmark files")
    h.add_argument(
        "--gbench-time",
        choices=GBENCH_TIMES,
        default=None,
        help="which time to read (default: real_time)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--output", "-o", metavar="FILE", help="also write the JSON result to FILE (atomically)"
    )
    if plot:
        p.add_argument(
            "--plot",
            type=plot_arg,
            default=None,
            metavar="FILE",
            help="also draw a figure into FILE (.png, .pdf or .svg)",
        )


def _add_run_parser(sub) -> None:
    p = sub.add_parser(
        "run",
        help="measure two commands interleaved in rounds, then compare them",
        usage="esize run [options] -- OLD_COMMAND ... -- NEW_COMMAND ...",
        description="Run OLD and NEW in rounds, each round a fresh random order of "
        "--processes processes of each, so that drift of the machine between rounds "
        "cancels; compare them with the paired interval of the rounds. A command given "
        "as one word is run by /bin/sh -c. With --git OLD_REV NEW_REV the command after "
        "-- (or each --bench) runs in two worktrees of this repository, built by --build.",
    )
    d = p.add_argument_group("design")
    d.add_argument("--rounds", type=positive_int, default=10,
                   help="rounds to run without --budget or --target-half-width (default 10)")
    d.add_argument("--processes", type=positive_int, default=2,
                   help="processes of each command in a round (default 2)")
    d.add_argument("--budget", type=number_arg(float, lambda v: v > 0 and v < 1e7,
                                               "must be seconds in (0, 1e7)"),
                   default=None, metavar="SECONDS",
                   help="after a pilot, run as many rounds as fit SECONDS of measuring")
    d.add_argument("--target-half-width", type=number_arg(
                       float, lambda v: 0 < v < 1, "is a fraction in (0, 1), 0.01 means 1 %"),
                   default=None, metavar="FRACTION",
                   help="after a pilot, run as many rounds as the paired interval needs to "
                   "be about this wide on each side (0.01: +-1 %%)")
    d.add_argument("--pilot-rounds", type=number_arg(int, lambda v: v >= 2, "must be >= 2"),
                   default=3, help="rounds of the pilot (default 3)")
    d.add_argument("--max-rounds", type=number_arg(int, lambda v: 2 <= v <= 100_000,
                                                   "must be in 2..100000"),
                   default=1000, help="never more rounds than this (default 1000)")
    d.add_argument("--seed", type=nonneg_int, default=None,
                   help="seed of the rounds' order (default: fresh, reported)")
    m = p.add_argument_group("measuring")
    m.add_argument("--time-regex", default=None, metavar="REGEX",
                   help="read the times the command prints (the first group of every match "
                   "of REGEX in its standard output) instead of its wall time: iterations, "
                   "a level below the process")
    m.add_argument("--time-unit", choices=("s", "ms", "us", "ns"), default="s",
                   help="unit of the printed times (default s)")
    m.add_argument("--timeout", type=number_arg(float, lambda v: v > 0, "must be > 0"),
                   default=None, metavar="SECONDS", help="stop a process running longer")
    m.add_argument("--guard-share", type=number_arg(float, lambda v: 0 <= v <= 1e3,
                                                    "must be >= 0"),
                   default=0.25, metavar="CPUS",
                   help="mark a process disturbed when other programs used more than this "
                   "share of one CPU while it ran (default 0.25)")
    m.add_argument("--repeat-disturbed", type=number_arg(int, lambda v: 0 <= v <= 100,
                                                         "must be in 0..100"),
                   default=0, metavar="K", help="run a disturbed process again, up to K "
                   "times (default 0: keep it, marked)")
    m.add_argument("--no-guard", action="store_true", help="do not watch the machine")
    m.add_argument("--git", nargs=2, metavar=("OLD_REV", "NEW_REV"), default=None,
                   help="measure two revisions of this git repository (temporary worktrees)")
    m.add_argument("--build", default=None, metavar="SHELL_LINE",
                   help="with --git: build each worktree with this shell line first")
    m.add_argument("--bench", type=bench_arg, action="append", default=[],
                   metavar="NAME=SHELL_LINE",
                   help="with --git: a named benchmark command run in both worktrees "
                   "(repeatable; all of them share the rounds, and the suite's geometric "
                   "mean is compared too)")
    io = p.add_argument_group("input and output")
    io.add_argument("--from", dest="data", type=input_arg, default=None, metavar="FILE",
                    help="compare a table saved by --save, measuring nothing")
    io.add_argument("--save", default=None, metavar="FILE",
                    help="write the measurements as a tidy CSV table (atomically)")
    io.add_argument("--max-input-size", type=size_arg, default=None, metavar="SIZE",
                    help=argparse.SUPPRESS)
    p.add_argument("--alpha", type=alpha_arg, default=0.05, help="1 - confidence (default 0.05)")
    p.add_argument("--paired-interval", choices=("signed-rank", "t"), default="signed-rank",
                   help="the interval of the rounds' log ratios: Wilcoxon's signed-rank "
                   "interval (default; a round that caught a change of load halfway "
                   "cannot widen it much) or Student's t")
    p.add_argument("--normal", action="store_true",
                   help="the normal quantile instead of t (Fieller's, and the paired t)")
    p.add_argument("--threshold", type=threshold_arg, default=0.02,
                   help="smallest relative change that matters, as a fraction (default 0.02)")
    p.add_argument("--fail-on", type=fail_on_arg, action="extend", default=[],
                   metavar="VERDICTS", help="exit with status 1 on these verdicts (as compare)")
    p.add_argument("--markdown", type=markdown_arg, default=None, metavar="FILE",
                   help="also write a markdown summary to FILE; - prints it instead")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="also write the JSON result to FILE (atomically)")


def build_parser() -> argparse.ArgumentParser:
    """The ``esize`` parser with its four subcommands: summary, compare, run, plan.

    Returns
    -------
    argparse.ArgumentParser
        Its usage errors print one line on stderr and exit with status 2.

    Examples
    --------
    Parsing reads no file; every option comes with its default:

    >>> from esize.cli import build_parser
    >>> args = build_parser().parse_args(["compare", "old.csv", "new.csv", "--seed", "1"])
    >>> args.command, args.old, args.new, args.method, args.alpha, args.threshold, args.seed
    ('compare', 'old.csv', 'new.csv', 'auto', 0.05, 0.02, 1)
    """
    parser = _Parser(
        prog="esize",
        description="Effect-size confidence intervals for performance measurements "
        "(Kalibera & Jones): per-level variation, CIs for a mean and for the ratio of "
        "two systems' means, and how to dimension the next experiment. Reads tidy "
        "CSV/Parquet tables and the JSON results of pyperf, JMH, Google Benchmark and "
        "hyperfine. Also reads Go benchmark text (go test -bench, as benchstat does), "
        "pytest-benchmark JSON and criterion.rs directories: target/criterion reads the "
        "baseline 'new', target/criterion@NAME the baseline NAME.",
    )
    parser.add_argument("--version", action="version", version=f"esize {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("summary", help="per-level variances and a CI for the mean")
    p.add_argument("data", type=input_arg, help="tidy CSV/Parquet table, harness result "
                   "file, or criterion directory (DIR@BASELINE for a named baseline)")
    _add_input_options(p, plot=True)
    p.add_argument("--alpha", type=alpha_arg, default=0.05, help="1 - confidence (default 0.05)")
    p.add_argument("--normal", action="store_true", help="normal instead of t quantile")

    p = sub.add_parser("compare", help="CI for the ratio of means NEW/OLD and a verdict")
    p.add_argument("old", type=input_arg, help="measurements of the old (baseline) system")
    p.add_argument(
        "new",
        type=input_arg,
        nargs="?",
        default=None,
        help="measurements of the new system (its design may differ); without it, the "
        "commands of a hyperfine export OLD are compared with its first",
    )
    _add_input_options(p, plot=True)
    p.add_argument("--alpha", type=alpha_arg, default=0.05, help="1 - confidence (default 0.05)")
    p.add_argument("--normal", action="store_true", help="Fieller with the normal quantile")
    p.add_argument(
        "--method",
        choices=METHODS,
        default="auto",
        help="intervals to compute: auto (default) is both for one benchmark and, for two "
        "or more, Fieller per benchmark and the t interval of the geometric mean without "
        "a bootstrap; both adds the bootstrap of every benchmark (the suite verdict then "
        "rests on the smallest interval holding the bootstrap and t intervals); fieller "
        "never bootstraps; bootstrap skips Fieller; mixed takes every interval and verdict "
        "from a REML mixed model of the log times (the ratio of geometric means), and "
        "computes neither Fieller nor a bootstrap",
    )
    p.add_argument(
        "--threshold",
        type=threshold_arg,
        default=0.02,
        help="smallest relative change that matters, as a fraction (default 0.02)",
    )
    p.add_argument(
        "--paired",
        nargs="?",
        const="signed-rank",
        choices=("signed-rank", "t"),
        default=None,
        metavar="signed-rank|t",
        help="old and new were measured in the same rounds (or sessions), their top level: "
        "pair them, round i of one file with round i of the other in the order they "
        "appear, and take the verdict from the interval of the rounds' log ratios "
        "(default kind: signed-rank), where drift between rounds cancels",
    )
    p.add_argument(
        "--resamples", type=positive_int, default=10_000, help="bootstrap replicates (default 10000)"
    )
    p.add_argument(
        "--scheme", default=None, help="bootstrap scheme: R/N per level or FLAT (default all R)"
    )
    p.add_argument(
        "--seed", type=nonneg_int, default=None, help="bootstrap seed (default: fresh, reported)"
    )
    p.add_argument(
        "--estimator",
        choices=("mean", "median", "trimmed"),
        default="mean",
        help="summarise each process (fork, execution) by the median or the 20 %% trimmed "
        "mean of its values before comparing, to resist far-out values (default: mean)",
    )
    p.add_argument(
        "--assume-no-fork-variance",
        "--assume-no-process-variance",
        dest="assume_no_fork_variance",
        action="store_true",
        help="draw a verdict even when a file holds a single fork or process (or pools "
        "them, as the files of Go, Google Benchmark, pytest-benchmark, criterion, Julia and "
        "asv do), assuming forks (processes) do not differ; otherwise the verdict is "
        "inconclusive",
    )
    p.add_argument(
        "--assume-bootstrap-covers",
        action="store_true",
        help="with --method bootstrap, draw a verdict even from fewer than "
        f"{MIN_BOOTSTRAP_UNITS} top-level units, assuming the expanded percentile interval "
        "covers there (its coverage is measured from that many on)",
    )
    p.add_argument(
        "--fail-on",
        type=fail_on_arg,
        action="extend",
        default=[],
        metavar="VERDICTS",
        help="exit with status 1 when a benchmark's verdict, or the suite's, is one of "
        "VERDICTS: slower, faster, change (either), inconclusive; comma-separated or "
        "repeated (bad input stays status 2)",
    )
    p.add_argument(
        "--markdown",
        type=markdown_arg,
        default=None,
        metavar="FILE",
        help="also write a GitHub-flavoured markdown summary to FILE (atomically), for a "
        "pull request or a CI job summary; - prints it instead of the table",
    )

    _add_run_parser(sub)

    p = sub.add_parser("plan", help="optimal repetition counts for the next experiment")
    p.add_argument("data", type=input_arg, help="pilot measurements: tidy table, harness "
                   "result file, or criterion directory (DIR@BASELINE)")
    _add_input_options(p)
    p.add_argument(
        "--costs",
        type=costs_arg,
        default=None,
        help="cost of a new unit at each level from the lowest up, in measurements: "
        "c1 (warm-up per execution, process or fork), c2 (build per binary), ...; "
        "required unless the data have a single level",
    )
    p.add_argument(
        "--budget",
        type=float_arg,
        default=None,
        help="time budget in measurements: also dimension the experiment",
    )
    p.add_argument(
        "--dropped-cost",
        choices=DROPPED_COST_RULES,
        default="fold",
        help="after dropping a level with T^2 <= 0, optimise with the true cost of a new "
        "unit above it (fold, default) or with the dropped level's cost alone (replace, "
        "the paper's convention)",
    )
    p.add_argument(
        "--alpha", type=alpha_arg, default=0.05, help="1 - confidence for --budget (default 0.05)"
    )
    return parser
