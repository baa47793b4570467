"""Execute the walk-through notebook so that it cannot fall out of step with the code."""

from pathlib import Path

import nbclient
import nbformat

ROOT = Path(__file__).resolve().parents[2]


def test_worked_examples_notebook_runs():
    nb = nbformat.read(ROOT / "notebooks" / "worked_examples.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    text = "\n".join(
        o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
    )
    assert "paper's convention: {'measurement': 19}" in text
    assert "with the paper's rounding: [18]" in text
    assert "95 % CI [0.1098, 1.7253]" in text
    assert "replicate 1 mean: 9.0" in text
