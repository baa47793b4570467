"""Figures fFAFFT, fFA2L, fFABoot and the approximation check, from the tables."""

import pandas as pd

from esize_study import figures
from esize_study import pipeline as pl

log = pl.script_logging(snakemake.log[0])  # noqa: F821
table = pd.read_csv(snakemake.input.csv)  # noqa: F821
names = list(dict.fromkeys(table["benchmark"]))


def pick(*wanted, among=names):
    return figures.pick(among, *wanted)


def out(name):
    return figures.named(snakemake.output, name)  # noqa: F821


fft, rij = pick("FFT NA OPT", "Rijndael")
ymax = {"FFT NA OPT": 10, "Rijndael": 0.5}
panels = []
for b in (fft, rij):
    for method, scheme, label in (("bootstrap", "RRR", "RRR bootstrap"), ("asymptotic", "-", "asymptotic")):
        panels.append({"benchmark": b, "experiment": "fFAFFT", "method": method, "scheme": scheme,
                       "ymax": ymax.get(b), "title": f"{b}, {label}"})
figures.save(figures.fa_contours(table, panels, x="binaries", xlabel="binaries per system"),
             *out("fFAFFT"))

a, b = pick("FFT NA OPT", "TCP OPT")
panels = [{"benchmark": n, "experiment": "fFA2L", "method": "asymptotic", "scheme": "-",
           "ymax": None, "title": f"{n}, asymptotic, one binary"} for n in (a, b)]
# the flat case (one execution) is reported in the table and the report, not plotted
figures.save(figures.fa_contours(table, panels, x="executions", min_x=2,
                                 xlabel="executions per system (one binary)"), *out("fFA2L"))

figures.save(figures.fa_boot(table, pick("FFT", "TCP")), *out("fFABoot"))

val = pd.concat([pd.read_parquet(p) for p in snakemake.input.validation], ignore_index=True)  # noqa: F821
figures.save(figures.fa_validation(val, snakemake.params.thresholds), *out("fFAValidation"))  # noqa: F821
log.info("figures written")
