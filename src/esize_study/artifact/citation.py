"""BibTeX from ``CITATION.cff``: the software with its version and year, and the paper.

``cffconvert -f bibtex`` writes a ``@misc`` entry without the version, and without a
year unless ``date-released`` is set. This module writes what a reader pastes into a
bibliography: a biblatex ``@software`` entry for esize (author, title, version, year
and month of ``date-released``, licence) and one entry per reference (the paper as a
``@techreport``). ``make archive`` puts it in the tarball as ``CITATION.bib``.

    python -m esize_study.artifact.citation [CITATION.cff]
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import yaml

__all__ = ["CitationError", "bibtex", "bibtex_of_cff", "main"]

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
#: CFF reference type -> BibTeX entry type (others: misc)
ENTRY_TYPES = {"report": "techreport", "article": "article", "software": "software",
               "conference-paper": "inproceedings", "book": "book", "thesis": "phdthesis"}
_SPECIAL = re.compile(r"([&%$#_{}])")


class CitationError(Exception):
    """CITATION.cff lacks what the entry needs (one line for the user)."""


def _escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def _authors(people: Sequence[Mapping]) -> str:
    names = []
    for p in people:
        if "family-names" in p:
            given = p.get("given-names")
            names.append(_escape(f"{p['family-names']}, {given}" if given else p["family-names"]))
        elif "name" in p:
            names.append("{" + _escape(p["name"]) + "}")  # an entity: never split
        else:
            raise CitationError(f"an author has neither family-names nor name: {dict(p)}")
    return " and ".join(names)


def _date(value) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise CitationError(f"date-released {value!r} is not a date (YYYY-MM-DD)") from None


def _key(*words) -> str:
    return re.sub(r"[^a-z0-9]+", "_", "_".join(str(w) for w in words).lower()).strip("_")


def _entry(kind: str, key: str, fields: Sequence[tuple[str, str | None]]) -> str:
    body = "".join(f"  {name} = {value},\n" for name, value in fields if value is not None)
    return f"@{kind}{{{key},\n{body}}}\n"


def bibtex(cff: Mapping, released: dt.date | None = None) -> str:
    """BibTeX entries of a parsed CITATION.cff: the software, then its references.

    Parameters
    ----------
    cff : mapping
        The parsed file.
    released : datetime.date, optional
        The date to cite when the file has no ``date-released`` (``make archive``
        passes the archived commit's date); the file's own date wins.

    Raises
    ------
    CitationError
        No title, authors or version, or no date at all.
    """
    for field in ("title", "authors", "version"):
        if not cff.get(field):
            raise CitationError(f"no {field}: the BibTeX entry needs it")
    if cff.get("date-released"):
        released = _date(cff["date-released"])
    elif released is None:
        raise CitationError("no date-released: the BibTeX entry needs its year")
    version = str(cff["version"])
    title = _escape(cff["title"])
    # keep the name's capitals: "esize:" stays lower case, a following word as written
    short, _, rest = title.partition(":")
    title = "{" + short + "}" + (":" + rest if rest else "")
    out = [_entry("software", _key(short, version), [
        ("author", "{" + _authors(cff["authors"]) + "}"),
        ("title", "{" + title + "}"),
        ("version", "{" + _escape(version) + "}"),
        ("year", str(released.year)),
        ("month", MONTHS[released.month - 1]),
        ("license", "{" + _escape(cff["license"]) + "}" if cff.get("license") else None),
        ("doi", "{" + _escape(cff["doi"]) + "}" if cff.get("doi") else None),
        ("url", "{" + cff["repository-code"] + "}" if cff.get("repository-code") else None),
    ])]
    for ref in cff.get("references", []):
        if not ref.get("title") or not ref.get("authors") or not ref.get("year"):
            raise CitationError(f"reference {ref.get('title')!r} needs title, authors and year")
        first = ref["authors"][0]
        family = first.get("family-names") or first.get("name", "")
        inst = ref.get("institution", {}).get("name")
        out.append(_entry(ENTRY_TYPES.get(ref.get("type"), "misc"),
                          _key(family, ref["year"], ref["title"].split()[0]), [
            ("author", "{" + _authors(ref["authors"]) + "}"),
            ("title", "{{" + _escape(ref["title"]) + "}}"),
            ("institution", "{" + _escape(inst) + "}" if inst else None),
            ("number", "{" + _escape(ref["number"]) + "}" if ref.get("number") else None),
            ("year", str(ref["year"])),
            ("doi", "{" + _escape(ref["doi"]) + "}" if ref.get("doi") else None),
        ]))
    return "\n".join(out)


def bibtex_of_cff(text: str | bytes, released: dt.date | None = None) -> str:
    """:func:`bibtex` of the text of a CITATION.cff file."""
    try:
        cff = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CitationError(f"not valid YAML: {' '.join(str(exc).split())}") from None
    if not isinstance(cff, Mapping):
        raise CitationError("not a mapping of CFF keys")
    return bibtex(cff, released)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m esize_study.artifact.citation [CITATION.cff]``: print the BibTeX."""
    args = sys.argv[1:] if argv is None else list(argv)
    path = Path(args[0] if args else "CITATION.cff")
    try:
        text = path.read_text(encoding="utf-8")
        print(bibtex_of_cff(text), end="")
    except OSError as exc:
        print(f"esize: error: {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except CitationError as exc:
        print(f"esize: error: {path}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
