"""Sum the shards' counts into coverage.csv (one row per point and method)."""

import pandas as pd

from esize_study.coverage import records as cv
from esize_study.datasets import files

log = files.script_logging(snakemake.log[0])  # noqa: F821
parts = [pd.read_parquet(p) for p in snakemake.input]  # noqa: F821
keys = [c for c in parts[0].columns if c not in ("n", "covered", "unbounded")]
counts = pd.concat(parts, ignore_index=True).groupby(keys, sort=True, as_index=False).sum()
rows = cv.coverage_rows(counts)
files.write_parquet(snakemake.output.counts, counts)  # noqa: F821
files.write_csv(snakemake.output.csv, rows, cv.CSV_COLUMNS)  # noqa: F821
log.info("%d rows from %d shard files", len(rows), len(parts))
