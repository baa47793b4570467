"""Known-effect experiment for one variant: subsampled intervals and the full-data one."""

import time

from esize import EsizeError
from esize_study.datasets import files
from esize_study.datasets.measured import read_measured
from esize_study.engine.seeds import bench_id
from esize_study.falsealarm.simulate import bench_stats
from esize_study.knowneffect import records
from esize_study.knowneffect import simulate as ke

log = files.script_logging(snakemake.log[0])  # noqa: F821
p = snakemake.params  # noqa: F821
effect, cfg = p.effect, p.settings
try:
    # each raw file read once: its wall times and, when it has them, its CPU times
    base = read_measured(snakemake.input.base)  # noqa: F821
    variant = read_measured(snakemake.input.variant)  # noqa: F821
    warmup, warmup_new = base.warmup(p.warmup_fraction), variant.warmup(p.warmup_fraction)
    old, new = base.steady(warmup), variant.steady(warmup_new)
    variant_id = bench_id(effect["variant"])
    t0 = time.perf_counter()
    # sizes above the builds either set has (or below 2) are skipped, not simulated:
    # the programs may have been measured with different designs
    sizes, skipped = ke.sizes_within(cfg["binaries"], old.shape[0], new.shape[0])
    if skipped:
        log.info("%s: %s builds per system skipped (the sets have %d and %d builds)",
                 effect["variant"], skipped, old.shape[0], new.shape[0])
    cells = [ke.KnownEffectCell(k, int(cfg["comparisons"]), int(cfg["resamples"]), p.alpha)
             for k in sizes]
    simulated = ke.simulate(bench_stats(old), bench_stats(new), cells, seed=int(cfg["seed"]),
                            variant_id=variant_id, block_size=int(cfg["block"]),
                            n_jobs=snakemake.threads)  # noqa: F821
    t1 = time.perf_counter()
    ref = ke.reference(old, new, ratio=effect["ratio"], alpha=p.alpha,
                       resamples=int(cfg["reference_resamples"]), seed=int(cfg["seed"]),
                       variant_id=variant_id, cpu_old=base.steady_cpu(warmup),
                       cpu_new=variant.steady_cpu(warmup_new))
except EsizeError as exc:
    files.fail(log, EsizeError(f"{effect['variant']}: {exc}"))
frame = records.records_to_frame(simulated, effect["variant"])
files.write_parquet(snakemake.output.sim, frame)  # noqa: F821
files.write_json(snakemake.output.reference,  # noqa: F821
              {"variant": effect["variant"], "base": effect["base_name"], **ref,
               "warmup": warmup, "raw": base.raw, "skipped_sizes": skipped})
log.info("%s vs %s (injected %.4f): %d intervals in %.1f s; full data %.4f [%.4f, %.4f] "
         "(reference %.1f s)", effect["variant"], effect["base_name"], effect["ratio"], len(frame),
         t1 - t0, ref["estimate"], ref["fieller_t_lower"], ref["fieller_t_upper"],
         time.perf_counter() - t1)
