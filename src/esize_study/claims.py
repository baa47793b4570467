"""The paper's claims as data, and the one table that shows them.

Every number or statement of the paper that the reproduction checks (in the sections
"Variation in the Data", "For Practitioners: The New Method without Statistics",
"Dimensioning the Experiments", "False Alarm Rate" and "Coverage") becomes a :class:`Claim` record: what the paper says,
what we find, the rule that decides, and the verdict. The report's agreement counts
come from these records (:func:`tally`), never from its rendered text, and both
simulation families render their claims with the same :func:`render_table`.
Records travel between workflow rules as JSON (:func:`write_claims`,
:func:`read_claims`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from esize._atomic import atomic_write_text

__all__ = [
    "AGREE",
    "PARTLY",
    "DISAGREE",
    "UNDECIDED",
    "VERDICTS",
    "Claim",
    "verdict",
    "graded",
    "tally",
    "render_table",
    "render_notes",
    "write_claims",
    "read_claims",
]

AGREE, PARTLY, DISAGREE, UNDECIDED = "agree", "partly", "disagree", "undecided"
#: The possible verdicts; ``undecided`` records are shown but not counted.
VERDICTS = (AGREE, PARTLY, DISAGREE, UNDECIDED)


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

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"claim {self.id!r}: verdict {self.verdict!r} not in {VERDICTS}")

    def to_dict(self) -> dict:
        """The record as a JSON-able dict (non-finite numbers become ``None``)."""
        return _clean(asdict(self))

    @classmethod
    def from_dict(cls, d: dict) -> Claim:
        """Inverse of :meth:`to_dict`."""
        return cls(**d)


def _clean(obj):
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):
        obj = obj.item()  # numpy scalar
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def verdict(ok: bool) -> str:
    """``agree`` when ``ok``, else ``disagree``."""
    return AGREE if ok else DISAGREE


def graded(share: float, full: float, part: float) -> str:
    """``agree`` from ``full`` upwards, ``partly`` from ``part``, else ``disagree``."""
    return AGREE if share >= full else PARTLY if share >= part else DISAGREE


def tally(claims: Iterable[Claim]) -> tuple[int, int]:
    """Claims that agree, and claims compared (every verdict except ``undecided``)."""
    claims = list(claims)
    compared = [c for c in claims if c.verdict != UNDECIDED]
    return sum(c.verdict == AGREE for c in compared), len(compared)


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_table(claims: Sequence[Claim], *, first: str = "figure") -> str:
    """Markdown table of claims: one row each, columns that carry nothing dropped.

    The ``MC error`` column is left out when no claim has one, and the ``rule``
    column when every claim has the same rule (the text around the table states it).

    Parameters
    ----------
    claims : sequence of Claim
        The records, in display order.
    first : str, optional
        Heading of the first column (the claim's ``figure``).

    Returns
    -------
    str
        A pipe table (pandas ``to_markdown``), without trailing newline.
    """
    import pandas as pd

    cols = {
        first: [c.figure for c in claims],
        "claim": [c.statement for c in claims],
        "paper": [c.paper for c in claims],
        "ours": [c.ours for c in claims],
        "MC error": [c.mc_error for c in claims],
        "rule": [c.rule for c in claims],
        "verdict": [c.verdict for c in claims],
    }
    if all(v in ("", "-") for v in cols["MC error"]):
        del cols["MC error"]
    if len(claims) > 1 and len(set(cols["rule"])) == 1:
        del cols["rule"]
    frame = pd.DataFrame({k: [_cell(x) for x in v] for k, v in cols.items()})
    return frame.to_markdown(index=False, tablefmt="pipe", disable_numparse=True)


def render_notes(claims: Sequence[Claim], default: str = "see the discussion below.") -> str:
    """Markdown list of the explanations: every claim with one or not in agreement.

    Returns an empty string when there is nothing to explain.
    """
    notes = [c for c in claims if c.verdict not in (AGREE, UNDECIDED) or c.explanation]
    if not notes:
        return ""
    lines = ["Notes:", ""]
    lines += [f"- *{c.statement}* ({c.verdict}): {c.explanation or default}" for c in notes]
    return "\n".join(lines)


def write_claims(path, claims: Iterable[Claim]) -> None:
    """Store claim records as a JSON list, atomically."""
    text = json.dumps([c.to_dict() for c in claims], indent=1, allow_nan=False)
    atomic_write_text(path, text + "\n")


def read_claims(path) -> list[Claim]:
    """Claim records stored by :func:`write_claims`."""
    return [Claim.from_dict(d) for d in json.loads(Path(path).read_text())]
