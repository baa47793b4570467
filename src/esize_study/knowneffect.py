r"""Known-effect experiment: intervals for a change injected into measured programs.

A measured dataset may hold, beside a base benchmark ``b``, variants ``v`` whose only
difference is a known change: ``v`` does a fraction more work per iteration (the
injected ratio :math:`r`, e.g. 1.01), or none at all (``r = 1``: an independent set of
builds of the same program, an A/A comparison). Every variant was built independently
of its base (its own randomised layouts), so a comparison of ``v`` with ``b`` is what
a user comparing two versions of a program sees.

The experiment subsamples the data as a user's smaller experiment would look. For
each variant and each size ``k``, ``comparisons`` times:

* draw ``k`` binaries *without replacement* from the base's builds ("old") and ``k``
  from the variant's builds ("new"), each with all its executions and steady-state
  iterations;
* compute Fieller's interval for the ratio of means new/old with Student's t
  quantile (``k - 1`` degrees of freedom, :func:`esize.fieller_ci`'s rule for two
  systems of ``k`` binaries), the same with the normal quantile, and the percentile
  bootstrap with the RRR scheme;
* record the interval.

The table gives, per (variant, ``k``, method), the share of intervals that contain
the injected ratio and the share that contain the *full-data* ratio (all base builds
against all variant builds), and the verdicts of :func:`esize.verdict` at each
threshold, every share with its Monte Carlo standard error.

Speed
-----
The parametric intervals need only the drawn binaries' means. The bootstrap is
:mod:`esize_study.falsealarm`'s: binaries are resampled exactly, and the resampled
mean of one chosen binary is, in the default ``approx`` mode, a normal draw with its
exact RRR bootstrap mean and variance (``exact`` mode resamples every level with
:func:`esize.resample_means`; the false-alarm rules validate one against the other
on the same data, and the tests do it here).

Determinism
-----------
Block ``j`` of the cell of size ``k`` of variant ``v`` draws only from
``SeedSequence(seed, spawn_key=(id(v), 3, k, j, stream))`` (:func:`engine.generator`,
with ``id`` :func:`engine.bench_id` of the variant's name and 3 this experiment's code),
so results do not depend on how blocks are spread over jobs, shards or processes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from esize import (
    Design,
    EsizeError,
    bootstrap_ratio_ci,
    critical_value,
    fieller,
    fieller_ci,
    verdict,
)
from esize._estimators import RELATIVE_TOLERANCE

from . import falsealarm as fa
from .engine import generator, percentile_interval, run_tasks

__all__ = [
    "EXPERIMENT",
    "METHODS",
    "VERDICTS",
    "KnownEffectCell",
    "draw_binaries",
    "simulate_block",
    "simulate",
    "records_to_frame",
    "reference",
    "verdicts",
    "expected_verdict",
    "is_wrong",
    "wilson",
    "call",
    "coverage_rows",
    "verdict_rows",
    "COVERAGE_COLUMNS",
    "VERDICT_COLUMNS",
    "REFERENCE_COLUMNS",
    "render_markdown",
]

#: This experiment's code in the seed keys (the false-alarm experiments use 1 and 2).
EXPERIMENT = 3
#: Methods, in table order.
METHODS = ("fieller-t", "fieller-normal", "bootstrap-RRR")
#: Verdicts of :func:`esize.verdict`, in table order.
VERDICTS = ("slower", "same", "faster", "inconclusive")
# the same stream numbers as the false-alarm experiment's blocks
_STREAM_UNITS, _STREAM_BOOT_OLD, _STREAM_BOOT_NEW = (
    fa._STREAM_UNITS, fa._STREAM_BOOT_OLD, fa._STREAM_BOOT_NEW)


@dataclass(frozen=True)
class KnownEffectCell:
    """One simulated cell: ``comparisons`` subsampled comparisons of ``size`` binaries.

    Attributes
    ----------
    size : int
        Binaries drawn for each system (at least 2).
    comparisons : int
        Subsampled comparisons.
    resamples : int
        Bootstrap replicates per interval.
    alpha : float
        One minus the confidence level.
    mode : {"approx", "exact"}
        Bootstrap of :mod:`esize_study.falsealarm` (see the module notes).
    """

    size: int
    comparisons: int
    resamples: int
    alpha: float = 0.05
    mode: str = "approx"

    def blocks(self, block: int) -> int:
        """Number of blocks of ``block`` comparisons."""
        return math.ceil(self.comparisons / block)

    @property
    def key(self) -> tuple[int, int]:
        """The cell's part of the seed key: experiment code and size."""
        return (EXPERIMENT, self.size)


def draw_binaries(rng: np.random.Generator, n: int, k: int, c: int) -> np.ndarray:
    """``k`` of ``n`` binaries without replacement, independently for ``c`` comparisons.

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
        Binaries available.
    k : int
        Binaries drawn (``1 <= k <= n``).
    c : int
        Comparisons.

    Returns
    -------
    ndarray of int, shape (c, k)
        The first ``k`` entries of a uniformly random permutation per row (the ranks
        of ``n`` uniform keys), so every ``k``-subset is equally likely.
    """
    if not 1 <= k <= n:
        raise EsizeError(f"cannot draw {k} of {n} binaries without replacement")
    return np.argsort(rng.random((c, n)), axis=1, kind="stable")[:, :k]


def simulate_block(old: fa.BenchStats, new: fa.BenchStats, cell: KnownEffectCell, *,
                   seed: int, variant_id: int, block: int, block_size: int) -> list[dict]:
    """Simulate comparisons ``[block * block_size, ...)`` of ``cell``.

    Parameters
    ----------
    old, new : BenchStats
        Statistics of the base and of the variant (:func:`esize_study.falsealarm.bench_stats`).
    cell : KnownEffectCell
    seed, variant_id, block, block_size : int
        The seed key (see the module notes) and the block's place.

    Returns
    -------
    list of dict
        One record per method with arrays ``estimate``, ``lower``, ``upper`` and
        ``bounded`` (one entry per comparison of the block), and ``method``, ``size``,
        ``block``, ``first`` (the first comparison's number).
    """
    first = block * block_size
    c = min(block_size, cell.comparisons - first)
    if c <= 0:
        return []
    k = cell.size
    g_units = generator(seed, variant_id, cell.key, block, _STREAM_UNITS)
    g_old = generator(seed, variant_id, cell.key, block, _STREAM_BOOT_OLD)
    g_new = generator(seed, variant_id, cell.key, block, _STREAM_BOOT_NEW)
    uo = draw_binaries(g_units, old.shape[0], k, c)
    un = draw_binaries(g_units, new.shape[0], k, c)
    mo, mn = old.binary_means[uo], new.binary_means[un]
    xo, xn = mo.mean(axis=1), mn.mean(axis=1)
    vo, vn = mo.var(axis=1, ddof=1) / k, mn.var(axis=1, ddof=1) / k
    estimate = xn / xo
    records = []
    for method, q in (("fieller-t", critical_value(cell.alpha, k - 1)),
                      ("fieller-normal", critical_value(cell.alpha))):
        lo, hi, ok = fieller(xo, vo, xn, vn, q)
        records.append({"method": method, "estimate": estimate, "lower": lo, "upper": hi,
                        "bounded": np.asarray(ok)})
    spec = fa.CellSpec("binaries", k, cell.comparisons, cell.resamples, ("RRR",), cell.alpha,
                       cell.mode)
    # the false-alarm engine's bootstrap of systems made of the drawn binaries
    boot_old = fa._boot_binaries(old, uo, g_old, spec)["RRR"]
    boot_new = fa._boot_binaries(new, un, g_new, spec)["RRR"]
    lo, hi = percentile_interval(boot_new / boot_old, cell.alpha)
    records.append({"method": "bootstrap-RRR", "estimate": estimate, "lower": lo, "upper": hi,
                    "bounded": np.ones(c, dtype=bool)})
    for r in records:
        r.update(size=k, block=block, first=first)
    return records


def _block_task(old, new, cell, block, *, seed, variant_id, block_size):
    return simulate_block(old, new, cell, seed=seed, variant_id=variant_id, block=block,
                          block_size=block_size)


def simulate(
    old: fa.BenchStats,
    new: fa.BenchStats,
    cells: Sequence[KnownEffectCell],
    *,
    seed: int,
    variant_id: int,
    block_size: int = 50,
    n_jobs: int = 1,
    shard: tuple[int, int] = (0, 1),
) -> list[dict]:
    """Run every block of ``cells`` (or shard ``i`` of ``n`` of them).

    Records come back in task order; the union of all shards equals the unsharded
    run, whatever ``n_jobs`` (:func:`esize_study.engine.run_tasks`).

    Raises
    ------
    EsizeError
        A size below 2 or above the binaries either system has.
    """
    for cell in cells:
        if not 2 <= cell.size <= min(old.shape[0], new.shape[0]):
            raise EsizeError(
                f"known effect: {cell.size} binaries per system cannot be drawn without "
                f"replacement from {old.shape[0]} and {new.shape[0]} binaries (need 2..."
                f"{min(old.shape[0], new.shape[0])})"
            )
    fn = partial(_block_task, old, new, seed=seed, variant_id=variant_id, block_size=block_size)
    return run_tasks(fn, cells, lambda c: c.blocks(block_size), n_jobs=n_jobs, shard=shard)


def records_to_frame(records: Sequence[dict], variant: str):
    """One row per simulated interval: ``variant, size, method, comparison, estimate,
    lower, upper, bounded``, sorted by size, method and comparison."""
    import pandas as pd

    parts = [
        pd.DataFrame({
            "variant": variant,
            "size": r["size"],
            "method": r["method"],
            "comparison": r["first"] + np.arange(len(r["lower"])),
            "estimate": r["estimate"],
            "lower": r["lower"],
            "upper": r["upper"],
            "bounded": r["bounded"],
        })
        for r in records
    ]
    frame = pd.concat(parts, ignore_index=True)
    order = {m: i for i, m in enumerate(METHODS)}
    frame = frame.assign(_m=frame["method"].map(order))
    frame = frame.sort_values(["size", "_m", "comparison"], kind="stable").drop(columns="_m")
    return frame.reset_index(drop=True)


# -- the full-data reference ------------------------------------------------------------
#: Columns of ``known_effect_references.csv``.
REFERENCE_COLUMNS = (
    "variant", "base", "ratio", "base_binaries", "variant_binaries", "estimate",
    "fieller_t_lower", "fieller_t_upper", "fieller_normal_lower", "fieller_normal_upper",
    "bootstrap_lower", "bootstrap_upper", "bootstrap_resamples", "contains_injected",
    "cpu_estimate", "cpu_lower", "cpu_upper", "cpu_contains_injected",
)


def reference(old: Design, new: Design, *, ratio: float, alpha: float = 0.05,
              resamples: int = 2000, seed: int = 0, variant_id: int = 0,
              cpu_old: Design | None = None, cpu_new: Design | None = None) -> dict:
    """The full-data ratio of means (every build of both) with its intervals.

    Parameters
    ----------
    old, new : Design
        Steady-state designs of the base and of the variant (all binaries).
    ratio : float
        The injected ratio, to say whether each interval contains it.
    alpha : float
    resamples : int
        Replicates of the library's RRR bootstrap (:func:`esize.bootstrap_ratio_ci`),
        seeded by ``SeedSequence(seed, spawn_key=(variant_id, 3))``, a key no block of
        the subsampling draws from.
    cpu_old, cpu_new : Design, optional
        The same iterations' CPU times: their Fieller (t) interval as a diagnostic
        (time the process spent waiting for a CPU is in the wall time only).

    Returns
    -------
    dict
        The keys of :data:`REFERENCE_COLUMNS` but ``variant``, ``base``.
    """
    ft = fieller_ci(old, new, alpha=alpha)
    fn = fieller_ci(old, new, alpha=alpha, normal=True)
    rng = np.random.SeedSequence(seed, spawn_key=(variant_id, EXPERIMENT))
    bs = bootstrap_ratio_ci(old, new, scheme="RRR", n_resamples=resamples, alpha=alpha, rng=rng,
                            workers=1)
    out = {
        "ratio": float(ratio),
        "base_binaries": old.shape[0],
        "variant_binaries": new.shape[0],
        "estimate": ft.estimate,
        "fieller_t_lower": ft.lower, "fieller_t_upper": ft.upper,
        "fieller_normal_lower": fn.lower, "fieller_normal_upper": fn.upper,
        "bootstrap_lower": bs.lower, "bootstrap_upper": bs.upper,
        "bootstrap_resamples": int(resamples),
        "contains_injected": bool(ft.lower <= ratio <= ft.upper),
        "cpu_estimate": None, "cpu_lower": None, "cpu_upper": None,
        "cpu_contains_injected": None,
    }
    if cpu_old is not None and cpu_new is not None:
        c = fieller_ci(cpu_old, cpu_new, alpha=alpha)
        out.update(cpu_estimate=c.estimate, cpu_lower=c.lower, cpu_upper=c.upper,
                   cpu_contains_injected=bool(c.lower <= ratio <= c.upper))
    return out


# -- verdicts, shares and their Monte Carlo errors ---------------------------------------
_verdict = np.vectorize(
    lambda lo, hi, ok, t: verdict(lo, hi, t, bounded=bool(ok)), otypes=[object]
)


def verdicts(lower, upper, bounded, threshold: float) -> np.ndarray:
    """:func:`esize.verdict` of every interval at ``threshold`` (a fraction).

    Returns
    -------
    ndarray of str
        ``"faster"``, ``"slower"``, ``"same"`` or ``"inconclusive"`` per interval.
    """
    return _verdict(np.asarray(lower, dtype=np.float64), np.asarray(upper, dtype=np.float64),
                    np.asarray(bounded, dtype=bool), float(threshold)).astype(str)


def expected_verdict(ratio: float, threshold: float) -> str:
    """The verdict the true ratio calls for at ``threshold`` (a fraction).

    ``"slower"`` when the ratio exceeds ``1 + t``, ``"faster"`` below ``1 - t``,
    ``"same"`` within ``[1 - t, 1 + t]`` for ``t > 0`` (the boundary belongs to it, as
    in :func:`esize.verdict`), and ``"inconclusive"`` for no change at ``t = 0``
    (no interval can show that two systems are the same at threshold 0).
    """
    hi = (1.0 + threshold) * (1.0 + RELATIVE_TOLERANCE)
    lo = (1.0 - threshold) * (1.0 - RELATIVE_TOLERANCE)
    if ratio > hi:
        return "slower"
    if ratio < lo:
        return "faster"
    return "same" if threshold > 0 else "inconclusive"


def is_wrong(found: np.ndarray, ratio: float, threshold: float) -> np.ndarray:
    """Whether each verdict states something false about the true ``ratio``.

    ``"slower"`` claims a ratio above ``1 + t``, ``"faster"`` one below ``1 - t``,
    ``"same"`` one within ``[1 - t, 1 + t]``; ``"inconclusive"`` claims nothing. A
    ratio within a relative :math:`10^{-12}` of a boundary counts as on it.
    """
    found = np.asarray(found)
    hi = (1.0 + threshold) * (1.0 + RELATIVE_TOLERANCE)
    lo = (1.0 - threshold) * (1.0 - RELATIVE_TOLERANCE)
    return (
        ((found == "slower") & (ratio <= hi))
        | ((found == "faster") & (ratio >= lo))
        | ((found == "same") & ((ratio > hi) | (ratio < lo)))
    )


def wilson(p: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a binomial share ``p`` of ``n`` trials (about 95 %)."""
    if n <= 0:
        return (math.nan, math.nan)
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def call(p: float, n: int, target: float) -> str:
    """``"below"``, ``"above"`` or ``"undecided"``: the share ``p`` of ``n`` against
    ``target``, by its Wilson interval (undecided when the interval holds the target)."""
    lo, hi = wilson(p, n)
    if hi < target:
        return "below"
    if lo > target:
        return "above"
    return "undecided"


def _se(p: float, n: int) -> float:
    return math.sqrt(p * (1 - p) / n) if n > 0 else math.nan


def _contains(g, value: float) -> np.ndarray:
    lo, hi = g["lower"].to_numpy(), g["upper"].to_numpy()
    return (lo <= value) & (value <= hi)


#: Columns of ``known_effects.csv``.
COVERAGE_COLUMNS = (
    "variant", "base", "ratio", "full_ratio", "size", "method", "comparisons", "unbounded",
    "coverage", "coverage_se", "coverage_call", "coverage_full", "coverage_full_se",
    "coverage_full_call", "median_halfwidth_pct",
)
#: Columns of ``known_effect_verdicts.csv``.
VERDICT_COLUMNS = (
    "variant", "base", "ratio", "size", "method", "threshold_pct", "comparisons", "expected",
    "slower", "slower_se", "same", "same_se", "faster", "faster_se", "inconclusive",
    "inconclusive_se", "wrong", "wrong_se",
)


def _groups(frame):
    order = {m: i for i, m in enumerate(METHODS)}
    keys = sorted(
        {(v, int(s), m) for v, s, m in zip(frame["variant"], frame["size"], frame["method"])},
        key=lambda x: (x[0], x[1], order.get(x[2], 99)),
    )
    by = dict(tuple(frame.groupby(["variant", "size", "method"], sort=False)))
    return [(k, by[k]) for k in keys]


def coverage_rows(frame, info: Mapping[str, Mapping], alpha: float = 0.05) -> list[dict]:
    """Rows of ``known_effects.csv``: coverage of the injected and full-data ratios.

    Parameters
    ----------
    frame : DataFrame
        Per-interval results (:func:`records_to_frame`), any number of variants.
    info : mapping
        Per variant name: ``base`` (name), ``ratio`` (injected) and ``full_ratio``
        (the full-data estimate, :func:`reference`).
    alpha : float
        The intervals' level: coverage is called against ``1 - alpha``.
    """
    rows = []
    for (variant, size, method), g in _groups(frame):
        inf = info[variant]
        n = len(g)
        cov = float(_contains(g, inf["ratio"]).mean())
        full = float(_contains(g, inf["full_ratio"]).mean())
        ok = g["bounded"].to_numpy()
        half = 50.0 * (g["upper"] - g["lower"]).to_numpy()[ok] / g["estimate"].to_numpy()[ok]
        rows.append({
            "variant": variant, "base": inf["base"], "ratio": inf["ratio"],
            "full_ratio": inf["full_ratio"], "size": size, "method": method,
            "comparisons": n, "unbounded": int((~ok).sum()),
            "coverage": cov, "coverage_se": _se(cov, n), "coverage_call": call(cov, n, 1 - alpha),
            "coverage_full": full, "coverage_full_se": _se(full, n),
            "coverage_full_call": call(full, n, 1 - alpha),
            "median_halfwidth_pct": float(np.median(half)) if half.size else math.nan,
        })
    return rows


def verdict_rows(frame, info: Mapping[str, Mapping], thresholds_pct: Sequence[float]) -> list[dict]:
    """Rows of ``known_effect_verdicts.csv``: shares of each verdict per threshold.

    ``wrong`` is the share of verdicts that state something false about the injected
    ratio (:func:`is_wrong`); ``expected`` is the verdict it calls for
    (:func:`expected_verdict`).
    """
    rows = []
    for (variant, size, method), g in _groups(frame):
        inf = info[variant]
        n = len(g)
        for tp in thresholds_pct:
            t = float(tp) / 100.0
            found = verdicts(g["lower"], g["upper"], g["bounded"], t)
            row = {"variant": variant, "base": inf["base"], "ratio": inf["ratio"], "size": size,
                   "method": method, "threshold_pct": float(tp), "comparisons": n,
                   "expected": expected_verdict(inf["ratio"], t)}
            for v in VERDICTS:
                p = float(np.mean(found == v))
                row[v], row[f"{v}_se"] = p, _se(p, n)
            w = float(np.mean(is_wrong(found, inf["ratio"], t)))
            row["wrong"], row["wrong_se"] = w, _se(w, n)
            rows.append(row)
    return rows


# -- Markdown ---------------------------------------------------------------------------
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
        Rows of :func:`coverage_rows` and :func:`verdict_rows`.
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
