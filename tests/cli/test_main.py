"""The command line as a whole (:mod:`esize.cli`): output files, errors as one line
and exit status 2 (also through ``python -m esize``), notes after success only,
``--version`` and what importing the package loads.

Most tests call :func:`esize.cli.main` in-process (fast); a handful run
``python -m esize`` in a subprocess to prove that no traceback escapes the real
entry point on bad input.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings

from esize.cli import main
from readers.tidy_oracle import WORDS, expected, tidy_tables

from .helpers import (
    HEADER,
    WE_DATA,
    WQE_NEW,
    WQE_OLD,
    _module_env,
    assert_one_line_error,
    bad_value_file,
    cli,
    cli_json,
    run_modules,
    tidy,
    we_rows,
    write_csv,
    write_rows,
)


@pytest.mark.parametrize(
    "cmd",
    [
        ["summary", "{we}"],
        ["plan", "{we}", "--costs", "10,300"],
        ["compare", "{old}", "{new}", "--seed", "5", "--resamples", "200"],
    ],
)
def test_output_file_has_same_json(cmd, tmp_path, we, wqe, capsys):
    names = {"we": we, "old": wqe[0], "new": wqe[1]}
    argv = [c.format(**{k: str(v) for k, v in names.items()}) for c in cmd]
    target = tmp_path / "sub" / "result.json"
    code, out, err = cli([*argv, "--json", "-o", target], capsys)
    assert code == 0, err
    assert json.loads(target.read_text()) == json.loads(out)
    # without --json the table goes to stdout and the file still gets the JSON
    target2 = tmp_path / "result2.json"
    code, out2, err = cli([*argv, "--output", target2], capsys)
    assert code == 0, err
    assert out2.strip() and not out2.lstrip().startswith("{")
    assert json.loads(target2.read_text()) == json.loads(out)


def test_text_output(we, wqe, capsys):
    code, out, err = cli(["summary", we], capsys)
    assert code == 0 and err == ""
    assert "mean" in out and "6.5" in out
    code, out, err = cli(["compare", *wqe, "--seed", "1", "--resamples", "200"], capsys)
    assert code == 0 and err == ""
    assert "verdict" in out and "inconclusive" in out


def test_version_and_help(capsys):
    code, out, _ = cli(["--version"], capsys)
    assert code == 0 and out.startswith("esize ")
    code, out, _ = cli(["summary", "--help"], capsys)
    assert code == 0 and "--levels" in out


@pytest.mark.parametrize(
    "name, text, words",
    [
        ("nan.csv", "", ["nan", "missing"]),
        ("nan2.csv", "NaN", ["nan"]),
        ("inf.csv", "inf", ["infinite"]),
        ("neginf.csv", "-inf", ["infinite", "non-positive"]),
        ("text.csv", "fast", ["non-numeric"]),
        ("zero.csv", "0", ["non-positive", "positive"]),
        ("negative.csv", "-3.5", ["non-positive", "positive"]),
    ],
)
@pytest.mark.parametrize("command", ["summary", "plan", "compare"])
def test_bad_values(tmp_path, capsys, name, text, words, command):
    bad = bad_value_file(tmp_path, name, text)
    if command == "summary":
        argv = ["summary", bad]
    elif command == "plan":
        argv = ["plan", bad, "--costs", "10,300"]
    else:
        good = write_csv(tmp_path / "good.csv", WE_DATA)
        argv = ["compare", good, bad, "--seed", "1", "--resamples", "200"]
    assert_one_line_error(*cli(argv, capsys), file=bad, words=words)


def test_unbalanced_missing_measurement(tmp_path, capsys):
    rows = we_rows()
    del rows[5]  # binary 2, execution 1 loses one measurement
    p = write_rows(tmp_path / "short.csv", HEADER, rows)
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["unbalanced"])


def test_unbalanced_fewer_executions(tmp_path, capsys):
    rows = [r for r in we_rows() if not r.startswith("3,2,")]  # binary 3: one execution
    p = write_rows(tmp_path / "fewer.csv", HEADER, rows)
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["unbalanced"])
    old = write_csv(tmp_path / "ok.csv", WE_DATA)
    assert_one_line_error(
        *cli(["compare", old, p, "--method", "fieller"], capsys), file=p, words=["unbalanced"]
    )


def test_nonexistent_file(tmp_path, capsys):
    p = tmp_path / "missing.csv"
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["no such file"])


def test_directory_as_file(tmp_path, capsys):
    d = tmp_path / "adir"
    d.mkdir()
    assert_one_line_error(*cli(["summary", d], capsys), file=d, words=["directory"])


def test_garbage_parquet(tmp_path, capsys):
    p = tmp_path / "garbage.parquet"
    p.write_bytes(bytes(range(256)) * 4)
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["cannot read"])


def test_garbage_bytes_csv(tmp_path, capsys):
    p = tmp_path / "garbage.csv"
    p.write_bytes(b"\xff\xfe\x00\x81\x82binary\xc3\x28,time\n\x00\x9f")
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["cannot read"])


def test_empty_file(tmp_path, capsys):
    p = tmp_path / "empty.csv"
    p.write_bytes(b"")
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["cannot read", "empty"])


def test_header_only_file(tmp_path, capsys):
    p = write_rows(tmp_path / "header.csv", HEADER, [])
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["no rows"])


@pytest.mark.parametrize("alpha", ["0", "1", "1.5", "-0.1", "abc", "nan", ""])
@pytest.mark.parametrize("command", ["summary", "compare", "plan"])
def test_bad_alpha(we, wqe, capsys, alpha, command):
    argv = {
        "summary": ["summary", we],
        "compare": ["compare", *wqe],
        "plan": ["plan", we, "--costs", "10,300"],
    }[command]
    assert_one_line_error(*cli([*argv, "--alpha", alpha], capsys), words=["alpha"])


def test_usage_errors_one_line(capsys):
    assert_one_line_error(*cli([], capsys), words=["command", "required"])
    assert_one_line_error(*cli(["frobnicate"], capsys), words=["invalid choice"])
    assert_one_line_error(*cli(["summary"], capsys), words=["required", "data"])
    # one file: compared within itself only when it is a hyperfine export
    assert_one_line_error(*cli(["compare", "only_one.csv"], capsys), words=["no such file"])


def test_output_to_directory(we, tmp_path, capsys):
    d = tmp_path / "outdir"
    d.mkdir()
    assert_one_line_error(*cli(["summary", we, "-o", d], capsys), file=d)


def test_subprocess_success_json(tmp_path):
    write_csv(tmp_path / "old.csv", WQE_OLD)
    write_csv(tmp_path / "new.csv", WQE_NEW)
    [(code, stdout, stderr)] = run_modules(
        [["compare", "old.csv", "new.csv", "--json", "--seed", "2", "--resamples", "200"]],
        tmp_path,
    )
    assert code == 0, stderr
    out = json.loads(stdout)
    assert round(out["fieller"]["lower"], 4) == 0.1665
    assert round(out["fieller"]["upper"], 4) == 1.4888


def _sub_cases(tmp_path):
    # a handful only: each interpreter start costs about a second (the rest of the
    # bad inputs are checked in-process above)
    write_csv(tmp_path / "ok.csv", WE_DATA)
    write_csv(tmp_path / "one.csv", WE_DATA[:1])
    bad_value_file(tmp_path, "nan.csv", "nan")
    (tmp_path / "junk.parquet").write_bytes(b"PAR1 this is not parquet at all \x00\x01")
    return [
        (["summary", "missing.csv"], "missing.csv", ["no such file"]),
        (["summary", "junk.parquet"], "junk.parquet", ["cannot read"]),
        (["plan", "nan.csv", "--costs", "10,300"], "nan.csv", ["nan"]),
        (["compare", "ok.csv"], "ok.csv", ["hyperfine"]),
        (["summary", "ok.csv", "--alpha", "2"], None, ["alpha"]),  # argparse usage error
    ]


def test_subprocess_bad_inputs_no_traceback(tmp_path):
    cases = _sub_cases(tmp_path)
    results = run_modules([args for args, _, _ in cases], tmp_path)
    for (_args, file, words), (code, out, err) in zip(cases, results, strict=True):
        assert_one_line_error(code, out, err, file=file, words=words)


# == notes: EsizeWarning warnings, printed after success only ============================
def _short_and_full(tmp_path):
    """A table that needs --balance truncate (it then warns) and one of its shape."""
    data = 10.0 + np.arange(18.0).reshape(3, 2, 3) % 7
    frame = tidy(data)
    short = write_csv(tmp_path / "short.csv", frame.drop(index=frame.index[-1]))
    full = write_csv(tmp_path / "full.csv", data[..., :2])
    return short, full


def test_notes_printed_after_success(tmp_path, capsys):
    short, full = _short_and_full(tmp_path)
    code, out, err = cli(["compare", short, full, "--balance", "truncate", "--method", "fieller"],
                         capsys)
    assert code == 0 and out
    lines = err.splitlines()
    assert lines and all(line.startswith("esize: note: ") for line in lines)
    assert "kept the first 2 measurements of every execution" in err


def test_notes_not_printed_on_error(tmp_path, capsys):
    short, full = _short_and_full(tmp_path)
    # reading warns, then the scheme is rejected: only the error line is printed
    line = assert_one_line_error(
        *cli(["compare", short, full, "--balance", "truncate", "--scheme", "RRX"], capsys),
        words=["scheme"],
    )
    assert line.startswith("esize: error: ") and "esize: note" not in line
    # a note from matching, then --output cannot be written
    o = pd.concat([tidy(WQE_OLD, benchmark="x"), tidy(WQE_NEW, benchmark="y")])
    po, pn = write_csv(tmp_path / "o.csv", o), write_csv(tmp_path / "n.csv", tidy(WQE_NEW, benchmark="x"))
    target = tmp_path / "adir"
    target.mkdir()
    args = ["compare", po, pn, "--benchmark-column", "--method", "fieller"]
    code, _, err = cli(args, capsys)
    assert code == 0 and err == "esize: note: only in " + str(po) + ", not compared: y\n"
    line = assert_one_line_error(*cli([*args, "-o", target], capsys), file=target)
    assert "esize: note" not in line


def test_other_warnings_are_not_notes(we, capsys, monkeypatch):
    import warnings

    from esize.cli import summary

    real = summary.cmd_summary

    def noisy(args):
        warnings.warn("something else", DeprecationWarning, stacklevel=1)
        return real(args)

    monkeypatch.setattr(summary, "cmd_summary", noisy)
    with pytest.warns(DeprecationWarning, match="something else"):
        code, _, err = cli(["summary", we], capsys)
    assert code == 0 and "esize: note" not in err


# == what the package loads ==============================================================
HEAVY = ["matplotlib", "tqdm", "pandas", "pyarrow", "scipy.stats"]


def _loaded(code: str) -> list[str]:
    probe = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], env=_module_env(), capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_import_cli_loads_no_heavy_module():
    mods = _loaded("import esize.cli")
    assert [m for m in HEAVY if m in mods] == []
    # nor the subcommands, nor the readers: those load when a subcommand runs
    assert not [m for m in mods if m.startswith(("esize.readers", "esize.cli.summary",
                                                 "esize.cli.compare", "esize.cli.plan"))]


def test_version_loads_only_the_parser():
    mods = _loaded(
        "from esize.cli import main\n"
        "try:\n    main(['--version'])\nexcept SystemExit:\n    pass"
    )
    assert [m for m in HEAVY if m in mods] == []
    assert "esize.readers" not in mods and "esize.cli._shared" not in mods


def test_a_summary_loads_no_plotting_or_progress_module(we):
    mods = _loaded(f"from esize.cli import main\nmain(['summary', {str(we)!r}, '--json'])")
    assert [m for m in ("matplotlib", "tqdm", "pandas", "pyarrow") if m in mods] == []


def test_parser_choices_equal_the_readers():
    from esize import readers
    from esize.cli import _parser
    from esize.plots import PLOT_SUFFIXES

    assert _parser.FORMATS == readers.FORMATS
    assert _parser.BALANCE_MODES == readers.BALANCE_MODES
    assert _parser.GBENCH_TIMES == readers.GBENCH_TIMES
    assert PLOT_SUFFIXES == (".png", ".pdf", ".svg")


# == "Never a confident wrong answer": crashes and messages ================================
def test_text_mode_never_serialises_json(we, capsys, monkeypatch):
    from esize import text

    def refuse(doc):
        raise AssertionError("dump_json called in text mode")

    monkeypatch.setattr(text, "dump_json", refuse)
    code, out, err = cli(["summary", we], capsys)
    assert code == 0 and err == "" and "mean" in out


@pytest.mark.parametrize("opt", [["--value", ""], ["--value", "  "], ["--benchmark-column", ""]])
def test_empty_column_names_are_refused(we, capsys, opt):
    line = assert_one_line_error(*cli(["summary", we, *opt], capsys), words=["column name"])
    assert "cannot be empty" in line and opt[0] in line


def test_too_long_names_are_named(tmp_path, we, capsys):
    long_in = tmp_path / ("i" * 300 + ".csv")
    line = assert_one_line_error(*cli(["summary", long_in], capsys), file=long_in,
                                 words=["file name too long"])
    assert "None" not in line and "cannot read" in line and "write" not in line
    line = assert_one_line_error(*cli(["compare", we, long_in], capsys), file=long_in)
    assert "cannot read: file name too long" in line
    long_out = tmp_path / ("o" * 300 + ".json")
    line = assert_one_line_error(*cli(["summary", we, "-o", long_out], capsys), file=long_out)
    assert "cannot write: file name too long" in line and "None" not in line


_TABLE = "\n".join([HEADER, *we_rows()]) + "\n"  # data row 3, "1,2,8", is on line 4
_GZIP_JUNK = b"\x1f\x8b" + b"junk" * 20

#: Every input that once crashed or was read wrongly: file name -> (content, words of
#: the one-line message). None is a directory.
CRASH_INPUTS = {
    "deep.json": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "deep-values.json": ('{"results": [{"command": "x", "times": ' + "[" * 50_000
                         + "]" * 50_000 + "}]}", "nested too deeply"),
    "a-directory.csv": (None, "is a directory"),
    "empty.csv": ("", "the file is empty"),
    "empty.json": ("", "the file is empty"),
    "binary.csv": (bytes(range(256)) * 4, "NUL byte"),
    "binary.json": (b"{" + bytes(range(128, 256)), "not UTF-8"),
    "bad.json.gz": (_GZIP_JUNK, "corrupt or truncated gzip"),
    "bad.csv.gz": (_GZIP_JUNK, "corrupt or truncated gzip"),
    "list.json": ("[1, 2, 3]", "unknown kind"),
    "number.json": ("42", "unknown kind"),
    "nan.json": ('{"results": [{"command": "x", "times": [1.0, NaN, 2.0]}]}',
                 "NaN or infinite"),
    "infinity.json": ('{"results": [{"command": "x", "times": [1.0, Infinity, 2.0]}]}',
                      "NaN or infinite"),
    "header.csv": (HEADER + "\n", "no rows"),
    "empty-cell.csv": (_TABLE.replace("\n1,2,8\n", "\n1,2,\n"),
                       "column 'time' has a missing value: line 4 is empty"),
    "corrupt.parquet": (b"PAR1" + bytes(range(200)) + b"PAR1", "not a valid Parquet file"),
    "dates.csv": (_TABLE.replace("\n1,2,8\n", "\n1,2,2024-05-01T10:00:00\n"),
                  "column 'time' holds dates or times, not measurements: line 4"),
    "unclosed-quote.csv": (_TABLE.replace("\n1,2,8\n", '\n1,2,"8\n'),
                           "a quoted field on line 4 is never closed"),
    "extra-field.csv": (_TABLE.replace("\n1,2,8\n", "\n1,2,8,5\n"),
                        "line 4 has 4 fields, expected at most 3"),
    "pyperf-false.json": (json.dumps({"metadata": {"name": "bm"}, "runs": [
        {"values": [1.0, 2.0]}, {"values": False}, {"values": [1.5, 2.5]}]}),
        "run 2: 'values' holds false, not a list of numbers"),
    "gbench-string.json": (json.dumps({"context": {}, "benchmarks": [
        {"name": "BM_X", "run_type": "iteration", "real_time": t, "time_unit": "ns",
         "error_occurred": "false"} for t in (1.0, 2.0)]}), "'error_occurred': \"false\""),
    "subnormal.csv": (_TABLE.replace("\n1,2,8\n", "\n1,2,8e-320\n"),
                      "smallest normal double"),
}


def _crash_file(tmp_path, name: str) -> Path:
    content, _ = CRASH_INPUTS[name]
    p = tmp_path / name
    if content is None:
        p.mkdir()
    elif isinstance(content, str):
        p.write_text(content)
    else:
        p.write_bytes(content)
    return p


@pytest.mark.parametrize("name", list(CRASH_INPUTS))
def test_bad_input_is_one_line(tmp_path, capsys, name):
    p = _crash_file(tmp_path, name)
    words = [CRASH_INPUTS[name][1]]
    for argv in (["summary", p], ["plan", p, "--costs", "10,300"]):
        assert_one_line_error(*cli(argv, capsys), file=p, words=words)
    good = write_csv(tmp_path / "good.csv", WE_DATA)
    assert_one_line_error(*cli(["compare", good, p, "--method", "fieller"], capsys),
                          file=p, words=words)


def test_bad_inputs_one_line_through_the_entry_point(tmp_path):
    # the real interpreter: its recursion limit and warnings as a user gets them
    names = ("deep.json", "deep-values.json", "dates.csv", "corrupt.parquet")
    cases = [(_crash_file(tmp_path, n), CRASH_INPUTS[n][1]) for n in names]
    data = 1.0 + np.arange(3 * 3 * 20_000, dtype=float).reshape(3, 3, 20_000) % 7
    frame = tidy(data)
    frame["time"] = frame["time"].astype(object)
    frame.loc[99_999, "time"] = "oops"  # one bad value in a large file: no dtype warning
    cases.append((write_csv(tmp_path / "large.csv", frame),
                  "column 'time' has a non-numeric value: line 100001 holds 'oops'"))
    results = run_modules([["summary", p.name] for p, _ in cases], tmp_path)
    for (p, words), (code, out, err) in zip(cases, results, strict=True):
        assert_one_line_error(code, out, err, file=p, words=[words])


def test_bom_json_and_tsv_are_read(tmp_path, capsys):
    hf = {"results": [{"command": "x", "times": [1.0, 1.1, 1.2]}]}
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(hf))
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps(hf).encode())
    want = cli_json(["summary", plain], capsys)
    assert cli_json(["summary", bom], capsys)["mean"] == want["mean"]
    tsv = tmp_path / "we.tsv"
    tsv.write_text("\n".join(r.replace(",", "\t") for r in [HEADER, *we_rows()]) + "\n")
    assert cli_json(["summary", tsv], capsys)["mean"] == pytest.approx(6.5)


@settings(max_examples=40, deadline=None)
@given(table=tidy_tables())
def test_summary_of_random_tables(table):
    """Exit 0 with JSON agreeing with the oracle, or exit 2 with one line naming the file."""
    want = expected(table)
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "random.csv"
        p.write_text(table.csv_text())
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["summary", str(p), "--levels", ",".join(table.levels), "--json"])
    out, err = out.getvalue(), err.getvalue()
    if code == 0 and want == ("error", "single", None):  # shown, without an interval
        doc = json.loads(out)
        assert doc["ci"] is None and err == ""
        assert doc["mean"] == float(table.rows[0][1])
    elif code == 0:
        doc = json.loads(out)
        assert want[0] == "design" and err == ""
        assert tuple(doc["counts"].values()) == want[2]
        assert doc["mean"] == pytest.approx(sum(want[1]) / len(want[1]), rel=1e-12)
    else:
        line = assert_one_line_error(code, out, err, file=p)
        if want[0] == "error":
            assert WORDS[want[1]] in line, line


def test_bad_input_leaves_the_output_file_alone(tmp_path, we, capsys):
    old = tmp_path / "kept.json"
    old.write_text('{"old": true}\n')
    fresh = tmp_path / "fresh.json"
    bad = _crash_file(tmp_path, "dates.csv")
    for target in (old, fresh):
        assert_one_line_error(*cli(["summary", bad, "-o", target], capsys), file=bad)
    assert old.read_text() == '{"old": true}\n' and not fresh.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_closed_pipe_ends_in_one_line(tmp_path):
    """`esize summary BIG | head -1`: the reader goes away while esize writes; it stops
    without a traceback, with one line on stderr and the status of an error, 2 (never
    the 1 of --fail-on; issue 43)."""
    import subprocess

    rng = np.random.default_rng(3)
    rows = ["benchmark,binary,execution,time"]
    for b in range(400):  # some 300 kB of text, far beyond a pipe's buffer
        rows += [f"b{b},{i},{j},{t:.6f}" for i in range(3) for j in range(3)
                 for t in rng.lognormal(0, 0.1, 2)]
    data = tmp_path / "big.csv"
    data.write_text("\n".join(rows) + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "esize", "summary", str(data),
                             "--benchmark-column"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_module_env())
    first = proc.stdout.readline()
    proc.stdout.close()  # what `head -1` does
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 2, err
    assert first.startswith(b"file") and "Traceback" not in err
    assert err.splitlines() == ["esize: error: cannot write the result to standard output: "
                                "broken pipe"]


def test_running_out_of_memory_is_one_line(we, capsys, monkeypatch):
    import esize.cli.summary as summary

    def boom(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(summary, "variance_components", boom)
    assert_one_line_error(*cli(["summary", we], capsys), words=["out of memory"])


@pytest.mark.parametrize("columns", ["", "50", "0", "x"])
def test_help_width_is_shutils_without_shutil(columns, monkeypatch):
    import shutil

    from esize.cli._parser import _help_width

    monkeypatch.setenv("COLUMNS", columns)
    assert _help_width() == shutil.get_terminal_size().columns - 2


def test_building_the_parser_loads_no_shutil():
    code = ("import sys; from esize.cli._parser import build_parser; "
            "build_parser().parse_args(['compare', 'a', 'b']); print('shutil' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "False"
