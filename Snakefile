# Reproduction pipeline for Kalibera & Jones, "Quantifying Performance Changes with
# Effect Size Confidence Intervals". Run with `make reproduce` (see README), which
# passes the profile workflow/profiles/default (Snakemake does not find it on its own).
#
# Main file: Snakemake finds this top-level Snakefile before workflow/Snakefile, so
# `rule all` lives here; the rules themselves are in workflow/rules/*.smk.

from snakemake.utils import min_version

min_version("8.0")


configfile: "config/config.yaml"


# `snakemake --report report.html` (after a run): the figures of every dataset with
# their captions (workflow/report/*.rst, written from esize_study.render.registry).
report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/tables.smk"
include: "workflow/rules/examples.smk"
include: "workflow/rules/falsealarm.smk"
include: "workflow/rules/coverage.smk"
include: "workflow/rules/knowneffect.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/provenance.smk"
include: "workflow/rules/analyse.smk"


# Every output of every job, intermediate ones included, so that a deleted one is
# rebuilt (each rule file registers its rules with register_targets, common.smk).
rule all:
    input:
        all_outputs(),
    default_target: True
