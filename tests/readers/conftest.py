"""Fixtures of the reader tests."""

import pytest

from harness_data import write_all


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    """The hand-made JMH, Google Benchmark and hyperfine files, freshly written."""
    return write_all(tmp_path_factory.mktemp("harness"))
