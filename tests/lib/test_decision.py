import pytest

import esize as ez


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
