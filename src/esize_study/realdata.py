r"""A measured dataset beside the Mono-style one: its variance structure, its own
costs, the warm-up rule, false alarms on its pool, its known effects.

The functions here turn the pipeline's outputs for a measured (directory) dataset
into the report section ``report_measured.md``:

* :func:`load_steady` and :func:`load_cpu` read a raw tidy file as the pipeline's
  ``ingest`` rule does (warm-up dropped), the second the CPU-time column if present;
* :func:`warmup_check` sets the fixed warm-up cut beside :func:`esize.auto_warmup` on
  a few executions and the mean profile of the iterations;
* :class:`MeasuredCost` and :func:`cost_model` express the measured costs (build time,
  process start-up, warm-up) in measurements, and :func:`dimensioning_rows` plans
  the experiment from the dataset's own estimates and costs;
* :func:`variance_rows` says which level dominates and where :math:`T^2 \le 0`,
  beside the paper's Table tVariations;
* :func:`false_alarm_rows` summarises the false-alarm simulations on the pool;
* :func:`render_report` writes the section;
* :func:`write_sample` cuts the small committed sample the tests run on
  (``python -m esize_study.realdata sample SRC DST``).
"""

from __future__ import annotations

import json
import math
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from esize import Design, EsizeError, auto_warmup, critical_value, from_tidy
from esize import t2 as unbiased_t2

from . import paper
from . import pipeline as pl
from . import reproduction as rp

__all__ = [
    "load_steady",
    "load_cpu",
    "warmup_check",
    "MeasuredCost",
    "cost_model",
    "dimensioning_rows",
    "DIMENSIONING_COLUMNS",
    "variance_rows",
    "false_alarm_rows",
    "render_report",
    "costs_note",
    "conditions_note",
    "known_effect_section",
    "write_sample",
    "SAMPLE_SHAPE",
]

#: Binaries, executions and iterations (warm-up included) kept by :func:`write_sample`.
SAMPLE_SHAPE = (6, 4, 12)
#: Level names of a measured dataset, highest first (the paper's names).
LEVELS = paper.LEVELS


# -- reading -----------------------------------------------------------------------------
def load_steady(path: str | Path, warmup_fraction: float) -> tuple[Design, dict]:
    """The steady-state design of one raw benchmark file, as the ``ingest`` rule makes it.

    Returns
    -------
    Design, dict
        The design without the first ``warmup`` iterations of every execution, and
        ``{"raw": iterations per execution, "warmup": iterations dropped}``.
    """
    design, raw = pl.load_benchmark_file(path)
    warmup = pl.warmup_for(warmup_fraction, raw)
    return design.trim(warmup), {"raw": raw, "warmup": warmup}


def load_cpu(path: str | Path, warmup: int) -> Design | None:
    """The ``cpu_time`` column of a raw file as a steady-state design, or None without it."""
    frame = pl.read_table(path)
    if "cpu_time" not in frame.columns:
        return None
    frame = frame.sort_values(["binary", "execution", "iteration"], kind="stable")
    d = from_tidy(frame, ["binary", "execution"], value="cpu_time")
    if np.any(~np.isfinite(d.data)) or np.any(d.data <= 0):
        return None
    return d.trim(warmup)


# -- the warm-up rule --------------------------------------------------------------------
def _spread(n: int, k: int) -> np.ndarray:
    """``min(k, n)`` indices spread evenly over ``0 .. n-1``."""
    return np.unique(np.linspace(0, n - 1, min(k, n)).round().astype(int))


def _excess(values: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """Mean and standard error over executions of ``values / ref - 1`` (per execution)."""
    d = (values / ref - 1.0).ravel()
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else math.nan


def warmup_check(raw: Design, warmup: int, *, binaries: int = 5, executions: int = 2,
                 name: str | None = None, cpu: Design | None = None) -> dict:
    """The fixed warm-up cut beside what the data show.

    Parameters
    ----------
    raw : Design
        All iterations of every execution (warm-up included), three levels.
    warmup : int
        Iterations the pipeline drops from each execution.
    binaries, executions : int
        :func:`esize.auto_warmup` runs on ``binaries x executions`` executions spread
        evenly over the design (a few, as a check; it needs the ruptures package).
    name : str, optional
        Benchmark name for messages.
    cpu : Design, optional
        The same iterations' CPU times (all of them): ``cpu_after`` and
        ``cpu_after_se`` then give ``after`` for them, which tells a compute warm-up
        left past the cut from time spent waiting for a CPU.

    Returns
    -------
    dict
        ``warmup``, ``iterations``; ``auto_*``: the executions checked, their cuts
        (median and largest among those with a steady state), the classes and the
        balanced ``kept`` count; ``first``, ``early``, ``late``: the mean relative
        excess over each execution's steady mean (iterations after the cut) of its
        first iteration, of iterations 2 to ``warmup // 2`` and of the rest of the
        warm-up, and ``after``: of the 5 iterations right after the cut over the
        iterations after them, each with its standard error over executions
        (``*_se``). An ``after`` consistent with 0 means no warm-up is left past the
        cut.
    """
    y = raw.data
    nb, ne, n = y.shape
    if not 0 < warmup < n - 1:
        raise EsizeError(f"{name or 'benchmark'}: warm-up {warmup} of {n} iterations leaves "
                         "nothing to check")
    groups = [y[b, e] for b in _spread(nb, binaries) for e in _spread(ne, executions)]
    rep = auto_warmup(groups, benchmark=name)
    settled = [p.cut for p in rep.processes if p.classification != "no_steady_state"]
    steady = y[:, :, warmup:].mean(axis=2)
    out = {
        "benchmark": name,
        "iterations": n,
        "warmup": warmup,
        "auto_checked": len(groups),
        "auto_median_cut": float(np.median(settled)) if settled else math.nan,
        "auto_max_cut": int(max(settled)) if settled else None,
        "auto_kept": rep.kept,
        "auto_classes": ", ".join(f"{k} {v}" for k, v in rep.classes.items() if v),
    }
    half = max(2, warmup // 2)
    parts = {"first": (0, 1), "early": (1, half), "late": (half, warmup)}
    for key, (a, b) in parts.items():
        if b > a:
            out[key], out[key + "_se"] = _excess(y[:, :, a:b].mean(axis=2), steady)
        else:
            out[key], out[key + "_se"] = math.nan, math.nan
    m = min(5, (n - warmup) // 2)
    out["after"], out["after_se"] = _excess(y[:, :, warmup:warmup + m].mean(axis=2),
                                            y[:, :, warmup + m:].mean(axis=2))
    out["after_iterations"] = m
    out["cpu_after"], out["cpu_after_se"] = math.nan, math.nan
    if cpu is not None and cpu.shape == raw.shape:
        c = cpu.data
        out["cpu_after"], out["cpu_after_se"] = _excess(c[:, :, warmup:warmup + m].mean(axis=2),
                                                        c[:, :, warmup + m:].mean(axis=2))
    return out


# -- costs and dimensioning --------------------------------------------------------------
@dataclass(frozen=True)
class MeasuredCost:
    """Measured costs of one benchmark, in seconds; :attr:`costs` in measurements.

    The same interface as :class:`esize_study.reproduction.CostModel`, so that
    :func:`esize_study.reproduction.precision_rows` plans with it.

    Attributes
    ----------
    measurement_seconds : float
        Mean steady-state iteration time: the unit of every cost and budget.
    build_seconds : float
        Mean time to build one binary.
    execution_seconds : float
        What a further execution costs beyond its kept iterations: process start-up,
        input set-up and exit, plus the time of its dropped warm-up iterations.
    """

    measurement_seconds: float
    build_seconds: float
    execution_seconds: float

    @property
    def costs(self) -> tuple[float, float]:
        """``(c2, c1)``: a build and a further execution, in measurements."""
        return (self.build_seconds / self.measurement_seconds,
                self.execution_seconds / self.measurement_seconds)

    def budget(self, hours: float) -> float:
        return hours * 3600.0 / self.measurement_seconds


def cost_model(entry: Mapping, warmup: int) -> MeasuredCost:
    """The cost model of one benchmark from its entry in a costs file.

    Parameters
    ----------
    entry : mapping
        ``sets[benchmark]`` of the costs file, in seconds (the fields of
        :data:`esize_study.pipeline.COSTS_FIELDS`): ``steady_iteration_seconds.mean``,
        ``new_binary_seconds``, ``execution_overhead_seconds.mean`` and
        ``warmup_excess_seconds.mean`` (the warm-up iterations' time above the steady
        mean, summed per execution, as measured).
    warmup : int
        Iterations the pipeline drops. A further execution costs its start-up, its
        ``warmup`` dropped iterations at the steady time, and their excess (measured
        for the file's warm-up count; when the pipeline's differs, the excess is
        kept as measured, a small error as it sits in the first iterations).
    """
    problem = pl.costs_entry_problem(entry)
    if problem:
        keys, message = problem
        where = ": ".join(["costs file entry", *([".".join(keys)] if keys else [])])
        raise EsizeError(f"{where}: {message}")
    meas = float(entry["steady_iteration_seconds"]["mean"])
    build = float(entry["new_binary_seconds"])
    overhead = float(entry["execution_overhead_seconds"]["mean"])
    excess = float(entry["warmup_excess_seconds"]["mean"])
    return MeasuredCost(meas, build, overhead + warmup * meas + max(excess, 0.0))


#: Columns of ``measured_precisions.csv``.
DIMENSIONING_COLUMNS = (
    "benchmark", "budget", "hours", "c2", "c1", "n1", "n2", "binaries", "ours_pct",
    "default_pct", "dropped", "opt_n1", "opt_n2", "opt_binaries", "optimum_pct",
    "actual_pct",
)


def dimensioning_rows(estimates: Sequence[Mapping], costs: Mapping, hours: Sequence[float], *,
                      alpha: float = 0.05) -> list[dict]:
    """Table tPrecisions for a measured dataset, from its own estimates and costs.

    For every benchmark, at each of ``hours`` and at the budget its measurement
    actually took (``budget == "measured"``: its builds and its processes' wall time,
    from the costs file), the paper's procedure and our optimum
    (:func:`esize_study.reproduction.precision_rows`) with :func:`cost_model`. The
    measured-budget row also gives ``actual_pct``: the half-width of the interval for
    the mean of the design that was run (all binaries, Student's t).

    Parameters
    ----------
    estimates : sequence of mapping
        The ``variances`` rule's records (``benchmark``, ``S_pct``, ``counts``,
        ``warmup``, ``raw``).
    costs : mapping
        The costs file (``sets: {benchmark: ...}``).
    hours : sequence of float
    """
    rows = []
    for e in estimates:
        name = e["benchmark"]
        entry = costs["sets"].get(name)
        if entry is None:
            raise EsizeError(f"{name}: no entry in the costs file")
        cost = cost_model(entry, int(e["warmup"]))
        nb, ne, _ = e["counts"]
        try:
            spent = nb * cost.build_seconds + nb * ne * float(entry["process_seconds"]["mean"])
        except (KeyError, TypeError):
            spent = math.nan
        budgets = [(f"{h:g} h", float(h)) for h in hours]
        if math.isfinite(spent):
            budgets.append(("measured", spent / 3600.0))
        for label, h in budgets:
            for r in rp.precision_rows("data", name, e["S_pct"], e["counts"], cost, [h],
                                       alpha=alpha):
                row = {k: r[k] for k in ("n1", "n2", "binaries", "ours_pct", "default_pct",
                                         "dropped", "opt_n1", "opt_n2", "opt_binaries",
                                         "optimum_pct")}
                row.update(benchmark=name, budget=label, hours=h, c2=cost.costs[0],
                           c1=cost.costs[1], actual_pct=math.nan)
                if label == "measured":
                    row["actual_pct"] = (critical_value(alpha, nb - 1) * float(e["S_pct"][0])
                                         / math.sqrt(nb))
                rows.append(row)
    return rows


# -- the variance structure --------------------------------------------------------------
def _shares(t2: np.ndarray) -> np.ndarray:
    pos = np.clip(t2, 0.0, None)
    total = pos.sum()
    return pos / total if total > 0 else np.full(pos.shape, math.nan)


def cpu_estimates(files: Sequence[str | Path], estimates: Sequence[Mapping]) -> list[dict]:
    """Variance estimates of the CPU time of the same iterations, where files have it.

    Parameters
    ----------
    files : sequence of path
        The raw files, in the order of ``estimates``.
    estimates : sequence of mapping
        The wall-time estimates (for the benchmark names and warm-up counts).

    Returns
    -------
    list of dict
        ``benchmark``, ``S_pct``, ``T_pct``, ``T2``, ``counts`` per benchmark with a
        ``cpu_time`` column (the time the process ran, without the time it waited).
    """
    from esize import variance_components

    out = []
    for f, e in zip(files, estimates):
        d = load_cpu(f, int(e["warmup"]))
        if d is None:
            continue
        vc = variance_components(d)
        out.append({"benchmark": e["benchmark"], "S_pct": vc.S_pct.tolist(),
                    "T_pct": vc.T_pct.tolist(), "T2": vc.T2.tolist(), "counts": list(d.shape)})
    return out


def variance_rows(estimates: Sequence[Mapping], source: str = "data",
                  with_paper: bool = True) -> list[dict]:
    """Per benchmark: S and T per level, where :math:`T^2 \\le 0`, and which level
    dominates the variance of a single measurement (the largest share of the
    positive :math:`T^2`), with the same for the paper's benchmarks (Table tVariations,
    its counts).

    Parameters
    ----------
    estimates : sequence of mapping
        Records with ``benchmark``, ``S_pct``, ``T_pct``, ``T2`` (highest level first).
    source : str
        Label of these rows (``"data"``; ``"cpu"`` for :func:`cpu_estimates`).
    with_paper : bool
        Append the paper's rows (``source="paper"``).

    Returns
    -------
    list of dict
        ``source``, ``benchmark``, ``S_pct``, ``T_pct``,
        ``share`` (lists, highest level first), ``nonpositive`` (level names with
        :math:`T^2 \\le 0`) and ``dominant`` (level name).
    """
    rows = []
    for e in estimates:
        t2 = np.asarray(e["T2"], dtype=np.float64)
        share = _shares(t2)
        rows.append({
            "source": source, "benchmark": e["benchmark"],
            "S_pct": [float(x) for x in e["S_pct"]], "T_pct": [float(x) for x in e["T_pct"]],
            "share": [float(x) for x in share],
            "nonpositive": [LEVELS[k] for k in range(len(t2)) if t2[k] <= 0],
            "dominant": LEVELS[int(np.nanargmax(share))] if np.any(np.isfinite(share)) else "-",
        })
    for b in paper.BENCHMARKS if with_paper else ():
        s = np.asarray(paper.VARIATION_S[b], dtype=np.float64)
        counts = [paper.BINARIES, paper.EXECUTIONS, paper.steady_measurements(b)]
        t2 = unbiased_t2(s**2, counts)
        share = _shares(t2)
        rows.append({
            "source": "paper", "benchmark": b, "S_pct": s.tolist(),
            "T_pct": np.sqrt(np.clip(t2, 0, None)).tolist(), "share": share.tolist(),
            "nonpositive": [LEVELS[k] for k in range(3) if t2[k] <= 0],
            "dominant": LEVELS[int(np.nanargmax(share))],
        })
    return rows


# -- false alarms on the pool ------------------------------------------------------------
#: Sizes of the false-alarm experiments shown in the report (with the pool's own size).
FA_BINARIES = (2, 3, 5, 10, 20)
FA_EXECUTIONS = (2, 5)


def false_alarm_rows(table, pool: tuple[int, int], thresholds_pct: Sequence[float] = (0, 1, 2),
                     alpha: float = 0.05) -> list[dict]:
    """The false-alarm rates of the simulations on a measured pool, at a few thresholds.

    Parameters
    ----------
    table : DataFrame
        ``false_alarm.csv``.
    pool : (int, int)
        Binaries and executions per binary of the pool. The rows are those of
        :data:`FA_BINARIES` binaries and :data:`FA_EXECUTIONS` executions and of the
        pool's own sizes, where simulated; sizes beyond the pool (drawn with
        replacement, so possible) are left out.
    thresholds_pct : sequence of float
        Thresholds shown (those on the simulated grid).
    alpha : float
        The intervals' level: the rate at threshold 0 is called against it.

    Returns
    -------
    list of dict
        ``benchmark``, ``experiment`` (``binaries``: k binaries with all their
        executions, the paper's fFAFFT; ``executions``: one binary, e executions,
        fFA2L), ``method``, ``size``, and per threshold ``rate_<t>``, ``se_<t>``;
        ``call_0``: the rate at 0 against ``alpha`` (:func:`knowneffect.call`).
    """
    from .knowneffect import call

    rows = []
    have = sorted(set(table["threshold_pct"].astype(float)))
    shown = [t for t in thresholds_pct if any(abs(t - h) < 1e-9 for h in have)]
    kb = [k for k in (*FA_BINARIES, pool[0]) if k <= pool[0]]
    ke_ = [e for e in (*FA_EXECUTIONS, pool[1]) if e <= pool[1]]
    sel = table[
        ((table["experiment"] == "fFAFFT") & table["binaries"].isin(kb))
        | ((table["experiment"] == "fFA2L") & (table["binaries"] == 1)
           & table["executions"].isin(ke_))
    ]
    sel = sel[(sel["method"] != "bootstrap") | (sel["scheme"] == "RRR")]
    for (bench, exp, method, b, e), g in sel.groupby(
            ["benchmark", "experiment", "method", "binaries", "executions"], sort=True):
        kind = "binaries" if exp == "fFAFFT" else "executions"
        row = {"benchmark": bench, "experiment": kind,
               "method": method if method != "bootstrap" else "bootstrap-RRR",
               "size": int(b if kind == "binaries" else e),
               "comparisons": int(g["comparisons"].iloc[0])}
        for t in shown:
            hit = g[(g["threshold_pct"].astype(float) - t).abs() < 1e-9].iloc[0]
            row[f"rate_{t:g}"], row[f"se_{t:g}"] = float(hit["rate"]), float(hit["se"])
        if 0 in shown:
            row["call_0"] = call(row["rate_0"], row["comparisons"], alpha)
        rows.append(row)
    methods = {"asymptotic": 0, "normal": 1, "bootstrap-RRR": 2}
    rows.sort(key=lambda r: (r["benchmark"], r["experiment"] != "binaries",
                             methods.get(r["method"], 9), r["size"]))
    return rows


# -- the report section ------------------------------------------------------------------
def _f(x, nd: int = 1) -> str:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return "-"
    return "-" if not math.isfinite(x) else f"{x:.{nd}f}"


def _table(head: Sequence[str], body: Sequence[Sequence]) -> str:
    import pandas as pd

    return pd.DataFrame([list(map(str, r)) for r in body], columns=list(head)).to_markdown(
        index=False, disable_numparse=True)


def _variance_body(rows: Sequence[Mapping]) -> list[list[str]]:
    body = []
    for r in rows:
        cells = [f"{_f(s, 2)} / {_f(t, 2)}" + (" (T² ≤ 0)" if LEVELS[k] in r["nonpositive"] else "")
                 for k, (s, t) in enumerate(zip(r["S_pct"], r["T_pct"]))]
        shares = " / ".join(_f(100 * x, 0) for x in r["share"])
        body.append([("paper: " if r["source"] == "paper" else "") + r["benchmark"], *cells,
                     shares, r["dominant"]])
    return body


_VARIANCE_HEAD = ["benchmark", "compilation S / T", "execution S / T", "measurement S / T",
                  "share b / e / m", "dominant"]


def _variance_section(var_rows: Sequence[Mapping]) -> list[str]:
    data = [r for r in var_rows if r["source"] == "data"]
    ours = [r for r in var_rows if r["source"] == "paper"]
    cpu = [r for r in var_rows if r["source"] == "cpu"]
    body = _variance_body(data + ours)
    n_np = sum(1 for r in data if r["nonpositive"])
    levels_np = sorted({lv for r in data for lv in r["nonpositive"]}, key=LEVELS.index)
    dom = {}
    for r in data:
        dom.setdefault(r["dominant"], []).append(r["benchmark"])
    pdom: dict = {}
    paper_np: dict = {}
    for r in ours:
        pdom.setdefault(r["dominant"], []).append(r["benchmark"])
        for lv in r["nonpositive"]:
            paper_np.setdefault(lv, []).append(r["benchmark"])
    text = [
        "### Variance structure",
        "",
        "S % / T % of the grand mean per level (S: the biased estimate of the paper's "
        "Table tVariations; T: the unbiased one, shown as 0 where T² ≤ 0), the share (%) "
        "of each level in the variance of one measurement (positive T² only), and the "
        "dominant level, for this dataset and for the paper's ten Mono benchmarks.",
        "",
        _table(_VARIANCE_HEAD, body),
        "",
        "In this dataset the dominant level is "
        + "; ".join(f"{lv} for {', '.join(b)}" for lv, b in dom.items())
        + "; in the paper's it is "
        + "; ".join(f"{lv} for {len(b)} benchmarks" for lv, b in pdom.items()) + ". "
        + (f"T² ≤ 0 at the {' and '.join(levels_np)} level for {n_np} of {len(data)} "
           "benchmarks: there the variation between units of that level is no larger than "
           "what the levels below already explain, and the planning drops the level"
           + (" (in the paper's Table tVariations: " + "; ".join(
               f"the {lv} level of {', '.join(bs)}" for lv, bs in paper_np.items()) + ")."
              if paper_np else " (never in the paper's Table tVariations).")
           if n_np else "Every level has T² > 0 in every benchmark."),
        "",
    ]
    if cpu:
        cnp = [f"{r['benchmark']} (T {_f(r['T_pct'][0], 2)} %)" for r in cpu
               if "compilation" not in r["nonpositive"]]
        text += [
            "The same iterations' CPU time (a diagnostic: it leaves out the time a process "
            "waited for a CPU, which the wall time above includes):",
            "",
            _table(_VARIANCE_HEAD, _variance_body(cpu)),
            "",
            ("In CPU time the compilation level has T² > 0 for " + ", ".join(cnp)
             + ": there the layout effect of the builds shows, and in wall time it is "
             "hidden where the waiting (the machine's other load) varies more between "
             "executions and iterations than the layouts between builds."
             if cnp else
             "In CPU time too the compilation level has T² ≤ 0 for every benchmark: no "
             "layout effect shows above the variation of the levels below."),
            "",
        ]
    return text


def _warmup_section(checks: Sequence[Mapping], fraction: float) -> list[str]:
    if not checks:
        return []
    has_cpu = any(math.isfinite(c.get("cpu_after", math.nan)) for c in checks)
    body = []
    for c in checks:
        row = [c["benchmark"], f"{c['warmup']} of {c['iterations']}",
               f"{_f(100 * c['first'])} ± {_f(100 * c['first_se'])}",
               f"{_f(100 * c['early'])} ± {_f(100 * c['early_se'])}",
               f"{_f(100 * c['late'])} ± {_f(100 * c['late_se'])}",
               f"{_f(100 * c['after'])} ± {_f(100 * c['after_se'])}"]
        if has_cpu:
            row.append(f"{_f(100 * c['cpu_after'])} ± {_f(100 * c['cpu_after_se'])}")
        row.append(f"{_f(c['auto_median_cut'], 0)} / {c['auto_max_cut']} ({c['auto_checked']}: "
                   f"{c['auto_classes']})")
        body.append(row)

    def slow(c, key):
        v, se = c.get(key, math.nan), c.get(key + "_se", math.nan)
        return math.isfinite(v) and v > 2 * se

    left = [c["benchmark"] for c in checks if slow(c, "after")]
    compute = [c for c in checks if slow(c, "cpu_after")]
    waiting = [b for b in left if b not in {c["benchmark"] for c in compute}] if has_cpu else []
    # an excess e over the first m kept iterations shifts the mean of the n - w kept ones
    # by about e m / (n - w): from the point estimates where significant, and from the
    # upper ends (estimate + 2 standard errors) to see what the data cannot rule out
    def shift(c, upper):
        vals = [0.0]
        for key in ("after", "cpu_after"):
            v, se = c.get(key, math.nan), c.get(key + "_se", math.nan)
            if not math.isfinite(v):
                continue
            if upper:
                vals.append(v + 2 * (se if math.isfinite(se) else math.inf))
            elif slow(c, key):
                vals.append(v)
        return max(vals) * c["after_iterations"] / (c["iterations"] - c["warmup"])

    if not left and not compute:
        text = "After the cut the iterations are steady within two standard errors for every benchmark."
    else:
        parts = []
        if left:
            parts.append(f"Right after the cut the mean wall time is still higher for "
                         f"{', '.join(left)} (more than two standard errors)")
        if compute:
            parts.append("the CPU time is still higher for " + ", ".join(
                f"{c['benchmark']} ({_f(100 * c['cpu_after'])} ± {_f(100 * c['cpu_after_se'])} %)"
                for c in compute) + ": the program itself is still warming up a little")
        text = "; ".join(parts) + "."
        text = text[0].upper() + text[1:]
        if waiting:
            text += (f" Where only the wall time is higher ({', '.join(waiting)}), the excess "
                     "is time spent waiting for a CPU early in a process's life, not unfinished "
                     "warm-up of the program.")
    point = {c["benchmark"]: shift(c, False) for c in checks}
    high = {c["benchmark"]: shift(c, True) for c in checks}
    big = [b for b, v in point.items() if v >= 0.01]
    if big:
        text += (f" A longer cut would be warranted for {', '.join(big)}: the excess shifts "
                 f"their steady mean by up to {100 * max(point[b] for b in big):.2f} %.")
    elif max(high.values()) < 0.01:
        text += (" Any excess left shifts an execution's steady mean by less than "
                 f"{100 * max(high.values()):.2f} % (two standard errors), below 1 % and the same "
                 "for base and variant, so the fixed cut is kept.")
    else:
        unsure = [b for b, v in high.items() if v >= 0.01]
        text += (" The fixed cut is kept, but these data cannot rule out a warm-up left past "
                 f"it worth up to {100 * max(high.values()):.1f} % of the steady mean for "
                 f"{', '.join(unsure)}: too few executions or iterations to decide.")
    verdict = text
    head = ["benchmark", "dropped", "first", "2 to w/2", "w/2 to w", "after the cut"]
    if has_cpu:
        head.append("after the cut, CPU time")
    head.append("auto cut: median / max")
    return [
        "### Warm-up",
        "",
        f"The pipeline drops a fixed {100 * fraction:g} % of each execution "
        "(`warmup_fraction`, the paper's rule; w iterations). Beside it: "
        "the mean excess (%) of the first iteration, of iterations 2 to w/2 and of the rest "
        "of the warm-up over each execution's steady mean, of the first (up to 5) iterations "
        "after the cut over the later ones, in wall time"
        + (" and in CPU time" if has_cpu else "")
        + " (± standard error over executions), and the cuts `esize.auto_warmup` finds on a "
        "few executions spread over the design (median / largest among those with a steady "
        "state; classes).",
        "",
        _table(head, body),
        "",
        verdict,
        "",
    ]


def _dimensioning_section(rows: Sequence[Mapping], costs_note: str) -> list[str]:
    if not rows:
        return []
    body = []
    for r in rows:
        design = f"{r['binaries']} x {r['n2']} x {r['n1']}"
        opt = f"{r['opt_binaries']} x {r['opt_n2']} x {r['opt_n1']}"
        body.append([r["benchmark"], r["budget"], f"{_f(r['c2'], 0)} / {_f(r['c1'], 1)}",
                     f"{_f(r['ours_pct'], 2)} ({design})", f"{_f(r['optimum_pct'], 2)} ({opt})",
                     _f(r["default_pct"], 2), _f(r["actual_pct"], 2),
                     r["dropped"] or "-"])
    return [
        "### Dimensioning from this dataset's estimates and measured costs",
        "",
        costs_note,
        "",
        "Half-width (%) of the 95 % interval for the mean reachable within each budget: the "
        "paper's procedure (design binaries x executions x iterations), our optimum, the "
        "one-level default, and for the budget this dataset's measurement took per "
        "benchmark (`measured`) the half-width of the design that was run. Costs c2 / c1: "
        "a build / a further execution, in steady iterations.",
        "",
        _table(["benchmark", "budget", "c2 / c1", "paper's procedure", "optimum", "default",
                "as measured", "levels dropped"], body),
        "",
    ] + ([
        "Where T² ≤ 0 at the compilation level the plan drops that level: the paper's "
        "procedure then keeps the fewest builds an interval needs, 2, so its interval pays "
        "Student's t with 1 degree of freedom (12.7 at 95 %); the optimum counts the "
        "quantile and spreads the budget over many builds, which are cheap here.",
        "",
    ] if any("compilation" in str(r["dropped"]) for r in rows) else [])


def _false_alarm_section(rows: Sequence[Mapping], pool: tuple[int, int],
                         alpha: float, var_rows: Sequence[Mapping] = ()) -> list[str]:
    if not rows:
        return []
    ts = sorted({float(k[5:]) for r in rows for k in r if k.startswith("rate_")})
    benches = list(dict.fromkeys(r["benchmark"] for r in rows))
    order = {"fieller": 0, "asymptotic": 0, "normal": 1, "bootstrap-RRR": 2}
    keys = sorted({(r["experiment"], r["size"], r["method"]) for r in rows},
                  key=lambda x: (x[0] != "binaries", x[1], order.get(x[2], 9)))
    by = {(r["experiment"], r["size"], r["method"], r["benchmark"]): r for r in rows}
    out = [
        "### False alarms on the measured pool",
        "",
        f"Both systems are drawn (with replacement, as in the paper's experiment) from the "
        f"same pool of {pool[0]} binaries x {pool[1]} executions, so every verdict other "
        "than no change is a false alarm. `binaries`: k binaries with all their executions "
        "(the paper's fFAFFT, fFABoot; `asymptotic` is Fieller with t); `executions`: one "
        "binary, e executions, the binary level ignored (fFA2L). Rate (%) ± Monte Carlo "
        "standard error; at threshold 0 the rate is called against the nominal "
        f"{100 * alpha:g} % by its Wilson interval (`above`, `below`, `undecided`). The "
        "rates at every size and threshold are in `sim/false_alarm.csv`.",
        "",
    ]
    for t in ts:
        body = []
        for exp, size, method in keys:
            cells = []
            for b in benches:
                r = by.get((exp, size, method, b))
                if r is None:
                    cells.append("-")
                    continue
                txt = f"{_f(100 * r[f'rate_{t:g}'])} ± {_f(100 * r[f'se_{t:g}'])}"
                if t == 0 and "call_0" in r:
                    txt += f" {r['call_0']}"
                cells.append(txt)
            body.append([exp, str(size), method, *cells])
        out += [f"Threshold {t:g} %:", "",
                _table(["experiment", "size", "method", *benches], body), ""]
    high = [r for r in rows if r.get("call_0") == "above"]
    n0 = sum(1 for r in rows if "call_0" in r)
    hb = sum(1 for r in high if r["experiment"] == "binaries")
    he = sum(1 for r in high if r["experiment"] == "executions")
    out += [
        f"At threshold 0, {len(high)} of {n0} cells alarm more often than the nominal "
        f"{100 * alpha:g} % ({hb} in the binaries experiment, {he} when the binary level is "
        "ignored).",
        "",
    ]
    boot = [r for r in rows if r["experiment"] == "binaries" and r["method"] == "bootstrap-RRR"
            and "call_0" in r]
    low = {}
    for r in boot:
        low.setdefault(r["benchmark"], []).append(r["call_0"] == "below")
    mostly = [b for b, v in low.items() if sum(v) > len(v) / 2]
    flat = {r["benchmark"] for r in var_rows
            if r["source"] == "data" and "compilation" in r["nonpositive"]}
    if mostly:
        both = [b for b in mostly if b in flat]
        out += [
            f"The RRR bootstrap alarms less often than nominal for {', '.join(mostly)} (most "
            "of its cells `below`)"
            + (f"; of these, {', '.join(both)} have T² ≤ 0 at the compilation level: their "
               "binary means carry only the variance of the levels below, and resampling the "
               "executions and iterations inside each resampled binary counts that variance a "
               "second time, which widens its intervals" if both else "")
            + ".",
            "",
        ]
    if any(r["experiment"] == "executions" for r in rows):
        out += [
            f"In the executions experiment each system is one binary's {pool[1]} measured "
            "executions, drawn with replacement. Two binaries then differ by the means of "
            "their own executions even where the builds themselves do not differ (the spread "
            f"of binary means holds S² of the execution level / {pool[1]}), so the rates grow "
            "with e towards the pool size: they show what ignoring the binary level costs on "
            "this pool, and overstate it for an experiment with fresh executions.",
            "",
        ]
    return out


def _truthy(x) -> bool:
    return str(x).lower() in ("true", "1")


def _known_effect_summary(refs: Sequence[Mapping], cov: Sequence[Mapping],
                          verd: Sequence[Mapping]) -> list[str]:
    """A few sentences read off the known-effect tables."""
    if not cov or not verd:
        return []
    kmax = max(int(r["size"]) for r in cov)
    lines = []
    ratio = {r["variant"]: float(r["ratio"]) for r in refs}
    inside = {r["variant"] for r in refs if _truthy(r["contains_injected"])}
    full = {r["variant"]: float(r["estimate"]) for r in refs}
    up = [r for r in verd if int(r["size"]) == kmax and float(r["threshold_pct"]) == 0
          and ratio.get(r["variant"], 1.0) > 1.0 and r["method"] == "fieller-t"]
    if up:
        hw = [float(r["median_halfwidth_pct"]) for r in cov if int(r["size"]) == kmax]
        changes = sorted({round(100 * (ratio[r["variant"]] - 1), 6) for r in up})
        lines.append(
            f"Power: with {kmax} builds of each, the share of `slower` verdicts at threshold 0 "
            "(Fieller with t) is "
            + "; ".join(f"{100 * float(r['slower']):.1f} ± {100 * float(r['slower_se']):.1f} % "
                        f"for {r['variant']} (injected {ratio[r['variant']]:.2f}, full-data "
                        f"ratio {full[r['variant']]:.3f})" for r in up)
            + f"; the intervals' median half-widths at k = {kmax}, {min(hw):.1f} to "
            f"{max(hw):.1f} %, " + ("exceed" if min(hw) > max(changes) else "compare with")
            + f" the changes of {' and '.join(f'{c:g}' for c in changes)} %.")
    by = {(r["variant"], int(r["size"]), r["method"]): r for r in cov}
    ks = sorted({int(r["size"]) for r in cov})
    ratios = []
    for k in ks:
        q = [float(by[(v, k, "bootstrap-RRR")]["median_halfwidth_pct"])
             / float(by[(v, k, "fieller-t")]["median_halfwidth_pct"])
             for v in ratio if (v, k, "bootstrap-RRR") in by and (v, k, "fieller-t") in by]
        if q:
            ratios.append(f"{np.mean(q):.2f} at k = {k}")
    if ratios:
        lines.append("Width: the RRR bootstrap's median half-width over Fieller's with t is "
                     + ", ".join(ratios) + " (mean over variants).")
    w0 = [r for r in verd if float(r["threshold_pct"]) == 0]
    for group, label in ((inside, "whose full-data interval contains the injected ratio"),
                         (set(ratio) - inside, "whose full-data interval excludes it")):
        g = [r for r in w0 if r["variant"] in group]
        if g:
            worst = max(g, key=lambda r: float(r["wrong"]))
            lines.append(
                f"Wrong verdicts at threshold 0, variants {label}: at most "
                f"{100 * float(worst['wrong']):.1f} ± {100 * float(worst['wrong_se']):.1f} % "
                f"({worst['variant']}, k = {worst['size']}, {worst['method']}).")
    return [" ".join(lines), ""] if lines else []


def _reference_note(refs: Sequence[Mapping]) -> list[str]:
    if not refs:
        return []
    off = [r["variant"] for r in refs if not _truthy(r["contains_injected"])]
    cpu = [r for r in refs if r.get("cpu_contains_injected") not in (None, "")]
    cpu_in = [r["variant"] for r in cpu if _truthy(r["cpu_contains_injected"])]
    return [
        "Which reference? The intervals estimate the ratio of the two *populations'* mean "
        "times: layouts drawn from the same distribution for base and variant, processes "
        "interleaved in one random order, so that population ratio is the injected one "
        "whenever the time of an iteration grows in proportion to its work. The injected "
        "ratio is therefore the right reference, and coverage of it is what a user's "
        "interval achieves. But the subsamples come from one finite pool per program, "
        "whose own ratio (the full-data ratio) misses the injected one by its sampling "
        "error and by whatever the measurement did not randomise (load drift on a shared "
        "machine: waiting for a CPU is in the wall time, not in the CPU time). That offset "
        "is shared by every subsample, so coverage of the injected ratio measured here is "
        "conditional on the pool: it falls towards 0 as k grows whenever the full-data "
        "interval excludes the injected ratio"
        + (f" (here: {', '.join(off)})" if off else "")
        + (f". The CPU-time ratio of the full data contains the injected ratio for "
           f"{len(cpu_in)} of {len(cpu)} variants: the work changed as injected, and an offset "
           "in wall time is waiting, not work" if cpu else "")
        + ". Coverage of the full-data ratio removes that offset but is optimistic: a "
        "subsample of k of the pool's builds shares them with the full data, and the "
        "intervals ignore that finite-population correction (1 - k / builds), so it tends "
        "to 100 % as k approaches the pool size. Read the first for small k and the second "
        "as an upper bound; where they differ, the difference is the pool's, not the "
        "method's.",
        "",
    ]


def render_report(
    dataset: str,
    *,
    var_rows: Sequence[Mapping],
    warmup_checks: Sequence[Mapping],
    warmup_fraction: float,
    dimensioning: Sequence[Mapping],
    costs_note: str,
    fa_rows: Sequence[Mapping],
    pool: tuple[int, int],
    known_effect_md: str | None,
    references: Sequence[Mapping],
    conditions: str = "",
    alpha: float = 0.05,
    known_effect_rows: tuple[Sequence[Mapping], Sequence[Mapping]] = ((), ()),
) -> str:
    """The section ``## Measured data`` of the report (Markdown).

    Parameters are the outputs of the other functions of this module (and of
    :mod:`esize_study.knowneffect` for ``known_effect_md`` and ``references``);
    ``conditions`` is a sentence on how the data were measured;
    ``known_effect_rows`` the coverage and verdict rows, for a summary.
    """
    out = [
        f"## Measured data: {dataset}",
        "",
        f"A real three-level dataset ({pool[0]} binaries x {pool[1]} executions per "
        "benchmark), analysed as the paper analyses its Mono data: variance structure, "
        "dimensioning with its own costs, false alarms on its pool, and changes of known "
        "size. " + conditions,
        "",
    ]
    out += _variance_section(var_rows)
    out += _warmup_section(warmup_checks, warmup_fraction)
    out += _dimensioning_section(dimensioning, costs_note)
    out += _false_alarm_section(fa_rows, pool, alpha, var_rows)
    if known_effect_md:
        out += [
            "### Known effects",
            "",
            "Each variant does a known share more work per iteration than its base (`plus0`: "
            "the same program built again, an A/A comparison). Each row subsamples k builds of "
            "the base and k of the variant without replacement, all their executions and "
            "steady iterations.",
            "",
        ]
        out += _reference_note(references)
        out += _known_effect_summary(references, *known_effect_rows)
        out.append(known_effect_md.replace("\n### ", "\n#### ").replace("### ", "#### ", 1))
    return "\n".join(out).rstrip("\n") + "\n"


def costs_note(costs: Mapping, estimates: Sequence[Mapping]) -> str:
    """One paragraph on the measured costs of the benchmarks of ``estimates``."""
    ms = []
    for e in estimates:
        entry = costs["sets"].get(e["benchmark"])
        if entry is None:
            continue
        c = cost_model(entry, int(e["warmup"]))
        ms.append((c, float(entry["execution_overhead_seconds"]["mean"]), int(e["warmup"])))
    if not ms:
        return "The costs file has no entry for these benchmarks."
    build = [c.build_seconds for c, _, _ in ms]
    start = [o for _, o, _ in ms]
    it = [c.measurement_seconds for c, _, _ in ms]
    c2 = [c.costs[0] for c, _, _ in ms]
    c1 = [c.costs[1] for c, _, _ in ms]
    w = sorted({x for _, _, x in ms})
    return (
        f"Costs measured with the data (costs file): a build takes {min(build):.2f} to "
        f"{max(build):.2f} s (mean per benchmark), a process's start-up and exit "
        f"{1e3 * min(start):.1f} to {1e3 * max(start):.1f} ms, a steady iteration "
        f"{1e3 * min(it):.2f} to {1e3 * max(it):.2f} ms. In iterations a build costs c2 = "
        f"{min(c2):.0f} to {max(c2):.0f} and a further execution c1 = {min(c1):.1f} to "
        f"{max(c1):.1f} (start-up plus the {', '.join(map(str, w))} dropped warm-up "
        "iterations and their excess over the steady time); the paper's FFT had c2 = "
        f"{paper.FFT_BUILD_COST_MEASUREMENTS} and c1 = 19. Builds are cheap here, so the "
        "plans favour many binaries."
    )


def conditions_note(path: str | Path) -> str:
    """A sentence on how a measured dataset was measured, from its ``provenance.json``
    and ``costs.json`` when present (empty otherwise)."""
    path = Path(path)
    parts = []
    try:
        prov = json.loads((path / "provenance.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        prov = {}
    cpus = (prov.get("machine") or {}).get("cpus_online")
    load = ((prov.get("load") or {}).get("process_load_before") or {}).get("mean")
    if cpus and load is not None:
        parts.append(f"It was measured on a shared machine with {cpus} CPUs whose 1-minute "
                     f"load average was {float(load):.1f} on average while the processes ran")
    try:
        costs = json.loads((path / "costs.json").read_text(encoding="utf-8"))
        shares = [float(v["cpu_share"]["mean"]) for v in costs["sets"].values()
                  if isinstance(v.get("cpu_share"), Mapping)]
    except (OSError, ValueError, KeyError, TypeError):
        shares = []
    if shares:
        parts.append(f"the measured processes got {100 * float(np.mean(shares)):.0f} % of a "
                     "CPU on average (CPU time over wall time per iteration): the rest of the "
                     "wall time they waited")
    if not parts:
        return ""
    text = "; ".join(parts) + "."
    return text[0].upper() + text[1:]


def known_effect_section(coverage_csv: str | Path, verdicts_csv: str | Path,
                         references_csv: str | Path, alpha: float = 0.05) -> tuple[str, list]:
    """The known-effect tables as Markdown, from the ``known_effect_table`` rule's CSVs.

    Returns
    -------
    str, list of dict, list of dict, list of dict
        The Markdown (:func:`esize_study.knowneffect.render_markdown`), the
        reference, coverage and verdict rows.
    """
    import csv

    from . import knowneffect as ke

    def read(f):
        with open(f, newline="") as fh:
            return list(csv.DictReader(fh))

    refs = read(references_csv)
    floats = ("coverage", "coverage_se", "coverage_full", "coverage_full_se",
              "median_halfwidth_pct")
    cov = [{**r, "size": int(r["size"]), "comparisons": int(r["comparisons"]),
            **{k: float(r[k]) for k in floats}} for r in read(coverage_csv)]
    shares = [c for c in ke.VERDICT_COLUMNS if c.endswith("_se") or c + "_se" in ke.VERDICT_COLUMNS]
    verd = [{**r, "size": int(r["size"]), **{k: float(r[k]) for k in shares}}
            for r in read(verdicts_csv)]
    return ke.render_markdown(refs, cov, verd, alpha=alpha), refs, cov, verd


# -- the committed sample ----------------------------------------------------------------
def write_sample(src: str | Path, dst: str | Path, *, shape: tuple[int, int, int] = SAMPLE_SHAPE,
                 extra: Sequence[str] = ("cpu_time",), copy: Sequence[str] = ("costs.json",)) -> list[Path]:
    """Cut a small sample of a measured dataset: the first binaries, executions, iterations.

    Parameters
    ----------
    src, dst : path
        The dataset's directory and the sample's (created).
    shape : (int, int, int)
        Binaries, executions per binary and iterations per execution kept: those with
        the smallest labels (the first measured iterations, warm-up included).
    extra : sequence of str
        Columns kept beside ``binary, execution, iteration, time`` when present.
    copy : sequence of str
        Files copied unchanged (the measured costs).

    Returns
    -------
    list of Path
        The files written, data files first.
    """
    src, dst = Path(src), Path(dst)
    dst.mkdir(parents=True, exist_ok=True)
    nb, ne, ni = shape
    written = []
    for path in sorted(p for p in src.iterdir() if p.suffix.lower() in (".parquet", ".csv")):
        frame = pl.read_table(path)
        cols = [c for c in (*pl.TIDY_COLUMNS, *extra) if c in frame.columns]
        frame = frame[cols].sort_values(["binary", "execution", "iteration"], kind="stable")
        binaries = sorted(frame["binary"].unique())[:nb]
        frame = frame[frame["binary"].isin(binaries)]
        rank = frame.groupby("binary")["execution"].rank(method="dense")
        frame = frame[rank <= ne]
        rank = frame.groupby(["binary", "execution"])["iteration"].rank(method="first")
        frame = frame[rank <= ni].reset_index(drop=True)
        out = dst / (path.stem + ".parquet")
        pl.write_parquet(out, frame)
        written.append(out)
    for name in copy:
        if (src / name).is_file():
            shutil.copyfile(src / name, dst / name)
            written.append(dst / name)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m esize_study.realdata sample SRC DST [--shape B E I]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m esize_study.realdata")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="cut a small sample of a measured dataset")
    s.add_argument("src")
    s.add_argument("dst")
    s.add_argument("--shape", nargs=3, type=int, default=list(SAMPLE_SHAPE),
                   metavar=("BINARIES", "EXECUTIONS", "ITERATIONS"))
    args = parser.parse_args(argv)
    files = write_sample(args.src, args.dst, shape=tuple(args.shape))
    total = sum(f.stat().st_size for f in files)
    print(json.dumps({"files": len(files), "bytes": total}), file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
