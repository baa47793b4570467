# Configuration, dataset discovery and helpers shared by all rules.

import os
import re
import sys
from pathlib import Path

import esize_study.artifact.codehash as ch
import esize_study.datasets.config as dconf
import esize_study.datasets.costs as dcosts
import esize_study.datasets.settings as ds
from esize_study.render.registry import FAMILIES, figure_paths
from snakemake.exceptions import WorkflowError


# A bad configuration stops here with one line naming the file, the line and the key
# (Snakemake's own validation would print the whole schema); then every default is
# filled in from the schema, their one home (make reproduce and make analyse alike).
_problem = dconf.validate_config(
    config,
    schema=f"{workflow.basedir}/workflow/schemas/config.schema.yaml",
    sources=dconf.snakemake_config_sources(workflow),
)
if _problem:
    print(f"esize: error: {_problem}", file=sys.stderr)
    sys.exit(2)

# Jobs run in parallel with each other (and with joblib workers inside a simulation),
# never inside BLAS: a BLAS thread pool started by every job's numpy import costs CPU
# time and would compete with the other jobs for the cores. Set in the environment
# the jobs inherit; a value already set wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

RESULTS = config["results_dir"]
DATA = config["data_dir"]
LOGS = config["logs_dir"]
# `make analyse` (mode: analyse, workflow/rules/analyse.smk) gives the reproduction no dataset
DATASETS = [] if config.get("mode") == "analyse" else list(config["datasets"])
#: The reproduction's datasets as a wildcard constraint (matching nothing in analyse
#: mode), so that its rules are never tried for a `make analyse` dataset's outputs.
DATASETS_RE = "|".join(re.escape(d) for d in DATASETS) or "(?!)"
#: Hash of every source file of esize and esize_study, as they are: what
#: provenance.json records and `make archive` checks (rule provenance passes it).
CODE_HASH = ch.code_hash()
BENCHMARKS = {name: ds.dataset_benchmarks(config, name) for name in DATASETS}


wildcard_constraints:
    dataset="|".join(DATASETS),
    bench="[a-z0-9-]+",


# -- code params --------------------------------------------------------------------
#
# A rule's `code` param is the hash of the code its job runs: its script, the modules
# of esize and esize_study the script imports (found by reading the code, lazy imports
# included) and the files they load (such as _gather.c), comments and docstrings left
# out (esize_study.artifact.codehash). Snakemake reruns a job when its params change,
# so an edit reruns the rules whose code it touches, and only those: restyling a
# figure does not rerun a simulation, a comment reruns nothing.

#: The code param given to each script, by script name (checked in all_outputs).
CODE_OF = {}


def code_of(script, follow=()):
    """Code hash of the job of workflow/scripts/<script>, with the imports of the files
    in ``follow`` (notebooks the job runs)."""
    path = f"{workflow.basedir}/workflow/scripts/{script}"
    CODE_OF[script] = ch.rule_code_hash(path, follow=follow)
    return CODE_OF[script]


def check_code_params():
    """Every rule passes the code hash of its own script (or the whole-package hash)."""
    for r in workflow.rules:
        if r.name in ("all", "analyse"):  # the targets, no job of their own
            continue
        script = Path(str(r.script)).name if r.script else None
        code = dict(r.params.items()).get("code")
        if script is None or code not in (CODE_OF.get(script), CODE_HASH):
            raise WorkflowError(
                f"the code param of {r.name} is not code_of({script!r}) of its script"
            )


def dataset_kind(dataset):
    return ds.dataset_settings(config, dataset)["kind"]


def raw_input(wildcards):
    """Raw tidy file of one benchmark: generated (stand-in) or the user's file."""
    if dataset_kind(wildcards.dataset) == "standin":
        return f"{DATA}/{wildcards.dataset}/{wildcards.bench}.parquet"
    return ds.benchmark_file(config, wildcards.dataset, wildcards.bench)


def figure_outputs(family):
    """The figure files of ``family`` (render.registry), every format. The PNGs are
    flagged for Snakemake's report (`snakemake --report`) with the figure's caption,
    workflow/report/<name>.rst, which render.registry.write_captions writes."""
    out = []
    for path in figure_paths(f"{RESULTS}/{{dataset}}/figures", family):
        if path.endswith(".png"):
            name = Path(path).stem
            path = report(
                path,
                caption=f"../report/{name}.rst",
                category=FAMILIES[family],
                subcategory="{dataset}",
                labels={"dataset": "{dataset}", "figure": name},
            )
        out.append(path)
    return out


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
    wanted = [ds.slug(b) for b in config["false_alarm"]["validation"]["benchmarks"]]
    chosen = [b for b in wanted if b in names] or list(names)[:1]
    return chosen


#: Shards of each benchmark's false-alarm validation (fa_validate jobs): every n-th
#: block each, the same rows whatever n.
FA_VAL_SHARDS = [
    f"{i}-of-{n}" for n in [config["false_alarm"]["validation"]["shards"]] for i in range(n)
]


def fa_validation_files(wildcards):
    """Every shard of every validated benchmark of a dataset (fa_validate outputs)."""
    return [
        f"{RESULTS}/{wildcards.dataset}/sim/fa_validation/{b}.{s}.parquet"
        for b in fa_validation_benchmarks(wildcards.dataset)
        for s in FA_VAL_SHARDS
    ]


# -- targets of `rule all` ----------------------------------------------------------
#
# `rule all` asks for every output of every job, intermediate ones included. Snakemake
# checks for missing outputs only among the files a target asks for: a deleted
# intermediate (say variances/<bench>.json) whose consumers are up to date would
# otherwise not be rebuilt ("Nothing to be done"). Each rule file registers, right
# after a rule, the wildcard values of its jobs; `all_outputs` expands the rule's own
# output patterns with them and refuses a rule that was not registered.

#: Registered rules by name, each with a function giving the wildcard values of its
#: jobs on a dataset (returning None to skip it), or None when no dataset is involved.
TARGETS = {}


def register_targets(rule_name, wildcards_of=None):
    """Make every output of ``rule_name`` a target of `rule all`."""
    TARGETS[rule_name] = wildcards_of


def per_dataset(dataset):
    """Wildcard values of a rule with one job per dataset."""
    return {"dataset": [dataset]}


def per_bench(dataset):
    """Wildcard values of a rule with one job per benchmark of a dataset."""
    return {"dataset": [dataset], "bench": list(BENCHMARKS[dataset])}


def all_outputs():
    check_code_params()
    forgotten = [r.name for r in workflow.rules if r.name != "all" and r.name not in TARGETS]
    if forgotten:
        raise WorkflowError(
            f"rule(s) {', '.join(forgotten)} not registered with register_targets()"
        )
    out = []
    for name, wildcards_of in TARGETS.items():
        patterns = list(getattr(rules, name).output)
        if wildcards_of is None:
            out += patterns
            continue
        for d in DATASETS:
            values = wildcards_of(d)
            if values is not None:
                out += expand(patterns, **values)
    return out
