r"""Automatic warm-up removal: where does each process reach its steady state?

JIT-compiled runtimes record their warm-up among the measured values. This module
looks at the series of every process (fork, execution: its values in execution
order), finds where its performance changes, and keeps the part after the last
change, after the changepoint classification of Barrett et al.

Model
-----
Within one process the logarithms of the values are piecewise constant plus
stationary noise, possibly correlated from one value to the next,

.. math::

    \log x_t = \mu_j + \varepsilon_t, \qquad \tau_j \le t < \tau_{j+1}, \qquad
    \operatorname{E} \varepsilon_t = 0, \quad \operatorname{var} \varepsilon_t = \sigma_x^2,

with segments :math:`0 = \tau_0 < \dots < \tau_{K+1} = n`. Logs make everything
relative: a change is a factor, the noise a relative level, and a change of unit
moves only :math:`\mu_j`. The segments are found with PELT (Killick, Fearnhead and
Eckley, 2012) for the least-squares cost (``ruptures.KernelCPD`` with the linear
kernel), minimising

.. math::

    \sum_{j=0}^{K} \sum_{t=\tau_j}^{\tau_{j+1}-1} \left(z_t - \bar z_j\right)^2
    + K \beta, \qquad z_t = \tilde y_t / s, \qquad \beta = 4 \log n,

each segment holding at least ``min_size`` values, where :math:`\tilde y_t` is
:math:`\log(x_t / x_{\mathrm{med}})` after the outlier clipping below (dividing by a
middle value first keeps the logs exact whatever the unit) and :math:`s` the noise
scale below. For independent Gaussian noise of known variance the first term is
:math:`-2` times the log-likelihood; BIC would charge :math:`2 \log n` per change and
the modified BIC of Zhang and Siegmund (2007) :math:`3 \log n`. The scale is
estimated from the same short series and real noise has heavy tails, so the
constant is 4 (:data:`PENALTY_FACTOR`).

Robust short-run scale and outliers
-----------------------------------
From the first differences :math:`d_t` of the logs, :math:`\hat\sigma_0 = 1.4826
\operatorname{MAD}(d) / \sqrt 2` is not moved by a few changes. Every value is
clipped to :math:`m_t \pm 3 \hat\sigma_0`, :math:`m_t` the running median of
:math:`2h + 1` values, :math:`h = \max(3, \text{min\_size})` (a Hampel filter,
padded with the first value so that a slow start survives, reflected at the end);
the short-run scale is the winsorised mean square :math:`\hat\sigma^2 =
\overline{\min(\tilde d_t^2, c^2)} / (2 w)`, :math:`c = 3 \sqrt 2 \hat\sigma_0`,
:math:`w = \operatorname{E} \min(Z^2, 9)`. A series whose noise is below
:data:`esize.RELATIVE_TOLERANCE` is flat.

Autocorrelated noise
--------------------
Differences see only the short-run part of the noise: for AR(1) noise of
autocorrelation :math:`\phi`, :math:`\operatorname{var} d_t = 2 \sigma_x^2 (1 - \phi)`,
while a segment mean of :math:`m` values varies as :math:`\Omega / m`, with the
*long-run variance*

.. math::

    \Omega = \sum_{k=-\infty}^{\infty} \operatorname{cov}(\varepsilon_t,
    \varepsilon_{t+k}) = \sigma_x^2 \frac{1 + \phi}{1 - \phi} \quad \text{(AR(1))}.

With :math:`\phi = 0.5` a penalty in units of :math:`\hat\sigma^2` is six times too
cheap, and half of all flat series of 100 values were cut. The cost is therefore
charged in units of :math:`s^2 = \max(\hat\sigma^2, \hat\Omega)`, :math:`\hat\Omega`
estimated from the residuals :math:`r_t = \tilde y_t - \bar y_{j(t)}` of the current
segmentation, winsorised at :math:`\pm 3 \cdot 1.4826 \operatorname{median} |r_t|` (a
decaying warm-up is a poor fit to constant segments, and that misfit is not noise),
by an AR(1)-prewhitened Bartlett-kernel estimate (Newey and West, 1987; prewhitening
after Andrews and Monahan, 1992):

.. math::

    \hat\rho = \frac{\sum r_t r_{t-1}}{\sum r_{t-1}^2}, \quad
    e_t = r_t - \hat\rho r_{t-1}, \quad
    \hat\Omega = \frac{\hat\gamma_e(0) + 2 \sum_{k=1}^{L} (1 - \frac{k}{L+1})
    \hat\gamma_e(k)}{(1 - \rho^+)^2}, \quad L = \lfloor 4 (n/100)^{2/9} \rfloor,

recoloured with an upper bound :math:`\rho^+ = \hat\rho + (1 + 3 \hat\rho^+)/n +
\sqrt{(1 - \hat\rho^2)/n}` (the first-order bias of the lag-1 autocorrelation,
Marriott and Pope (1954), plus one standard error; clamped to :math:`[0, 0.98]`):
the penalty must hold when :math:`\hat\rho` falls short, and for independent noise
it costs a factor of about :math:`1 + 1/\sqrt n` in scale. The segmentation starts in units of
:math:`\hat\sigma` and is refitted with :math:`s` from its residuals until it stops
changing (at most 8 fits); the scale only grows, so a real warm-up found at first
stays out of :math:`\hat\Omega`. :attr:`SteadyState.scale` reports :math:`s`.

Classification and where a warm-up ends
---------------------------------------
After Barrett et al., segments are *equivalent* when their geometric means differ
by a factor of at most :math:`1 + \text{rel\_tol}` (default 1 %). The steady state is
the last segment extended backwards over the run of segments equivalent to it;
``cut`` is its first index, and the series is ``flat`` (``cut`` 0), ``no_steady_state``
(steady state shorter than ``steady_fraction`` of the series, default a quarter),
``warmup`` (the segment before is slower: a higher time, or a lower rate with
``lower_is_better=False``) or ``slowdown``. A gradual warm-up is a staircase to
PELT, and the coarser long-run penalty leaves its last step inside the steady
segment, so for a ``warmup`` the cut moves to the last change of the first,
short-run segmentation at most ``cut`` values later (never past the steady
fraction) such that the values between the two are slower on average than the
values after it: dropping a few steady values costs little variance, keeping a tail
of warm-up biases the mean.

Rates of error
--------------
Measured by simulation with fixed seeds (the slow tests of
``tests/lib/test_warmup.py`` and ``tests/lib/test_warmup_correlated.py`` check the
same settings); standard errors in brackets:

* flat series of independent noise (lognormal 5 % and 20 %, gamma(4), 1 +
  exponential, log-:math:`t_3`; 1,200 series of 50 to 2,000 values each): not
  ``flat`` in 0 to 0.50 % (0.20) of them;
* flat AR(1) noise, marginal SD 5 %, the same lengths: 0.58 % (0.22) with
  :math:`\phi = 0.5`, 3.8 % (0.55) with :math:`\phi = 0.9` (78 % and 100 % when
  the penalty was charged in :math:`\hat\sigma^2`);
* ten flat AR(1) processes of 100 values (1,000 designs): a value dropped in 2.6 %
  (0.50) of the designs with :math:`\phi = 0.5` (formerly 96 %), 25.7 % (1.4) with
  0.9; mean share dropped 0.6 % and 6.3 %, median 0;
* steps of 3 noise SDs found within 3 values: 99.92 % (warm-up) and 99.75 %
  (slowdown) of 1,200 series;
* :math:`x_t = 1 + e^{-t}` (excess under 1 % from :math:`t = 5`) times 1 % noise,
  2,000 series of 30 to 400 values: cut within 2 values of 5 in all; 98.2 % (0.30)
  with AR(1) noise of :math:`\phi = 0.5`;
* a warm-up over 20 values (linear from +20 %, or :math:`1 + 0.5 e^{-t/4}`), 200
  values, 1 % noise: the kept values' mean is within 0.2 % of the steady mean in
  98.9 % (0.24) and 97.9 % (0.32) of 2,000 series;
* short series pay for the bound :math:`\rho^+`: 3.9 % of flat series of 10 values
  and 1.3 % of 20 are not ``flat``, and a 3-value warm-up of 3 SDs in 20 values is
  cut exactly in 54 % of series (70 % with the former penalty).

Limitations: a slow drift and strongly correlated noise cannot be told apart in a
short series; a warm-up too small or too short to stand out of the noise is kept.

References
----------
E. Barrett, C. F. Bolz-Tereick, R. Killick, S. Mount and L. Tratt, "Virtual Machine
Warmup Blows Hot and Cold", OOPSLA 2017.
R. Killick, P. Fearnhead and I. A. Eckley, "Optimal detection of changepoints with
a linear computational cost", JASA 107 (2012).
N. R. Zhang and D. O. Siegmund, "A modified Bayes information criterion with
applications to the analysis of comparative genomic hybridization data",
Biometrics 63 (2007).
W. K. Newey and K. D. West, "A simple, positive semi-definite, heteroskedasticity and
autocorrelation consistent covariance matrix", Econometrica 55 (1987); "Automatic
lag selection in covariance matrix estimation", Rev. Econ. Stud. 61 (1994).
D. W. K. Andrews and J. C. Monahan, "An improved heteroskedasticity and
autocorrelation consistent covariance matrix estimator", Econometrica 60 (1992).
F. H. C. Marriott and J. A. Pope, "Bias in the estimation of autocorrelations",
Biometrika 41 (1954).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ._errors import EsizeError, EsizeWarning
from ._estimators import RELATIVE_TOLERANCE

#: What ``esize compare --warmup`` and ``make analyse``'s ``warmup`` drop by default:
#: nothing (harnesses keep their warm-up apart: JMH, pyperf, hyperfine's ``--warmup``);
#: ``auto`` detects it where a file holds it.
DEFAULT_WARMUP = 0

__all__ = [
    "BALANCE_FLOOR",
    "BALANCE_QUANTILE",
    "CLASSES",
    "DROP_WARNING",
    "MIN_VALUES",
    "PENALTY_FACTOR",
    "SteadyState",
    "WarmupReport",
    "auto_warmup",
    "default_min_size",
    "detect_steady_state",
]

#: The classes of a series, in the order of :attr:`WarmupReport.classes`.
CLASSES = ("flat", "warmup", "slowdown", "no_steady_state")
#: The default penalty per changepoint is ``PENALTY_FACTOR * log(n)`` squared noise scales.
PENALTY_FACTOR = 4.0
#: Fewer values than this in a series cannot tell a warm-up from noise.
MIN_VALUES = 8
#: ``kept`` is never below this fraction of the median steady length (balancing rule),
BALANCE_FLOOR = 0.75
#: nor below this (lower) quantile of the steady lengths.
BALANCE_QUANTILE = 0.1
#: A report that drops more than this share of the values warns.
DROP_WARNING = 0.25
#: At most this many segmentations per series (the long-run variance iteration).
_MAX_ROUNDS = 8
#: Bounds of the lag-1 autocorrelation used to recolour the long-run variance.
_RHO_MIN, _RHO_MAX = -0.9, 0.98
#: Hampel clipping and winsorising threshold, in noise standard deviations.
_CLIP = 3.0
#: MAD of a normal sample times this estimates its standard deviation.
_MAD_TO_SD = 1.482602218505602
#: E min(Z^2, 9) for a standard normal Z (winsorised variance at 3 SDs).
_WINSOR_VAR = (
    math.erf(_CLIP / math.sqrt(2))
    - 2 * _CLIP * math.exp(-_CLIP**2 / 2) / math.sqrt(2 * math.pi)
    + _CLIP**2 * math.erfc(_CLIP / math.sqrt(2))
)
_MISSING_RUPTURES = "--warmup auto needs the ruptures package: pip install 'esize[warmup]'"


@dataclass(frozen=True)
class SteadyState:
    r"""Where one process's series settles, and how it got there.

    Attributes
    ----------
    cut : int
        Index of the first steady-state value: the values before it are warm-up
        (or whatever preceded the last change); 0 for a ``flat`` series.
    classification : str
        One of :data:`CLASSES`: ``"flat"``, ``"warmup"``, ``"slowdown"`` or
        ``"no_steady_state"`` (see the module notes).
    changepoints : tuple of int
        Index of the first value of every segment but the first, increasing.
    means : tuple of float
        Geometric mean of every segment (after the outlier clipping of the module
        notes), in the unit of the data; one more than ``changepoints``.
    n : int
        Length of the series.
    sigma : float
        Short-run noise SD of the log values, from differences (0.01 is about 1 %).
    penalty : float
        Penalty per changepoint used, in units of ``scale ** 2``.
    scale : float
        Noise scale of the penalty: the long-run SD (module notes), at least
        ``sigma``; about :math:`\sigma_x \sqrt{(1+\phi)/(1-\phi)}` for AR(1) noise.

    Examples
    --------
    Ten slow values, then forty at half the time, with 1 % noise:

    >>> import numpy as np
    >>> import esize as ez
    >>> rng = np.random.default_rng(1)
    >>> x = np.r_[np.full(10, 2.0), np.full(40, 1.0)] * (1 + 0.01 * rng.standard_normal(50))
    >>> s = ez.detect_steady_state(x)
    >>> s.cut, s.steady_length, s.segments
    (10, 40, ((0, 10), (10, 50)))
    """

    cut: int
    classification: str
    changepoints: tuple[int, ...]
    means: tuple[float, ...]
    n: int
    sigma: float
    penalty: float
    scale: float = 0.0

    @property
    def steady_length(self) -> int:
        """Number of values from ``cut`` to the end."""
        return self.n - self.cut

    @property
    def segments(self) -> tuple[tuple[int, int], ...]:
        """``(start, stop)`` of every segment, as slice bounds."""
        bounds = (0, *self.changepoints, self.n)
        return tuple(zip(bounds[:-1], bounds[1:]))


@dataclass(frozen=True)
class WarmupReport:
    """Automatic warm-up removal for the processes of one benchmark.

    Attributes
    ----------
    processes : tuple of SteadyState
        One result per process, in the order given.
    trimmed : numpy.ndarray
        The kept values, shape ``(processes, kept)`` (read-only): the last ``kept``
        values of every process (the balancing rule of :func:`auto_warmup`).
    kept : int
        Values kept per process.
    dropped : int
        All values dropped: ``dropped_warmup + dropped_balance``.
    dropped_warmup : int
        Values dropped because they precede their process's cut.
    dropped_balance : int
        Steady-state values dropped only to keep every process at ``kept`` values.
    classes : dict
        Number of processes of every class, keys :data:`CLASSES` in that order.
    no_steady_state : tuple of int
        Indices (from 0) of the processes classified ``no_steady_state``: their
        values are kept, but their last part is not shown to be a steady state.
    short_steady_state : tuple of int
        Indices of the settled processes whose steady state is shorter than
        ``kept`` (the floor of the balancing rule): their kept values reach back
        before their cut.

    Examples
    --------
    Three processes of 40 values: two warm up for 5 and 8 values, one is flat.

    >>> import numpy as np
    >>> import esize as ez
    >>> rng = np.random.default_rng(1)
    >>> groups = [np.r_[np.full(k, 2.0), np.full(40 - k, 1.0)]
    ...           * (1 + 0.01 * rng.standard_normal(40)) for k in (5, 8, 0)]
    >>> report = ez.auto_warmup(groups)
    >>> report.dropped, report.dropped_warmup, report.dropped_balance
    (24, 13, 11)
    >>> round(report.dropped_share, 4), report.warning
    (0.2, None)
    >>> report.as_dict()["classes"]
    {'flat': 1, 'warmup': 2, 'slowdown': 0, 'no_steady_state': 0}
    """

    processes: tuple[SteadyState, ...]
    trimmed: np.ndarray
    kept: int
    dropped: int
    dropped_warmup: int
    dropped_balance: int
    classes: dict
    no_steady_state: tuple[int, ...]
    short_steady_state: tuple[int, ...] = ()

    @property
    def cuts(self) -> tuple[int, ...]:
        """The cut of every process."""
        return tuple(p.cut for p in self.processes)

    @property
    def dropped_share(self) -> float:
        """Share of all values dropped, from 0 to 1."""
        total = sum(p.n for p in self.processes)
        return self.dropped / total if total else 0.0

    @property
    def warning(self) -> str | None:
        """One line when more than :data:`DROP_WARNING` of the values are dropped."""
        if self.dropped_share <= DROP_WARNING:
            return None
        total = sum(p.n for p in self.processes)
        return (f"warm-up detection dropped {100 * self.dropped_share:.0f} % of the values "
                f"({self.dropped} of {total}): check the cuts on a plot of the series, "
                f"or drop a fixed number of values")

    def as_dict(self) -> dict:
        """A JSON-ready summary: ``mode`` ("auto"), ``dropped``, ``dropped_warmup``,
        ``dropped_balance``, ``kept``, ``classes``, ``cuts``, ``no_steady_state`` and
        ``short_steady_state``."""
        return {
            "mode": "auto",
            "dropped": self.dropped,
            "dropped_warmup": self.dropped_warmup,
            "dropped_balance": self.dropped_balance,
            "kept": self.kept,
            "classes": dict(self.classes),
            "cuts": list(self.cuts),
            "no_steady_state": list(self.no_steady_state),
            "short_steady_state": list(self.short_steady_state),
        }


def _ruptures():
    """The ruptures module, or a one-line error telling how to install it."""
    try:
        import ruptures
    except ImportError:
        raise EsizeError(_MISSING_RUPTURES) from None
    return ruptures


def _check_options(penalty, min_size, rel_tol, steady_fraction) -> None:
    if penalty is not None and not (math.isfinite(penalty) and penalty > 0):
        raise EsizeError(f"the changepoint penalty must be a positive number, got {penalty}")
    if min_size is not None and (int(min_size) != min_size or min_size < 2):
        raise EsizeError(f"min_size must be an integer >= 2, got {min_size}")
    if not (math.isfinite(rel_tol) and rel_tol >= 0):
        raise EsizeError(f"rel_tol must be a number >= 0, got {rel_tol}")
    if not (0 < steady_fraction <= 1):
        raise EsizeError(f"steady_fraction must be in (0, 1], got {steady_fraction}")


def _series(series) -> np.ndarray:
    """The series as floats, checked: 1-D, long enough, finite and positive."""
    x = np.asarray(series, dtype=np.float64)
    if x.ndim != 1:
        raise EsizeError(f"a series must be one-dimensional, got shape {x.shape}")
    if x.size < MIN_VALUES:
        raise EsizeError(
            f"{x.size} value(s) are too few to detect warm-up automatically "
            f"(at least {MIN_VALUES} are needed); drop a fixed number instead"
        )
    if not np.all(np.isfinite(x)):
        raise EsizeError("a series for warm-up detection has NaN or infinite values")
    if not np.all(x > 0):
        raise EsizeError("warm-up detection needs positive values (times or rates)")
    return x


def default_min_size(n: int) -> int:
    """The default minimum segment length for a series of ``n`` values.

    Five values (``n >= 50``) down to two (``n < 30``): ``max(2, min(5, n // 10))``.
    Short segments find short warm-ups exactly; longer ones resist noise.
    """
    return max(2, min(5, n // 10))


def _long_run_variance(r: np.ndarray) -> float:
    r"""Long-run variance of the residuals ``r`` (module notes, "Autocorrelated noise").

    AR(1) prewhitening, a Bartlett-kernel (Newey-West) estimate for the whitened
    residuals, and recolouring with an upper bound :math:`\rho^+` of the lag-1
    autocorrelation.
    """
    n = r.size
    # winsorised at 3 robust SDs: the misfit inside a decaying warm-up is not noise
    c = _CLIP * _MAD_TO_SD * float(np.median(np.abs(r)))
    r = np.clip(r, -c, c)
    den = float(r[:-1] @ r[:-1])
    if den <= 0.0:
        return 0.0
    rho = min(max(float(r[1:] @ r[:-1]) / den, _RHO_MIN), _RHO_MAX)
    upper = rho + (1 + 3 * max(rho, 0.0)) / n + math.sqrt((1 - rho * rho) / n)
    upper = min(max(upper, 0.0), _RHO_MAX)
    e = r[1:] - rho * r[:-1]
    m = e.size
    lags = int(4 * (m / 100) ** (2 / 9))
    lrv = float(e @ e) / m
    for k in range(1, min(lags, m - 1) + 1):
        lrv += 2 * (1 - k / (lags + 1)) * float(e[k:] @ e[:-k]) / m
    return max(lrv, 0.0) / (1 - upper) ** 2


def _segment(algo, yc: np.ndarray, scale: float, beta: float):
    """PELT on ``yc / scale``: the segments' starts, ends and mean levels."""
    ends = np.asarray(algo.fit((yc / scale).reshape(-1, 1)).predict(pen=beta), dtype=np.intp)
    starts = np.concatenate(([0], ends[:-1]))
    return starts, ends, np.add.reduceat(yc, starts) / (ends - starts)


def _hampel(y: np.ndarray, scale: float, h: int) -> np.ndarray:
    """``y`` clipped to its running median (window ``2h + 1``) +- 3 ``scale``."""
    head = np.full(h, y[0])
    tail = y[-2 : -h - 2 : -1]
    padded = np.concatenate([head, y, tail])
    med = np.median(sliding_window_view(padded, 2 * h + 1), axis=1)
    return np.clip(y, med - _CLIP * scale, med + _CLIP * scale)


def _noise_scale(y: np.ndarray) -> float:
    """Robust noise SD of ``y`` from its first differences (0 for constant data)."""
    d = np.diff(y)
    s0 = _MAD_TO_SD * float(np.median(np.abs(d - np.median(d)))) / math.sqrt(2)
    if s0 <= RELATIVE_TOLERANCE:
        # more than half the differences are equal (coarse timer): plain RMS
        s0 = math.sqrt(float(np.mean(d * d)) / 2)
    return s0


def detect_steady_state(
    series,
    *,
    penalty: float | None = None,
    min_size: int | None = None,
    rel_tol: float = 0.01,
    steady_fraction: float = 0.25,
    lower_is_better: bool = True,
) -> SteadyState:
    r"""Find where one process's series reaches its steady state.

    Parameters
    ----------
    series : array_like
        The values of one process (one fork, one execution), 1-D, positive, in the
        order they were measured; at least :data:`MIN_VALUES` of them.
    penalty : float, optional
        Penalty per changepoint in units of the squared noise scale :math:`s^2` (the
        long-run variance, at least :math:`\hat\sigma^2`: it does not depend on the
        unit); default :math:`4 \log n`. Larger finds fewer changes.
    min_size : int, optional
        Minimum segment length, at least 2; default :func:`default_min_size`.
        The series needs at least ``2 * min_size`` values.
    rel_tol : float
        Segments whose geometric means differ by a factor of at most ``1 + rel_tol``
        are equivalent.
    steady_fraction : float
        A steady state shorter than this fraction of the series (rounded up) is
        ``no_steady_state``.
    lower_is_better : bool
        True for times (a warm-up goes down), False for rates such as throughputs
        (a warm-up goes up). Only the names ``warmup`` and ``slowdown`` depend on it.

    Returns
    -------
    SteadyState

    Raises
    ------
    EsizeError
        If ruptures is not installed, the series is too short, not 1-D, or has a
        value that is not a positive number, or an option is out of range.

    Notes
    -----
    The model, the penalty, the outlier handling and the classes are described in
    the notes of :mod:`esize._warmup`. Scaling the series by a positive factor
    gives the same cut, changepoints and class, and means scaled by that factor (up
    to rounding in the last place; the tests scale by :math:`10^{\pm 300}`).

    Examples
    --------
    Ten values at twice the steady time, then forty steady ones, with 1 % noise:

    >>> import numpy as np
    >>> import esize as ez
    >>> rng = np.random.default_rng(1)
    >>> x = np.r_[np.full(10, 2.0), np.full(40, 1.0)] * (1 + 0.01 * rng.standard_normal(50))
    >>> s = ez.detect_steady_state(x)
    >>> s.cut, s.classification, s.changepoints
    (10, 'warmup', (10,))
    >>> [round(m, 2) for m in s.means]  # each segment's geometric mean
    [2.0, 1.0]
    >>> ez.detect_steady_state(x[10:]).classification
    'flat'
    """
    _check_options(penalty, min_size, rel_tol, steady_fraction)
    rpt = _ruptures()
    x = _series(series)
    n = x.size
    if min_size is None:
        min_size = default_min_size(n)
    min_size = int(min_size)
    if n < 2 * min_size:
        raise EsizeError(
            f"a series of {n} values is too short for segments of at least {min_size}"
        )
    # logs relative to a middle value: x / ref is exact to an ulp whatever the unit
    ref = float(np.partition(x, (n - 1) // 2)[(n - 1) // 2])
    y = np.log(x / ref)
    beta = float(penalty) if penalty is not None else PENALTY_FACTOR * math.log(n)

    s0 = _noise_scale(y)
    if s0 <= RELATIVE_TOLERANCE:  # constant data: nothing to detect
        return SteadyState(0, "flat", (), (float(np.exp(np.mean(y))) * ref,), n, 0.0, beta, 0.0)
    yc = _hampel(y, s0, max(3, min_size))
    limit = _CLIP * math.sqrt(2) * s0
    dc = np.clip(np.diff(yc), -limit, limit)
    sigma = math.sqrt(float(np.mean(dc * dc)) / (2 * _WINSOR_VAR))
    if sigma <= RELATIVE_TOLERANCE:
        sigma = s0

    algo = rpt.KernelCPD(kernel="linear", min_size=min_size)
    # first in units of the short-run sigma (fine), then of the long-run variance of
    # the residuals until the segmentation stops changing; the scale only grows
    scale = sigma
    starts, ends, levels = fine = _segment(algo, yc, scale, beta)
    seen = {tuple(ends)}
    for _ in range(_MAX_ROUNDS - 1):
        lrv = _long_run_variance(yc - np.repeat(levels, ends - starts))
        if lrv <= scale * scale * (1 + 1e-9):
            break
        scale = math.sqrt(lrv)
        starts, ends, levels = _segment(algo, yc, scale, beta)
        if tuple(ends) in seen:
            break
        seen.add(tuple(ends))
    cut, cls = _classify(levels, starts, n, rel_tol, steady_fraction, lower_is_better)
    if cls == "warmup":
        # candidates: changes of the fine segmentation at least min_size from the others
        free = [b for b in fine[0] if np.all(np.abs(starts - b) >= min_size)]
        moved = _refine(yc, cut, free, n - math.ceil(steady_fraction * n), lower_is_better)
        if moved != cut:
            cut, starts = moved, np.sort(np.append(starts, moved))
            ends = np.append(starts[1:], n)
            levels = np.add.reduceat(yc, starts) / (ends - starts)
    return SteadyState(cut, cls, tuple(int(s) for s in starts[1:]),
                       tuple(float(v) for v in ref * np.exp(levels)), n, sigma, beta, scale)


def _refine(yc, cut, fine_starts, last, lower_is_better) -> int:
    """Move a warm-up's cut to the last change of the fine segmentation that still
    ends a slower stretch (module notes, "Classification and where a warm-up
    ends"), at most ``cut``
    values later and never past ``last``."""
    sign = 1.0 if lower_is_better else -1.0
    for b in fine_starts[::-1]:
        b = int(b)
        if cut < b <= min(2 * cut, last) and sign * (yc[cut:b].mean() - yc[b:].mean()) > 0:
            return b
    return cut


def _classify(levels, starts, n, rel_tol, steady_fraction, lower_is_better) -> tuple[int, str]:
    """The cut and the class of a segmentation (module notes)."""
    different = np.abs(levels - levels[-1]) > math.log1p(rel_tol)
    before = np.flatnonzero(different)
    if before.size == 0:
        return 0, "flat"
    first = int(before[-1]) + 1  # first segment of the steady state
    cut = int(starts[first])
    if n - cut < math.ceil(steady_fraction * n):
        return cut, "no_steady_state"
    slower_before = levels[first - 1] > levels[-1]
    if not lower_is_better:
        slower_before = not slower_before
    return cut, "warmup" if slower_before else "slowdown"


def auto_warmup(
    groups: Iterable,
    *,
    lower_is_better: bool = True,
    penalty: float | None = None,
    min_size: int | None = None,
    rel_tol: float = 0.01,
    steady_fraction: float = 0.25,
    benchmark: str | None = None,
) -> WarmupReport:
    """Drop the warm-up of every process of one benchmark, keeping the design balanced.

    Parameters
    ----------
    groups : sequence of array_like
        The in-process series of every process (fork, execution) of one benchmark,
        each 1-D in execution order; lengths may differ.
    lower_is_better, penalty, min_size, rel_tol, steady_fraction
        As :func:`detect_steady_state`, for every process.
    benchmark : str, optional
        Name of the benchmark, to start error messages with.

    Returns
    -------
    WarmupReport

    Raises
    ------
    EsizeError
        If ruptures is not installed, there is no process, or a process cannot be
        analysed (:func:`detect_steady_state`); the message names the benchmark
        and the process (counted from 0).

    Notes
    -----
    Balancing rule: the random-effects model needs equal counts per process, so
    each process keeps its *last* ``kept`` values (its cut is its own; ``kept`` is
    common). ``kept`` is the shortest steady state (``n - cut``) of the processes
    that have one (``flat``, ``warmup``, ``slowdown``), but at least the lower
    :data:`BALANCE_QUANTILE` (10 %) quantile of their steady states and
    :data:`BALANCE_FLOOR` (3/4) of their median: with 11 processes or more the
    shortest steady state alone no longer sets ``kept``, and one late cut, false or
    true, shortens the others by a quarter at most instead of to its own length (a
    few false alarms are to be expected among hundreds of short processes). A
    process whose steady state is shorter than ``kept`` is listed in
    :attr:`WarmupReport.short_steady_state`: its kept values reach back before its
    cut, into the end of its warm-up where the excess is smallest. Processes
    classified ``no_steady_state`` are kept and listed and do not set ``kept``
    (if none has a steady state, the shortest last part does). ``kept`` never
    exceeds the shortest process, nor falls below ``min_size``. When more than
    :data:`DROP_WARNING` of the values are dropped, an :class:`~esize.EsizeWarning`
    says so (:attr:`WarmupReport.warning`).

    Examples
    --------
    Three processes of 40 values: two warm up for 5 and 8 values, one is flat.
    Each keeps its last 32 values (the shortest steady state):

    >>> import numpy as np
    >>> import esize as ez
    >>> rng = np.random.default_rng(1)
    >>> groups = [np.r_[np.full(k, 2.0), np.full(40 - k, 1.0)]
    ...           * (1 + 0.01 * rng.standard_normal(40)) for k in (5, 8, 0)]
    >>> report = ez.auto_warmup(groups)
    >>> report.cuts, report.kept, report.trimmed.shape
    ((5, 8, 0), 32, (3, 32))
    >>> round(float(report.trimmed.mean()), 2)  # the warm-up (2.0) is gone
    1.0
    """
    _ruptures()
    where = f"{benchmark}: " if benchmark else ""
    groups = list(groups)
    if not groups:
        raise EsizeError(f"{where}no process to detect warm-up in")
    options: dict[str, Any] = dict(penalty=penalty, min_size=min_size, rel_tol=rel_tol,
                                   steady_fraction=steady_fraction,
                                   lower_is_better=lower_is_better)
    results = []
    for i, g in enumerate(groups):
        try:
            results.append(detect_steady_state(g, **options))
        except EsizeError as exc:
            raise EsizeError(f"{where}process {i}: {exc}") from None
    steady = [r.steady_length for r in results if r.classification != "no_steady_state"]
    kept = min(steady or [r.steady_length for r in results])
    if steady:
        low = int(np.quantile(steady, BALANCE_QUANTILE, method="lower"))
        kept = max(low, math.ceil(BALANCE_FLOOR * float(np.median(steady))))
    # never more than the shortest process holds (groups of unequal lengths)
    kept = min(kept, min(r.n for r in results))
    trimmed = np.stack([np.asarray(g, dtype=np.float64)[-kept:] for g in groups])
    trimmed.setflags(write=False)
    dropped_warmup = sum(min(r.cut, r.n - kept) for r in results)
    dropped_balance = sum(max(0, r.steady_length - kept) for r in results)
    classes = {c: 0 for c in CLASSES}
    for r in results:
        classes[r.classification] += 1
    report = WarmupReport(
        processes=tuple(results),
        trimmed=trimmed,
        kept=int(kept),
        dropped=int(dropped_warmup + dropped_balance),
        dropped_warmup=int(dropped_warmup),
        dropped_balance=int(dropped_balance),
        classes=classes,
        no_steady_state=tuple(
            i for i, r in enumerate(results) if r.classification == "no_steady_state"
        ),
        short_steady_state=tuple(
            i for i, r in enumerate(results)
            if r.classification != "no_steady_state" and r.steady_length < kept
        ),
    )
    if report.warning:
        warnings.warn(f"{where}{report.warning}", EsizeWarning, stacklevel=2)
    return report
