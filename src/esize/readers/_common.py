"""What every reader shares: loading JSON once, checking numbers, and turning nested,
possibly ragged groups of measurements into a balanced :class:`~esize.Design`.

Nothing here computes statistics. Problems become :class:`~esize.InputError` naming
the file and, where there is one, the benchmark; notes (what ``--balance truncate``
dropped) are :class:`~esize.EsizeWarning` warnings.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import stat
import warnings
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._design import Design
from .._errors import DesignError, EsizeError, EsizeWarning, InputError
from .._sizes import parse_size, size_text
from ..io import file_kind
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
    "drop_single_top",
]

BALANCE_MODES = ("truncate",)


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


# -- words ------------------------------------------------------------------------------
def plural(word: str, n: int = 2) -> str:
    """English plural of a level name (``process`` -> ``processes``) unless ``n == 1``."""
    if n == 1:
        return word
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def prefix(benchmark) -> str:
    """``"benchmark 'name': "`` to start a message, or nothing for an unnamed one."""
    return "" if benchmark is None else f"benchmark {benchmark!r}: "


def where_text(levels: Sequence[str], path: Sequence) -> str:
    """``"fork 2, iteration 3"``: a unit named by its labels from the top."""
    return ", ".join(f"{levels[i]} {label}" for i, label in enumerate(path))


# -- checks of parsed JSON --------------------------------------------------------------
def need(cond: bool, source, message: str) -> None:
    """Raise ``InputError(source, message)`` unless ``cond``."""
    if not cond:
        raise InputError(source, message)


def mapping(x, source, what: str) -> dict:
    """``x`` if it is a JSON object, ``{}`` if it is absent, else an InputError."""
    if x is None:
        return {}
    need(isinstance(x, dict), source, f"{what} is not a JSON object")
    return x


_PLAIN_NUMBERS = {int, float}


def shown(x) -> str:
    """A short description of a JSON value for a message (never a deep walk of it)."""
    if isinstance(x, (list, dict)):
        return "a list" if isinstance(x, list) else "an object"
    return json.dumps(x)[:40]


def number(x, source, benchmark, where: str) -> float:
    """A finite float from a JSON value, or an InputError naming where it sits."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise InputError(source, f"{prefix(benchmark)}{where} holds {shown(x)}, not a number")
    try:
        v = float(x)
    except OverflowError:  # an integer beyond the range of a double
        v = math.inf
    if not math.isfinite(v):
        raise InputError(source, f"{prefix(benchmark)}{where} holds a NaN or infinite value")
    return v


def numbers(seq, source, benchmark, where: str) -> list[float]:
    """A JSON list of finite numbers, or an InputError naming the first bad entry."""
    if not isinstance(seq, list):
        raise InputError(
            source,
            f"{prefix(benchmark)}{where} should be a list of numbers, got {type(seq).__name__}",
        )
    # the usual case, checked at C speed: JSON numbers only (bool is not int here), finite
    if set(map(type, seq)) <= _PLAIN_NUMBERS:
        try:
            if all(map(math.isfinite, seq)):
                return list(map(float, seq))
        except OverflowError:  # an integer beyond the range of a double: named below
            pass
    return [number(x, source, benchmark, f"{where}, value {k}") for k, x in enumerate(seq, 1)]


# -- files ------------------------------------------------------------------------------
def os_reason(exc: OSError) -> str:
    """The operating system's reason for a failed file operation, for a message."""
    text = exc.strerror or str(exc) or type(exc).__name__
    return text[:1].lower() + text[1:]


#: Largest input file read by default (bytes): 4 GiB. ``ESIZE_MAX_INPUT_BYTES`` or the
#: command line's ``--max-input-size`` sets another limit.
DEFAULT_MAX_INPUT_BYTES = 4 << 30
MAX_INPUT_ENV = "ESIZE_MAX_INPUT_BYTES"
def max_input_bytes(limit: int | None = None) -> int:
    """The size limit of input files: ``limit`` if given, else ``ESIZE_MAX_INPUT_BYTES``
    from the environment, else :data:`DEFAULT_MAX_INPUT_BYTES`.

    Raises
    ------
    EsizeError
        The environment variable is not a size.
    """
    if limit is not None:
        return int(limit)
    text = os.environ.get(MAX_INPUT_ENV)
    if not text:
        return DEFAULT_MAX_INPUT_BYTES
    try:
        return parse_size(text)
    except ValueError as exc:
        raise EsizeError(f"{MAX_INPUT_ENV}: {exc}") from None


def too_big(p, size: float, limit: int, *, decompressed: bool = False) -> InputError:
    """The error of a file over the size limit (``size`` bytes, or once decompressed)."""
    what = (f"decompresses to more than {size_text(limit)}, the input size limit" if decompressed
            else f"is {size_text(size)}, more than the input size limit of {size_text(limit)}")
    return InputError(p, f"{what}; raise the limit with --max-input-size or {MAX_INPUT_ENV} "
                      "if the file is right")


def check_file(p: Path, max_bytes: int | None = None) -> None:
    """InputError unless ``p`` is an existing regular file (also through links) of at
    most :func:`max_input_bytes` bytes.

    A FIFO, a device (``/dev/zero``), a socket or a directory is refused at once,
    before it is opened: reading one could wait for ever or never end.
    """
    try:
        st = p.stat()
    except (FileNotFoundError, NotADirectoryError):
        raise InputError(p, "no such file") from None
    except OSError as exc:  # a name too long, a symlink loop, no permission ...
        raise InputError(p, f"cannot read: {os_reason(exc)}") from None
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        raise InputError(p, "is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise InputError(p, f"is {file_kind(mode)}; only regular files are read (save the "
                         "results to a file first)")
    limit = max_input_bytes(max_bytes)
    if st.st_size > limit:
        raise too_big(p, st.st_size, limit)


def is_gzip(p: Path) -> bool:
    """Whether the file starts with the gzip magic number."""
    with open(p, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def open_text(p: Path):
    """Open a UTF-8 text file (a byte-order mark is skipped) for reading, decompressing
    it if it is gzip."""
    if is_gzip(p):
        return gzip.open(p, "rt", encoding="utf-8-sig")
    return open(p, encoding="utf-8-sig")


def gunzip(raw: bytes, p, limit: int) -> bytes:
    """The gzip data ``raw`` of file ``p`` decompressed, at most ``limit`` bytes of it
    (a small file that unpacks to gigabytes is refused, not unpacked)."""
    out, size = [], 0
    try:
        while raw:
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)  # one gzip member
            while True:
                chunk = d.decompress(raw, 1 << 24)
                out.append(chunk)
                size += len(chunk)
                if size > limit:
                    raise too_big(p, size, limit, decompressed=True)
                raw = d.unconsumed_tail
                if d.eof or not raw:
                    break
            if not d.eof:
                raise EOFError("compressed file ended before the end-of-stream marker")
            raw = d.unused_data.lstrip(b"\x00")  # members may follow, and zero padding
    except (OSError, EOFError, zlib.error) as exc:
        detail = " ".join(str(exc).split())
        raise InputError(p, f"cannot read: corrupt or truncated gzip data ({detail})") from None
    return b"".join(out)


def nul_problem(raw: bytes, at: int, what: str, line: int = 1) -> str:
    """What to say of a NUL byte at offset ``at`` of ``raw``: the text of a file, or
    (``line`` > 1) a later part of it starting on that line. A file that starts like
    UTF-16 text is named as such."""
    head = raw[2:6] if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else raw[:4]
    pairs = (head[0::2], head[1::2])  # ASCII in UTF-16: every other byte is zero
    if line == 1 and len(head) == 4 and sorted(p == b"\x00\x00" for p in pairs) == [
            False, True] and b"\x00" not in pairs[pairs[0] == b"\x00\x00"]:
        return f"the file is UTF-16 text; save it as UTF-8 {what}"
    line += raw.count(b"\n", 0, at)
    return f"line {line} holds a NUL byte (binary data, not {what} text)"


def decode_text(raw: bytes, p: Path, max_bytes: int | None, what: str) -> str:
    """The UTF-8 text held by ``raw``, the bytes of file ``p`` (gzip or not), with a
    byte-order mark accepted; an :class:`~esize.InputError` naming the file for
    corrupt or oversized gzip data, a NUL byte (``what`` names the expected kind of
    text), bytes that are not UTF-8, or an empty file."""
    if raw[:2] == b"\x1f\x8b":
        raw = gunzip(raw, p, max_input_bytes(max_bytes))
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise InputError(p, f"cannot read: {nul_problem(raw, nul, what)}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            p, f"cannot read: not UTF-8 text (byte {exc.start + 1} of the file)"
        ) from None
    if not text.strip():
        raise InputError(p, "cannot read: the file is empty")
    return text


def parse_json(raw: bytes, p: Path, max_bytes: int | None = None):
    """The JSON document held by ``raw``, the bytes of file ``p`` (gzip or not).

    A UTF-8 byte-order mark is accepted, as it is in a CSV file. Every failure is an
    :class:`~esize.InputError` naming the file: corrupt gzip data, data that
    decompresses beyond :func:`max_input_bytes`, text that is not UTF-8, a NUL
    byte, an empty file, invalid JSON, or nesting too deep to parse.
    """
    text = decode_text(raw, p, max_bytes, "JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(p, f"not valid JSON ({exc.msg}, line {exc.lineno})") from None
    except ValueError:  # an integer literal of thousands of digits, beyond Python's limit
        raise InputError(
            p, "cannot read: the JSON holds an integer of thousands of digits"
        ) from None
    except RecursionError:
        raise InputError(
            p, "cannot read: the JSON is nested too deeply (lists or objects inside each "
            "other more than a few hundred levels)"
        ) from None


def read_bytes(p: Path) -> bytes:
    """The bytes of file ``p``, or an InputError."""
    try:
        return p.read_bytes()
    except IsADirectoryError:
        raise InputError(p, "is a directory, not a file") from None
    except OSError as exc:
        raise InputError(p, f"cannot read: {os_reason(exc)}") from None


# -- ragged nested data -> balanced design ------------------------------------------------
def check_balance_mode(balance, source) -> None:
    """InputError unless ``balance`` is None or one of :data:`BALANCE_MODES`."""
    if balance not in (None, *BALANCE_MODES):
        raise InputError(source, f"unknown --balance mode {balance!r}; use one of {BALANCE_MODES}")


def _items(node) -> list:
    if isinstance(node, dict):
        return list(node.items())
    return list(enumerate(node, 1))


def _count_leaves(items, depth_below: int) -> int:
    if depth_below == 0:
        return len(items)
    return sum(_count_leaves(_items(node), depth_below - 1) for _, node in items)


def truncation_note(source, benchmark, child, parent, lo, found, cut, dropped, lowest,
                    total: int | None = None) -> str:
    """The note of ``--balance truncate`` for one level; with ``total`` (the
    measurements before any cut) it says what share of the data was dropped."""
    share = ""
    if total:
        pct = 100.0 * dropped / total
        share = f": {pct:.3g} % of all {plural(lowest)}" + (
            ", so the result rests on a small part of the data" if pct >= 50 else "")
    return (
        f"{source}: {prefix(benchmark)}--balance truncate kept the first {lo} "
        f"{plural(child, lo)} of every {parent} ({found}; {cut} "
        f"{plural(parent, cut)} cut, {dropped} {plural(lowest, dropped)} dropped{share})"
    )


def size_histogram(counts, parent: str, child: str) -> str:
    """``"19 processes with 3 values, 1 process with 2 values"`` (largest groups first)."""
    hist = sorted(Counter(counts).items(), key=lambda kv: -kv[0])
    return ", ".join(f"{n} {plural(parent, n)} with {c} {plural(child, c)}" for c, n in hist)


def design_from_ragged(
    units,
    levels: Sequence[str],
    *,
    balance: str | None = None,
    source: str = "",
    benchmark: str | None = None,
) -> Design:
    """Build a balanced :class:`~esize.Design` from nested, possibly ragged groups.

    Parameters
    ----------
    units : list or dict
        The top-level units; each unit holds its children the same way, down to the
        measurements (numbers). A list names its children by 1-based position, a
        dict by its keys (used in messages).
    levels : sequence of str
        Level names, highest first; ``len(levels)`` is the nesting depth.
    balance : {None, "truncate"}
        What to do when groups differ in size: None raises, ``"truncate"`` keeps the
        first ``m`` children of every group (``m`` the smallest group at that level)
        and warns saying what was dropped.
    source, benchmark : str
        File and benchmark named in errors and warnings.

    Returns
    -------
    Design

    Raises
    ------
    InputError
        Unbalanced data without ``balance``, or a group with no children.

    Warns
    -----
    EsizeWarning
        One per level that ``balance="truncate"`` cut.
    """
    levels = tuple(levels)
    check_balance_mode(balance, source)
    if len(levels) == 2 and isinstance(units, list) and units:
        # the usual case (processes of values, forks of iterations): a list of
        # equally long lists of numbers is already the design
        n = len(units[0]) if isinstance(units[0], list) else 0
        if n and all(isinstance(u, list) and len(u) == n for u in units):
            try:
                data = np.asarray(units, dtype=np.float64)
            except (TypeError, ValueError):
                data = None  # not numbers: the general walk below names the problem
            if data is not None and data.shape == (len(units), n):
                try:
                    return Design(data, levels)
                except DesignError as exc:
                    raise InputError(source, f"{prefix(benchmark)}{exc}") from None
    frontier = [((), _items(units))]
    total = _count_leaves(frontier[0][1], len(levels) - 1)
    shape: list[int] = []
    for d, child in enumerate(levels):
        parent = levels[d - 1] if d > 0 else None
        counts = [len(items) for _, items in frontier]
        lo, hi = min(counts), max(counts)
        if lo == 0:
            path = next(p for p, items in frontier if not items)
            owner = where_text(levels, path) if path else "the file"
            raise InputError(source, f"{prefix(benchmark)}{owner} has no {plural(child)}")
        if lo != hi:
            short = [p for (p, items) in frontier if len(items) == lo]
            shown = "; ".join(where_text(levels, p) for p in short[:3]) + (
                f" and {len(short) - 3} more" if len(short) > 3 else ""
            )
            found = size_histogram(counts, parent, child)
            if balance is None:
                raise InputError(
                    source,
                    f"{prefix(benchmark)}unbalanced: {found} (shortest: {shown}); "
                    f"use --balance truncate to keep the first {lo} {plural(child, lo)} "
                    f"of every {parent}",
                )
            below = len(levels) - d - 1
            before = sum(_count_leaves(items, below) for _, items in frontier)
            cut = sum(1 for c in counts if c > lo)
            frontier = [(p, items[:lo]) for p, items in frontier]
            after = sum(_count_leaves(items, below) for _, items in frontier)
            warnings.warn(
                truncation_note(
                    source, benchmark, child, parent, lo, found, cut, before - after, levels[-1],
                    total,
                ),
                EsizeWarning,
                stacklevel=2,
            )
        shape.append(lo)
        if d < len(levels) - 1:
            frontier = [
                (p + (label,), _items(node)) for p, items in frontier for label, node in items
            ]
    values = [v for _, items in frontier for _, v in items]
    try:
        return Design(np.asarray(values, dtype=np.float64).reshape(shape), levels)
    except DesignError as exc:
        raise InputError(source, f"{prefix(benchmark)}{exc}") from None


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
    """The design without its first ``warmup`` measurements per lowest-level group."""
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


def single_unit_caveat(level: str, option: str | None = None) -> str:
    """The caveat of a file holding a single unit of ``level`` (one fork, one process).

    ``option`` is the harness option that sets the count (``-f``, ``--processes``,
    ``--benchmark_repetitions=``), None for a tidy table.
    """
    many = plural(level)
    if option:
        sep = "" if option.endswith("=") else " "
        how = f"run with {option}{sep}{RECOMMENDED_UNITS} or more to observe it"
    else:
        how = f"measure {RECOMMENDED_UNITS} or more {many} to observe it"
    return (
        f"a single {level}: variation between {many} is not observed, so the interval "
        f"is too narrow if {many} differ; {how}"
    )


def drop_single_top(
    design: Design, source, benchmark, options: Mapping[str, str] | None = None
) -> tuple[Design, tuple[str, ...], tuple[str, ...]]:
    """Analyse a design whose highest level holds one unit with the level below as its top.

    A JMH file of one fork, a pyperf file of one process: the variation between
    forks or processes is not observed, but the measurements within the one unit
    still say something. Every highest level with a single unit is dropped (its
    unit's children become the top-level units), and a caveat says what is not
    observed and, where ``options`` (level -> harness option) knows it, how to
    observe it. A lower level with a single unit in every parent (processes of one
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
    """
    options = options or {}
    caveats, dropped = [], []
    while design.n_levels > 1 and design.shape[0] == 1:
        level = design.levels[0]
        dropped.append((level, None))
        caveats.append(single_unit_caveat(level, options.get(level)))
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

