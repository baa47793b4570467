"""The paper's worked examples, recomputed (results/worked_examples.json)."""

from esize_study.datasets import files
from esize_study.estimate.examples import worked_examples

log = files.script_logging(snakemake.log[0])  # noqa: F821
files.write_json(snakemake.output[0], worked_examples())  # noqa: F821
log.info("written")
