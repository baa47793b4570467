"""Two runs of the pipeline at once on one results directory (the fuzz family of the
system's faults; Ctrl-C, a full file system and read-only mounts are
``tests/cli/test_fuzz_system.py``).

The cheapest real pipeline: ``make analyse``'s Snakemake command on one dataset of two
benchmarks (``examples/analyse/data``'s qs-old and qs-new) and one comparison, asking
for the comparison's file alone (one job), in a copy of the workflow whose outputs all
lie under pytest's tmp_path. A first run starts; a second one, the same command in the
same directory, starts while the first one's job runs (or once it holds the directory
lock, or at the same moment). The first run may be held (SIGSTOP) while the second one
runs: a slow job, without a slow test.

The second run refuses with Snakemake's directory lock (``Directory cannot be locked``)
or, the first one done, has nothing to do; neither run prints a traceback. Afterwards no
lock and no incomplete mark is left, the comparisons file is whole, and a third, plain
run has nothing to do or rebuilds it cleanly. ``HYPOTHESIS_PROFILE=fuzz-long`` runs more
pairs (one in the default profile: a held first run, whose lock the second must meet).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "examples" / "analyse" / "data"

#: The longest one Snakemake run may take before it counts as a hang.
LIMIT = 300

LONG = os.environ.get("HYPOTHESIS_PROFILE", "") == "fuzz-long"
PAIRS = settings(max_examples=12 if LONG else 1, deadline=None, derandomize=True,
                 database=None,
                 suppress_health_check=[HealthCheck.too_slow,
                                        HealthCheck.function_scoped_fixture])

LOCKED = "Directory cannot be locked"
NOTHING = "Nothing to be done"


def _workflow(tmp: Path, resamples: int) -> tuple[Path, list[str], Path]:
    """A copy of what `make analyse` runs, a configuration of one tiny dataset, the
    Snakemake command and the one file it asks for."""
    wd = tmp / "wd"
    wd.mkdir()
    for f in ("Snakefile", "Makefile"):
        shutil.copy(ROOT / f, wd / f)
    for d in ("workflow", "config"):
        shutil.copytree(ROOT / d, wd / d, ignore=shutil.ignore_patterns("__pycache__"))
    data = tmp / "data"
    data.mkdir()
    for name in ("qs-old.csv", "qs-new.csv"):
        shutil.copy(DATA / name, data / name)
    cfg = tmp / "my.yaml"
    cfg.write_text(yaml.safe_dump({
        "results_dir": str(tmp / "results"), "logs_dir": str(tmp / "logs"),
        "data_dir": str(tmp / "generated"), "analysis": {"resamples": resamples},
        "datasets": {"mini": {"path": str(data), "comparisons": [
            {"old": "qs-old", "new": "qs-new"}]}}}, sort_keys=False))
    target = tmp / "results" / "mini" / "analysis" / "comparisons.json"
    cmd = [sys.executable, "-m", "snakemake", "--workflow-profile",
           "workflow/profiles/default", str(target), "--configfile",
           "config/analyse-defaults.yaml", str(cfg), "--replace-workflow-config"]
    return wd, cmd, target


class Run:
    """One Snakemake run in its own process group, its output in a file."""

    def __init__(self, cmd, wd: Path, log: Path):
        self.log = log
        with open(log, "wb") as fh:
            self.proc = subprocess.Popen(cmd, cwd=wd, stdout=fh, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def signal(self, sig) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def wait_for(self, ready, what: str) -> None:
        deadline = time.monotonic() + LIMIT
        while not ready():
            assert self.proc.poll() is None, f"the first run ended before {what}:\n" + (
                self.text()[-3000:])
            assert time.monotonic() < deadline, f"no {what} within {LIMIT} s"
            time.sleep(0.02)

    def finish(self) -> tuple[int, str]:
        try:
            self.proc.wait(timeout=LIMIT)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.proc.wait()
            pytest.fail(f"a pipeline run did not end within {LIMIT} s (a hang)")
        return self.proc.returncode, self.text()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.signal(signal.SIGCONT)
            self.signal(signal.SIGKILL)
            self.proc.wait()


def _locks(wd: Path) -> list:
    d = wd / ".snakemake" / "locks"
    return sorted(os.listdir(d)) if d.is_dir() else []


def _incomplete(wd: Path) -> list:
    d = wd / ".snakemake" / "incomplete"
    return sorted(p.name for p in d.rglob("*") if p.is_file()) if d.is_dir() else []


def check_run(code: int, text: str, *, who: str) -> str:
    """Finished (0), or refused with the directory lock; never a traceback."""
    assert "Traceback" not in text, f"{who}:\n{text[-4000:]}"
    if code == 0:
        return "nothing to do" if NOTHING in text else "ran"
    assert LOCKED in text, f"{who} failed, not on the lock:\n{text[-4000:]}"
    return "refused"


def check_results(target: Path, resamples: int) -> None:
    """The comparisons file whole: JSON, the configured resamples, the one comparison."""
    doc = json.loads(target.read_text())
    assert doc["resamples"] == resamples
    assert [c["name"] for c in doc["comparisons"]] == ["qs-new vs qs-old"]
    assert doc["comparisons"][0]["ratio"] > 0
    assert sorted(os.listdir(target.parent)) == ["comparisons.json"]  # no temporary file


#: What Snakemake prints once it holds the directory lock (before it runs any job).
HOLDS_LOCK = "Using shell:"


@PAIRS
@given(start=st.sampled_from(["together", "job running", "lock taken"]),
       hold=st.sampled_from([True, False]), resamples=st.sampled_from([1000, 20000]))
def test_two_runs_at_once(start, hold, resamples, tmp_path_factory):
    """``start``: the second run starts with the first, once the first one holds the
    lock, or once its job runs; ``hold``: the run holding the lock is held (SIGSTOP)
    until the other one has ended."""
    tmp = tmp_path_factory.mktemp("concurrent")
    wd, cmd, target = _workflow(tmp, resamples)
    runs = [Run(cmd, wd, tmp / "first.log")]
    held = None
    try:
        if start == "job running":
            runs[0].wait_for(lambda: "localrule analyse_compare" in runs[0].text(), "its job")
        elif start == "lock taken":
            runs[0].wait_for(lambda: HOLDS_LOCK in runs[0].text(), "the lock")
        runs.append(Run(cmd, wd, tmp / "second.log"))
        if hold:  # the run that took the lock (started together: whichever did first)
            deadline = time.monotonic() + LIMIT
            while time.monotonic() < deadline and all(r.proc.poll() is None for r in runs):
                held = next((r for r in runs if HOLDS_LOCK in r.text()), None)
                if held is not None:
                    held.signal(signal.SIGSTOP)
                    break
                time.sleep(0.01)
        other = runs[1] if held is not runs[1] else runs[0]
        code_other, text_other = other.finish()
        if held is not None:
            held.signal(signal.SIGCONT)
        results = {id(r): r.finish() for r in runs}
    finally:
        for r in runs:
            r.kill()
    (code1, text1), (code2, text2) = results[id(runs[0])], results[id(runs[1])]
    one = check_run(code1, text1, who="the first run")
    two = check_run(code2, text2, who="the second run")
    event(f"first {one}, second {two}")
    assert "ran" in (one, two), "neither run made the file"
    if held is not None and start != "together":  # the first run held the lock throughout
        assert (one, two) == ("ran", "refused"), (one, two)
    assert _locks(wd) == [], "a lock was left behind"
    assert _incomplete(wd) == [], "an output was left marked incomplete"
    check_results(target, resamples)
    third = Run(cmd, wd, tmp / "third.log")
    try:
        code3, text3 = third.finish()
    finally:
        third.kill()
    assert code3 == 0, text3[-4000:]
    event(f"third {check_run(code3, text3, who='the third run')}")
    check_results(target, resamples)
