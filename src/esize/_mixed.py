r"""A linear mixed model of log times, fitted by REML: the ratio of geometric means
new/old with Satterthwaite's degrees of freedom (:func:`mixed_ratio_ci`), a cross-check
of Fieller's interval and the interval of ``esize compare --method mixed``.

Each system on its own is the nested random-intercept model

.. math::

    \log y_{j_{n+1} \dots j_1} = \mu + u_{j_{n+1}} + u_{j_{n+1} j_n} + \dots
                                 + u_{j_{n+1} \dots j_2} + e_{j_{n+1} \dots j_1},
    \qquad u_{\dots j_i} \sim N(0, \sigma_i^2), \quad e \sim N(0, \sigma_1^2),

one variance per level (the lowest, :math:`\sigma_1^2`, the residual), all effects
independent: the paper's random-effects model of Section "Statistical Model for a
Hierarchy of Random Effects" on the logarithms. Its variances are estimated by
restricted maximum likelihood (REML), :math:`\mu` by generalised least squares, and
:math:`\exp(\mu_{new} - \mu_{old})` is the ratio of the geometric means.

The likelihood is computed in :math:`O(N)` without forming a matrix: with the design
nested, :math:`V^{-1}` and :math:`\log|V|` follow from the leaves up, each random
intercept a rank-one update (Sherman-Morrison). For a group whose children carry the
sums :math:`s_{11} = 1'V^{-1}1`, :math:`s_{1y} = 1'V^{-1}y`, :math:`s_{yy} = y'V^{-1}y`
and :math:`\log|V|`, its own intercept of variance :math:`a` gives, with
:math:`d = 1 + a s_{11}`,

.. math::

    \log|V| \mathrel{+}= \log d, \quad s_{yy} \mathrel{-}= a s_{1y}^2 / d, \quad
    s_{11} \leftarrow s_{11} / d, \quad s_{1y} \leftarrow s_{1y} / d;

a leaf of :math:`m` values with mean :math:`\bar y` and within sum of squares
:math:`W` starts from :math:`s_{11} = m / (\sigma_1^2 + m a)`,
:math:`s_{1y} = \bar y s_{11}`, :math:`s_{yy} = W / \sigma_1^2 + \bar y^2 s_{11}`,
:math:`\log|V| = (m - 1)\log\sigma_1^2 + \log(\sigma_1^2 + m a)` (the same update,
written so that no difference of large numbers is formed). At the top,

.. math::

    -2 \ell_R = \log|V| + \log s_{11} + s_{yy} - s_{1y}^2 / s_{11} + \text{const},
    \qquad \hat\mu = s_{1y} / s_{11}, \qquad \operatorname{Var}(\hat\mu) = 1 / s_{11}.

Every step is a sum over the units of a level (:func:`numpy.bincount`), so one
evaluation costs one pass over the units. The log variances are optimised with
L-BFGS-B from the method-of-moments estimates (the :math:`T_i^2` of
:func:`esize.t2`, on the logarithms), bounded below at :data:`ZERO_VARIANCE` of the
total variance: a component that ends there is reported as zero (``zero``).

Degrees of freedom: Satterthwaite's, :math:`\nu = 2 \operatorname{Var}(\hat\mu)^2 /
(g' A g)`, with :math:`g` the gradient of :math:`\operatorname{Var}(\hat\mu)` in the
variance parameters and :math:`A` the inverse of the observed information of the REML
log-likelihood (both by central differences in the log variances; components at zero
are held fixed), and never more than the top level's :math:`n - 1`. Without that cap a
component estimated at zero is taken as known and the residual's df follow: in the
judged run R8 (``benchmarks/results/2026-11-29-r8-mixed-coverage.json``) 20 against 3
processes, the 3 spreading ten times as much, covered 93.25 %, and on a pilot seed the
replicates whose 3-unit side had its process variance at zero (32 %) covered 81 %. For a balanced design of two levels whose top-level estimate is
positive this is the closed form: :math:`\operatorname{Var}(\hat\mu) = S_2^2 / n` (the
sample variance of the :math:`n` unit means of the logs over :math:`n`) and
:math:`\nu = n - 1`.

:class:`~esize.Design` is always balanced, so :func:`mixed_ratio_ci` fits balanced
arrays; unequal counts (the point of a mixed model) are fitted by :func:`reml_fit`
from values and one label column per level, and its :class:`MixedFit` may be given to
:func:`mixed_ratio_ci` in place of a design.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ._design import Design
from ._errors import DesignError, EsizeError
from ._mean_ci import Interval, _check_alpha, critical_value
from ._ratio_df import df_rule

__all__ = ["MixedFit", "reml_fit", "mixed_fit", "mixed_ratio_ci", "ZERO_VARIANCE"]

#: A variance component at most this share of the total variance of the logs is at the
#: lower bound of the optimisation and reported as zero.
ZERO_VARIANCE = 1e-9

#: The estimand of :func:`mixed_ratio_ci`, also in its ``extra``.
ESTIMAND = "ratio of geometric means"


@dataclass(frozen=True)
class MixedFit:
    """The REML fit of one system's log times (:func:`reml_fit`).

    Attributes
    ----------
    mean : float
        :math:`\\hat\\mu`, the mean of the log times (the log of the geometric mean).
    var_mean : float
        :math:`\\operatorname{Var}(\\hat\\mu)` at the REML variances.
    df : float
        Satterthwaite's degrees of freedom of ``var_mean`` (at least 1).
    components : dict
        REML variance of every level, highest first, keyed by level name; the lowest
        level's is the residual. On the log scale.
    zero : tuple of str
        The levels whose variance went to the lower bound (reported as 0).
    top_units, n : int
        Units of the highest level; measurements.

    Examples
    --------
    >>> import esize as ez
    >>> from esize._mixed import mixed_fit
    >>> fit = mixed_fit(ez.Design([[10, 11], [12, 13], [11, 12]], ("fork", "iteration")))
    >>> round(fit.df, 6), fit.top_units, list(fit.components)
    (2.0, 3, ['fork', 'iteration'])
    """

    mean: float
    var_mean: float
    df: float
    components: dict = field(default_factory=dict)
    zero: tuple = ()
    top_units: int = 0
    n: int = 0

    def as_dict(self) -> dict:
        """JSON-ready form (the ``old`` and ``new`` entries of the interval's extra)."""
        return {"mean_log": self.mean, "var_mean": self.var_mean, "df": self.df,
                "components": dict(self.components), "zero": list(self.zero),
                "top_units": self.top_units, "n": self.n}


# -- the nested tree: leaf statistics and parents ------------------------------------------
@dataclass(frozen=True)
class _Tree:
    """A nested design reduced to what the likelihood needs.

    ``m``, ``ybar``, ``w``: count, mean and within sum of squares of every leaf (a unit
    of the lowest grouping level, or the whole data when there is none); ``parents[k]``
    the parent (a unit of grouping level ``k - 1``) of every unit of grouping level
    ``k``, for ``k`` from 1 to the lowest; ``sizes[k]`` the units of level ``k``.
    """

    m: np.ndarray
    ybar: np.ndarray
    w: np.ndarray
    parents: tuple
    sizes: tuple
    levels: tuple  # names: grouping levels highest first, then the residual's

    @property
    def n_groups(self) -> int:
        return len(self.sizes)


def _tree_from_array(z: np.ndarray, levels: tuple) -> _Tree:
    """The tree of a balanced array (axis 0 highest)."""
    shape = z.shape
    leaves = z.reshape(-1, shape[-1])
    ybar = leaves.mean(axis=1)
    w = ((leaves - ybar[:, None]) ** 2).sum(axis=1)
    m = np.full(ybar.size, float(shape[-1]))
    sizes = tuple(int(np.prod(shape[: k + 1])) for k in range(len(shape) - 1))
    parents = tuple(np.arange(sizes[k]) // shape[k] for k in range(1, len(sizes)))
    return _Tree(m, ybar, w, (None, *parents), sizes, levels)


def _tree_from_groups(y: np.ndarray, groups: list, levels: tuple) -> _Tree:
    """The tree of values and one label array per grouping level (highest first);
    a unit is its label within its parent."""
    n = y.size
    unit = np.zeros(n, dtype=np.int64)
    parents: list = [None]
    sizes = []
    for k, labels in enumerate(groups):
        _, code = np.unique(np.asarray(labels), return_inverse=True)
        code = code.reshape(-1)
        if code.size != n:
            raise DesignError(f"level {levels[k]!r} has {code.size} labels for {n} values")
        key = unit * (int(code.max()) + 1) + code
        ids, new_unit = np.unique(key, return_inverse=True)
        new_unit = new_unit.reshape(-1)
        if k:
            parent = np.empty(ids.size, dtype=np.int64)
            parent[new_unit] = unit
            parents.append(parent)
        unit = new_unit
        sizes.append(int(ids.size))
    if not groups:
        unit = np.zeros(n, dtype=np.int64)
    count = np.bincount(unit).astype(float)
    ybar = np.bincount(unit, y) / count
    w = np.bincount(unit, (y - ybar[unit]) ** 2)
    return _Tree(count, ybar, w, tuple(parents), tuple(sizes), levels)


def _reml_terms(tree: _Tree, theta: np.ndarray) -> tuple[float, float, float]:
    """``(-2 REML log-likelihood, s11, s1y)`` at the variances ``theta`` (grouping
    levels highest first, the residual last)."""
    se = theta[-1]
    L = tree.n_groups
    a = theta[L - 1] if L else 0.0
    m, ybar = tree.m, tree.ybar
    lam = se + m * a
    s11 = m / lam
    s1y = ybar * s11
    syy = tree.w / se + ybar * s1y
    logdet = (m - 1.0) * math.log(se) + np.log(lam)
    for k in range(L - 2, -1, -1):  # sum the children into level k, then its intercept
        p, size = tree.parents[k + 1], tree.sizes[k]
        s11, s1y, syy, logdet = (np.bincount(p, v, minlength=size)
                                 for v in (s11, s1y, syy, logdet))
        a = theta[k]
        d = 1.0 + a * s11
        logdet = logdet + np.log(d)
        syy = syy - a * s1y * s1y / d
        s11, s1y = s11 / d, s1y / d
    S11, S1y = float(s11.sum()), float(s1y.sum())
    value = float(logdet.sum()) + math.log(S11) + float(syy.sum()) - S1y * S1y / S11
    return value, S11, S1y


def _grad(f, x: np.ndarray, h: float) -> np.ndarray:
    g = np.empty(x.size)
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def _hessian(f, x: np.ndarray, h: float) -> np.ndarray:
    p = x.size
    H = np.empty((p, p))
    f0 = f(x)
    for i in range(p):
        ei = np.zeros(p)
        ei[i] = h
        H[i, i] = (f(x + ei) - 2 * f0 + f(x - ei)) / (h * h)
        for j in range(i):
            ej = np.zeros(p)
            ej[j] = h
            H[i, j] = H[j, i] = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej)
                                 + f(x - ei - ej)) / (4 * h * h)
    return H


def _fit_tree(tree: _Tree, start: np.ndarray, top_units: int) -> MixedFit:
    """REML on a tree of standardised values (total variance 1); ``start`` the
    method-of-moments variances."""
    from scipy.optimize import minimize  # here, so that `import esize` stays light

    p = tree.n_groups + 1
    lo, hi = math.log(ZERO_VARIANCE), math.log(1e6)

    def m2ll(psi):
        return _reml_terms(tree, np.exp(psi))[0]

    def jac(psi):
        return _grad(m2ll, psi, 1e-6)

    # from the moments; again from an even split when that ends on a bound or fails
    starts = [np.log(np.clip(start, 1e-2 / p, None)), np.full(p, math.log(1.0 / p))]
    best = None
    for s0 in starts:
        res = minimize(m2ll, np.clip(s0, lo, hi), jac=jac, method="L-BFGS-B",
                       bounds=[(lo, hi)] * p,
                       options={"ftol": 1e-13, "gtol": 1e-9, "maxiter": 500})
        if best is None or res.fun < best.fun:
            best = res
        if best.success and bool(np.all(best.x > lo + 1e-3)):
            break
    assert best is not None
    psi = _newton_polish(m2ll, np.array(best.x, dtype=np.float64), lo, hi)
    free = psi > lo + 1e-3
    theta = np.exp(psi)
    _, s11, s1y = _reml_terms(tree, theta)
    var_mean = 1.0 / s11
    df = _satterthwaite(tree, psi, free, var_mean, m2ll, top_units)
    names = tree.levels
    comps = {name: (0.0 if not f else float(t)) for name, t, f in zip(names, theta, free)}
    zero = tuple(name for name, f in zip(names, free) if not f)
    n = int(tree.m.sum())
    return MixedFit(s1y / s11, var_mean, df, comps, zero, top_units, n)


def _newton_polish(m2ll, psi: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """A few Newton steps on the free log variances (those off the lower bound): the
    optimum to rounding, where L-BFGS-B stops a little short of it."""
    for _ in range(4):
        idx = np.flatnonzero(psi > lo + 1e-3)
        if idx.size == 0:
            break
        base = psi.copy()

        def sub(x, idx=idx, base=base):
            full = base.copy()
            full[idx] = x
            return m2ll(full)

        g = _grad(sub, psi[idx], 1e-5)
        H = _hessian(sub, psi[idx], 1e-3)
        if np.any(np.linalg.eigvalsh(H) <= 0):  # not a minimum: leave it to L-BFGS-B
            break
        step = np.linalg.solve(H, g)
        trial = psi.copy()
        trial[idx] = np.clip(psi[idx] - step, lo, hi)
        if not m2ll(trial) <= m2ll(psi) + 1e-12:
            break
        psi = trial
        if np.max(np.abs(step)) < 1e-10:
            break
    return psi


def _satterthwaite(tree: _Tree, psi: np.ndarray, free: np.ndarray, var_mean: float,
                   m2ll, top_units: int) -> float:
    """Satterthwaite's degrees of freedom of ``Var(mu)`` (free log variances only), at
    most the top level's ``n - 1``: the mean rests on the top-level units, also when a
    component lands on zero and Satterthwaite takes it as known (R8, 2026-11-29)."""
    idx = np.flatnonzero(free)
    cap = max(top_units - 1.0, 1.0)
    if idx.size == 0:
        return cap

    def at(x, f):
        full = psi.copy()
        full[idx] = x
        return f(full)

    H = _hessian(lambda x: at(x, m2ll), psi[idx], 1e-3)  # of -2 loglik: twice the information
    g = _grad(lambda x: at(x, lambda q: 1.0 / _reml_terms(tree, np.exp(q))[1]), psi[idx], 1e-5)
    A = 2.0 * np.linalg.pinv(H)
    denom = float(g @ A @ g)
    if not denom > 0:
        return cap
    return float(min(max(2.0 * var_mean * var_mean / denom, 1.0), cap))


def _logs(values, what: str = "the data") -> np.ndarray:
    y = np.asarray(values, dtype=np.float64)
    if not np.all(np.isfinite(y)):
        raise DesignError(f"{what}: {int(np.count_nonzero(~np.isfinite(y)))} value(s) are NaN "
                          "or infinite")
    bad = int(np.count_nonzero(y <= 0))
    if bad:
        raise EsizeError(f"the mixed model takes logarithms of times, but {what} hold(s) "
                         f"{bad} value(s) that are zero or negative")
    return np.log(y)


def _standardise(z: np.ndarray) -> tuple[float, float]:
    c = float(z.mean())
    s = float(z.std())
    return c, s


def _constant_fit(c: float, levels: tuple, top_units: int, n: int) -> MixedFit:
    """All values equal: every variance 0, the mean known exactly."""
    return MixedFit(c, 0.0, max(1.0, top_units - 1.0), {name: 0.0 for name in levels},
                    tuple(levels), top_units, n)


def _unscale(fit: MixedFit, c: float, s: float) -> MixedFit:
    s2 = s * s
    return MixedFit(c + s * fit.mean, fit.var_mean * s2, fit.df,
                    {k: v * s2 for k, v in fit.components.items()}, fit.zero, fit.top_units,
                    fit.n)


def mixed_fit(design) -> MixedFit:
    """The REML fit of a balanced design's log times (see the module's text).

    Levels with a single unit in every group (below the highest) are merged into the
    level below them: their variance cannot be told from it.

    Parameters
    ----------
    design : Design or array_like
        Positive times, highest level on axis 0, two or more top-level units.

    Raises
    ------
    EsizeError
        A value that is zero or negative (:class:`DesignError` for a single top-level
        unit).

    Examples
    --------
    Three forks of two iterations: the closed form ``S_2^2 / n`` of the logs, ``n - 1``
    degrees of freedom:

    >>> import numpy as np
    >>> import esize as ez
    >>> from esize._mixed import mixed_fit
    >>> d = ez.Design([[10, 11], [12, 13], [11, 12]], ("fork", "iteration"))
    >>> fit = mixed_fit(d)
    >>> logs = np.log(d.data)
    >>> bool(np.isclose(fit.var_mean, logs.mean(axis=1).var(ddof=1) / 3)), round(fit.df, 6)
    (True, 2.0)
    """
    if isinstance(design, Design):
        data, levels = design.data, design.levels
    else:
        data = np.asarray(design, dtype=np.float64)
        levels = tuple(f"level{k}" for k in range(data.ndim))
    z = _logs(data)
    if z.ndim == 0 or z.size == 0:
        raise DesignError("the mixed model needs at least one level of measurements")
    if z.shape[0] < 2:
        raise DesignError(
            f"the mixed model needs two or more top-level units ({levels[0]}), got "
            f"{z.shape[0]}")
    keep = [0] + [k for k in range(1, z.ndim) if z.shape[k] > 1]
    if len(keep) < z.ndim:  # a level of one unit per group: merged into the one below
        z = z.reshape([z.shape[k] for k in keep])
        levels = tuple(levels[k] for k in keep)
    c, s = _standardise(z)
    top = int(z.shape[0])
    if not s > 1e-12 * max(1.0, abs(c)):
        return _constant_fit(c, levels, top, int(z.size))
    zs = (z - c) / s
    tree = _tree_from_array(zs, levels)
    from ._estimators import s2 as _s2
    from ._estimators import t2 as _t2

    start = _t2(_s2(zs), zs.shape) if zs.ndim > 1 else np.array([1.0])
    return _unscale(_fit_tree(tree, np.asarray(start, dtype=float), top), c, s)


def reml_fit(values, groups=(), *, levels=None) -> MixedFit:
    """The REML fit of log times of any nested design, balanced or not.

    Parameters
    ----------
    values : array_like
        Positive times, one per measurement.
    groups : sequence of array_like
        One label array per grouping level, highest first, each as long as
        ``values``; a unit is its label within its parent (so "0" of one fork and "0"
        of another are two units). Empty: the values are independent.
    levels : sequence of str, optional
        Names of the grouping levels and then the measurements' level (one more than
        ``groups``); default ``level0``, ``level1``, ...

    Raises
    ------
    EsizeError
        A value that is zero or negative, labels of the wrong length, or a single
        top-level unit (:class:`DesignError`).

    Examples
    --------
    Two processes of three iterations and one of two:

    >>> from esize._mixed import reml_fit
    >>> fit = reml_fit([10, 11, 12, 14, 15, 16, 11, 12], [[0, 0, 0, 1, 1, 1, 2, 2]],
    ...                levels=("process", "iteration"))
    >>> fit.top_units, fit.n, fit.zero, round(fit.df, 3)
    (3, 8, (), 2.0)
    """
    z = _logs(values).reshape(-1)
    groups = [np.asarray(g).reshape(-1) for g in groups]
    if levels is None:
        levels = tuple(f"level{k}" for k in range(len(groups) + 1))
    levels = tuple(str(x) for x in levels)
    if len(levels) != len(groups) + 1:
        raise DesignError(f"{len(levels)} level names for {len(groups)} grouping level(s) "
                          "and the measurements")
    if z.size < 2:
        raise DesignError("the mixed model needs two or more values")
    for k, g in enumerate(groups):
        if g.size != z.size:
            raise DesignError(f"level {levels[k]!r} has {g.size} labels for {z.size} values")
    top = int(np.unique(groups[0]).size) if groups else int(z.size)
    if top < 2:
        raise DesignError(f"the mixed model needs two or more top-level units ({levels[0]}), "
                          f"got {top}")
    c, s = _standardise(z)
    if not s > 1e-12 * max(1.0, abs(c)):
        return _constant_fit(c, levels, top, int(z.size))
    zs = (z - c) / s
    tree = _tree_from_groups(zs, groups, levels)
    for k in range(1, tree.n_groups):
        if tree.sizes[k] == tree.sizes[k - 1]:
            raise DesignError(f"level {levels[k]!r} has a single unit in every group: its "
                              "variance cannot be told from the level below; drop it")
    if tree.n_groups and tree.m.sum() == tree.sizes[-1]:
        raise DesignError(f"level {levels[-2]!r} has a single measurement in every unit: its "
                          "variance cannot be told from the measurements'; drop it")
    start = np.full(tree.n_groups + 1, 1.0 / (tree.n_groups + 1))
    return _unscale(_fit_tree(tree, start, top), c, s)


def mixed_ratio_ci(old, new, *, alpha: float = 0.05, normal: bool = False) -> Interval:
    r"""The ratio of geometric means new/old from a REML mixed model of log times.

    Each system is fitted on its own (:func:`mixed_fit`; the module's text gives the
    model), and

    .. math::

        \exp\Bigl(\hat\mu_{new} - \hat\mu_{old}
            \pm t_{\nu}\sqrt{\operatorname{Var}(\hat\mu_{old})
                              + \operatorname{Var}(\hat\mu_{new})}\Bigr).

    The degrees of freedom :math:`\nu` follow :func:`esize.ratio_df_rule`: the
    Welch-Satterthwaite combination of both sides' variances with each side's own
    Satterthwaite df, and the same combination with either side's variance at its
    one-sided 85 % upper limit (:data:`esize._ratio_df.DF_QUANTILE`), the smallest of
    the three. Welch's value alone is too liberal where a side of few units happens to
    vary little, which is what the package's rule for Fieller's interval was built
    against; on the log scale the variances are already relative, so the rule carries
    over with :math:`n - 1` replaced by each side's df.

    :class:`~esize.Design` is balanced; for unequal counts give a :class:`MixedFit`
    of :func:`reml_fit` as ``old`` or ``new``.

    Parameters
    ----------
    old, new : Design, array_like or MixedFit
        Positive times, highest level on axis 0, two or more top-level units each.
    alpha : float, default 0.05
        One minus the confidence level.
    normal : bool, default False
        The normal quantile instead of Student's t.

    Returns
    -------
    Interval
        Method ``"mixed-t"`` (``"mixed-normal"``), the estimate the ratio of the
        geometric means :math:`\exp(\hat\mu_{new} - \hat\mu_{old})`; ``extra`` holds
        ``estimand`` (``"ratio of geometric means"``), ``df`` (None with ``normal``),
        ``df_welch``, ``df_side``, ``p_value`` (of ratio 1) and, under ``old`` and
        ``new``, each side's fit (:meth:`MixedFit.as_dict`: REML variance components,
        their zeros, ``var_mean`` and its df).

    Raises
    ------
    EsizeError
        A time that is zero or negative, ``alpha`` outside (0, 1);
        :class:`DesignError` for a system of a single top-level unit.

    Examples
    --------
    >>> import esize as ez
    >>> levels = ("execution", "measurement")
    >>> old = ez.Design([[10, 11, 12], [12, 13, 14], [11, 12, 13], [13, 14, 15]], levels)
    >>> new = ez.Design([[9, 10, 11], [10, 11, 12], [9, 10, 11], [11, 12, 13]], levels)
    >>> ci = ez.mixed_ratio_ci(old, new)
    >>> round(ci.estimate, 4), ci.method, ci.lower < 1 < ci.upper
    (0.8603, 'mixed-t', True)
    >>> ci.extra["estimand"], round(ci.extra["old"]["df"], 6), round(ci.extra["df_welch"], 2)
    ('ratio of geometric means', 3.0, 5.84)
    >>> ci.extra["df"] <= ci.extra["df_welch"]  # lowered as ratio_df_rule lowers Welch's
    True
    """
    alpha = _check_alpha(alpha)
    fo = old if isinstance(old, MixedFit) else mixed_fit(old)
    fn = new if isinstance(new, MixedFit) else mixed_fit(new)
    d = fn.mean - fo.mean
    var = fo.var_mean + fn.var_mean
    rule = df_rule(fo.var_mean, fo.df, fn.var_mean, fn.df)  # ratio_df_rule's, per side's df
    df = rule.df
    q = critical_value(alpha, None if normal else max(df, 1.0))
    half = q * math.sqrt(var)
    with np.errstate(over="ignore"):
        est, lo, hi = (float(np.exp(x)) for x in (d, d - half, d + half))
    if var > 0:
        stat = abs(d) / math.sqrt(var)
        from scipy import special

        p = float(special.erfc(stat / math.sqrt(2.0))) if normal else float(
            2.0 * special.stdtr(max(df, 1.0), -stat))
    else:
        p = 1.0 if d == 0 else 0.0
    extra = {"estimand": ESTIMAND, "df": None if normal else df, "df_welch": rule.welch,
             "df_side": rule.side, "p_value": min(1.0, p), "old": fo.as_dict(), "new": fn.as_dict()}
    return Interval(est, lo, hi, alpha, "mixed-normal" if normal else "mixed-t",
                    bool(math.isfinite(lo) and math.isfinite(hi) and hi > 0), extra=extra)
