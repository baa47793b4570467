"""Figure names are defined once (esize_study.layout) and used by the workflow."""

from pathlib import Path

from esize_study import layout

ROOT = Path(__file__).resolve().parents[2]


def test_every_family_and_path():
    assert layout.figure_names("false_alarm") == ["fFAFFT", "fFA2L", "fFABoot", "fFAValidation"]
    assert len(layout.figure_names()) == 12 == len(set(layout.figure_names()))
    paths = layout.figure_paths("r/figures", "coverage", formats=["png"])
    assert paths[0] == "r/figures/fCOV.png" and len(paths) == 8


def test_workflow_does_not_repeat_figure_names():
    for f in list((ROOT / "workflow").rglob("*.smk")) + list((ROOT / "workflow").rglob("*.py")):
        text = f.read_text()
        for name in layout.figure_names():
            # config sections share some names (COV["fCOVGrid"]): lookups are allowed
            bare = text.replace(f'["{name}"]', "")
            assert f'"{name}"' not in bare, (f.name, name)
