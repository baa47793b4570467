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


# --- legibility: colours, dashes and markers, count axes, colour bars, labels ---

from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from esize_study.paper import numbers as paper  # noqa: E402


def _cov_grid_table(names):
    """Coverage over wide grids, with contour lines at 90 to 99 % crossing them at
    every angle: coverage rises with binaries, falls with executions, plus noise."""
    rng = np.random.default_rng(7)
    rows = []
    for i, b in enumerate(names):
        def add(exp, method, scheme, k, e, n, b=b, i=i):
            trend = 0.04 * math.exp(-k / 5) * (1 if method == "asymptotic" else -2)
            cov = 0.95 + trend - 0.002 * i - 0.004 * math.log(e) + rng.normal(0, 0.003)
            rows.append({"benchmark": b, "experiment": exp, "method": method, "scheme": scheme,
                         "binaries": k, "executions": e, "measurements": n,
                         "coverage": min(cov, 1.0), "se": 0.005, "experiments": 100})
        for k in (2, 3, 5, 10, 20, 50):
            for m, s in (("asymptotic", "-"), ("normal", "-"), ("bootstrap", "RRR"),
                         ("bootstrap", "RRN"), ("bootstrap", "RNN"), ("bootstrap", "FLAT")):
                add("fCOV", m, s, k, 4, 5)
            for e in (2, 3, 5, 10, 20):
                add("fCOVGrid", "asymptotic", "-", k, e, 5)
                add("fCOVGrid", "bootstrap", "RRR", k, e, 5)
        for e in (2, 4, 8, 16):
            add("fCOVR", "asymptotic", "-", 1, e, 5)
            add("fCOVR", "bootstrap", "RRR", 1, e, 5)
            for n in (2, 5, 10):
                add("fCOVRSGrid", "asymptotic", "-", 1, e, n)
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def ten():
    """Every figure of both families on the paper's ten benchmarks."""
    names = list(paper.BENCHMARKS)
    figs = {**ff.false_alarm_figures(_fa_table(names), _fa_validation(), [0, 1, 2, 5, 10]),
            **fc.coverage_figures(_cov_grid_table(names), _vtable(), 0.95)}
    for f in figs.values():
        f.canvas.draw()
    yield figs
    for f in figs.values():
        matplotlib.pyplot.close(f)


def _luminance(colour) -> float:
    r, g, b = to_rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b  # the grey a black-and-white print gives


def _chroma(colour) -> float:
    rgb = to_rgb(colour)
    return max(rgb) - min(rgb)


@pytest.mark.parametrize("name", ["fCOV", "fCOVSchemes", "fCOVR", "fCOVNormal"])
def test_ten_benchmarks_differ_in_colour_dashes_and_markers(ten, name):
    """Each panel's ten benchmark lines: pairwise distinct (colour, dashes, marker),
    in at least seven real colours (not greys), and any two whose greys are alike in
    print have different markers."""
    for ax in ten[name].axes:
        lines = [ln for ln in ax.get_lines() if ln.get_label() in paper.BENCHMARKS]
        assert len(lines) == 10, (name, ax.get_title())
        looks = [(to_rgb(ln.get_color()), str(ln.get_linestyle()), ln.get_marker(),
                  to_rgb(ln.get_markerfacecolor())) for ln in lines]
        assert len(set(looks)) == 10
        colours = {c for c, *_ in looks}
        assert len(colours) >= 7 and sum(_chroma(c) > 0.3 for c in colours) >= 6
        assert len({(ls, c) for c, ls, *_ in looks}) == 10  # colour and dashes alone
        for a in range(10):
            for b in range(a):
                alike = abs(_luminance(looks[a][0]) - _luminance(looks[b][0])) < 0.15
                assert not alike or looks[a][2:] != looks[b][2:], (lines[a].get_label(),
                                                                   lines[b].get_label())


def test_line_styles_stay_apart_up_to_the_most_labelled_lines():
    styles = [figures.line_style(i, 20) for i in range(figures.MAX_LINES)]
    pairs = {(s["color"], str(s["linestyle"])) for s in styles}
    shapes = {(s["marker"], s.get("markerfacecolor", "filled")) for s in styles}
    assert len(pairs) == len(shapes) == figures.MAX_LINES


@pytest.mark.parametrize("name", ["fCOV", "fCOVSchemes", "fCOVR", "fFAFFT", "fFA2L", "fFABoot"])
def test_axes_of_counts_have_whole_numbers(ten, name):
    for ax in ten[name].axes:
        lo, hi = ax.get_xlim()
        ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
        assert ticks and all(float(t).is_integer() for t in ticks), (name, ticks)


def _colour_bar(fig):
    (cax,) = [ax for ax in fig.axes if getattr(ax, "_colorbar", None) is not None]
    return cax


@pytest.mark.parametrize("name", ["fCOVGrid", "fCOVGridBoot", "fCOVRSGrid"])
def test_colour_bars_have_even_ticks_through_the_nominal_coverage(ten, name):
    cax = _colour_bar(ten[name])
    lo, hi = sorted(cax.get_ylim())
    ticks = np.array([t for t in cax.get_yticks() if lo - 1e-9 <= t <= hi + 1e-9])
    assert ticks.size >= 3 and np.any(np.isclose(ticks, 95.0))
    steps = np.diff(ticks)
    assert np.allclose(steps, steps[0])  # even in value ...
    pos = cax.transData.transform(np.c_[np.zeros_like(ticks), ticks])[:, 1]
    assert np.allclose(np.diff(pos), np.diff(pos)[0])  # ... and in length on the bar
    assert cax.get_ylabel() == "coverage [%]"


@pytest.mark.parametrize("lo, hi", [(93.0, 97.0), (86.9, 97.0), (40.0, 100.0), (94.1, 99.7),
                                    (0.0, 100.0), (92.95, 97.05)])
def test_bar_ticks_are_even_steps_through_the_centre(lo, hi):
    t = fc.bar_ticks(lo, hi, 95.0)
    assert 2 <= t.size <= fc.MAX_BAR_TICKS
    assert t.min() >= lo - 1e-9 and t.max() <= hi + 1e-9 and np.any(np.isclose(t, 95.0))
    assert np.allclose(np.diff(t), np.diff(t)[0])


def test_no_text_reads_downward_or_upside_down(ten):
    """Every text of every figure reads left to right or bottom to top (rotation 0 to
    90 degrees): contour labels are upright."""
    labels = 0
    for name, fig in ten.items():
        for t in fig.findobj(Text):
            if t.get_visible() and t.get_text().strip():
                rot = t.get_rotation() % 360
                assert 0 <= rot <= 90, (name, t.get_text(), rot)
                labels += t.get_text().endswith(" %") and t.get_text()[0].isdigit()
    assert labels > 0  # the contour labels were there to be checked


@pytest.mark.parametrize("name", ["fCOVGrid", "fCOVGridBoot"])
def test_the_lines_on_a_heat_map_are_in_its_legend(ten, name):
    (legend,) = ten[name].legends
    texts = [t.get_text() for t in legend.get_texts()]
    assert "binaries per system = executions per binary" in texts
    assert any(t.startswith("contour line") for t in texts)


@pytest.mark.parametrize("name", ["fCOV", "fCOVSchemes", "fCOVR", "fCOVNormal"])
def test_the_nominal_coverage_line_is_in_the_legend(ten, name):
    (legend,) = ten[name].legends
    assert "nominal coverage 95 %" in [t.get_text() for t in legend.get_texts()]


def test_every_axis_is_labelled(ten):
    for name, fig in ten.items():
        for ax in fig.axes:
            if ax.get_visible():
                assert ax.get_ylabel(), (name, ax.get_title())
                if getattr(ax, "_colorbar", None) is None:
                    assert ax.get_xlabel(), (name, ax.get_title())


@pytest.mark.parametrize("suffix", ["pdf", "png"])
def test_study_figures_save_byte_identical(tmp_path, suffix):
    """The same figure saved twice, a second apart, gives the same bytes."""
    import time

    names = list(paper.BENCHMARKS)
    out = []
    for k in range(2):
        with matplotlib.rc_context({"figure.max_open_warning": 0}):  # the fixture's are open
            figs = fc.coverage_figures(_cov_grid_table(names), _vtable(), 0.95)
        path = tmp_path / f"g{k}.{suffix}"
        figures.save(figs.pop("fCOVGrid"), path)
        for f in figs.values():
            matplotlib.pyplot.close(f)
        out.append(path.read_bytes())
        time.sleep(1.1)
    assert out[0] == out[1]
