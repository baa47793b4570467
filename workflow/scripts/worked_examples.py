"""The paper's worked examples, recomputed (results/worked_examples.json)."""

from esize_study import pipeline as pl
from esize_study import reproduction as rp

log = pl.script_logging(snakemake.log[0])  # noqa: F821
pl.write_json(snakemake.output[0], rp.worked_examples())  # noqa: F821
log.info("written")
