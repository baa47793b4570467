"""Support for the reproduction workflow (``Snakefile``, ``workflow/``).

The Snakemake rules stay thin: they name files, and the scripts they run call the
functions here and the library. Nothing in this module does statistics.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
import math
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
    "dataset_settings",
    "dataset_benchmarks",
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
}


def dataset_settings(config: Mapping, name: str) -> dict:
    """Settings of dataset ``name`` with defaults filled in."""
    out = dict(DATASET_DEFAULTS)
    out.update(config["datasets"][name])
    if out["kind"] == "standin":
        out.setdefault("costs", "paper")
        if "costs" not in config["datasets"][name]:
            out["costs"] = "paper"
    elif not out.get("path"):
        raise InputError(name, "a directory dataset needs a 'path'")
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
    directory dataset has one benchmark per Parquet/CSV file, named by the file stem.
    """
    s = dataset_settings(config, name)
    if s["kind"] == "standin":
        names = s["benchmarks"] or list(paper.BENCHMARKS)
        unknown = [b for b in names if b not in paper.BENCHMARKS]
        if unknown:
            raise InputError(name, f"unknown stand-in benchmark(s) {unknown}")
        return {slug(b): b for b in names}
    directory = Path(s["path"])
    if not directory.is_dir():
        raise InputError(directory, f"dataset {name!r}: not a directory")
    files = _files_in(directory)
    if not files:
        raise InputError(directory, f"dataset {name!r}: no .parquet or .csv files")
    wanted = s["benchmarks"]
    if wanted:
        files = {k: v for k, v in files.items() if k in {slug(b) for b in wanted}}
    return {k: v.name.split(".")[0] for k, v in files.items()}


def benchmark_file(config: Mapping, name: str, bench_slug: str) -> str:
    """Path of the raw tidy file of one benchmark of a directory dataset."""
    s = dataset_settings(config, name)
    return str(_files_in(Path(s["path"]))[bench_slug])


def code_hash() -> str:
    """Short SHA-256 of every source file of ``esize`` and ``esize_study``.

    Rules pass it as a param, so Snakemake reruns them when any code they may import
    changes; hashing whole packages, not hand-kept module lists, cannot miss one.
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
