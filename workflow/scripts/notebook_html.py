"""Execute every notebook and render it to HTML (results/notebooks/<name>.html).

Glue only: nbclient runs the notebook in its own directory (as Jupyter would) and
esize_study.render.notebook renders it with its outputs, its maths drawn as SVG at
build time and no script loaded from the network, so that the page reads offline.
"""

from pathlib import Path

import nbclient
import nbformat

from esize_study.datasets import files
from esize_study.render.notebook import notebook_html

log = files.script_logging(snakemake.log[0])  # noqa: F821
for src, out in zip(snakemake.input, snakemake.output):  # noqa: F821
    nb = nbformat.read(src, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=snakemake.params.timeout, kernel_name="python3",  # noqa: F821
        resources={"metadata": {"path": str(Path(src).parent)}},
    ).execute()
    files.atomic_write_text(out, notebook_html(nb, Path(src).stem))
    log.info("%s -> %s (%d cells)", src, out, len(nb.cells))
