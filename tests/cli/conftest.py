"""Fixtures of the command-line tests: the worked examples and the harness files as
files in a temporary directory."""

import pytest

from harness_data import write_all

from .helpers import WE2_DATA, WE_DATA, WQE_NEW, WQE_OLD, write_csv


@pytest.fixture
def wqe(tmp_path):
    """The comparison example: old and new system as tidy CSV files."""
    return write_csv(tmp_path / "old.csv", WQE_OLD), write_csv(tmp_path / "new.csv", WQE_NEW)


@pytest.fixture
def we(tmp_path):
    """The three-level example as a tidy CSV file."""
    return write_csv(tmp_path / "we.csv", WE_DATA)


@pytest.fixture
def we2(tmp_path):
    """The same data as two levels (binary, measurement)."""
    return write_csv(tmp_path / "we2.csv", WE2_DATA, levels=("binary",))


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    """The hand-made JMH, Google Benchmark and hyperfine files, freshly written."""
    return write_all(tmp_path_factory.mktemp("harness"))
