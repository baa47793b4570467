"""The bodies of the report's sections, and its headline.

Every function returns a section's body, without its heading: the titles are
:data:`esize_study.render.registry.SECTIONS` and the report numbers them
(:mod:`esize_study.report.assemble`). The false-alarm and coverage sections are also
written on their own (``report_false_alarms.md``, ``report_coverage.md``) under their
unnumbered heading (:func:`esize_study.render.registry.section`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..claims.claim import (
    AGREE,
    ARITHMETIC,
    CALIBRATION,
    CONTEXT,
    DATA,
    DISAGREE,
    EVIDENCE,
    PARTLY,
    REPRODUCTION,
    SIMULATION,
    UNDECIDED,
    Claim,
    summary,
)
from ..claims.tables import MERGED_TEXT, TWO_LEVEL, two_level_note
from ..estimate.precision import PRECISION_MARKS
from ..render.tables import schemes_table
from .claim_tables import md_escape, render_notes, render_table, rules_markdown

__all__ = [
    "method_section",
    "data_section",
    "examples_section",
    "precision_section",
    "false_alarm_section",
    "coverage_section",
    "headline",
    "measured_headline",
]


def method_section(calibration: bool = True, measured: bool = False) -> str:
    """The report's method section (its body): roles of the rows and the rules that
    decide them.

    ``calibration`` says whether section 1 holds calibration rows (the stand-in);
    ``measured`` that the dataset is measured data, whose headline counts its own checks.
    """
    roles = (
        "Rows have one of two roles. **Calibration** rows are numbers the data were fitted "
        "to: section 1 on the stand-in, whose model was solved from Table tVariations (its "
        "T rows follow from the S values), so at the paper's shape they agree by "
        "construction (a smaller dataset adds sampling error) and test the generator, not "
        "the method. **Reproduction** rows are results the method and the "
        "paper's procedures have to produce: the worked examples (exact arithmetic), Table "
        "tPrecisions (from the paper's own inputs), the false alarms and the coverage "
        "(simulated on the stand-in). The headline counts reproduction rows only, and "
        "each kind of evidence apart: simulation rows (Monte Carlo error, a test of the "
        "method) and exact arithmetic rows (a test of the computation) are never added "
        "into one number. Context rows (a second convention of Table tPrecisions) are "
        "shown, not counted."
        if calibration else
        "The headline counts the checks computed from this dataset alone (section 6 "
        "states each rule); the paper's claims below are judged apart: those on "
        "simulations fed with this dataset's estimates, and those computed from the "
        "paper's own inputs (the worked examples, Table tPrecisions), which say nothing "
        "about this dataset." if measured else
        "All rows are **reproduction** rows (the data were not fitted to the paper's "
        "table); the headline counts them.")
    return "\n".join([
        roles,
        "",
        rules_markdown().rstrip(),
        "",
        "Table tPrecisions and the worked examples carry no Monte Carlo error: a worked "
        "example agrees when it rounds to the paper's printed digits; every Table "
        "tPrecisions number is marked by one rule (section 3). Calibration rows use the "
        "stand-in's tolerance (10 % of the paper's value or 0.15 points).",
        "",
    ])


def data_section(claims: Sequence[Claim], shape: Sequence[int] | None = None) -> str:
    """Section 1, Table tVariations, from
    :func:`esize_study.claims.tables.data_claims` (its body).

    ``shape`` (binaries, executions, steady measurements) of the dataset, for the note
    on disagreements.
    """
    calibration = bool(claims) and all(c.role == CALIBRATION for c in claims)
    lines = [
        "S in % of the grand mean, estimated with the paper's estimators after dropping the "
        "warm-up (the difference to the paper in brackets). Agreement: within 10 % of the "
        "paper's value or 0.15 percentage points.",
        "",
    ]
    if calibration:
        lines += [
            "These are **calibration rows**: the stand-in's model was solved from this table "
            "(the T rows follow from the S values), so they check the generator, not the "
            "method, and are counted apart from the reproduction (see the headline).",
            "",
        ]
    lines.append(render_table(claims, first="benchmark"))
    if any(c.verdict == DISAGREE for c in claims):
        size = f" ({' x '.join(map(str, shape))})" if shape else ""
        lines += [
            "",
            "Rows that disagree: S at a level is biased upward by the levels below it "
            "(E S_i^2 = sigma_i^2 + E S_(i-1)^2 / n_(i-1)) and estimated from few units when a "
            f"dataset is small{size}; the stand-in is calibrated for the paper's shape, 150 "
            "binaries x 100 executions, where every number of the table is reproduced.",
        ]
    return "\n".join(lines) + "\n"


def examples_section(claims: Sequence[Claim], note: str) -> str:
    """Section 2, the worked examples, from
    :func:`esize_study.claims.tables.examples_claims` (its body)."""
    return "\n".join([
        "Recomputed with the library; the paper prints rounded values, so agreement means "
        "equal after rounding to the paper's digits.",
        "",
        render_table(claims, first="table"),
        "",
        f"Note: {md_escape(note)}",
        "",
    ])


def precision_section(claims: Sequence[Claim], statements: Sequence[Claim] = ()) -> str:
    """Section 3, Table tPrecisions, from
    :func:`esize_study.claims.tables.precision_claims` (its body).

    HTTP and TCP come in both conventions (:data:`esize_study.claims.tables.MERGED_TEXT`):
    the paper's (merged) counted, the three-level one shown as context. ``statements``
    (:func:`esize_study.claims.arithmetic.statement_claims`: the worked example of the
    section, the notes of Tables tVariations and tPrecisions, "always better") follow
    in a table of their own, with their notes.
    """
    counted = [c for c in claims if c.role != CONTEXT]
    marks = {m: sum(c.values.get("mark") == m for c in counted) for m in PRECISION_MARKS}
    ours = [c for c in counted if " ours" in c.statement]
    context = [c for c in claims if c.role == CONTEXT]
    lines = [
        "95 % CI half-width in % of the mean for 3, 6 and 9 hours of experiments (the design "
        "binaries x executions x measurements in brackets), from the paper's Table "
        "tVariations and costs (`tables/precisions.csv`, `source=paper`). The paper prints "
        "one decimal, so one rule marks every cell: "
        + "; ".join(f"`{m}` {t}" if m else f"no mark (agree): {t}" for m, t in
                    PRECISION_MARKS.items())
        + " (`~` is *partly*, `*` *disagree*). "
        f"{marks['']} of {len(counted)} counted numbers round to the paper's, {marks['~']} more "
        f"are within +-0.1, {marks['*']} differ by more; of the {len(ours)} cells of our "
        f"method, {sum(c.verdict == AGREE for c in ours)} round to the paper's.",
        "",
    ]
    if context:
        n_ctx = sum(c.verdict == AGREE for c in context)
        lines += [MERGED_TEXT + f" With the three-level table instead, {n_ctx} of "
                  f"{len(context)} of these cells would round to the paper's.", ""]
    lines.append(render_table(claims, first="benchmark"))
    off = [c for c in counted if c.verdict != AGREE]
    if off:
        lines += ["", "Counted cells outside the paper's rounding interval:", ""]
        lines += [f"- {md_escape(c.figure)}, {md_escape(c.statement.split(' (')[0])} "
                  f"({md_escape(c.ours)}): {md_escape(c.explanation)}" for c in off]
    two = [b for b in TWO_LEVEL if any(c.figure == b and c.verdict != AGREE
                                        and "ours" in c.statement for c in claims)]
    if two:
        lines += ["", "Why the three-level TCP cells (context rows) sit above the paper's:", ""]
        lines += [f"- {b}: {md_escape(two_level_note(b))}." for b in two]
    if statements:
        lines += ["", "The statements of the section's text (its worked example for FFT at 6 "
                  "hours, \"always better\") and of the notes of Tables tVariations and "
                  "tPrecisions, each computed exactly:", "",
                  render_table(list(statements), first="table")]
        notes = render_notes(list(statements))
        if notes:
            lines += ["", notes]
    lines.append("")
    return "\n".join(lines) + "\n"


def _claims_section(intro: str, claims: list[Claim], default_note: str,
                    extras: Sequence[str] = ()) -> str:
    """A claims section's body: ``intro``, the claims table, the notes on claims
    (``default_note`` where a claim has none) and every non-empty block of ``extras``,
    each after a blank line."""
    parts = [intro, "", render_table(claims)]
    notes = render_notes(claims, default_note)
    for block in (notes, *extras):
        if block:
            parts += ["", block]
    return "\n".join(parts) + "\n"


def false_alarm_section(claims: list[Claim], validation_summary: str = "") -> str:
    """Section 4, false alarms (its body): a table of claims, then notes on each
    disagreement, then ``validation_summary``
    (:func:`esize_study.render.validation.false_alarm_validation`)."""
    intro = (
        "Each claim of the paper beside our number. Rates are false-alarm rates of 95 % "
        "intervals for the ratio of means of two systems drawn from the same benchmark; "
        "in brackets the Monte Carlo interval (+- 2 standard errors, Wilson) in %, judged "
        "against the band of the paper's qualifier (see *How a claim is judged*); the MC "
        "error is one standard error.")
    return _claims_section(intro, claims, "not explained further; see the figure.",
                           [validation_summary])


def coverage_section(claims: list[Claim], table=None, validation: str = "") -> str:
    """Section 5, coverage (its body): claims table, notes, the schemes comparison
    (``table``: ``coverage.csv``) and ``validation``
    (:func:`esize_study.render.validation.coverage_validation`)."""
    intro = (
        "Coverage of 95 % intervals for the ratio of means new/old (true ratio 0.95) in a "
        "hierarchical normal model fed with each benchmark's S^2 estimates; both systems "
        "have the same variances. Our number beside each claim of the paper, in brackets its "
        "Monte Carlo interval (+- 2 standard errors, Wilson) in %, judged against the band of "
        "the paper's qualifier (see *How a claim is judged*); the MC error is one standard "
        "error of a coverage estimate (the largest one where several benchmarks or cells are "
        "summarised). For the parametric intervals the coverage under the model is also "
        "computed exactly (`esize_study.estimate.coverage.model_coverage`), without "
        "simulation.")
    extra = schemes_table(table) if table is not None else []
    return _claims_section(intro, claims, "see the figure.",
                           ["\n".join(extra) if extra else "", validation])


#: How the headline names each kind of evidence (:data:`esize_study.claims.claim.EVIDENCE`).
_EVIDENCE_TEXT = {
    SIMULATION: "simulation claims (false alarms and coverage, the paper's empirical core)",
    ARITHMETIC: "exact arithmetic from the paper's own inputs (the worked examples, Table "
                "tPrecisions and the statements of its section)",
    DATA: "numbers estimated from this dataset (Table tVariations, and its own plans beside "
          "the default)",
}


def _kind_count(counts: dict) -> str:
    return (f"{counts[AGREE]} of {counts['total'] - counts[UNDECIDED]} compared agree "
            f"({counts[PARTLY]} partly, {counts[DISAGREE]} disagree; {counts[UNDECIDED]} more "
            "undecided)")


def headline(claims: Sequence[Claim]) -> str:
    """The report's headline: reproduction rows counted by kind of evidence (simulation,
    arithmetic, data) apart, calibration rows stated apart.

    Simulation rows carry Monte Carlo error and test the method; arithmetic rows are
    exact and test the computation; they are never added into one number.
    """
    parts = []
    for kind in EVIDENCE:
        r = summary(claims, kind)[REPRODUCTION]
        if r["total"]:
            parts.append((kind, r))
    if not parts:
        return "**No claim of the paper could be compared on this dataset.**"
    (kind, r), rest = parts[0], parts[1:]
    text = (f"**{_EVIDENCE_TEXT[kind][0].upper()}{_EVIDENCE_TEXT[kind][1:]}: "
            f"{_kind_count(r)}.**")
    for kind, r in rest:
        text += f" {_EVIDENCE_TEXT[kind][0].upper()}{_EVIDENCE_TEXT[kind][1:]}: {_kind_count(r)}."
    text += (" Undecided rows are shown, not counted: their Monte Carlo error cannot decide "
             "them. The kinds are not added up: arithmetic rows are exact and check the "
             "computation, simulation rows test the method.")
    c = summary(claims)[CALIBRATION]
    if c["total"]:
        text += (f" Calibration rows, which the stand-in was fitted to: {c[AGREE]} of "
                 f"{c['total']} hold; they are not part of any count.")
    ctx = summary(claims)[CONTEXT]
    if ctx["total"]:
        text += (f" {ctx['total']} context rows (another convention, or not a claim of the "
                 "paper) are shown, not counted.")
    return text


def _count(claims: Sequence[Claim]) -> str:
    counts = summary(claims)[REPRODUCTION]
    return (f"{counts[AGREE]} of {counts['total'] - counts[UNDECIDED]} compared agree "
            f"({counts[PARTLY]} partly, {counts[DISAGREE]} disagree, {counts[UNDECIDED]} "
            "undecided)")


def measured_headline(checks: Sequence[dict], on_data: Sequence[Claim],
                      paper_inputs: Sequence[Claim]) -> str:
    """The headline of a measured dataset's report: the checks computed from the
    dataset (``checks``, rows of ``tables/measured_checks.csv``) counted, the paper's
    claims stated apart: ``on_data`` (simulations fed with the dataset's estimates) and
    ``paper_inputs`` (the worked examples and Table tPrecisions)."""
    n = {v: sum(c["verdict"] == v for c in checks) for v in (AGREE, DISAGREE, UNDECIDED)}
    text = (f"**{len(checks)} checks on this dataset: {n[AGREE]} agree, {n[DISAGREE]} "
            f"disagree, {n[UNDECIDED]} undecided** (section 6 states each check's rule)."
            if checks else "**No check was computed on this dataset** (section 6).")
    parts = []
    if on_data:
        parts.append("the paper's claims judged on this dataset's estimates and on "
                     "simulations fed with them (the data, false-alarm and coverage "
                     f"sections): {_count(on_data)}")
    if paper_inputs:
        parts.append("rows computed from the paper's own inputs (the worked examples and "
                     "Table tPrecisions), which "
                     f"test the arithmetic, not this dataset: {_count(paper_inputs)}")
    if parts:
        text += " Not counted in it: " + "; ".join(parts) + "."
    return text
