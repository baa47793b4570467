"""``esize summary``: per-level variation and a confidence interval for the mean.

For every benchmark of a file: the variance estimates of each level (Section
"Estimating Unknown Variances": the biased per-level variances :math:`S_i^2` and the
unbiased estimates :math:`T_i^2` of the model's variances) and the t (or normal)
interval for the mean of the hierarchical design (Section "Confidence Interval for
the Mean").

A benchmark of a single measurement (a file run without repetitions, read by
:mod:`esize.readers.single`) is shown as its value, without interval or variance.

Percentages and intervals do not depend on the unit of measure. A variance beyond
the range of floats (the square of data near 1e-300 or 1e300) is ``null`` in the
JSON output, and written out from its scaled value in the text.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from .._errors import InputError
from .._estimators import VarianceComponents, variance_components
from .._intervals import Interval, mean_ci
from ..readers.single import is_single
from ..readers.units import UnitInfo
from ..text import Column, file_line, format_table, num, unit_text, warmup_text
from ._shared import read_input, require_replication, save_plot, select

__all__ = ["SummaryRow", "SummaryResult", "summarize", "cmd_summary"]

_LEVEL_TABLE = (
    Column("level", 14),
    Column("n", 6, ">"),
    Column("S2", 14, ">", ".6g"),
    Column("T2", 14, ">", ".6g"),
    Column("S %", 9, ">", ".3f"),
    Column("T %", 9, ">", ".3f"),
)


@dataclass(frozen=True)
class SummaryRow:
    """The summary of one benchmark.

    Attributes
    ----------
    name : str or None
        The benchmark (None for a tidy table read as one design).
    unit : UnitInfo
        Unit of the values and their direction.
    counts : dict
        Level name -> number of units per parent, highest level first.
    ci : Interval or None
        Interval for the mean; None for a benchmark of a single measurement
        (:mod:`esize.readers.single`), of which ``value`` is shown instead.
    variance : VarianceComponents or None
        Per-level variance estimates; None for a single measurement.
    caveats : tuple of str
        What to know before trusting the interval (for example that a single fork
        was measured); empty when nothing needs saying.
    warmup : dict or None
        The warm-up dropped (``--warmup``), as in the JSON output.
    series, group
        With ``--warmup auto``: every group's values before the cut (for the
        figure), and what a group is (``process``, ``fork``, ...).

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.summary import summarize
    >>> old = str(Path(esize.__file__).parents[2] / "examples" / "old.csv")  # in the repository
    >>> row = summarize(build_parser().parse_args(["summary", old])).rows[0]
    >>> row.name, row.counts, round(row.ci.lower, 3), round(row.ci.upper, 3)
    (None, {'binary': 3, 'execution': 2, 'measurement': 2}, 4.511, 16.489)
    >>> row.variance.T2.round(4).tolist()
    [2.3542, 2.3333, 9.1667]
    """

    name: str | None
    unit: UnitInfo
    counts: dict
    ci: Interval | None
    variance: VarianceComponents | None
    caveats: tuple = ()
    warmup: dict | None = None
    series: object = field(default=None, repr=False, compare=False)
    group: str = "process"
    value: float | None = None

    @property
    def levels(self) -> list[str]:
        return list(self.counts)

    def _single_json(self) -> dict:
        return {"name": self.name, **self.unit.as_dict(), "levels": self.levels,
                "counts": dict(self.counts), "mean": self.value, "ci": None,
                "variance": None, "caveats": list(self.caveats)}

    def _single_lines(self) -> list[str]:
        lines = [] if self.name is None else [
            f"benchmark   {self.name}   {unit_text(self.unit)}".rstrip()]
        level = self.levels[-1]
        return lines + [f"design      {level}: 1 (1 measurement)",
                        f"value       {self.value:.6g}"] + [
            f"caveat      {c}" for c in self.caveats]

    def to_json(self) -> dict:
        """JSON-ready dictionary (name, unit, levels, counts, mean, ci, variance,
        caveats, and warmup when it was asked for); a single measurement has its value
        as ``mean`` and null ``ci`` and ``variance``."""
        if self.ci is None:
            return self._single_json()
        ci = self.ci
        out = {
            "name": self.name,
            **self.unit.as_dict(),
            "levels": self.levels,
            "counts": dict(self.counts),
            "mean": ci.estimate,
            "ci": {"method": ci.method, "alpha": ci.alpha, "lower": num(ci.lower),
                   "upper": num(ci.upper)},
            "variance": _variance_json(cast(VarianceComponents, self.variance)),  # with ci
            "caveats": list(self.caveats),
        }
        if self.warmup is not None:
            out["warmup"] = self.warmup
        return out

    def render_lines(self) -> list[str]:
        """The benchmark's block of the text output."""
        if self.ci is None:
            return self._single_lines()
        ci, vc, counts = self.ci, cast(VarianceComponents, self.variance), self.counts
        conf = f"{100 * (1 - ci.alpha):g} %"
        size = math.prod(counts.values())
        lines = [] if self.name is None else [
            f"benchmark   {self.name}   {unit_text(self.unit)}".rstrip()
        ]
        lines += [
            f"design      {' > '.join(counts)}: {' x '.join(map(str, counts.values()))} "
            f"({size} measurements)",
            f"mean        {ci.estimate:.6g}",
            f"{conf} CI  [{ci.lower:.6g}, {ci.upper:.6g}]  ({ci.method}, "
            f"+-{_percent_text(100 * _relative_half_width(ci))} % of the mean)",
            "",
        ]
        rows = [
            (name, str(n), _variance_text(vc.S2[k], cast(np.ndarray, vc.S2_scaled)[k], vc.exponent),
             _variance_text(vc.T2[k], cast(np.ndarray, vc.T2_scaled)[k], vc.exponent),
             vc.S_pct[k], vc.T_pct[k])
            for k, (name, n) in enumerate(counts.items())
        ]
        lines += format_table(_LEVEL_TABLE, rows)
        if self.warmup is not None:
            lines.append(f"warm-up     {warmup_text(self.warmup)}")
        return lines + [f"caveat      {c}" for c in self.caveats]

    def plot_row(self) -> dict:
        """What :func:`esize.plots.summary_figure` draws of this benchmark."""
        return {
            "name": "data" if self.name is None else self.name,
            "levels": self.levels,
            "T_pct": [float(x) for x in cast(VarianceComponents, self.variance).T_pct],
            "T2": [float(x) for x in cast(VarianceComponents, self.variance).T2],
        }


def _percent_text(pct: float) -> str:
    """``.2f``, or ``.3g`` for a percentage too large to print in full (a tiny alpha)."""
    return f"{pct:.2f}" if abs(pct) < 1e6 else f"{pct:.3g}"


def _representable(value: float, scaled: float) -> bool:
    """Whether a variance in data units is the float it should be: not an overflow to
    inf, nor a non-zero value underflowed to 0 or to a subnormal with lost digits."""
    if scaled == 0.0:
        return True
    return math.isfinite(value) and abs(value) >= sys.float_info.min


def _variance_json(vc: VarianceComponents) -> dict:
    """``vc.as_dict()`` with the variances that are not floats as None."""
    out = {}
    for k, (level, values) in enumerate(vc.as_dict().items()):
        row = {key: num(v) for key, v in values.items()}
        s2, t2 = cast(np.ndarray, vc.S2_scaled), cast(np.ndarray, vc.T2_scaled)
        for key, scaled in (("S2", s2[k]), ("T2", t2[k])):
            if not _representable(values[key], scaled):
                row[key] = None
        out[level] = row
    return out


def _variance_text(value: float, scaled: float, exponent: int) -> str:
    """A variance for the table (``.6g``), written from ``scaled * 4**exponent`` when
    that is beyond the floats (it overflowed to inf or underflowed to 0)."""
    if _representable(value, scaled):
        return format(float(value), ".6g")
    # log10 of |scaled| * 2**(2 e), split into a mantissa and a decimal exponent
    log10 = math.log10(abs(scaled)) + 2 * exponent * math.log10(2.0)
    power = math.floor(log10)
    mantissa = math.copysign(10.0 ** (log10 - power), scaled)
    if abs(mantissa) >= 9.999995:  # rounds up to 10 at six digits
        mantissa, power = mantissa / 10.0, power + 1
    return f"{mantissa:.6g}e{power:+03d}"


@dataclass(frozen=True)
class SummaryResult:
    """``esize summary`` of one file.

    Attributes
    ----------
    file : str
        The file as given on the command line.
    format : str
        Its format (``"tidy"`` or a harness).
    rows : list of SummaryRow
        One per benchmark, in file order (or the order asked for).

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.summary import summarize
    >>> old = str(Path(esize.__file__).parents[2] / "examples" / "old.csv")  # in the repository
    >>> result = summarize(build_parser().parse_args(["summary", old]))
    >>> for line in result.render_text().splitlines()[1:4]:
    ...     print(line)
    design      binary > execution > measurement: 3 x 2 x 2 (12 measurements)
    mean        10.5
    95 % CI  [4.51096, 16.489]  (t, +-57.04 % of the mean)
    >>> doc = result.to_json()
    >>> doc["mean"], doc["ci"]["method"], len(doc["benchmarks"])
    (10.5, 't', 1)
    """

    file: str
    format: str
    rows: list = field(default_factory=list)

    def to_json(self) -> dict:
        """JSON-ready dictionary; a single benchmark's fields are repeated at the top."""
        benchmarks = [r.to_json() for r in self.rows]
        out: dict = {"file": self.file}
        if len(benchmarks) == 1:
            one = benchmarks[0]
            out.update({k: one[k] for k in ("levels", "counts", "mean", "ci", "variance",
                                            "caveats", "warmup") if k in one})
        out["benchmarks"] = benchmarks
        return out

    def render_text(self) -> str:
        """The table printed without ``--json``."""
        lines = [file_line(self.file, self.format)]
        for k, row in enumerate(self.rows):
            if k:
                lines.append("")
            lines += row.render_lines()
        return "\n".join(lines)


def summarize(args) -> SummaryResult:
    """Read the file of ``args.data`` and summarise every (selected) benchmark.

    Examples
    --------
    A 90 % interval for the mean:

    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.summary import summarize
    >>> old = str(Path(esize.__file__).parents[2] / "examples" / "old.csv")  # in the repository
    >>> result = summarize(build_parser().parse_args(["summary", old, "--alpha", "0.1"]))
    >>> ci = result.rows[0].ci
    >>> result.format, ci.estimate, round(ci.lower, 3), round(ci.upper, 3)
    ('tidy', 10.5, 6.436, 14.564)
    """
    fmt, benches = read_input(args.data, args, singles=True)
    benches = select(args.data, benches, args.benchmark)
    rows = []
    for name, bench in benches.items():
        design = bench.design
        if is_single(design):  # shown as it is, without interval or variance
            rows.append(SummaryRow(name=name, unit=bench.unit, counts=design.counts, ci=None,
                                   variance=None, caveats=bench.caveats,
                                   value=float(design.data.ravel()[0])))
            continue
        require_replication(args.data, name, design)
        rows.append(
            SummaryRow(
                name=name,
                unit=bench.unit,
                counts=design.counts,
                ci=mean_ci(design, alpha=args.alpha, normal=args.normal),
                variance=variance_components(design),
                caveats=bench.caveats,
                warmup=bench.warmup,
                series=bench.series,
                group=design.levels[-2] if design.n_levels > 1 else "series",
            )
        )
    return SummaryResult(args.data, fmt, rows)


def cmd_summary(args) -> SummaryResult:
    """``esize summary``: the result, and its figure drawn when ``--plot`` asks.

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.summary import cmd_summary
    >>> old = str(Path(esize.__file__).parents[2] / "examples" / "old.csv")  # in the repository
    >>> result = cmd_summary(build_parser().parse_args(["summary", old]))  # no --plot
    >>> ci = result.rows[0].ci
    >>> ci.method, ci.estimate, round(ci.lower, 3), round(ci.upper, 3)
    ('t', 10.5, 4.511, 16.489)
    """
    result = summarize(args)
    if args.plot:
        from ..plots import nameless_label, summary_figure, warmup_figure

        # a benchmark its file does not name is called after the file, not "data"
        label = nameless_label(args.data)
        one = result.rows[0] if len(result.rows) == 1 else None
        if one is not None and one.series is not None:  # --warmup auto, one benchmark
            fig = warmup_figure(label if one.name is None else one.name, one.series,
                                one.warmup, unit=one.unit.unit, group=one.group)
        else:
            rows = [r for r in result.rows if r.ci is not None]  # single values: no bars
            if not rows:
                raise InputError(args.data, "--plot: every benchmark holds a single "
                                 "measurement, which has no variance to draw")
            fig = summary_figure([{**r.plot_row(), "name": label} if r.name is None
                                  else r.plot_row() for r in rows])
        save_plot(args.plot, fig)
    return result


def _relative_half_width(ci) -> float:
    """Half-width over the mean, from the interval's own scale where it says it (a limit
    beyond the largest double does not make the relative width infinite)."""
    rel = ci.extra.get("relative_half_width") if ci.extra else None
    return rel if rel is not None else ci.half_width / ci.estimate
