"""Statements of Section "Coverage" that had no row before (issue 42).

That the fall of fCOVR's coverage with the executions is "first good" (it corrects an
over-coverage before it goes too low), and the summary's statement that Fieller's
condition fails only with 2 or 3 binaries or executions, judged on the per-cell
counts of unbounded sets. One :class:`esize_study.claims.claim.Spec` row each, each
rule able to fail.
"""

from __future__ import annotations

import math

import numpy as np

from ..estimate.rates import normal_interval, proportion_interval, z_for
from .claim import AGREE, DISAGREE, PARTLY, Spec, band, combine, decide
from .coverage_data import CoverageData as _Data
from .coverage_data import is_fft
from .coverage_data import pct as _pct

__all__ = ["CLAIMS"]


def _first_good(spec: Spec, d: _Data):
    """fCOVR: each curve's peak decidedly over 95 % (over-coverage), and a later point
    decidedly closer to 95 % than the peak (the fall first corrects it); asymptotic on
    every benchmark, RRR bootstrap on the non-FFT benchmarks."""
    curves = []
    for method, scheme, which in (("asymptotic", "-", "all"), ("bootstrap", "RRR", "nonfft")):
        for b in d.names:
            if which == "nonfft" and is_fft(b):
                continue
            sel = d.sel("fCOVR", method, scheme, b).sort_values("executions")
            if len(sel) >= 2:
                n = sel["experiments"].to_numpy()
                # a coverage of 0 or 1 has a zero standard error: one experiment's worth
                se = np.maximum(sel["se"].to_numpy(), 1.0 / n)
                curves.append((method, b, sel["executions"].to_numpy(),
                               sel["coverage"].to_numpy(), se, n))
    if not curves:
        return None
    z = z_for(2 * len(curves))
    over95, over0 = band("over", "95"), band("over", "0", scale=1)
    parts, miss, vals = [], [], {}
    for method, b, es, cov, se, n in curves:
        j = int(np.argmax(cov))
        peak = decide(proportion_interval(float(cov[j]), int(n[j]), z), over95)
        later = range(j + 1, es.size)
        if later:
            gain = [(cov[j] - 0.95) - abs(cov[i] - 0.95) for i in later]
            i = j + 1 + int(np.argmax(gain))
            g = float(max(gain))
            closer = decide(normal_interval(g, math.hypot(se[j], se[i]), z), over0)
        else:
            i, g, closer = j, math.nan, DISAGREE
        v = combine([peak, closer])
        v = DISAGREE if v == PARTLY else v  # one curve: both parts or it does not hold
        parts.append(v)
        vals[f"{b}, {method}"] = {"peak": float(cov[j]), "at": int(es[j]),
                                  "closest": float(cov[i]), "closest_at": int(es[i])}
        if v != AGREE:
            miss.append(f"{b}, {method}: peak {_pct(cov[j])} at {int(es[j])} executions "
                        f"({peak}), closest to 95 % afterwards {_pct(cov[i])} at {int(es[i])} "
                        f"({closer})")
    asy = [x for x in vals if x.endswith("asymptotic")]
    peaks = [vals[x]["peak"] for x in vals]
    return spec.claim(f"{len(parts)} curves ({len(asy)} asymptotic, {len(parts) - len(asy)} "
                      f"bootstrap); peaks {_pct(min(peaks))} to {_pct(max(peaks))}",
                      f"<= {_pct(float(max(float(np.max(c[4])) for c in curves)), 2)}",
                      combine(parts),
                      "every asymptotic curve and every non-FFT bootstrap curve: its peak "
                      f"over 95 % -> {over95.text()} (the over-coverage), and a later point "
                      "decidedly closer to 95 % than the peak (the fall first corrects it)",
                      ("not in agreement: " + "; ".join(miss[:8])
                       + (f"; and {len(miss) - 8} more" if len(miss) > 8 else "")) if miss
                      else "", curves=vals)


def _fieller_small(spec: Spec, d: _Data):
    """Unbounded Fieller sets only where the top level has 2 or 3 units."""
    counts = d.counts
    if counts is None or counts.empty:
        return None
    c = counts[(counts["mode"] == "approx") & (counts["method"] != "bootstrap")].copy()
    if c.empty:
        return None
    c["top"] = np.where(c["binaries"] > 1, c["binaries"], c["executions"])
    unb = c[c["unbounded"] > 0]
    big = unb[unb["top"] > 3]
    items = [f"{r.benchmark}, {r.experiment}, {r.method}, {int(r.top)} "
             f"{'binaries' if r.binaries > 1 else 'executions'}: {int(r.unbounded)} of {int(r.n)}"
             for r in big.sort_values("top").itertuples()]
    top = int(unb["top"].max()) if not unb.empty else 0
    return spec.claim(f"unbounded sets in {len(unb)} of {len(c)} cells; largest top-level size "
                      f"with one: {top if top else 'none'}; {len(big)} cells with 4 or more",
                      "-", AGREE if big.empty else DISAGREE,
                      "'never for larger sample sizes': no unbounded Fieller set (asymptotic or "
                      "normal-quantile) where the top level has 4 or more units",
                      ("unbounded with 4 or more units: " + "; ".join(items[:8])
                       + (f"; and {len(items) - 8} more" if len(items) > 8 else ""))
                      if items else "", cells=int(len(big)),
                      largest=top)


_S = Spec

#: Statements of Section "Coverage" (and of the summary of the evaluation) added for
#: issue 42.
CLAIMS: tuple[Spec, ...] = (
    _S("cov.fcovr.first-good", "fCOVR", "the fall with the executions is first good: it "
       "corrects the over-coverage of the asymptotic method (all benchmarks) and of the "
       "bootstrap (non-FFT benchmarks)", "first good", _first_good),
    _S("cov.fieller-2-or-3", "all", "summary of the evaluation: Fieller's condition failed only "
       "with 2 or 3 binaries/executions, never with more", "only 2 or 3", _fieller_small),
)
