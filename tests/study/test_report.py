"""The report: sections 1-3 as claim records, roles and the headline, the method section, HTML."""

import json
import re

import pytest

from esize_study.claims import tables as ct
from esize_study.claims.claim import (
    AGREE,
    CALIBRATION,
    CONTEXT,
    DISAGREE,
    PARTLY,
    REPRODUCTION,
    UNDECIDED,
    Claim,
    tally,
)
from esize_study.estimate import examples as eex
from esize_study.estimate import precision as prec
from esize_study.report import assemble
from esize_study.report import sections as rsections


def test_data_claims_and_section():
    rows = [{"benchmark": "HTTP OPT", "level": "compilation", "S_pct": "0.21", "T_pct": "0.2",
             "T2_positive": "True"},
            {"benchmark": "HTTP OPT", "level": "execution", "S_pct": "3.0", "T_pct": "0",
             "T2_positive": "False"},
            {"benchmark": "mine", "level": "execution", "S_pct": "1", "T_pct": "1",
             "T2_positive": "True"}]
    claims = ct.data_claims(rows)
    assert [c.verdict for c in claims] == [AGREE, DISAGREE, AGREE]
    assert tally(claims) == (2, 3)
    # the stand-in was fitted to this table: calibration rows by default
    assert {c.role for c in claims} == {CALIBRATION} and tally(claims, REPRODUCTION) == (0, 0)
    text = rsections.data_section(claims, (6, 5, 14))
    # a section is its body: the report adds the numbered title (render.registry)
    assert text.startswith("S in % of the grand mean") and "(6 x 5 x 14)" in text
    assert "calibration rows" in text
    measured = ct.data_claims(rows, REPRODUCTION)
    assert {c.role for c in measured} == {REPRODUCTION}
    assert "calibration rows" not in rsections.data_section(measured)


def test_examples_agree_with_the_paper():
    we = json.loads(json.dumps(eex.worked_examples()))
    claims, note = ct.examples_claims(we)
    assert tally(claims) == (len(claims), len(claims)) and "18" in note
    assert rsections.examples_section(claims, note).startswith("Recomputed with the library")


@pytest.fixture(scope="module")
def precision():
    rows = prec.precision_table([], "paper")
    return ct.precision_claims([{k: str(v) for k, v in r.items()} for r in rows])


def test_precision_cells_are_marked_by_one_rule(precision):
    assert len(precision) == 60
    # one rule: rounds to the paper's value / within +-0.1 / beyond
    for c in precision:
        d = abs(c.values["ours"] - c.values["paper"])
        assert c.verdict == (AGREE if d <= 0.05 + 1e-9 else PARTLY if d <= 0.1 + 1e-9
                             else DISAGREE)
    counts = {v: sum(c.verdict == v for c in precision) for v in (AGREE, PARTLY, DISAGREE)}
    assert counts == {AGREE: 39, PARTLY: 14, DISAGREE: 7}
    off = [c for c in precision if c.verdict != AGREE]
    assert all(c.explanation for c in off)
    text = rsections.precision_section(precision)
    assert "39 of 60 numbers round to the paper's, 14 more are within +-0.1, 7 differ" in text
    assert "Cells outside the paper's rounding interval:" in text


def test_the_six_tcp_cells_are_explained_from_computed_numbers(precision):
    tcp = [c for c in precision if c.figure in ("TCP OPT", "TCP") and "ours" in c.statement]
    assert len(tcp) == 6 and all(c.verdict != AGREE for c in tcp)
    assert all(0.06 < c.values["ours"] - c.values["paper"] < 0.17 for c in tcp)
    text = rsections.precision_section(precision)
    assert "Why the TCP cells sit above the paper's:" in text
    note = ct.two_level_note("TCP OPT")
    assert "Not the measurement time" in note and "counting the build alone" in note
    assert "No S within the rounding of Table tVariations gives the row" in note
    assert "Within the rounding of Table tVariations" in ct.two_level_note("TCP")


def test_headline_counts_reproduction_rows_only():
    def c(i, verdict, role=REPRODUCTION):
        return Claim(f"c{i}", "f", "s", "p", "o", "r", verdict, role=role)

    records = [c(1, AGREE), c(2, AGREE), c(3, DISAGREE), c(4, UNDECIDED), c(5, PARTLY),
               c(6, AGREE, CALIBRATION), c(7, AGREE, CALIBRATION), c(8, DISAGREE, CALIBRATION),
               c(9, UNDECIDED, CONTEXT)]
    text = rsections.headline(records)
    head = re.search(r"\*\*(\d+) of (\d+) compared numbers agree\*\*", text)
    assert head and (int(head.group(1)), int(head.group(2))) == (2, 4)
    assert "1 agree partly, 1 disagree, and 1 more are undecided" in text
    assert "Calibration rows, which the stand-in was fitted to: 2 of 3 hold" in text
    assert "Calibration" not in rsections.headline(records[:5])


def test_method_section_states_roles_and_rules():
    text = rsections.method_section()
    assert text.startswith("Rows have one of two roles") and "**Calibration** rows" in text
    assert "nearly 60 % -> 50-60 %" in text and "undecided" in text
    assert "**Calibration**" not in rsections.method_section(calibration=False)


def test_html_uses_a_real_markdown_renderer():
    md = ("# Title\n\nSome *emphasis* and `code`.\n\n| a | b |\n|---|---|\n| 1 | x \\| y |\n\n"
          "- item\n\n![fig](figures/f.png)\n\n<script>alert(1)</script>\n")
    page = assemble.to_html(md, "t <1>")
    assert page.startswith("<!DOCTYPE html>") and "<title>t &lt;1&gt;</title>" in page
    assert "<h1>Title</h1>" in page and "<em>emphasis</em>" in page
    assert "<code>code</code>" in page and "<table>" in page and "<td>x | y</td>" in page
    assert "<li>item</li>" in page and re.search(r'<img src="figures/f.png" alt="fig"', page)
    assert "<script>" not in page
