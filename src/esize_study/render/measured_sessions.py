"""The part ``### Sessions`` of a measured dataset's report, for files with a session
level (:mod:`esize_study.estimate.sessions`): the session component per benchmark, the
known effects' intervals within each session and pooled, and the rules written before
the data, judged (their rows also count in the dataset's headline)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .measured_checks import AGREE, DISAGREE
from .measured_results import _f, _table

__all__ = ["sessions_section", "session_checks", "PREREG"]

#: Where the rules are written (committed before the sessions they judge): the rules,
#: then how many sessions of which sets were added to judge them.
PREREG = ("measure/mono/prereg/2026-11-28.md", "measure/mono/prereg/2026-11-28-sessions-6-10.md")
#: The sessions the rules were first judged on, before the second file added more.
FIRST_LOOK = 5


def session_checks(rules: Sequence[Mapping]) -> list[dict]:
    """Headline rows (kind ``session``) of the judged rules (R3c is not judged)."""
    return [{"kind": "session", "subject": f"{r['rule']}: {r['what']}", "value": r["value"],
             "verdict": AGREE if r["holds"] else DISAGREE}
            for r in rules if r["holds"] is not None]


def _span(lo: float, hi: float) -> str:
    a, b = f"{lo:.1f}", f"{hi:.1f}"
    return a if a == b else f"{a} to {b}"


def _ci(r: Mapping) -> str:
    if not r["bounded"]:
        return "unbounded"
    return f"{r['estimate']:.4f} [{r['lower']:.4f}, {r['upper']:.4f}]"


def _count_sessions(variances: Sequence[Mapping]) -> str:
    counts: dict[int, list[str]] = {}
    for r in variances:
        counts.setdefault(int(r["design"][0]), []).append(r["benchmark"])
    if len(counts) == 1:
        return f"{next(iter(counts))} sessions"
    return " and ".join(f"{k} sessions ({', '.join(v)})"
                        for k, v in sorted(counts.items(), reverse=True))


def spans_note(spans: Sequence[Mapping], n_sets: int) -> str:
    """One sentence on how long the sessions took (:func:`esize_study.datasets.measured.
    session_spans`), by what they measured; empty without records."""
    kinds: dict[int, list[Mapping]] = {}
    for s in spans:
        kinds.setdefault(len(s["sets"]) if s["sets"] else n_sets, []).append(s)
    parts = []
    for k, group in sorted(kinds.items(), reverse=True):
        mean = sum(g["minutes"] for g in group) / len(group)
        which = ", ".join(str(g["session"]) for g in group)
        what = "every set" if k == n_sets else f"{k} sets"
        parts.append(f"{mean:.0f} min for {what} (session{'s' if len(group) > 1 else ''} "
                     f"{which})")
    return ("A session took on average " + "; ".join(parts) + ", builds included.") if parts \
        else ""


def sessions_section(variances: Sequence[Mapping], intervals: Sequence[Mapping],
                     rules: Sequence[Mapping], needed: Sequence[Mapping] = (),
                     session_minutes: float | Mapping[str, float] | None = None,
                     means: Sequence[Mapping] = (), spans: str = "",
                     paired: Sequence[Mapping] = ()) -> list[str]:
    """Markdown lines; empty when there is nothing to show. ``needed``: rows of
    :func:`esize_study.estimate.sessions.sessions_needed`; ``session_minutes``: the
    measured length of one session, when known, or per variant the length of a session
    that measures it and its base; ``means``: rows of
    :func:`esize_study.estimate.sessions.session_means`; ``spans``: :func:`spans_note`;
    ``paired``: rows of :func:`esize_study.estimate.sessions.paired_session_intervals`
    (reported after the rules, not judged)."""
    if not variances:
        return []
    n_sessions = max(int(r["design"][0]) for r in variances)
    out = ["### Sessions: a fourth level", "",
           f"The dataset was measured in {_count_sessions(variances)} at different times, each "
           "with builds of its own, so its design is session > build > execution > iteration. "
           "The three-level analyses above pool every session's builds as one pool of builds. "
           "Here the session is a level of its own: S of every level (% of the mean, wall "
           "time, after the warm-up cut; T² ≤ 0 marked) per benchmark.", ""]
    body = []
    for r in variances:
        cells = [f"{_f(s, 2)}" + ("" if t else " (T² ≤ 0)")
                 for s, t in zip(r["S_pct"][:3], r["T_positive"][:3])]
        body.append([r["benchmark"], " x ".join(map(str, r["design"])), *cells,
                     _f(r["S_pct"][3], 2), _f(r["T_pct"][0], 2)])
    out.append(_table(["benchmark", "sessions x builds x executions x iterations", "session S",
                   "build S", "execution S", "iteration S", "session T"], body))
    if spans:
        out += ["", spans]
    if means:
        body = [[r["benchmark"], *[f"{x:+.2f}" for x in r["pct"]],
                 *[""] * (n_sessions - len(r["pct"]))] for r in means]
        out += ["", "Each session's mean, % above or below the benchmark's mean over its "
                "sessions (what the session S summarises; a benchmark measured in fewer "
                "sessions has empty cells):", ""]
        out.append(_table(["benchmark", *[f"s{k}" for k in range(1, n_sessions + 1)]], body))
    if intervals:
        scopes = list(dict.fromkeys(r["scope"] for r in intervals))
        body = []
        for v in dict.fromkeys(r["variant"] for r in intervals):
            mine = {r["scope"]: r for r in intervals if r["variant"] == v}
            first = next(iter(mine.values()))
            body.append([f"{v} / {first['base']}", f"{first['injected']:g}",
                         *[_ci(mine[s]) + ("" if mine[s]["contains_injected"] else " **miss**")
                           for s in scopes]])
        out += ["", "Known effects, ratio variant / base with its Fieller 95 % interval: within "
                "each session (three levels, that session's builds), pooled with the sessions "
                "ignored (`pooled-3`, every build one unit) and with the session as the top "
                "level (`pooled-4`); **miss**: the interval does not contain the injected "
                "ratio.", ""]
        out.append(_table(["ratio", "injected", *scopes], body))
        widths = []
        for v in dict.fromkeys(r["variant"] for r in intervals):
            mine = {r["scope"]: r for r in intervals if r["variant"] == v}
            p3, p4 = mine.get("pooled-3"), mine.get("pooled-4")
            if p3 and p4 and p3["bounded"] and p4["bounded"]:
                widths.append((p4["upper"] - p4["lower"]) / (p3["upper"] - p3["lower"]))
        if widths:
            n_ke = sum(1 for r in intervals if r["variant"] == intervals[0]["variant"]
                       and r["scope"].startswith("s"))
            out += ["", f"What sampling sessions costs: with {n_ke} sessions the "
                    f"four-level interval rests on {n_ke} top-level units, so it is "
                    f"{_span(min(widths), max(widths))} times as wide as the pooled "
                    "three-level one on the same rows; what it buys is an interval whose "
                    "width includes whatever moves a whole session."]
    if needed:
        minutes = session_minutes if isinstance(session_minutes, Mapping) else \
            {r["variant"]: session_minutes for r in needed}
        parts = []
        for r in needed:
            if r["needed"] is None:
                parts.append(f"{r['variant']} / {r['base']}: more than 200")
                continue
            m = minutes.get(r["variant"])
            cost = (f", about {r['needed'] * m / 60:.1f} h at {m:.0f} min a session"
                    if m else "")
            parts.append(f"{r['variant']} / {r['base']}: {r['needed']}{cost}")
        out += ["", "Sessions the four-level interval would need to exclude 1, projected from "
                "the spread of the session means measured here, each session as measured and "
                "the ratio at its injected value (a projection, since that spread rests "
                f"on the {n_sessions} sessions measured): " + "; ".join(parts) + "."]
    if rules:
        out += ["", "The rules, written and committed before the sessions were measured "
                f"(`{PREREG[0]}`; how many sessions of which sets were added to judge them, "
                f"also written before they were measured: `{PREREG[1]}`), judged:", ""]
        out.append(_table(["rule", "what", "counted", "holds"],
                          [[r["rule"], r["what"], r["value"], "not judged" if r["holds"] is None
                            else "yes" if r["holds"] else "**no**"] for r in rules]))
        if n_sessions > FIRST_LOOK:
            out += ["", f"The rules were first judged on sessions 1-{FIRST_LOOK}; sessions were "
                    "added because R2 failed there, to a number fixed in the second file before "
                    "they were measured. R1 is judged again on all of them, and its binomial "
                    "test is not corrected for that earlier look."]
        missed = [f"{r['rule']}: " + "; ".join(r["misses"]) for r in rules if r["misses"]]
        if missed:
            out += ["", "Intervals that missed: " + " — ".join(missed) + "."]
    if paired:
        out += ["", "Not registered before the data, reported beside the rules: the same ratios "
                "with the session as a block both systems share (Student's t over the sessions' "
                "log ratios of means; `paired`). Both systems of a family ran interleaved in "
                "every session, so a shift of the whole session moves both alike: the "
                "correlation of their session means is in the last column. The four-level "
                "interval above treats the two systems' session means as independent.", ""]
        out.append(_table(["ratio", "injected", "paired", "contains the injected ratio",
                           "correlation of session means"],
                          [[f"{r['variant']} / {r['base']}", f"{r['injected']:g}", _ci(r),
                            "yes" if r["contains_injected"] else "**no**",
                            f"{r['correlation']:.2f}"] for r in paired]))
    return out + [""]
