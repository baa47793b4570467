"""The library type-checks: ``python -m mypy`` with the ``[tool.mypy]`` section of
pyproject.toml (the files of src/esize, Python 3.11) finds no error."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_library_type_checks():
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("needs mypy (pip install -e '.[test]')")
    res = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-6000:] + res.stderr[-2000:]
