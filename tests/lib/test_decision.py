import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import esize as ez
from esize._decision import wording_note


@pytest.mark.parametrize(
    "lo, hi, t, expected",
    [
        (0.90, 0.96, 0.02, "faster"),
        (0.90, 0.985, 0.02, "inconclusive"),
        (1.03, 1.10, 0.02, "slower"),
        (0.99, 1.01, 0.02, "same"),
        (0.99, 1.01, 0.0, "inconclusive"),
        (0.95, 0.99, 0.0, "faster"),
        (1.001, 1.2, 0.0, "slower"),
    ],
)
def test_verdicts(lo, hi, t, expected):
    assert ez.verdict(lo, hi, t) == expected


def test_rates_swap_words():
    assert ez.verdict(0.90, 0.96, 0.02, lower_is_better=False) == "slower"
    assert ez.verdict(1.03, 1.10, 0.02, lower_is_better=False) == "faster"


def test_describe():
    text = ez.describe(0.945, 0.92, 0.97)
    assert text.startswith("new is 5.50 % faster")
    assert "3.00 % .. 8.00 %" in text


def test_bad_threshold():
    with pytest.raises(ez.EsizeError):
        ez.verdict(0.9, 1.0, -0.1)


@pytest.mark.parametrize("ratio", [9.8 / 10.0, 0.98, 1 - 0.02, 0.9799999999999999,
                                   0.9800000000000001, 49 / 50])
def test_a_change_of_exactly_the_threshold_is_same_whatever_the_last_bit(ratio):
    # Endpoints within a relative 1e-12 of 1 -+ t are on the boundary, which belongs to
    # "same"; a point interval a rounding error below 1 - t is not "faster".
    assert ez.verdict(ratio, ratio, 0.02) == "same"
    assert ez.verdict(ratio, ratio, 0.02, lower_is_better=False) == "same"
    up = 2.0 - ratio  # 1.02 up to rounding
    assert ez.verdict(up, up, 0.02) == "same"
    assert ez.verdict(ratio, up, 0.02) == "same"


@pytest.mark.parametrize("ratio", [1.0, 1 - 2**-53, 1 + 2**-52, 10.2 / 10.2])
def test_no_change_up_to_rounding_is_not_a_change(ratio):
    assert ez.verdict(ratio, ratio, 0.0) == "inconclusive"


def test_changes_beyond_the_tolerance_still_count():
    assert ez.verdict(0.98 - 1e-9, 0.98 - 1e-9, 0.02) == "faster"
    assert ez.verdict(1.02 + 1e-9, 1.02 + 1e-9, 0.02) == "slower"
    assert ez.verdict(1 - 1e-9, 1 - 1e-9, 0.0) == "faster"
    assert ez.verdict(0.98 - 1e-9, 1.0, 0.02) == "inconclusive"


# -- describe: factors from 2x on, words on both limits ----------------------------------
def test_a_large_speed_up_is_a_factor_not_a_percentage():
    # issue 11: 0.0633 used to read "93.67 % faster"
    assert ez.describe(0.0633, 0.0598, 0.0671) == "new is 15.8x faster (95 % CI 14.9x .. 16.7x)"


def test_a_throughput_that_dropped_to_a_fifth_is_a_factor_slower():
    # issue 11: a rate ratio of 0.18 used to read "81.75 % slower"
    text = ez.describe(0.18, 0.17, 0.19, lower_is_better=False)
    assert text == "new is 5.56x slower (95 % CI 5.26x .. 5.88x)"


def test_a_large_slow_down_of_a_time_and_speed_up_of_a_rate():
    assert ez.describe(3.0, 2.5, 3.5) == "new is 3.00x slower (95 % CI 2.50x .. 3.50x)"
    assert ez.describe(3.0, 2.5, 3.5, lower_is_better=False) == (
        "new is 3.00x faster (95 % CI 2.50x .. 3.50x)")


def test_an_interval_across_1_names_the_direction_of_each_limit():
    # no negative percentages meaning the opposite direction
    text = ez.describe(0.969, 0.925, 1.012)
    assert text == "new is 3.10 % faster (95 % CI 1.20 % slower .. 7.50 % faster)"
    text = ez.describe(1.0144, 0.9507, 1.0783)
    assert text == "new is 1.44 % slower (95 % CI 4.93 % faster .. 7.83 % slower)"
    assert "-" not in text


def test_an_interval_across_1_of_a_rate():
    text = ez.describe(1.03, 0.99, 1.08, lower_is_better=False)
    assert text == "new is 3.00 % faster (95 % CI 1.00 % slower .. 8.00 % faster)"


def test_a_limit_of_a_factor_puts_the_whole_sentence_in_factors():
    # README's first comparison: Fieller's interval [0.1098, 1.7253] around 0.619
    text = ez.describe(0.619048, 0.109834, 1.7253)
    assert text == "new is 1.62x faster (95 % CI 1.73x slower .. 9.10x faster)"


@pytest.mark.parametrize(
    "ratio, lib, expected",
    [
        (0.5, True, "2.00x faster"),
        (0.6, True, "1.67x faster"),
        (0.67, True, "33.00 % faster"),
        (1.5, True, "1.50x slower"),
        (1.49, True, "49.00 % slower"),
        (0.6, False, "1.67x slower"),
        (0.67, False, "33.00 % slower"),
        (1.5, False, "1.50x faster"),
        (1.49, False, "49.00 % faster"),
    ],
)
def test_the_factor_starts_at_1_5x_without_overlap(ratio, lib, expected):
    # a third less time is 1.5x faster: a percentage of a time that got faster stays
    # below 33.4 %, so "33 %" cannot be read as more than "1.5x" (pyperf's and
    # hyperfine's words from 1.5x on)
    assert ez.describe(ratio, ratio, ratio, lower_is_better=lib).startswith(f"new is {expected} (")


def test_a_percentage_keeps_its_meaning_below_1_5x():
    # times: 1 - ratio (less time), ratio - 1 (more time); rates the other way round
    assert ez.describe(0.8, 0.8, 0.8).startswith("new is 20.00 % faster")
    assert ez.describe(1.4, 1.4, 1.4).startswith("new is 40.00 % slower")
    assert ez.describe(1.4, 1.4, 1.4, lower_is_better=False).startswith("new is 40.00 % faster")
    assert ez.describe(0.8, 0.8, 0.8, lower_is_better=False).startswith("new is 20.00 % slower")


def test_exactly_no_change():
    assert ez.describe(1.0, 0.98, 1.02) == (
        "new is the same as old (95 % CI 2.00 % faster .. 2.00 % slower)")
    assert ez.describe(1.0, 0.98, 1.02, lower_is_better=False) == (
        "new is the same as old (95 % CI 2.00 % slower .. 2.00 % faster)")
    assert ez.describe(1.0, 1.0, 1.0) == "new is the same as old (95 % CI no change at either limit)"
    assert ez.describe(0.97, 0.95, 1.0) == "new is 3.00 % faster (95 % CI no change .. 5.00 % faster)"


def test_an_unbounded_interval_gives_the_ratio_only():
    text = ez.describe(0.62, -math.inf, math.inf, bounded=False)
    assert text == "ratio new/old = 0.6200; the 95 % interval is unbounded"
    assert "faster" not in text and "slower" not in text


def test_infinite_and_zero_limits_read_as_no_bound_in_that_direction():
    assert ez.describe(0.9, 0.0, 1.05) == "new is 1.11x faster (95 % CI 1.05x slower .. ∞x faster)"
    assert ez.describe(0.9, -0.3, math.inf) == "new is 1.11x faster (95 % CI ∞x slower .. ∞x faster)"
    assert ez.describe(3.0, 1.5, math.inf) == "new is 3.00x slower (95 % CI 1.50x .. ∞x)"
    assert ez.describe(0.5, 0.0, 0.6, lower_is_better=False) == (
        "new is 2.00x slower (95 % CI 1.67x .. ∞x)")


def test_nan_and_negative_estimates_have_no_direction():
    for text in (ez.describe(math.nan, 0.9, 1.1), ez.describe(-0.5, -1.0, 0.2)):
        assert "undefined" in text and "faster" not in text and "slower" not in text
    text = ez.describe(0.9, math.nan, 1.1)
    assert text == "new is 10.00 % faster (95 % CI undefined)"


def test_huge_factors_stay_short():
    assert ez.describe(1e7, 1e7, 1e7) == "new is 1.00e+07x slower (95 % CI 1.00e+07x .. 1.00e+07x)"
    assert ez.describe(1 / 250.0, 1 / 251.0, 1 / 249.0).startswith("new is 250x faster")


def test_limits_given_the_wrong_way_round_are_ordered():
    assert ez.describe(0.945, 0.97, 0.92) == ez.describe(0.945, 0.92, 0.97)


def test_the_wording_note_says_what_a_percentage_means():
    assert "less" in wording_note() and "time" in wording_note()
    assert "rate" in wording_note(lower_is_better=False)


_PHRASE = re.compile(r"(?:(∞|[0-9.e+]+)(x| %)(?: (faster|slower))?|(no change))")


def _ratio_of(amount, kind, word, lib):
    """Read a worded change back as a ratio new/old."""
    if amount == "∞":
        return 0.0 if (word == "faster") == lib else math.inf
    v = float(amount)
    grew = (word == "slower") == lib  # the measured quantity grew
    if kind == "x":
        return v if grew else 1.0 / v
    return 1.0 + v / 100.0 if grew else 1.0 - v / 100.0


def _parse(text, lib):
    m = re.fullmatch(r"new is (.*) \(95 % CI (.*) \.\. (.*)\)", text)
    assert m, text
    found = [_PHRASE.fullmatch(g) for g in m.groups()]
    assert all(found), text
    est = found[0]
    out = []
    for f in found:
        if f.group(4):
            out.append((1.0, "no change"))
            continue
        word = f.group(3) or est.group(3)  # a word said once after the estimate
        out.append((_ratio_of(f.group(1), f.group(2), word, lib), word))
    return out


def _close(a, b):
    return math.isclose(a, b, rel_tol=0.006, abs_tol=6e-5)


positive = st.one_of(
    st.floats(1e-6, 1e6, allow_nan=False, allow_infinity=False),
    st.floats(0.3, 3.0),  # around no change and the factor 2 either way
    st.sampled_from([0.5, 2.0, 1.0, 1 - 1e-13, 1 + 1e-9, 0.5 + 1e-12, 2 - 1e-12]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(positive, min_size=3, max_size=3), st.booleans())
def test_words_follow_the_order_of_the_ratios(values, lib):
    lo, r, hi = sorted(values)
    text = ez.describe(r, lo, hi, lower_is_better=lib)
    plain = text.replace("the same as old", "no change").replace(
        "no change at either limit", "no change .. no change")
    (pr, wr), (p1, w1), (p2, w2) = _parse(plain, lib)
    # each value reads back as its ratio, so every word is the right one ...
    assert _close(pr, r)
    # ... and the limits come least-in-the-estimate's-direction first
    towards_lower = wr == "no change" or (wr == "faster") == lib
    first, second = (hi, lo) if towards_lower and wr != "no change" else (lo, hi)
    assert _close(p1, first) and _close(p2, second)
    # the word is the side of 1 the ratio lies on (even when the amount rounds to 0.00)
    for v, w in ((r, wr), (first, w1), (second, w2)):
        assert w == ("no change" if abs(v - 1) <= 1e-12 else
                     "faster" if (v < 1.0) == lib else "slower")
    # a limit on the estimate's side of 1 carries no word of its own
    if wr != "no change" and w1 == w2 == wr:
        assert text.count(wr) == 1
