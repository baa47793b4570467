"""hyperfine result files (``--export-json``).

``results[].times`` are the run times in seconds, one level (``run``: each run is
one process); benchmarks are named by their ``command`` (with `` [p=v]`` when a
parameter scan repeats a command).

``results[].exit_codes`` (hyperfine 1.12 and later) holds each run's exit status
(null when a signal ended it). Run with ``-i`` (``--ignore-failure``), hyperfine
keeps the times of runs that failed: a command all of whose runs failed measured
its failure, not its work, and is left out with an
:class:`~esize.EsizeWarning` (an error when every command failed); a command some
of whose runs failed is kept with a note.
"""

from __future__ import annotations

import warnings

from .._errors import EsizeWarning, InputError
from ._common import need, numbers, plural, prefix
from .units import unit_info

FORMAT = "hyperfine"
LEVELS = ("run",)
#: Harness option setting the count of each level.
NEXT_RUN_OPTIONS = {"run": "--runs"}


def sniff(doc) -> bool:
    """Whether a parsed JSON document looks like hyperfine's."""
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("results"), list)
        and all(isinstance(r, dict) and ("times" in r or "command" in r) for r in doc["results"])
    )


def _failures(r: dict, n: int, source, name) -> int:
    """How many of the command's ``n`` runs failed (non-zero or null exit code)."""
    codes = r.get("exit_codes")
    if codes is None:
        return 0  # hyperfine before 1.12 wrote none (and stopped at a failure)
    need(
        isinstance(codes, list) and len(codes) == n
        and all(c is None or (isinstance(c, int) and not isinstance(c, bool)) for c in codes),
        source,
        f"{prefix(name)}'exit_codes' should be a list of {n} whole numbers or nulls, one per "
        "run",
    )
    return sum(1 for c in codes if c != 0)


def _code_text(r: dict) -> str:
    codes = sorted({"signal" if c is None else str(c) for c in r["exit_codes"] if c != 0})
    return ", ".join(codes)


def parse(doc, source) -> dict:
    """``{command: (times, UnitInfo)}``.

    Warns
    -----
    EsizeWarning
        For every command left out because all its runs failed, and every command
        some of whose runs failed.
    """
    need(isinstance(doc, dict), source, "a hyperfine file holds a JSON object")
    results = doc.get("results")
    need(isinstance(results, list) and results, source, "no 'results' list")
    out: dict = {}
    failed: list[str] = []
    for k, r in enumerate(results, 1):
        need(isinstance(r, dict), source, f"result #{k} is not a JSON object")
        name = r.get("command")
        need(isinstance(name, str) and name, source, f"result #{k} has no 'command'")
        need(
            "times" in r,
            source,
            f"{prefix(name)}no 'times' (the individual run times are needed; "
            "they are exported by hyperfine's --export-json)",
        )
        times = numbers(r["times"], source, name, "times")
        params = r.get("parameters") or {}
        if name in out and isinstance(params, dict) and params:
            name = name + " [" + ",".join(f"{p}={v}" for p, v in params.items()) + "]"
        if name in out or name in failed:
            raise InputError(source, f"{prefix(name)}appears twice in the file")
        bad = _failures(r, len(times), source, name)
        if times and bad == len(times):
            failed.append(name)
            warnings.warn(
                f"{source}: {prefix(name)}left out: all {len(times)} "
                f"{plural('run', len(times))} failed (exit status {_code_text(r)}), so the "
                "times measure the failure, not the command",
                EsizeWarning, stacklevel=2)
            continue
        if bad:
            warnings.warn(
                f"{source}: {prefix(name)}{bad} of {len(times)} runs failed (exit status "
                f"{_code_text(r)}; hyperfine -i kept their times): the result mixes failed "
                "and successful runs",
                EsizeWarning, stacklevel=2)
        out[name] = (times, unit_info("s"))
    if not out:
        shown = ", ".join(repr(n) for n in failed[:3]) + (
            f" and {len(failed) - 3} more" if len(failed) > 3 else "")
        raise InputError(
            source, f"every command failed in all its runs ({shown}): nothing was measured "
            "but the failure; fix the commands, then measure again")
    return out
