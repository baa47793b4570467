"""make analyse: the dataset's own report, results/<dataset>/report.md and report.html."""

import os

import esize
from esize_study.analysis import jobs, report

log = jobs.log_to(snakemake.log[0])  # noqa: F821
inp, out = snakemake.input, snakemake.output  # noqa: F821
est = jobs.read_json(inp.estimates)
cmp = jobs.read_json(inp.comparisons)
sims = jobs.read_json(inp.simulations)
text = report.render(est, cmp, sims, version=esize.__version__)
jobs.atomic_write_text(out.md, text)
page = report.to_html(text, os.path.dirname(out.md), f"esize analysis: {est['dataset']}")
jobs.atomic_write_text(out.html, page)
log.info("%s", report.headline(est, cmp))
