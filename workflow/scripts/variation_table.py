"""Table tVariations for one dataset: CSV, Markdown (with the paper beside), LaTeX."""

import json

from esize_study import pipeline as pl
from esize_study import reproduction as rp

log = pl.script_logging(snakemake.log[0])  # noqa: F821
estimates = [json.load(open(p)) for p in snakemake.input]  # noqa: F821
rows = rp.variation_rows_from_estimates(estimates)
pl.write_csv(snakemake.output.csv, rows, rp.VARIATION_COLUMNS)  # noqa: F821
pl.atomic_write_text(snakemake.output.md, rp.variations_markdown(rows))  # noqa: F821
pl.atomic_write_text(snakemake.output.tex, rp.render_variations(rows, "tex"))  # noqa: F821
log.info("%d rows", len(rows))
