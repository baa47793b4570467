"""Approximate against exact bootstrap on a grid of small cases (same comparisons)."""

import time

import pandas as pd

from esize_study.datasets import files as pl
from esize_study.engine.seeds import bench_id
from esize_study.falsealarm import records
from esize_study.falsealarm import simulate as fa

log = pl.script_logging(snakemake.log[0])  # noqa: F821
cfg = snakemake.params.fa  # noqa: F821
val = cfg["validation"]
design, meta = pl.load_design_npz(snakemake.input[0])  # noqa: F821
stats = fa.bench_stats(design)
frames = []
for mode in ("approx", "exact"):
    cells = [
        fa.CellSpec("binaries", int(k), val["comparisons"], val["resamples"],
                    ("RRR", "RRN", "FLAT"), cfg["alpha"], mode)
        for k in val["binaries"]
    ] + [
        fa.CellSpec("executions", int(e), val["comparisons"], val["resamples"], ("RRR",),
                    cfg["alpha"], mode)
        for e in val["executions"]
    ]
    t0 = time.perf_counter()
    recs = fa.simulate_cells(stats, cells, seed=cfg["seed"] + 1, bench_id=bench_id(meta["benchmark"]),
                             block_size=cfg["block"], n_jobs=snakemake.threads)  # noqa: F821
    f = records.records_to_frame(recs, meta["benchmark"])
    f = f[f["method"] == "bootstrap"].assign(mode=mode)
    frames.append(f)
    log.info("%s mode %s: %.1f s", meta["benchmark"], mode, time.perf_counter() - t0)
pl.write_parquet(snakemake.output[0], pd.concat(frames, ignore_index=True))  # noqa: F821
