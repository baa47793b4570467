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

References
----------
T. Kalibera and R. Jones, "Quantifying Performance Changes with Effect Size
Confidence Intervals", Sections "For Practitioners: The New Method without
Statistics" and "Estimating Unknown Variances".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._design import Design
from ._errors import DesignError

__all__ = [
    "s2",
    "t2",
    "VarianceComponents",
    "variance_components",
    "mean_variance",
    "model_mean_variance",
]


def _as_array(data) -> np.ndarray:
    return data.data if isinstance(data, Design) else np.asarray(data, dtype=np.float64)


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
        ``s[j]`` is :math:`S^2` of the level on axis ``j``.
    """
    y = _as_array(data)
    for axis, n in enumerate(y.shape):
        if n < 2:
            raise DesignError(
                f"level on axis {axis} has {n} unit(s) per group; "
                "variance estimates need at least 2"
            )
    out = np.empty(y.ndim)
    means = y
    # walk from the lowest level up: V on the current last axis, M over the rest
    for axis in range(y.ndim - 1, -1, -1):
        out[axis] = means.var(axis=-1, ddof=1).mean()
        means = means.mean(axis=-1)
    return out


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
        Biased and unbiased variance estimates.
    """

    levels: tuple[str, ...]
    counts: tuple[int, ...]
    mean: float
    S2: np.ndarray
    T2: np.ndarray

    @property
    def S_pct(self) -> np.ndarray:
        """Relative variation :math:`\\sqrt{S^2}/\\overline{Y}` in percent."""
        return 100.0 * np.sqrt(self.S2) / self.mean

    @property
    def T_pct(self) -> np.ndarray:
        """:math:`\\sqrt{\\max(T^2, 0)}/\\overline{Y}` in percent."""
        return 100.0 * np.sqrt(np.clip(self.T2, 0.0, None)) / self.mean

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
    """:math:`S^2` and :math:`T^2` of every level of ``design``."""
    s = s2(design)
    return VarianceComponents(
        levels=design.levels,
        counts=design.shape,
        mean=design.mean,
        S2=s,
        T2=t2(s, design.shape),
    )


def mean_variance(data) -> float:
    r"""Estimated variance of the grand mean, :math:`S_{n+1}^2 / n_{n+1}`.

    This is an unbiased estimator of :func:`model_mean_variance` (Section
    "Confidence Interval for the Mean of One System"). Only the top level needs two or more units.
    """
    y = _as_array(data)
    if y.shape[0] < 2:
        raise DesignError(
            f"the top level has {y.shape[0]} unit(s); at least 2 are needed"
        )
    top = y.reshape(y.shape[0], -1).mean(axis=1)
    return float(top.var(ddof=1) / top.size)


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
    """
    s = np.asarray(sigma2, dtype=np.float64)
    n = np.asarray(counts, dtype=np.float64)
    if s.shape != n.shape:
        raise DesignError("variances and counts must have one entry per level")
    return float(np.sum(s / np.cumprod(n)))
