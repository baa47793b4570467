"""The schema, ``workflow/schemas/config.schema.yaml``: the one home of every default.

Every key of the configuration is described there (type, meaning, unit where it has
one) and every optional one has its default; :func:`esize_study.datasets.schema.with_defaults`
fills them in (:func:`esize_study.datasets.config.validate_config` in the Snakefile, for
``make reproduce`` and ``make analyse`` alike), and nothing else holds one: the
defaults the code held before (``DATASET_DEFAULTS``, ``KNOWN_EFFECT_DEFAULTS``, the
entry defaults and ``ANALYSIS_DEFAULTS`` of ``make analyse``) are checked here as the
schema's.
"""

from __future__ import annotations

import contextlib
import copy
import re
from pathlib import Path

import pytest
import yaml

from esize import InputError
from esize_study.analysis import config as aconfig
from esize_study.datasets import config as dconf
from esize_study.datasets import schema as dschema
from esize_study.datasets import settings as ds
from esize_study.paper import numbers as paper

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "workflow" / "schemas" / "config.schema.yaml"
#: Nodes that only give defaults of keys described elsewhere (a dataset entry's, by mode).
DEFAULTS_ONLY = ("reproduced_dataset", "analysed_dataset")
#: Not the configuration: a dataset's costs file, checked by check-config.
NOT_CONFIG = ("costs_file", "costs_entry")

#: The defaults the code held before they moved to the schema: a dataset entry of the
#: reproduction (settings.DATASET_DEFAULTS, and the entry keys Snakemake's validation
#: filled), its known effects (settings.KNOWN_EFFECT_DEFAULTS), an entry of make analyse
#: (analysis.config.ENTRY_DEFAULTS) and the shared analysis settings (ANALYSIS_DEFAULTS).
#: One change since: warmup 0, esize compare's default (issue 41), was auto.
ANALYSE_COMMON = {"levels": ["binary", "execution"], "value": "time", "order": None,
                  "unit": "s", "warmup": 0, "budgets": ["10 min", "1 h"],
                  "comparisons": []}
REPRODUCED = {"kind": "directory", "seed": 20121105, "binaries": paper.BINARIES,
              "executions": paper.EXECUTIONS, "measurements": None, "benchmarks": None,
              "costs": "data", "path": None, "known_effects": None, "false_alarm": None,
              "coverage": None, **ANALYSE_COMMON}
KNOWN_EFFECTS = {"seed": 20121107, "comparisons": 1000, "resamples": 1000, "block": 50,
                 "threads": 1, "binaries": [3, 5, 10, 20], "thresholds_pct": [0, 1, 2],
                 "reference_resamples": 2000}
ANALYSED = {"kind": "directory", "path": None, "files": None, "benchmarks": None,
            **ANALYSE_COMMON, "costs": None, "threshold": None}
ANALYSIS = {"alpha": 0.05, "threshold": 0.02, "resamples": 10000, "seed": 20240229,
            "false_alarm": {"comparisons": 200, "resamples": 200, "binaries": [3, 5, 10],
                            "min_binaries": 6},
            "known_ratio": {"comparisons": 200, "resamples": 200, "binaries": [3, 5, 10]}}


@pytest.fixture(scope="module")
def schema() -> dict:
    return yaml.safe_load(SCHEMA_FILE.read_text(encoding="utf-8"))


def _config_nodes(node: dict, path: str):
    """``(path, key, subschema, required)`` of every key the configuration part of the
    schema describes: ``properties`` below ``properties``, ``additionalProperties``,
    ``items`` and the branches of ``anyOf``."""
    required = set(node.get("required", ()))
    for key, sub in (node.get("properties") or {}).items():
        yield path, key, sub, key in required
        yield from _config_nodes(sub, f"{path}.{key}")
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        yield from _config_nodes(extra, f"{path}.*")
    if isinstance(node.get("items"), dict):
        yield from _config_nodes(node["items"], f"{path}[]")
    for i, branch in enumerate(node.get("anyOf", ())):
        yield from _config_nodes(branch, f"{path}<{i}>")


def _entry(schema: dict) -> dict:
    return schema["properties"]["datasets"]["additionalProperties"]


def _mode_defaults(schema: dict) -> dict[str, set[str]]:
    """Keys of a dataset entry given a default by each mode (and kind)."""
    out = {}
    for name in DEFAULTS_ONLY:
        node = schema["$defs"][name]
        keys = set(node.get("properties", {}))
        for branch in ("then", "else"):
            keys |= set(node.get(branch, {}).get("properties", {}))
        out[name] = keys
    return out


def test_every_key_is_described(schema):
    nodes = list(_config_nodes(schema, ""))
    for name in NOT_CONFIG:
        nodes += list(_config_nodes(schema["$defs"][name], f"$defs.{name}"))
    assert len(nodes) > 111
    for path, key, sub, _ in nodes:
        where = f"{path}.{key}"
        assert isinstance(sub.get("description"), str) and sub["description"].strip(), where
        assert {"type", "enum", "const", "anyOf"} & set(sub), f"{where}: no type"
    for path, key, sub, _ in nodes:  # a unit where a number has one
        if sub.get("type") != "object" and (key.endswith(("_seconds", "_pct"))
                                             or key in ("hours", "mean")):
            assert sub.get("unit") in ("s", "h", "%"), f"{path}.{key}"


def test_every_optional_key_has_a_default(schema):
    entry = set(_entry(schema)["properties"])
    by_mode = _mode_defaults(schema)
    for path, key, sub, required in _config_nodes(schema, ""):
        if required:
            continue
        if path == ".datasets.*" and "default" not in sub:
            assert key in by_mode["reproduced_dataset"] | by_mode["analysed_dataset"], key
        else:
            assert "default" in sub, f"{path}.{key}"
    # the mode's defaults give only defaults, of keys the entry describes
    for name, keys in by_mode.items():
        assert keys <= entry, (name, keys - entry)
        node = schema["$defs"][name]
        for props in [node.get("properties", {})] + [
                node.get(b, {}).get("properties", {}) for b in ("then", "else")]:
            assert all(set(v) == {"default"} for v in props.values()), name


def test_an_entry_gets_the_defaults_the_code_used_to_hold():
    def entry(given, mode):
        return dschema.entry_with_defaults({"datasets": {"x": given}}, "x", mode)

    assert entry({}, "reproduce") == REPRODUCED
    assert entry({"kind": "standin"}, "reproduce") == {**REPRODUCED, "kind": "standin",
                                                       "costs": "paper"}
    assert entry({"kind": "standin", "costs": "data"}, "reproduce")["costs"] == "data"
    variants = {"v": {"base": "b", "ratio": 1.01}}
    got = entry({"known_effects": {"variants": variants, "block": 7}}, "reproduce")
    assert got["known_effects"] == {**KNOWN_EFFECTS, "block": 7, "variants": variants}
    assert entry({}, "analyse") == ANALYSED
    assert dschema.section_with_defaults({}, "analysis") == ANALYSIS
    own = dschema.section_with_defaults({"analysis": {"false_alarm": {"comparisons": 50}}},
                                        "analysis")
    assert own == {**ANALYSIS, "false_alarm": {**ANALYSIS["false_alarm"], "comparisons": 50}}
    # what the functions that read them give
    s = ds.dataset_settings({"datasets": {"x": {"kind": "standin"}}}, "x")
    assert s == {**REPRODUCED, "kind": "standin", "costs": "paper", "costs_file": None}
    a = aconfig.entry_settings({"datasets": {"x": {"path": "d"}}}, "x")
    assert {k: a[k] for k in ANALYSED} == {**ANALYSED, "path": "d", "threshold": 0.02}
    assert aconfig.analysis_settings({}) == ANALYSIS


def test_defaults_fill_arrays_conditions_and_keep_the_schemas_order():
    given = {"datasets": {"b": {"comparisons": [{"new": "y", "old": "x"}], "kind": "standin"},
                          "a": {"path": "p"}},
             "analysis": {"false_alarm": {"resamples": 10, "comparisons": 20}}}
    before = copy.deepcopy(given)
    out = dschema.with_defaults(given)
    assert given == before  # a copy
    assert out["mode"] == "reproduce"
    assert out["datasets"]["b"]["comparisons"] == [{"old": "x", "new": "y", "ratio": None}]
    assert (out["datasets"]["b"]["costs"], out["datasets"]["a"]["costs"]) == ("paper", "data")
    assert list(out["analysis"]["false_alarm"]) == list(ANALYSIS["false_alarm"])
    assert list(out)[:3] == ["results_dir", "data_dir", "logs_dir"]
    assert list(out["datasets"]) == ["b", "a"]  # names stay in the user's order
    out["datasets"]["a"]["levels"].append("iteration")  # defaults are copies
    assert out["datasets"]["b"]["levels"] == ["binary", "execution"]
    assert dschema.with_defaults(out) == out  # filling twice changes nothing
    analysed = dschema.with_defaults({**given, "mode": "analyse"})["datasets"]["a"]
    assert analysed["costs"] is None and "seed" not in analysed
    assert "files" not in out["datasets"]["a"] and "seed" in out["datasets"]["a"]


def _described(config, node: dict, root: dict, path: str = "") -> list[str]:
    """Keys of a loaded configuration that the schema does not describe."""
    node = dschema._resolved(node, root)
    out = []
    if "anyOf" in node:  # described by one of the branches
        found = [_described(config, branch, root, path) for branch in node["anyOf"]]
        return min(found, key=len)
    if isinstance(config, dict):
        props = node.get("properties", {})
        extra = node.get("additionalProperties")
        for key, value in config.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            if sub is None or (key in props and not sub.get("description")):
                out.append(f"{path}.{key}")
            elif sub is not None:
                out += _described(value, sub, root, f"{path}.{key}")
    elif isinstance(config, list) and isinstance(node.get("items"), dict):
        for i, item in enumerate(config):
            out += _described(item, node["items"], root, f"{path}[{i}]")
    return out


@pytest.mark.parametrize("files", [
    ["config/config.yaml"],
    ["config/config.yaml", "config/test.yaml"],
    ["config/analyse-defaults.yaml", "examples/analyse/config.yaml"],
], ids=["paper", "test", "analyse"])
def test_a_loaded_configuration_holds_every_key_the_code_reads_all_described(files, schema):
    with contextlib.chdir(ROOT):
        config = dconf.load_config(files)
    assert _described(config, schema, schema) == []
    assert set(schema["properties"]) <= set(config)
    wanted = set(ANALYSED if config["mode"] == "analyse" else REPRODUCED)
    for name, entry in config["datasets"].items():
        assert wanted <= set(entry), (name, wanted - set(entry))
        if config["mode"] == "reproduce":  # the settings are the entry as loaded
            s = ds.dataset_settings(config, name)
            assert ({k: v for k, v in s.items() if k not in ("costs", "costs_file")}
                    == {k: v for k, v in entry.items() if k != "costs"})


def test_validate_config_fills_in_place_only_a_usable_configuration(tmp_path):
    config = {"datasets": {"s": {"kind": "standin"}}}
    assert dconf.validate_config(config, SCHEMA_FILE) is None
    assert config["datasets"]["s"]["costs"] == "paper" and config["false_alarm"]["block"] == 50
    bad = {"datasets": {"s": {"kind": "standin"}}, "hours": [-1]}
    assert dconf.validate_config(bad, SCHEMA_FILE).startswith("config: hours[0]: -1 ")
    assert "false_alarm" not in bad
    with pytest.raises(InputError, match=r"^missing\.yaml: no such file$"):
        dconf.load_config(["missing.yaml"])
    (tmp_path / "bad.yaml").write_text("hours: [-1]\n")
    with pytest.raises(dconf.ConfigProblem, match=r"bad\.yaml:1: hours\[0\]: -1 "):
        dconf.load_config([ROOT / "config" / "config.yaml", tmp_path / "bad.yaml"])


def test_no_other_place_fills_defaults():
    sources = [p for p in (ROOT / "src" / "esize_study").rglob("*.py")
               if "__pycache__" not in p.parts]
    sources += list((ROOT / "workflow").rglob("*.smk")) + [ROOT / "Snakefile"]
    sources += list((ROOT / "workflow" / "scripts").glob("*.py"))
    for p in sources:
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"set_default|snakemake\.utils import validate|_DEFAULTS\b", text), p
    common = (ROOT / "workflow" / "rules" / "common.smk").read_text()
    assert "dconf.validate_config(" in common
    assert dschema.SCHEMA == SCHEMA_FILE.resolve()


def test_a_copy_of_the_workflow_reads_its_own_schema(tmp_path):
    # make test-cluster runs copies of the workflow with a snapshot of the sources
    # beside neither: each reads the schema below its working directory
    import shutil
    import subprocess
    import sys

    (tmp_path / "workflow" / "schemas").mkdir(parents=True)
    shutil.copy(SCHEMA_FILE, tmp_path / "workflow" / "schemas")
    out = subprocess.run([sys.executable, "-c", "from esize_study.datasets import schema; "
                          "print(schema.SCHEMA)"], cwd=tmp_path, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == str((tmp_path / "workflow" / "schemas" / "config.schema.yaml").resolve())
