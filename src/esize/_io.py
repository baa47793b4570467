"""Reading measurements from files, and writing results atomically.

Kept apart from the statistics: everything here turns files into
:class:`~esize.design.Design` objects (or writes outputs), and reports problems as
:class:`~esize.errors.InputError` naming the file.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from ._design import Design, from_tidy
from ._errors import DesignError, InputError

__all__ = ["read_table", "apply_where", "load_design"]

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


def apply_where(frame, where: Iterable[str], source: str):
    """Keep the rows where every ``COL=VALUE`` condition holds (compared as text)."""
    for cond in where:
        if "=" not in cond:
            raise InputError(source, f"--where {cond!r} is not of the form COL=VALUE")
        col, value = cond.split("=", 1)
        col = col.strip()
        if col not in frame.columns:
            raise InputError(
                source,
                f"--where names unknown column {col!r}; columns are "
                f"{list(map(str, frame.columns))}",
            )
        frame = frame[frame[col].astype(str) == value]
        if len(frame) == 0:
            raise InputError(source, f"no rows left after --where {cond}")
    return frame


def load_design(
    path: str | os.PathLike,
    *,
    levels: Sequence[str] = ("binary", "execution"),
    value: str = "time",
    where: Iterable[str] = (),
    warmup: int = 0,
    lowest: str = "measurement",
    positive: bool = True,
) -> Design:
    """Read a tidy file and build its (trimmed) design.

    Raises
    ------
    InputError
        Unreadable file, unknown column, unbalanced design, NaN/infinite values,
        non-positive values (when ``positive``), or nothing left after trimming.
    """
    source = str(path)
    frame = apply_where(read_table(path), where, source)
    try:
        design = from_tidy(frame, levels, value=value, lowest=lowest)
        if positive:
            bad = np.flatnonzero(design.data.ravel() <= 0)
            if bad.size:
                raise DesignError(
                    f"column {value!r} has {bad.size} non-positive value(s); "
                    "times must be positive"
                )
        return design.trim(warmup)
    except DesignError as exc:
        raise InputError(source, str(exc)) from None
