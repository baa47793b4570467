"""The one atomic writer: a file is its old self or complete, never half-written."""

from __future__ import annotations

import os
import stat

import pytest

from esize.io import atomic_write, atomic_write_text


def test_writes_and_replaces(tmp_path):
    p = tmp_path / "sub" / "out.json"
    atomic_write_text(p, "one\n")
    assert p.read_text() == "one\n"
    atomic_write(p, b"two\n")
    assert p.read_bytes() == b"two\n"
    assert sorted(os.listdir(p.parent)) == ["out.json"]  # no temporary file left


def test_mode_follows_umask(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "f", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "f").st_mode) == 0o644


def test_failure_keeps_the_old_file(tmp_path, monkeypatch):
    p = tmp_path / "out.txt"
    p.write_text("old")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(p, "new")
    assert p.read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == ["out.txt"]  # the temporary file is removed


def test_long_target_name_that_the_file_system_accepts(tmp_path):
    # the temporary file's name must not be longer than the target's may be
    p = tmp_path / ("n" * 250 + ".json")
    atomic_write_text(p, "long\n")
    assert p.read_text() == "long\n"
    assert sorted(os.listdir(tmp_path)) == [p.name]


def test_too_long_target_name_fails_and_leaves_nothing(tmp_path):
    with pytest.raises(OSError):
        atomic_write_text(tmp_path / ("n" * 300 + ".json"), "x")
    assert os.listdir(tmp_path) == []
