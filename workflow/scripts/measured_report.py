"""Report section on a measured dataset: results/<dataset>/report_measured.md."""


import pandas as pd

from esize import EsizeError
from esize_study.datasets import files
from esize_study.datasets.costs import dataset_costs
from esize_study.datasets.measured import (
    minutes_to_measure,
    read_conditions,
    read_measured,
    read_provenance,
    session_spans,
)
from esize_study.datasets.settings import dataset_settings, known_effects
from esize_study.estimate import sessions as ses
from esize_study.estimate.precision import DIMENSIONING_COLUMNS, dimensioning_rows
from esize_study.estimate.variation import cpu_estimates, variance_rows
from esize_study.estimate.warmup import warmup_check
from esize_study.falsealarm.records import false_alarm_rows
from esize_study.knowneffect.records import read_tables
from esize_study.render import measured_checks as mc
from esize_study.render.knowneffect import render_markdown
from esize_study.render.measured import render_report
from esize_study.render.measured_history import history_section, read_history
from esize_study.render.measured_power import skipped_sizes
from esize_study.render.measured_results import conditions_note, costs_note
from esize_study.render.measured_sessions import session_checks, sessions_section, spans_note

log = files.script_logging(snakemake.log[0])  # noqa: F821
inp, out, p = snakemake.input, snakemake.output, snakemake.params  # noqa: F821
dataset = snakemake.wildcards.dataset  # noqa: F821
config = snakemake.config  # noqa: F821
estimates = [files.read_json(f) for f in inp.variances]
# each benchmark's own pool: the programs may have been measured with different designs
pool = {e["benchmark"]: (int(e["counts"][0]), int(e["counts"][1])) for e in estimates}
try:
    # each raw file read once: its wall times and, when it has them, its CPU times
    raw = [read_measured(f) for f in inp.raw]
    checks = [warmup_check(m.design, int(e["warmup"]), name=e["benchmark"], cpu=m.cpu)
              for e, m in zip(estimates, raw)]
    costs = dataset_costs(config, dataset)
    dims = dimensioning_rows(estimates, costs, p.hours, alpha=p.alpha) if costs else []
except EsizeError as exc:
    files.fail(log, exc)
note = (costs_note(costs, estimates) if costs else
        "No costs file: the dataset's costs are not known, so there is no dimensioning here.")
fa_rows = false_alarm_rows(pd.read_csv(inp.false_alarms), pool, p.thresholds, p.alpha)
known_md, refs, rows = None, [], ((), ())
if "ke_csv" in inp.keys():
    refs, cov, verd = read_tables(inp.ke_csv, inp.ke_verdicts, inp.ke_references)
    known_md, rows = render_markdown(refs, cov, verd, alpha=p.alpha, heading="####"), (cov, verd)
files.write_csv(out.precisions, dims, DIMENSIONING_COLUMNS)
files.write_csv(out.warmup, checks, list(checks[0]))
cpu = cpu_estimates([m.cpu for m in raw], estimates)
var_rows = variance_rows(estimates) + variance_rows(cpu, "cpu", with_paper=False)
path = dataset_settings(config, dataset)["path"]
provenance = read_provenance(path)
conditions = conditions_note(read_conditions(path))
structure = mc.structure_rows(estimates, cpu)
dataset_checks = (mc.structure_checks(structure) + mc.reference_checks(refs)
                  + mc.coverage_checks(rows[0], p.alpha))
# numbers of builds the known-effect simulation left out (above a variant's pool)
sims = {}
for r in rows[0]:
    sims.setdefault(r["variant"], set()).add(int(r["size"]))
skipped = skipped_sizes(p.ke_sizes, {r["variant"]: min(int(r["base_binaries"]),
                                                      int(r["variant_binaries"]))
                                     for r in refs}, sims) if refs else {}
# files with a session level: the fourth level, and the rules written before the data
session_lines = []
try:
    frames = {e["benchmark"]: files.read_table(f) for e, f in zip(estimates, inp.raw)}
    if frames and all(ses.has_sessions(f) for f in frames.values()):
        warm = {e["benchmark"]: int(e["warmup"]) for e in estimates}
        ke = known_effects(config, dataset)
        for k in ke.values():
            frames[k["variant"]] = f = files.read_table(k["variant_file"])
            warm[k["variant"]] = files.warmup_for(p.warmup_fraction, int(f["iteration"].max()))
        designs = {n: ses.four_level(f, warm[n]) for n, f in frames.items()}
        variants = {k["variant"]: {"base": k["base_name"], "ratio": k["ratio"]}
                    for k in ke.values()}
        intervals = ses.session_intervals(designs, variants, alpha=p.alpha)
        rules = ses.judge_rules(intervals) if variants else []
        needed = ses.sessions_needed(designs, variants, alpha=p.alpha)
        spans = session_spans(path)  # each session's record, read once
        minutes = {r["variant"]: minutes_to_measure(path, [r["variant"], r["base"]],
                                                    spans=spans, provenance=provenance)
                   for r in needed}
        session_lines = sessions_section(
            ses.session_variances(designs), intervals, rules, needed, minutes,
            means=ses.session_means(designs),
            paired=ses.paired_session_intervals(designs, variants, alpha=p.alpha),
            spans=spans_note(spans, len(provenance.get("sets") or {})))
        dataset_checks += session_checks(rules)
except (EsizeError, ValueError) as exc:  # ValueError: files with unequal session counts
    files.fail(log, exc)
files.write_csv(out.checks, dataset_checks, mc.CHECK_COLUMNS)
text = render_report(
    dataset, var_rows=var_rows, warmup_checks=checks,
    warmup_fraction=p.warmup_fraction, dimensioning=dims, costs_note=note, fa_rows=fa_rows,
    pool=pool, known_effect_md=known_md, references=refs, known_effect_rows=rows,
    conditions=conditions, alpha=p.alpha, structure=structure, checks=dataset_checks,
    provenance=provenance, thresholds=p.thresholds, skipped=skipped,
    sessions=session_lines, history=history_section(read_history(path)),
)
files.atomic_write_text(out.md, text)
log.info("%s: %d checks on the dataset (%d agree)", dataset, len(dataset_checks),
         sum(c["verdict"] == mc.AGREE for c in dataset_checks))
log.info("%s: %d benchmarks, %d dimensioning rows, %d false-alarm rows, %d known effects",
         dataset, len(estimates), len(dims), len(fa_rows), len(refs))
