"""The workflow configuration's defaults, filled from its JSON schema: their one home.

``workflow/schemas/config.schema.yaml`` describes every key of the configuration: its
type, its meaning (``description``), its unit where it has one and, where the key is
optional, its ``default``. The defaults of a dataset entry that depend on the mode
(``make reproduce`` or ``make analyse``) and, for ``costs``, on the kind are given by the
schema's ``allOf``/``if``/``then``/``else``. No other module holds a default:
:func:`with_defaults` fills them in, the Snakefile on the whole configuration once it is
checked (:func:`esize_study.datasets.config.validate_config`), and the functions that
read one part of it (a dataset entry: :func:`entry_with_defaults`; a top-level section:
:func:`section_with_defaults`) on that part, so that they give the same settings
whether or not the configuration was filled before.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from pathlib import Path

__all__ = ["SCHEMA", "load_schema", "with_defaults", "entry_with_defaults",
           "section_with_defaults"]

#: Where the schema lies in a checkout of the workflow.
SCHEMA_IN_WORKFLOW = Path("workflow") / "schemas" / "config.schema.yaml"


def _find_schema() -> Path:
    """The schema of the workflow being run: below the working directory (where
    Snakemake and ``make`` run, also in a copy of the workflow whose sources are
    elsewhere), else in the checkout beside the study's sources."""
    here = Path.cwd() / SCHEMA_IN_WORKFLOW
    if here.is_file():
        return here.resolve()
    return Path(__file__).resolve().parents[3] / SCHEMA_IN_WORKFLOW


#: The schema of the workflow configuration (:func:`_find_schema`, on import).
SCHEMA = _find_schema()


def load_schema(schema: str | Path | Mapping | None = None) -> Mapping:
    """The schema as a mapping: ``schema`` itself, or read from its file (default
    :data:`SCHEMA`; read once per file and version)."""
    if isinstance(schema, Mapping):
        return schema
    path = Path(schema if schema is not None else SCHEMA).resolve()
    return _read(str(path), path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _read(path: str, _version: int) -> Mapping:
    import yaml

    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def with_defaults(instance, schema: str | Path | Mapping | None = None):
    """A copy of ``instance`` with every default of the schema filled in.

    Where the instance has an object, each key of the schema's ``properties`` it
    lacks gets that key's ``default`` (a copy), and its values are filled in turn
    (``properties``, ``additionalProperties``; the items of an array by ``items``;
    ``$ref`` within the schema). ``allOf`` and ``if``/``then``/``else`` add the
    defaults of the branches that hold once the unconditional ones are in; ``anyOf``
    and ``oneOf`` add none. The keys of every object come in the order of the
    schema's ``properties``, keys the schema does not name after them: the same
    settings whatever the order of the files (a report writes some of them as they
    come). Values are not checked: check first
    (:func:`esize_study.datasets.config.config_problem`).
    """
    root = load_schema(schema)
    return _with_defaults(instance, root, root)


def entry_with_defaults(config: Mapping, name: str, mode: str,
                        schema: str | Path | Mapping | None = None) -> dict:
    """Dataset ``name`` of ``config`` with the defaults of an entry in ``mode``
    (``"reproduce"`` or ``"analyse"``): a copy; :func:`with_defaults` of the
    configuration gives the same entry."""
    root = load_schema(schema)
    one = {"mode": mode, "datasets": {name: config["datasets"][name]}}
    return _with_defaults(one, _top(root, ("mode", "datasets")), root)["datasets"][name]


def section_with_defaults(config: Mapping, key: str,
                          schema: str | Path | Mapping | None = None) -> dict:
    """The top-level section ``key`` of ``config`` (``false_alarm``, ``coverage``,
    ``analysis``) with its defaults: a copy; :func:`with_defaults` of the
    configuration gives the same section."""
    root = load_schema(schema)
    return _with_defaults({key: config.get(key) or {}}, _top(root, (key,)), root)[key]


# -- the walk ------------------------------------------------------------------------------
def _with_defaults(instance, node: Mapping, root: Mapping):
    out = copy.deepcopy(instance)
    _fill(out, node, root)
    return _ordered(out, node, root)


def _top(root: Mapping, keys: tuple[str, ...]) -> dict:
    """The schema of the top-level ``keys`` alone (what a part of the configuration
    needs: their properties and the conditions, which name the mode and datasets)."""
    return {"properties": {k: root["properties"][k] for k in keys},
            "allOf": root.get("allOf", [])}


def _resolved(node: Mapping, root: Mapping) -> Mapping:
    """``node`` with its ``$ref`` (``#/...`` within the schema) merged in."""
    while "$ref" in node:
        ref = node["$ref"]
        if not ref.startswith("#/"):
            raise ValueError(f"only references within the schema are followed, not {ref!r}")
        target = root
        for part in ref[2:].split("/"):
            target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _fill(instance, node: Mapping, root: Mapping) -> None:
    if not isinstance(instance, (dict, list)):
        return  # a default goes into an object: nothing to fill in a number or a text
    node = _resolved(node, root)
    if isinstance(instance, dict):
        props = node.get("properties", {})
        for key, sub in props.items():
            sub = _resolved(sub, root)
            if key not in instance and "default" in sub:
                instance[key] = copy.deepcopy(sub["default"])
        extra = node.get("additionalProperties")
        for key, value in instance.items():
            sub = props[key] if key in props else extra
            if isinstance(value, (dict, list)) and isinstance(sub, dict):
                _fill(value, sub, root)
    elif isinstance(node.get("items"), dict):
        for item in instance:
            if isinstance(item, (dict, list)):
                _fill(item, node["items"], root)
    for sub in node.get("allOf", ()):
        _fill(instance, sub, root)
    if "if" in node:
        branch = node.get("then" if _holds(instance, node["if"], root) else "else")
        if branch is not None:
            _fill(instance, branch, root)


def _holds(instance, condition: Mapping, root: Mapping) -> bool:
    """Whether ``instance`` satisfies ``condition`` (an ``if``)."""
    key = id(condition)
    if key not in _CONDITIONS or _CONDITIONS[key][0] is not condition:
        import jsonschema

        _CONDITIONS[key] = (condition, jsonschema.Draft202012Validator(
            {**condition, "$defs": root.get("$defs", {})}))
    return _CONDITIONS[key][1].is_valid(instance)


#: Checkers of the schema's conditions, by the condition's identity.
_CONDITIONS: dict[int, tuple] = {}


def _ordered(instance, node: Mapping, root: Mapping):
    """``instance`` with the keys of its objects in the schema's order (in place)."""
    if not isinstance(instance, (dict, list)):
        return instance
    node = _resolved(node, root)
    if isinstance(instance, dict):
        props = node.get("properties", {})
        extra = node.get("additionalProperties")
        keys = [k for k in props if k in instance] + [k for k in instance if k not in props]
        items = [(k, instance[k]) for k in keys]
        instance.clear()
        for key, value in items:
            sub = props[key] if key in props else extra
            nested = isinstance(value, (dict, list)) and isinstance(sub, dict)
            instance[key] = _ordered(value, sub, root) if nested else value
    elif isinstance(node.get("items"), dict):
        for item in instance:
            if isinstance(item, (dict, list)):
                _ordered(item, node["items"], root)
    return instance
