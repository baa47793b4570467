"""Whether two runs of the pipeline wrote the same files, byte for byte.

    python workflow/cluster/compare.py DIR_A DIR_B [SUBDIR ...]

Compares every file under each SUBDIR (default: results-test and data/generated-test)
of DIR_A with the same file of DIR_B. Both sides must hold the same files, and each
pair must be byte-identical, except for the dates of writing, which are blanked
first: the creation date matplotlib puts in a PDF (``/CreationDate (D:...)``) and the
``"created"`` time of provenance.json. Nothing else is excused. Prints one line per
difference and a summary; exit status 1 if anything differs.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DEFAULT_SUBDIRS = ["results-test", "data/generated-test"]
#: (file name pattern, date to blank, what replaces it)
DATES = [
    (re.compile(r".*\.pdf"), re.compile(rb"/CreationDate \(D:[^)]*\)"), b"/CreationDate ()"),
    (re.compile(r"provenance\.json"), re.compile(rb'"created": "[^"]*"'), b'"created": ""'),
]


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def _content(path: Path) -> tuple[bytes, int]:
    """The bytes to compare, and how many dates were blanked."""
    data, blanked = path.read_bytes(), 0
    for name, date, blank in DATES:
        if name.fullmatch(path.name.lower()):
            data, n = date.subn(blank, data)
            blanked += n
    return data, blanked


def compare(a: Path, b: Path, subdirs: list[str]) -> tuple[list[str], dict[str, int]]:
    problems: list[str] = []
    counts = {"files": 0, "identical": 0, "dated": 0}
    for sub in subdirs:
        da, db = a / sub, b / sub
        if not da.is_dir() or not db.is_dir():
            problems.append(f"{sub}: missing in {'the first' if not da.is_dir() else 'the second'} run")
            continue
        fa, fb = _files(da), _files(db)
        problems += [f"{sub}/{f}: only in the first run" for f in sorted(fa - fb)]
        problems += [f"{sub}/{f}: only in the second run" for f in sorted(fb - fa)]
        for f in sorted(fa & fb):
            counts["files"] += 1
            (ca, na), (cb, _) = _content(da / f), _content(db / f)
            if ca != cb:
                problems.append(f"{sub}/{f}: differs")
            elif na:
                counts["dated"] += 1
            else:
                counts["identical"] += 1
    return problems, counts


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print("usage: compare.py DIR_A DIR_B [SUBDIR ...]", file=sys.stderr)
        return 2
    a, b, subdirs = Path(args[0]), Path(args[1]), args[2:] or DEFAULT_SUBDIRS
    problems, counts = compare(a, b, subdirs)
    for p in problems:
        print(f"compare: {p}")
    print(f"compare: {counts['files']} files in {', '.join(subdirs)}: "
          f"{counts['identical']} byte-identical, {counts['dated']} identical but for "
          f"their date of writing, {len(problems)} differences")
    return 1 if problems or not counts["files"] else 0


if __name__ == "__main__":
    sys.exit(main())
