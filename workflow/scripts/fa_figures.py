"""Figures of the false-alarm family (registry.FIGURES["false_alarm"]), from the tables."""

import pandas as pd

from esize_study.datasets import files
from esize_study.render import figures
from esize_study.render import figures_falsealarm as ff

log = files.script_logging(snakemake.log[0])  # noqa: F821
table = pd.read_csv(snakemake.input.csv)  # noqa: F821
val = files.read_validation_shards(snakemake.input.validation)  # noqa: F821
figs = ff.false_alarm_figures(table, val, snakemake.params.thresholds)  # noqa: F821
figures.save_all(figs, snakemake.output, "false_alarm")  # noqa: F821
log.info("%d figures written", len(figs))
