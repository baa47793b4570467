"""Measuring two commands A/B by the method: interleaved rounds, the engine of ``esize run``.

A round runs ``processes`` processes of the old command and as many of the new one,
in a fresh random order (:func:`round_orders`); the rounds are the top level of the
design, so whatever the machine does between rounds (load, clock, temperature) is
shared by old and new and cancels in the paired interval
(:func:`esize.paired_ratio_ci`), and whatever it does within a round falls on old
and new at random. Two batches measured one after the other (hyperfine old, then
hyperfine new; two CI jobs) cannot tell such drift from a change.

A process's measurement is its wall time (from just before its start to just after
its end, as hyperfine measures it, without a shell unless the command is one string),
or, with a regular expression, every time the command prints: the iterations of the
process, a level below it. Each process is also watched (:class:`Guard`): the CPU time
the rest of the machine used meanwhile (``/proc/stat`` minus this process tree's own)
and the steal time are recorded beside it, and a process during which others used
more than ``share`` of a CPU is marked disturbed (and measured again, up to
``repeat`` times, when asked).

Nothing here parses a command line or prints a result: :mod:`esize.cli.runner` does.
"""

from __future__ import annotations

import math
import os
import re
import resource
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ._design import Design
from ._errors import EsizeError

__all__ = ["Command", "Guard", "Measurement", "Run", "round_orders", "run_rounds",
           "parse_times", "TIME_UNITS", "rounds_for_half_width", "run_design", "signed_rank_rounds",
           "tidy_rows"]

#: Seconds per unit of the times a command prints (``--time-unit``).
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
#: Systems, in the order of the tidy table.
SYSTEMS = ("old", "new")


@dataclass(frozen=True)
class Command:
    """A command to measure.

    ``words`` of one string are run by ``/bin/sh -c`` (a shell line, as hyperfine
    takes it); several words are run as they are, without a shell.

    Examples
    --------
    >>> from esize._abrun import Command
    >>> Command.from_words(["./fib 30"]).argv
    ('/bin/sh', '-c', './fib 30')
    >>> c = Command.from_words(["./fib", "30"])
    >>> c.argv, c.text
    (('./fib', '30'), './fib 30')
    """

    argv: tuple[str, ...]
    text: str
    cwd: str | None = None

    @classmethod
    def from_words(cls, words: Sequence[str], cwd: str | None = None) -> Command:
        words = list(words)
        if not words or not any(w.strip() for w in words):
            raise EsizeError("a command is empty: give old and new as -- OLD ... -- NEW ...")
        if len(words) == 1:
            return cls(("/bin/sh", "-c", words[0]), words[0], cwd)
        return cls(tuple(words), shlex.join(words), cwd)


@dataclass(frozen=True)
class Measurement:
    """One process of one system: its place in the design and what was measured."""

    system: str
    round: int
    process: int
    times: tuple[float, ...]
    wall: float
    others_cpu: float = math.nan
    steal: float = math.nan
    disturbed: bool = False
    attempts: int = 1
    benchmark: str | None = None


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class Guard:
    """What the rest of the machine did while a process ran, from ``/proc/stat``.

    ``others_cpu`` is the busy CPU time of the whole machine over the process minus
    the process tree's own and this program's, in seconds; its share of the wall time
    is in CPUs (0.5: half a CPU). The kernel's counters tick at ``SC_CLK_TCK`` (100 a
    second), each field rounded down, so ``resolution`` ticks are allowed beyond
    ``share``. Where ``/proc/stat`` cannot be read the guard records nothing.

    Examples
    --------
    >>> from esize._abrun import Guard
    >>> g = Guard(share=0.25, stat_path="/nonexistent")
    >>> g.available, g.disturbed(others_cpu=0.0, wall=1.0)
    (False, False)
    >>> g = Guard(share=0.25)
    >>> g.disturbed(others_cpu=0.5, wall=1.0), g.disturbed(others_cpu=0.01, wall=1.0)
    (True, False)
    """

    def __init__(self, share: float = 0.25, resolution: int = 2,
                 stat_path: str = "/proc/stat"):
        self.share = share
        self.stat_path = stat_path
        self.tick = 1.0 / os.sysconf("SC_CLK_TCK")
        self.allowance = resolution * self.tick
        self.available = self.read() is not None

    def read(self) -> tuple[int, int] | None:
        """(busy ticks, steal ticks) of all CPUs, or None."""
        try:
            with open(self.stat_path, "rb") as f:
                line = f.readline().split()
        except OSError:
            return None
        if not line or line[0] != b"cpu" or len(line) < 9:
            return None
        v = [int(x) for x in line[1:9]]
        return v[0] + v[1] + v[2] + v[5] + v[6], v[7]  # user nice system irq softirq; steal

    def disturbed(self, *, others_cpu: float, wall: float) -> bool:
        if not self.available or not math.isfinite(others_cpu):
            return False
        return others_cpu > self.share * wall + self.allowance


def parse_times(text: str, pattern: re.Pattern, unit: float, source: str) -> tuple[float, ...]:
    """Every time a command printed: the first group of each match of ``pattern``.

    Examples
    --------
    >>> import re
    >>> from esize._abrun import parse_times
    >>> parse_times("iter 1: 12.5 ms\\niter 2: 12.0 ms\\n", re.compile(r"([0-9.]+) ms"), 1e-3, "x")
    (0.0125, 0.012)
    """
    found = pattern.findall(text)
    if not found:
        raise EsizeError(f"{source}: its output has no match of --time-regex "
                         f"{pattern.pattern!r}")
    out = []
    for g in found:
        g = g[0] if isinstance(g, tuple) else g
        try:
            x = float(g) if g.isascii() and "_" not in g else math.nan
        except ValueError:
            x = math.nan
        if not (math.isfinite(x) and x > 0):
            raise EsizeError(f"{source}: --time-regex matched {g!r}, not a positive number")
        out.append(x * unit)
    return tuple(out)


def round_orders(rounds: int, processes: int, rng: np.random.Generator,
                 benchmarks: int = 1) -> np.ndarray:
    """The order of every round: ``(rounds, 2 * processes * benchmarks)`` command
    indices (``2 * b`` the old command of benchmark ``b``, ``2 * b + 1`` its new one),
    each row a fresh random permutation of ``processes`` of each command.

    Examples
    --------
    >>> import numpy as np
    >>> from esize._abrun import round_orders
    >>> o = round_orders(4, 2, np.random.default_rng(1))
    >>> o.shape, o.sum(axis=1).tolist()
    ((4, 4), [2, 2, 2, 2])
    >>> round_orders(1, 1, np.random.default_rng(1), benchmarks=3).shape
    (1, 6)
    """
    commands = np.arange(2 * benchmarks, dtype=np.int16)
    base = np.tile(np.repeat(commands, processes), (rounds, 1))
    return rng.permuted(base, axis=1)


@dataclass
class Run:
    """What was measured, round by round; complete rounds only.

    ``commands`` holds the old and the new command of every benchmark, in turn;
    ``names`` the benchmarks' names (None for a single unnamed one).
    """

    commands: tuple[Command, ...]
    processes: int
    seed: int
    measurements: list[Measurement] = field(default_factory=list)
    rounds: int = 0
    planned: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    plan_note: str | None = None
    has_iterations: bool = False
    names: tuple[str | None, ...] = (None,)


def _execute(cmd: Command, *, capture: bool, timeout: float | None, guard: Guard | None
             ) -> tuple[float, str, float, float]:
    """Run once: (wall seconds, stdout, others' CPU seconds, steal seconds)."""
    g0 = guard.read() if guard is not None and guard.available else None
    c0, s0 = _cpu_children(), _cpu_self()
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd.argv, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                           stderr=subprocess.PIPE, cwd=cmd.cwd, timeout=timeout)
    except FileNotFoundError:
        raise EsizeError(f"{cmd.text}: command not found") from None
    except PermissionError:
        raise EsizeError(f"{cmd.text}: permission denied") from None
    except subprocess.TimeoutExpired:
        raise EsizeError(f"{cmd.text}: still running after --timeout {timeout:g} s") from None
    wall = time.perf_counter() - t0
    c1, s1 = _cpu_children(), _cpu_self()
    if p.returncode != 0:
        last = p.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] if p.stderr else []
        said = f": {last[0][:200]}" if last else ""
        raise EsizeError(f"{cmd.text}: exited with status {p.returncode}{said}")
    others = steal = math.nan
    if g0 is not None and guard is not None:
        g1 = guard.read()
        if g1 is not None:
            busy = (g1[0] - g0[0]) * guard.tick
            others = max(0.0, busy - (c1 - c0) - (s1 - s0))
            steal = (g1[1] - g0[1]) * guard.tick
    out = p.stdout.decode("utf-8", "replace") if capture else ""
    return wall, out, others, steal


def run_rounds(run: Run, rounds: int, *, rng: np.random.Generator,
               pattern: re.Pattern | None = None, unit: float = 1.0,
               timeout: float | None = None, guard: Guard | None = None, repeat: int = 0,
               progress: Callable[[int, int, float], None] | None = None) -> None:
    """Measure ``rounds`` more rounds into ``run`` (in place).

    A Ctrl-C (KeyboardInterrupt) ends the run: the round under way is dropped,
    ``run.interrupted`` is set, and everything measured before it is kept.
    """
    orders = round_orders(rounds, run.processes, rng, benchmarks=len(run.names))
    start = time.perf_counter()
    for order in orders:
        r = run.rounds
        done: list[Measurement] = []
        counts = [0] * len(run.commands)
        try:
            for s in order:
                cmd = run.commands[s]
                attempts = 0
                while True:
                    attempts += 1
                    wall, out, others, steal = _execute(cmd, capture=pattern is not None,
                                                        timeout=timeout, guard=guard)
                    bad = guard is not None and guard.disturbed(others_cpu=others, wall=wall)
                    if not bad or attempts > repeat:
                        break
                times = (parse_times(out, pattern, unit, cmd.text) if pattern is not None
                         else (wall,))
                done.append(Measurement(SYSTEMS[s % 2], r + 1, counts[s] + 1, times, wall,
                                        others, steal, bad, attempts, run.names[s // 2]))
                counts[s] += 1
        except KeyboardInterrupt:
            run.interrupted = True
            break
        run.measurements += done
        run.rounds += 1
        run.seconds += time.perf_counter() - start
        start = time.perf_counter()
        if progress is not None:
            progress(run.rounds, run.planned, run.seconds)


def rounds_for_half_width(sd_log: float, half_width: float, *, alpha: float = 0.05,
                          at_least: int = 2, at_most: int = 1000) -> int:
    """Rounds whose paired interval has a half-width of about ``half_width`` (relative)
    when the rounds' log ratios have standard deviation ``sd_log``: the smallest
    ``R`` with :math:`t_{R-1} s / \\sqrt{R} \\le \\log(1 + h)`.

    Examples
    --------
    >>> from esize._abrun import rounds_for_half_width
    >>> rounds_for_half_width(0.02, 0.01), rounds_for_half_width(0.02, 0.05)
    (18, 4)
    """
    from ._tdist import t_quantile

    target = math.log1p(half_width)
    for r in range(max(2, at_least), at_most + 1):
        if t_quantile(1 - alpha / 2, r - 1) * sd_log / math.sqrt(r) <= target:
            return r
    return at_most


#: Rounds up to which :func:`signed_rank_rounds` measures the interval's width on
#: resamples (200 x 1,830 Walsh averages at most); above, it scales it by 1 / sqrt(R).
EXACT_PLAN_ROUNDS = 60


def signed_rank_rounds(d: np.ndarray, half_width: float, *, alpha: float = 0.05,
                       at_least: int = 6, at_most: int = 1000,
                       rng: np.random.Generator, resamples: int = 200) -> int:
    r"""Rounds whose signed-rank interval has a median half-width of at most
    ``half_width`` (relative), judged on the pilot's round log ratios ``d``: samples of
    ``R`` rounds drawn with replacement from ``d`` (centred on its median) give the
    interval's half-width at ``R``; the smallest such ``R`` is found by bisection, up
    to :data:`EXACT_PLAN_ROUNDS` rounds, and beyond by the width's fall as
    :math:`1/\sqrt{R}`.

    The interval's width at few rounds is far from the normal-theory value (at 6 rounds
    the 95 % interval runs from the smallest to the largest Walsh average), so it is
    measured rather than derived.

    Examples
    --------
    >>> import numpy as np
    >>> from esize._abrun import signed_rank_rounds
    >>> d = np.array([0.01, -0.02, 0.015, 0.0, -0.01])
    >>> signed_rank_rounds(d, 0.01, rng=np.random.default_rng(1)), signed_rank_rounds(
    ...     d, 0.05, rng=np.random.default_rng(1))
    (11, 6)
    """
    from ._paired import _signed_rank_depth

    centred = d - np.median(d)
    target = math.log1p(half_width)

    def width(r: int) -> float:
        k = _signed_rank_depth(r, alpha)
        if k < 1:
            return math.inf
        x = rng.choice(centred, size=(resamples, r), replace=True)
        i, j = np.triu_indices(r)
        walsh = np.sort((x[:, i] + x[:, j]) / 2.0, axis=1)
        return float(np.median(walsh[:, walsh.shape[1] - k] - walsh[:, k - 1])) / 2.0

    lo, hi = max(at_least, 6), max(at_most, 6)
    top = min(hi, EXACT_PLAN_ROUNDS)
    w_top = width(top)
    if w_top > target:  # beyond: the width falls as 1 / sqrt(R), as it does for large R
        return min(hi, max(top, math.ceil(top * (w_top / target) ** 2)))
    hi = top
    while lo < hi:  # the smallest R whose width is within the target
        mid = (lo + hi) // 2
        if width(mid) <= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


def tidy_rows(run: Run) -> list[dict]:
    """The measurements as rows of a tidy table, one per value.

    Columns: ``benchmark`` (named benchmarks only), ``system``, ``round``,
    ``process``, ``iteration`` (with printed times),
    ``time`` (seconds), and the guard's ``others_cpu`` and ``steal`` (seconds over the
    process) and ``disturbed``.
    """
    rows = []
    with_iter = run.has_iterations
    named = run.names != (None,)
    for m in run.measurements:
        for i, t in enumerate(m.times, start=1):
            row: dict = {"benchmark": m.benchmark} if named else {}
            row.update({"system": m.system, "round": m.round, "process": m.process})
            if with_iter:
                row["iteration"] = i
            row.update({"time": t, "others_cpu": m.others_cpu, "steal": m.steal,
                        "disturbed": int(m.disturbed)})
            rows.append(row)
    return rows


def run_design(run: Run, system: str, benchmark: str | None = None) -> Design:
    """One system's design of one benchmark: rounds > processes (> iterations), in
    seconds; a command whose processes printed different numbers of times keeps the
    first ``m`` of each, ``m`` the fewest any printed."""
    ms = [m for m in run.measurements if m.system == system and m.benchmark == benchmark]
    if run.has_iterations:
        m_min = min(len(m.times) for m in ms)
        m_max = max(len(m.times) for m in ms)
        if m_max > m_min:
            import warnings

            from ._errors import EsizeWarning

            warnings.warn(EsizeWarning(
                f"{system}{'' if benchmark is None else ' ' + benchmark}: its processes "
                f"printed {m_min} to {m_max} times; the first {m_min} of each are compared"),
                stacklevel=2)
        times = np.array([m.times[:m_min] for m in ms])
        return Design(times.reshape(run.rounds, run.processes, m_min),
                      ("round", "process", "iteration"))
    walls = np.array([m.times[0] for m in ms])
    return Design(walls.reshape(run.rounds, run.processes), ("round", "process"))


def progress_line(stream=None) -> Callable[[int, int, float], None] | None:
    """A progress callback writing ``round 3/20, 4.1 s elapsed, about 23 s left`` over
    itself on a terminal's standard error; None when standard error is not one."""
    stream = sys.stderr if stream is None else stream
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None

    def show(done: int, total: int, seconds: float) -> None:
        left = seconds / done * max(0, total - done) if done else math.nan
        text = f"\resize run: round {done}/{total}, {seconds:.1f} s elapsed"
        if math.isfinite(left) and done < total:
            text += f", about {left:.0f} s left"
        try:
            stream.write(text + ("\n" if done >= total else ""))
            stream.flush()
        except (OSError, ValueError):
            pass

    return show
