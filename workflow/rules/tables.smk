# Tables: per-level variation (tVariations) and dimensioning (tPrecisions).


rule variation_table:
    input:
        variances=per_benchmark("{results}/{dataset}/variances/{bench}.json"),
        provenance=f"{RESULTS}/{{dataset}}/provenance.json",
    output:
        csv=f"{RESULTS}/{{dataset}}/tables/variations.csv",
        md=f"{RESULTS}/{{dataset}}/tables/variations.md",
        tex=f"{RESULTS}/{{dataset}}/tables/variations.tex",
    params:
        code=code_of("variation_table.py"),
    log:
        f"{LOGS}/{{dataset}}/variation_table.log",
    benchmark:
        f"{LOGS}/{{dataset}}/variation_table.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/variation_table.py"


register_targets("variation_table", per_dataset)


rule precision_table:
    input:
        variances=per_benchmark("{results}/{dataset}/variances/{bench}.json"),
        provenance=f"{RESULTS}/{{dataset}}/provenance.json",
    output:
        csv=f"{RESULTS}/{{dataset}}/tables/precisions.csv",
        md=f"{RESULTS}/{{dataset}}/tables/precisions.md",
        tex=f"{RESULTS}/{{dataset}}/tables/precisions.tex",
        folded=f"{RESULTS}/{{dataset}}/tables/precisions_folded.csv",
    params:
        settings=lambda wc: ds.dataset_settings(config, wc.dataset),
        hours=config["hours"],
        build_seconds=lambda wc: dcosts.dataset_build_seconds(config, wc.dataset),
        code=code_of("precision_table.py"),
    log:
        f"{LOGS}/{{dataset}}/precision_table.log",
    benchmark:
        f"{LOGS}/{{dataset}}/precision_table.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/precision_table.py"


register_targets("precision_table", per_dataset)
