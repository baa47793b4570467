"""The known-effect tables in Markdown (:func:`render_markdown`): the full-data ratio,
coverage when the experiment is subsampled, and the verdicts."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..knowneffect.records import VERDICTS

__all__ = ["render_markdown"]


def _pct(p: float, se: float | None = None, nd: int = 1) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    txt = f"{100 * p:.{nd}f}"
    return txt if se is None else f"{txt} ± {100 * se:.{nd}f}"


def _fmt_ratio(x) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4f}"


def render_markdown(references: Sequence[Mapping], cov: Sequence[Mapping],
                    verd: Sequence[Mapping], *, alpha: float = 0.05, heading: str = "###") -> str:
    """The known-effect tables in Markdown: references, coverage, verdicts.

    Parameters
    ----------
    references : sequence of mapping
        Rows of ``known_effect_references.csv``.
    cov, verd : sequence of mapping
        Rows of :func:`esize_study.knowneffect.records.coverage_rows` and
        :func:`esize_study.knowneffect.records.verdict_rows`.
    heading : str
        Markdown heading marks of the sub-sections.
    """
    import pandas as pd

    level = f"{100 * (1 - alpha):g} %"
    out = [f"{heading} The full-data ratio: every build of the base against every build of the "
           "variant", ""]
    tab = []
    for r in references:
        cpu = ("-" if r.get("cpu_estimate") in (None, "") or pd.isna(r.get("cpu_estimate"))
               else f"{float(r['cpu_estimate']):.4f} [{float(r['cpu_lower']):.4f}, "
                    f"{float(r['cpu_upper']):.4f}]")
        tab.append([
            r["variant"], r["base"], f"{float(r['ratio']):.2f}",
            f"{int(r['base_binaries'])} / {int(r['variant_binaries'])}",
            _fmt_ratio(float(r["estimate"])),
            f"[{float(r['fieller_t_lower']):.4f}, {float(r['fieller_t_upper']):.4f}]",
            f"[{float(r['bootstrap_lower']):.4f}, {float(r['bootstrap_upper']):.4f}]",
            "yes" if str(r["contains_injected"]).lower() in ("true", "1") else "NO",
            cpu,
        ])
    out += [
        f"Ratio of mean iteration times new/old with its {level} intervals (Fieller with t, "
        "the RRR bootstrap of esize), and as a diagnostic the same ratio of mean CPU times "
        "(Fieller, t): waiting for a CPU counts in the wall time only.",
        "",
        pd.DataFrame(tab, columns=["variant", "base", "injected", "builds (base / variant)",
                                   "full-data ratio", "Fieller (t)", "bootstrap RRR",
                                   "contains injected", "CPU-time ratio [Fieller t]"]
                     ).to_markdown(index=False, disable_numparse=True),
        "",
    ]
    if not references:  # no table without rows
        out = []
    if not cov or not verd:
        return "\n".join(out) + "\n"
    n_max = max((int(r["comparisons"]) for r in cov), default=0)
    out += [
        f"{heading} Coverage when the experiment is subsampled",
        "",
        f"Share (%) of {level} intervals that contain the injected ratio, and the full-data "
        f"ratio, ± Monte Carlo standard error ({n_max} subsampled comparisons per row); "
        "`below`/`above`: the share's 95 % Wilson interval lies wholly below/above the "
        f"nominal {level}; `undecided`: it holds it. Half-width: median, % of the estimate.",
        "",
    ]
    tab = [[r["variant"], str(int(r["size"])), r["method"],
            f"{_pct(r['coverage'], r['coverage_se'])} {r['coverage_call']}",
            f"{_pct(r['coverage_full'], r['coverage_full_se'])} {r['coverage_full_call']}",
            f"{float(r['median_halfwidth_pct']):.2f}"] for r in cov]
    out += [pd.DataFrame(tab, columns=["variant", "binaries (each)", "method",
                                       "contains injected", "contains full-data ratio",
                                       "half-width %"]).to_markdown(index=False,
                                                                    disable_numparse=True), ""]
    thresholds = sorted({float(r["threshold_pct"]) for r in verd})
    cells: dict = {}
    for r in verd:
        key = (r["variant"], int(r["size"]), r["method"])
        shares = [f"{v[:4] if v != 'inconclusive' else 'inc'} {_pct(r[v], r[v + '_se'])}"
                  for v in VERDICTS if float(r[v]) > 0]
        txt = "; ".join(shares)
        if float(r["wrong"]) > 0:
            txt += f"; **wrong {_pct(r['wrong'], r['wrong_se'])}**"
        cells.setdefault(key, {})[float(r["threshold_pct"])] = txt
    out += [
        f"{heading} Verdicts",
        "",
        "Share (%) of each verdict of `esize.verdict` ± Monte Carlo standard error, at each "
        "threshold: `slow`er (the interval lies above 1 + t), `same` (within [1 - t, 1 + t]), "
        "`fast`er (below 1 - t), `inc`onclusive; verdicts with no share are left out. "
        "**wrong**: the share of verdicts that are false about the injected ratio (a change "
        "claimed beyond the threshold that is not, or `same` when it is).",
        "",
    ]
    tab = [[v, str(s), m] + [cells[(v, s, m)].get(t, "-") for t in thresholds]
           for (v, s, m) in cells]
    out += [pd.DataFrame(tab, columns=["variant", "binaries (each)", "method"]
                         + [f"t = {t:g} %" for t in thresholds]).to_markdown(
        index=False, disable_numparse=True), ""]
    return "\n".join(out) + "\n"
