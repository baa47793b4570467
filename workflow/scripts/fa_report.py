"""Report section: the paper's false-alarm claims beside our numbers (Markdown and records)."""

import pandas as pd

from esize_study import claims as cl
from esize_study import fa_claims, paper
from esize_study import pipeline as pl

log = pl.script_logging(snakemake.log[0])  # noqa: F821
comparisons = pd.read_parquet(snakemake.input.comparisons)  # noqa: F821
table = pd.read_csv(snakemake.input.csv)  # noqa: F821
validation = pd.concat([pd.read_parquet(p) for p in snakemake.input.validation], ignore_index=True)  # noqa: F821
shape = None
if "FFT NA OPT" in set(comparisons["benchmark"].unique()):
    # Does the shape of the binary distribution set the 3-binary bootstrap rate? The same
    # engine on populations with Table tVariations' variances, normal or log-normal binaries.
    fa = snakemake.config["false_alarm"]  # noqa: F821
    shape = fa_claims.shape_check(paper.VARIATION_S["FFT NA OPT"], seed=int(fa["seed"]),
                                  comparisons=int(fa["comparisons"]),
                                  resamples=int(fa["resamples"]), block=int(fa["block"]))
    log.info("binary shape check: RRR at 2 %%, 3 binaries: normal %.4f, log-normal %.4f",
             shape["normal"]["rate2"], shape["lognormal"]["rate2"])
claims = fa_claims.evaluate(comparisons, table, shape)
text = fa_claims.render(claims, fa_claims.validation_summary(validation, snakemake.params.thresholds))  # noqa: F821
pl.atomic_write_text(snakemake.output.md, text)  # noqa: F821
cl.write_claims(snakemake.output.claims, claims)  # noqa: F821
log.info("%d claims, %d of %d compared agree", len(claims), *cl.tally(claims))
