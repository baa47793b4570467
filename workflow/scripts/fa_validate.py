"""Approximate against exact bootstrap on a grid of small cases (same comparisons).

One shard of the blocks of both modes (every ``n``-th block, as in fa_simulate); the
consumers put the shards back together with ``files.read_validation_shards``.
"""

import time

import numpy as np

from esize_study.datasets import files
from esize_study.engine.seeds import bench_id
from esize_study.falsealarm import records
from esize_study.falsealarm import simulate as fa

log = files.script_logging(snakemake.log[0])  # noqa: F821
cfg = snakemake.params.fa  # noqa: F821
shard = tuple(int(x) for x in snakemake.wildcards.shard.split("-of-"))  # noqa: F821
val = cfg["validation"]
design, meta = files.load_design_npz(snakemake.input[0])  # noqa: F821
stats = fa.bench_stats(design)
parts = []  # per mode: the bootstrap rows, as columns (no pandas: a small job)
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
        cols = records.records_to_columns(recs, meta["benchmark"])
        boot = cols["method"] == "bootstrap"
        cols = {k: v[boot] for k, v in cols.items()}
        cols["mode"] = np.full(int(boot.sum()), mode, dtype=object)
        parts.append(cols)
    log.info("%s mode %s shard %s: %d records in %.1f s", meta["benchmark"], mode, shard,
             len(recs), time.perf_counter() - t0)
NAMES = ("benchmark", "kind", "size", "method", "scheme", "comparison", "tstar", "bounded", "mode")
if parts:
    out = {k: np.concatenate([c[k] for c in parts]) for k in NAMES}
else:  # more shards than blocks: an empty shard with the columns of the others
    out = {k: np.empty(0, dtype=object) for k in NAMES}
files.write_parquet_columns(snakemake.output[0], out)  # noqa: F821
