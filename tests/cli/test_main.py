"""The command line as a whole (:mod:`esize.cli`): output files, errors as one line
and exit status 2 (also through ``python -m esize``), notes after success only,
``--version`` and what importing the package loads.

Most tests call :func:`esize.cli.main` in-process (fast); a handful run
``python -m esize`` in a subprocess to prove that no traceback escapes the real
entry point on bad input.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from .helpers import (
    HEADER,
    WE_DATA,
    WQE_NEW,
    WQE_OLD,
    _module_env,
    assert_one_line_error,
    bad_value_file,
    cli,
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
    assert_one_line_error(*cli(["compare", "only_one.csv"], capsys), words=["required", "new"])


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
    assert round(out["fieller"]["lower"], 4) == 0.1098
    assert round(out["fieller"]["upper"], 4) == 1.7253


def _sub_cases(tmp_path):
    # a handful only: each interpreter start costs about a second (the rest of the
    # bad inputs are checked in-process above)
    write_csv(tmp_path / "ok.csv", WE_DATA)
    write_csv(tmp_path / "big.csv", [*WE_DATA, WE_DATA[0]])
    bad_value_file(tmp_path, "nan.csv", "nan")
    (tmp_path / "junk.parquet").write_bytes(b"PAR1 this is not parquet at all \x00\x01")
    return [
        (["summary", "missing.csv"], "missing.csv", ["no such file"]),
        (["summary", "junk.parquet"], "junk.parquet", ["cannot read"]),
        (["plan", "nan.csv", "--costs", "10,300"], "nan.csv", ["nan"]),
        (["compare", "ok.csv", "big.csv"], "big.csv", ["differs"]),
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
    from esize.cli._plots import PLOT_SUFFIXES

    assert _parser.FORMATS == readers.FORMATS
    assert _parser.BALANCE_MODES == readers.BALANCE_MODES
    assert _parser.GBENCH_TIMES == readers.GBENCH_TIMES
    assert PLOT_SUFFIXES == (".png", ".pdf", ".svg")
