# False-alarm simulations (Section "False Alarm Rate"; figures FIGURES["false_alarm"])
# and their validation.
# Simulation and plotting are separate rules, so figures are cheap to redo.

FA = config["false_alarm"]
FA_KINDS = ["binaries", "executions"]
FA_SHARDS = [f"{i}-of-{FA['shards']}" for i in range(FA["shards"])]


rule fa_simulate:
    input:
        f"{RESULTS}/{{dataset}}/steady/{{bench}}.npz",
    output:
        f"{RESULTS}/{{dataset}}/sim/fa/{{bench}}.{{kind}}.{{shard}}.parquet",
    wildcard_constraints:
        kind="binaries|executions",
        shard=r"\d+-of-\d+",
    params:
        # the dataset's own sizes where it gives them (a 30 x 10 pool is subsampled
        # only up to its size)
        fa=lambda wc: ds.false_alarm_settings(config, wc.dataset),
        bench_ids=lambda wc: list(BENCHMARKS[wc.dataset]),
        code=code_of("fa_simulate.py"),
    threads: FA["threads"]
    log:
        f"{LOGS}/{{dataset}}/fa_simulate/{{bench}}.{{kind}}.{{shard}}.log",
    benchmark:
        f"{LOGS}/{{dataset}}/fa_simulate/{{bench}}.{{kind}}.{{shard}}.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/fa_simulate.py"


register_targets(
    "fa_simulate", lambda d: {**per_bench(d), "kind": FA_KINDS, "shard": FA_SHARDS}
)


rule fa_validate:
    input:
        f"{RESULTS}/{{dataset}}/steady/{{bench}}.npz",
    output:
        f"{RESULTS}/{{dataset}}/sim/fa_validation/{{bench}}.{{shard}}.parquet",
    wildcard_constraints:
        shard=r"\d+-of-\d+",
    params:
        fa=FA,
        bench_ids=lambda wc: list(BENCHMARKS[wc.dataset]),
        code=code_of("fa_validate.py"),
    # the longest single jobs (exact bootstraps), split into shards (every n-th block,
    # the same numbers whatever n) and started first, so that they do not run alone at
    # the end
    priority: 10
    threads: FA["threads"]
    log:
        f"{LOGS}/{{dataset}}/fa_validate/{{bench}}.{{shard}}.log",
    benchmark:
        f"{LOGS}/{{dataset}}/fa_validate/{{bench}}.{{shard}}.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/fa_validate.py"


register_targets(
    "fa_validate",
    lambda d: {"dataset": [d], "bench": fa_validation_benchmarks(d), "shard": FA_VAL_SHARDS},
)


rule fa_table:
    input:
        sims=lambda wc: [
            f"{RESULTS}/{wc.dataset}/sim/fa/{b}.{k}.{s}.parquet"
            for b in BENCHMARKS[wc.dataset]
            for k in FA_KINDS
            for s in FA_SHARDS
        ],
        steady=per_benchmark("{results}/{dataset}/steady/{bench}.npz"),
    output:
        csv=f"{RESULTS}/{{dataset}}/sim/false_alarm.csv",
        comparisons=f"{RESULTS}/{{dataset}}/sim/false_alarm_comparisons.parquet",
    params:
        thresholds=FA["thresholds_pct"],
        code=code_of("fa_table.py"),
    log:
        f"{LOGS}/{{dataset}}/fa_table.log",
    benchmark:
        f"{LOGS}/{{dataset}}/fa_table.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/fa_table.py"


register_targets("fa_table", per_dataset)


rule fa_figures:
    input:
        csv=f"{RESULTS}/{{dataset}}/sim/false_alarm.csv",
        validation=fa_validation_files,
    output:
        figure_outputs("false_alarm"),
    params:
        thresholds=FA["thresholds_pct"],
        code=code_of("fa_figures.py"),
    log:
        f"{LOGS}/{{dataset}}/fa_figures.log",
    benchmark:
        f"{LOGS}/{{dataset}}/fa_figures.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/fa_figures.py"


register_targets("fa_figures", per_dataset)


# The binary-shape check (esize_study.falsealarm.shape): FFT NA OPT's variances of
# Table tVariations with normal or log-normal binaries through the false-alarm engine,
# run once for the datasets with that benchmark; their false-alarm claims quote it.
SHAPE_CHECK = f"{RESULTS}/fa_shape_check.json"
SHAPE_CHECKED = [d for d in DATASETS if "FFT NA OPT" in BENCHMARKS[d].values()]

if SHAPE_CHECKED:

    rule fa_shape_check:
        output:
            SHAPE_CHECK,
        params:
            fa=FA,
            code=code_of("fa_shape_check.py"),
        threads: 1
        log:
            f"{LOGS}/fa_shape_check.log",
        benchmark:
            f"{LOGS}/fa_shape_check.benchmark.tsv"
        conda:
            "../envs/esize.yaml"
        script:
            "../scripts/fa_shape_check.py"

    register_targets("fa_shape_check")


rule fa_report:
    input:
        csv=f"{RESULTS}/{{dataset}}/sim/false_alarm.csv",
        comparisons=f"{RESULTS}/{{dataset}}/sim/false_alarm_comparisons.parquet",
        validation=fa_validation_files,
        shape=lambda wc: [SHAPE_CHECK] if wc.dataset in SHAPE_CHECKED else [],
    output:
        md=f"{RESULTS}/{{dataset}}/report_false_alarms.md",
        claims=f"{RESULTS}/{{dataset}}/claims_false_alarms.json",
    params:
        thresholds=FA["thresholds_pct"],
        code=code_of("fa_report.py"),
    log:
        f"{LOGS}/{{dataset}}/fa_report.log",
    benchmark:
        f"{LOGS}/{{dataset}}/fa_report.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/fa_report.py"


register_targets("fa_report", per_dataset)
