"""The unit table: what a harness's unit string means and how units convert."""

from __future__ import annotations

import pytest

from esize.readers import UnitInfo, unit_info
from esize.readers.units import TIME_UNITS


def test_unit_info():
    assert unit_info("ops/ms") == UnitInfo("ops/ms", False, "rate", 1000.0)
    assert unit_info("us/op").scale == pytest.approx(1e-6)
    assert unit_info("second").lower_is_better and unit_info("byte").kind == "other"
    assert unit_info("us/op").factor_to(unit_info("ns/op")) == pytest.approx(1000.0)
    assert unit_info("ops/s").factor_to(unit_info("ns/op")) is None


@pytest.mark.parametrize("text, seconds", [("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("μs", 1e-6),
                                           ("ns", 1e-9), ("min", 60.0), ("hours", 3600.0)])
def test_time_units_and_spacing(text, seconds):
    u = unit_info(f" {text} ")
    assert u == UnitInfo(text, True, "time", seconds)
    assert unit_info(f"{text} / op").scale == seconds and unit_info(f"{text}/op").kind == "time"
    assert unit_info(f"ops/{text}") == UnitInfo(f"ops/{text}", False, "rate", 1.0 / seconds)


def test_unknown_units_follow_the_default_direction():
    assert unit_info(None) == UnitInfo("", True, "other", None)
    assert unit_info("widgets/fortnight", default_rate=True).lower_is_better is False
    assert unit_info("widgets").factor_to(unit_info("widgets")) == 1.0  # identical: no change
    assert unit_info("widgets").factor_to(unit_info("gadgets")) is None
    assert unit_info("ops/ms").factor_to(unit_info("ops/s")) == pytest.approx(1000.0)


def test_direction_and_dict():
    assert unit_info("ops/s").direction == "higher is better"
    assert unit_info("ns").direction == "lower is better"
    assert unit_info("ns/op").as_dict() == {"unit": "ns/op", "lower_is_better": True}
    assert all(v > 0 for v in TIME_UNITS.values())
