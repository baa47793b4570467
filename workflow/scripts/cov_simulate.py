"""Simulate the coverage experiments of one benchmark (one shard of the blocks)."""

import time

from esize_study.coverage import model as cv
from esize_study.coverage import records
from esize_study.datasets import files
from esize_study.engine.seeds import bench_id

log = files.script_logging(snakemake.log[0])  # noqa: F821
cfg = snakemake.params.cov  # noqa: F821
shard = tuple(int(x) for x in snakemake.wildcards.shard.split("-of-"))  # noqa: F821
est = files.read_json(snakemake.input[0])  # noqa: F821
model = cv.Model.from_estimates(est["S2"], est["mean"], cfg["ratio"])
cells = cv.cells_from_config(cfg, boot_grid=snakemake.params.boot_grid,  # noqa: F821
                             bench=est["benchmark"])
t0 = time.perf_counter()
simulated = cv.simulate_cells(model, cells, seed=cfg["seed"], bench_id=bench_id(est["benchmark"]),
                            n_jobs=snakemake.threads, shard=shard)  # noqa: F821
columns = records.summary_columns(simulated, est["benchmark"])
files.write_parquet_columns(snakemake.output[0], columns)  # noqa: F821
log.info("%s shard %s: %d cells, %d rows in %.1f s", est["benchmark"], shard, len(cells),
         len(columns["n"]), time.perf_counter() - t0)
