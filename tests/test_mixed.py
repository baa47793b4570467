"""The REML mixed model of log times (:mod:`esize._mixed`, ``esize compare --method
mixed``): its closed form on balanced designs, agreement with statsmodels' MixedLM on
unbalanced and three-level designs, coverage, and the command line."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import esize as ez
import esize.compare as engine
from esize._mixed import mixed_fit, mixed_ratio_ci, reml_fit
from esize.cli import main

ROOT = Path(__file__).resolve().parents[1]
OLD, NEW = ROOT / "examples" / "old.csv", ROOT / "examples" / "new.csv"
LEVELS = ("process", "iteration")


def cli(argv, capsys):
    """Run ``esize`` in-process: (exit code, stdout, stderr)."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code, out, err, *, file=None, words=()):
    """Exit status 2 and one line on stderr, naming the file and the problem."""
    assert code == 2 and out == "" and "Traceback" not in err, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].strip(), err
    if file is not None:
        assert Path(file).name in lines[0], lines[0]
    assert all(w in lines[0].lower() for w in words), lines[0]


def _two_level(rng, n, m, sd_top=0.05, sd_low=0.02, mu=1.0):
    return np.exp(mu + rng.normal(0, sd_top, (n, 1)) + rng.normal(0, sd_low, (n, m)))


# -- (a) the closed form of a balanced two-level design -------------------------------------
@pytest.mark.parametrize("n, m, seed", [(3, 2, 11), (5, 4, 2), (10, 5, 3), (20, 30, 4)])
def test_balanced_two_levels_is_the_closed_form(n, m, seed):
    rng = np.random.default_rng(seed)
    x = _two_level(rng, n, m)
    logs = np.log(x)
    means = logs.mean(axis=1)
    s_top = means.var(ddof=1)
    # the closed form holds where the top level's REML estimate is positive
    assert s_top - logs.var(axis=1, ddof=1).mean() / m > 0
    fit = mixed_fit(ez.Design(x, LEVELS))
    assert fit.zero == ()
    assert fit.var_mean == pytest.approx(s_top / n, rel=1e-6)
    assert fit.df == pytest.approx(n - 1, rel=1e-6)
    assert fit.mean == pytest.approx(logs.mean(), rel=1e-12, abs=1e-12)
    # the REML variances of a balanced one-way design are the ANOVA ones
    within = logs.var(axis=1, ddof=1).mean()
    assert fit.components["iteration"] == pytest.approx(within, rel=1e-6)
    assert fit.components["process"] == pytest.approx(s_top - within / m, rel=1e-6)


def test_a_top_variance_at_zero_is_reported():
    rng = np.random.default_rng(1)
    x = np.exp(1.0 + rng.normal(0, 0.03, (6, 8)))  # no variance between processes
    logs = np.log(x)
    # this sample's moment estimate of the top level is negative
    assert logs.mean(axis=1).var(ddof=1) <= logs.var(axis=1, ddof=1).mean() / 8
    fit = mixed_fit(ez.Design(x, LEVELS))
    assert fit.zero == ("process",) and fit.components["process"] == 0.0
    # then every value counts alike: the variance of the mean of 48 values
    assert fit.var_mean == pytest.approx(logs.var(ddof=1) / 48, rel=1e-3)
    # ... but its df stay those of the 6 processes, not the 47 of the values: R8 found
    # the residual's df covering 81 % where a 3-unit side's variance landed on zero
    assert fit.df == 5.0


def test_ragged_fit_of_balanced_data_is_the_design_fit():
    rng = np.random.default_rng(5)
    x = _two_level(rng, 6, 4)
    a = mixed_fit(ez.Design(x, LEVELS))
    b = reml_fit(x.ravel(), [np.repeat(np.arange(6), 4)], levels=LEVELS)
    assert b.var_mean == pytest.approx(a.var_mean, rel=1e-7)
    assert b.df == pytest.approx(a.df, rel=1e-5)
    for k in LEVELS:
        assert b.components[k] == pytest.approx(a.components[k], rel=1e-6)


# -- (b) statsmodels' MixedLM as an independent reference -----------------------------------
def _mixedlm(df, **kw):
    smf = pytest.importorskip("statsmodels.formula.api")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return smf.mixedlm("ly ~ 1", df, **kw).fit(reml=True, method=["lbfgs"], tol=1e-12)


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_unbalanced_two_levels_agree_with_statsmodels(seed):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(seed)
    rows = []
    for p in range(12):
        u = rng.normal(0, 0.05)
        for i in range(int(rng.integers(2, 9))):  # 2 to 8 iterations per process
            rows.append((p, i, float(np.exp(2 + u + rng.normal(0, 0.03)))))
    df = pd.DataFrame(rows, columns=["proc", "it", "t"])
    df["ly"] = np.log(df.t)
    fit = reml_fit(df.t, [df.proc], levels=LEVELS)
    ref = _mixedlm(df, groups=df["proc"])
    assert fit.components["process"] == pytest.approx(ref.cov_re.iloc[0, 0], rel=1e-4)
    assert fit.components["iteration"] == pytest.approx(ref.scale, rel=1e-4)
    assert fit.mean == pytest.approx(ref.fe_params.iloc[0], rel=1e-6)
    assert fit.var_mean == pytest.approx(ref.bse_fe.iloc[0] ** 2, rel=1e-3)


@pytest.mark.parametrize("seed", [8, 9])
def test_unbalanced_three_levels_agree_with_statsmodels(seed):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(seed)
    rows = []
    for b in range(6):
        ub = rng.normal(0, 0.04)
        for e in range(int(rng.integers(2, 5))):
            ue = rng.normal(0, 0.03)
            for i in range(int(rng.integers(2, 7))):
                rows.append((b, e, i, float(np.exp(1 + ub + ue + rng.normal(0, 0.02)))))
    df = pd.DataFrame(rows, columns=["b", "e", "i", "t"])
    df["ly"] = np.log(df.t)
    fit = reml_fit(df.t, [df.b, df.e], levels=("binary", "execution", "measurement"))
    ref = _mixedlm(df, groups=df["b"], re_formula="1", vc_formula={"e": "0 + C(e)"})
    assert fit.components["binary"] == pytest.approx(ref.cov_re.iloc[0, 0], rel=1e-4)
    assert fit.components["execution"] == pytest.approx(float(ref.vcomp[0]), rel=1e-4)
    assert fit.components["measurement"] == pytest.approx(ref.scale, rel=1e-4)
    assert fit.mean == pytest.approx(ref.fe_params.iloc[0], rel=1e-6)


def test_balanced_three_levels_agree_with_statsmodels():
    pytest.importorskip("pandas")
    rng = np.random.default_rng(12)
    x = np.exp(rng.normal(0, 0.04, (5, 1, 1)) + rng.normal(0, 0.03, (5, 3, 1))
               + rng.normal(0, 0.02, (5, 3, 4)))
    d = ez.Design(x, ("binary", "execution", "measurement"))
    df = d.to_frame("t")
    df["ly"] = np.log(df.t)
    fit = mixed_fit(d)
    ref = _mixedlm(df, groups=df["binary"], re_formula="1",
                   vc_formula={"e": "0 + C(execution)"})
    assert fit.components["binary"] == pytest.approx(ref.cov_re.iloc[0, 0], rel=1e-4)
    assert fit.components["execution"] == pytest.approx(float(ref.vcomp[0]), rel=1e-4)
    assert fit.components["measurement"] == pytest.approx(ref.scale, rel=1e-4)


# -- (c) coverage -----------------------------------------------------------------------------
def test_coverage_of_ten_against_ten_units():
    rng = np.random.default_rng(2026)
    reps, n, m = 400, 10, 5
    # all replicates drawn at once: old and new, the new one's log mean 0.05 higher
    old = np.exp(rng.normal(0, 0.05, (reps, n, 1)) + rng.normal(0, 0.03, (reps, n, m)))
    new = np.exp(0.05 + rng.normal(0, 0.08, (reps, n, 1)) + rng.normal(0, 0.02, (reps, n, m)))
    truth = np.exp(0.05)
    covered = sum(mixed_ratio_ci(ez.Design(o, LEVELS), ez.Design(w, LEVELS)).contains(truth)
                  for o, w in zip(old, new))
    assert 0.92 <= covered / reps <= 0.98, covered / reps


# -- the interval ------------------------------------------------------------------------------
def test_interval_holds_the_fits_and_the_estimand():
    rng = np.random.default_rng(1)
    old, new = (ez.Design(_two_level(rng, 8, 5, mu=mu), LEVELS) for mu in (1.0, 0.9))
    ci = mixed_ratio_ci(old, new)
    fo, fn = mixed_fit(old), mixed_fit(new)
    assert ci.estimate == pytest.approx(np.exp(fn.mean - fo.mean), rel=1e-12)
    assert ci.lower < ci.estimate < ci.upper and ci.bounded
    assert ci.extra["estimand"] == "ratio of geometric means"
    assert ci.extra["old"]["components"].keys() == {"process", "iteration"}
    assert ci.extra["old"]["df"] == pytest.approx(fo.df)
    # symmetric on the log scale
    assert np.log(ci.upper) - np.log(ci.estimate) == pytest.approx(
        np.log(ci.estimate) - np.log(ci.lower), rel=1e-9)
    # a MixedFit in place of a design gives the same interval
    assert mixed_ratio_ci(fo, fn).lower == pytest.approx(ci.lower, rel=1e-12)
    assert mixed_ratio_ci(old, new, normal=True).method == "mixed-normal"


def test_constant_systems_give_a_point():
    c = ez.Design([[2.0, 2.0], [2.0, 2.0]], LEVELS)
    h = ez.Design([[1.0, 1.0], [1.0, 1.0]], LEVELS)
    ci = mixed_ratio_ci(c, h)
    assert ci.lower == ci.upper == pytest.approx(0.5)


@pytest.mark.parametrize("old, error, words", [
    ([[1.0, 2.0], [0.0, 1.0]], ez.EsizeError, "zero or negative"),
    ([[1.0, 2.0, 3.0]], ez.DesignError, "two or more top-level units"),
])
def test_bad_input_is_one_clear_error(old, error, words):
    new = [[1.0, 2.0], [1.5, 1.2]]
    with pytest.raises(error, match=words) as exc:
        mixed_ratio_ci(old, new)
    assert "\n" not in str(exc.value)


def test_bad_ragged_input():
    with pytest.raises(ez.DesignError, match="two or more top-level units"):
        reml_fit([1.0, 2.0, 3.0], [[0, 0, 0]])
    with pytest.raises(ez.DesignError, match="single measurement in every unit"):
        reml_fit([1.0, 2.0, 3.0], [[0, 1, 2]])
    with pytest.raises(ez.EsizeError, match="zero or negative"):
        reml_fit([1.0, -2.0, 3.0, 4.0], [[0, 0, 1, 1]])


# -- the comparison -----------------------------------------------------------------------------
def test_compare_pairs_takes_the_verdict_from_the_mixed_interval():
    rng = np.random.default_rng(3)
    old, new = (ez.Design(_two_level(rng, 10, 5, sd_top=0.01, mu=mu), LEVELS)
                for mu in (1.0, 0.8))
    row = engine.compare_pairs([engine.make_pair("a", old, new)], method="mixed").rows[0]
    assert row.verdict_method == "mixed" and row.chosen is row.mixed
    assert row.fieller is None and row.bootstrap is None
    assert str(row.verdict) == "faster" and row.p_value is not None
    doc = row.to_json()
    assert doc["verdict_method"] == "mixed" and doc["mixed"]["estimand"] == (
        "ratio of geometric means")


def test_a_single_process_side_stays_inconclusive():
    rng = np.random.default_rng(4)
    old = ez.Design(_two_level(rng, 10, 5), LEVELS)
    new = ez.Design(np.exp(0.5 + rng.normal(0, 0.02, 20)), ("iteration",))
    pair = engine.make_pair("a", old, new, unobserved_top=["new: process"])
    row = engine.compare_pairs([pair], method="mixed").rows[0]
    assert str(row.verdict) == "inconclusive" and row.verdict_method == "mixed"
    assert "not observed apart" in row.reason


def test_engine_text_and_json_are_the_command_lines(capsys):
    old = ez.readers.read_benchmarks(OLD)[None].design
    new = ez.readers.read_benchmarks(NEW)[None].design
    result = engine.compare_pairs([engine.make_pair(None, old, new)], method="mixed",
                                  files=(str(OLD), str(NEW)), formats=("tidy", "tidy"))
    argv = ["compare", str(OLD), str(NEW), "--method", "mixed"]
    code, out, _ = cli(argv, capsys)
    assert code == 0 and out.rstrip("\n") == result.render_text()
    code, out, _ = cli([*argv, "--json"], capsys)
    assert code == 0 and json.loads(out) == json.loads(json.dumps(result.to_json()))


# -- (d), (e) the command line --------------------------------------------------------------------
def test_cli_method_mixed_on_the_example_files(capsys):
    code, out, err = cli(["compare", OLD, NEW, "--method", "mixed"], capsys)
    assert code == 0, err
    assert "REML mixed model of log times" in out and "ratio of geometric means" in out
    assert "verdict         inconclusive" in out and "(from mixed)" in out
    code, out, err = cli(["compare", OLD, NEW, "--method", "mixed", "--json"], capsys)
    doc = json.loads(out)
    assert doc["verdict_method"] == "mixed" and doc["benchmarks"][0]["verdict_method"] == "mixed"
    mixed = doc["mixed"]
    assert mixed["lower"] < mixed["estimate"] < mixed["upper"]
    assert set(mixed["old"]["components"]) == {"binary", "execution", "measurement"}


def test_cli_method_mixed_on_a_real_suite(capsys):
    files = [ROOT / "tests" / "data" / "harness" / f"jmh-{s}.json" for s in ("old", "new")]
    code, out, err = cli(["compare", *files, "--method", "mixed", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert {b["verdict_method"] for b in doc["benchmarks"]} == {"mixed"}
    assert any(b["verdict"] in ("faster", "slower") for b in doc["benchmarks"])
    code, out, err = cli(["compare", *files, "--method", "mixed", "--markdown", "-"], capsys)
    assert code == 0 and "Ratios of the geometric means (REML mixed model" in out, err


def test_cli_pooled_processes_stay_inconclusive(capsys):
    real = ROOT / "tests" / "data" / "real"
    code, out, err = cli(["compare", real / "gotest-crc32-old.txt", real / "gotest-crc32-new.txt",
                          "--method", "mixed", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert {b["verdict"] for b in doc["benchmarks"]} == {"inconclusive"}
    assert all("verdict_reason" in b for b in doc["benchmarks"])


def test_cli_bad_input_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("binary,execution,time\n0,0,1.0\n0,0,0.0\n1,0,2.0\n1,0,2.5\n")
    code, out, err = cli(["compare", OLD, bad, "--method", "mixed"], capsys)
    assert_one_line_error(code, out, err, file=bad)
    code, out, err = cli(["compare", OLD, NEW, "--method", "mixd"], capsys)
    assert_one_line_error(code, out, err, words=("mixed",))
