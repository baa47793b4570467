"""Provenance of the pipeline's results: which code, configuration and machine made them.

:func:`collect` gathers it into a JSON-able dict, :func:`write` stores it as
``results/<dataset>/provenance.json`` (rule ``provenance``), and
:func:`header_markdown` renders the short block that the report and the tables start
with.

The commit comes from ``git`` when the tree is a git checkout. An unpacked
``make archive`` tarball has no ``.git``; it carries ``VERSION_INFO.json`` (written by
:mod:`esize_study.artifact.archive`) naming the commit it was made from, which is read instead.
The code hash (:func:`esize_study.artifact.codehash.code_hash`) identifies the code that ran
in either case, uncommitted changes included.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
from collections.abc import Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import esize

from ..datasets.files import atomic_write_text, read_json
from ..datasets.schema import entry_with_defaults
from ..datasets.settings import REPRODUCE
from .codehash import code_hash

__all__ = [
    "VERSION_INFO",
    "PACKAGES",
    "config_hash",
    "seeds",
    "git_state",
    "source_state",
    "machine",
    "versions",
    "collect",
    "header_lines",
    "header_markdown",
    "header_comment",
    "write",
    "read",
]

#: Written by ``make archive`` at the top of the unpacked tree (no ``.git`` there).
VERSION_INFO = "VERSION_INFO.json"

#: Distributions whose versions are recorded (Python itself is added first).
PACKAGES = ("esize", "esize-study", "numpy", "scipy", "pandas", "snakemake")


def config_hash(config: Mapping) -> str:
    """SHA-256 of the configuration as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seeds(config: Mapping) -> dict:
    """Every seed of the configuration: the two simulation families and the stand-ins.

    A dataset is listed when it is a stand-in (generated from its seed, the schema's
    default when it gives none); a directory dataset's data have no seed.
    """
    out: dict = {}
    for family in ("false_alarm", "coverage"):
        seed = (config.get(family) or {}).get("seed")
        if seed is not None:
            out[family] = seed
    datasets = {}
    given = {name: entry or {} for name, entry in (config.get("datasets") or {}).items()}
    for name in given:
        entry = entry_with_defaults({"datasets": given}, name, REPRODUCE)
        if entry["kind"] == "standin":
            datasets[name] = entry["seed"]
    if datasets:
        out["datasets"] = datasets
    return out


def _git(root: Path, *args: str) -> str | None:
    try:
        res = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                             timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return res.stdout.strip() if res.returncode == 0 else None


def git_state(root: str | os.PathLike) -> dict | None:
    """Commit, dirty flag and tag of the git checkout at ``root``; None without one.

    Dirty means uncommitted changes to tracked files or untracked files that are not
    ignored (a new module changes the code as much as an edited one).
    """
    root = Path(root)
    if not (root / ".git").exists():
        return None
    commit = _git(root, "rev-parse", "HEAD")
    if not commit:
        return None
    status = _git(root, "status", "--porcelain")
    tag = _git(root, "describe", "--tags", "--exact-match", "HEAD")
    return {
        "commit": commit,
        "dirty": None if status is None else bool(status),
        "tag": tag or None,
        "from": "git",
    }


def source_state(root: str | os.PathLike) -> dict:
    """Where the source came from: git, else ``VERSION_INFO.json``, else unknown."""
    state = git_state(root)
    if state is not None:
        return state
    info = Path(root) / VERSION_INFO
    if info.is_file():
        try:
            data = json.loads(info.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if isinstance(data, dict) and data.get("commit"):
            return {
                "commit": data["commit"],
                "dirty": data.get("dirty"),
                "tag": data.get("tag"),
                "from": VERSION_INFO,
            }
    return {"commit": None, "dirty": None, "tag": None, "from": None}


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "cpu model") and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _memory_bytes() -> int | None:
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None


def machine() -> dict:
    """Cores, CPU model, memory and operating system of this machine."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = None
    return {
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "cpu": _cpu_model(),
        "memory_bytes": _memory_bytes(),
        "os": platform.system(),
        "kernel": platform.release(),
        "platform": platform.platform(),
        "architecture": platform.machine(),
    }


def versions() -> dict:
    """Versions of Python and of :data:`PACKAGES` (None for one not installed)."""
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def collect(config: Mapping, *, root: str | os.PathLike = ".") -> dict:
    """Provenance of results made now with ``config`` from the source tree at ``root``.

    Parameters
    ----------
    config : mapping
        The resolved workflow configuration (defaults filled in).
    root : path
        Top of the source tree (where the Snakefile is): its git state, or its
        ``VERSION_INFO.json`` when it has no ``.git``.

    Returns
    -------
    dict
        ``project`` (name and version), ``source`` (commit, dirty, tag, and where they
        were read from), ``code_hash``, ``config_hash``, ``seeds``, ``versions``,
        ``machine`` and ``created`` (UTC, ISO 8601).
    """
    return {
        "project": {"name": "esize", "version": esize.__version__},
        "source": source_state(root),
        "code_hash": code_hash(),
        "config_hash": config_hash(config),
        "seeds": seeds(config),
        "versions": versions(),
        "machine": machine(),
        "created": datetime.now(UTC).replace(microsecond=0).isoformat(),
    }


def _gib(n: int | None) -> str:
    return "memory unknown" if not n else f"{n / 2**30:.1f} GiB memory"


def _commit(source: Mapping) -> str:
    commit = source.get("commit")
    if not commit:
        return "commit unknown (no git checkout and no VERSION_INFO.json)"
    text = f"commit `{commit[:12]}`"
    if source.get("tag"):
        text += f" (tag `{source['tag']}`)"
    dirty = source.get("dirty")
    if dirty:
        text += ", with uncommitted changes"
    elif dirty is None:
        text += ", clean state unknown"
    else:
        text += ", clean"
    if source.get("from") == VERSION_INFO:
        text += f" (from {VERSION_INFO} of an archive)"
    return text


def header_lines(prov: Mapping) -> list[str]:
    """The provenance as a few plain lines (no markup apart from code spans)."""
    v = prov.get("versions", {})
    m = prov.get("machine", {})
    s = prov.get("seeds", {})
    seed_parts = [f"{k} {s[k]}" for k in ("false_alarm", "coverage") if k in s]
    seed_parts += [f"{name} {seed}" for name, seed in s.get("datasets", {}).items()]
    libs = ", ".join(f"{k} {v[k]}" for k in ("numpy", "scipy", "pandas", "snakemake")
                     if v.get(k))
    return [
        f"esize {prov['project']['version']}, {_commit(prov.get('source', {}))}; "
        f"code hash `{prov.get('code_hash')}`, config hash `{str(prov.get('config_hash'))[:16]}`",
        f"seeds: {', '.join(seed_parts) or 'none'}",
        f"Python {v.get('python')}, {libs}",
        f"machine: {m.get('cores')} cores, {m.get('cpu')}, {_gib(m.get('memory_bytes'))}, "
        f"{m.get('os')} {m.get('kernel')}",
    ]


def header_markdown(prov: Mapping) -> str:
    """A short Markdown block (a quotation) to put at the top of a report or table."""
    lines = header_lines(prov)
    out = [f"> **Provenance.** {lines[0]}  "]
    out += [f"> {line}  " for line in lines[1:-1]]
    out += [f"> {lines[-1]}", ""]
    return "\n".join(out) + "\n"


def header_comment(prov: Mapping, prefix: str = "% ") -> str:
    """The same lines as comments (``%`` for LaTeX, ``#`` for other text formats)."""
    return "".join(f"{prefix}{line}\n" for line in ["provenance:", *header_lines(prov)])


def write(path: str | os.PathLike, prov: Mapping) -> None:
    """Store ``prov`` as JSON, atomically."""
    atomic_write_text(path, json.dumps(prov, indent=2, sort_keys=False) + "\n")


def read(path: str | os.PathLike) -> dict:
    """Read a ``provenance.json`` (a damaged one stops with one line naming it:
    :func:`esize_study.datasets.files.read_json`)."""
    return read_json(path)
