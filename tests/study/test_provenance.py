"""Provenance of results: hashes, seeds, source state (git or archive), header block."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

import esize
from esize_study.artifact import codehash as ch
from esize_study.artifact import provenance as pv
from esize_study.datasets import config as dconf

ROOT = Path(__file__).resolve().parents[2]
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture(scope="module")
def test_config() -> dict:
    return dconf.load_config_file(ROOT / "config" / "test.yaml")


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=cwd, check=True, capture_output=True, text=True,
    ).stdout.strip()


def test_config_hash_is_canonical_and_sensitive():
    a = {"x": 1, "y": {"b": [1, 2], "a": "z"}}
    b = {"y": {"a": "z", "b": [1, 2]}, "x": 1}  # other key order, same configuration
    assert pv.config_hash(a) == pv.config_hash(b)
    assert len(pv.config_hash(a)) == 64
    assert pv.config_hash(a) != pv.config_hash({**a, "x": 2})
    assert pv.config_hash(a) != pv.config_hash({"x": 1, "y": {"b": [2, 1], "a": "z"}})


def test_seeds_of_the_test_configuration(test_config):
    # the tiny directory dataset has data, not a seed
    assert pv.seeds(test_config) == {"false_alarm": 1, "coverage": 3,
                                     "datasets": {"mono-style": 7}}


def test_seeds_of_a_standin_without_its_own_seed_is_the_default():
    config = {"datasets": {"s": {"kind": "standin"}, "d": {"kind": "directory", "path": "x"}}}
    assert pv.seeds(config) == {"datasets": {"s": 20121105}}  # the schema's default


@needs_git
def test_git_state_clean_dirty_and_tagged(tmp_path):
    _git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    _git(tmp_path, "add", "a.py")
    _git(tmp_path, "commit", "-qm", "one")
    head = _git(tmp_path, "rev-parse", "HEAD")
    state = pv.git_state(tmp_path)
    assert state == {"commit": head, "dirty": False, "tag": None, "from": "git"}
    _git(tmp_path, "tag", "v9.9.9")
    assert pv.git_state(tmp_path)["tag"] == "v9.9.9"
    (tmp_path / "new.py").write_text("y = 2\n")  # an untracked module is a change too
    assert pv.git_state(tmp_path)["dirty"] is True
    (tmp_path / "new.py").unlink()
    (tmp_path / "a.py").write_text("x = 2\n")
    assert pv.git_state(tmp_path)["dirty"] is True


def test_without_git_the_archive_version_info_is_read(tmp_path):
    assert pv.git_state(tmp_path) is None
    assert pv.source_state(tmp_path) == {"commit": None, "dirty": None, "tag": None,
                                         "from": None}
    info = {"commit": "ab" * 20, "dirty": False, "tag": "v0.2.0", "version": "0.2.0"}
    (tmp_path / pv.VERSION_INFO).write_text(json.dumps(info))
    assert pv.source_state(tmp_path) == {"commit": "ab" * 20, "dirty": False,
                                         "tag": "v0.2.0", "from": "VERSION_INFO.json"}
    (tmp_path / pv.VERSION_INFO).write_text("not json")
    assert pv.source_state(tmp_path)["commit"] is None


def test_collect_records_versions_hashes_and_machine(test_config, tmp_path):
    prov = pv.collect(test_config, root=tmp_path)
    assert prov["project"] == {"name": "esize", "version": esize.__version__}
    assert prov["versions"]["esize"] == metadata.version("esize") == esize.__version__
    for name in ("numpy", "scipy", "pandas", "snakemake"):
        assert prov["versions"][name] == metadata.version(name)
    assert prov["code_hash"] == ch.code_hash()
    assert prov["config_hash"] == pv.config_hash(test_config)
    assert prov["seeds"]["coverage"] == 3
    m = prov["machine"]
    assert m["cores"] == os.cpu_count()
    assert m["cpu"] and m["cpu"] != "unknown"
    assert m["memory_bytes"] is None or m["memory_bytes"] > 2**20
    json.dumps(prov, allow_nan=False)  # JSON as it is


@needs_git
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_collect_in_this_checkout_names_its_commit(test_config):
    prov = pv.collect(test_config, root=ROOT)
    assert prov["source"]["commit"] == _git(ROOT, "rev-parse", "HEAD")
    assert prov["source"]["dirty"] in (True, False)


def _prov(dirty) -> dict:
    return {
        "project": {"name": "esize", "version": "0.2.0"},
        "source": {"commit": "0123456789abcdef" * 2 + "01234567", "dirty": dirty, "tag": None,
                   "from": "git"},
        "code_hash": "feedfacecafebeef",
        "config_hash": "c" * 64,
        "seeds": {"false_alarm": 1, "coverage": 3, "datasets": {"mono-style": 7}},
        "versions": {"python": "3.11.7", "numpy": "2.4.6", "scipy": "1.17.1",
                     "pandas": "3.1.1", "snakemake": "9.27.1"},
        "machine": {"cores": 2, "cpu": "Some CPU", "memory_bytes": 8 * 2**30, "os": "Linux",
                    "kernel": "6.1"},
    }


def test_header_markdown_names_everything_in_a_short_quotation():
    text = pv.header_markdown(_prov(dirty=True))
    lines = text.rstrip("\n").splitlines()
    assert 3 <= len(lines) <= 6
    assert all(line.startswith("> ") for line in lines)
    for needle in ("esize 0.2.0", "commit `0123456789ab`", "with uncommitted changes",
                   "code hash `feedfacecafebeef`", "config hash `cccccccccccccccc`",
                   "false_alarm 1", "coverage 3", "mono-style 7", "Python 3.11.7",
                   "numpy 2.4.6", "scipy 1.17.1", "snakemake 9.27.1", "2 cores", "Some CPU",
                   "8.0 GiB"):
        assert needle in text, needle
    assert "uncommitted" not in pv.header_markdown(_prov(dirty=False))
    assert ", clean" in pv.header_markdown(_prov(dirty=False))


def test_header_without_a_known_commit_says_so():
    prov = _prov(dirty=None)
    prov["source"] = {"commit": None, "dirty": None, "tag": None, "from": None}
    assert "commit unknown" in pv.header_markdown(prov)


def test_header_comment_for_latex():
    text = pv.header_comment(_prov(dirty=False))
    assert all(line.startswith("% ") for line in text.splitlines())
    assert "feedfacecafebeef" in text


def test_write_is_atomic_and_read_back(tmp_path):
    prov = _prov(dirty=False)
    path = tmp_path / "d" / "provenance.json"
    pv.write(path, prov)
    assert pv.read(path) == prov
    assert [p.name for p in path.parent.iterdir()] == ["provenance.json"]  # no temporary left
