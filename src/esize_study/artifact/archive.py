"""``make archive``: one tarball for deposit (e.g. on Zenodo).

``dist/esize-<version>-<config>.tar.gz``, where ``<config>`` is the name of the last
configuration file without its folder and extension (``config`` for the paper scale,
``test`` for the tiny configuration), unpacks to one directory of the same name
holding

- the source at a git ref (``git archive``, HEAD by default; tag it ``v<version>``
  first), the committed data included;
- the results directory of the chosen configuration, as the pipeline made it, less
  the intermediates of :data:`INTERMEDIATES` (the pipeline remakes them from the
  committed data and the configuration in seconds) unless ``--with-intermediates``;
- ``CITATION.bib``: the archived ``CITATION.cff`` as BibTeX
  (:mod:`esize_study.artifact.citation`);
- ``VERSION_INFO.json``: commit, tag, whether the work tree had uncommitted changes,
  version, date, what was left out; :mod:`esize_study.artifact.provenance` reads it
  where there is no ``.git``;
- ``SHA256SUMS``: every other file, so that ``sha256sum -c SHA256SUMS`` run in the
  unpacked directory checks them all.

Results made by other code than the archived source, or with another configuration,
are refused (their ``provenance.json`` records both hashes), unless
``--allow-stale`` is given; then VERSION_INFO.json says so.

Run as ``python -m esize_study.artifact.archive --config config/config.yaml [--config
more.yaml]``
from the top of a git checkout (the Makefile's ``archive`` target does).
"""

from __future__ import annotations

import copy
import fnmatch
import gzip
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tomllib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

import yaml

from esize import InputError
from esize.io import atomic_open

from ..datasets.config import load_config
from . import citation
from . import provenance as pv

__all__ = [
    "ArchiveError",
    "INTERMEDIATES",
    "archive_name",
    "is_intermediate",
    "is_intermediate_of",
    "resolved_config",
    "code_hash_of_sources",
    "build",
    "summary",
    "main",
]

#: Packages whose sources make up the pipeline's code hash (codehash.code_hash).
CODE_PACKAGES = ("src/esize", "src/esize_study")
SUMS = "SHA256SUMS"
BIB = "CITATION.bib"

#: Results the pipeline remakes cheaply, left out of the archive by default:
#: (pattern, relative to the results directory, one ``*`` per path part; the rule
#: that writes it and from what). Whenever a job needs one, its rule remakes it from
#: what the archive holds (the committed data, or the stand-in regenerated from its
#: seed) and the configuration.
INTERMEDIATES = (
    ("*/steady/*.npz",
     "rule ingest: each benchmark's measurements after the warm-up cut, read from "
     "the dataset's raw files (seconds per benchmark)"),
    ("*/sim/false_alarm_comparisons.parquet",
     "rule fa_table: the per-comparison rows of sim/fa/*.parquet joined into one "
     "file (the shards are archived)"),
)


def is_intermediate(relative: str | PurePosixPath) -> bool:
    """Whether a path relative to the results directory matches :data:`INTERMEDIATES`.

    Each ``*`` stands for one whole or partial path part, never for a ``/``.
    """
    return any(is_intermediate_of(relative, pattern) for pattern, _ in INTERMEDIATES)


def is_intermediate_of(relative: str | PurePosixPath, pattern: str) -> bool:
    """Whether ``relative`` matches ``pattern`` part by part (``*`` never crosses ``/``)."""
    parts, pat = PurePosixPath(relative).parts, PurePosixPath(pattern).parts
    return len(pat) == len(parts) and all(fnmatch.fnmatchcase(p, q)
                                          for p, q in zip(parts, pat))


def archive_name(version: str, config_files: Sequence[str | Path]) -> str:
    """``esize-<version>-<config>``: the tarball's name without ``.tar.gz``, and its top
    directory. ``<config>`` is the last configuration file's name without folder and
    extension, characters other than letters, digits, ``.``, ``_`` and ``-`` replaced
    by ``-``, so that archives of different configurations never share a name."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "-", Path(config_files[-1]).stem) or "config"
    return f"esize-{version}-{stem}"


class ArchiveError(Exception):
    """The archive cannot be built as asked (one line for the user)."""


def _git(root: Path, *args: str, text: bool = True):
    try:
        res = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=text)
    except OSError as exc:
        raise ArchiveError(f"cannot run git: {exc}") from None
    if res.returncode != 0:
        err = res.stderr if text else res.stderr.decode(errors="replace")
        raise ArchiveError(f"git {' '.join(args)}: {' '.join(err.split()) or 'failed'}")
    return res.stdout


def resolved_config(files: Sequence[str | Path], schema: str | Path) -> dict:
    """The configuration as the workflow sees it: files merged, checked, schema
    defaults filled (:func:`esize_study.datasets.config.load_config`).

    Its :func:`esize_study.artifact.provenance.config_hash` equals the one the pipeline's
    ``provenance.json`` records for a run with the same files.
    """
    try:
        return load_config(files, schema)
    except InputError as exc:
        raise ArchiveError(str(exc)) from None


def code_hash_of_sources(files: Mapping[str, bytes]) -> str:
    """:func:`esize_study.artifact.codehash.code_hash` of sources given as ``{path: bytes}``.

    ``files`` maps paths relative to the top of the tree (``src/esize/...``) to their
    contents; the ``.py`` files of the two packages are hashed in the order and with
    the names that ``code_hash`` uses for an installed tree.
    """
    h = hashlib.sha256()
    for package in CODE_PACKAGES:
        top = PurePosixPath(package)
        mine = [PurePosixPath(p) for p in files
                if PurePosixPath(p).suffix == ".py" and PurePosixPath(p).is_relative_to(top)]
        # Path order compares the parts, as sorted(Path.rglob(...)) does
        for p in sorted(mine, key=lambda q: q.parts):
            h.update(p.relative_to(top.parent).as_posix().encode())
            h.update(files[p.as_posix()])
    return h.hexdigest()[:16]


def _version_at(root: Path, ref: str) -> str:
    text = _git(root, "show", f"{ref}:pyproject.toml")
    try:
        return tomllib.loads(text)["project"]["version"]
    except (tomllib.TOMLDecodeError, KeyError) as exc:
        raise ArchiveError(f"no project version in pyproject.toml at {ref}: {exc}") from None


def _source_members(root: Path, ref: str) -> list[tuple[tarfile.TarInfo, bytes | None]]:
    """The members of ``git archive REF`` (paths relative to the top, no prefix)."""
    data = _git(root, "archive", "--format=tar", ref, text=False)
    out = []
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        for m in tar.getmembers():
            if m.type == tarfile.XGLTYPE or m.name == "pax_global_header":
                continue  # git's commit id in a global header: VERSION_INFO.json has it
            content = tar.extractfile(m).read() if m.isfile() else None
            out.append((m, content))
    return out


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _checked_name(name: str) -> str:
    # sha256sum escapes names with a backslash or a newline; keep the manifest plain
    if "\n" in name or "\\" in name:
        raise ArchiveError(f"cannot list {name!r} in {SUMS}: backslash or newline in its name")
    return name


def _check_results(root: Path, results: PurePosixPath, config: Mapping, code: str,
                   allow_stale: bool, warn) -> list[str]:
    """Problems of the results against the archived code and the configuration."""
    if not (root / results).is_dir():
        raise ArchiveError(f"no results directory {results.as_posix()!r}: run the pipeline "
                           "first (make reproduce, or make reproduce-test for the tiny "
                           "configuration)")
    problems = []
    want_config = pv.config_hash(config)
    for dataset in config["datasets"]:
        p = results / dataset / "provenance.json"
        if not (root / p).is_file():
            problems.append(f"{p.as_posix()} is missing (results of an older pipeline, "
                            "or an unfinished run)")
            continue
        prov = pv.read(root / p)
        if prov.get("code_hash") != code:
            problems.append(f"{p.as_posix()}: made by code {prov.get('code_hash')}, the "
                            f"archived source is code {code}")
        if prov.get("config_hash") != want_config:
            problems.append(f"{p.as_posix()}: made with config {str(prov.get('config_hash'))[:16]}"
                            f", the chosen configuration is {want_config[:16]}")
    if problems and not allow_stale:
        raise ArchiveError(
            "the results do not match the archived source and configuration: "
            + "; ".join(problems)
            + ". Commit, rerun the pipeline, then archive (or pass --allow-stale)."
        )
    for p in problems:
        warn(f"stale results: {p}")
    return problems


def build(
    root: str | Path,
    config_files: Sequence[str | Path],
    *,
    out_dir: str | Path = "dist",
    ref: str = "HEAD",
    allow_stale: bool = False,
    with_intermediates: bool = False,
    warn=None,
) -> Path:
    """Build the deposit tarball; return its path.

    Parameters
    ----------
    root : path
        Top of a git checkout (where the Snakefile is).
    config_files : sequence of paths
        Configuration files as the pipeline was given them (``config/config.yaml``,
        then the ``--configfile`` one); their ``results_dir`` is archived, and the
        last one names the archive (:func:`archive_name`).
    out_dir : path
        Where ``esize-<version>-<config>.tar.gz`` is written (atomically).
    ref : str
        The git ref whose source is archived.
    allow_stale : bool
        Archive results whose provenance names other code or configuration (with a
        warning, recorded in VERSION_INFO.json) instead of refusing.
    with_intermediates : bool
        Archive the results matching :data:`INTERMEDIATES` too (by default they are
        left out, and VERSION_INFO.json lists how many and what remakes them).
    warn : callable, optional
        Receives each warning (one line); default: printed to stderr.

    Raises
    ------
    ArchiveError
        No git checkout, no results, or results that do not match.
    """
    if warn is None:
        def warn(msg):
            print(f"esize: warning: {msg}", file=sys.stderr)

    root = Path(root).resolve()
    if not (root / ".git").exists():
        raise ArchiveError(f"{root.name} is not a git checkout: the archive holds the "
                           "source as committed (git archive)")
    commit = _git(root, "rev-parse", "--verify", f"{ref}^{{commit}}").strip()
    version = _version_at(root, commit)
    tag = _git(root, "tag", "--points-at", commit).split()
    wanted_tag = f"v{version}"
    if not tag:
        warn(f"{ref} ({commit[:12]}) is not tagged; for a deposit tag the release first: "
             f"git tag {wanted_tag}")
    elif wanted_tag not in tag:
        warn(f"{ref} is tagged {', '.join(tag)}, not {wanted_tag} (the version in pyproject.toml)")
    dirty = bool(_git(root, "status", "--porcelain").strip()) if ref == "HEAD" else None
    if dirty:
        warn("the work tree has uncommitted changes: the archive holds the committed "
             "source only")

    schema = root / "workflow" / "schemas" / "config.schema.yaml"
    config = resolved_config([root / f if not Path(f).is_absolute() else f
                              for f in config_files], schema)
    source = _source_members(root, commit)
    source_files = {m.name: c for m, c in source if c is not None}
    code = code_hash_of_sources(source_files)
    results_name = PurePosixPath(Path(config["results_dir"]).as_posix())
    if results_name.is_absolute() or ".." in results_name.parts:
        raise ArchiveError(f"results_dir {str(results_name)!r} is not inside the source tree")
    problems = _check_results(root, results_name, config, code, allow_stale, warn)
    results = root / results_name

    prefix = archive_name(version, config_files)
    sums: dict[str, str] = {}
    for name, content in source_files.items():
        sums[_checked_name(name)] = hashlib.sha256(content).hexdigest()
    result_files = []
    left_out = {pattern: {"files": 0, "bytes": 0, "remade_by": why}
                for pattern, why in INTERMEDIATES}
    for p in sorted(results.rglob("*"), key=lambda q: q.parts):
        if not p.is_file() or p.is_symlink():
            continue
        if p.name.startswith(".") and p.name.endswith(".tmp"):
            continue  # left by an interrupted atomic write (esize.io)
        name = p.relative_to(root).as_posix()
        if name in source_files:  # committed (say results/README.md): the source's copy
            continue
        relative = p.relative_to(results).as_posix()
        if not with_intermediates and is_intermediate(relative):
            pattern = next(pat for pat, _ in INTERMEDIATES if is_intermediate_of(relative, pat))
            left_out[pattern]["files"] += 1
            left_out[pattern]["bytes"] += p.stat().st_size
            continue
        result_files.append((name, p))
        sums[_checked_name(name)] = _sha256_file(p)

    now = datetime.now(UTC).replace(microsecond=0)
    info = {
        "name": "esize",
        "version": version,
        "commit": commit,
        "tag": wanted_tag if wanted_tag in tag else (tag[0] if tag else None),
        "dirty": dirty,
        "date": now.isoformat(),
        "ref": ref,
        "code_hash": code,
        "config_files": [Path(f).as_posix() for f in config_files],
        "config_hash": pv.config_hash(config),
        "results_dir": results_name.as_posix(),
        "results_match_source": not problems,
        "intermediates": "kept" if with_intermediates else "left out",
        "left_out": {} if with_intermediates else {
            f"{results_name.as_posix()}/{pat}": rec for pat, rec in left_out.items()},
    }
    info_bytes = (json.dumps(info, indent=2) + "\n").encode()
    sums[pv.VERSION_INFO] = hashlib.sha256(info_bytes).hexdigest()
    commit_time = int(_git(root, "show", "-s", "--format=%ct", commit).strip())
    try:
        cff = source_files["CITATION.cff"]
        if not (yaml.safe_load(cff) or {}).get("date-released"):
            warn("CITATION.cff has no date-released: CITATION.bib cites the commit's date; "
                 "set date-released to the release's date")
        bib_bytes = citation.bibtex_of_cff(
            cff, released=datetime.fromtimestamp(commit_time, UTC).date()).encode()
    except KeyError:
        raise ArchiveError(f"no CITATION.cff in the source at {ref}") from None
    except yaml.YAMLError:
        raise ArchiveError(f"CITATION.cff at {ref} is not valid YAML") from None
    except citation.CitationError as exc:
        raise ArchiveError(f"CITATION.cff at {ref}: {exc}") from None
    if BIB in source_files:
        raise ArchiveError(f"{BIB} is committed at {ref}; the archive writes it from CITATION.cff")
    sums[BIB] = hashlib.sha256(bib_bytes).hexdigest()
    manifest = "".join(f"{h}  {n}\n" for n, h in sorted(sums.items())).encode()

    out = Path(out_dir)
    if not out.is_absolute():
        out = root / out
    target = out / f"{prefix}.tar.gz"

    def extra(name: str, data: bytes, mtime: int) -> tuple[tarfile.TarInfo, io.BytesIO]:
        ti = tarfile.TarInfo(f"{prefix}/{name}")
        ti.size, ti.mtime, ti.mode = len(data), mtime, 0o644
        return ti, io.BytesIO(data)

    with atomic_open(target) as fh:
        # gzip without a file name and with the commit's time: the same inputs give
        # the same bytes
        with gzip.GzipFile(filename="", fileobj=fh, mode="wb", mtime=commit_time) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
                top = tarfile.TarInfo(prefix)
                top.type, top.mode, top.mtime = tarfile.DIRTYPE, 0o755, commit_time
                tar.addfile(top)
                tar.addfile(*extra(pv.VERSION_INFO, info_bytes, int(now.timestamp())))
                tar.addfile(*extra(SUMS, manifest, int(now.timestamp())))
                tar.addfile(*extra(BIB, bib_bytes, commit_time))
                for m, content in source:
                    m = copy.copy(m)
                    m.name = f"{prefix}/{m.name}"
                    tar.addfile(m, io.BytesIO(content) if content is not None else None)
                for name, p in result_files:
                    st = p.stat()
                    ti = tarfile.TarInfo(f"{prefix}/{name}")
                    ti.size, ti.mtime = st.st_size, int(st.st_mtime)
                    ti.mode = 0o755 if st.st_mode & 0o111 else 0o644
                    with open(p, "rb") as src:
                        tar.addfile(ti, src)
    return target


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m esize_study.artifact.archive``: the Makefile's ``archive`` target."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m esize_study.artifact.archive",
                                     description="Build the deposit tarball.")
    parser.add_argument("--config", action="append", required=True, metavar="FILE",
                        help="configuration file as given to the pipeline (repeat; later "
                             "files override earlier ones)")
    parser.add_argument("--output-dir", default="dist", help="where the tarball goes (dist)")
    parser.add_argument("--ref", default="HEAD", help="git ref whose source is archived")
    parser.add_argument("--root", default=".", help="top of the git checkout (.)")
    parser.add_argument("--allow-stale", action="store_true",
                        help="archive results made by other code or configuration")
    parser.add_argument("--with-intermediates", action="store_true",
                        help="keep the results the pipeline remakes cheaply ("
                             + ", ".join(p for p, _ in INTERMEDIATES) + "), left out by default")
    args = parser.parse_args(argv)
    try:
        path = build(args.root, args.config, out_dir=args.output_dir, ref=args.ref,
                     allow_stale=args.allow_stale, with_intermediates=args.with_intermediates)
    except ArchiveError as exc:
        print(f"esize: error: {exc}", file=sys.stderr)
        return 2
    print(summary(path))
    return 0


def summary(path: str | Path) -> str:
    """The lines ``make archive`` ends with: the tarball, its size, what was left out,
    and how to check it (read back from the tarball's VERSION_INFO.json)."""
    path = Path(path)
    top = path.name.removesuffix(".tar.gz")
    with tarfile.open(path) as tar:
        info = json.load(tar.extractfile(f"{top}/{pv.VERSION_INFO}"))
    size = path.stat().st_size
    lines = [f"archive: {os.path.relpath(path)}"]
    left = {pat: rec for pat, rec in info.get("left_out", {}).items() if rec["files"]}
    if left:
        n = sum(r["files"] for r in left.values())
        b = sum(r["bytes"] for r in left.values())
        lines.append(f"left out: {n} regenerable intermediate files ({b / 2**20:.1f} MiB: "
                     + ", ".join(left) + "); make archive ARCHIVE_ARGS=--with-intermediates "
                     "keeps them")
    else:
        lines.append(f"intermediates: {info.get('intermediates', 'kept')}")
    lines.append(f"check after unpacking: tar xzf {path.name} && cd {top} && "
                 f"sha256sum -c {SUMS}")
    lines.append(f"size: {size / 2**20:.1f} MiB ({size:,} bytes)")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
