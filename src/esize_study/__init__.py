"""The reproduction study of Kalibera & Jones (the paper's evaluation), apart from the library.

Nothing in :mod:`esize` imports this package. Its subpackages are the stages of the
study, and data flow one way through them: a module imports only modules of its own
stage or of earlier ones (``tests/study/test_layering.py`` checks it from the sources).

``paper``
    what the paper prints: its numbers (inputs and targets) and its worked examples;
``datasets``
    reading a dataset: the workflow configuration, its datasets and costs files, raw
    files read into designs, the pipeline's files written, a measured dataset's raw
    files, the calibrated Mono-style stand-in ("Variation in the Data");
``estimate``
    estimating: Tables tVariations and tPrecisions ("Dimensioning the Experiments"),
    the worked examples ("For Practitioners"), the warm-up check, rates and intervals
    of simulated results, the exact coverage under the model;
``engine``, ``falsealarm``, ``coverage``, ``knowneffect``
    simulating: the shared engine, then "False Alarm Rate", "Coverage" and the
    known-effect experiment on measured data, each with its jobs' records as tables;
``claims``
    judging the paper's claims against the results (never simulating, and imported by
    the report only);
``render``
    rendering figures (one registry of names and captions) and tables, and the report
    section on a measured dataset;
``report``
    the reproduction report: the claims in tables, the sections, the assembly from a
    template, HTML;
``artifact``
    the tooling around the results, apart from the stages: per-rule code hashes,
    ``provenance.json``, ``make archive``.
"""
