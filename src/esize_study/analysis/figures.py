"""The figures of a dataset's report, drawn by esize's own plots.

* ``variance``: where the variation comes from, level by level
  (:func:`esize.plots.summary_figure`, the figure of ``esize summary --plot``);
* ``warmup``: the values of the benchmark that lost the largest share to the
  warm-up, with the cut of every group (:func:`esize.plots.warmup_figure`);
* ``forest``: every comparison's ratio new/old with the interval its verdict comes
  from (:func:`esize.plots.compare_figure`, the figure of ``esize compare
  --plot``).

:data:`TITLES` and :data:`CAPTIONS` are the headings and captions of the report
(:mod:`.report`); the rules' ``report(..., caption=...)`` files
(``workflow/report/analyse/*.rst``) hold the same captions (:func:`write_captions`).
"""

from __future__ import annotations

from collections.abc import Mapping

from esize.plots import compare_figure, save_figure, summary_figure, warmup_figure

from ._study import dfiles

__all__ = ["FIGURES", "TITLES", "CAPTIONS", "caption_text", "write_captions",
           "variance_figure", "warmup_fig", "forest_figure", "draw", "write"]

#: The figures, in the order of the report.
FIGURES = ("variance", "warmup", "forest")

TITLES = {
    "variance": "Where the variation comes from",
    "warmup": "Warm-up",
    "forest": "The comparisons",
}

CAPTIONS = {
    "variance": (
        "The variation of each level of every benchmark, T = sqrt(max(T^2, 0)) in % of "
        "the mean, after the warm-up was dropped (a bar per level for a few benchmarks, a "
        "row of markers per benchmark for more): the largest dominates the variance of a single measurement. A level "
        "whose T^2 <= 0 (marked, or a hollow marker) shows no variation of its own beyond "
        "that of the level below."
    ),
    "warmup": (
        "The values of every group (execution, process, fork) of the benchmark that lost "
        "the largest share of its values to the warm-up (the first benchmark when none lost "
        "any), in the order they were measured: grey before the cut, in colour after it; "
        "the shaded band is what the analysis keeps."
    ),
    "forest": (
        "Each comparison's ratio of means new/old with the interval its verdict comes from "
        "(Fieller's), at the report's confidence level; the grey band is the threshold of "
        "relevance. A filled marker is a change beyond the threshold (slower or faster), "
        "a hollow one is not."
    ),
}


def caption_text(name: str) -> str:
    """The caption file of figure ``name`` (``workflow/report/analyse/<name>.rst``, given
    to Snakemake's ``report(..., caption=...)``): its title, then its caption, in the
    form of the reproduction's (:func:`esize_study.render.registry.caption_text`)."""
    return f"**{TITLES[name]}**\n\n{CAPTIONS[name]}\n"


def write_captions(directory) -> list:
    """Write every figure's caption file into ``directory``; returns the paths."""
    from pathlib import Path

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name in FIGURES:
        path = directory / f"{name}.rst"
        path.write_text(caption_text(name), encoding="utf-8")
        out.append(path)
    return out


def variance_figure(est: Mapping):
    """Figure ``variance`` from ``estimates.json``."""
    rows = [{"name": b["name"], "levels": b["variance"]["levels"],
             "T_pct": b["variance"]["T_pct"], "T2": b["variance"]["T2"]}
            for b in est["benchmarks"] if "variance" in b]
    return summary_figure(rows)


def warmup_fig(est: Mapping):
    """Figure ``warmup`` from ``estimates.json`` (its ``series``)."""
    s = est["series"]
    info = {"cuts": s["cuts"], "kept": s["kept"], "classes": s["classes"],
            "no_steady_state": s["no_steady_state"]}
    return warmup_figure(s["name"], s["values"], info, unit=s["unit"], group=s["group"])


def forest_figure(cmp: Mapping):
    """Figure ``forest`` from ``comparisons.json``: one row per comparison, named by
    its label, a known ratio marked on its row; no geometric mean (the comparisons
    are not one suite)."""
    rows = [{**c["plot_row"], "name": c["label"], "known": c.get("known_ratio")}
            for c in cmp["comparisons"]]
    return compare_figure(rows, threshold=cmp["threshold"], alpha=cmp["alpha"])


def draw(which: str, est: Mapping, cmp: Mapping | None = None):
    """The figure ``which`` (one of :data:`FIGURES`)."""
    if which == "variance":
        return variance_figure(est)
    if which == "warmup":
        return warmup_fig(est)
    if which == "forest":
        return forest_figure(cmp)
    raise ValueError(f"unknown figure {which!r}")


def write(fig, path: str) -> None:
    """Write a figure (PNG, PDF or SVG by the name's extension), atomically; a failed
    write (a full disk) stops the job with one line naming the file."""
    with dfiles.writing(path):
        save_figure(fig, path)
