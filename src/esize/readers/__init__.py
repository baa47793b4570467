"""Readers of benchmark results: tidy tables and the files of common harnesses."""

from ._formats import *  # noqa: F403  (temporary during the move)
from ._formats import Benchmark, UnitInfo, read_benchmarks  # noqa: F401
