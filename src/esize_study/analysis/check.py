"""``check-config`` of ``make analyse``: one line naming the file, the line, the key
and the problem, or nothing.

``python -m esize_study.analysis check-config config/analyse-defaults.yaml my.yaml``
(the Makefile's pre-check) merges the files as Snakemake does, checks them as the
reproduction's check does (the schema, dataset names:
:func:`esize_study.datasets.config.config_problem`), then every dataset as ``make analyse``
reads it (:func:`entry_problem`: its settings, :mod:`esize_study.analysis.config`, and
its files, :mod:`esize_study.analysis.read`). The workflow runs the same check when it
parses its rules (``workflow/rules/analyse.smk``), so that Snakemake run by hand stops
with the same line.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from esize import InputError

from ._study import dconfig, dsettings, entry_with_defaults
from .config import MODE, EntryProblem, dataset_files, entry_settings, is_analyse
from .read import scan

__all__ = ["entry_problem", "entries_problem", "problem", "check_files", "main"]


def entry_problem(config: Mapping, name: str) -> tuple[tuple, str] | None:
    """The first problem of dataset ``name`` for ``make analyse``, or None: a stand-in
    (no files to analyse), values that do not parse, missing files, comparisons naming
    benchmarks that are not in the dataset, costs of levels that no file has, tables
    without the configured columns.

    Returns
    -------
    (tuple, str) or None
        ``(keys, message)``: where the problem sits and what it is, in one line
        (:func:`entries_problem` names the file and the line).
    """
    where = ("datasets", name)
    if entry_with_defaults(config, name, MODE)["kind"] == "standin":
        return (*where, "kind"), ("a stand-in has no files to analyse: 'make analyse' reads "
                                  "a directory (kind: directory) or a list of files (kind: files)")
    try:
        settings = entry_settings(config, name)
        files = dataset_files(settings, name)
        scan(settings, files).check(settings)  # reads the JSON files' benchmark names
    except EntryProblem as exc:
        return exc.keys, exc.message
    return None


def entries_problem(config: Mapping, sources: Sequence[tuple[str, Mapping]] = ()) -> str | None:
    """The first problem of the datasets of a checked configuration, ``FILE:LINE:
    KEYS: problem``, or None."""
    for name in config["datasets"]:
        found = entry_problem(config, name)
        if found is None:
            continue
        keys, message = found
        where = dconfig._locate(keys, dconfig._lookup(config, keys), sources)
        if where == "config":
            where = dconfig._locate(keys[:2], dsettings._MISSING, sources)
        return f"{where}: {dsettings._dotted(keys)}: {message}"
    return None


def problem(config: Mapping, sources: Sequence[tuple[str, Mapping]] = (),
            schema=dconfig.SCHEMA) -> str | None:
    """The first problem of a ``make analyse`` configuration, in one line, or None."""
    found = dconfig.config_problem(config, schema, sources)
    if found:
        return found
    if not is_analyse(config):
        files = [name for name, _ in sources if name != "--config"]
        where = files[0] if files else "config"
        return (f"{where}: mode: 'make analyse' needs mode: {MODE} "
                "(config/analyse-defaults.yaml sets it)")
    return entries_problem(config, sources)


def check_files(files: Sequence[str], schema=dconfig.SCHEMA) -> str | None:
    """Read, merge (later files override earlier ones) and check configuration files."""
    sources, merged = [], {}
    for f in files:
        try:
            data = dconfig.load_config_file(f)
        except InputError as exc:
            return str(exc)
        sources.append((str(f), data))
        dconfig.merge_config(merged, copy.deepcopy(data))
    return problem(merged, sources, schema)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m esize_study.analysis check-config FILE...``: exit 0 and print nothing
    for a usable configuration, else one ``esize: error:`` line and exit 2."""
    return dconfig.check_config_main(argv, prog="python -m esize_study.analysis",
                                     about="check make analyse's configuration files",
                                     check=check_files, schema=dconfig.SCHEMA)
