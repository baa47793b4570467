"""Every statement of the paper has its claim rows (issue 42), and the rules added for
it can go either way.

The statements are data (:data:`esize_study.paper.statements.STATEMENTS`); the claims
are evaluated on the synthetic comparisons and coverage tables of
``test_text_claims`` (and a small one here) and on Table tPrecisions from the paper's
inputs, so a row removed from a claims table fails :func:`test_every_statement_has_its_rows`.
"""

import numpy as np
import pandas as pd
import pytest

from esize_study.claims import arithmetic as ca
from esize_study.claims import coverage as cov_claims
from esize_study.claims import coverage_more, falsealarm_more
from esize_study.claims import falsealarm as fa_claims
from esize_study.claims.claim import (
    AGREE,
    ARITHMETIC,
    DATA,
    DISAGREE,
    PARTLY,
    SIMULATION,
    judge_all,
)
from esize_study.claims.coverage_data import CoverageData
from esize_study.claims.falsealarm_data import FalseAlarmData
from esize_study.estimate.precision import precision_table
from esize_study.falsealarm import records as farec
from esize_study.paper import numbers as paper
from esize_study.paper.statements import STATEMENTS

from .test_text_claims import _coverage, _frame, _rs

N = 4000
BINARIES = (1, 2, 3, 5, 10, 20, 30, 40, 60)
EXECUTIONS = (1, 2, 3, 4, 5, 10, 50, 100)
CELLS = [("asymptotic", "-"), ("normal", "-"), ("bootstrap", "RRR"), ("bootstrap", "RRN"),
         ("bootstrap", "RNN"), ("bootstrap", "FLAT")]


def _fa(rates, names, unbounded=lambda b, kind, k: 0):
    """Comparisons whose rates at 0, 1 and 2 % are ``rates(bench, kind, size, method,
    scheme)`` = (p0, p1, p2), and ``unbounded`` Fieller intervals per asymptotic cell."""
    rows = []
    for b in names:
        for kind, sizes in (("binaries", BINARIES), ("executions", EXECUTIONS)):
            for method, scheme in CELLS[:3] if kind == "executions" else CELLS:
                for k in sizes:
                    p0, p1, p2 = rates(b, kind, k, method, scheme)
                    i = np.arange(N)
                    ts = np.select([i < round(p2 * N), i < round(p1 * N), i < round(p0 * N)],
                                   [0.025, 0.015, 0.005], -0.01)
                    u = unbounded(b, kind, k) if method == "asymptotic" else 0
                    rows.append(pd.DataFrame({
                        "benchmark": b, "kind": kind, "size": k, "method": method,
                        "scheme": scheme, "comparison": i, "tstar": ts, "bounded": i >= u}))
    comparisons = pd.concat(rows, ignore_index=True)
    table = []
    for _, g in comparisons.groupby("benchmark", sort=False):
        table += farec.rate_rows(g, [0, 0.5, 1, 1.5, 2, 5, 10], 100)
    return FalseAlarmData(comparisons, pd.DataFrame(table))


def _judge(module, cid, data):
    spec = next(s for s in module.CLAIMS if s.id == cid)
    got = judge_all([spec], data)
    return got[0] if got else None


def _fcovr(curve, counts=None):
    rows = []
    for b in paper.BENCHMARKS:
        for method, scheme in (("asymptotic", "-"), ("bootstrap", "RRR")):
            for e in (2, 3, 5, 10, 20, 50, 100):
                rows.append({"benchmark": b, "experiment": "fCOVR", "method": method,
                             "scheme": scheme, "binaries": 1, "executions": e,
                             "measurements": 100, "coverage": curve(b, method, e),
                             "experiments": 10000})
    t = pd.DataFrame(rows)
    t["se"] = np.sqrt(t["coverage"] * (1 - t["coverage"]) / t["experiments"])
    return t


def _counts(where):
    """Per-cell counts with ``where[(binaries, executions)]`` unbounded sets."""
    rows = []
    for (k, e) in [(2, 100), (3, 100), (10, 100), (1, 2), (1, 3), (1, 4), (1, 5), (1, 50)]:
        for method in ("asymptotic", "normal", "bootstrap"):
            rows.append({"benchmark": "TCP", "experiment": "fCOV" if k > 1 else "fCOVR",
                         "method": method, "scheme": "-" if method != "bootstrap" else "RRR",
                         "binaries": k, "executions": e, "measurements": 100, "mode": "approx",
                         "n": 1000, "covered": 950,
                         "unbounded": where.get((k, e), 0) if method != "bootstrap" else 0})
    return pd.DataFrame(rows)


def _prec_rows():
    return [{k: str(v) for k, v in r.items()} for r in precision_table([], "paper")]


def _falls(b, method, e):
    return 0.99 - 0.0015 * e  # over-covers at first, then falls through 95 %


@pytest.fixture(scope="module")
def claims():
    """Every claim row the report holds, evaluated on small synthetic results."""
    fa = fa_claims.evaluate(*_frame())
    table = pd.concat([_coverage(_rs), _fcovr(_falls)], ignore_index=True)
    cov = cov_claims.evaluate(table, _counts({(2, 100): 5}))
    dim = [{"benchmark": "fft", "budget": "3 h", "n1": "4", "n2": "2", "binaries": "5",
            "ours_pct": "1.0", "default_pct": "2.0", "dropped": ""}]
    arith = ca.statement_claims(_prec_rows(), dim)
    from esize_study.claims.tables import examples_claims
    from esize_study.estimate.examples import worked_examples
    examples, _ = examples_claims(worked_examples())
    return {c.id: c for c in fa + cov + arith + examples}


def missing(claims_by_id) -> dict[str, list[str]]:
    """Statements whose claim rows are not all among ``claims_by_id``."""
    out = {}
    for s in STATEMENTS:
        gone = [c for c in s.claims if c not in claims_by_id]
        if gone:
            out[s.id] = gone
    return out


def test_the_statements_are_data():
    ids = [s.id for s in STATEMENTS]
    assert len(ids) == len(set(ids))
    assert sum(s.issue for s in STATEMENTS) == 13
    assert all(s.label and s.text and s.claims for s in STATEMENTS)


def test_every_statement_has_its_rows(claims):
    assert missing(claims) == {}


def test_a_removed_row_is_found(claims, monkeypatch):
    gone = dict(claims)
    del gone["fa.faboot.tenfold"]
    assert missing(gone) == {"faboot-tenfold": ["fa.faboot.tenfold"]}
    # and from the claims table itself: the rule left out of ALL_CLAIMS
    monkeypatch.setattr(fa_claims, "ALL_CLAIMS", tuple(s for s in fa_claims.ALL_CLAIMS
                                                       if s.id != "fa.fft.threshold1-helps"))
    ids = {c.id for c in fa_claims.evaluate(*_frame(names=("FFT NA OPT", "Rijndael")))}
    assert "fa.fft.threshold1-helps" not in ids


def test_the_new_rows_have_their_evidence_kind(claims):
    new = {c for s in STATEMENTS if s.issue for c in s.claims}
    kinds = {claims[c].evidence for c in new}
    assert kinds == {SIMULATION, ARITHMETIC, DATA}
    for c in new:
        row = claims[c]
        assert row.rule, c
        want = (SIMULATION if c.startswith(("fa.", "cov.")) else
                DATA if c.endswith(".data") else ARITHMETIC)
        assert row.evidence == want, c


# -- the false-alarm rules, each both ways ------------------------------------------------
def _flat(p0=0.05, p1=0.05, p2=0.0):
    return lambda b, kind, k, method, scheme: (p0, p1, p2)


def test_one_pct_threshold_helps():
    yes = _judge(falsealarm_more, "fa.fft.threshold1-helps", _fa(_flat(0.05, 0.01), ["FFT NA OPT"]))
    no = _judge(falsealarm_more, "fa.fft.threshold1-helps", _fa(_flat(0.05, 0.05), ["FFT NA OPT"]))
    assert (yes.verdict, no.verdict) == (AGREE, DISAGREE)

    # the contours count from where the rate stays within the target: an over-covering
    # start (1 % at 2-3 binaries, 5 % from 5 on) does not reach 2 % at a 0 % threshold
    def rising(b, kind, k, method, scheme):
        return (0.01 if k <= 3 else 0.05, 0.01, 0.0)

    c = _judge(falsealarm_more, "fa.fft.threshold1-helps", _fa(rising, ["FFT NA OPT"]))
    assert c.verdict == AGREE and c.values["asymptotic"]["0"]["point"] == float("inf")


def test_caption_limits():
    names = ["FFT NA OPT", "Rijndael"]

    def rate(b, kind, k, method, scheme):
        return (0.005, 0.0, 0.0) if b == "Rijndael" else (0.05, 0.03, 0.0)

    c = _judge(falsealarm_more, "fa.ffaft.caption-limits", _fa(rate, names))
    assert c.verdict == AGREE, c.ours
    c = _judge(falsealarm_more, "fa.ffaft.caption-limits", _fa(_flat(0.05, 0.03), names))
    assert c.verdict == PARTLY and "Rijndael, asymptotic: disagree" in c.explanation


def test_nonfft_trends():
    def rising(b, kind, k, method, scheme):
        p = 0.05 + 0.004 * k if kind == "executions" else 0.05
        return (p, p, 0.0)

    def falling(b, kind, k, method, scheme):
        p = 0.5 - 0.004 * k if kind == "executions" else 0.05
        return (p, p, 0.0)

    names = ["TCP", "Rijndael"]
    assert _judge(falsealarm_more, "fa.fa2l.nonfft-similar-trends",
                  _fa(rising, names)).verdict == AGREE
    assert _judge(falsealarm_more, "fa.fa2l.nonfft-similar-trends",
                  _fa(falling, names)).verdict == DISAGREE


def test_bootstrap_higher_with_one_binary():
    def higher(b, kind, k, method, scheme):
        if kind == "executions" and method == "bootstrap":
            p = 0.3 if k <= 5 else 0.1
        else:
            p = 0.05
        return (p, p, 0.0)

    assert _judge(falsealarm_more, "fa.fa2l.fft-bootstrap-higher",
                  _fa(higher, ["FFT"])).verdict == AGREE
    assert _judge(falsealarm_more, "fa.fa2l.fft-bootstrap-higher",
                  _fa(_flat(), ["FFT"])).verdict == DISAGREE


def test_class_observations_and_scheme_no_matter():
    names = ["FFT NA", "Rijndael", "HTTP"]

    def flat_worst(b, kind, k, method, scheme):
        return (0.2, 0.0, 0.0) if scheme == "FLAT" else (0.03, 0.0, 0.0)

    def flat_best(b, kind, k, method, scheme):
        return (0.01, 0.0, 0.0) if scheme == "FLAT" else (0.2, 0.0, 0.0)

    def flat_costly(b, kind, k, method, scheme):
        return (0.2, 0.2, 0.0) if scheme == "FLAT" else (0.03, 0.0, 0.0)

    d = _fa(flat_worst, names)
    assert _judge(falsealarm_more, "fa.faboot.class-observations", d).verdict == AGREE
    c = _judge(falsealarm_more, "fa.faboot.class-observations", _fa(flat_best, names))
    # FLAT is the best here: that part fails on every benchmark, the others hold
    assert c.verdict == PARTLY and "FFT NA, FLAT worst: disagree" in c.explanation
    assert _judge(falsealarm_more, "fa.faboot.nonfft-scheme-no-matter", d).verdict == AGREE
    assert _judge(falsealarm_more, "fa.faboot.nonfft-scheme-no-matter",
                  _fa(flat_costly, names)).verdict == DISAGREE


@pytest.mark.parametrize("k_flat, verdict", [(40, AGREE), (10, DISAGREE)])
def test_tenfold(k_flat, verdict):
    def rate(b, kind, k, method, scheme):
        if scheme == "FLAT" and k < k_flat:
            return (0.2, 0.2, 0.1)
        return (0.03, 0.0, 0.0)

    c = _judge(falsealarm_more, "fa.faboot.tenfold", _fa(rate, ["FFT"]))
    assert c.verdict == verdict and c.values["ratio"] == pytest.approx(k_flat / 2)
    assert "11.7x" in c.explanation


@pytest.mark.parametrize("size, verdict", [(2, AGREE), (3, AGREE), (4, DISAGREE)])
def test_fieller_only_with_2_or_3_units(size, verdict):
    d = _fa(_flat(), ["TCP"], lambda b, kind, k: 3 if (kind == "executions" and k == size) else 0)
    assert _judge(falsealarm_more, "fa.fieller-2-or-3", d).verdict == verdict


# -- the coverage rules -------------------------------------------------------------------
def test_fcovr_first_good():
    def low(b, method, e):
        return 0.93 - 0.0015 * e  # never over-covers: nothing to correct

    def overshoot(b, method, e):
        return 0.99 if e == 2 else 0.80  # from too high straight to far too low

    assert _judge(coverage_more, "cov.fcovr.first-good",
                  CoverageData(_fcovr(_falls))).verdict == AGREE
    assert _judge(coverage_more, "cov.fcovr.first-good",
                  CoverageData(_fcovr(low))).verdict == DISAGREE
    assert _judge(coverage_more, "cov.fcovr.first-good",
                  CoverageData(_fcovr(overshoot))).verdict == DISAGREE


@pytest.mark.parametrize("where, verdict", [({(2, 100): 4, (1, 3): 2}, AGREE),
                                            ({(1, 4): 1, (1, 5): 2}, DISAGREE),
                                            ({(10, 100): 1}, DISAGREE)])
def test_coverage_fieller_only_with_2_or_3_units(where, verdict):
    d = CoverageData(_fcovr(_falls), _counts(where))
    c = _judge(coverage_more, "cov.fieller-2-or-3", d)
    assert c.verdict == verdict, c.ours


# -- the arithmetic rows --------------------------------------------------------------------
def test_variation_brackets_the_paper_contradicts_itself(monkeypatch):
    c = ca.variation_brackets()
    assert c.verdict == PARTLY and c.evidence == ARITHMETIC
    assert "contradicts itself" in c.explanation
    assert "Rijndael compilation: T = 0.194" in c.explanation
    assert "Rijndael OPT compilation: T = 0.125" in c.explanation
    # FFT NA OPT's compilation level is 0.1004 from S: within the rounding, not counted
    assert "FFT NA OPT compilation" in c.explanation and "depends on the" in c.explanation
    s = dict(paper.VARIATION_S)
    s["Rijndael"], s["Rijndael OPT"] = (3.0, 3.5, 9.1), (3.0, 3.8, 9.3)
    monkeypatch.setattr(paper, "VARIATION_S", s)
    assert ca.variation_brackets().verdict == AGREE


def test_worked_dimensioning_example():
    rows = _prec_rows()
    got = {c.id: c for c in ca.dimensioning_example(rows)}
    assert all(c.verdict == AGREE for c in got.values()), [
        (c.id, c.ours) for c in got.values() if c.verdict != AGREE]
    assert got["dimensioning.fft6h.samples"].values["ours"] == 1792
    assert got["dimensioning.fft6h.ours-pct"].values["ours"] == pytest.approx(2.27, abs=0.01)
    # a pipeline whose plan buys one binary fewer disagrees, and says so
    for r in rows:
        if r["source"] == "paper" and r["benchmark"] == "FFT" and float(r["hours"]) == 6:
            r["binaries"] = "15"
    bad = {c.id: c for c in ca.dimensioning_example(rows)}
    assert bad["dimensioning.fft6h.binaries"].verdict == DISAGREE
    assert "formula 16" in bad["dimensioning.fft6h.binaries"].ours
    assert bad["dimensioning.fft6h.samples"].verdict == DISAGREE


def test_precision_note_counts():
    rows = _prec_rows()
    c = ca.precision_note(rows)
    # the paper's formula gives n1 = 1 for FFT NA and FFT NA OPT
    assert c.verdict == PARTLY and "FFT NA: sqrt(c1 T1^2 / T2^2)" in c.explanation
    assert "so n1 = 1" in c.explanation
    for r in rows:
        r["n1"] = "4"
    assert ca.precision_note(rows).verdict == AGREE


def test_always_better():
    rows = _prec_rows()
    paper_row, data_row = ca.always_better(rows, [
        {"benchmark": "x", "budget": "3 h", "n1": "3", "n2": "1", "binaries": "4",
         "ours_pct": "0.5", "default_pct": "0.4", "dropped": "execution"}])
    assert paper_row.verdict == AGREE and paper_row.evidence == ARITHMETIC
    assert data_row.verdict == DISAGREE and data_row.evidence == DATA
    assert "x 3 h" in data_row.explanation and "dropped execution" in data_row.explanation
    for r in rows:
        if r["benchmark"] == "TCP":
            r["ours_pct"] = "99"
    worse = ca.always_better(rows)[0]
    assert worse.verdict == PARTLY and "not better (computed): TCP 3 h" in worse.explanation
    # without dimensioning rows the dataset's own rows of precisions.csv are judged
    assert len(ca.always_better(rows)) == 1  # the paper's rows only: no data rows here
