"""Figures fCOV, fCOVGrid(Boot), fCOVR, fCOVRSGrid and the extras, from coverage.csv."""

import pandas as pd

from esize_study import cov_claims, figures
from esize_study import figures_coverage as fc
from esize_study import pipeline as pl

log = pl.script_logging(snakemake.log[0])  # noqa: F821
level = 1 - snakemake.params.alpha  # noqa: F821
table = pd.read_csv(snakemake.input.csv)  # noqa: F821
names = list(dict.fromkeys(table["benchmark"]))


def pick(*wanted, among=names):
    return figures.pick(among, *wanted)


def out(name):
    return figures.named(snakemake.output, name)  # noqa: F821


def panel(exp, method, scheme, title, bench=None):
    return {"experiment": exp, "method": method, "scheme": scheme, "title": title, "benchmark": bench}


binaries = "binaries per system"
fc.save(fc.curves(table, [panel("fCOV", "bootstrap", "RRR", "RRR bootstrap"),
                          panel("fCOV", "asymptotic", "-", "asymptotic (Fieller, t quantile)")],
                  x="binaries", xlabel=binaries, level=level), *out("fCOV"))
fc.save(fc.curves(table, [panel("fCOV", "normal", "-", "normal-quantile asymptotic (Fieller)")],
                  x="binaries", xlabel=binaries, level=level, ncols=1), *out("fCOVNormal"))
fc.save(fc.curves(table, [panel("fCOV", "bootstrap", s, f"{s} bootstrap")
                          for s in ("RRR", "RRN", "RNN", "FLAT")],
                  x="binaries", xlabel=binaries, level=level), *out("fCOVSchemes"))
fc.save(fc.curves(table, [panel("fCOVR", "bootstrap", "RRR", "RR bootstrap, one binary"),
                          panel("fCOVR", "asymptotic", "-", "asymptotic, one binary")],
                  x="executions", xlabel="executions per system (one binary)", level=level),
        *out("fCOVR"))

grid = dict(x="binaries", y="executions", xlabel=binaries, ylabel="executions per binary",
            level=level, diagonal=True)
a, b = pick("FFT NA OPT", "Rijndael OPT")
fc.save(fc.heatmaps(table, [panel("fCOVGrid", "asymptotic", "-", f"{n}, asymptotic", n) for n in (a, b)],
                    **grid), *out("fCOVGrid"))
booted = list(dict.fromkeys(table[(table["experiment"] == "fCOVGrid")
                                  & (table["method"] == "bootstrap")]["benchmark"]))
chosen = pick("FFT NA OPT", "Rijndael OPT", among=booted) or [a]
fc.save(fc.heatmaps(table, [panel("fCOVGrid", "bootstrap", "RRR", f"{n}, RRR bootstrap", n)
                            for n in chosen], contours=(85, 90, 95, 98), **grid), *out("fCOVGridBoot"))
a, b = pick("FFT NA", "HTTP OPT")
fc.save(fc.heatmaps(table, [panel("fCOVRSGrid", "asymptotic", "-", f"{n}, asymptotic, one binary", n)
                            for n in (a, b)],
                    x="executions", y="measurements", xlabel="executions per system (one binary)",
                    ylabel="measurements per execution", level=level, contours=(50, 70, 90, 95)),
        *out("fCOVRSGrid"))

val = pd.concat([pd.read_parquet(p) for p in snakemake.input.validation], ignore_index=True)  # noqa: F821
fc.save(fc.validation(cov_claims.validation_table(val)), *out("fCOVValidation"))
log.info("figures written")
