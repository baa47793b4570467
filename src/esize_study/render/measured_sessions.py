"""The part ``### Sessions`` of a measured dataset's report, for files with a session
level (:mod:`esize_study.estimate.sessions`): the session component per benchmark, the
known effects' intervals within each session and pooled, and the rules written before
the data, judged (their rows also count in the dataset's headline)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .measured_checks import AGREE, DISAGREE
from .measured_results import _f, _table

__all__ = ["sessions_section", "session_checks", "PREREG"]

#: Where the rules are written (committed before the sessions they judge).
PREREG = "measure/mono/prereg/2026-11-28.md"


def session_checks(rules: Sequence[Mapping]) -> list[dict]:
    """Headline rows (kind ``session``) of the judged rules (R3c is not judged)."""
    return [{"kind": "session", "subject": f"{r['rule']}: {r['what']}", "value": r["value"],
             "verdict": AGREE if r["holds"] else DISAGREE}
            for r in rules if r["holds"] is not None]


def _ci(r: Mapping) -> str:
    if not r["bounded"]:
        return "unbounded"
    return f"{r['estimate']:.4f} [{r['lower']:.4f}, {r['upper']:.4f}]"


def sessions_section(variances: Sequence[Mapping], intervals: Sequence[Mapping],
                     rules: Sequence[Mapping], needed: Sequence[Mapping] = (),
                     session_minutes: float | None = None) -> list[str]:
    """Markdown lines; empty when there is nothing to show. ``needed``: rows of
    :func:`esize_study.estimate.sessions.sessions_needed`; ``session_minutes``: the
    measured length of one session, when known."""
    if not variances:
        return []
    n_sessions = variances[0]["design"][0]
    out = ["### Sessions: a fourth level", "",
           f"The dataset was measured in {n_sessions} sessions at different times, each with "
           "builds of its own, so its design is session > build > execution > iteration. "
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
            out += ["", f"What sampling sessions costs: with {n_sessions} sessions the "
                    f"four-level interval rests on {n_sessions} top-level units, so it is "
                    f"{min(widths):.1f} to {max(widths):.1f} times as wide as the pooled "
                    "three-level one on the same rows; what it buys is an interval whose "
                    "width includes whatever moves a whole session."]
    if needed:
        each = (f" (at about {session_minutes:.0f} min of measuring a session, "
                if session_minutes else " (")
        parts = []
        for r in needed:
            if r["needed"] is None:
                parts.append(f"{r['variant']} / {r['base']}: more than 200")
            else:
                cost = (f", about {r['needed'] * session_minutes / 60:.1f} h"
                        if session_minutes else "")
                parts.append(f"{r['variant']} / {r['base']}: {r['needed']}{cost}")
        out += ["", "Sessions the four-level interval would need to exclude 1, projected from "
                "the spread of the session means measured here, each session as measured and "
                f"the ratio at its injected value{each}a projection, since that spread rests "
                f"on {n_sessions} sessions): " + "; ".join(parts) + "."]
    if rules:
        out += ["", f"The rules, written and committed before the sessions were measured "
                f"(`{PREREG}`), judged:", ""]
        out.append(_table(["rule", "what", "counted", "holds"],
                          [[r["rule"], r["what"], r["value"], "not judged" if r["holds"] is None
                            else "yes" if r["holds"] else "**no**"] for r in rules]))
        missed = [f"{r['rule']}: " + "; ".join(r["misses"]) for r in rules if r["misses"]]
        if missed:
            out += ["", "Intervals that missed: " + " — ".join(missed) + "."]
    return out + [""]
