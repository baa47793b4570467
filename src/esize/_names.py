"""Shorter benchmark names for tables and figures, without losing any text.

Harnesses name benchmarks with long, mostly shared paths: JMH's
``org.openjdk.bench.java.util.HashMapBench.put:size=1000,type=HASH_MAP``, Google
Benchmark's ``BM_Foo/1024/threads:8``, pyperf's ``json_dumps [a=1, b=2]``.
:func:`abbreviate` moves what all names share in front into one prefix (said once,
in a title), and :func:`wrap_name` splits what is left into lines of a bounded
width, so a table's name column or a figure's labels stay narrow; joining the
prefix and the lines gives the name back exactly.

Pure Python with no third-party import: the text output uses it too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["SEPARATORS", "abbreviate", "wrap_name", "wrap_rows"]

#: Characters after which a name may be cut (prefix) or wrapped (lines).
SEPARATORS = "./:_ -#,;|"
_OPEN, _CLOSE = "([{", ")]}"
# where a line ends preferably: between parts of a name rather than inside a word
# such as HASH_MAP or tree-map; a line may also end after a closing bracket
_STRONG = "./:#,;| " + _CLOSE
_WEAK = "_-"


def abbreviate(names: Iterable[str]) -> tuple[str, list[str]]:
    """Split off the longest prefix all names share, cut after a separator.

    Parameters
    ----------
    names : iterable of str
        The names (other objects are converted with :class:`str`).

    Returns
    -------
    prefix : str
        The shared prefix: it ends with a separator (one of :data:`SEPARATORS`)
        outside any bracket, or is empty.
    short : list of str
        The names without the prefix, in the given order; ``prefix + short[i]``
        is the i-th name.

    Notes
    -----
    The cut lies within the characters every name has in common (never where
    they differ). It falls after the last separator between the parts of a name
    (``.``, ``/``, ``:``, a space ...) when there is one, so that
    ``ListBench.put_fast`` and ``ListBench.put_slow`` keep ``put_``, and only
    otherwise inside a word (after ``_`` or ``-``, as the ``BM_`` of ``BM_Sort``
    and ``BM_Hash``). It never falls inside brackets (``name [a=1, b=2]`` and
    ``name [a=1, b=3]`` keep ``[a=1, b=2]`` whole rather than becoming
    ``b=2]``), and it leaves every short name non-empty. Fewer than two distinct
    names share nothing worth removing: the prefix is then empty.

    Examples
    --------
    >>> abbreviate(["BM_Sort/1024", "BM_Sort/65536", "BM_Hash"])
    ('BM_', ['Sort/1024', 'Sort/65536', 'Hash'])
    """
    names = [str(n) for n in names]
    if len(set(names)) < 2:
        return "", names
    first = min(names)
    last = max(names)  # the common prefix of all names is that of the extremes
    common = 0
    while common < min(len(first), len(last)) and first[common] == last[common]:
        common += 1
    # the cut must leave at least one character of the shortest name
    limit = min(common, min(len(n) for n in names) - 1)
    strong = weak = depth = 0
    for i, ch in enumerate(first[:limit]):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(depth - 1, 0)
        if depth == 0 and ch in _WEAK:
            weak = i + 1
        elif depth == 0 and ch in SEPARATORS:
            strong = i + 1
    cut = strong or weak
    return first[:cut], [n[cut:] for n in names]


def wrap_name(name: str, width: int) -> list[str]:
    """Split a name into lines of at most ``width`` characters at separators.

    Parameters
    ----------
    name : str
        The name.
    width : int
        The widest line, at least 1.

    Returns
    -------
    list of str
        At least one line; ``"".join(lines) == name``. A line ends after a
        separator (one of :data:`SEPARATORS` or a closing bracket), the last one
        that fits; only a run of ``width`` characters without any is split
        inside. Breaks between the parts of a name (after ``.``, ``/``, ``:``,
        ``,``, a space ...) are preferred to breaks inside a word (after ``_`` or
        ``-``) unless they would leave the line less than half full, and a line
        starts with a space only when the space does not fit on the line before.
        Two equal separators in a row (``::``, ``//``) stay together when they
        fit.

    Raises
    ------
    ValueError
        ``width`` below 1.

    Examples
    --------
    >>> wrap_name("HashMapBench.put:size=1000,type=HASH_MAP", 20)
    ['HashMapBench.put:', 'size=1000,', 'type=HASH_MAP']
    """
    if width < 1:
        raise ValueError(f"width must be at least 1, got {width}")
    name = str(name)
    lines = []
    rest = name
    while len(rest) > width:
        strong = _last_break(rest, width, _STRONG)
        weak = _last_break(rest, width, _WEAK)
        if strong and (2 * strong >= width or strong >= weak):
            cut = strong
        else:
            cut = weak or strong or width
        lines.append(rest[:cut])
        rest = rest[cut:]
    lines.append(rest)
    return lines


def wrap_rows(rows: Iterable[Sequence], width: int, *, column: int = 0,
              indent: str = "  ") -> list[tuple]:
    """Table rows whose names are wrapped onto continuation rows.

    Parameters
    ----------
    rows : iterable of sequence
        The cells of each row; ``row[column]`` is the name (other objects are
        converted with :class:`str`).
    width : int
        The widest name line, indentation included; more than ``len(indent)``.
    column : int, default 0
        Which cell is the name.
    indent : str, default two spaces
        Put before every continuation line of a name, so that it does not read as
        the next benchmark.

    Returns
    -------
    list of tuple
        For each row, the row with the first line of its name, then one row per
        further line with that line and ``""`` in every other cell (an empty text
        cell, which a table formatter pads like any text).

    Raises
    ------
    ValueError
        ``width`` not above the indentation.
    """
    if width <= len(indent):
        raise ValueError(f"width must exceed the indent of {len(indent)}, got {width}")
    out: list[tuple] = []
    for row in rows:
        cells = list(row)
        name = str(cells[column])
        lines = wrap_name(name, width)
        if len(lines) > 1:
            rest = wrap_name(name[len(lines[0]):], width - len(indent))
            lines = [lines[0], *(indent + line for line in rest)]
        cells[column] = lines[0]
        out.append(tuple(cells))
        blank = [""] * len(cells)
        for line in lines[1:]:
            blank[column] = line
            out.append(tuple(blank))
    return out


def _last_break(text: str, width: int, chars: str) -> int:
    """The largest ``i <= width`` with ``text[i - 1]`` in ``chars`` and not doubled
    (``text[i]`` differs), preferably one that does not start the next line with a
    space (after ", " rather than after ","); 0 if there is none."""
    fallback = 0
    for i in range(width, 0, -1):
        if text[i - 1] in chars and text[i] != text[i - 1]:
            if text[i] != " ":
                return i
            fallback = fallback or i
    return fallback
