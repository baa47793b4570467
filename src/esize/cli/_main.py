"""Running the command line: parse, run one subcommand, print its result.

Every user mistake becomes one line on stderr (``esize: error: ...``) and exit
status 2, never a traceback. ``compare --fail-on`` exits with status 1, after the
usual output and one line on stderr saying why, when a verdict it names is found.
Notes -- :class:`~esize.EsizeWarning` warnings raised while the command runs (what
``--balance truncate`` dropped, benchmarks found in one file only, values converted
between units) -- are recorded and printed to stderr as ``esize: note: ...`` lines
only once the command has succeeded, so that an error stays a single line.

The subcommands' modules are imported only when they run, so ``esize --version``
and ``esize --help`` load the parser alone.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from typing import cast

from .._errors import EsizeError, EsizeWarning
from ._parser import EXIT_BAD_INPUT, build_parser

__all__ = ["main", "run"]

#: Subcommand -> (module, function) that runs it and returns its result object.
COMMANDS = {
    "summary": ("summary", "cmd_summary"),
    "compare": ("compare", "cmd_compare"),
    "plan": ("plan", "cmd_plan"),
}


def _command(name: str):
    module, function = COMMANDS[name]
    return getattr(importlib.import_module(f"{__package__}.{module}"), function)


def _print_notes(caught: list) -> None:
    """Print the recorded notes, and show any other warning as Python would."""
    for w in caught:
        if issubclass(w.category, EsizeWarning):
            print(f"esize: note: {w.message}", file=sys.stderr)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 1 when ``compare --fail-on`` trips (after one line on stderr), 2
        on bad input (after one line on stderr). Usage errors,
        ``--help`` and ``--version`` raise :class:`SystemExit` as argparse does.

    Examples
    --------
    The example files of the repository; ``--fail-on inconclusive`` makes the status 1
    (and says why on stderr):

    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import main
    >>> examples = Path(esize.__file__).parents[2] / "examples"  # in the repository
    >>> old, new = str(examples / "old.csv"), str(examples / "new.csv")
    >>> main(["compare", old, new, "--method", "fieller", "--fail-on", "inconclusive"])
    ratio new/old   0.619048   (old mean 10.5, new mean 6.5)
    Fieller 95 %    [0.26248, 1.19223]
    verdict         inconclusive at threshold 2 % (from fieller): new is 1.62x faster ...
    1
    """
    args = build_parser().parse_args(argv)
    try:
        _check_outputs(args)
    except OSError as exc:
        print(f"esize: error: {_output_error(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", EsizeWarning)
        try:
            result = _command(args.command)(args)
            # JSON only when asked for: text mode never serialises the result
            text = doc = markdown = None
            if args.json or args.output is not None or _wants_doc(args):
                doc = result.to_json()  # one dictionary for JSON, markdown and gate
            if args.json or args.output is not None:
                from ..text import dump_json

                text = dump_json(cast(dict, doc))
            if getattr(args, "markdown", None) is not None:
                from ._markdown import render_markdown

                markdown = render_markdown(cast(dict, doc))
        except EsizeError as exc:
            print(f"esize: error: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except OSError as exc:  # a file that no reader named (they all should)
            print(f"esize: error: {_os_error(exc)}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except MemoryError:  # the up-front checks failed to foresee it
            print("esize: error: out of memory; use fewer --resamples or fewer benchmarks "
                  "at a time", file=sys.stderr)
            return EXIT_BAD_INPUT
        if args.output is not None:
            from ..io import write_output

            try:
                write_output(args.output, (cast(str, text) + "\n").encode("utf-8"))
            except OSError as exc:
                print(f"esize: error: {_output_error(exc, args.output)}", file=sys.stderr)
                return EXIT_BAD_INPUT
        if markdown is not None and args.markdown != "-":
            from ..io import write_output

            try:
                write_output(args.markdown, markdown.encode("utf-8"))
            except OSError as exc:
                print(f"esize: error: {_output_error(exc, args.markdown)}", file=sys.stderr)
                return EXIT_BAD_INPUT
    _print_notes(caught)  # on success only: an error stays a single line
    if markdown is not None and args.markdown == "-":
        print(markdown, end="")
    else:
        print(text if args.json else result.render_text())
    return _gate(args, doc)


def _wants_doc(args) -> bool:
    """Whether ``--markdown`` or ``--fail-on`` need the result's dictionary."""
    return getattr(args, "markdown", None) is not None or bool(getattr(args, "fail_on", None))


def _gate(args, doc: dict | None) -> int:
    """``--fail-on``: 1 after one line on stderr when a verdict it names is found, else 0."""
    fail_on = getattr(args, "fail_on", None)
    if not fail_on:
        return 0
    from ._gate import EXIT_GATE, gate_message, tripped

    doc = cast(dict, doc)  # --fail-on needs it (_wants_doc)
    trips = tripped(doc, fail_on)
    if not trips:
        return 0
    print(f"esize: {gate_message(doc, trips, fail_on)}", file=sys.stderr)
    return EXIT_GATE


def _inputs(args) -> list[str]:
    """The input files named on the command line."""
    return [p for p in (getattr(args, n, None) for n in ("data", "old", "new")) if p]


def _check_outputs(args) -> None:
    """Refuse, before any work, an output (``-o``, ``--plot``, ``--markdown``) that is an
    input, another output, or something that is never written (see
    :func:`esize.io.check_output`), and ``--markdown -`` with ``--json`` (both
    would go to standard output)."""
    from ..io import OutputError, check_output

    md = getattr(args, "markdown", None)
    if md == "-" and args.json:
        raise OutputError("--markdown -", "standard output already carries the JSON of "
                          "--json; write the markdown to a file")
    named = (("-o", args.output), ("--plot", getattr(args, "plot", None)),
             ("--markdown", None if md == "-" else md))
    outputs = [(flag, p) for flag, p in named if p is not None]
    for _, path in outputs:
        check_output(path, _inputs(args))
    for i, (flag, path) in enumerate(outputs):
        for other_flag, other in outputs[i + 1:]:
            if path and (path == other or _same_file(path, other)):
                raise OutputError(path, f"is named by both {flag} and {other_flag}; "
                                  "name two files")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _output_error(exc: OSError, path: str | None = None) -> str:
    """``"FILE: cannot write: reason"`` of a failed or refused output, on one line
    (``path`` names the output; by default the file the error names)."""
    from ..io import OutputError

    if isinstance(exc, OutputError):
        return f"{exc.filename or '-o'}: {exc.reason}"
    name = path if path is not None else exc.filename
    return f"{name}: cannot write: {_os_error(exc, with_name=False)}"


def _os_error(exc: OSError, *, with_name: bool = True) -> str:
    """``"FILE: reason"`` of an operating-system error, on one line."""
    reason = " ".join(str(exc.strerror or exc).split()) or type(exc).__name__
    reason = reason[:1].lower() + reason[1:]
    if with_name and exc.filename is not None:
        return f"{exc.filename}: {reason}"
    return reason


def run() -> None:
    """Console-script entry point: :func:`main`, its status as the exit code.

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from unittest import mock
    >>> from esize.cli import run
    >>> examples = Path(esize.__file__).parents[2] / "examples"  # in the repository
    >>> argv = ["esize", "compare", str(examples / "old.csv"), str(examples / "new.csv")]
    >>> with mock.patch("sys.argv", argv + ["--method", "fieller"]):
    ...     try:
    ...         run()
    ...     except SystemExit as exc:  # run() always exits
    ...         print("exit status", exc.code)
    ratio new/old   0.619048   (old mean 10.5, new mean 6.5)
    Fieller 95 %    [0.26248, 1.19223]
    verdict         inconclusive at threshold 2 % (from fieller): new is 1.62x faster ...
    exit status 0
    """
    try:
        code = main()
        sys.stdout.flush()
    except KeyboardInterrupt:
        print("esize: interrupted", file=sys.stderr)
        code = 130
    except BrokenPipeError:
        # the reader went away (`esize summary ... | head`): stop quietly, as a
        # program killed by SIGPIPE would, and keep Python from complaining at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 141
    sys.exit(code)
