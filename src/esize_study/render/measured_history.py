"""The part ``### Its history: every run, the recheck, the session finding`` of a
measured dataset's report, from the dataset's ``history.json`` (where it has one) and
the recheck files it names: how often the committed run's intervals, and the earlier
runs' of the same builds, missed the injected ratio, and what the recheck showed."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from .measured_results import _table

__all__ = ["read_history", "history_section"]


def read_history(directory: str | Path, root: str | Path = ".") -> dict | None:
    """``history.json`` of a dataset's directory with the recheck rounds it names
    (``recheck``: a directory of ``round*.json``, relative to ``root``), or None."""
    try:
        hist = json.loads((Path(directory) / "history.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(hist, dict) or not isinstance(hist.get("runs"), list):
        return None
    rounds = []
    if hist.get("recheck"):
        for p in sorted((Path(root) / hist["recheck"]).glob("round*.json")):
            try:
                rounds.append(json.loads(p.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                continue
    hist["recheck_rounds"] = rounds
    return hist


def _cell(r, injected) -> tuple[str, bool]:
    est, lo, hi = r
    miss = not lo <= injected <= hi
    return f"{est:.4f} [{lo:.4f}, {hi:.4f}]" + (" **miss**" if miss else ""), miss


def history_section(hist: Mapping | None) -> list[str]:
    """Markdown lines (empty without a history)."""
    if not hist:
        return []
    inj = hist["injected"]
    variants = list(inj)
    body, misses, total = [], 0, 0
    for run in hist["runs"]:
        cells = []
        for v in variants:
            c, m = _cell(run["ratios"][v], inj[v])
            cells.append(c)
            misses += m
            total += 1
        builds = ", ".join(f"{k} {n}" for k, n in run["builds"].items())
        body.append([f"{run['run']}{' (committed)' if run['committed'] else ''}",
                     f"{builds}; {run['order']}", *cells])
    out = ["### Its history: every run, the recheck, the session finding", "",
           hist["about"], "",
           _table(["run", "builds", *variants], body), "",
           f"Of the {total} intervals, {misses} miss the injected ratio. At 95 % about "
           f"{0.05 * total:.1f} misses are expected if they were independent; the "
           "comparisons of one program within a run share its base set, so their misses "
           "come together."]
    rounds = hist.get("recheck_rounds") or []
    if rounds:
        sets = [s for s in rounds[0]["sets"] if "again_ratio" in rounds[0]["sets"][s]]
        body = [["committed", *[_cell(tuple(rounds[0]["sets"][s]["committed_ratio"][k] for k in
                                           ("ratio", "lower", "upper")), inj.get(s, 1.0))[0]
                                for s in sets]]]
        for rd in rounds:
            body.append([f"recheck round {rd['round']}",
                         *[_cell(tuple(rd["sets"][s]["again_ratio"][k] for k in
                                       ("ratio", "lower", "upper")), inj.get(s, 1.0))[0]
                           for s in sets]])
        out += ["", f"The recheck (`{hist['recheck']}`, its plan written before it ran): the "
                "committed binaries measured again in a new session, SHA-256 checked:", "",
                _table(["", *sets], body)]
    if hist.get("session_finding"):
        out += ["", hist["session_finding"]]
    return out + [""]
