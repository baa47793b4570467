"""The comparisons of a dataset entry, with the machinery of ``esize compare``.

Each configured pair ``{old, new}`` names two benchmarks, or two harness files
(compared benchmark by benchmark, matched by name as ``esize compare`` matches them). Each pair is made comparable as the command
line makes it (:func:`esize.readers.align_pair`, the units converted, each system with
its own design), then gets Fieller's interval and the hierarchical bootstrap's
(:func:`esize.compare.fieller_interval`, :func:`~esize.compare.suite_bootstrap`,
every system resampled at all its levels), and the verdict with its caveats in the
words of ``esize compare`` (:func:`esize.compare.benchmark_row`): from Fieller's
interval, ``inconclusive`` when it is unbounded. The bootstrap draws from the shared
``analysis.seed`` and a stream derived from the comparison's label, so the report is
the same on every run. No geometric mean is drawn over the comparisons: they are not
one suite's benchmarks.

Where a known ratio is given, each interval says whether it covers it.
"""

from __future__ import annotations

from collections.abc import Mapping

from esize import EsizeError
from esize.compare import (
    Pair,
    benchmark_row,
    check_resamples_option,
    design_text,
    fieller_interval,
    reading_caveats,
    schemes_for,
    suite_bootstrap,
)
from esize.readers import align_pair
from esize.text import merge_warmup, num

from .read import Dataset, Index

__all__ = ["resolve", "compared_names", "make_pairs", "compare", "covers"]


def resolve(index: Index, comparisons: list) -> list[dict]:
    """The configured comparisons as pairs of benchmark names: ``label``, ``old``,
    ``new``, ``ratio`` (known, or None) and ``spec`` (the configured pair's number).

    Two harness files expand to one pair per benchmark both hold
    (:meth:`esize_study.analysis.read.Index.pairs`).

    Raises
    ------
    EsizeError
        A comparison that names no benchmark pair (``check-config`` says it first).
    """
    out = []
    for i, c in enumerate(comparisons):
        try:
            pairs = index.pairs(c["old"], c["new"])
        except KeyError as exc:
            raise EsizeError(f"comparison {i + 1}: {exc.args[0]}") from None
        for o, n in pairs:
            out.append({"label": f"{n} vs {o}", "old": o, "new": n, "ratio": c.get("ratio"),
                        "spec": i})
    return out


def compared_names(index: Index, comparisons: list) -> list[str]:
    """Every benchmark a comparison needs (to read them alone)."""
    names = []
    for p in resolve(index, comparisons):
        names += [p["old"], p["new"]]
    return list(dict.fromkeys(names))


def make_pairs(data: Dataset, resolved: list[dict]) -> list[Pair]:
    """One :class:`esize.compare.Pair` per resolved comparison, named by its label."""
    pairs = []
    for p in resolved:
        ro, rn = data.reads[p["old"]], data.reads[p["new"]]
        bo, bn = ro.bench, rn.bench
        old, new = align_pair(bo, bn, name=ro.inner, new_name=rn.inner, old_source=ro.path,
                              new_source=rn.path)
        schemes = schemes_for(None, old, new, bootstrap=False)
        pairs.append(Pair(p["label"], p["label"], bo.unit, old, new, schemes,
                          reading_caveats(bo, bn), merge_warmup(bo.warmup, bn.warmup)))
    return pairs


def covers(interval, ratio: float) -> bool | None:
    """Whether an interval holds ``ratio`` (None without an interval)."""
    if interval is None:
        return None
    return bool(interval.lower <= ratio <= interval.upper)


def compare(settings: Mapping, data: Dataset) -> dict:
    """``comparisons.json`` of a dataset: the settings and one entry per comparison
    with the JSON of ``esize compare --json`` (ratio, intervals, verdict, caveats,
    designs), the text it prints, and the known ratio with what covers it."""
    resolved = resolve(data.index, settings["comparisons"])
    alpha, threshold = settings["alpha"], settings["threshold"]
    resamples, seed = settings["resamples"], settings["seed"]
    out = {"alpha": alpha, "threshold": threshold, "resamples": resamples, "seed": seed,
           "comparisons": []}
    if not resolved:
        return out
    pairs = make_pairs(data, resolved)
    check_resamples_option(resamples, alpha, len(pairs))
    suite = suite_bootstrap(pairs, resamples=resamples, alpha=alpha, seed=seed,
                            invert=[False] * len(pairs), parametric=False)
    for j, (p, pair) in enumerate(zip(resolved, pairs)):
        row = benchmark_row(pair, fieller_interval(pair, alpha=alpha, normal=False),
                            suite.intervals[j], alpha=alpha, threshold=threshold, normal=False,
                            resamples=resamples, seed=seed)
        doc = row.to_json()
        doc.update(label=p["label"], old_benchmark=p["old"], new_benchmark=p["new"],
                   old_file=data.reads[p["old"]].path, new_file=data.reads[p["new"]].path,
                   spec=p["spec"], text=row.render_lines(),
                   design_text={"old": design_text(pair.old), "new": design_text(pair.new)},
                   plot_row=row.plot_row())
        known = p["ratio"]
        doc["known_ratio"] = known
        if known is not None:
            doc["covers_known"] = {"fieller": covers(row.fieller, known),
                                   "bootstrap": covers(row.bootstrap, known)}
            doc["known_ratio_error_pct"] = num(100.0 * (pair.ratio / known - 1.0))
        out["comparisons"].append(doc)
    return out
