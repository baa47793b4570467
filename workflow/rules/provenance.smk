# Provenance of every dataset's results: results/<dataset>/provenance.json names the
# commit (and whether the tree had uncommitted changes), the code and config hashes,
# the seeds, the software versions and the machine (esize_study.artifact.provenance).
#
# The job reruns when the code hash or the config hash changes; a commit that changes
# neither (say, a README edit) leaves the results and this record of the commit that
# made them as they are. Its code param is the hash of the whole packages' bytes
# (codehash.code_hash), which the record holds and `make archive` checks against the
# archived source, not a per-rule hash: any edit of the packages, a comment included,
# writes the record anew, and the tables and the report that print it follow (cheap
# jobs; no simulation reads it).

import esize_study.artifact.provenance as pv


# the notebooks rendered to HTML, the other record a reader gets beside the report
include: "notebook.smk"


CONFIG_HASH = pv.config_hash(config)


rule provenance:
    output:
        f"{RESULTS}/{{dataset}}/provenance.json",
    params:
        code=CODE_HASH,  # what the record holds (see above)
        config_hash=CONFIG_HASH,
    log:
        f"{LOGS}/{{dataset}}/provenance.log",
    benchmark:
        f"{LOGS}/{{dataset}}/provenance.benchmark.tsv"
    conda:
        "../envs/esize.yaml"
    script:
        "../scripts/provenance.py"


register_targets("provenance", per_dataset)
