"""`make archive`: the deposit tarball of the tiny configuration, checked after unpacking.

The work tree (tracked files and new ones not ignored) is committed into a fresh git
repository in a temporary directory, the pipeline runs there (`make reproduce-test`),
and `make archive ARCHIVE_CONFIG=config/test.yaml` packs it into
dist/esize-<version>-test.tar.gz, leaving out the regenerable intermediates
(`ARCHIVE_ARGS=--with-intermediates` keeps them). The tarball is unpacked elsewhere:
`sha256sum -c SHA256SUMS` passes, and the unpacked tree, which has no .git, runs the
pipeline again (a dry run, then `make reproduce-test`), remakes every table byte for
byte and knows its commit from VERSION_INFO.json. PYTHONPATH points at each tree's
src/, so that the code that runs (and its code hash) is that tree's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
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


def _name() -> str:
    """The tiny configuration's archive: its file name without .tar.gz, its top folder."""
    return f"esize-{_version()}-test"


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
    path = checkout / "dist" / f"{_name()}.tar.gz"
    assert path.is_file()
    return path


@pytest.fixture(scope="module")
def tagged_output(checkout, tarball) -> str:
    """What `make archive` printed for the tagged release (rebuilt: same inputs)."""
    res = _make(checkout, "archive", "ARCHIVE_CONFIG=config/test.yaml", timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout


def artifact_blocks() -> list[str]:
    """The shell blocks of ARTIFACT.md (```sh ... ```), as a reader copies them."""
    text = (ROOT / "ARTIFACT.md").read_text(encoding="utf-8")
    return re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)


def _block(first_word: str) -> str:
    """The ARTIFACT.md block starting with ``first_word``, written for the paper-scale
    tarball, as it reads for the tiny one (tests/test_artifact.py checks that every
    block is run here)."""
    block = next(b for b in artifact_blocks() if b.split()[0].startswith(first_word))
    return (block.replace("esize-<version>-<config>", _name())
            .replace("results/", "results-test/")
            .replace("make reproduce ", "make reproduce-test "))


def _run_block(cwd: Path, block: str, tree: Path) -> subprocess.CompletedProcess:
    """Run a block with bash (errors stop it); `make` uses the test's virtualenv."""
    script = (f"set -eo pipefail\nmake() {{ command make {' '.join(MAKE[1:])} \"$@\"; }}\n"
              + block)
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=_env(tree), capture_output=True,
                          text=True, timeout=900)


@pytest.fixture(scope="module")
def unpacked(tarball, tmp_path_factory) -> Path:
    """The tarball unpacked and checked with ARTIFACT.md's commands (tar, sha256sum)."""
    where = tmp_path_factory.mktemp("unpacked")
    shutil.copy2(tarball, where / tarball.name)
    res = _run_block(where, _block("tar"), where / _name())
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    lines = res.stdout.splitlines()
    assert len(lines) > 100 and all(ln.endswith(": OK") for ln in lines), lines[:20]
    (where / tarball.name).unlink()
    tops = list(where.iterdir())
    assert [p.name for p in tops] == [_name()]
    return tops[0]


def _sha256_check(tree: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["sha256sum", "--quiet", "-c", ar.SUMS], cwd=tree, capture_output=True,
                          text=True, timeout=300)


@end_to_end
def test_untagged_head_is_named_with_the_tag_to_make(untagged):
    assert f"git tag v{_version()}" in untagged.stderr


@end_to_end
def test_archive_holds_source_results_and_version_info(checkout, tarball):
    prefix = f"{_name()}/"
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
    # ARTIFACT.md's rebuild of the tables: deleted, remade from the data without the
    # intermediates left out, checked against SHA256SUMS
    tables = sorted(p for p in (unpacked / "results-test").glob("*/tables/*") if p.is_file())
    assert len(tables) > 10
    archived = {p: p.read_bytes() for p in tables}
    before = time.time()
    res = _run_block(unpacked, _block("tables="), unpacked)
    assert res.returncode == 0, res.stderr[-3000:]
    checked = [ln for ln in res.stdout.splitlines() if re.match(r"results-test/\S+/tables/\S+: ", ln)]
    assert len(checked) == len(tables) and all(ln.endswith(": OK") for ln in checked), checked
    assert all(p.stat().st_mtime >= before - 1 for p in tables)  # written anew
    assert {p: p.read_bytes() for p in tables} == archived
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
    # nothing else differs (figures included) but the files that print the record in
    # their first lines, which now name the tag and VERSION_INFO.json
    header = re.compile(r"results-test/tiny/(provenance\.json|report\.(md|html)|tables/\w+\.(md|tex))")
    assert all(header.fullmatch(f) for f in failed), sorted(failed)
    # the intermediates left out were remade by the pipeline
    assert list((unpacked / "results-test" / "tiny" / "steady").glob("*.npz"))


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
    assert not (clone / "dist" / f"{_name()}.tar.gz").exists()
    res = _make(clone, "archive", "ARCHIVE_CONFIG=config/test.yaml",
                "ARCHIVE_ARGS=--allow-stale", timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "stale results" in res.stderr
    with tarfile.open(clone / "dist" / f"{_name()}.tar.gz") as tar:
        info = json.load(tar.extractfile(f"{_name()}/VERSION_INFO.json"))
    assert info["results_match_source"] is False


def _intermediates(results: Path) -> list[str]:
    return sorted(p.relative_to(results.parent).as_posix() for p in results.rglob("*")
                  if p.is_file() and ar.is_intermediate(p.relative_to(results)))


def test_intermediate_patterns_match_one_path_part_per_star():
    assert ar.is_intermediate("mono-style/steady/fft.npz")
    assert ar.is_intermediate("tiny/sim/false_alarm_comparisons.parquet")
    assert not ar.is_intermediate("a/mono-style/steady/fft.npz")  # * is one part
    assert not ar.is_intermediate("mono-style/steady/fft.json")
    assert not ar.is_intermediate("mono-style/sim/false_alarm.csv")
    assert not ar.is_intermediate("mono-style/tables/variations.csv")


def test_archives_of_two_configurations_have_distinct_names():
    paper = ar.archive_name("1.0", ["config/config.yaml", "config/config.yaml"])
    tiny = ar.archive_name("1.0", ["config/config.yaml", "config/test.yaml"])
    assert (paper, tiny) == ("esize-1.0-config", "esize-1.0-test")
    assert ar.archive_name("1.0", ["config/config.yaml", "my runs/a b.yml"]) == "esize-1.0-a-b"


@end_to_end
def test_intermediates_are_left_out_and_listed(checkout, tarball):
    wanted = _intermediates(checkout / "results-test")
    # every pattern matches what the tiny run writes (a renamed output fails here)
    for pattern, _ in ar.INTERMEDIATES:
        assert any(ar.is_intermediate_of(Path(f).relative_to("results-test"), pattern)
                   for f in wanted), pattern
    with tarfile.open(tarball) as tar:
        names = {m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()}
        info = json.load(tar.extractfile(f"{_name()}/VERSION_INFO.json"))
        sums = tar.extractfile(f"{_name()}/SHA256SUMS").read().decode()
    assert not set(wanted) & names
    assert not any(f in sums for f in wanted)
    assert "results-test/tiny/sim/false_alarm.csv" in names  # the rest is kept
    assert info["intermediates"] == "left out"
    left = info["left_out"]
    assert sum(r["files"] for r in left.values()) == len(wanted)
    assert sum(r["bytes"] for r in left.values()) == sum(
        (checkout / f).stat().st_size for f in wanted)


@end_to_end
def test_with_intermediates_keeps_them(checkout, tarball):
    res = _make(checkout, "archive", "ARCHIVE_CONFIG=config/test.yaml",
                "ARCHIVE_ARGS=--with-intermediates --output-dir dist-full", timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    full = checkout / "dist-full" / f"{_name()}.tar.gz"
    with tarfile.open(full) as tar:
        names = {m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()}
        info = json.load(tar.extractfile(f"{_name()}/VERSION_INFO.json"))
    wanted = _intermediates(checkout / "results-test")
    assert set(wanted) <= names
    assert (info["intermediates"], info["left_out"]) == ("kept", {})
    assert full.stat().st_size > tarball.stat().st_size
    assert "intermediates: kept" in res.stdout.splitlines()
    assert not any(ln.startswith("left out:") for ln in res.stdout.splitlines())


@end_to_end
def test_size_and_what_was_left_out_are_printed(tarball, tagged_output):
    lines = [ln for ln in tagged_output.strip().splitlines() if not ln.startswith("make")]
    size = re.fullmatch(r"size: ([\d.]+) MiB \(([\d,]+) bytes\)", lines[-1])  # the last line
    assert size, lines
    assert int(size.group(2).replace(",", "")) == tarball.stat().st_size
    assert float(size.group(1)) == round(tarball.stat().st_size / 2**20, 1)
    assert any(ln.startswith(f"archive: dist/{_name()}.tar.gz") for ln in lines)
    left = next(ln for ln in lines if ln.startswith("left out: "))
    assert "ARCHIVE_ARGS=--with-intermediates" in left and "steady/*.npz" in left


@end_to_end
def test_archive_holds_bibtex_with_version_and_year(tarball):
    with tarfile.open(tarball) as tar:
        bib = tar.extractfile(f"{_name()}/CITATION.bib").read().decode()
        sums = tar.extractfile(f"{_name()}/SHA256SUMS").read().decode()
    assert re.search(r"^@software\{", bib, re.M)
    assert f"version = {{{_version()}}}" in bib
    assert re.search(r"^  year = 20\d\d,$", bib, re.M)
    assert "  CITATION.bib\n" in sums
