"""The paper's tables as claims: Table tVariations, the worked examples, Table tPrecisions.

Sections 1-3 of the report (the data of "Variation in the Data", the worked examples
of "For Practitioners: The New Method without Statistics", and "Dimensioning the
Experiments") are evaluated here from the pipeline's tables as
:class:`esize_study.claims.claim.Claim` records. Section 1 on the calibrated stand-in
holds *calibration* rows: the stand-in was fitted to Table tVariations, so they agree
by construction and are counted apart. Every Table tPrecisions cell that does not
agree is explained from computed numbers (:func:`two_level_note` and the notes on
rounding).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache

from esize import critical_value

from ..estimate.precision import (
    binary_level_sensitivity,
    merged_cells,
    precision_mark,
    rounding_grid,
)
from ..estimate.variation import variation_tolerance
from ..paper import numbers as paper
from .claim import (
    AGREE,
    ARITHMETIC,
    CALIBRATION,
    CONTEXT,
    DATA,
    DISAGREE,
    PARTLY,
    REPRODUCTION,
    Claim,
    verdict,
)

__all__ = ["data_claims", "examples_claims", "precision_claims", "two_level_note",
           "TWO_LEVEL", "MERGED_TEXT"]

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
        out.append(_within(f"tvariations.{b}.S.{lev}", b, f"S {lev}", ours, p, role))
        if lev == "execution":
            pt = paper.VARIATION_T_EXECUTION[b]
            if pt == 0.0:
                pos = str(r["T2_positive"]).lower() == "true"
                why = (f"T^2 of the execution level is positive here (T = "
                       f"{float(r['T_pct']):.2f} %), where the paper leaves T out" if pos else "")
                out.append(Claim(f"tvariations.{b}.T2-nonpositive", b, "T^2 execution <= 0",
                                 "yes", "no" if pos else "yes",
                                 "T^2 of the execution level at most 0, as the paper's blank",
                                 verdict(not pos), why, values={"T2_positive": pos}, role=role,
                                 evidence=DATA))
            elif pt is not None:
                out.append(_within(f"tvariations.{b}.T.execution", b, "T execution",
                                   float(r["T_pct"]), pt, role))
    return out


def _within(cid: str, bench: str, what: str, ours: float, paper_pct: float, role: str) -> Claim:
    """A Table tVariations value (in %) against the paper's, within its tolerance; a row
    that disagrees says by how much, and what the tolerance was."""
    tol = variation_tolerance(paper_pct)
    ok = abs(ours - paper_pct) <= tol
    why = "" if ok else (f"ours {ours:.2f} % against {paper_pct:.1f} %: "
                         f"{abs(ours - paper_pct):.2f} points off, the tolerance {tol:.2f}")
    return Claim(cid, bench, what, f"{paper_pct:.1f} %", f"{ours:.2f} % ({ours - paper_pct:+.2f})",
                 _VARIATION_RULE, verdict(ok), why, values={"ours": ours, "paper": paper_pct},
                 role=role, evidence=DATA)


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
                         verdict(ok), values={"ours": ours, "paper": paper_value},
                         evidence=ARITHMETIC))

    a, b, c, d = we["tWEData"], we["tWE2Data"], we["tWQEData"], we["tWQEBoot"]
    pa, pb, pc, pd_ = p["tWEData"], p["tWE2Data"], p["tWQEData"], p["tWQEBoot"]
    for k in ("S3_sq", "S2_sq", "S1_sq", "grand_mean", "T2_sq", "T3_sq"):
        add("tWEData", k, pa[k], a[k])
    for k in ("S2_sq", "S1_sq", "T2_sq"):
        add("tWE2Data", k, pb[k], b[k])
    # a count has no digits to round: the exact computation decides; the paper's
    # rounded inputs are shown beside it and explained in the note
    out.append(Claim("examples.tWE2Data.n1", "tWE2Data", "n1 (c1 = 10)", f"{pb['n1']}",
                     f"{b['n1']} (exact); {b['n1_paper_rounding']} from the estimates as the "
                     "paper prints them", "equal to the paper's count (computed exactly)",
                     verdict(b["n1"] == pb["n1"]),
                     "the paper computes n1 from its rounded estimates; see the note below",
                     values={"ours": b["n1"], "paper_rounding": b["n1_paper_rounding"]},
                     evidence=ARITHMETIC))
    for k in ("old_mean", "old_ci_half_width", "t_quantile_2df", "S3_sq_old", "S3_sq_new"):
        add("tWQEData", k, pc[k], c[k])
    add("tWQEData", "Fieller 95 % CI", pc["fieller"], c["fieller"])
    add("tWQEBoot", "replicate means", pd_["replicate_means"], d["replicate_means"])
    add("tWQEBoot", "replicate 1 from its stated indices", 9.0, d["replicate1_mean_from_indices"])
    return out, b["note"]


_PRECISION_VERDICT = {"": AGREE, "~": PARTLY, "*": DISAGREE}
_PRECISION_RULE = "rounds to the paper's value: agree; within +-0.1: partly; beyond: disagree"
#: Benchmarks whose plan drops the execution level (their cells get a note).
TWO_LEVEL = ("TCP OPT", "TCP")


@cache
def _grid(benchmark: str) -> tuple:
    return tuple(rounding_grid(benchmark))


@cache
def _merged(benchmark: str) -> dict:
    """:func:`merged_cells` of a benchmark by hours (computed once per benchmark)."""
    return {c["hours"]: c for c in merged_cells(benchmark)}


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
        + "The paper's cells follow from a plan on the merged two-level variances of its "
        "text (the counted rows above); these context rows follow the stated procedure on "
        "the three-level table")


#: How the HTTP and TCP rows are planned, for the report (the paper's convention).
MERGED_TEXT = (
    "For HTTP and TCP the execution level has T^2 <= 0, so the plan runs one execution "
    "per binary. The paper re-estimates the variances after merging executions into "
    "measurements and gives the new binary-level variation in its text (about 0.2 % for "
    "HTTP, 0.5 % for TCP), not in Table tVariations; its Table tPrecisions follows from "
    "those values. Two conventions are shown for these rows: **merged** (the paper's, "
    "counted): the binary level from the text, the measurement level the pooled "
    "within-binary variance of the merged measurements from Table tVariations' S; and "
    "**three-level** (shown for context, not counted): the binary level T3^2 = S3^2 - "
    "S2^2/n2 of the three-level table.")


def precision_claims(prec_rows: Sequence[Mapping]) -> list[Claim]:
    """Every number of Table tPrecisions from the paper's inputs, as records.

    One rule for every cell (:data:`esize_study.estimate.precision.PRECISION_MARKS`): our
    value rounds to the paper's (agree), is within +-0.1 of it (partly), or further
    (disagree). Every cell that does not agree is explained from computed numbers:
    for TCP the sensitivity to measurement time, cost model and binary-level variance
    (:func:`two_level_note`); otherwise what the rounding of Table tVariations' inputs
    and the whole number of binaries allow.

    The ``ours`` cells of HTTP and TCP come twice (:data:`MERGED_TEXT`): planned from
    the merged two-level variances of the paper's text
    (:func:`esize_study.estimate.precision.merged_cells`), the convention the paper
    used, counted; and from the three-level table (the rows of ``precisions.csv``),
    with role ``context``.
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
        merged = _merged(b)
        for label, ours, theirs in (("ours", float(r["ours_pct"]), po),
                                    ("default", float(r["default_pct"]), pd_)):
            mark = precision_mark(ours, theirs)
            what = f"{h:g} h {label}"
            note = ""
            two_conventions = label == "ours" and h in merged
            if mark:
                if label == "ours" and b in TWO_LEVEL:
                    note = f"see the note on {b} below; " + _rounding_note(b, h, label, theirs)
                else:
                    note = _rounding_note(b, h, label, theirs)
                    if label == "ours" and _row_fit(b, label) is None:
                        note += _binaries_note(r, ours, theirs)
            if two_conventions:
                m = merged[h]
                mm = precision_mark(m["ours_pct"], theirs)
                out.append(Claim(f"tprecisions.{b}.{h:g}h.ours-merged", b,
                                 f"{what}, merged ({m['binaries']} x 1 x {m['n1']})",
                                 f"{theirs:.1f}", f"{m['ours_pct']:.2f}" + (f" {mm}" if mm else ""),
                                 _PRECISION_RULE, _PRECISION_VERDICT[mm],
                                 _rounding_merged(b, h, theirs) if mm else "",
                                 values={"ours": m["ours_pct"], "paper": theirs, "mark": mm,
                                         "convention": "merged"}, evidence=ARITHMETIC))
            out.append(Claim(f"tprecisions.{b}.{h:g}h.{label}", b,
                             what + (f", three-level ({design})" if two_conventions else
                                     f" ({design})" if label == "ours" else ""),
                             f"{theirs:.1f}", f"{ours:.2f}" + (f" {mark}" if mark else ""),
                             _PRECISION_RULE, _PRECISION_VERDICT[mark], note,
                             values={"ours": ours, "paper": theirs, "mark": mark,
                                     "convention": "three-level" if two_conventions else ""},
                             role=CONTEXT if two_conventions else REPRODUCTION,
                             evidence=ARITHMETIC))
    return out


def _rounding_merged(benchmark: str, hours: float, theirs: float) -> str:
    """Where a merged-convention cell lies when the text's binary-level value moves
    within its printed rounding (one digit: +-0.05 points)."""
    stated = paper.MERGED_BINARY_PCT[paper.family(benchmark)]
    grid = [stated - 0.05 + 0.01 * i for i in range(11)]
    vals = [c["ours_pct"] for x in grid for c in merged_cells(benchmark, [hours], x)]
    reach = any(precision_mark(v, theirs) == "" for v in vals)
    return (f"with the text's binary-level value anywhere within its rounding "
            f"({stated - 0.05:.2f}-{stated + 0.05:.2f} %) the cell ranges "
            f"{min(vals):.2f}-{max(vals):.2f}, which "
            + ("reaches the paper's value" if reach else "does not reach the paper's value"))
