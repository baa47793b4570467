"""Files of the pipeline: raw tidy files read, intermediate files written atomically.

* :func:`read_table` and :func:`load_benchmark_file` read a raw tidy file
  (``binary, execution, iteration, time``) into a three-level design, warm-up
  included; :func:`warmup_for` is the number of warm-up iterations to drop;
* :func:`save_design` and :func:`load_design_npz` store a steady-state design;
* :func:`write_json`, :func:`write_csv`, :func:`write_parquet` and
  :func:`write_parquet_columns` write the pipeline's tables, atomically;
  :func:`jsonable`, the values of every JSON file the study writes made plain;
* :func:`atomic_write` and :func:`atomic_write_text`, the study's one way to write a
  file: atomically, and a failed write (a full disk) ends the job with one line
  naming the file (:func:`writing`); :func:`read_json` reads an intermediate JSON
  file, a damaged one ending the job with one line naming it;
* :func:`script_logging` and :func:`fail` give a workflow script its log file and
  its one-line error.

The Snakemake rules stay thin: they name files, and the scripts they run call the
functions of the study and the library. Nothing in this module does statistics.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import math
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import numpy as np

from esize import Design, DesignError, InputError, from_tidy
from esize import io as esize_io

from ..paper import numbers as paper

__all__ = [
    "TIDY_COLUMNS",
    "read_table",
    "load_benchmark_file",
    "benchmark_design",
    "warmup_for",
    "save_design",
    "load_design_npz",
    "jsonable",
    "read_json",
    "write_json",
    "write_csv",
    "write_parquet",
    "write_parquet_columns",
    "VALIDATION_ORDER",
    "read_validation_shards",
    "atomic_write",
    "atomic_write_text",
    "writing",
    "script_logging",
    "fail",
]

TIDY_COLUMNS = ("binary", "execution", "iteration", "time")

PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")


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
    d = benchmark_design(read_table(path), path)
    return d, d.shape[-1]


def benchmark_design(frame, path: str | Path) -> Design:
    """The three-level design of the times of a raw tidy table read from ``path``
    (all iterations, warm-up included; ``path`` names the file in errors)."""
    missing = [c for c in TIDY_COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(path, f"missing column(s) {missing}; expected {list(TIDY_COLUMNS)}")
    if not _sorted_rows(frame, TIDY_COLUMNS[:3]):  # files are usually written in order
        frame = frame.sort_values(list(TIDY_COLUMNS[:3]), kind="stable")
    try:
        d = from_tidy(frame, ["binary", "execution"], value="time")
        if np.any(d.data <= 0):
            raise DesignError("column 'time' has non-positive values")
    except DesignError as exc:
        raise InputError(path, str(exc)) from None
    return d


def warmup_for(fraction: float, raw: int) -> int:
    """Warm-up measurements to drop: ``fraction * raw`` rounded half up.

    With the paper's 30 % this gives its counts (64 -> 19, 256 -> 77, 512 -> 154).
    """
    if abs(fraction - paper.WARMUP_FRACTION) < 1e-12:
        return paper.warmup_count(raw)
    return int(math.floor(fraction * raw + 0.5 + 1e-9))


def write_parquet(path: str | Path, frame) -> None:
    """Write a DataFrame as Parquet, atomically (:func:`esize.io.atomic_write`)."""
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


#: Row order of the approximate-against-exact validation within one benchmark: by
#: mode (``approx`` first), then as
#: :func:`esize_study.falsealarm.records.records_to_columns` sorts.
VALIDATION_ORDER = ("mode", "kind", "size", "method", "scheme", "comparison")


def read_validation_shards(paths):
    """The rows of every shard of rule ``fa_validate`` as one frame, in a fixed order.

    Rule ``fa_validate`` splits each benchmark's blocks into shards (every ``n``-th
    block, as the simulations do); every block draws from its own streams, so the
    shards together hold exactly the rows of one unsharded job. This reads them and
    puts them back in that job's order: benchmarks as they first appear in ``paths``,
    then :data:`VALIDATION_ORDER` (strings lexicographically, as
    :func:`esize_study.falsealarm.records.records_to_columns` sorts). The result does
    not depend on the shard count or on the order of ``paths`` within a benchmark.

    Parameters
    ----------
    paths : sequence of path
        The shards' Parquet files (columns ``benchmark`` and :data:`VALIDATION_ORDER`
        among them); empty ones, from shards that got no block, are left out.

    Returns
    -------
    DataFrame
        With a fresh ``RangeIndex``.
    """
    import pandas as pd

    frames = [f for f in (pd.read_parquet(p) for p in paths) if len(f)]
    if not frames:
        raise InputError(", ".join(map(str, paths)) or "fa_validate",
                         "no validation rows in any shard")
    whole = pd.concat(frames, ignore_index=True)
    first_seen = {b: i for i, b in reversed(list(enumerate(whole["benchmark"])))}
    position = whole["benchmark"].map(first_seen).rename("_position")
    order = whole.assign(_position=position).sort_values(
        ["_position", *VALIDATION_ORDER], kind="stable").index
    return whole.loc[order].reset_index(drop=True)


def save_design(path: str | Path, design: Design, **meta) -> None:
    """Store a design (and JSON-able metadata) as ``.npz``, atomically."""
    buf = io.BytesIO()
    np.savez(buf, data=design.data, levels=np.array(design.levels), meta=json.dumps(meta))
    atomic_write(path, buf.getvalue())


def load_design_npz(path: str | Path) -> tuple[Design, dict]:
    with np.load(path, allow_pickle=False) as z:
        return Design(z["data"], tuple(str(x) for x in z["levels"])), json.loads(str(z["meta"]))


def jsonable(obj):
    """``obj`` made of plain JSON values: mappings with text keys, lists for tuples and
    arrays, Python numbers for numpy ones, None for a non-finite number.

    The one cleaner of the study's JSON (and CSV) files: :func:`write_json`, the claims
    (:meth:`esize_study.claims.claim.Claim.to_dict`) and ``make analyse``'s files
    (:func:`esize_study.analysis.jobs.write_json`).
    """
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, (np.floating, float)):
        x = float(obj)
        return x if math.isfinite(x) else None
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    return obj


#: The loggers of a job (:func:`script_logging`; make analyse's
#: :func:`esize_study.analysis.jobs.log_to`): a job's one-line error goes to its log too.
JOB_LOGGERS = ("esize.pipeline", "esize.analyse")


def _stop(line: str) -> NoReturn:
    """Stop the job with ``line`` on stderr (exit status 1), written to its log first
    (quietly: on a full disk the log cannot be written either)."""
    loud, logging.raiseExceptions = logging.raiseExceptions, False
    try:
        for name in JOB_LOGGERS:
            logger = logging.getLogger(name)
            if logger.handlers:
                logger.error("%s", line)
    finally:
        logging.raiseExceptions = loud
    raise SystemExit(line)


def _reason(exc: OSError) -> str:
    """The operating system's reason of ``exc``, on one line, lower case first."""
    if isinstance(exc, esize_io.OutputError):
        return exc.reason
    reason = " ".join(str(exc.strerror or exc).split()) or type(exc).__name__
    return reason[:1].lower() + reason[1:]


@contextmanager
def writing(path: str | Path) -> Iterator[None]:
    """Stop the job with one line naming ``path`` when writing it fails.

    A full disk (``ENOSPC``), a read-only directory or any other :class:`OSError`
    inside the block ends the job with ``esize: error: PATH: cannot write: no space
    left on device`` (exit status 1, no traceback). The writes of
    :func:`esize.io.atomic_write` leave nothing half-written behind.

    Raises
    ------
    SystemExit
        The one line, for an :class:`OSError` raised in the block.
    """
    try:
        yield
    except OSError as exc:
        _stop(f"esize: error: {path}: cannot write: {_reason(exc)}")


def atomic_write(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`esize.io.atomic_write`): never
    half-written, and a failure ends the job with one line (:func:`writing`)."""
    with writing(path):
        esize_io.atomic_write(path, data)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Text (UTF-8) version of :func:`atomic_write`."""
    atomic_write(path, text.encode("utf-8"))


def _json_problem(data: bytes, exc: ValueError) -> str:
    """What is wrong with the JSON file whose bytes are ``data``."""
    if not data.strip():
        return "not valid JSON (an empty file)"
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON (line {exc.lineno}, column {exc.colno})"
    return "not valid JSON (not UTF-8 text)"


def read_json(path: str | Path, rerun: str = "make reproduce"):
    """The document of the intermediate JSON file ``path`` (one a pipeline job wrote).

    Parameters
    ----------
    path : path-like
        The file.
    rerun : str
        The command that rebuilds it, named in the error.

    Raises
    ------
    SystemExit
        For a file that cannot be read or is not JSON (empty, cut short, garbled):
        one line naming it, e.g. ``esize: error: results/x/estimates.json: not valid
        JSON (line 1, column 1); delete it and rerun `make analyse```.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        problem = f"cannot read: {_reason(exc)}"
    else:
        try:
            return json.loads(data.decode("utf-8"))
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
            problem = _json_problem(data, exc)
    _stop(f"esize: error: {path}: {problem}; delete it and rerun `{rerun}`")


def write_json(path: str | Path, obj) -> None:
    """JSON with numpy values converted and non-finite numbers as null, atomically."""
    atomic_write_text(path, json.dumps(jsonable(obj), indent=2, allow_nan=False) + "\n")


def write_csv(path: str | Path, rows: Sequence[Mapping], columns: Iterable[str] | None = None) -> None:
    """CSV of ``rows`` (dicts), atomically; floats with full precision."""
    rows = list(rows)
    cols = list(columns) if columns is not None else list(rows[0].keys())
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: jsonable(r.get(k)) for k in cols})
    atomic_write_text(path, buf.getvalue())


def script_logging(log_path: str | None) -> logging.Logger:
    """Send a workflow script's log (and uncaught errors) to its Snakemake log file.

    Every workflow script starts with it, so it also sets up the job's process:
    :func:`~esize_study.datasets.process.tune_allocator` (freed memory reused, fewer page faults;
    numbers unchanged).
    """
    from .process import tune_allocator

    tune_allocator()
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


def _sorted_rows(frame, columns: Sequence[str]) -> bool:
    """Whether the rows are already in ascending order of ``columns`` (numeric columns
    only; False for anything else), so that a stable sort would leave them as they are."""
    cols = [np.asarray(frame[c]) for c in columns]
    if not cols[0].size or any(c.dtype.kind not in "iuf" for c in cols):
        return False
    # row i+1 >= row i lexicographically: at the first column that differs it is larger
    ok = np.zeros(cols[0].size - 1, dtype=bool)
    tied = np.ones(cols[0].size - 1, dtype=bool)
    for c in cols:
        ok |= tied & (c[1:] > c[:-1])
        tied &= c[1:] == c[:-1]
    return bool(np.all(ok | tied))
