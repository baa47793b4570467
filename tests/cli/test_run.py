"""``esize run``: interleaved rounds, the paired interval, the saved table, errors.

The commands measured here are real processes (``sleep``, ``sh``), kept short; the
statistics of the paired interval are checked on simulated rounds against a second
computation route (scipy), and for coverage under drift.
"""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import esize as ez
from esize._abrun import round_orders
from esize._paired import signed_rank_interval
from esize.cli.runner import split_commands

from .helpers import SRC, assert_one_line_error, cli

SLEEP = ["sleep", "0.002"]


def esize_run(tmp_path, *argv, capsys):
    return cli(["run", *argv], capsys)


def rows_of(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# -- the schedule -------------------------------------------------------------------------
def test_every_round_is_a_fresh_random_order_of_both_commands():
    o = round_orders(200, 3, np.random.default_rng(5), benchmarks=2)
    assert o.shape == (200, 12)
    for c in range(4):  # every command 3 times in every round
        assert ((o == c).sum(axis=1) == 3).all()
    firsts = np.bincount(o[:, 0], minlength=4)
    assert firsts.min() > 20  # each command comes first in some rounds: no fixed order
    assert len({tuple(r) for r in o}) > 150  # the orders differ from round to round


def test_split_commands_keeps_a_double_dash_of_the_new_command():
    assert split_commands(["run", "--", "a", "--", "b", "--", "c"]) == (
        ["run"], [["a"], ["b", "--", "c"]])


# -- the paired interval: two routes, and what it is for ----------------------------------
def test_paired_t_equals_scipys_one_sample_t_on_the_log_ratios():
    rng = np.random.default_rng(11)
    drift = np.exp(rng.normal(0, 0.3, 9))[:, None]
    old = ez.Design(drift * rng.lognormal(0, 0.02, (9, 2)), ("round", "process"))
    new = ez.Design(1.04 * drift * rng.lognormal(0, 0.02, (9, 2)), ("round", "process"))
    iv = ez.paired_ratio_ci(old, new)
    d = np.log(new.data.mean(axis=1)) - np.log(old.data.mean(axis=1))
    ci = stats.ttest_1samp(d, 0.0).confidence_interval(0.95)
    assert math.isclose(iv.lower, math.exp(ci.low), rel_tol=1e-12)
    assert math.isclose(iv.upper, math.exp(ci.high), rel_tol=1e-12)
    fieller = ez.fieller_ci(old, new)  # the drift is in Fieller's variances
    assert iv.upper - iv.lower < (fieller.upper - fieller.lower) / 5


@pytest.mark.parametrize("n", [6, 9, 14, 25])
def test_signed_rank_limits_are_where_scipys_exact_test_starts_to_reject(n):
    """The interval is the set of centres the exact signed-rank test does not reject at
    5 %: just inside each limit it accepts, just outside it rejects."""
    rng = np.random.default_rng(n)
    d = rng.standard_t(3, n) * 0.02 + 0.05
    _, lo, hi, ok = signed_rank_interval(d, 0.05)
    assert ok
    eps = 1e-9

    def p(theta):
        return stats.wilcoxon(d - theta, method="exact").pvalue

    assert p(lo + eps) > 0.05 and p(hi - eps) > 0.05
    assert p(lo - eps) <= 0.05 and p(hi + eps) <= 0.05


def test_signed_rank_needs_six_rounds_at_95_percent():
    d = np.array([0.01, 0.02, 0.03, 0.02, 0.01])
    assert not signed_rank_interval(d, 0.05)[3]
    assert signed_rank_interval(np.append(d, 0.02), 0.05)[3]


def _walsh_limits(d: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(d.shape[1])
    w = np.sort((d[:, i] + d[:, j]) / 2, axis=1)
    return w[:, k - 1], w[:, w.shape[1] - k]


def test_rounds_that_caught_a_change_of_load_keep_both_intervals_valid():
    """Rounds drift by up to 3x; one in eight catches the load switching halfway, so
    one process of a random system ran at another speed (the order in a round is
    random, so the wild log ratios are symmetric). Both paired intervals cover
    about 95 % (4,000 replicates, SE 0.35 points); the signed-rank one is much the
    narrower."""
    from esize._paired import _signed_rank_depth

    rng = np.random.default_rng(2026)
    reps, rounds, delta = 4000, 20, math.log(1.05)
    noise = rng.normal(0, 0.01, (reps, rounds))
    hit = rng.random((reps, rounds)) < 0.125
    jump = rng.choice([-1, 1], (reps, rounds)) * np.log(rng.uniform(1.5, 3.0, (reps, rounds)))
    d = delta + noise + np.where(hit, jump / 2, 0.0)  # half of a round's processes moved
    lo, hi = _walsh_limits(d, _signed_rank_depth(rounds, 0.05))
    sr_cover = np.mean((lo <= delta) & (delta <= hi))
    q = stats.t.ppf(0.975, rounds - 1)
    m, s = d.mean(axis=1), d.std(axis=1, ddof=1) / math.sqrt(rounds)
    t_cover = np.mean((m - q * s <= delta) & (delta <= m + q * s))
    assert 0.935 <= sr_cover <= 0.99
    assert 0.935 <= t_cover
    assert np.median(hi - lo) < 0.5 * np.median(2 * q * s)


# -- the command line, on real processes --------------------------------------------------
def test_run_saves_every_process_and_the_saved_table_gives_the_same_answer(tmp_path, capsys):
    save, out = tmp_path / "run.csv", tmp_path / "run.json"
    code, _, err = esize_run(tmp_path, "--rounds", "6", "--processes", "2", "--seed", "4",
                             "--save", save, "-o", out, "--", *SLEEP, "--", *SLEEP,
                             capsys=capsys)
    assert code == 0, err
    rows = rows_of(save)
    assert len(rows) == 6 * 2 * 2
    assert {r["system"] for r in rows} == {"old", "new"}
    assert sorted({int(r["round"]) for r in rows}) == list(range(1, 7))
    assert all(float(r["time"]) >= 0.002 for r in rows)
    doc = json.loads(out.read_text())
    assert doc["verdict_method"] == "paired" and doc["paired"]["rounds"] == 6
    assert doc["paired"]["interval"] == "signed-rank"
    again = tmp_path / "again.json"
    code, _, err = esize_run(tmp_path, "--from", save, "-o", again, capsys=capsys)
    assert code == 0, err
    redo = json.loads(again.read_text())
    for key in ("ratio", "fieller", "paired", "verdict"):
        assert redo[key] == doc[key]


def test_the_order_is_the_seeds(tmp_path, capsys):
    orders = []
    for name in ("a", "b"):
        save = tmp_path / f"{name}.csv"
        code, _, err = esize_run(tmp_path, "--rounds", "3", "--seed", "9", "--save", save,
                                 "--no-guard", "--", *SLEEP, "--", *SLEEP, capsys=capsys)
        assert code == 0, err
        orders.append([(r["system"], r["round"], r["process"]) for r in rows_of(save)])
    assert orders[0] == orders[1]


def test_printed_times_are_iterations_below_the_process(tmp_path, capsys):
    cmd = "printf 'iter 1.50 ms\\niter 1.60 ms\\niter 1.55 ms\\n'"
    new = "printf 'iter 3.00 ms\\niter 3.20 ms\\niter 3.10 ms\\n'"
    save = tmp_path / "it.csv"
    doc_path = tmp_path / "it.json"
    code, _, err = esize_run(tmp_path, "--rounds", "6", "--seed", "1", "--time-regex",
                             r"iter ([0-9.]+) ms", "--time-unit", "ms", "--save", save,
                             "-o", doc_path, "--", cmd, "--", new, capsys=capsys)
    assert code == 0, err
    rows = rows_of(save)
    assert len(rows) == 6 * 2 * 2 * 3 and "iteration" in rows[0]
    assert {round(float(r["time"]), 7) for r in rows if r["system"] == "old"} == {
        0.0015, 0.0016, 0.00155}
    doc = json.loads(doc_path.read_text())
    assert doc["verdict"] == "slower"
    assert math.isclose(doc["ratio"], 3.1 / 1.55, rel_tol=1e-9)


def test_a_clearly_slower_command_trips_the_gate(tmp_path, capsys):
    md = tmp_path / "summary.md"
    code, out, err = esize_run(tmp_path, "--rounds", "6", "--seed", "2", "--markdown", md,
                               "--fail-on", "slower", "--", "sleep", "0.002", "--",
                               "sleep", "0.03", capsys=capsys)
    assert code == 1, err
    assert "slower" in err and "paired" in out
    text = md.read_text()
    assert "**slower**" in text and "Drift:" not in text  # rounds see the drift


@pytest.mark.parametrize("argv, words", [
    (["--", "sh", "-c", "exit 3", "--", *SLEEP], ["exited with status 3"]),
    (["--", "/nonexistent/bench", "--", *SLEEP], ["not found"]),
    (["--", *SLEEP], ["two commands"]),
    (["--build", "make", "--", *SLEEP, "--", *SLEEP], ["--build needs --git"]),
    (["--time-regex", "([0-9]+) ms", "--", *SLEEP, "--", *SLEEP], ["no match"]),
    (["--bench", "a=true", "--", *SLEEP, "--", *SLEEP], ["--bench needs --git"]),
])
def test_bad_runs_are_one_line_and_status_2(tmp_path, capsys, argv, words):
    code, out, err = esize_run(tmp_path, "--rounds", "2", *argv, capsys=capsys)
    assert_one_line_error(code, out, err, words=words)


def test_a_saved_table_is_never_written_over_the_table_it_reads(tmp_path, capsys):
    save = tmp_path / "run.csv"
    code, _, err = esize_run(tmp_path, "--rounds", "2", "--save", save, "--", *SLEEP, "--",
                             *SLEEP, capsys=capsys)
    assert code == 0, err
    before = save.read_bytes()
    code, out, err = esize_run(tmp_path, "--from", save, "--save", save, capsys=capsys)
    assert_one_line_error(code, out, err, file=save)
    assert save.read_bytes() == before


def test_from_refuses_a_table_that_is_not_a_run(tmp_path, capsys):
    other = Path(__file__).resolve().parents[2] / "examples" / "old.csv"
    code, out, err = esize_run(tmp_path, "--from", other, capsys=capsys)
    assert_one_line_error(code, out, err, file=other, words=["not a table of esize run"])


def test_ctrl_c_keeps_the_complete_rounds(tmp_path):
    """SIGINT midway: the round under way is dropped, the rest saved and compared."""
    save = tmp_path / "part.csv"
    env = dict(os.environ, PYTHONPATH=str(SRC))
    p = subprocess.Popen([sys.executable, "-m", "esize", "run", "--rounds", "500", "--seed",
                          "1", "--save", str(save), "--", "sleep", "0.01", "--", "sleep",
                          "0.01"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(3.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert "Traceback" not in err and "interrupted" in err + out
    rows = rows_of(save)
    rounds = {int(r["round"]) for r in rows}
    assert 2 <= len(rounds) < 500
    assert len(rows) == 4 * len(rounds)  # complete rounds only
    assert f"{len(rounds)} complete round(s) of 500" in out


def test_git_revisions_are_built_and_measured_in_worktrees_then_removed(tmp_path, capsys,
                                                                        monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*a):
        subprocess.run(["git", *a], cwd=repo, check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "t")
    (repo / "bench.sh").write_text("#!/bin/sh\nsleep 0.002\n")
    (repo / "bench.sh").chmod(0o755)
    git("add", ".")
    git("commit", "-qm", "old")
    (repo / "bench.sh").write_text("#!/bin/sh\nsleep 0.03\n")
    git("commit", "-qam", "new")
    monkeypatch.chdir(repo)
    out_json = tmp_path / "g.json"
    code, out, err = esize_run(tmp_path, "--git", "HEAD~1", "HEAD", "--build",
                               "test -x bench.sh", "--bench", "b=./bench.sh", "--bench",
                               "t=true", "--rounds", "6", "--seed", "3", "-o", out_json,
                               capsys=capsys)
    assert code == 0, err
    doc = json.loads(out_json.read_text())
    verdicts = {b["name"]: b["verdict"] for b in doc["benchmarks"]}
    assert verdicts["b"] == "slower"
    assert "suite" in doc
    listed = subprocess.run(["git", "worktree", "list"], cwd=repo, capture_output=True,
                            text=True).stdout
    assert len(listed.strip().splitlines()) == 1  # the temporary worktrees are gone
    assert subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True,
                          text=True).stdout == ""


def test_a_failing_build_names_the_revision(tmp_path, capsys, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    for a in (["init", "-q"], ["config", "user.email", "t@example.org"],
              ["config", "user.name", "t"], ["commit", "-q", "--allow-empty", "-m", "x"]):
        subprocess.run(["git", *a], cwd=repo, check=True, capture_output=True)
    monkeypatch.chdir(repo)
    code, out, err = esize_run(tmp_path, "--git", "HEAD", "HEAD", "--build", "exit 4",
                               "--", "true", capsys=capsys)
    assert_one_line_error(code, out, err, words=["--build failed in old"])


# -- esize compare --paired: files measured in shared rounds ------------------------------
def _round_files(tmp_path, factor: float, seed: int = 1) -> tuple[Path, Path]:
    """Two tidy files of 8 shared rounds (drift sd 20 %), 3 processes x 5 values."""
    rng = np.random.default_rng(seed)
    drift = np.exp(rng.normal(0, 0.2, 8))
    paths = []
    for name, f in (("old", 1.0), ("new", factor)):
        lines = ["round,process,time"]
        for r in range(8):
            for p in range(3):
                lines += [f"{r + 1},{p + 1},{float(f * drift[r] * rng.lognormal(0, 0.01))!r}"
                          for _ in range(5)]
        path = tmp_path / f"{name}.csv"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths[0], paths[1]


def test_compare_paired_takes_the_verdict_from_the_rounds(tmp_path, capsys):
    old, new = _round_files(tmp_path, 1.04)
    code, out, err = cli(["compare", old, new, "--levels", "round,process", "--method",
                          "fieller", "--paired", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["verdict"] == "slower" and doc["verdict_method"] == "paired"
    assert 1.03 < doc["paired"]["lower"] < 1.04 < doc["paired"]["upper"] < 1.05
    assert doc["fieller"]["lower"] < 1.0  # unpaired, the drift is in the interval
    code, out, err = cli(["compare", old, new, "--levels", "round,process", "--method",
                          "fieller", "--json"], capsys)
    assert json.loads(out)["verdict"] == "inconclusive"


def test_compare_paired_refuses_files_without_shared_rounds(tmp_path, capsys):
    examples = Path(__file__).resolve().parents[2] / "examples"
    code, out, err = cli(["compare", examples / "old.csv", examples / "new.csv", "--paired"],
                         capsys)
    assert_one_line_error(code, out, err, words=["same rounds"])
