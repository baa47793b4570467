"""The workflow configuration checked: one line naming the file, the line and the key.

Snakemake reports a YAML syntax error without naming the file or the line, and a
schema violation with a dump of the whole schema. The functions here turn either into
one line naming the file, the line and the key, then check every dataset (its name,
its directory and data files, its costs file: :mod:`esize_study.datasets.settings`,
:mod:`esize_study.datasets.costs`). The Snakefile (``workflow/rules/common.smk``) and
the Makefile's pre-check (``python -m esize_study.datasets.config check-config
FILE...``) both use them.

:func:`validate_config` is the check with the defaults filled in after it, from the
schema (:mod:`esize_study.datasets.schema`, their one home): what the Snakefile does
with the configuration of ``make reproduce`` and ``make analyse`` alike;
:func:`load_config` does the same with configuration files.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from esize import InputError

from ..paper import numbers as paper
from .costs import dataset_costs
from .outputs import EXPECTED, OUTPUT_KEYS, dataset_dirs, output_dir_problem
from .schema import SCHEMA, load_schema, with_defaults
from .settings import (
    _MISSING,
    ConfigError,
    _dotted,
    _shown,
    _yaml_line,
    dataset_benchmarks,
    dataset_name_problem,
    dataset_settings,
    false_alarm_settings,
)
from .yamlfile import brief, load_yaml, read_text, value_problem

__all__ = [
    "SCHEMA",
    "ConfigProblem",
    "load_config_file",
    "merge_config",
    "config_problem",
    "validate_config",
    "load_config",
    "check_config_files",
    "snakemake_config_sources",
    "main",
]


class ConfigProblem(InputError):
    """A configuration that cannot be used; its text is the one line of the check
    (``FILE:LINE: problem``)."""

    def __init__(self, line: str):
        where, _, what = line.partition(": ")
        super().__init__(where, what)


def load_config_file(path: str | Path) -> dict:
    """Read a YAML (or JSON) configuration file into a dict.

    Raises
    ------
    esize.InputError
        When the file cannot be read (it is not a regular file, or larger than
        :data:`~esize_study.datasets.yamlfile.MAX_FILE_BYTES`), is not valid YAML (the
        message names the line as ``FILE:LINE``), goes beyond the limits of
        :mod:`esize_study.datasets.yamlfile` (aliases, nesting, digits, a key given
        twice) or does not hold a mapping of keys.
    """
    shown = _shown(path)
    text = read_text(path, shown)  # a regular file of at most 1 MiB, never a FIFO or device
    data = load_yaml(text, shown, "YAML syntax error")  # within the limits of .yamlfile
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InputError(shown, "a configuration file holds keys and values (a YAML mapping)")
    return data


def merge_config(base: dict, update: Mapping) -> dict:
    """Update ``base`` in place with ``update``, merging nested mappings (as Snakemake does)."""
    for key, value in update.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            merge_config(base[key], value)
        else:
            base[key] = value
    return base


def _lookup(data, keys: Sequence[str | int]):
    for k in keys:
        if isinstance(data, Mapping) and k in data:
            data = data[k]
        elif isinstance(data, list) and isinstance(k, int) and -len(data) <= k < len(data):
            data = data[k]
        else:
            return _MISSING
    return data


def _locate(keys, value, sources) -> str:
    """Where the value at ``keys`` came from: ``FILE:LINE``, ``FILE``, ``--config`` or ``config``.

    ``sources`` are ``(name, data)`` pairs in increasing precedence; a name that is not
    a file (``--config``) gets no line. With ``value`` given, a source counts only when
    it holds that very value (a later file may have overridden an earlier one).
    """
    for name, data in reversed(list(sources)):
        found = _lookup(data, keys)
        if found is _MISSING or (value is not _MISSING and found != value):
            continue
        if name == "--config":
            return name
        line = _yaml_line(name, keys)
        return f"{_shown(name)}:{line}" if line else _shown(name)
    return "config"


def _schema_message(error, config, sources) -> str:
    """One line for one ``jsonschema`` validation error."""
    error = _innermost(error)
    keys = list(error.absolute_path)
    if "propertyNames" in error.absolute_schema_path and keys == ["datasets"]:
        where = _locate([*keys, error.instance], _MISSING, sources)
        what = dataset_name_problem(error.instance) or " ".join(error.message.split())
        return f"{where}: datasets: {what}"
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        known = list(error.schema.get("properties", {}))
        unknown = [k for k in error.instance if k not in known]
        if unknown:
            import difflib

            key = unknown[0]
            where = _locate([*keys, key], _MISSING, sources)
            inside = f" in '{_dotted(keys)}'" if keys else ""
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            return f"{where}: unknown key '{key}'{inside}{hint} (known: {', '.join(known)})"
    if keys:
        where = _locate(keys, _lookup(config, keys), sources)
    else:  # the whole configuration (a required key missing): name the last file
        files = [name for name, _ in sources if name != "--config"]
        where = _shown(files[-1]) if files else "config"
    what = _schema_what(error)
    return f"{where}: {_dotted(keys)}: {what}" if keys else f"{where}: {what}"


def _innermost(error):
    """For an ``anyOf``/``oneOf`` error, the error of the branch the value fits the shape
    of but fails deeper inside (``costs: {build: -1}``: ``costs.build``), where there is
    one; otherwise the error itself."""
    while error.validator in ("anyOf", "oneOf") and error.context:
        deeper = [e for e in error.context if len(e.absolute_path) > len(error.absolute_path)]
        if not deeper:
            break
        error = max(deeper, key=lambda e: len(e.absolute_path))
    return error


def _schema_what(error) -> str:
    """What a ``jsonschema`` error says, with a short form of the value it names (never
    the whole of a large value), and for ``anyOf`` the schema's ``expected``."""
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    if error.validator in ("anyOf", "oneOf") and isinstance(schema.get("expected"), str):
        return f"expected {' '.join(schema['expected'].split())}, not {brief(error.instance)}"
    message = error.message
    whole = repr(error.instance)  # jsonschema's messages begin with the value, most of them
    if message.startswith(whole):
        message = brief(error.instance) + message[len(whole):]
    what = " ".join(message.split())
    return what if len(what) <= 200 else what[:197] + "..."


def _where_keys(keys: Sequence, sources) -> str:
    """``FILE:LINE: keys`` of a value found by :func:`value_problem` (the last source
    that holds it), the keys shortened when they are many."""
    where = _locate(list(keys), _MISSING, sources)
    if where == "config" and keys:
        where = _locate(list(keys[:1]), _MISSING, sources)
    shown = _dotted(keys)
    if len(shown) > 100:
        shown = shown[:97] + "..."
    return f"{where}: {shown}" if keys else where


def _output_dirs_problem(config: Mapping, schema: Mapping, sources) -> str | None:
    """The first of ``results_dir``, ``logs_dir`` and ``data_dir`` (given, or their
    defaults) that is not a directory of its own (:mod:`esize_study.datasets.outputs`)."""
    cwd = Path.cwd().resolve()
    dirs = dataset_dirs(config, cwd)
    for key in OUTPUT_KEYS:
        default = schema.get("properties", {}).get(key, {}).get("default")
        value = config.get(key, default)
        problem = output_dir_problem(key, value, dirs, cwd)
        if not problem:
            continue
        if key in config:
            where = _locate([key], value, sources)
        else:
            files = [name for name, _ in sources if name != "--config"]
            where = _shown(files[-1]) if files else "config"
        return (f"{where}: {key}: {EXPECTED.format(default=default)}; {brief(value)} "
                f"{problem}")
    return None


def config_problem(
    config: Mapping,
    schema: str | Path | Mapping = SCHEMA,
    sources: Sequence[tuple[str, Mapping]] = (),
) -> str | None:
    """The first problem of a workflow configuration, in one line, or None.

    Checks the values' limits (:func:`esize_study.datasets.yamlfile.value_problem`:
    finite numbers, nesting, size), ``config`` against the JSON schema, then every
    dataset's name (:func:`dataset_name_problem`), the directories the workflow writes
    into (:func:`esize_study.datasets.outputs.output_dir_problem`), then every
    dataset: a directory dataset's path (a directory holding
    data files), its costs file (a regular file, parsed and holding every field of
    :data:`esize_study.datasets.costs.COSTS_FIELDS` for each benchmark: :func:`dataset_costs`), a stand-in's
    benchmarks. A problem in a costs file names that file, not a configuration file.
    In ``make analyse``'s configuration (``mode: analyse``) only the names:
    :mod:`esize_study.analysis.check` checks the rest as that command reads it.

    Parameters
    ----------
    config : mapping
        The merged configuration.
    schema : path or mapping
        The JSON schema (``workflow/schemas/config.schema.yaml``).
    sources : sequence of (name, mapping)
        Where the configuration came from, in increasing precedence: file names with
        their contents, and ``"--config"`` for values given on the command line. The
        message names the source (and for files the line) of the offending key.

    Returns
    -------
    str or None
        ``"FILE:LINE: problem"`` or None when the configuration is usable.
    """
    import jsonschema

    schema = load_schema(schema)  # read once per file and version
    found = value_problem(config)  # NaN, inf, huge, deep or self-containing values
    if found:
        return f"{_where_keys(found[0], sources)}: {found[1]}"
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(
        validator.iter_errors(config),
        key=lambda e: (len(e.absolute_path), [str(k) for k in e.absolute_path]),
    )
    if errors:
        return _schema_message(errors[0], config, sources)
    for name in config["datasets"]:
        problem = dataset_name_problem(name)  # also without the schema's propertyNames
        if problem:
            return f"{_locate(['datasets', name], _MISSING, sources)}: datasets: {problem}"
    problem = _output_dirs_problem(config, schema, sources)
    if problem:
        return problem
    if config.get("mode") == "analyse":
        return None  # make analyse checks its datasets itself (esize_study.analysis.check)
    for name in config["datasets"]:
        try:
            _check_analysis_keys(config, name)
            benchmarks = dataset_benchmarks(config, name)
            _check_paper_costs(config, name, benchmarks)
            _check_refine(config, name, benchmarks)
            dataset_costs(config, name, benchmarks.values())
        except ConfigError as exc:
            where = _locate(exc.keys, _lookup(config, exc.keys), sources)
            if where == "config":
                where = _locate(exc.keys[:2], _MISSING, sources)
            return f"{where}: {exc}"
        except InputError as exc:  # in the costs file: it names itself
            return str(exc)
    return None


def _check_analysis_keys(config: Mapping, name: str) -> None:
    """A dataset entry using what only ``make analyse`` reads where the reproduction
    needs something else: a list of files, costs by level."""
    given = config["datasets"][name]
    if given.get("kind") == "files":
        raise ConfigError(("datasets", name, "kind"),
                          "a 'files' dataset is analysed by 'make analyse' only; the "
                          "reproduction reads a directory of tidy tables")
    costs = given.get("costs")
    if isinstance(costs, Mapping) and "file" not in costs:
        raise ConfigError(("datasets", name, "costs"),
                          "costs by level are read by 'make analyse' only; the reproduction "
                          "takes 'paper', 'data' or {file: costs.json}")


def _check_paper_costs(config: Mapping, name: str, benchmarks: Mapping[str, str]) -> None:
    """A directory dataset with ``costs: paper`` has only benchmarks of the paper."""
    settings = dataset_settings(config, name)
    if settings["kind"] != "directory" or settings["costs"] != "paper":
        return
    others = [b for b in benchmarks.values() if b not in paper.VARIATION_S]
    if others:
        raise ConfigError(("datasets", name, "costs"),
                          f"'paper' costs exist for the paper's ten benchmarks only, not for "
                          f"{', '.join(map(repr, others[:3]))}{', ...' if len(others) > 3 else ''}: "
                          "use 'data' or a costs file ({file: costs.json})")


def _check_refine(config: Mapping, name: str, benchmarks: Mapping[str, str]) -> None:
    """A dataset's ``refine`` sections name its benchmarks, and the false-alarm one
    sizes of its grid with whole blocks of comparisons (so that the refined blocks
    continue the grid's seeds)."""
    names = set(benchmarks.values())
    for section in ("false_alarm", "coverage"):
        refine = (config["datasets"][name].get(section) or {}).get("refine")
        if not refine:
            continue
        fa = false_alarm_settings(config, name) if section == "false_alarm" else None
        for i, entry in enumerate(refine["cells"]):
            where = ("datasets", name, section, "refine", "cells", i)
            wanted = entry["benchmarks"]
            unknown = [] if wanted == "all" else [b for b in wanted if b not in names]
            if unknown:
                raise ConfigError(where + ("benchmarks",),
                                  f"no benchmark {unknown[0]!r} in dataset {name!r}")
            if fa is None:
                continue
            if fa["comparisons"] % fa["block"]:
                raise ConfigError(where, f"refining needs false_alarm.comparisons "
                                         f"({fa['comparisons']}) in whole blocks of "
                                         f"{fa['block']}")
            off = [x for x in entry.get("schemes") or () if x not in fa["schemes"]]
            if off:
                raise ConfigError(where + ("schemes",), f"scheme {off[0]} is not among "
                                                        f"false_alarm.schemes {fa['schemes']}")
            for kind in ("binaries", "executions"):
                sizes = entry.get(kind)
                off = [] if sizes in (None, "all") else [k for k in sizes if k not in fa[kind]]
                if off:
                    raise ConfigError(where + (kind,), f"size {off[0]} is not among the "
                                                       f"grid's {kind} {fa[kind]}")


def snakemake_config_sources(workflow) -> list[tuple[str, Mapping]]:
    """Sources of a running Snakemake workflow's config, in increasing precedence.

    The files of ``configfile:`` directives, then those of ``--configfile``, then the
    values of ``--config``. Attributes missing from other Snakemake versions give
    fewer sources (the messages then name fewer files), never an error.
    """
    cli = [Path(p).resolve() for p in getattr(workflow, "overwrite_configfiles", None) or ()]
    files = [Path(p) for p in getattr(workflow, "configfiles", None) or ()]
    ordered = [p for p in files if p.resolve() not in cli] + [p for p in files if p.resolve() in cli]
    sources: list[tuple[str, Mapping]] = []
    for p in ordered:
        try:
            sources.append((str(p), load_config_file(p)))
        except InputError:
            continue
    settings = getattr(workflow, "config_settings", None)
    given = getattr(settings, "config", None)
    if given:
        sources.append(("--config", dict(given)))
    return sources


def validate_config(
    config: dict,
    schema: str | Path = SCHEMA,
    sources: Sequence[tuple[str, Mapping]] = (),
) -> str | None:
    """Check ``config`` (:func:`config_problem`) and, when it is usable, fill in every
    default of the schema, in place (:func:`esize_study.datasets.schema.with_defaults`).

    Returns the problem in one line, or None (the configuration then holds every key
    the code reads). The Snakefile calls it for ``make reproduce`` and ``make analyse``
    alike.
    """
    problem = config_problem(config, schema, sources)
    if problem is None:
        filled = with_defaults(config, schema)
        config.clear()
        config.update(filled)
    return problem


def _read_files(files: Sequence[str | Path]) -> tuple[list[tuple[str, Mapping]], dict]:
    """The sources of configuration files and their merge, later files overriding
    earlier ones (as Snakemake merges them). Raises :class:`esize.InputError`."""
    sources: list[tuple[str, Mapping]] = []
    merged: dict = {}
    for f in files:
        data = load_config_file(f)
        sources.append((str(f), data))
        merge_config(merged, copy.deepcopy(data))
    return sources, merged


def load_config(files: Sequence[str | Path], schema: str | Path = SCHEMA) -> dict:
    """The configuration of ``files`` (later files override earlier ones) as the
    workflow holds it: merged, checked and with its defaults (:func:`validate_config`).

    Raises
    ------
    esize.InputError
        A file that cannot be read, or :class:`ConfigProblem`: the one line of the check.
    """
    sources, merged = _read_files(files)
    problem = validate_config(merged, schema, sources)
    if problem:
        raise ConfigProblem(problem)
    return merged


def check_config_files(files: Sequence[str | Path], schema: str | Path = SCHEMA) -> str | None:
    """Read, merge (later files override earlier ones) and check configuration files.

    Returns the first problem in one line (a YAML syntax error as ``FILE:LINE``), or
    None.
    """
    try:
        sources, merged = _read_files(files)
    except InputError as exc:
        return str(exc)
    return config_problem(merged, schema, sources)


def check_config_main(argv, *, prog: str, about: str, check, schema) -> int:
    """A ``check-config FILE...`` command line around ``check(files, schema)`` (which
    returns the first problem or None): exit 0 printing nothing for a usable
    configuration, else one ``esize: error:`` line and exit 2."""
    import argparse

    parser = argparse.ArgumentParser(prog=prog)
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("check-config", help=about)
    cmd.add_argument("files", nargs="+", help="configuration files, later ones override")
    cmd.add_argument("--schema", default=str(schema), help="JSON schema (YAML)")
    args = parser.parse_args(argv)
    problem = check(args.files, args.schema)
    if problem:
        print(f"esize: error: {problem}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m esize_study.datasets.config check-config FILE...``: the Makefile's
    pre-check of the reproduction's configuration (:func:`check_config_main`)."""
    return check_config_main(argv, prog="python -m esize_study.datasets.config",
                             about="check workflow configuration files",
                             check=check_config_files, schema=SCHEMA)


if __name__ == "__main__":
    raise SystemExit(main())
