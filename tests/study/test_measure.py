"""The measuring workflow (measure/Snakefile) end to end on its tiny configuration.

The workflow runs once per module in a temporary directory (``--directory``), so it
never touches the repository's data/ or tests/data/harness/: 2 programs plus two
known-effect variants of one of them, 3 randomised builds each, 2 processes per
build, 5 iterations per process; the Google Benchmark and hyperfine examples with a
few repetitions, when those tools are installed.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
MEASURE = ROOT / "measure"
sys.path.insert(0, str(MEASURE))
import measure_build as B  # noqa: E402
import measure_config as C  # noqa: E402
import measure_run as R  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None,
                                reason="needs gcc to build the measured programs")

HAVE_HARNESS = (shutil.which("g++") is not None and shutil.which("hyperfine") is not None
                and Path("/usr/include/benchmark/benchmark.h").exists())


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """Run the tiny configuration; return (working directory, configuration)."""
    wd = tmp_path_factory.mktemp("measure")
    files = [str(MEASURE / "config-tiny.yaml")]
    if not HAVE_HARNESS:
        (wd / "no-harness.yaml").write_text("harness:\n  enabled: false\n")
        files.append(str(wd / "no-harness.yaml"))
    cmd = [sys.executable, "-m", "snakemake", "-s", str(MEASURE / "Snakefile"),
           "--configfile", *files, "--cores", "1", "--directory", str(wd)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0 and "too busy to measure clean" in p.stdout + p.stderr:
        # a noisy host (steal time on a shared virtual machine) can leave a process of
        # this tiny run unclean, and with so few processes the guard allows none: these
        # tests are about the files, so measure anyway (the refusal has its own test)
        p = subprocess.run([*cmd, "--forceall", "--config", "force=True"],
                           capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    cfg = C.check_config(C.load_config_files(files))
    return wd, cfg


def _data(wd, cfg) -> Path:
    return wd / cfg["out_dir"] / cfg["name"]


def _shape(wd, cfg, set_: str) -> tuple[int, int, int]:
    """Builds, executions and iterations of one set, as its design chose them."""
    d = json.loads((_data(wd, cfg) / "provenance.json").read_text())["design"]["sets"][set_]
    return d["builds"], d["executions"], d["iterations"]


def _builds(wd, cfg) -> list[dict]:
    return json.loads((_data(wd, cfg) / "builds.json").read_text())["builds"]


def test_files_are_the_sets(tiny):
    wd, cfg = tiny
    names = {p.stem for p in _data(wd, cfg).glob("*.parquet")}
    assert names == {"fft", "cipher", "fft-plus0", "fft-plus3"}
    # nothing else in the directory would be taken for a benchmark by the study
    assert not list(_data(wd, cfg).glob("*.csv"))


def test_design_is_balanced_and_positive(tiny):
    wd, cfg = tiny
    for path in _data(wd, cfg).glob("*.parquet"):
        B, E, n = _shape(wd, cfg, path.stem)
        f = pd.read_parquet(path)
        assert len(f) == B * E * n, path.name
        counts = f.groupby(["binary", "execution"]).size()
        assert set(counts.index) == {(b, e) for b in range(1, B + 1) for e in range(1, E + 1)}
        assert (counts == n).all()
        for _, g in f.groupby(["binary", "execution"]):
            assert sorted(g["iteration"]) == list(range(1, n + 1))
            assert g["env_bytes"].nunique() == 1 and g["order"].nunique() == 1
            assert 0 <= g["env_bytes"].iloc[0] <= cfg["env_pad_max"]
        assert (f["time"] > 0).all() and (f["cpu_time"] > 0).all()
        # a few milliseconds per iteration, in seconds
        assert 1e-5 < f["time"].median() < 1.0
        assert f.groupby("binary")["build_seed"].nunique().eq(1).all()


def test_study_reads_the_files(tiny):
    from esize_study.datasets.files import load_benchmark_file

    wd, cfg = tiny
    d, raw = load_benchmark_file(_data(wd, cfg) / "fft-plus3.parquet")
    assert d.data.shape == _shape(wd, cfg, "fft-plus3")
    assert raw == _shape(wd, cfg, "fft-plus3")[2]


def test_processes_are_interleaved(tiny):
    wd, cfg = tiny
    frames = [pd.read_parquet(p).assign(set=p.stem) for p in _data(wd, cfg).glob("*.parquet")]
    f = pd.concat(frames).groupby("order").first().sort_index()
    total = sum(_shape(wd, cfg, s)[0] * _shape(wd, cfg, s)[1]
                for s in ("fft", "cipher", "fft-plus0", "fft-plus3"))
    assert list(f.index) == list(range(1, total + 1))  # one run, every process once
    switches = int((f["set"].to_numpy()[1:] != f["set"].to_numpy()[:-1]).sum())
    assert switches > 4  # not one set after the other
    # executions are numbered in the order they ran
    for (s, _), g in f.groupby(["set", "binary"]):
        assert list(g["execution"]) == list(range(1, _shape(wd, cfg, s)[1] + 1))


def test_builds_are_interleaved_across_sets(tiny):
    wd, cfg = tiny
    builds = sorted(_builds(wd, cfg), key=lambda r: r["build_position"])
    assert [r["build_position"] for r in builds] == list(range(1, len(builds) + 1))
    order = [(r["set"], r["build"]) for r in builds]
    # the order is build_order's, from its own seed key
    counts = {s: _shape(wd, cfg, s)[0] for s in ("fft", "cipher", "fft-plus0", "fft-plus3")}
    assert order == B.build_order(cfg, counts)
    sets_in_order = [s for s, _ in order]
    switches = sum(a != b for a, b in zip(sets_in_order, sets_in_order[1:]))
    assert switches > 4  # not one set after the other


def test_build_order_is_a_seeded_permutation():
    cfg = {"master_seed": 12345}
    counts = {"a": 20, "b": 20, "c": 7}
    order = B.build_order(cfg, counts)
    assert sorted(order) == sorted((s, b) for s in counts for b in range(1, counts[s] + 1))
    assert order == B.build_order(cfg, counts)  # the same seed, the same order
    assert order != B.build_order({"master_seed": 12346}, counts)
    # interleaved: in each half of the order, every set holds a share near its own
    first = [s for s, _ in order[: len(order) // 2]]
    assert 5 <= first.count("a") <= 15 and 5 <= first.count("b") <= 15


def test_seeds_fix_the_layout(tiny):
    wd, cfg = tiny
    builds = _builds(wd, cfg)
    assert len(builds) == sum(_shape(wd, cfg, s)[0]
                              for s in ("fft", "cipher", "fft-plus0", "fft-plus3"))
    for r in builds:
        assert r["seed"] == B.build_seed(cfg, r["set"], r["build"])
        plan = B.layout_plan(r["seed"], r["benchmark"], cfg["layout"])
        assert plan["link_order"] == r["link_order"]
        assert (plan["align_functions"], plan["text_pad"], plan["data_pad"]) == (
            r["align_functions"], r["text_pad"], r["data_pad"])
        cmds = B.build_commands(cfg, r["benchmark"], r["permille"], plan)
        assert [shlex.join(c) for c in cmds] == r["commands"]
    # different seeds draw different layouts
    assert len({tuple(r["link_order"]) for r in builds}) > len(builds) // 2
    assert len({r["seed"] for r in builds}) == len(builds)


def test_rebuild_from_seed_is_identical(tiny, tmp_path):
    wd, cfg = tiny
    r = next(b for b in _builds(wd, cfg) if b["set"] == "fft-plus3" and b["build"] == 2)
    p = subprocess.run(
        [sys.executable, str(MEASURE / "measure.py"), "rebuild", "--config",
         str(MEASURE / "config-tiny.yaml"), "fft-plus3", "2", str(tmp_path / "again")],
        capture_output=True, text=True, timeout=120,
    )
    assert p.returncode == 0, p.stderr
    again = json.loads(p.stdout)
    assert again["link_order"] == r["link_order"]
    assert again["commands"] == r["commands"]
    assert again["sha256"] == r["sha256"]  # byte-identical binary


def test_known_effect_is_counted_work(tiny):
    wd, cfg = tiny
    units = {}
    for r in _builds(wd, cfg):
        units.setdefault(r["set"], set()).add(r["units_per_iteration"])
    assert all(len(u) == 1 for u in units.values())
    base = units["fft"].pop()
    assert units["fft-plus0"].pop() == base
    plus3 = units["fft-plus3"].pop()
    assert plus3 * 100 == base * 103
    # the binary itself counts the work it does (not a number in a file)
    binary = wd / cfg["build_dir"] / "bin" / "fft-plus3" / "b001" / "bench"
    out = subprocess.run([str(binary), "--count"], capture_output=True, text=True, timeout=60)
    assert B.parse_count(out.stdout, "fft-plus3")[0] == plus3
    run = subprocess.run([str(binary), "3"], capture_output=True, text=True, timeout=60)
    times, cpu, per_iteration = R.parse_times(run.stdout, 3, "fft-plus3")
    assert per_iteration == plus3 and len(times) == len(cpu) == 3


def test_provenance_and_costs(tiny):
    wd, cfg = tiny
    d = _data(wd, cfg)
    prov = json.loads((d / "provenance.json").read_text())
    assert prov["machine"]["lscpu"] and prov["machine"]["kernel"]
    assert prov["software"]["cc"].startswith(("gcc", "cc"))
    for k in ("builds_started", "builds_finished", "run_started", "run_finished"):
        assert prov["dates"][k]
    seeds = prov["seeds"]
    assert seeds["master_seed"] == cfg["master_seed"]
    assert seeds["build_seeds"]["fft"] == [B.build_seed(cfg, "fft", b)
                                           for b in range(1, _shape(wd, cfg, "fft")[0] + 1)]
    assert {"compile", "link", "run"} <= set(prov["commands"])
    assert len(prov["load"]["run_loadavg_before"]) == 3
    text = json.dumps(prov)
    assert str(wd) not in text  # no path of this machine
    assert (d / "PROVENANCE.md").read_text().startswith("# Provenance")
    costs = json.loads((d / "costs.json").read_text())
    for s, c in costs["sets"].items():
        assert c["build_seconds"]["min"] > 0, s
        assert c["steady_iteration_seconds"]["mean"] > 0
        assert c["process_seconds"]["mean"] > c["iteration_seconds"]["mean"] * _shape(wd, cfg, s)[2]
        assert set(c) <= set(costs["fields"])


@pytest.mark.skipif(not HAVE_HARNESS, reason="needs g++, libbenchmark-dev and hyperfine")
def test_harness_files_are_read(tiny):
    from esize.readers import detect_format, read_benchmarks

    wd, cfg = tiny
    h = wd / cfg["harness_dir"]
    for tool, names in (("gbench", {"BM_FFT", "BM_Cipher"}), ("hyperfine", {"fft", "cipher"})):
        for side in ("old", "new"):
            path = h / f"{tool}-real-{side}.json"
            assert detect_format(path) == tool
            read = read_benchmarks(path)
            assert set(read) == names
            n = (cfg["harness"]["gbench_repetitions"] if tool == "gbench"
                 else cfg["harness"]["hyperfine_runs"])
            assert all(b.design.data.shape == (n,) and np.all(b.design.data > 0)
                       for b in read.values())


def test_bad_config_is_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((MEASURE / "config-tiny.yaml").read_text().replace("builds: 3", "builds: 0"))
    p = subprocess.run([sys.executable, str(MEASURE / "measure.py"), "check-config", str(bad)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1
    assert str(bad) in p.stderr and "builds" in p.stderr
    bad.write_text("builds: [\n")
    p = subprocess.run([sys.executable, str(MEASURE / "measure.py"), "check-config", str(bad)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and str(bad) in p.stderr


def test_check_config_rejects_a_variant_without_exact_work():
    cfg = C.load_config_files([MEASURE / "config.yaml"])
    assert C.check_config(cfg)["design"]["mode"] == "plan"
    with pytest.raises(C.ConfigProblem, match="variants.interp"):
        C.check_config({**cfg, "variants": {"interp": [10]}})
    with pytest.raises(C.ConfigProblem, match="permille"):
        C.check_config({**cfg, "variants": {"fft": [15]}})


def test_full_configuration_meets_the_issue():
    cfg = C.check_config(C.load_config_files([MEASURE / "config.yaml"]))
    assert len(cfg["benchmarks"]) >= 4
    d = cfg["design"]
    assert d["mode"] == "plan" and d["budget_minutes"] <= 60
    assert d["targets_pct"]["cipher"] <= 0.5 and d["targets_pct"]["fft"] <= 1.0
    # the floors keep what the study subsamples and the committed test sample cuts
    assert d["min"]["builds"] >= 10 and d["min"]["executions"] >= 4
    assert d["min"]["iterations"] >= 12
    assert cfg["guard"]["enabled"] and not cfg["force"]
    assert sorted(len(v) for v in cfg["variants"].values()) == [3, 3]
    assert all(sorted(v) == [0, 10, 30] for v in cfg["variants"].values())


def test_priority_is_inherited_and_given_back():
    """The runner's niceness reaches the measured process and is undone afterwards
    (in a thread of its own: Linux keeps the niceness per thread)."""
    import os
    import threading

    if shutil.which("nice") is None:
        pytest.skip("needs the nice command")
    seen = {}

    def work():
        before = os.getpriority(os.PRIO_PROCESS, 0)
        target = min(before + 3, 19)
        with R._Priority(target):
            seen["child"] = int(subprocess.run(["nice"], capture_output=True, text=True,
                                               timeout=30).stdout)
        seen["after"] = os.getpriority(os.PRIO_PROCESS, 0)
        seen["target"], seen["before"] = target, before

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert seen["child"] == seen["target"]
    if os.geteuid() == 0:  # only root may lower it again
        assert seen["after"] == seen["before"]
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    with R._Priority(None):  # None leaves it alone
        inside = int(subprocess.run(["nice"], capture_output=True, text=True,
                                    timeout=30).stdout)
    assert inside == mine


def _busy_loops(n: int):
    """``n`` processes spinning on a CPU (yes, its output discarded)."""
    return [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(n)]


@pytest.mark.skipif(shutil.which("yes") is None, reason="needs the yes command")
def test_busy_machine_is_refused_in_one_line_and_force_measures_anyway(tmp_path):
    """The issue's acceptance: two busy loops, `measure.py make` (what `make
    measure-tiny` runs) refuses within 30 s with one line and writes nothing; with
    --force it measures and provenance says so."""
    import time

    files = [str(MEASURE / "config-tiny.yaml")]
    (tmp_path / "no-harness.yaml").write_text("harness:\n  enabled: false\n")
    files.append(str(tmp_path / "no-harness.yaml"))
    loops = _busy_loops(2)
    try:
        time.sleep(0.5)
        t0 = time.monotonic()
        p = subprocess.run([sys.executable, str(MEASURE / "measure.py"), "make", *files],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path)
        took = time.monotonic() - t0
        assert p.returncode == 2, p.stderr
        errors = p.stderr.splitlines()
        assert len(errors) == 1 and errors[0].startswith("esize: error: the machine is busy")
        assert "yes (pid" in errors[0] and "--force" in errors[0]
        assert took < 30
        assert not (tmp_path / "data").exists() and not (tmp_path / "measure").exists()
        p = subprocess.run([sys.executable, str(MEASURE / "measure.py"), "make", *files,
                            "--", "--force"],
                           capture_output=True, text=True, timeout=600, cwd=tmp_path)
        assert p.returncode == 0, p.stderr[-2000:]
    finally:
        for q in loops:
            q.kill()
            q.wait()
    prov = json.loads((tmp_path / "data" / "measured-tiny" / "provenance.json").read_text())
    assert prov["guard"]["forced"] is True and prov["guard"]["preflight"]["busy"] is True
    assert "--force" in prov["commands"]["measure"]
    assert "Measured with --force" in (tmp_path / "data" / "measured-tiny" /
                                       "PROVENANCE.md").read_text()
