"""``esize compare --fail-on``: the comparison as a pass/fail gate for CI.

``--fail-on`` names verdicts (``slower``, ``faster``, ``change`` for either, and
``inconclusive``); when a benchmark's verdict, or the suite's, is among them the
command exits with :data:`EXIT_GATE` after its usual output, and one line on stderr
says which benchmarks tripped the gate, with their ratio and interval. Bad input is
still exit status 2, so a job can tell "slower" from "could not compare".

The gate reads the dictionary :meth:`esize.compare.CompareResult.to_json`
returns, the same data as ``--json`` and ``--markdown``. ``same`` never fails the
gate, and ``inconclusive`` only when asked for: an interval too wide to decide is not
evidence of a slowdown.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .._decision import Verdict, number_text

__all__ = ["EXIT_GATE", "MAX_NAMED", "Trip", "gate_verdicts", "tripped", "gate_message"]

#: Exit status when the gate trips (bad input stays 2).
EXIT_GATE = 1
#: Benchmarks named in the message; the others are counted.
MAX_NAMED = 10


@dataclass(frozen=True)
class Trip:
    """A benchmark (or the suite's geometric mean) whose verdict trips the gate.

    Attributes
    ----------
    name : str
        The benchmark's name (``"geometric mean"`` for the suite).
    verdict : str
        Its verdict.
    ratio : float
        Ratio new/old (the geometric mean for the suite).
    lower, upper : float or None
        The interval the verdict comes from; None when it is unbounded or missing.
    suite : bool
        Whether this is the suite's geometric mean.
    """

    name: str
    verdict: str
    ratio: float
    lower: float | None
    upper: float | None
    suite: bool = False

    def text(self) -> str:
        """``"fft slower, ratio 1.0313 [1.0261, 1.0364]"``."""
        if self.lower is None or self.upper is None:
            interval = "interval unbounded or missing"
        else:
            interval = f"[{number_text(self.lower)}, {number_text(self.upper)}]"
        return f"{_printable(self.name)} {self.verdict}, ratio {number_text(self.ratio)} {interval}"


def _printable(name: str) -> str:
    """The name on one line: control characters shown as escapes."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


def gate_verdicts(fail_on: Iterable[str]) -> frozenset[str]:
    """The verdicts that trip the gate: ``change`` stands for slower and faster."""
    out = set()
    for word in fail_on:
        out |= {v.value for v in Verdict if v.resolved} if word == "change" else {word}
    return frozenset(out)


def _limits(iv: dict | None) -> tuple:
    if iv is None or not iv.get("bounded", True):
        return None, None
    return iv.get("lower"), iv.get("upper")


def tripped(doc: dict, fail_on: Iterable[str]) -> list[Trip]:
    """Every benchmark, then the suite, whose verdict is in ``fail_on``.

    Parameters
    ----------
    doc : dict
        :meth:`esize.compare.CompareResult.to_json` of the comparison.
    fail_on : iterable of str
        ``slower``, ``faster``, ``change`` or ``inconclusive``.

    Returns
    -------
    list of Trip
        In the order of the JSON's benchmarks, the suite last; empty when the gate
        passes.
    """
    wanted = gate_verdicts(fail_on)
    out = []
    for b in doc["benchmarks"]:
        if b["verdict"] in wanted:
            method = b.get("verdict_method")
            lo, hi = _limits(b.get(method) if method else None)
            name = "data" if b.get("name") is None else str(b["name"])
            out.append(Trip(name, b["verdict"], b["ratio"], lo, hi))
    s = doc.get("suite")
    if s is not None and s["verdict"] in wanted:
        out.append(Trip("geometric mean", s["verdict"], s["geometric_mean"], s.get("lower"),
                        s.get("upper"), suite=True))
    return out


def gate_message(doc: dict, trips: list[Trip], fail_on: Iterable[str]) -> str:
    """The one line that says why the gate failed.

    For example ``--fail-on slower: 1 of 2 benchmarks and the geometric mean: fft
    slower, ratio 1.0313 [1.0261, 1.0364]; geometric mean slower, ratio 1.0264
    [1.0214, 1.0313] (ratios new/old, 95 % intervals, threshold 2 %)``. At most
    :data:`MAX_NAMED` benchmarks are named; the others are counted.
    """
    words = ",".join(dict.fromkeys(fail_on))
    benches = [t for t in trips if not t.suite]
    suite = [t for t in trips if t.suite]
    n = len(doc["benchmarks"])
    who = []
    if benches:
        who.append(f"{len(benches)} of {n} benchmark{'s' if n > 1 else ''}")
    if suite:
        who.append("the geometric mean")
    shown = [t.text() for t in benches[:MAX_NAMED]]
    if len(benches) > MAX_NAMED:
        shown.append(f"and {len(benches) - MAX_NAMED} more")
    shown += [t.text() for t in suite]
    conf = f"{100 * (1 - doc['alpha']):g} %"
    return (f"--fail-on {words}: {' and '.join(who)}: {'; '.join(shown)} "
            f"(ratios new/old, {conf} intervals, threshold {100 * doc['threshold']:g} %)")
