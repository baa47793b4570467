"""The CI examples (``examples/ci/``) run here as far as they can without a CI service.

Each test builds a throw-away git repository in a temporary directory holding the
example's benchmark (``examples/ci/workload.py``) in two commits, the base and the
head of a pull (merge) request, and runs the shell commands of the CI
file in order, as the service would, with its variables set: the checkout directory,
a temporary directory for ``RUNNER_TEMP`` and a file for ``GITHUB_STEP_SUMMARY``, the
base commit, the request's number. What cannot run here is named and left out:

* the steps that check out the code and set up Python (``uses:``): the temporary
  repository is the checkout, and this environment's ``esize`` and ``python`` are
  first on PATH;
* the installation of esize (it is installed here; it needs the network);
* the calls to the service's API, ``gh`` and ``curl``: stand-ins on PATH record their
  arguments and the comment's body instead.

``BENCH_ROUNDS`` makes the benchmark shorter than in CI (6 rounds of ``esize run``
instead of 15). The head commit either adds a 0.1 s sleep to the workload (the request makes it
slower: the gate must fail, the summary still be posted) or the base has it (the
request makes it faster: the gate passes). A sleep, rather than more computation,
keeps the verdict certain on a busy machine, where load can make a short computation
take several times as long.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]
CI = ROOT / "examples" / "ci"
BIN = Path(sys.executable).parent
GIT = ["git", "-c", "user.name=esize test", "-c", "user.email=test@example.org",
       "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("git") is None or shutil.which("bash") is None,
                       reason="the CI examples need git and bash (CI installs them)"),
]

#: GitHub steps left out (what they do is done here already, or needs root/network).
GITHUB_SKIPPED = {"Install esize"}
GITHUB_ACTIONS = {"actions/checkout", "actions/setup-python"}
#: GitLab before_script lines left out, all installations.
GITLAB_SKIPPED = ["python -m pip install ."]

#: Rounds of esize run (BENCH_ROUNDS; 15 in CI): enough for a 0.1 s change.
ROUNDS = "6"
SLEEP = "    import time\n\n    time.sleep(0.1)  # the change under test\n"
MAIN = 'if __name__ == "__main__":\n'

#: A stand-in for gh and curl: records its arguments and the body it would post.
STUB = f"""#!{sys.executable}
import json, os, sys
args = sys.argv[1:]
body = None
for k, a in enumerate(args):
    if a == "--body-file":
        body = open(args[k + 1], encoding="utf-8").read()
    elif a.startswith("body@"):
        body = open(a[5:], encoding="utf-8").read()
with open(os.environ["STUB_LOG"], "a", encoding="utf-8") as fh:
    fh.write(json.dumps({{"program": os.path.basename(sys.argv[0]), "args": args,
                         "body": body}}) + "\\n")
"""


def _git(repo: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True,
                          text=True, timeout=60).stdout.strip()


def _repository(tmp_path: Path, change: str) -> tuple[Path, str]:
    """A repository whose HEAD makes the workload ``slower`` or ``faster`` than its
    parent, the base; returns its path and the base commit."""
    repo = tmp_path / "repo"
    (repo / "examples" / "ci").mkdir(parents=True)
    plain = (CI / "workload.py").read_text()
    assert plain.count(MAIN) == 1
    slow = plain.replace(MAIN, MAIN + SLEEP)
    base, head = (plain, slow) if change == "slower" else (slow, plain)
    workload = repo / "examples" / "ci" / "workload.py"
    _git(tmp_path, "init", "-q", str(repo))
    workload.write_text(base)
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "base")
    sha = _git(repo, "rev-parse", "HEAD")
    workload.write_text(head)
    _git(repo, "commit", "-q", "-am", "the change")
    return repo, sha


def _environment(tmp_path: Path, **extra: str) -> dict:
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for name in ("gh", "curl"):
        (stubs / name).write_text(STUB)
        (stubs / name).chmod(0o755)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, PATH=os.pathsep.join([str(stubs), str(BIN), os.environ["PATH"]]),
               STUB_LOG=str(tmp_path / "stub.log"), TMPDIR=str(tmp), NO_COLOR="1",
               BENCH_ROUNDS=ROUNDS)
    env.update(extra)
    return env


def _stub_calls(tmp_path: Path) -> list[dict]:
    log = tmp_path / "stub.log"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def _bash(script: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _check_summary(md: str, change: str) -> None:
    """The posted summary is a GFM table of both benchmarks with the right verdicts,
    measured in rounds (no drift note) and saying so."""
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    assert [t.type for t in tokens].count("table_open") == 1
    heading = next(tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open")
    slower, faster = (2, 0) if change == "slower" else (0, 2)
    assert heading == f"{slower} slower, {faster} faster, 0 unchanged, 0 inconclusive (threshold 2 %)"
    cells = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "td_open"
             and tokens[i + 1].type == "inline"]
    assert "sort" in cells and "primes" in cells and "*geometric mean*" in cells
    assert "Drift:" not in md and "Order: rounds shuffled with seed 1" in md


# -- GitHub Actions -------------------------------------------------------------------------
def _expression_env(step_env: dict, values: dict) -> dict:
    out = {}
    for key, value in (step_env or {}).items():
        value = str(value)
        if value.startswith("${{"):
            expression = value.removeprefix("${{").removesuffix("}}").strip()
            assert expression in values, f"the test does not know {expression!r}"
            value = values[expression]
        out[key] = value
    return out


@pytest.mark.parametrize("change", ["slower", "faster"])
def test_github_actions_example_runs(tmp_path, change):
    workflow = yaml.safe_load((CI / "github-actions.yml").read_text())
    assert workflow[True] == {"pull_request": None}  # `on:` (YAML 1.1 reads it as true)
    [job] = workflow["jobs"].values()
    repo, base = _repository(tmp_path, change)
    runner_temp = tmp_path / "runner"
    runner_temp.mkdir()
    step_summary = tmp_path / "step-summary.md"
    step_summary.write_text("")
    env = _environment(tmp_path, RUNNER_TEMP=str(runner_temp), GITHUB_WORKSPACE=str(repo),
                       GITHUB_STEP_SUMMARY=str(step_summary), GITHUB_ACTIONS="true")
    values = {"github.event.pull_request.base.sha": base, "github.token": "a-test-token",
              "github.event.pull_request.number": "17"}
    failed, ran, skipped = False, {}, set()
    for step in job["steps"]:
        if "uses" in step:
            assert step["uses"].split("@")[0] in GITHUB_ACTIONS, step["uses"]
            continue
        if step["name"] in GITHUB_SKIPPED:
            skipped.add(step["name"])
            continue
        condition = step.get("if")
        assert condition in (None, "${{ !cancelled() }}"), condition
        if condition is None and failed:
            continue  # GitHub's default: run only while everything before succeeded
        assert "${{" not in step["run"], "expressions belong in env:, not in the script"
        proc = _bash(step["run"], repo, {**env, **_expression_env(step.get("env"), values)})
        ran[step["name"]] = proc
        if proc.returncode and not step.get("continue-on-error"):
            failed = True
    assert skipped == GITHUB_SKIPPED
    gate_step = "Benchmark the base and the pull request, interleaved; fail if slower"
    assert list(ran) == [gate_step, "Job summary", "Comment on the pull request"]
    gate = ran.pop(gate_step)
    for name, proc in ran.items():
        assert proc.returncode == 0, (name, proc.stderr)
    summary = (runner_temp / "summary.md").read_text()
    _check_summary(summary, change)
    assert step_summary.read_text() == summary
    [call] = _stub_calls(tmp_path)
    assert call["program"] == "gh" and call["args"][:3] == ["pr", "comment", "17"]
    assert call["body"] == summary
    if change == "slower":
        assert gate.returncode == 1 and failed
        lines = gate.stderr.strip().splitlines()
        assert lines[-1].startswith("esize: --fail-on slower: 2 of 2 benchmarks and the "
                                    "geometric mean: ")
        assert "sort slower, ratio" in lines[-1] and "primes slower, ratio" in lines[-1]
    else:
        assert gate.returncode == 0 and not failed, gate.stderr
        assert "--fail-on" not in gate.stderr


# -- GitLab CI --------------------------------------------------------------------------------
@pytest.mark.parametrize("change", ["slower", "faster"])
def test_gitlab_ci_example_runs(tmp_path, change):
    config = yaml.safe_load((CI / "gitlab-ci.yml").read_text())
    [(_, job)] = config.items()
    assert job["rules"] == [{"if": '$CI_PIPELINE_SOURCE == "merge_request_event"'}]
    assert job["before_script"] == GITLAB_SKIPPED
    assert job["artifacts"]["paths"] == ["summary.md", "bench.csv"] and job["artifacts"]["when"] == "always"
    repo, base = _repository(tmp_path, change)
    env = _environment(tmp_path, CI_PROJECT_DIR=str(repo), CI_MERGE_REQUEST_DIFF_BASE_SHA=base,
                       CI_API_V4_URL="https://gitlab.example.org/api/v4", CI_PROJECT_ID="42",
                       CI_MERGE_REQUEST_IID="17", ESIZE_NOTE_TOKEN="a-test-token",
                       CI_PIPELINE_SOURCE="merge_request_event", GITLAB_CI="true",
                       **{k: str(v) for k, v in job.get("variables", {}).items()})
    # GitLab runs the lines of `script` one after the other in one shell
    proc = _bash("\n".join(job["script"]), repo, env)
    summary = (repo / "summary.md").read_text()  # the artifact
    _check_summary(summary, change)
    assert (repo / "bench.csv").read_text().startswith("benchmark,system,round,process,time")
    [call] = _stub_calls(tmp_path)
    assert call["program"] == "curl"
    assert call["args"][-1] == "https://gitlab.example.org/api/v4/projects/42/merge_requests/17/notes"
    assert "PRIVATE-TOKEN: a-test-token" in call["args"]
    assert call["body"] == summary
    if change == "slower":
        assert proc.returncode == 1, proc.stderr
        assert "esize: --fail-on slower: 2 of 2 benchmarks" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
