"""Sizes of files in bytes: parsing ``4G`` or ``500MiB``, and saying ``1.5 GiB``.

Imports nothing heavy, so that the command line's parser can use it.
"""

from __future__ import annotations

import math
import re

__all__ = ["parse_size", "size_text"]

#: Suffix (lower case) -> bytes: K, M, G, T and KiB ... are powers of 1024; KB, MB,
#: GB, TB powers of 1000.
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kib": 1 << 10, "kb": 10**3, "m": 1 << 20,
          "mib": 1 << 20, "mb": 10**6, "g": 1 << 30, "gib": 1 << 30, "gb": 10**9,
          "t": 1 << 40, "tib": 1 << 40, "tb": 10**12}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)\s*", re.ASCII)


def parse_size(text: str) -> int:
    """Bytes from ``"4G"``, ``"500MiB"``, ``"2GB"``, ``"1e9"`` or ``"1048576"``.

    Raises
    ------
    ValueError
        Not a size of at least one byte.
    """
    m = _SIZE.fullmatch(str(text))
    unit = m.group(2).lower() if m else None
    if m is None or unit not in _UNITS:
        raise ValueError(f"not a size: {text!r} (e.g. 500M, 16G or a number of bytes)")
    n = float(m.group(1)) * _UNITS[unit]
    if not (math.isfinite(n) and n >= 1):
        raise ValueError(f"a size must be at least one byte, got {text!r}")
    return int(min(n, 2.0**63))


def size_text(n: float) -> str:
    """``"4 GiB"``, ``"1.5 MiB"``, ``"512 bytes"``: a size for a message."""
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} bytes"
