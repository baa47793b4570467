"""What every reader shares: loading JSON once, checking numbers, and turning nested,
possibly ragged groups of measurements into a balanced :class:`~esize.Design`.

Nothing here computes statistics. Problems become :class:`~esize.InputError` naming
the file and, where there is one, the benchmark; notes (what ``--balance truncate``
dropped) are :class:`~esize.EsizeWarning` warnings.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .._design import Design
from .._errors import DesignError, EsizeError, EsizeWarning, InputError
from .._sizes import parse_size, size_text

# Words and checks of parsed JSON (_checks), files (_files) and ragged data made
# balanced (_balance) live in modules of their own; every name is still here.
from ._balance import (
    BALANCE_MODES,
    check_balance_mode,
    design_from_ragged,
    size_histogram,
    truncation_note,
)
from ._checks import mapping, need, number, numbers, plural, prefix, shown, where_text
from ._files import (
    DEFAULT_MAX_INPUT_BYTES,
    MAX_INPUT_ENV,
    check_file,
    decode_text,
    gunzip,
    is_gzip,
    max_input_bytes,
    nul_problem,
    open_text,
    os_reason,
    parse_json,
    read_bytes,
    too_big,
)
from .units import UnitInfo

__all__ = [
    "BALANCE_MODES",
    "Benchmark",
    "plural",
    "prefix",
    "where_text",
    "need",
    "mapping",
    "shown",
    "number",
    "numbers",
    "check_file",
    "DEFAULT_MAX_INPUT_BYTES",
    "MAX_INPUT_ENV",
    "parse_size",
    "max_input_bytes",
    "size_text",
    "too_big",
    "os_reason",
    "is_gzip",
    "open_text",
    "read_bytes",
    "parse_json",
    "decode_text",
    "gunzip",
    "nul_problem",
    "check_balance_mode",
    "size_histogram",
    "truncation_note",
    "design_from_ragged",
    "check_positive",
    "subnormal_problem",
    "trim",
    "finish",
    "Benchmarks",
    "with_names",
    "drop_warmup",
    "single_unit_caveat",
    "one_process_caveat",
    "drop_single_top",
]


@dataclass(frozen=True)
class Benchmark:
    """One benchmark read from a file: its balanced design and its unit.

    It unpacks as ``design, unit``. ``caveats`` are what a reader of any result
    computed from it must know (empty when nothing needs saying), for example that
    the file holds a single fork, so that variation between forks is not observed;
    ``warmup`` describes the warm-up dropped (None when none was asked for);
    ``series`` keeps, with ``warmup="auto"``, every lowest-level group's values
    before the warm-up was cut (one row per group), for a figure. ``unobserved`` lists
    the levels of which the file held a single unit (per
    parent), which are not in ``design``, as ``(level, parent)`` pairs (``parent``
    None for a highest level).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.readers import Benchmark, unit_info
    >>> b = Benchmark(ez.Design([[1.0, 2.0], [3.0, 4.0]], ("fork", "iteration")),
    ...               unit_info("ms"))
    >>> design, unit = b
    >>> design.shape, unit.unit, b.caveats, b.warmup
    ((2, 2), 'ms', (), None)
    """

    design: Design
    unit: UnitInfo
    caveats: tuple = ()
    warmup: dict | None = None
    unobserved: tuple = ()
    series: np.ndarray | None = field(default=None, repr=False, compare=False)

    def __iter__(self):
        return iter((self.design, self.unit))


class Benchmarks(dict):
    """``{name: Benchmark}`` read from a file; ``names`` lists every benchmark the file
    holds, also those left out by ``only`` (for messages about a name not found)."""

    names: list = []


def with_names(read: dict, names) -> Benchmarks:
    out = Benchmarks(read)
    out.names = list(names)
    return out



# -- after balancing ----------------------------------------------------------------------
#: Largest ratio of the largest to the smallest value of one benchmark's system: beyond
#: it (about 1e307) the smallest value is no longer a normal double once the values
#: are brought to the largest one's scale, so no mean or variance of them can be
#: computed in full precision.
MAX_SPAN = 2.0**1020


def subnormal_problem(values: np.ndarray) -> tuple[int, str] | None:
    """The first value too small to compute with, and what to do; or None.

    ``values`` are positive and finite. A value below about 2.2e-308 is stored with
    fewer significant digits than the others (1e-320 keeps about three): it lost
    precision when it was read, and computing with it would give numbers that look
    exact but are not. Another unit cures it. So does nothing cure values spanning
    more than :data:`MAX_SPAN` (307 orders of magnitude): one of them is wrong.

    Returns
    -------
    (int, str) or None
        Flat index of the first such value and the message.
    """
    tiny = np.finfo(np.float64).tiny
    flat = values.ravel()
    small = np.flatnonzero(flat < tiny)
    if small.size:
        return int(small[0]), (
            f"{small.size} value(s) below {tiny:.3g}, the smallest normal double, which "
            "cannot be computed with in full precision; record the values in a smaller "
            "unit (larger numbers)"
        )
    if flat.size and flat.max() / flat.min() > MAX_SPAN:
        k = int(np.argmin(flat))
        return k, (
            f"the values span more than 307 orders of magnitude (from {flat.min():.3g} to "
            f"{flat.max():.3g}), beyond what a double can hold side by side; a value in the "
            "wrong unit, or a corrupt one"
        )
    return None


def check_positive(design: Design, source, benchmark, value_name: str = "value") -> None:
    """InputError naming the first non-positive measurement, or the first one too small
    to compute with (:func:`subnormal_problem`), if there is one."""

    def at(k: int) -> str:
        idx = np.unravel_index(k, design.shape)
        where = where_text(design.levels[:-1], [int(i) + 1 for i in idx[:-1]])
        first = f"{design.levels[-1]} {int(idx[-1]) + 1}"
        return f"first at {where}, {first}" if where else f"first at {first}"

    bad = np.flatnonzero(design.data.ravel() <= 0)
    if bad.size:
        raise InputError(
            source,
            f"{prefix(benchmark)}{bad.size} non-positive {plural(value_name, bad.size)} "
            f"({at(int(bad[0]))}); times and rates must be positive",
        )
    problem = subnormal_problem(design.data)
    if problem is not None:
        k, why = problem
        raise InputError(source, f"{prefix(benchmark)}{why} ({at(k)})")


def trim(design: Design, source, benchmark, warmup: int) -> Design:
    """The design without its first ``warmup`` measurements per lowest-level group.

    Examples
    --------
    >>> import esize as ez
    >>> from esize.readers import trim
    >>> d = ez.Design([[5.0, 2.0, 2.1], [6.0, 2.2, 2.0]], ("process", "value"))
    >>> trim(d, "run.json", "sort", 1).data.tolist()
    [[2.0, 2.1], [2.2, 2.0]]
    >>> try:
    ...     trim(d, "run.json", "sort", 3)
    ... except ez.InputError as exc:
    ...     print(exc)
    run.json: benchmark 'sort': warm-up of 3 leaves no measurements (each value group has 3)
    """
    try:
        return design.trim(warmup)
    except DesignError as exc:
        raise InputError(source, f"{prefix(benchmark)}{exc}") from None


def finish(design: Design, source, benchmark, warmup: int | str,
           lower_is_better: bool = True) -> tuple:
    """Check positivity, then drop the warm-up (:func:`drop_warmup`)."""
    check_positive(design, source, benchmark)
    return drop_warmup(design, source, benchmark, warmup, lower_is_better)


def _group_name(design: Design) -> str:
    return design.levels[-2] if design.n_levels > 1 else "series"


def drop_warmup(design: Design, source, benchmark, warmup: int | str,
                lower_is_better: bool = True) -> tuple:
    """Drop the warm-up of every lowest-level group: a fixed number of values, or
    (``"auto"``) what changepoint detection finds (:func:`esize._warmup.auto_warmup`).

    Every lowest-level group (a process's values, a fork's iterations; the whole
    series of a one-level file) is one in-process series. With ``"auto"`` each keeps
    its last ``kept`` values so that the design stays balanced (the balancing rule of
    :func:`esize._warmup.auto_warmup`); groups with no steady state or a shorter one
    than ``kept``, and more than a quarter of the values dropped, become caveats.

    Returns
    -------
    (Design, dict or None, tuple of str, ndarray or None)
        The design, what was dropped (``{"mode": "fixed", ...}`` or the auto report's
        :meth:`~esize._warmup.WarmupReport.as_dict`; None for ``warmup=0``), the
        caveats (groups that reach no steady state), and with ``"auto"`` the groups'
        values before the cut (one row per group).

    Examples
    --------
    >>> import esize as ez
    >>> from esize.readers import drop_warmup
    >>> d = ez.Design([[5.0, 2.0, 2.1], [6.0, 2.2, 2.0]], ("process", "value"))
    >>> design, info, caveats, series = drop_warmup(d, "run.json", "sort", 1)
    >>> design.data.tolist(), info
    ([[2.0, 2.1], [2.2, 2.0]], {'mode': 'fixed', 'per_group': 1, 'dropped': 2})

    Three values per process are too few to look for a warm-up; the design stays
    and a caveat says why:

    >>> design, info, caveats, series = drop_warmup(d, "run.json", "sort", "auto")
    >>> design is d, info["dropped"], caveats[0]
    (True, 0, 'warm-up not checked (--warmup auto): 3 values per process are too few to detect a warm-up (at least 8 are needed)')
    """
    if warmup != "auto":
        k = int(warmup)
        if k == 0:
            return design, None, (), None
        out = trim(design, source, benchmark, k)
        groups = math.prod(design.shape[:-1])
        return out, {"mode": "fixed", "per_group": k, "dropped": k * groups}, (), None
    from .._warmup import CLASSES, MIN_VALUES, auto_warmup

    rows = design.data.reshape(-1, design.shape[-1])
    if rows.shape[1] < MIN_VALUES:  # e.g. pyperf's 3 values, after its own warm-up
        group = _group_name(design)
        reason = (f"{rows.shape[1]} values per {group} are too few to detect a warm-up "
                  f"(at least {MIN_VALUES} are needed)")
        info = {"mode": "auto", "dropped": 0, "classes": dict.fromkeys(CLASSES, 0),
                "kept": rows.shape[1], "not_checked": reason}
        return design, info, (f"warm-up not checked (--warmup auto): {reason}",), None
    try:
        with warnings.catch_warnings():  # the share dropped becomes a caveat below
            warnings.simplefilter("ignore", EsizeWarning)
            report = auto_warmup(rows, lower_is_better=lower_is_better)
    except EsizeError as exc:
        raise InputError(source, f"{prefix(benchmark)}--warmup auto: {exc}") from None
    data = np.array(report.trimmed).reshape(*design.shape[:-1], report.kept)
    info = report.as_dict()
    caveats = []
    group = _group_name(design)
    n = rows.shape[0]
    if report.no_steady_state:
        k = len(report.no_steady_state)
        caveats.append(
            f"{k} of {n} {plural(group, n)} reached no steady state (--warmup auto): "
            f"their last {report.kept} values are kept, but they may still be changing"
        )
    if report.short_steady_state:
        k = len(report.short_steady_state)
        caveats.append(
            f"{k} of {n} {plural(group, n)} settled later than most "
            f"(--warmup auto): their last {report.kept} values are kept, reaching back "
            f"before their cut"
        )
    if report.warning:
        caveats.append(f"--warmup auto: {report.warning}")
    return Design(data, design.levels), info, tuple(caveats), rows


# -- one unit at the top ------------------------------------------------------------------
#: Units of a level that a caveat recommends measuring when a file holds one.
RECOMMENDED_UNITS = 5


def single_unit_caveat(level: str, option: str | None = None, how: str | None = None) -> str:
    """The caveat of a file holding a single unit of ``level`` (one fork, one process).

    ``option`` is the harness option that sets the count (``-f``, ``--processes``,
    ``--benchmark_repetitions=``), None for a tidy table; ``how``, when given, says
    how to observe the level instead (a harness with no option for it).
    """
    many = plural(level)
    if how is None:
        sep = "" if option is None or option.endswith("=") else " "
        how = (f"run with {option}{sep}{RECOMMENDED_UNITS} or more to observe it" if option
               else f"measure {RECOMMENDED_UNITS} or more {many} to observe it")
    return (
        f"a single {level}: variation between {many} is not observed, so the interval "
        f"is too narrow if {many} differ; {how}"
    )


def one_process_caveat(level: str) -> str:
    """The caveat of a format whose file always holds one process (Google Benchmark
    repetitions, pytest-benchmark rounds, criterion and Julia samples): every ``level``
    unit of a benchmark was measured in the one run of the harness.

    Examples
    --------
    >>> from esize.readers import one_process_caveat
    >>> print(one_process_caveat("repetition"))
    a single process: every repetition ran in one process, so variation between processes is not observed and the interval is too narrow if processes differ; run the harness 5 or more times and compare the runs as one tidy table with a process column
    """
    return (
        f"a single process: every {level} ran in one process, so variation between "
        "processes is not observed and the interval is too narrow if processes differ; "
        f"run the harness {RECOMMENDED_UNITS} or more times and compare the runs as one "
        "tidy table with a process column"
    )


def drop_single_top(
    design: Design, source, benchmark, options: Mapping[str, str] | None = None,
    advice: Mapping[str, str] | None = None,
) -> tuple[Design, tuple[str, ...], tuple[tuple[str, str | None], ...]]:
    """Analyse a design whose highest level holds one unit with the level below as its top.

    A JMH file of one fork, a pyperf file of one process: the variation between
    forks or processes is not observed, but the measurements within the one unit
    still say something. Every highest level with a single unit is dropped (its
    unit's children become the top-level units), and a caveat says what is not
    observed and, where ``options`` (level -> harness option) knows it, how to
    observe it (``advice``, level -> words, where no option does). A lower level
    with a single unit in every parent (processes of one
    value each) is dropped too, without a caveat: the level above holds it whole.

    Returns
    -------
    (Design, tuple of str, tuple of str)
        The design, unchanged when every level has two or more units, the
        caveats (one per highest level dropped), and the levels dropped as
        ``(level, parent)`` pairs, ``parent`` None for a highest level.

    Raises
    ------
    InputError
        A single measurement in all: nothing varies, nothing can be said.

    Examples
    --------
    One JMH fork of four iterations: the iterations become the top level.

    >>> import esize as ez
    >>> from esize.readers import drop_single_top
    >>> one_fork = ez.Design([[1.0, 1.1, 0.9, 1.0]], ("fork", "iteration"))
    >>> design, caveats, dropped = drop_single_top(one_fork, "jmh.json", "sort", {"fork": "-f"})
    >>> design.levels, design.shape, dropped
    (('iteration',), (4,), (('fork', None),))
    >>> print(caveats[0])
    a single fork: variation between forks is not observed, so the interval is too narrow if forks differ; run with -f 5 or more to observe it
    """
    options = options or {}
    caveats: list[str] = []
    dropped: list[tuple[str, str | None]] = []
    while design.n_levels > 1 and design.shape[0] == 1:
        level = design.levels[0]
        dropped.append((level, None))
        caveats.append(single_unit_caveat(level, options.get(level), (advice or {}).get(level)))
        design = Design(design.data[0], design.levels[1:])
    # a lower level with one unit in every parent (pyperf processes of one value each)
    # adds nothing to separate: the level above holds it whole, and the interval
    # stays right; only a plan cannot say how many of it to measure
    while design.n_levels > 1 and 1 in design.shape[1:]:
        k = design.shape.index(1, 1)
        dropped.append((design.levels[k], design.levels[k - 1]))
        design = Design(design.data.reshape(design.shape[:k] + design.shape[k + 1:]),
                        design.levels[:k] + design.levels[k + 1:])
    if design.shape[0] < 2:
        level = design.levels[0]
        hint = options.get(level)
        how = (f" (run with {hint}{'' if hint.endswith('=') else ' '}{RECOMMENDED_UNITS} or more)"
               if hint else "")
        raise InputError(
            source,
            f"{prefix(benchmark)}a single measurement in all; at least 2 are needed, "
            f"better {RECOMMENDED_UNITS} or more {plural(level)}{how}",
        )
    return design, tuple(caveats), tuple(dropped)


def keep_replicated(designs: dict, source, options: Mapping[str, str] | None = None) -> dict:
    """Leave out, with a note, the benchmarks of a file that hold a single measurement,
    as long as another one holds more.

    ``designs`` maps names to designs (after the warm-up is dropped). A Google
    Benchmark file run without repetitions, say, gives one value per benchmark:
    nothing in it varies, so it is an error naming how many benchmarks that concerns
    (:func:`drop_single_top` words it); a file where only some benchmarks have a
    single measurement keeps the others.
    """
    single = [n for n, d in designs.items() if d.data.size == 1]
    if not single or len(single) == len(designs):
        if single and len(single) > 1:
            name = single[0]
            try:
                drop_single_top(designs[name], source, name, options)
            except InputError as exc:
                text = str(exc).removeprefix(f"{source}: ").removeprefix(prefix(name))
                raise InputError(
                    source, f"every benchmark ({len(single)}: {_few(single)}) holds {text}"
                ) from None
        return designs
    warnings.warn(
        f"{source}: {len(single)} {plural('benchmark', len(single))} with a single "
        f"measurement left out: {_few(single)}",
        EsizeWarning,
        stacklevel=2,
    )
    return {n: d for n, d in designs.items() if d.data.size != 1}


def _few(names, limit: int = 8) -> str:
    shown = ", ".join(map(str, names[:limit]))
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")

