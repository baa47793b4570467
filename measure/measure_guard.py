"""Interference with a measured process: measured per process, refused when too much.

A measured process shares the machine with everything else on it. Instead of
guessing from the load average, the runner reads the kernel's CPU counters
(``/proc/stat``) just before and just after every process and subtracts the
process's own CPU time (``getrusage(RUSAGE_CHILDREN)``) and the runner's
(``RUSAGE_SELF``): what is left is the CPU time *everything else* used meanwhile, on
all CPUs. The counters also give the steal time
(the hypervisor running other guests on this machine's CPUs). The process itself
reports, per iteration, its wall time and its CPU time; their ratio over the whole
process shows time spent waiting for a CPU.

The counters count in clock ticks (``sysconf(SC_CLK_TCK)``, 100 per second here), each
of their fields rounded down on its own, so a difference of two readings is only
known to a few ticks: a 0.3 s process on an idle machine shows -1 to +2 ticks of
"others". The thresholds therefore add a resolution allowance of
``resolution_ticks`` ticks to the share of a CPU they allow.

A process is **clean** when all of these hold (:func:`judge`):

* others used at most ``others_share`` of one CPU over the process's wall time,
  beyond the allowance: ``others <= others_share * wall + resolution_ticks * tick``;
* steal time at most ``steal_share`` of the wall time, beyond the same allowance;
* the sum of its iteration times is at most ``wall_per_cpu`` times the sum of their
  CPU times (the process hardly waited for a CPU);
* over the last ``window`` seconds of processes (this one and those just before it,
  :class:`Window`), others used at most ``others_share`` of one CPU beyond the same
  allowance. A process of 50 ms cannot tell 2 % of a CPU from nothing (two ticks are
  40 % of it); a second of processes can, so a light but steady load is caught too.

Everything that reads the machine goes through a :class:`Probe` (its clock, its
``/proc/stat`` reader, its sleep, its rusage), so the tests drive the guard with a fake
``/proc/stat``.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: The fields of a ``cpu`` line of /proc/stat, in order (Linux >= 2.6.33).
FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
          "guest", "guest_nice")
#: Fields counted as busy. ``guest`` time is already part of ``user`` (and
#: ``guest_nice`` of ``nice``), so it is not added again.
BUSY = ("user", "nice", "system", "irq", "softirq")

#: Defaults of the ``guard`` section of the measuring configuration.
DEFAULTS = {
    "enabled": True,
    "cpu": "last",              # CPU the measured processes are pinned to: last, none or a number
    "others_share": 0.02,       # others may use 2 % of one CPU during a process ...
    "steal_share": 0.02,        # ... and steal 2 % of its wall time ...
    "resolution_ticks": 2,      # ... beyond two clock ticks of counter resolution
    "wall_per_cpu": 1.01,       # sum of iteration times / sum of their CPU times
    "window": 1.0,              # seconds of recent processes judged together
    "quiet_share": 0.05,        # quiet enough to start: others below 5 % of one CPU ...
    "quiet_window": 0.5,        # ... over this many seconds
    "quiet_wait_max": 60,       # seconds to wait for quiet before running anyway
    "max_attempts": 4,          # a process discarded this often is kept, marked unclean
    "max_unclean_fraction": 0.02,  # more unclean processes than this: no dataset
    "preflight_seconds": 2.0,   # the check before anything is measured
    "preflight_share": 0.10,    # busier than 10 % of one CPU: refused unless --force
}


class BusyMachine(RuntimeError):
    """The machine is too busy to measure (one line, for the user)."""


# -- reading /proc/stat -----------------------------------------------------------


def parse_proc_stat(text: str) -> dict[str, tuple[int, ...]]:
    """The ``cpu`` lines of /proc/stat: ``{"cpu": (user, nice, ...), "cpu0": ...}``.

    Missing trailing fields (older kernels) count as 0; a line with a non-number
    raises ValueError.
    """
    out: dict[str, tuple[int, ...]] = {}
    for line in text.splitlines():
        if not line.startswith("cpu"):
            continue
        name, *values = line.split()
        nums = tuple(int(v) for v in values[: len(FIELDS)])
        out[name] = nums + (0,) * (len(FIELDS) - len(nums))
    if "cpu" not in out:
        raise ValueError("no 'cpu' line in /proc/stat")
    return out


def _field(counts: Sequence[int], name: str) -> int:
    return counts[FIELDS.index(name)]


def busy_ticks(counts: Sequence[int]) -> int:
    """Busy ticks of one ``cpu`` line (user, nice, system, irq, softirq)."""
    return sum(_field(counts, f) for f in BUSY)


@dataclass(frozen=True)
class Interference:
    """What else happened on the machine while one process ran (seconds)."""

    wall: float          # the process's wall time as the runner saw it
    own_cpu: float       # its own CPU time (user + system, from rusage)
    others_cpu: float    # CPU time of everything else, all CPUs
    steal: float         # steal time, all CPUs
    tick: float          # seconds per clock tick of the counters
    runner_cpu: float = 0.0  # the runner's own CPU time meanwhile (not counted as others)

    @property
    def others_share(self) -> float:
        """Others' CPU time as a share of one CPU over the process's wall time."""
        return self.others_cpu / self.wall if self.wall > 0 else 0.0

    @property
    def steal_share(self) -> float:
        return self.steal / self.wall if self.wall > 0 else 0.0


def interference(before: Mapping[str, Sequence[int]], after: Mapping[str, Sequence[int]],
                 own_cpu: float, wall: float, tick: float,
                 runner_cpu: float = 0.0) -> Interference:
    """Others' CPU time and steal time between two /proc/stat readings.

    ``others = busy(after) - busy(before) - own_cpu - runner_cpu`` summed over all
    CPUs; it can be slightly negative, within the counters' resolution. The runner's
    own CPU time (starting the process, reading its output: mostly before and after the
    measured iterations, and on another CPU) is its own line, not interference: counted
    as others it is 5-15 % of a CPU beside processes of 30 ms.
    """
    busy = (busy_ticks(after["cpu"]) - busy_ticks(before["cpu"])) * tick
    steal = (_field(after["cpu"], "steal") - _field(before["cpu"], "steal")) * tick
    return Interference(wall=wall, own_cpu=own_cpu, others_cpu=busy - own_cpu - runner_cpu,
                        steal=steal, tick=tick, runner_cpu=runner_cpu)


def judge(i: Interference, wall_per_cpu: float, thresholds: Mapping) -> list[str]:
    """Why a process is not clean (empty list: clean). See the module notes."""
    allowance = thresholds["resolution_ticks"] * i.tick
    why = []
    if i.others_cpu > thresholds["others_share"] * i.wall + allowance:
        why.append(f"others used {100 * i.others_share:.1f} % of a CPU")
    if i.steal > thresholds["steal_share"] * i.wall + allowance:
        why.append(f"steal {100 * i.steal_share:.1f} % of the time")
    if wall_per_cpu > thresholds["wall_per_cpu"]:
        why.append(f"wall time {wall_per_cpu:.3f} x CPU time")
    return why


class Window:
    """Others' CPU time over the most recent processes, at least ``seconds`` of them.

    :meth:`add` takes a process's interference and says whether the window that ends
    with it is clean; :meth:`clear` starts afresh (after a wait for quiet).
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.items: list[tuple[float, float]] = []  # (others_cpu, wall)

    def clear(self) -> None:
        self.items.clear()

    def add(self, i: Interference, thresholds: Mapping) -> list[str]:
        self.items.append((i.others_cpu, i.wall))
        total_wall = 0.0
        keep = 0
        for _, w in reversed(self.items):
            total_wall += w
            keep += 1
            if total_wall >= self.seconds:
                break
        self.items = self.items[-keep:]
        if total_wall < self.seconds:
            return []  # not a full window yet: the per-process rule decides
        others = sum(o for o, _ in self.items)
        allowance = thresholds["resolution_ticks"] * i.tick
        if others > thresholds["others_share"] * total_wall + allowance:
            return [f"others used {100 * others / total_wall:.1f} % of a CPU over the last "
                    f"{total_wall:.2f} s"]
        return []


# -- the machine, through one object the tests replace ------------------------------


@dataclass
class Probe:
    """How the guard reads the machine: replace any part in tests."""

    read_stat: Callable[[], str] = field(default=lambda: Path("/proc/stat").read_text())
    clock: Callable[[], float] = time.perf_counter
    sleep: Callable[[float], None] = time.sleep
    children_cpu: Callable[[], float] = field(default=lambda: _rusage(resource.RUSAGE_CHILDREN))
    self_cpu: Callable[[], float] = field(default=lambda: _rusage(resource.RUSAGE_SELF))
    tick: float = field(default_factory=lambda: 1.0 / os.sysconf("SC_CLK_TCK"))
    proc_dir: str = "/proc"

    def stat(self) -> dict[str, tuple[int, ...]]:
        return parse_proc_stat(self.read_stat())


def _rusage(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def sample(probe: Probe, seconds: float) -> Interference:
    """Others' CPU use over ``seconds`` of the runner waiting (its own CPU subtracted)."""
    s0, c0, t0 = probe.stat(), probe.self_cpu(), probe.clock()
    probe.sleep(seconds)
    s1, c1, t1 = probe.stat(), probe.self_cpu(), probe.clock()
    return interference(s0, s1, c1 - c0, t1 - t0, probe.tick)


def wait_quiet(probe: Probe, thresholds: Mapping) -> tuple[float, bool, float]:
    """Wait until others use at most ``quiet_share`` of a CPU over ``quiet_window``
    seconds (beyond the counters' resolution), at most ``quiet_wait_max`` seconds.

    Returns (seconds waited, quiet or not, the last window's share of a CPU).
    """
    start = probe.clock()
    window = thresholds["quiet_window"]
    while True:
        s = sample(probe, window)
        allowance = thresholds["resolution_ticks"] * s.tick
        if s.others_cpu <= thresholds["quiet_share"] * s.wall + allowance:
            return probe.clock() - start, True, s.others_share
        if probe.clock() - start + window > thresholds["quiet_wait_max"]:
            return probe.clock() - start, False, s.others_share


# -- the preflight ----------------------------------------------------------------


def _proc_ticks(proc_dir: str) -> dict[int, tuple[str, int]]:
    """``{pid: (command name, utime + stime ticks)}`` of every process readable now."""
    out = {}
    try:
        names = os.listdir(proc_dir)
    except OSError:
        return out
    for n in names:
        if not n.isdigit():
            continue
        try:
            raw = Path(proc_dir, n, "stat").read_text()
        except OSError:
            continue
        # comm is in parentheses and may hold spaces or parentheses itself
        lpar, rpar = raw.find("("), raw.rfind(")")
        if lpar < 0 or rpar < 0:
            continue
        rest = raw[rpar + 2:].split()
        try:
            out[int(n)] = (raw[lpar + 1:rpar], int(rest[11]) + int(rest[12]))
        except (IndexError, ValueError):
            continue
    return out


def preflight(probe: Probe, thresholds: Mapping, own: Sequence[int] = ()) -> dict:
    """Sample the machine for ``preflight_seconds``: others' share of a CPU and the
    busiest other processes (by their CPU time over the same seconds).

    ``own``: process ids left out of the list (the runner and its parents).
    """
    before = _proc_ticks(probe.proc_dir)
    s = sample(probe, thresholds["preflight_seconds"])
    after = _proc_ticks(probe.proc_dir)
    skip = set(own)
    busiest = []
    for pid, (name, ticks) in after.items():
        if pid in skip or pid not in before or before[pid][0] != name:
            continue
        used = (ticks - before[pid][1]) * s.tick
        if used > 0:
            busiest.append({"pid": pid, "command": name, "cpu_share": used / s.wall})
    busiest.sort(key=lambda r: (-r["cpu_share"], r["pid"]))
    allowance = thresholds["resolution_ticks"] * s.tick
    busy = s.others_cpu > thresholds["preflight_share"] * s.wall + allowance
    return {"seconds": s.wall, "others_share": s.others_share, "steal_share": s.steal_share,
            "busiest": busiest[:5], "busy": bool(busy),
            "threshold_share": thresholds["preflight_share"]}


def preflight_line(result: Mapping) -> str:
    """The one line that refuses a busy machine."""
    top = ", ".join(f"{r['command']} (pid {r['pid']}, {100 * r['cpu_share']:.0f} %)"
                    for r in result["busiest"][:3]) or "no single process stands out"
    listed = sum(r["cpu_share"] for r in result["busiest"])
    if result["others_share"] - listed > 0.05:
        top += (f"; {100 * (result['others_share'] - listed):.0f} % by processes that started "
                "or ended meanwhile")
    return (f"the machine is busy: other programs used {100 * result['others_share']:.0f} % "
            f"of a CPU over {result['seconds']:.1f} s (at most "
            f"{100 * result['threshold_share']:.0f} % allowed); busiest: {top}. Measure on "
            "a quiet machine, or pass --force to measure anyway (provenance records it)")


# -- one process ------------------------------------------------------------------


def own_ancestors(pid: int | None = None, proc_dir: str = "/proc") -> list[int]:
    """``pid`` (default: this process) and its parents, to leave out of the preflight."""
    out = []
    p = os.getpid() if pid is None else pid
    while p > 1 and p not in out:
        out.append(p)
        try:
            raw = Path(proc_dir, str(p), "stat").read_text()
            p = int(raw[raw.rfind(")") + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return out


def pinned_cpu(setting, available: Sequence[int] | None = None) -> int | None:
    """The CPU to pin measured processes to: ``last`` (highest allowed), ``none``, or
    a number (which must be allowed)."""
    cpus = sorted(available if available is not None else os.sched_getaffinity(0))
    if setting in (None, "none"):
        return None
    if setting == "last":
        return cpus[-1]
    if int(setting) not in cpus:
        raise ValueError(f"guard.cpu: CPU {setting} is not available (allowed: {cpus})")
    return int(setting)


def summary(values: Sequence[float]) -> dict:
    """Mean, median, 99th percentile and maximum, for provenance."""
    import numpy as np

    a = np.asarray(values, dtype=float)
    if a.size == 0:
        return {"mean": None, "median": None, "p99": None, "max": None}
    return {"mean": float(a.mean()), "median": float(np.median(a)),
            "p99": float(np.quantile(a, 0.99)), "max": float(a.max())}
