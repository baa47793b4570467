"""Claims as records: verdicts, the one table renderer, counts and JSON round trips."""

import math
import re

import pytest

from esize_study import claims as cl


def _claims():
    return [
        cl.Claim("a.1", "fX", "rate tends to 5 %", "about 5 %", "4.9 %", "within 2 SE",
                 cl.AGREE, mc_error="0.3 %", values={"rate": 0.049}),
        cl.Claim("a.2", "fX", "grows", "grows", "rho 0.2", "rho > 0.8", cl.PARTLY,
                 "few sizes"),
        cl.Claim("a.3", "fY", "a | b", "yes", "no", "equal", cl.DISAGREE),
        cl.Claim("a.4", "all", "not a claim", "-", "none", "shown", cl.UNDECIDED,
                 values={"x": math.nan}),
    ]


def test_verdicts_are_checked():
    with pytest.raises(ValueError):
        cl.Claim("x", "f", "s", "p", "o", "r", "yes")
    assert cl.verdict(True) == cl.AGREE and cl.verdict(False) == cl.DISAGREE
    assert [cl.graded(s, 0.9, 0.5) for s in (0.95, 0.6, 0.1)] == [cl.AGREE, cl.PARTLY,
                                                                   cl.DISAGREE]


def test_tally_counts_records_not_text():
    assert cl.tally(_claims()) == (1, 3)
    assert cl.tally([]) == (0, 0)


def test_render_table_is_one_markdown_table():
    text = cl.render_table(_claims())
    lines = text.splitlines()
    assert re.match(r"^\| figure +\| claim +\| paper +\| ours +\| MC error +\| rule +\| "
                    r"verdict +\|$", lines[0])
    assert len(lines) == 2 + 4
    assert "a \\| b" in text  # a pipe inside a cell does not split it
    # constant rules and empty MC errors are left out
    same = [cl.Claim(f"b.{i}", "t", f"s{i}", "1", "1", "equal", cl.AGREE) for i in range(3)]
    head = cl.render_table(same, first="table").splitlines()[0]
    assert "rule" not in head and "MC error" not in head and head.startswith("| table")


def test_notes_list_what_does_not_agree():
    notes = cl.render_notes(_claims(), "see the figure.")
    assert "*grows* (partly): few sizes" in notes
    assert "*a | b* (disagree): see the figure." in notes
    assert "rate tends" not in notes and "not a claim" not in notes
    assert cl.render_notes(_claims()[:1]) == ""


def test_json_round_trip(tmp_path):
    p = tmp_path / "c.json"
    cl.write_claims(p, _claims())
    back = cl.read_claims(p)
    assert [c.id for c in back] == ["a.1", "a.2", "a.3", "a.4"]
    assert back[0] == _claims()[0]
    assert back[3].values == {"x": None}  # non-finite numbers are stored as null
