"""Support for the reproduction workflow (``Snakefile``, ``workflow/``).

The Snakemake rules stay thin: they name files, and the scripts they run call the
functions here and the library. Nothing in this module does statistics.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import json
import logging
import math
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from esize import Design, DesignError, InputError, from_tidy
from esize._atomic import atomic_write, atomic_write_text

from . import paper
from .reproduction import slug

__all__ = [
    "DATASET_DEFAULTS",
    "ConfigError",
    "COSTS_FIELDS",
    "dataset_name_problem",
    "read_costs_file",
    "costs_problem",
    "costs_entry_problem",
    "load_config_file",
    "merge_config",
    "config_problem",
    "check_config_files",
    "snakemake_config_sources",
    "dataset_settings",
    "dataset_benchmarks",
    "known_effects",
    "false_alarm_settings",
    "dataset_costs",
    "dataset_build_seconds",
    "code_hash",
    "read_table",
    "load_benchmark_file",
    "write_json",
    "write_csv",
    "save_design",
    "load_design_npz",
    "script_logging",
    "warmup_for",
    "write_parquet",
    "atomic_write_text",
    "fail",
]

TIDY_COLUMNS = ("binary", "execution", "iteration", "time")
DATA_SUFFIXES = (".parquet", ".pq", ".csv", ".csv.gz")
PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")

DATASET_DEFAULTS = {
    "kind": "directory",
    "seed": 20121105,
    "binaries": paper.BINARIES,
    "executions": paper.EXECUTIONS,
    "measurements": None,
    "benchmarks": None,
    "costs": "data",
    "path": None,
    "known_effects": None,
    "false_alarm": None,
}

#: Settings of a dataset's known-effect experiment (``known_effects:``) not given.
KNOWN_EFFECT_DEFAULTS = {
    "seed": 20121107,
    "comparisons": 1000,
    "resamples": 1000,
    "block": 50,
    "threads": 1,
    "binaries": [3, 5, 10, 20],
    "thresholds_pct": [0, 1, 2],
    "reference_resamples": 2000,
    "variants": {},
}


#: What a dataset name may be: it becomes a directory (``results/<dataset>/``) and a
#: Snakemake wildcard value, so no '/', '{', space or leading dot, and no '..'.
DATASET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
DATASET_NAME_RULE = "use letters, digits, '.', '_' and '-', starting with a letter or digit"


def dataset_name_problem(name) -> str | None:
    """Why ``name`` cannot name a dataset (one line), or None when it can.

    The rule of :data:`DATASET_NAME`, matched whole, without ``..``; the same as the
    ``propertyNames`` of ``datasets`` in the schema.
    """
    if not isinstance(name, str):
        return (f"name {name!r} is not allowed: YAML reads it as a number or another "
                f"value, not as text; write it in quotes ('{name}')")
    if not DATASET_NAME.fullmatch(name):
        return f"name {name!r} is not allowed: {DATASET_NAME_RULE}"
    if ".." in name:
        return f"name {name!r} is not allowed: {DATASET_NAME_RULE}, and no '..'"
    return None


#: The fields of a benchmark's entry in a costs file that the pipeline reads, in
#: seconds: ``(keys, required, positive, meaning)``. ``positive``: the number must be
#: more than 0 (otherwise any finite number). The schema documents the same fields
#: (``$defs: costs_entry`` in ``workflow/schemas/config.schema.yaml``; a test keeps
#: the two alike); other keys are allowed and not read.
COSTS_FIELDS: tuple[tuple[tuple[str, ...], bool, bool, str], ...] = (
    (("steady_iteration_seconds", "mean"), True, True,
     "mean time of one iteration after the warm-up, the unit every cost is counted in"),
    (("new_binary_seconds",), True, True, "mean time to build one binary"),
    (("execution_overhead_seconds", "mean"), True, True,
     "mean per execution of its process's wall time minus the sum of its iteration "
     "times (start-up, input set-up, exit)"),
    (("warmup_excess_seconds", "mean"), True, False,
     "mean per execution of the sum over its warm-up iterations of (time - the "
     "execution's steady mean), any sign (a negative mean counts as 0)"),
    (("process_seconds", "mean"), False, True,
     "mean wall time of one execution's process (optional; with the build time it "
     "gives the budget the measurement took, the 'measured' row)"),
)


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


def dataset_settings(config: Mapping, name: str) -> dict:
    """Settings of dataset ``name`` with defaults filled in.

    A directory dataset may name a costs file, ``costs: {file: costs.json}`` (a path
    relative to the dataset's directory); its settings then hold ``costs: "data"``
    (what the generic rules understand) and ``costs_file``, the file's path. Its
    ``known_effects`` come back with :data:`KNOWN_EFFECT_DEFAULTS` filled in.

    Raises
    ------
    ConfigError
        A directory dataset without a ``path``, or a stand-in with a costs file or
        known effects (they need measured files).
    """
    given = config["datasets"][name]
    out = dict(DATASET_DEFAULTS)
    out.update(given)
    out["costs_file"] = None
    if out["kind"] == "standin":
        out.setdefault("costs", "paper")
        if "costs" not in given:
            out["costs"] = "paper"
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
    if out.get("known_effects"):
        ke = dict(KNOWN_EFFECT_DEFAULTS)
        ke.update(out["known_effects"])
        out["known_effects"] = ke
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
    s = dataset_settings(config, name)
    if s["kind"] == "standin":
        names = s["benchmarks"] or list(paper.BENCHMARKS)
        unknown = [b for b in names if b not in paper.BENCHMARKS]
        if unknown:
            raise ConfigError(
                ("datasets", name, "benchmarks"),
                f"unknown stand-in benchmark(s) {', '.join(map(repr, unknown))} "
                f"(known: {', '.join(paper.BENCHMARKS)})",
            )
        return {slug(b): b for b in names}
    files = _dataset_files(s, name)
    variants = _known_effects(s, name, files)
    files = {k: v for k, v in files.items() if k not in variants}
    wanted = s["benchmarks"]
    if wanted:
        files = {k: v for k, v in files.items() if k in {slug(b) for b in wanted}}
    if not files:
        raise ConfigError(("datasets", name, "benchmarks") if wanted else ("datasets", name, "path"),
                          f"none of the {'listed ' if wanted else ''}benchmarks has a file in "
                          f"{s['path']!r}" + ("" if wanted else " besides the known-effect variants"))
    if s["costs_file"]:
        what = _not_a_file(Path(s["costs_file"]))
        if what:
            raise ConfigError(("datasets", name, "costs", "file"),
                              f"costs file {s['costs_file']!r} {what} (a relative name "
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


def _dataset_files(s: Mapping, name: str) -> dict[str, Path]:
    """Data files of a directory dataset by slug (checked to exist)."""
    directory = Path(s["path"])
    where = ("datasets", name, "path")
    if not directory.is_dir():
        what = ("does not exist" if not directory.exists() else
                "is a file, not a directory" if directory.is_file() else "is not a directory")
        raise ConfigError(where, f"directory {s['path']!r} {what} (a relative path starts "
                                 "from the directory Snakemake runs in)")
    try:
        files = _files_in(directory)
    except OSError as exc:
        raise ConfigError(where, f"directory {s['path']!r} cannot be read: "
                                 f"{exc.strerror or exc}") from None
    if not files:
        raise ConfigError(where, f"no .parquet or .csv files in {s['path']!r}")
    for f in files.values():
        what = _not_a_file(f)
        if what:
            raise ConfigError(where, f"data file {str(f)!r} {what}")
    return files


def _known_effects(s: Mapping, name: str, files: Mapping[str, Path]) -> dict[str, dict]:
    """The checked known effects of a directory dataset, by variant slug."""
    ke = s.get("known_effects") or {}
    out: dict[str, dict] = {}
    variants = ke.get("variants") or {}
    for variant, spec in variants.items():
        where = ("datasets", name, "known_effects", "variants", variant)
        v, b = slug(str(variant)), slug(str(spec["base"]))
        for what, key in (("variant", v), ("base", b)):
            if key not in files:
                raise ConfigError(where, f"no file for the {what} {key!r} in {s['path']!r}")
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
    s = dataset_settings(config, name)
    if s["kind"] == "standin" or not s.get("known_effects"):
        return {}
    return _known_effects(s, name, _dataset_files(s, name))


def false_alarm_settings(config: Mapping, name: str) -> dict:
    """The false-alarm settings for dataset ``name``: ``config["false_alarm"]`` with
    the dataset's own ``false_alarm: {binaries, executions}`` sizes, if it gives them
    (a measured pool of 30 binaries x 10 executions is subsampled only up to its size).
    """
    out = copy.deepcopy(dict(config["false_alarm"]))
    own = config["datasets"][name].get("false_alarm") or {}
    for key in ("binaries", "executions"):
        if own.get(key):
            out[key] = list(own[key])
    return out


def dataset_costs(config: Mapping, name: str,
                  benchmarks: Iterable[str] | None = None) -> dict | None:
    """The measured costs of dataset ``name`` (its costs file), checked, or None.

    The file (:func:`read_costs_file`) holds ``sets: {benchmark: {...}}`` with the
    fields of :data:`COSTS_FIELDS` for every benchmark of the dataset (by display
    name, the data file's name without its extension; ``benchmarks`` when given,
    otherwise :func:`dataset_benchmarks`).

    Raises
    ------
    esize.InputError
        Naming the costs file (and the line), the key and the problem, when the file
        cannot be read or parsed or lacks a field (:func:`costs_problem`).
    """
    s = dataset_settings(config, name)
    if not s["costs_file"]:
        return None
    path = s["costs_file"]
    data = read_costs_file(path)
    if benchmarks is None:
        benchmarks = dataset_benchmarks(config, name).values()
    problem = costs_problem(data, benchmarks)
    if problem:
        keys, message = problem
        line = _yaml_line(path, _present(data, keys))
        where = f"{_shown(path)}:{line}" if line else _shown(path)
        raise InputError(where, f"{_dotted(keys)}: {message}")
    return data


def read_costs_file(path: str | Path) -> dict:
    """A costs file's contents: JSON, or YAML when its name ends in ``.yaml``/``.yml``.

    Raises
    ------
    esize.InputError
        When the file cannot be read, does not parse (the message names the line as
        ``FILE:LINE``) or does not hold a mapping.
    """
    import yaml

    shown = _shown(path)
    what = _not_a_file(Path(path))
    if what:
        raise InputError(shown, f"costs file {what}")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(shown, "cannot read: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(shown, f"cannot read: {exc.strerror or exc}") from None
    if not text.strip():
        raise InputError(shown, "the costs file is empty")
    if str(path).lower().endswith((".yaml", ".yml")):
        try:
            data = yaml.safe_load(text)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = f"{shown}:{mark.line + 1}" if mark is not None else shown
            what = " ".join(str(exc.problem or exc.context or "invalid YAML").split())
            raise InputError(where, f"not valid YAML: {what}") from None
        except yaml.YAMLError as exc:
            raise InputError(shown, f"not valid YAML: {' '.join(str(exc).split())}") from None
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{shown}:{exc.lineno}",
                             f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(data, dict):
        raise InputError(shown, "a costs file holds a mapping with 'sets': {benchmark: "
                                f"costs}}, not {_brief(data)}")
    return data


def _brief(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _present(data, keys: Sequence[str]) -> list[str]:
    """The longest prefix of ``keys`` that ``data`` holds (to find its line)."""
    out: list[str] = []
    for k in keys:
        if not (isinstance(data, Mapping) and k in data):
            break
        data = data[k]
        out.append(k)
    return out


def costs_entry_problem(entry) -> tuple[tuple[str, ...], str] | None:
    """The first problem of one benchmark's entry of a costs file: ``(keys, message)``
    with ``keys`` inside the entry, or None. The rules of :data:`COSTS_FIELDS`."""
    if not isinstance(entry, Mapping):
        return (), f"expected a mapping of costs, got {_brief(entry)}"
    for keys, required, positive, meaning in COSTS_FIELDS:
        value = entry
        for i, k in enumerate(keys):
            if not isinstance(value, Mapping):
                inner = "'" + "', '".join(keys[i:]) + "'"
                return keys[:i], f"expected a mapping with {inner}, got {_brief(value)}"
            if k not in value:
                if not required:
                    value = _MISSING
                    break
                return keys, f"missing, in seconds: {meaning}"
            value = value[k]
        if value is _MISSING:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return keys, f"expected a number of seconds, got {_brief(value)}"
        if not math.isfinite(value):
            return keys, f"{value!r} is not a finite number"
        if positive and value <= 0:
            return keys, f"{value!r} is not positive: a time in seconds must be more than 0"
    return None


def costs_problem(data: Mapping, benchmarks: Iterable[str]) -> tuple[tuple[str, ...], str] | None:
    """The first problem of a costs file's contents, ``(keys, message)``, or None.

    ``sets`` must hold an entry for each of ``benchmarks`` (display names), each with
    the fields of :data:`COSTS_FIELDS`; ``unit``, when given, must be ``seconds``.
    """
    unit = data.get("unit", "seconds")
    if unit != "seconds":
        return ("unit",), f"{_brief(unit)} is not supported: every time is in seconds"
    if "sets" not in data:
        return ("sets",), "missing: the costs of each benchmark, sets: {benchmark: costs}"
    sets = data["sets"]
    if not isinstance(sets, Mapping):
        return ("sets",), f"expected a mapping {{benchmark: costs}}, got {_brief(sets)}"
    for b in benchmarks:
        if b not in sets:
            has = [str(k) for k in sets]
            has = has[:8] + ["..."] if len(has) > 8 else has or ["none"]
            return ("sets", b), (f"missing: every benchmark of the dataset needs its costs "
                                 f"(has: {', '.join(has)})")
        problem = costs_entry_problem(sets[b])
        if problem:
            return ("sets", b, *problem[0]), problem[1]
    return None


def dataset_build_seconds(config: Mapping, name: str) -> float:
    """Seconds to build one binary for dataset ``name``: the mean measured build time
    of its benchmarks when it has a costs file, otherwise ``config["build_seconds"]``."""
    benchmarks = list(dataset_benchmarks(config, name).values())
    costs = dataset_costs(config, name, benchmarks)
    if costs is None:
        return float(config["build_seconds"])
    times = [float(costs["sets"][b]["new_binary_seconds"]) for b in benchmarks]
    return float(np.mean(times)) if times else float(config["build_seconds"])


def benchmark_file(config: Mapping, name: str, bench_slug: str) -> str:
    """Path of the raw tidy file of one benchmark of a directory dataset."""
    s = dataset_settings(config, name)
    return str(_files_in(Path(s["path"]))[bench_slug])


def code_hash() -> str:
    """Short SHA-256 of every source file of ``esize`` and ``esize_study``, as they are.

    The hash of the code in ``provenance.json`` (rule ``provenance`` passes it as its
    param), which ``make archive`` compares with the archived source
    (:func:`esize_study.archive.code_hash_of_sources`). The other rules pass the hash
    of the code they run only (:func:`esize_study.codehash.rule_code_hash`).
    """
    import esize

    h = hashlib.sha256()
    for root in (Path(esize.__file__).parent, Path(__file__).parent):
        for f in sorted(root.rglob("*.py")):
            h.update(f.relative_to(root.parent).as_posix().encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def read_table(path: str | Path):
    """Read a tidy CSV (optionally compressed) or Parquet file into a DataFrame.

    Raises
    ------
    esize.InputError
        When the file is missing, a directory, or cannot be parsed.
    """
    import pandas as pd

    p = Path(path)
    if not p.exists():
        raise InputError(p, "no such file")
    if p.is_dir():
        raise InputError(p, "is a directory, not a file")
    try:
        if p.suffix.lower() in PARQUET_SUFFIXES:
            return pd.read_parquet(p)
        return pd.read_csv(p)
    except Exception as exc:  # pandas and pyarrow raise many types for malformed files
        msg = " ".join(str(exc).split()) or type(exc).__name__
        raise InputError(p, f"cannot read: {msg}") from None


def load_benchmark_file(path: str | Path) -> tuple[Design, int]:
    """Read a raw tidy benchmark file (``binary, execution, iteration, time``).

    Returns the three-level design with *all* iterations (warm-up included) and the
    raw count per execution. Rows are ordered by iteration within each execution.
    """
    frame = read_table(path)
    missing = [c for c in TIDY_COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(path, f"missing column(s) {missing}; expected {list(TIDY_COLUMNS)}")
    frame = frame.sort_values(["binary", "execution", "iteration"], kind="stable")
    try:
        d = from_tidy(frame, ["binary", "execution"], value="time")
        if np.any(d.data <= 0):
            raise DesignError("column 'time' has non-positive values")
    except DesignError as exc:
        raise InputError(path, str(exc)) from None
    return d, d.shape[-1]


def warmup_for(fraction: float, raw: int) -> int:
    """Warm-up measurements to drop: ``fraction * raw`` rounded half up.

    With the paper's 30 % this gives its counts (64 -> 19, 256 -> 77, 512 -> 154).
    """
    if abs(fraction - paper.WARMUP_FRACTION) < 1e-12:
        return paper.warmup_count(raw)
    return int(math.floor(fraction * raw + 0.5 + 1e-9))


def write_parquet(path: str | Path, frame) -> None:
    """Write a DataFrame as Parquet, atomically (:func:`esize._atomic.atomic_write`)."""
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    atomic_write(path, buf.getvalue())


def write_parquet_columns(path: str | Path, columns: Mapping[str, np.ndarray]) -> None:
    """Write named columns (numpy arrays; object arrays of str become strings) as
    Parquet, atomically, with pyarrow alone: the simulation jobs skip importing
    pandas. Read back with pandas, the table equals ``pandas.DataFrame(columns)``.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({k: pa.array(v.tolist() if v.dtype == object else v)
                      for k, v in columns.items()})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    atomic_write(path, sink.getvalue().to_pybytes())


def save_design(path: str | Path, design: Design, **meta) -> None:
    """Store a design (and JSON-able metadata) as ``.npz``, atomically."""
    buf = io.BytesIO()
    np.savez(buf, data=design.data, levels=np.array(design.levels), meta=json.dumps(meta))
    atomic_write(path, buf.getvalue())


def load_design_npz(path: str | Path) -> tuple[Design, dict]:
    with np.load(path, allow_pickle=False) as z:
        return Design(z["data"], tuple(str(x) for x in z["levels"])), json.loads(str(z["meta"]))


def _clean(obj):
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, (np.floating, float)):
        x = float(obj)
        return x if math.isfinite(x) else None
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return _clean(obj.tolist())
    return obj


def write_json(path: str | Path, obj) -> None:
    """JSON with numpy values converted and non-finite numbers as null, atomically."""
    atomic_write_text(path, json.dumps(_clean(obj), indent=2, allow_nan=False) + "\n")


def write_csv(path: str | Path, rows: Sequence[Mapping], columns: Iterable[str] | None = None) -> None:
    """CSV of ``rows`` (dicts), atomically; floats with full precision."""
    rows = list(rows)
    cols = list(columns) if columns is not None else list(rows[0].keys())
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: _clean(r.get(k)) for k in cols})
    atomic_write_text(path, buf.getvalue())


def script_logging(log_path: str | None) -> logging.Logger:
    """Send a workflow script's log (and uncaught errors) to its Snakemake log file."""
    logger = logging.getLogger("esize.pipeline")
    logger.setLevel(logging.INFO)
    logger.handlers.clear()
    handler: logging.Handler
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(log_path, mode="w")
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)

    def excepthook(tp, value, tb):
        logger.error("%s: %s", tp.__name__, value, exc_info=(tp, value, tb))
        sys.__excepthook__(tp, value, tb)

    sys.excepthook = excepthook
    return logger


def fail(logger: logging.Logger, exc: Exception) -> None:
    """Log a user-facing error and stop the script with one line on stderr."""
    logger.error("%s", exc)
    raise SystemExit(f"esize: error: {exc}")


# -- the workflow configuration -------------------------------------------------------
#
# Snakemake reports a YAML syntax error without naming the file or the line, and a
# schema violation with a dump of the whole schema. The functions below turn either
# into one line naming the file, the line and the key; the Snakefile
# (workflow/rules/common.smk) and the Makefile's pre-check both use them.

SCHEMA = Path("workflow") / "schemas" / "config.schema.yaml"


def _dotted(keys: Sequence[str | int]) -> str:
    out = ""
    for k in keys:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


def _shown(path: str | Path) -> str:
    """``path`` relative to the working directory when it lies below it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_config_file(path: str | Path) -> dict:
    """Read a YAML (or JSON) configuration file into a dict.

    Raises
    ------
    esize.InputError
        When the file cannot be read, is not valid YAML (the message names the line
        as ``FILE:LINE``) or does not hold a mapping of keys.
    """
    import yaml

    shown = _shown(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(shown, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(shown, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{shown}:{mark.line + 1}" if mark is not None else shown
        what = " ".join(str(exc.problem or exc.context or "invalid YAML").split())
        raise InputError(where, f"YAML syntax error: {what}") from None
    except yaml.YAMLError as exc:
        raise InputError(shown, f"YAML syntax error: {' '.join(str(exc).split())}") from None
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


_MISSING = object()


def _lookup(data, keys: Sequence[str | int]):
    for k in keys:
        if isinstance(data, Mapping) and k in data:
            data = data[k]
        elif isinstance(data, list) and isinstance(k, int) and -len(data) <= k < len(data):
            data = data[k]
        else:
            return _MISSING
    return data


def _yaml_line(path: str | Path, keys: Sequence[str | int]) -> int | None:
    """1-based line of the key (or list item) at ``keys`` in a YAML file, if found."""
    import yaml

    try:
        node = yaml.compose(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
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
    what = " ".join(error.message.split())
    if len(what) > 200:
        what = what[:197] + "..."
    return f"{where}: {_dotted(keys)}: {what}" if keys else f"{where}: {what}"


def config_problem(
    config: Mapping,
    schema: str | Path | Mapping = SCHEMA,
    sources: Sequence[tuple[str, Mapping]] = (),
) -> str | None:
    """The first problem of a workflow configuration, in one line, or None.

    Checks ``config`` against the JSON schema, then every dataset: its name
    (:func:`dataset_name_problem`), a directory dataset's path (a directory holding
    data files), its costs file (a regular file, parsed and holding every field of
    :data:`COSTS_FIELDS` for each benchmark: :func:`dataset_costs`), a stand-in's
    benchmarks. A problem in a costs file names that file, not a configuration file.

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
    import yaml

    if not isinstance(schema, Mapping):
        schema = yaml.safe_load(Path(schema).read_text(encoding="utf-8"))
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
    for name in config["datasets"]:
        try:
            benchmarks = dataset_benchmarks(config, name)
            _check_paper_costs(config, name, benchmarks)
            dataset_costs(config, name, benchmarks.values())
        except ConfigError as exc:
            where = _locate(exc.keys, _lookup(config, exc.keys), sources)
            if where == "config":
                where = _locate(exc.keys[:2], _MISSING, sources)
            return f"{where}: {exc}"
        except InputError as exc:  # in the costs file: it names itself
            return str(exc)
    return None


def _check_paper_costs(config: Mapping, name: str, benchmarks: Mapping[str, str]) -> None:
    """A directory dataset with ``costs: paper`` has only benchmarks of the paper."""
    s = dataset_settings(config, name)
    if s["kind"] != "directory" or s["costs"] != "paper":
        return
    others = [b for b in benchmarks.values() if b not in paper.VARIATION_S]
    if others:
        raise ConfigError(("datasets", name, "costs"),
                          f"'paper' costs exist for the paper's ten benchmarks only, not for "
                          f"{', '.join(map(repr, others[:3]))}{', ...' if len(others) > 3 else ''}: "
                          "use 'data' or a costs file ({file: costs.json})")


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


def check_config_files(files: Sequence[str | Path], schema: str | Path = SCHEMA) -> str | None:
    """Read, merge (later files override earlier ones) and check configuration files.

    Returns the first problem in one line (a YAML syntax error as ``FILE:LINE``), or
    None.
    """
    sources: list[tuple[str, Mapping]] = []
    merged: dict = {}
    for f in files:
        try:
            data = load_config_file(f)
        except InputError as exc:
            return str(exc)
        sources.append((str(f), data))
        merge_config(merged, copy.deepcopy(data))
    return config_problem(merged, schema, sources)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m esize_study.pipeline check-config FILE...``: the Makefile's pre-check.

    Prints nothing and exits 0 when the merged files make a usable configuration;
    otherwise prints one ``esize: error:`` line and exits 2.
    """
    import argparse

    parser = argparse.ArgumentParser(prog="python -m esize_study.pipeline")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check-config", help="check workflow configuration files")
    check.add_argument("files", nargs="+", help="configuration files, later ones override")
    check.add_argument("--schema", default=str(SCHEMA), help="JSON schema (YAML)")
    args = parser.parse_args(argv)
    problem = check_config_files(args.files, args.schema)
    if problem:
        print(f"esize: error: {problem}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
