"""Rule R7b of benchmarks/prereg/2026-11-29-r7-bootstrap-floor.md: the bootstrap's unit
floor is the one measured (benchmarks/bench_boot_floor.py's judged run), not a constant
chosen by hand. A constant that differs from the results file fails here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import esize as ez
from esize._decision import (
    DEFAULT_BOOTSTRAP_INTERVAL,
    MIN_BOOTSTRAP_UNITS,
    MIN_BOOTSTRAP_UNITS_BY_INTERVAL,
    verdict_obstacle,
)

RESULTS = (Path(__file__).resolve().parents[1] / "benchmarks" / "results"
           / "2026-11-29-r7-bootstrap-floor.json")


@pytest.fixture(scope="module")
def measured():
    doc = json.loads(RESULTS.read_text(encoding="utf-8"))
    assert doc["judged"] and doc["reps"] == 4000 and doc["resamples"] == 2000
    assert doc["seed"] == "SeedSequence(20261129).spawn(3)[2]"
    return doc


def test_the_default_kind_is_the_one_with_the_lower_floor(measured):
    floors = measured["floor"]
    rank = {k: (f if f is not None else float("inf")) for k, f in floors.items()}
    expected = "bca" if rank["bca"] < rank["expanded"] else "expanded"  # a tie: expanded
    assert measured["default_interval"] == expected == DEFAULT_BOOTSTRAP_INTERVAL


def test_the_constant_is_the_measured_floor_of_the_default_kind(measured):
    assert MIN_BOOTSTRAP_UNITS == measured["default_floor"] == measured["floor"][
        DEFAULT_BOOTSTRAP_INTERVAL]
    assert ez.MIN_BOOTSTRAP_UNITS == MIN_BOOTSTRAP_UNITS


def test_every_kind_has_its_measured_floor(measured):
    # a kind with no floor in the grid (None) is not offered for verdicts at all: R7a
    # offers it from 20 units at the least, and it fell short at 20 too
    assert MIN_BOOTSTRAP_UNITS_BY_INTERVAL == measured["floor"]


def test_the_floor_is_applied_per_kind():
    for kind, floor in MIN_BOOTSTRAP_UNITS_BY_INTERVAL.items():
        if floor is None:
            assert verdict_obstacle(method="bootstrap", top_units=1000,
                                    bootstrap_interval=kind) is not None
            continue
        assert verdict_obstacle(method="bootstrap", top_units=floor,
                                bootstrap_interval=kind) is None
        below = verdict_obstacle(method="bootstrap", top_units=floor - 1,
                                 bootstrap_interval=kind)
        assert below is not None and f"fewer than {floor}" in below
    assert ez.verdict(0.9, 0.95, method="bootstrap", top_units=MIN_BOOTSTRAP_UNITS) == "faster"
    assert ez.verdict(0.9, 0.95, method="bootstrap",
                      top_units=MIN_BOOTSTRAP_UNITS - 1) == "inconclusive"
