"""Simulate false-alarm comparisons for one benchmark and experiment (one shard)."""

import time

from esize_study.datasets import files
from esize_study.engine.seeds import bench_id
from esize_study.falsealarm import records
from esize_study.falsealarm import simulate as fa

log = files.script_logging(snakemake.log[0])  # noqa: F821
cfg = snakemake.params.fa  # noqa: F821
kind = snakemake.wildcards.kind  # noqa: F821
shard = tuple(int(x) for x in snakemake.wildcards.shard.split("-of-"))  # noqa: F821
design, meta = files.load_design_npz(snakemake.input[0])  # noqa: F821
stats = fa.bench_stats(design)
# the grid, and the extra comparisons of the cells the dataset refines
cells = fa.grid_cells(cfg, kind) + fa.refined_cells(cfg, meta["benchmark"], kind)
t0 = time.perf_counter()
simulated = fa.simulate_cells(
    stats,
    cells,
    seed=cfg["seed"],
    bench_id=bench_id(meta["benchmark"]),
    block_size=cfg["block"],
    n_jobs=snakemake.threads,  # noqa: F821
    shard=shard,
)
columns = records.records_to_columns(simulated, meta["benchmark"])
files.write_parquet_columns(snakemake.output[0], columns)  # noqa: F821
log.info("%s %s shard %s: %d comparisons x methods in %.1f s", meta["benchmark"], kind, shard,
         len(columns["tstar"]), time.perf_counter() - t0)
