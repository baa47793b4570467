"""The reproduction study of Kalibera & Jones (the paper's evaluation), apart from the library.

Nothing in :mod:`esize` imports this package. Its modules, by the paper's sections:

``paper``
    numbers the paper states (inputs and targets), kept as data;
``standin``
    a calibrated stand-in for the unpublished Mono data ("Variation in the Data");
``reproduction``
    the tables and worked examples ("For Practitioners: The New Method without
    Statistics", "Dimensioning the Experiments");
``engine``
    simulation machinery shared by the two simulation families below;
``falsealarm``, ``fa_claims``, ``figures``
    "False Alarm Rate": simulation, claims, figures;
``coverage``, ``cov_claims``, ``figures_coverage``
    "Coverage": simulation, claims, figures;
``claims``
    a claim of the paper as a record, its one table renderer and the agreement count;
``report``
    the reproduction report (Markdown and HTML);
``layout``, ``pipeline``
    figure names and helpers of the Snakemake workflow.
"""
