"""Does the shape of the binary distribution set the 3-binary bootstrap rate? The
false-alarm engine on populations with Table tVariations' variances for each FFT
benchmark, normal or log-normal binaries (fa_shape_check.json: benchmark -> result,
quoted by the false-alarm claims)."""

from esize_study.datasets import files
from esize_study.falsealarm.shape import shape_check
from esize_study.paper import numbers as paper

log = files.script_logging(snakemake.log[0])  # noqa: F821
fa = snakemake.params.fa  # noqa: F821
shapes = {}
for name in ("FFT NA OPT", "FFT NA", "FFT OPT", "FFT"):
    shapes[name] = shape = shape_check(
        paper.VARIATION_S[name], seed=int(fa["seed"]), comparisons=int(fa["comparisons"]),
        resamples=int(fa["resamples"]), block=int(fa["block"]), benchmark=name)
    log.info("binary shape check, %s: RRR at 2 %%, 3 binaries: normal %.4f, log-normal %.4f",
             name, shape["normal"]["rate2"], shape["lognormal"]["rate2"])
files.write_json(snakemake.output[0], shapes)  # noqa: F821
