# Data: generate the Mono-style stand-in, then ingest any dataset (trim warm-up).


rule generate_standin:
    output:
        f"{DATA}/{{dataset}}/{{bench}}.parquet",
    params:
        settings=lambda wc: ds.dataset_settings(config, wc.dataset),
        names=lambda wc: BENCHMARKS[wc.dataset],
        code=code_of("generate_standin.py"),
    log:
        f"{LOGS}/{{dataset}}/generate_standin/{{bench}}.log",
    benchmark:
        f"{LOGS}/{{dataset}}/generate_standin/{{bench}}.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/generate_standin.py"


register_targets(
    "generate_standin", lambda d: per_bench(d) if dataset_kind(d) == "standin" else None
)


rule ingest:
    input:
        raw_input,
    output:
        f"{RESULTS}/{{dataset}}/steady/{{bench}}.npz",
    params:
        warmup_fraction=config["warmup_fraction"],
        names=lambda wc: BENCHMARKS[wc.dataset],
        code=code_of("ingest.py"),
    log:
        f"{LOGS}/{{dataset}}/ingest/{{bench}}.log",
    benchmark:
        f"{LOGS}/{{dataset}}/ingest/{{bench}}.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/ingest.py"


register_targets("ingest", per_bench)


rule variances:
    input:
        f"{RESULTS}/{{dataset}}/steady/{{bench}}.npz",
    output:
        f"{RESULTS}/{{dataset}}/variances/{{bench}}.json",
    params:
        code=code_of("variances.py"),
    log:
        f"{LOGS}/{{dataset}}/variances/{{bench}}.log",
    benchmark:
        f"{LOGS}/{{dataset}}/variances/{{bench}}.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/variances.py"


register_targets("variances", per_bench)
