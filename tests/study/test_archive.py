"""`make archive`: the deposit tarball of the tiny configuration, checked after unpacking.

The work tree (tracked files and new ones not ignored) is committed into a fresh git
repository in a temporary directory, the pipeline runs there (`make reproduce-test`),
and `make archive ARCHIVE_CONFIG=config/test.yaml` packs it. The tarball is unpacked
elsewhere: `sha256sum -c SHA256SUMS` passes, and the unpacked tree, which has no
.git, runs the pipeline again (a dry run, then `make reproduce-test`) and knows its
commit from VERSION_INFO.json. PYTHONPATH points at each tree's src/, so that the
code that runs (and its code hash) is that tree's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from esize_study.artifact import archive as ar
from esize_study.artifact import codehash as ch

ROOT = Path(__file__).resolve().parents[2]
MAKE = ["make", f"VENV={sys.prefix}", "-o", f"{sys.prefix}/.installed"]
GIT_ID = ["-c", "user.name=test", "-c", "user.email=test@example.invalid"]



def end_to_end(test):
    """Slow; needs the tools and a git checkout to copy from."""
    for mark in (
        pytest.mark.slow,
        pytest.mark.skipif(shutil.which("git") is None or shutil.which("make") is None
                           or shutil.which("sha256sum") is None,
                           reason="needs git, make and sha256sum"),
        pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout"),
    ):
        test = mark(test)
    return test


def _git(cwd: Path, *args: str) -> str:
    res = subprocess.run(["git", *GIT_ID, *args], cwd=cwd, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def _env(tree: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "src"), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep)
    env.pop("CI", None)
    return env


def _make(tree: Path, *args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run([*MAKE, "-C", str(tree), *args], cwd=tree, env=_env(tree),
                          capture_output=True, text=True, timeout=timeout)


def _version() -> str:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_code_hash_of_sources_is_the_pipelines():
    files = {}
    for package in ar.CODE_PACKAGES:
        for p in (ROOT / package).rglob("*"):
            if p.is_file():
                files[p.relative_to(ROOT).as_posix()] = p.read_bytes()
    assert ar.code_hash_of_sources(files) == ch.code_hash()
    files["src/esize/_extra.py"] = b"x = 1\n"
    assert ar.code_hash_of_sources(files) != ch.code_hash()


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """The work tree as the one commit of a new repository, with the tiny results."""
    tree = tmp_path_factory.mktemp("checkout")
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file() and not src.is_symlink():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, tree / name)
    _git(tree, "init", "-q")
    _git(tree, "add", "-A")
    _git(tree, "commit", "-qm", "snapshot")
    res = _make(tree, "reproduce-test")
    assert res.returncode == 0, res.stderr[-3000:]
    return tree


@pytest.fixture(scope="module")
def untagged(checkout) -> subprocess.CompletedProcess:
    res = _make(checkout, "archive", "ARCHIVE_CONFIG=config/test.yaml", timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    return res


@pytest.fixture(scope="module")
def tarball(checkout, untagged) -> Path:
    """The archive rebuilt after tagging the release as the Makefile says."""
    _git(checkout, "tag", f"v{_version()}")
    res = _make(checkout, "archive", "ARCHIVE_CONFIG=config/test.yaml", timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "not tagged" not in res.stderr
    path = checkout / "dist" / f"esize-{_version()}.tar.gz"
    assert path.is_file()
    return path


@pytest.fixture(scope="module")
def unpacked(tarball, tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("unpacked")
    with tarfile.open(tarball) as tar:
        tar.extractall(where, filter="data")
    tops = list(where.iterdir())
    assert [p.name for p in tops] == [f"esize-{_version()}"]
    return tops[0]


def _sha256_check(tree: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["sha256sum", "--quiet", "-c", ar.SUMS], cwd=tree, capture_output=True,
                          text=True, timeout=300)


@end_to_end
def test_untagged_head_is_named_with_the_tag_to_make(untagged):
    assert f"git tag v{_version()}" in untagged.stderr


@end_to_end
def test_archive_holds_source_results_and_version_info(checkout, tarball):
    prefix = f"esize-{_version()}/"
    with tarfile.open(tarball) as tar:
        names = tar.getnames()
        info = json.load(tar.extractfile(prefix + "VERSION_INFO.json"))
        sums = tar.extractfile(prefix + "SHA256SUMS").read().decode()
        regular = {m.name[len(prefix):] for m in tar.getmembers() if m.isfile()}
        notebook = tar.extractfile(prefix + "results-test/notebooks/worked_examples.html")
        html = notebook.read().decode()
    # the notebook was executed before it was rendered: its outputs are in the page
    assert "95 % CI [0.1098, 1.7253]" in html and "<html" in html
    assert all(n == prefix.rstrip("/") or n.startswith(prefix) for n in names)
    assert not any("/.git/" in n or n.endswith("/.git") for n in names)
    for name in ("Snakefile", "Makefile", "LICENSE", "CITATION.cff", "config/test.yaml",
                 "tests/data/tiny-dataset", "results-test/tiny/report.md",
                 "results-test/tiny/provenance.json", "results-test/mono-style/provenance.json",
                 "results-test/notebooks/worked_examples.html", "results-test/worked_examples.json"):
        assert any(n == prefix + name or n.startswith(prefix + name + "/") for n in names), name
    # the generated stand-in data is not committed: the seed regenerates it
    assert not any(n.startswith(prefix + "data/generated-test/") for n in names)
    assert info["commit"] == _git(checkout, "rev-parse", "HEAD")
    assert (info["version"], info["tag"], info["dirty"]) == (_version(), f"v{_version()}", False)
    assert info["results_dir"] == "results-test" and info["results_match_source"] is True
    listed = {line.split("  ", 1)[1] for line in sums.splitlines()}
    assert listed == regular - {"SHA256SUMS"}


@end_to_end
def test_sha256sums_pass_after_unpacking_and_catch_a_change(unpacked, tmp_path):
    res = _sha256_check(unpacked)
    assert res.returncode == 0, res.stdout + res.stderr
    copy = tmp_path / "copy"
    shutil.copytree(unpacked, copy)
    with open(copy / "results-test" / "tiny" / "tables" / "variations.csv", "a") as fh:
        fh.write("tampered\n")
    res = _sha256_check(copy)
    assert res.returncode != 0
    assert "results-test/tiny/tables/variations.csv: FAILED" in res.stdout


@end_to_end
def test_unpacked_tree_without_git_reproduces(unpacked):
    assert not (unpacked / ".git").exists()
    res = subprocess.run(
        [sys.executable, "-m", "snakemake", "--workflow-profile", "workflow/profiles/default",
         "--configfile", "config/test.yaml", "--dry-run"],
        cwd=unpacked, env=_env(unpacked), capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    # the record of the commit is written anew from VERSION_INFO.json
    (unpacked / "results-test" / "tiny" / "provenance.json").unlink()
    res = _make(unpacked, "reproduce-test")
    assert res.returncode == 0, res.stderr[-3000:]
    info = json.loads((unpacked / "VERSION_INFO.json").read_text())
    prov = json.loads((unpacked / "results-test" / "tiny" / "provenance.json").read_text())
    assert prov["source"] == {"commit": info["commit"], "dirty": False,
                              "tag": f"v{_version()}", "from": "VERSION_INFO.json"}
    assert prov["code_hash"] == info["code_hash"]
    # the stand-in was regenerated from its seed and every number came out the same:
    # the checksums of the archived tables, claims and worked examples still hold
    res = _sha256_check(unpacked)
    failed = {line.rsplit(":", 1)[0] for line in res.stdout.splitlines()
              if line.endswith("FAILED")}
    numbers = [f for f in failed if f.endswith(".csv") or "claims_" in f
               or f.endswith("worked_examples.json")]
    assert numbers == []
    assert "results-test/tiny/provenance.json" in failed  # rewritten: it could fail


@end_to_end
def test_results_of_other_code_are_refused(checkout, tmp_path):
    clone = tmp_path / "clone"
    _git(tmp_path, "clone", "-q", str(checkout), str(clone))
    res = _make(clone, "archive", "ARCHIVE_CONFIG=config/test.yaml", timeout=300)
    assert res.returncode == 2
    assert "no results directory 'results-test'" in res.stderr
    shutil.copytree(checkout / "results-test", clone / "results-test")
    with open(clone / "src" / "esize_study" / "artifact" / "provenance.py", "a") as fh:
        fh.write("# a change after the results were made\n")
    _git(clone, "commit", "-qam", "change")
    res = _make(clone, "archive", "ARCHIVE_CONFIG=config/test.yaml", timeout=300)
    assert res.returncode == 2
    assert "do not match" in res.stderr and "--allow-stale" in res.stderr
    assert not (clone / "dist" / f"esize-{_version()}.tar.gz").exists()
    res = _make(clone, "archive", "ARCHIVE_CONFIG=config/test.yaml",
                "ARCHIVE_ARGS=--allow-stale", timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "stale results" in res.stderr
    with tarfile.open(clone / "dist" / f"esize-{_version()}.tar.gz") as tar:
        info = json.load(tar.extractfile(f"esize-{_version()}/VERSION_INFO.json"))
    assert info["results_match_source"] is False
