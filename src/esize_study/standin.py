r"""A calibrated, seeded stand-in for the paper's Mono benchmark data.

The raw measurements behind the paper's experiments (ten Mono benchmarks, 150 builds
of the platform, 100 executions per build, 64 to 512 timed iterations per execution)
were never published. This module generates data of the same shape and, as far as
the paper describes them, the same statistical character, so that every analysis in
the project can be run end to end. It is a *model* of the data, not the data: the
numbers it must reproduce are the per-level variation estimates of Table
``tVariations`` and the qualitative traits the paper reports (Sections
"Benchmarks" and "Variation in the Data"); everything else is a documented
modelling choice.

The model
---------
Write :math:`b` for the binary (a build of the platform), :math:`e` for the
execution and :math:`m = 0, 1, \dots` for the timed iteration within the execution.
The time of one iteration, in seconds, is a product of positive factors with mean
one scaled by the steady-state mean :math:`\mu`:

.. math::

    Y_{bem} = \mu \, B_b \, E_{be} \, X_{bem} \, W_{bem}.

* :math:`B_b` -- the build. Rebuilding Mono is not deterministic and a build keeps
  its speed for every run made with it. Log-normal with mean one and variance
  :math:`\sigma_B^2`. By default the builds of one data set are drawn by
  stratified (Latin hypercube) sampling: each build's factor is still marginally
  log-normal, but the set of builds covers the distribution evenly, so the
  top-level estimate, which only has about 150 units behind it, does not wander
  by the several per cent that independent draws would give.
* :math:`E_{be}` -- the execution: whatever a fresh process fixes once for its
  whole life (memory layout, placement of the FFT buffer in the ``NA`` variants,
  addresses of code). Log-normal, mean one, variance :math:`\sigma_E^2`; absent
  (:math:`\sigma_E^2 = 0`) for HTTP and TCP, where the paper finds no execution
  effect.
* :math:`X_{bem}` -- the iteration-to-iteration behaviour, a stationary process with
  mean one within each execution, built from up to three parts:

  .. math::

      X_m = 1 + (G_m - \mathrm{E}\,G) + (H_{\ell(m)} - \mathrm{E}\,H)
              + (U_{m+1} - U_m).

  - :math:`G_m` -- independent noise, Gamma distributed (shape
    :data:`NOISE_SHAPE`): timing noise never makes an iteration faster than some
    floor but now and then makes it much slower, so the distribution is skewed to
    the right with an exponential tail. Present in every benchmark.
  - :math:`H_{\ell(m)}` -- buffer placement in FFT (the variant that allocates a
    new buffer per iteration). Each execution has a small pool of
    :data:`PLACEMENT_POOL` places, each with its own Gamma distributed penalty
    (conflict misses only ever slow FFT down); at every iteration the allocator
    moves the buffer with probability :data:`PLACEMENT_SWITCH` to a place chosen
    uniformly from the pool, and otherwise hands back the place just freed. Places
    therefore persist for runs of iterations and recur later in the execution, so
    iterations are dependent: their covariance at lag :math:`h` is
    :math:`\sigma_H^2\,[\rho^h + (1-\rho^h)/K]` with :math:`\rho = 1 - q`.
    The ``NA`` variants keep one buffer for the whole execution; their placement
    is part of :math:`E_{be}` and their iterations are independent.
  - :math:`U_{m+1} - U_m` -- boundary displacement in the two ping benchmarks
    (HTTP, TCP). :math:`U_m \in \{0, w\}` (probability :data:`JITTER_PROB` each way)
    says whether the hand-over from iteration :math:`m-1` to iteration :math:`m`
    waited one extra period :math:`w` (for a reply to be picked up, a process to be
    scheduled, ...). A wait lengthens one measured iteration and shortens the next
    by the same amount, so the displacement cancels in the sum over an execution:
    iterations are *negatively* dependent, and execution means are steadier than
    independent noise of the same size would make them. This is how the model
    produces :math:`T_2^2 \le 0` while keeping the measurement-level variation of
    the table. The three-point difference also makes the TCP distribution visibly
    multi-modal.

* :math:`W_{bem}` -- warm-up: :math:`1 + A_{be}\,e^{-m/\tau}` for the first
  :func:`warmup_count` iterations of every execution and exactly 1 afterwards
  (:math:`A_{be}` uniform on :math:`[\tfrac12, \tfrac32]\,A_0`,
  :math:`\tau` a fixed fraction of the warm-up length: just-in-time compilation,
  class loading and cold caches). The analysis drops this part, and because the
  transient is cut off exactly there it does not leak into the steady state.

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
counts 45, 179, 358) and solves for the model variances in closed form:
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

Reproducibility
---------------
Every random draw comes from a :class:`numpy.random.Generator` seeded by a
:class:`numpy.random.SeedSequence` with ``entropy=seed`` and a spawn key: ``(k, 0)``
for the build factors of benchmark ``k`` (its position in :data:`BENCHMARKS`) and
``(k, 1, b)`` for everything inside build ``b``. Data for one build therefore never
depends on how many builds are generated together, and the same seed, benchmark and
sizes always give the same array. Because the builds are stratified as a set, the
build factors (not the within-build draws) do depend on the number of builds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from . import paper

__all__ = [
    "BENCHMARKS",
    "PAPER_VARIATION",
    "RAW_MEASUREMENTS",
    "EXECUTION_SECONDS",
    "PAPER_BINARIES",
    "PAPER_EXECUTIONS",
    "NA_COUNTERPART",
    "warmup_count",
    "steady_count",
    "StandinParams",
    "derive_params",
    "expected_variation",
    "generate",
    "generate_frame",
]

# ---------------------------------------------------------------------------------
# The paper's numbers
# ---------------------------------------------------------------------------------

#: The ten benchmarks, in the order of Table ``tVariations``.
BENCHMARKS: tuple[str, ...] = paper.BENCHMARKS

#: Table ``tVariations``: relative variation in % of the grand mean,
#: ``(S compilation, S execution, S measurement, T execution or None)``. ``T`` is the
#: unbiased estimate where the paper prints it; ``0.0`` means "T^2 not positive".
PAPER_VARIATION: dict[str, tuple[float, float, float, float | None]] = {
    name: (*paper.VARIATION_S[name], paper.VARIATION_T_EXECUTION[name]) for name in BENCHMARKS
}

#: Raw (warm-up included) timed iterations per execution (Section "Benchmarks").
RAW_MEASUREMENTS: dict[str, int] = {name: paper.raw_measurements(name) for name in BENCHMARKS}

#: Wall time of one execution (all raw iterations), seconds (Section "Benchmarks").
EXECUTION_SECONDS: dict[str, float] = {
    name: paper.EXECUTION_SECONDS_BY_FAMILY[paper.family(name)] for name in BENCHMARKS
}

#: Builds and executions per build in the paper's experiment.
PAPER_BINARIES = paper.BINARIES
PAPER_EXECUTIONS = paper.EXECUTIONS

#: The ``NA`` variant whose independent timing noise an allocating FFT variant shares.
NA_COUNTERPART: dict[str, str] = {"FFT OPT": "FFT NA OPT", "FFT": "FFT NA"}

# ---------------------------------------------------------------------------------
# Shape constants of the model (they fix the form of each component, not its size)
# ---------------------------------------------------------------------------------

#: Gamma shape of the independent timing noise G (1 = exponential tail, skewness 2).
NOISE_SHAPE = 1.0
#: Gamma shape of the FFT placement penalty H (skewness 2/sqrt(shape)).
PLACEMENT_SHAPE = 2.0
#: Number of buffer places an FFT execution cycles through.
PLACEMENT_POOL = 4
#: Per-iteration probability that the FFT buffer moves to a (random) pool place.
PLACEMENT_SWITCH = 0.5
#: Probability that an iteration hand-over waits one extra period (HTTP, TCP).
JITTER_PROB = 0.5
#: Mean extra slowdown of the first iteration of an execution (1.0 = twice as slow).
WARMUP_AMPLITUDE = 1.0
#: Warm-up decay constant as a fraction of the warm-up length.
WARMUP_TAU_FRACTION = 0.25

_DEPENDENT = frozenset(NA_COUNTERPART)
_COMPENSATING = frozenset(n for n in BENCHMARKS if n.startswith(("HTTP", "TCP")))


warmup_count = paper.warmup_count


def steady_count(raw: int) -> int:
    """Iterations left after dropping the warm-up: ``raw - warmup_count(raw)``."""
    return int(raw) - warmup_count(raw)


def _check_benchmark(benchmark: str) -> int:
    try:
        return BENCHMARKS.index(benchmark)
    except ValueError:
        raise ValueError(
            f"unknown benchmark {benchmark!r}; choose one of {list(BENCHMARKS)}"
        ) from None


# ---------------------------------------------------------------------------------
# Parameters and their derivation
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandinParams:
    """Model parameters of one benchmark (variances are relative: mean one).

    Attributes
    ----------
    benchmark : str
        Benchmark name, one of :data:`BENCHMARKS`.
    raw_measurements : int
        Raw iterations per execution in the paper (warm-up included).
    derivation_shape : tuple of int
        ``(binaries, executions, steady iterations)`` at which the table's
        estimates were inverted.
    mean_seconds : float
        Steady-state mean time of one iteration, :math:`\\mu` (s). Chosen so that an
        execution of ``raw_measurements`` iterations, warm-up included, takes
        :data:`EXECUTION_SECONDS` on average.
    var_binary : float
        :math:`\\sigma_B^2`, variance of the log-normal build factor.
    var_execution : float
        :math:`\\sigma_E^2`, variance of the log-normal execution factor.
    noise_var : float
        :math:`\\sigma_G^2`, variance of the independent Gamma noise.
    noise_shape : float
        Gamma shape of that noise.
    placement_var : float
        :math:`\\sigma_H^2`, variance of a buffer place's penalty (0 if none).
    placement_shape : float
        Gamma shape of the penalty.
    placement_pool : int
        Places per execution, :math:`K`.
    placement_switch : float
        Per-iteration move probability, :math:`q`.
    jitter_width : float
        Extra wait :math:`w` of a delayed hand-over (0 if none).
    jitter_prob : float
        Probability of a delayed hand-over.
    warmup_amplitude : float
        Mean :math:`A_0` of the first iteration's relative slowdown.
    warmup_tau_fraction : float
        Decay constant :math:`\\tau` as a fraction of the warm-up length.
    """

    benchmark: str
    raw_measurements: int
    derivation_shape: tuple[int, int, int]
    mean_seconds: float
    var_binary: float
    var_execution: float
    noise_var: float
    noise_shape: float = NOISE_SHAPE
    placement_var: float = 0.0
    placement_shape: float = PLACEMENT_SHAPE
    placement_pool: int = PLACEMENT_POOL
    placement_switch: float = PLACEMENT_SWITCH
    jitter_width: float = 0.0
    jitter_prob: float = JITTER_PROB
    warmup_amplitude: float = WARMUP_AMPLITUDE
    warmup_tau_fraction: float = WARMUP_TAU_FRACTION

    @property
    def jitter_var(self) -> float:
        """Variance of the hand-over wait :math:`U` (``w^2 p (1-p)``)."""
        return self.jitter_width**2 * self.jitter_prob * (1.0 - self.jitter_prob)

    @property
    def floor(self) -> float:
        """Smallest possible value of :math:`X` (relative); positive by construction."""
        return (
            1.0
            - math.sqrt(self.noise_var * self.noise_shape)
            - math.sqrt(self.placement_var * self.placement_shape)
            - self.jitter_width
        )

    def autocovariance(self, n: int) -> np.ndarray:
        """Autocovariance :math:`c(0), \\dots, c(n-1)` of :math:`X` within an execution."""
        h = np.arange(int(n), dtype=np.float64)
        c = np.zeros(int(n))
        c[0] = self.noise_var + 2.0 * self.jitter_var
        if n > 1:
            c[1] = -self.jitter_var
        if self.placement_var > 0:
            rho = (1.0 - self.placement_switch) ** h
            c += self.placement_var * (rho + (1.0 - rho) / self.placement_pool)
        return c


def _window_moments(c: np.ndarray) -> tuple[float, float]:
    """``(v, s)``: variance of the window mean and expected sample variance."""
    n = c.size
    h = np.arange(1, n)
    v = (n * c[0] + 2.0 * np.sum((n - h) * c[1:])) / n**2
    s = n / (n - 1) * (c[0] - v)
    return float(v), float(s)


def _unit_moments(n: int, *, placement: bool, jitter: bool) -> tuple[float, float]:
    """``(v, s)`` per unit of the component's variance (placement or jitter var U)."""
    proto = StandinParams(
        benchmark="",
        raw_measurements=0,
        derivation_shape=(0, 0, n),
        mean_seconds=1.0,
        var_binary=0.0,
        var_execution=0.0,
        noise_var=0.0,
        placement_var=1.0 if placement else 0.0,
        jitter_width=math.sqrt(1.0 / (JITTER_PROB * (1 - JITTER_PROB))) if jitter else 0.0,
    )
    return _window_moments(proto.autocovariance(n))


def _mean_seconds(benchmark: str) -> float:
    raw = RAW_MEASUREMENTS[benchmark]
    d = warmup_count(raw)
    tau = max(d, 1) * WARMUP_TAU_FRACTION
    extra = WARMUP_AMPLITUDE * float(np.sum(np.exp(-np.arange(d) / tau)))
    return EXECUTION_SECONDS[benchmark] / (raw + extra)


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
        One of :data:`BENCHMARKS`.
    binaries, executions : int
        Shape of the experiment *in which the table's estimates were made* (the
        paper's 150 x 100 by default). Only ``executions`` enters the expectations
        (it sets the bias of the build-level estimate); ``binaries`` is checked and
        recorded. :func:`generate` always uses the paper's shape: the model's
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
    build factor; stratified builds (the default of :func:`generate`) make the
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


# ---------------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------------


def _lognormal_factor(z: np.ndarray, var: float) -> np.ndarray:
    """Mean-one log-normal factor with variance ``var`` from standard normals ``z``."""
    if var <= 0:
        return np.ones_like(z)
    s2 = math.log1p(var)
    return np.exp(math.sqrt(s2) * z - 0.5 * s2)


def _binary_factors(
    p: StandinParams, rng: np.random.Generator, n: int, stratified: bool
) -> np.ndarray:
    if stratified:
        strata = rng.permutation(n)
        u = (strata + rng.random(n)) / n
        z = ndtri(np.clip(u, 1e-300, 1.0 - 1e-16))
    else:
        z = rng.standard_normal(n)
    return _lognormal_factor(z, p.var_binary)


def _one_binary(
    p: StandinParams, rng: np.random.Generator, executions: int, raw: int
) -> np.ndarray:
    """Relative times ``E * X * W`` of one build, shape ``(executions, raw)``."""
    shape = (executions, raw)
    x = np.ones(shape)
    if p.noise_var > 0:
        theta = p.noise_var / math.sqrt(p.noise_var * p.noise_shape)  # var / mean
        g = rng.gamma(p.noise_shape, theta, size=shape)
        g -= p.noise_shape * theta
        x += g
    if p.placement_var > 0:
        k, pool = p.placement_shape, p.placement_pool
        theta = math.sqrt(p.placement_var / k)
        penalty = rng.gamma(k, theta, size=(executions, pool)) - k * theta
        move = rng.random(shape) < p.placement_switch
        move[:, 0] = True
        place = rng.integers(0, pool, size=shape)
        last = np.where(move, np.arange(raw), 0)
        np.maximum.accumulate(last, axis=1, out=last)
        place = np.take_along_axis(place, last, axis=1)
        x += np.take_along_axis(penalty, place, axis=1)
    if p.jitter_width > 0:
        u = (rng.random((executions, raw + 1)) < p.jitter_prob) * p.jitter_width
        x += u[:, 1:] - u[:, :-1]
    d = warmup_count(raw)
    amp = p.warmup_amplitude * rng.uniform(0.5, 1.5, size=executions)
    e = _lognormal_factor(rng.standard_normal(executions), p.var_execution)
    if d > 0:
        tau = d * p.warmup_tau_fraction
        x[:, :d] *= 1.0 + amp[:, None] * np.exp(-np.arange(d) / tau)
    x *= e[:, None]
    return x


def generate(
    benchmark: str,
    *,
    seed: int,
    binaries: int = PAPER_BINARIES,
    executions: int = PAPER_EXECUTIONS,
    measurements: int | None = None,
    stratified: bool = True,
) -> np.ndarray:
    """Stand-in Mono data for one benchmark: times in seconds, warm-up included.

    Parameters
    ----------
    benchmark : str
        One of :data:`BENCHMARKS`.
    seed : int
        Non-negative seed; the same seed, benchmark and sizes give the same array.
    binaries, executions : int
        Builds, and executions per build.
    measurements : int, optional
        Raw iterations per execution (default :data:`RAW_MEASUREMENTS`); the first
        :func:`warmup_count` of them are the warm-up.
    stratified : bool
        Draw the build factors by stratified sampling (default) or independently.

    Returns
    -------
    ndarray
        Shape ``(binaries, executions, measurements)``, positive float64 seconds.
        Wrap as ``Design(a[..., warmup_count(a.shape[-1]):], ("binary",
        "execution", "measurement"))`` for steady-state analysis.

    Notes
    -----
    The model is derived at the paper's shape (:func:`derive_params` defaults)
    whatever size is generated.
    """
    k = _check_benchmark(benchmark)
    p = derive_params(benchmark)
    raw = p.raw_measurements if measurements is None else int(measurements)
    binaries, executions = int(binaries), int(executions)
    if binaries < 1 or executions < 1 or raw < 1:
        raise ValueError("binaries, executions and measurements must all be >= 1")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")

    top = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k, 0)))
    b_factor = _binary_factors(p, top, binaries, stratified)
    out = np.empty((binaries, executions, raw))
    for b in range(binaries):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k, 1, b)))
        out[b] = _one_binary(p, rng, executions, raw)
        out[b] *= p.mean_seconds * b_factor[b]
    return out


def generate_frame(
    benchmark: str,
    *,
    seed: int,
    binaries: int = PAPER_BINARIES,
    executions: int = PAPER_EXECUTIONS,
    measurements: int | None = None,
    stratified: bool = True,
):
    """:func:`generate` as a tidy :class:`pandas.DataFrame`.

    Returns
    -------
    pandas.DataFrame
        Columns ``binary``, ``execution``, ``iteration`` (0-based integers; the
        iteration counts raw iterations, warm-up included) and ``time`` (seconds),
        one row per iteration in measurement order.
    """
    import pandas as pd

    y = generate(
        benchmark,
        seed=seed,
        binaries=binaries,
        executions=executions,
        measurements=measurements,
        stratified=stratified,
    )
    idx = np.indices(y.shape).reshape(3, -1)
    return pd.DataFrame(
        {
            "binary": idx[0],
            "execution": idx[1],
            "iteration": idx[2],
            "time": y.ravel(),
        }
    )
