r"""The model of the stand-in for the paper's Mono data (:mod:`esize_study.datasets.standin`).

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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...paper import numbers as paper

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
