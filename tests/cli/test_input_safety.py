"""Inputs: only regular files are opened, sizes are capped before reading, every value is
a plain number, and no file ends in a traceback (each a case found by trying esize as a
new user, or a fuzzer, would)."""

from __future__ import annotations

import copy
import gzip
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from esize.readers import _read

from .helpers import _module_env, assert_one_line_error, cli, mknod_char

REPO = Path(__file__).resolve().parents[2]
REAL = REPO / "tests" / "data" / "real"
MADE = REPO / "tests" / "data" / "made-here"

CSV_HEAD = "binary,execution,time\n"
GOOD_ROWS = ["1,1,9", "1,1,11", "1,2,5", "1,2,6", "2,1,16", "2,1,13", "2,2,12", "2,2,8"]


def _csv(path: Path, rows, head=CSV_HEAD) -> Path:
    path.write_text(head + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def _run(argv, timeout=30):
    """``python -m esize`` as its own process: (exit code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "esize", *map(str, argv)], env=_module_env(),
                          capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


# -- not a regular file --------------------------------------------------------------------
def test_fifo_with_no_writer_is_refused_at_once(tmp_path):
    fifo = tmp_path / "old.csv"
    os.mkfifo(fifo)
    good = _csv(tmp_path / "new.csv", GOOD_ROWS)
    t0 = time.monotonic()
    code, out, err = _run(["compare", fifo, good], timeout=20)
    assert time.monotonic() - t0 < 5
    assert_one_line_error(code, out, err, file=fifo, words=["is a FIFO"])
    for fmt in ("tidy", "pyperf", "jmh"):  # a named format opens nothing either
        code, out, err = _run(["summary", fifo, "--format", fmt], timeout=20)
        assert_one_line_error(code, out, err, file=fifo, words=["is a FIFO"])


def test_devices_and_links_to_them_are_refused_unread(tmp_path, capsys):
    mknod_char(tmp_path / "zero", 1, 5)
    link = tmp_path / "zero.csv"
    link.symlink_to(tmp_path / "zero")
    for p in (tmp_path / "zero", link):
        assert_one_line_error(*cli(["summary", p], capsys), file=p,
                              words=["is a character device"])


def test_directory_is_refused(tmp_path, capsys):
    assert_one_line_error(*cli(["summary", tmp_path], capsys), words=["is a directory"])


# -- sizes ---------------------------------------------------------------------------------
def test_sparse_two_gigabyte_csv_is_refused_quickly_without_filling_memory(tmp_path):
    p = tmp_path / "sparse.csv"
    with open(p, "wb") as fh:
        fh.truncate(2 << 30)  # 2 GiB of holes: reads as NUL bytes, takes no disk
    t0 = time.monotonic()
    code, out, err = _run(["summary", p], timeout=60)
    assert time.monotonic() - t0 < 20
    assert_one_line_error(code, out, err, file=p, words=["NUL byte"])


def test_size_limit_by_option_and_environment(tmp_path, capsys, monkeypatch):
    p = _csv(tmp_path / "t.csv", GOOD_ROWS)
    code, out, err = cli(["summary", p, "--max-input-size", "64"], capsys)
    assert_one_line_error(code, out, err, file=p, words=["more than the input size limit of 64"])
    monkeypatch.setenv("ESIZE_MAX_INPUT_BYTES", "1K")
    big = _csv(tmp_path / "big.csv", GOOD_ROWS * 40)
    assert_one_line_error(*cli(["summary", big], capsys), file=big, words=["1 KiB"])
    code, out, err = cli(["summary", big, "--max-input-size", "1M"], capsys)  # option wins
    assert code == 0, err
    monkeypatch.setenv("ESIZE_MAX_INPUT_BYTES", "lots")
    assert_one_line_error(*cli(["summary", p], capsys), words=["ESIZE_MAX_INPUT_BYTES"])
    code, out, err = cli(["summary", p, "--max-input-size", "1x"], capsys)
    assert code == 2 and "not a size" in err


@pytest.mark.parametrize("name", ["bomb.json.gz", "bomb.csv.gz"])
def test_compressed_file_is_capped_once_decompressed(tmp_path, capsys, name):
    p = tmp_path / name
    body = b"binary,execution,time\n" + b"1,1,1\n" * 400_000  # 2.4 MB, 12 KB compressed
    p.write_bytes(gzip.compress(body))
    code, out, err = cli(["summary", p, "--max-input-size", "1M"], capsys)
    assert_one_line_error(code, out, err, file=p, words=["decompresses to more than 1 MiB"])


def test_out_of_memory_while_reading_names_the_file(tmp_path, capsys, monkeypatch):
    p = _csv(tmp_path / "t.csv", GOOD_ROWS)

    def boom(*a, **k):
        raise MemoryError

    monkeypatch.setattr(_read._MODULES["tidy"], "read", boom)
    code, out, err = cli(["summary", p], capsys)
    assert_one_line_error(code, out, err, file=p, words=["too big to read into the memory"])
    assert "resamples" not in err


def test_an_unforeseen_reader_failure_is_one_line(tmp_path, capsys, monkeypatch):
    p = _csv(tmp_path / "t.csv", GOOD_ROWS)

    def boom(*a, **k):
        raise KeyError("oops")

    monkeypatch.setattr(_read._MODULES["tidy"], "read", boom)
    code, out, err = cli(["summary", p], capsys)
    assert_one_line_error(code, out, err, file=p, words=["unexpected content (KeyError"])


# -- values --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cell, words",
    [
        ("1_000", "not a plain decimal number"),
        ("\u0661\u0662\u0663", "not a plain decimal number"),  # Arabic-Indic digits 123
        ("\uff11\uff12", "not a plain decimal number"),  # full-width digits
        ("12\x00", "NUL byte"),
        ("1\x002", "NUL byte"),
        ("0x10", "non-numeric value"),
        ("1,5", "fields"),
    ],
)
def test_times_are_plain_numbers(tmp_path, capsys, cell, words):
    rows = [*GOOD_ROWS[:3], f"1,2,{cell}", *GOOD_ROWS[4:]]
    p = _csv(tmp_path / "t.csv", rows)
    code, out, err = cli(["summary", p], capsys)
    assert_one_line_error(code, out, err, file=p, words=[words])
    if "NUL" in words or "plain" in words:
        assert "line 5" in err  # the row is named


def test_plain_numbers_still_read(tmp_path, capsys):
    rows = ["1,1,9", "1,1,+11.0", "1,2, 5 ", "1,2,6e0", "2,1,1.6E1", "2,1,13.", "2,2,.12e2",
            "2,2,8"]
    code, out, err = cli(["summary", _csv(tmp_path / "t.csv", rows), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["mean"] == pytest.approx(10.0)


def test_parquet_text_values_are_checked_the_same_way(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    p = tmp_path / "t.parquet"
    pq.write_table(pa.table({"binary": [1, 1, 2, 2], "execution": [1, 2, 1, 2],
                             "time": ["1.5", "2", "3", "4_0"]}), p)
    assert_one_line_error(*cli(["summary", p], capsys), file=p,
                          words=["not a plain decimal number"])


def test_parquet_nested_and_duplicate_columns_and_bad_names(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    nested = tmp_path / "struct.parquet"
    pq.write_table(pa.table({"binary": [{"a": 1}, {"a": 1}, {"a": 2}, {"a": 2}],
                             "execution": [1, 2, 1, 2], "time": [1.0, 2, 3, 4]}), nested)
    assert_one_line_error(*cli(["summary", nested], capsys), file=nested,
                          words=["column 'binary' holds nested values (struct"])
    dup = tmp_path / "dup.parquet"
    pq.write_table(pa.Table.from_arrays([pa.array([1, 1, 2, 2]), pa.array([1, 2, 1, 2]),
                                         pa.array([1.0, 2, 3, 4])],
                                        names=["binary", "binary", "time"]), dup)
    assert_one_line_error(*cli(["summary", dup], capsys), file=dup,
                          words=["column 'binary' appears twice"])
    good = tmp_path / "good.parquet"
    pq.write_table(pa.table({"binary": [1, 1, 2, 2], "execution": [1, 2, 1, 2],
                             "time": [1.0, 2, 3, 4]}), good)
    bad = tmp_path / "badname.parquet"
    bad.write_bytes(good.read_bytes().replace(b"execution", b"\xff\xfe\xfdcution"))
    assert_one_line_error(*cli(["summary", bad], capsys), file=bad,
                          words=["column name is not UTF-8"])
    # a nested column that is not used is no problem
    extra = tmp_path / "extra.parquet"
    pq.write_table(pa.table({"binary": [1, 1, 2, 2], "execution": [1, 2, 1, 2],
                             "time": [1.0, 2, 3, 4], "tags": [[1], [2], [3], [4]]}), extra)
    code, out, err = cli(["summary", extra], capsys)
    assert code == 0, err


def test_jmh_histogram_bins_are_checked_like_raw_data(tmp_path, capsys):
    doc = json.loads((REAL / "jmh-pgclient-sample.json").read_text())
    bad = copy.deepcopy(doc)
    hist = bad[0]["primaryMetric"]["rawDataHistogram"][0][0]
    hist.append([-1.0, 1])  # the weighted mean would stay positive
    p = tmp_path / "jmh.json"
    p.write_text(json.dumps(bad))
    code, out, err = cli(["summary", p], capsys)
    assert_one_line_error(code, out, err, file=p, words=["holds the value -1.0"])
    raw = copy.deepcopy(doc)
    raw[0]["primaryMetric"]["rawData"] = [[-1.0] + [3.9] * 4, [3.6] * 5]
    del raw[0]["primaryMetric"]["rawDataHistogram"]
    q = tmp_path / "jmh-raw.json"
    q.write_text(json.dumps(raw))
    assert_one_line_error(*cli(["summary", q], capsys), file=q, words=["non-positive"])


def test_hyperfine_commands_whose_runs_all_failed(tmp_path, capsys):
    """Files written by the real hyperfine with -i (tests/data/made-here/README.md)."""
    all_fail = MADE / "hyperfine-all-fail.json"
    code, out, err = cli(["summary", all_fail], capsys)
    assert_one_line_error(code, out, err, file=all_fail, words=["every command failed"])
    one = MADE / "hyperfine-one-command-fails.json"
    code, out, err = cli(["summary", one, "--json"], capsys)
    assert code == 0, err
    assert "benchmark 'false': left out: all 5 runs failed (exit status 1)" in err
    names = [b["name"] for b in json.loads(out)["benchmarks"]] if "benchmarks" in out else [
        json.loads(out)["benchmark"]]
    assert names == ["true"]


def test_hyperfine_runs_that_failed_in_part_get_a_note(tmp_path, capsys):
    doc = json.loads((MADE / "hyperfine-one-command-fails.json").read_text())
    true = doc["results"][1]
    true["exit_codes"][2] = 1
    true["exit_codes"][3] = None  # ended by a signal
    p = tmp_path / "hf.json"
    p.write_text(json.dumps({"results": [true]}))
    code, out, err = cli(["summary", p], capsys)
    assert code == 0, err
    assert "2 of 5 runs failed (exit status 1, signal" in err
    true["exit_codes"] = [0, 0]
    p.write_text(json.dumps({"results": [true]}))
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["'exit_codes'"])


def test_real_hyperfine_failures_if_installed(tmp_path, capsys):
    """The same, from hyperfine run now."""
    if shutil.which("hyperfine") is None:
        pytest.skip("hyperfine is not installed (.ci/run installs it with apt)")
    p = tmp_path / "hf.json"
    subprocess.run(["hyperfine", "-N", "-i", "--runs", "3", "--export-json", str(p),
                    "false"], capture_output=True, check=True, timeout=60)
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["every command failed"])


def test_utf16_files_are_named(tmp_path, capsys):
    p = tmp_path / "t.csv"
    p.write_text(CSV_HEAD + "\n".join(GOOD_ROWS) + "\n", encoding="utf-16")
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["UTF-16"])
    j = tmp_path / "t.json"
    j.write_text('{"results": []}', encoding="utf-16")
    assert_one_line_error(*cli(["summary", j], capsys), file=j, words=["UTF-16"])
