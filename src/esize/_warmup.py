r"""Automatic warm-up removal: where does each process reach its steady state?

JIT-compiled runtimes (PyPy, the JVM, ...) record their warm-up among the measured
values, and how long it lasts differs between benchmarks, and between processes of
one benchmark. Instead of dropping a fixed number of values everywhere, this module
looks at the in-process series of every process (one process, fork or execution: its
values in execution order), finds where its performance changes, and keeps the part
after the last change, following the changepoint classification of Barrett et al.

Model
-----
Within one process the logarithms of the values are taken to be piecewise constant
plus independent noise,

.. math::

    \log x_t = \mu_j + \varepsilon_t, \qquad \tau_j \le t < \tau_{j+1}, \qquad
    \operatorname{E} \varepsilon_t = 0, \quad \operatorname{var} \varepsilon_t = \sigma^2,

with segments :math:`0 = \tau_0 < \tau_1 < \dots < \tau_K < \tau_{K+1} = n`. Logs make
everything relative: a change is a factor, :math:`\sigma` is a relative noise level,
and multiplying every value by a constant (changing the unit) changes nothing but
:math:`\mu_j`. Timings are skewed to the right and a slowdown of 10 % is the same
thing whether a value is 1 ms or 1 s; on the log scale the noise is close to
symmetric and its level does not depend on the level of the segment. The segments
are found with PELT (Killick, Fearnhead and Eckley, 2012) for the least-squares
("l2") cost, as implemented in C by :mod:`ruptures` (``KernelCPD`` with the linear
kernel is PELT with exactly this cost), minimising

.. math::

    \sum_{j=0}^{K} \sum_{t=\tau_j}^{\tau_{j+1}-1} \left(z_t - \bar z_j\right)^2
    + K \beta, \qquad z_t = \frac{\tilde y_t}{\hat\sigma}, \qquad \beta = 4 \log n,

each segment holding at least ``min_size`` values, where :math:`\tilde y_t` is
:math:`\log(x_t / x_{\mathrm{med}})` after the outlier clipping below (dividing by
a middle value :math:`x_{\mathrm{med}}` of the series first keeps the logs exact
whatever the unit) and :math:`\hat\sigma` the noise estimate below. For Gaussian noise of known
variance the first term is :math:`-2` times the log-likelihood, so :math:`\beta`
is the price of one more changepoint in the units of the likelihood: BIC would
charge :math:`2 \log n` (a location and a mean per change) and the modified BIC of
Zhang and Siegmund (2007) has the leading term :math:`3 \log n`. Here
:math:`\sigma` is estimated from the same short series, and real noise has heavier
tails than the normal, so the constant is 4 (:data:`PENALTY_FACTOR`); the
simulations of ``tests/lib/test_warmup.py`` hold it to its purpose (false
changepoints on flat series rare, steps of 3 noise standard deviations found).
A kernel-based cost (``"rbf"``) would detect changes of any kind, but it
has no such noise scale to set the penalty by, and a change in the mean is the
change that biases a mean.

Robust noise scale and outliers
-------------------------------
Level changes are rare, so the first differences :math:`d_t = \log x_{t+1} -
\log x_t` are almost all noise, of variance :math:`2\sigma^2`:

.. math::

    \hat\sigma_0 = \frac{1.4826 \operatorname{MAD}(d)}{\sqrt 2}

is not moved by a few changes. Isolated outliers (a collection, an interrupt) would
still make the least-squares cost put changepoints around them, so before the search
every value is clipped to :math:`m_t \pm 3 \hat\sigma_0`, :math:`m_t` the median of
the :math:`2h + 1` values around it, :math:`h = \max(3, \text{min\_size})` (a Hampel
filter). The median follows steps and monotone trends, so only excursions shorter
than :math:`h + 1` values are clipped; the window is padded with copies of the first
value at the start, so a run of slow first values (warm-up) is kept whole, and by
reflection at the end, so one slow last value is not taken for a change. The
penalty then uses the efficient estimate

.. math::

    \hat\sigma^2 = \frac{\overline{\min(\tilde d_t^2,\, c^2)}}{2\, w}, \qquad
    c = 3 \sqrt 2\, \hat\sigma_0,

from the differences :math:`\tilde d_t` of the clipped values, :math:`w =
\operatorname{E} \min(Z^2, 9) \approx 0.995` making it unbiased for normal noise.
The MAD alone is 37 % efficient and its errors turned into false changepoints in
short series; the winsorised mean square is nearly as efficient as the variance and
still robust to the few large differences of genuine changes. A series whose noise
is below :data:`esize.RELATIVE_TOLERANCE` (constant values) is flat.

Classification
--------------
After Barrett et al., segments whose means differ by a negligible amount are
*equivalent*. Here that is a relative rule: segments :math:`i, j` are equivalent when
their geometric means differ by a factor of at most :math:`1 + \text{rel\_tol}`,
:math:`|\mu_i - \mu_j| \le \log(1 + \text{rel\_tol})` (by default 1 %: a warm-up
that small biases a mean of the whole series by less than that). The steady state
is the last segment extended backwards over the contiguous run of segments
equivalent to it; ``cut`` is its first index. Then the series is

* ``flat`` -- the steady state is the whole series (no changepoint, or every segment
  equivalent to the last); ``cut`` is 0;
* ``no_steady_state`` -- the steady state covers less than ``steady_fraction`` of
  the series (default a quarter: the series changes too late to show that it has
  settled; the ``warmup_stats`` tool of Barrett et al. likewise expects the steady
  state to be reached some fixed number of iterations before the end);
* ``warmup`` -- otherwise, when the segment before the steady state is slower (a
  higher time, or a lower rate with ``lower_is_better=False``);
* ``slowdown`` -- otherwise (the segment before it is faster).

Rates of error
--------------
Measured with the seeds of ``tests/lib/test_warmup.py`` (200 series each, lengths
50 to 2,000): flat series of lognormal (5 % and 20 %), gamma, shifted exponential
and log-:math:`t_3` noise are classified other than ``flat`` in at most 0.5 % of
cases, and a step of 3 noise standard deviations (a warm-up or a slowdown) is found
within 3 values of its position in all of them. Short series are harder: with 10
to 20 values, 2 to 10 % of flat series show a change, and a 3-value warm-up of 3
noise standard deviations in 20 values is found in about 80 % of series.

Limitations: the noise is taken to be independent from one value to the next.
Slow drifts, periodic patterns or positively correlated noise (whose differences
understate :math:`\sigma`) appear as changes; a warm-up too small or too short to
stand out of the noise is kept, which is the price of rare false alarms.

References
----------
E. Barrett, C. F. Bolz-Tereick, R. Killick, S. Mount and L. Tratt, "Virtual Machine
Warmup Blows Hot and Cold", OOPSLA 2017.
R. Killick, P. Fearnhead and I. A. Eckley, "Optimal detection of changepoints with
a linear computational cost", JASA 107 (2012).
N. R. Zhang and D. O. Siegmund, "A modified Bayes information criterion with
applications to the analysis of comparative genomic hybridization data",
Biometrics 63 (2007).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ._errors import EsizeError
from ._estimators import RELATIVE_TOLERANCE

__all__ = [
    "CLASSES",
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
#: The default penalty per changepoint is ``PENALTY_FACTOR * log(n)`` noise variances.
PENALTY_FACTOR = 4.0
#: Fewer values than this in a series cannot tell a warm-up from noise.
MIN_VALUES = 8
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
    """Where one process's series settles, and how it got there.

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
        Estimated noise standard deviation of the log values (a relative noise level:
        0.01 is about 1 %).
    penalty : float
        Penalty per changepoint used, in noise variances.
    """

    cut: int
    classification: str
    changepoints: tuple[int, ...]
    means: tuple[float, ...]
    n: int
    sigma: float
    penalty: float

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
    """

    processes: tuple[SteadyState, ...]
    trimmed: np.ndarray
    kept: int
    dropped: int
    dropped_warmup: int
    dropped_balance: int
    classes: dict
    no_steady_state: tuple[int, ...]

    @property
    def cuts(self) -> tuple[int, ...]:
        """The cut of every process."""
        return tuple(p.cut for p in self.processes)

    def as_dict(self) -> dict:
        """A JSON-ready summary.

        Returns
        -------
        dict
            ``{"mode": "auto", "dropped": int, "classes": {...}}`` and
            ``dropped_warmup``, ``dropped_balance``, ``kept`` (values per process),
            ``cuts`` (per process) and ``no_steady_state`` (process indices).
        """
        return {
            "mode": "auto",
            "dropped": self.dropped,
            "dropped_warmup": self.dropped_warmup,
            "dropped_balance": self.dropped_balance,
            "kept": self.kept,
            "classes": dict(self.classes),
            "cuts": list(self.cuts),
            "no_steady_state": list(self.no_steady_state),
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


def _hampel(y: np.ndarray, scale: float, h: int) -> np.ndarray:
    """``y`` clipped to its running median (window ``2h + 1``) plus or minus 3 ``scale``.

    Padded with copies of the first value before the start (so the first value is
    its own median and a slow start survives) and by reflection after the end.
    """
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
        Penalty per changepoint in noise variances :math:`\hat\sigma^2` (so it does not
        depend on the unit); default :math:`4 \log n`. Larger finds fewer changes.
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
        return SteadyState(0, "flat", (), (float(np.exp(np.mean(y))) * ref,), n, 0.0, beta)
    yc = _hampel(y, s0, max(3, min_size))
    limit = _CLIP * math.sqrt(2) * s0
    dc = np.clip(np.diff(yc), -limit, limit)
    sigma = math.sqrt(float(np.mean(dc * dc)) / (2 * _WINSOR_VAR))
    if sigma <= RELATIVE_TOLERANCE:
        sigma = s0

    z = (yc / sigma).reshape(-1, 1)
    ends = rpt.KernelCPD(kernel="linear", min_size=min_size).fit(z).predict(pen=beta)
    ends = np.asarray(ends, dtype=np.intp)
    starts = np.concatenate(([0], ends[:-1]))
    levels = np.add.reduceat(yc, starts) / (ends - starts)
    cut, cls = _classify(levels, starts, n, rel_tol, steady_fraction, lower_is_better)
    return SteadyState(
        cut=cut,
        classification=cls,
        changepoints=tuple(int(s) for s in starts[1:]),
        means=tuple(float(v) for v in ref * np.exp(levels)),
        n=n,
        sigma=sigma,
        penalty=beta,
    )


def _classify(levels, starts, n, rel_tol, steady_fraction, lower_is_better) -> tuple[int, str]:
    """The cut and the class of a segmentation (module notes, "Classification")."""
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
    groups: Sequence,
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
    Balancing rule: every process keeps its *last* ``kept`` values, where ``kept``
    is the shortest steady state (``n - cut``) among the processes that have one
    (``flat``, ``warmup`` or ``slowdown``). The tail of a process is its steady
    state, so the values kept are steady-state values of every such process, and
    the design stays balanced (equal counts per process), as the random-effects
    model needs. Processes classified ``no_steady_state`` are kept -- the end of a
    series is still the best estimate of where it is going -- and listed in
    :attr:`WarmupReport.no_steady_state` so that the caller can add a caveat; they
    do not set ``kept`` (one unsettled process would otherwise cut every other one
    to its short last segment), so their kept values may reach back before their
    cut. When no process has a steady state, ``kept`` is the shortest last part
    among them, and never more than the shortest process holds. ``kept`` is never
    below ``min_size``, hence at least 2.
    """
    _ruptures()
    where = f"{benchmark}: " if benchmark else ""
    groups = list(groups)
    if not groups:
        raise EsizeError(f"{where}no process to detect warm-up in")
    results = []
    for i, g in enumerate(groups):
        try:
            results.append(
                detect_steady_state(
                    g,
                    penalty=penalty,
                    min_size=min_size,
                    rel_tol=rel_tol,
                    steady_fraction=steady_fraction,
                    lower_is_better=lower_is_better,
                )
            )
        except EsizeError as exc:
            raise EsizeError(f"{where}process {i}: {exc}") from None
    settled = [r for r in results if r.classification != "no_steady_state"]
    kept = min(r.steady_length for r in (settled or results))
    # a process without a steady state may be shorter than that (groups of unequal
    # lengths): it cannot give more values than it has
    kept = min(kept, min(r.n for r in results))
    trimmed = np.stack([np.asarray(g, dtype=np.float64)[-kept:] for g in groups])
    trimmed.setflags(write=False)
    dropped_warmup = sum(min(r.cut, r.n - kept) for r in results)
    dropped_balance = sum(max(0, r.steady_length - kept) for r in results)
    classes = {c: 0 for c in CLASSES}
    for r in results:
        classes[r.classification] += 1
    return WarmupReport(
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
    )
