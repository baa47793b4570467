"""False-alarm simulations (the paper's Section "False Alarm Rate").

``simulate``
    two systems drawn from the same benchmark's data, compared by the asymptotic
    (Fieller) and bootstrap intervals (:func:`~.simulate.simulate_cells`);
``records``
    the simulation jobs' records as columns, the rates table ``false_alarm.csv``
    made from them, and its summary on a measured pool;
``shape``
    the binary-shape check: the same engine on populations with normal or log-normal
    binaries (:func:`~.shape.shape_check`), a simulation of its own whose result the
    false-alarm claims quote.
"""
