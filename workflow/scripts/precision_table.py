"""Table tPrecisions: from the paper's inputs and from this dataset's estimates."""


from esize import EsizeError
from esize_study.artifact import provenance as pv
from esize_study.datasets import files
from esize_study.estimate import precision as rp
from esize_study.render import tables

log = files.script_logging(snakemake.log[0])  # noqa: F821
estimates = [files.read_json(p) for p in snakemake.input.variances]  # noqa: F821
prov = pv.read(snakemake.input.provenance)  # noqa: F821
p = snakemake.params  # noqa: F821
try:
    rows = rp.precision_table(
        estimates, p.settings["costs"], p.hours, p.build_seconds, dropped_cost="replace"
    )
    folded = rp.precision_table(
        estimates, p.settings["costs"], p.hours, p.build_seconds, dropped_cost="fold"
    )
except EsizeError as exc:
    files.fail(log, exc)
out = snakemake.output  # noqa: F821
files.write_csv(out.csv, rows, rp.PRECISION_COLUMNS)
files.write_csv(out.folded, folded, rp.PRECISION_COLUMNS)
files.atomic_write_text(out.md, pv.header_markdown(prov) + tables.precisions_markdown(rows, folded))
files.atomic_write_text(out.tex, pv.header_comment(prov) + tables.render_precisions(rows, "tex"))
log.info("%d rows", len(rows))
