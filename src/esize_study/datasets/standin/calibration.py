r"""The stand-in's model solved from the paper's Table tVariations, and its expectations.

Calibration
-----------
The paper reports estimates, not model variances. With :math:`n_1` steady
iterations per execution and :math:`n_2` executions per build, the estimators of
:mod:`esize.estimators` have, under the model above (relative units,
:math:`\mu = 1`),

.. math::

    \mathrm{E}\,S_1^2 &= (1+\sigma_B^2)(1+\sigma_E^2)\,s_X, \\
    \mathrm{E}\,S_2^2 &= (1+\sigma_B^2)\,w_X, \qquad
        w_X = (1+\sigma_E^2)(1+v_X) - 1, \\
    \mathrm{E}\,S_3^2 &= (1+\sigma_B^2)(1 + w_X/n_2) - 1
        \;=\; \sigma_B^2 + \mathrm{E}\,S_2^2 / n_2,

where :math:`v_X` is the variance of the mean of :math:`n_1` consecutive values of
:math:`X` and :math:`s_X` the expected within-execution sample variance. Both follow
exactly from the autocovariance :math:`c(h)` of :math:`X`:

.. math::

    v_X = \frac{1}{n_1^2}\Big[n_1 c(0) + 2\sum_{h=1}^{n_1-1}(n_1-h)\,c(h)\Big],
    \qquad s_X = \frac{n_1}{n_1-1}\,\big(c(0) - v_X\big).

:func:`derive_params` sets these expectations equal to the squares of the table's
relative :math:`S` values (at the paper's shape, :math:`n_2 = 100` and the steady
counts 45, 179, 358 that dropping the paper's 30 % of warm-up leaves) and solves for the model variances in closed form:
:math:`\sigma_B^2` from the last line; then, per family,

* independent iterations (FFT NA, Rijndael): :math:`\sigma_E^2` and
  :math:`\sigma_G^2` from the first two lines;
* FFT with placement: :math:`\sigma_G^2` is taken over from the matching ``NA``
  variant (same computation, same timing noise), :math:`\sigma_E^2` and
  :math:`\sigma_H^2` come from the first two lines;
* HTTP and TCP: :math:`\sigma_E^2 = 0`; :math:`\sigma_G^2` and the displacement
  variance :math:`2\,\mathrm{var}\,U` from the first two lines.

Nothing is tuned by hand or per seed; the constants below (distribution shapes,
pool size, switch probability, warm-up shape) only fix the *form* of each
component. :func:`expected_variation` evaluates the expectations for any shape, so
that samples of other sizes can be checked against the model.
"""

from __future__ import annotations

import math

import numpy as np

from .model import (
    _COMPENSATING,
    _DEPENDENT,
    JITTER_PROB,
    NA_COUNTERPART,
    PAPER_BINARIES,
    PAPER_EXECUTIONS,
    PAPER_VARIATION,
    RAW_MEASUREMENTS,
    StandinParams,
    _check_benchmark,
    _mean_seconds,
    _unit_moments,
    _window_moments,
    steady_count,
)

__all__ = ["derive_params", "expected_variation"]


def derive_params(
    benchmark: str,
    *,
    binaries: int = PAPER_BINARIES,
    executions: int = PAPER_EXECUTIONS,
    measurements: int | None = None,
) -> StandinParams:
    """Model parameters of ``benchmark``, solved from Table ``tVariations``.

    Parameters
    ----------
    benchmark : str
        One of :data:`.model.BENCHMARKS`.
    binaries, executions : int
        Shape of the experiment *in which the table's estimates were made* (the
        paper's 150 x 100 by default). Only ``executions`` enters the expectations
        (it sets the bias of the build-level estimate); ``binaries`` is checked and
        recorded. :func:`.generate.generate` always uses the paper's shape: the model's
        variances describe the benchmark, not the size of a sample drawn from it.
    measurements : int, optional
        Raw iterations per execution in that experiment; default the paper's.

    Returns
    -------
    StandinParams

    Raises
    ------
    ValueError
        For an unknown benchmark, too small a shape, or table values the model
        cannot reproduce (a negative variance or a non-positive floor).
    """
    _check_benchmark(benchmark)
    raw = RAW_MEASUREMENTS[benchmark] if measurements is None else int(measurements)
    n1, n2 = steady_count(raw), int(executions)
    if n1 < 2 or n2 < 2 or int(binaries) < 2:
        raise ValueError("derivation needs at least 2 units at every level")
    s_bin, s_exec, s_meas, _ = PAPER_VARIATION[benchmark]
    t_bin, t_exec, t_meas = (s_bin / 100) ** 2, (s_exec / 100) ** 2, (s_meas / 100) ** 2

    var_b = t_bin - t_exec / n2  # E S3^2 = sigma_B^2 + E S2^2 / n2
    x = t_exec / (1.0 + var_b)  # w_X
    m = t_meas / (1.0 + var_b)  # (1 + sigma_E^2) s_X
    var_e = noise = placement = jitter_var = 0.0

    if benchmark in _COMPENSATING:
        # sigma_E = 0: v_X = x and s_X = m, with X = G + (U_{m+1} - U_m)
        jitter_var = (m - n1 * x) / 2.0
        noise = n1 * x - 2.0 * jitter_var / n1
    elif benchmark in _DEPENDENT:
        noise = derive_params(
            NA_COUNTERPART[benchmark],
            binaries=binaries,
            executions=executions,
            measurements=measurements,
        ).noise_var
        v_h, s_h = _unit_moments(n1, placement=True, jitter=False)
        # a = 1 + sigma_E^2;  a (noise + gH s_h) = m;  a (1 + noise/n1 + gH v_h) = 1 + x
        r = v_h / s_h
        a = (1.0 + x - m * r) / (1.0 + noise / n1 - noise * r)
        var_e = a - 1.0
        placement = (m / a - noise) / s_h
    else:
        # independent iterations: a s = m, a (1 + s/n1) = 1 + x
        var_e = x - m / n1
        noise = m / (1.0 + var_e)

    jitter_width = math.sqrt(jitter_var / (JITTER_PROB * (1 - JITTER_PROB)))
    params = StandinParams(
        benchmark=benchmark,
        raw_measurements=raw,
        derivation_shape=(int(binaries), n2, n1),
        mean_seconds=_mean_seconds(benchmark),
        var_binary=var_b,
        var_execution=var_e,
        noise_var=noise,
        placement_var=placement,
        jitter_width=jitter_width,
    )
    bad = {
        k: val
        for k, val in (
            ("var_binary", var_b),
            ("var_execution", var_e),
            ("noise_var", noise),
            ("placement_var", placement),
            ("jitter_var", jitter_var),
        )
        if val < -1e-15
    }
    if bad:
        raise ValueError(f"{benchmark}: the table implies negative variance(s) {bad}")
    if params.floor <= 0:
        raise ValueError(f"{benchmark}: derived model can produce non-positive times")
    return params


def expected_variation(
    params: StandinParams | str,
    *,
    executions: int = PAPER_EXECUTIONS,
    measurements: int | None = None,
) -> dict[str, np.ndarray]:
    """Expected per-level estimates for data of a given shape.

    Parameters
    ----------
    params : StandinParams or str
        Parameters, or a benchmark name (then :func:`derive_params` is used).
    executions : int
        Executions per build in the sample.
    measurements : int, optional
        Raw iterations per execution in the sample (default: the paper's); the
        warm-up is dropped first.

    Returns
    -------
    dict
        ``"S2"`` and ``"T2"`` (relative, expected values of the estimators) and
        ``"S_pct"``, ``"T_pct"`` (square roots in % of the mean, :math:`T` clipped at
        zero), each an array ordered ``[binary, execution, measurement]``.

    Notes
    -----
    The values are exact expectations of :math:`S^2` for independent draws of the
    build factor; stratified builds (the default of :func:`.generate.generate`) make the
    build-level estimate larger by a factor :math:`n_3/(n_3-1)` on average, which
    is within the sampling error of that estimate. :math:`S` itself is the square
    root of the expectation, which ignores the small Jensen bias.
    """
    p = derive_params(params) if isinstance(params, str) else params
    raw = p.raw_measurements if measurements is None else int(measurements)
    n1, n2 = steady_count(raw), int(executions)
    if n1 < 2 or n2 < 2:
        raise ValueError("expected estimates need at least 2 units per level")
    v, s = _window_moments(p.autocovariance(n1))
    w = (1.0 + p.var_execution) * (1.0 + v) - 1.0
    s2 = np.array(
        [
            (1.0 + p.var_binary) * (1.0 + w / n2) - 1.0,
            (1.0 + p.var_binary) * w,
            (1.0 + p.var_binary) * (1.0 + p.var_execution) * s,
        ]
    )
    t2 = s2.copy()
    t2[:-1] = s2[:-1] - s2[1:] / np.array([n2, n1])
    return {
        "S2": s2,
        "T2": t2,
        "S_pct": 100.0 * np.sqrt(s2),
        "T_pct": 100.0 * np.sqrt(np.clip(t2, 0.0, None)),
    }
