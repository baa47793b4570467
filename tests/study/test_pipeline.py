"""End to end: the Snakemake pipeline on the tiny test configuration.

The workflow files are copied into a temporary directory and run there, so the test
never touches the repository's results/ and works from any checkout.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from esize_study import paper
from esize_study.claims import VERDICTS, read_claims, tally
from esize_study.layout import FIGURES

ROOT = Path(__file__).resolve().parents[2]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    wd = tmp_path_factory.mktemp("pipeline")
    shutil.copy(ROOT / "Snakefile", wd / "Snakefile")
    for d in ("workflow", "config"):
        shutil.copytree(ROOT / d, wd / d)
    shutil.copytree(ROOT / "tests" / "data", wd / "tests" / "data")
    return wd


def _run(wd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*SNAKEMAKE, "--cores", "2", "--configfile", "config/test.yaml", *args],
        cwd=wd,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.fixture(scope="module")
def ran(workdir) -> Path:
    res = _run(workdir)
    assert res.returncode == 0, res.stderr[-3000:]
    return workdir


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
    res = _run(ran, "-n")
    assert res.returncode == 0
    assert "Nothing to be done" in res.stdout + res.stderr


def test_bad_config_is_rejected(workdir):
    res = _run(workdir, "-n", "--config", "warmup_fraction=1.5")
    assert res.returncode != 0
    assert "warmup_fraction" in res.stdout + res.stderr


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
    assert "compared numbers agree" in md
    # the count comes from the claim records, not from the Markdown
    fa = read_claims(base / "claims_false_alarms.json")
    cov = read_claims(base / "claims_coverage.json")
    yes, total = tally(fa + cov)
    head = re.search(r"\*\*(\d+) of (\d+) compared numbers agree\*\*", md)
    assert int(head.group(1)) >= yes and int(head.group(2)) > total
    for name in FIGURES["false_alarm"]:
        for ext in ("pdf", "png"):
            assert (base / "figures" / f"{name}.{ext}").stat().st_size > 0
    assert "![fFAFFT](figures/fFAFFT.png)" in md
    html = (base / "report.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "<table>" in html and 'src="figures/fCOV.png"' in html


# -- helpers of the workflow, without running it ------------------------------------
def test_code_hash_covers_both_whole_packages():
    import hashlib

    import esize
    from esize_study import pipeline as pl

    roots = [Path(esize.__file__).parent, Path(pl.__file__).parent]
    files = [f for root in roots for f in sorted(root.rglob("*.py"))]
    names = {f.name for f in files}
    assert {"engine.py", "claims.py", "layout.py", "falsealarm.py", "_atomic.py"} <= names
    h = hashlib.sha256()
    for root in roots:
        for f in sorted(root.rglob("*.py")):
            h.update(f.relative_to(root.parent).as_posix().encode())
            h.update(f.read_bytes())
    assert pl.code_hash() == h.hexdigest()[:16]


def test_read_table_and_atomic_parquet(tmp_path):
    from esize import InputError
    from esize_study import pipeline as pl

    frame = pd.DataFrame({"binary": [0, 0], "execution": [0, 0], "iteration": [0, 1],
                          "time": [1.0, 2.0]})
    pl.write_parquet(tmp_path / "a" / "t.parquet", frame)
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["t.parquet"]
    pd.testing.assert_frame_equal(pl.read_table(tmp_path / "a" / "t.parquet"), frame)
    frame.to_csv(tmp_path / "t.csv", index=False)
    pd.testing.assert_frame_equal(pl.read_table(tmp_path / "t.csv"), frame)
    for bad in (tmp_path / "missing.csv", tmp_path / "a"):
        with pytest.raises(InputError):
            pl.read_table(bad)
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(InputError, match="cannot read"):
        pl.read_table(tmp_path / "bad.parquet")
