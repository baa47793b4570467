"""The import contracts of ``.importlinter`` hold (import-linter's ``lint-imports``):
the study imports only the library's public modules, the library keeps its layers,
the statistics import nothing above them, and no import cycle runs between the
library's modules."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).parent / "lint-imports"


def test_import_contracts_hold():
    program = str(LINT) if LINT.exists() else shutil.which("lint-imports")
    if program is None:
        pytest.skip("needs import-linter (pip install -e '.[test]')")
    res = subprocess.run([program, "--config", str(ROOT / ".importlinter"), "--no-cache"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    assert "4 kept, 0 broken" in res.stdout
