"""Report section on a measured dataset: results/<dataset>/report_measured.md."""

import json

import pandas as pd

from esize import EsizeError
from esize_study import pipeline as pl
from esize_study import realdata as rd

log = pl.script_logging(snakemake.log[0])  # noqa: F821
inp, out, p = snakemake.input, snakemake.output, snakemake.params  # noqa: F821
dataset = snakemake.wildcards.dataset  # noqa: F821
config = snakemake.config  # noqa: F821
estimates = [json.load(open(f)) for f in inp.variances]
pool = (max(e["counts"][0] for e in estimates), max(e["counts"][1] for e in estimates))
try:
    checks = [rd.warmup_check(pl.load_benchmark_file(f)[0], int(e["warmup"]), name=e["benchmark"],
                              cpu=rd.load_cpu(f, 0))
              for e, f in zip(estimates, inp.raw)]
    costs = pl.dataset_costs(config, dataset)
    dims = rd.dimensioning_rows(estimates, costs, p.hours, alpha=p.alpha) if costs else []
except EsizeError as exc:
    pl.fail(log, exc)
note = (rd.costs_note(costs, estimates) if costs else
        "No costs file: the dataset's costs are not known, so there is no dimensioning here.")
fa_rows = rd.false_alarm_rows(pd.read_csv(inp.false_alarms), pool, p.thresholds, p.alpha)
known_md, refs, rows = None, [], ((), ())
if "ke_csv" in inp.keys():
    known_md, refs, *rows = rd.known_effect_section(inp.ke_csv, inp.ke_verdicts,
                                                    inp.ke_references, p.alpha)
pl.write_csv(out.precisions, dims, rd.DIMENSIONING_COLUMNS)
pl.write_csv(out.warmup, checks, list(checks[0]))
var_rows = rd.variance_rows(estimates) + rd.variance_rows(
    rd.cpu_estimates(inp.raw, estimates), "cpu", with_paper=False)
text = rd.render_report(
    dataset, var_rows=var_rows, warmup_checks=checks,
    warmup_fraction=p.warmup_fraction, dimensioning=dims, costs_note=note, fa_rows=fa_rows,
    pool=pool, known_effect_md=known_md, references=refs, known_effect_rows=tuple(rows),
    conditions=rd.conditions_note(pl.dataset_settings(config, dataset)["path"]), alpha=p.alpha,
)
pl.atomic_write_text(out.md, text)
log.info("%s: %d benchmarks, %d dimensioning rows, %d false-alarm rows, %d known effects",
         dataset, len(estimates), len(dims), len(fa_rows), len(refs))
