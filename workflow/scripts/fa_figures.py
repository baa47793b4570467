"""Figures of the false-alarm family (layout.FIGURES["false_alarm"]), from the tables."""

import pandas as pd

from esize_study import figures
from esize_study import pipeline as pl

log = pl.script_logging(snakemake.log[0])  # noqa: F821
table = pd.read_csv(snakemake.input.csv)  # noqa: F821
val = pd.concat([pd.read_parquet(p) for p in snakemake.input.validation], ignore_index=True)  # noqa: F821
figs = figures.false_alarm_figures(table, val, snakemake.params.thresholds)  # noqa: F821
figures.save_all(figs, snakemake.output, "false_alarm")  # noqa: F821
log.info("%d figures written", len(figs))
