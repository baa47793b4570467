"""`check-config` on hostile or absurd configurations: one line, exit status 2, no hang.

Found by fuzzing the check: output directories at the filesystem root or in the
project's sources, NaN and infinite numbers, numbers far beyond any real use, a key
given twice, dataset names too long for a file name, costs of 5e-324 s, ``costs: {}``
answered with "not valid under any of the given schemas"; and inputs that hung or
crashed the check: YAML alias bombs, recursive aliases, thousands of nested brackets,
integers of thousands of digits, a FIFO or a device given as the file. Each is refused
as ``FILE:LINE: key: what is expected`` (``FILE: problem`` where no line applies).

Most checks run in this process (:func:`esize_study.datasets.config.check_config_files`).
The inputs that used to hang or exhaust memory run together in one subprocess
(:func:`hostile`) under a memory limit and a timeout, so that a regression fails the
test instead of hanging it.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from esize_study.datasets import config as dconf
from esize_study.datasets import costs as dcosts
from esize_study.datasets import settings as ds

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
TINY = ROOT / "tests" / "data" / "tiny-dataset"  # alpha.csv, beta.csv
BASE = "datasets:\n  s:\n    kind: standin\n"
ENTRY = {"steady_iteration_seconds": {"mean": 0.005}, "new_binary_seconds": 0.5,
         "execution_overhead_seconds": {"mean": 0.004}, "warmup_excess_seconds": {"mean": 0.0}}


@pytest.fixture
def here(tmp_path, monkeypatch) -> Path:
    """A working directory holding ``base.yaml`` (one stand-in dataset)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "base.yaml").write_text(BASE)
    return tmp_path


def problem(here: Path, text: str) -> str | None:
    """The check's line for ``base.yaml`` with ``my.yaml`` (``text``) on top."""
    (here / "my.yaml").write_text(text)
    return dconf.check_config_files([here / "base.yaml", here / "my.yaml"], SCHEMA)


def own_dataset(here: Path, costs: dict | None = None) -> str:
    """A directory dataset ``mine`` (alpha, beta) with a costs file: its entry's YAML."""
    shutil.copytree(TINY, here / "mine")
    sets = costs or {"alpha": ENTRY, "beta": ENTRY}
    (here / "mine" / "costs.json").write_text(json.dumps({"sets": sets}, indent=1))
    return "  mine:\n    path: mine\n    costs: {file: costs.json}\n"


# -- 1. the directories the workflow writes into ------------------------------------------
KEYS = ["results_dir", "logs_dir", "data_dir"]
BAD_DIRS = {
    "": "is empty", "/": "is the filesystem root", ".": "is the checkout itself",
    "./": "is the checkout itself", "src": "is the project's 'src' directory",
    "config": "is the project's 'config' directory",
    "examples": "is the project's 'examples' directory",
    "data": "is the project's 'data' directory", "workflow": "is the project's",
    "tests": "is the project's 'tests' directory",
    "src/esize": "lies inside the project's 'src' directory",
    "examples/analyse": "lies inside the project's 'examples' directory",
    "../elsewhere": "leaves the checkout with '..'", "a/../../b": "leaves the checkout",
    "/usr": "is the system directory '/usr'", "/etc/esize": "lies inside the system directory",
    "/lib64": "is the system directory '/lib64'", "/var": "is the system directory '/var'",
    "/tmp": "is the system directory '/tmp' itself", "//": "is the filesystem root",
    "/usr/../": "is the filesystem root", "{dataset}": "holds '{' or '}'",
    "~/results": "starts with '~'", " results": "has spaces around it",
}


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("value", list(BAD_DIRS), ids=[repr(v) for v in BAD_DIRS])
def test_an_output_directory_of_its_own(here, key, value):
    got = problem(here, f"{key}: {json.dumps(value)}\n")
    assert got is not None and got.startswith(
        f"my.yaml:1: {key}: expected a directory of its own: a relative path inside the "
        "checkout"), got
    assert f"; {value!r} {BAD_DIRS[value]}" in got, got
    assert "\n" not in got


@pytest.mark.parametrize("key", KEYS)
def test_absolute_directories_of_the_checkout_are_refused(here, key):
    for value, what in ((ROOT, "is the checkout itself"),
                        (ROOT / "src", "is the project's 'src' directory"),
                        (ROOT / "config" / "out", "lies inside the project's 'config'"),
                        (ROOT.parent, "holds the checkout")):
        got = problem(here, f"{key}: {json.dumps(str(value))}\n")
        assert got is not None and got.startswith(f"my.yaml:1: {key}: expected a "), got
        assert what in got or (value == ROOT.parent and "system directory" in got), got


@pytest.mark.parametrize("key", KEYS)
def test_not_a_datasets_data_directory(here, key):
    entry = own_dataset(here)
    for value, what in (("mine", "is the data directory of dataset 'mine'"),
                        ("mine/out", "lies inside the data directory of dataset 'mine'"),
                        (str(here / "mine"), "is the data directory of dataset 'mine'"),
                        ("mine/costs.json", "lies inside the data directory")):
        got = problem(here, f"{key}: {json.dumps(value)}\ndatasets:\n{entry}")
        assert got is not None and got.startswith(f"my.yaml:1: {key}: expected a "), got
        assert what in got, got
    shutil.copytree(TINY, here / "runs" / "set")
    got = problem(here, f"{key}: runs\ndatasets:\n  set:\n    path: runs/set\n")
    assert got is not None and got.endswith("'runs' holds the data directory of dataset 'set'")


def test_a_file_is_not_a_directory_and_data_dir_may_lie_in_data(here):
    (here / "notes").write_text("")
    assert problem(here, "results_dir: notes\n").endswith("'notes' is a file, not a directory")
    assert "lies inside the project's 'data'" in problem(here, "results_dir: data/results\n")
    assert "lies inside the project's 'data'" in problem(here, "logs_dir: data/logs\n")
    assert problem(here, "data_dir: data/generated\n") is None


@pytest.mark.parametrize("text", [
    "results_dir: results\nlogs_dir: logs\ndata_dir: data/generated\n",
    "results_dir: results-test\nlogs_dir: out/logs-1\ndata_dir: generated\n",
    "results_dir: ./results/run-2\n",
], ids=["shipped", "test", "nested"])
def test_good_output_directories_pass(here, text):
    assert problem(here, text) is None
    assert problem(here, f"results_dir: {here / 'abs-results'}\nlogs_dir: {here / 'l'}\n") is None


def test_a_default_output_directory_is_checked_too(here):
    (here / "results").write_text("")  # results_dir's default
    assert problem(here, "hours: [3]\n") == (
        "my.yaml: results_dir: expected a directory of its own: a relative path inside the "
        "checkout (like 'results') or an absolute directory outside the system's and the "
        "project's directories; 'results' is a file, not a directory")


# -- 2. values: finite, bounded, keys once, names short, costs meaningful -----------------
@pytest.mark.parametrize("text, expected", [
    ("analysis:\n  threshold: .nan\n", "my.yaml:2: analysis.threshold: expected a finite number, not nan"),
    ("warmup_fraction: .inf\n", "my.yaml:1: warmup_fraction: expected a finite number, not inf"),
    ("hours: [3, -.inf]\n", "my.yaml:1: hours[1]: expected a finite number, not -inf"),
    ("coverage:\n  ratio: .NaN\n", "my.yaml:2: coverage.ratio: expected a finite number, not nan"),
    ("build_seconds: 1.0e+999\n", "my.yaml:1: build_seconds: expected a finite number, not inf"),
    ("datasets:\n  s:\n    warmup: .nan\n",
     "my.yaml:3: datasets.s.warmup: expected a finite number, not nan"),
    ("datasets:\n  s:\n    comparisons:\n      - {old: a, new: b, ratio: .inf}\n",
     "my.yaml:4: datasets.s.comparisons[0].ratio: expected a finite number, not inf"),
], ids=["threshold", "warmup_fraction", "hours", "ratio", "overflow", "warmup", "comparison"])
def test_nan_and_infinite_numbers_are_refused(here, text, expected):
    assert problem(here, text) == expected


def test_nan_on_the_command_line_is_refused():
    given = {"analysis": {"threshold": math.nan}}
    config = {"datasets": {"s": {"kind": "standin"}}, **given}
    assert dconf.config_problem(config, SCHEMA, [("--config", given)]) == (
        "--config: analysis.threshold: expected a finite number, not nan")


@pytest.mark.parametrize("text, expected", [
    ("analysis:\n  resamples: 10000001\n",
     "my.yaml:2: analysis.resamples: 10000001 is greater than the maximum of 10000000"),
    ("false_alarm:\n  comparisons: 100000001\n",
     "my.yaml:2: false_alarm.comparisons: 100000001 is greater than the maximum of 100000000"),
    ("coverage:\n  experiments: 1.0e+300\n",
     "my.yaml:2: coverage.experiments: 1e+300 is greater than the maximum of 100000000"),
    ("datasets:\n  s:\n    binaries: 1000001\n",
     "my.yaml:3: datasets.s.binaries: 1000001 is greater than the maximum of 1000000"),
    ("datasets:\n  s:\n    executions: 1000001\n",
     "my.yaml:3: datasets.s.executions: 1000001 is greater than the maximum of 1000000"),
    ("datasets:\n  s:\n    warmup: 1000001\n",
     "my.yaml:3: datasets.s.warmup: 1000001 is greater than the maximum of 1000000"),
    ("false_alarm:\n  binaries: [1, 2000000]\n",
     "my.yaml:2: false_alarm.binaries[1]: 2000000 is greater than the maximum of 1000000"),
    ("datasets:\n  s:\n    levels: [" + ", ".join(f"l{i}" for i in range(101)) + "]\n",
     "my.yaml:3: datasets.s.levels: ['l0', 'l1', 'l2', 'l3', ...] is too long"),
    ("false_alarm:\n  seed: 1.0e+300\n",
     "my.yaml:2: false_alarm.seed: 1e+300 is greater than the maximum of "),
], ids=["resamples", "comparisons", "experiments", "binaries", "executions", "warmup",
        "sizes", "levels", "seed"])
def test_numbers_far_beyond_any_use_are_refused(here, text, expected):
    got = problem(here, text)
    assert got is not None and got.startswith(expected), got


def test_the_bounds_leave_real_values_alone(here):
    assert problem(here, "analysis:\n  resamples: 10000000\nfalse_alarm:\n  comparisons: "
                         "100000000\ndatasets:\n  s:\n    binaries: 1000000\n") is None


@pytest.mark.parametrize("text, expected", [
    ("hours: [3]\nwarmup_fraction: 0.3\nhours: [6]\n",
     "my.yaml:3: hours: expected each key once in a mapping; 'hours' is also on line 1"),
    ("datasets:\n  s:\n    kind: standin\n    binaries: 3\n    binaries: 4\n",
     "my.yaml:5: datasets.s.binaries: expected each key once in a mapping; 'binaries' is "
     "also on line 4"),
    ("coverage: {seed: 1, seed: 2}\n",
     "my.yaml:1: coverage.seed: expected each key once in a mapping; 'seed' is also on line 1"),
], ids=["top", "nested", "flow"])
def test_a_key_given_twice_is_refused(here, text, expected):
    assert problem(here, text) == expected


def test_a_dataset_name_fits_in_a_file_name(here):
    got = problem(here, f"datasets:\n  {'a' * 101}:\n    kind: standin\n")
    assert got is not None and got.startswith("my.yaml:2: datasets: name 'aaaa"), got
    assert got.endswith("is not allowed: expected at most 100 characters, not 101 (it names "
                        "directories and files)"), got
    assert problem(here, f"datasets:\n  {'a' * 100}:\n    kind: standin\n") is None
    names = yaml.safe_load(SCHEMA.read_text())["properties"]["datasets"]["propertyNames"]
    validator = jsonschema.Draft202012Validator(names)
    assert not validator.is_valid("a" * 101) and validator.is_valid("a" * 100)
    assert ds.dataset_name_problem("a" * 101) and ds.dataset_name_problem("a" * 100) is None


def test_costs_below_a_nanosecond_are_refused(here):
    got = problem(here, "build_seconds: 5.0e-324\n")
    assert got == "my.yaml:1: build_seconds: 5e-324 is less than the minimum of 1e-09", got
    entry = own_dataset(here, {"alpha": ENTRY, "beta": {**ENTRY, "new_binary_seconds": 5e-324}})
    got = problem(here, f"datasets:\n{entry}")
    assert got is not None and got.startswith("mine/costs.json:"), got
    assert got.endswith("sets.beta.new_binary_seconds: 5e-324 is less than 1e-09: expected a "
                        "time in seconds of at least a nanosecond"), got
    config = {"mode": "analyse", "datasets": {"m": {"path": "d", "costs": {"build": 5e-324}}}}
    got = dconf.config_problem(config, SCHEMA)
    assert got is not None and got.startswith("config: datasets.m.costs.build: expected "), got
    assert got.endswith(", not 5e-324"), got


def test_the_schema_has_the_checks_minimum_of_costs():
    defs = yaml.safe_load(SCHEMA.read_text())["$defs"]["costs_entry"]["properties"]
    for keys, _, positive, _ in dcosts.COSTS_FIELDS:
        spec = defs[keys[0]]["properties"][keys[1]] if len(keys) == 2 else defs[keys[0]]
        assert spec.get("minimum") == (dcosts.MIN_SECONDS if positive else -dcosts.MAX_SECONDS)
        assert spec.get("maximum") == dcosts.MAX_SECONDS


def test_empty_costs_say_what_is_expected(here):
    got = problem(here, "datasets:\n  s:\n    kind: standin\n    costs: {}\n")
    assert got is not None and got.startswith("my.yaml:4: datasets.s.costs: expected 'paper', "
                                              "'data' or {file: "), got
    assert got.endswith(", not {}") and "any of the given schemas" not in got, got


def test_schema_messages_show_a_short_value(here):
    got = problem(here, "results_dir: [" + ", ".join(["long-value-" * 5] * 50) + "]\n")
    assert got is not None and got.startswith("my.yaml:1: results_dir: ['long-value-"), got
    assert got.endswith("... is not of type 'string'") and len(got) < 200, got


# -- 3. inputs that hung or crashed the check: one subprocess, memory-limited ------------
def _bomb(inner: str = "x", depth: int = 9) -> str:
    """A flow list of anchors, each repeating the last nine times (9**9 values)."""
    names = "abcdefghijklmnopqrstuvwxyz"[:depth]
    parts = [f"&{names[0]} [{', '.join([inner] * 9)}]"]
    for prev, name in zip(names, names[1:]):
        parts.append(f"&{name} [{','.join(['*' + prev] * 9)}]")
    return "[" + ", ".join(parts) + "]"


_TOP_BOMB = "\n".join(
    ["a: &a [x,x,x,x,x,x,x,x,x]"] + [f"{n}: &{n} [{','.join(['*' + p] * 9)}]"
                                     for p, n in zip("abcdefgh", "bcdefghi")]) + "\n"

#: ``{case: (file name, content, the line expected)}``; the content ``None`` makes
#: a node of another kind (FIFO, device, directory).
HOSTILE = {
    "bomb": ("bomb.yaml", _TOP_BOMB, r"bomb\.yaml:\d+: [a-i]: expected at most 100000 values "
                                     r"with the aliases expanded, not \d+ \(aliases repeating aliases\)"),
    "bomb in levels": ("levels.yaml", f"datasets:\n  s:\n    levels: {_bomb()}\n",
                       r"levels\.yaml:3: datasets\.s\.levels\[\d\]: expected at most 100000 "
                       r"values"),
    "bomb in budgets": ("budgets.yaml", f"datasets:\n  s:\n    budgets: {_bomb()}\n",
                        r"budgets\.yaml:3: datasets\.s\.budgets\[\d\]: expected at most"),
    "bomb in comparisons": ("cmp.yaml", f"datasets:\n  s:\n    comparisons: {_bomb()}\n",
                            r"cmp\.yaml:3: datasets\.s\.comparisons\[\d\]: expected at most"),
    "bomb in path": ("path.yaml", f"datasets:\n  s:\n    path: {_bomb()}\n",
                     r"path\.yaml:3: datasets\.s\.path\[\d\]: expected at most"),
    "recursive alias": ("rec.yaml", "datasets:\n  s:\n    levels: &a [x, *a]\n",
                        r"rec\.yaml:3: datasets\.s\.levels\[1\]: the alias \*a is inside its "
                        r"own anchor: expected a value that does not contain itself"),
    "recursive mapping": ("recmap.yaml", "datasets: &d\n  s: *d\n",
                          r"recmap\.yaml:2: datasets\.s: the alias \*d is inside its own"),
    "deep alias chain": ("chain.yaml", "x0: &a0 [x]\n" + "".join(
        f"x{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 120)),
                         r"chain\.yaml:\d+: x\d+\[0\]: expected at most 100 levels of nesting "
                         r"\(with the alias \*a\d+ expanded\)"),
    "5000 brackets": ("deep.yaml", "hours: " + "[" * 5000 + "]" * 5000 + "\n",
                      r"deep\.yaml:1: hours[\[\]0]+\.\.\.: expected at most 100 levels of "
                      r"nesting"),
    "5000 digits": ("digits.yaml", "hours: [" + "1" * 5000 + "]\n",
                    r"digits\.yaml:1: hours\[0\]: expected an integer of at most 100 digits, "
                    r"not one of 5000"),
    "FIFO": ("fifo.yaml", None, r"fifo\.yaml: expected a regular file, not a FIFO"),
    "character device": ("chardev.yaml", None,
                         r"chardev\.yaml: expected a regular file, not a character device"),
    "directory": ("dir.yaml", None, r"dir\.yaml: expected a regular file, not a directory"),
    "2 MiB": ("large.yaml", "# " + "x" * (2 << 20) + "\n",
              r"large\.yaml: expected a file of at most 1 MiB, not one of 2097155 bytes"),
    "costs of 5000 digits": ("c1.yaml", "datasets:\n  c1:\n    path: c1\n    costs: "
                             "{file: costs.json}\n",
                             r"c1/costs\.json: expected integers of at most 100 digits, not "
                             r"one of 5000"),
    "costs nested 5000 deep": ("c2.yaml", "datasets:\n  c2:\n    path: c2\n    costs: "
                               "{file: costs.json}\n",
                               r"c2/costs\.json: expected a few levels of nesting"),
    "bomb given to Snakemake": (None, None, r"--config: datasets\.s\.levels(\[\d\])+: expected "
                                            r"at most 400000 values in all"),
    "recursion given to Snakemake": (None, None, r"--config: datasets\.s\.levels\[0\]: "
                                                 r"expected a value that does not contain"),
}

PROBE = r"""
import contextlib, io, json, signal, sys
from esize_study.datasets import config as dconf

def alarm(*_):
    raise TimeoutError("the check did not end")

signal.signal(signal.SIGALRM, alarm)
out = {}
for case, name in json.loads(sys.argv[1]).items():
    err = io.StringIO()
    signal.alarm(10)
    try:
        if name is None:  # values given to Snakemake (--config): the config as loaded
            levels = ["x"] * 9
            for _ in range(8):
                levels = [levels] * 9
            if "recursion" in case:
                levels = []
                levels.append(levels)
            given = {"datasets": {"s": {"kind": "standin", "levels": levels}}}
            line = dconf.config_problem(given, sources=[("--config", given)])
            out[case] = [2 if line else 0, f"esize: error: {line}\n" if line else ""]
        else:
            with contextlib.redirect_stderr(err):
                code = dconf.main(["check-config", "base.yaml", name])
            out[case] = [code, err.getvalue()]
    except BaseException as exc:
        out[case] = [None, f"{type(exc).__name__}: {str(exc)[:200]}"]
    finally:
        signal.alarm(0)
print(json.dumps(out))
"""


def _limit_memory():  # in the probe's process only
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> dict[str, tuple[int | None, str]]:
    """The check of every :data:`HOSTILE` case, run in one subprocess: ``{case: (exit
    status or None for a crash, stderr)}``; a case that cannot be made is missing."""
    d = tmp_path_factory.mktemp("hostile")
    (d / "base.yaml").write_text(BASE)
    cases = {}
    for case, (name, text, _) in HOSTILE.items():
        if name is not None and text is not None:
            (d / name).write_text(text)
        cases[case] = name
    os.mkfifo(d / "fifo.yaml")
    (d / "dir.yaml").mkdir()
    try:  # device numbers 0, 0: no device behind it (opening it fails), none is read
        os.mknod(d / "chardev.yaml", stat.S_IFCHR | 0o600, os.makedev(0, 0))
    except (OSError, AttributeError):
        del cases["character device"]
    for n, content in (("c1", '{"sets": {"alpha": {"new_binary_seconds": ' + "1" * 5000 + "}}}"),
                       ("c2", "[" * 5000 + "]" * 5000)):
        shutil.copytree(TINY, d / n)
        (d / n / "costs.json").write_text(content)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    res = subprocess.run([sys.executable, "-c", PROBE, json.dumps(cases)], cwd=d, env=env,
                         capture_output=True, text=True, timeout=300,
                         preexec_fn=_limit_memory if sys.platform == "linux" else None)
    assert res.returncode == 0, res.stderr[-2000:]
    return {case: tuple(got) for case, got in json.loads(res.stdout).items()}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_input_is_one_line_exit_2(hostile, case):
    import re

    if case not in hostile:
        pytest.skip("cannot make a character device here")
    code, err = hostile[case]
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert re.fullmatch(rf"esize: error: {HOSTILE[case][2]}.*", lines[0]), lines[0]
    assert len(lines[0]) < 300, lines[0]
