"""Coverage on a measured dataset's own data, beside the stand-in's (esize_study.coverage.real):
results/<dataset>/report_real_coverage.md, its table and its figure."""

import pandas as pd

from esize_study.coverage import real
from esize_study.datasets import files
from esize_study.render.figures import save
from esize_study.render.registry import section

log = files.script_logging(snakemake.log[0])  # noqa: F821
inp, out, p = snakemake.input, snakemake.output, snakemake.params  # noqa: F821
dataset = snakemake.wildcards.dataset  # noqa: F821


def coverage_of(path):
    """:func:`real.real_coverage` of one false-alarm table; a bad one ends in one line."""
    try:
        return real.real_coverage(pd.read_csv(path))
    except ValueError as exc:
        files.fail(log, ValueError(f"{path}: {exc}"))


measured = coverage_of(inp.measured)
standin = coverage_of(inp.standin[0]) if inp.standin else None
beside = real.side_by_side(measured, standin) if standin is not None else None
if beside is not None and beside.empty:  # no benchmark name in common
    standin, beside = None, None
save(real.plot_beside(measured, standin, level=1 - p.alpha), *out.figures)
files.write_csv(out.csv, measured.to_dict("records"), real.COLUMNS)
files.write_csv(out.beside, [] if beside is None else beside.to_dict("records"), real.BESIDE_COLUMNS)
body = real.section_markdown(measured, beside, standin_name=p.standin, level=1 - p.alpha,
                             figure=p.figure, sizes=p.sizes)
files.atomic_write_text(out.md, section("real_coverage", body, dataset=dataset))
log.info("%d measured cells, %s beside the stand-in", len(measured),
         "none" if beside is None else len(beside))
