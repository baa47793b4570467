"""Where the workflow writes: ``results_dir``, ``logs_dir`` and ``data_dir`` checked.

Every output of the workflow goes below one of the three directories
(``<results_dir>/<dataset>/...``), which Snakemake creates and overwrites. Each must be
a directory of its own: a relative path inside the checkout (not empty, not ``.``,
without ``..``, not one of the project's directories, :data:`PROJECT_DIRS`, nor
inside one: ``data_dir`` alone may lie inside ``data/``, where the generated data go by
default), or an absolute directory that is neither a system directory
(:data:`SYSTEM_TREES`, :data:`SYSTEM_DIRS`) nor one of the checkout's own, nor above
it. None of them may be, lie inside or hold a dataset's data directory (its ``path``).
``results_dir: ""`` would otherwise put the outputs at the filesystem root.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

__all__ = ["OUTPUT_KEYS", "PROJECT_DIRS", "EXPECTED", "output_dir_problem", "dataset_dirs"]

#: The configuration's directories the workflow writes into.
OUTPUT_KEYS = ("results_dir", "logs_dir", "data_dir")

#: The project's own directories (sources, configuration, data, examples, tools).
PROJECT_DIRS = ("src", "workflow", "config", "data", "examples", "tests", "docs", "measure",
                "notebooks", "benchmarks", ".git", ".venv", ".snakemake")

#: Project directories a key may lie inside (not be): generated data go to data/.
INSIDE_ALLOWED = {"data_dir": ("data",)}

#: System directories nothing may lie inside (and /lib32, /lib64, ...: any /lib*).
SYSTEM_TREES = ("/bin", "/boot", "/dev", "/etc", "/lib", "/proc", "/sbin", "/sys", "/usr")

#: System directories that may hold a directory of the workflow's, but not be one.
SYSTEM_DIRS = ("/", "/home", "/media", "/mnt", "/opt", "/root", "/run", "/snap", "/srv",
               "/tmp", "/var", "/var/tmp", "/var/lib", "/var/log", "/var/cache")

#: What each key must be, in the message of a refused one.
EXPECTED = ("expected a directory of its own: a relative path inside the checkout (like "
            "'{default}') or an absolute directory outside the system's and the "
            "project's directories")

_SOURCE_ROOT = Path(__file__).resolve().parents[3]


def _roots(cwd: Path) -> list[Path]:
    """The checkouts whose directories are the project's: where the workflow runs and,
    when the sources lie in one, theirs."""
    roots = [cwd]
    if (_SOURCE_ROOT / "pyproject.toml").is_file() and _SOURCE_ROOT != cwd:
        roots.append(_SOURCE_ROOT)
    return roots


def _within(path: Path, other: Path) -> bool:
    return path == other or other in path.parents


def dataset_dirs(config: Mapping, cwd: Path) -> dict[str, Path]:
    """The data directory (``path``, resolved) of every dataset that has one."""
    out = {}
    datasets = config.get("datasets")
    for name, entry in (datasets.items() if isinstance(datasets, Mapping) else ()):
        path = entry.get("path") if isinstance(entry, Mapping) else None
        if isinstance(path, str) and path.strip() and entry.get("kind") != "standin":
            try:
                out[str(name)] = (cwd / path).resolve()
            except (OSError, RuntimeError, ValueError):  # a link loop: checked elsewhere
                continue
    return out


def _system_problem(path: str) -> str | None:
    """Why the absolute, normalised ``path`` is a system directory, or None."""
    parts = PurePosixPath(path).parts
    if len(parts) <= 1:
        return "is the filesystem root"
    top = "/" + parts[1]
    if top in SYSTEM_TREES or parts[1].startswith("lib"):
        where = "is" if len(parts) == 2 else "lies inside"
        return f"{where} the system directory '{top}'"
    home = os.path.normpath(os.path.expanduser("~"))
    if path in SYSTEM_DIRS or (home.startswith("/") and path == home):
        return f"is the system directory '{path}' itself, not one inside it"
    return None


def _project_problem(key: str, path: Path, cwd: Path) -> str | None:
    for root in _roots(cwd):
        if path == root:
            return "is the checkout itself"
        if root in path.parents:
            for name in PROJECT_DIRS:
                own = (root / name).resolve()
                if _within(path, own) or _within(path, root / name):
                    if name in INSIDE_ALLOWED.get(key, ()) and path not in (own, root / name):
                        continue
                    where = "is" if path in (own, root / name) else "lies inside"
                    return f"{where} the project's '{name}' directory"
        elif path in root.parents:
            return f"holds the checkout '{root}'"
    return None


def _dataset_problem(path: Path, datasets: Mapping[str, Path]) -> str | None:
    for name, data in datasets.items():
        if path == data:
            return f"is the data directory of dataset '{name}'"
        if data in path.parents:
            return f"lies inside the data directory of dataset '{name}'"
        if path in data.parents:
            return f"holds the data directory of dataset '{name}'"
    return None


def output_dir_problem(key: str, value, datasets: Mapping[str, Path] | None = None,
                       cwd: str | Path | None = None) -> str | None:
    """Why ``value`` cannot be the directory ``key`` (one of :data:`OUTPUT_KEYS`): what
    is wrong with it, to follow the value in the message, or None when it can be.

    ``datasets`` are the data directories (:func:`dataset_dirs`), ``cwd`` the directory
    the workflow runs in (default: the working directory); relative paths start there.
    A value that is not text is left to the schema.
    """
    if not isinstance(value, str):
        return None
    cwd = Path.cwd().resolve() if cwd is None else Path(cwd).resolve()
    if value == "":
        return "is empty (its files would be written at the filesystem root)"
    if value != value.strip() or re.search(r"[\x00-\x1f\x7f]", value):
        return "has spaces around it or control characters"
    if "{" in value or "}" in value:
        return "holds '{' or '}', which Snakemake reads as a wildcard"
    if value.startswith("~"):
        return "starts with '~', which is not expanded: write the whole path"
    written = PurePosixPath(value)
    if not written.is_absolute():
        parts = [p for p in written.parts if p != "."]
        if ".." in parts:
            return "leaves the checkout with '..'"
        if not parts:
            return "is the checkout itself"
        if parts[0] in PROJECT_DIRS and not (
                parts[0] in INSIDE_ALLOWED.get(key, ()) and len(parts) > 1):
            where = "is" if len(parts) == 1 else "lies inside"
            return f"{where} the project's '{parts[0]}' directory"
    else:
        problem = _system_problem(os.path.normpath(value))
        if problem:
            return problem
    try:
        resolved = (cwd / value).resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a loop of links, a name too long
        return f"cannot be followed: {getattr(exc, 'strerror', None) or exc}"
    if written.is_absolute() or not _within(resolved, cwd):  # also through a link
        problem = _system_problem(str(resolved))
        if problem:
            return (problem if str(resolved) == os.path.normpath(value)
                    else f"leads to '{resolved}', which {problem}")
    problem = _project_problem(key, resolved, cwd) or _dataset_problem(resolved, datasets or {})
    if problem:
        return problem
    try:
        if resolved.exists() and not resolved.is_dir():
            return "is a file, not a directory"
    except OSError as exc:
        return f"cannot be looked up: {exc.strerror or exc}"
    return None
