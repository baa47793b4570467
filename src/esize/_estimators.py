r"""Variance estimators of the n-level random-effects model.

Notation follows the paper (Section "Estimating Unknown Variances"): level 1 is the lowest
(measurements), level :math:`n+1` the highest; :math:`n_i` is the repetition count
at level :math:`i`. Arrays returned here are ordered like :class:`~esize.Design`
axes, **highest level first**.

The biased ("naive") estimator at level :math:`i` averages, over all units above
level :math:`i`, the sample variance of the level-:math:`i` unit means:

.. math::

    S_i^2 = \frac{1}{\prod_{k=i+1}^{n+1} n_k}\,\frac{1}{n_i - 1}
            \sum_{j_{n+1}} \cdots \sum_{j_i}
            \left(\overline{Y}_{j_{n+1}\dots j_i \bullet\dots\bullet}
                 - \overline{Y}_{j_{n+1}\dots j_{i+1}\bullet\dots\bullet}\right)^2

with expectation :math:`E(S_i^2) = \sigma_i^2 + E(S_{i-1}^2)/n_{i-1}`, whence the
unbiased estimators :math:`T_1^2 = S_1^2` and
:math:`T_i^2 = S_i^2 - S_{i-1}^2 / n_{i-1}`.

Numerics
--------
Results do not depend on the unit of measure. Every estimator first divides the data
by a power of two :math:`2^e` that brings :math:`\max |y|` into :math:`[1/2, 1)`;
dividing by a power of two is exact, so at ordinary magnitudes the estimates are
bit for bit those of the unscaled data, while data near :math:`10^{\pm 300}` no
longer overflow or underflow when squared. Variances (which ``numpy.var`` computes
from deviations about the mean, so centred before squaring) are found in those units
and multiplied back by :math:`2^{2e}` only at the end; quantities that are ratios,
such as :attr:`VarianceComponents.S_pct`, never leave them.

Exact zeros: a variance estimate :math:`v` (an :math:`S_i^2`, a :math:`T_i^2`, or the
variance of a mean) with

.. math:: |v| \le (\epsilon \max |y|)^2, \qquad \epsilon = 10^{-12}

(:data:`RELATIVE_TOLERANCE`) is set to exactly zero. Constant data thus have zero variance every time, whatever
the rounding of their means (those are off by a few units in the last place, about
:math:`10^{-16}` relative), while any genuine variation -- a relative standard
deviation of :math:`10^{-12}` is four orders of magnitude above the rounding and far
below the resolution of any clock or counter -- is kept. The same relative tolerance
decides a verdict whose interval ends on the threshold (:func:`esize.verdict`).

References
----------
T. Kalibera and R. Jones, "Quantifying Performance Changes with Effect Size
Confidence Intervals", Sections "For Practitioners: The New Method without
Statistics" and "Estimating Unknown Variances".
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import cast

import numpy as np

from ._design import Design, abs_max_exponent, scale_exponent
from ._errors import DesignError

__all__ = [
    "RELATIVE_TOLERANCE",
    "s2",
    "t2",
    "VarianceComponents",
    "variance_components",
    "mean_variance",
    "model_mean_variance",
]


#: Relative tolerance of "exactly zero" (a standard deviation at most this fraction of
#: the largest value) and of "exactly at the threshold" in a verdict.
RELATIVE_TOLERANCE = 1e-12


def _as_array(data) -> np.ndarray:
    return data.data if isinstance(data, Design) else np.asarray(data, dtype=np.float64)


def _zero_small(v, ref: float):
    """``v`` with the entries that are zero up to rounding (``|v| <= (tol * ref)**2``)
    set to exactly zero; ``ref`` is the largest ``|y|`` in the units of ``v``."""
    limit = (RELATIVE_TOLERANCE * ref) ** 2
    return np.where(np.abs(v) <= limit, 0.0, v)


def _unscale(v, exponent: int):
    """``v * 2**exponent``: exact, or inf / 0 when the result is beyond the floats."""
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(v, exponent)


def scaled(data) -> tuple[np.ndarray, int]:
    """The data divided by ``2**e``, ``e`` chosen so that ``max |y|`` lies in [1/2, 1).

    Returns
    -------
    (ndarray, int)
        The scaled values (exactly ``y / 2**e``) and ``e``.
    """
    y = _as_array(data)
    e = scale_exponent(y)
    return (np.ldexp(y, -e) if e else y), e


def _s2_scaled(z: np.ndarray) -> np.ndarray:
    """:math:`S_i^2` of data already scaled, with the zero rule applied."""
    out = np.empty(z.ndim)
    means = z
    # walk from the lowest level up: V on the current last axis, M over the rest
    for axis in range(z.ndim - 1, -1, -1):
        out[axis] = means.var(axis=-1, ddof=1).mean()
        means = means.mean(axis=-1)
    return _zero_small(out, float(np.max(np.abs(z))))


def _check_two_units(y: np.ndarray) -> None:
    for axis, n in enumerate(y.shape):
        if n < 2:
            raise DesignError(
                f"level on axis {axis} has {n} unit(s) per group; "
                "variance estimates need at least 2"
            )


def s2(data) -> np.ndarray:
    r"""Biased per-level variance estimates :math:`S_i^2`, highest level first.

    Parameters
    ----------
    data : Design or array_like
        Balanced data of shape ``(n_top, ..., n_1)``; every level needs at least
        two units per group.

    Returns
    -------
    ndarray
        ``s[j]`` is :math:`S^2` of the level on axis ``j``, in the data's units
        squared; exactly zero when it is zero up to rounding (see the module notes),
        and ``inf`` or 0 when the data's magnitude is so extreme (beyond about
        :math:`10^{\pm 154}`) that the square is not a float.

    Examples
    --------
    The executions' means 2 and 5 vary by :math:`S_2^2 = 4.5`, the measurements
    within an execution by :math:`S_1^2 = 1`:

    >>> import esize as ez
    >>> ez.s2([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).tolist()
    [4.5, 1.0]
    """
    y = _as_array(data)
    _check_two_units(y)
    z, e = scaled(y)
    return _unscale(_s2_scaled(z), 2 * e)


def t2(s2_values, counts) -> np.ndarray:
    r"""Unbiased variance estimates :math:`T_i^2` from :math:`S_i^2`.

    Parameters
    ----------
    s2_values : array_like
        :math:`S^2` per level, highest level first.
    counts : sequence of int
        Repetition counts per level, highest level first.

    Returns
    -------
    ndarray
        :math:`T^2` per level, highest first; entries may be zero or negative.

    Notes
    -----
    .. math:: T_1^2 = S_1^2, \qquad T_i^2 = S_i^2 - \frac{S_{i-1}^2}{n_{i-1}}

    Examples
    --------
    The top level's :math:`S^2` less the part the 3 measurements below it explain:

    >>> import esize as ez
    >>> ez.t2([4.5, 1.0], [2, 3]).round(4).tolist()
    [4.1667, 1.0]
    """
    s = np.asarray(s2_values, dtype=np.float64)
    n = np.asarray(counts, dtype=np.float64)
    if s.shape != n.shape:
        raise DesignError("S^2 values and counts must have one entry per level")
    out = s.copy()
    out[:-1] = s[:-1] - s[1:] / n[1:]
    return out


@dataclass(frozen=True)
class VarianceComponents:
    """Per-level variance estimates of one design (all arrays highest level first).

    Attributes
    ----------
    levels : tuple of str
    counts : tuple of int
    mean : float
        Grand mean.
    S2, T2 : ndarray
        Biased and unbiased variance estimates, in the data's units squared (``inf``
        or 0 when the data are so large or small that the square is not a float).
    exponent : int
        The power of two ``e`` the estimates were computed at: ``S2 = S2_scaled *
        2**(2 e)``.
    S2_scaled, T2_scaled : ndarray
        The estimates divided by ``2**(2 e)``, always finite (computed from ``S2``
        and ``T2`` when not given).

    Examples
    --------
    >>> import esize as ez
    >>> d = ez.Design([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], ("execution", "measurement"))
    >>> vc = ez.variance_components(d)
    >>> vc.levels, vc.counts, vc.mean
    (('execution', 'measurement'), (2, 3), 3.5)
    >>> vc.S_pct.round(2).tolist(), vc.T_pct.round(2).tolist()  # percent of the mean
    ([60.61, 28.57], [58.32, 28.57])
    >>> round(vc.as_dict()["execution"]["T2"], 4)
    4.1667
    """

    levels: tuple[str, ...]
    counts: tuple[int, ...]
    mean: float
    S2: np.ndarray
    T2: np.ndarray
    exponent: int = 0
    S2_scaled: np.ndarray | None = None
    T2_scaled: np.ndarray | None = None

    def __post_init__(self) -> None:
        for name in ("S2", "T2"):
            if getattr(self, name + "_scaled") is None:
                value = np.asarray(getattr(self, name), dtype=np.float64)
                object.__setattr__(self, name + "_scaled", _unscale(value, -2 * self.exponent))

    @property
    def _scaled_mean(self) -> float:
        return math.ldexp(self.mean, -self.exponent)

    @property
    def S_pct(self) -> np.ndarray:
        """Relative variation :math:`\\sqrt{S^2}/\\overline{Y}` in percent (computed in
        scaled units, so it does not depend on the unit of measure)."""
        return 100.0 * np.sqrt(cast(np.ndarray, self.S2_scaled)) / self._scaled_mean

    @property
    def T_pct(self) -> np.ndarray:
        """:math:`\\sqrt{\\max(T^2, 0)}/\\overline{Y}` in percent."""
        t2 = cast(np.ndarray, self.T2_scaled)  # set by __post_init__
        return 100.0 * np.sqrt(np.clip(t2, 0.0, None)) / self._scaled_mean

    def as_dict(self) -> dict[str, dict[str, float]]:
        """``{level: {"S2": .., "T2": .., "S_pct": .., "T_pct": ..}}``."""
        return {
            name: {
                "S2": float(self.S2[k]),
                "T2": float(self.T2[k]),
                "S_pct": float(self.S_pct[k]),
                "T_pct": float(self.T_pct[k]),
            }
            for k, name in enumerate(self.levels)
        }


def variance_components(design: Design) -> VarianceComponents:
    """:math:`S^2` and :math:`T^2` of every level of ``design``.

    Both are computed on the data scaled by a power of two (see the module notes);
    estimates that are zero up to rounding are exactly zero, so a level whose units
    do not vary has :math:`S^2 = T^2 = 0` every time.

    Examples
    --------
    >>> import esize as ez
    >>> d = ez.Design([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], ("execution", "measurement"))
    >>> vc = ez.variance_components(d)
    >>> vc.S2.tolist(), vc.T2.round(4).tolist()
    ([4.5, 1.0], [4.1667, 1.0])

    Executions that do not differ have no variance of their own, exactly:

    >>> same = ez.Design([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], ("execution", "measurement"))
    >>> ez.variance_components(same).S2.tolist()
    [0.0, 1.0]
    """
    y = design.data
    _check_two_units(y)
    z, e = scaled(y)
    s = _s2_scaled(z)
    t = _zero_small(t2(s, design.shape), float(np.max(np.abs(z))))
    return VarianceComponents(
        levels=design.levels,
        counts=design.shape,
        mean=design.mean,
        S2=_unscale(s, 2 * e),
        T2=_unscale(t, 2 * e),
        exponent=e,
        S2_scaled=s,
        T2_scaled=t,
    )


def mean_and_variance(data, exponent: int | None = None) -> tuple[float, float, int]:
    r"""Grand mean and estimated variance of the grand mean, in scaled units.

    Parameters
    ----------
    data : Design or array_like
        Balanced data (two or more top-level units).
    exponent : int, optional
        Work in units of ``2**exponent`` (default: the data's own, which brings the
        largest value into [1/2, 1)).

    Returns
    -------
    (float, float, int)
        :math:`\overline{Y} / 2^e`, :math:`S_{n+1}^2 / (n_{n+1} 2^{2e})` (zero when zero
        up to rounding) and ``e``.

    Notes
    -----
    Inside :func:`shared_statistics`, the result for a read-only array (a
    :class:`~esize.Design`'s data) at its own exponent is computed once and reused.
    """
    y = _as_array(data)
    if y.shape[0] < 2:
        raise DesignError(
            f"the top level has {y.shape[0]} unit(s); at least 2 are needed"
        )
    memo = _SHARED.get() if exponent is None and not y.flags.writeable else None
    if memo is not None:
        hit = memo.get(id(y))
        if hit is not None and hit[0] is y:
            return hit[1]
    m, e = abs_max_exponent(y)
    if exponent is not None:
        e = int(exponent)
    z = np.ldexp(y, -e) if e else y
    top = z.reshape(z.shape[0], -1).mean(axis=1)
    # max |z| for the zero rule: at the data's own exponent it is max |y| / 2**e exactly
    # (the largest value lands in [1/2, 1)); at another it is computed
    zmax = math.ldexp(m, -e) if exponent is None else float(np.max(np.abs(z)))
    v = float(top.var(ddof=1))
    if abs(v) <= (RELATIVE_TOLERANCE * zmax) ** 2:  # _zero_small, on a float
        v = 0.0
    out = (float(z.mean()), v / top.size, e)
    if memo is not None:
        memo[id(y)] = (y, out)  # the array is held: its id cannot be reused meanwhile
    return out


#: The memo of :func:`shared_statistics` (None outside it).
_SHARED: ContextVar[dict | None] = ContextVar("esize_shared_statistics", default=None)


@contextmanager
def shared_statistics():
    """A block in which :func:`mean_and_variance` of the same read-only array is
    computed once.

    A command that asks several intervals of the same designs (Fieller per benchmark,
    then the suite's parametric interval and its geometric mean) would otherwise
    compute every system's mean and variance two or three times. Only arrays that
    cannot be written through (a :class:`~esize.Design`'s data) are remembered, and
    only inside the block, which holds them so that no other array can take their
    ``id``; the values are those computed without it, bit for bit.
    """
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def mean_variance(data) -> float:
    r"""Estimated variance of the grand mean, :math:`S_{n+1}^2 / n_{n+1}`.

    This is an unbiased estimator of :func:`model_mean_variance` (Section
    "Confidence Interval for the Mean of One System"). Only the top level needs two
    or more units. The value is in the data's units squared (zero when it is zero up
    to rounding; see the module notes); :func:`mean_and_variance` gives it in scaled
    units, which never overflow.

    Examples
    --------
    Two executions with means 2 and 5: :math:`S_2^2 = 4.5`, over 2 executions:

    >>> import esize as ez
    >>> ez.mean_variance([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    2.25
    """
    _, v, e = mean_and_variance(data)
    return float(_unscale(v, 2 * e))


def model_mean_variance(sigma2, counts) -> float:
    r"""Variance of the grand mean under the model (Section "Statistical Model for a Hierarchy of Random Effects").

    .. math::

        \operatorname{var}(\overline{Y}) = \sum_{i=1}^{n+1}
            \frac{\sigma_i^2}{\prod_{k=i}^{n+1} n_k}

    Parameters
    ----------
    sigma2 : array_like
        Per-level variances, highest level first.
    counts : array_like
        Repetition counts, highest level first (may be non-integer when used for
        planning).

    Examples
    --------
    :math:`\sigma_2^2 = 4` over 2 executions plus :math:`\sigma_1^2 = 1` over
    :math:`2 \cdot 3` measurements:

    >>> import esize as ez
    >>> round(ez.model_mean_variance([4.0, 1.0], [2, 3]), 4)
    2.1667
    """
    s = np.asarray(sigma2, dtype=np.float64)
    n = np.asarray(counts, dtype=np.float64)
    if s.shape != n.shape:
        raise DesignError("variances and counts must have one entry per level")
    return float(np.sum(s / np.cumprod(n)))
