"""Figures of the coverage family (registry.FIGURES["coverage"]), from coverage.csv."""

import pandas as pd

from esize_study.coverage.validation import validation_table
from esize_study.datasets import files
from esize_study.render import figures
from esize_study.render import figures_coverage as fc

log = files.script_logging(snakemake.log[0])  # noqa: F821
table = pd.read_csv(snakemake.input.csv)  # noqa: F821
val = pd.concat([pd.read_parquet(p) for p in snakemake.input.validation], ignore_index=True)  # noqa: F821
figs = fc.coverage_figures(table, validation_table(val), 1 - snakemake.params.alpha)  # noqa: F821
figures.save_all(figs, snakemake.output, "coverage")  # noqa: F821
log.info("%d figures written", len(figs))
