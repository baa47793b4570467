"""Coverage of the injected ratio and power, read off the known-effect simulations.

:func:`coverage_power_section` renders, for Fieller with t and the RRR bootstrap at
every number of builds k that was simulated, the share of subsampled intervals that
contain the injected ratio (and the full-data ratio), and the share of comparisons that
detect the change at each threshold; then sentences computed from those tables: where
coverage falls short of the nominal level and whether the pool's own ratio explains it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..estimate.rates import wilson

__all__ = ["coverage_power_section", "skipped_sizes"]

METHODS = ("fieller-t", "bootstrap-RRR")


def _pct(p, se=None) -> str:
    try:
        p = float(p)
    except (TypeError, ValueError):
        return "-"
    if not math.isfinite(p):
        return "-"
    return f"{100 * p:.1f}" + ("" if se is None else f" ± {100 * float(se):.1f}")


def skipped_sizes(configured: Sequence[int], pools: Mapping[str, int],
                  simulated: Mapping[str, Sequence[int]] | None = None) -> dict[str, list[int]]:
    """``{variant: sizes left out}``: the configured numbers of builds k that exceed a
    variant's pool (the fewer builds of base and variant) or are below 2, or that were
    not simulated (``simulated``: sizes per variant found in the tables)."""
    out = {}
    for v, n in pools.items():
        left = [int(k) for k in configured if not 2 <= int(k) <= int(n)]
        if simulated is not None:
            left = sorted(set(left) | {int(k) for k in configured
                                       if int(k) not in set(map(int, simulated.get(v, ())))})
        if left:
            out[v] = left
    return out


def _coverage_table(cov: Sequence[Mapping]) -> list[list[str]]:
    body = []
    for r in cov:
        if r["method"] not in METHODS:
            continue
        body.append([r["variant"], f"{float(r['ratio']):g}", str(r["size"]), r["method"],
                     _pct(r["coverage"], r["coverage_se"]),
                     _pct(r["coverage_full"], r["coverage_full_se"]),
                     f"{float(r['median_halfwidth_pct']):.2f}"])
    return body


def _power_table(verd: Sequence[Mapping], thresholds: Sequence[float]) -> list[list[str]]:
    by = {(r["variant"], int(r["size"]), r["method"], float(r["threshold_pct"])): r
          for r in verd}
    keys = list(dict.fromkeys((r["variant"], float(r["ratio"]), int(r["size"]), r["method"])
                              for r in verd if r["method"] in METHODS))
    body = []
    for v, ratio, k, m in keys:
        cells = []
        for t in thresholds:
            r = by.get((v, k, m, float(t)))
            if r is None:
                cells.append("-")
            elif ratio > 1:
                cells.append(_pct(r["slower"], r["slower_se"]))
            else:  # an A/A comparison: any change found is a false detection
                p = float(r["slower"]) + float(r["faster"])
                n = int(r["comparisons"])
                cells.append(_pct(p, math.sqrt(p * (1 - p) / n) if n else math.nan))
        body.append([v, f"{ratio:g}", str(k), m, *cells])
    return body


def _shortfalls(cov: Sequence[Mapping], refs: Sequence[Mapping], alpha: float) -> list[str]:
    """Sentences on the cells whose coverage of the injected ratio is below nominal,
    each with the computation that bears on why."""
    nominal = 1 - alpha
    full = {r["variant"]: r for r in refs}
    low = []
    for r in cov:
        if r["method"] not in METHODS:
            continue
        p, n = float(r["coverage"]), int(r["comparisons"])
        if wilson(p, n)[1] < nominal:
            low.append(r)
    if not low:
        return [f"No cell of Fieller with t or the RRR bootstrap covers the injected ratio "
                f"less often than the nominal {100 * nominal:g} % by its Wilson interval; for "
                "Fieller with t that is what the paper's coverage experiment predicts."]
    out = []
    for r in low:
        v, method = r["variant"], r["method"]
        ref = full.get(v)
        pf, n = float(r["coverage_full"]), int(r["comparisons"])
        full_ok = wilson(pf, n)[1] >= nominal
        text = (f"{v}, k = {r['size']}, {method}: {_pct(r['coverage'])} % of {n} intervals "
                f"cover the injected ratio, {_pct(pf)} % the full-data ratio")
        if ref is not None:
            pool = min(int(ref["base_binaries"]), int(ref["variant_binaries"]))
            text += f"; k is {100 * int(r['size']) / pool:.0f} % of the pool's {pool} builds"
        if not full_ok:
            text += ("; coverage of the full-data ratio is below nominal too, so the "
                     "intervals are too narrow for the spread of these subsamples: the "
                     "method falls short here"
                     + (", against the paper's prediction of about nominal coverage for "
                        "Fieller with t" if method == "fieller-t" else ""))
        elif ref is not None:
            est, inj = float(ref["estimate"]), float(ref["ratio"])
            lo, hi = float(ref["fieller_t_lower"]), float(ref["fieller_t_upper"])
            off = 100 * abs(est - inj) / est
            text += (f"; coverage of the full-data ratio is not below nominal, and the injected ratio "
                     f"lies {off:.1f} % from the pool's ratio {est:.4f} ("
                     + ("inside" if lo <= inj <= hi else "outside")
                     + f" its interval [{lo:.4f}, {hi:.4f}]) against a median half-width of "
                     f"{float(r['median_halfwidth_pct']):.1f} %: the misses come from the "
                     "pool's offset from the injected ratio, which every subsample shares, "
                     "not from the method's width")
        out.append(text + ".")
    return ["Where coverage of the injected ratio is below the nominal "
            f"{100 * nominal:g} % (Wilson interval wholly below; the paper's coverage "
            "experiment predicts about nominal coverage for Fieller with t):", ""] + [
        f"- {s}" for s in out]


def _method_summary(cov: Sequence[Mapping], verd: Sequence[Mapping]) -> list[str]:
    """Per method: the range of coverage of the injected ratio, of the median half-width,
    and of the power at threshold 0 at the largest k, over variants."""
    out = []
    for m in METHODS:
        rows = [r for r in cov if r["method"] == m]
        if not rows:
            continue
        c = [float(r["coverage"]) for r in rows]
        hw = [float(r["median_halfwidth_pct"]) for r in rows
              if math.isfinite(float(r["median_halfwidth_pct"]))]
        text = (f"{m}: coverage of the injected ratio {100 * min(c):.1f} to {100 * max(c):.1f} % "
                f"over {len(rows)} cells")
        if hw:
            text += f", median half-width {min(hw):.2f} to {max(hw):.2f} %"
        kmax = max(int(r["size"]) for r in rows)
        power = [float(r["slower"]) for r in verd if r["method"] == m
                 and int(r["size"]) == kmax and float(r["threshold_pct"]) == 0
                 and float(r["ratio"]) > 1]
        if power:
            text += (f"; at k = {kmax} it finds the injected slowdown in {100 * min(power):.1f} "
                     f"to {100 * max(power):.1f} % of comparisons (threshold 0)")
        out.append(text)
    return ["In short, per method over variants: " + "; ".join(out) + ".", ""] if out else []


def coverage_power_section(refs: Sequence[Mapping], cov: Sequence[Mapping],
                           verd: Sequence[Mapping], thresholds: Sequence[float], *,
                           alpha: float = 0.05, skipped: Mapping[str, Sequence[int]] = {},
                           table) -> list[str]:
    """The part ``### Coverage and power when builds are subsampled`` (Markdown lines);
    ``table(head, body)`` renders a table; ``skipped``: :func:`skipped_sizes`."""
    out = ["### Coverage and power when builds are subsampled", ""]
    if skipped:
        out += ["Numbers of builds k left out because they exceed the builds a variant and "
                "its base have (or are below 2): " + "; ".join(
                    f"{v}: {', '.join(map(str, ks))}" for v, ks in skipped.items()) + ".", ""]
    cbody = _coverage_table(cov)
    if not cbody:
        return out + ["No subsampled comparison was simulated.", ""]
    out += [
        "Each comparison draws k builds of the base and k of the variant without "
        "replacement, with all their executions and steady iterations. Coverage: share "
        "(%) ± Monte Carlo standard error of the intervals that contain the injected "
        "ratio, and the full-data ratio; half-width: median, % of the estimate.", "",
        table(["variant", "injected", "k", "method", "contains injected",
               "contains full-data ratio", "half-width %"], cbody), "",
    ]
    pbody = _power_table(verd, thresholds)
    if pbody:
        out += [
            "Power: share (%) ± standard error of comparisons whose `esize.verdict` is "
            "`slower` at each threshold (for an A/A variant, injected 1, the share that "
            "finds any change, a false detection).", "",
            table(["variant", "injected", "k", "method",
                   *[f"t = {t:g} %" for t in thresholds]], pbody), "",
        ]
    return out + _method_summary(cov, verd) + _shortfalls(cov, refs, alpha) + [""]
