"""The pipeline's intermediate files (issue 43, item 7): a damaged one read by a later
job, and a full disk while a job writes its output, each end the job with one line
naming the file (exit status 1, no traceback), nothing half-written.

Reading: :func:`esize_study.datasets.files.read_json` (and ``make analyse``'s
:func:`esize_study.analysis.jobs.read_json`); writing:
:func:`esize_study.datasets.files.writing` around every atomic write of the study.
A full disk is simulated (a write raising ``ENOSPC``), never made.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import matplotlib
import pytest

from conftest import fail_writes
from esize_study.analysis import figures as afigures
from esize_study.analysis import jobs
from esize_study.artifact import provenance as pv
from esize_study.claims import claim as cl
from esize_study.datasets import files

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "workflow" / "scripts"
FULL = "no space left on device"


def _exit_line(call, *args) -> str:
    """The message of the SystemExit that ``call(*args)`` raises."""
    with pytest.raises(SystemExit) as info:
        call(*args)
    assert isinstance(info.value.code, str), info.value.code
    assert "\n" not in info.value.code
    return info.value.code


# -- reading -------------------------------------------------------------------------------
@pytest.mark.parametrize("content, problem", [
    (b"", "not valid JSON (an empty file)"),
    (b"  \n", "not valid JSON (an empty file)"),
    (b"\x00" * 64, "not valid JSON (line 1, column 1)"),
    (b'{"benchmarks": [1,\n  2', "not valid JSON (line 2, column 4)"),
    (b'{"a": "\xff"}', "not valid JSON (not UTF-8 text)"),
])
def test_a_damaged_intermediate_is_one_line_naming_it(tmp_path, content, problem):
    path = tmp_path / "results" / "x" / "estimates.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert _exit_line(files.read_json, path) == (
        f"esize: error: {path}: {problem}; delete it and rerun `make reproduce`")
    assert _exit_line(jobs.read_json, path) == (
        f"esize: error: {path}: {problem}; delete it and rerun `make analyse`")


def test_a_missing_intermediate_is_one_line_naming_it(tmp_path):
    path = tmp_path / "gone.json"
    assert _exit_line(files.read_json, path) == (
        f"esize: error: {path}: cannot read: no such file or directory; "
        "delete it and rerun `make reproduce`")


def test_the_study_reads_its_json_through_the_helper(tmp_path):
    """Provenance and claims files, and a good file, as before."""
    good = tmp_path / "good.json"
    good.write_text('{"ratio": 0.86, "rows": [1, null]}\n')
    assert files.read_json(good) == jobs.read_json(good) == {"ratio": 0.86, "rows": [1, None]}
    assert pv.read(good) == {"ratio": 0.86, "rows": [1, None]}
    bad = tmp_path / "provenance.json"
    bad.write_text('{"code_hash": ')
    assert _exit_line(pv.read, bad).startswith(f"esize: error: {bad}: not valid JSON")
    assert _exit_line(cl.read_claims, bad).startswith(f"esize: error: {bad}: not valid JSON")


def test_no_workflow_script_parses_json_itself():
    """Every intermediate JSON file a job reads goes through read_json."""
    for script in sorted(SCRIPTS.glob("*.py")):
        text = script.read_text()
        assert "json.load(" not in text and "json.loads(" not in text, script.name


def test_a_job_reading_a_garbled_file_fails_with_one_line(tmp_path):
    """analyse_figure.py (run as Snakemake runs it, a `snakemake` object given) on a
    garbled estimates.json: exit status 1, one line on stderr."""
    est = tmp_path / "results" / "x" / "analysis" / "estimates.json"
    est.parent.mkdir(parents=True)
    est.write_bytes(b"\x00" * 100)
    code = textwrap.dedent(f"""
        import runpy
        from types import SimpleNamespace as NS

        class Inp(NS):
            def keys(self):
                return list(vars(self))

        job = NS(input=Inp(estimates={str(est)!r}), output=[{str(tmp_path / "v.png")!r}],
                 params=NS(which="variance"), log=[{str(tmp_path / "job.log")!r}])
        runpy.run_path({str(SCRIPTS / "analyse_figure.py")!r}, init_globals={{"snakemake": job}})
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "MPLBACKEND": "Agg"})
    assert res.returncode == 1, res.stderr
    assert res.stderr.splitlines() == [
        f"esize: error: {est}: not valid JSON (line 1, column 1); delete it and rerun "
        "`make analyse`"], res.stderr
    assert not (tmp_path / "v.png").exists()
    assert res.stderr.strip() in (tmp_path / "job.log").read_text()  # the job's log too


# -- writing -------------------------------------------------------------------------------
@pytest.fixture
def full_disk(monkeypatch):
    """Every file the atomic writes open fills the disk at its first write."""
    fail_writes(monkeypatch, errno.ENOSPC)


@pytest.mark.parametrize("write", [
    lambda p: files.write_json(p, {"ratio": 0.86}),
    lambda p: jobs.write_json(p, {"ratio": 0.86}),
    lambda p: files.write_csv(p, [{"ratio": 0.86}]),
    lambda p: files.atomic_write_text(p, "text"),
    lambda p: jobs.atomic_write_text(p, "text"),
    lambda p: pv.write(p, {"code_hash": "x"}),
    lambda p: cl.write_claims(p, []),
])
def test_a_full_disk_is_one_line_naming_the_file(tmp_path, full_disk, write):
    path = tmp_path / "results" / "x" / "estimates.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"old": true}\n')
    line = _exit_line(write, path)
    assert line == f"esize: error: {path}: cannot write: {FULL}"
    # nothing half-written: the old content, and no temporary file left
    assert path.read_text() == '{"old": true}\n'
    assert os.listdir(path.parent) == ["estimates.json"]


def test_a_figure_on_a_full_disk_is_one_line_naming_it(tmp_path, full_disk):
    """make analyse's figures (esize.plots.save_figure, atomic for a regular file)."""
    import matplotlib.pyplot as plt

    path = tmp_path / "variance.png"
    fig = plt.figure()
    try:
        assert _exit_line(afigures.write, fig, str(path)) == (
            f"esize: error: {path}: cannot write: {FULL}")
    finally:
        plt.close(fig)
    assert os.listdir(tmp_path) == []


def test_a_job_on_a_full_disk_fails_with_one_line(tmp_path):
    """A job's process: exit status 1, one line on stderr (none about its log, on the
    same full disk), no file, no temporary."""
    out = tmp_path / "analysis" / "estimates.json"
    code = textwrap.dedent(f"""
        import errno, os
        real = os.fdopen

        class Full:
            def __init__(self, fh):
                self.fh = fh
            def __enter__(self):
                return self
            def __exit__(self, *exc):
                self.fh.close()
            def write(self, data):
                raise OSError(errno.ENOSPC, "No space left on device")

        os.fdopen = lambda fd, *a, **k: Full(real(fd, *a, **k))
        from esize_study.analysis import jobs
        log = jobs.log_to({str(tmp_path / "job.log")!r})
        log.handlers[0].stream = Full(log.handlers[0].stream)  # the log's disk is full too
        jobs.write_json({str(out)!r}, {{"benchmarks": []}})
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 1, res.stderr
    assert res.stderr.splitlines() == [f"esize: error: {out}: cannot write: {FULL}"]
    assert os.listdir(out.parent) == []


def test_a_good_write_is_unchanged(tmp_path):
    path = tmp_path / "new" / "estimates.json"
    jobs.write_json(path, {"ratio": 0.86, "nan": float("nan")})
    assert json.loads(path.read_text()) == {"ratio": 0.86, "nan": None}
    assert os.listdir(path.parent) == ["estimates.json"]
