"""End to end: the pipeline on a user's own dataset only, of one and of twelve benchmarks.

A user adds a `kind: directory` dataset and runs only it: their configuration
replaces config/config.yaml (`make reproduce CONFIG=... ARGS=--replace-workflow-config`),
so neither the paper's stand-in nor the measured dataset is in `datasets:`. The data
are made here with a seeded generator (a tidy CSV per benchmark, as in
tests/data/tiny-dataset), the settings are those of config/test.yaml, and every
output directory lies under pytest's tmp_path. The one-benchmark dataset also has a
costs file and a known effect, so that its measured report (report_measured.md) and
known-effect tables run with a single benchmark too.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from esize_study.render.registry import FIGURES

from .test_pipeline import MAKE, PROFILE, ROOT, SNAKEMAKE

pytestmark = pytest.mark.slow

#: Bounds of a sane figure, in pixels (at the study's 150 dpi; the largest is a
#: 4 x 4 grid of panels, about 2800 x 2300).
MIN_PX, MAX_PX = 300, 4000


def _benchmark(rng: np.random.Generator, mean: float, *, binaries: int = 6,
               executions: int = 3, iterations: int = 10, ratio: float = 1.0) -> pd.DataFrame:
    """One benchmark's tidy table: build, process and iteration effects, a warm-up."""
    rows = []
    s_bin, s_exe, s_it = rng.uniform(0.005, 0.04, 3)
    for b in range(1, binaries + 1):
        fb = np.exp(rng.normal(0, s_bin))
        for e in range(1, executions + 1):
            fe = np.exp(rng.normal(0, s_exe))
            for i in range(1, iterations + 1):
                warm = 1 + 0.3 * np.exp(-(i - 1))  # the first iterations are slower
                t = ratio * mean * fb * fe * warm * np.exp(rng.normal(0, s_it))
                rows.append((b, e, i, round(float(t), 7)))
    frame = pd.DataFrame(rows, columns=["binary", "execution", "iteration", "time"])
    return frame.sample(frac=1.0, random_state=int(rng.integers(1 << 31)))  # any row order


def _costs(names, rng: np.random.Generator) -> dict:
    sets = {}
    for n in names:
        it = float(rng.uniform(0.01, 0.1))
        sets[n] = {
            "steady_iteration_seconds": {"mean": it},
            "new_binary_seconds": float(rng.uniform(5, 60)),
            "new_execution_seconds": 0.05 + 3 * it,
            "execution_overhead_seconds": {"mean": 0.05},
            "warmup_excess_seconds": {"mean": 0.3 * it},
            "process_seconds": {"mean": 0.05 + 10 * it},
        }
    return {"unit": "seconds", "sets": sets}


def _dataset(directory: Path, names, seed: int, *, extras: bool) -> dict:
    """Write the benchmarks' CSVs (and, with ``extras``, a costs file and a +2 %
    variant of the first benchmark); return the dataset's configuration."""
    rng = np.random.default_rng(seed)
    directory.mkdir(parents=True)
    means = {}
    for n in names:
        means[n] = float(rng.uniform(0.02, 2.0))
        _benchmark(rng, means[n]).to_csv(directory / f"{n}.csv", index=False)
    settings = {"kind": "directory", "path": str(directory)}
    if extras:
        base = names[0]
        _benchmark(rng, means[base], ratio=1.02).to_csv(directory / f"{base}-plus2.csv",
                                                        index=False)
        (directory / "costs.json").write_text(json.dumps(_costs(names, rng), indent=1))
        settings["costs"] = {"file": "costs.json"}
        settings["known_effects"] = {
            "seed": 5, "comparisons": 20, "resamples": 50, "block": 10, "binaries": [3],
            "reference_resamples": 200,
            "variants": {f"{base}-plus2": {"base": base, "ratio": 1.02}},
        }
    return settings


def _config(tmp: Path, name: str, settings: dict) -> Path:
    """config/test.yaml with its own directories under ``tmp`` and only the user's dataset."""
    config = yaml.safe_load((ROOT / "config" / "test.yaml").read_text())
    config.update(results_dir=str(tmp / "results"), logs_dir=str(tmp / "logs"),
                  data_dir=str(tmp / "generated"), datasets={name: settings})
    config["false_alarm"]["shards"] = 1  # fewer, longer jobs: the same numbers
    path = tmp / "user.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def _workflow(tmp: Path) -> Path:
    wd = tmp / "wd"
    wd.mkdir()
    for f in ("Snakefile", "Makefile"):
        shutil.copy(ROOT / f, wd / f)
    for d in ("workflow", "config"):
        shutil.copytree(ROOT / d, wd / d)
    return wd


def _reproduce(wd: Path, config: Path) -> subprocess.CompletedProcess:
    """What the user runs: their configuration instead of config/config.yaml."""
    if shutil.which("make"):
        cmd = [*MAKE, "-C", str(wd), "reproduce", f"CONFIG={config}",
               "ARGS=--replace-workflow-config"]
    else:
        cmd = [*SNAKEMAKE, *PROFILE, "--configfile", str(config), "--replace-workflow-config"]
    return subprocess.run(cmd, cwd=wd, capture_output=True, text=True, timeout=900)


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def _run_user_dataset(tmp_path: Path, n: int, *, extras: bool):
    names = [f"bench{k:02d}" for k in range(n)] if n > 1 else ["solo"]
    settings = _dataset(tmp_path / "mydata", names, seed=100 + n, extras=extras)
    config = _config(tmp_path, "mine", settings)
    wd = _workflow(tmp_path)
    start = time.monotonic()
    res = _reproduce(wd, config)
    elapsed = time.monotonic() - start
    assert res.returncode == 0, (res.stdout + res.stderr)[-4000:]
    base = tmp_path / "results" / "mine"
    md = (base / "report.md").read_text()
    assert md.startswith("# Reproduction report: mine")
    assert (base / "report.html").read_text().startswith("<!DOCTYPE html>")
    for family in FIGURES.values():
        for name in family:
            assert (base / "figures" / f"{name}.pdf").read_bytes()[:4] == b"%PDF"
            w, h = _png_size(base / "figures" / f"{name}.png")
            assert MIN_PX <= w <= MAX_PX and MIN_PX <= h <= MAX_PX, (name, w, h)
            assert f"![{name}](figures/{name}.png)" in md
    var = pd.read_csv(base / "tables" / "variations.csv")
    assert sorted(var["benchmark"].unique()) == names
    # nothing of the paper's datasets was made
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["mine",
                                                                        "worked_examples.json"]
    return base, md, elapsed


def test_one_benchmark_dataset_alone_runs_to_its_report(tmp_path):
    base, md, _ = _run_user_dataset(tmp_path, 1, extras=True)
    # the measured report and the known effect, with one benchmark
    assert "## 6. Measured data: mine" in md
    warm = pd.read_csv(base / "tables" / "warmup_check.csv")
    assert list(warm["benchmark"]) == ["solo"]
    dims = pd.read_csv(base / "tables" / "measured_precisions.csv")
    assert set(dims["benchmark"]) == {"solo"}
    ke = pd.read_csv(base / "tables" / "known_effects.csv")
    assert not ke.empty
    assert "solo-plus2" in (base / "report_measured.md").read_text()


def test_twelve_benchmark_dataset_alone_runs_to_its_report(tmp_path):
    base, md, _ = _run_user_dataset(tmp_path, 12, extras=False)
    assert "## 6. Measured data" not in md  # no costs file, no known effects
    cov = pd.read_csv(base / "sim" / "coverage.csv")
    assert cov["benchmark"].nunique() == 12
    fa = pd.read_csv(base / "sim" / "false_alarm.csv")
    assert fa["benchmark"].nunique() == 12
