"""``esize compare --markdown``: the comparison as GitHub-flavoured markdown.

A pull request comment or a CI job summary wants the result at a glance: a headline
that counts the verdicts, one table row per benchmark (name, old mean, new mean,
ratio new/old with its interval, verdict), the suite's geometric mean as the last
row, and the caveats as a short list. :func:`render_markdown` builds it from the
dictionary :meth:`esize.compare.CompareResult.to_json` returns -- the very data
``--json`` prints -- so the two outputs cannot disagree on a number.

Rows are ordered by effect: slower benchmarks first, then faster ones, then the rest
(same or inconclusive), each group from the largest change to the smallest. Past
:data:`MAX_ROWS` benchmarks the remaining rows go into a collapsed ``<details>``
block, so that a wide suite does not bury the discussion around it.

Benchmark names and file names come from the input files and may hold any
character: :func:`escape` makes them literal text (no emphasis, no link, no HTML,
no table cell boundary).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from .._decision import Verdict, number_text
from ..readers.units import unit_info

__all__ = ["MAX_ROWS", "MAX_CAVEATS", "escape", "headline", "render_markdown"]

#: Benchmarks shown in the main table; the others go into a collapsed block.
MAX_ROWS = 30
#: Distinct caveats of the benchmarks listed; the others are counted.
MAX_CAVEATS = 10

#: Verdicts of a change the data resolve, in the order their rows come.
_RESOLVED = (Verdict.SLOWER, Verdict.FASTER)

# What can start markup inside a line (a table cell, a list item's text): emphasis,
# strikethrough, code, links and images, HTML and entities, the cell boundary, and
# GitHub's math ($), mentions (@), references (#) and emoji (:name:, hence a colon
# before a non-space). A backslash-escaped ASCII punctuation character is always
# literal in CommonMark. The others (. - , ; = / ( ) ...) mean something only at the
# start of a line or after an unescaped ], so they stay as they are, readable.
_SPECIAL = re.compile(r"[\\`*_~\[\]!<>&|$@#]|:(?=\S)")


def escape(text: object) -> str:
    """``text`` as literal markdown inline text, safe inside a table cell.

    Every character that could start markup inside a line is backslash-escaped (so
    ``*``, ``_``, ``[``, ``<``, ``&``, ``|``, ``#`` ... show as themselves), and line
    breaks and other control characters become spaces (a cell is one line).

    Parameters
    ----------
    text : object
        A benchmark or file name (``str()`` is taken).

    Returns
    -------
    str
        The escaped text.
    """
    flat = "".join(c if c.isprintable() else " " for c in str(text))
    return _SPECIAL.sub(lambda m: "\\" + m.group(), flat)


def _percent(fraction: float) -> str:
    return f"{100 * fraction:g} %"


#: Time units from the largest, for a mean in human units.
_TIME_STEPS = ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns"))


def _mean_cell(mean: float, unit: str, lower_is_better: bool) -> str:
    """``"22.99 ms"``: a time in the unit that puts it between 1 and 1000, four
    significant digits; other units as given; a rate's unit carries an arrow (higher
    is better).

    >>> _mean_cell(0.0229968, "s", True), _mean_cell(1234.0, "ns/op", True)
    ('23.00 ms', '1.234 µs')
    >>> _mean_cell(5321.0, "ops/s", False)
    '5321 ops/s ↑'
    """
    mark = "" if lower_is_better else " ↑"
    info = unit_info(unit) if unit else None
    if (info is not None and info.kind == "time" and info.scale is not None
            and math.isfinite(mean) and mean > 0):
        seconds = mean * info.scale
        scale, name = next(((f, n) for f, n in _TIME_STEPS if seconds >= f), _TIME_STEPS[-1])
        return f"{_four(seconds / scale)} {name}{mark}"
    return f"{_four(mean)} {escape(unit)}{mark}".rstrip()


def _four(x: float) -> str:
    """Four significant digits without an exponent between 1e-3 and 1e6."""
    if not math.isfinite(x) or x == 0 or not 1e-3 <= abs(x) < 1e6:
        return f"{x:.4g}"
    digits = max(0, 3 - math.floor(math.log10(abs(x))))
    return f"{x:.{digits}f}"


def _point(b: dict) -> float:
    """The benchmark's ratio: of the means, or of the geometric means when its verdict
    comes from the mixed model (``--method mixed``)."""
    if b.get("verdict_method") == "mixed" and b.get("mixed"):
        return b["mixed"]["estimate"]
    return b["ratio"]


def _change_cell(b: dict) -> str:
    """The change of the measured quantity, new against old, as a signed percentage
    (``"+3.08 %"``: 3.08 % more time, or more operations for a rate)."""
    r = _point(b)
    if not (math.isfinite(r) and r > 0):
        return ""
    return f"{100 * (r - 1):+.2f} %"


def file_label(path: str) -> str:
    """A file as the summary names it: as given when it is relative or lies below the
    working directory (relative to it), else its name alone (a temporary directory
    says nothing to a reader of the pull request).

    >>> import os
    >>> file_label("results/old.json"), file_label("/tmp/tmpab12/old.json")
    ('results/old.json', 'old.json')
    >>> file_label(os.path.join(os.getcwd(), "data", "new.csv"))
    'data/new.csv'
    """
    p = Path(path)
    if not p.is_absolute():
        return str(path)
    try:
        return str(p.relative_to(Path.cwd()))
    except ValueError:
        return p.name


def _interval(b: dict) -> dict | None:
    """The interval a benchmark's verdict comes from (its ``verdict_method``)."""
    method = b.get("verdict_method")
    return b.get(method) if method else None


def _ratio_cell(ratio: float, lower, upper, bounded: bool = True) -> str:
    """``"1.0313 [1.0261, 1.0364]"``; an unbounded interval says so."""
    if not bounded or lower is None or upper is None:
        return f"{number_text(ratio)} (unbounded)"
    return f"{number_text(ratio)} [{number_text(lower)}, {number_text(upper)}]"


def _benchmark_ratio_cell(b: dict) -> str:
    iv = _interval(b)
    if iv is None:
        return f"{number_text(b['ratio'])} (no interval)"
    return _ratio_cell(_point(b), iv.get("lower"), iv.get("upper"), iv.get("bounded", True))


def _verdict_cell(verdict: str) -> str:
    return f"**{verdict}**" if verdict in _RESOLVED else verdict


def _label(b: dict) -> str:
    """The benchmark's name (both names when two single-benchmark files differ)."""
    name = "data" if b.get("name") is None else b["name"]
    if "new_name" in b:
        return f"{escape(name)} (new: {escape(b['new_name'])})"
    return escape(name)


def _effect_key(b: dict) -> tuple:
    """Sort key: slower, faster, then the rest; the largest change first in each."""
    rank = _RESOLVED.index(b["verdict"]) if b["verdict"] in _RESOLVED else len(_RESOLVED)
    r = b["ratio"]
    size = abs(math.log(r)) if r > 0 and math.isfinite(r) else math.inf
    return (rank, -size)


def _header(ratio_head: str) -> list[str]:
    return [f"| benchmark | old mean | new mean | change | {ratio_head} | verdict |",
            "| :-- | --: | --: | --: | :-- | :-- |"]


def _row(b: dict) -> str:
    unit, lib = b.get("unit", ""), b.get("lower_is_better", True)
    return (f"| {_label(b)} | {_mean_cell(b['old']['mean'], unit, lib)} | "
            f"{_mean_cell(b['new']['mean'], unit, lib)} | {_change_cell(b)} | "
            f"{_benchmark_ratio_cell(b)} | {_verdict_cell(b['verdict'])} |")


def _suite_row(s: dict) -> str:
    cell = _ratio_cell(s["geometric_mean"], s.get("lower"), s.get("upper"))
    change = _change_cell({"ratio": s["geometric_mean"]})
    return f"| *geometric mean* | | | {change} | {cell} | {_verdict_cell(s['verdict'])} |"


def headline(doc: dict) -> str:
    """``"3 slower, 1 faster, 90 unchanged, 6 inconclusive (threshold 2 %)"``."""
    verdicts = [b["verdict"] for b in doc["benchmarks"]]
    counts = [(verdicts.count(v), word) for v, word in (
        (Verdict.SLOWER, "slower"), (Verdict.FASTER, "faster"), (Verdict.SAME, "unchanged"),
        (Verdict.INCONCLUSIVE, "inconclusive"))]
    return (", ".join(f"{n} {word}" for n, word in counts)
            + f" (threshold {_percent(doc['threshold'])})")


def _who(names: list, total: int) -> str:
    if len(names) == total and total > 1:
        return f"all {total} benchmarks"
    shown = ", ".join(escape(n) for n in names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _caveat_items(doc: dict) -> list[str]:
    """One item per distinct caveat naming what it concerns (at most
    :data:`MAX_CAVEATS` of the benchmarks', then how many more), then the suite's and
    the names found in one file only."""
    benches = doc["benchmarks"]
    by_text: dict[str, list] = {}
    for b in benches:
        for c in b.get("caveats", ()):
            by_text.setdefault(c, []).append("data" if b.get("name") is None else b["name"])
    items = [f"**{_who(names, len(benches))}**: {escape(text)}"
             for text, names in list(by_text.items())[:MAX_CAVEATS]]
    if len(by_text) > MAX_CAVEATS:
        items.append(f"and {len(by_text) - MAX_CAVEATS} more caveats of single benchmarks "
                     "(in the JSON output)")
    suite = doc.get("suite")
    if suite is not None:
        items += [f"**geometric mean**: {escape(c)}" for c in suite.get("caveats", ())]
    for side in ("old", "new"):
        only = doc.get(f"only_in_{side}") or []
        if only:
            items.append(f"**only in the {side} file, not compared**: "
                         f"{_who(list(only), -1)}")
    return items


def render_markdown(doc: dict, *, max_rows: int = MAX_ROWS) -> str:
    """A GitHub-flavoured markdown summary of one ``esize compare`` result.

    Parameters
    ----------
    doc : dict
        :meth:`esize.compare.CompareResult.to_json` of the comparison.
    max_rows : int, default :data:`MAX_ROWS`
        Benchmarks in the main table; the rest go into a collapsed ``<details>``
        block after it.

    Returns
    -------
    str
        The markdown, ending with a newline: a ``###`` headline counting the
        verdicts, a paragraph naming the files, the confidence and where the
        intervals come from, the table (the geometric mean of a suite as its last row), the
        rest of a wide suite collapsed, then the notes and caveats as a list.
    """
    benches = sorted(doc["benchmarks"], key=_effect_key)
    conf = _percent(1 - doc["alpha"])
    files = doc["files"]
    lines = [f"### {headline(doc)}", ""]
    if doc.get("baseline") is not None:
        lines.append(f"Every command of {escape(file_label(files['old']))} against its first, "
                     f"{escape(doc['baseline'])} (old).")
    else:
        lines.append(f"Old: {escape(file_label(files['old']))}; "
                     f"new: {escape(file_label(files['new']))}.")
    suite = doc.get("suite")
    means = ("geometric means (REML mixed model of log times)"
             if any(b.get("verdict_method") == "mixed" for b in benches) else "means")
    lines.append(f"Ratios of the {means}, new over old, with {conf} confidence intervals"
                 + ("; the geometric mean summarises all benchmarks." if suite is not None
                    else "."))
    ratio_head = f"ratio new/old [{conf} CI]"
    lines += ["", *_header(ratio_head), *(_row(b) for b in benches[:max_rows])]
    if suite is not None:
        lines.append(_suite_row(suite))
    rest = benches[max_rows:]
    if rest:
        lines += ["", "<details>",
                  f"<summary>{len(rest)} more benchmark{'s' if len(rest) > 1 else ''}"
                  "</summary>", "", *_header(ratio_head), *(_row(b) for b in rest),
                  "", "</details>"]
    notes = []
    if any(not b.get("lower_is_better", True) for b in benches):
        notes.append("↑ marks rates (higher is better): for them a ratio above 1 means "
                     "new is faster.")
    if suite is not None and suite.get("inverted"):
        notes.append("The geometric mean mixes rates and times: rates enter it as "
                     "old/new, so below 1 means new is faster.")
    notes += [escape(n[0].upper() + n[1:]) + "." for n in doc.get("notes", ())]
    fdr = doc.get("fdr")
    if fdr is not None and doc.get("threshold", doc["benchmarks"][0].get("threshold")) == 0:
        changed = fdr["changed"]
        notes.append(f"Changed at a false discovery rate of {_percent(fdr['q'])} "
                     f"(Benjamini-Hochberg, {fdr['tested']} tested): "
                     + (", ".join(f"`{escape(n)}`" for n in changed[:MAX_ROWS]) or "none")
                     + (f" and {len(changed) - MAX_ROWS} more" if len(changed) > MAX_ROWS
                        else "") + ".")
    for note in notes:  # a paragraph each
        lines += ["", note]
    items = _caveat_items(doc)
    if items:
        lines += ["", "Caveats:", "", *(f"- {item}" for item in items)]
    return "\n".join(lines) + "\n"
