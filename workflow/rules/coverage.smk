# Coverage simulations (Section "Coverage"; figures FIGURES["coverage"]) in the
# hierarchical normal model fed with each benchmark's S^2 estimates, and their validation.
# Simulation, tables, figures and the report are separate rules.

COV = config["coverage"]
COV_SHARDS = [f"{i}-of-{COV['shards']}" for i in range(COV["shards"])]


include: "coverage_common.smk"


rule cov_simulate:
    input:
        f"{RESULTS}/{{dataset}}/variances/{{bench}}.json",
    output:
        f"{RESULTS}/{{dataset}}/sim/coverage/{{bench}}.{{shard}}.parquet",
    wildcard_constraints:
        shard=r"\d+-of-\d+",
    params:
        cov=lambda wc: ds.coverage_settings(config, wc.dataset),
        boot_grid=lambda wc: wc.bench
        in cov_chosen(wc.dataset, COV["fCOVGrid"]["boot_benchmarks"]),
        code=code_of("cov_simulate.py"),
    # the next longest jobs after the validations (up to 10 s each): started before the
    # short ones, which then fill both cores at the end of the run
    priority: 5
    threads: COV["threads"]
    log:
        f"{LOGS}/{{dataset}}/cov_simulate/{{bench}}.{{shard}}.log",
    benchmark:
        f"{LOGS}/{{dataset}}/cov_simulate/{{bench}}.{{shard}}.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/cov_simulate.py"


register_targets("cov_simulate", lambda d: {**per_bench(d), "shard": COV_SHARDS})


rule cov_validate:
    input:
        f"{RESULTS}/{{dataset}}/variances/{{bench}}.json",
    output:
        f"{RESULTS}/{{dataset}}/sim/coverage_validation/{{bench}}.parquet",
    params:
        cov=lambda wc: ds.coverage_settings(config, wc.dataset),
        code=code_of("cov_validate.py"),
    # the longest single jobs (exact bootstraps): started first, so that they do not
    # run alone at the end
    priority: 10
    threads: COV["threads"]
    log:
        f"{LOGS}/{{dataset}}/cov_validate/{{bench}}.log",
    benchmark:
        f"{LOGS}/{{dataset}}/cov_validate/{{bench}}.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/cov_validate.py"


register_targets(
    "cov_validate",
    lambda d: {
        "dataset": [d],
        "bench": cov_chosen(d, COV["validation"]["benchmarks"]),
    },
)


rule cov_table:
    input:
        lambda wc: [
            f"{RESULTS}/{wc.dataset}/sim/coverage/{b}.{s}.parquet"
            for b in BENCHMARKS[wc.dataset]
            for s in COV_SHARDS
        ],
    output:
        csv=f"{RESULTS}/{{dataset}}/sim/coverage.csv",
        counts=f"{RESULTS}/{{dataset}}/sim/coverage_counts.parquet",
    params:
        code=code_of("cov_table.py"),
    log:
        f"{LOGS}/{{dataset}}/cov_table.log",
    benchmark:
        f"{LOGS}/{{dataset}}/cov_table.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/cov_table.py"


register_targets("cov_table", per_dataset)


rule cov_figures:
    input:
        csv=f"{RESULTS}/{{dataset}}/sim/coverage.csv",
        validation=cov_validation_inputs,
    output:
        figure_outputs("coverage"),
    params:
        ratio=COV["ratio"],
        alpha=COV["alpha"],
        code=code_of("cov_figures.py"),
    log:
        f"{LOGS}/{{dataset}}/cov_figures.log",
    benchmark:
        f"{LOGS}/{{dataset}}/cov_figures.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/cov_figures.py"


register_targets("cov_figures", per_dataset)


rule cov_report:
    input:
        csv=f"{RESULTS}/{{dataset}}/sim/coverage.csv",
        counts=f"{RESULTS}/{{dataset}}/sim/coverage_counts.parquet",
        validation=cov_validation_inputs,
        # the model's variances: the exact coverage of each fCOVRSGrid cell
        variances=per_benchmark("{results}/{dataset}/variances/{bench}.json"),
    output:
        md=f"{RESULTS}/{{dataset}}/report_coverage.md",
        claims=f"{RESULTS}/{{dataset}}/claims_coverage.json",
    params:
        alpha=COV["alpha"],
        code=code_of("cov_report.py"),
    log:
        f"{LOGS}/{{dataset}}/cov_report.log",
    benchmark:
        f"{LOGS}/{{dataset}}/cov_report.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/cov_report.py"


register_targets("cov_report", per_dataset)
