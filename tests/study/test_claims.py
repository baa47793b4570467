"""Claims as records: verdicts, the one table renderer, counts and JSON round trips."""

import math
import re

import pytest

from esize_study.claims import claim as cl
from esize_study.estimate import rates as erates
from esize_study.report import claim_tables


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
    text = claim_tables.render_table(_claims())
    lines = text.splitlines()
    assert re.match(r"^\| figure +\| claim +\| paper +\| ours +\| MC error +\| rule +\| "
                    r"verdict +\|$", lines[0])
    assert len(lines) == 2 + 4
    assert "a \\| b" in text  # a pipe inside a cell does not split it
    # constant rules and empty MC errors are left out
    same = [cl.Claim(f"b.{i}", "t", f"s{i}", "1", "1", "equal", cl.AGREE) for i in range(3)]
    head = claim_tables.render_table(same, first="table").splitlines()[0]
    assert "rule" not in head and "MC error" not in head and head.startswith("| table")


def test_notes_list_what_does_not_agree():
    notes = claim_tables.render_notes(_claims(), "see the figure.")
    assert "*grows* (partly): few sizes" in notes
    assert "*a | b* (disagree): see the figure." in notes
    assert "rate tends" not in notes and "not a claim" not in notes
    assert claim_tables.render_notes(_claims()[:1]) == ""


def test_json_round_trip(tmp_path):
    p = tmp_path / "c.json"
    cl.write_claims(p, _claims())
    back = cl.read_claims(p)
    assert [c.id for c in back] == ["a.1", "a.2", "a.3", "a.4"]
    assert back[0] == _claims()[0]
    assert back[3].values == {"x": None}  # non-finite numbers are stored as null


# -- roles ------------------------------------------------------------------------------
def test_roles_are_checked_counted_apart_and_stored(tmp_path):
    with pytest.raises(ValueError):
        cl.Claim("x", "f", "s", "p", "o", "r", cl.AGREE, role="fitted")
    rows = _claims() + [
        cl.Claim("c.1", "t", "S", "1", "1", "r", cl.AGREE, role=cl.CALIBRATION),
        cl.Claim("c.2", "t", "S", "1", "3", "r", cl.DISAGREE, role=cl.CALIBRATION),
    ]
    assert cl.tally(rows) == (2, 5)
    assert cl.tally(rows, cl.REPRODUCTION) == (1, 3)
    assert cl.tally(rows, cl.CALIBRATION) == (1, 2)
    s = cl.summary(rows)
    assert s[cl.REPRODUCTION] == {"agree": 1, "partly": 1, "disagree": 1, "undecided": 1,
                                  "total": 4}
    assert s[cl.CALIBRATION]["total"] == 2 and s[cl.CONTEXT]["total"] == 0
    p = tmp_path / "c.json"
    cl.write_claims(p, rows)
    assert [c.role for c in cl.read_claims(p)][-2:] == [cl.CALIBRATION, cl.CALIBRATION]
    # records written before roles existed read back as reproduction rows
    old = {k: v for k, v in _claims()[0].to_dict().items() if k != "role"}
    assert cl.Claim.from_dict(old).role == cl.REPRODUCTION


# -- qualifiers -------------------------------------------------------------------------
@pytest.mark.parametrize("stated, unit", [("5", 1), ("0.5", 0.1), ("94.8", 0.1), ("60", 10),
                                          ("35", 1), (0.5, 0.1), ("0.1", 0.1), ("3", 1)])
def test_unit_is_the_last_nonzero_digit(stated, unit):
    assert cl.unit_of(stated) == pytest.approx(unit)


@pytest.mark.parametrize("qualifier, stated, upper, lo, hi", [
    ("value", "94.8", None, 0.9475, 0.9485),
    ("about", "5", None, 0.04, 0.06),
    ("about", "95", None, 0.94, 0.96),
    ("about", "0.5", None, 0.004, 0.006),
    ("nearly", "60", None, 0.50, 0.60),
    ("nearly", "9", None, 0.08, 0.09),
    ("at most", "2", None, -math.inf, 0.02),
    ("at most about", "5", None, -math.inf, 0.06),
    ("under", "0.1", None, -math.inf, 0.001),
    ("over", "94", None, 0.94, math.inf),
    ("range", "95", "96", 0.945, 0.965),
])
def test_one_band_per_qualifier(qualifier, stated, upper, lo, hi):
    b = cl.band(qualifier, stated, upper)
    assert b.lo == pytest.approx(lo) and b.hi == pytest.approx(hi)
    assert b.hi_open == (qualifier == "under") and b.lo_open == (qualifier == "over")


def test_bands_no_longer_accept_what_the_old_tolerances_did():
    # the old rules accepted 50-70 % for "nearly 60 %" and anything >= 66.5 % for "about 95 %"
    nearly60, about95 = cl.band("nearly", "60"), cl.band("about", "95")
    assert nearly60.contains(0.55) and not nearly60.contains(0.65)
    assert not nearly60.contains(0.70) and not about95.contains(0.90)
    assert not about95.contains(0.665) and about95.contains(0.951)
    # open ends exclude the stated number itself
    assert not cl.band("under", "2", scale=1).contains(2.0)
    assert not cl.band("over", "94").contains(0.94) and cl.band("at most", "2").contains(0.02)
    assert cl.band("about", "35", scale=1).text(1, " binaries") == "34-36 binaries"
    with pytest.raises(ValueError):
        cl.band("roughly", "5")
    with pytest.raises(ValueError):
        cl.band("range", "95")


def test_wilson_interval_solves_the_score_equation_and_stays_open_at_zero():
    for p, n in ((0.05, 1000), (0.5, 40), (0.97, 300)):
        lo, hi = erates.proportion_interval(p, n)
        assert lo < p < hi
        for end in (lo, hi):  # (p - end)^2 = z^2 end (1 - end) / n
            assert (p - end) ** 2 == pytest.approx(erates.Z**2 * end * (1 - end) / n)
    lo, hi = erates.proportion_interval(0.0, 1000)
    assert lo == 0.0 and hi == pytest.approx(4 / 1004)  # z^2 / (n + z^2)
    assert all(math.isnan(x) for x in erates.proportion_interval(0.5, 0))
    assert erates.normal_interval(1.0, 0.1) == pytest.approx((0.8, 1.2))


def test_decide_from_the_interval_estimate():
    b = cl.band("about", "5")
    assert cl.decide((0.045, 0.055), b) == cl.AGREE
    assert cl.decide((0.07, 0.09), b) == cl.DISAGREE
    assert cl.decide((0.035, 0.055), b) == cl.UNDECIDED
    assert cl.decide((math.nan, math.nan), b) == cl.UNDECIDED
    # "under 0.1 %" from 0 alarms in 1000 comparisons cannot be decided; in 10,000 it can
    under = cl.band("under", "0.1")
    assert cl.decide(erates.proportion_interval(0.0, 1000), under) == cl.UNDECIDED
    assert cl.decide(erates.proportion_interval(0.0, 10000), under) == cl.AGREE
    # a point (no Monte Carlo error) always decides, an open end excludes itself
    assert cl.decide((0.02, 0.02), cl.band("under", "2")) == cl.DISAGREE
    assert cl.decide((0.02, 0.02), cl.band("at most", "2")) == cl.AGREE


def test_combine_parts():
    A, P, D, U = cl.AGREE, cl.PARTLY, cl.DISAGREE, cl.UNDECIDED
    assert cl.combine([A, A]) == A
    assert cl.combine([A, D]) == P and cl.combine([A, U, D]) == P
    assert cl.combine([D, D]) == D and cl.combine([D, U]) == D
    assert cl.combine([A, U]) == U and cl.combine([]) == U
    assert cl.combine([P, A]) == P


def test_rules_markdown_is_generated_from_the_rules():
    text = claim_tables.rules_markdown()
    for words, rule in cl.QUALIFIERS.values():
        assert rule in text and words in text
    assert "nearly 60 % -> 50-60 %" in text and "under 0.1 % -> < 0.1 %" in text
    assert "95-96 % -> 94.5-96.5 %" in text and "**undecided**" in text


def test_parts_widen_their_intervals_so_a_claim_is_as_sure_as_one_interval():
    from scipy.special import ndtr

    assert erates.z_for(1) == erates.Z
    zs = [erates.z_for(m) for m in (2, 10, 500)]
    assert zs == sorted(zs) and zs[1] == pytest.approx(2.837, abs=1e-3)
    for m, z in zip((2, 10, 500), zs):  # m parts together miss as often as one +-2 SE interval
        assert m * 2 * ndtr(-z) == pytest.approx(2 * ndtr(-erates.Z))
    # one benchmark at 93.5 % of 10,000 is "under 94 %" alone, undecided among ten
    p, n, over94 = 0.935, 10000, cl.band("over", "94")
    assert cl.decide(erates.proportion_interval(p, n), over94) == cl.DISAGREE
    assert cl.decide(erates.proportion_interval(p, n, erates.z_for(10)), over94) == cl.UNDECIDED


def test_a_table_tvariations_row_that_disagrees_says_by_how_much():
    from esize_study.claims import tables as ct

    rows = [{"benchmark": "TCP", "level": "execution", "S_pct": "15.6", "T_pct": "15.08",
             "T2_positive": "True"}]
    by_id = {c.id: c for c in ct.data_claims(rows, cl.REPRODUCTION)}
    s = by_id["tvariations.TCP.S.execution"]
    assert s.verdict == cl.DISAGREE
    assert s.explanation == "ours 15.60 % against 1.8 %: 13.80 points off, the tolerance 0.18"
    t = by_id["tvariations.TCP.T2-nonpositive"]
    assert t.verdict == cl.DISAGREE and "T = 15.08 %" in t.explanation and "at most 0" in t.rule
    rows[0].update(S_pct="1.9", T2_positive="False")
    by_id = {c.id: c for c in ct.data_claims(rows, cl.REPRODUCTION)}
    assert all(c.verdict == cl.AGREE and c.explanation == "" for c in by_id.values())
