"""Julia BenchmarkTools result files (``BenchmarkTools.save("file.json", results)``).

The document is a pair: the versions of Julia and BenchmarkTools, then the list of
values saved, each written as ``[type name, fields]`` (the type name with or without
the ``BenchmarkTools.`` prefix). A ``Trial`` holds the raw samples, ``times`` in
nanoseconds, each the mean time of the ``evals`` evaluations of one sample: one
level, ``sample``. ``BenchmarkGroup``\\ s nest benchmarks under keys; a benchmark is
named by its path of keys, ``"fib/20"``.

``JSON.print(io, results)`` (JSON.jl, which BenchmarkTools teaches to write its types)
gives one such value alone, ``["BenchmarkGroup", {...}]``, without the versions; that
document is read the same way. PkgBenchmark's result files (``writeresults``, or
``benchmarkpkg(...; resultfile=...)``) hold the text of a ``BenchmarkTools.save`` file
as a JSON string under ``"benchmarkgroup"``, beside the configuration of the run; the
reader unwraps it.

A ``TrialEstimate`` (what ``minimum``, ``median`` or ``mean`` of a trial gives), a
``TrialRatio`` and a ``TrialJudgement`` hold one number per benchmark, from which
no interval can be computed: a file holding only those is refused with one line
saying so, and in a file that also holds trials they are left out with an
:class:`~esize.EsizeWarning`.
"""

from __future__ import annotations

import json
import warnings

from .._errors import EsizeWarning, InputError
from ._common import need, numbers, one_process_caveat, prefix, shown
from .units import unit_info

FORMAT = "julia"
LEVELS = ("sample",)
#: Harness option setting the count of each level (a keyword of ``@benchmark`` and of
#: ``BenchmarkTools.Parameters``).
NEXT_RUN_OPTIONS = {"sample": "samples="}
#: The level above the file's own that none of its files can see: the harness
#: measures every sample of a benchmark in its one process.
UNOBSERVED_TOP = "process"
#: What every benchmark read from such a file says of it.
UNOBSERVED_CAVEAT = one_process_caveat("sample")

_ONE_NUMBER = ("TrialEstimate", "TrialRatio", "TrialJudgement")
_SAVED = ("BenchmarkGroup", "Trial", *_ONE_NUMBER)


def _type(x) -> str | None:
    """The BenchmarkTools type name of a saved value ``[name, fields]``, else None."""
    if (isinstance(x, list) and len(x) == 2 and isinstance(x[0], str)
            and isinstance(x[1], dict)):
        return x[0].removeprefix("BenchmarkTools.")
    return None


def _bare(doc) -> bool:
    """Whether a document is one saved value without the versions (``JSON.print``)."""
    return _type(doc) in _SAVED


def _pkgbenchmark(doc) -> bool:
    """Whether a document is PkgBenchmark's: a saved file as text in ``benchmarkgroup``."""
    return (isinstance(doc, dict) and isinstance(doc.get("benchmarkgroup"), str)
            and "benchmarkconfig" in doc)


def _saved(doc) -> bool:
    """Whether a document is what ``BenchmarkTools.save`` writes: versions, values."""
    return (
        isinstance(doc, list)
        and len(doc) == 2
        and isinstance(doc[0], dict)
        and "BenchmarkTools" in doc[0]
        and isinstance(doc[1], list)
    )


def sniff(doc) -> bool:
    """Whether a parsed JSON document looks like a BenchmarkTools file."""
    return _saved(doc) or _bare(doc) or _pkgbenchmark(doc)


def _walk(value, path: str, source, found: dict, estimates: list) -> None:
    """Collect the trials below ``value`` into ``found`` (path -> times) and the paths
    of one-number results into ``estimates``."""
    kind = _type(value)
    name = path or "(unnamed)"
    need(kind is not None, source,
         f"{prefix(name)}holds {shown(value)}, not a saved BenchmarkTools value "
         "[type, fields]")
    fields = value[1]
    if kind == "BenchmarkGroup":
        data = fields.get("data")
        need(isinstance(data, dict), source, f"{prefix(name)}a BenchmarkGroup without 'data'")
        for key, child in data.items():
            _walk(child, f"{path}/{key}" if path else str(key), source, found, estimates)
        return
    if kind in _ONE_NUMBER:
        estimates.append((name, kind))
        return
    need(kind == "Trial", source, f"{prefix(name)}a saved {kind!r}, not a Trial or a "
         "BenchmarkGroup")
    need("times" in fields, source, f"{prefix(name)}a Trial without 'times'")
    if name in found:
        raise InputError(source, f"{prefix(name)}appears twice in the file")
    found[name] = numbers(fields["times"], source, name, "times")


def parse(doc, source) -> dict:
    """``{name: (times in ns, UnitInfo)}``, one entry per Trial.

    Warns
    -----
    EsizeWarning
        For the one-number results (estimates, ratios, judgements) left out of a file
        that also holds trials.
    """
    need(sniff(doc), source, "a BenchmarkTools file holds [versions, [values ...]], or one "
         "value [type, fields] alone")
    if _pkgbenchmark(doc):
        try:
            doc = json.loads(doc["benchmarkgroup"])
        except ValueError as exc:
            raise InputError(source, "PkgBenchmark's 'benchmarkgroup' is not the JSON text "
                             f"of a BenchmarkTools file ({exc})") from None
        need(_saved(doc), source, "PkgBenchmark's 'benchmarkgroup' holds "
             f"{shown(doc)}, not a BenchmarkTools file [versions, [values ...]]")
    values = [doc] if _bare(doc) else doc[1]
    need(len(values) > 0, source, "the BenchmarkTools file holds no values")
    found: dict = {}
    estimates: list = []
    for k, v in enumerate(values, 1):
        _walk(v, "" if len(values) == 1 else f"#{k}", source, found, estimates)
    if estimates:
        kinds = sorted({kind for _, kind in estimates})
        shown_names = ", ".join(n for n, _ in estimates[:5]) + (
            f" and {len(estimates) - 5} more" if len(estimates) > 5 else "")
        what = (f"{len(estimates)} {'/'.join(kinds)} "
                f"({shown_names}): one number per benchmark, not its samples")
        if not found:
            raise InputError(
                source, f"the file holds {what}; save the Trial that run(...) returns "
                "(BenchmarkTools.save(file, run(suite))), before taking minimum, median or "
                "mean")
        warnings.warn(f"{source}: left out {what}", EsizeWarning, stacklevel=2)
    if not found:
        raise InputError(source, "the BenchmarkTools file holds no Trial")
    return {name: (times, unit_info("ns")) for name, times in found.items()}
