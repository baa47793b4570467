"""make analyse: false alarms on the dataset's own pool, and coverage and power of the
known ratios by subsampling (results/<dataset>/analysis/simulations.json)."""

from esize import EsizeError
from esize_study.analysis import compare, jobs, read, simulate

log = jobs.log_to(snakemake.log[0])  # noqa: F821
settings = snakemake.params.settings  # noqa: F821
try:
    data = read.read_dataset(settings, snakemake.params.files)  # noqa: F821
    resolved = compare.resolve(data.index, settings["comparisons"])
    pairs = compare.make_pairs(data, resolved)
    doc = {"false_alarm": simulate.false_alarms(data.reads, settings),
           "known_ratio": simulate.known_ratios(pairs, resolved, settings)}
except EsizeError as exc:
    jobs.fail(log, exc)
jobs.write_json(snakemake.output[0], doc)  # noqa: F821
log.info("false alarms: %d rows; known ratios: %d rows", len(doc["false_alarm"]["rows"]),
         len(doc["known_ratio"]["rows"]))
