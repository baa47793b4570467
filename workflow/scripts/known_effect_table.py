"""Known-effect tables: coverage and verdicts per variant, size and method."""


import pandas as pd

from esize_study.artifact import provenance as pv
from esize_study.datasets import files
from esize_study.knowneffect import records as ke
from esize_study.render.knowneffect import render_markdown

log = files.script_logging(snakemake.log[0])  # noqa: F821
p, out = snakemake.params, snakemake.output  # noqa: F821
refs = [files.read_json(f) for f in snakemake.input.references]  # noqa: F821
frame = pd.concat([pd.read_parquet(f) for f in snakemake.input.sims], ignore_index=True)  # noqa: F821
info = {r["variant"]: {"base": r["base"], "ratio": r["ratio"], "full_ratio": r["estimate"]}
        for r in refs}
cov = ke.coverage_rows(frame, info, p.alpha)
verd = ke.verdict_rows(frame, info, p.thresholds)
files.write_csv(out.csv, cov, ke.COVERAGE_COLUMNS)
files.write_csv(out.verdicts, verd, ke.VERDICT_COLUMNS)
files.write_csv(out.references, refs, ke.REFERENCE_COLUMNS)
files.atomic_write_text(out.md, pv.header_markdown(pv.read(snakemake.input.provenance))  # noqa: F821
                     + "# Known effects\n\n" + render_markdown(refs, cov, verd, alpha=p.alpha,
                                                               heading="##"))
log.info("%d variants, %d coverage rows, %d verdict rows", len(refs), len(cov), len(verd))
