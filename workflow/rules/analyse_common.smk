# Helpers of the `make analyse` rules (analyse.smk): each dataset checked as make
# analyse reads it, its settings and files, and what its report needs.

import re

from esize_study.analysis import config as analysis_config

ANALYSE = analysis_config.is_analyse(config)

if ANALYSE:
    from esize_study.analysis import check as analysis_check

    # each dataset as make analyse reads it: one line naming file, key and problem
    _problem = analysis_check.entries_problem(config, dconf.snakemake_config_sources(workflow))
    if _problem:
        print(f"esize: error: {_problem}", file=sys.stderr)
        sys.exit(2)
    ANALYSED = list(config["datasets"])
    ANALYSIS = {d: analysis_config.entry_settings(config, d) for d in ANALYSED}
    ANALYSIS_FILES = {d: analysis_config.dataset_files(ANALYSIS[d], d) for d in ANALYSED}
    ANALYSED_RE = "|".join(re.escape(d) for d in ANALYSED)
    A_DIR = f"{RESULTS}/{{dataset}}/analysis"
    A_FIG = f"{RESULTS}/{{dataset}}/figures"


def analysed_settings(wc):
    """The dataset's entry with its defaults (a param: a change reruns its jobs)."""
    return ANALYSIS[wc.dataset]


def analysed_files(wc):
    """The dataset's result files (the jobs' inputs)."""
    return ANALYSIS_FILES[wc.dataset]


def figures_of(dataset):
    """The report's figures: the forest plot only with comparisons."""
    names = ["variance", "warmup"] + (["forest"] if ANALYSIS[dataset]["comparisons"] else [])
    return [f"{RESULTS}/{dataset}/figures/{n}.png" for n in names]


def analysed_figures(wc):
    """The figures of the dataset's report (an input of its report)."""
    return figures_of(wc.dataset)


def analysed_outputs(dataset):
    """Every file of the dataset's analysis, intermediate ones included: Snakemake
    rebuilds a missing file only when a target needs it, and an up-to-date report
    would not (as `rule all` lists every output for make reproduce)."""
    jsons = [f"{RESULTS}/{dataset}/analysis/{n}.json"
             for n in ("estimates", "comparisons", "simulations")]
    reports = [f"{RESULTS}/{dataset}/report.{ext}" for ext in ("md", "html")]
    return jsons + figures_of(dataset) + reports
