"""The known-effect experiment: intervals for a change injected into measured programs.

``simulate``
    subsampled comparisons of a base benchmark with its variants
    (:func:`~.simulate.simulate`) and the full-data reference
    (:func:`~.simulate.reference`);
``records``
    the intervals as a table, the verdicts they give, and the tables
    ``known_effects.csv`` and ``known_effect_verdicts.csv`` made from them (read back
    by :func:`~.records.read_tables`).
"""
