# The paper's worked examples (Section "For Practitioners: The New Method without
# Statistics"), recomputed with the library.


rule worked_examples:
    output:
        f"{RESULTS}/worked_examples.json",
    params:
        code=code_of("worked_examples.py"),
    log:
        f"{LOGS}/worked_examples.log",
    benchmark:
        f"{LOGS}/worked_examples.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/worked_examples.py"


register_targets("worked_examples")
