"""The study's layering, checked from the sources (ast): data flow one way.

Every module of ``esize_study`` lives in a subpackage, and the subpackage is its stage
(:data:`STAGES`, in the order data flow: what the paper prints, reading a dataset,
estimating, simulating, judging claims, rendering, the report, and the artifact tooling
beside them). A module imports only modules of its own stage or of earlier ones, lazy
imports inside functions included. On top of the order: claims never import a
simulation (they judge results, :data:`SIMULATION`), and nothing but the report
imports the claims. No module has more than :data:`MAX_LINES` lines, and no modules
import each other in a circle (:func:`circles`), lazy imports included.

A new subpackage needs a stage here before its modules pass.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "esize_study"

#: The stage of each subpackage: a module may import from its own stage and earlier ones.
STAGES: dict[str, int] = {
    "paper": 0,        # what the paper prints
    "datasets": 1,     # reading a dataset (configuration, raw files, the stand-in)
    "estimate": 2,     # estimating (tables, dimensioning, rates and intervals)
    "engine": 3,       # simulating: the shared engine...
    "falsealarm": 3,   # ... and the three families
    "coverage": 3,
    "knowneffect": 3,
    "claims": 4,       # judging the paper's claims
    "render": 5,       # rendering figures and tables
    "report": 6,       # the reproduction report
    "analysis": 6,     # a user's own dataset analysed (make analyse): uses the simulations
    "artifact": 7,     # code hashes, provenance, the archive: tooling over everything
}
#: The stages that simulate: claims never import them.
SIMULATION = frozenset({"engine", "falsealarm", "coverage", "knowneffect"})
#: The only stages that import the claims (besides the claims themselves).
CLAIMS_READERS = frozenset({"claims", "report"})
#: Lines a module may have.
MAX_LINES = 500


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """``{dotted name: file}`` of every module below ``package`` (caches left out)."""
    out = {}
    for f in sorted(package.rglob("*.py")):
        rel = f.relative_to(package.parent).with_suffix("")
        if "__pycache__" in rel.parts or any(p.endswith(".egg-info") for p in rel.parts):
            continue
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules of the package that module ``name`` imports, anywhere in its code.

    ``from a import b`` counts ``a.b`` when that is a module, otherwise ``a``; relative
    imports are resolved against the module's package.
    """
    top = name.split(".")[0]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        out |= {t for t in targets if t == top or t.startswith(top + ".")}
    return out


def stage_of(name: str) -> str | None:
    """The subpackage (stage) of a module, None for the package itself."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else None


def problems(package: Path = PACKAGE, stages: dict[str, int] = STAGES) -> list[str]:
    """Every breach of the layering in ``package``, one line each."""
    found = modules(package)
    known = set(found)
    out = []
    for name, path in found.items():
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > MAX_LINES:
            out.append(f"{name}: {lines} lines, more than {MAX_LINES}")
        here = stage_of(name)
        if path.name != "__init__.py" and len(name.split(".")) == 2:
            out.append(f"{name}: a module outside the stages' subpackages")
            continue
        if here is not None and here not in stages:
            out.append(f"{name}: subpackage {here!r} has no stage (add it to STAGES)")
            continue
        for target in sorted(imported(name, path, known)):
            there = stage_of(target)
            if there is None:
                out.append(f"{name} imports {target}: import a stage's module, not the package")
                continue
            if here is None:
                out.append(f"{name} imports {target}: the package's __init__ imports nothing")
                continue
            if there not in stages:
                continue  # reported for its own modules
            if stages[there] > stages[here]:
                out.append(f"{name} ({here}, stage {stages[here]}) imports {target} "
                           f"({there}, stage {stages[there]}): a later stage")
            if here == "claims" and there in SIMULATION:
                out.append(f"{name} imports {target}: claims judge results, they never simulate")
            if there == "claims" and here not in CLAIMS_READERS:
                out.append(f"{name} imports {target}: only the report imports the claims")
    return out


def circles(package: Path = PACKAGE) -> list[list[str]]:
    """The import circles of ``package``: each a list of modules that import each other,
    directly or through the others (lazy imports inside functions included)."""
    found = modules(package)
    known = set(found)
    graph = {n: sorted(t for t in imported(n, p, known) if t in known and t != n)
             for n, p in found.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_study_is_layered():
    assert problems() == []


def test_no_modules_import_each_other():
    assert circles() == []


def test_every_stage_exists_and_holds_modules():
    subpackages = {stage_of(n) for n in modules()} - {None}
    assert set(STAGES) - {"analysis"} <= subpackages
    assert (PACKAGE / "engine" / "_gather.c").is_file()


def test_the_distribution_ships_every_subpackage():
    import tomllib

    meta = tomllib.loads((PACKAGE / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(meta["tool"]["setuptools"]["packages"])
    packages = {n for n, f in modules().items() if f.name == "__init__.py"}
    assert packages == listed


# -- the checker on small packages made here ----------------------------------------------
def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        p = tmp_path / "esize_study" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path / "esize_study"


GOOD = {
    "__init__.py": '"""Docstring only."""\n',
    "paper/__init__.py": "", "paper/numbers.py": "X = 1\n",
    "datasets/__init__.py": "", "datasets/read.py": "from ..paper import numbers\n",
    "falsealarm/__init__.py": "", "falsealarm/sim.py": "from esize_study.datasets import read\n",
    "claims/__init__.py": "", "claims/c.py": "from ..paper.numbers import X\n",
    "render/__init__.py": "", "render/fig.py": "import numpy\nfrom ..falsealarm import sim\n",
    "report/__init__.py": "", "report/r.py": "from ..claims import c\nfrom ..render import fig\n",
}


def test_the_checker_accepts_a_layered_package(tmp_path):
    assert problems(_package(tmp_path, GOOD)) == []


def test_the_checker_finds_a_circle_through_a_lazy_import(tmp_path):
    assert circles(_package(tmp_path, GOOD)) == []
    files = dict(GOOD)
    files["datasets/config.py"] = "def check():\n    from .read import x\n"
    files["datasets/read.py"] = "from .config import y\n"
    assert circles(_package(tmp_path, files)) == [["esize_study.datasets.config",
                                                   "esize_study.datasets.read"]]


@pytest.mark.parametrize("name, text, expected", [
    ("datasets/read.py", "def f():\n    from ..render import fig\n",
     "esize_study.datasets.read (datasets, stage 1) imports esize_study.render.fig (render, "
     "stage 5): a later stage"),
    ("claims/c.py", "from esize_study.falsealarm.sim import run\n",
     "esize_study.claims.c imports esize_study.falsealarm.sim: claims judge results, they "
     "never simulate"),
    ("render/fig.py", "from ..claims import c\n",
     "esize_study.render.fig imports esize_study.claims.c: only the report imports the claims"),
    ("misc/tool.py", "", "esize_study.misc.tool: subpackage 'misc' has no stage (add it to STAGES)"),
    ("flat.py", "", "esize_study.flat: a module outside the stages' subpackages"),
    ("paper/numbers.py", "X = 1\n" * 501, "esize_study.paper.numbers: 501 lines, more than 500"),
])
def test_the_checker_finds_each_breach(tmp_path, name, text, expected):
    files = dict(GOOD)
    files[name] = text
    if name.startswith("misc/"):
        files["misc/__init__.py"] = ""
    assert expected in problems(_package(tmp_path, files))
