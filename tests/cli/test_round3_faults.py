"""Faults found by the third fuzz audit (issue 43), each with its regression test.

1. An output (``-o``, ``--markdown``, ``--plot``) inside an input directory (a
   criterion tree, ``DIR@BASELINE``, a benchmark's directory) or on a file a reader
   opens beside its input is refused: nothing in the tree changes.
2. Readers: a FIFO among criterion's files is refused unopened, criterion iteration
   counts are whole numbers, a Parquet file's decoded size counts against
   ``--max-input-size``, an empty input name is refused.
3. Streams: a full device or a closed pipe on standard output or error is one line
   (where it can be written) and exit status 2, never a traceback or status 1;
   confidence levels never read 100 %; integer options take ASCII digits only.

Devices and FIFOs are nodes made in a temporary directory, never the machine's own.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from esize import InputError
from esize.readers import detect_format, read_benchmarks

from .helpers import (
    WQE_NEW,
    WQE_OLD,
    _module_env,
    assert_one_line_error,
    cli,
    mknod_char,
    write_csv,
)

REPO = Path(__file__).resolve().parents[2]
REAL = REPO / "tests" / "data" / "real" / "criterion-deduplicate"
BENCH = "get/deduplicate get/0"  # one benchmark's directory, relative to the tree


def _digest(root: Path) -> dict:
    """Every entry below ``root``: its kind and, for a file, the hash of its bytes."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_symlink():
            out[rel] = "link " + os.readlink(p)
        elif p.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _run(argv, *, timeout=60, cwd=None, **kwargs):
    """``python -m esize`` as its own process: (exit code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "esize", *map(str, argv)], env=_module_env(),
                          cwd=cwd, capture_output=True, text=True, timeout=timeout, **kwargs)
    return proc.returncode, proc.stdout, proc.stderr




@pytest.fixture
def tree(tmp_path):
    """A copy of the real ``target/criterion`` of garypen/deduplicate."""
    c = tmp_path / "c"
    shutil.copytree(REAL, c)
    return c


# -- 1. no output inside an input directory --------------------------------------------------
def _argvs(tree: Path, out: Path) -> list[list]:
    """Every command and output option, with the criterion tree given every way."""
    bench = tree / BENCH
    png = out.with_suffix(".png")
    argvs = []
    for data in (tree, f"{tree}@new", bench, f"{bench}@base", bench / "new"):
        if Path(str(data).partition("@")[0]) not in out.parents:
            continue  # only what is read is protected: a file beside a subdirectory is not
        argvs += [["summary", data, "-o", out], ["summary", data, "--plot", png],
                  ["plan", data, "-o", out]]
    for root in (tree, bench) if bench in out.parents else (tree,):
        old, new = f"{root}@base", f"{root}@new"
        argvs += [["compare", old, new, "-o", out], ["compare", old, new, "--markdown", out],
                  ["compare", old, new, "--plot", png],
                  ["compare", old, new, "-o", tree.parent / "ok.json", "--markdown", out]]
    return argvs


def _named_output(argv) -> Path:
    """The output of ``argv`` inside the tree: the last one named."""
    return Path(argv[max(i for i, a in enumerate(argv) if a in ("-o", "--plot", "--markdown"))
                     + 1])


@pytest.mark.parametrize("target", [
    f"{BENCH}/new/sample.json",  # the file criterion's reader opens
    f"{BENCH}/new/benchmark.json",  # the file read for the benchmark's name
    f"{BENCH}/base/estimates.json",
    "get/esize-out.json",  # a new file inside the tree
    "get/fresh/esize-out.json",  # in a directory that would be made there
])
def test_no_output_inside_a_criterion_tree(tree, capsys, target):
    before = _digest(tree)
    for argv in _argvs(tree, tree / target):
        code, out, err = cli(argv, capsys)
        line = assert_one_line_error(code, out, err, file=_named_output(argv),
                                     words=["input directory"])
        assert str(tree) in line, line
    assert _digest(tree) == before
    assert not (tree.parent / "ok.json").exists()


@pytest.mark.parametrize("target", ["sample.json", "benchmark.json"])
def test_no_output_on_a_file_read_beside_a_sample_file(tree, capsys, target):
    before = _digest(tree)
    sample = tree / BENCH / "new" / "sample.json"
    out = sample.parent / target
    for argv in (["summary", sample, "-o", out], ["plan", sample, "-o", out],
                 ["compare", tree / BENCH / "base" / "sample.json", sample, "--markdown", out]):
        code, stdout, err = cli(argv, capsys)
        assert_one_line_error(code, stdout, err, file=out, words=["is the input file"])
    assert _digest(tree) == before


def test_summary_of_the_real_tree_replaced_its_sample_file(tree, capsys):
    """The audit's own case: ``esize summary c -o c/get/deduplicate get/0/new/sample.json``."""
    before = _digest(tree)
    target = tree / BENCH / "new" / "sample.json"
    code, out, err = cli(["summary", tree, "-o", target], capsys)
    line = assert_one_line_error(code, out, err, file=target, words=["input directory"])
    assert str(tree) in line
    assert _digest(tree) == before


def test_links_into_the_tree_are_refused(tree, tmp_path, capsys):
    before = _digest(tree)
    sample = tree / BENCH / "new" / "sample.json"
    soft = tmp_path / "soft.json"
    soft.symlink_to(sample)
    hard = tmp_path / "hard.json"
    os.link(sample, hard)
    tree_link = tmp_path / "c-link"
    tree_link.symlink_to(tree, target_is_directory=True)
    for data, out in ((tree, soft), (tree, hard), (tree, tree_link / "get" / "x.json"),
                      (tree_link, tree / "get" / "x.json"), (f"{tree_link}@new", sample)):
        code, stdout, err = cli(["summary", data, "-o", out], capsys)
        assert_one_line_error(code, stdout, err, words=["input director", "input file"])
    assert _digest(tree) == before


def test_a_sample_file_outside_the_input_directory_is_still_written(tree, tmp_path, capsys):
    out = tmp_path / "result.json"
    code, stdout, err = cli(["summary", f"{tree}@new", "-o", out,
                             "--benchmark", "get/deduplicate get/0"], capsys)
    assert code == 0, err
    assert json.loads(out.read_text())
    code, stdout, err = cli(["compare", f"{tree}@base", f"{tree}@new", "--markdown",
                             tmp_path / "r.md", "-o", tmp_path / "r.json"], capsys)
    assert code == 0, err


def test_as_a_separate_process_the_tree_is_intact(tree):
    before = _digest(tree)
    target = tree / BENCH / "new" / "sample.json"
    code, out, err = _run(["summary", tree, "-o", target])
    assert_one_line_error(code, out, err, file=target, words=["input directory"])
    assert _digest(tree) == before


# -- 2. readers ------------------------------------------------------------------------------
def _one_benchmark(tmp_path: Path) -> Path:
    root = tmp_path / "crit"
    shutil.copytree(REAL / BENCH / "new", root / "bench" / "new")
    return root


@pytest.mark.parametrize("name", ["benchmark.json", "sample.json"])
def test_a_fifo_among_criterions_files_is_refused_at_once(tmp_path, name):
    root = _one_benchmark(tmp_path)
    fifo = root / "bench" / "new" / name
    fifo.unlink()
    os.mkfifo(fifo)
    for data in (root, f"{root}@new", root / "bench", root / "bench" / "new"):
        code, out, err = _run(["summary", data], timeout=30)
        assert_one_line_error(code, out, err, file=fifo, words=["FIFO"])
    code, out, err = _run(["summary", fifo, "--format", "criterion"], timeout=30)
    assert_one_line_error(code, out, err, file=fifo, words=["FIFO"])


@pytest.mark.parametrize("iters", [0.5, 1e-300, 2.5, -1.0, 0.0])
def test_criterion_iteration_counts_are_whole_numbers(tmp_path, capsys, iters):
    root = _one_benchmark(tmp_path)
    sample = root / "bench" / "new" / "sample.json"
    doc = json.loads(sample.read_text())
    doc["iters"][2] = iters
    sample.write_text(json.dumps(doc))
    with pytest.raises(InputError) as info:
        read_benchmarks(root)
    text = str(info.value)
    assert str(sample) in text and "sample 3" in text and "iterations" in text, text
    assert "get/deduplicate get/0" in text  # the benchmark, by criterion's full_id
    code, out, err = cli(["summary", root], capsys)
    line = assert_one_line_error(code, out, err, file=sample, words=["iterations"])
    assert "whole number" in line


def test_criterion_iteration_counts_written_as_floats_are_read(tmp_path):
    root = _one_benchmark(tmp_path)
    sample = root / "bench" / "new" / "sample.json"
    doc = json.loads(sample.read_text())
    assert all(float(n).is_integer() for n in doc["iters"])
    want = [t / n for t, n in zip(doc["times"], doc["iters"])]
    doc["iters"] = [float(n) for n in doc["iters"]]  # 19.0 is criterion's own spelling
    sample.write_text(json.dumps(doc))
    design = read_benchmarks(root)["get/deduplicate get/0"].design
    assert design.data.ravel().tolist() == pytest.approx(want, rel=1e-12)


def _parquet_bomb(path: Path, *, dictionary: bool) -> Path:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import numpy as np

    n = 3_000_000  # 72 MB once decoded; the file is a few kilobytes to a megabyte
    table = pa.table({"binary": np.repeat(np.arange(3), n // 3),
                      "execution": np.tile(np.arange(2), n // 2), "time": np.ones(n)})
    pq.write_table(table, path, compression="zstd", use_dictionary=dictionary)
    return path


@pytest.mark.parametrize("dictionary", [False, True])
def test_parquet_decoded_size_counts_against_the_limit(tmp_path, capsys, dictionary):
    p = _parquet_bomb(tmp_path / "bomb.parquet", dictionary=dictionary)
    assert p.stat().st_size < 2 << 20
    code, out, err = cli(["summary", p, "--max-input-size", "2M"], capsys)
    assert_one_line_error(code, out, err, file=p, words=["decompresses to more than"])
    from esize.readers._tidy_load import _load

    with pytest.raises(InputError, match="decompresses to more than"):  # the other route
        _load(p, 2 << 20)


def test_small_parquet_files_are_still_read(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    p = tmp_path / "ok.parquet"
    pq.write_table(pa.table({"binary": [1, 1, 2, 2, 3, 3], "execution": [1, 2] * 3,
                             "time": [9.0, 8.0, 10.0, 7.0, 1.0, 2.0]}), p)
    code, out, err = cli(["summary", p, "--max-input-size", "64K", "--levels", "binary"],
                         capsys)
    assert code == 0, err


@pytest.mark.parametrize("argv", [["summary", ""], ["plan", ""], ["compare", "", "NEW"],
                                  ["compare", "OLD", ""]])
def test_an_empty_input_name_is_refused(tmp_path, capsys, monkeypatch, argv):
    # the current directory holds criterion's results: "" must not be read as "."
    shutil.copytree(REAL / BENCH, tmp_path / "here" / "bench")
    write_csv(tmp_path / "old.csv", WQE_OLD)
    write_csv(tmp_path / "new.csv", WQE_NEW)
    monkeypatch.chdir(tmp_path / "here")
    argv = [{"OLD": tmp_path / "old.csv", "NEW": tmp_path / "new.csv"}.get(a, a) for a in argv]
    code, out, err = cli(argv, capsys)
    assert_one_line_error(code, out, err, words=["empty"])


def test_the_library_refuses_an_empty_input_name(tmp_path, monkeypatch):
    shutil.copytree(REAL / BENCH, tmp_path / "bench")
    monkeypatch.chdir(tmp_path)
    for call in (lambda: read_benchmarks(""), lambda: detect_format(""),
                 lambda: read_benchmarks("", "criterion")):
        with pytest.raises(InputError, match="empty"):
            call()


# -- 3. streams and options ------------------------------------------------------------------
@pytest.fixture
def pair(tmp_path):
    return write_csv(tmp_path / "old.csv", WQE_OLD), write_csv(tmp_path / "new.csv", WQE_NEW)


STREAM_ARGVS = [
    ["compare", "OLD", "NEW", "--method", "fieller"],
    ["compare", "OLD", "NEW", "--method", "fieller", "--json"],
    ["compare", "OLD", "NEW", "--method", "fieller", "--markdown", "-"],
    ["compare", "OLD", "NEW", "--method", "fieller", "--fail-on", "inconclusive"],
    ["summary", "OLD"],
    ["plan", "OLD", "--costs", "10,300"],
]


def _fill(argv, pair):
    return [{"OLD": pair[0], "NEW": pair[1]}.get(a, a) for a in argv]


@pytest.mark.parametrize("argv", STREAM_ARGVS)
def test_standard_output_on_a_full_device_is_one_line_and_status_2(pair, tmp_path, argv):
    full = mknod_char(tmp_path / "full", 1, 7)
    with open(full, "wb") as sink:
        proc = subprocess.run([sys.executable, "-m", "esize", *map(str, _fill(argv, pair))],
                              env=_module_env(), stdout=sink, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    line = assert_one_line_error(proc.returncode, "", proc.stderr,
                                 words=["no space left on device"])
    assert "standard output" in line
    assert stat.S_ISCHR(os.lstat(full).st_mode)


UNBALANCED = "binary,execution,time\n" + "\n".join(
    ["1,1,9", "1,1,11", "1,2,5", "1,2,6", "2,1,16", "2,1,13", "2,2,12", "2,2,8", "2,2,7",
     "3,1,15", "3,1,7", "3,2,10", "3,2,14"]) + "\n"


@pytest.mark.parametrize("argv, status", [
    (["compare", "OLD", "NEW", "--method", "fieller"], 0),  # nothing to say on stderr
    (["summary", "OLD"], 0),
    (["compare", "OLD", "NEW", "--method", "fieller", "--fail-on", "inconclusive"], 2),
    (["summary", "RAGGED", "--balance", "truncate"], 2),  # a note
    (["compare", "RAGGED", "NEW", "--balance", "truncate", "--method", "fieller"], 2),
    (["summary", "MISSING.csv"], 2),  # an error
    (["summary", "OLD", "--alpha", "7"], 2),  # a usage error
])
def test_standard_error_on_a_full_device_is_status_2(pair, tmp_path, argv, status):
    """What standard error would carry is lost; the status says the run did not end
    well, and is never 1 (a --fail-on verdict) from a traceback nobody could see."""
    full = mknod_char(tmp_path / "full", 1, 7)
    ragged = tmp_path / "ragged.csv"
    ragged.write_text(UNBALANCED)
    argv = [{"RAGGED": ragged}.get(a, a) for a in _fill(argv, pair)]
    with open(full, "wb") as sink:
        proc = subprocess.run([sys.executable, "-m", "esize", *map(str, argv)],
                              env=_module_env(), stdout=subprocess.PIPE, stderr=sink,
                              text=True, timeout=60)
    assert proc.returncode == status
    if argv[1] != "MISSING.csv" and "7" not in argv:  # the result was written whole
        assert proc.stdout.endswith("\n") and proc.stdout.strip()


@pytest.mark.parametrize("argv", STREAM_ARGVS)
def test_a_closed_pipe_on_standard_output_is_one_line_and_status_2(pair, argv):
    proc = subprocess.Popen([sys.executable, "-m", "esize", *map(str, _fill(argv, pair))],
                            env=_module_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before esize writes (`| head -c 0`)
    err = proc.stderr.read().decode()
    proc.stderr.close()
    code = proc.wait(timeout=60)
    line = assert_one_line_error(code, "", err, words=["broken pipe"])
    assert "standard output" in line


@pytest.mark.parametrize("unbuffered", [False, True])
def test_a_reader_gone_half_way_is_noticed_buffered_or_not(tmp_path, unbuffered):
    """`esize summary BIG | head -1`, with ``PYTHONUNBUFFERED`` (CI jobs set it) or not:
    unbuffered, Python's text layer drops what a partial write leaves over, and the
    cut output went unnoticed with status 0."""
    rows = ["benchmark,binary,execution,time"]
    for b in range(400):  # some 170 kB of output, beyond a pipe's 64 kB
        rows += [f"b{b},{i},{j},{10 + (b + i + j + k) % 7}" for i in range(3)
                 for j in range(3) for k in range(2)]
    data = tmp_path / "big.csv"
    data.write_text("\n".join(rows) + "\n")
    env = _module_env()
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.Popen([sys.executable, "-m", "esize", "summary", data,
                             "--benchmark-column"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    code = proc.wait(timeout=60)
    assert first.startswith(b"file")
    assert_one_line_error(code, "", err, words=["broken pipe"])


class _Unwritable(io.TextIOBase):
    """A standard output whose every write fails as a pipe or a device would."""

    def __init__(self, exc: OSError):
        self.exc = exc

    def write(self, text):
        raise self.exc

    def flush(self):
        raise self.exc


@pytest.mark.parametrize("exc", [BrokenPipeError(errno.EPIPE, "Broken pipe"),
                                 OSError(errno.ENOSPC, "No space left on device"),
                                 OSError(errno.EIO, "Input/output error")])
@pytest.mark.parametrize("argv", STREAM_ARGVS)
def test_in_process_a_failing_standard_output_is_one_line(pair, capsys, monkeypatch, exc,
                                                          argv):
    monkeypatch.setattr(sys, "stdout", _Unwritable(exc))
    code, out, err = cli(_fill(argv, pair), capsys)
    line = assert_one_line_error(code, out, err, words=[exc.strerror])
    assert "standard output" in line


@pytest.mark.parametrize("command", ["summary", "compare", "plan"])
@pytest.mark.parametrize("alpha", ["1e-17", "1e-300", "9.9e-7", "5e-7"])
def test_confidence_levels_that_would_read_100_percent_are_refused(pair, capsys, command,
                                                                   alpha):
    argv = {"summary": ["summary", pair[0]], "compare": ["compare", *pair],
            "plan": ["plan", pair[0], "--costs", "10,300", "--budget", "1000"]}[command]
    code, out, err = cli([*argv, "--alpha", alpha], capsys)
    line = assert_one_line_error(code, out, err, words=["--alpha"])
    assert "1e-6" in line


def test_the_smallest_alpha_shows_a_level_below_100_percent(pair, capsys):
    code, out, err = cli(["summary", pair[0], "--alpha", "1e-6"], capsys)
    assert code == 0, err
    assert "99.9999 % CI" in out and "100 %" not in out
    code, out, err = cli(["compare", *pair, "--method", "fieller", "--alpha", "1e-6"], capsys)
    assert code == 0, err
    assert "99.9999 %" in out and "100 %" not in out


@pytest.mark.parametrize("option, text", [
    ("--seed", "١٢"),  # Arabic-Indic digits: int() reads them as 12
    ("--seed", "１２"),  # full-width digits
    ("--seed", "1_2"),
    ("--resamples", "２٠٠"),
    ("--warmup", "٣"),
    ("--alpha", "٠.٠٥"),
    ("--threshold", "٠.٠٢"),
])
def test_numbers_take_ascii_digits_only(pair, capsys, option, text):
    code, out, err = cli(["compare", *pair, option, text], capsys)
    line = assert_one_line_error(code, out, err, words=[option])
    assert text in line


def test_plan_numbers_take_ascii_digits_only(pair, capsys):
    for extra in (["--costs", "10,٣٠٠"], ["--costs", "10,300", "--budget", "١٠٠٠"]):
        code, out, err = cli(["plan", pair[0], *extra], capsys)
        assert_one_line_error(code, out, err, words=[extra[-2]])


def test_ascii_numbers_still_parse(pair, capsys):
    code, out, err = cli(["compare", *pair, "--seed", " 12 ", "--resamples", "+1000",
                          "--threshold", "2e-2", "--alpha", ".05", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["bootstrap"]["seed"] == 12 and doc["bootstrap"]["resamples"] == 1000
    assert doc["alpha"] == 0.05 and doc["threshold"] == 0.02
