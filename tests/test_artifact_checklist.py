"""ARTIFACT.md's opening: the ACM badge checklist, and the list of the paper's claims.

Every row of the checklist (badge | command | expected output | time) is run here, in
a throw-away clone of the work tree, and its expected output checked: the tiny
configuration for real (`make reproduce-test`, its archive and `sha256sum -c`, `make
analyse` on the example, `make artifact-claims`, the release's dry run); the
paper-scale `make reproduce` as a Snakemake dry run whose plan must name the expected
files, which the tiny run produced under `results-test/`; `make test` (this suite) as
`make -n`. Each time must be one ARTIFACT.md's "Hardware and time" or the README
states (none is measured here).

The claims list between its markers must be what `esize_study.report.claimlist`
renders from the committed snapshot `docs/artifact-claims.json`.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from esize_study.report import claimlist

ROOT = Path(__file__).resolve().parents[1]
ARTIFACT = ROOT / "ARTIFACT.md"
SNAPSHOT = ROOT / "docs" / "artifact-claims.json"
BEGIN, END = "<!-- acm-checklist: begin", "<!-- acm-checklist: end -->"
BADGES = ("Artifacts Available", "Artifacts Evaluated: Functional", "Results Reproduced")
# --no-print-directory: under `make test` the nested make would add its "Entering
# directory" lines to the output these tests read
MAKE = ["make", "--no-print-directory", f"VENV={sys.prefix}", "-o", f"{sys.prefix}/.installed"]


def _rows() -> list[dict]:
    text = ARTIFACT.read_text(encoding="utf-8")
    block = text[text.index(BEGIN):text.index(END)]
    rows = []
    for line in block.splitlines()[3:]:  # the marker, the header, the rule
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 4, line
        badge, command, expected, time = cells
        rows.append({"badge": badge, "command": re.match(r"`([^`]+)`", command).group(1),
                     "expected": re.findall(r"`([^`]+)`", expected), "time": time})
    return rows


ROWS = {r["command"]: r for r in _rows()}


def test_checklist_opens_artifact_md_and_covers_each_badge():
    text = ARTIFACT.read_text(encoding="utf-8")
    first = [ln for ln in text.splitlines() if ln.startswith("## ")][:2]
    assert first == ["## ACM badges: what to run, what it prints, how long",
                     "## The paper's claims: supported, partly, not supported"]
    assert {r["badge"] for r in ROWS.values()} == set(BADGES)
    assert [r["badge"] for r in ROWS.values()] == sorted(
        (r["badge"] for r in ROWS.values()), key=BADGES.index)  # grouped, in badge order
    for r in ROWS.values():
        assert r["command"].startswith("make ") or r["command"].startswith("sha256sum ")
        assert r["expected"], r


def test_every_time_is_one_already_stated():
    """No new measurement: each time of the checklist is in "Hardware and time" or the
    README; "not measured" where none is."""
    text = ARTIFACT.read_text(encoding="utf-8")
    stated = text[text.index("## Hardware and time"):] + (ROOT / "README.md").read_text()
    stated = " ".join(stated.split())
    for r in ROWS.values():
        if r["time"] == "not measured":
            continue
        times = re.findall(r"\d[\d.,]*(?:-\d+)? (?:s|min)\b(?: \d+(?:-\d+)? s)?", r["time"])
        assert times, r
        for t in times:
            assert t in stated, (r["command"], t)


def test_claims_block_is_rendered_from_the_committed_snapshot():
    res = subprocess.run([sys.executable, "-m", "esize_study.report.claimlist", "render",
                          str(SNAPSHOT), "--check", str(ARTIFACT)], capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    text = ARTIFACT.read_text(encoding="utf-8")
    block = text[text.index(claimlist.BEGIN):text.index(claimlist.END) + len(claimlist.END)]
    assert block + "\n" == claimlist.render(__import__("json").loads(SNAPSHOT.read_text()))
    assert len(block.splitlines()) <= 30  # one screen
    for word in ("**supported**", "**partly**", "**not supported**"):
        assert word in block


def test_claims_check_fails_on_a_changed_block(tmp_path):
    changed = tmp_path / "ARTIFACT.md"
    changed.write_text(ARTIFACT.read_text().replace("**supported** (", "**supported**  (", 1))
    res = subprocess.run([sys.executable, "-m", "esize_study.report.claimlist", "render",
                          str(SNAPSHOT), "--check", str(changed)], capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 1 and "make artifact-claims" in res.stderr


# -- every command, run -----------------------------------------------------------------


def _env(tree: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    env.pop("CI", None)
    return env


def _make(tree: Path, *args: str, timeout: int = 1200) -> subprocess.CompletedProcess:
    return subprocess.run([*MAKE, *args], cwd=tree, env=_env(tree), capture_output=True,
                          text=True, timeout=timeout)


def _words(command: str) -> list[str]:
    return shlex.split(command)[1:]


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A clone of the work tree (tests/test_release.py) with the tiny pipeline run in it."""
    from test_release import NEEDS_GIT, _clone  # noqa: F401  (the same clone)

    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    where = tmp_path_factory.mktemp("checklist")
    tree = _clone(where)
    res = _make(tree, *_words("make reproduce-test"))
    assert res.returncode == 0, res.stderr[-3000:]
    (where / "reproduce-test.log").write_text(res.stdout + res.stderr)  # outside the tree
    return tree


@pytest.mark.slow
def test_reproduce_test_row(tree):
    r = ROWS["make reproduce-test"]
    log = (tree.parent / "reproduce-test.log").read_text()
    assert r["expected"][0] == "results-test/mono-style/report.md"
    assert (tree / r["expected"][0]).is_file()
    assert (tree / "results-test/mono-style" / r["expected"][1]).is_file()  # report.html
    assert r["expected"][2] in log  # "steps (100%) done"


@pytest.mark.slow
def test_archive_and_sha256sum_rows(tree, tmp_path):
    """`make archive` with the tiny configuration (the row's second time), then the
    `sha256sum -c SHA256SUMS` row in the unpacked tarball."""
    r = ROWS["make archive"]
    assert "ARCHIVE_CONFIG=config/test.yaml" in r["time"]
    res = _make(tree, *_words("make archive"), "ARCHIVE_CONFIG=config/test.yaml", timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    version = __import__("tomllib").loads((tree / "pyproject.toml").read_text())["project"][
        "version"]
    name = r["expected"][0].replace("<version>", version).replace("-config.", "-test.")
    assert (tree / name).is_file()
    lines = res.stdout.strip().splitlines()
    for start in r["expected"][1:]:  # "archive: ...", "check after unpacking: ...", "size: ..."
        assert any(ln.startswith(start.removesuffix("...")) for ln in lines), (start, lines)
    assert lines[-1].startswith(r["expected"][-1].removesuffix("..."))
    with tarfile.open(tree / name) as tar:
        tar.extractall(tmp_path, filter="tar")
    top = tmp_path / Path(name).name.removesuffix(".tar.gz")
    s = ROWS["sha256sum -c SHA256SUMS"]
    res = subprocess.run(shlex.split(s["command"]), cwd=top, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    lines = res.stdout.splitlines()
    assert s["expected"] == ["OK"] and lines and all(ln.endswith(": OK") for ln in lines)


@pytest.mark.slow
def test_analyse_row(tree):
    r = ROWS["make analyse CONFIG=examples/analyse/config.yaml"]
    res = _make(tree, *_words(r["command"]), timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    assert (tree / r["expected"][0]).is_file()


@pytest.mark.slow
def test_release_dry_run_row(tree):
    from test_release import _next_version

    r = ROWS["make release VERSION=<version> DRY_RUN=1"]
    before = subprocess.run(["git", "status", "--porcelain"], cwd=tree, capture_output=True,
                            text=True).stdout
    words = [w.replace("<version>", _next_version()) for w in _words(r["command"])]
    res = _make(tree, *words, timeout=300)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    for fragment in r["expected"]:
        assert fragment in res.stdout, fragment
    assert subprocess.run(["git", "status", "--porcelain"], cwd=tree, capture_output=True,
                          text=True).stdout == before


@pytest.mark.slow
def test_artifact_claims_row(tree):
    """`make artifact-claims` on the tiny run rewrites the block from its claim rows."""
    r = ROWS["make artifact-claims"]
    assert r["expected"] == ["results/"]
    res = _make(tree, *_words(r["command"]), "CLAIMS_RESULTS=results-test", timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "wrote docs/artifact-claims.json" in res.stdout
    text = (tree / "ARTIFACT.md").read_text()
    snap = __import__("json").loads((tree / "docs/artifact-claims.json").read_text())
    assert snap["results_dir"] == "results-test"
    assert claimlist.render(snap) in text
    assert "Generated from the claim rows of `results-test/`" in text
    # back as committed, so that the tree stays clean for the other rows
    subprocess.run(["git", "checkout", "-q", "--", "ARTIFACT.md", "docs/artifact-claims.json"],
                   cwd=tree, check=True)


@pytest.mark.slow
def test_reproduce_row_plans_what_the_tiny_run_made(tree):
    """`make reproduce` (paper scale, not run here): its dry run plans the expected files,
    and the tiny run made the same files under results-test/."""
    r = ROWS["make reproduce"]
    res = _make(tree, "reproduce", "ARGS=--dry-run --forceall --nolock", timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    planned = set(re.findall(r"^\s+output: (.*)$", res.stdout, re.M))
    planned = {p.strip() for line in planned for p in line.split(",")}
    for name in r["expected"]:
        assert name.startswith("results/") and name in planned, name
        assert (tree / name.replace("results/", "results-test/", 1)).is_file(), name


def test_reproduce_refined_row_plans_the_same_files_with_more_cells(tree):
    """`make reproduce-refined` (paper scale, not run here): its dry run checks
    config/refine-wide.yaml and plans the files of `make reproduce`."""
    r = ROWS["make reproduce-refined"]
    res = _make(tree, "reproduce-refined", "ARGS=--dry-run --forceall --nolock", timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "refine-wide.yaml" in res.stdout
    planned = set(re.findall(r"^\s+output: (.*)$", res.stdout, re.M))
    planned = {p.strip() for line in planned for p in line.split(",")}
    for name in r["expected"]:
        assert name in planned, name
        assert name in ROWS["make reproduce"]["expected"], name


def test_make_test_row():
    """`make test` is this suite: its recipe runs pytest (dry run only)."""
    r = ROWS["make test"]
    res = subprocess.run([*MAKE, "-n", "test"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0 and "-m pytest" in res.stdout, res.stderr
    assert r["expected"] == ["passed", "failed"]


def test_every_row_is_run_here():
    tests = (Path(__file__)).read_text(encoding="utf-8")
    for command in ROWS:
        assert f'ROWS["{command}"]' in tests, f"ARTIFACT.md's checklist: no test runs `{command}`"


def test_snapshot_reads_the_reports_claims_json(tmp_path):
    """Where the report wrote its rows (claims.json), the list is made from them alone."""
    import json

    from esize_study.claims import claim as cl

    d = tmp_path / "results" / "mine"
    d.mkdir(parents=True)
    (d / "provenance.json").write_text(json.dumps({
        "project": {"version": "9.9.9"}, "source": {"commit": "a" * 40, "dirty": False},
        "code_hash": "c0de", "config_hash": "f" * 64, "seeds": {"datasets": {}},
        "created": "2026-12-01T00:00:00+00:00"}))
    rows = [cl.Claim("fa.x", "fFAFFT", "s", "p", "o", "r", cl.AGREE),
            cl.Claim("fa.y", "fFAFFT", "s", "p", "o", "r", cl.DISAGREE),
            cl.Claim("cov.z", "fCOV", "s", "p", "o", "r", cl.UNDECIDED),
            cl.Claim("dimensioning.a", "sDimensioning", "s", "p", "o", "r", cl.AGREE),
            cl.Claim("ctx", "all", "s", "p", "o", "r", cl.DISAGREE, role=cl.CONTEXT)]
    cl.write_claims(d / "claims.json", rows)
    snap = claimlist.snapshot(tmp_path / "results")
    assert [r["id"] for r in snap["datasets"]["mine"]["rows"]] == [c.id for c in rows]
    block = claimlist.render(snap)
    assert "| Figure fFAFFT | **partly** (1/2, 1x) |" in block
    assert "| Figure fCOV | undecided (1) |" in block
    assert "| Section sDimensioning | **supported** (1/1) |" in block
    assert "ctx" not in block and "| all |" not in block  # context rows are not claims
    assert "version 9.9.9, commit aaaaaaaaaaaa, code c0de" in block
    assert "tiny configuration" not in block  # results/: the paper scale
    with pytest.raises(Exception, match="no claim rows of other"):
        claimlist.snapshot(tmp_path / "results", ["other"])
