# Configuration, dataset discovery and helpers shared by all rules.

import esize.pipeline as pl
from snakemake.utils import validate


validate(config, schema="../schemas/config.schema.yaml", set_default=True)

RESULTS = config["results_dir"]
DATA = config["data_dir"]
LOGS = config["logs_dir"]
DATASETS = list(config["datasets"])
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


def all_outputs():
    out = [f"{RESULTS}/worked_examples.json"]
    for d in DATASETS:
        for name in ("variations", "precisions"):
            out += [f"{RESULTS}/{d}/tables/{name}.{ext}" for ext in ("csv", "md", "tex")]
    return out
