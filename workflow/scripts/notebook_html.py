"""Execute every notebook and render it to HTML (results/notebooks/<name>.html).

Glue only: nbclient runs the notebook in its own directory (as Jupyter would) and
nbconvert's HTML exporter renders it with its outputs.
"""

from pathlib import Path

import nbclient
import nbformat
from nbconvert import HTMLExporter

from esize_study.datasets import files as pl

log = pl.script_logging(snakemake.log[0])  # noqa: F821
for src, out in zip(snakemake.input, snakemake.output):  # noqa: F821
    nb = nbformat.read(src, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=snakemake.params.timeout, kernel_name="python3",  # noqa: F821
        resources={"metadata": {"path": str(Path(src).parent)}},
    ).execute()
    html, _ = HTMLExporter().from_notebook_node(nb, resources={"metadata": {"name": Path(src).stem}})
    pl.atomic_write_text(out, html)
    log.info("%s -> %s (%d cells)", src, out, len(nb.cells))
