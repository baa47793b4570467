"""The report: sections 1-3 as claim records, counts from records, HTML rendering."""

import json
import re

from esize_study import report
from esize_study import reproduction as rp
from esize_study.claims import AGREE, DISAGREE, tally


def test_data_claims_and_section():
    rows = [{"benchmark": "HTTP OPT", "level": "compilation", "S_pct": "0.21", "T_pct": "0.2",
             "T2_positive": "True"},
            {"benchmark": "HTTP OPT", "level": "execution", "S_pct": "3.0", "T_pct": "0",
             "T2_positive": "False"},
            {"benchmark": "mine", "level": "execution", "S_pct": "1", "T_pct": "1",
             "T2_positive": "True"}]
    claims = report.data_claims(rows)
    assert [c.verdict for c in claims] == [AGREE, DISAGREE, AGREE]
    assert tally(claims) == (2, 3)
    text = report.data_section(claims, (6, 5, 14))
    assert text.startswith("## 1. The data") and "(6 x 5 x 14)" in text


def test_examples_and_precision_claims_agree_with_the_paper():
    we = json.loads(json.dumps(rp.worked_examples()))
    claims, note = report.examples_claims(we)
    assert tally(claims) == (len(claims), len(claims)) and "18" in note
    assert report.examples_section(claims, note).startswith("## 2. Worked examples")
    rows = rp.precision_table([], "paper")
    prec = report.precision_claims([{k: str(v) for k, v in r.items()} for r in rows])
    assert len(prec) == 60
    yes, total = tally(prec)
    assert yes >= 54
    text = report.precision_section(prec)
    off = [c for c in prec if c.verdict != AGREE]
    assert all(c.explanation for c in off)
    if off:
        assert "Cells that differ by more than 0.1:" in text


def test_html_uses_a_real_markdown_renderer():
    md = ("# Title\n\nSome *emphasis* and `code`.\n\n| a | b |\n|---|---|\n| 1 | x \\| y |\n\n"
          "- item\n\n![fig](figures/f.png)\n\n<script>alert(1)</script>\n")
    page = report.to_html(md, "t <1>")
    assert page.startswith("<!DOCTYPE html>") and "<title>t &lt;1&gt;</title>" in page
    assert "<h1>Title</h1>" in page and "<em>emphasis</em>" in page
    assert "<code>code</code>" in page and "<table>" in page and "<td>x | y</td>" in page
    assert "<li>item</li>" in page and re.search(r'<img src="figures/f.png" alt="fig"', page)
    assert "<script>" not in page
