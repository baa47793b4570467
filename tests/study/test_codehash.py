"""Per-rule code hashes (esize_study.artifact.codehash, the rules' ``code`` params).

Unit tests of the import closure and of the normalised hash, on the repository's
scripts and on small packages made here; then, end to end, the tiny pipeline run in a
copy of the repository (its own src/ first on PYTHONPATH, so that the code that runs
and is hashed is the copy's) and `snakemake -n` after edits of the copy's sources.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from esize_study.artifact import codehash as ch

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "workflow" / "scripts"
SNAKEMAKE = [sys.executable, "-m", "snakemake", "--workflow-profile", "workflow/profiles/default",
             "--cores", "2", "--configfile", "config/test.yaml"]

#: The simulation jobs of each family (expensive; their outputs feed the tables).
FA_SIMULATIONS = {"fa_simulate", "fa_validate"}
COV_SIMULATIONS = {"cov_simulate", "cov_validate"}
SIMULATIONS = FA_SIMULATIONS | COV_SIMULATIONS | {"known_effect_simulate"}
#: What reads provenance.json, which records the hash of the packages' bytes: any edit
#: of them, a comment included, writes it anew and these follow (cheap jobs).
PROVENANCE_FOLLOWERS = {"provenance", "variation_table", "precision_table",
                        "known_effect_table", "measured_report", "report", "all"}


def _modules(script: str, **kw) -> set[str]:
    return ch.closure_modules(SCRIPTS / script, **kw)


# -- the closure of the repository's scripts -----------------------------------------
@pytest.mark.parametrize("script", ["fa_figures.py", "cov_figures.py"])
def test_figure_scripts_do_not_import_the_simulations_or_the_claims(script):
    mods = _modules(script)
    assert {"esize_study.render.figures", "esize_study.render.registry",
            "esize_study.datasets.files"} <= mods
    # the figures read the simulations' tables (estimate.rates: contour, rates_at;
    # coverage.validation: the validation table), never the simulations: an edit of the
    # engine or of a simulation redraws no figure by itself
    assert not {m for m in mods if m.startswith(("esize_study.engine", "esize_study.claims",
                                                  "esize_study.knowneffect",
                                                  "esize_study.datasets.standin"))}
    assert not mods & {"esize_study.falsealarm.simulate", "esize_study.coverage.model",
                       "esize_study.datasets.measured", "esize_study.report.sections"}


@pytest.mark.parametrize("script", ["fa_simulate.py", "fa_validate.py", "cov_simulate.py",
                                    "cov_validate.py", "known_effect_simulate.py",
                                    "fa_shape_check.py"])
def test_simulation_scripts_do_not_import_figures_claims_or_report(script):
    mods = _modules(script)
    assert {"esize_study.engine.resampling", "esize_study.engine._kernels"} <= mods
    assert not {m for m in mods if m.startswith(("esize_study.render", "esize_study.claims",
                                                  "esize_study.report", "esize_study.artifact"))}
    assert not any(m.startswith(("esize.cli", "esize.readers")) for m in mods)


@pytest.mark.parametrize("script", ["fa_report.py", "cov_report.py", "report.py"])
def test_claim_scripts_run_no_simulation(script):
    # the binary-shape check is a rule of its own (fa_shape_check.json)
    mods = _modules(script)
    assert "esize_study.claims.claim" in mods
    assert not {m for m in mods if m.startswith(("esize_study.engine", "esize_study.falsealarm",
                                                  "esize_study.coverage.model",
                                                  "esize_study.knowneffect"))}


def test_each_simulation_family_leaves_out_the_other():
    assert "esize_study.falsealarm" not in _modules("cov_simulate.py")
    assert "esize_study.falsealarm" not in _modules("cov_validate.py")
    assert "esize_study.coverage" not in _modules("fa_simulate.py")
    assert "esize_study.coverage" not in _modules("fa_validate.py")
    # the tables of a family do not run its simulation
    assert "esize_study.coverage.model" not in _modules("cov_table.py")
    assert "esize_study.falsealarm.simulate" not in _modules("fa_table.py")
    assert "esize_study.knowneffect.simulate" not in _modules("known_effect_table.py")


def test_closure_has_the_script_the_package_inits_and_the_c_source():
    files = ch.closure(SCRIPTS / "cov_simulate.py")
    assert {"script/cov_simulate.py", "esize/__init__.py", "esize_study/__init__.py",
            "esize_study/coverage/__init__.py", "esize_study/coverage/model.py",
            "esize_study/engine/__init__.py", "esize_study/engine/seeds.py",
            "esize_study/engine/_kernels.py", "esize_study/engine/_gather.c"} <= set(files)
    assert files["esize_study/engine/_gather.c"] == (
        ROOT / "src" / "esize_study" / "engine" / "_gather.c")
    # _gather.c is there because _kernels names it: not in a closure without _kernels
    assert "esize_study/engine/_gather.c" not in ch.closure(SCRIPTS / "ingest.py")
    # the report's template is there because report.assemble names it
    assert "esize_study/report/report.md.j2" in ch.closure(SCRIPTS / "report.py")
    assert "esize_study/report/report.md.j2" not in ch.closure(SCRIPTS / "fa_report.py")


def test_lazily_imported_modules_are_found():
    # the library's _mean_ci imports its quantile table inside a function only
    src = (ROOT / "src" / "esize" / "_mean_ci.py").read_text()
    assert not re.search(r"(?m)^from \._qtable|^from \. import _qtable", src)
    assert re.search(r"(?m)^    from \._qtable import", src)
    assert "esize._qtable" in _modules("cov_simulate.py")


def test_notebooks_imports_are_followed(tmp_path):
    nb = tmp_path / "n.ipynb"
    cells = [{"cell_type": "markdown", "source": ["import esize_study.render.figures\n"]},
             {"cell_type": "code", "source": ["%matplotlib inline\n", "!ls\n",
                                              "from esize_study.datasets import standin\n"]}]
    nb.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                              "nbformat_minor": 5}))
    mods = _modules("notebook_html.py", follow=[nb])
    assert "esize_study.datasets.standin" in mods
    assert "esize_study.render.figures" not in mods  # a markdown cell runs nothing
    assert "esize_study.datasets.standin" not in _modules("notebook_html.py")


# -- the closure on packages made here ------------------------------------------------
def _package(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return {"pkg": (tmp_path / "pkg").resolve()}


def test_every_form_of_import_is_followed(tmp_path):
    roots = _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "import pkg.sub.deep\nfrom pkg import b\nfrom pkg.c import name\n",
        "pkg/b.py": "from . import d\nfrom .e import thing\n",
        "pkg/c.py": "name = 1\n",
        "pkg/d.py": "def f():\n    from .lazy import g\n    return g\n",
        "pkg/e.py": "import importlib\nx = importlib.import_module('pkg.literal')\n"
                    "thing = 2\n",
        "pkg/lazy.py": "g = 3\n",
        "pkg/literal.py": "",
        "pkg/unused.py": "",
        "pkg/sub/__init__.py": "from .. import up\n",
        "pkg/sub/deep.py": "from ..c import name\n",
        "pkg/up.py": "",
        "pkg/dyn/__init__.py": "",
        "pkg/dyn/x.py": "import importlib\n\ndef load(n):\n"
                        "    return importlib.import_module(f'{__package__}.{n}')\n",
        "pkg/dyn/y.py": "",
        "pkg/dyn/sub/__init__.py": "",
        "script.py": "import os\nfrom pkg import a\nimport numpy\n",
        "other.py": "from pkg.dyn import x\n",
    })
    mods = ch.closure_modules(tmp_path / "script.py", roots=roots)
    assert mods == {"pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.e", "pkg.lazy",
                    "pkg.literal", "pkg.sub", "pkg.sub.deep", "pkg.up"}
    # a computed import_module name: every module of the caller's package
    assert ch.closure_modules(tmp_path / "other.py", roots=roots) == {
        "pkg", "pkg.dyn", "pkg.dyn.x", "pkg.dyn.y", "pkg.dyn.sub"}


def test_files_a_module_names_are_hashed(tmp_path):
    roots = _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/k.py": "from pathlib import Path\nSRC = Path(__file__).with_name('k.c')\n"
                    "DATA = 'data/table.json'\nNOT = 'missing.c'\n",
        "pkg/k.c": "int f(void) { return 1; }\n",
        "pkg/data/table.json": "{}\n",
        "pkg/other.c": "\n",
        "script.py": "import pkg.k\n",
    })
    files = ch.closure(tmp_path / "script.py", roots=roots)
    assert set(files) == {"script/script.py", "pkg/__init__.py", "pkg/k.py", "pkg/k.c",
                          "pkg/data/table.json"}
    before = ch.rule_code_hash(tmp_path / "script.py", roots=roots)
    (tmp_path / "pkg" / "k.c").write_text("int f(void) { return 2; }\n")
    assert ch.rule_code_hash(tmp_path / "script.py", roots=roots) != before


def test_a_module_that_does_not_parse_counts_as_importing_everything(tmp_path):
    roots = _package(tmp_path, {
        "pkg/__init__.py": "", "pkg/bad.py": "def (:\n", "pkg/z.py": "",
        "script.py": "import pkg.bad\n",
    })
    assert ch.closure_modules(tmp_path / "script.py", roots=roots) == {"pkg", "pkg.bad", "pkg.z"}


# -- what changes the hash -----------------------------------------------------------
CODE = '''"""Module docstring."""

import math


def area(r):
    """Area of a disc."""
    # pi r squared
    return math.pi * r ** 2


class Shape:
    """A shape."""

    sides = 0
'''


@pytest.mark.parametrize("edit, same", [
    (lambda s: s + "# a comment at the end\n", True),
    (lambda s: s.replace("Module docstring.", "Another module docstring, longer."), True),
    (lambda s: s.replace('"""Area of a disc."""', '"""Area.\n\n    More words.\n    """'), True),
    (lambda s: s.replace('    """A shape."""\n\n', ""), True),
    (lambda s: s.replace("# pi r squared", "# pi times r squared"), True),
    (lambda s: s.replace("\n\n\ndef", "\n\ndef").replace("r ** 2", "r**2"), True),
    (lambda s: s + "_EDITED = True\n", False),
    (lambda s: s.replace("r ** 2", "r ** 3"), False),
    (lambda s: s.replace("sides = 0", "sides = 1"), False),
    (lambda s: s.replace("def area(r):", "def area(radius):").replace("* r", "* radius"),
     False),
])
def test_comments_docstrings_and_layout_do_not_count_code_does(tmp_path, edit, same):
    roots = _package(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": CODE,
                                "script.py": "from pkg import m\n"})
    before = ch.rule_code_hash(tmp_path / "script.py", roots=roots)
    (tmp_path / "pkg" / "m.py").write_text(edit(CODE))
    after = ch.rule_code_hash(tmp_path / "script.py", roots=roots)
    assert (after == before) is same


def test_repository_modules_normalise_without_comments_and_docstrings(tmp_path):
    for name in ("render/figures.py", "engine/resampling.py"):
        original = (ROOT / "src" / "esize_study" / name).read_text()
        copy = tmp_path / Path(name).name
        copy.write_text(original + "\n# restyled\n")
        assert ch.normalised(copy) == ch.normalised(ROOT / "src" / "esize_study" / name)
        copy.write_text(original + "\n_RESTYLED = True\n")
        assert ch.normalised(copy) != ch.normalised(ROOT / "src" / "esize_study" / name)


def test_hash_does_not_depend_on_where_the_tree_is(tmp_path):
    files = {"pkg/__init__.py": "", "pkg/m.py": CODE, "script.py": "import pkg.m\n"}
    one = _package(tmp_path / "one", files)
    two = _package(tmp_path / "two", files)
    assert (ch.rule_code_hash(tmp_path / "one" / "script.py", roots=one)
            == ch.rule_code_hash(tmp_path / "two" / "script.py", roots=two))


def test_every_script_has_a_hash_and_the_rules_name_their_own():
    texts = "".join(p.read_text() for p in (ROOT / "workflow" / "rules").glob("*.smk"))
    named = re.findall(r'code_of\(\s*"([\w.]+)"', texts)
    scripts = re.findall(r'script:\s*"\.\./scripts/([\w.]+)"', texts)
    assert sorted(named) == sorted(s for s in scripts if s != "provenance.py")
    assert "code=CODE_HASH" in (ROOT / "workflow" / "rules" / "provenance.smk").read_text()
    hashes = {s: ch.rule_code_hash(SCRIPTS / s) for s in scripts}
    assert all(re.fullmatch(r"[0-9a-f]{16}", h) for h in hashes.values())
    assert hashes["fa_simulate.py"] != hashes["cov_simulate.py"]


# -- end to end: snakemake -n after edits, in a copy of the repository -----------------
def _copy_tree(dest: Path) -> Path:
    for f in ("Snakefile", "Makefile"):
        shutil.copy2(ROOT / f, dest / f)
    for d in ("workflow", "config"):
        shutil.copytree(ROOT / d, dest / d)
    shutil.copytree(ROOT / "src", dest / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    # what config/test.yaml reads: the tiny dataset and the measured sample
    shutil.copytree(ROOT / "tests" / "data", dest / "tests" / "data")
    for sample in ("measured-x86_64-sample", "mono-x86_64-sample"):
        shutil.copytree(ROOT / "data" / sample, dest / "data" / sample)
    return dest


def _env(tree: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "src"), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep)
    return env


def _snakemake(tree: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*SNAKEMAKE, *args], cwd=tree, env=_env(tree), capture_output=True,
                          text=True, timeout=1200)


def _job_counts(res: subprocess.CompletedProcess) -> dict[str, int]:
    """``{rule: jobs}`` of Snakemake's job stats (empty when nothing is to be done)."""
    text = res.stdout + res.stderr
    assert res.returncode == 0, text[-3000:]
    if "Nothing to be done" in text:
        return {}
    table = text.split("Job stats:", 1)[1]
    counts = {}
    for line in table.splitlines()[3:]:
        parts = line.split()
        if len(parts) != 2 or parts[0] == "total":
            break
        counts[parts[0]] = int(parts[1])
    assert counts, text[-3000:]
    return counts


def _dry_run(tree: Path) -> dict[str, int]:
    return _job_counts(_snakemake(tree, "--dry-run"))


@contextmanager
def _edited(path: Path, change):
    original = path.read_bytes()
    try:
        path.write_text(change(original.decode()))
        yield
    finally:
        path.write_bytes(original)


def _append(text: str):
    return lambda s: s + text


@pytest.fixture(scope="module")
def done(tmp_path_factory) -> tuple[Path, dict[str, int]]:
    """A copy of the repository where the tiny pipeline has run; the jobs it ran."""
    tree = _copy_tree(tmp_path_factory.mktemp("codehash"))
    jobs = _dry_run(tree)
    res = _snakemake(tree)
    assert res.returncode == 0, res.stderr[-3000:]
    assert _dry_run(tree) == {}
    return tree, jobs


@pytest.mark.slow
def test_the_copy_hashes_its_own_sources(done):
    tree, _ = done
    res = subprocess.run(
        [sys.executable, "-c", "from esize_study.artifact import codehash as ch; "
                               "print(*ch.package_roots().values())"],
        cwd=tree, env=_env(tree), capture_output=True, text=True, check=True)
    assert res.stdout.split() == [str((tree / "src" / p).resolve()) for p in ch.PACKAGES]


@pytest.mark.slow
def test_comment_and_docstring_edits_run_no_simulation(done):
    tree, _ = done
    figures = tree / "src" / "esize_study" / "render" / "figures.py"
    library = tree / "src" / "esize" / "_intervals.py"
    engine = tree / "src" / "esize_study" / "engine" / "resampling.py"
    with (_edited(figures, _append("\n# restyled: a comment\n")),
          _edited(library, _append("\n# a comment in the library\n")),
          _edited(engine, lambda s: s.replace('"""', '"""Edited docstring. ', 1))):
        jobs = _dry_run(tree)
    # only the record of the packages' bytes and what prints it
    assert set(jobs) <= PROVENANCE_FOLLOWERS, jobs
    assert _dry_run(tree) == {}


@pytest.mark.slow
def test_figure_code_edit_redraws_the_figures_only(done):
    tree, ran = done
    with _edited(tree / "src" / "esize_study" / "render" / "figures_coverage.py",
                 _append("\n_RESTYLED = True\n")):
        jobs = _dry_run(tree)
    assert jobs.get("cov_figures") == ran["cov_figures"]
    assert set(jobs) <= {"cov_figures"} | PROVENANCE_FOLLOWERS, jobs


@pytest.mark.slow
@pytest.mark.parametrize("module, family, other", [
    ("coverage/model.py", COV_SIMULATIONS | {"cov_table", "cov_report", "cov_figures"},
     FA_SIMULATIONS | {"known_effect_simulate", "fa_table", "fa_report", "fa_figures",
                       "fa_shape_check"}),
    ("falsealarm/simulate.py", FA_SIMULATIONS | {"known_effect_simulate", "fa_shape_check",
                                                 "fa_table", "fa_report"},
     COV_SIMULATIONS | {"cov_table", "cov_report"}),
])
def test_simulation_code_edit_reruns_its_family_only(done, module, family, other):
    tree, ran = done
    with _edited(tree / "src" / "esize_study" / module, _append("\n_EDITED = True\n")):
        jobs = _dry_run(tree)
    for rule in family:
        assert jobs.get(rule) == ran[rule], (rule, jobs)
    assert not set(jobs) & other, jobs
    assert not set(jobs) & {"generate_standin", "ingest", "variances", "worked_examples"}
    assert _dry_run(tree) == {}


@pytest.mark.slow
def test_a_code_param_that_is_not_the_scripts_stops_the_workflow(done):
    tree, _ = done
    rules = tree / "workflow" / "rules" / "coverage.smk"
    with _edited(rules, lambda s: s.replace('code=code_of("cov_table.py")',
                                            'code=code_of("cov_simulate.py")')):
        res = _snakemake(tree, "--dry-run")
    assert res.returncode != 0
    assert ("the code param of cov_table is not code_of('cov_table.py')"
            in res.stdout + res.stderr)
