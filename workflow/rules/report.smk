# The reproduction report: every stated number beside ours, figures embedded.

include: "report_common.smk"


rule report:
    input:
        variations=f"{RESULTS}/{{dataset}}/tables/variations.csv",
        precisions=f"{RESULTS}/{{dataset}}/tables/precisions.csv",
        examples=f"{RESULTS}/worked_examples.json",
        variances=per_benchmark("{results}/{dataset}/variances/{bench}.json"),
        false_alarms=f"{RESULTS}/{{dataset}}/report_false_alarms.md",
        false_alarm_claims=f"{RESULTS}/{{dataset}}/claims_false_alarms.json",
        coverage=f"{RESULTS}/{{dataset}}/report_coverage.md",
        coverage_claims=f"{RESULTS}/{{dataset}}/claims_coverage.json",
        figures=figure_paths(f"{RESULTS}/{{dataset}}/figures", formats=["png"]),
        provenance=f"{RESULTS}/{{dataset}}/provenance.json",
        measured=lambda wc: (
            [f"{RESULTS}/{wc.dataset}/report_measured.md"] if wc.dataset in MEASURED else []
        ),
        real_coverage=lambda wc: (
            [f"{RESULTS}/{wc.dataset}/report_real_coverage.md"] if wc.dataset in MEASURED else []
        ),
        measured_checks=lambda wc: (
            [f"{RESULTS}/{wc.dataset}/tables/measured_checks.csv"]
            if wc.dataset in MEASURED
            else []
        ),
        # a measured dataset's own plans, for "always better" (claims.arithmetic)
        measured_precisions=lambda wc: (
            [f"{RESULTS}/{wc.dataset}/tables/measured_precisions.csv"]
            if wc.dataset in MEASURED
            else []
        ),
    output:
        md=f"{RESULTS}/{{dataset}}/report.md",
        html=f"{RESULTS}/{{dataset}}/report.html",
        claims=f"{RESULTS}/{{dataset}}/claims.json",
    params:
        dataset_note=lambda wc: report_note(wc.dataset),
        config_summary=lambda wc: report_config(wc.dataset),
        code=code_of("report.py"),
    wildcard_constraints:
        dataset=DATASETS_RE,
    log:
        f"{LOGS}/{{dataset}}/report.log",
    benchmark:
        f"{LOGS}/{{dataset}}/report.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/report.py"


register_targets("report", per_dataset)
