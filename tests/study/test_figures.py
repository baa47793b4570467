"""Figures: one style, the object-oriented interface, the atomic save, every name."""

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

from esize_study import figures, layout
from esize_study import figures_coverage as fc


def _fa_table():
    rows = []
    for b in ("FFT NA OPT", "Rijndael", "TCP OPT", "FFT", "TCP"):
        for exp, x in (("fFAFFT", "binaries"), ("fFA2L", "executions"), ("fFABoot", "binaries")):
            schemes = [("bootstrap", s) for s in ("RRR", "RRN", "RNN", "FLAT")] \
                if exp == "fFABoot" else [("bootstrap", "RRR"), ("asymptotic", "-")]
            for method, scheme in schemes:
                for size in (2, 3, 5):
                    for t in (0, 1, 2, 5, 10):
                        rows.append({"benchmark": b, "experiment": exp, "method": method,
                                     "scheme": scheme, "binaries": size if x == "binaries" else 1,
                                     "executions": size if x == "executions" else 4,
                                     "threshold_pct": t, "rate": 0.2 / (1 + t * size)})
    return pd.DataFrame(rows)


def _fa_validation():
    rng = np.random.default_rng(1)
    return pd.DataFrame({"benchmark": "FFT", "kind": "binaries", "size": 2, "scheme": "RRR",
                         "mode": ["exact"] * 20 + ["approx"] * 20,
                         "tstar": rng.normal(0, 0.02, 40)})


def _cov_table():
    rows = []
    for b in ("FFT NA OPT", "Rijndael OPT", "FFT NA", "HTTP OPT"):
        def add(exp, method, scheme, k, e, n, b=b):
            cov = 0.95 - 0.01 * math.log(e * n / k)
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
    fig = figures.fa_boot(_fa_table(), ["FFT", "TCP"])
    paths = [tmp_path / "sub" / "f.png", tmp_path / "sub" / "f.pdf"]
    figures.save(fig, *paths)
    assert paths[0].read_bytes()[:4] == b"\x89PNG" and paths[1].read_bytes()[:4] == b"%PDF"
    assert [p.name for p in (tmp_path / "sub").iterdir() if p.name.startswith(".")] == []


def test_false_alarm_family_has_every_named_figure(tmp_path):
    figs = figures.false_alarm_figures(_fa_table(), _fa_validation(), [0, 1, 2, 5, 10])
    assert list(figs) == list(layout.FIGURES["false_alarm"])
    paths = layout.figure_paths(str(tmp_path), "false_alarm")
    figures.save_all(figs, paths, "false_alarm")
    assert all((tmp_path / p.split("/")[-1]).stat().st_size > 0 for p in paths)


def test_coverage_family_has_every_named_figure(tmp_path):
    figs = fc.coverage_figures(_cov_table(), _vtable(), 0.95)
    assert set(figs) == set(layout.FIGURES["coverage"])
    with pytest.raises(ValueError):
        figures.save_all({"fCOV": figs.pop("fCOV")}, [], "coverage")
    for f in figs.values():
        matplotlib.pyplot.close(f)


def test_pick_and_named():
    assert figures.pick(["a", "b", "c"], "b", "x") == ["b", "a"]
    assert figures.named(["d/fCOV.pdf", "d/fCOVR.pdf", "d/fCOV.png"], "fCOV") == [
        "d/fCOV.pdf", "d/fCOV.png"]
