"""`check-config` on a user's own dataset: its name, its data path and its costs file.

Every bad configuration is checked as the Makefile checks it, with
``python -m esize_study.datasets.config check-config config/config.yaml FILE`` as a
subprocess: exit status 2 and exactly one line on stderr naming the file (the costs
file, or the configuration file for a problem in the configuration), the key and
the problem. The costs file's fields are those the pipeline reads
(:data:`esize_study.datasets.costs.COSTS_FIELDS`), documented alike in the schema and
the README.
"""

from __future__ import annotations

import copy
import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from esize_study.datasets import costs as dcosts
from esize_study.datasets import settings as ds
from esize_study.estimate import costs as ecosts

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
TINY = ROOT / "tests" / "data" / "tiny-dataset"  # alpha.csv, beta.csv

ENTRY = {
    "steady_iteration_seconds": {"mean": 0.005},
    "new_binary_seconds": 0.5,
    "execution_overhead_seconds": {"mean": 0.004},
    "warmup_excess_seconds": {"mean": 0.006},
    "process_seconds": {"mean": 0.27},
}
COSTS = {"unit": "seconds", "sets": {"alpha": ENTRY, "beta": ENTRY}}


def check(*files: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The Makefile's pre-check of the shipped configuration with ``files`` on top."""
    return subprocess.run(
        [sys.executable, "-m", "esize_study.datasets.config", "check-config", "config/config.yaml",
         *map(str, files)],
        cwd=cwd, capture_output=True, text=True, timeout=120,
    )


def one_line(res: subprocess.CompletedProcess) -> str:
    """The single error line of a refused configuration (exit status 2)."""
    assert res.returncode == 2, (res.returncode, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert "Traceback" not in res.stderr and res.stdout == ""
    assert lines[0].startswith("esize: error: ")
    return lines[0]


@pytest.fixture
def dataset(tmp_path) -> Path:
    """A directory dataset of two benchmarks (alpha, beta) with a valid costs file."""
    d = tmp_path / "mine"
    shutil.copytree(TINY, d)
    (d / "costs.json").write_text(json.dumps(COSTS, indent=2))
    return d


def config(tmp_path: Path, *, name: str = "mine", path: str | Path | None = None,
           costs: str = "{file: costs.json}") -> Path:
    """A configuration adding one dataset; the name is on line 2, path 4, costs 5."""
    path = tmp_path / "mine" if path is None else path
    f = tmp_path / "my.yaml"
    f.write_text(f"datasets:\n  {name}:\n    kind: directory\n    path: {path}\n"
                 f"    costs: {costs}\n")
    return f


def costs_file(dataset: Path, change, name: str = "costs.json") -> Path:
    """The dataset's costs file, rewritten as JSON after ``change(data)``."""
    data = copy.deepcopy(COSTS)
    change(data)
    f = dataset / name
    f.write_text(json.dumps(data, indent=2))
    return f


def _drop(keys):
    def change(data):
        entry = data["sets"]["beta"] = copy.deepcopy(ENTRY)
        for k in keys[:-1]:
            entry = entry[k]
        del entry[keys[-1]]
    return change


def _set(keys, value):
    def change(data):
        entry = data["sets"]["beta"] = copy.deepcopy(ENTRY)
        for k in keys[:-1]:
            entry = entry[k]
        entry[keys[-1]] = value
    return change


# -- what passes ------------------------------------------------------------------------
def test_shipped_configurations_pass():
    for files in ([], ["config/test.yaml"], ["workflow/profiles/slurm/paper.yaml"]):
        res = check(*files)
        assert (res.returncode, res.stderr) == (0, ""), files


def test_a_good_own_dataset_passes(tmp_path, dataset):
    res = check(config(tmp_path))
    assert (res.returncode, res.stderr) == (0, "")


@pytest.mark.parametrize("change", [
    _drop(("process_seconds",)),                       # optional
    _set(("warmup_excess_seconds", "mean"), -0.002),   # any sign: counts as 0
    lambda data: data.pop("unit"),                     # optional
    lambda data: data["sets"].update({"alpha-plus1": {"notes": "not read"}}),  # other keys
    lambda data: data["sets"]["alpha"].update({"new_execution_seconds": "not read"}),
], ids=["no process_seconds", "negative excess", "no unit", "other entries",
        "other fields"])
def test_what_the_costs_file_may_leave_out_or_add(tmp_path, dataset, change):
    costs_file(dataset, change)
    res = check(config(tmp_path))
    assert (res.returncode, res.stderr) == (0, "")


def test_a_yaml_costs_file_is_read(tmp_path, dataset):
    (dataset / "costs.yaml").write_text(yaml.safe_dump(COSTS))
    res = check(config(tmp_path, costs="{file: costs.yaml}"))
    assert (res.returncode, res.stderr) == (0, "")


# -- the costs file: one line naming it, the key and the problem -------------------------
REQUIRED = [keys for keys, required, _, _ in dcosts.COSTS_FIELDS if required]


@pytest.mark.parametrize("keys", REQUIRED, ids=[".".join(k) for k in REQUIRED])
def test_costs_file_missing_a_field(tmp_path, dataset, keys):
    f = costs_file(dataset, _drop(keys))
    line = one_line(check(config(tmp_path)))
    assert re.match(rf"esize: error: {re.escape(str(f))}:\d+: "
                    rf"sets\.beta\.{re.escape('.'.join(keys))}: missing, in seconds: ", line), line


def test_a_missing_field_names_the_line_of_its_entry(tmp_path, dataset):
    f = costs_file(dataset, _drop(("new_binary_seconds",)))
    beta = next(i for i, s in enumerate(f.read_text().splitlines(), 1) if '"beta"' in s)
    assert one_line(check(config(tmp_path))) == (
        f"esize: error: {f}:{beta}: sets.beta.new_binary_seconds: missing, in seconds: "
        "mean time to build one binary")


def test_a_number_where_a_mapping_belongs(tmp_path, dataset):
    # was: "costs file entry lacks 'float' object is not subscriptable"
    f = costs_file(dataset, _set(("execution_overhead_seconds",), 0.004))
    line = one_line(check(config(tmp_path)))
    assert re.fullmatch(rf"esize: error: {re.escape(str(f))}:\d+: sets\.beta\."
                        r"execution_overhead_seconds: expected a mapping with 'mean', got 0\.004",
                        line), line


@pytest.mark.parametrize("keys, value, problem", [
    (("new_binary_seconds",), 0, "0 is not positive: a time in seconds must be more than 0"),
    (("steady_iteration_seconds", "mean"), -0.005,
     "-0.005 is not positive: a time in seconds must be more than 0"),
    (("execution_overhead_seconds", "mean"), 0.0,
     "0.0 is not positive: a time in seconds must be more than 0"),
    (("process_seconds", "mean"), -1, "-1 is not positive: a time in seconds must be more than 0"),
    (("new_binary_seconds",), math.nan, "nan is not a finite number"),
    (("warmup_excess_seconds", "mean"), math.inf, "inf is not a finite number"),
    (("new_binary_seconds",), "0.5", "expected a number of seconds, got '0.5'"),
    (("new_binary_seconds",), True, "expected a number of seconds, got True"),
    (("new_binary_seconds",), None, "expected a number of seconds, got None"),
], ids=["zero build", "negative iteration", "zero overhead", "negative process", "NaN",
        "infinite", "text", "boolean", "null"])
def test_costs_that_are_not_positive_finite_numbers(tmp_path, dataset, keys, value, problem):
    f = costs_file(dataset, _set(keys, value))
    line = one_line(check(config(tmp_path)))
    assert re.fullmatch(rf"esize: error: {re.escape(str(f))}:\d+: "
                        rf"sets\.beta\.{re.escape('.'.join(keys))}: {re.escape(problem)}",
                        line), line


@pytest.mark.parametrize("name, text, expected", [
    ("costs.json", "{not json", ":1: not valid JSON: Expecting property name enclosed in "
                                "double quotes (column 2)"),
    ("costs.json", '{"sets": {}}\n}\n', ":2: not valid JSON: Extra data (column 1)"),
    ("costs.json", "sets: {}\n", ":1: not valid JSON: Expecting value (column 1)"),
    ("costs.yaml", "sets:\n  alpha: [1\n", ":3: not valid YAML: expected ',' or ']', "
                                           "but got '<stream end>'"),
    ("costs.json", "", ": the costs file is empty"),
    ("costs.json", "[1, 2]", ": a costs file holds a mapping with 'sets': {benchmark: "
                             "costs}, not [1, 2]"),
    ("costs.json", b"\xff\xfe{}", ": cannot read: not UTF-8 text"),
], ids=["not JSON", "trailing garbage", "YAML named .json", "not YAML", "empty", "a list",
        "not UTF-8"])
def test_costs_file_that_does_not_parse(tmp_path, dataset, name, text, expected):
    f = dataset / name
    if isinstance(text, bytes):
        f.write_bytes(text)
    else:
        f.write_text(text)
    assert one_line(check(config(tmp_path, costs=f"{{file: {name}}}"))) == (
        f"esize: error: {f}{expected}")


@pytest.mark.parametrize("change, expected", [
    (lambda d: d.pop("sets"),
     "sets: missing: the costs of each benchmark, sets: {benchmark: costs}"),
    (lambda d: d.update(sets=[1]), "sets: expected a mapping {benchmark: costs}, got [1]"),
    (lambda d: d["sets"].pop("beta"),
     "sets.beta: missing: every benchmark of the dataset needs its costs (has: alpha)"),
    (lambda d: d["sets"].update(beta=3), "sets.beta: expected a mapping of costs, got 3"),
    (lambda d: d.update(unit="ms"), "unit: 'ms' is not supported: every time is in seconds"),
], ids=["no sets", "sets a list", "no entry", "entry a number", "unit"])
def test_costs_file_without_the_benchmarks(tmp_path, dataset, change, expected):
    f = costs_file(dataset, change)
    line = one_line(check(config(tmp_path)))
    assert re.fullmatch(rf"esize: error: {re.escape(str(f))}(:\d+)?: {re.escape(expected)}",
                        line), line


# -- the configuration: one line naming it, its line and the key -------------------------
def test_costs_file_that_is_not_there_or_not_a_file(tmp_path, dataset):
    f = config(tmp_path, costs="{file: nothing.json}")
    assert one_line(check(f)) == (
        f"esize: error: {f}:5: datasets.mine.costs.file: costs file "
        f"'{dataset / 'nothing.json'}' does not exist (a relative name starts from the "
        "dataset's directory)")
    (dataset / "sub").mkdir()
    f = config(tmp_path, costs="{file: sub}")
    assert one_line(check(f)) == (
        f"esize: error: {f}:5: datasets.mine.costs.file: costs file '{dataset / 'sub'}' is a "
        "directory, not a file (a relative name starts from the dataset's directory)")


def test_data_path_that_is_not_a_directory_of_data(tmp_path, dataset):
    f = config(tmp_path, path=tmp_path / "nowhere")
    assert one_line(check(f)) == (
        f"esize: error: {f}:4: datasets.mine.path: directory '{tmp_path / 'nowhere'}' does not "
        "exist (a relative path starts from the directory Snakemake runs in)")
    f = config(tmp_path, path=dataset / "alpha.csv")
    assert one_line(check(f)) == (
        f"esize: error: {f}:4: datasets.mine.path: directory '{dataset / 'alpha.csv'}' is a "
        "file, not a directory (a relative path starts from the directory Snakemake runs in)")
    (tmp_path / "empty").mkdir()
    f = config(tmp_path, path=tmp_path / "empty")
    assert one_line(check(f)) == (
        f"esize: error: {f}:4: datasets.mine.path: no .parquet or .csv files in "
        f"'{tmp_path / 'empty'}'")
    (dataset / "gamma.csv").mkdir()
    f = config(tmp_path)
    assert one_line(check(f)) == (
        f"esize: error: {f}:4: datasets.mine.path: data file '{dataset / 'gamma.csv'}' is a "
        "directory, not a file")


def test_paper_costs_only_for_the_papers_benchmarks(tmp_path, dataset):
    f = config(tmp_path, costs="paper")
    assert one_line(check(f)) == (
        f"esize: error: {f}:5: datasets.mine.costs: 'paper' costs exist for the paper's ten "
        "benchmarks only, not for 'alpha', 'beta': use 'data' or a costs file "
        "({file: costs.json})")


RULE = "use letters, digits, '.', '_' and '-', starting with a letter or digit"


@pytest.mark.parametrize("written, problem", [
    ('"a/../b"', f"name 'a/../b' is not allowed: {RULE}"),
    ("a..b", f"name 'a..b' is not allowed: {RULE}, and no '..'"),
    ("'..'", f"name '..' is not allowed: {RULE}"),
    ('"{x}"', f"name '{{x}}' is not allowed: {RULE}"),
    ("my{dataset}", f"name 'my{{dataset}}' is not allowed: {RULE}"),
    ("a/b", f"name 'a/b' is not allowed: {RULE}"),
    (".hidden", f"name '.hidden' is not allowed: {RULE}"),
    ("-x", f"name '-x' is not allowed: {RULE}"),
    ('"my data"', f"name 'my data' is not allowed: {RULE}"),
    ('"x\\n"', f"name 'x\\n' is not allowed: {RULE}"),
    ("2024", "name 2024 is not allowed: YAML reads it as a number or another value, not as "
             "text; write it in quotes ('2024')"),
], ids=["a/../b", "a..b", "..", "{x}", "my{dataset}", "a/b", ".hidden", "-x", "space",
        "newline", "number"])
def test_dataset_names_are_restricted(tmp_path, dataset, written, problem):
    f = config(tmp_path, name=written)
    assert one_line(check(f)) == f"esize: error: {f}:2: datasets: {problem}"


@pytest.mark.parametrize("name", ["a", "A1", "my-benchmarks", "x86_64.v2", "2024-runs", "a.b"])
def test_good_dataset_names_pass(tmp_path, dataset, name):
    assert ds.dataset_name_problem(name) is None
    res = check(config(tmp_path, name=name))
    assert (res.returncode, res.stderr) == (0, "")


def test_the_schema_refuses_the_same_names():
    import jsonschema

    names = yaml.safe_load(SCHEMA.read_text())["properties"]["datasets"]["propertyNames"]
    validator = jsonschema.Draft202012Validator(names)
    for name in ("a/../b", "a..b", "{x}", "a/b", ".x", "-x", "a b", "..", ""):
        assert not validator.is_valid(name), name
        assert ds.dataset_name_problem(name) is not None, name
    for name in ("a", "my-benchmarks", "x86_64.v2", "a.b", "A_1"):
        assert validator.is_valid(name) and ds.dataset_name_problem(name) is None, name


# -- one schema: the code, the schema and the README agree --------------------------------
def _defs() -> dict:
    return yaml.safe_load(SCHEMA.read_text())["$defs"]


def test_the_schema_names_every_field_the_code_reads():
    entry = _defs()["costs_entry"]
    fields = {}
    for name, spec in entry["properties"].items():
        if spec.get("type") == "object":
            for inner, sub in spec["properties"].items():
                fields[(name, inner)] = (name in entry["required"] and inner in spec["required"],
                                         sub.get("minimum") == dcosts.MIN_SECONDS, sub)
        else:
            fields[(name,)] = (name in entry["required"],
                               spec.get("minimum") == dcosts.MIN_SECONDS, spec)
    assert set(fields) == {keys for keys, *_ in dcosts.COSTS_FIELDS}
    for keys, required, positive, _ in dcosts.COSTS_FIELDS:
        assert fields[keys][:2] == (required, positive), keys
        assert fields[keys][2]["type"] == "number" and "seconds" in fields[keys][2]["description"]
    assert "new_execution_seconds" not in yaml.safe_dump(entry)  # written by measure/, not read


def _example_from_readme() -> dict:
    text = (ROOT / "docs" / "reproduction.md").read_text()
    section = text[text.index("### Adding a dataset"):]
    block = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    return json.loads(block)


@pytest.mark.parametrize("which", ["data/measured-x86_64/costs.json",
                                   "data/measured-x86_64-sample/costs.json", "README"])
def test_shipped_costs_files_and_the_readme_example_follow_the_schema(which):
    import jsonschema

    data = _example_from_readme() if which == "README" else json.loads((ROOT / which).read_text())
    defs = _defs()
    jsonschema.Draft202012Validator({**defs["costs_file"], "$defs": defs}).validate(data)
    assert dcosts.costs_problem(data, list(data["sets"])) is None
    for entry in data["sets"].values():  # and the cost model takes every entry
        assert ecosts.cost_model(entry, 15).costs[0] > 0


@pytest.mark.parametrize("keys", REQUIRED, ids=[".".join(k) for k in REQUIRED])
def test_the_schema_refuses_what_the_check_refuses(keys):
    import jsonschema

    defs = _defs()
    validator = jsonschema.Draft202012Validator({**defs["costs_file"], "$defs": defs})
    data = copy.deepcopy(COSTS)
    _drop(keys)(data)
    assert not validator.is_valid(data)
    assert dcosts.costs_problem(data, ["alpha", "beta"])[0] == ("sets", "beta", *keys)


# -- the same through Snakemake and make --------------------------------------------------
@pytest.fixture
def workdir(tmp_path) -> Path:
    wd = tmp_path / "wd"
    wd.mkdir()
    for f in ("Snakefile", "Makefile"):
        shutil.copy(ROOT / f, wd / f)
    for d in ("workflow", "config"):
        shutil.copytree(ROOT / d, wd / d)
    (wd / "data").symlink_to(ROOT / "data")  # the measured dataset of config/config.yaml
    return wd


def test_snakemake_stops_with_the_same_line(tmp_path, dataset, workdir):
    f = costs_file(dataset, _drop(("warmup_excess_seconds", "mean")))
    res = subprocess.run(
        [sys.executable, "-m", "snakemake", "--workflow-profile", "workflow/profiles/default",
         "-n", "--configfile", str(config(tmp_path))],
        cwd=workdir, capture_output=True, text=True, timeout=300)
    assert res.returncode != 0
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("esize: error: ")]
    assert errors == [one_line(check(config(tmp_path)))], res.stderr
    assert str(f) in errors[0] and "Traceback" not in res.stderr


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_reproduce_stops_before_snakemake(tmp_path, workdir):
    f = config(tmp_path, name='"a/../b"', path=tmp_path)
    res = subprocess.run(
        ["make", f"VENV={sys.prefix}", "-o", f"{sys.prefix}/.installed", "reproduce",
         f"CONFIG={f}", "ARGS=--dry-run"],
        cwd=workdir, capture_output=True, text=True, timeout=300)
    assert res.returncode == 2 and "snakemake" not in res.stdout
    assert res.stderr.splitlines()[0] == (
        f"esize: error: {f}:2: datasets: name 'a/../b' is not allowed: {RULE}")


@pytest.mark.parametrize("entry, problem", [
    ("{benchmarks: [gamma], binaries: [2]}",
     "datasets.mine.false_alarm.refine.cells[0].benchmarks: no benchmark 'gamma' in dataset "
     "'mine'"),
    ("{benchmarks: all, binaries: [7]}",
     "datasets.mine.false_alarm.refine.cells[0].binaries: size 7 is not among the grid's "
     "binaries [1, 2, 3]"),
])
def test_a_refined_cell_names_the_datasets_benchmarks_and_grid(tmp_path, dataset, entry, problem):
    f = config(tmp_path)
    f.write_text(f.read_text() + "    false_alarm:\n      binaries: [1, 2, 3]\n"
                 f"      refine:\n        factor: 10\n        cells:\n          - {entry}\n")
    line = one_line(check(f))
    assert line.startswith(f"esize: error: {f}:") and line.endswith(problem), line
    ok = f.read_text().replace(entry, "{benchmarks: [alpha], binaries: [2, 3]}")
    f.write_text(ok)
    assert check(f).returncode == 0
