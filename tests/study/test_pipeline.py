"""End to end: the Snakemake pipeline on the tiny test configuration.

The workflow files (and the Makefile) are copied into a temporary directory and run
there, so the test never touches the repository's results/ and works from any
checkout. The pipeline runs through `make reproduce-test`, as a user runs it: once
interrupted with Ctrl-C (SIGINT to the process group) after its first jobs, then
resumed by the same plain command.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from esize_study.artifact import codehash as ch
from esize_study.claims.claim import REPRODUCTION, SIMULATION, VERDICTS, read_claims, tally
from esize_study.datasets import config as dconf
from esize_study.datasets import files as dfiles
from esize_study.paper import numbers as paper
from esize_study.render.registry import FIGURES

ROOT = Path(__file__).resolve().parents[2]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]
PROFILE = ["--workflow-profile", "workflow/profiles/default"]
# `make` with this interpreter's environment as the virtualenv; -o: never reinstall it
MAKE = ["make", f"VENV={sys.prefix}", "-o", f"{sys.prefix}/.installed"]

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    wd = tmp_path_factory.mktemp("pipeline")
    for f in ("Snakefile", "Makefile"):
        shutil.copy(ROOT / f, wd / f)
    for d in ("workflow", "config"):
        shutil.copytree(ROOT / d, wd / d)
    shutil.copytree(ROOT / "tests" / "data", wd / "tests" / "data")
    # the committed sample of the measured dataset that config/test.yaml runs
    shutil.copytree(ROOT / "data" / "measured-x86_64-sample",
                    wd / "data" / "measured-x86_64-sample")
    # and that of the Mono dataset, measured in sessions
    shutil.copytree(ROOT / "data" / "mono-x86_64-sample", wd / "data" / "mono-x86_64-sample")
    return wd


def _run(wd: Path, *args: str, profile: bool = True) -> subprocess.CompletedProcess:
    """Snakemake on the tiny configuration (with the Makefile's profile by default)."""
    return subprocess.run(
        [*SNAKEMAKE, *(PROFILE if profile else []), "--cores", "2",
         "--configfile", "config/test.yaml", *args],
        cwd=wd,
        capture_output=True,
        text=True,
        timeout=900,
    )


def _make_command(wd: Path, target: str = "reproduce-test", *args: str) -> list[str]:
    """``make TARGET ARGS...`` in ``wd``; without make, what it runs for reproduce-test."""
    if shutil.which("make"):
        return [*MAKE, "-C", str(wd), target, *args]
    assert target == "reproduce-test", "needs make"
    extra = [a for arg in args if arg.startswith("ARGS=") for a in shlex.split(arg[5:])]
    return [*SNAKEMAKE, *PROFILE, "--configfile", "config/test.yaml", *extra]


def _make(wd: Path, target: str = "reproduce-test", *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(_make_command(wd, target, *args), cwd=wd, capture_output=True,
                          text=True, timeout=900)


def _incomplete(wd: Path) -> list[Path]:
    """Existing files that Snakemake has marked incomplete (.snakemake/incomplete/)."""
    marks = wd / ".snakemake" / "incomplete"
    out = []
    for m in marks.rglob("*") if marks.is_dir() else ():
        try:
            path = wd / base64.urlsafe_b64decode(m.name).decode()
        except ValueError:
            continue
        if path.is_file():
            out.append(path)
    return out


@pytest.fixture(scope="module")
def interrupted(workdir) -> Path:
    """The pipeline stopped by Ctrl-C once its first jobs have finished."""
    proc = subprocess.Popen(
        _make_command(workdir), cwd=workdir,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    steady = workdir / "results-test"
    deadline = time.monotonic() + 300
    try:
        while len(list(steady.glob("*/steady/*.npz"))) < 2:
            assert proc.poll() is None, "the pipeline ended before it could be interrupted"
            assert time.monotonic() < deadline, "no job finished within 5 minutes"
            time.sleep(0.05)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        except ProcessLookupError:
            pass
        proc.wait(timeout=300)
    assert proc.returncode != 0
    if not _incomplete(workdir):
        # The interrupt fell between jobs: leave what an interrupted job leaves, an
        # output that exists but is marked incomplete, as Snakemake marks it.
        out = next(steady.glob("*/steady/*.npz")).relative_to(workdir).as_posix()
        marks = workdir / ".snakemake" / "incomplete"
        marks.mkdir(parents=True, exist_ok=True)
        (marks / base64.urlsafe_b64encode(out.encode()).decode()).write_text(
            '{"external_jobid": null}'
        )
    return workdir


@pytest.fixture(scope="module")
def ran(interrupted) -> Path:
    """The interrupted pipeline resumed by the same plain `make reproduce-test`."""
    res = _make(interrupted)
    assert res.returncode == 0, res.stderr[-3000:]
    return interrupted


def test_interrupted_run_is_resumed_by_the_plain_command(interrupted):
    # without the profile (the old Makefile), Snakemake refuses to start
    assert _incomplete(interrupted)
    res = _run(interrupted, "-n", profile=False)
    assert res.returncode != 0
    assert "IncompleteFilesException" in res.stdout + res.stderr
    # `make reproduce-test` rebuilds the incomplete files and finishes
    res = _make(interrupted)
    assert res.returncode == 0, res.stderr[-3000:]
    assert not _incomplete(interrupted)
    assert (interrupted / "results-test" / "tiny" / "report.md").stat().st_size > 0


@needs_make
def test_make_passes_extra_arguments_and_the_profile(ran):
    res = _make(ran, "reproduce-test", "ARGS=--dry-run --forcerun worked_examples")
    assert res.returncode == 0, res.stderr[-3000:]
    out = res.stdout + res.stderr
    assert "--workflow-profile workflow/profiles/default" in res.stdout  # the command
    assert "workflow specific profile workflow/profiles/default" in res.stderr  # Snakemake
    assert re.search(r"^worked_examples +1$", out, re.M)
    assert "This was a dry-run" in out
    assert (ran / "results-test" / "worked_examples.json").exists()


def test_every_output_is_a_target_of_rule_all(ran):
    """Rule all asks for every output of the DAG, so any deleted one is rebuilt."""
    res = _run(ran, "--summary")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = [line.split("\t") for line in res.stdout.splitlines()[1:] if line.strip()]
    outputs = {r[0] for r in rows}
    assert {r[2] for r in rows} >= {"generate_standin", "ingest", "variances", "fa_simulate",
                                    "cov_simulate", "report"}
    res = _run(ran, "-n", "--forcerun", "all")
    m = re.search(r"^(?:local)?rule all:\n\s+input: (.*)$", res.stdout + res.stderr, re.M)
    assert m, res.stdout[-2000:]
    assert outputs == set(m.group(1).split(", "))


def test_every_rule_of_the_run_has_benchmark_records(ran):
    """Every rule that ran a job wrote a benchmark file, and the per-rule table
    (esize_study.artifact.ruletimes, `make rule-times`) counts each job once."""
    from esize_study.artifact import ruletimes

    res = _run(ran, "--summary")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = [line.split("\t") for line in res.stdout.splitlines()[1:] if line.strip()]
    ran_rules = {r[2] for r in rows} - {"all"}
    assert {"fa_validate", "fa_figures", "report", "worked_examples"} <= ran_rules
    table = {t.rule: t for t in ruletimes.rule_table(ruletimes.read_runs(ran / "logs-test"))}
    assert set(table) == ran_rules
    # one record per job: the validation's shards of the tiny configuration
    assert table["fa_validate"].jobs == len({r[0] for r in rows if r[2] == "fa_validate"})
    if shutil.which("make"):
        res = subprocess.run([*MAKE, "-s", "-C", str(ran), "--no-print-directory",
                              "rule-times", "RUN_LOGS=logs-test"], cwd=ran,
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        assert res.stdout == ruletimes.markdown(list(table.values()))


def test_deleted_intermediate_is_rebuilt(ran):
    # beta: its consumers are cheap (alpha also feeds the coverage validation)
    gone = ran / "results-test" / "tiny" / "variances" / "beta.json"
    before = json.loads(gone.read_text())
    gone.unlink()
    res = _make(ran)
    assert res.returncode == 0, res.stderr[-3000:]
    assert json.loads(gone.read_text()) == before
    res = _run(ran, "-n")
    assert "Nothing to be done" in res.stdout + res.stderr


def test_lint_is_clean(workdir):
    res = _run(workdir, "--lint")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Lints for" not in res.stdout + res.stderr


def test_outputs_follow_the_contract(ran):
    res = ran / "results-test"
    for dataset in ("mono-style", "tiny"):
        tables = res / dataset / "tables"
        for name in ("variations", "precisions"):
            for ext in ("csv", "md", "tex"):
                assert (tables / f"{name}.{ext}").stat().st_size > 0
        var = pd.read_csv(tables / "variations.csv")
        assert list(var.columns) == ["benchmark", "level", "S_pct", "T_pct", "T2_positive"]
        assert set(var["level"]) == {"compilation", "execution", "measurement"}
        prec = pd.read_csv(tables / "precisions.csv")
        assert list(prec.columns)[:8] == [
            "source", "benchmark", "hours", "n1", "n2", "binaries", "ours_pct", "default_pct"
        ]
        assert set(prec["source"]) == {"paper", "data"}
    var = pd.read_csv(res / "mono-style" / "tables" / "variations.csv")
    assert sorted(var["benchmark"].unique()) == ["FFT NA OPT", "HTTP OPT", "Rijndael"]
    tiny = pd.read_csv(res / "tiny" / "tables" / "variations.csv")
    assert sorted(tiny["benchmark"].unique()) == ["alpha", "beta"]


def test_paper_precision_table_is_reproduced(ran):
    prec = pd.read_csv(ran / "results-test" / "mono-style" / "tables" / "precisions.csv")
    rows = prec[prec["source"] == "paper"]
    assert len(rows) == 30
    within01 = 0
    for r in rows.itertuples():
        po, pd_ = paper.PRECISIONS[r.benchmark][paper.PRECISION_HOURS.index(r.hours)]
        for ours, theirs, kind in ((r.ours_pct, po, "ours"), (r.default_pct, pd_, "default")):
            diff = abs(round(ours, 1) - theirs)
            within01 += diff <= 0.1 + 1e-9
            if not (r.benchmark == "Rijndael OPT" and r.hours == 3 and kind == "ours"):
                assert diff <= 0.25 + 1e-9, (r.benchmark, r.hours, kind, ours, theirs)
    assert within01 >= 54
    fft6 = rows[(rows["benchmark"] == "FFT") & (rows["hours"] == 6)].iloc[0]
    assert (fft6.n1, fft6.n2, fft6.binaries) == (4, 28, 16)
    assert round(fft6.ours_pct, 1) == 2.3 and round(fft6.default_pct, 1) == 4.7


def test_worked_examples_json(ran):
    we = json.loads((ran / "results-test" / "worked_examples.json").read_text())
    assert we["tWEData"]["S3_sq"] == pytest.approx(3.5625)
    assert we["tWE2Data"]["n1"] == 19 and we["tWE2Data"]["n1_paper_rounding"] == 18
    assert we["tWQEData"]["fieller"] == pytest.approx([0.1098, 1.7253], abs=5e-5)
    assert we["tWQEBoot"]["replicate1_mean_from_indices"] == pytest.approx(9.0)


def test_rerun_does_nothing(ran):
    res = _make(ran, "reproduce-test", "ARGS=--dry-run")
    assert res.returncode == 0
    assert "Nothing to be done" in res.stdout + res.stderr


# -- a bad configuration: one line naming the file, the line and the key -------------
def _error_lines(res: subprocess.CompletedProcess) -> list[str]:
    """The lines on stderr, checked to hold one esize error and nothing traceback-like."""
    lines = res.stderr.splitlines()
    assert res.returncode == 2, res.stderr
    assert [line for line in lines if line.startswith("esize: error: ")] == lines[-1:]
    assert len(lines) <= 3, res.stderr  # Snakemake's notes on the profile and config
    assert not any(w in res.stderr for w in ("Traceback", 'File "', "schema", "{'"))
    return lines


BAD_CONFIGS = {
    "unknown key": (
        "results_dir: results-test\nfals_alarm:\n  seed: 3\n",
        r"esize: error: config/bad\.yaml:2: unknown key 'fals_alarm'; did you mean "
        r"'false_alarm'\? \(known: results_dir, .*\)$",
    ),
    "bad dataset path": (
        "datasets:\n  mine:\n    kind: directory\n    path: data/no-such-dir\n",
        r"esize: error: config/bad\.yaml:4: datasets\.mine\.path: directory "
        r"'data/no-such-dir' does not exist",
    ),
}


@pytest.mark.parametrize("case", list(BAD_CONFIGS))
def test_bad_config_file_gives_one_line(workdir, tmp_path, case):
    text, expected = BAD_CONFIGS[case]
    wd = tmp_path / "wd"
    shutil.copytree(workdir / "workflow", wd / "workflow")
    shutil.copytree(workdir / "config", wd / "config")
    shutil.copy(workdir / "Snakefile", wd / "Snakefile")
    (wd / "config" / "bad.yaml").write_text(text)
    res = subprocess.run([*SNAKEMAKE, *PROFILE, "-n", "--configfile", "config/bad.yaml"],
                         cwd=wd, capture_output=True, text=True, timeout=300)
    assert re.match(expected, _error_lines(res)[-1])


def test_bad_command_line_config_is_named(workdir):
    res = _run(workdir, "-n", "--config", "warmup_fraction=1.5")
    assert _error_lines(res)[-1] == (
        "esize: error: --config: warmup_fraction: 1.5 is greater than or equal to the "
        "maximum of 1"
    )


@needs_make
def test_yaml_syntax_error_names_file_and_line(workdir, tmp_path):
    wd = tmp_path / "wd"
    shutil.copytree(workdir / "config", wd / "config")
    shutil.copytree(workdir / "workflow", wd / "workflow")
    shutil.copy(workdir / "Makefile", wd / "Makefile")
    (wd / "config" / "bad.yaml").write_text("false_alarm:\n  seed: 1\n   comparisons: 3\n")
    res = _make(wd, "reproduce", "CONFIG=config/bad.yaml")
    assert res.returncode == 2
    assert res.stderr.splitlines()[0] == (
        "esize: error: config/bad.yaml:3: YAML syntax error: mapping values are not "
        "allowed here"
    )
    assert "snakemake" not in res.stdout  # stopped before Snakemake started


def test_coverage_outputs_follow_the_contract(ran):
    res = ran / "results-test"
    for dataset in ("mono-style", "tiny"):
        base = res / dataset
        cov = pd.read_csv(base / "sim" / "coverage.csv")
        assert list(cov.columns) == [
            "benchmark", "experiment", "method", "scheme", "binaries", "executions",
            "measurements", "coverage", "se", "experiments",
        ]
        assert set(cov["experiment"]) == {"fCOV", "fCOVGrid", "fCOVR", "fCOVRSGrid"}
        assert set(cov["method"]) == {"asymptotic", "normal", "bootstrap"}
        assert set(cov.loc[cov["method"] != "bootstrap", "scheme"]) == {"-"}
        assert set(cov.loc[cov["method"] == "bootstrap", "scheme"]) <= {"RRR", "RRN", "RNN", "FLAT"}
        assert (cov.loc[cov["experiment"].isin(["fCOVR", "fCOVRSGrid"]), "binaries"] == 1).all()
        assert cov["coverage"].between(0, 1).all() and (cov["se"] >= 0).all()
        grid_boot = cov[(cov["experiment"] == "fCOVGrid") & (cov["method"] == "bootstrap")]
        assert not grid_boot.empty
        assert set(FIGURES["coverage"]) == {
            "fCOV", "fCOVGrid", "fCOVGridBoot", "fCOVR", "fCOVRSGrid", "fCOVNormal",
            "fCOVSchemes", "fCOVValidation"}
        for name in FIGURES["coverage"]:
            for ext in ("pdf", "png"):
                assert (base / "figures" / f"{name}.{ext}").stat().st_size > 0
        report = (base / "report_coverage.md").read_text()
        assert report.startswith("## Coverage")
        assert re.search(r"^\| figure +\| claim +\| paper +\| ours +\| MC error +\| rule +\| "
                         r"verdict +\|$", report, re.M)
        claims = read_claims(base / "claims_coverage.json")
        assert claims and all(c.verdict in VERDICTS for c in claims)
        assert len({c.id for c in claims}) == len(claims)
        assert "Approximate against exact simulation" in report
    names = set(pd.read_csv(res / "mono-style" / "sim" / "coverage.csv")["benchmark"])
    assert names == {"FFT NA OPT", "HTTP OPT", "Rijndael"}


def test_report_sets_every_section_beside_the_paper(ran):
    base = ran / "results-test" / "mono-style"
    md = (base / "report.md").read_text()
    for heading in ("## 1. The data", "## 2. Worked examples", "## 3. Dimensioning",
                    "## 4. False alarms", "## 5. Coverage"):
        assert heading in md
    # the headline counts the simulation rows (from the claim records, not from the
    # Markdown) apart from the exact arithmetic rows, which the false-alarm and coverage
    # sections hold too (the exact model values, e.g. 95.28 % at 50 binaries)
    fa = read_claims(base / "claims_false_alarms.json")
    cov = read_claims(base / "claims_coverage.json")
    sim = [c for c in fa + cov if c.evidence == SIMULATION]
    assert len(sim) < len(fa + cov)  # some rows of these sections are arithmetic
    yes, total = tally(sim, REPRODUCTION)
    head = re.search(r"\*\*Simulation claims [^:]*: (\d+) of (\d+) compared agree", md)
    assert head and (int(head.group(1)), int(head.group(2))) == (yes, total)
    assert re.search(r"Exact arithmetic from the paper's own inputs [^:]*: \d+ of \d+ "
                     r"compared agree", md)
    for name in FIGURES["false_alarm"]:
        for ext in ("pdf", "png"):
            assert (base / "figures" / f"{name}.{ext}").stat().st_size > 0
    assert "![fFAFFT](figures/fFAFFT.png)" in md
    html = (base / "report.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "<table>" in html and 'src="figures/fCOV.png"' in html
    assert "## 6. Measured data" not in md  # the stand-in is not measured data


def test_mono_dataset_reports_its_sessions_and_the_paper_beside_it(ran):
    base = ran / "results-test" / "mono-x86_64"
    page = (base / "report_measured.md").read_text()
    assert "### Sessions: a fourth level" in page
    assert "measure/mono/prereg/2026-11-28.md" in page
    checks = pd.read_csv(base / "tables" / "measured_checks.csv")
    rules = checks[checks["kind"] == "session"]
    assert [s.split(":")[0] for s in rules["subject"]] == ["R1", "R2", "R3a", "R3b"]
    assert set(rules["verdict"]) <= {"agree", "disagree"}
    md = (base / "report.md").read_text()
    headline = next(line for line in md.splitlines() if line.startswith("**"))
    assert headline.startswith(f"**{len(checks)} checks on this dataset: ")
    # the files carry the paper's names, so its Table tVariations sits beside them
    var = pd.read_csv(base / "tables" / "variations.csv")
    assert {"FFT NA", "Rijndael OPT", "TCP"} <= set(var["benchmark"])
    # coverage on its own data (1 - the A/A false-alarm rate at 0), the stand-in's beside
    fa = pd.read_csv(base / "sim" / "false_alarm.csv")
    zero = fa[(fa["threshold_pct"] == 0) & (fa["experiment"] == "fFAFFT")
              & (fa["method"] == "asymptotic")]
    real = pd.read_csv(base / "tables" / "real_coverage.csv")
    mine = real[(real["experiment"] == "fFAFFT") & (real["method"] == "asymptotic")]
    merged = zero.merge(mine, on=["benchmark", "binaries"])
    assert len(merged) == len(zero) > 0
    np.testing.assert_allclose(merged["coverage"], 1 - merged["rate"])
    beside = pd.read_csv(base / "tables" / "real_coverage_beside.csv")
    assert len(beside) > 0 and set(beside["benchmark"]) <= set(real["benchmark"])
    assert (base / "real_coverage" / "fCOVReal.png").stat().st_size > 0
    assert "## 7. Coverage on the measured data by subsampling (fCOV, fCOVR)" in md
    assert "what the stand-in predicted" in md and "](real_coverage/fCOVReal.png)" in md
    # the measured dataset's history part (runs 1-4) is there too
    c_page = (ran / "results-test" / "measured-x86_64" / "report_measured.md").read_text()
    assert "### Its history: every run, the recheck, the session finding" in c_page
    assert "Of the 24 intervals, 4 miss the injected ratio." in c_page
    # its benchmarks (fft, cipher...) share no name with the stand-in's: nothing beside
    c_md = (ran / "results-test" / "measured-x86_64" / "report.md").read_text()
    assert "## 7. Coverage on the measured data by subsampling" in c_md
    assert "what the stand-in predicted" not in c_md
    c_beside = pd.read_csv(ran / "results-test" / "measured-x86_64" / "tables"
                           / "real_coverage_beside.csv")
    assert c_beside.empty and "standin" in c_beside.columns


def test_measured_dataset_uses_its_own_sizes_and_joins_the_report(ran):
    base = ran / "results-test" / "measured-x86_64"
    fa = pd.read_csv(base / "sim" / "false_alarm.csv")
    # config/test.yaml gives this dataset binaries [2, 3, 5]; the study-wide list is
    # [1, 2, 3, 5]
    assert set(fa.loc[fa["experiment"] == "fFAFFT", "binaries"]) == {2, 3, 5}
    md = (base / "report.md").read_text()
    page = (base / "report_measured.md").read_text()
    assert "## 6. Measured data: measured-x86_64" in md
    assert page.split("\n", 1)[1].strip() in md  # the whole page, below its heading
    # the headline counts the checks computed from this dataset, nothing else; no
    # section without rows (section 1 has none: no benchmark of the paper's names)
    checks = pd.read_csv(base / "tables" / "measured_checks.csv")
    headline = next(line for line in md.splitlines() if line.startswith("**"))
    assert headline.startswith(f"**{len(checks)} checks on this dataset: "
                               f"{(checks['verdict'] == 'agree').sum()} agree")
    assert "## 1. The data" not in md
    from .test_measured_designs import empty_tables

    assert not empty_tables(md) and not empty_tables(page)


# -- helpers of the workflow, without running it ------------------------------------
def test_code_hash_covers_both_whole_packages():
    import hashlib

    import esize

    roots = [Path(esize.__file__).parent, Path(ch.__file__).parents[1]]
    files = [f for root in roots for f in sorted(root.rglob("*.py"))]
    names = {f.relative_to(f.parents[1]).as_posix() for f in files}
    # every subpackage of the study (its stages) and the library
    assert {"engine/seeds.py", "claims/claim.py", "render/registry.py", "falsealarm/simulate.py",
            "esize/io.py"} <= names
    h = hashlib.sha256()
    for root in roots:
        for f in sorted(root.rglob("*.py")):
            h.update(f.relative_to(root.parent).as_posix().encode())
            h.update(f.read_bytes())
    assert ch.code_hash() == h.hexdigest()[:16]


def test_read_table_and_atomic_parquet(tmp_path):
    from esize import InputError

    frame = pd.DataFrame({"binary": [0, 0], "execution": [0, 0], "iteration": [0, 1],
                          "time": [1.0, 2.0]})
    dfiles.write_parquet(tmp_path / "a" / "t.parquet", frame)
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["t.parquet"]
    pd.testing.assert_frame_equal(dfiles.read_table(tmp_path / "a" / "t.parquet"), frame)
    frame.to_csv(tmp_path / "t.csv", index=False)
    pd.testing.assert_frame_equal(dfiles.read_table(tmp_path / "t.csv"), frame)
    for bad in (tmp_path / "missing.csv", tmp_path / "a"):
        with pytest.raises(InputError):
            dfiles.read_table(bad)
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(InputError, match="cannot read"):
        dfiles.read_table(tmp_path / "bad.parquet")


def _configs(tmp_path, **files) -> list[Path]:
    out = []
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text)
        out.append(tmp_path / f"{name}.yaml")
    return out


def test_config_files_of_the_repository_pass(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert dconf.check_config_files(["config/config.yaml"]) is None
    assert dconf.check_config_files(["config/config.yaml", "config/test.yaml"]) is None
    assert dconf.main(["check-config", "config/config.yaml", "config/test.yaml"]) == 0


@pytest.mark.parametrize("text, expected", [
    # a nested unknown key, with the nearest known one
    ("coverage:\n  fCOV:\n    binarys: [2, 3]\n",
     "over.yaml:3: unknown key 'binarys' in 'coverage.fCOV'; did you mean 'binaries'? "
     "(known: executions, measurements, binaries, boot_binaries, schemes)"),
    # a bad list item: its own line, its index
    ("hours:\n  - 3\n  - -6\n",
     "over.yaml:3: hours[1]: -6 is less than or equal to the minimum of 0"),
    # a bad value in the later file is named there, not where it was first set
    ("warmup_fraction: 1.5\n",
     "over.yaml:1: warmup_fraction: 1.5 is greater than or equal to the maximum of 1"),
    ("false_alarm:\n  schemes: [RRR, RXR]\n",
     "over.yaml:2: false_alarm.schemes[1]: 'RXR' is not one of ['RRR', 'RRN', 'RNN', 'FLAT']"),
    ("datasets:\n  mine:\n    kind: directory\n",
     "over.yaml:2: datasets.mine: a directory dataset needs a 'path'"),
    ("datasets:\n  mono-style:\n    benchmarks: [FFT, FTT]\n",
     "over.yaml:3: datasets.mono-style.benchmarks: unknown stand-in benchmark(s) 'FTT'"),
    # YAML syntax: the file and the line
    ("false_alarm:\n  seed: 1\n   comparisons: 3\n",
     "over.yaml:3: YAML syntax error: mapping values are not allowed here"),
    ("false_alarm: [1, 2\n",
     "over.yaml:2: YAML syntax error: expected ',' or ']', but got '<stream end>'"),
    ("- 1\n- 2\n", "over.yaml: a configuration file holds keys and values (a YAML mapping)"),
])
def test_config_problem_is_one_line_naming_file_line_and_key(tmp_path, monkeypatch, text,
                                                             expected):

    monkeypatch.chdir(tmp_path)
    files = _configs(tmp_path, base="warmup_fraction: 0.3\ndatasets:\n  mono-style:\n"
                                    "    kind: standin\n", over=text)
    problem = dconf.check_config_files(files, ROOT / "workflow/schemas/config.schema.yaml")
    assert problem is not None and problem.startswith(expected), problem
    assert "\n" not in problem


def test_config_problem_names_the_command_line(tmp_path):
    config = {"warmup_fraction": 0.3, "datasets": {"d": {"kind": "standin"}}}
    (tmp_path / "c.yaml").write_text("warmup_fraction: 0.3\n")
    schema = ROOT / "workflow/schemas/config.schema.yaml"
    sources = [(str(tmp_path / "c.yaml"), {"warmup_fraction": 0.3})]
    assert dconf.config_problem(config, schema, sources) is None
    config["warmup_fraction"] = 2
    sources.append(("--config", {"warmup_fraction": 2}))
    assert dconf.config_problem(config, schema, sources).startswith("--config: warmup_fraction: 2 ")


def test_check_config_command_exits_2_with_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.yaml").write_text("datasets:\n  d:\n    kind: standin\nhour: [3]\n")
    schema = str(ROOT / "workflow/schemas/config.schema.yaml")
    assert dconf.main(["check-config", "c.yaml", "--schema", schema]) == 2
    err = capsys.readouterr().err
    assert err == ("esize: error: c.yaml:4: unknown key 'hour'; did you mean 'hours'? (known: "
                   "results_dir, data_dir, logs_dir, warmup_fraction, hours, build_seconds, "
                   "false_alarm, coverage, mode, analysis, datasets)\n")
    assert dconf.main(["check-config", "missing.yaml", "--schema", schema]) == 2
    assert capsys.readouterr().err == "esize: error: missing.yaml: no such file\n"
