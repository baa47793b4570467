"""The paper's claims as Markdown: one table for every section, notes, the rules.

:func:`render_table` shows claim records (:class:`esize_study.claims.claim.Claim`) in
one table whatever the section; :func:`render_notes` lists the explanations of those
not in agreement; :func:`rules_markdown` writes the rules that decide them, from
:data:`esize_study.claims.claim.QUALIFIERS` and :func:`esize_study.claims.claim.band`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..claims.claim import AGREE, CONTEXT, QUALIFIERS, RATIO_TOLERANCE, UNDECIDED, Claim, band
from ..estimate.rates import Z, z_for

__all__ = ["render_table", "render_notes", "rules_markdown", "md_escape"]

#: Characters that Markdown (CommonMark and GitHub's dialect) reads as markup inside a
#: line: emphasis, code, links, strikethrough, and the escape itself; ``<`` only where it
#: could open an HTML tag (``<= 2 %`` stays as it is).
_MARKUP = str.maketrans({c: "\\" + c for c in "\\*_`[]~"})
_TAG = re.compile(r"<(?=[A-Za-z/!?])")


def md_escape(text) -> str:
    """``text`` as literal Markdown: ``sqrt(10*12.7/0.4)`` stays a formula, not italics."""
    return _TAG.sub(r"\\<", str(text).translate(_MARKUP))


def _cell(text) -> str:
    return md_escape(text).replace("|", "\\|").replace("\n", " ")


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
        # a context row is shown, not counted: say so where the verdict is read
        "verdict": [f"{c.verdict}, not counted" if c.role == CONTEXT else c.verdict
                    for c in claims],
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
    lines += [f"- *{md_escape(c.statement)}* ({c.verdict}): "
              f"{md_escape(c.explanation) if c.explanation else default}" for c in notes]
    return "\n".join(lines)


#: Examples shown in the method section: qualifier -> (stated, upper, as printed).
_EXAMPLES = {
    "value": ("94.8", None, "94.8 %"),
    "about": ("5", None, "about 5 %"),
    "nearly": ("60", None, "nearly 60 %"),
    "at most": ("2", None, "at most 2 %"),
    "at most about": ("5", None, "about 5 % (or fewer)"),
    "under": ("0.1", None, "under 0.1 %"),
    "over": ("94", None, "over 94 %"),
    "range": ("95", "96", "95-96 %"),
}


def rules_markdown() -> str:
    """The method section's rules: a table qualifier -> band -> decision, and the decision.

    Generated from :data:`QUALIFIERS` and :func:`band`, so the text and the code
    cannot drift apart.
    """
    import pandas as pd

    rows = []
    for q, (words, rule) in QUALIFIERS.items():
        x, y, shown = _EXAMPLES[q]
        rows.append({"qualifier": words, "band": rule,
                     "example": f"{shown} -> {band(q, x, y).text()}"})
    table = pd.DataFrame(rows).to_markdown(index=False, disable_numparse=True)
    return "\n".join([
        "### How a claim is judged",
        "",
        "Each qualifier of the paper's text has one rule, applied to every claim that uses "
        "it. The band is a function of the stated number x and of u, the place value of "
        "the last non-zero digit the paper prints (u = 1 for 5 % and 35, 0.1 for 0.5 % and "
        "94.8 %, 10 for 60 %):",
        "",
        table,
        "",
        f"A ratio (\"about 10x\", \"nearly 8x\") is judged relative to itself: u is "
        f"{100 * float(RATIO_TOLERANCE):g} % of the stated number, so about 10x -> "
        f"{band('about', '10', scale=1, ratio=True).text(1, 'x')} and nearly 8x -> "
        f"{band('nearly', '8', scale=1, ratio=True).text(1, 'x')}.",
        "",
        f"Decision: a result with Monte Carlo error is an interval estimate, the estimate "
        f"+- {Z:g} standard errors (for a share of n trials, Wilson's interval, which does "
        "not shrink to a point at 0 or 100 %). **agree** when that interval lies inside the "
        "band, **disagree** when it lies wholly outside, **undecided** when it straddles an "
        "edge: the simulation is too small to tell, and the row is shown but not counted. A "
        "number without Monte Carlo error (arithmetic, a table cell) is a point, so it agrees "
        "or disagrees. A claim about several benchmarks or conditions agrees when every part "
        "agrees, is *partly* when some parts disagree and others agree, disagrees when parts "
        "disagree and none agrees, and is undecided otherwise; so that such a claim is as "
        "sure as one interval, each of its m parts is judged with an interval widened to z_m "
        f"standard errors (Bonferroni: z_m = {z_for(10):.2f} for 10 parts), and so is the "
        "lowest or highest of m cells of a grid. 'Tends to x as n grows' is "
        "judged as 'about x' on the estimate pooled over the sizes from half the largest "
        "up. 'Rises' counts a rise only beyond the Monte Carlo noise (the last rate minus the "
        "first decidedly over 0, no fall on the way decidedly over 0). A number that is "
        "arithmetic under the model (an exact coverage) is decided by that value, and the "
        "simulation is its check. Other claims about a shape (falls, the worst, about the "
        "same) state their rule in their row and use point estimates.",
    ]) + "\n"
