"""Coverage claims: verdicts from a made-up coverage table, and the validation table."""

import math
import re

import pandas as pd

from esize_study import cov_claims
from esize_study import coverage as cv
from esize_study.claims import AGREE, DISAGREE

MODEL = cv.Model((0.02**2, 0.05**2, 0.04**2), 0.95)


def _claims_table():
    rows = []
    names = ["FFT NA OPT", "Rijndael OPT"]

    def add(b, exp, method, scheme, k, e, n, cov):
        rows.append({"benchmark": b, "experiment": exp, "method": method, "scheme": scheme,
                     "binaries": k, "executions": e, "measurements": n, "coverage": cov,
                     "se": math.sqrt(cov * (1 - cov) / 10000), "experiments": 10000})

    for b in names:
        for k, asy, nor in ((3, 0.988, 0.88), (5, 0.975, 0.915), (10, 0.962, 0.93),
                            (15, 0.958, 0.942), (20, 0.956, 0.944), (50, 0.952, 0.949)):
            add(b, "fCOV", "asymptotic", "-", k, 100, 100, asy)
            add(b, "fCOV", "normal", "-", k, 100, 100, nor)
            boot = 0.7 + 0.003 * k if b.startswith("FFT") else min(0.95 + 0.001 * k, 0.99)
            add(b, "fCOV", "bootstrap", "RRR", k, 100, 100, boot)
        for k in (2, 3, 5):
            for e in (2, 10, 100):
                add(b, "fCOVGrid", "asymptotic", "-", k, e, 100, {2: 0.989, 3: 0.985, 5: 0.97}[k])
        for e in (2, 5, 20, 100):
            add(b, "fCOVR", "asymptotic", "-", 1, e, 100, 1 - 0.003 * e)
    return pd.DataFrame(rows)


def test_claims_verdicts():
    claims = cov_claims.evaluate(_claims_table())
    by = {c.statement: c for c in claims}
    assert by["asymptotic, 3 binaries (all benchmarks)"].verdict == AGREE
    assert by["asymptotic, 10 binaries (all benchmarks)"].verdict == AGREE
    assert by["asymptotic, 50 binaries (all benchmarks)"].verdict == AGREE
    assert by["normal-quantile Fieller, 3 binaries (all benchmarks)"].verdict == AGREE
    assert by["RRR bootstrap, non-FFT benchmarks, 3 binaries"].verdict == AGREE
    fft = next(c for c in claims if c.statement.startswith("RRR bootstrap, FFT"))
    assert fft.verdict == DISAGREE  # 0.95 at 50 binaries is not reached by 0.7 + 0.003 k
    grid = next(c for c in claims if c.statement.startswith("asymptotic: the number of executions"))
    assert grid.verdict == AGREE
    falls = next(c for c in claims if c.statement.startswith("asymptotic, one binary: coverage falls"))
    assert falls.verdict == AGREE
    text = cov_claims.render(claims, _claims_table())
    assert text.startswith("## Coverage") and re.search(r"^\| fCOVGrid +\|", text, re.M)


def test_validation_table_pairs_experiments():
    cells = [cv.CellSpec("fCOV", 3, 2, 3, 20, cv.PARAMETRIC, ("RRR",), 30, mode=m, block=10,
                         keep=True, paired=m == "exact") for m in ("approx", "exact")]
    f = cv.intervals_frame(cv.simulate_cells(MODEL, cells, seed=1, bench_id=1), "b")
    t = cov_claims.validation_table(f)
    assert set(t["comparison"]) == {"paired", "independent"}
    assert set(t[t["comparison"] == "paired"]["method"]) == {"bootstrap"}
    assert (t["n"] == 20).all()
    assert "Approximate against exact" in cov_claims.validation_summary(f)
