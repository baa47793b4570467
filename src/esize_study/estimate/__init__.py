"""Estimating from the data and from the simulations' results: the stage after reading.

``variation``
    Table tVariations from the per-level estimates, the variance structure of a
    dataset (which level dominates, where T^2 <= 0), CPU-time estimates;
``costs``
    cost models in measurements: the paper's, and a measured dataset's;
``precision``
    dimensioning: Table tPrecisions (the paper's procedure and our optimum), its
    marks against the paper's printed cells and their sensitivity to rounding, and
    the dimensioning of a measured dataset;
``examples``
    the paper's worked examples recomputed with the library;
``warmup``
    the fixed warm-up cut beside what the data show;
``rates``
    rates and shares of simulated comparisons: false-alarm rates at thresholds,
    minimal thresholds, Wilson and normal intervals of Monte Carlo results, the call
    of a share against a target;
``coverage``
    the exact coverage of Fieller's interval under the coverage model, and the
    coverage table read point by point.

Nothing here simulates, judges a claim or renders.
"""
