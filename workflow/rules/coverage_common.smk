# Helpers of the coverage rules (coverage.smk), and its `rule all` hook.


def cov_chosen(dataset, wanted):
    """Slugs of the wanted benchmarks in the dataset, else as many of its first ones."""
    names = list(BENCHMARKS[dataset])
    slugs = [pl.slug(b) for b in wanted]
    chosen = [b for b in slugs if b in names]
    return chosen or names[: max(1, len(slugs))]


def cov_validation_inputs(wildcards):
    return [
        f"{RESULTS}/{wildcards.dataset}/sim/coverage_validation/{b}.parquet"
        for b in cov_chosen(wildcards.dataset, COV["validation"]["benchmarks"])
    ]


def coverage_outputs(dataset):
    """Outputs of this file for `rule all`."""
    base = f"{RESULTS}/{dataset}"
    out = [f"{base}/sim/coverage.csv", f"{base}/report_coverage.md"]
    out += figure_paths(f"{base}/figures", "coverage")
    return out


OUTPUT_HOOKS.append(coverage_outputs)
