# Helpers of the coverage rules (coverage.smk).


def cov_chosen(dataset, wanted):
    """Slugs of the wanted benchmarks in the dataset, else as many of its first ones."""
    names = list(BENCHMARKS[dataset])
    slugs = [ds.slug(b) for b in wanted]
    chosen = [b for b in slugs if b in names]
    return chosen or names[: max(1, len(slugs))]


def cov_validation_inputs(wildcards):
    return [
        f"{RESULTS}/{wildcards.dataset}/sim/coverage_validation/{b}.parquet"
        for b in cov_chosen(wildcards.dataset, COV["validation"]["benchmarks"])
    ]
