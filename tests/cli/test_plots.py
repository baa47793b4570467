"""The figures of ``--plot``: bounded size, rows sorted, suite interval, short labels."""

import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.image import imread  # noqa: E402

from esize.plots import (  # noqa: E402
    MAX_ROWS,
    PLOT_DPI,
    compare_figure,
    save_figure,
    summary_figure,
)

PREFIX = "org.openjdk.bench.java.util.HashMapBench."


def compare_rows(n, seed=0):
    rng = np.random.default_rng(seed)
    ratios = np.exp(rng.normal(0, 0.4, n))
    rows = []
    for i, r in enumerate(ratios):
        w = math.exp(abs(rng.normal(0, 0.05)))
        method = "get" if i % 2 else "put"
        rows.append({"name": f"{PREFIX}{method}:size={i},type=HASH_MAP", "ratio": float(r),
                     "lower": float(r / w), "upper": float(r * w), "unit": "ns/op",
                     "lower_is_better": True})
    return rows


def summary_rows(n, seed=0):
    rng = np.random.default_rng(seed)
    return [{"name": f"BM_Foo/{i}/threads:8", "levels": ["invocation", "iteration"],
             "T_pct": [float(x) for x in np.abs(rng.normal(4, 2, 2))], "T2": [1.0, 1.0]}
            for i in range(n)]


def pixels(fig):
    w, h = fig.get_size_inches() * PLOT_DPI
    return w, h


def labels_top_down(ax):
    """The y tick labels, top row first."""
    pairs = zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels()))
    return [text for _, text in sorted(pairs, key=lambda p: -p[0])]


def suite_doc(verdict_interval):
    # the shape of SuiteRow.to_json(): lower/upper are the bootstrap's
    return {"geometric_mean": 0.95, "lower": 0.94, "upper": 0.96, "alpha": 0.05,
            "inverted": [], "verdict_method": "bootstrap+parametric",
            "verdict_interval": verdict_interval}


@pytest.mark.parametrize("n", [10, 105, 500])
def test_the_comparison_figure_stays_within_a_page_column(n):
    fig = compare_figure(compare_rows(n), threshold=0.02, alpha=0.05,
                         suite=suite_doc({"lower": 0.9, "upper": 1.0}))
    assert isinstance(fig.canvas, FigureCanvasAgg)
    w, h = pixels(fig)
    # one row per benchmark used to grow to 0.38 inch a row: 6000 px for 105
    assert w <= 1300 and h <= 3800


@pytest.mark.parametrize("n", [10, 105, 500])
def test_the_summary_figure_is_bounded(n):
    w, h = pixels(summary_figure(summary_rows(n)))
    # grouped bars used to grow sideways: 21000 px wide for 105 benchmarks
    assert w <= 16 * PLOT_DPI and h <= 3800


def test_beyond_the_cap_the_height_stops_growing():
    h = [pixels(compare_figure(compare_rows(n), threshold=0.02, alpha=0.05))[1]
         for n in (MAX_ROWS, 500, 2000)]
    assert h[0] <= h[1] == h[2]
    hs = [pixels(summary_figure(summary_rows(n)))[1] for n in (500, 2000)]
    assert hs[0] == hs[1]


def test_the_written_png_has_the_bounded_size(tmp_path):
    target = tmp_path / "c.png"
    save_figure(compare_figure(compare_rows(105), threshold=0.02, alpha=0.05), target)
    h, w = imread(target).shape[:2]
    assert w <= 1300 and h <= 3800


def test_many_benchmarks_are_sorted_by_ratio():
    rows = compare_rows(105)
    ax = compare_figure(rows, threshold=0.02, alpha=0.05).axes[0]
    by_ratio = sorted(rows, key=lambda r: r["ratio"])
    assert labels_top_down(ax) == [r["name"][len(PREFIX):] for r in by_ratio]


def test_few_benchmarks_keep_their_order():
    rows = compare_rows(5)
    ax = compare_figure(rows, threshold=0.02, alpha=0.05).axes[0]
    assert labels_top_down(ax) == [r["name"][len(PREFIX):] for r in rows]


def test_beyond_the_cap_those_nearest_no_change_are_left_out_and_counted():
    rows = compare_rows(500)
    ax = compare_figure(rows, threshold=0.02, alpha=0.05).axes[0]
    drawn = labels_top_down(ax)
    assert len(drawn) == MAX_ROWS
    far = sorted(rows, key=lambda r: -abs(math.log(r["ratio"])))[:MAX_ROWS]
    assert set(drawn) == {r["name"][len(PREFIX):] for r in far}
    # still sorted by ratio
    ratio_of = {r["name"][len(PREFIX):]: r["ratio"] for r in rows}
    assert [ratio_of[d] for d in drawn] == sorted(ratio_of[d] for d in drawn)
    assert "350" in ax.get_title()
    assert any("350 benchmarks" in t.get_text() for t in ax.texts)


def _suite_segments(ax):
    suite = [c for c in ax.containers if c.get_label() == "suite"]
    assert len(suite) == 1
    return [seg for coll in suite[0].lines[2] for seg in coll.get_segments()]


@pytest.mark.parametrize("n", [3, 60])
def test_the_geometric_mean_draws_the_interval_its_verdict_rests_on(n):
    fig = compare_figure(compare_rows(n), threshold=0.02, alpha=0.05,
                         suite=suite_doc({"lower": 0.9, "upper": 1.01}))
    (seg,) = _suite_segments(fig.axes[0])
    xs = sorted(x for x, _ in seg)
    # the verdict interval, not the narrower bootstrap interval 0.94 .. 0.96
    assert xs == pytest.approx([0.9, 1.01])
    assert labels_top_down(fig.axes[0])[-1] == "geometric mean"


def test_an_unbounded_verdict_interval_is_said_not_drawn():
    fig = compare_figure(compare_rows(3), threshold=0.02, alpha=0.05,
                         suite=suite_doc({"lower": None, "upper": None}))
    ax = fig.axes[0]
    assert not [c for c in ax.containers if c.get_label() == "suite"]
    assert any(t.get_text() == "unbounded CI" for t in ax.texts)


def test_without_a_verdict_interval_the_suite_limits_are_drawn():
    suite = suite_doc(None)
    del suite["verdict_interval"]
    (seg,) = _suite_segments(compare_figure(compare_rows(3), threshold=0.02, alpha=0.05,
                                            suite=suite).axes[0])
    assert sorted(x for x, _ in seg) == pytest.approx([0.94, 0.96])


@pytest.mark.parametrize("n", [4, 105])
def test_labels_lose_the_shared_prefix_which_the_title_says(n):
    ax = compare_figure(compare_rows(n), threshold=0.02, alpha=0.05).axes[0]
    labels = labels_top_down(ax)
    assert all(lab.startswith(("put:size=", "get:size=")) for lab in labels)
    assert PREFIX in ax.get_title()


def test_a_shared_unit_is_said_once():
    ax = compare_figure(compare_rows(4), threshold=0.02, alpha=0.05).axes[0]
    assert not any("ns/op" in lab for lab in labels_top_down(ax))
    assert "ns/op" in ax.get_xlabel()
    rows = compare_rows(4)
    rows[0].update(unit="ops/ms", lower_is_better=False)
    labels = labels_top_down(compare_figure(rows, threshold=0.02, alpha=0.05).axes[0])
    assert labels[0].endswith("[ops/ms ↑]") and labels[1].endswith("[ns/op]")


def test_a_long_name_is_cut_in_its_middle_not_lost_at_its_end():
    rows = compare_rows(30)
    rows[0]["name"] = PREFIX + "put:" + "x" * 80 + "size=0"
    labels = labels_top_down(compare_figure(rows, threshold=0.02, alpha=0.05).axes[0])
    long = next(lab for lab in labels if "…" in lab)
    assert long.startswith("put:xxx") and long.endswith("size=0") and len(long) <= 42


def test_wide_ranges_use_a_log_axis_with_plain_numbers():
    rows = compare_rows(3)
    rows[0].update(ratio=0.0633, lower=0.0598, upper=0.0671)
    ax = compare_figure(rows, threshold=0.02, alpha=0.05).axes[0]
    assert ax.get_xscale() == "log"
    fig = ax.figure
    fig.canvas.draw()
    texts = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert "1" in texts and not any("10^" in t or "$" in t for t in texts)
    narrow = compare_figure(compare_rows(3, seed=5), threshold=0.02, alpha=0.05).axes[0]
    assert narrow.get_xscale() == "linear"


def test_an_axis_from_half_to_double_gets_ticks_between_them():
    # issue 41: 0.5, 1 and 2 alone say little; finer plain numbers are added
    rows = compare_rows(2)
    rows[0].update(ratio=0.55, lower=0.5, upper=0.6)
    rows[1].update(ratio=1.8, lower=1.7, upper=2.0)
    ax = compare_figure(rows, threshold=0.02, alpha=0.05).axes[0]
    ax.figure.canvas.draw()
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert ax.get_xscale() == "log" and len(ticks) >= 5
    assert {0.5, 1.0} <= set(ticks) and any(1.0 < t < 2.0 for t in ticks)
    assert all(f"{t:g}" == lab.get_text() for t, lab in zip(ticks, ax.get_xticklabels()))


def test_a_known_ratio_is_marked_on_its_row_and_in_the_legend():
    rows = compare_rows(3)
    rows[1]["known"] = 1.05
    fig = compare_figure(rows, threshold=0.02, alpha=0.05)
    ax = fig.axes[0]
    marks = [ln for ln in ax.lines if ln.get_gid() == "known-ratio"]
    assert len(marks) == 1 and list(marks[0].get_xdata()) == [1.05]
    assert "known ratio" in [t.get_text() for t in fig.legends[0].get_texts()]
    plain = compare_figure(compare_rows(3), threshold=0.02, alpha=0.05)
    assert "known ratio" not in [t.get_text() for t in plain.legends[0].get_texts()]


def test_many_summaries_are_sorted_by_total_variation():
    rows = summary_rows(105)
    ax = summary_figure(rows).axes[0]
    total = {r["name"][len("BM_Foo/"):]: math.hypot(*r["T_pct"]) for r in rows}
    drawn = labels_top_down(ax)
    assert sorted(drawn) == sorted(total)
    assert [total[d] for d in drawn] == sorted(total.values(), reverse=True)
    assert "BM_Foo/" in ax.get_title()


def test_a_few_summaries_keep_their_bars():
    rows = summary_rows(3)
    ax = summary_figure(rows).axes[0]
    assert len(ax.patches) == 6  # one bar per level and benchmark
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0/threads:8", "1/threads:8",
                                                           "2/threads:8"]


def test_a_huge_shared_prefix_does_not_make_the_figure_grow():
    rows = compare_rows(30)
    for r in rows:
        r["name"] = "x" * 1000 + "." + r["name"]
    fig = compare_figure(rows, threshold=0.02, alpha=0.05)
    title = fig.axes[0].get_title()
    assert "xxx…xxx" in title and title.count("\n") <= 4
    assert pixels(fig)[1] <= pixels(compare_figure(compare_rows(30), threshold=0.02,
                                                   alpha=0.05))[1] + 0.5 * PLOT_DPI


def test_warmup_figure_draws_every_process_and_its_cut():
    from esize.plots import warmup_figure

    rng = np.random.default_rng(2)
    n = 60
    series = np.vstack([np.r_[np.linspace(5, 1.2, c), np.ones(n - c)] * rng.lognormal(0, 0.01, n)
                        for c in (10, 20, 1)])
    info = {"cuts": [10, 20, 0], "kept": 40, "classes": {"flat": 1, "warmup": 2,
                                                          "slowdown": 0, "no_steady_state": 0},
            "no_steady_state": []}
    fig = warmup_figure("bench", series, info, unit="s", group="fork")
    (ax,) = fig.axes
    title = ax.get_title()
    assert title.startswith("bench: 3 forks; 1 flat, 2 warm-up")
    assert ax.get_yscale() == "log"  # 5 / 1 spans more than 4x
    dots = [ln for ln in ax.lines if ln.get_marker() == "o"]
    assert sorted(float(d.get_xdata()[0]) for d in dots) == [11.0, 21.0]  # 1-based positions
    assert ax.get_xlabel() == "value within the fork"


def test_summary_plot_with_automatic_warmup_draws_the_series(tmp_path, capsys):
    from .helpers import cli

    real = Path(__file__).resolve().parents[1] / "data" / "real" / "pyperf-speed-pypy2.json.gz"
    out = tmp_path / "w.png"
    code, _, err = cli(["summary", real, "--warmup", "auto", "--benchmark", "sympy_str",
                        "--plot", out], capsys)
    assert code == 0, err
    assert out.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("suffix", [".pdf", ".svg", ".png"])
def test_saved_plots_carry_no_creation_date(tmp_path, suffix):
    """PDF and SVG files are byte-reproducible: no date in them, two saves identical."""
    import time

    from esize.plots import save_figure

    out = []
    for k in range(2):
        fig = compare_figure(compare_rows(3), threshold=0.02, alpha=0.05)
        p = tmp_path / f"plot{k}{suffix}"
        save_figure(fig, p)
        out.append(p.read_bytes())
        time.sleep(1.1)
    assert out[0] == out[1]
    assert b"CreationDate" not in out[0]


@pytest.mark.parametrize("path, label", [
    ("runs/fft.parquet", "fft"), ("a/b/bench.json.gz", "bench"), ("hash-new.csv", "hash-new"),
    ("data/v1.2-run", "v1.2-run"), ("-", "data"), (".csv", ".csv")])
def test_a_nameless_benchmark_is_called_after_its_file(path, label):
    from esize.plots import file_label, nameless_label

    assert file_label(path) == label
    assert nameless_label(path) == label
    assert nameless_label("new/fft.csv", "old/fft.csv") == "fft"
    assert nameless_label("x/hash-new.csv", "x/hash-old.csv") == "hash-new / hash-old"


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "analyse" / "data"


@pytest.fixture
def drawn(monkeypatch):
    """The figures the command line saves, kept instead of written."""
    import esize.plots as plots

    figs = []
    monkeypatch.setattr(plots, "save_figure", lambda fig, path: figs.append(fig))
    return figs


def test_cli_plots_name_a_nameless_benchmark_after_its_file_not_its_folder(
        tmp_path, capsys, drawn):
    """A tidy CSV names no benchmark: the figures say the file's name (hash-new), not
    "data" (which reads as the folder the file is in)."""
    from .helpers import cli

    new, old = EXAMPLES / "hash-new.csv", EXAMPLES / "hash-old.csv"
    assert cli(["summary", new, "--warmup", "auto", "--plot", tmp_path / "w.png"], capsys)[0] == 0
    assert cli(["summary", new, "--plot", tmp_path / "s.png"], capsys)[0] == 0
    assert cli(["compare", old, new, "--plot", tmp_path / "c.png"], capsys)[0] == 0
    warm, summ, comp = (f.axes[0] for f in drawn)
    assert warm.get_title().startswith("hash-new: 30 executions")
    assert [t.get_text() for t in summ.get_xticklabels()] == ["hash-new"]
    assert [t.get_text() for t in comp.get_yticklabels()] == ["hash-new / hash-old"]
    for ax in (warm, summ, comp):
        texts = [ax.get_title()] + [t.get_text() for t in ax.get_xticklabels()
                                    + ax.get_yticklabels()]
        assert "data" not in texts and not any(t.startswith("data:") for t in texts)


@pytest.mark.parametrize("n", [3, 5, 12, 200])
def test_warmup_iteration_axis_has_whole_numbers(n):
    from matplotlib.ticker import MaxNLocator

    from esize.plots import warmup_figure

    series = np.linspace(2.0, 1.0, 2 * n).reshape(2, n)
    info = {"cuts": [0, 0], "kept": n, "classes": {"flat": 2}, "no_steady_state": []}
    fig = warmup_figure("bench", series, info, unit="ms", group="fork")
    FigureCanvasAgg(fig).draw()
    (ax,) = fig.axes
    assert isinstance(ax.xaxis.get_major_locator(), MaxNLocator)
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks)
    assert ax.get_ylabel() == "value [ms]"
