"""Table tVariations for one dataset: CSV, Markdown (with the paper beside), LaTeX."""


from esize_study.artifact import provenance as pv
from esize_study.datasets import files
from esize_study.estimate import variation as rp
from esize_study.render import tables

log = files.script_logging(snakemake.log[0])  # noqa: F821
estimates = [files.read_json(p) for p in snakemake.input.variances]  # noqa: F821
prov = pv.read(snakemake.input.provenance)  # noqa: F821
rows = rp.variation_rows_from_estimates(estimates)
files.write_csv(snakemake.output.csv, rows, rp.VARIATION_COLUMNS)  # noqa: F821
files.atomic_write_text(snakemake.output.md,  # noqa: F821
                     pv.header_markdown(prov) + tables.variations_markdown(rows))
files.atomic_write_text(snakemake.output.tex,  # noqa: F821
                     pv.header_comment(prov) + tables.render_variations(rows, "tex"))
log.info("%d rows", len(rows))
