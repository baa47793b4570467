"""Atomic file writing: a file is either its old self or complete, never half-written.

The one writer used by the command line (``--output``, ``--plot``) and by the study's
pipeline scripts.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_open", "atomic_write", "atomic_write_text"]

#: Characters of the target's name kept in the temporary name (with the dots, the
#: random part and ``.tmp`` about 120 characters, within every file system's limit).
_STEM = 100


@contextmanager
def atomic_open(path: str | os.PathLike) -> Iterator:
    """A binary file handle whose contents replace ``path`` only when complete.

    The streaming form of :func:`atomic_write` (for outputs that need not fit in
    memory): a temporary file beside ``path``, renamed over it when the ``with``
    block ends without an exception, removed otherwise.
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    # the temporary name starts like the target's, cut so that it is never longer
    # than the longest name the target itself may have
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name[:_STEM]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give the usual mode
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and a rename (never half-written)."""
    with atomic_open(path) as fh:
        fh.write(data)


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Text version of :func:`atomic_write` (UTF-8)."""
    atomic_write(path, text.encode("utf-8"))
