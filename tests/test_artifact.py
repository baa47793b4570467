"""The reproducibility artifact's files: licence, citation metadata, changelog, versions.

CITATION.cff is validated with cffconvert. cffconvert pins jsonschema<4, which the
workflow's configuration check cannot run with, so it lives in an environment of its
own (`make test` installs it in .venv/cffconvert); without it the validation is
skipped on a developer's machine and fails on CI.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import yaml

import esize

ROOT = Path(__file__).resolve().parents[1]
PAPER = ROOT.parent / "shared" / "paper" / "effect-size-ci.tex"

MIT = """\
Permission is hereby granted, free of charge, to any person obtaining a copy of this
software and associated documentation files (the "Software"), to deal in the Software
without restriction, including without limitation the rights to use, copy, modify,
merge, publish, distribute, sublicense, and/or sell copies of the Software, and to
permit persons to whom the Software is furnished to do so, subject to the following
conditions:

The above copyright notice and this permission notice shall be included in all copies
or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A
PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT
HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR
THE USE OR OTHER DEALINGS IN THE SOFTWARE.
"""


def _words(text: str) -> list[str]:
    return text.split()


def _pyproject(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _citation() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def _cffconvert() -> str | None:
    for candidate in (Path(sys.prefix) / "cffconvert" / "bin" / "cffconvert",
                      ROOT / ".venv" / "cffconvert" / "bin" / "cffconvert"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("cffconvert")


@pytest.fixture(scope="module")
def cffconvert() -> str:
    exe = _cffconvert()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("cffconvert is not installed (make test installs it in .venv/cffconvert)")
        pytest.skip("cffconvert is not installed: `make test` installs it in .venv/cffconvert")
    return exe


def _validate(exe: str, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([exe, "--validate", "-i", str(path)], capture_output=True, text=True,
                          timeout=120)


def test_citation_cff_is_valid(cffconvert):
    res = _validate(cffconvert, ROOT / "CITATION.cff")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "valid" in res.stdout + res.stderr


def test_cffconvert_rejects_a_broken_citation(cffconvert, tmp_path):
    data = _citation()
    data["authors"] = "esize developers"  # a list of persons or entities is required
    broken = tmp_path / "CITATION.cff"
    broken.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert _validate(cffconvert, broken).returncode != 0


def test_citation_names_the_software_and_cites_the_paper():
    cff = _citation()
    assert cff["cff-version"] == "1.2.0"
    assert cff["type"] == "software"
    assert cff["license"] == "MIT"
    # no invented address: a repository URL appears only once the project has one
    assert "repository-code" not in cff and "url" not in cff
    papers = [r for r in cff.get("references", []) if r.get("type") == "report"]
    assert len(papers) == 1
    paper = papers[0]
    assert paper["title"] == "Quantifying Performance Changes with Effect Size Confidence Intervals"
    assert [a["family-names"] for a in paper["authors"]] == ["Kalibera", "Jones"]
    assert paper["institution"]["name"] == "University of Kent"
    assert (paper["number"], paper["year"]) == ("4-12", 2012)


@pytest.mark.skipif(not PAPER.is_file(), reason="the paper's source is not beside the repository")
def test_citation_title_and_authors_match_the_paper_source():
    tex = PAPER.read_text(encoding="utf-8")
    title = re.search(r"\\title\{([^}]*)\}", tex).group(1)
    paper = _citation()["references"][0]
    assert paper["title"] == title
    authors = re.search(r"\\author\{([^\\]*)", tex).group(1).upper()
    for a in paper["authors"]:
        assert f"{a['given-names'].split()[0]} {a['family-names']}".upper() in authors


def test_versions_agree_everywhere():
    version = _pyproject(ROOT / "pyproject.toml")["project"]["version"]
    assert esize.__version__ == version
    assert metadata.version("esize") == version  # the installed metadata
    assert str(_citation()["version"]) == version
    script = Path(sys.executable).parent / "esize"  # the installed command
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "esize"]
    out = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"esize {version}"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (\S+)", changelog, re.M)
    assert headings[0] == "Unreleased"
    assert version in headings  # the current version is described


def test_study_version_follows_the_package():
    """The study is released with the library under its version (CHANGELOG.md)."""
    version = _pyproject(ROOT / "pyproject.toml")["project"]["version"]
    assert _pyproject(ROOT / "src" / "esize_study" / "pyproject.toml")["project"]["version"] == version


def test_changelog_has_one_line_per_change():
    """Every entry of CHANGELOG.md is one bullet on one line; the stories behind them
    are in docs/history.md."""
    lines = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines()
    bullets = [ln for ln in lines if ln.startswith("- ")]
    assert len(bullets) > 50  # the collection works
    for number, line in enumerate(lines, 1):
        assert not line.startswith("  "), f"CHANGELOG.md:{number}: a bullet continued: {line!r}"
        if line.startswith("- "):
            assert len(line) <= 300, f"CHANGELOG.md:{number}: {len(line)} characters"


def test_licence_is_the_mit_text_and_matches_the_metadata():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "MIT License"
    assert re.fullmatch(r"Copyright \(c\) 20\d\d esize developers", lines[2])
    body = "\n".join(lines[4:])
    assert _words(body) == _words(MIT)
    assert _pyproject(ROOT / "pyproject.toml")["project"]["license"] == "MIT"
    assert _pyproject(ROOT / "src" / "esize_study" / "pyproject.toml")["project"]["license"] == "MIT"
    meta = metadata.metadata("esize")
    assert (meta.get("License-Expression") or meta.get("License")) == "MIT"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize("target", ["reproduce", "reproduce-test"])
def test_a_named_output_reaches_snakemake_as_a_target(target):
    """ARTIFACT.md's `make reproduce ARGS="results/.../variations.md"`: the output must
    not land after `--configfile`, which would read it as a configuration file."""
    out = subprocess.run(["make", "-n", target, "ARGS=results/x/tables/variations.md"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    line = next(ln for ln in out.splitlines() if "snakemake" in ln and "--configfile" in ln)
    assert line.index("results/x/tables/variations.md") < line.index("--configfile")


# -- BibTeX ---------------------------------------------------------------------------


def test_generated_bibtex_has_the_version_and_the_year_of_the_release():
    from esize_study.artifact import citation

    cff = _citation()
    version = _pyproject(ROOT / "pyproject.toml")["project"]["version"]
    # date-released is the date CHANGELOG.md gives the current version
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    dated = re.search(rf"^## {re.escape(version)} \((\d{{4}}-\d\d-\d\d)\)", changelog, re.M)
    assert dated, f"CHANGELOG.md has no dated heading for {version}"
    assert str(cff["date-released"]) == dated.group(1)
    bib = citation.bibtex_of_cff((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    software = bib.split("\n\n")[0]
    assert software.startswith("@software{")
    assert f"  version = {{{version}}},\n" in software
    assert f"  year = {dated.group(1)[:4]},\n" in software
    assert "  month = " + citation.MONTHS[int(dated.group(1)[5:7]) - 1] + ",\n" in software
    assert "  author = {{esize developers}},\n" in software  # an entity, never split
    paper = bib.split("\n\n")[1]
    assert paper.startswith("@techreport{") and "  year = 2012,\n" in paper
    assert "  author = {Kalibera, Tomas and Jones, Richard E.},\n" in paper


def test_bibtex_without_a_date_is_refused_in_one_line(tmp_path):
    cff = _citation()
    del cff["date-released"]
    bad = tmp_path / "CITATION.cff"
    bad.write_text(yaml.safe_dump(cff), encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "esize_study.artifact.citation", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == f"esize: error: {bad}: no date-released: the BibTeX entry needs its year\n"


def test_cffconvert_bibtex_has_the_year(cffconvert):
    """What the README's `cffconvert -f bibtex` prints (it has no field for the version)."""
    res = subprocess.run([cffconvert, "-f", "bibtex", "-i", str(ROOT / "CITATION.cff")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert f"year = {{{str(_citation()['date-released'])[:4]}}}" in res.stdout


# -- every command of ARTIFACT.md -----------------------------------------------------
#
# Each command ARTIFACT.md shows is run here, or its dry run: `make` targets that run
# Snakemake with --dry-run added to ARGS (the configuration check and Snakemake's plan
# run for real), other `make` targets with `make -n`; the rest by the test named in
# OTHER_COMMANDS. The shell blocks are run by tests/study/test_archive.py on the tiny
# tarball. A command added to ARTIFACT.md without a test fails here.

ARTIFACT = ROOT / "ARTIFACT.md"
SHELL_WORDS = {"make", "bash", "sh", "sha256sum", "tar", "cd", "git", "python", "snakemake",
               "rm", "pip", "cffconvert"}
#: Snakemake-running targets: dry-run through make
SNAKEMAKE_TARGETS = {"reproduce", "reproduce-test", "analyse"}
#: command -> (test file, the test function or fixture that runs it)
OTHER_COMMANDS = {
    "git archive": ("tests/study/test_archive.py", "def tarball("),
    "git tag v<version>": ("tests/study/test_archive.py", "def tarball("),
    "sha256sum -c SHA256SUMS": ("tests/study/test_archive.py", "def unpacked("),
    "python -m esize_study.artifact.citation": (
        "tests/test_artifact.py", "def test_bibtex_without_a_date_is_refused_in_one_line("),
    "bash .ci/run": ("tests/test_artifact.py", "def test_ci_runs_the_tests_then_the_cluster_test("),
}
#: the blocks (by their first word) -> the test that runs them
BLOCKS = {"tar": "def unpacked(", "tables=": "def test_unpacked_tree_without_git_reproduces("}


def _artifact_commands() -> list[str]:
    text = ARTIFACT.read_text(encoding="utf-8")
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    spans = re.findall(r"`([^`\n]+)`", prose)
    commands = [s for s in spans if " " in s and s.split()[0] in SHELL_WORDS]
    return list(dict.fromkeys(commands))


def _make_commands() -> list[list[str]]:
    return [shlex.split(c)[1:] for c in _artifact_commands() if c.startswith("make ")]


def test_artifact_md_commands_are_all_tested():
    commands = _artifact_commands()
    assert len(commands) > 10  # the collection works
    for c in commands:
        if c.startswith("make "):
            continue  # run below
        assert c in OTHER_COMMANDS, f"ARTIFACT.md shows `{c}`: no test runs it"
        path, where = OTHER_COMMANDS[c]
        assert where in (ROOT / path).read_text(encoding="utf-8"), (c, path, where)
    blocks = re.findall(r"^```sh\n(.*?)^```", ARTIFACT.read_text(encoding="utf-8"), re.S | re.M)
    assert len(blocks) == len(BLOCKS)
    archive_tests = (ROOT / "tests" / "study" / "test_archive.py").read_text(encoding="utf-8")
    for block in blocks:
        first = next(w for w in BLOCKS if block.split()[0].startswith(w))
        assert BLOCKS[first] in archive_tests and f'_block("{first}")' in archive_tests


def _make(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(["make", f"VENV={sys.prefix}", "-o", f"{sys.prefix}/.installed",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize("words", _make_commands(), ids=" ".join)
def test_artifact_md_make_command_dry_run(words):
    target = next(w for w in words if "=" not in w)
    settings = [w for w in words if "=" in w]
    if target in SNAKEMAKE_TARGETS:
        args = next((w.split("=", 1)[1] for w in settings if w.startswith("ARGS=")), "")
        others = [w for w in settings if not w.startswith("ARGS=")]
        # forced, so that the plan is the whole one whatever results exist here
        res = _make(target, *others, f"ARGS=--dry-run --nolock --forceall {args}".strip())
        assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
        assert re.search(r"^total\s+\d+$", res.stdout, re.M), res.stdout[-2000:]
        for named in args.split():  # a named output is planned as a target
            assert named in res.stdout
    else:
        res = _make("-n", target, *settings, timeout=60)
        assert res.returncode == 0, res.stderr
        assert res.stdout.strip(), f"make -n {target} would run nothing"


def test_ci_runs_the_tests_then_the_cluster_test():
    """`bash .ci/run` (not run here: it runs these tests): valid bash, `make test`
    first, then `make test-cluster`, which is skipped with a message where it cannot run."""
    script = ROOT / ".ci" / "run"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    lines = [ln.strip() for ln in script.read_text(encoding="utf-8").splitlines()]
    assert lines.index("make test") < lines.index("make test-cluster")
    assert sum("skipping make test-cluster" in ln for ln in lines) == 2
