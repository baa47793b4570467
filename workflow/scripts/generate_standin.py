"""Generate one benchmark of the Mono-style stand-in dataset (raw, warm-up included)."""

from esize_study.datasets import files
from esize_study.datasets.standin import generate as standin

log = files.script_logging(snakemake.log[0])  # noqa: F821 (snakemake injects it)
settings = snakemake.params.settings  # noqa: F821
name = snakemake.params.names[snakemake.wildcards.bench]  # noqa: F821
frame = standin.generate_frame(
    name,
    seed=settings["seed"],
    binaries=settings["binaries"],
    executions=settings["executions"],
    measurements=settings["measurements"],
)
files.write_parquet(snakemake.output[0], frame)  # noqa: F821
log.info("%s: %d rows, seed %s", name, len(frame), settings["seed"])
