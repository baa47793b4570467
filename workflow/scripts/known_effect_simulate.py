"""Known-effect experiment for one variant: subsampled intervals and the full-data one."""

import time

from esize import EsizeError
from esize_study import engine
from esize_study import falsealarm as fa
from esize_study import knowneffect as ke
from esize_study import pipeline as pl
from esize_study import realdata as rd

log = pl.script_logging(snakemake.log[0])  # noqa: F821
p = snakemake.params  # noqa: F821
effect, cfg = p.effect, p.settings
try:
    old, meta_old = rd.load_steady(snakemake.input.base, p.warmup_fraction)  # noqa: F821
    new, meta_new = rd.load_steady(snakemake.input.variant, p.warmup_fraction)  # noqa: F821
    variant_id = engine.bench_id(effect["variant"])
    t0 = time.perf_counter()
    cells = [ke.KnownEffectCell(int(k), int(cfg["comparisons"]), int(cfg["resamples"]), p.alpha)
             for k in cfg["binaries"]]
    records = ke.simulate(fa.bench_stats(old), fa.bench_stats(new), cells, seed=int(cfg["seed"]),
                          variant_id=variant_id, block_size=int(cfg["block"]),
                          n_jobs=snakemake.threads)  # noqa: F821
    t1 = time.perf_counter()
    ref = ke.reference(old, new, ratio=effect["ratio"], alpha=p.alpha,
                       resamples=int(cfg["reference_resamples"]), seed=int(cfg["seed"]),
                       variant_id=variant_id,
                       cpu_old=rd.load_cpu(snakemake.input.base, meta_old["warmup"]),  # noqa: F821
                       cpu_new=rd.load_cpu(snakemake.input.variant, meta_new["warmup"]))  # noqa: F821
except EsizeError as exc:
    pl.fail(log, EsizeError(f"{effect['variant']}: {exc}"))
frame = ke.records_to_frame(records, effect["variant"])
pl.write_parquet(snakemake.output.sim, frame)  # noqa: F821
pl.write_json(snakemake.output.reference,  # noqa: F821
              {"variant": effect["variant"], "base": effect["base_name"], **ref,
               "warmup": meta_old["warmup"], "raw": meta_old["raw"]})
log.info("%s vs %s (injected %.4f): %d intervals in %.1f s; full data %.4f [%.4f, %.4f] "
         "(reference %.1f s)", effect["variant"], effect["base_name"], effect["ratio"], len(frame),
         t1 - t0, ref["estimate"], ref["fieller_t_lower"], ref["fieller_t_upper"],
         time.perf_counter() - t1)
