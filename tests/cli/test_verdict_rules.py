"""``esize compare`` draws a verdict only from an interval known to cover (issue 26):
one fork or process per system, a bootstrap verdict on few units, few dominant units'
degrees of freedom, and the suite's JSON limits."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import esize as ez

from .helpers import cli, cli_json, tidy, write_csv

CHANGES = ("faster", "slower")
FORK = ("fork",)  # the rows within a fork are its iterations


def _one_fork(path, values, benchmark=None):
    frame = tidy(np.asarray(values, dtype=float)[None, :], levels=FORK)
    if benchmark is not None:
        frame["benchmark"] = benchmark
    return write_csv(path, frame)


def test_one_fork_each_is_inconclusive_with_the_reason(tmp_path, capsys):
    rng = np.random.default_rng(1)
    po = _one_fork(tmp_path / "o.csv", rng.normal(100, 1, 30))
    pn = _one_fork(tmp_path / "n.csv", rng.normal(90, 1, 30))  # clearly 10 % faster
    argv = ["compare", po, pn, "--levels", "fork", "--seed", "1",
            "--resamples", "500", "--threshold", "0"]
    out = cli_json(argv, capsys)
    assert out["verdict"] == "inconclusive"
    assert "the forks of a system are not observed apart (a single fork" in out["verdict_reason"]
    # the ratio and the interval are still shown
    assert out["fieller"]["bounded"] is True
    assert out["fieller"]["upper"] < 0.95 and out["description"].startswith("new is ")
    assert any(c.startswith("no verdict: the forks of a system are not observed apart")
               and "--assume-no-fork-variance" in c
               for c in out["caveats"])
    code, text, _ = cli(argv, capsys)
    assert code == 0 and "verdict         inconclusive" in text
    assert "caveat          no verdict: the forks of a system are not observed" in text
    # only the explicit assumption draws the old verdict, and says so
    forced = cli_json([*argv, "--assume-no-fork-variance"], capsys)
    assert forced["verdict"] == "faster" and "verdict_reason" not in forced
    assert any("assuming no variation between forks" in c for c in forced["caveats"])


def test_one_fork_on_one_side_is_enough_to_withhold_the_verdict(tmp_path, capsys):
    rng = np.random.default_rng(2)
    po = _one_fork(tmp_path / "o.csv", rng.normal(100, 1, 30))
    pn = write_csv(tmp_path / "n.csv", tidy(rng.normal(90, 1, (5, 30)), levels=FORK))
    out = cli_json(["compare", po, pn, "--levels", "fork", "--method", "fieller",
                    "--threshold", "0"], capsys)
    assert out["verdict"] == "inconclusive" and "a single fork" in out["verdict_reason"]


def test_bootstrap_decides_with_ten_units(tmp_path, capsys):
    rng = np.random.default_rng(3)
    po = write_csv(tmp_path / "o.csv", rng.normal(100, 1, (10, 3, 2)))
    pn = write_csv(tmp_path / "n.csv", rng.normal(90, 1, (10, 3, 2)))
    out = cli_json(["compare", po, pn, "--method", "bootstrap", "--seed", "1",
                    "--resamples", "500"], capsys)
    assert out["verdict"] == "faster" and "verdict_reason" not in out
    # below the floor (esize.MIN_BOOTSTRAP_UNITS, 4 as measured by R7): no verdict
    po = write_csv(tmp_path / "o3.csv", rng.normal(100, 1, (3, 3, 2)))
    pn = write_csv(tmp_path / "n3.csv", rng.normal(90, 1, (3, 3, 2)))
    out = cli_json(["compare", po, pn, "--method", "bootstrap", "--seed", "1",
                    "--resamples", "500"], capsys)
    assert out["verdict"] == "inconclusive" and "3 top-level units" in out["verdict_reason"]
    # with Fieller run, it decides: the bootstrap rule concerns the bootstrap only
    both = cli_json(["compare", po, pn, "--seed", "1", "--resamples", "500"], capsys)
    assert both["verdict"] == "faster" and both["verdict_method"] == "fieller"


def test_few_dominant_units_lower_the_df_without_a_caveat(tmp_path, capsys):
    # issue 40: one df rule for every design, so no caveat for a switch between rules;
    # 3 binaries against 20 of the same spread: the df is near Hsu's n - 1 = 2
    rng = np.random.default_rng(4)
    yo, yn = rng.normal(100, 3, (3, 2, 2)), rng.normal(100, 3, (20, 2, 2))
    po, pn = write_csv(tmp_path / "o.csv", yo), write_csv(tmp_path / "n.csv", yn)
    out = cli_json(["compare", po, pn, "--method", "fieller"], capsys)
    assert not [c for c in out["caveats"] if "degrees of freedom" in c]
    ci = ez.fieller_ci(yo.mean(axis=(1, 2)), yn.mean(axis=(1, 2)))
    assert 2.0 <= ci.extra["df"] < 2.5 < ci.extra["df_welch"] and ci.extra["df_side"] == "old"
    assert (out["fieller"]["lower"], out["fieller"]["upper"]) == pytest.approx(
        (ci.lower, ci.upper), rel=1e-12)


def _suite(tmp_path, rng, k=10, forks=2, iters=5):
    olds, news = [], []
    for j in range(k):
        o = 100 * (1 + rng.normal(0, 0.02, (forks, 1)) + rng.normal(0, 0.01, (forks, iters)))
        n = 100 * (1 + rng.normal(0, 0.02, (forks, 1)) + rng.normal(0, 0.01, (forks, iters)))
        olds.append(tidy(o, levels=FORK, benchmark=f"b{j}"))
        news.append(tidy(n, levels=FORK, benchmark=f"b{j}"))
    return (write_csv(tmp_path / "so.csv", pd.concat(olds)),
            write_csv(tmp_path / "sn.csv", pd.concat(news)))


def test_suite_json_limits_are_the_verdict_interval(tmp_path, capsys):
    po, pn = _suite(tmp_path, np.random.default_rng(5))
    argv = ["compare", po, pn, "--benchmark-column", "--levels", "fork",
            "--seed", "1", "--resamples", "1000", "--method", "both"]
    s = cli_json(argv, capsys)["suite"]
    p, b = s["parametric"], s["bootstrap"]
    # lower and upper hold both the bootstrap's and the t interval: the verdict's
    assert s["lower"] == min(p["lower"], b["lower"]) and s["upper"] == max(p["upper"], b["upper"])
    assert s["lower"] <= s["geometric_mean"] <= s["upper"]
    (few,) = [c for c in s["caveats"] if "as few as 2 top-level units" in c]
    assert "lower and upper" in few
    code, text, _ = cli(argv, capsys)
    assert code == 0 and "caveat      geometric mean: the bootstrap interval" in text


def test_suite_with_one_fork_benchmarks_is_inconclusive(tmp_path, capsys):
    rng = np.random.default_rng(6)
    olds, news = [], []
    for j in range(3):
        olds.append(tidy(rng.normal(100, 1, (1, 30)), levels=FORK, benchmark=f"b{j}"))
        news.append(tidy(rng.normal(80, 1, (1, 30)), levels=FORK, benchmark=f"b{j}"))
    po = write_csv(tmp_path / "o.csv", pd.concat(olds))
    pn = write_csv(tmp_path / "n.csv", pd.concat(news))
    argv = ["compare", po, pn, "--benchmark-column", "--levels", "fork",
            "--seed", "1", "--resamples", "500"]
    s = cli_json(argv, capsys)["suite"]
    assert s["verdict"] == "inconclusive" and "a single fork" in s["verdict_reason"]
    forced = cli_json([*argv, "--assume-no-fork-variance"], capsys)["suite"]
    assert forced["verdict"] == "faster"


# -- slow: Monte Carlo through the command line -----------------------------------------------
def _one_fork_files(tmp_path, reps, iters, seed):
    rng = np.random.default_rng(seed)
    paths = []
    for side in ("o", "n"):
        x = 1.0 + rng.normal(0, 0.01, (reps, 1)) + rng.normal(0, 0.03, (reps, iters))
        frame = pd.DataFrame({
            "benchmark": np.repeat([f"b{i:04d}" for i in range(reps)], iters),
            "fork": 1,
            "iteration": np.tile(np.arange(1, iters + 1), reps),
            "time": x.ravel(),
        })
        paths.append(write_csv(tmp_path / f"{side}.csv", frame))
    return paths


@pytest.mark.slow
def test_mc_cli_one_fork_each_says_no_change_at_most_five_percent(tmp_path, capsys):
    # item 1 through the command line: 2000 benchmarks of one fork x 20 iterations per
    # system, true ratio 1, fork sd 1 %, iteration sd 3 %, threshold 0
    reps = 2000
    po, pn = _one_fork_files(tmp_path, reps, 20, 2026)
    argv = ["compare", po, pn, "--benchmark-column", "--levels", "fork,iteration",
            "--method", "fieller", "--threshold", "0", "--resamples", "200", "--seed", "1"]
    words = [b["verdict"] for b in cli_json(argv, capsys)["benchmarks"]]
    assert len(words) == reps
    assert sum(w in CHANGES for w in words) / reps <= 0.05
    forced = [b["verdict"] for b in
              cli_json([*argv, "--assume-no-fork-variance"], capsys)["benchmarks"]]
    rate = sum(w in CHANGES for w in forced) / reps
    assert rate > 0.05 + 3 * math.sqrt(0.05 * 0.95 / reps)  # the test has the power
