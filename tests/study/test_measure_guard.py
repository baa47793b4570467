"""The measuring guard and the pilot-to-plan step, on a fake machine.

A fake /proc/stat (counters advanced by the test), a fake clock and fake runs drive
``measure_guard`` and ``measure_run.run_guarded``: no real process is started and
nothing depends on how busy the machine running the tests is.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
MEASURE = ROOT / "measure"
sys.path.insert(0, str(MEASURE))
import measure_config as C  # noqa: E402
import measure_guard as G  # noqa: E402
import measure_run as R  # noqa: E402
import measure_sizing as Z  # noqa: E402
from measure_common import MeasureError  # noqa: E402

TICK = 0.01


class FakeMachine:
    """Two CPUs whose /proc/stat counters the test advances by hand."""

    def __init__(self):
        self.t = 0.0
        self.ticks = {"cpu0": [0] * 10, "cpu1": [0] * 10}
        self.self_cpu = 0.0
        self.children = 0.0
        self.others_rate = 0.0   # CPUs' worth of other programs, user time
        self.steal_rate = 0.0

    def text(self) -> str:
        tot = [a + b for a, b in zip(self.ticks["cpu0"], self.ticks["cpu1"])]
        lines = ["cpu  " + " ".join(map(str, tot))]
        lines += [f"{k} " + " ".join(map(str, v)) for k, v in self.ticks.items()]
        return "\n".join(lines + ["intr 0", "ctxt 0"]) + "\n"

    def advance(self, seconds: float, own_busy: float = 0.0) -> None:
        """Time passes; the measured process uses ``own_busy`` CPU-seconds meanwhile."""
        self.t += seconds
        self.ticks["cpu1"][0] += round(own_busy / TICK)
        self.ticks["cpu0"][0] += round(self.others_rate * seconds / TICK)
        self.ticks["cpu0"][7] += round(self.steal_rate * seconds / TICK)
        idle = round((2 * seconds - own_busy - self.others_rate * seconds) / TICK)
        self.ticks["cpu0"][3] += max(0, idle)
        self.children += own_busy

    def probe(self) -> G.Probe:
        return G.Probe(read_stat=self.text, clock=lambda: self.t,
                       sleep=lambda s: self.advance(s), children_cpu=lambda: self.children,
                       self_cpu=lambda: self.self_cpu, tick=TICK, proc_dir="/nonexistent")


def test_parse_proc_stat_reads_every_cpu_line_and_pads_old_kernels():
    got = G.parse_proc_stat("cpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 2 3 4\nintr 5\n")
    assert got["cpu"] == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    assert got["cpu0"] == (1, 2, 3, 4, 0, 0, 0, 0, 0, 0)
    assert G.busy_ticks(got["cpu"]) == 1 + 2 + 3 + 6 + 7  # guest is inside user already
    with pytest.raises(ValueError):
        G.parse_proc_stat("intr 5\n")


def test_interference_subtracts_the_process_own_cpu_time():
    before = {"cpu": (100, 0, 50, 0, 0, 0, 0, 3, 0, 0)}
    after = {"cpu": (160, 0, 60, 0, 0, 0, 0, 5, 0, 0)}   # 70 busy ticks, 2 steal ticks
    i = G.interference(before, after, own_cpu=0.5, wall=0.5, tick=TICK)
    assert i.others_cpu == pytest.approx(0.2)
    assert i.others_share == pytest.approx(0.4)
    assert i.steal == pytest.approx(0.02)


THR = {**G.DEFAULTS}


@pytest.mark.parametrize("others, steal, ratio, expect", [
    (0.0, 0.0, 1.000, []),
    (0.02, 0.0, 1.000, []),                   # two ticks: within the resolution
    (0.021 + 0.02 * 1.0, 0.0, 1.0, ["others"]),
    (0.0, 0.05, 1.0, ["steal"]),
    (0.0, 0.0, 1.02, ["wall"]),
    (0.5, 0.5, 1.5, ["others", "steal", "wall"]),
])
def test_judge_states_each_reason(others, steal, ratio, expect):
    i = G.Interference(wall=1.0, own_cpu=1.0, others_cpu=others, steal=steal, tick=TICK)
    why = G.judge(i, ratio, THR)
    assert [w.split(" ")[0] for w in why] == expect


def test_window_catches_a_light_steady_load_no_single_process_shows():
    w = G.Window(1.0)
    # 5 % of a CPU, processes of 50 ms: 2.5 ms each, far below two ticks each
    light = G.Interference(wall=0.05, own_cpu=0.05, others_cpu=0.0025, steal=0, tick=TICK)
    assert G.judge(light, 1.0, THR) == []
    flags = [w.add(light, THR) for _ in range(30)]
    assert not any(flags[:19])             # less than a second seen: no verdict yet
    assert all(flags[20:])                 # 5 % over a second is more than 2 % + 2 ticks
    w.clear()
    quiet = G.Interference(wall=0.05, own_cpu=0.05, others_cpu=0.0003, steal=0, tick=TICK)
    assert not any(w.add(quiet, THR) for _ in range(40))


def test_wait_quiet_waits_while_busy_and_is_bounded():
    m = FakeMachine()
    m.others_rate = 1.0
    waited, quiet, share = G.wait_quiet(m.probe(), {**THR, "quiet_wait_max": 5})
    assert not quiet and 4.5 <= waited <= 5.0 and share == pytest.approx(1.0, abs=0.05)
    m.others_rate = 0.0
    waited, quiet, _ = G.wait_quiet(m.probe(), THR)
    assert quiet and waited == pytest.approx(THR["quiet_window"])


def test_preflight_refuses_two_busy_loops_and_names_the_busiest(tmp_path):
    m = FakeMachine()
    m.others_rate = 2.0 * 0.99
    # a fake /proc with two busy processes and one idle one
    procs = {101: ("yes", 0), 102: ("yes", 0), 103: ("sleep", 0)}

    def write():
        for pid, (name, ticks) in procs.items():
            d = tmp_path / str(pid)
            d.mkdir(exist_ok=True)
            fields = ["S"] + ["0"] * 10 + [str(ticks), "0"] + ["0"] * 20
            (d / "stat").write_text(f"{pid} ({name}) " + " ".join(fields) + "\n")

    write()
    probe = m.probe()
    probe.proc_dir = str(tmp_path)
    real_sleep = probe.sleep

    def sleep(s):
        real_sleep(s)
        for pid in (101, 102):
            procs[pid] = ("yes", procs[pid][1] + round(s / TICK))
        write()

    probe.sleep = sleep
    res = G.preflight(probe, THR, own=[103])
    assert res["busy"] and res["others_share"] > 1.9
    assert [r["pid"] for r in res["busiest"]] == [101, 102]
    line = G.preflight_line(res)
    assert "\n" not in line and "yes (pid 101" in line and "--force" in line
    m.others_rate = 0.0
    assert not G.preflight(probe, THR)["busy"]


def _cfg(tmp_path, **guard):
    cfg = C.check_config({"name": "t", "master_seed": 1, "benchmarks": ["fft"],
                          "build_dir": str(tmp_path), "guard": {**G.DEFAULTS, **guard}})
    return cfg


def _fake_runner(m: FakeMachine, busy_at: set[int]):
    """A run of 0.3 s; the k-th call (1-based) in ``busy_at`` sees another program."""
    calls = [0]

    def run(bindir, iterations, env_bytes, cpu, probe):
        calls[0] += 1
        s0, own0 = probe.stat(), probe.children_cpu()
        m.others_rate = 1.0 if calls[0] in busy_at else 0.0
        m.advance(0.3, own_busy=0.3)
        m.others_rate = 0.0
        s1, own1 = probe.stat(), probe.children_cpu()
        return {"times_ns": [100] * iterations, "cpu_ns": [100] * iterations, "units": 1,
                "start": float(calls[0]), "wall": 0.3, "load_before": 0, "load_after": 0,
                "interference": G.interference(s0, s1, own1 - own0, 0.3, TICK),
                "wall_per_cpu": 1.0, "cpu": cpu}
    return run


def _jobs(n):
    return [{"order": k + 1, "set": "fft", "binary": k + 1, "execution": 1, "env_bytes": 0}
            for k in range(n)]


def test_guard_discards_and_reruns_later_and_counts_it(tmp_path):
    m = FakeMachine()
    cfg = _cfg(tmp_path, cpu="none")
    done, stats = R.run_guarded(cfg, _jobs(10), lambda j: tmp_path, lambda j: 5,
                                probe=m.probe(), runner=_fake_runner(m, {3, 4}))
    assert len(done) == 10 and all(d["clean"] for d in done)
    assert stats["attempts"] == 12 and stats["discarded"] == 2 and stats["unclean"] == 0
    # the discarded processes ran again at the end of the schedule
    assert [d["binary"] for d in done][-2:] == [3, 4]
    assert {d["binary"]: d["attempt"] for d in done}[3] == 2


def test_guard_refuses_when_too_many_stay_unclean(tmp_path):
    m = FakeMachine()
    cfg = _cfg(tmp_path, cpu="none", max_attempts=2)
    with pytest.raises(MeasureError, match="too busy to measure clean"):
        R.run_guarded(cfg, _jobs(10), lambda j: tmp_path, lambda j: 5, probe=m.probe(),
                      runner=_fake_runner(m, set(range(1, 100))))
    line = R.refused_path(cfg).read_text()
    assert line.count("\n") == 1 and "No dataset was written" in line


def test_force_keeps_every_first_attempt_and_says_so(tmp_path):
    m = FakeMachine()
    cfg = {**_cfg(tmp_path, cpu="none"), "force": True}
    done, stats = R.run_guarded(cfg, _jobs(5), lambda j: tmp_path, lambda j: 5,
                                probe=m.probe(), runner=_fake_runner(m, {1, 2, 3, 4, 5}))
    assert stats["attempts"] == 5 and stats["forced"]
    assert not any(d["clean"] for d in done)


def test_pinned_cpu_setting():
    assert G.pinned_cpu("last", [0, 1, 3]) == 3
    assert G.pinned_cpu("none", [0, 1]) is None
    assert G.pinned_cpu(1, [0, 1]) == 1
    with pytest.raises(ValueError, match="not available"):
        G.pinned_cpu(5, [0, 1])


# -- the pilot and the plan ----------------------------------------------------------


def _pilot(rng, s_pct, shape=(10, 4, 20), mean=0.004):
    b, e, n = shape
    sb, se, si = (x / 100 for x in s_pct)
    t = mean * (1 + sb * rng.standard_normal((b, 1, 1)) + se * rng.standard_normal((b, e, 1))
                + si * rng.standard_normal((b, e, n)))
    return Z.pilot_estimates(t, [0.003] * (b * e), [0.5] * b, 0.3)


LO = {"builds": 2, "executions": 1, "iterations": 2}
HI = {"builds": 10_000, "executions": 1000, "iterations": 10_000}


def test_plan_meets_its_target_and_is_the_cheapest_that_does():
    est = _pilot(np.random.default_rng(1), (0.6, 1.1, 1.3))
    got = Z.size_program(est, 0.005, 0.3, LO, HI, 3600)
    assert got["target_reached"] and got["predicted_half_width_pct"] <= 0.5
    d = got["design"]
    counts = [d["builds"], d["executions"], d["iterations"]]
    # recomputed independently from the model's variance of the mean
    steady = counts[2] - Z.warmup_count(0.3, counts[2])
    var = sum(t / np.prod([*counts[:2], steady][k:]) for k, t in
              enumerate(np.clip(est["plan_t2"], 0, None)[::-1][::-1]))
    from scipy.stats import t as student
    hw = math.sqrt(2) * student.ppf(0.975, counts[0] - 1) * math.sqrt(
        est["plan_t2"][0] / counts[0] + est["plan_t2"][1] / (counts[0] * counts[1])
        + est["plan_t2"][2] / (counts[0] * counts[1] * steady)) / est["mean"]
    assert got["predicted_half_width_pct"] == pytest.approx(100 * hw, rel=1e-9)
    assert var > 0
    # a smaller budget's design does not reach the target
    cheaper = Z.size_program(est, 0.0, 0.3, LO, HI, 0.9 * got["seconds_per_set"])
    assert cheaper["predicted_half_width_pct"] > 0.5


def test_plan_uses_upper_bounds_so_a_pilot_without_build_variation_still_gets_builds():
    rng = np.random.default_rng(3)
    est = _pilot(rng, (0.0, 7.0, 5.0))          # no build level in the pilot's data
    assert est["t2"][0] <= est["plan_t2"][0]
    assert est["plan_t2"][0] > 0
    from scipy.stats import chi2
    assert Z.upper_variance(2.0, 9) == pytest.approx(2.0 * 9 / chi2.ppf(0.2, 9))
    got = Z.size_program(est, 0.01, 0.3, LO, HI, 3600)
    assert got["design"]["builds"] >= 10


def test_budget_too_small_gives_the_budgets_best_and_says_so():
    est = _pilot(np.random.default_rng(2), (3.3, 7.3, 5.2))
    got = Z.size_all({"fft": est}, {"fft": 0.1}, {"fft": 4}, 0.3, LO, HI, 120)
    p = got["programs"]["fft"]
    assert not p["target_reached"] and p["predicted_half_width_pct"] > 0.1
    assert got["predicted_seconds"] <= 120 * 1.01


def test_total_iterations_keeps_the_steady_count_after_the_warmup_cut():
    for steady in range(1, 200):
        n = Z.total_iterations(steady, 0.3)
        assert n - Z.warmup_count(0.3, n) >= steady
        assert n == 1 or (n - 1) - Z.warmup_count(0.3, n - 1) < steady


def test_config_rejects_bad_guard_and_design_values(tmp_path):
    base = {"name": "t", "master_seed": 1, "benchmarks": ["fft"]}
    with pytest.raises(C.ConfigProblem, match="guard.others_share"):
        C.check_config({**base, "guard": {"others_share": 2}})
    with pytest.raises(C.ConfigProblem, match="design.mode"):
        C.check_config({**base, "design": {"mode": "guess"}})
    with pytest.raises(C.ConfigProblem, match="builds"):
        C.check_config({**base, "design": {"mode": "fixed"}})
    with pytest.raises(C.ConfigProblem, match="targets_pct.cipher"):
        C.check_config({**base, "design": {"targets_pct": {"cipher": 1}}})
