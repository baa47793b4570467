"""Does the shape of the binary distribution set the 3-binary bootstrap rate? The
false-alarm engine on populations with Table tVariations' variances for FFT NA OPT,
normal or log-normal binaries (fa_shape_check.json, quoted by the false-alarm claims)."""

from esize_study.datasets import files as pl
from esize_study.falsealarm.shape import shape_check
from esize_study.paper import numbers as paper

log = pl.script_logging(snakemake.log[0])  # noqa: F821
fa = snakemake.params.fa  # noqa: F821
shape = shape_check(paper.VARIATION_S["FFT NA OPT"], seed=int(fa["seed"]),
                    comparisons=int(fa["comparisons"]), resamples=int(fa["resamples"]),
                    block=int(fa["block"]))
pl.write_json(snakemake.output[0], shape)  # noqa: F821
log.info("binary shape check: RRR at 2 %%, 3 binaries: normal %.4f, log-normal %.4f",
         shape["normal"]["rate2"], shape["lognormal"]["rate2"])
