"""Report section: the paper's coverage claims beside our numbers (Markdown and records)."""

import pandas as pd

from esize_study.claims import claim as cl
from esize_study.claims import coverage as cov_claims
from esize_study.datasets import files
from esize_study.estimate.coverage import relative_variances
from esize_study.render import registry
from esize_study.render.validation import coverage_validation
from esize_study.report.sections import coverage_section

log = files.script_logging(snakemake.log[0])  # noqa: F821
table = pd.read_csv(snakemake.input.csv)  # noqa: F821
counts = pd.read_parquet(snakemake.input.counts)  # noqa: F821
validation = pd.concat([pd.read_parquet(p) for p in snakemake.input.validation], ignore_index=True)  # noqa: F821
variances = {}
for path in snakemake.input.variances:  # noqa: F821
    est = files.read_json(path)
    variances[est["benchmark"]] = relative_variances(est["S2"], est["mean"])
claims = cov_claims.evaluate(table, counts, variances)
body = coverage_section(claims, table, coverage_validation(validation))
files.atomic_write_text(snakemake.output.md, registry.section("coverage", body))  # noqa: F821
cl.write_claims(snakemake.output.claims, claims)  # noqa: F821
log.info("%d claims, %d of %d compared agree", len(claims), *cl.tally(claims))
