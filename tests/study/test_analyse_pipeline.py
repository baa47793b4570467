"""`make analyse CONFIG=my.yaml` end to end, in a copy of the workflow.

Every output lies under pytest's tmp_path (the config keys results_dir, logs_dir,
data_dir): (a) pyperf files of one benchmark (telco on CPython 3.6 and 3.8), (b)
twelve tidy benchmarks made with a seeded generator (a known injected ratio for one
comparison, an A/A pair for the other), and the README's section "Add your own
dataset", each command as written. Each `make analyse` must take under 3 minutes on
the 2-core development machine; the report must hold the variance table, the plan,
the comparisons' verdicts and the forest plot, and nothing of the paper's tables.
"""

from __future__ import annotations

import copy
import json
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from esize_study.analysis import report

from .test_analyse import EXAMPLE, MAKE, PAPER_WORDS, REAL, ROOT, needs_make, twelve

#: The longest a `make analyse` of these datasets may take (the task's bound).
MAX_SECONDS = 180


def _workflow(tmp: Path, *, examples: bool = False) -> Path:
    """A copy of what `make analyse` runs (the package comes from this environment)."""
    wd = tmp / "wd"
    wd.mkdir()
    for f in ("Snakefile", "Makefile"):
        shutil.copy(ROOT / f, wd / f)
    for d in ("workflow", "config") + (("examples",) if examples else ()):
        shutil.copytree(ROOT / d, wd / d)
    return wd


def _config(tmp: Path, datasets: dict, **extra) -> Path:
    path = tmp / "my.yaml"
    path.write_text(yaml.safe_dump({"results_dir": str(tmp / "results"),
                                    "logs_dir": str(tmp / "logs"),
                                    "data_dir": str(tmp / "generated"),
                                    "datasets": datasets, **extra}, sort_keys=False))
    return path


def _analyse(wd: Path, cfg: Path, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    if shutil.which("make"):
        cmd = [*MAKE, "-C", str(wd), "analyse", f"CONFIG={cfg}", *args]
    else:
        cmd = [sys.executable, "-m", "snakemake", "--workflow-profile", "workflow/profiles/default",
               "analyse", "--configfile", "config/analyse-defaults.yaml", str(cfg),
               "--replace-workflow-config", *args]
    res = subprocess.run(cmd, cwd=wd, capture_output=True, text=True, timeout=900)
    if res.returncode == 0:  # a successful run prints no traceback (issues 41 and 43)
        log = res.stdout + res.stderr
        assert "Traceback" not in log and "Exception" not in log, log[-3000:]
    return res, time.monotonic() - start


def test_snakemake_plans_the_analysis_alone(tmp_path):
    wd = _workflow(tmp_path)
    data = tmp_path / "data"
    twelve(data)
    cfg = _config(tmp_path, {"mine": {"path": str(data), "comparisons": [
        {"old": "qs-old", "new": "qs-new"}]}})
    res = subprocess.run(
        [sys.executable, "-m", "snakemake", "--workflow-profile", "workflow/profiles/default",
         "analyse", "--configfile", "config/analyse-defaults.yaml", str(cfg),
         "--replace-workflow-config", "-n", "--quiet", "rules"],
        cwd=wd, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    jobs = set(re.findall(r"^(analyse\w*)\s+\d+", res.stdout + res.stderr, re.M))
    assert jobs == {"analyse", "analyse_estimate", "analyse_compare", "analyse_simulate",
                    "analyse_variance_figure", "analyse_warmup_figure", "analyse_forest_figure",
                    "analyse_report"}, res.stdout


def _report_checks(base: Path, headline: str) -> str:
    md = (base / "report.md").read_text()
    assert md.startswith(f"# Analysis of the dataset {base.name}\n")
    assert f"**{headline}**" in md
    assert "| benchmark | level | n | S % | T % | share |" in md  # variance per level
    assert "## 5. Planning the next experiment" in md and "What each budget buys" in md
    assert "## 1. Comparisons" in md and "| comparison (new vs old) |" in md
    assert "![forest](figures/forest.png)" in md and "### Figure 1. The comparisons" in md
    for name in ("variance", "warmup", "forest"):
        assert (base / "figures" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"![{name}](figures/{name}.png)" in md
    assert not any(w in md for w in PAPER_WORDS), [w for w in PAPER_WORDS if w in md]
    page = (base / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "http" not in page
    assert page.count('src="data:image/png;base64,') == 3
    return md


@pytest.mark.slow
@needs_make
def test_a_pyperf_dataset_of_one_benchmark(tmp_path):
    """(a) telco on CPython 3.6 and 3.8 (pyperf, one benchmark per file)."""
    data = tmp_path / "telco"
    data.mkdir()
    shutil.copy(REAL / "pyperf-pyperformance-py36-telco.json", data / "py36.json")
    shutil.copy(REAL / "pyperf-pyperformance-py38-telco.json", data / "py38.json")
    wd = _workflow(tmp_path)
    cfg = _config(tmp_path, {"telco": {"path": str(data), "comparisons": [
        {"old": "py36", "new": "py38"}]}})
    res, elapsed = _analyse(wd, cfg)
    assert res.returncode == 0, (res.stdout + res.stderr)[-4000:]
    assert elapsed < MAX_SECONDS, elapsed
    md = _report_checks(tmp_path / "results" / "telco", "1 comparison: 1 faster; 2 benchmarks.")
    assert "`py38/telco vs py36/telco`" in md and "process > value" in md
    assert "--processes" in md  # the harness's options for the next run
    assert "2 level(s) (process > value)" in md  # false alarms left out, and why
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["telco"]


@pytest.mark.slow
@needs_make
def test_twelve_tidy_benchmarks_with_two_comparisons(tmp_path):
    """(b) twelve tidy benchmarks: a known 6 % slowdown and an A/A pair."""
    data = tmp_path / "twelve"
    names = twelve(data)
    wd = _workflow(tmp_path)
    cfg = _config(tmp_path, {"mine": {
        "kind": "directory", "path": str(data), "levels": ["binary", "execution"],
        "comparisons": [{"old": "qs-old", "new": "qs-new", "ratio": 1.06},
                        {"old": "aa-old", "new": "aa-new", "ratio": 1.0}]}})
    res, elapsed = _analyse(wd, cfg)
    assert res.returncode == 0, (res.stdout + res.stderr)[-4000:]
    assert elapsed < MAX_SECONDS, elapsed
    base = tmp_path / "results" / "mine"
    cmp = json.loads((base / "analysis" / "comparisons.json").read_text())
    verdicts = {c["label"]: c["verdict"] for c in cmp["comparisons"]}
    assert verdicts["qs-new vs qs-old"] == "slower"
    assert verdicts["aa-new vs aa-old"] in ("same", "inconclusive")
    counts = {v: list(verdicts.values()).count(v) for v in report.VERDICT_ORDER}
    said = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
    md = _report_checks(base, f"2 comparisons: {said}; 12 benchmarks.")
    for n in names:
        assert f"| `{n}` | binary |" in md
    assert "### Known ratios: coverage and power by subsampling" in md
    assert "## 6. False alarms on this dataset" in md and "Left out" not in md
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["mine"]
    # a second run does nothing
    again, _ = _analyse(wd, cfg)
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr


#: The simulations of a quick run (the schema's smallest sizes): the pipeline's plumbing.
QUICK = {"resamples": 200, "false_alarm": {"comparisons": 10, "resamples": 10},
         "known_ratio": {"comparisons": 10, "resamples": 10}}


@pytest.mark.slow
@needs_make
def test_a_deleted_or_damaged_intermediate(tmp_path):
    """Issue 43, item 7: `make analyse` rebuilds a deleted intermediate file (as `make
    reproduce` does), and a garbled one that a later job reads stops the run with one
    line naming it, no traceback."""
    data = tmp_path / "data"
    shutil.copytree(EXAMPLE / "data", data)
    wd = _workflow(tmp_path)
    cfg = _config(tmp_path, {"ex": {"path": str(data), "levels": ["binary", "execution"],
                                    "comparisons": [{"old": "qs-old", "new": "qs-new"}]}},
                  analysis=QUICK)
    res, _ = _analyse(wd, cfg)
    assert res.returncode == 0, (res.stdout + res.stderr)[-4000:]
    base = tmp_path / "results" / "ex"
    made = sorted(p.relative_to(base) for p in base.rglob("*") if p.is_file())
    for name in ("analysis/simulations.json", "figures/warmup.png"):
        (base / name).unlink()
        res, _ = _analyse(wd, cfg)
        assert res.returncode == 0, (res.stdout + res.stderr)[-4000:]
        assert (base / name).is_file(), (name, (res.stdout + res.stderr)[-3000:])
    assert sorted(p.relative_to(base) for p in base.rglob("*") if p.is_file()) == made
    # a garbled estimates.json (newer than the figures, so that they are redrawn)
    est = base / "analysis" / "estimates.json"
    est.write_bytes(b"\x00" * 100)
    res, _ = _analyse(wd, cfg)
    log = res.stdout + res.stderr
    assert res.returncode != 0, log[-3000:]
    assert (f"esize: error: {est}: not valid JSON (line 1, column 1); delete it and rerun "
            "`make analyse`") in log.splitlines(), log[-3000:]
    assert "Traceback" not in log and "JSONDecodeError" not in log, log[-3000:]
    # as the line says: delete it and rerun
    est.unlink()
    res, _ = _analyse(wd, cfg)
    assert res.returncode == 0 and json.loads(est.read_text())["dataset"] == "ex"


def _readme_section() -> str:
    """The docs page "Add your own dataset" (a section of README.md before the docs)."""
    return (ROOT / "docs" / "add-dataset.md").read_text()


def test_the_readme_shows_the_shipped_configuration_and_data():
    section = _readme_section()
    shown = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    assert shown == (EXAMPLE / "config.yaml").read_text()
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_data", EXAMPLE / "make_data.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, (mean, ratio, seed) in mod.BENCHMARKS.items():
        assert (EXAMPLE / "data" / f"{name}.csv").read_text() == mod.table(mean, ratio, seed)
    assert sum(p.stat().st_size for p in EXAMPLE.rglob("*") if p.is_file()) < 200_000


@pytest.mark.slow
@needs_make
def test_the_readme_section_runs_as_written(tmp_path):
    """Every command of README, "Add your own dataset", run as written in a copy of the
    workflow and examples; the output it shows is what it prints, and the headline it
    shows is the report's."""
    section = _readme_section()
    wd = _workflow(tmp_path, examples=True)
    commands = []
    for block in re.findall(r"```console\n(.*?)```", section, re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ "):
                shown = []
                for rest in lines[i + 1:]:
                    if rest.startswith("$ "):
                        break
                    shown.append(rest)
                commands.append((line[2:], shown))
    assert [c for c, _ in commands if c.startswith("make ")] == [
        "make analyse CONFIG=examples/analyse/config.yaml"]
    for command, shown in commands:
        args = shlex.split(command)
        if args[0] == "make":
            start = time.monotonic()
            res = subprocess.run([*MAKE, *args[1:]], cwd=wd, capture_output=True, text=True,
                                 timeout=900)
            assert time.monotonic() - start < MAX_SECONDS
        else:
            res = subprocess.run(args, cwd=wd, capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, (command, (res.stdout + res.stderr)[-3000:])
        if shown:
            assert res.stdout.splitlines() == shown, command
    headline = re.search(r"```text\n(\*\*.*\*\*)\n```", section).group(1)
    md = (wd / "results" / "example" / "report.md").read_text()
    assert f"\n{headline}\n" in md
    _report_checks(wd / "results" / "example", headline.strip("*"))
    # the errors it shows are the check's (file name aside)
    for line in re.findall(r"^esize: error: my\.yaml:(\d+): (.*)$", section, re.M):
        assert line[1].split(":")[0].startswith("datasets.example.")
    bad = copy.deepcopy(yaml.safe_load((EXAMPLE / "config.yaml").read_text()))
    bad["datasets"]["example"]["comparisons"][0]["new"] = "qs-nwe"
    (wd / "my.yaml").write_text(yaml.safe_dump(bad, sort_keys=False))
    res = subprocess.run([sys.executable, "-m", "esize_study.analysis", "check-config",
                          "config/analyse-defaults.yaml", "my.yaml"], cwd=wd,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2
    assert re.search(r"my\.yaml:\d+: (.*)", res.stderr).group(1) in section
