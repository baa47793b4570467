# Configuration, dataset discovery and helpers shared by all rules.

import esize_study.pipeline as pl
from esize_study.layout import figure_paths
from snakemake.utils import validate


validate(config, schema="../schemas/config.schema.yaml", set_default=True)

RESULTS = config["results_dir"]
DATA = config["data_dir"]
LOGS = config["logs_dir"]
DATASETS = list(config["datasets"])
CODE_HASH = pl.code_hash()
BENCHMARKS = {name: pl.dataset_benchmarks(config, name) for name in DATASETS}


wildcard_constraints:
    dataset="|".join(DATASETS),
    bench="[a-z0-9-]+",


def dataset_kind(dataset):
    return pl.dataset_settings(config, dataset)["kind"]


def raw_input(wildcards):
    """Raw tidy file of one benchmark: generated (stand-in) or the user's file."""
    if dataset_kind(wildcards.dataset) == "standin":
        return f"{DATA}/{wildcards.dataset}/{wildcards.bench}.parquet"
    return pl.benchmark_file(config, wildcards.dataset, wildcards.bench)


def per_benchmark(pattern):
    """Input function: ``pattern`` expanded over the benchmarks of a dataset."""

    def inner(wildcards):
        return [
            pattern.format(results=RESULTS, dataset=wildcards.dataset, bench=b)
            for b in BENCHMARKS[wildcards.dataset]
        ]

    return inner


def fa_validation_benchmarks(dataset):
    names = BENCHMARKS[dataset]
    wanted = [pl.slug(b) for b in config["false_alarm"]["validation"]["benchmarks"]]
    chosen = [b for b in wanted if b in names] or list(names)[:1]
    return chosen


#: Functions ``dataset -> [paths]`` that later rule files register for `rule all`.
OUTPUT_HOOKS = []


def all_outputs():
    out = [f"{RESULTS}/worked_examples.json"]
    for d in DATASETS:
        for name in ("variations", "precisions"):
            out += [f"{RESULTS}/{d}/tables/{name}.{ext}" for ext in ("csv", "md", "tex")]
        out.append(f"{RESULTS}/{d}/sim/false_alarm.csv")
        out += figure_paths(f"{RESULTS}/{d}/figures", "false_alarm")
        out.append(f"{RESULTS}/{d}/report_false_alarms.md")
        for hook in OUTPUT_HOOKS:
            out += hook(d)
    return out
