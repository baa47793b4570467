"""Approximate against exact bootstrap on a grid of small cases (same comparisons).

One shard of the blocks of both modes (every ``n``-th block, as in fa_simulate); the
consumers put the shards back together with ``files.read_validation_shards``.
"""

import time

import pandas as pd

from esize_study.datasets import files as pl
from esize_study.engine.seeds import bench_id
from esize_study.falsealarm import records
from esize_study.falsealarm import simulate as fa

log = pl.script_logging(snakemake.log[0])  # noqa: F821
cfg = snakemake.params.fa  # noqa: F821
shard = tuple(int(x) for x in snakemake.wildcards.shard.split("-of-"))  # noqa: F821
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
                             block_size=cfg["block"], n_jobs=snakemake.threads,  # noqa: F821
                             shard=shard)
    if recs:  # a shard may get no block of a mode
        f = records.records_to_frame(recs, meta["benchmark"])
        frames.append(f[f["method"] == "bootstrap"].assign(mode=mode))
    log.info("%s mode %s shard %s: %d records in %.1f s", meta["benchmark"], mode, shard,
             len(recs), time.perf_counter() - t0)
if frames:
    out = pd.concat(frames, ignore_index=True)
else:  # more shards than blocks: an empty shard with the columns of the others
    out = pd.DataFrame({c: [] for c in ("benchmark", "kind", "size", "method", "scheme",
                                        "comparison", "tstar", "bounded", "mode")})
pl.write_parquet(snakemake.output[0], out)  # noqa: F821
