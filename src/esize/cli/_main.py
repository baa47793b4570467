"""Running the command line: parse, run one subcommand, print its result.

Every user mistake becomes one line on stderr (``esize: error: ...``) and exit
status 2, never a traceback. ``compare --fail-on`` exits with status 1, after the
usual output and one line on stderr saying why, when a verdict it names is found.
Notes -- :class:`~esize.EsizeWarning` warnings raised while the command runs (what
``--balance truncate`` dropped, benchmarks found in one file only, values converted
between units) -- are recorded and printed to stderr as ``esize: note: ...`` lines
only once the command has succeeded, so that an error stays a single line.

Standard output that cannot take the result (a full device, a closed pipe:
``esize compare ... | head -c 10``) is one line on stderr and status 2, and standard
error that cannot take a message makes the status 2 as well: never a traceback, and
never the status 1 that ``--fail-on`` gives a verdict.

The subcommands' modules are imported only when they run, so ``esize --version``
and ``esize --help`` load the parser alone.
"""

from __future__ import annotations

import errno
import importlib
import io
import os
import sys
import warnings
from collections.abc import Sequence
from typing import NoReturn, cast

from .._errors import EsizeError, EsizeWarning
from ._parser import EXIT_BAD_INPUT, build_parser

__all__ = ["main", "run"]

#: Subcommand -> (module, function) that runs it and returns its result object.
COMMANDS = {
    "summary": ("summary", "cmd_summary"),
    "compare": ("compare", "cmd_compare"),
    "plan": ("plan", "cmd_plan"),
    "run": ("runner", "cmd_run"),
}


def _command(name: str):
    module, function = COMMANDS[name]
    return getattr(importlib.import_module(f"{__package__}.{module}"), function)


def _print_notes(caught: list) -> bool:
    """Print the recorded notes, and show any other warning as Python would; False when
    standard error could not take them."""
    ok = True
    for w in caught:
        if issubclass(w.category, EsizeWarning):
            ok = _say(f"esize: note: {w.message}") and ok
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
    return ok


# -- standard output and error: a full device, a closed pipe -----------------------------
def _say(line: str) -> bool:
    """Print one line on standard error; False when it cannot be written (a full
    device, a closed pipe, no stream at all), the stream then quieted."""
    stream = sys.stderr
    if stream is None:
        return False
    try:
        print(line, file=stream, flush=True)
    except (OSError, ValueError):  # ValueError: a closed file
        _quiet(stream)
        return False
    return True


def _quiet(stream) -> None:
    """Point a stream that cannot be written at the null device, so that neither what
    it still holds nor anything printed later fails again, and the interpreter's last
    flush at exit succeeds: what the Python documentation advises for SIGPIPE. A
    stream that is not a file (a test's capture) is left as it is."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(devnull, fd)
    except OSError:
        pass
    finally:
        os.close(devnull)


def _stream_reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    text = " ".join(text.split())
    return text[:1].lower() + text[1:]


def _stdout_failed(exc: BaseException) -> int:
    """Standard output could not take the result: one line on standard error (where it
    can be written), the exit status of an error (never 0, nor the 1 of --fail-on)."""
    _quiet(sys.stdout)
    _say(f"esize: error: cannot write the result to standard output: {_stream_reason(exc)}")
    return EXIT_BAD_INPUT


def _write_stdout(text: str) -> None:
    """``text`` on standard output, flushed, so that a full device or a closed pipe is
    found here rather than when the interpreter exits.

    Unbuffered (``python -u``, ``PYTHONUNBUFFERED``, as many CI jobs and containers
    run), the text layer writes straight to the file and drops what a partial write
    left over: a reader gone half-way would go unnoticed, the output cut short with
    status 0. There the bytes are written here, to the last one or an error.
    """
    out = sys.stdout
    if out is None:  # started with standard output closed
        raise OSError(errno.EBADF, "it is closed")
    raw = getattr(out, "buffer", None)
    if not isinstance(raw, io.RawIOBase):
        out.write(text)
        out.flush()
        return
    out.flush()
    if os.linesep != "\n":
        text = text.replace("\n", os.linesep)
    view = memoryview(text.encode(out.encoding or "utf-8", out.errors or "strict"))
    while view:
        n = raw.write(view)
        if not n:  # None: a non-blocking file that cannot take more now
            raise OSError(errno.EAGAIN, "it takes no more output")
        view = view[n:]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 1 when ``compare --fail-on`` trips (after one line on stderr), 2
        on bad input (after one line on stderr) and when standard output or error
        cannot be written (a full device, a closed pipe). Usage errors,
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
    Fieller 95 %    [0.166476, 1.48882]
    verdict         inconclusive at threshold 2 % (from fieller): new is 1.62x faster ...
    1
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    commands: list[list[str]] = []
    if argv and argv[0] == "run" and "--" in argv:  # run's commands come after --
        from .runner import split_commands

        argv, commands = split_commands(argv)
    args = build_parser().parse_args(argv)
    if args.command == "run":
        args.commands = commands
        if args.build is not None and args.git is None:
            _say("esize: error: --build needs --git OLD_REV NEW_REV")
            return EXIT_BAD_INPUT
    try:
        _check_outputs(args)
    except OSError as exc:
        _say(f"esize: error: {_output_error(exc)}")
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
            _say(f"esize: error: {exc}")
            return EXIT_BAD_INPUT
        except OSError as exc:  # a file that no reader named (they all should)
            _say(f"esize: error: {_os_error(exc)}")
            return EXIT_BAD_INPUT
        except MemoryError:  # the up-front checks failed to foresee it
            _say("esize: error: out of memory; use fewer --resamples or fewer benchmarks "
                 "at a time")
            return EXIT_BAD_INPUT
        if args.output is not None:
            from ..io import write_output

            try:
                write_output(args.output, (cast(str, text) + "\n").encode("utf-8"))
            except OSError as exc:
                _say(f"esize: error: {_output_error(exc, args.output)}")
                return EXIT_BAD_INPUT
        if markdown is not None and args.markdown != "-":
            from ..io import write_output

            try:
                write_output(args.markdown, markdown.encode("utf-8"))
            except OSError as exc:
                _say(f"esize: error: {_output_error(exc, args.markdown)}")
                return EXIT_BAD_INPUT
    # on success only: an error stays a single line; a note that standard error could
    # not take makes the status that of an error, the run's output being incomplete
    said = _print_notes(caught)
    try:
        if markdown is not None and args.markdown == "-":
            _write_stdout(markdown)
        else:
            _write_stdout(f"{text if args.json else result.render_text()}\n")
    except (OSError, ValueError) as exc:  # a full device, a closed pipe or file
        return _stdout_failed(exc)
    code = _gate(args, doc)
    return code if said else EXIT_BAD_INPUT


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
    if not _say(f"esize: {gate_message(doc, trips, fail_on)}"):
        return EXIT_BAD_INPUT  # the reason could not be said: the status of an error
    return EXIT_GATE


def _inputs(args) -> list[str]:
    """The inputs named on the command line, and what the readers open beside them: the
    directory of ``DIR@BASELINE`` (a criterion tree, every file of which may be read)
    and the ``benchmark.json`` that names the benchmark of a criterion ``sample.json``."""
    out = []
    for path in (getattr(args, n, None) for n in ("data", "old", "new")):
        if not path:
            continue
        out.append(path)
        head, at, _ = path.rpartition("@")
        if at and head and not os.path.lexists(path):
            out.append(head)  # criterion's DIR@BASELINE
        if os.path.basename(path) == "sample.json":
            out.append(os.path.join(os.path.dirname(path), "benchmark.json"))
    return out


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
             ("--markdown", None if md == "-" else md), ("--save", getattr(args, "save", None)))
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

    Ctrl-C is the line ``esize: interrupted`` and exit status 130, the process ending
    there and then (``os._exit``, after flushing standard output and error).

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
    Fieller 95 %    [0.166476, 1.48882]
    verdict         inconclusive at threshold 2 % (from fieller): new is 1.62x faster ...
    exit status 0
    """
    code: int | str | None
    try:
        code = main()
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as exc:  # --help, --version, a usage error
        code = exc.code
    except BrokenPipeError as exc:  # a write main does not make itself (none known)
        code = _stdout_failed(exc)
    except Exception as exc:  # Ctrl-C that a library wrapped: still Ctrl-C; else a bug
        if not _caused_by_interrupt(exc):
            raise
        _interrupted()
    sys.exit(_flush_streams(code))


def _caused_by_interrupt(exc: BaseException) -> bool:
    """Whether a KeyboardInterrupt is among the causes of ``exc``: Ctrl-C while a
    pybind11 module initialised (matplotlib's, scipy's: ``ImportError: initialization
    failed``) or while a class was made (``RuntimeError`` from ``__set_name__``)."""
    seen = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _interrupted() -> NoReturn:
    """Ctrl-C: one line, exit status 130, and no shutdown of the interpreter, which a
    compiled module whose loading Ctrl-C cut short can crash (matplotlib's ft2font:
    SIGABRT, ``Fatal Python error``); the outputs are complete or gone already (atomic
    writes), the bootstrap's threads ended."""
    _say("esize: interrupted")
    os._exit(cast(int, _flush_streams(130)))


def _flush_streams(code: int | str | None) -> int | str | None:
    """Flush standard output and error before the interpreter does: a failure (a full
    device, a closed pipe) is one line where standard error can take it and exit
    status 2, and the stream is quieted so that the interpreter's own last flush
    neither fails nor complains (it would exit with status 120)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError) as exc:
        code = _stdout_failed(exc)
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
    except (OSError, ValueError):
        _quiet(sys.stderr)
        code = EXIT_BAD_INPUT
    return code
