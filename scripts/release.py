"""Release esize: one version, set in one place, and every file that repeats it.

The version lives in ``pyproject.toml`` (``[project] version``). Every other copy is
derived from it by :func:`derived_files`:

- ``src/esize_study/pyproject.toml`` (the study is released with the library);
- ``src/esize/__init__.py`` (``__version__``);
- ``CITATION.cff`` (``version``, and ``date-released``: the date CHANGELOG.md gives
  that version in its heading ``## <version> (<date>)``);
- ``.zenodo.json`` (Zenodo's deposit metadata, written whole from CITATION.cff).

Commands (``make release`` runs the first):

    python scripts/release.py release 0.3.0 [--dry-run] [--date YYYY-MM-DD]
                                             [--archive-config FILE] [--no-archive]
    python scripts/release.py check      # every copy agrees (exit 1 when not)
    python scripts/release.py sync       # rewrite the derived copies from pyproject.toml

``release`` checks that the work tree is clean, the version new and higher, the tag
free and the CHANGELOG's "Unreleased" section not empty; turns that section into
``## <version> (<date>)`` under a new empty "Unreleased"; sets the version in
pyproject.toml and rewrites the derived copies; commits; makes the annotated tag
``v<version>``; reruns the pipeline of the archive's configuration (the new version
and code hash are in every result's provenance, so the old results no longer match);
builds the archive (``make archive``) and writes its SHA-256 checksum beside it
(``dist/<archive>.tar.gz.sha256``). ``--dry-run`` prints every step, the commands and
a diff of every file it would change, and changes nothing. ``--no-archive`` leaves
out the pipeline and the archive (the plan still lists them, marked skipped).

Errors are one line on stderr; bad input or a failed check exits with status 2.
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import hashlib
import json
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

PROG = "release"
SOURCE = "pyproject.toml"
STUDY = "src/esize_study/pyproject.toml"
INIT = "src/esize/__init__.py"
CITATION = "CITATION.cff"
ZENODO = ".zenodo.json"
CHANGELOG = "CHANGELOG.md"
#: every file that holds the version, the source first
COPIES = (SOURCE, STUDY, INIT, CITATION, ZENODO)
VERSION_RE = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")
_PROJECT_VERSION = re.compile(r'^(version\s*=\s*")([^"]*)(")', re.M)
_DUNDER = re.compile(r'^(__version__\s*=\s*")([^"]*)(")', re.M)
_CFF_VERSION = re.compile(r"^(version:\s*)(.*)$", re.M)
_CFF_DATE = re.compile(r"^(date-released:\s*)(.*)$", re.M)
_UNRELEASED = re.compile(r"^## Unreleased[ \t]*\n", re.M)
_H2 = re.compile(r"^## ", re.M)


class ReleaseError(Exception):
    """What stops the release (one line for the user)."""


# -- the version and its copies --------------------------------------------------------


def _read(root: Path, name: str) -> str:
    try:
        return (root / name).read_text(encoding="utf-8")
    except OSError as exc:
        raise ReleaseError(f"{name}: cannot read: {exc.strerror}") from None


def _project_section(text: str) -> tuple[int, int]:
    """Start and end of the ``[project]`` table of a pyproject.toml."""
    start = re.search(r"^\[project\]\s*$", text, re.M)
    if start is None:
        raise ReleaseError("no [project] table")
    end = re.search(r"^\[", text[start.end():], re.M)
    return start.end(), start.end() + end.start() if end else len(text)


def source_version(root: Path) -> str:
    """``[project] version`` of pyproject.toml: the one place the version is set."""
    try:
        return tomllib.loads(_read(root, SOURCE))["project"]["version"]
    except (tomllib.TOMLDecodeError, KeyError) as exc:
        raise ReleaseError(f"{SOURCE}: no [project] version ({exc})") from None


def set_project_version(text: str, version: str) -> str:
    """pyproject.toml's text with ``[project] version`` set (nothing else touched)."""
    lo, hi = _project_section(text)
    section, n = _PROJECT_VERSION.subn(rf"\g<1>{version}\g<3>", text[lo:hi], count=1)
    if n != 1:
        raise ReleaseError("no version = \"...\" line in [project]")
    return text[:lo] + section + text[hi:]


def changelog_date(changelog: str, version: str) -> str | None:
    """The date CHANGELOG.md gives ``version``: its heading ``## <version> (<date>)``."""
    m = re.search(rf"^## {re.escape(version)} \((\d{{4}}-\d\d-\d\d)\)\s*$", changelog, re.M)
    return m.group(1) if m else None


def zenodo_metadata(cff: dict) -> dict:
    """Zenodo's deposit metadata (``.zenodo.json``) from a parsed CITATION.cff.

    Creators are CITATION's authors ("Family, Given" for persons); the paper the
    software implements goes under ``references`` as text, and under
    ``related_identifiers`` only where CITATION.cff gives it a DOI or URL (none is
    invented).
    """
    def creator(a: dict) -> dict:
        if "family-names" in a:
            name = a["family-names"] + (f", {a['given-names']}" if a.get("given-names") else "")
        else:
            name = a["name"]
        out = {"name": name}
        if a.get("affiliation"):
            out["affiliation"] = a["affiliation"]
        if a.get("orcid"):
            out["orcid"] = str(a["orcid"]).rsplit("/", 1)[-1]
        return out

    def cited(r: dict) -> str:
        people = "; ".join(f"{p['family-names']}, {p.get('given-names', '')}".rstrip(", ")
                           if "family-names" in p else p.get("name", "")
                           for p in r.get("authors", []))
        where = r.get("notes") or (r.get("institution") or {}).get("name", "")
        return f"{people} ({r.get('year', 'n.d.')}). {r['title']}. {where}".strip()

    refs = cff.get("references", [])
    related = []
    for r in refs:
        for scheme, key in (("doi", "doi"), ("url", "url")):
            if r.get(key):
                related.append({"identifier": str(r[key]), "relation": "isSupplementTo",
                                "scheme": scheme, "resource_type": "publication-report"
                                if r.get("type") == "report" else "publication"})
                break
    meta = {
        "title": cff["title"],
        "version": str(cff["version"]),
        "publication_date": str(cff["date-released"]),
        "upload_type": "software",
        "description": " ".join(str(cff.get("abstract", cff["title"])).split()),
        "creators": [creator(a) for a in cff["authors"]],
        "license": cff["license"],
        "keywords": list(cff.get("keywords", [])),
        "access_right": "open",
        "references": [cited(r) for r in refs],
    }
    if related:
        meta["related_identifiers"] = related
    if cff.get("repository-code"):
        meta.setdefault("related_identifiers", []).append(
            {"identifier": cff["repository-code"], "relation": "isSupplementTo",
             "scheme": "url", "resource_type": "software"})
    return meta


def derived_files(root: Path, version: str, changelog: str | None = None) -> dict[str, str]:
    """``{path: new text}`` of every derived copy, for ``version`` (the date from
    ``changelog``, CHANGELOG.md's text, read from the tree unless given)."""
    changelog = _read(root, CHANGELOG) if changelog is None else changelog
    date = changelog_date(changelog, version)
    if date is None:
        raise ReleaseError(f"{CHANGELOG} has no heading '## {version} (YYYY-MM-DD)': "
                           "CITATION.cff's date-released comes from it")
    out = {}
    study = _read(root, STUDY)
    try:
        out[STUDY] = set_project_version(study, version)
    except ReleaseError as exc:
        raise ReleaseError(f"{STUDY}: {exc}") from None
    init, n = _DUNDER.subn(rf"\g<1>{version}\g<3>", _read(root, INIT), count=1)
    if n != 1:
        raise ReleaseError(f"{INIT}: no __version__ = \"...\" line")
    out[INIT] = init
    cff_text = _read(root, CITATION)
    cff_text, n1 = _CFF_VERSION.subn(rf"\g<1>{version}", cff_text, count=1)
    cff_text, n2 = _CFF_DATE.subn(rf'\g<1>"{date}"', cff_text, count=1)
    if n1 != 1 or n2 != 1:
        raise ReleaseError(f"{CITATION}: no top-level version: or date-released: line")
    out[CITATION] = cff_text
    try:
        cff = yaml.safe_load(cff_text)
    except yaml.YAMLError as exc:
        raise ReleaseError(f"{CITATION}: not valid YAML: {' '.join(str(exc).split())}") from None
    out[ZENODO] = json.dumps(zenodo_metadata(cff), indent=2, ensure_ascii=False) + "\n"
    return out


def version_copies(root: Path) -> dict[str, str | None]:
    """The version each file of :data:`COPIES` holds (None: missing or unreadable)."""
    def get(name: str) -> str | None:
        path = root / name
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8")
        try:
            if name.endswith(".toml"):
                return tomllib.loads(text)["project"]["version"]
            if name == INIT:
                m = _DUNDER.search(text)
                return m.group(2) if m else None
            if name == CITATION:
                return str(yaml.safe_load(text)["version"])
            return str(json.loads(text)["version"])
        except (KeyError, TypeError, ValueError, yaml.YAMLError):
            return None

    return {name: get(name) for name in COPIES}


def check(root: Path) -> list[str]:
    """Every disagreement between the source and its copies (empty: all agree),
    each derived file compared whole with what :func:`derived_files` writes."""
    version = source_version(root)
    problems = [f"{name} has version {v!r}, {SOURCE} {version!r}"
                for name, v in version_copies(root).items() if v != version]
    try:
        for name, text in derived_files(root, version).items():
            path = root / name
            if path.is_file() and path.read_text(encoding="utf-8") != text and not any(
                    p.startswith(name + " ") for p in problems):
                problems.append(f"{name} differs from what `python scripts/release.py sync` "
                                "writes from pyproject.toml, CHANGELOG.md and CITATION.cff")
    except ReleaseError as exc:
        problems.append(str(exc))
    return problems


# -- the release -----------------------------------------------------------------------


@dataclass
class Step:
    """One step of the release: a title, and a command or file contents to write."""

    title: str
    command: list[str] | None = None
    writes: dict[str, str] = field(default_factory=dict)
    skipped: str = ""


def _git(root: Path, *args: str, check_rc: bool = True) -> str:
    try:
        res = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    except OSError as exc:
        raise ReleaseError(f"cannot run git: {exc.strerror}") from None
    if check_rc and res.returncode != 0:
        raise ReleaseError(f"git {' '.join(args)}: {' '.join(res.stderr.split()) or 'failed'}")
    return res.stdout


def _parse_version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def unreleased(changelog: str) -> tuple[int, int]:
    """Start and end of the body of CHANGELOG.md's top "## Unreleased" section."""
    m = _UNRELEASED.search(changelog)
    first = _H2.search(changelog)
    if m is None or first is None or first.start() != m.start():
        raise ReleaseError(f"{CHANGELOG}: its first section is not '## Unreleased'")
    nxt = _H2.search(changelog, m.end())
    return m.end(), nxt.start() if nxt else len(changelog)


def released_changelog(changelog: str, version: str, date: str) -> str:
    """CHANGELOG.md with the Unreleased section's entries under ``## <version> (<date>)``
    and a new, empty "## Unreleased" above it."""
    lo, hi = unreleased(changelog)
    if not re.search(r"^- ", changelog[lo:hi], re.M):
        raise ReleaseError(f"{CHANGELOG}: the Unreleased section has no entry: nothing to release")
    return changelog[:lo] + f"\n## {version} ({date})\n" + changelog[lo:]


def checks(root: Path, version: str) -> list[str]:
    """What stops a release of ``version`` from ``root`` (empty: nothing)."""
    problems = []
    if not VERSION_RE.match(version):
        return [f"version {version!r} is not MAJOR.MINOR.PATCH (e.g. 0.3.0)"]
    current = source_version(root)
    if VERSION_RE.match(current) and _parse_version(version) <= _parse_version(current):
        problems.append(f"version {version} is not above the current {current}")
    status = _git(root, "status", "--porcelain", "--untracked-files=normal")
    if status.strip():
        n = len(status.splitlines())
        problems.append(f"the work tree is not clean ({n} changed or untracked files: "
                        "git status); commit or stash them first")
    if _git(root, "tag", "-l", f"v{version}").strip():
        problems.append(f"tag v{version} exists already")
    try:
        released_changelog(_read(root, CHANGELOG), version, "2000-01-01")
    except ReleaseError as exc:
        problems.append(str(exc))
    problems += [f"before the release: {p}" for p in check(root)]
    return problems


def plan(root: Path, version: str, date: str, archive_config: str,
         no_archive: bool) -> list[Step]:
    """The release's steps, in order; nothing is changed."""
    changelog = released_changelog(_read(root, CHANGELOG), version, date)
    source = set_project_version(_read(root, SOURCE), version)
    derived = derived_files(root, version, changelog)
    files = [CHANGELOG, SOURCE, *derived]
    stem = re.sub(r"[^A-Za-z0-9._-]", "-", Path(archive_config).stem) or "config"
    tarball = f"dist/esize-{version}-{stem}.tar.gz"
    skip = "skipped (--no-archive)" if no_archive else ""
    lo, hi = unreleased(changelog)
    notes = changelog[hi:].split("\n## ", 1)[0].split("\n", 1)[1].strip()
    return [
        Step(f"CHANGELOG.md: the Unreleased entries become '## {version} ({date})'",
             writes={CHANGELOG: changelog}),
        Step(f"pyproject.toml: [project] version = \"{version}\" (the single source)",
             writes={SOURCE: source}),
        Step("derived copies from pyproject.toml, CHANGELOG.md and CITATION.cff: "
             + ", ".join(derived), writes=derived),
        Step("stage the changed files", ["git", "add", "--", *files]),
        Step("commit the release", ["git", "commit", "-q", "-m", f"Release {version}"]),
        Step(f"annotated tag v{version}",
             ["git", "tag", "-a", "--cleanup=whitespace", f"v{version}", "-m",
              f"esize {version}\n\n{notes}"]),
        Step(f"rerun the pipeline of {archive_config} (the results' provenance names the "
             "new version and code)", ["make", "reproduce", f"CONFIG={archive_config}"],
             skipped=skip),
        Step(f"build the archive {tarball}",
             ["make", "archive", f"ARCHIVE_CONFIG={archive_config}"], skipped=skip),
        Step(f"write its SHA-256 checksum {tarball}.sha256 (sha256sum -c in dist/)",
             writes={f"{tarball}.sha256": f"<sha256 of {Path(tarball).name}>"}, skipped=skip),
    ]


def _diff(root: Path, name: str, new: str, limit: int) -> list[str]:
    path = root / name
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    lines = list(difflib.unified_diff(old.splitlines(), new.splitlines(),
                                      f"a/{name}" if old else "/dev/null", f"b/{name}",
                                      lineterm="", n=1))
    if len(lines) > limit:
        lines = lines[:limit] + [f"    ... {len(lines) - limit} more diff lines"]
    return lines


def run(root: Path, steps: list[Step], dry_run: bool, diff_lines: int = 40) -> None:
    """Print each step; unless ``dry_run``, do it (stop at the first failure)."""
    for i, step in enumerate(steps, 1):
        print(f"[{i}/{len(steps)}] {step.title}" + (f": {step.skipped}" if step.skipped else ""))
        if step.command:
            print("    $ " + " ".join(_quote(w) for w in step.command))
        for name, text in step.writes.items():
            if dry_run and not step.skipped and not name.endswith(".sha256"):
                print(f"    would change {name}:")
                print("\n".join("      " + ln for ln in _diff(root, name, text, diff_lines)))
            else:
                print(f"    {'would write' if dry_run else 'writes'} {name}")
        if dry_run or step.skipped:
            continue
        for name, text in step.writes.items():
            if name.endswith(".sha256"):
                tar = root / name.removesuffix(".sha256")
                if not tar.is_file():
                    raise ReleaseError(f"make archive wrote no {tar.relative_to(root)}")
                h = hashlib.sha256(tar.read_bytes()).hexdigest()
                text = f"{h}  {tar.name}\n"
                print(f"    {text.strip()}")
            (root / name).write_text(text, encoding="utf-8")
        if step.command:
            res = subprocess.run(step.command, cwd=root)
            if res.returncode != 0:
                raise ReleaseError(f"step {i} failed (exit status {res.returncode}): "
                                   + " ".join(step.command))


def _quote(word: str) -> str:
    if "\n" in word:
        word = word.split("\n", 1)[0] + " ..."
    return word if re.fullmatch(r"[\w@%+=:,./-]+", word) else "'" + word.replace("'", "'\\''") + "'"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rel = sub.add_parser("release", help="release a version (make release VERSION=X.Y.Z)")
    rel.add_argument("version", nargs="?", help="the new version, MAJOR.MINOR.PATCH")
    rel.add_argument("--dry-run", action="store_true", help="print every step, change nothing")
    rel.add_argument("--date", help="the release date, YYYY-MM-DD (default: today, UTC)")
    rel.add_argument("--archive-config", default="config/config.yaml", metavar="FILE",
                     help="the configuration whose results are archived (config/config.yaml)")
    rel.add_argument("--no-archive", action="store_true",
                     help="leave out the pipeline run and the archive (listed as skipped)")
    for name, text in (("check", "check that every copy of the version agrees"),
                       ("sync", "rewrite the derived copies from pyproject.toml")):
        sub.add_parser(name, help=text)
    for p in sub.choices.values():
        p.add_argument("--root", default=".", help="top of the checkout (.)")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    try:
        if args.command == "check":
            problems = check(root)
            for p in problems:
                print(f"{PROG}: {p}", file=sys.stderr)
            if not problems:
                print(f"every copy of the version is {source_version(root)}: "
                      + ", ".join(COPIES))
            return 1 if problems else 0
        if args.command == "sync":
            for name, text in derived_files(root, source_version(root)).items():
                path = root / name
                if not path.is_file() or path.read_text(encoding="utf-8") != text:
                    path.write_text(text, encoding="utf-8")
                    print(f"wrote {name}")
            return 0
        if not args.version:
            raise ReleaseError("no version: make release VERSION=X.Y.Z [DRY_RUN=1]")
        date = args.date or dt.datetime.now(dt.UTC).date().isoformat()
        try:
            dt.date.fromisoformat(date)
        except ValueError:
            raise ReleaseError(f"--date {date!r} is not YYYY-MM-DD") from None
        problems = checks(root, args.version)
        if problems and not args.dry_run:
            raise ReleaseError("; ".join(problems))
        steps = plan(root, args.version, date, args.archive_config, args.no_archive)
        print(f"{'dry run: ' if args.dry_run else ''}release esize {args.version} ({date}) "
              f"from {_git(root, 'rev-parse', '--short', 'HEAD').strip()}: {len(steps)} steps")
        run(root, steps, args.dry_run)
        if args.dry_run:
            print("dry run: nothing changed (make release VERSION=... without DRY_RUN=1 "
                  "does it)")
            if problems:  # shown whole, then refused as the release itself would be
                raise ReleaseError("the release would stop before step 1: "
                                   + "; ".join(problems))
        else:
            print(f"released {args.version}: tag v{args.version}; push it with "
                  f"git push origin v{args.version}, then deposit dist/ (docs/releasing.md)")
        return 0
    except ReleaseError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
