"""Coverage on measured data by subsampling (esize_study.coverage.real)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from esize_study.coverage import real
from esize_study.datasets.measured import read_measured
from esize_study.falsealarm import records
from esize_study.falsealarm import simulate as fa

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "mono-x86_64-sample"
THRESHOLDS = [0.0, 1.0, 2.0]
CELLS = [fa.CellSpec("binaries", 2, 60, 40, ("RRR",)), fa.CellSpec("binaries", 4, 60, 40, ("RRR",)),
         fa.CellSpec("executions", 2, 60, 40)]


def _table(design, name, seed=3, cells=CELLS):
    sims = fa.simulate_cells(fa.bench_stats(design), cells, seed=seed, bench_id=1, block_size=20)
    frame = pd.DataFrame(records.records_to_columns(sims, name))
    return frame, pd.DataFrame(records.rate_rows(frame, THRESHOLDS, design.shape[1]))


@pytest.fixture(scope="module")
def measured():
    """A real Mono file (the committed session sample), warm-up cut as the pipeline does."""
    d = read_measured(SAMPLE / "FFT NA.parquet").design
    return d.trim(int(0.3 * d.shape[-1]))


def test_coverage_is_the_share_of_intervals_that_contain_one(measured):
    frame, table = _table(measured, "FFT NA")
    cov = real.real_coverage(table)
    assert set(cov["experiment"]) == {"fFAFFT", "fFA2L"}
    # second route: straight from the per-comparison records (tstar > 0: 1 excluded)
    for (kind, size, method, scheme), g in frame.groupby(["kind", "size", "method", "scheme"]):
        exp = "fFA2L" if kind == "executions" else "fFAFFT"
        if exp == "fFAFFT" and method == "bootstrap" and scheme != "RRR":
            continue
        row = cov[(cov["experiment"] == exp) & (cov["method"] == method) & (cov["size"] == size)]
        assert len(row) == 1
        want = float(np.mean(g["tstar"].to_numpy() <= 0))
        assert row["coverage"].iloc[0] == pytest.approx(want)
        n = len(g)
        assert row["se"].iloc[0] == pytest.approx(np.sqrt(want * (1 - want) / n))
    # fFA2L's size is the number of executions of its one build
    two = cov[cov["experiment"] == "fFA2L"]
    assert set(two["size"]) == {2} and set(two["binaries"]) == {1}


def test_one_build_per_system_misses_when_builds_differ():
    """fCOVR's point on data: with one build a system, the interval ignores how builds
    differ, so with builds far apart it rarely contains 1; with k builds it does."""
    rng = np.random.default_rng(11)
    y = (100 * rng.lognormal(0, 0.2, (30, 1, 1)) * rng.lognormal(0, 0.01, (30, 6, 1))
         * rng.lognormal(0, 0.01, (30, 6, 20)))
    cells = [fa.CellSpec("binaries", 4, 60, 40, ("RRR",)), fa.CellSpec("executions", 6, 60, 40)]
    _, table = _table(y, "spread", cells=cells)
    cov = real.real_coverage(table)
    one = cov[(cov["experiment"] == "fFA2L") & (cov["method"] == "asymptotic")]
    many = cov[(cov["experiment"] == "fFAFFT") & (cov["method"] == "asymptotic") & (cov["size"] == 4)]
    assert one["coverage"].iloc[0] < 0.3
    assert many["coverage"].iloc[0] > 0.85


def test_side_by_side_matches_cells_and_flags_differences(measured):
    _, a = _table(measured, "FFT NA", seed=3)
    m = real.real_coverage(a)
    s = m.copy()
    s["coverage"] = np.where(s["size"] == 4, 0.5, s["coverage"])  # a stand-in far off at k = 4
    s["executions"] = 100
    extra = s.iloc[:1].assign(benchmark="only in the stand-in")
    beside = real.side_by_side(m, pd.concat([s, extra]))
    assert list(beside.columns) == list(real.BESIDE_COLUMNS)
    assert len(beside) == len(m)  # the stand-in's own benchmark is not matched
    far = beside[beside["size"] == 4]
    assert far["differs"].all() and (far["standin_executions"] == 100).all()
    same = beside[beside["size"] != 4]
    assert not same["differs"].any() and (same["difference"] == 0).all()
    counts = real.summary(beside)
    assert counts["differ"] == len(far) and counts["higher"] + counts["lower"] == len(far)


def test_section_and_figure(measured, tmp_path):
    _, a = _table(measured, "FFT NA")
    m = real.real_coverage(a)
    beside = real.side_by_side(m, m)
    md = real.section_markdown(m, beside, standin_name="mono-style", figure="x/fCOVReal.png",
                               sizes=[2, 4, 99])
    assert "![Coverage on the measured data](x/fCOVReal.png)" in md
    assert "`mono-style`" in md and "k = 4: bootstrap" in md and "k = 99" not in md
    row = m[(m["size"] == 2) & (m["method"] == "asymptotic") & (m["experiment"] == "fFAFFT")]
    pct = f"{100 * row['coverage'].iloc[0]:.1f}"
    assert f"| FFT NA | {int(row['executions'].iloc[0])} | {pct} ({pct}) |" in md
    fig = real.plot_beside(m, m)
    assert len(fig.axes) == 3
    without = real.section_markdown(m, None, standin_name=None, figure="f.png", sizes=[2])
    assert "stand-in `" not in without


def test_a_table_without_threshold_zero_is_refused(measured):
    _, a = _table(measured, "FFT NA")
    with pytest.raises(ValueError, match="threshold 0"):
        real.real_coverage(a[a["threshold_pct"] > 0])
