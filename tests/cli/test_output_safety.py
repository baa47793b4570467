"""``-o`` and ``--plot`` never destroy anything: not an input, not a device, not a FIFO.

Devices and FIFOs are nodes made in a temporary directory (``mknod`` needs root, as
CI and many containers run; the tests that need it say so when they skip), never the
machine's own ``/dev/null`` or ``/dev/full``.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import fail_writes
from esize.io import OutputError, check_output, write_output

from .helpers import _module_env, assert_one_line_error, cli, mknod_char


def _sha(p) -> str:
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()




def _compare(wqe, out, capsys, *extra):
    old, new = wqe
    return cli(["compare", old, new, "--seed", "1", "-o", out, *extra], capsys)


# -- the inputs are never overwritten -----------------------------------------------------
@pytest.mark.parametrize("which", ["old", "new"])
def test_output_naming_an_input_is_refused_and_the_input_is_intact(wqe, capsys, which):
    old, new = wqe
    target = old if which == "old" else new
    before = (_sha(old), _sha(new))
    code, out, err = _compare(wqe, target, capsys)
    assert_one_line_error(code, out, err, file=target, words=["is the input file"])
    assert (_sha(old), _sha(new)) == before


def test_output_through_a_link_or_hard_link_to_an_input_is_refused(wqe, capsys, tmp_path):
    old, new = wqe
    before = _sha(old)
    link = tmp_path / "link.json"
    link.symlink_to(old)
    hard = tmp_path / "hard.json"
    os.link(old, hard)
    for out in (link, hard, tmp_path / "." / "old.csv"):
        assert_one_line_error(*_compare(wqe, out, capsys), words=["is the input file"])
    assert _sha(old) == before and link.is_symlink()


@pytest.mark.parametrize("command", ["summary", "plan"])
def test_summary_and_plan_refuse_their_input_as_output(wqe, capsys, command):
    old, _ = wqe
    before = _sha(old)
    extra = ["--costs", "10,300"] if command == "plan" else []
    code, out, err = cli([command, old, *extra, "-o", old], capsys)
    assert_one_line_error(code, out, err, file=old, words=["is the input file"])
    assert _sha(old) == before


def test_plot_naming_an_input_or_the_json_output_is_refused(wqe, capsys, tmp_path):
    old, new = wqe
    fig = tmp_path / "fig.png"
    png_input = tmp_path / "in.png"
    png_input.write_bytes(old.read_bytes())  # an input that happens to end in .png
    code, out, err = cli(["compare", old, png_input, "--plot", png_input], capsys)
    assert_one_line_error(code, out, err, words=["is the input file"])
    fig.write_text("x")
    link = tmp_path / "fig-link.json"
    link.symlink_to(fig)
    code, out, err = _compare(wqe, link, capsys, "--plot", fig)
    assert_one_line_error(code, out, err, words=["both -o and --plot"])
    assert fig.read_text() == "x"


def test_empty_output_name_is_an_error(wqe, capsys):
    code, out, err = _compare(wqe, "", capsys)
    assert_one_line_error(code, out, err, words=["output file name is empty"])


# -- devices and FIFOs keep their kind ------------------------------------------------------
def test_null_device_node_is_written_to_and_stays_a_device(wqe, capsys, tmp_path):
    dev = mknod_char(tmp_path / "null", 1, 3)
    code, out, err = _compare(wqe, dev, capsys)
    assert code == 0, err
    st = os.lstat(dev)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert sorted(os.listdir(tmp_path)) == sorted(["new.csv", "null", "old.csv"])


def test_full_device_node_is_one_line_and_stays_a_device(wqe, capsys, tmp_path):
    dev = mknod_char(tmp_path / "full", 1, 7)
    code, out, err = _compare(wqe, dev, capsys)
    assert_one_line_error(code, out, err, file=dev, words=["no space left on device"])
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_other_character_devices_are_refused_unopened(wqe, capsys, tmp_path):
    # (1, 1) is /dev/mem: never opened, let alone written
    dev = mknod_char(tmp_path / "mem", 1, 1)
    code, out, err = _compare(wqe, dev, capsys)
    assert_one_line_error(code, out, err, file=dev, words=["is a character device"])
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_fifo_without_a_reader_is_refused_at_once(wqe, capsys, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    code, out, err = _compare(wqe, fifo, capsys)
    assert time.monotonic() - t0 < 5
    assert_one_line_error(code, out, err, file=fifo, words=["no program is reading"])
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_fifo_with_a_reader_gets_the_json(wqe, capsys, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, there before esize
    try:
        code, out, err = _compare(wqe, fifo, capsys)
        got = os.read(reader, 1 << 16)  # the JSON fits in the pipe's buffer
    finally:
        os.close(reader)
    assert code == 0, err
    assert b'"ratio"' in got and got.endswith(b"}\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_directory_and_block_device_are_refused(wqe, capsys, tmp_path):
    d = tmp_path / "adir"
    d.mkdir()
    assert_one_line_error(*_compare(wqe, d, capsys), file=d, words=["is a directory"])
    try:
        os.mknod(tmp_path / "disk", 0o600 | stat.S_IFBLK, os.makedev(7, 200))
    except PermissionError:
        pytest.skip("making a device node needs root (CI runs as root)")
    assert_one_line_error(*_compare(wqe, tmp_path / "disk", capsys), words=["block device"])
    assert stat.S_ISBLK(os.lstat(tmp_path / "disk").st_mode)


def test_as_a_separate_process_the_device_and_inputs_stay(wqe, tmp_path):
    """The acceptance run: ``esize compare A B -o NODE`` as its own process."""
    old, new = wqe
    dev = mknod_char(tmp_path / "null", 1, 3)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    before = (_sha(old), _sha(new))
    for out, status in ((dev, 0), (fifo, 2), (old, 2), (new, 2)):
        proc = subprocess.run([sys.executable, "-m", "esize", "compare", old, new, "--seed",
                               "1", "-o", out], env=_module_env(), capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == status, proc.stderr
        assert "Traceback" not in proc.stderr
    assert stat.S_ISCHR(os.lstat(dev).st_mode) and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert (_sha(old), _sha(new)) == before


# -- regular files: replaced whole, or left as they were ------------------------------------
def test_link_to_a_regular_file_stays_a_link(wqe, capsys, tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "out.json"
    link.symlink_to(real)
    code, out, err = _compare(wqe, link, capsys)
    assert code == 0, err
    assert link.is_symlink() and '"ratio"' in real.read_text()
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640  # its permissions are kept


@pytest.mark.parametrize("err_no", [errno.ENOSPC, errno.EIO, errno.EACCES])
def test_write_errors_are_one_line_and_keep_the_old_content(wqe, capsys, tmp_path,
                                                           monkeypatch, err_no):
    target = tmp_path / "out.json"
    target.write_text("previous\n")
    fail_writes(monkeypatch, err_no)
    code, out, err = _compare(wqe, target, capsys)
    assert_one_line_error(code, out, err, file=target,
                          words=[f"cannot write: {os.strerror(err_no)}"])
    assert target.read_text() == "previous\n"
    assert sorted(os.listdir(tmp_path)) == ["new.csv", "old.csv", "out.json"]


def test_full_disk_for_real_keeps_the_old_content(wqe, tmp_path):
    """A real full file system (a tiny tmpfs, mounted as root as CI runs)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                      capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    try:
        target = mnt / "out.json"
        target.write_text("previous\n")
        try:  # fill the file system to the last byte
            with open(mnt / "filler", "wb") as fh:
                while True:
                    fh.write(b"x" * 512)
                    fh.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
        old, new = wqe
        proc = subprocess.run([sys.executable, "-m", "esize", "compare", old, new, "--seed",
                               "1", "-o", target], env=_module_env(), capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.strip().splitlines() == [
            f"esize: error: {target}: cannot write: no space left on device"]
        assert target.read_text() == "previous\n"
        assert sorted(os.listdir(mnt)) == ["filler", "out.json"]
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


# -- the library functions -------------------------------------------------------------------
def test_check_output_and_write_output_directly(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text("a")
    with pytest.raises(OutputError, match="is the input file"):
        check_output(src, [src])
    check_output(tmp_path / "new.json", [src])  # nothing there yet: fine
    with pytest.raises(OutputError, match="empty"):
        write_output("", b"x")
    write_output(tmp_path / "sub" / "new.json", b"x")
    assert (tmp_path / "sub" / "new.json").read_bytes() == b"x"
