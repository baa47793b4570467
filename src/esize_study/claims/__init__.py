"""Judging the paper's claims against our results: the stage after the simulations.

``claim``
    a claim of the paper as a record (:class:`~.claim.Claim`), the qualifiers' bands,
    the decision rules, the agreement counts, the records as JSON;
``tables``
    the claims of the sections "Variation in the Data", the worked examples and
    "Dimensioning the Experiments" (Tables tVariations, tWEData..., tPrecisions);
``falsealarm``
    the claims of "False Alarm Rate", from ``false_alarm.csv`` and the comparisons;
``coverage``
    the claims of "Coverage", from ``coverage.csv``;
``falsealarm_text``, ``coverage_text``, ``falsealarm_more``, ``coverage_more``
    the further statements of those sections (their rows join the section's table);
``arithmetic``
    statements judged by exact arithmetic: Table tVariations' note, the worked example
    of "Dimensioning the Experiments", Table tPrecisions' note, "always better".

Which rows judge which statement of the paper is listed in
:data:`esize_study.paper.statements.STATEMENTS`.

Claims judge results: they never simulate and never import a simulation (the one
simulation a claim quotes, the binary-shape check, is a rule of its own,
:mod:`esize_study.falsealarm.shape`). Only the report imports them
(:mod:`esize_study.report`).
"""
