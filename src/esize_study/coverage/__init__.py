"""Coverage simulations (the paper's Section "Coverage") in a hierarchical normal model.

``model``
    the model fed with a benchmark's variance estimates, its cells and their
    simulation (:func:`~.model.simulate_cells`), the cells of the configuration;
``records``
    the simulation jobs' counts as columns and the table ``coverage.csv`` made from
    them; the validation jobs' per-experiment intervals;
``validation``
    the approximate simulation against the exact one on the validation cases
    (:func:`~.validation.validation_table`).
"""
