# Measured datasets (a directory dataset with a costs file or known effects): the
# known-effect experiment (esize_study.knowneffect) and the report section
# report_measured.md (esize_study.render.measured), beside the generic rules that treat the
# dataset like any other.

#: Known effects of every dataset, by variant slug (empty for most).
KNOWN = {d: ds.known_effects(config, d) for d in DATASETS}
#: Datasets that get the report section on measured data.
MEASURED = [
    d
    for d in DATASETS
    if dataset_kind(d) == "directory"
    and (KNOWN[d] or ds.dataset_settings(config, d)["costs_file"])
]
#: Known-effect settings, and the files of the known-effect rules, by dataset.
KE_SETTINGS = {d: ds.dataset_settings(config, d)["known_effects"] for d in DATASETS if KNOWN[d]}
KE_THREADS = max([int(s["threads"]) for s in KE_SETTINGS.values()] or [1])
KE_SIMS = {d: [f"{RESULTS}/{d}/sim/known_effect/{v}.parquet" for v in KNOWN[d]] for d in DATASETS}
KE_REFS = {
    d: [f"{RESULTS}/{d}/sim/known_effect/{v}.reference.json" for v in KNOWN[d]]
    for d in DATASETS
}
KE_TABLES = {
    d: (
        {
            "ke_csv": f"{RESULTS}/{d}/tables/known_effects.csv",
            "ke_verdicts": f"{RESULTS}/{d}/tables/known_effect_verdicts.csv",
            "ke_references": f"{RESULTS}/{d}/tables/known_effect_references.csv",
        }
        if KNOWN[d]
        else {}
    )
    for d in DATASETS
}


rule known_effect_simulate:
    input:
        base=lambda wc: KNOWN[wc.dataset][wc.variant]["base_file"],
        variant=lambda wc: KNOWN[wc.dataset][wc.variant]["variant_file"],
    output:
        sim=f"{RESULTS}/{{dataset}}/sim/known_effect/{{variant}}.parquet",
        reference=f"{RESULTS}/{{dataset}}/sim/known_effect/{{variant}}.reference.json",
    wildcard_constraints:
        variant="[a-z0-9-]+",
    params:
        effect=lambda wc: KNOWN[wc.dataset][wc.variant],
        settings=lambda wc: KE_SETTINGS[wc.dataset],
        alpha=config["false_alarm"]["alpha"],
        warmup_fraction=config["warmup_fraction"],
        code=code_of("known_effect_simulate.py"),
    threads: KE_THREADS
    log:
        f"{LOGS}/{{dataset}}/known_effect_simulate/{{variant}}.log",
    benchmark:
        f"{LOGS}/{{dataset}}/known_effect_simulate/{{variant}}.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/known_effect_simulate.py"


register_targets(
    "known_effect_simulate",
    lambda d: {"dataset": [d], "variant": list(KNOWN[d])} if KNOWN[d] else None,
)


rule known_effect_table:
    input:
        sims=lambda wc: KE_SIMS[wc.dataset],
        references=lambda wc: KE_REFS[wc.dataset],
        provenance=f"{RESULTS}/{{dataset}}/provenance.json",
    output:
        csv=f"{RESULTS}/{{dataset}}/tables/known_effects.csv",
        verdicts=f"{RESULTS}/{{dataset}}/tables/known_effect_verdicts.csv",
        references=f"{RESULTS}/{{dataset}}/tables/known_effect_references.csv",
        md=f"{RESULTS}/{{dataset}}/tables/known_effects.md",
    params:
        thresholds=lambda wc: KE_SETTINGS[wc.dataset]["thresholds_pct"],
        alpha=config["false_alarm"]["alpha"],
        code=code_of("known_effect_table.py"),
    log:
        f"{LOGS}/{{dataset}}/known_effect_table.log",
    benchmark:
        f"{LOGS}/{{dataset}}/known_effect_table.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/known_effect_table.py"


register_targets("known_effect_table", lambda d: per_dataset(d) if KNOWN[d] else None)


rule measured_report:
    input:
        unpack(lambda wc: KE_TABLES[wc.dataset]),
        variances=per_benchmark("{results}/{dataset}/variances/{bench}.json"),
        raw=lambda wc: [ds.benchmark_file(config, wc.dataset, b) for b in BENCHMARKS[wc.dataset]],
        costs=lambda wc: ds.dataset_settings(config, wc.dataset)["costs_file"] or [],
        false_alarms=f"{RESULTS}/{{dataset}}/sim/false_alarm.csv",
        # the known effects' files too (the session part reads them), and the dataset's
        # history of earlier runs where it has one
        variants=lambda wc: [k["variant_file"] for k in ds.known_effects(config, wc.dataset).values()],
        history=lambda wc: [p for p in [Path(ds.dataset_settings(config, wc.dataset)["path"])
                                        / "history.json"] if p.exists()],
    output:
        md=f"{RESULTS}/{{dataset}}/report_measured.md",
        precisions=f"{RESULTS}/{{dataset}}/tables/measured_precisions.csv",
        warmup=f"{RESULTS}/{{dataset}}/tables/warmup_check.csv",
        checks=f"{RESULTS}/{{dataset}}/tables/measured_checks.csv",
    params:
        hours=config["hours"],
        warmup_fraction=config["warmup_fraction"],
        alpha=config["false_alarm"]["alpha"],
        thresholds=lambda wc: KE_SETTINGS.get(wc.dataset, {}).get("thresholds_pct", [0, 1, 2]),
        ke_sizes=lambda wc: KE_SETTINGS.get(wc.dataset, {}).get("binaries", []),
        code=code_of("measured_report.py"),
    log:
        f"{LOGS}/{{dataset}}/measured_report.log",
    benchmark:
        f"{LOGS}/{{dataset}}/measured_report.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/measured_report.py"


register_targets("measured_report", lambda d: per_dataset(d) if d in MEASURED else None)


# Coverage measured on a measured dataset's own pool (one minus the A/A false-alarm
# rate at threshold 0), beside the same simulation on the stand-in's pool where the
# configuration has a stand-in whose benchmarks share names with the dataset's.
STANDIN = next((d for d in DATASETS if dataset_kind(d) == "standin"), None)


rule real_coverage:
    input:
        measured=f"{RESULTS}/{{dataset}}/sim/false_alarm.csv",
        standin=lambda wc: [f"{RESULTS}/{STANDIN}/sim/false_alarm.csv"] if STANDIN else [],
    output:
        md=f"{RESULTS}/{{dataset}}/report_real_coverage.md",
        csv=f"{RESULTS}/{{dataset}}/tables/real_coverage.csv",
        beside=f"{RESULTS}/{{dataset}}/tables/real_coverage_beside.csv",
        figures=[f"{RESULTS}/{{dataset}}/real_coverage/fCOVReal.{e}" for e in ("png", "pdf")],
    params:
        standin=STANDIN,
        alpha=config["false_alarm"]["alpha"],
        figure="real_coverage/fCOVReal.png",
        sizes=[2, 3, 5, 10, 20, 30],
        code=code_of("real_coverage.py"),
    log:
        f"{LOGS}/{{dataset}}/real_coverage.log",
    benchmark:
        f"{LOGS}/{{dataset}}/real_coverage.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/real_coverage.py"


register_targets("real_coverage", lambda d: per_dataset(d) if d in MEASURED else None)
