"""One unit per description: an interval never runs from a percentage to a factor.

The rule (:func:`esize.describe`): percentages while the estimate and both limits are
changes of less than a factor 1.5 (:data:`esize._decision.FACTOR_WORDING`), factors
for all three once one is 1.5x or more (or unbounded). Checked over random ratios, limits at zero and infinity included.
"""

from __future__ import annotations

import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import esize as ez

AMOUNT = re.compile(r"(∞x|\d+(?:\.\d+)?(?:e[+-]\d+)? ?(?:%|x))")

ratios = st.one_of(
    st.floats(1e-6, 1e6, allow_nan=False, allow_infinity=False),
    st.floats(0.3, 3.0),
    st.sampled_from([0.5, 2.0, 1.0, 1.5, 1 / 1.5, 1.5 - 1e-12, 1.5 + 1e-12, 0.6666, 0.6667]),
)
limits = st.one_of(ratios, st.sampled_from([0.0, -0.5, math.inf]))


def _large(r: float) -> bool:
    return r <= 0.0 or math.isinf(r) or max(r, 1.0 / r) >= 1.5


def _units(text: str) -> set[str]:
    """The units of the amounts of a description (its confidence level left out)."""
    text = re.sub(r"\d+(?:\.\d+)? % CI", "CI", text)
    return {"x" if a.endswith("x") else "%" for a in AMOUNT.findall(text)}


@settings(max_examples=500, deadline=None)
@given(r=ratios, a=limits, b=limits, lib=st.booleans(), alpha=st.sampled_from([0.05, 0.01]))
def test_one_unit_in_every_description(r, a, b, lib, alpha):
    lo, hi = sorted((a, b))
    text = ez.describe(r, lo, hi, alpha, lower_is_better=lib)
    units = _units(text)
    assert len(units) <= 1, text
    interval = text.split(" CI ", 1)[1]
    assert len(_units("new is 5.00 % faster (95 % CI 1.50 % .. 2.19x)")) == 2  # can fail
    if units:
        want = "x" if any(_large(v) for v in (r, lo, hi)) else "%"
        assert units == {want}, text
    # the interval's two ends: amounts or "no change", never a mix of units
    assert len(_units(interval)) <= 1, text


def test_the_issue_example():
    # a time ratio of 0.6418 whose interval reaches 0.457 (2.19x) and 0.985 (1.52 %)
    text = ez.describe(0.6418, 0.457, 0.985)
    assert text == "new is 1.56x faster (95 % CI 1.02x .. 2.19x)"
    # within a factor 1.5 on both sides: percentages
    assert ez.describe(0.8, 0.7, 0.985) == "new is 20.00 % faster (95 % CI 1.50 % .. 30.00 %)"


@given(r=st.floats(0.68, 1.49), lib=st.booleans())
def test_within_a_factor_1_5_everything_is_a_percentage(r, lib):
    assert _units(ez.describe(r, r * 0.999, min(r * 1.001, 1.499), lower_is_better=lib)) <= {"%"}
