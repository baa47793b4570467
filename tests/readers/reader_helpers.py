"""Helpers of the reader tests: real pyperf files, JSON and CSV writers."""

from __future__ import annotations

import importlib.resources
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import esize as ez

try:  # in the test extra; without it only the pyperf tests are skipped
    import pyperf
except ImportError:  # pragma: no cover
    pyperf = None

needs_pyperf = pytest.mark.skipif(pyperf is None, reason="pyperf (test extra) is not installed")
HARNESS_DIR = Path(__file__).parent.parent / "data" / "harness"
SRC = Path(__file__).resolve().parents[2] / "src"
PV = ("process", "value")
FI = ("fork", "iteration")


def pyperf_file(name: str) -> Path:
    """A result file shipped inside the pyperf package (``pyperf/tests/NAME``)."""
    p = importlib.resources.files("pyperf") / "tests" / name
    assert p.is_file(), f"pyperf no longer ships {name}"
    return Path(str(p))


def pyperf_designs(path) -> dict[str, ez.Design]:
    """Designs rebuilt with pyperf's own loader: one row per run that has values."""
    suite = pyperf.BenchmarkSuite.load(str(path))
    out = {}
    for bench in suite.get_benchmarks():
        runs = [run.values for run in bench.get_runs() if run.values]
        out[bench.get_name()] = ez.Design(np.array(runs, dtype=float), PV)
    return out


def write_json(path: Path, doc) -> Path:
    path.write_text(json.dumps(doc))
    return path


def tidy_lines(data, levels=("binary", "execution"), value="time", **extra) -> list[str]:
    """CSV lines (header first) of a tidy table from nested lists / an ndarray;
    labels are 1-based positions, ``extra`` adds constant columns."""
    arr = np.asarray(data, dtype=float)
    assert arr.ndim == len(levels) + 1
    header = [*levels, value, *extra]
    lines = [",".join(header)]
    for idx in np.ndindex(arr.shape):
        cells = [str(i + 1) for i in idx[:-1]] + [repr(float(arr[idx]))]
        lines.append(",".join(cells + [str(v) for v in extra.values()]))
    return lines


def write_csv(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def run_python(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with ``src`` first on the path."""
    return subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(SRC)!r})\n{code}"],
        capture_output=True,
        text=True,
        check=False,
    )
