"""Figures: one style, the object-oriented interface, the atomic save, every name."""

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

from esize_study.render import figures, registry
from esize_study.render import figures_coverage as fc
from esize_study.render import figures_falsealarm as ff

PAPER_FA = ("FFT NA OPT", "Rijndael", "TCP OPT", "FFT", "TCP")
PAPER_COV = ("FFT NA OPT", "Rijndael OPT", "FFT NA", "HTTP OPT")


def _fa_table(names=PAPER_FA):
    rows = []
    for i, b in enumerate(names):
        for exp, x in (("fFAFFT", "binaries"), ("fFA2L", "executions"), ("fFABoot", "binaries")):
            schemes = [("bootstrap", s) for s in ("RRR", "RRN", "RNN", "FLAT")] \
                if exp == "fFABoot" else [("bootstrap", "RRR"), ("asymptotic", "-")]
            for method, scheme in schemes:
                for size in (2, 3, 5):
                    for t in (0, 1, 2, 5, 10):
                        rows.append({"benchmark": b, "experiment": exp, "method": method,
                                     "scheme": scheme, "binaries": size if x == "binaries" else 1,
                                     "executions": size if x == "executions" else 4,
                                     "threshold_pct": t,
                                     "rate": 0.2 / (1 + t * size / (1 + i % 7))})
    return pd.DataFrame(rows)


def _fa_validation():
    rng = np.random.default_rng(1)
    return pd.DataFrame({"benchmark": "FFT", "kind": "binaries", "size": 2, "scheme": "RRR",
                         "mode": ["exact"] * 20 + ["approx"] * 20,
                         "tstar": rng.normal(0, 0.02, 40)})


def _cov_table(names=PAPER_COV):
    rows = []
    for i, b in enumerate(names):
        def add(exp, method, scheme, k, e, n, b=b, i=i):
            cov = 0.95 - 0.01 * math.log(e * n / k) - 0.002 * (i % 9)
            rows.append({"benchmark": b, "experiment": exp, "method": method, "scheme": scheme,
                         "binaries": k, "executions": e, "measurements": n, "coverage": cov,
                         "se": 0.005, "experiments": 100})
        for k in (2, 3, 5):
            for m, s in (("asymptotic", "-"), ("normal", "-"), ("bootstrap", "RRR"),
                         ("bootstrap", "RRN"), ("bootstrap", "RNN"), ("bootstrap", "FLAT")):
                add("fCOV", m, s, k, 4, 5)
            for e in (2, 3):
                add("fCOVGrid", "asymptotic", "-", k, e, 5)
                add("fCOVGrid", "bootstrap", "RRR", k, e, 5)
        for e in (2, 4, 8):
            add("fCOVR", "asymptotic", "-", 1, e, 5)
            add("fCOVR", "bootstrap", "RRR", 1, e, 5)
            for n in (2, 5):
                add("fCOVRSGrid", "asymptotic", "-", 1, e, n)
    return pd.DataFrame(rows)


def _vtable():
    return pd.DataFrame([
        {"method": m, "scheme": s, "comparison": c, "exact": 0.95, "approx": 0.94,
         "se_diff": 0.01, "z": -1.0}
        for m, s in (("asymptotic", "-"), ("bootstrap", "RRR")) for c in ("paired", "independent")])


def test_one_style_for_every_figure():
    before = matplotlib.rcParams["legend.fontsize"]
    seen = {}

    @figures.styled
    def draw():
        seen["size"] = matplotlib.rcParams["legend.fontsize"]

    draw()
    assert seen["size"] == figures.STYLE["legend.fontsize"]
    assert matplotlib.rcParams["legend.fontsize"] == before  # the style does not leak


def test_save_writes_every_format_atomically(tmp_path):
    fig = ff.fa_boot(_fa_table(), ["FFT", "TCP"])
    paths = [tmp_path / "sub" / "f.png", tmp_path / "sub" / "f.pdf"]
    figures.save(fig, *paths)
    assert paths[0].read_bytes()[:4] == b"\x89PNG" and paths[1].read_bytes()[:4] == b"%PDF"
    assert [p.name for p in (tmp_path / "sub").iterdir() if p.name.startswith(".")] == []


def test_false_alarm_family_has_every_named_figure(tmp_path):
    figs = ff.false_alarm_figures(_fa_table(), _fa_validation(), [0, 1, 2, 5, 10])
    assert list(figs) == list(registry.FIGURES["false_alarm"])
    paths = registry.figure_paths(str(tmp_path), "false_alarm")
    figures.save_all(figs, paths, "false_alarm")
    assert all((tmp_path / p.split("/")[-1]).stat().st_size > 0 for p in paths)


def test_coverage_family_has_every_named_figure(tmp_path):
    figs = fc.coverage_figures(_cov_table(), _vtable(), 0.95)
    assert set(figs) == set(registry.FIGURES["coverage"])
    with pytest.raises(ValueError):
        figures.save_all({"fCOV": figs.pop("fCOV")}, [], "coverage")
    for f in figs.values():
        matplotlib.pyplot.close(f)


def test_pick_and_named():
    assert figures.pick(["a", "b", "c"], "b", "x") == ["b", "a"]
    assert figures.named(["d/fCOV.pdf", "d/fCOVR.pdf", "d/fCOV.png"], "fCOV") == [
        "d/fCOV.pdf", "d/fCOV.png"]


def _panels(fig) -> int:
    """Visible panels of a figure, colour bars left out."""
    return sum(ax.get_visible() and getattr(ax, "_colorbar", None) is None for ax in fig.axes)


#: Panels of some figures by number of benchmarks: one per benchmark (fFAFFT: per
#: benchmark and method) up to 16 panels, past them a summary (fFAFFT and fFA2L: one
#: panel per method, fFABoot: per scheme, fCOVGrid: the median and the lowest cell).
PANELS = {
    1: {"fFAFFT": 2, "fFA2L": 1, "fFABoot": 1, "fCOVGrid": 1, "fCOVRSGrid": 1},
    2: {"fFAFFT": 4, "fFA2L": 2, "fFABoot": 2, "fCOVGrid": 2, "fCOVRSGrid": 2},
    12: {"fFAFFT": 2, "fFA2L": 12, "fFABoot": 12, "fCOVGrid": 12, "fCOVRSGrid": 12},
    16: {"fFAFFT": 2, "fFA2L": 16, "fFABoot": 16, "fCOVGrid": 16, "fCOVRSGrid": 16},
    40: {"fFAFFT": 2, "fFA2L": 1, "fFABoot": 4, "fCOVGrid": 2, "fCOVRSGrid": 2},
}


@pytest.mark.parametrize("n", list(PANELS))
def test_any_number_of_benchmarks_gives_every_figure_of_a_sane_size(n):
    """A dataset of one's own (no paper benchmark): one panel per benchmark in a grid
    of at most 4 x 4, past it a summary; never a figure that needs two benchmarks."""
    names = [f"bench-{k:03d}" for k in range(n)]
    figs = {**ff.false_alarm_figures(_fa_table(names), _fa_validation(), [0, 1, 2, 5, 10]),
            **fc.coverage_figures(_cov_table(names), _vtable(), 0.95)}
    assert set(figs) == set(registry.figure_names())
    panels = {}
    for name, fig in figs.items():
        w, h = fig.get_size_inches()
        assert w <= 19 and h <= 16, (name, w, h)  # 2850 x 2400 px at 150 dpi
        panels[name] = _panels(fig)
        assert 1 <= panels[name] <= figures.MAX_PANELS, name
        matplotlib.pyplot.close(fig)
    assert {k: panels[k] for k in PANELS[n]} == PANELS[n]


def test_paper_benchmarks_keep_the_papers_choice():
    figs = ff.false_alarm_figures(_fa_table(), _fa_validation(), [0, 1, 2, 5, 10])
    figs.update(fc.coverage_figures(_cov_table(), _vtable(), 0.95))
    assert {k: _panels(figs[k]) for k in PANELS[1]} == {
        "fFAFFT": 4, "fFA2L": 2, "fFABoot": 2, "fCOVGrid": 2, "fCOVRSGrid": 2}
    assert [ax.get_title() for ax in figs["fFAFFT"].axes] == [
        "FFT NA OPT, RRR bootstrap", "FFT NA OPT, asymptotic", "Rijndael, RRR bootstrap",
        "Rijndael, asymptotic"]
    for f in figs.values():
        matplotlib.pyplot.close(f)


def test_summary_heat_map_takes_the_median_and_the_lowest_cell():
    names = [f"b{k}" for k in range(20)]
    table = _cov_table(names)
    fig = fc.heatmaps(table, fc._bench_panels(names, "fCOVGrid", "asymptotic", "-", "asym"),
                      x="binaries", y="executions", xlabel="x", ylabel="y")
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    sel = table[(table["experiment"] == "fCOVGrid") & (table["method"] == "asymptotic")]
    low = 100 * sel.groupby(["executions", "binaries", "benchmark"])["coverage"].mean().min()
    assert titles[0].startswith("median of 20 benchmarks, asym")
    assert titles[1].startswith("lowest of 20 benchmarks, asym") and f"({low:.1f} %" in titles[1]
    matplotlib.pyplot.close(fig)
