"""A fourth level above the build: the measuring session.

A dataset whose files have a ``session`` column (and ``build``, the build's number
within its session) was measured on several occasions, each with builds of its own
(``measure/mono``). The paper's three levels stop at the binary; whatever changes
between sessions and is shared by every process of one (the machine's state, the
host's load, the page cache) then looks like build-to-build variation when the
sessions are pooled, and is invisible within one session. This module measures it:

* :func:`session_variances`: :math:`S` and :math:`T^2` of every level of the
  four-level design session > build > execution > iteration, per file;
* :func:`session_means`: each session's mean relative to the file's, per file;
* :func:`session_intervals`: the ratio intervals of known effects within each
  session (three levels), pooled with the sessions ignored (three levels, every
  build one unit) and pooled with the session as the top level (four levels);
* :func:`paired_session_intervals`: the same ratios with the session as a block
  shared by both systems (not registered before the data; reported beside);
* :func:`judge_rules`: the rules ``R1``-``R3`` written before the data
  (``measure/mono/prereg/2026-11-28.md``), judged on those intervals.

Every function is pure: it takes tidy frames and returns rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from esize import Design, fieller_ci, from_tidy, variance_components

__all__ = [
    "has_sessions",
    "four_level",
    "session_variances",
    "session_means",
    "session_intervals",
    "sessions_needed",
    "paired_session_intervals",
    "binomial_ok",
    "binomial_rule",
    "judge_rules",
    "SESSION_LEVELS",
]

#: The four levels, highest first.
SESSION_LEVELS = ("session", "build", "execution", "iteration")


def has_sessions(frame) -> bool:
    """Whether a raw tidy frame carries the session level (and more than one session)."""
    return {"session", "build"} <= set(frame.columns) and frame["session"].nunique() > 1


def four_level(frame, warmup: int) -> Design:
    """The wall times as session > build > execution > iteration, warm-up dropped."""
    f = frame.sort_values(["session", "build", "execution", "iteration"], kind="stable")
    d = from_tidy(f, ["session", "build", "execution"], value="time", lowest="iteration")
    return d.trim(warmup)


def _three(design: Design) -> Design:
    """Sessions pooled: every (session, build) one build of a three-level design."""
    s, b, e, n = design.shape
    return Design(design.data.reshape(s * b, e, n), ("binary", "execution", "iteration"))


def _session(design: Design, k: int) -> Design:
    return Design(design.data[k], ("binary", "execution", "iteration"))


def session_variances(designs: Mapping[str, Design]) -> list[dict]:
    """Per file: the design, S (% of the mean) and whether T^2 > 0 at every level."""
    rows = []
    for name, d in designs.items():
        vc = variance_components(d)
        rows.append({"benchmark": name, "design": list(d.shape),
                     "S_pct": [float(x) for x in vc.S_pct],
                     "T_positive": [bool(x > 0) for x in vc.T2],
                     "T_pct": [float(100 * np.sqrt(max(x, 0.0)) / d.mean) for x in vc.T2]})
    return rows


def session_means(designs: Mapping[str, Design]) -> list[dict]:
    """Per file: each session's mean as a percentage above (or below) the mean over the
    file's sessions (``pct``, one number per session in order), after the warm-up cut.

    The sessions of one file are balanced, so the file's mean is the mean of its session
    means; the spread of these numbers is what level 1's :math:`S` summarises."""
    rows = []
    for name, d in designs.items():
        m = d.data.reshape(d.shape[0], -1).mean(axis=1)
        rows.append({"benchmark": name, "pct": [float(x) for x in 100 * (m / m.mean() - 1)]})
    return rows


def _row(variant, base, ratio, scope, ci) -> dict:
    return {"variant": variant, "base": base, "injected": float(ratio), "scope": scope,
            "estimate": ci.estimate, "lower": ci.lower, "upper": ci.upper,
            "bounded": ci.bounded, "contains_injected": ci.contains(ratio),
            "contains_one": ci.contains(1.0)}


def session_intervals(designs: Mapping[str, Design], variants: Mapping[str, Mapping],
                      alpha: float = 0.05) -> list[dict]:
    """Fieller intervals of ``variant / base`` for every known effect (``variants``:
    name -> ``{"base": name, "ratio": injected}``): one per session (``scope`` ``s1``,
    ``s2``, ...), ``pooled-3`` (sessions ignored) and ``pooled-4`` (the session the top
    level). Sessions are matched by position: both files must have the same number."""
    rows = []
    for v, spec in variants.items():
        b, r = spec["base"], spec["ratio"]
        dv, db = designs[v], designs[b]
        if dv.shape[0] != db.shape[0]:
            raise ValueError(f"{v} and {b} have different numbers of sessions")
        for k in range(dv.shape[0]):
            rows.append(_row(v, b, r, f"s{k + 1}",
                             fieller_ci(_session(db, k), _session(dv, k), alpha=alpha)))
        rows.append(_row(v, b, r, "pooled-3", fieller_ci(_three(db), _three(dv), alpha=alpha)))
        rows.append(_row(v, b, r, "pooled-4", fieller_ci(db, dv, alpha=alpha)))
    return rows


def sessions_needed(designs: Mapping[str, Design], variants: Mapping[str, Mapping],
                    alpha: float = 0.05, most: int = 200) -> list[dict]:
    r"""How many sessions the pooled four-level interval of each known effect (not the
    A/A ones) would need to lie above 1 (or below, for a ratio under 1), projected from
    the data.

    The four-level interval rests on the sessions' means: its variance is
    :math:`S_1^2 / n` for :math:`n` sessions, with :math:`S_1^2` the variance of the
    session means (level 1's :math:`S^2`, which already carries every lower level's
    share for the builds, executions and iterations a session has). Keeping each
    session as it was measured and the ratio at the injected :math:`r`, the delta
    method gives the half-width

    .. math::

        h(n) = t_{1-\alpha/2,\,n-1}\; r \sqrt{\frac{S^2_{1,A}}{n \bar y_A^2}
               + \frac{S^2_{1,B}}{n \bar y_B^2}},

    and the answer is the smallest :math:`n \ge 2` with :math:`|r - 1| > h(n)`
    (``None`` above ``most``). It is a projection: the session variance is itself
    estimated from few sessions.

    Returns
    -------
    list of dict
        ``variant``, ``base``, ``injected``, ``sessions`` (measured), ``needed`` and
        the projected ``half_width`` (relative) at that number.
    """
    from scipy.stats import t as student_t

    rel_var: dict[str, float] = {}  # S_1^2 / mean^2 per file, each base computed once

    def rel(name: str) -> float:
        if name not in rel_var:
            vc = variance_components(designs[name])
            rel_var[name] = float(vc.S2[0] / vc.mean ** 2)
        return rel_var[name]

    rows = []
    for v, spec in variants.items():
        r = float(spec["ratio"])
        if r == 1.0:
            continue
        n = np.arange(2, most + 1)
        h = student_t.ppf(1 - alpha / 2, n - 1) * r * np.sqrt((rel(spec["base"]) + rel(v)) / n)
        ok = np.flatnonzero(abs(r - 1) > h)
        need = int(n[ok[0]]) if ok.size else None
        rows.append({"variant": v, "base": spec["base"], "injected": r,
                     "sessions": int(designs[v].shape[0]), "needed": need,
                     "half_width": float(h[ok[0]] / r) if ok.size else None})
    return rows


def paired_session_intervals(designs: Mapping[str, Design], variants: Mapping[str, Mapping],
                             alpha: float = 0.05) -> list[dict]:
    r"""The ratio ``variant / base`` with the session as a block that both systems share:
    Student's t interval for the mean over sessions of the log of each session's ratio
    of means, :math:`d_k = \log(\bar y_{B,k} / \bar y_{A,k})`, transformed back:

    .. math::

        \exp\Big(\bar d \pm t_{1-\alpha/2,\,n-1}\, s_d / \sqrt{n}\Big).

    Where both systems are measured in the same sessions, interleaved, a shift shared
    by every process of a session moves both means alike and cancels in :math:`d_k`;
    the four-level interval of :func:`session_intervals` treats the two systems'
    session means as independent and keeps it. Sessions are matched by position.
    Each row also gives ``correlation``, the correlation of the two systems' session
    means. Not one of the rules written before the data.
    """
    from scipy.stats import t as student_t

    def means(d: Design) -> np.ndarray:
        return d.data.reshape(d.shape[0], -1).mean(axis=1)

    rows = []
    for v, spec in variants.items():
        b, r = spec["base"], float(spec["ratio"])
        ma, mb = means(designs[b]), means(designs[v])
        if ma.size != mb.size:
            raise ValueError(f"{v} and {b} have different numbers of sessions")
        d = np.log(mb / ma)
        n = d.size
        half = student_t.ppf(1 - alpha / 2, n - 1) * d.std(ddof=1) / np.sqrt(n)
        est, lo, hi = (float(np.exp(x)) for x in (d.mean(), d.mean() - half, d.mean() + half))
        rows.append({"variant": v, "base": b, "injected": r, "scope": "paired",
                     "estimate": est, "lower": lo, "upper": hi, "bounded": True,
                     "contains_injected": bool(lo <= r <= hi),
                     "contains_one": bool(lo <= 1.0 <= hi),
                     "correlation": float(np.corrcoef(ma, mb)[0, 1])})
    return rows


def binomial_ok(misses: int, n: int, p: float = 0.05, level: float = 0.05) -> tuple[bool, float]:
    """Whether ``misses`` of ``n`` intervals of coverage ``1 - p`` are not too many by a
    one-sided binomial test: ``P(X >= misses) >= level`` for X ~ Binomial(n, p); and
    that probability."""
    from scipy.stats import binom

    tail = 1.0 if misses <= 0 else float(binom.sf(misses - 1, n, p))
    return tail >= level, tail


def binomial_rule(rule: str, what: str, sel: Sequence[Mapping], misses: list[str],
                  noun: str = "") -> dict:
    """A rule judged by :func:`binomial_ok` on the intervals ``sel``, ``misses`` of which
    missed."""
    ok, tail = binomial_ok(len(misses), len(sel))
    return {"rule": rule, "what": what, "holds": ok and bool(sel),
            "value": f"{len(sel) - len(misses)} of {len(sel)}{noun}; "
                     f"P(X >= {len(misses)}) = {tail:.3f}", "misses": misses}


def judge_rules(rows: Sequence[Mapping]) -> list[dict]:
    """The rules of ``measure/mono/prereg/2026-11-28.md`` on :func:`session_intervals`'
    rows: one dict per rule with ``rule``, ``holds`` (bool), ``value`` (what was
    counted) and ``misses`` (the intervals that missed)."""
    def miss_list(sel, key):
        return [f"{r['variant']} {r['scope']}: {r['estimate']:.4f} "
                f"[{r['lower']:.4f}, {r['upper']:.4f}]" for r in sel if not r[key]]

    aa = [r for r in rows if r["injected"] == 1.0]
    out = [binomial_rule("R1", "A/A intervals (per session and pooled, three and four levels) "
                         "contain 1", aa, miss_list(aa, "contains_one"), " contain 1")]
    largest = max((r["injected"] for r in rows), default=None)
    top = [r for r in rows if r["scope"] == "pooled-4" and r["injected"] == largest]
    above = [r for r in top if r["lower"] > 1.0]
    out.append({"rule": "R2", "what": "the largest known effect's pooled four-level interval "
                "lies above 1, for every family", "holds": bool(top) and len(above) == len(top),
                "value": "; ".join(f"{r['variant']}: [{r['lower']:.4f}, {r['upper']:.4f}]"
                                   for r in top), "misses": [r["variant"] for r in top
                                                             if r not in above]})
    within = [r for r in rows if r["scope"].startswith("s")]
    out.append(binomial_rule("R3a", "within-session intervals contain the injected ratio",
                             within, miss_list(within, "contains_injected")))
    four = [r for r in rows if r["scope"] == "pooled-4"]
    out.append(binomial_rule("R3b", "pooled four-level intervals contain the injected ratio",
                             four, miss_list(four, "contains_injected")))
    three = [r for r in rows if r["scope"] == "pooled-3"]
    m = miss_list(three, "contains_injected")
    out.append({"rule": "R3c", "what": "pooled three-level intervals contain the injected "
                "ratio (reported, not judged)", "holds": None,
                "value": f"{len(three) - len(m)} of {len(three)}", "misses": m})
    return out
