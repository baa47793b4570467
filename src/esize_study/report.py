"""The reproduction report: every number the paper states beside ours.

Sections 1-3 (the data of "Variation in the Data", the worked examples of "For
Practitioners: The New Method without Statistics", and "Dimensioning the
Experiments") are evaluated here from the pipeline's tables as
:class:`esize_study.claims.Claim` records; sections 4 and 5 ("False Alarm Rate",
"Coverage") come from :mod:`esize_study.fa_claims` and :mod:`esize_study.cov_claims`.
Section 1 on the calibrated stand-in holds *calibration* rows: the stand-in was fitted
to Table tVariations, so they agree by construction and are counted apart
(:func:`headline`). Agreement counts come from the records
(:func:`esize_study.claims.summary`), :func:`method_section` writes the rules that
decide them, and :func:`to_html` renders the Markdown with markdown-it-py.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from functools import cache

from esize import critical_value

from . import paper
from .claims import (
    AGREE,
    CALIBRATION,
    DISAGREE,
    PARTLY,
    REPRODUCTION,
    UNDECIDED,
    Claim,
    render_table,
    rules_markdown,
    summary,
    verdict,
)
from .reproduction import (
    PRECISION_MARKS,
    binary_level_sensitivity,
    precision_mark,
    rounding_grid,
    variation_tolerance,
)

__all__ = [
    "data_claims",
    "data_section",
    "examples_claims",
    "examples_section",
    "precision_claims",
    "precision_section",
    "method_section",
    "headline",
    "to_html",
]

_VARIATION_RULE = "within 10 % of the paper's value or 0.15 points"


def data_claims(var_rows: Sequence[Mapping], role: str = CALIBRATION) -> list[Claim]:
    """Table tVariations: every S (and the stated T traits) beside ours, as records.

    ``role`` is ``calibration`` for the stand-in, which was fitted to these numbers
    (its T rows follow from the S values), and ``reproduction`` for measured data.
    """
    out = []
    for r in var_rows:
        b, lev = r["benchmark"], r["level"]
        if b not in paper.VARIATION_S:
            continue
        p = paper.VARIATION_S[b][paper.LEVELS.index(lev)]
        ours = float(r["S_pct"])
        out.append(Claim(f"tvariations.{b}.S.{lev}", b, f"S {lev}", f"{p:.1f} %",
                         f"{ours:.2f} % ({ours - p:+.2f})", _VARIATION_RULE,
                         verdict(abs(ours - p) <= variation_tolerance(p)),
                         values={"ours": ours, "paper": p}, role=role))
        if lev == "execution":
            pt = paper.VARIATION_T_EXECUTION[b]
            if pt == 0.0:
                pos = str(r["T2_positive"]).lower() == "true"
                out.append(Claim(f"tvariations.{b}.T2-nonpositive", b, "T^2 execution <= 0",
                                 "yes", "no" if pos else "yes", _VARIATION_RULE,
                                 verdict(not pos), values={"T2_positive": pos}, role=role))
            elif pt is not None:
                t = float(r["T_pct"])
                out.append(Claim(f"tvariations.{b}.T.execution", b, "T execution", f"{pt:.1f} %",
                                 f"{t:.2f} % ({t - pt:+.2f})", _VARIATION_RULE,
                                 verdict(abs(t - pt) <= variation_tolerance(pt)),
                                 values={"ours": t, "paper": pt}, role=role))
    return out


def data_section(claims: Sequence[Claim], shape: Sequence[int] | None = None) -> str:
    """Section 1: Table tVariations, from :func:`data_claims`.

    ``shape`` (binaries, executions, steady measurements) of the dataset, for the note
    on disagreements.
    """
    calibration = bool(claims) and all(c.role == CALIBRATION for c in claims)
    lines = [
        "## 1. The data: relative variation per level (Table tVariations)",
        "",
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


_ROUNDED = "equal after rounding to the paper's digits"


def examples_claims(we: Mapping) -> tuple[list[Claim], str]:
    """The worked examples, recomputed, beside the paper's printed values.

    Returns the records and the note that explains the one rounding difference.
    """
    p = we["paper"]
    out: list[Claim] = []

    def add(table, name, paper_value, ours, digits=1):
        if isinstance(paper_value, (list, tuple)):
            ok = all(abs(round(o, digits) - v) < 1e-9 for o, v in zip(ours, paper_value))
            shown = "[" + ", ".join(f"{o:.4f}" for o in ours) + "]"
            pv = "[" + ", ".join(f"{v:g}" for v in paper_value) + "]"
        else:
            ok = abs(round(ours, digits) - paper_value) < 1e-9
            shown = f"{ours:.4f}"
            pv = f"{paper_value:g}"
        out.append(Claim(f"examples.{table}.{name}", table, name, pv, shown, _ROUNDED,
                         verdict(ok), values={"ours": ours, "paper": paper_value}))

    a, b, c, d = we["tWEData"], we["tWE2Data"], we["tWQEData"], we["tWQEBoot"]
    pa, pb, pc, pd_ = p["tWEData"], p["tWE2Data"], p["tWQEData"], p["tWQEBoot"]
    for k in ("S3_sq", "S2_sq", "S1_sq", "grand_mean", "T2_sq", "T3_sq"):
        add("tWEData", k, pa[k], a[k])
    for k in ("S2_sq", "S1_sq", "T2_sq"):
        add("tWE2Data", k, pb[k], b[k])
    out.append(Claim("examples.tWE2Data.n1", "tWE2Data", "n1 (c1 = 10)", f"{pb['n1']}",
                     f"{b['n1']} (exact); {b['n1_paper_rounding']} with the paper's rounding",
                     "equal with the paper's rounding of the estimates",
                     verdict(b["n1_paper_rounding"] == pb["n1"]), "see the note below",
                     values={"ours": b["n1"], "paper_rounding": b["n1_paper_rounding"]}))
    for k in ("old_mean", "old_ci_half_width", "t_quantile_2df", "S3_sq_old", "S3_sq_new"):
        add("tWQEData", k, pc[k], c[k])
    add("tWQEData", "Fieller 95 % CI", pc["fieller"], c["fieller"])
    add("tWQEBoot", "replicate means", pd_["replicate_means"], d["replicate_means"])
    add("tWQEBoot", "replicate 1 from its stated indices", 9.0, d["replicate1_mean_from_indices"])
    return out, b["note"]


def examples_section(claims: Sequence[Claim], note: str) -> str:
    """Section 2: the worked examples, from :func:`examples_claims`."""
    return "\n".join([
        "## 2. Worked examples (Section \"For Practitioners: The New Method without "
        "Statistics\")",
        "",
        "Recomputed with the library; the paper prints rounded values, so agreement means "
        "equal after rounding to the paper's digits.",
        "",
        render_table(claims, first="table"),
        "",
        f"Note: {note}",
        "",
    ])


_PRECISION_VERDICT = {"": AGREE, "~": PARTLY, "*": DISAGREE}
_PRECISION_RULE = "rounds to the paper's value: agree; within +-0.1: partly; beyond: disagree"
_TWO_LEVEL = ("TCP OPT", "TCP")


@cache
def _grid(benchmark: str) -> tuple:
    return tuple(rounding_grid(benchmark))


@cache
def _sensitivity(benchmark: str) -> dict:
    return binary_level_sensitivity(benchmark)


def _cells(values) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


def _row_fit(benchmark: str, label: str) -> tuple | None:
    """S within Table tVariations' rounding that puts the whole row in the paper's cells."""
    printed = {float(h): paper.PRECISIONS[benchmark][i][0 if label == "ours" else 1]
               for i, h in enumerate(paper.PRECISION_HOURS)}
    for sv, cells in _grid(benchmark):
        if all(precision_mark(cells[(h, label)], p) == "" for h, p in printed.items()):
            return sv, [cells[(h, label)] for h in printed]
    return None


def _rounding_note(benchmark: str, hours: float, label: str, theirs: float) -> str:
    fit = _row_fit(benchmark, label)
    if fit:
        sv, vals = fit
        return (f"Table tVariations prints S to 0.1; with S = {' / '.join(f'{x:g}' for x in sv)} "
                f"%, within that rounding, the whole row's {label} cells are {_cells(vals)}, "
                "each rounding to the paper's")
    vals = [cells[(hours, label)] for _, cells in _grid(benchmark)]
    reach = any(precision_mark(v, theirs) == "" for v in vals)
    return (f"with S within the rounding of Table tVariations the cell ranges "
            f"{min(vals):.2f}-{max(vals):.2f}, "
            + ("which reaches the paper's value, but not together with the rest of its row"
               if reach else "which does not reach the paper's value"))


def _binaries_note(row: Mapping, ours: float, theirs: float) -> str:
    """The cell with one binary fewer and one more (the top count is a floor of the budget)."""
    k = int(row["binaries"])
    if k < 3:
        return ""
    var = (ours / critical_value(0.05, k - 1)) ** 2 * k
    alt = {kk: critical_value(0.05, kk - 1) * math.sqrt(var / kk) for kk in (k - 1, k + 1)}
    return (f"; {k} binaries fit the budget, {k - 1} would give {alt[k - 1]:.2f} and {k + 1} "
            f"{alt[k + 1]:.2f}" + (", so no whole number of binaries gives the paper's "
                                   f"{theirs:.1f}" if not any(precision_mark(v, theirs) == ""
                                                              for v in alt.values()) else ""))


def two_level_note(benchmark: str) -> str:
    """Why the ``ours`` cells of a benchmark planned without executions differ, computed."""
    r = _sensitivity(benchmark)
    mt = r["measurement_time"]
    fits = r["fits"]
    fam = paper.family(benchmark)
    fit = _row_fit(benchmark, "ours")
    lows = [min(cells[(float(h), "ours")] for _, cells in _grid(benchmark))
            for h in paper.PRECISION_HOURS]
    stated = (f"; the paper's text gives about {r['stated']:g} % for {fam}'s binary level "
              "after merging executions" if r["stated"] is not None else "")
    return (
        f"ours {_cells(r['ours'])} against the paper's {_cells(r['paper'])} "
        f"({' / '.join(map(str, r['binaries']))} binaries x {r['n1'][0]} measurements). "
        f"Not the measurement time: with measurements {1 / min(mt):g} times shorter or "
        f"{max(mt):g} times longer the cells are {_cells(mt[min(mt)])} and "
        f"{_cells(mt[max(mt)])} (the build dominates a binary's cost). The cost model only moves the binary count: a binary costs the build plus its "
        "warm-up and measurements, so the budgets buy "
        f"{' / '.join(map(str, r['binaries']))} binaries; counting the build alone "
        f"({' / '.join(map(str, r['build_only_binaries']))}) gives "
        f"{_cells(r['build_only'])}. What moves all three cells is the binary-level "
        "variance the plan uses: they round to the paper's for a binary-level variation of "
        + (f"{fits[0]:.3f}-{fits[1]:.3f} %" if fits else "no value tried")
        + f", below the three-level T3 = {r['t3']:.3f} % that Table tVariations implies "
        f"(S3^2 - S2^2/n2); merging executions into measurements gives {r['merged']:.3f} % "
        f"from the table{stated}. "
        + (f"Within the rounding of Table tVariations, S = {' / '.join(f'{x:g}' for x in fit[0])} "
           f"% already gives {_cells(fit[1])}. " if fit else
           "No S within the rounding of Table tVariations gives the row (the cells stay at "
           f"{_cells(lows)} or above). ")
        + "The paper's cells are consistent with a plan from a smaller binary-level "
        "variance, such as a two-level estimate after merging executions; ours follows the "
        "stated procedure on the three-level table")


def precision_claims(prec_rows: Sequence[Mapping]) -> list[Claim]:
    """Every number of Table tPrecisions from the paper's inputs, as records.

    One rule for every cell (:data:`esize_study.reproduction.PRECISION_MARKS`): our
    value rounds to the paper's (agree), is within +-0.1 of it (partly), or further
    (disagree). Every cell that does not agree is explained from computed numbers:
    for TCP the sensitivity to measurement time, cost model and binary-level variance
    (:func:`two_level_note`); otherwise what the rounding of Table tVariations' inputs
    and the whole number of binaries allow.
    """
    out = []
    for r in prec_rows:
        if r["source"] != "paper" or r["benchmark"] not in paper.PRECISIONS:
            continue
        h = float(r["hours"])
        if int(h) not in paper.PRECISION_HOURS:
            continue
        b = r["benchmark"]
        po, pd_ = paper.PRECISIONS[b][paper.PRECISION_HOURS.index(int(h))]
        design = f"{r['binaries']} x {r['n2']} x {r['n1']}"
        for label, ours, theirs in (("ours", float(r["ours_pct"]), po),
                                    ("default", float(r["default_pct"]), pd_)):
            mark = precision_mark(ours, theirs)
            what = f"{h:g} h {label}"
            note = ""
            if mark:
                if label == "ours" and b in _TWO_LEVEL:
                    note = f"see the note on {b} below; " + _rounding_note(b, h, label, theirs)
                else:
                    note = _rounding_note(b, h, label, theirs)
                    if label == "ours" and _row_fit(b, label) is None:
                        note += _binaries_note(r, ours, theirs)
            out.append(Claim(f"tprecisions.{b}.{h:g}h.{label}", b,
                             what + (f" ({design})" if label == "ours" else ""),
                             f"{theirs:.1f}", f"{ours:.2f}" + (f" {mark}" if mark else ""),
                             _PRECISION_RULE, _PRECISION_VERDICT[mark], note,
                             values={"ours": ours, "paper": theirs, "mark": mark}))
    return out


def precision_section(claims: Sequence[Claim]) -> str:
    """Section 3: Table tPrecisions, from :func:`precision_claims`."""
    marks = {m: sum(c.values.get("mark") == m for c in claims) for m in PRECISION_MARKS}
    lines = [
        "## 3. Dimensioning (Table tPrecisions)",
        "",
        "95 % CI half-width in % of the mean for 3, 6 and 9 hours of experiments (the design "
        "binaries x executions x measurements in brackets), from the paper's Table "
        "tVariations and costs (`tables/precisions.csv`, `source=paper`). The paper prints "
        "one decimal, so one rule marks every cell: "
        + "; ".join(f"`{m}` {t}" if m else f"no mark (agree): {t}" for m, t in
                    PRECISION_MARKS.items())
        + " (`~` is *partly*, `*` *disagree*). "
        f"{marks['']} of {len(claims)} numbers round to the paper's, {marks['~']} more are "
        f"within +-0.1, {marks['*']} differ by more.",
        "",
        render_table(claims, first="benchmark"),
    ]
    off = [c for c in claims if c.verdict != AGREE]
    if off:
        lines += ["", "Cells outside the paper's rounding interval:", ""]
        lines += [f"- {c.figure}, {c.statement.split(' (')[0]} ({c.ours}): {c.explanation}"
                  for c in off]
    two = [b for b in _TWO_LEVEL if any(c.figure == b and c.verdict != AGREE
                                        and "ours" in c.statement for c in claims)]
    if two:
        lines += ["", "Why the TCP cells sit above the paper's:", ""]
        lines += [f"- {b}: {two_level_note(b)}." for b in two]
    lines.append("")
    return "\n".join(lines) + "\n"


def method_section(calibration: bool = True) -> str:
    """The report's method section: roles of the rows and the rules that decide them.

    ``calibration`` says whether section 1 holds calibration rows (the stand-in).
    """
    roles = (
        "Rows have one of two roles. **Calibration** rows are numbers the data were fitted "
        "to: section 1 on the stand-in, whose model was solved from Table tVariations (its "
        "T rows follow from the S values), so at the paper's shape they agree by "
        "construction (a smaller dataset adds sampling error) and test the generator, not "
        "the method. **Reproduction** rows are results the method and the "
        "paper's procedures have to produce: the worked examples (exact arithmetic), Table "
        "tPrecisions (from the paper's own inputs), the false alarms and the coverage "
        "(simulated on the stand-in). The headline counts reproduction rows only."
        if calibration else
        "All rows are **reproduction** rows (the data were not fitted to the paper's "
        "table); the headline counts them.")
    return "\n".join([
        "## Method: what is counted and how a claim is judged",
        "",
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


def headline(claims: Sequence[Claim]) -> str:
    """The report's headline: reproduction rows counted, calibration rows stated apart."""
    s = summary(claims)
    r, c = s[REPRODUCTION], s[CALIBRATION]
    compared = r["total"] - r[UNDECIDED]
    text = (f"**{r[AGREE]} of {compared} compared numbers agree** (reproduction rows; "
            f"{r[PARTLY]} agree partly, {r[DISAGREE]} disagree, and {r[UNDECIDED]} more are "
            "undecided: their Monte Carlo error cannot decide them, so they are shown, not "
            "counted).")
    if c["total"]:
        text += (f" Calibration rows, which the stand-in was fitted to: {c[AGREE]} of "
                 f"{c['total']} hold; they are not part of the count.")
    return text


_STYLE = (
    "body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;line-height:1.4}"
    "table{border-collapse:collapse;margin:1em 0;font-size:0.9em}"
    "td,th{border:1px solid #999;padding:0.2em 0.5em;text-align:left}"
    "th{background:#eee}code{background:#f4f4f4}img{max-width:100%}"
)


def to_html(markdown: str, title: str = "esize reproduction report") -> str:
    """Render the report's Markdown (CommonMark with tables) as a standalone HTML page."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>\n"
        + body
        + "</body></html>\n"
    )
