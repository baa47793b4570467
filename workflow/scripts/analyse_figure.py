"""make analyse: one figure of the report (params.which: variance, warmup or forest)."""

from esize_study.analysis import figures, jobs

log = jobs.log_to(snakemake.log[0])  # noqa: F821
inp = snakemake.input  # noqa: F821
est = jobs.read_json(inp.estimates)
cmp = jobs.read_json(inp.comparisons) if "comparisons" in inp.keys() else None
fig = figures.draw(snakemake.params.which, est, cmp)  # noqa: F821
figures.write(fig, snakemake.output[0])  # noqa: F821
log.info("figure %s written", snakemake.params.which)  # noqa: F821
