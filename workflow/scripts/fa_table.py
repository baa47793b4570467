"""Aggregate per-comparison results into false_alarm.csv (rates on a threshold grid)."""

import pandas as pd

from esize_study.datasets import files
from esize_study.falsealarm import records as fa

log = files.script_logging(snakemake.log[0])  # noqa: F821
frame = pd.concat([pd.read_parquet(p) for p in snakemake.input.sims], ignore_index=True)  # noqa: F821
# one order whatever the shards: the comparisons file is then the same bytes for any split
frame = pd.concat(
    [g.sort_values(["kind", "size", "method", "scheme", "comparison"], kind="stable")
     for _, g in frame.groupby("benchmark", sort=False)],
    ignore_index=True,
)
executions = {}
for p in snakemake.input.steady:  # noqa: F821
    design, meta = files.load_design_npz(p)
    executions[meta["benchmark"]] = design.shape[1]
rows = []
for bench, g in frame.groupby("benchmark", sort=False):
    rows += fa.rate_rows(g, snakemake.params.thresholds, executions[bench])  # noqa: F821
files.write_parquet(snakemake.output.comparisons, frame)  # noqa: F821
files.write_csv(snakemake.output.csv, rows, fa.CSV_COLUMNS)  # noqa: F821
log.info("%d comparisons, %d rows", len(frame), len(rows))
