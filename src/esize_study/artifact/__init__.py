"""The tooling around the pipeline's results, apart from the study's stages.

``codehash``
    what code each rule runs (its import closure, read from the sources) and its
    hash, the rules' ``code`` params; and the hash of the packages' bytes that
    ``provenance.json`` records;
``provenance``
    ``results/<dataset>/provenance.json``: commit, hashes, seeds, versions, machine;
    and the header the tables and the report print from it;
``archive``
    ``make archive``: one tarball of source and results for deposit
    (``python -m esize_study.artifact.archive``);
``citation``
    ``CITATION.cff`` as BibTeX with version and year
    (``python -m esize_study.artifact.citation``), ``CITATION.bib`` in the archive.

Nothing in the study imports these modules; the workflow and its scripts do.
"""
