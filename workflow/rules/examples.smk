# The paper's worked examples (Section sDirty), recomputed with the library.


rule worked_examples:
    output:
        f"{RESULTS}/worked_examples.json",
    params:
        code=pl.code_hash(
            "reproduction", "estimators", "intervals", "planning", "bootstrap", "design"
        ),
    log:
        f"{LOGS}/worked_examples.log",
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/worked_examples.py"
