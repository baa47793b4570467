"""The datasets of the workflow configuration: settings, benchmarks, known effects.

A dataset is a stand-in (generated, :mod:`esize_study.datasets.standin`) or a directory
of raw tidy files (one benchmark per Parquet/CSV file). The functions here read the
merged configuration and the directory listing; nothing here reads the data. The
defaults of a dataset entry are the schema's (:mod:`esize_study.datasets.schema`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from esize import InputError

from ..paper import numbers as paper
from .schema import entry_with_defaults, section_with_defaults
from .yamlfile import brief, compose, dotted

__all__ = [
    "REPRODUCE",
    "DATA_SUFFIXES",
    "ConfigError",
    "slug",
    "dataset_name_problem",
    "dataset_settings",
    "dataset_benchmarks",
    "known_effects",
    "false_alarm_settings",
    "coverage_settings",
    "COVERAGE_OVERRIDES",
    "benchmark_file",
]

DATA_SUFFIXES = (".parquet", ".pq", ".csv", ".csv.gz")

#: The ``mode`` of the reproduction (``make reproduce``), whose dataset entries have
#: the schema's defaults of that mode.
REPRODUCE = "reproduce"

#: Keys of the top-level ``coverage`` section a dataset may set for itself (its own
#: ``coverage:``), and those of ``coverage.validation``.
COVERAGE_OVERRIDES = ("experiments", "boot_experiments", "resamples")
COVERAGE_VALIDATION_OVERRIDES = ("experiments", "resamples")


#: What a dataset name may be: it becomes a directory (``results/<dataset>/``) and a
#: Snakemake wildcard value, so no '/', '{', space or leading dot, and no '..'.
DATASET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
DATASET_NAME_RULE = "use letters, digits, '.', '_' and '-', starting with a letter or digit"
#: The longest dataset name: it is part of file names, whose length is limited (255
#: bytes on most file systems, with the rule's suffixes added).
DATASET_NAME_MAX = 100


def dataset_name_problem(name) -> str | None:
    """Why ``name`` cannot name a dataset (one line), or None when it can.

    The rule of :data:`DATASET_NAME`, matched whole, without ``..``, of at most
    :data:`DATASET_NAME_MAX` characters; the same as the ``propertyNames`` of
    ``datasets`` in the schema.
    """
    if not isinstance(name, str):
        return (f"name {brief(name)} is not allowed: YAML reads it as a number or another "
                f"value, not as text; write it in quotes ('{brief(name, 60)}')")
    if len(name) > DATASET_NAME_MAX:
        return (f"name {brief(name, 40)} is not allowed: expected at most {DATASET_NAME_MAX} "
                f"characters, not {len(name)} (it names directories and files)")
    if not DATASET_NAME.fullmatch(name):
        return f"name {name!r} is not allowed: {DATASET_NAME_RULE}"
    if ".." in name:
        return f"name {name!r} is not allowed: {DATASET_NAME_RULE}, and no '..'"
    return None


class ConfigError(InputError):
    """A problem with one value of the workflow configuration.

    Parameters
    ----------
    keys : sequence of str or int
        Where the value sits in the configuration (``("datasets", "mine", "path")``).
    message : str
        What is wrong, in one line.
    """

    def __init__(self, keys: Sequence[str | int], message: str):
        self.keys = tuple(keys)
        super().__init__(_dotted(self.keys), message)


def slug(name: str) -> str:
    """File-name form of a benchmark name: ``"FFT NA OPT"`` -> ``"fft-na-opt"``."""
    s = re.sub(r"[^0-9a-zA-Z]+", "-", name.strip()).strip("-").lower()
    return s or "benchmark"


def dataset_settings(config: Mapping, name: str) -> dict:
    """Settings of dataset ``name`` with the defaults of the reproduction's entries
    filled in (the schema's, :func:`esize_study.datasets.schema.entry_with_defaults`;
    its ``known_effects`` too).

    A directory dataset may name a costs file, ``costs: {file: costs.json}`` (a path
    relative to the dataset's directory); its settings then hold ``costs: "data"``
    (what the generic rules understand) and ``costs_file``, the file's path.

    Raises
    ------
    ConfigError
        A directory dataset without a ``path``, or a stand-in with a costs file or
        known effects (they need measured files).
    """
    out = entry_with_defaults(config, name, REPRODUCE)
    out["costs_file"] = None
    if out["kind"] == "standin":
        if (out.get("known_effects") or {}).get("variants"):
            raise ConfigError(("datasets", name, "known_effects"),
                              "a stand-in dataset has no known effects")
        if isinstance(out["costs"], Mapping):
            raise ConfigError(("datasets", name, "costs"),
                              "a stand-in dataset has no costs file; use 'paper' or 'data'")
        return out
    if not out.get("path"):
        raise ConfigError(("datasets", name), "a directory dataset needs a 'path'")
    if isinstance(out["costs"], Mapping):
        out["costs_file"] = str(Path(out["path"]) / str(out["costs"]["file"]))
        out["costs"] = "data"
    return out


def _files_in(directory: Path) -> dict[str, Path]:
    files = {}
    for p in sorted(directory.iterdir()):
        name = p.name
        for suf in DATA_SUFFIXES:
            if name.lower().endswith(suf):
                stem = name[: -len(suf)]
                files[slug(stem)] = p
                break
    return files


def dataset_benchmarks(config: Mapping, name: str) -> dict[str, str]:
    """``{slug: display name}`` of the benchmarks of dataset ``name``.

    A stand-in dataset has the paper's ten benchmarks (or the configured subset); a
    directory dataset has one benchmark per Parquet/CSV file, named by the file stem,
    except the variants of its ``known_effects`` (files of a known change to a base
    benchmark, analysed only by the known-effect experiment).

    Raises
    ------
    ConfigError
        When the dataset names unknown stand-in benchmarks, its directory does not
        exist or holds no data files, none of the wanted benchmarks is there, its
        costs file is missing, or a known effect names a file that is not there.
    """
    settings = dataset_settings(config, name)
    if settings["kind"] == "standin":
        names = settings["benchmarks"] or list(paper.BENCHMARKS)
        unknown = [b for b in names if b not in paper.BENCHMARKS]
        if unknown:
            raise ConfigError(
                ("datasets", name, "benchmarks"),
                f"unknown stand-in benchmark(s) {', '.join(map(repr, unknown))} "
                f"(known: {', '.join(paper.BENCHMARKS)})",
            )
        return {slug(b): b for b in names}
    files = _dataset_files(settings, name)
    variants = _known_effects(settings, name, files)
    files = {k: v for k, v in files.items() if k not in variants}
    wanted = settings["benchmarks"]
    if wanted:
        files = {k: v for k, v in files.items() if k in {slug(b) for b in wanted}}
    if not files:
        raise ConfigError(("datasets", name, "benchmarks") if wanted else ("datasets", name, "path"),
                          f"none of the {'listed ' if wanted else ''}benchmarks has a file in "
                          f"{settings['path']!r}"
                          + ("" if wanted else " besides the known-effect variants"))
    if settings["costs_file"]:
        what = _not_a_file(Path(settings["costs_file"]))
        if what:
            raise ConfigError(("datasets", name, "costs", "file"),
                              f"costs file {settings['costs_file']!r} {what} (a relative name "
                              "starts from the dataset's directory)")
    return {k: v.name.split(".")[0] for k, v in files.items()}


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` is not a regular file (following links), or None."""
    if not path.exists():
        return "does not exist" + (" (a broken link)" if path.is_symlink() else "")
    if path.is_dir():
        return "is a directory, not a file"
    if not path.is_file():
        return "is not a regular file"
    return None


def _dataset_files(settings: Mapping, name: str) -> dict[str, Path]:
    """Data files of a directory dataset by slug (checked to exist)."""
    directory = Path(settings["path"])
    where = ("datasets", name, "path")
    if not directory.is_dir():
        what = ("does not exist" if not directory.exists() else
                "is a file, not a directory" if directory.is_file() else "is not a directory")
        raise ConfigError(where, f"directory {settings['path']!r} {what} (a relative path starts "
                                 "from the directory Snakemake runs in)")
    try:
        files = _files_in(directory)
    except OSError as exc:
        raise ConfigError(where, f"directory {settings['path']!r} cannot be read: "
                                 f"{exc.strerror or exc}") from None
    if not files:
        raise ConfigError(where, f"no .parquet or .csv files in {settings['path']!r}")
    for f in files.values():
        what = _not_a_file(f)
        if what:
            raise ConfigError(where, f"data file {str(f)!r} {what}")
    return files


def _known_effects(settings: Mapping, name: str, files: Mapping[str, Path]) -> dict[str, dict]:
    """The checked known effects of a directory dataset, by variant slug."""
    ke = settings.get("known_effects") or {}
    out: dict[str, dict] = {}
    variants = ke.get("variants") or {}
    for variant, spec in variants.items():
        where = ("datasets", name, "known_effects", "variants", variant)
        v, b = slug(str(variant)), slug(str(spec["base"]))
        for what, key in (("variant", v), ("base", b)):
            if key not in files:
                raise ConfigError(where, f"no file for the {what} {key!r} in {settings['path']!r}")
        if b in {slug(str(x)) for x in variants}:
            raise ConfigError(where, f"the base {b!r} is itself a variant")
        if b == v:
            raise ConfigError(where, "a variant cannot be its own base")
        out[v] = {
            "variant": files[v].name.split(".")[0],
            "base": b,
            "base_name": files[b].name.split(".")[0],
            "ratio": float(spec["ratio"]),
            "variant_file": str(files[v]),
            "base_file": str(files[b]),
        }
    return out


def known_effects(config: Mapping, name: str) -> dict[str, dict]:
    """Known effects of dataset ``name``: ``{variant slug: record}``, empty if none.

    Each record holds ``variant`` and ``base_name`` (display names), ``base`` (its
    slug), ``ratio`` (the injected ratio new/old) and the paths ``variant_file`` and
    ``base_file``.
    """
    settings = dataset_settings(config, name)
    if settings["kind"] == "standin" or not settings.get("known_effects"):
        return {}
    return _known_effects(settings, name, _dataset_files(settings, name))


def false_alarm_settings(config: Mapping, name: str) -> dict:
    """The false-alarm settings for dataset ``name``: ``config["false_alarm"]`` with
    the dataset's own ``false_alarm: {binaries, executions}`` sizes, if it gives them
    (a measured pool of 30 binaries x 10 executions is subsampled only up to its size),
    and its ``refine`` section (None without one: the cells a claim hinges on, run
    longer, :func:`esize_study.falsealarm.simulate.refined_cells`).
    """
    out = section_with_defaults(config, "false_alarm")
    own = config["datasets"][name].get("false_alarm") or {}
    for key in ("binaries", "executions"):
        if own.get(key):
            out[key] = list(own[key])
    out["refine"] = own.get("refine")
    return out


def coverage_settings(config: Mapping, name: str) -> dict:
    """The coverage settings for dataset ``name``: ``config["coverage"]`` with the
    dataset's own ``coverage: {experiments, boot_experiments, resamples, validation:
    {experiments, resamples}}`` where it gives them (a measured dataset whose coverage
    is judged on its own data can run the model's simulation with fewer experiments),
    and its ``refine`` section (None without one:
    :func:`esize_study.coverage.model.refine_factor`).
    """
    out = section_with_defaults(config, "coverage")
    own = config["datasets"][name].get("coverage") or {}
    for key in COVERAGE_OVERRIDES:
        if own.get(key):
            out[key] = int(own[key])
    for key in COVERAGE_VALIDATION_OVERRIDES:
        if (own.get("validation") or {}).get(key):
            out["validation"][key] = int(own["validation"][key])
    out["refine"] = own.get("refine")
    return out


def benchmark_file(config: Mapping, name: str, bench_slug: str) -> str:
    """Path of the raw tidy file of one benchmark of a directory dataset."""
    settings = dataset_settings(config, name)
    return str(_files_in(Path(settings["path"]))[bench_slug])


# -- where a value sits: the messages of every configuration check ----------------------
def _dotted(keys: Sequence[str | int]) -> str:
    return dotted(keys)


def _shown(path: str | Path) -> str:
    """``path`` relative to the working directory when it lies below it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


_MISSING = object()


def _yaml_line(path: str | Path, keys: Sequence[str | int]) -> int | None:
    """1-based line of the key (or list item) at ``keys`` in a YAML file, if found."""
    import yaml

    node = compose(path)  # None when it cannot be read or is beyond the limits
    line = None
    for k in keys:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == str(k):
                    line, node = key_node.start_mark.line + 1, value_node
                    break
            else:
                return None
        elif isinstance(node, yaml.SequenceNode) and isinstance(k, int) and k < len(node.value):
            node = node.value[k]
            line = node.start_mark.line + 1
        else:
            return None
    return line
