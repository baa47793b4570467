"""What every measuring step shares: the programs and their sources, the seed keys,
the step error, and small helpers (time stamps, log lines, atomic writes of text,
JSON and Parquet).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"

#: The programs: their own sources (besides ``harness.c`` and ``pad.c``).
PROGRAMS: dict[str, tuple[str, ...]] = {
    "fft": ("fft_main.c", "fft_core.c", "fft_bitrev.c", "fft_twiddle.c"),
    "cipher": ("cipher_main.c", "cipher_xtea.c", "cipher_key.c", "cipher_buffer.c"),
    "hashtable": ("hashtable_main.c", "hashtable_table.c", "hashtable_hash.c",
                  "hashtable_keys.c"),
    "interp": ("interp_main.c", "interp_vm.c", "interp_ops.c", "interp_asm.c"),
}
HEADERS: dict[str, tuple[str, ...]] = {
    "fft": ("fft.h",), "cipher": ("cipher.h",), "hashtable": ("hashtable.h",),
    "interp": ("interp.h",),
}
COMMON = ("harness.c", "pad.c")
#: Programs whose work is a whole multiple of a round count (``EXTRA_PERMILLE``).
VARIANT_CAPABLE = ("fft", "cipher")
#: What the Google Benchmark and hyperfine examples run.
HARNESS_PROGRAMS = ("fft", "cipher")
#: ``SeedSequence`` spawn keys, one per purpose.
SEED_KEYS = {"input": 0, "build": 1, "schedule": 2, "environment": 3, "pilot": 4,
             "build_order": 5, "recheck": 6}
ENV_VAR = "ESIZE_ENV_PAD"
BINARY = "bench"


class MeasureError(RuntimeError):
    """A step failed (a compiler error, a program that printed the wrong thing)."""


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _log(log, msg: str, echo: bool = False) -> None:
    """A line to the step's log (stderr without one); ``echo`` also prints it as
    progress (``measure: ...`` on stderr, what ``measure.py make`` shows)."""
    line = f"{_now()} {msg}\n"
    if log:
        with open(log, "a") as fh:
            fh.write(line)
        if echo:
            sys.stderr.write(f"measure: {msg}\n")
            sys.stderr.flush()
    else:
        sys.stderr.write(line)


def _atomic_bytes(path: str | Path, data: bytes) -> None:
    from esize.io import atomic_write

    atomic_write(path, data)


def _atomic_text(path: str | Path, text: str) -> None:
    _atomic_bytes(path, text.encode("utf-8"))


def _atomic_copy(src: str | Path, dest: str | Path) -> None:
    _atomic_bytes(dest, Path(src).read_bytes())


def _write_json(path: str | Path, obj) -> None:
    _atomic_text(path, json.dumps(obj, indent=1) + "\n")


def _write_parquet(path: str | Path, frame) -> None:
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False, compression="zstd")
    _atomic_bytes(path, buf.getvalue())
