"""Temporary: ``read_table`` for :mod:`esize_study.pipeline`, unchanged, until the
study reads its tables with :func:`esize.readers.tidy.read_table` (columns as numpy
arrays, no pandas) and :func:`esize.from_tidy`. Nothing in :mod:`esize` imports
this module; it is to be removed."""

from __future__ import annotations

import os
from pathlib import Path

from ._errors import InputError

__all__ = ["read_table"]

PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")


def read_table(path: str | os.PathLike):
    """Read a tidy CSV (optionally compressed) or Parquet file into a DataFrame."""
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
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise InputError(p, f"cannot read Parquet: {exc}") from None
    except Exception as exc:  # pandas raises many types for malformed files
        msg = " ".join(str(exc).split()) or type(exc).__name__
        raise InputError(p, f"cannot read: {msg}") from None
