"""The inner loops of the study's approximate bootstraps, compiled when a C compiler is there.

:func:`gather_sums` adds up, for every replicate, the table entries its codes point
at. numpy needs an index array, a gathered array and a reduction for that, three
passes over memory per code; a compiled loop (``_gather.c``) reads each code once and
keeps the sum in a register, up to about three times as fast (``make bench``). Both routes add the entries
in the same order (left to right, the partial group last) with the same IEEE
arithmetic, so they give bit-identical sums: results never depend on whether the
loop could be compiled (``tests/study/test_engine.py`` holds both routes to that).

:func:`standard_normal` and :func:`integers_u16` are numpy's own draws from a PCG64
generator (the same numbers, the generator left in the same state), made by a loop
(``_draws.c``) that steps the generator's state itself instead of calling it through
a function pointer for every value: about 1.5x (normals) and 1.4-2.3x (16-bit
integers) as fast (``benchmarks/bench_study_engine.py``). They are used only after a
check against the installed numpy at load time (:func:`_draws_agree`); otherwise
numpy draws.

The loops are compiled on first use with the system's C compiler (``$CC``, else
``cc``; ``-O2``, no fast-math), once per machine and source version, into
``__pycache__`` beside this file, or the user's cache directory when that is not
writable, and loaded with :mod:`ctypes` (about a millisecond per process). Without
a compiler, or with ``ESIZE_STUDY_KERNEL=numpy``, the numpy routes run.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

#: Codes one numpy step works on (bounds its temporaries to a few MB).
_NUMPY_CHUNK_CODES = 1 << 16
#: The C sources, compiled together into one library.
_SOURCES = (Path(__file__).with_name("_gather.c"), Path(__file__).with_name("_draws.c"))


def gather_sums(table: np.ndarray, codes: np.ndarray, full: int,
                rtable: np.ndarray | None, mr: int) -> np.ndarray:
    """Per-replicate sums of table entries.

    Parameters
    ----------
    table : ndarray (c, m), float64 or complex128
        Row ``i``: the tuple sums of comparison ``i``.
    codes : ndarray (c, R, full + (rtable is not None)), unsigned integers
        The codes of every replicate; the first ``full`` index ``table``.
    full : int
        Number of full groups per replicate (at least 1).
    rtable : ndarray (c, mr) or None
        Tuple sums of the partial group, indexed by the last code modulo ``mr``.
    mr : int
        Size of a row of ``rtable`` (ignored without it).

    Returns
    -------
    ndarray (c, R)
        :math:`\\sum_j T_{i, code_{irj}}` (plus the partial group), summed left to right.
    """
    lib = _compiled()
    if lib is None:
        return _gather_sums_numpy(table, codes, full, rtable, mr)
    return _gather_sums_compiled(lib, table, codes, full, rtable, mr)


def _gather_sums_compiled(lib, table, codes, full, rtable, mr):
    c, R, ncodes = codes.shape
    kind = "c128" if np.iscomplexobj(table) else "f64"
    table = np.ascontiguousarray(table)
    codes = np.ascontiguousarray(codes)
    if codes.dtype not in (np.uint16, np.uint32):
        raise TypeError(f"codes must be uint16 or uint32, got {codes.dtype}")
    fn = getattr(lib, f"gather_{kind}_u{codes.dtype.itemsize * 8}")
    if rtable is None:
        rtable, mr = table, 0
    rtable = np.ascontiguousarray(rtable, dtype=table.dtype)
    out = np.empty((c, R), dtype=table.dtype)
    fn(table.ctypes.data, codes.ctypes.data, c, R, ncodes, table.shape[1], int(full),
       rtable.ctypes.data, int(mr), out.ctypes.data)
    return out


def _gather_sums_numpy(table, codes, full, rtable, mr):
    c, R, ncodes = codes.shape
    m = table.shape[1]
    flat = table.ravel()
    rflat = None if rtable is None else rtable.ravel()
    out = np.empty((c, R), dtype=table.dtype)
    rows = max(1, _NUMPY_CHUNK_CODES // (R * ncodes))
    for i0 in range(0, c, rows):
        i1 = min(c, i0 + rows)
        # codes group-major, (full, rows, R): a sum over the first axis adds one
        # whole row after the other, left to right like the compiled loop
        idx = np.add(codes[i0:i1, :, :full].transpose(2, 0, 1),
                     (np.arange(i0, i1, dtype=np.intp) * m)[None, :, None], dtype=np.intp)
        acc = np.take(flat, idx).sum(axis=0)
        if rflat is not None:
            last = (codes[i0:i1, :, full] % mr).astype(np.intp)
            last += (np.arange(i0, i1, dtype=np.intp) * mr)[:, None]
            acc += np.take(rflat, last)
        out[i0:i1] = acc
    return out


# -- random draws -------------------------------------------------------------------------
def standard_normal(rng: np.random.Generator, size) -> np.ndarray:
    """``rng.standard_normal(size)``: the same numbers, ``rng`` left in the same state.

    With the compiled library (and a PCG64 generator, as every stream of the study),
    ``_draws.c`` fills the array from the generator's state directly, about 1.5x as
    fast as numpy, which calls its bit generator through a function pointer for
    every value; otherwise numpy draws them. :func:`_draws_agree` checks the two
    once per process, so results never depend on the route.
    """
    lib = _draw_library()
    bg = rng.bit_generator
    if lib is None or type(bg) is not np.random.PCG64:
        return rng.standard_normal(size)
    out = np.empty(size, dtype=np.float64)
    with bg.lock:
        lib.normal_fill(bg.ctypes.state_address, out.size, out.ctypes.data)
    return out


def integers_u16(rng: np.random.Generator, high: int, size) -> np.ndarray:
    """``rng.integers(0, high, size=size, dtype=numpy.uint16)`` (``high <= 65536``),
    the same numbers and final state, compiled like :func:`standard_normal` (about
    1.4-2.3x as fast)."""
    high = int(high)
    lib = _draw_library()
    bg = rng.bit_generator
    if lib is None or type(bg) is not np.random.PCG64 or not 2 <= high <= 1 << 16:
        return rng.integers(0, high, size=size, dtype=np.uint16)
    out = np.empty(size, dtype=np.uint16)
    with bg.lock:
        lib.bounded_u16_fill(bg.ctypes.state_address, high, out.size, out.ctypes.data)
    return out


@functools.cache
def _draw_library():
    """The compiled library if its draws equal numpy's (:func:`_draws_agree`), else None."""
    lib = _compiled()
    return lib if lib is not None and _draws_agree(lib) else None


def _draws_agree(lib) -> bool:
    """Whether ``lib``'s draws and final states equal the installed numpy's.

    100,000 normals (on average 26 leave the ziggurat's rectangles for its tail and
    1,466 for its wedges) and 16-bit integers at ranges that reject often, rarely
    and never, from one seed; then one more draw of each generator must agree (the
    state). 3 to 14 ms, once per process.
    """
    mine = np.random.Generator(np.random.PCG64(20240611))
    ref = np.random.Generator(np.random.PCG64(20240611))
    normals = np.empty(100_000)
    lib.normal_fill(_state(mine), normals.size, normals.ctypes.data)
    if not np.array_equal(normals, ref.standard_normal(normals.size)):
        return False
    for high, n in ((2, 1001), (3, 999), (40_000, 20_001), (65_535, 5_000), (65_536, 3)):
        codes = np.empty(n, dtype=np.uint16)
        lib.bounded_u16_fill(_state(mine), high, n, codes.ctypes.data)
        if not np.array_equal(codes, ref.integers(0, high, size=n, dtype=np.uint16)):
            return False
    return mine.integers(0, 2**63) == ref.integers(0, 2**63) and mine.random() == ref.random()


def _state(rng: np.random.Generator) -> int:
    return rng.bit_generator.ctypes.state_address


@functools.cache
def _compiled():
    """The compiled loops (a :class:`ctypes.CDLL`), or None: no compiler, a failed
    build, or ``ESIZE_STUDY_KERNEL=numpy``."""
    if os.environ.get("ESIZE_STUDY_KERNEL", "") == "numpy":
        return None
    try:
        source = b"".join(f.read_bytes() for f in _SOURCES)
    except OSError:
        return None
    cc = shlex.split(os.environ.get("CC") or "cc")
    flags = ["-O2", "-shared", "-fPIC", "-fno-fast-math", "-ffp-contract=off"]
    key = hashlib.sha256(source + repr((cc, flags, sys.platform)).encode()).hexdigest()[:16]
    name = f"esize_study_kernels_{key}.so"
    for folder in (_SOURCES[0].parent / "__pycache__", _user_cache()):
        if folder is None:
            continue
        lib = folder / name
        if not lib.exists() and not _build(cc + flags, _SOURCES, folder, name):
            continue
        try:
            loaded = ctypes.CDLL(str(lib))
        except OSError:
            continue
        for kind in ("f64", "c128"):
            for bits in (16, 32):
                fn = getattr(loaded, f"gather_{kind}_u{bits}")
                fn.restype = None
                fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p] + [ctypes.c_int64] * 5 + [
                    ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
        loaded.normal_fill.restype = None
        loaded.normal_fill.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
        loaded.bounded_u16_fill.restype = None
        loaded.bounded_u16_fill.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int64,
                                            ctypes.c_void_p]
        return loaded
    return None


def _user_cache() -> Path | None:
    """``$XDG_CACHE_HOME/esize-study`` (else ``~/.cache/esize-study``), or None
    when there is no home directory."""
    try:
        base = os.environ.get("XDG_CACHE_HOME") or (Path.home() / ".cache")
    except RuntimeError:
        return None
    return Path(base) / "esize-study"


def _build(command: list[str], sources: Sequence[Path], folder: Path, name: str) -> bool:
    """Compile ``sources`` into ``folder/name`` (written under a temporary name and
    renamed, so concurrent processes never load half a file). False on any failure."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=name + ".", suffix=".tmp", dir=folder)
        os.close(fd)
    except OSError:
        return False
    try:
        done = subprocess.run(command + ["-o", tmp, *map(str, sources), "-lm"],
                              capture_output=True, timeout=120, check=False)
        if done.returncode != 0:
            return False
        os.replace(tmp, folder / name)
        return True
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
