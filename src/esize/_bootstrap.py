r"""Fast hierarchical bootstrap for balanced designs of any depth.

Implements the bootstrap intervals of the paper's Sections "Confidence Interval
for the Mean of One System" and "Confidence Interval for Ratio of Means" (with their
pseudo-code figures), and the geometric mean of a whole suite of ratios.

A *scheme* says, level by level from the top, whether units are drawn with
replacement (``R``) or kept intact (``N``): ``"RRR"`` is the paper's default for
three levels, ``"RRN"`` and ``"RNN"`` keep the lower levels intact, and ``"FLAT"``
pools every measurement and resamples the pool. At every ``R`` level, each chosen
unit receives as many children as it has, drawn with replacement from its own
children, as in the paper's pseudo-code.

Implementation
--------------
One replicate is a vector of leaf indices. Levels are processed top-down on a block
of replicates at once: an ``R`` level turns every parent slot into ``n_L`` child
slots with uniform random offsets, an ``N`` level into the ``n_L`` children in order.
Levels below the lowest ``R`` level are never expanded: their unit means are
precomputed once, so ``RNN`` costs ``n_top`` draws per replicate.

One engine serves every public function: the replicate means of one system
(:func:`resample_means`), the ratio of two (:func:`bootstrap_ratio_ci`) and the
geometric mean of many ratios (:func:`geometric_mean_ratio_ci`). Each system of
each benchmark is an independent task with its own random streams, so tasks run
on a thread pool (numpy releases the GIL while it draws, gathers and sums) and
the result is the same for any number of workers.

Scale: each system is resampled in units of its own power of two, the one that
brings its largest value into [1/2, 1) (dividing by it is exact, so the replicate
means are those of the data bit for bit at ordinary magnitudes), and the ratio of
two systems is formed from those scaled means and multiplied by
:math:`2^{e_{new} - e_{old}}` last. A file :math:`10^{\pm 300}` times the other, or
one stray value of :math:`10^{300}`, thus neither overflows a sum nor leaves the
ratio's replicates out of range unless the ratio itself is.

Random numbers: each resampled level of each system has its own stream, a
``PCG64`` generator spawned from a seed drawn once from ``rng``. Indices are exactly
uniform ``Generator.integers`` draws; a stream is consumed in replicate-major order
(32-bit draws are buffered in the bit generator's own state), so the replicate means
depend neither on ``batch`` nor on ``workers``.

The lowest resampled level draws its children in groups: ``k`` independent uniform
draws among ``n`` children are one uniform draw among the ``n**k`` ordered
``k``-tuples, so each group is drawn as a single index into a precomputed table of
the ``n**k`` sums of ``k`` children (one table per parent unit; ``k`` is chosen by
:func:`group_size` so that the tables stay in cache). Every replicate is still an
exact hierarchical resample; the streams are simply consumed fewer times, and the
replicates are gathered from fewer, cached values.

References
----------
A. C. Davison and D. V. Hinkley, *Bootstrap Methods and their Application*,
Cambridge University Press, 1997 (percentile intervals, hierarchical resampling).
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ._design import Design
from ._errors import DesignError, EsizeError
from ._estimators import mean_and_variance, scaled
from ._intervals import (
    _TINY,
    Interval,
    _check_alpha,
    check_ratio_range,
    geometric_mean_ratio_parametric,
)

__all__ = [
    "BootstrapResult",
    "SuiteInterval",
    "MIN_TAIL_REPLICATES",
    "minimum_resamples",
    "check_resamples",
    "parse_scheme",
    "pair_schemes",
    "resample_means",
    "bootstrap_mean_ci",
    "bootstrap_ratio_ci",
    "geometric_mean_ratio_ci",
    "percentile_interval",
    "spawn_streams",
    "benchmark_seed",
    "means_from_indices",
]

#: Index slots processed per vectorised step when ``batch`` is not given; about
#: 2**18 keeps the working set (draws, indices, gathered values) in cache.
DEFAULT_SLOTS_PER_STEP = 1 << 18

#: A progress callback: called with the number of system-replicates just completed.
Progress = Callable[[int], None]


# -- results ----------------------------------------------------------------------------
@dataclass(frozen=True)
class BootstrapResult(Interval):
    """A percentile bootstrap interval together with its replicate distribution.

    The interval fields are those of :class:`~esize.Interval`; like
    :class:`scipy.stats.BootstrapResult`, the result also keeps the replicates.

    Attributes
    ----------
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The replicate statistics (means of one system, or ratios new/old).
    """

    bootstrap_distribution: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def standard_error(self) -> float:
        """Standard deviation of the bootstrap distribution (ddof = 1)."""
        return float(np.std(self.bootstrap_distribution, ddof=1))


@dataclass(frozen=True)
class SuiteInterval:
    """Geometric mean of a suite's ratios with its bootstrap and parametric intervals.

    Attributes
    ----------
    geometric_mean : float
        Geometric mean of the per-benchmark ratios new/old (inverted where
        ``inverted`` says so).
    lower, upper : float
        Percentile bootstrap limits.
    alpha : float
        One minus the confidence level.
    resamples : int
        Number of bootstrap replicates.
    intervals : tuple of BootstrapResult
        Each benchmark's own percentile interval for new/old (never inverted), from
        the same replicates, which it keeps as its ``bootstrap_distribution``.
    inverted : tuple of bool
        Benchmarks whose ratio entered the geometric mean as old/new.
    bootstrap_distribution : ndarray of shape (resamples,)
        Replicates of the geometric mean.
    parametric : Interval or None
        The parametric companion (:func:`esize.geometric_mean_ratio_parametric`):
        the t or normal interval for the mean of the log ratios. Unbounded when a
        system has a single top-level unit; None when it was not computed.

    A suite made by :meth:`parametric_only` has no bootstrap: ``resamples`` is 0,
    ``intervals`` empty, ``bootstrap_distribution`` None, ``lower`` and ``upper``
    NaN, and :attr:`verdict_interval` is the parametric interval.

    Notes
    -----
    With few top-level units the percentile bootstrap is too narrow (it resamples
    the few units it has as if they were the population), so a suite's verdict
    should not rest on it alone: :attr:`verdict_interval` is the smallest interval
    holding both the bootstrap and the parametric interval, and a verdict on it is
    one that both intervals support (when they disagree it is "inconclusive").
    """

    geometric_mean: float
    lower: float
    upper: float
    alpha: float
    resamples: int
    intervals: tuple
    inverted: tuple
    bootstrap_distribution: np.ndarray = field(repr=False, compare=False)
    parametric: Interval | None = None

    @classmethod
    def parametric_only(cls, pairs: Sequence, *, alpha: float = 0.05, normal: bool = False,
                        invert: Sequence[bool] | None = None,
                        names: Sequence[str] | None = None) -> SuiteInterval:
        """The suite's geometric mean with its parametric interval alone (no bootstrap).

        The geometric mean is computed exactly as by :func:`geometric_mean_ratio_ci`,
        the interval by :func:`esize.geometric_mean_ratio_parametric` (unbounded when a
        system has a single top-level unit); nothing random is drawn.

        Parameters
        ----------
        pairs : sequence of (old, new)
            One pair of designs (or arrays) per benchmark.
        alpha : float
            One minus the confidence level.
        normal : bool
            Use the normal instead of the t quantile.
        invert : sequence of bool, optional
            Benchmarks whose ratio enters the geometric mean as old/new.
        names : sequence of str, optional
            Benchmark names, for the messages.

        Returns
        -------
        SuiteInterval
            With ``resamples`` 0, no ``intervals``, NaN ``lower`` and ``upper``.

        Raises
        ------
        EsizeError
            No pair, non-positive means, or a ratio beyond the range of floats.
        """
        pairs = list(pairs)
        if not pairs:
            raise EsizeError("a suite needs at least one benchmark")
        alpha = _check_alpha(alpha)
        k = len(pairs)
        inv = [bool(x) for x in _per_benchmark(invert, k, "invert flags", default=False)]
        label = [str(x) for x in names] if names is not None else [str(j) for j in range(k)]
        log_est = []
        for j, (old, new) in enumerate(pairs):
            # the means of scaled(...) (as geometric_mean_ratio_ci takes them), from
            # mean_and_variance: computed once in a block of shared_statistics
            mo, _, eo = _mean_and_exponent(old)
            mn, _, en = _mean_and_exponent(new)
            if min(mo, mn) <= 0:
                raise EsizeError(f"benchmark {label[j]}: the geometric mean needs positive "
                                 "means (positive measurements)")
            log_e = math.log(check_ratio_range(mo, mn, en - eo, label[j]))
            log_est.append(-log_e if inv[j] else log_e)
        gm = float(np.exp(np.mean(log_est)))
        return cls(gm, math.nan, math.nan, alpha, 0, (), tuple(inv), None,
                   _parametric(pairs, alpha, normal, inv, gm))

    @property
    def has_bootstrap(self) -> bool:
        """Whether the bootstrap was run (False for :meth:`parametric_only`)."""
        return self.resamples > 0

    @property
    def bounded(self) -> bool:
        if not self.has_bootstrap:
            return self.parametric is not None and self.parametric.bounded
        return bool(math.isfinite(self.lower) and math.isfinite(self.upper))

    @property
    def ratios(self) -> np.ndarray:
        """Replicate ratios new/old, one row per benchmark (never inverted)."""
        return np.stack([iv.bootstrap_distribution for iv in self.intervals])

    @property
    def verdict_interval(self) -> Interval:
        """The interval a verdict on the suite rests on: the hull of both intervals.

        Its ``method`` says which interval it is: ``"bootstrap"`` (the bootstrap
        interval holds the parametric one, or there is no parametric one),
        ``"parametric"`` (the other way round, or the parametric interval is
        unbounded) or ``"bootstrap+parametric"`` (each sticks out on one side).
        """
        p = self.parametric
        boot = (self.lower, self.upper)
        if not self.has_bootstrap:
            ok = p is not None and p.bounded
            lo, hi = (p.lower, p.upper) if ok else (-math.inf, math.inf)
            return Interval(self.geometric_mean, lo, hi, self.alpha, "parametric", ok)
        if p is None:
            lo, hi, source, ok = *boot, "bootstrap", self.bounded
        elif not p.bounded:
            lo, hi, source, ok = -math.inf, math.inf, "parametric", False
        else:
            lo, hi = min(self.lower, p.lower), max(self.upper, p.upper)
            source = ("bootstrap" if (lo, hi) == boot else
                      "parametric" if (lo, hi) == (p.lower, p.upper) else
                      "bootstrap+parametric")
            ok = self.bounded
        return Interval(self.geometric_mean, lo, hi, self.alpha, source, ok)

    def as_dict(self) -> dict:
        """JSON-ready summary (without the replicates); without a bootstrap,
        ``lower`` and ``upper`` are the parametric limits (None when unbounded) and
        ``resamples`` is left out."""
        if self.has_bootstrap:
            out = {
                "geometric_mean": self.geometric_mean,
                "lower": self.lower,
                "upper": self.upper,
                "alpha": self.alpha,
                "resamples": self.resamples,
            }
        else:
            v = self.verdict_interval
            out = {"geometric_mean": self.geometric_mean,
                   "lower": float(v.lower) if v.bounded else None,
                   "upper": float(v.upper) if v.bounded else None,
                   "alpha": self.alpha}
        if self.parametric is not None:
            p = self.parametric

            def fin(x):
                return float(x) if math.isfinite(x) else None

            out["parametric"] = {
                "lower": fin(p.lower),
                "upper": fin(p.upper),
                "bounded": p.bounded,
                "quantile": "normal" if p.method.endswith("normal") else "t",
                "df": p.extra.get("df"),
                "log_se": p.extra.get("log_se"),
            }
        return out


# -- arguments --------------------------------------------------------------------------
def parse_scheme(scheme: str, n_levels: int) -> str:
    """Validate a resampling scheme and return it upper-cased.

    ``FLAT`` or a string of ``R``/``N`` with one letter per level, highest first.
    """
    s = str(scheme).strip().upper()
    if s == "FLAT":
        return s
    if len(s) != n_levels or set(s) - {"R", "N"}:
        raise EsizeError(
            f"scheme {scheme!r} is not valid for {n_levels} levels: use FLAT or "
            f"{n_levels} letters R (resample) / N (keep intact), e.g. {'R' * n_levels!r}"
        )
    return s


def _as_array(data) -> np.ndarray:
    y = data.data if isinstance(data, Design) else np.asarray(data, dtype=np.float64)
    if y.ndim < 1 or y.size == 0:
        raise EsizeError("bootstrap needs a non-empty array of measurements")
    return y


#: Replicates that each tail beyond a percentile limit must hold at least.
MIN_TAIL_REPLICATES = 5

#: Bytes of memory assumed when the operating system does not say (1 TiB).
MEMORY_CAP = 1 << 40


def minimum_resamples(alpha: float) -> int:
    r"""Fewest replicates for a percentile interval at level ``alpha``.

    Each tail, below the lower and above the upper limit, must hold at least
    :data:`MIN_TAIL_REPLICATES` = 5 replicates: :math:`B \alpha / 2 \ge 5`, so
    :math:`B \ge \lceil 10 / \alpha \rceil` (200 at :math:`\alpha = 0.05`, 1000 at
    0.01).

    Why 5: the lower limit is the :math:`m`-th smallest of the :math:`B` replicates,
    :math:`m = \lceil B\alpha/2 \rceil`, and the expected bootstrap probability
    below it is :math:`m / (B + 1)`, which exceeds :math:`\alpha / 2` by less than
    :math:`1 / B` (the upper limit likewise). With :math:`B\alpha/2 \ge 5` that excess
    is at most a fifth of :math:`\alpha/2` per tail, so a 95 % interval keeps more
    than 94 % of its nominal level to this rounding, and the limits are distinct order
    statistics well inside the sample. (With one replicate, as was once allowed, the
    "interval" is a single value of zero width, which usually excludes the estimate.)
    """
    alpha = _check_alpha(alpha)
    b = 2.0 * MIN_TAIL_REPLICATES / alpha
    nearest = round(b)
    if abs(b - nearest) <= 1e-9 * b:  # 10 / 0.05 is 200 up to rounding
        return int(nearest)
    return int(math.ceil(b))


def _memory_bytes() -> int:
    """Physical memory of the machine (``os.sysconf``), or :data:`MEMORY_CAP`."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return MEMORY_CAP


def _bytes_text(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} EiB"  # pragma: no cover


def _count_text(n: int) -> str:
    return str(n) if n < 10**15 else f"{n:.3g}"


def check_resamples(n, alpha: float | None = None, *, arrays: int = 1,
                    name: str = "n_resamples") -> int:
    """Validate a number of bootstrap replicates and return it as an int.

    Parameters
    ----------
    n : int
        The number asked for.
    alpha : float, optional
        The level of the percentile interval to be made from them: ``n`` must be at
        least :func:`minimum_resamples` (``alpha``).
    arrays : int
        How many arrays of ``n`` float64 replicates the computation holds at once.
        Their ``8 * n * arrays`` bytes must fit in the machine's physical memory
        (``os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")``, or 1 TiB
        where the system does not tell), so that an impossible request is refused
        at once instead of failing (or swapping) half-way.
    name : str
        How the caller calls the number (``"--resamples"`` on the command line).

    Raises
    ------
    EsizeError
        ``n`` not positive, too few for ``alpha``, or too many for the memory.
    """
    n = int(n)
    if n < 1:
        raise EsizeError(f"{name} must be positive, got {n}")
    if alpha is not None:
        need = minimum_resamples(alpha)
        if n < need:
            raise EsizeError(
                f"{name} {n} is too few for a {100 * (1 - alpha):g} % percentile interval: "
                f"at least {_count_text(need)} are needed (alpha {alpha:g}), so that "
                f"{MIN_TAIL_REPLICATES} replicates lie in each tail beyond a limit"
            )
    size = 8.0 * n * arrays
    have = _memory_bytes()
    if size > have:
        raise EsizeError(
            f"{name} {n} would need {_bytes_text(size)} of memory for the bootstrap "
            f"replicates ({arrays} array(s) of {n} 8-byte values), more than the "
            f"{_bytes_text(have)} this machine has"
        )
    return n


def _n_resamples(n, alpha=None, arrays: int = 1) -> int:
    return check_resamples(n, alpha, arrays=arrays)


def _seed_sequence(rng) -> np.random.SeedSequence:
    if isinstance(rng, np.random.SeedSequence):
        return rng
    if isinstance(rng, np.random.Generator):
        return np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist())
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.SeedSequence(int(rng))
    raise EsizeError(
        "rng must be a numpy.random.Generator, a SeedSequence or an integer seed"
    )


class IndexStream:
    """Uniform random indices from one ``PCG64`` stream, read in order.

    Values below ``high`` are exactly uniform ``Generator.integers`` draws, 16-bit
    up to :data:`SMALL_RANGE` and 32-bit above (:meth:`dtype_for`). The generator
    is always called for :data:`CHUNK` values at a time and requests are served
    from that buffer in order, so the values depend only on the sequence of
    requests, not on how it is split into calls (numpy discards the unused half of a
    32-bit word at the end of every 16-bit call, so calling it per request would
    make results depend on ``batch``). A stream is
    meant for one range: a request with another ``high`` starts a new buffer.

    A stream told how many values it will serve in all (:meth:`expect`) draws no
    more than that: the generator's first values do not depend on how many are asked
    for in one call, so a shorter last call gives the same values as a full chunk
    (small bootstraps would otherwise draw a whole chunk per level and system).
    """

    #: Values drawn per call of the generator.
    CHUNK = 1 << 15

    def __init__(self, seed: np.random.SeedSequence):
        self._gen = np.random.Generator(np.random.PCG64(seed))
        self._high = 0
        self._buf = np.zeros(0, dtype=np.uint16)
        self._pos = 0
        self._left: int | None = None  # values still to be drawn, when known

    @property
    def expecting(self) -> bool:
        """Whether :meth:`expect` has been called for the current range."""
        return self._left is not None

    def expect(self, total: int) -> None:
        """Announce that ``total`` values (of the next range asked for) are all this
        stream will serve; asking for more afterwards is an error."""
        self._high, self._buf, self._pos = 0, self._buf[:0], 0
        self._left = int(total)

    #: Largest range drawn in 16 bits. A 16-bit draw takes half the random bits of a
    #: 32-bit one, but numpy's 16-bit draws divide whenever the low half of the
    #: product falls below the range (often, for large ranges) and reject up to half
    #: the draws just above 32,768; beyond about 8,192 the 32-bit draws are faster
    #: (up to 2.4x, measured with numpy 2.4 on x86-64).
    SMALL_RANGE = 1 << 13

    @classmethod
    def dtype_for(cls, high: int):
        """The unsigned type of the values below ``high``."""
        if high <= cls.SMALL_RANGE:
            return np.uint16
        return np.uint32 if high <= 1 << 32 else np.uint64

    def integers(self, high: int, size, out: np.ndarray | None = None) -> np.ndarray:
        """Uniform integers on ``[0, high)`` of shape ``size`` (in ``out`` if given,
        which must have that shape and the type :meth:`dtype_for` gives)."""
        high = int(high)
        dtype = self.dtype_for(high)
        if high != self._high:
            if self._high:  # a new range: whatever was expected was for the old one
                self._left = None
            self._high, self._buf, self._pos = high, np.zeros(0, dtype=dtype), 0
        if out is None:
            out = np.empty(size, dtype=dtype)
        flat = out.reshape(-1)
        filled = 0
        while filled < flat.size:
            if self._pos == self._buf.size:
                n = self.CHUNK
                if self._left is not None:
                    if self._left <= 0:
                        raise EsizeError("index stream asked for more values than expected")
                    n = min(n, self._left)
                    self._left -= n
                self._buf = self._gen.integers(0, high, size=n, dtype=dtype)
                self._pos = 0
            take = min(flat.size - filled, self._buf.size - self._pos)
            flat[filled : filled + take] = self._buf[self._pos : self._pos + take]
            filled += take
            self._pos += take
        return out


def spawn_streams(rng, k: int) -> list[IndexStream]:
    """``k`` independent index streams derived from ``rng`` (Generator, SeedSequence or int)."""
    return [IndexStream(s) for s in _seed_sequence(rng).spawn(k)]


def benchmark_seed(rng, name: str) -> np.random.SeedSequence:
    """The seed sequence of benchmark ``name`` under the suite seed ``rng``.

    A child of ``rng`` whose spawn key is derived from a hash of the name, so the
    same benchmark gets the same random numbers whatever else is compared with it.

    Parameters
    ----------
    rng : int, SeedSequence or numpy.random.Generator
        The suite's seed (a Generator is advanced by one draw).
    name : str
        The benchmark's name.
    """
    import hashlib  # here: its OpenSSL module costs a suite without a bootstrap 2 ms

    base = _seed_sequence(rng)
    key = int.from_bytes(hashlib.sha256(str(name).encode("utf-8")).digest()[:4], "little")
    return np.random.SeedSequence(base.entropy, spawn_key=(*base.spawn_key, key))


# -- the engine -------------------------------------------------------------------------
def _depth(scheme: str):
    """Axis of the lowest resampled level (``-1`` if none, ``None`` for FLAT)."""
    if scheme == "FLAT":
        return None
    return scheme.rfind("R")


def _leaf_values(y: np.ndarray, depth: int) -> np.ndarray:
    """Unit means at axis ``depth`` (levels below it averaged), flattened."""
    below = tuple(range(depth + 1, y.ndim))
    v = y.mean(axis=below) if below else y
    return np.ascontiguousarray(v, dtype=np.float64).ravel()


_scratch = threading.local()


def _scratch_array(key, shape, dtype) -> np.ndarray:
    """An uninitialised array from this thread's scratch space, reused across blocks.

    The blocks of a bootstrap allocate the same few MB of draws, indices and values
    thousands of times; fresh allocations of that size come from the kernel page by
    page (a page fault every 4 KiB), which costs as much as the arithmetic. Reusing
    the arrays avoids that. :func:`_release_scratch` frees them.
    """
    store = getattr(_scratch, "arrays", None)
    if store is None:
        store = _scratch.arrays = {}
    size = math.prod(shape)
    a = store.get(key)
    if a is None or a.dtype != dtype or a.size < size:
        a = store[key] = np.empty(size, dtype=dtype)
    return a[:size].reshape(shape)


def _release_scratch() -> None:
    _scratch.arrays = {}


def _gather(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``values[idx]`` into scratch space (indices are known to be in range)."""
    return np.take(values, idx, out=_scratch_array("values", idx.shape, values.dtype), mode="clip")


def _slot_indices(y, scheme, levels, draw, b, itype) -> np.ndarray:
    """Unit indices, shape ``(b, slots)``, after expanding the top ``levels`` levels.

    An ``R`` level turns every parent slot into ``n_L`` child slots with offsets from
    ``draw(level, shape, n)``, an ``N`` level into its ``n_L`` children in order.
    """
    idx = np.zeros((b, 1), dtype=itype)
    for level in range(levels):
        n = y.shape[level]
        slots = idx.shape[1]
        if scheme[level] == "R":
            child = np.add(
                idx[:, :, None] * itype(n), draw(level, (b, slots, n), n),
                out=_scratch_array(("index", level), (b, slots, n), itype),
            )
        else:
            child = idx[:, :, None] * itype(n) + np.arange(n, dtype=itype)
        idx = child.reshape(b, slots * n)
    return idx


def _row_sums(values: np.ndarray) -> np.ndarray:
    """Sums over everything but the first axis.

    ``einsum`` sums short rows several times faster than ``sum(axis=1)``, and each
    row's sum does not depend on the other rows (a matrix-vector product is faster
    still, but BLAS kernels round a row differently depending on where it falls in
    the block, which would make replicates depend on ``batch``).
    """
    return np.einsum("ij->i", values.reshape(values.shape[0], -1))


def _block_means(y, scheme, depth, leaves, draw, b, itype) -> np.ndarray:
    """Means of ``b`` replicates; ``draw(level, shape, n)`` supplies child offsets."""
    if scheme == "FLAT":
        n = leaves.size
        idx = draw(0, (b, n), n)
        return _row_sums(_gather(leaves, idx)) / n
    idx = _slot_indices(y, scheme, depth + 1, draw, b, itype)
    return _row_sums(_gather(leaves, idx)) / idx.shape[1]


def _slots_per_replicate(shape, scheme, depth) -> int:
    if scheme == "FLAT":
        return int(np.prod(shape))
    return int(np.prod(shape[: depth + 1]))


#: Upper bound on the entries of the tables of precomputed sums that the lowest
#: resampled level may use (float64, all parent units together): 2**17 entries,
#: 1 MiB, small enough to stay in cache.
GROUP_TABLE_ENTRIES = 1 << 17


def group_size(units: int, n: int) -> int:
    """How many child draws of the lowest resampled level are made as one draw.

    The lowest resampled level draws ``n`` children (with replacement) for each of
    ``units`` parent slots. ``k`` independent uniform draws from ``n`` children are
    one uniform draw from ``n**k`` ordered tuples, so each group of ``k`` children is
    drawn as one index into a table of the ``n**k`` sums of their values; ``k`` is
    the largest size with at most :data:`GROUP_TABLE_ENTRIES` table entries (and
    ``n**k`` below 2**16). Part of the definition of the random streams.
    """
    k = 1
    while k < n and n ** (k + 1) < 1 << 16 and units * n ** (k + 1) <= GROUP_TABLE_ENTRIES:
        k += 1
    return k


def _sum_table(v: np.ndarray, k: int) -> np.ndarray:
    """``T[u, code]``: sum of ``v[u, d]`` over the base-``n`` digits ``d`` of ``code``."""
    t = v
    for _ in range(k - 1):
        t = (t[:, :, None] + v[:, None, :]).reshape(v.shape[0], -1)
    return np.ascontiguousarray(t).ravel()


def _grouped_block(y, scheme, depth, tables, k, draw, b, itype) -> np.ndarray:
    """Means of ``b`` replicates, the lowest resampled level drawn in groups of ``k``.

    Levels above ``depth`` are expanded by :func:`_slot_indices`; at ``depth`` each
    slot draws ``ceil(n / k)`` codes, all uniform on ``[0, n**k)`` in one call (a
    last partial group of ``r`` children uses its code modulo ``n**r``, uniform on
    ``[0, n**r)`` because ``n**r`` divides ``n**k``), and a replicate's total is
    the sum of the table entries its codes point at.

    When a slot needs a single code (``k == n``) and the level above is resampled
    too, a child of that level and its code are drawn together as one index
    uniform on ``[0, n_above * n**k)`` from the stream of the level above: the
    offset of the child and the code of its group are independent and uniform, and
    the index is the child's row in the table.
    """
    n = y.shape[depth]
    full, rem = divmod(n, k)
    m = n**k
    if full == 1 and not rem and depth > 0 and scheme[depth - 1] == "R":
        idx = _slot_indices(y, scheme, depth - 1, draw, b, itype)
        above = y.shape[depth - 1]
        shape = (b, idx.shape[1], above)
        joint = np.add(
            idx[:, :, None] * itype(above * m), draw(depth - 1, shape, above * m),
            out=_scratch_array("codes", shape, itype),
        )
        return _row_sums(_gather(tables[k], joint)) / (idx.shape[1] * above * n)
    idx = _slot_indices(y, scheme, depth, draw, b, itype)
    slots = idx.shape[1]
    codes = draw(depth, (b, slots, full + (rem > 0)), m)
    total = np.zeros(b)
    if rem:
        mr = n**rem
        last = np.add(idx * itype(mr), codes[:, :, full] % mr, dtype=itype)
        total += _row_sums(_gather(tables[rem], last))
    grouped = np.add(
        idx[:, :, None] * itype(m), codes[:, :, :full],  # full >= 1: k <= n
        out=_scratch_array("codes", (b, slots, full), itype),
    )
    total += _row_sums(_gather(tables[k], grouped))
    return total / (slots * n)


def _system_means(y, scheme, seed, n_resamples, batch, progress) -> np.ndarray:
    """Replicate means of one system: the one task every public function runs.

    ``seed`` (anything :func:`spawn_streams` accepts) gives one stream per level
    (one for FLAT), consumed in replicate order; ``progress(b)`` is called after
    every step of ``b`` replicates.
    """
    depth = _depth(scheme)
    streams = spawn_streams(seed, 1 if scheme == "FLAT" else y.ndim)
    if scheme != "FLAT" and depth < 0:  # all levels kept intact: no randomness
        if progress is not None:
            progress(n_resamples)
        return np.full(n_resamples, float(y.mean()))
    leaves = y.ravel().astype(np.float64) if scheme == "FLAT" else _leaf_values(y, depth)
    slots = _slots_per_replicate(y.shape, scheme, depth)
    itype = np.intp  # index arithmetic in the type numpy indexes with

    def draw(level, shape, n):
        out = _scratch_array(("draw", level), shape, IndexStream.dtype_for(n))
        stream = streams[level]
        if not stream.expecting:  # every replicate asks a level for the same number
            stream.expect(n_resamples * (out.size // shape[0]))
        return stream.integers(n, shape, out=out)

    k = 1 if scheme == "FLAT" else group_size(slots // y.shape[depth], y.shape[depth])
    if k > 1:
        n = y.shape[depth]
        tables = {r: _sum_table(leaves.reshape(-1, n), r) for r in {k, n % k} if r}
        slots = slots // n * -(-n // k)  # table entries gathered per replicate

        def block(b):
            return _grouped_block(y, scheme, depth, tables, k, draw, b, itype)
    else:

        def block(b):
            return _block_means(y, scheme, depth, leaves, draw, b, itype)

    if batch is None:
        batch = max(1, DEFAULT_SLOTS_PER_STEP // slots)
    batch = int(batch)
    if batch < 1:
        raise EsizeError(f"batch must be positive, got {batch}")

    out = np.empty(n_resamples)
    for start in range(0, n_resamples, batch):
        b = min(batch, n_resamples - start)
        out[start : start + b] = block(b)
        if progress is not None:
            progress(b)
    return out


def _workers(workers: int | None, tasks: int) -> int:
    if workers is None:
        workers = os.cpu_count() or 1
    workers = int(workers)
    if workers < 1:
        raise EsizeError(f"workers must be positive, got {workers}")
    return max(1, min(workers, tasks))


def _run_systems(tasks, n_resamples, batch, progress, workers) -> list[np.ndarray]:
    """Replicate means of every ``(y, scheme, seed)`` task, on a thread pool.

    Tasks are independent (each has its own streams), so the results do not depend
    on the number of workers or on the order in which the tasks finish.
    """
    if progress is not None:
        lock = threading.Lock()
        report = progress

        def progress(n: int) -> None:  # the caller's callback, one thread at a time
            with lock:
                report(n)

    def one(task):
        y, scheme, seed = task
        return _system_means(y, scheme, seed, n_resamples, batch, progress)

    n = _workers(workers, len(tasks))
    if n == 1:
        try:
            return [one(t) for t in tasks]
        finally:
            _release_scratch()
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=n, thread_name_prefix="esize-bootstrap") as pool:
        return list(pool.map(one, tasks))  # the pool's threads, and their scratch, end here


def means_from_indices(data, scheme: str, indices) -> np.ndarray:
    """Replicate means for explicitly given draws (for checks and worked examples).

    Parameters
    ----------
    data : Design or array_like
    scheme : str
        As in :func:`resample_means`.
    indices : sequence
        One entry per level, highest first: for an ``R`` level an integer array of
        shape ``(B, slots, n_L)`` with the 0-based children drawn for every parent
        slot (slots in row-major order of the levels above), ``None`` for ``N``
        levels. For ``FLAT`` a single array of shape ``(B, N)``.
    """
    y = _as_array(data)
    scheme = parse_scheme(scheme, y.ndim)
    depth = _depth(scheme)
    if scheme == "FLAT":
        arrays = [np.asarray(indices[0])]
        leaves = y.ravel().astype(np.float64)
    else:
        arrays = [None if a is None else np.asarray(a) for a in indices]
        leaves = _leaf_values(y, depth)
    b = next(a.shape[0] for a in arrays if a is not None)

    def draw(level, shape, n):
        a = arrays[level]
        if a is None or a.shape != shape:
            raise EsizeError(f"indices for level {level} must have shape {shape}")
        if a.min() < 0 or a.max() >= n:
            raise EsizeError(f"indices for level {level} must lie in [0, {n})")
        return a.astype(np.int64, copy=True)  # _block_means works in place

    try:
        return _block_means(y, scheme, depth, leaves, draw, b, np.intp)
    finally:
        _release_scratch()


# -- public functions ---------------------------------------------------------------------
def resample_means(
    data,
    scheme: str = "RRR",
    n_resamples: int = 10_000,
    *,
    rng,
    batch: int | None = None,
    progress: Progress | None = None,
) -> np.ndarray:
    """Grand means of ``n_resamples`` hierarchical bootstrap replicates.

    Parameters
    ----------
    data : Design or array_like
        Balanced data, highest level on axis 0.
    scheme : str
        ``FLAT`` or one letter per level (``R`` resample, ``N`` keep), highest first.
    n_resamples : int
        Number of replicates.
    rng : numpy.random.Generator, SeedSequence or int
        Source of randomness (keyword-only). A Generator is advanced by one draw.
    batch : int, optional
        Replicates per vectorised step (bounds memory; does not change the result).
        By default about 2**18 index slots per step.
    progress : callable, optional
        Called with the number of replicates completed after every step.

    Returns
    -------
    ndarray of shape (n_resamples,)
    """
    z, e = scaled(_as_array(data))
    scheme = parse_scheme(scheme, z.ndim)
    n = _n_resamples(n_resamples, arrays=1)
    (means,) = _run_systems([(z, scheme, rng)], n, batch, progress, 1)
    return _unscale(means, e)


def _unscale(values, e: int):
    """``values * 2**e`` (exact; ``inf`` or 0 beyond the floats)."""
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(values, e)


def _ratios(mean_old, mean_new, shift: int):
    """``mean_new / mean_old * 2**shift`` of means each in units of its own power of
    two (``shift = e_new - e_old``): exact scaling, ``inf`` or 0 where a ratio is beyond
    the floats."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return _unscale(np.divide(mean_new, mean_old), shift)


def percentile_interval(values, alpha: float) -> tuple[float, float]:
    """Percentile limits: the ``alpha/2`` and ``1 - alpha/2`` sample quantiles.

    Uses the inverse empirical CDF, so with 1000 values and ``alpha = 0.05`` the
    limits are the 25th and 975th ordered values, as in the paper.
    """
    alpha = _check_alpha(alpha)
    lo, hi = np.quantile(values, [alpha / 2.0, 1.0 - alpha / 2.0], method="inverted_cdf")
    return float(lo), float(hi)


def _result(estimate, replicates, alpha, scheme, n_resamples) -> BootstrapResult:
    lo, hi = percentile_interval(replicates, alpha)
    ok = bool(math.isfinite(lo) and math.isfinite(hi))
    return BootstrapResult(
        float(estimate), lo, hi, alpha, f"bootstrap-{scheme}", ok,
        extra={"resamples": int(n_resamples)}, bootstrap_distribution=replicates,
    )


def bootstrap_mean_ci(
    data,
    *,
    scheme: str = "RRR",
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    rng,
    batch: int | None = None,
    progress: Progress | None = None,
) -> BootstrapResult:
    """Percentile bootstrap confidence interval for the mean of one system.

    Returns
    -------
    BootstrapResult
        The interval, with the replicate means as ``bootstrap_distribution``.

    Raises
    ------
    EsizeError
        Fewer than :func:`minimum_resamples` (``alpha``) replicates, or more than
        fit in memory (see :func:`check_resamples`).
    """
    z, e = scaled(_as_array(data))
    alpha = _check_alpha(alpha)
    scheme = parse_scheme(scheme, z.ndim)
    n = _n_resamples(n_resamples, alpha, arrays=2)  # the replicates, and a sorted copy
    (means,) = _run_systems([(z, scheme, rng)], n, batch, progress, 1)
    return _result(_unscale(z.mean(), e), _unscale(means, e), alpha, scheme, n)


def pair_schemes(scheme, old_levels: int, new_levels: int) -> tuple[str, str]:
    """The resampling scheme of each system of a pair.

    ``scheme`` is None (``R`` at every level of each system), one scheme for both
    (their numbers of levels must agree, unless it is ``FLAT``), a pair
    ``(old, new)``, or a string ``"OLD/NEW"`` such as ``"RR/R"`` for systems whose
    designs have different levels.
    """
    if scheme is None:
        return "R" * old_levels, "R" * new_levels
    if isinstance(scheme, str) and "/" in scheme:
        scheme = tuple(scheme.split("/"))
        if len(scheme) != 2:
            raise EsizeError(f"scheme {'/'.join(scheme)!r}: give one scheme, or OLD/NEW")
    if isinstance(scheme, str):
        if old_levels != new_levels and scheme.strip().upper() != "FLAT":
            raise EsizeError(
                f"scheme {scheme!r} is one scheme for systems of {old_levels} and "
                f"{new_levels} levels; give one per system as OLD/NEW, e.g. "
                f"{'R' * old_levels + '/' + 'R' * new_levels!r}"
            )
        scheme = (scheme, scheme)
    so, sn = scheme
    return parse_scheme(so, old_levels), parse_scheme(sn, new_levels)


def scheme_label(schemes: tuple[str, str]) -> str:
    """One scheme, or ``OLD/NEW`` when the systems are resampled differently."""
    so, sn = schemes
    return so if so == sn else f"{so}/{sn}"


def _pair_tasks(yo, yn, schemes, seed):
    ss_old, ss_new = _seed_sequence(seed).spawn(2)
    return [(yo, schemes[0], ss_old), (yn, schemes[1], ss_new)]


def bootstrap_ratio_ci(
    old,
    new,
    *,
    scheme: str = "RRR",
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    rng,
    batch: int | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> BootstrapResult:
    """Percentile bootstrap confidence interval for the ratio of means new/old.

    Each replicate resamples both systems independently (with the same scheme) and
    takes the ratio of their means, as in the paper's bootstrap for the ratio of
    two systems. Each system is resampled within itself, so the two may have
    different designs: other repetition counts, or other levels (then give one
    scheme per system, see :func:`pair_schemes`).

    Parameters
    ----------
    old, new : Design or array_like
    scheme, n_resamples, alpha, rng, batch
        As in :func:`resample_means`.
    progress : callable, optional
        Called with the number of system-replicates just completed (the total is
        ``2 * n_resamples``), possibly from worker threads, never concurrently.
    workers : int, optional
        Threads (default: the number of CPUs, at most 2 here); does not change
        the result.

    Returns
    -------
    BootstrapResult
        The interval, with the replicate ratios as ``bootstrap_distribution``.

    Raises
    ------
    EsizeError
        Fewer than :func:`minimum_resamples` (``alpha``) replicates, more than fit in
        memory (see :func:`check_resamples`), or a ratio of means beyond the range of
        floats (:func:`esize._intervals.check_ratio_range`). A replicate whose ratio
        alone is beyond it (a resample of a few stray values) is ``inf`` or 0.
    """
    (zo, eo), (zn, en) = scaled(_as_array(old)), scaled(_as_array(new))  # each its own scale
    alpha = _check_alpha(alpha)
    schemes = pair_schemes(scheme, zo.ndim, zn.ndim)
    n = _n_resamples(n_resamples, alpha, arrays=4)  # both systems, ratios, sorted copy
    estimate = check_ratio_range(zo.mean(), zn.mean(), en - eo)
    m_old, m_new = _run_systems(_pair_tasks(zo, zn, schemes, rng), n, batch, progress, workers)
    return _result(estimate, _ratios(m_old, m_new, en - eo), alpha, scheme_label(schemes), n)


def geometric_mean_ratio_ci(
    pairs: Sequence,
    *,
    scheme: str | Sequence[str] | None = None,
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    rng,
    names: Sequence[str] | None = None,
    invert: Sequence[bool] | None = None,
    batch: int | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
    normal: bool = False,
    parametric: bool = True,
) -> SuiteInterval:
    r"""Geometric mean of several benchmarks' ratios new/old, with a bootstrap CI and
    a parametric companion.

    Every benchmark ``k`` of a suite has its own ratio of means
    :math:`r_k = \bar Y^{new}_k / \bar Y^{old}_k`; the suite's summary is

    .. math:: G = \Bigl(\prod_{k=1}^{K} r_k\Bigr)^{1/K}.

    In replicate ``i`` every benchmark is resampled on its own (both systems, as in
    :func:`bootstrap_ratio_ci`), giving :math:`r_k^{(i)}`, and :math:`G^{(i)}` is the
    geometric mean of the :math:`r_k^{(i)}` with the same index; the interval is
    the percentile interval of the :math:`G^{(i)}`. The benchmarks are
    independent, so pairing replicates by index is as good as any other pairing.

    The percentile bootstrap is too narrow when the benchmarks have few top-level
    units (measured: 86-88 % coverage for 95 % with 3 units when the top level
    dominates, 91 % with 5), so the result also carries the parametric interval of
    :func:`esize.geometric_mean_ratio_parametric` -- the t interval (normal with
    ``normal``) for the mean of the log ratios, delta-method variances,
    Welch-Satterthwaite degrees of freedom -- and
    :attr:`SuiteInterval.verdict_interval`, the smallest interval holding both: the
    more conservative choice, on which a verdict should rest. ``lower`` and
    ``upper`` stay the bootstrap's.

    Parameters
    ----------
    pairs : sequence of (old, new)
        One pair of designs (or arrays) per benchmark.
    scheme : str, sequence, or None
        Resampling scheme for every benchmark, one per benchmark, or None for
        ``"R"`` at every level of each; a benchmark whose systems have different
        levels takes ``"OLD/NEW"`` or a pair (see :func:`pair_schemes`).
    n_resamples : int
        Bootstrap replicates.
    alpha : float
        One minus the confidence level.
    rng : int, SeedSequence or numpy.random.Generator
        The suite's seed (keyword-only).
    names : sequence of str, optional
        Benchmark names. With names, benchmark ``k`` draws from
        ``benchmark_seed(rng, names[k])``, so its own interval does not change when
        other benchmarks are added or left out; without, from the ``k``-th child of
        ``rng`` -- except that a single unnamed pair draws from ``rng`` itself, so
        that it reproduces :func:`bootstrap_ratio_ci` exactly.
    invert : sequence of bool, optional
        Benchmarks whose ratio enters the geometric mean as old/new (to put rates,
        where higher is better, in the same direction as times).
    batch : int, optional
        Replicates per vectorised step (does not change the result).
    progress : callable, optional
        Called with the number of system-replicates just completed; the total is
        ``2 * len(pairs) * n_resamples``.
    workers : int, optional
        Threads (default: the number of CPUs); does not change the result.
    normal : bool
        Use the normal instead of the t quantile in the parametric interval.
    parametric : bool
        Compute the parametric interval (``parametric`` of the result is None
        without it; it is unbounded when a system has a single top-level unit).

    Returns
    -------
    SuiteInterval

    Raises
    ------
    EsizeError
        No pair, non-positive ratios, a ratio of means beyond the range of floats,
        fewer than :func:`minimum_resamples` (``alpha``) replicates, or more than
        fit in memory: the computation holds
        ``4 K + 2`` arrays of ``n_resamples`` floats for ``K`` benchmarks (both
        systems' means and the ratios of each, their logarithms, the geometric means
        and a sorted copy).
    """
    pairs = list(pairs)
    if not pairs:
        raise EsizeError("a suite needs at least one benchmark")
    alpha = _check_alpha(alpha)
    k = len(pairs)
    n = _n_resamples(n_resamples, alpha, arrays=4 * k + 2)
    schemes = _per_benchmark(scheme, k, "schemes")
    inv = [bool(x) for x in _per_benchmark(invert, k, "invert flags", default=False)]
    seeds = _suite_seeds(rng, k, names)

    arrays, tasks = [], []
    for (old, new), s, ss in zip(pairs, schemes, seeds):
        (zo, eo), (zn, en) = scaled(_as_array(old)), scaled(_as_array(new))  # own scales
        sch = pair_schemes(s, zo.ndim, zn.ndim)
        arrays.append((zo, zn, en - eo, scheme_label(sch)))
        tasks += _pair_tasks(zo, zn, sch, ss)
    means = _run_systems(tasks, n, batch, progress, workers)

    label = [str(x) for x in names] if names is not None else [str(j) for j in range(k)]
    logs, log_est, intervals = [], [], []
    for j, (zo, zn, shift, sch) in enumerate(arrays):
        m_old, m_new = means[2 * j], means[2 * j + 1]
        if min(zo.mean(), zn.mean(), m_old.min(), m_new.min()) <= 0:
            raise EsizeError(
                f"benchmark {label[j]}: the geometric mean needs positive means "
                "(positive measurements)"
            )
        estimate = check_ratio_range(zo.mean(), zn.mean(), shift, label[j])
        iv = _result(estimate, _ratios(m_old, m_new, shift), alpha, sch, n)
        intervals.append(iv)
        log_r = _log_ratios(iv.bootstrap_distribution, m_old, m_new, shift)
        log_e = math.log(iv.estimate)
        logs.append(-log_r if inv[j] else log_r)
        log_est.append(-log_e if inv[j] else log_e)
    with np.errstate(over="ignore"):
        gm_reps = np.exp(np.mean(logs, axis=0))
    lo, hi = percentile_interval(gm_reps, alpha)
    gm = float(np.exp(np.mean(log_est)))
    companion = None
    if parametric:
        companion = _parametric(pairs, alpha, normal, inv, gm)
    return SuiteInterval(gm, lo, hi, alpha, n, tuple(intervals), tuple(inv), gm_reps, companion)


def _log_ratios(ratios: np.ndarray, mean_old: np.ndarray, mean_new: np.ndarray,
                shift: int) -> np.ndarray:
    """Logarithms of the replicate ratios; where a ratio is beyond the floats (a
    replicate of stray values), from the logarithms of its scaled means instead."""
    with np.errstate(divide="ignore", over="ignore"):
        direct = np.log(ratios)
        in_range = (ratios >= _TINY) & (ratios < math.inf)
        if np.all(in_range):
            return direct
        parts = np.log(mean_new) - np.log(mean_old) + shift * math.log(2.0)
    return np.where(in_range, direct, parts)


def _mean_and_exponent(system) -> tuple[float, float, int]:
    """``scaled(system)``'s mean and exponent (with the variance of the mean), by
    :func:`~esize._estimators.mean_and_variance`: the mean of the scaled values is the
    same sum in both; one unit gets no variance (NaN) instead of an error."""
    y = _as_array(system)
    if y.shape[0] < 2:
        z, e = scaled(y)
        return float(z.mean()), math.nan, e
    return mean_and_variance(y)


def _parametric(pairs, alpha, normal, inv, gm) -> Interval:
    """The suite's parametric interval, unbounded when a top-level variance cannot be
    estimated (a single top-level unit)."""
    try:
        return geometric_mean_ratio_parametric(pairs, alpha=alpha, normal=normal, invert=inv)
    except DesignError:
        return Interval(gm, -math.inf, math.inf, alpha, "log-normal" if normal else "log-t",
                        False, extra={"df": None, "log_se": None})


def _per_benchmark(value, k: int, what: str, default=None) -> list:
    if value is None or isinstance(value, str):
        return [default if value is None else value] * k
    out = list(value)
    if len(out) != k:
        raise EsizeError(f"{len(out)} {what} for {k} benchmarks")
    return out


def _suite_seeds(rng, k: int, names) -> list:
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != k:
            raise EsizeError(f"{len(names)} names for {k} benchmarks")
        if len(set(names)) != k:
            raise EsizeError("benchmark names must be unique")
        base = _seed_sequence(rng)
        return [benchmark_seed(base, n) for n in names]
    if k == 1:
        return [rng]
    return _seed_sequence(rng).spawn(k)
