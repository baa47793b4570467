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
