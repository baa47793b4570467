"""results/<dataset>/provenance.json: commit, hashes, seeds, versions, machine."""

from pathlib import Path

from esize_study.artifact import provenance as pv
from esize_study.datasets import files

log = files.script_logging(snakemake.log[0])  # noqa: F821
# the top of the source tree: workflow/scripts (as workflow/rules/../scripts) -> top
root = Path(snakemake.scriptdir).resolve().parents[1]  # noqa: F821
prov = pv.collect(snakemake.config, root=root)  # noqa: F821
if prov["config_hash"] != snakemake.params.config_hash:  # noqa: F821
    files.fail(log, RuntimeError("the configuration changed between parsing and this job"))
pv.write(snakemake.output[0], prov)  # noqa: F821
log.info("commit %s (dirty: %s), code %s, config %s", prov["source"]["commit"],
         prov["source"]["dirty"], prov["code_hash"], prov["config_hash"][:16])
