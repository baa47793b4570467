"""The reproduction report: results/<dataset>/report.md and report.html."""

import csv
import os

from esize_study.artifact import provenance as pv
from esize_study.claims import arithmetic as ca
from esize_study.claims import claim as cl
from esize_study.claims import tables as ct
from esize_study.datasets import files
from esize_study.datasets.settings import dataset_settings
from esize_study.render.registry import section_body
from esize_study.report import assemble
from esize_study.report import sections as rs

log = files.script_logging(snakemake.log[0])  # noqa: F821
inp, out, par = snakemake.input, snakemake.output, snakemake.params  # noqa: F821
dataset = snakemake.wildcards.dataset  # noqa: F821
with open(inp.variations, newline="") as fh:
    var_rows = list(csv.DictReader(fh))
with open(inp.precisions, newline="") as fh:
    prec_rows = list(csv.DictReader(fh))
we = files.read_json(inp.examples)
shapes = [files.read_json(p)["counts"] for p in inp.variances]
shape = shapes[0] if shapes and all(s == shapes[0] for s in shapes[1:]) else None

# the stand-in was fitted to Table tVariations: its section 1 rows are calibration rows
standin = dataset_settings(snakemake.config, dataset)["kind"] == "standin"  # noqa: F821
data = ct.data_claims(var_rows, cl.CALIBRATION if standin else cl.REPRODUCTION)
examples, note = ct.examples_claims(we)
precision = ct.precision_claims(prec_rows)
# a measured dataset's own plans (measured_report's dimensioning rows), where given
dim_rows = []
for path in getattr(inp, "measured_precisions", []):
    with open(path, newline="") as fh:
        dim_rows += list(csv.DictReader(fh))
statements = ca.statement_claims(prec_rows, dim_rows or None)
fa = cl.read_claims(inp.false_alarm_claims)
cov = cl.read_claims(inp.coverage_claims)
measured_checks = getattr(inp, "measured_checks", [])
sections = {
    "method": rs.method_section(calibration=standin, measured=bool(measured_checks)),
    "examples": rs.examples_section(examples, note),
    "precision": rs.precision_section(precision, statements),
}
if data:  # a dataset without the paper's benchmarks has no row here: no empty table
    sections["data"] = rs.data_section(data, shape)
# the sections written by their own rules, under their titles (render.registry.section)
for key, path in (("false_alarms", inp.false_alarms), ("coverage", inp.coverage),
                  *(("measured", m) for m in getattr(inp, "measured", [])),
                  *(("real_coverage", m) for m in getattr(inp, "real_coverage", []))):
    with open(path) as fh:
        sections[key] = section_body(fh.read(), key, dataset=dataset)
records = data + examples + precision + statements + fa + cov
if measured_checks:  # measured data: the headline counts the dataset's own checks
    with open(measured_checks[0], newline="") as fh:
        checks = list(csv.DictReader(fh))
    on_data = [c for c in statements if c.evidence == cl.DATA]
    paper_inputs = [c for c in statements if c.evidence != cl.DATA]
    headline = rs.measured_headline(checks, data + on_data + fa + cov,
                                    examples + precision + paper_inputs)
else:
    headline = rs.headline(records)
text = assemble.report_markdown(
    dataset=dataset,
    provenance=pv.header_markdown(pv.read(inp.provenance)).rstrip("\n"),
    config_summary=par.config_summary,
    headline=headline,
    dataset_note=par.dataset_note,
    sections=sections,
    figures=assemble.figure_entries(inp.figures, os.path.dirname(out.md)),
)
files.atomic_write_text(out.md, text)
files.atomic_write_text(out.html, assemble.to_html(text, f"esize reproduction: {dataset}"))
if getattr(out, "claims", None):  # every row of the report, as records
    cl.write_claims(out.claims, records)
counts = cl.summary(records)
log.info("reproduction: %d of %d compared agree (%d undecided); calibration: %d of %d hold",
         counts["reproduction"]["agree"],
         counts["reproduction"]["total"] - counts["reproduction"]["undecided"],
         counts["reproduction"]["undecided"], counts["calibration"]["agree"],
         counts["calibration"]["total"])
