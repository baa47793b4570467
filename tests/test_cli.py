"""Tests of the ``esize`` command line (``esize.cli``).

The worked examples are those of Kalibera & Jones, "Quantifying Performance Changes
with Effect Size Confidence Intervals", Section ``sDirty`` (Tables ``tWEData``,
``tWE2Data`` and ``tWQEData``; see also reproduction-targets.md, section 2).

Most tests call :func:`esize.cli.main` in-process (fast); a handful run
``python -m esize`` in a subprocess to prove that no traceback escapes the real
entry point on bad input.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from esize.cli import main

SRC = Path(__file__).resolve().parents[1] / "src"

# Student's t quantile t_{0.975, 2} (3 binaries -> 2 degrees of freedom).
T975_2DF = 4.302652729911275

# -- the paper's worked examples (Section sDirty) ---------------------------------
# binary -> execution -> measurements
WE_DATA = [  # Table tWEData
    [[9, 5], [8, 3]],
    [[10, 6], [7, 11]],
    [[1, 12], [2, 4]],
]
WE2_DATA = [  # Table tWE2Data: the same data as two levels (execution level dropped)
    [9, 8, 5, 3],
    [10, 7, 6, 11],
    [1, 2, 12, 4],
]
WQE_OLD = [  # Table tWQEData, old system
    [[9, 11], [5, 6]],
    [[16, 13], [12, 8]],
    [[15, 7], [10, 14]],
]
WQE_NEW = [  # Table tWQEData, new system
    [[10, 12], [6, 7]],
    [[9, 1], [11, 4]],
    [[8, 5], [3, 2]],
]


# -- helpers ----------------------------------------------------------------------
def tidy(data, levels=("binary", "execution"), value="time", **extra) -> pd.DataFrame:
    """A tidy frame (one row per measurement) from nested lists / an ndarray."""
    arr = np.asarray(data, dtype=float)
    assert arr.ndim == len(levels) + 1
    rows = []
    for idx in np.ndindex(arr.shape):
        row = {name: idx[k] + 1 for k, name in enumerate(levels)}
        row[value] = arr[idx]
        row.update(extra)
        rows.append(row)
    return pd.DataFrame(rows)


def write_csv(path: Path, data, **kw) -> Path:
    frame = data if isinstance(data, pd.DataFrame) else tidy(data, **kw)
    frame.to_csv(path, index=False)
    return path


def write_rows(path: Path, header: str, rows: list[str]) -> Path:
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def cli(argv, capsys):
    """Run ``main`` in-process; return (exit code, stdout, stderr)."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse usage errors, --version, --help
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def cli_json(argv, capsys) -> dict:
    code, out, err = cli([*argv, "--json"], capsys)
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def _module_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(SRC), env.get("PYTHONPATH", "")] if p)
    return env


def run_modules(arg_lists, cwd) -> list[tuple[int, str, str]]:
    """Run ``python -m esize`` (``src`` on the path, installed or not) once per
    argument list, concurrently; return (exit code, stdout, stderr) of each."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "esize", *map(str, args)],
            cwd=cwd,
            env=_module_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in arg_lists
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        results.append((proc.returncode, out, err))
    return results


def assert_one_line_error(code, out, err, *, file=None, words=()):
    """Exit status 2, exactly one non-empty stderr line naming the file and the problem."""
    assert code == 2, (code, out, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert line.strip(), err
    assert out == "", out
    if file is not None:
        assert Path(file).name in line, line
    if words:
        low = line.lower()
        assert any(w.lower() in low for w in words), line
    return line


@pytest.fixture
def wqe(tmp_path):
    return write_csv(tmp_path / "old.csv", WQE_OLD), write_csv(tmp_path / "new.csv", WQE_NEW)


@pytest.fixture
def we(tmp_path):
    return write_csv(tmp_path / "we.csv", WE_DATA)


@pytest.fixture
def we2(tmp_path):
    return write_csv(tmp_path / "we2.csv", WE2_DATA, levels=("binary",))


def _synthetic_pair(factor, noise=1e-3, n_bin=10, seed=7):
    """Old system with real binary/execution/measurement variation; new = old * factor."""
    rng = np.random.default_rng(seed)
    b = rng.normal(0, 3.0, size=(n_bin, 1, 1))
    e = rng.normal(0, 2.0, size=(n_bin, 3, 1))
    m = rng.normal(0, 1.0, size=(n_bin, 3, 4))
    old = 100.0 + b + e + m
    new = old * factor * (1.0 + rng.normal(0, noise, size=old.shape))
    return old, new


# == 1. worked examples ==============================================================
def test_summary_wqe_old_mean_and_t_ci(wqe, capsys):
    old, _ = wqe
    out = cli_json(["summary", old], capsys)
    assert out["mean"] == pytest.approx(10.5, abs=1e-12)
    # S3^2 (variance of binary means) of the old system is 5.8125 (paper: 10.5 +- 6.0)
    assert out["variance"]["binary"]["S2"] == pytest.approx(5.8125, abs=1e-12)
    half = T975_2DF * math.sqrt(5.8125 / 3)
    assert half == pytest.approx(5.99, abs=0.005)
    assert out["ci"]["method"] == "t"
    assert out["ci"]["alpha"] == 0.05
    assert out["ci"]["lower"] == pytest.approx(10.5 - half, rel=1e-9)
    assert out["ci"]["upper"] == pytest.approx(10.5 + half, rel=1e-9)


def test_summary_wqe_new_variance(wqe, capsys):
    _, new = wqe
    out = cli_json(["summary", new], capsys)
    assert out["mean"] == pytest.approx(6.5)
    assert out["variance"]["binary"]["S2"] == pytest.approx(4.5625, abs=1e-12)


def test_compare_wqe_fieller_bootstrap_verdict(wqe, capsys):
    old, new = wqe
    out = cli_json(
        ["compare", old, new, "--seed", "12345", "--resamples", "500", "--threshold", "0.02"],
        capsys,
    )
    assert out["ratio"] == pytest.approx(6.5 / 10.5, rel=1e-12)
    assert out["old"]["mean"] == pytest.approx(10.5)
    assert out["new"]["mean"] == pytest.approx(6.5)
    assert out["alpha"] == 0.05
    assert out["threshold"] == 0.02
    f = out["fieller"]
    assert f["bounded"] is True
    assert round(f["lower"], 4) == 0.1098
    assert round(f["upper"], 4) == 1.7253
    b = out["bootstrap"]
    assert b["seed"] == 12345
    assert b["resamples"] == 500
    assert b["scheme"] == "RRR"
    assert isinstance(b["lower"], float) and isinstance(b["upper"], float)
    assert b["lower"] <= out["ratio"] <= b["upper"]
    assert out["verdict"] == "inconclusive"


def test_summary_we_variance_components(we, capsys):
    out = cli_json(["summary", we], capsys)
    v = out["variance"]
    assert out["mean"] == pytest.approx(6.5)
    assert v["binary"]["S2"] == pytest.approx(3.5625, abs=1e-12)
    assert round(v["execution"]["S2"], 4) == 2.5833
    assert v["measurement"]["S2"] == pytest.approx(16.5, abs=1e-12)
    assert round(v["execution"]["T2"], 4) == -5.6667
    assert round(v["binary"]["T2"], 4) == 2.2708
    assert v["measurement"]["T2"] == pytest.approx(16.5)
    assert out["counts"] == {"binary": 3, "execution": 2, "measurement": 2}


def test_plan_we_drops_execution(we, capsys):
    out = cli_json(["plan", we, "--costs", "10,300"], capsys)
    assert out["dropped"] == ["execution"]
    assert out["levels"] == ["binary", "measurement"]
    assert set(out["counts"]) == {"measurement"}
    # After dropping the execution level every binary runs once, so a new binary
    # costs build + warm-up = 300 + 10 = 310 measurements (equation ecost with
    # n_2 = 1), and n_1 = ceil(sqrt(310 * 12.7222 / 0.38194)) = ceil(101.6) = 102.
    assert out["counts"]["measurement"] == 102


def test_plan_we_negligible_build_cost_matches_two_level(we, capsys):
    # The paper's example ignores the build cost (its c_2 = 300 is commented out);
    # with a negligible one the three-level plan reduces to the two-level answer.
    out = cli_json(["plan", we, "--costs", "10,1e-9"], capsys)
    assert out["dropped"] == ["execution"]
    assert out["counts"] == {"measurement": 19}


def test_we2_summary_and_plan(we2, capsys):
    s = cli_json(["summary", we2, "--levels", "binary"], capsys)
    assert s["levels"] == ["binary", "measurement"]
    assert s["counts"] == {"binary": 3, "measurement": 4}
    assert s["variance"]["binary"]["S2"] == pytest.approx(3.5625, abs=1e-12)
    assert round(s["variance"]["measurement"]["S2"], 3) == 12.722
    assert round(s["variance"]["binary"]["T2"], 4) == 0.3819

    out = cli_json(["plan", we2, "--levels", "binary", "--costs", "10"], capsys)
    assert out["dropped"] == []
    assert out["levels"] == ["binary", "measurement"]
    # The paper prints n_1 = 18: it rounded T_1^2 to 12.7 and T_2^2 to 0.4 first,
    # sqrt(10 * 12.7 / 0.4) = 17.8 -> 18.  Computed exactly,
    # sqrt(10 * 12.7222 / 0.38194) = 18.25 -> 19, which is what esize reports.
    assert math.ceil(math.sqrt(10 * 12.7 / 0.4)) == 18
    assert out["counts"] == {"measurement": 19}


def test_we_as_one_grouping_level_equals_we2(we, we2, capsys):
    # tWEData read with --levels binary (execution column ignored) holds the same
    # per-binary values as tWE2Data, so the variance estimates agree.
    a = cli_json(["summary", we, "--levels", "binary"], capsys)
    b = cli_json(["summary", we2, "--levels", "binary"], capsys)
    for lvl in ("binary", "measurement"):
        for k in ("S2", "T2"):
            assert a["variance"][lvl][k] == pytest.approx(b["variance"][lvl][k])


# == 2. JSON shape ===================================================================
def _check_summary_json(out, levels):
    assert set(out) >= {"levels", "counts", "mean", "ci", "variance"}
    assert out["levels"] == levels
    assert all(isinstance(x, str) for x in out["levels"])
    assert list(out["counts"]) == levels
    assert all(type(n) is int for n in out["counts"].values())
    assert isinstance(out["mean"], float)
    assert set(out["ci"]) >= {"method", "alpha", "lower", "upper"}
    assert out["ci"]["method"] in ("t", "normal")
    for k in ("alpha", "lower", "upper"):
        assert isinstance(out["ci"][k], float)
    assert out["ci"]["lower"] < out["mean"] < out["ci"]["upper"]
    assert list(out["variance"]) == levels
    for lvl in levels:
        assert set(out["variance"][lvl]) >= {"S2", "T2"}
        assert isinstance(out["variance"][lvl]["S2"], float)
        assert isinstance(out["variance"][lvl]["T2"], float)


def test_summary_json_keys_and_types(we, capsys):
    _check_summary_json(cli_json(["summary", we], capsys), ["binary", "execution", "measurement"])


def test_compare_json_keys_and_types(wqe, capsys):
    old, new = wqe
    out = cli_json(["compare", old, new, "--seed", "3", "--resamples", "300"], capsys)
    assert set(out) >= {
        "ratio",
        "old",
        "new",
        "alpha",
        "threshold",
        "fieller",
        "bootstrap",
        "verdict",
    }
    for k in ("ratio", "alpha", "threshold"):
        assert isinstance(out[k], float)
    assert isinstance(out["old"]["mean"], float)
    assert isinstance(out["new"]["mean"], float)
    f = out["fieller"]
    assert set(f) >= {"lower", "upper", "bounded"}
    assert isinstance(f["bounded"], bool)
    assert isinstance(f["lower"], float) and isinstance(f["upper"], float)
    b = out["bootstrap"]
    assert set(b) >= {"lower", "upper", "scheme", "resamples", "seed"}
    assert isinstance(b["lower"], float) and isinstance(b["upper"], float)
    assert isinstance(b["scheme"], str)
    assert type(b["resamples"]) is int and type(b["seed"]) is int
    assert out["verdict"] in ("faster", "slower", "same", "inconclusive")


def test_plan_json_keys_and_types(we, capsys):
    out = cli_json(["plan", we, "--costs", "10,300"], capsys)
    assert set(out) >= {"dropped", "levels", "counts"}
    assert isinstance(out["dropped"], list) and isinstance(out["levels"], list)
    # counts for every remaining level but the top one
    assert list(out["counts"]) == out["levels"][1:]
    assert all(type(n) is int and n >= 1 for n in out["counts"].values())


def test_plan_three_levels_counts_every_level_but_top(tmp_path, capsys):
    old, _ = _synthetic_pair(1.0)
    p = write_csv(tmp_path / "pilot.csv", old)
    out = cli_json(["plan", p, "--costs", "5,200"], capsys)
    assert out["dropped"] == []
    assert out["levels"] == ["binary", "execution", "measurement"]
    assert list(out["counts"]) == ["execution", "measurement"]


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


# == 3. options ======================================================================
def test_where_filters_benchmarks(tmp_path, capsys):
    a = tidy(WE_DATA, benchmark="fft")
    b = tidy(WQE_OLD, benchmark="tcp")
    both = write_csv(tmp_path / "both.csv", pd.concat([a, b], ignore_index=True))
    out = cli_json(["summary", both, "--where", "benchmark=fft"], capsys)
    assert out["mean"] == pytest.approx(6.5)
    assert out["counts"] == {"binary": 3, "execution": 2, "measurement": 2}
    out = cli_json(["summary", both, "--where", "benchmark=tcp"], capsys)
    assert out["mean"] == pytest.approx(10.5)
    # repeated --where conditions all apply
    out = cli_json(
        [
            "summary",
            both,
            "--where",
            "benchmark=tcp",
            "--where",
            "binary=1",
            "--levels",
            "execution",
        ],
        capsys,
    )
    assert out["mean"] == pytest.approx(np.mean(WQE_OLD[0]))
    # without --where the two benchmarks form one (bigger) design
    out = cli_json(["summary", both], capsys)
    assert out["mean"] == pytest.approx((6.5 + 10.5) / 2)


def test_where_on_compare(tmp_path, capsys):
    o = pd.concat([tidy(WQE_OLD, benchmark="x"), tidy(WE_DATA, benchmark="y")])
    n = pd.concat([tidy(WQE_NEW, benchmark="x"), tidy(WE_DATA, benchmark="y")])
    po, pn = write_csv(tmp_path / "o.csv", o), write_csv(tmp_path / "n.csv", n)
    out = cli_json(["compare", po, pn, "--where", "benchmark=x", "--method", "fieller"], capsys)
    assert out["ratio"] == pytest.approx(6.5 / 10.5)
    assert round(out["fieller"]["lower"], 4) == 0.1098


def test_warmup_trims_first_measurements(tmp_path, capsys):
    rng = np.random.default_rng(1)
    data = 10.0 + rng.random((3, 2, 5))
    data[..., 0] += 50.0  # a slow first iteration in every execution
    p = write_csv(tmp_path / "warm.csv", data)
    full = cli_json(["summary", p], capsys)
    assert full["counts"]["measurement"] == 5
    assert full["mean"] == pytest.approx(data.mean())
    trimmed = cli_json(["summary", p, "--warmup", "1"], capsys)
    assert trimmed["counts"] == {"binary": 3, "execution": 2, "measurement": 4}
    assert trimmed["mean"] == pytest.approx(data[..., 1:].mean())
    assert trimmed["mean"] < full["mean"] - 9.0
    t3 = cli_json(["summary", p, "--warmup", "3"], capsys)
    assert t3["counts"]["measurement"] == 2
    assert t3["mean"] == pytest.approx(data[..., 3:].mean())


def test_value_other_column(tmp_path, capsys):
    frame = tidy(WE_DATA)
    frame["cycles"] = frame["time"] * 1000.0 + 1.0
    p = write_csv(tmp_path / "cyc.csv", frame)
    out = cli_json(["summary", p, "--value", "cycles"], capsys)
    assert out["mean"] == pytest.approx(6501.0)
    assert out["variance"]["binary"]["S2"] == pytest.approx(3.5625e6)


def test_levels_three_grouping_levels(tmp_path, capsys):
    rng = np.random.default_rng(3)
    data = (
        100.0
        + rng.normal(0, 6.0, (3, 1, 1, 1))
        + rng.normal(0, 4.0, (3, 2, 1, 1))
        + rng.normal(0, 3.0, (3, 2, 2, 1))
        + rng.normal(0, 0.5, (3, 2, 2, 3))
    )
    p = write_csv(tmp_path / "deep.csv", data, levels=("binary", "execution", "iteration"))
    out = cli_json(["summary", p, "--levels", "binary,execution,iteration"], capsys)
    assert out["levels"] == ["binary", "execution", "iteration", "measurement"]
    assert out["counts"] == {"binary": 3, "execution": 2, "iteration": 2, "measurement": 3}
    assert out["mean"] == pytest.approx(data.mean())
    top = data.mean(axis=(1, 2, 3))
    assert out["variance"]["binary"]["S2"] == pytest.approx(top.var(ddof=1))
    assert out["variance"]["measurement"]["S2"] == pytest.approx(data.var(axis=-1, ddof=1).mean())
    # plan needs one cost per level but the lowest (three here)
    plan = cli_json(
        ["plan", p, "--levels", "binary,execution,iteration", "--costs", "1,2,3"], capsys
    )
    assert plan["dropped"] == [], plan
    assert plan["levels"] == out["levels"]
    assert list(plan["counts"]) == ["execution", "iteration", "measurement"]
    assert_one_line_error(
        *cli(["plan", p, "--levels", "binary,execution,iteration", "--costs", "1,2"], capsys),
        file=p,
        words=["cost"],
    )


def test_levels_one_grouping_level(tmp_path, capsys):
    data = np.arange(1.0, 13.0).reshape(4, 3)
    p = write_csv(tmp_path / "flat.csv", data, levels=("binary",))
    out = cli_json(["summary", p, "--levels", "binary"], capsys)
    assert out["levels"] == ["binary", "measurement"]
    assert out["counts"] == {"binary": 4, "measurement": 3}
    assert out["mean"] == pytest.approx(6.5)
    assert out["variance"]["binary"]["S2"] == pytest.approx(data.mean(axis=1).var(ddof=1))


def test_parquet_equals_csv(tmp_path, capsys):
    frame = tidy(WE_DATA)
    csv = write_csv(tmp_path / "d.csv", frame)
    pq = tmp_path / "d.parquet"
    frame.to_parquet(pq, index=False)
    a = cli_json(["summary", csv], capsys)
    b = cli_json(["summary", pq], capsys)
    a.pop("file", None), b.pop("file", None)
    assert a == b
    pa_ = cli_json(["plan", csv, "--costs", "10,300"], capsys)
    pb_ = cli_json(["plan", pq, "--costs", "10,300"], capsys)
    assert pa_ == pb_


def test_parquet_compare_equals_csv(tmp_path, capsys):
    o, n = tidy(WQE_OLD), tidy(WQE_NEW)
    o.to_parquet(tmp_path / "o.parquet", index=False)
    n.to_parquet(tmp_path / "n.parquet", index=False)
    write_csv(tmp_path / "o.csv", o), write_csv(tmp_path / "n.csv", n)
    args = ["--seed", "9", "--resamples", "300"]
    a = cli_json(["compare", tmp_path / "o.csv", tmp_path / "n.csv", *args], capsys)
    b = cli_json(["compare", tmp_path / "o.parquet", tmp_path / "n.parquet", *args], capsys)
    a.pop("files", None), b.pop("files", None)
    assert a == b


def test_normal_ci_narrower_than_t(we, capsys):
    t = cli_json(["summary", we], capsys)
    z = cli_json(["summary", we, "--normal"], capsys)
    assert z["ci"]["method"] == "normal"
    assert z["mean"] == t["mean"]
    assert z["ci"]["upper"] - z["ci"]["lower"] < t["ci"]["upper"] - t["ci"]["lower"]
    # half-widths in the ratio of the quantiles 1.96 / 4.30
    ratio = (z["ci"]["upper"] - z["mean"]) / (t["ci"]["upper"] - t["mean"])
    assert ratio == pytest.approx(1.959963984540054 / T975_2DF, rel=1e-9)


def test_alpha_changes_ci(we, capsys):
    a05 = cli_json(["summary", we], capsys)
    a20 = cli_json(["summary", we, "--alpha", "0.2"], capsys)
    assert a20["ci"]["alpha"] == 0.2
    assert a20["ci"]["upper"] - a20["ci"]["lower"] < a05["ci"]["upper"] - a05["ci"]["lower"]


def test_compare_normal_fieller_narrower(wqe, capsys):
    t = cli_json(["compare", *wqe, "--method", "fieller"], capsys)
    z = cli_json(["compare", *wqe, "--method", "fieller", "--normal"], capsys)
    assert z["fieller"]["lower"] > t["fieller"]["lower"]
    assert z["fieller"]["upper"] < t["fieller"]["upper"]


def test_method_fieller_omits_bootstrap(wqe, capsys):
    out = cli_json(["compare", *wqe, "--method", "fieller"], capsys)
    assert "fieller" in out and "bootstrap" not in out


def test_method_bootstrap_omits_fieller(wqe, capsys):
    out = cli_json(
        ["compare", *wqe, "--method", "bootstrap", "--seed", "1", "--resamples", "300"], capsys
    )
    assert "bootstrap" in out and "fieller" not in out
    assert out["bootstrap"]["resamples"] == 300


def test_bootstrap_seed_reproducible(wqe, capsys):
    args = ["compare", *wqe, "--method", "bootstrap", "--resamples", "500"]
    a = cli_json([*args, "--seed", "42"], capsys)
    b = cli_json([*args, "--seed", "42"], capsys)
    c = cli_json([*args, "--seed", "43"], capsys)
    assert a["bootstrap"] == b["bootstrap"]
    assert (a["bootstrap"]["lower"], a["bootstrap"]["upper"]) != (
        c["bootstrap"]["lower"],
        c["bootstrap"]["upper"],
    )


def test_bootstrap_fresh_seed_is_reported_and_reusable(wqe, capsys):
    args = ["compare", *wqe, "--method", "bootstrap", "--resamples", "300"]
    a = cli_json(args, capsys)
    seed = a["bootstrap"]["seed"]
    assert type(seed) is int and seed >= 0
    b = cli_json([*args, "--seed", seed], capsys)
    assert b["bootstrap"] == a["bootstrap"]


def test_bootstrap_scheme_option(wqe, capsys):
    out = cli_json(
        [
            "compare",
            *wqe,
            "--method",
            "bootstrap",
            "--scheme",
            "rnr",
            "--seed",
            "1",
            "--resamples",
            "200",
        ],
        capsys,
    )
    assert out["bootstrap"]["scheme"] == "RNR"
    out = cli_json(
        [
            "compare",
            *wqe,
            "--method",
            "bootstrap",
            "--scheme",
            "FLAT",
            "--seed",
            "1",
            "--resamples",
            "200",
        ],
        capsys,
    )
    assert out["bootstrap"]["scheme"] == "FLAT"


@pytest.mark.parametrize(
    "factor, threshold, expected",
    [(0.8, 0.02, "faster"), (1.25, 0.02, "slower"), (1.001, 0.5, "same")],
)
@pytest.mark.parametrize("method", ["both", "bootstrap"])
def test_verdicts(tmp_path, capsys, factor, threshold, expected, method):
    old, new = _synthetic_pair(factor)
    po, pn = write_csv(tmp_path / "old.csv", old), write_csv(tmp_path / "new.csv", new)
    out = cli_json(
        [
            "compare",
            po,
            pn,
            "--method",
            method,
            "--threshold",
            threshold,
            "--seed",
            "11",
            "--resamples",
            "1000",
        ],
        capsys,
    )
    assert out["ratio"] == pytest.approx(factor, rel=0.01)
    assert out["verdict"] == expected
    if method == "both":
        assert out["fieller"]["bounded"] is True
        assert out["fieller"]["lower"] < out["ratio"] < out["fieller"]["upper"]


def test_tiny_change_zero_threshold_is_not_same(tmp_path, capsys):
    old, new = _synthetic_pair(1.001)
    po, pn = write_csv(tmp_path / "old.csv", old), write_csv(tmp_path / "new.csv", new)
    out = cli_json(["compare", po, pn, "--method", "fieller", "--threshold", "0"], capsys)
    assert out["verdict"] != "same"


def test_version_and_help(capsys):
    code, out, _ = cli(["--version"], capsys)
    assert code == 0 and out.startswith("esize ")
    code, out, _ = cli(["summary", "--help"], capsys)
    assert code == 0 and "--levels" in out


# == 4. bad input ====================================================================
def _we_rows():
    rows = []
    for b, ex in enumerate(WE_DATA, 1):
        for e, ms in enumerate(ex, 1):
            rows += [f"{b},{e},{m}" for m in ms]
    return rows


HEADER = "binary,execution,time"


def _bad_value_file(tmp_path, name, text):
    rows = _we_rows()
    rows[3] = f"1,2,{text}"
    return write_rows(tmp_path / name, HEADER, rows)


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
    bad = _bad_value_file(tmp_path, name, text)
    if command == "summary":
        argv = ["summary", bad]
    elif command == "plan":
        argv = ["plan", bad, "--costs", "10,300"]
    else:
        good = write_csv(tmp_path / "good.csv", WE_DATA)
        argv = ["compare", good, bad, "--seed", "1", "--resamples", "200"]
    assert_one_line_error(*cli(argv, capsys), file=bad, words=words)


def test_unbalanced_missing_measurement(tmp_path, capsys):
    rows = _we_rows()
    del rows[5]  # binary 2, execution 1 loses one measurement
    p = write_rows(tmp_path / "short.csv", HEADER, rows)
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["unbalanced"])


def test_unbalanced_fewer_executions(tmp_path, capsys):
    rows = [r for r in _we_rows() if not r.startswith("3,2,")]  # binary 3: one execution
    p = write_rows(tmp_path / "fewer.csv", HEADER, rows)
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["unbalanced"])
    old = write_csv(tmp_path / "ok.csv", WE_DATA)
    assert_one_line_error(
        *cli(["compare", old, p, "--method", "fieller"], capsys), file=p, words=["unbalanced"]
    )


def test_one_binary_summary(tmp_path, capsys):
    p = write_csv(tmp_path / "one.csv", WE_DATA[:1])
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["at least 2", "unit"])


def test_one_binary_compare(tmp_path, capsys):
    o = write_csv(tmp_path / "one_old.csv", WQE_OLD[:1])
    n = write_csv(tmp_path / "one_new.csv", WQE_NEW[:1])
    assert_one_line_error(
        *cli(["compare", o, n, "--seed", "1", "--resamples", "200"], capsys),
        file=o,
        words=["at least 2", "unit"],
    )


def test_one_binary_plan(tmp_path, capsys):
    p = write_csv(tmp_path / "one.csv", WE_DATA[:1])
    assert_one_line_error(
        *cli(["plan", p, "--costs", "10,300"], capsys), file=p, words=["at least 2", "unit"]
    )


def test_one_measurement_per_execution(tmp_path, capsys):
    p = write_csv(tmp_path / "single.csv", np.asarray(WE_DATA)[..., :1])
    assert_one_line_error(*cli(["summary", p], capsys), file=p, words=["measurement"])
    assert_one_line_error(
        *cli(["plan", p, "--costs", "10,300"], capsys), file=p, words=["measurement"]
    )


@pytest.mark.parametrize(
    "opts, words",
    [
        (["--value", "nope"], ["missing column", "nope"]),
        (["--levels", "nope"], ["missing column", "nope"]),
        (["--levels", "binary,nope"], ["missing column", "nope"]),
        (["--where", "nope=1"], ["unknown column"]),
        (["--where", "binary=99"], ["no rows"]),
        (["--where", "binary"], ["col=value", "form"]),
        (["--warmup", "2"], ["warm-up", "warmup"]),
        (["--warmup", "7"], ["warm-up", "warmup"]),
    ],
)
def test_bad_input_options(we, capsys, opts, words):
    assert_one_line_error(*cli(["summary", we, *opts], capsys), file=we, words=words)


def test_where_with_benchmarks_unknown_value(tmp_path, capsys):
    both = write_csv(tmp_path / "bench.csv", tidy(WE_DATA, benchmark="fft"))
    assert_one_line_error(
        *cli(["summary", both, "--where", "benchmark=http"], capsys), file=both, words=["no rows"]
    )


def test_warmup_leaving_one_measurement(we, capsys):
    # --warmup 1 leaves one measurement per execution: not enough for the estimators
    assert_one_line_error(
        *cli(["summary", we, "--warmup", "1"], capsys), file=we, words=["measurement", "at least 2"]
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


def test_compare_differing_designs(tmp_path, capsys):
    o = write_csv(tmp_path / "old3.csv", WQE_OLD)
    n = write_csv(tmp_path / "new4.csv", [*WQE_NEW, WQE_NEW[0]])  # 4 x 2 x 2
    line = assert_one_line_error(
        *cli(["compare", o, n, "--seed", "1", "--resamples", "200"], capsys),
        file=n,
        words=["differs", "design"],
    )
    assert "old3.csv" in line


def test_compare_bad_old_file_named(tmp_path, capsys):
    o = tmp_path / "absent_old.csv"
    n = write_csv(tmp_path / "new.csv", WQE_NEW)
    assert_one_line_error(*cli(["compare", o, n], capsys), file=o, words=["no such file"])


@pytest.mark.parametrize(
    "costs, words",
    [
        ("10", ["cost"]),  # two needed for three levels
        ("10,300,5", ["cost"]),
        ("10,0", ["positive"]),
        ("0,300", ["positive"]),
        ("10,-300", ["positive"]),
        ("nan,300", ["positive", "finite"]),
        ("10,abc", ["number"]),
        (",", ["cost"]),
    ],
)
def test_bad_costs(we, capsys, costs, words):
    code, out, err = cli(["plan", we, "--costs", costs], capsys)
    assert_one_line_error(code, out, err, words=words)


def test_wrong_number_of_costs_names_file(we, capsys):
    assert_one_line_error(*cli(["plan", we, "--costs", "10"], capsys), file=we, words=["cost"])


def test_plan_missing_costs(we, capsys):
    assert_one_line_error(*cli(["plan", we], capsys), words=["--costs", "required"])


@pytest.mark.parametrize("alpha", ["0", "1", "1.5", "-0.1", "abc", "nan", ""])
@pytest.mark.parametrize("command", ["summary", "compare", "plan"])
def test_bad_alpha(we, wqe, capsys, alpha, command):
    argv = {
        "summary": ["summary", we],
        "compare": ["compare", *wqe],
        "plan": ["plan", we, "--costs", "10,300"],
    }[command]
    assert_one_line_error(*cli([*argv, "--alpha", alpha], capsys), words=["alpha"])


@pytest.mark.parametrize("threshold", ["1", "1.5", "-0.01", "abc", "nan", "inf"])
def test_bad_threshold(wqe, capsys, threshold):
    assert_one_line_error(
        *cli(["compare", *wqe, "--threshold", threshold], capsys), words=["threshold"]
    )


@pytest.mark.parametrize("scheme", ["RRX", "RR", "RRRR", "flatten", "R-R"])
def test_bad_scheme(wqe, capsys, scheme):
    assert_one_line_error(
        *cli(["compare", *wqe, "--scheme", scheme, "--seed", "1", "--resamples", "200"], capsys),
        words=["scheme"],
    )


@pytest.mark.parametrize(
    "opts, words",
    [
        (["--resamples", "0"], ["resamples"]),
        (["--resamples", "ten"], ["resamples"]),
        (["--seed", "-1"], ["seed"]),
        (["--method", "magic"], ["method"]),
        (["--warmup", "-1"], ["warmup"]),
        (["--levels", ","], ["levels"]),
        (["--bogus"], ["unrecognized", "bogus"]),
    ],
)
def test_bad_compare_options(wqe, capsys, opts, words):
    assert_one_line_error(*cli(["compare", *wqe, *opts], capsys), words=words)


def test_usage_errors_one_line(capsys):
    assert_one_line_error(*cli([], capsys), words=["command", "required"])
    assert_one_line_error(*cli(["frobnicate"], capsys), words=["invalid choice"])
    assert_one_line_error(*cli(["summary"], capsys), words=["required", "data"])
    assert_one_line_error(*cli(["compare", "only_one.csv"], capsys), words=["required", "new"])


# -- budget and output errors ---------------------------------------------------
@pytest.mark.parametrize("budget", ["nan", "inf", "0", "-5", "abc"])
def test_bad_budget(we, capsys, budget):
    assert_one_line_error(
        *cli(["plan", we, "--costs", "10,300", "--budget", budget], capsys), words=["budget"]
    )


def test_output_to_directory(we, tmp_path, capsys):
    d = tmp_path / "outdir"
    d.mkdir()
    assert_one_line_error(*cli(["summary", we, "-o", d], capsys), file=d)


def test_plan_budget_ok(we, capsys):
    out = cli_json(["plan", we, "--costs", "10,300", "--budget", "10000"], capsys)
    dim = out["dimensioning"]
    assert dim["budget"] == 10000
    assert dim["counts"]["measurement"] == 102
    # one binary costs 310 + 102 measurements: floor(10000 / 412) = 24 binaries
    assert dim["counts"]["binary"] == 24


# == subprocess: the real entry point never leaks a traceback ========================
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
    _bad_value_file(tmp_path, "nan.csv", "nan")
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


def test_scheme_that_resamples_nothing_is_rejected(tmp_path, capsys):
    write_csv(tmp_path / "old.csv", WQE_OLD)
    write_csv(tmp_path / "new.csv", WQE_NEW)
    for scheme in ("NNN", ""):
        assert_one_line_error(
            *cli(["compare", str(tmp_path / "old.csv"), str(tmp_path / "new.csv"), "--scheme", scheme], capsys),
            words=["scheme"],
        )


def test_costs_error_keeps_the_order_typed(we, capsys):
    code, out, err = cli(["plan", we, "--costs", "10,0"], capsys)
    assert code == 2 and "[10.0, 0.0]" in err
