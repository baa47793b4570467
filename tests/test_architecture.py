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


def _contract_modules(name: str, key: str) -> set[str]:
    """The modules listed under ``key`` in contract ``name`` of ``.importlinter``."""
    import configparser

    cfg = configparser.ConfigParser()
    cfg.read(ROOT / ".importlinter", encoding="utf-8")
    return set(cfg[f"importlinter:contract:{name}"][key].split())


def test_every_private_module_is_forbidden_to_the_study():
    """The contract lists the private modules by name (import-linter has no pattern
    for ``esize._*``): a private module added to the library is added to it too, or
    this fails."""
    src = ROOT / "src" / "esize"
    private = {
        "esize." + ".".join(p.relative_to(src).with_suffix("").parts)
        for p in src.rglob("_*.py")
        if p.stem not in ("__init__", "__main__") and "cli" not in p.relative_to(src).parts
    }
    assert len(private) > 10
    missing = private - _contract_modules("study-uses-public-library", "forbidden_modules")
    assert not missing, f"add to .importlinter's study contract: {sorted(missing)}"
