"""Reading an input file safely: only regular files (never a FIFO or a device), at
most :func:`max_input_bytes` bytes also once decompressed, gzip or not, UTF-8 text
with a byte-order mark accepted, and JSON parsed with every failure an
:class:`~esize.InputError` naming the file. Re-exported by
:mod:`esize.readers._common`.
"""

from __future__ import annotations

import gzip
import json
import os
import stat
import zlib
from pathlib import Path

from .._errors import EsizeError, InputError
from .._sizes import parse_size, size_text
from ..io import file_kind

__all__ = [
    "os_reason",
    "DEFAULT_MAX_INPUT_BYTES",
    "MAX_INPUT_ENV",
    "max_input_bytes",
    "too_big",
    "check_file",
    "is_gzip",
    "open_text",
    "gunzip",
    "nul_problem",
    "decode_text",
    "parse_json",
    "read_bytes",
]


def os_reason(exc: OSError) -> str:
    """The operating system's reason for a failed file operation, for a message."""
    text = exc.strerror or str(exc) or type(exc).__name__
    return text[:1].lower() + text[1:]


#: Largest input file read by default (bytes): 4 GiB. ``ESIZE_MAX_INPUT_BYTES`` or the
#: command line's ``--max-input-size`` sets another limit.
DEFAULT_MAX_INPUT_BYTES = 4 << 30
MAX_INPUT_ENV = "ESIZE_MAX_INPUT_BYTES"
def max_input_bytes(limit: int | None = None) -> int:
    """The size limit of input files: ``limit`` if given, else ``ESIZE_MAX_INPUT_BYTES``
    from the environment, else :data:`DEFAULT_MAX_INPUT_BYTES`.

    Raises
    ------
    EsizeError
        The environment variable is not a size.
    """
    if limit is not None:
        return int(limit)
    text = os.environ.get(MAX_INPUT_ENV)
    if not text:
        return DEFAULT_MAX_INPUT_BYTES
    try:
        return parse_size(text)
    except ValueError as exc:
        raise EsizeError(f"{MAX_INPUT_ENV}: {exc}") from None


def too_big(p, size: float, limit: int, *, decompressed: bool = False) -> InputError:
    """The error of a file over the size limit (``size`` bytes, or once decompressed)."""
    what = (f"decompresses to more than {size_text(limit)}, the input size limit" if decompressed
            else f"is {size_text(size)}, more than the input size limit of {size_text(limit)}")
    return InputError(p, f"{what}; raise the limit with --max-input-size or {MAX_INPUT_ENV} "
                      "if the file is right")


def check_file(p: Path, max_bytes: int | None = None) -> None:
    """InputError unless ``p`` is an existing regular file (also through links) of at
    most :func:`max_input_bytes` bytes.

    A FIFO, a device (``/dev/zero``), a socket or a directory is refused at once,
    before it is opened: reading one could wait for ever or never end.
    """
    try:
        st = p.stat()
    except (FileNotFoundError, NotADirectoryError):
        raise InputError(p, "no such file") from None
    except OSError as exc:  # a name too long, a symlink loop, no permission ...
        raise InputError(p, f"cannot read: {os_reason(exc)}") from None
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        raise InputError(p, "is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise InputError(p, f"is {file_kind(mode)}; only regular files are read (save the "
                         "results to a file first)")
    limit = max_input_bytes(max_bytes)
    if st.st_size > limit:
        raise too_big(p, st.st_size, limit)


def is_gzip(p: Path) -> bool:
    """Whether the file starts with the gzip magic number."""
    with open(p, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def open_text(p: Path):
    """Open a UTF-8 text file (a byte-order mark is skipped) for reading, decompressing
    it if it is gzip."""
    if is_gzip(p):
        return gzip.open(p, "rt", encoding="utf-8-sig")
    return open(p, encoding="utf-8-sig")


def gunzip(raw: bytes, p, limit: int) -> bytes:
    """The gzip data ``raw`` of file ``p`` decompressed, at most ``limit`` bytes of it
    (a small file that unpacks to gigabytes is refused, not unpacked)."""
    out, size = [], 0
    try:
        while raw:
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)  # one gzip member
            while True:
                chunk = d.decompress(raw, 1 << 24)
                out.append(chunk)
                size += len(chunk)
                if size > limit:
                    raise too_big(p, size, limit, decompressed=True)
                raw = d.unconsumed_tail
                if d.eof or not raw:
                    break
            if not d.eof:
                raise EOFError("compressed file ended before the end-of-stream marker")
            raw = d.unused_data.lstrip(b"\x00")  # members may follow, and zero padding
    except (OSError, EOFError, zlib.error) as exc:
        detail = " ".join(str(exc).split())
        raise InputError(p, f"cannot read: corrupt or truncated gzip data ({detail})") from None
    return b"".join(out)


def nul_problem(raw: bytes, at: int, what: str, line: int = 1) -> str:
    """What to say of a NUL byte at offset ``at`` of ``raw``: the text of a file, or
    (``line`` > 1) a later part of it starting on that line. A file that starts like
    UTF-16 text is named as such."""
    head = raw[2:6] if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else raw[:4]
    pairs = (head[0::2], head[1::2])  # ASCII in UTF-16: every other byte is zero
    if line == 1 and len(head) == 4 and sorted(p == b"\x00\x00" for p in pairs) == [
            False, True] and b"\x00" not in pairs[pairs[0] == b"\x00\x00"]:
        return f"the file is UTF-16 text; save it as UTF-8 {what}"
    line += raw.count(b"\n", 0, at)
    return f"line {line} holds a NUL byte (binary data, not {what} text)"


def decode_text(raw: bytes, p: Path, max_bytes: int | None, what: str) -> str:
    """The UTF-8 text held by ``raw``, the bytes of file ``p`` (gzip or not), with a
    byte-order mark accepted; an :class:`~esize.InputError` naming the file for
    corrupt or oversized gzip data, a NUL byte (``what`` names the expected kind of
    text), bytes that are not UTF-8, or an empty file."""
    if raw[:2] == b"\x1f\x8b":
        raw = gunzip(raw, p, max_input_bytes(max_bytes))
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise InputError(p, f"cannot read: {nul_problem(raw, nul, what)}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            p, f"cannot read: not UTF-8 text (byte {exc.start + 1} of the file)"
        ) from None
    if not text.strip():
        raise InputError(p, "cannot read: the file is empty")
    return text


def parse_json(raw: bytes, p: Path, max_bytes: int | None = None):
    """The JSON document held by ``raw``, the bytes of file ``p`` (gzip or not).

    A UTF-8 byte-order mark is accepted, as it is in a CSV file. Every failure is an
    :class:`~esize.InputError` naming the file: corrupt gzip data, data that
    decompresses beyond :func:`max_input_bytes`, text that is not UTF-8, a NUL
    byte, an empty file, invalid JSON, or nesting too deep to parse.
    """
    text = decode_text(raw, p, max_bytes, "JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(p, f"not valid JSON ({exc.msg}, line {exc.lineno})") from None
    except ValueError:  # an integer literal of thousands of digits, beyond Python's limit
        raise InputError(
            p, "cannot read: the JSON holds an integer of thousands of digits"
        ) from None
    except RecursionError:
        raise InputError(
            p, "cannot read: the JSON is nested too deeply (lists or objects inside each "
            "other more than a few hundred levels)"
        ) from None


def read_bytes(p: Path) -> bytes:
    """The bytes of file ``p``, or an InputError."""
    try:
        return p.read_bytes()
    except IsADirectoryError:
        raise InputError(p, "is a directory, not a file") from None
    except OSError as exc:
        raise InputError(p, f"cannot read: {os_reason(exc)}") from None
