"""Every reader says what it observed (issue 40, item 1): the formats whose files
cannot see processes apart are the ones the format table says so of, and a benchmark
read from one carries the unobserved process and its caveat."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from esize.readers import HARNESS_LEVELS, UNOBSERVED_LEVELS, read_benchmarks

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "formats" / "index.md"
REAL = ROOT / "tests" / "data" / "real"
#: The harness column of the format table -> the reader's format name.
HARNESS = {"pyperf, pyperformance": "pyperf", "JMH": "jmh", "Google Benchmark": "gbench",
           "hyperfine": "hyperfine", "BenchmarkDotNet": "benchmarkdotnet", "asv": "asv",
           "Julia BenchmarkTools": "julia", "Go testing": "gotest",
           "pytest-benchmark": "pytest-benchmark", "criterion.rs": "criterion"}


def _table() -> dict[str, list[str]]:
    rows = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] in HARNESS and HARNESS[cells[0]] not in rows:  # the first table
            rows[HARNESS[cells[0]]] = cells
    return rows


def test_the_format_table_says_which_files_cannot_see_processes():
    rows = _table()
    assert set(rows) == set(HARNESS_LEVELS)
    for fmt, cells in rows.items():
        levels, processes = cells[2], cells[3]
        assert levels == " > ".join(HARNESS_LEVELS[fmt]), fmt
        assert ("not seen" in processes) == (fmt in UNOBSERVED_LEVELS), fmt
    assert set(UNOBSERVED_LEVELS.values()) == {"process"}


@pytest.mark.parametrize("name", ["gbench-bencode-10reps.json", "julia-mlogit-bare-group.json",
                                  "pytest-benchmark-sleep-cut.json", "criterion-deduplicate",
                                  "gotest-crc32-old.txt"])
def test_a_real_file_of_one_process_carries_it_unobserved(name):
    with pytest.warns(Warning) if name.startswith(("pytest", "criterion")) else _nothing():
        benches = read_benchmarks(REAL / name)
    for b in benches.values():
        assert ("process", None) in b.unobserved
        assert any(re.match(r"a single process", c) for c in b.caveats)


@pytest.mark.parametrize("name", ["jmh-fs2-5forks.json", "gotest-bent-base.txt",
                                  "hyperfine-sleep-2commands.json"])
def test_a_file_that_sees_its_processes_carries_none_unobserved(name):
    for b in read_benchmarks(REAL / name).values():
        assert all(parent is not None for _, parent in b.unobserved)
        assert not any(c.startswith("a single process") for c in b.caveats)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
