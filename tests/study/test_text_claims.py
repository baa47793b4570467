"""The further statements of the evaluation (claims.falsealarm_text, claims.coverage_text).

Their rules are run on comparisons and coverage tables built with known rates, so that
each verdict is known in advance and each rule is shown able to fail.
"""

import numpy as np
import pandas as pd
import pytest

from esize_study.claims import coverage as cov_claims
from esize_study.claims import coverage_text, falsealarm_text
from esize_study.claims import falsealarm as fa_claims
from esize_study.claims.claim import AGREE, DISAGREE, PARTLY, SIMULATION, UNDECIDED
from esize_study.falsealarm import records as farec
from esize_study.paper import numbers as paper

N = 4000  # comparisons per cell: rates of 0.5 % resolution, intervals about +-1 point
BINARIES = (1, 2, 3, 5, 10, 20, 30, 40, 60)
EXECUTIONS = (1, 2, 3, 4, 5, 10, 50, 100)


def _rate(bench, kind, size, method, scheme):
    """The 0 % false-alarm rate of each cell: the paper's statements made true."""
    fft, ping = bench.startswith("FFT"), bench.startswith(("HTTP", "TCP"))
    if kind == "executions":
        if method == "bootstrap":  # lowest at 5 executions; Ping below the asymptotic
            return (0.02 if ping else 0.30 + 0.004 * abs(size - 5)) if size > 1 else 0.9
        base = 0.05 + 0.004 * size  # grows with the executions
        return base + (0.05 if fft and "NA" not in bench else 0.0)  # NA does better
    if method == "bootstrap":
        if fft:
            return 0.05 + (0.01 if "NA" not in bench else 0.0)
        return (0.03 if ping else 0.02) if size < 10 else 0.01  # much smaller than 5 %
    return 0.05


def _frame(rate=_rate, names=paper.BENCHMARKS):
    rows = []
    for b in names:
        for kind, sizes in (("binaries", BINARIES), ("executions", EXECUTIONS)):
            cells = [("asymptotic", "-"), ("normal", "-"), ("bootstrap", "RRR")]
            if kind == "binaries":
                cells += [("bootstrap", s) for s in ("RRN", "RNN", "FLAT")]
            for method, scheme in cells:
                for k in sizes:
                    alarms = round(rate(b, kind, k, method, scheme) * N)
                    ts = np.where(np.arange(N) < alarms, 0.015, -0.01)
                    rows.append(pd.DataFrame({
                        "benchmark": b, "kind": kind, "size": k, "method": method,
                        "scheme": scheme, "comparison": np.arange(N), "tstar": ts,
                        "bounded": ~((k == 2) & (kind == "executions") & (np.arange(N) < 3))}))
    comparisons = pd.concat(rows, ignore_index=True)
    table = []
    for _, g in comparisons.groupby("benchmark", sort=False):
        table += farec.rate_rows(g, [0, 0.5, 1, 1.5, 2, 5, 10], 100)
    return comparisons, pd.DataFrame(table)


@pytest.fixture(scope="module")
def made():
    return {c.id: c for c in fa_claims.evaluate(*_frame())}


def test_every_text_statement_is_a_judged_simulation_row(made):
    ids = [s.id for s in falsealarm_text.CLAIMS]
    assert len(ids) == len(set(ids)) >= 18
    assert set(ids) <= set(made)
    assert all(made[i].evidence == SIMULATION and made[i].rule for i in ids)
    # the report keeps the figures together, in the paper's order
    figures = [s.figure for s in fa_claims.ALL_CLAIMS]
    assert figures == sorted(figures, key=("fFAFFT", "fFA2L", "fFABoot").index)


@pytest.mark.parametrize("cid, verdict", [
    ("fa.nonfft-other.rate0.asymptotic", AGREE),
    ("fa.nonfft.rate0.bootstrap-much-smaller", AGREE),
    ("fa.nonfft.bootstrap-10b", AGREE),
    ("fa.normal.rate0.all", AGREE),
    ("fa.ping.more-than-rijndael", AGREE),
    ("fa.fft.unbounded-2-executions", AGREE),
    ("fa.fft.na-fewer.executions", AGREE),
    ("fa.fft.two-level-bootstrap-lowest-at-5", AGREE),
    ("fa.ping.two-level-bootstrap-below", AGREE),
    ("fa.fft.no-difference-above-20", AGREE),
    # flat rates: no rise beyond the Monte Carlo noise, and none excluded either
    ("fa.rijndael.rises-to-30", UNDECIDED),
])
def test_rules_on_known_rates(made, cid, verdict):
    assert made[cid].verdict == verdict, made[cid].ours


def test_the_fft_3_binary_statement_fails_on_one_benchmark_and_quotes_the_model():
    def rate(b, kind, k, method, scheme):
        if b == "FFT" and kind == "binaries" and k == 3 and method == "bootstrap":
            return 0.09  # alarms at 0, 1 and 2 % alike: 9 % at a 2 % threshold
        return _rate(b, kind, k, method, scheme) if kind == "executions" else 0.0

    comparisons, table = _frame(rate, ("FFT NA OPT", "FFT"))
    comparisons.loc[comparisons["tstar"] > 0, "tstar"] = 0.025
    model = {"benchmark": "FFT", "populations": 4, "design": [150, 100, 45],
             "normal": {"rate2": 0.066, "interval2": [0.06, 0.072], "n": 4000}}
    c = next(c for c in fa_claims.evaluate(comparisons, table, {"FFT": model})
             if c.id == "fa.fft-all.threshold2-3b")
    assert c.verdict == PARTLY and "FFT, bootstrap: disagree" in c.explanation
    assert "fails under the model too" in c.explanation and "6.60 %" in c.explanation


def test_a_benchmark_without_the_experiment_gives_no_row():
    comparisons, table = _frame(names=("Rijndael",))
    only = comparisons[comparisons["kind"] == "binaries"]
    ids = {c.id for c in fa_claims.evaluate(only, table[table["experiment"] != "fFA2L"])}
    assert "fa.rijndael.two-level-crossing" not in ids and "fa.fa2l.tcp-thresholds-8x" not in ids
    assert "fa.rijndael.rises-to-30" in ids


# -- coverage ---------------------------------------------------------------------------
def _coverage(rsgrid):
    rows = []
    for b in paper.BENCHMARKS:
        fft = b.startswith("FFT")
        for k in (2, 3, 5, 10, 20, 50):
            for method, scheme, c in (("asymptotic", "-", 0.99 - 0.0008 * k),
                                      ("bootstrap", "RRR", 0.9 if fft else 0.98)):
                rows.append({"benchmark": b, "experiment": "fCOV", "method": method,
                             "scheme": scheme, "binaries": k, "executions": 100,
                             "measurements": 100, "coverage": c, "experiments": 10000})
        for e in (2, 3, 5, 10, 50, 100):
            for m in (2, 10, 100, 500):
                rows.append({"benchmark": b, "experiment": "fCOVRSGrid", "method": "asymptotic",
                             "scheme": "-", "binaries": 1, "executions": e, "measurements": m,
                             "coverage": rsgrid(b, e, m), "experiments": 10000})
    t = pd.DataFrame(rows)
    t["se"] = np.sqrt(t["coverage"] * (1 - t["coverage"]) / t["experiments"])
    return t


def _rs(b, e, m):
    if b.startswith("FFT"):
        return 0.99 if e <= 3 else 0.99 - 0.006 * e  # executions alone
    drop = 0.05 if b.startswith("Rijndael") else 0.2
    return 0.97 - drop * np.log10(m) / np.log10(500) * (e / 100)


def test_coverage_text_rules():
    got = {c.id: c for c in cov_claims.evaluate(_coverage(_rs))}
    ids = [s.id for s in coverage_text.CLAIMS]
    assert len(ids) == len(set(ids)) >= 8
    assert got["cov.fcov.asymptotic.similar"].verdict == AGREE
    assert got["cov.fcov.bootstrap.nonfft-always-above"].verdict == AGREE
    assert got["cov.fcovrsgrid.fft.measurements-no-matter"].verdict == AGREE
    assert got["cov.fcovrsgrid.fft.first-better-then-low"].verdict == AGREE
    assert got["cov.fcovrsgrid.ping.more-measurements-worse"].verdict == AGREE
    assert got["cov.fcovrsgrid.rijndael-between"].verdict == AGREE
    assert got["cov.fcovrsgrid.ping-above-fft"].verdict == AGREE
    # HTTP OPT keeps most cells with 5+ executions above 95 %: the caption holds for
    # FFT NA only
    assert got["cov.fcovrsgrid.caption"].verdict == PARTLY
    assert "FFT NA: 100 %" in got["cov.fcovrsgrid.caption"].ours

    # the same rules fail when the shapes are reversed
    bad = {c.id: c for c in cov_claims.evaluate(_coverage(lambda b, e, m: 0.5 + 0.4 * (
        b.startswith("FFT")) - 0.0005 * m))}
    assert bad["cov.fcovrsgrid.ping-above-fft"].verdict == DISAGREE
    # below 95 % at the fewest executions too: only the second half of the statement holds
    assert bad["cov.fcovrsgrid.fft.first-better-then-low"].verdict == PARTLY
    assert bad["cov.fcovrsgrid.rijndael-between"].verdict == DISAGREE


def test_a_datasets_own_benchmarks_are_no_ping_benchmarks():
    """Statements about the paper's Ping or Rijndael benchmarks give no row for a dataset
    whose benchmarks have other names (a measured dataset's cipher is not TCP)."""
    t = _coverage(_rs)
    t = t[t["benchmark"].isin(["FFT NA", "HTTP OPT"])].copy()
    t["benchmark"] = t["benchmark"].map({"FFT NA": "fft", "HTTP OPT": "cipher"})
    ids = {c.id for c in cov_claims.evaluate(t)}
    assert "cov.fcovrsgrid.fft.first-better-then-low" in ids
    for gone in ("cov.fcovrsgrid.ping.more-measurements-worse", "cov.fcovrsgrid.ping-above-fft",
                 "cov.fcovrsgrid.rijndael-between"):
        assert gone not in ids


def test_rsgrid_caption_on_a_grid_without_five_executions():
    """The tiny configuration's fCOVRSGrid stops at 4 executions: the caption row is
    judged on what is there instead of failing (it raised on an empty selection)."""
    t = _coverage(_rs)
    t = t[(t["experiment"] != "fCOVRSGrid") | (t["executions"] <= 3)]
    got = {c.id: c for c in cov_claims.evaluate(t)}
    row = got["cov.fcovrsgrid.caption"]
    assert row.verdict != AGREE and "no cells with 5+ executions" in row.explanation
