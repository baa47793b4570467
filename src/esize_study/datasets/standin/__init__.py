r"""A calibrated, seeded stand-in for the paper's Mono benchmark data.

The raw measurements behind the paper's experiments (ten Mono benchmarks, 150 builds
of the platform, 100 executions per build, 64 to 512 timed iterations per execution)
were never published. This package generates data of the same shape and, as far as
the paper describes them, the same statistical character, so that every analysis in
the project can be run end to end. It is a *model* of the data, not the data: the
numbers it must reproduce are the per-level variation estimates of Table
``tVariations`` and the qualitative traits the paper reports (Sections
"Benchmarks" and "Variation in the Data"); everything else is a documented
modelling choice.

``model``
    the model of the data (a product of build, execution, iteration and warm-up
    factors), its shape constants and :class:`~.model.StandinParams`;
``calibration``
    the model's variances solved in closed form from Table tVariations
    (:func:`~.calibration.derive_params`), and the estimates expected for any shape
    (:func:`~.calibration.expected_variation`);
``generate``
    seeded data of any size (:func:`~.generate.generate`, as a tidy frame
    :func:`~.generate.generate_frame`).
"""
