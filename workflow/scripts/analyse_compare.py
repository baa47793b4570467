"""make analyse: the configured comparisons with esize compare's machinery
(results/<dataset>/analysis/comparisons.json)."""

from esize import EsizeError
from esize_study.analysis import compare, jobs, read

log = jobs.log_to(snakemake.log[0])  # noqa: F821
settings = snakemake.params.settings  # noqa: F821
files = snakemake.params.files  # noqa: F821
try:
    wanted = compare.compared_names(read.scan(settings, files), settings["comparisons"])
    data = read.read_dataset(settings, files, only=wanted)
    doc = compare.compare(settings, data)
except EsizeError as exc:
    jobs.fail(log, exc)
jobs.write_json(snakemake.output[0], doc)  # noqa: F821
log.info("%d comparisons", len(doc["comparisons"]))
