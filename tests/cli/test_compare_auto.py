"""``esize compare --method auto`` (the default): a bootstrap for one benchmark only.

Two or more benchmarks get Fieller's interval each and, for a suite, the geometric
mean's parametric interval, which the suite's verdict rests on; nothing random is
drawn, so no seed is reported. ``--method both`` keeps the bootstrap of every
benchmark, with the results the library gives for the same seed.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import esize as ez
from esize.cli import build_parser
from esize.cli.compare import directions, read_pairs

from .helpers import cli, cli_json

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "data" / "real"
HARNESS = ROOT / "tests" / "data" / "harness"
#: A real Go suite of 36 benchmarks (10 runs each), old and new.
SUITE = (REAL / "gotest-crc32-old.txt", REAL / "gotest-crc32-new.txt")
#: A real pyperf benchmark of one benchmark, run by two Python versions.
ONE = (REAL / "pyperf-pyperformance-py36-telco.json",
       REAL / "pyperf-pyperformance-py38-telco.json")


def _limits(d: dict | None):
    return None if d is None else (d["lower"], d["upper"])


def test_one_benchmark_auto_is_both(capsys):
    auto = cli_json(["compare", *ONE, "--seed", "3", "--resamples", "500"], capsys)
    both = cli_json(["compare", *ONE, "--seed", "3", "--resamples", "500", "--method", "both"],
                    capsys)
    assert auto == both
    assert auto["bootstrap"]["seed"] == 3 and auto["bootstrap"]["resamples"] == 500
    assert auto["verdict_method"] == "fieller" and "suite" not in auto


def test_a_suite_runs_no_bootstrap_by_default(capsys):
    doc = cli_json(["compare", *SUITE], capsys)
    assert len(doc["benchmarks"]) >= 2
    assert all("bootstrap" not in b and b["verdict_method"] == "fieller"
               for b in doc["benchmarks"])
    s = doc["suite"]
    assert s["bootstrap"] is None and s["verdict_method"] == "parametric"
    assert not {"seed", "resamples", "scheme"} & set(s)
    assert (s["lower"], s["upper"]) == _limits(s["parametric"])
    # the parametric interval is the library's, with the same inversions
    args = build_parser().parse_args(["compare", *map(str, SUITE)])
    _, _, pairs, _, _ = read_pairs(args)
    invert, _ = directions(pairs)
    p = ez.geometric_mean_ratio_parametric([(q.old, q.new) for q in pairs], invert=invert)
    assert _limits(s["parametric"]) == (p.lower, p.upper)
    assert s["parametric"]["df"] == p.extra["df"]
    ratios = [q.ratio for q in pairs]
    assert s["geometric_mean"] == pytest.approx(math.exp(np.mean(np.log(ratios))), rel=1e-14)
    # without a seed the run is repeatable: nothing random was drawn
    assert cli_json(["compare", *SUITE], capsys) == doc


def test_a_suite_text_says_the_bootstrap_was_not_run(capsys):
    code, out, err = cli(["compare", *SUITE], capsys)
    assert code == 0 and err == ""
    assert out.count("bootstrap: not run (--method both runs it)") == 1
    assert "the verdict rests on the t interval\n" in out
    assert "resamples" not in out and "seed" not in out


def test_fieller_never_bootstraps_and_auto_equals_it_for_a_suite(capsys):
    fieller = cli_json(["compare", *SUITE, "--method", "fieller"], capsys)
    assert fieller["suite"]["bootstrap"] is None
    assert fieller["suite"]["verdict_method"] == "parametric"
    assert cli_json(["compare", *SUITE, "--seed", "9"], capsys) == fieller


def test_both_gives_the_librarys_bootstrap_for_a_real_suite(capsys):
    argv = ["compare", *map(str, SUITE), "--seed", "11", "--resamples", "400", "--method",
            "both"]
    doc = cli_json(argv, capsys)
    _, _, pairs, _, _ = read_pairs(build_parser().parse_args(argv))
    invert, _ = directions(pairs)
    expect = ez.geometric_mean_ratio_ci(
        [(p.old, p.new) for p in pairs], scheme=[p.scheme for p in pairs], n_resamples=400,
        rng=11, names=[p.name for p in pairs], invert=invert, expand=True)
    s = doc["suite"]
    assert _limits(s["bootstrap"]) == (expect.lower, expect.upper)
    assert s["seed"] == 11 and s["resamples"] == 400
    v = expect.verdict_interval
    assert (s["lower"], s["upper"]) == (v.lower, v.upper)
    assert s["verdict_method"] == v.method
    assert _limits(s["parametric"]) == (expect.parametric.lower, expect.parametric.upper)
    for b, p, iv in zip(doc["benchmarks"], pairs, expect.intervals, strict=True):
        assert _limits(b["bootstrap"]) == (iv.lower, iv.upper)
        f = ez.fieller_ci(p.old, p.new)
        assert _limits(b["fieller"]) == (f.lower, f.upper)
    # the verdicts of the benchmarks come from Fieller in both runs; the suite's
    # parametric interval does not depend on the bootstrap either
    auto = cli_json(["compare", *SUITE], capsys)
    assert [b["verdict"] for b in auto["benchmarks"]] == [b["verdict"] for b in doc["benchmarks"]]
    assert auto["suite"]["parametric"] == s["parametric"]
    assert auto["suite"]["geometric_mean"] == s["geometric_mean"]


def _hyperfine(path: Path, commands: dict) -> Path:
    path.write_text(json.dumps({"results": [
        {"command": name, "times": list(times), "mean": float(np.mean(times))}
        for name, times in commands.items()]}))
    return path


def test_a_baseline_of_several_commands_runs_no_bootstrap(tmp_path, capsys):
    rng = np.random.default_rng(4)
    path = _hyperfine(tmp_path / "h.json", {c: rng.normal(m, 0.01, 12)
                                            for c, m in (("a", 1.0), ("b", 0.9), ("c", 1.1))})
    doc = cli_json(["compare", path], capsys)
    assert doc["baseline"] == "a" and "suite" not in doc
    assert [b["name"] for b in doc["benchmarks"]] == ["b", "c"]
    assert all("bootstrap" not in b for b in doc["benchmarks"])
    both = cli_json(["compare", path, "--method", "both", "--seed", "1", "--resamples", "300"],
                    capsys)
    assert all(b["bootstrap"]["seed"] == 1 for b in both["benchmarks"])
    # two commands: one comparison, bootstrapped as before
    two = _hyperfine(tmp_path / "h2.json", {c: rng.normal(m, 0.01, 12)
                                            for c, m in (("a", 1.0), ("b", 0.9))})
    one = cli_json(["compare", two, "--seed", "1", "--resamples", "300"], capsys)
    assert one["bootstrap"]["seed"] == 1


def test_gate_without_a_bootstrap_uses_the_suite_verdict_interval(capsys):
    doc = cli_json(["compare", *SUITE], capsys)
    s = doc["suite"]
    code, out, err = cli(["compare", *SUITE, "--fail-on", s["verdict"]], capsys)
    assert code == 1
    line = err.strip().splitlines()[-1]
    assert f"geometric mean {s['verdict']}, ratio" in line
    lo, hi = f"{s['lower']:.4g}", f"{s['upper']:.4g}"
    assert lo in line and hi in line
    other = "slower" if s["verdict"] != "slower" else "faster"
    if all(b["verdict"] != other for b in doc["benchmarks"]):
        assert cli(["compare", *SUITE, "--fail-on", other], capsys)[0] == 0


def test_markdown_names_no_method_with_or_without_a_bootstrap(capsys, tmp_path):
    md = tmp_path / "s.md"
    doc = cli_json(["compare", *SUITE, "--markdown", md], capsys)
    text = md.read_text(encoding="utf-8")
    assert "with 95 % confidence intervals; the geometric mean summarises all benchmarks." in text
    row = next(line for line in text.splitlines() if line.startswith("| *geometric mean*"))
    assert doc["suite"]["verdict"] in row
    both = tmp_path / "b.md"
    cli_json(["compare", *SUITE, "--markdown", both, "--method", "both", "--resamples", "300",
              "--seed", "1"], capsys)
    for page in (text, both.read_text("utf-8")):
        assert "Fieller" not in page and "t interval" not in page


def test_plot_without_a_bootstrap_draws_the_t_interval(capsys, tmp_path, monkeypatch):
    from esize import plots

    figures = []
    monkeypatch.setattr(plots, "save_plot", lambda path, fig: figures.append(fig))
    code, out, err = cli(["compare", *SUITE, "--plot", tmp_path / "c.png", "--json"], capsys)
    assert code == 0, err
    s = json.loads(out)["suite"]
    (fig,) = figures
    suite = [c for c in fig.axes[0].containers if c.get_label() == "suite"]
    (seg,) = [seg for coll in suite[0].lines[2] for seg in coll.get_segments()]
    assert seg[0][0] == pytest.approx(s["lower"], rel=1e-12)
    assert seg[1][0] == pytest.approx(s["upper"], rel=1e-12)


def test_plot_without_a_bootstrap_is_written(capsys, tmp_path):
    out = tmp_path / "d.png"
    code, _, err = cli(["compare", *SUITE, "--plot", out], capsys)
    assert code == 0, err
    assert out.read_bytes()[:4] == b"\x89PNG"
