"""make analyse: variance per level, warm-up, plan and dimensioning of every benchmark
(results/<dataset>/analysis/estimates.json)."""

from esize import EsizeError
from esize_study.analysis import estimate, jobs, read

log = jobs.log_to(snakemake.log[0])  # noqa: F821
settings = snakemake.params.settings  # noqa: F821
try:
    data = read.read_dataset(settings, snakemake.params.files)  # noqa: F821
    doc = estimate.estimate(settings, data)
except EsizeError as exc:
    jobs.fail(log, exc)
jobs.write_json(snakemake.output[0], doc)  # noqa: F821
log.info("%d benchmarks estimated from %d files", len(doc["benchmarks"]), len(doc["files"]))
