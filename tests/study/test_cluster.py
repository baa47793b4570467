"""The pipeline on a real SLURM cluster gives the local run's files, byte for byte.

Runs `make test-cluster` (workflow/cluster/test-cluster.sh): a single-node SLURM on
this machine (workflow/cluster/local-slurm.sh, started as root), `make
reproduce-test` through workflow/profiles/slurm with every job submitted by sbatch
and seen COMPLETED by sacct, and a comparison with a local run. Where a cluster is
already reachable but cannot be started here (not root), the same script runs
against it with --no-start. Skipped, with the reason, where SLURM or the executor
plugin (the `cluster` extra of esize-study) is missing, and under make: `make test`
stays free of it (set ESIZE_TEST_CLUSTER=1 to run it there too); `.ci/run` runs
`make test-cluster` after `make test`.

The scratch copies the script runs in are checked everywhere, without SLURM: one
(`test-cluster.sh --copy-only`) must hold every file the tiny run reads, as Snakemake
lists them for config/test.yaml, and plan the same jobs as the whole work tree.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "workflow" / "cluster" / "test-cluster.sh"
DAEMONS = ("slurmctld", "slurmd", "slurmdbd", "munged", "mariadbd")
SNAKEMAKE = [sys.executable, "-m", "snakemake", "--workflow-profile", "workflow/profiles/default",
             "--configfile", "config/test.yaml", "--nolock"]


def _on_path(name: str) -> bool:
    return shutil.which(name, path=os.environ.get("PATH", "") + os.pathsep + "/usr/sbin") is not None


def _reachable() -> bool:
    try:
        return subprocess.run(["sinfo", "-h"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _how() -> tuple[list[str] | None, str]:
    """The command to run, or None and why not."""
    if shutil.which("sbatch") is None:
        return None, "sbatch is not on PATH (workflow/cluster/local-slurm.sh install sets up SLURM)"
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return None, "the SLURM executor plugin is not installed (pip install -e 'src/esize_study[cluster]')"
    if shutil.which("make") is None:
        return None, "needs make"
    if os.environ.get("MAKELEVEL") and os.environ.get("ESIZE_TEST_CLUSTER") != "1":
        return None, ("run by make (make test): the SLURM test takes minutes and starts root "
                      "daemons, so it is left to `make test-cluster` or a direct pytest run "
                      "(ESIZE_TEST_CLUSTER=1 runs it here)")
    startable = os.geteuid() == 0 and all(_on_path(d) for d in DAEMONS)
    if startable:
        return ["make", "-C", str(ROOT), f"VENV={sys.prefix}", "-o", f"{sys.prefix}/.installed",
                "test-cluster"], ""
    if _reachable():
        return ["bash", str(SCRIPT), "--no-start"], ""
    return None, ("no SLURM cluster answers (sinfo) and the local one cannot be started here "
                  "(needs root and slurmctld, slurmd, slurmdbd, munged, mariadbd)")


@pytest.mark.slow
def test_slurm_run_is_byte_identical_to_the_local_run():
    command, reason = _how()
    if command is None:
        pytest.skip(reason)
    res = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=3600,
                         env={**os.environ, "VENV": sys.prefix})
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-4000:]
    assert "test-cluster: PASSED" in out
    submitted = re.search(r"(\d+) of (\d+) jobs submitted with sbatch, all COMPLETED in sacct", out)
    assert submitted, out[-4000:]
    assert int(submitted.group(1)) == int(submitted.group(2)) - 1 > 20
    summary = re.search(r"compare: (\d+) files in .*?: (\d+) byte-identical, (\d+) identical "
                        r"but for their date of writing, (\d+) differences", out)
    assert summary, out[-4000:]
    files, identical, dated, differences = map(int, summary.groups())
    assert differences == 0 and files == identical + dated and identical > 50


# -- the scratch copy ----------------------------------------------------------------


def _snakemake(cwd: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    res = subprocess.run([*SNAKEMAKE, *args], cwd=cwd, capture_output=True, text=True,
                         timeout=600, env=env)
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """One side of test-cluster.sh's scratch directory, as the script makes it."""
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    dest = tmp_path_factory.mktemp("scratch") / "local"
    res = subprocess.run(["bash", str(SCRIPT), "--copy-only", str(dest)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "VENV": sys.prefix})
    assert res.returncode == 0, res.stderr
    return dest


def _read_by_the_tiny_run() -> set[str]:
    """Files the run of config/test.yaml reads and no job writes: every input of every
    job a forced dry run plans (its ``input:`` lines, whatever exists already), less
    the outputs of jobs, plus the scripts and environments the rules name (found in
    the included rule files)."""
    plan = _snakemake(ROOT, "--dry-run", "--forceall")

    def files(key: str) -> set[str]:
        return {f.strip() for m in re.finditer(rf"^\s+{key}: (.*)$", plan, re.M)
                for f in m.group(1).split(",") if f.strip()}

    outputs = files("output")
    assert outputs, plan[:500]
    read = files("input") - outputs
    for smk in (ROOT / "workflow" / "rules").glob("*.smk"):
        for ref in re.findall(r"^\s*(?:script|conda):\s*\n?\s*\"([^\"]+)\"", smk.read_text(), re.M):
            read.add((smk.parent / ref).resolve().relative_to(ROOT).as_posix())
    return read


def test_scratch_copy_holds_every_file_the_tiny_run_reads(scratch):
    read = _read_by_the_tiny_run()
    # what config/test.yaml names now: its datasets' raw files and costs, the notebook
    assert any(f.startswith("data/measured-x86_64-sample/") for f in read)
    assert any(f.startswith("tests/data/tiny-dataset/") for f in read)
    assert any(f.startswith("notebooks/") and f.endswith(".ipynb") for f in read)
    assert any(f.startswith("workflow/scripts/") for f in read)
    missing = sorted(f for f in read if not (scratch / f).is_file())
    assert missing == [], f"test-cluster.sh's scratch copy lacks {missing}"
    # the stand-ins are generated by each run, never copied
    assert not (scratch / "data" / "generated-test").exists()
    assert not (scratch / "data" / "generated").exists()


def _planned(out: str) -> dict[str, int]:
    stats = out[out.index("Job stats:"):]
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^(\w+)\s+(\d+)$", stats, re.M) if m.group(1) != "total"}


def test_scratch_copy_plans_the_same_jobs_as_the_work_tree(scratch):
    """A dry run in the copy parses (configuration, costs files, includes) and plans
    every job a forced run of the work tree plans: a rule that exists only when its
    inputs do (the notebooks') cannot silently drop out of the SLURM test."""
    full = _planned(_snakemake(ROOT, "--dry-run", "--forceall", "--quiet", "rules"))
    copy = _planned(_snakemake(scratch, "--dry-run", "--quiet", "rules"))
    assert copy == full
    assert "notebook_html" in copy and "known_effect_simulate" in copy
