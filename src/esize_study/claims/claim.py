"""The paper's claims as data, and the rules that judge them.

Every number or statement of the paper that the reproduction checks (in the sections
"Variation in the Data", "For Practitioners: The New Method without Statistics",
"Dimensioning the Experiments", "False Alarm Rate" and "Coverage") becomes a
:class:`Claim` record: what the paper says, what we find, the rule that decides, the
verdict, and its role: a *calibration* row (a number the stand-in data were fitted
to, which agrees by construction) or a *reproduction* row (a result the method has
to produce). The report's agreement counts come from these records (:func:`tally`,
:func:`summary`), never from its rendered text, and every section renders its claims
with the same :func:`esize_study.report.claim_tables.render_table`. Records travel
between workflow rules as JSON (:func:`write_claims`, :func:`read_claims`).

Qualifiers
----------
The paper states its results with words such as "about", "nearly", "at most",
"over" and with ranges. Each word has one rule (:data:`QUALIFIERS`, :func:`band`):
a band of values, a function of the stated number ``x`` and of ``u``, the place
value of the last non-zero digit the paper prints (``u = 1`` for "5 %" and "35",
``0.1`` for "0.5 %" and "94.8 %", ``10`` for "60 %"). A result with Monte Carlo
error is judged by its interval estimate, the estimate +- ``Z`` standard errors
(:data:`esize_study.estimate.rates.Z`; Wilson's interval for a share of ``n``
trials, :func:`esize_study.estimate.rates.proportion_interval`, which stays honest at
0 and 1): *agree* when the interval lies inside the band, *disagree* when it lies
wholly outside, *undecided* otherwise (:func:`decide`). A number without Monte Carlo
error is a point interval, so it always agrees or disagrees.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from decimal import Decimal

from ..datasets.files import atomic_write_text, jsonable, read_json

__all__ = [
    "AGREE",
    "PARTLY",
    "DISAGREE",
    "UNDECIDED",
    "VERDICTS",
    "REPRODUCTION",
    "CALIBRATION",
    "CONTEXT",
    "ROLES",
    "ARITHMETIC",
    "SIMULATION",
    "DATA",
    "EVIDENCE",
    "Claim",
    "Spec",
    "judge_all",
    "Band",
    "QUALIFIERS",
    "RATIO_TOLERANCE",
    "unit_of",
    "band",
    "decide",
    "combine",
    "verdict",
    "graded",
    "tally",
    "summary",
    "write_claims",
    "read_claims",
]

AGREE, PARTLY, DISAGREE, UNDECIDED = "agree", "partly", "disagree", "undecided"
#: The possible verdicts; ``undecided`` records are shown but not counted.
VERDICTS = (AGREE, PARTLY, DISAGREE, UNDECIDED)

#: A result the method has to produce (counted in the report's headline).
REPRODUCTION = "reproduction"
#: A number the stand-in data were fitted to: it agrees by construction.
CALIBRATION = "calibration"
#: Shown for context, not a claim of the paper.
CONTEXT = "context"
ROLES = (REPRODUCTION, CALIBRATION, CONTEXT)

#: Exact arithmetic from the paper's own inputs (worked examples, Table tPrecisions).
ARITHMETIC = "arithmetic"
#: A result of a simulation (false alarms, coverage): Monte Carlo error, a model.
SIMULATION = "simulation"
#: A number estimated from a dataset (Table tVariations).
DATA = "data"
#: The kinds of evidence a row rests on; the headline counts each kind apart.
EVIDENCE = (SIMULATION, ARITHMETIC, DATA)


@dataclass
class Claim:
    """One claim of the paper set beside our result.

    Attributes
    ----------
    id : str
        Stable identifier, unique within a report (``"fa.fft.rate0.asymptotic"``).
    figure : str
        Where the paper makes the claim: a figure or table name.
    statement : str
        The claim, in our words.
    paper : str
        The paper's value or wording (``"about 5 %"``).
    ours : str
        Our value(s), formatted for reading.
    rule : str
        How the verdict is decided from our value(s).
    verdict : str
        One of :data:`VERDICTS`.
    explanation : str
        Why a claim does not fully agree, or how it was read; may be empty.
    mc_error : str
        Monte Carlo standard error of our value (``"-"`` where there is none).
    values : dict
        Our raw numbers (JSON-able), for checks and comparisons between runs.
    role : str
        One of :data:`ROLES`: ``reproduction`` (default), ``calibration`` or
        ``context``.
    evidence : str
        One of :data:`EVIDENCE`: what the row rests on, ``simulation`` (default),
        ``arithmetic`` (exact, from the paper's inputs) or ``data`` (estimated from a
        dataset). The headline counts each kind apart.
    """

    id: str
    figure: str
    statement: str
    paper: str
    ours: str
    rule: str
    verdict: str
    explanation: str = ""
    mc_error: str = "-"
    values: dict = field(default_factory=dict)
    role: str = REPRODUCTION
    evidence: str = SIMULATION

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"claim {self.id!r}: verdict {self.verdict!r} not in {VERDICTS}")
        if self.role not in ROLES:
            raise ValueError(f"claim {self.id!r}: role {self.role!r} not in {ROLES}")
        if self.evidence not in EVIDENCE:
            raise ValueError(f"claim {self.id!r}: evidence {self.evidence!r} not in {EVIDENCE}")

    def to_dict(self) -> dict:
        """The record as a JSON-able dict (non-finite numbers become ``None``)."""
        return jsonable(asdict(self))

    @classmethod
    def from_dict(cls, d: dict) -> Claim:
        """Inverse of :meth:`to_dict`."""
        return cls(**d)


@dataclass(frozen=True)
class Spec:
    """One claim of the paper as data: a row of a section's claims table.

    Attributes
    ----------
    id, figure, statement, paper : str
        As in :class:`Claim`; ``id``, ``statement`` and ``paper`` may hold
        ``str.format`` fields (``"{k}"``) that the rule fills from the results.
    judge : callable
        The rule: ``judge(spec, data)`` returns the :class:`Claim` (``None`` when the
        dataset does not allow the claim). It reads results only.
    params : dict
        The rule's arguments for this row (benchmark, method, stated number, ...).
    """

    id: str
    figure: str
    statement: str
    paper: str
    judge: Callable
    params: dict = field(default_factory=dict)

    def claim(self, ours: str, mc_error: str, verdict: str, rule: str, explanation: str = "",
              *, fmt: dict | None = None, role: str = REPRODUCTION,
              evidence: str = SIMULATION, **values) -> Claim:
        """The :class:`Claim` of this row, its format fields filled from ``fmt``.

        A row that disagrees or agrees only partly always says why with the numbers the
        rule computed: an explanation without a number gets ``ours`` appended, so the
        report never falls back to "see the figure".
        """
        def f(text):
            return text.format(**fmt) if fmt else text

        if verdict in (DISAGREE, PARTLY) and not any(ch.isdigit() for ch in explanation):
            explanation = "; ".join(x for x in (explanation, f"ours: {ours}") if x)

        return Claim(id=f(self.id), figure=self.figure, statement=f(self.statement),
                     paper=f(self.paper), ours=ours, rule=rule, verdict=verdict,
                     explanation=explanation, mc_error=mc_error, values=values, role=role,
                     evidence=evidence)


def judge_all(specs: Iterable[Spec], data) -> list[Claim]:
    """The claims of a table of :class:`Spec` rows, in its order (rows giving ``None`` left out)."""
    out = []
    for spec in specs:
        c = spec.judge(spec, data)
        if c is not None:
            out.append(c)
    return out


# -- qualifiers ------------------------------------------------------------------------
@dataclass(frozen=True)
class Band:
    """The values a qualified statement allows: an interval, each end open or closed.

    Attributes
    ----------
    lo, hi : float
        Ends (``-inf`` / ``inf`` for none).
    lo_open, hi_open : bool
        Whether the end itself is excluded.
    """

    lo: float
    hi: float
    lo_open: bool = False
    hi_open: bool = False

    def _above_lo(self, x: float) -> bool:
        return x > self.lo if self.lo_open else x >= self.lo

    def _below_hi(self, x: float) -> bool:
        return x < self.hi if self.hi_open else x <= self.hi

    def contains(self, lo: float, hi: float | None = None) -> bool:
        """Whether the whole interval ``[lo, hi]`` (a point if ``hi`` is None) is inside."""
        hi = lo if hi is None else hi
        return self._above_lo(lo) and self._below_hi(hi)

    def disjoint(self, lo: float, hi: float | None = None) -> bool:
        """Whether the interval ``[lo, hi]`` has no point in the band."""
        hi = lo if hi is None else hi
        return not self._below_hi(lo) or not self._above_lo(hi)

    def text(self, scale: float = 100.0, unit: str = " %") -> str:
        """The band for reading, its ends multiplied by ``scale`` (``"4-6 %"``, ``"< 0.1 %"``)."""

        def f(x):
            return f"{round(x * scale, 9):g}"

        if math.isinf(self.lo) and math.isinf(self.hi):
            return "any value"
        if math.isinf(self.lo):
            return f"{'<' if self.hi_open else '<='} {f(self.hi)}{unit}"
        if math.isinf(self.hi):
            return f"{'>' if self.lo_open else '>='} {f(self.lo)}{unit}"
        return f"{f(self.lo)}-{f(self.hi)}{unit}"


def unit_of(stated) -> float:
    """Place value of the last non-zero digit of a printed number.

    ``"5"`` -> 1, ``"0.5"`` -> 0.1, ``"94.8"`` -> 0.1, ``"60"`` -> 10, ``"35"`` -> 1.
    Floats are read through their shortest representation (``0.5`` -> 0.1).
    """
    d = Decimal(str(stated)).normalize()
    if d == 0:
        return 1.0
    return float(Decimal(1).scaleb(d.as_tuple().exponent))


#: One rule per qualifier of the paper's text: the band as a function of the stated
#: number ``x`` (and ``y`` for a range) and of ``u``, the place value of the last
#: non-zero digit printed. The report's method section is generated from this table.
QUALIFIERS: dict[str, tuple[str, str]] = {
    "value": ("x stated plainly (\"94.8 %\", a table cell)", "x - u/2 to x + u/2: rounds to x"),
    "about": ("about x, around x, as many as x", "x - u to x + u"),
    "nearly": ("nearly x", "x - u to x: close to x, from below"),
    "at most": ("at most x, up to x, no more than x", "x or less"),
    "at most about": ("about x or fewer", "x + u or less"),
    "under": ("under x, below x, less than x", "less than x"),
    "over": ("over x, above x", "more than x"),
    "range": ("x-y", "x - u/2 to y + u/2: rounds into the range"),
}

#: A ratio ("about 10x", "nearly 8x", "more than tenfold") is judged relative to itself:
#: its ``u`` is this share of the stated number (:func:`band` with ``ratio=True``), so
#: "about 10x" allows 8-12x and "nearly 8x" 6.4-8x, not 0-20x and 7-8x.
RATIO_TOLERANCE = Decimal("0.2")


def band(qualifier: str, stated, upper=None, *, scale: float = 0.01,
         ratio: bool = False) -> Band:
    """The band of values a qualified statement allows (:data:`QUALIFIERS`).

    Parameters
    ----------
    qualifier : str
        A key of :data:`QUALIFIERS`.
    stated : str or float
        The number as the paper prints it (``"5"``, ``"0.5"``, ``"60"``), in the
        paper's unit.
    upper : str or float, optional
        The upper number of a ``"range"``.
    scale : float, optional
        Converts the paper's unit into ours (default 0.01: per cent to a fraction;
        1 for counts and thresholds kept in per cent).
    ratio : bool, optional
        The stated number is a ratio ("about 10x"): ``u`` is
        :data:`RATIO_TOLERANCE` times the number, not the place value of its last
        digit (every ratio claim passes ``ratio=True``; the rule is written here only).

    Returns
    -------
    Band
        Open-ended qualifiers ("at most", "under", "over") leave the other end
        infinite.
    """
    if qualifier not in QUALIFIERS:
        raise ValueError(f"unknown qualifier {qualifier!r}; one of {sorted(QUALIFIERS)}")
    x = Decimal(str(stated))
    u = RATIO_TOLERANCE * abs(x) if ratio else Decimal(str(unit_of(stated)))
    half = u / 2
    inf = Decimal("Infinity")
    lo_open = hi_open = False
    if qualifier == "value":
        lo, hi = x - half, x + half
    elif qualifier == "about":
        lo, hi = x - u, x + u
    elif qualifier == "nearly":
        lo, hi = x - u, x
    elif qualifier == "at most":
        lo, hi = -inf, x
    elif qualifier == "at most about":
        lo, hi = -inf, x + u
    elif qualifier == "under":
        lo, hi, hi_open = -inf, x, True
    elif qualifier == "over":
        lo, hi, lo_open = x, inf, True
    else:
        if upper is None:
            raise ValueError("a range needs its upper number")
        y = Decimal(str(upper))
        uy = RATIO_TOLERANCE * abs(y) if ratio else Decimal(str(unit_of(upper)))
        half = min(u, uy) / 2
        lo, hi = x - half, y + half
    k = Decimal(str(scale))
    return Band(float(lo * k), float(hi * k), lo_open, hi_open)


def decide(interval: tuple[float, float], b: Band) -> str:
    """Verdict of an interval estimate against a band.

    ``agree`` when the whole interval is inside the band, ``disagree`` when none of
    it is, ``undecided`` when it straddles an edge (or is not finite).
    """
    lo, hi = interval
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return UNDECIDED
    if b.contains(lo, hi):
        return AGREE
    if b.disjoint(lo, hi):
        return DISAGREE
    return UNDECIDED


def combine(verdicts: Iterable[str]) -> str:
    """One verdict for a claim made of parts (benchmarks, conditions).

    ``agree`` when every part agrees; when some part disagrees, ``partly`` if another
    agrees and ``disagree`` otherwise; else (some part undecided, none disagreeing)
    ``undecided``. No parts: ``undecided``.
    """
    vs = list(verdicts)
    if not vs:
        return UNDECIDED
    if all(v == AGREE for v in vs):
        return AGREE
    if any(v in (DISAGREE, PARTLY) for v in vs):
        return PARTLY if any(v in (AGREE, PARTLY) for v in vs) else DISAGREE
    return UNDECIDED


def verdict(ok: bool) -> str:
    """``agree`` when ``ok``, else ``disagree``."""
    return AGREE if ok else DISAGREE


def graded(share: float, full: float, part: float) -> str:
    """``agree`` from ``full`` upwards, ``partly`` from ``part``, else ``disagree``."""
    return AGREE if share >= full else PARTLY if share >= part else DISAGREE


def tally(claims: Iterable[Claim], role: str | None = None) -> tuple[int, int]:
    """Claims that agree, and claims compared (every verdict except ``undecided``).

    ``role`` restricts the count to claims of that role (all roles by default).
    """
    claims = [c for c in claims if role is None or c.role == role]
    compared = [c for c in claims if c.verdict != UNDECIDED]
    return sum(c.verdict == AGREE for c in compared), len(compared)


def summary(claims: Iterable[Claim], evidence: str | None = None) -> dict[str, dict[str, int]]:
    """Counts per role and verdict: ``{role: {verdict: n, ..., "total": n}}``.

    ``evidence`` restricts the counts to rows of that kind (:data:`EVIDENCE`).
    """
    out = {r: {v: 0 for v in VERDICTS} | {"total": 0} for r in ROLES}
    for c in claims:
        if evidence is not None and c.evidence != evidence:
            continue
        out[c.role][c.verdict] += 1
        out[c.role]["total"] += 1
    return out


def write_claims(path, claims: Iterable[Claim]) -> None:
    """Store claim records as a JSON list, atomically."""
    text = json.dumps([c.to_dict() for c in claims], indent=1, allow_nan=False)
    atomic_write_text(path, text + "\n")


def read_claims(path) -> list[Claim]:
    """Claim records stored by :func:`write_claims` (a damaged file stops with one line
    naming it: :func:`esize_study.datasets.files.read_json`)."""
    return [Claim.from_dict(d) for d in read_json(path)]
