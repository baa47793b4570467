"""Read one raw benchmark file, check it, drop the warm-up, store the steady design."""

from esize import EsizeError
from esize_study.datasets import files

log = files.script_logging(snakemake.log[0])  # noqa: F821
src = snakemake.input[0]  # noqa: F821
name = snakemake.params.names[snakemake.wildcards.bench]  # noqa: F821
try:
    design, raw = files.load_benchmark_file(src)
    warmup = files.warmup_for(snakemake.params.warmup_fraction, raw)  # noqa: F821
    steady = design.trim(warmup)
except EsizeError as exc:
    files.fail(log, exc)
files.save_design(snakemake.output[0], steady, benchmark=name, raw=raw, warmup=warmup, source=src)  # noqa: F821
log.info("%s: %s raw %d, warm-up %d, steady shape %s", name, src, raw, warmup, steady.shape)
