"""The reproducibility artifact's files: licence, citation metadata, changelog, versions.

CITATION.cff is validated with cffconvert. cffconvert pins jsonschema<4, which the
workflow's configuration check cannot run with, so it lives in an environment of its
own (`make test` installs it in .venv/cffconvert); without it the validation is
skipped on a developer's machine and fails on CI.
"""

from __future__ import annotations

import os
import re
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
