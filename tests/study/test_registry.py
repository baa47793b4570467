"""Figures and report sections are defined once (esize_study.render.registry): names,
captions and titles, used by the workflow, the figure scripts, the report and
Snakemake's report."""

import re
from pathlib import Path

import pytest

from esize_study.render import registry

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "esize_study"


def test_every_family_and_path():
    assert registry.figure_names("false_alarm") == ["fFAFFT", "fFA2L", "fFABoot", "fFAValidation"]
    assert len(registry.figure_names()) == 12 == len(set(registry.figure_names()))
    paths = registry.figure_paths("r/figures", "coverage", formats=["png"])
    assert paths[0] == "r/figures/fCOV.png" and len(paths) == 8
    assert set(registry.FAMILIES) == set(registry.FIGURES)


def test_every_figure_has_a_title_and_a_plain_caption():
    for f in registry.REGISTRY:
        assert registry.figure(f.name) is f and f.family in registry.FAMILIES
        assert f.title and not f.title.endswith(".") and "\n" not in f.title
        assert f.caption.endswith(".") and len(f.caption) > 80
        # the same text is Markdown (the report) and reStructuredText (Snakemake's report)
        assert not re.search(r"[*`_|\\]", f.caption + f.title), f.name
    with pytest.raises(KeyError, match="no figure"):
        registry.figure("fNothing")


def test_caption_files_of_the_workflow_are_the_registrys(tmp_path):
    """workflow/report/<name>.rst, declared by the rules with report(caption=...), are
    written from the registry (registry.write_captions); rewrite them after an edit."""
    shipped = ROOT / "workflow" / "report"
    written = registry.write_captions(tmp_path)
    assert sorted(p.name for p in written) == sorted(
        p.name for p in shipped.glob("*.rst") if p.name != "workflow.rst")
    for p in written:
        assert (shipped / p.name).read_text() == p.read_text(), p.name
    rules = "".join(p.read_text() for p in (ROOT / "workflow" / "rules").glob("*.smk"))
    assert 'caption=f"../report/{name}.rst"' in rules
    assert rules.count('figure_outputs("false_alarm")') == rules.count('figure_outputs("coverage")') == 1


def test_sections_are_a_heading_and_a_body():
    text = registry.section("false_alarms", "Body.\n")
    assert text == "## False alarms (Figures fFAFFT, fFA2L, fFABoot)\n\nBody.\n"
    assert registry.section_body(text, "false_alarms") == "Body.\n"
    assert registry.section("data", "x\n", 1).startswith("## 1. The data: relative variation")
    measured = registry.section("measured", "y\n", dataset="m")
    assert measured == "## Measured data: m\n\ny\n"
    assert registry.section_body(measured, "measured", dataset="m") == "y\n"
    with pytest.raises(ValueError, match="not the section 'coverage'"):
        registry.section_body(text, "coverage")


def test_workflow_does_not_repeat_figure_names():
    for f in list((ROOT / "workflow").rglob("*.smk")) + list((ROOT / "workflow").rglob("*.py")):
        text = f.read_text()
        for name in registry.figure_names():
            # config sections share some names (COV["fCOVGrid"]): lookups are allowed
            bare = text.replace(f'["{name}"]', "")
            assert f'"{name}"' not in bare, (f.name, name)


def test_figure_files_are_named_by_the_registry_only():
    """A figure's file (``figures/<name>``) is named in the sources through the registry."""
    for f in SRC.rglob("*.py"):
        if f.name == "registry.py" or "analysis" in f.parts:
            continue
        text = f.read_text()
        for name in registry.figure_names():
            assert f"figures/{name}" not in text, (f.relative_to(SRC), name)
