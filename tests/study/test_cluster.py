"""The pipeline on a real SLURM cluster gives the local run's files, byte for byte.

Runs `make test-cluster` (workflow/cluster/test-cluster.sh): a single-node SLURM on
this machine (workflow/cluster/local-slurm.sh, started as root), `make
reproduce-test` through workflow/profiles/slurm with every job submitted by sbatch
and seen COMPLETED by sacct, and a comparison with a local run. Where a cluster is
already reachable but cannot be started here (not root), the same script runs
against it with --no-start. Skipped, with the reason, where SLURM or the executor
plugin (the `cluster` extra of esize-study) is missing, and under make: `make test`
stays free of it (set ESIZE_TEST_CLUSTER=1 to run it there too).
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
