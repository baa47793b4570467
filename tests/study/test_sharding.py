"""Sharding does not change the study's numbers.

The tiny configuration's false-alarm and coverage simulations are run with 1, 3 and
7 shards (and once with 3 shards of 2 joblib workers each), through the workflow's
own scripts (workflow/scripts/*.py, each given the `snakemake` object it expects)
but without Snakemake, so the test takes seconds. The tables the pipeline reports
(false_alarm.csv, coverage.csv and coverage_counts.parquet) must be byte-identical,
and the per-comparison results identical row for row.
"""

from __future__ import annotations

import contextlib
import runpy
import sys
from pathlib import Path

import pandas as pd
import pytest

from esize_study.datasets import config as dconf
from esize_study.datasets import settings as ds

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "workflow" / "scripts"
DATASET = "mono-style"
# (shards, joblib workers per job); the first is the reference
LAYOUTS = [(1, 1), (3, 1), (7, 1), (3, 2)]


class _Files(list):
    """A list that also has named items, like Snakemake's input/output objects."""

    def __init__(self, items=(), **named):
        super().__init__([*items, *named.values()])
        self.__dict__.update(named)


class _Job:
    """The `snakemake` object a workflow script reads."""

    def __init__(self, log, input=(), output=(), params=None, wildcards=None, threads=1):
        self.input = input if isinstance(input, _Files) else _Files(input)
        self.output = output if isinstance(output, _Files) else _Files(output)
        self.params = _Files(**(params or {}))
        self.wildcards = _Files(**(wildcards or {}))
        self.log = _Files([str(log)])
        self.threads = threads


def _run(script: str, job: _Job) -> None:
    hook = sys.excepthook  # pipeline.script_logging replaces it
    try:
        runpy.run_path(str(SCRIPTS / script), init_globals={"snakemake": job}, run_name="__main__")
    finally:
        sys.excepthook = hook


def _config() -> dict:
    """config/config.yaml with config/test.yaml on top, checked and with its defaults, as
    in the workflow (from the top of the repository, where its datasets' paths start)."""
    with contextlib.chdir(ROOT):
        return dconf.load_config(["config/config.yaml", "config/test.yaml"],
                                 ROOT / "workflow" / "schemas" / "config.schema.yaml")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """The tiny stand-in dataset: steady designs and variance estimates per benchmark."""
    wd = tmp_path_factory.mktemp("sharding")
    config = _config()
    settings = ds.dataset_settings(config, DATASET)
    names = ds.dataset_benchmarks(config, DATASET)
    for bench in names:
        raw, steady, var = (wd / "raw" / f"{bench}.parquet", wd / "steady" / f"{bench}.npz",
                            wd / "variances" / f"{bench}.json")
        _run("generate_standin.py", _Job(wd / "log", output=[str(raw)], wildcards={"bench": bench},
                                         params={"settings": settings, "names": names}))
        _run("ingest.py", _Job(wd / "log", input=[str(raw)], output=[str(steady)],
                               wildcards={"bench": bench},
                               params={"warmup_fraction": config["warmup_fraction"],
                                       "names": names}))
        _run("variances.py", _Job(wd / "log", input=[str(steady)], output=[str(var)]))
    return wd, config, names


def _simulate(prepared, shards: int, threads: int) -> Path:
    """Every simulation job of the dataset with ``shards`` shards, then the tables."""
    wd, config, names = prepared
    fa, cov = dict(config["false_alarm"], shards=shards), dict(config["coverage"], shards=shards)
    out = wd / f"{shards}-shards-{threads}-workers"
    boot = {ds.slug(b) for b in cov["fCOVGrid"]["boot_benchmarks"]}
    fa_files, cov_files = [], []
    for bench in names:
        for kind in ("binaries", "executions"):
            for i in range(shards):
                path = str(out / "fa" / f"{bench}.{kind}.{i}-of-{shards}.parquet")
                _run("fa_simulate.py", _Job(
                    out / "log", input=[str(wd / "steady" / f"{bench}.npz")], output=[path],
                    params={"fa": fa, "bench_ids": list(names)}, threads=threads,
                    wildcards={"kind": kind, "shard": f"{i}-of-{shards}"}))
                fa_files.append(path)
        for i in range(shards):
            path = str(out / "coverage" / f"{bench}.{i}-of-{shards}.parquet")
            _run("cov_simulate.py", _Job(
                out / "log", input=[str(wd / "variances" / f"{bench}.json")], output=[path],
                params={"cov": cov, "boot_grid": bench in boot}, threads=threads,
                wildcards={"shard": f"{i}-of-{shards}"}))
            cov_files.append(path)
    _run("fa_table.py", _Job(
        out / "log",
        input=_Files(sims=fa_files, steady=[str(wd / "steady" / f"{b}.npz") for b in names]),
        output=_Files(csv=str(out / "false_alarm.csv"),
                      comparisons=str(out / "false_alarm_comparisons.parquet")),
        params={"thresholds": fa["thresholds_pct"]}))
    _run("cov_table.py", _Job(
        out / "log", input=cov_files,
        output=_Files(csv=str(out / "coverage.csv"),
                      counts=str(out / "coverage_counts.parquet"))))
    return out


@pytest.fixture(scope="module")
def runs(prepared) -> dict[tuple[int, int], Path]:
    return {layout: _simulate(prepared, *layout) for layout in LAYOUTS}


@pytest.mark.slow
@pytest.mark.parametrize("layout", LAYOUTS[1:], ids=lambda x: f"{x[0]}shards-{x[1]}workers")
@pytest.mark.parametrize("table", ["false_alarm.csv", "coverage.csv", "coverage_counts.parquet"])
def test_tables_are_byte_identical_across_shards(runs, layout, table):
    reference = (runs[LAYOUTS[0]] / table).read_bytes()
    assert len(reference) > 100
    assert (runs[layout] / table).read_bytes() == reference


@pytest.mark.slow
@pytest.mark.parametrize("layout", LAYOUTS[1:], ids=lambda x: f"{x[0]}shards-{x[1]}workers")
def test_comparisons_are_identical_across_shards(runs, layout):
    """The same comparisons with exactly the same numbers (their row order follows the shards)."""
    def rows(layout):
        frame = pd.read_parquet(runs[layout] / "false_alarm_comparisons.parquet")
        keys = [c for c in frame.columns if frame[c].dtype.kind not in "fc"]
        return frame.sort_values(keys, kind="stable").reset_index(drop=True)

    reference = rows(LAYOUTS[0])
    assert len(reference) > 0
    pd.testing.assert_frame_equal(rows(layout), reference, check_exact=True)


def test_shards_split_the_work(runs):
    """Each layout really ran that many jobs, each with a part of the comparisons."""
    for shards, threads in LAYOUTS:
        files = sorted((runs[shards, threads] / "fa").glob("*.parquet"))
        assert len(files) == 3 * 2 * shards  # benchmarks x kinds x shards
        sizes = [len(pd.read_parquet(f)) for f in files]
        assert min(sizes) > 0
        total = len(pd.read_parquet(runs[shards, threads] / "false_alarm_comparisons.parquet"))
        assert sum(sizes) == total
        if shards > 1:
            assert max(sizes) < total / 3 / 2


def _validate(prepared, shards: int, comparisons: int) -> list[Path]:
    """fa_validate.py for every shard of the validated benchmark."""
    wd, config, names = prepared
    fa = dict(config["false_alarm"])
    fa["validation"] = dict(fa["validation"], shards=shards, comparisons=comparisons)
    bench = ds.slug(fa["validation"]["benchmarks"][0])
    out = wd / f"validation-{shards}-shards-{comparisons}"
    paths = []
    for i in range(shards):
        path = out / f"{bench}.{i}-of-{shards}.parquet"
        _run("fa_validate.py", _Job(
            out / "log", input=[str(wd / "steady" / f"{bench}.npz")], output=[str(path)],
            params={"fa": fa, "bench_ids": list(names)},
            wildcards={"bench": bench, "shard": f"{i}-of-{shards}"}))
        paths.append(path)
    return paths


@pytest.mark.parametrize("comparisons", [20, 60])  # 1 and 3 blocks per cell
def test_validation_shards_give_the_unsharded_rows(prepared, comparisons):
    """What fa_figures and fa_report read from fa_validate's shards
    (files.read_validation_shards) is the same frame, row for row, whatever the shard
    count; with more shards than blocks some shards are empty."""
    from esize_study.datasets.files import VALIDATION_ORDER, read_validation_shards

    def frame(shards):
        return read_validation_shards(_validate(prepared, shards, comparisons))

    reference = frame(1)
    assert set(reference["mode"]) == {"approx", "exact"}
    assert len(reference) == 2 * comparisons * (3 + 1)  # modes x (binaries 3 schemes + execs)
    # the unsharded job's own order already
    assert reference.equals(reference.sort_values(list(VALIDATION_ORDER), kind="stable")
                            .reset_index(drop=True))
    for shards in (2, 3, 5):
        paths = _validate(prepared, shards, comparisons)
        sizes = [len(pd.read_parquet(p)) for p in paths]
        assert sum(sizes) == len(reference)
        if comparisons == 20:  # two blocks per mode: shards beyond the second are empty
            assert [n > 0 for n in sizes] == [True, True] + [False] * (shards - 2)
        else:
            assert max(sizes) < len(reference)
        pd.testing.assert_frame_equal(read_validation_shards(paths), reference,
                                      check_exact=True)
        # the order of the shards' files does not matter either
        pd.testing.assert_frame_equal(read_validation_shards(paths[::-1]), reference,
                                      check_exact=True)


def test_no_validation_rows_is_an_error_naming_the_files(tmp_path):
    from esize import InputError
    from esize_study.datasets.files import read_validation_shards

    empty = tmp_path / "x.0-of-2.parquet"
    pd.DataFrame({"benchmark": [], "mode": []}).to_parquet(empty)
    with pytest.raises(InputError, match=r"x\.0-of-2\.parquet: no validation rows in any shard"):
        read_validation_shards([empty])
