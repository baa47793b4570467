# `make analyse CONFIG=my.yaml`: each dataset of the user's configuration analysed on its
# own, into results/<dataset>/report.md and report.html (esize_study.analysis).
#
# The Makefile loads config/analyse-defaults.yaml (mode: analyse) under the user's file
# and asks for the target `analyse`; the user's file replaces config/config.yaml, so
# only their datasets run, and in this mode common.smk gives the reproduction's rules
# no dataset. In `make reproduce` (mode: reproduce) this file defines nothing.

include: "analyse_common.smk"


if ANALYSE:
    # the target of `make analyse`: every file of every dataset's analysis, the
    # intermediate ones included, so that a deleted one is rebuilt (no job of its own)
    rule analyse:
        input:
            [f for d in ANALYSED for f in analysed_outputs(d)],

    register_targets("analyse")

    rule analyse_estimate:
        input:
            analysed_files,
        output:
            f"{A_DIR}/estimates.json",
        params:
            settings=analysed_settings,
            files=analysed_files,
            code=code_of("analyse_estimate.py"),
        log:
            f"{LOGS}/{{dataset}}/analyse_estimate.log",
        benchmark:
            f"{LOGS}/{{dataset}}/analyse_estimate.benchmark.tsv"
        wildcard_constraints:
            dataset=ANALYSED_RE,
        conda:
            "../envs/esize.yaml"
        script:
            "../scripts/analyse_estimate.py"

    register_targets("analyse_estimate", per_dataset)

    rule analyse_compare:
        input:
            analysed_files,
        output:
            f"{A_DIR}/comparisons.json",
        params:
            settings=analysed_settings,
            files=analysed_files,
            code=code_of("analyse_compare.py"),
        log:
            f"{LOGS}/{{dataset}}/analyse_compare.log",
        benchmark:
            f"{LOGS}/{{dataset}}/analyse_compare.benchmark.tsv"
        wildcard_constraints:
            dataset=ANALYSED_RE,
        conda:
            "../envs/esize.yaml"
        script:
            "../scripts/analyse_compare.py"

    register_targets("analyse_compare", per_dataset)

    rule analyse_simulate:
        input:
            analysed_files,
        output:
            f"{A_DIR}/simulations.json",
        params:
            settings=analysed_settings,
            files=analysed_files,
            code=code_of("analyse_simulate.py"),
        log:
            f"{LOGS}/{{dataset}}/analyse_simulate.log",
        benchmark:
            f"{LOGS}/{{dataset}}/analyse_simulate.benchmark.tsv"
        wildcard_constraints:
            dataset=ANALYSED_RE,
        conda:
            "../envs/esize.yaml"
        script:
            "../scripts/analyse_simulate.py"

    register_targets("analyse_simulate", per_dataset)

    rule analyse_variance_figure:
        input:
            estimates=f"{A_DIR}/estimates.json",
        output:
            report(f"{A_FIG}/variance.png", caption="../report/analyse/variance.rst",
                   category="Analysis", subcategory="{dataset}"),
        params:
            which="variance",
            code=code_of("analyse_figure.py"),
        log:
            f"{LOGS}/{{dataset}}/analyse_variance_figure.log",
        benchmark:
            f"{LOGS}/{{dataset}}/analyse_variance_figure.benchmark.tsv"
        wildcard_constraints:
            dataset=ANALYSED_RE,
        conda:
            "../envs/esize.yaml"
        script:
            "../scripts/analyse_figure.py"

    register_targets("analyse_variance_figure", per_dataset)

    rule analyse_warmup_figure:
        input:
            estimates=f"{A_DIR}/estimates.json",
        output:
            report(f"{A_FIG}/warmup.png", caption="../report/analyse/warmup.rst",
                   category="Analysis", subcategory="{dataset}"),
        params:
            which="warmup",
            code=code_of("analyse_figure.py"),
        log:
            f"{LOGS}/{{dataset}}/analyse_warmup_figure.log",
        benchmark:
            f"{LOGS}/{{dataset}}/analyse_warmup_figure.benchmark.tsv"
        wildcard_constraints:
            dataset=ANALYSED_RE,
        conda:
            "../envs/esize.yaml"
        script:
            "../scripts/analyse_figure.py"

    register_targets("analyse_warmup_figure", per_dataset)

    rule analyse_forest_figure:
        input:
            estimates=f"{A_DIR}/estimates.json",
            comparisons=f"{A_DIR}/comparisons.json",
        output:
            report(f"{A_FIG}/forest.png", caption="../report/analyse/forest.rst",
                   category="Analysis", subcategory="{dataset}"),
        params:
            which="forest",
            code=code_of("analyse_figure.py"),
        log:
            f"{LOGS}/{{dataset}}/analyse_forest_figure.log",
        benchmark:
            f"{LOGS}/{{dataset}}/analyse_forest_figure.benchmark.tsv"
        wildcard_constraints:
            dataset=ANALYSED_RE,
        conda:
            "../envs/esize.yaml"
        script:
            "../scripts/analyse_figure.py"

    register_targets("analyse_forest_figure", per_dataset)

    rule analyse_report:
        input:
            estimates=f"{A_DIR}/estimates.json",
            comparisons=f"{A_DIR}/comparisons.json",
            simulations=f"{A_DIR}/simulations.json",
            figures=analysed_figures,
        output:
            md=f"{RESULTS}/{{dataset}}/report.md",
            html=f"{RESULTS}/{{dataset}}/report.html",
        params:
            code=code_of("analyse_report.py"),
        log:
            f"{LOGS}/{{dataset}}/analyse_report.log",
        benchmark:
            f"{LOGS}/{{dataset}}/analyse_report.benchmark.tsv"
        wildcard_constraints:
            dataset=ANALYSED_RE,
        conda:
            "../envs/esize.yaml"
        script:
            "../scripts/analyse_report.py"

    register_targets("analyse_report", per_dataset)
