"""Approximate against exact coverage simulation on small cases (per-experiment intervals)."""

import time

from esize_study.coverage import model as cv
from esize_study.coverage import records
from esize_study.datasets import files
from esize_study.engine.seeds import bench_id

log = files.script_logging(snakemake.log[0])  # noqa: F821
cfg = snakemake.params.cov  # noqa: F821
est = files.read_json(snakemake.input[0])  # noqa: F821
model = cv.Model.from_estimates(est["S2"], est["mean"], cfg["ratio"])
t0 = time.perf_counter()
simulated = cv.simulate_cells(model, cv.validation_cells(cfg), seed=cfg["seed"] + 1,
                            bench_id=bench_id(est["benchmark"]), n_jobs=snakemake.threads)  # noqa: F821
frame = records.intervals_frame(simulated, est["benchmark"])
files.write_parquet(snakemake.output[0], frame)  # noqa: F821
log.info("%s: %d interval rows in %.1f s", est["benchmark"], len(frame), time.perf_counter() - t0)
