"""``esize run``: measure two commands interleaved in rounds, then compare them paired.

(The module is ``runner``, not ``run``: a submodule ``esize.cli.run`` would replace the
function :func:`esize.cli.run`, the console entry point, as an attribute of the
package once imported.)

``esize run [options] -- OLD ... -- NEW ...`` runs both commands in rounds
(:mod:`esize._abrun`), writes what it measured as a tidy table (``--save``) and
compares old and new with the paired interval of their rounds
(:func:`esize.paired_ratio_ci`); Fieller's interval on the same data, rounds taken
as independent units of each system, is shown beside it. ``--git OLD_REV NEW_REV``
builds two revisions of the current git repository in temporary worktrees
(``--build``) and runs in each the one command given after ``--``, or every named
``--bench NAME=SHELL_LINE``. ``--from FILE`` compares a table saved earlier without
measuring.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator

import numpy as np

from .._abrun import (
    SYSTEMS,
    TIME_UNITS,
    Command,
    Guard,
    Run,
    progress_line,
    rounds_for_half_width,
    run_design,
    run_rounds,
    signed_rank_rounds,
    tidy_rows,
)
from .._compare_result import CompareResult
from .._errors import EsizeError
from .._paired import round_log_ratios
from ..compare import compare_pairs, fresh_seed, make_pair
from ..readers import unit_info

__all__ = ["cmd_run", "split_commands"]


def split_commands(argv: list[str]) -> tuple[list[str], list[list[str]]]:
    """Split ``run OPTIONS -- OLD ... -- NEW ...`` into the options and the commands.

    Examples
    --------
    >>> from esize.cli.runner import split_commands
    >>> split_commands(["run", "--rounds", "5", "--", "./a", "1", "--", "./b 1"])
    (['run', '--rounds', '5'], [['./a', '1'], ['./b 1']])
    >>> split_commands(["run", "--git", "main", "HEAD", "--", "make bench"])
    (['run', '--git', 'main', 'HEAD'], [['make bench']])
    >>> split_commands(["compare", "a", "--", "b"])  # other commands are left alone
    (['compare', 'a', '--', 'b'], [])
    """
    if not argv or argv[0] != "run" or "--" not in argv:
        return argv, []
    i = argv.index("--")
    rest = argv[i + 1:]
    if "--" in rest:
        j = rest.index("--")
        return argv[:i], [rest[:j], rest[j + 1:]]
    return argv[:i], [rest]


def _commands(args, workdirs: tuple[str, str] | None
              ) -> tuple[tuple[Command, ...], tuple[str | None, ...]]:
    """The commands to run, old and new of each benchmark in turn, and the names."""
    words = getattr(args, "commands", None) or []
    benches = getattr(args, "bench", None) or []
    if workdirs is not None:
        if benches:
            if words:
                raise EsizeError("--bench names the commands: give none after --")
            cmds: list[Command] = []
            for _, line in benches:
                cmds += [Command.from_words([line], cwd=workdirs[0]),
                         Command.from_words([line], cwd=workdirs[1])]
            return tuple(cmds), tuple(name for name, _ in benches)
        if len(words) != 1:
            raise EsizeError("--git runs one command in both revisions: give it after a "
                             "single -- (esize run --git OLD NEW --build CMD -- BENCH ...), "
                             "or several as --bench NAME=COMMAND")
        return (Command.from_words(words[0], cwd=workdirs[0]),
                Command.from_words(words[0], cwd=workdirs[1])), (None,)
    if benches:
        raise EsizeError("--bench needs --git OLD_REV NEW_REV (each command runs in both)")
    if len(words) != 2:
        raise EsizeError("give two commands: esize run [options] -- OLD ... -- NEW ... "
                         "(or --from FILE, or --git OLD_REV NEW_REV -- CMD)")
    return (Command.from_words(words[0]), Command.from_words(words[1])), (None,)


def _git(*argv: str, cwd: str | None = None) -> str:
    try:
        p = subprocess.run(["git", *argv], cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise EsizeError("--git: git is not installed") from None
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["failed"])[-1]
        raise EsizeError(f"--git: git {' '.join(argv[:2])}: {last}")
    return p.stdout.strip()


@contextlib.contextmanager
def worktrees(revs: list[str], build: str | None) -> Iterator[tuple[str, str]]:
    """Two temporary worktrees of the current repository at ``revs``, built by
    ``build`` (a shell line run in each), removed afterwards."""
    top = _git("rev-parse", "--show-toplevel")
    commits = [_git("rev-parse", "--verify", f"{r}^{{commit}}", cwd=top) for r in revs]
    tmp = tempfile.mkdtemp(prefix="esize-run-")
    made: list[str] = []
    try:
        for side, commit in zip(SYSTEMS, commits):
            path = os.path.join(tmp, side)
            _git("worktree", "add", "--detach", path, commit, cwd=top)
            made.append(path)
            if build:
                p = subprocess.run(["/bin/sh", "-c", build], cwd=path, stdin=subprocess.DEVNULL,
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    last = (p.stderr.strip().splitlines() or [""])[-1][:200]
                    raise EsizeError(f"--build failed in {side} ({commit[:12]}) with status "
                                     f"{p.returncode}: {last}")
        yield made[0], made[1]
    finally:
        for path in made:
            subprocess.run(["git", "worktree", "remove", "--force", path], cwd=top,
                           capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


def _write_table(path: str, rows: list[dict]) -> None:
    """The rows as CSV (quoted where a benchmark's name needs it), written atomically."""
    import csv
    import io

    from ..io import write_output

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    cols = list(rows[0])
    w.writerow(cols)
    w.writerows([_cell(r[c]) for c in cols] for r in rows)
    write_output(path, buf.getvalue().encode("utf-8"))


def _cell(x) -> str:
    if isinstance(x, float):
        return "" if math.isnan(x) else repr(x)
    return str(x)


def _measure(args) -> Run:
    """Measure as the options say: a fixed number of rounds, or a pilot and then as
    many as ``--budget`` or ``--target-half-width`` need."""
    seed = args.seed if args.seed is not None else fresh_seed()
    rng = np.random.default_rng(seed)
    guard = None if args.no_guard else Guard(share=args.guard_share)
    pattern = re.compile(args.time_regex) if args.time_regex else None
    unit = TIME_UNITS[args.time_unit]
    with contextlib.ExitStack() as stack:
        dirs = stack.enter_context(worktrees(args.git, args.build)) if args.git else None
        commands, names = _commands(args, dirs)
        run = Run(commands, args.processes, seed, has_iterations=pattern is not None,
                  names=names)
        kw = dict(rng=rng, pattern=pattern, unit=unit, timeout=args.timeout, guard=guard,
                  repeat=args.repeat_disturbed, progress=progress_line())
        planning = args.budget is not None or args.target_half_width is not None
        first = args.pilot_rounds if planning else args.rounds
        run.planned = first
        run_rounds(run, first, **kw)
        if planning and not run.interrupted and run.rounds >= 2:
            total = _planned_rounds(args, run)
            run.planned = total
            if total > run.rounds:
                run_rounds(run, total - run.rounds, **kw)
    return run


def _planned_rounds(args, run: Run) -> int:
    """The rounds the pilot says are needed (the pilot's rounds included)."""
    per_round = run.seconds / run.rounds
    if args.target_half_width is not None:
        want = max(_pilot_rounds(run, name, args) for name in run.names)
        run.plan_note = (f"plan: from the pilot's {run.rounds} rounds"
                         f"{' (the benchmark that needs most)' if len(run.names) > 1 else ''}, "
                         f"{want} rounds for a half-width of {100 * args.target_half_width:g} %")
        if args.budget is not None:
            fit = max(run.rounds, int(args.budget // per_round))
            if fit < want:
                run.plan_note += f", but the budget of {args.budget:g} s allows {fit}"
                want = fit
        return min(want, args.max_rounds)
    fit = max(run.rounds, int(args.budget // per_round))
    want = min(fit, args.max_rounds)
    run.plan_note = (f"plan: {per_round:.3g} s a round in the pilot; {want} rounds fit the "
                     f"budget of {args.budget:g} s")
    return want


def _pilot_rounds(run: Run, name: str | None, args) -> int:
    """The rounds the pilot's round log ratios call for: by Student's formula for the t
    interval, by resampling them for the signed-rank interval
    (:func:`esize._abrun.signed_rank_rounds`, its draws seeded by the run's seed)."""
    d = round_log_ratios(run_design(run, "old", name), run_design(run, "new", name))
    if args.paired_interval == "t":
        return rounds_for_half_width(float(d.std(ddof=1)), args.target_half_width,
                                     alpha=args.alpha, at_least=run.rounds,
                                     at_most=args.max_rounds)
    rng = np.random.default_rng([run.seed, 1])
    return signed_rank_rounds(d, args.target_half_width, alpha=args.alpha,
                              at_least=max(run.rounds, 6), at_most=args.max_rounds, rng=rng)


def cmd_run(args) -> CompareResult:
    r"""``esize run``: measure (or read ``--from``), save, compare paired by round.

    Examples
    --------
    A table as ``--save`` writes it, compared again with ``--from``: six rounds in
    which the machine drifted by up to 30 %, new 5 % slower in each of them:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.runner import cmd_run
    >>> drift = [1.0, 1.3, 1.1, 0.9, 1.2, 1.0]
    >>> rows = ["system,round,process,time"]
    >>> for r, d in enumerate(drift, start=1):
    ...     for p, e in ((1, 1.0), (2, 1.01)):
    ...         rows += [f"old,{r},{p},{0.010 * d * e}", f"new,{r},{p},{0.0105 * d * e}"]
    >>> path = Path(tempfile.mkdtemp()) / "run.csv"
    >>> _ = path.write_text("\n".join(rows) + "\n")
    >>> row = cmd_run(build_parser().parse_args(["run", "--from", str(path)])).rows[0]
    >>> print(row.verdict, row.verdict_method, round(row.paired.lower, 4), round(row.paired.upper, 4))
    slower paired 1.05 1.05
    >>> round(row.fieller.lower, 3) < 1 < round(row.fieller.upper, 3)  # unpaired: the drift
    True
    """
    from ..io import check_output

    if args.save is not None:
        check_output(args.save, [args.data] if args.data else [])
    if args.data is not None:
        if getattr(args, "commands", None) or getattr(args, "bench", None):
            raise EsizeError("--from compares a saved table: give no commands with it")
        designs = _saved_designs(args.data, args)
        files = (f"{args.data} (old)", f"{args.data} (new)")
        notes: tuple = ()
        seed = None
    else:
        run = _measure(args)
        if args.save is not None and run.measurements:
            _write_table(args.save, tidy_rows(run))
        if run.rounds < 2:
            raise EsizeError(f"{run.rounds} complete round(s) measured: a comparison needs "
                             "2 or more" + (" (interrupted)" if run.interrupted else ""))
        designs = {name: (run_design(run, "old", name), run_design(run, "new", name))
                   for name in run.names}
        if run.names == (None,):
            files = (run.commands[0].text, run.commands[1].text)
        else:
            files = (f"{args.git[0]} (old)", f"{args.git[1]} (new)")
        notes = _run_notes(run)
        seed = run.seed
    pairs = [make_pair(name, old, new, unit=unit_info("s")) for name, (old, new) in designs.items()]
    result = compare_pairs(pairs, method="fieller", alpha=args.alpha, threshold=args.threshold,
                           normal=args.normal, files=files, formats=("run", "run"),
                           paired=args.paired_interval)
    extra = notes + ((f"order: rounds shuffled with seed {seed} (--seed {seed} repeats the "
                      "order)",) if seed is not None else ())
    return _with_notes(result, extra)


def _saved_designs(path: str, args) -> dict:
    """``{benchmark: (old design, new design)}`` of a table saved by ``--save``."""
    from ..readers import read_benchmarks

    header = _header(path)
    if not {"system", "round", "process", "time"} <= set(header):
        raise EsizeError(f"{path}: not a table of esize run (it needs the columns system, "
                         "round, process and time)")
    column = "benchmark" if "benchmark" in header else None
    sides = []
    for side in SYSTEMS:  # the rows are the processes' times (iterations, or one each)
        sides.append(read_benchmarks(path, "tidy", levels=["round", "process"], value="time",
                                     where=[f"system={side}"],
                                     benchmark_column=column,
                                     max_bytes=getattr(args, "max_input_size", None)))
    if list(sides[0]) != list(sides[1]):
        raise EsizeError(f"{path}: old and new hold different benchmarks")
    return {name: (sides[0][name].design, sides[1][name].design) for name in sides[0]}


def _header(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [c.strip() for c in f.readline().strip().split(",")]
    except OSError as exc:
        raise EsizeError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _run_notes(run: Run) -> tuple[str, ...]:
    out = []
    if run.names == (None,):
        out.append(f"commands: old {run.commands[0].text!r}, new {run.commands[1].text!r}, "
                   f"{run.processes} process(es) of each a round")
    else:
        out.append(f"commands: {len(run.names)} benchmarks, {run.processes} process(es) of "
                   "each revision a round")
    if run.plan_note:
        out.append(run.plan_note)
    bad = [m for m in run.measurements if m.disturbed]
    if bad:
        out.append(f"guard: {len(bad)} of {len(run.measurements)} processes ran while "
                   "other programs used the CPU (marked in the saved table's disturbed "
                   "column); interleaving spreads them over old and new alike")
    if run.interrupted:
        out.append(f"interrupted: {run.rounds} complete round(s) of {run.planned} compared")
    return tuple(out)


def _with_notes(result: CompareResult, notes: tuple) -> CompareResult:
    from dataclasses import replace

    return replace(result, notes=tuple(result.notes) + tuple(notes))

