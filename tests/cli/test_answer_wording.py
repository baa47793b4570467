"""The answer's words (issue 41, items 3-5): a missing build level said once, the
bootstrap's few-units caveat only where the bootstrap decides, an interval that leaves
out 1 but reaches into the threshold band, factors from 1.5x, --plot without matplotlib.
"""

from __future__ import annotations

import sys

import numpy as np

import esize as ez
from esize.compare import band_reason, compare_pairs, make_pair

from .helpers import cli, cli_json

LEVELS = ("binary", "execution")
EXAMPLES = ["examples/old.csv", "examples/new.csv"]


def _design(rng, n, shift=0.0, sd=0.01, levels=LEVELS):
    return ez.Design(np.exp(shift + rng.normal(0, sd, (n, 1)) + rng.normal(0, sd, (n, 4))), levels)


def test_builds_are_said_once_when_either_system_has_no_build_level():
    rng = np.random.default_rng(1)
    runs = _design(rng, 5, levels=("process", "iteration"))
    builds = _design(rng, 5)
    notes = compare_pairs([make_pair("a", runs, runs), make_pair("b", runs, runs)],
                          method="fieller").notes
    assert sum(n.startswith("builds: ") for n in notes) == 1
    notes = compare_pairs([make_pair("a", builds, runs)], method="fieller").notes
    assert any(n.startswith("builds: ") for n in notes)
    notes = compare_pairs([make_pair("a", builds, builds)], method="fieller").notes
    assert not any(n.startswith("builds: ") for n in notes)


def test_the_bootstrap_few_units_caveat_only_where_the_bootstrap_decides():
    rng = np.random.default_rng(2)
    old, new = _design(rng, 3), _design(rng, 3)
    both = compare_pairs([make_pair("a", old, new)], method="both", resamples=2000, seed=1)
    assert not any("bootstrap interval rests on" in c for c in both.rows[0].caveats)
    boot = compare_pairs([make_pair("a", old, new)], method="bootstrap", resamples=2000, seed=1)
    assert any("bootstrap interval rests on 3" in c for c in boot.rows[0].caveats)


def test_an_interval_beside_one_reaching_into_the_band_says_so():
    iv = ez.Interval(1.025, 1.015, 1.035, 0.05, "fieller-t", True)
    assert band_reason(iv, 0.02) == ("new is slower (the interval leaves out 1), but possibly "
                                     "by less than the 2 % threshold")
    assert band_reason(iv, 0.02, lower_is_better=False).startswith("new is faster")
    assert band_reason(iv, 0.01) is None  # slower: a verdict
    assert band_reason(ez.Interval(1.0, 0.99, 1.015, 0.05, "t", True), 0.02) is None  # same
    rng = np.random.default_rng(3)
    old = _design(rng, 10)
    new = ez.Design(_design(rng, 10).data * 1.02, LEVELS)  # 2 % slower: right at the threshold
    row = compare_pairs([make_pair("a", old, new)], method="fieller", threshold=0.02).rows[0]
    assert row.verdict == "inconclusive" and row.reason.startswith("new is slower")
    assert "no verdict: new is slower (the interval leaves out 1)" in row.caveats[-1]
    assert row.to_json()["verdict_reason"] == row.reason


def test_changes_from_a_factor_one_and_a_half_read_as_factors():
    assert ez.describe(0.61, 0.6, 0.62) == "new is 1.64x faster (95 % CI 1.61x .. 1.67x)"
    assert ez.describe(0.7, 0.69, 0.71) == "new is 30.00 % faster (95 % CI 29.00 % .. 31.00 %)"
    assert ez.describe(1.5, 1.45, 1.55).startswith("new is 1.50x slower")


def test_plot_without_matplotlib_is_one_line_exit_2_with_the_table(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    out = tmp_path / "fig.png"
    code, text, err = cli(["compare", *EXAMPLES, "--seed", "1", "--plot", out], capsys)
    assert code == 2 and not out.exists()
    assert err.strip() == ("esize: error: --plot needs matplotlib, which is not installed: "
                           "pip install 'esize[plot]'")
    assert text.startswith("ratio new/old   0.619048")
    code, text, err = cli(["compare", *EXAMPLES, "--seed", "1", "--plot", out, "--json"], capsys)
    assert code == 2 and '"ratio": 0.6190476190476191' in text


def test_json_of_the_examples_has_both_notes(capsys):
    doc = cli_json(["compare", *EXAMPLES, "--seed", "1"], capsys)
    assert [n.split(":")[0] for n in doc["notes"]] == ["drift"]  # the examples have binaries
    assert doc["ratio"] == 0.6190476190476191


def test_a_table_of_several_benchmarks_is_not_pooled(tmp_path, capsys):
    rows = ["benchmark,binary,execution,time"]
    rows += [f"{b},{k},1,{v}" for b in "ab" for k in (1, 2) for v in (1.0, 1.1)]
    p = tmp_path / "two.csv"
    p.write_text("\n".join(rows) + "\n")
    code, out, err = cli(["compare", p, p], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "column 'benchmark' holds 2 benchmarks ('a', 'b'); compare each with " \
           "--benchmark-column benchmark, or pick one with --where benchmark=NAME" in err
    assert cli(["compare", p, p, "--where", "benchmark=a", "--method", "fieller"], capsys)[0] == 0
    code, out, _ = cli(["compare", p, p, "--benchmark-column", "--method", "fieller"], capsys)
    assert code == 0 and "\na " in out and "\nb " in out
