"""Table tVariations for one dataset: CSV, Markdown (with the paper beside), LaTeX."""

import json

from esize_study import pipeline as pl
from esize_study import provenance as pv
from esize_study import reproduction as rp

log = pl.script_logging(snakemake.log[0])  # noqa: F821
estimates = [json.load(open(p)) for p in snakemake.input.variances]  # noqa: F821
prov = pv.read(snakemake.input.provenance)  # noqa: F821
rows = rp.variation_rows_from_estimates(estimates)
pl.write_csv(snakemake.output.csv, rows, rp.VARIATION_COLUMNS)  # noqa: F821
pl.atomic_write_text(snakemake.output.md,  # noqa: F821
                     pv.header_markdown(prov) + rp.variations_markdown(rows))
pl.atomic_write_text(snakemake.output.tex,  # noqa: F821
                     pv.header_comment(prov) + rp.render_variations(rows, "tex"))
log.info("%d rows", len(rows))
