"""Per-level variance estimates (S^2, T^2) of one benchmark."""

from esize import EsizeError, variance_components
from esize_study.datasets import files

log = files.script_logging(snakemake.log[0])  # noqa: F821
design, meta = files.load_design_npz(snakemake.input[0])  # noqa: F821
try:
    vc = variance_components(design.require_replication(2))
except EsizeError as exc:
    files.fail(log, EsizeError(f"{meta['source']}: {exc}"))
files.write_json(
    snakemake.output[0],  # noqa: F821
    {
        "benchmark": meta["benchmark"],
        "levels": list(design.levels),
        "counts": list(design.shape),
        "raw": meta["raw"],
        "warmup": meta["warmup"],
        "mean": vc.mean,
        "S2": vc.S2,
        "T2": vc.T2,
        "S_pct": vc.S_pct,
        "T_pct": vc.T_pct,
    },
)
log.info("%s: S%% %s", meta["benchmark"], [round(x, 3) for x in vc.S_pct])
