"""What the workflow's ``analyse_*`` scripts share: their log, JSON in and out, and
one line on stderr for a user's mistake (no traceback)."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from ._study import dfiles, jsonable

#: What rebuilds a damaged intermediate file of make analyse (named in the error).
RERUN = "make analyse"
atomic_write_text = dfiles.atomic_write_text

__all__ = ["log_to", "write_json", "read_json", "atomic_write_text", "fail"]


def log_to(path: str | None) -> logging.Logger:
    """A logger writing to the job's Snakemake log file (stderr without one)."""
    logger = logging.getLogger("esize.analyse")
    logger.setLevel(logging.INFO)
    logger.handlers.clear()
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(path, mode="w")
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    return logger


def write_json(path: str | Path, obj) -> None:
    """Indented JSON (non-finite numbers as null), written atomically; a failed write
    (a full disk) stops the job with one line naming the file."""
    atomic_write_text(path, json.dumps(jsonable(obj), indent=1, allow_nan=False) + "\n")


def read_json(path: str | Path):
    """The document of an intermediate JSON file of make analyse; a damaged one (empty,
    cut short, garbled) stops the job with one line naming it
    (:func:`esize_study.datasets.files.read_json`)."""
    return dfiles.read_json(path, rerun=RERUN)


def fail(logger: logging.Logger, exc: Exception) -> None:
    """Log a user's mistake (a file that cannot be read as configured) and stop the
    job with one line on stderr."""
    logger.error("%s", exc)
    raise SystemExit(f"esize: error: {exc}")
