"""Report section: the paper's false-alarm claims beside our numbers (Markdown and records)."""

import pandas as pd

from esize_study.claims import claim as cl
from esize_study.claims import falsealarm as fa_claims
from esize_study.datasets import files
from esize_study.render import registry
from esize_study.render.validation import false_alarm_validation
from esize_study.report.sections import false_alarm_section

log = files.script_logging(snakemake.log[0])  # noqa: F821
comparisons = pd.read_parquet(snakemake.input.comparisons)  # noqa: F821
table = pd.read_csv(snakemake.input.csv)  # noqa: F821
validation = files.read_validation_shards(snakemake.input.validation)  # noqa: F821
shape = None
for path in snakemake.input.shape:  # noqa: F821 (rule fa_shape_check, when FFT NA OPT is here)
    shape = files.read_json(path)
claims = fa_claims.evaluate(comparisons, table, shape)
body = false_alarm_section(claims, false_alarm_validation(validation, snakemake.params.thresholds))  # noqa: F821
files.atomic_write_text(snakemake.output.md, registry.section("false_alarms", body))  # noqa: F821
cl.write_claims(snakemake.output.claims, claims)  # noqa: F821
log.info("%d claims, %d of %d compared agree", len(claims), *cl.tally(claims))
