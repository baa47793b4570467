"""hyperfine result files (``--export-json``).

``results[].times`` are the run times in seconds, one level (``run``: each run is
one process); benchmarks are named by their ``command`` (with `` [p=v]`` when a
parameter scan repeats a command).
"""

from __future__ import annotations

from .._errors import InputError
from ._common import need, numbers, prefix
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


def parse(doc, source) -> dict:
    """``{command: (times, UnitInfo)}``."""
    need(isinstance(doc, dict), source, "a hyperfine file holds a JSON object")
    results = doc.get("results")
    need(isinstance(results, list) and results, source, "no 'results' list")
    out: dict = {}
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
        if name in out:
            raise InputError(source, f"{prefix(name)}appears twice in the file")
        out[name] = (times, unit_info("s"))
    return out
