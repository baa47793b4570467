"""The release (`make release`, scripts/release.py): one version, every copy derived.

The release tests never touch this checkout: each runs in a throw-away clone
(`git clone` of this repository, then the work tree's files committed on top, so that
what is tested is the code as it is now, uncommitted changes included).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "release.py"
GIT_ID = ["-c", "user.name=test", "-c", "user.email=test@example.invalid"]
# --no-print-directory: under `make test` the nested make would add its "Entering
# directory" lines to the output these tests read
MAKE = ["make", "--no-print-directory", f"VENV={sys.prefix}", "-o", f"{sys.prefix}/.installed"]
NEEDS_GIT = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                               reason="needs git and a git checkout")


def _load():
    spec = importlib.util.spec_from_file_location("release_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


release = _load()


def _git(cwd: Path, *args: str) -> str:
    res = subprocess.run(["git", *GIT_ID, *args], cwd=cwd, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    return res.stdout


def _next_version() -> str:
    major, minor, _ = release.source_version(ROOT).split(".")
    return f"{major}.{int(minor) + 1}.0"


def _clone(tmp_path: Path) -> Path:
    """A clone of this repository whose HEAD holds the work tree as it is now."""
    tree = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(tree)], check=True,
                   capture_output=True)
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    deleted = subprocess.run(["git", "ls-files", "-d", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    for name in filter(None, deleted):
        (tree / name).unlink(missing_ok=True)
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file() and not src.is_symlink():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, tree / name)
    _git(tree, "config", "user.name", "test")
    _git(tree, "config", "user.email", "test@example.invalid")
    _git(tree, "add", "-A")
    if _git(tree, "status", "--porcelain").strip():
        _git(tree, "commit", "-qm", "the work tree as tested")
    return tree


def _state(tree: Path) -> dict:
    """Everything a release could change: HEAD, tags, status, every file's hash."""
    digests = {}
    for p in sorted(tree.rglob("*")):
        if p.is_file() and ".git" not in p.relative_to(tree).parts[:1]:
            digests[p.relative_to(tree).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return {"head": _git(tree, "rev-parse", "HEAD"), "tags": _git(tree, "tag", "-l"),
            "status": _git(tree, "status", "--porcelain", "--ignored"), "files": digests}


def _run(tree: Path, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    return subprocess.run([sys.executable, str(tree / "scripts" / "release.py"), *args,
                           "--root", str(tree)], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=timeout)


# -- one version ---------------------------------------------------------------------


def test_every_copy_of_the_version_agrees():
    """pyproject.toml is the source; the other copies are what `sync` writes from it."""
    assert release.check(ROOT) == []
    copies = release.version_copies(ROOT)
    assert set(copies) == {"pyproject.toml", "src/esize_study/pyproject.toml",
                           "src/esize/__init__.py", "CITATION.cff", ".zenodo.json"}
    assert set(copies.values()) == {release.source_version(ROOT)}


@pytest.mark.parametrize("name", release.COPIES[1:])
def test_a_copy_that_disagrees_is_found(tmp_path, name):
    for copy in (*release.COPIES, release.CHANGELOG):
        (tmp_path / copy).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / copy, tmp_path / copy)
    path = tmp_path / name
    version = release.source_version(ROOT)
    text = path.read_text(encoding="utf-8")
    changed = re.sub(rf"(?m)^((?:__)?version(?:__)?\s*[:=]\s*\"?){re.escape(version)}",
                     r"\g<1>9.9.9", text, count=1)
    if name.endswith(".json"):
        changed = text.replace(f'"version": "{version}"', '"version": "9.9.9"')
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    problems = release.check(tmp_path)
    assert any(p.startswith(f"{name} has version '9.9.9'") for p in problems), problems
    res = subprocess.run([sys.executable, str(SCRIPT), "check", "--root", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 1 and name in res.stderr


def test_zenodo_metadata_comes_from_the_citation():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    zen = json.loads((ROOT / ".zenodo.json").read_text(encoding="utf-8"))
    assert zen == release.zenodo_metadata(cff)
    assert zen["upload_type"] == "software" and zen["license"] == cff["license"] == "MIT"
    assert zen["title"] == cff["title"] and zen["version"] == str(cff["version"])
    assert zen["publication_date"] == str(cff["date-released"])
    assert zen["creators"] == [{"name": a["name"]} for a in cff["authors"]]
    assert zen["keywords"] == cff["keywords"]
    # the paper: cited in words; no identifier is invented where CITATION.cff has none
    assert len(zen["references"]) == 1 and "Kalibera, Tomas; Jones, Richard E. (2012)" \
        in zen["references"][0] and "Technical Report 4-12" in zen["references"][0]
    assert "related_identifiers" not in zen


def test_a_paper_with_a_doi_becomes_a_related_identifier():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    cff["references"][0]["doi"] = "10.1234/example"
    rel = release.zenodo_metadata(cff)["related_identifiers"]
    assert rel == [{"identifier": "10.1234/example", "relation": "isSupplementTo",
                    "scheme": "doi", "resource_type": "publication-report"}]


def test_released_changelog_keeps_an_empty_unreleased_on_top():
    text = "# Changelog\n\nintro\n\n## Unreleased\n\n### A\n- one\n\n## 0.2.0 (2026-11-23)\n- x\n"
    out = release.released_changelog(text, "0.3.0", "2026-12-01")
    assert re.findall(r"^## (.*)$", out, re.M) == ["Unreleased", "0.3.0 (2026-12-01)",
                                                   "0.2.0 (2026-11-23)"]
    assert "## 0.3.0 (2026-12-01)\n\n### A\n- one\n" in out
    with pytest.raises(release.ReleaseError, match="no entry"):
        release.released_changelog(out, "0.4.0", "2026-12-02")


# -- bad input: one line, status 2 -----------------------------------------------------


@NEEDS_GIT
@pytest.mark.parametrize("args, message", [
    (["release"], "no version: make release VERSION=X.Y.Z"),
    (["release", "0.3"], "is not MAJOR.MINOR.PATCH"),
    (["release", "0.0.1"], "is not above the current"),
    (["release", "9.0.0", "--date", "yesterday"], "--date 'yesterday' is not YYYY-MM-DD"),
])
def test_bad_input_is_one_line_and_status_2(args, message):
    res = subprocess.run([sys.executable, str(SCRIPT), *args, "--root", str(ROOT)],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2, res.stdout + res.stderr
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("release: error: ")
    assert message in res.stderr


# -- the dry run and the release, in clones --------------------------------------------


@NEEDS_GIT
@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_dry_run_shows_every_step_and_changes_nothing(tmp_path):
    tree = _clone(tmp_path)
    before = _state(tree)
    version = _next_version()
    res = subprocess.run([*MAKE, "release", f"VERSION={version}", "DRY_RUN=1"], cwd=tree,
                         env=dict(os.environ, PYTHONPATH=str(tree / "src")),
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    out = res.stdout
    steps = re.findall(r"^\[(\d+)/(\d+)\] (.*)$", out, re.M)
    assert [int(i) for i, _, _ in steps] == list(range(1, len(steps) + 1))
    assert len(steps) == 9 and steps[-1][1] == "9"  # ARTIFACT.md's checklist says [1/9]...[9/9]
    titles = "\n".join(t for _, _, t in steps)
    for words in ("CHANGELOG.md", "pyproject.toml", "commit the release",
                  f"annotated tag v{version}", "rerun the pipeline of config/config.yaml",
                  f"build the archive dist/esize-{version}-config.tar.gz", "SHA-256"):
        assert words in titles, words
    for command in (f"$ git tag -a --cleanup=whitespace v{version}", "$ make reproduce CONFIG=config/config.yaml",
                    "$ make archive ARCHIVE_CONFIG=config/config.yaml", "$ git commit"):
        assert command in out, command
    for name in ("CHANGELOG.md", "pyproject.toml", "src/esize_study/pyproject.toml",
                 "src/esize/__init__.py", "CITATION.cff", ".zenodo.json"):
        assert f"would change {name}:" in out, name
    assert f"+## {version} (" in out and f'+version = "{version}"' in out
    assert f'+__version__ = "{version}"' in out and f"+version: {version}" in out
    assert f'+  "version": "{version}",' in out
    assert out.rstrip().endswith("dry run: nothing changed (make release VERSION=... without "
                                 "DRY_RUN=1 does it)")
    assert _state(tree) == before  # nothing changed: files, index, HEAD, tags


@NEEDS_GIT
def test_dry_run_in_a_dirty_tree_lists_the_steps_then_refuses(tmp_path):
    tree = _clone(tmp_path)
    (tree / "README.md").write_text("changed\n")
    res = _run(tree, "release", _next_version(), "--dry-run")
    assert res.returncode == 2
    assert "[1/9]" in res.stdout and "dry run: nothing changed" in res.stdout
    assert res.stderr.count("\n") == 1 and "the work tree is not clean" in res.stderr


@NEEDS_GIT
def test_release_tags_and_sets_every_version(tmp_path):
    tree = _clone(tmp_path)
    version, date = _next_version(), "2026-12-01"
    head = _git(tree, "rev-parse", "HEAD").strip()
    before = (tree / "CHANGELOG.md").read_text(encoding="utf-8")
    entries = re.findall(r"^### .*$", before[slice(*release.unreleased(before))], re.M)
    assert entries  # the release needs entries under Unreleased
    res = _run(tree, "release", version, "--date", date, "--no-archive",
               "--archive-config", "config/test.yaml")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    # the archive steps are listed, and skipped only because of --no-archive
    for title in ("rerun the pipeline of config/test.yaml",
                  f"build the archive dist/esize-{version}-test.tar.gz",
                  f"write its SHA-256 checksum dist/esize-{version}-test.tar.gz.sha256"):
        assert re.search(rf"^\[\d/9\] {re.escape(title)}.*: skipped \(--no-archive\)$",
                         res.stdout, re.M), title
    # one commit on top, an annotated tag on it, a clean tree
    assert _git(tree, "rev-parse", "HEAD~1").strip() == head
    assert _git(tree, "log", "-1", "--format=%s").strip() == f"Release {version}"
    assert _git(tree, "cat-file", "-t", f"v{version}").strip() == "tag"  # annotated
    assert _git(tree, "rev-parse", f"v{version}^{{commit}}") == _git(tree, "rev-parse", "HEAD")
    assert _git(tree, "status", "--porcelain") == ""
    changed = set(_git(tree, "diff", "--name-only", "HEAD~1", "HEAD").split())
    assert changed == {"CHANGELOG.md", *release.COPIES}
    # CHANGELOG: the entries dated under the version, an empty Unreleased above
    changelog = (tree / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.*)$", changelog, re.M)
    assert headings[:2] == ["Unreleased", f"{version} ({date})"]
    lo, hi = release.unreleased(changelog)
    assert changelog[lo:hi].strip() == ""
    message = _git(tree, "tag", "-l", "-n99", f"v{version}")
    assert all(e in message for e in entries), (entries, message)  # the tag tells the release
    # every copy of the version, CITATION.cff's date and Zenodo's
    assert release.check(tree) == []
    assert set(release.version_copies(tree).values()) == {version}
    cff = yaml.safe_load((tree / "CITATION.cff").read_text(encoding="utf-8"))
    assert (str(cff["version"]), str(cff["date-released"])) == (version, date)
    zen = json.loads((tree / ".zenodo.json").read_text(encoding="utf-8"))
    assert (zen["version"], zen["publication_date"]) == (version, date)
    # the same version again: refused, in one line
    again = _run(tree, "release", version, "--no-archive")
    assert again.returncode == 2 and f"tag v{version} exists already" in again.stderr


def test_released_citation_is_valid_cff(tmp_path):
    """The CITATION.cff a release writes passes cffconvert (when it is installed)."""
    exe = next((str(c) for c in (Path(sys.prefix) / "cffconvert" / "bin" / "cffconvert",
                                 ROOT / ".venv" / "cffconvert" / "bin" / "cffconvert")
                if c.is_file()), shutil.which("cffconvert"))
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("cffconvert is not installed (make test installs it in .venv/cffconvert)")
        pytest.skip("cffconvert is not installed: `make test` installs it in .venv/cffconvert")
    tree = tmp_path / "t"
    for copy in (*release.COPIES, release.CHANGELOG):
        (tree / copy).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / copy, tree / copy)
    version = _next_version()
    changelog = release.released_changelog((tree / "CHANGELOG.md").read_text(), version,
                                           "2026-12-01")
    files = release.derived_files(tree, version, changelog)
    (tree / "CITATION.cff").write_text(files["CITATION.cff"], encoding="utf-8")
    res = subprocess.run([exe, "--validate", "-i", str(tree / "CITATION.cff")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
