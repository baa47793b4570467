"""The random streams of the bootstrap: seeds and uniform index streams.

Each resampled level of each system has its own stream (:class:`IndexStream`), a
``PCG64`` generator spawned from a seed (:func:`spawn_streams`); a benchmark of a suite
draws from a seed derived from its name (:func:`benchmark_seed`), so that its
replicates do not depend on the other benchmarks. See :mod:`esize._bootstrap`.
"""

from __future__ import annotations

import numpy as np

from ._errors import EsizeError

__all__ = ["IndexStream", "spawn_streams", "benchmark_key", "benchmark_seed"]


def _seed_sequence(rng) -> np.random.SeedSequence:
    if isinstance(rng, np.random.SeedSequence):
        return rng
    if isinstance(rng, np.random.Generator):
        return np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist())
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.SeedSequence(int(rng))
    raise EsizeError(
        "rng must be a numpy.random.Generator, a SeedSequence or an integer seed"
    )


class IndexStream:
    """Uniform random indices from one ``PCG64`` stream, read in order.

    Values below ``high`` are exactly uniform ``Generator.integers`` draws, 16-bit
    up to :data:`SMALL_RANGE` and 32-bit above (:meth:`dtype_for`). The generator
    is always called for :data:`CHUNK` values at a time and requests are served
    from that buffer in order, so the values depend only on the sequence of
    requests, not on how it is split into calls (numpy discards the unused half of a
    32-bit word at the end of every 16-bit call, so calling it per request would
    make results depend on ``batch``). A stream is
    meant for one range: a request with another ``high`` starts a new buffer.

    A stream told how many values it will serve in all (:meth:`expect`) draws no
    more than that: the generator's first values do not depend on how many are asked
    for in one call, so a shorter last call gives the same values as a full chunk
    (small bootstraps would otherwise draw a whole chunk per level and system).
    """

    #: Values drawn per call of the generator.
    CHUNK = 1 << 15

    def __init__(self, seed: np.random.SeedSequence):
        self._gen = np.random.Generator(np.random.PCG64(seed))
        self._high = 0
        self._buf = np.zeros(0, dtype=np.uint16)
        self._pos = 0
        self._left: int | None = None  # values still to be drawn, when known

    @property
    def expecting(self) -> bool:
        """Whether :meth:`expect` has been called for the current range."""
        return self._left is not None

    def expect(self, total: int) -> None:
        """Announce that ``total`` values (of the next range asked for) are all this
        stream will serve; asking for more afterwards is an error."""
        self._high, self._buf, self._pos = 0, self._buf[:0], 0
        self._left = int(total)

    #: Largest range drawn in 16 bits. A 16-bit draw takes half the random bits of a
    #: 32-bit one, but numpy's 16-bit draws divide whenever the low half of the
    #: product falls below the range (often, for large ranges) and reject up to half
    #: the draws just above 32,768; beyond about 8,192 the 32-bit draws are faster
    #: (up to 2.4x, measured with numpy 2.4 on x86-64).
    SMALL_RANGE = 1 << 13

    @classmethod
    def dtype_for(cls, high: int):
        """The unsigned type of the values below ``high``."""
        if high <= cls.SMALL_RANGE:
            return np.uint16
        return np.uint32 if high <= 1 << 32 else np.uint64

    def integers(self, high: int, size, out: np.ndarray | None = None) -> np.ndarray:
        """Uniform integers on ``[0, high)`` of shape ``size`` (in ``out`` if given,
        which must have that shape and the type :meth:`dtype_for` gives)."""
        high = int(high)
        dtype = self.dtype_for(high)
        if high != self._high:
            if self._high:  # a new range: whatever was expected was for the old one
                self._left = None
            self._high, self._buf, self._pos = high, np.zeros(0, dtype=dtype), 0
        if out is None:
            out = np.empty(size, dtype=dtype)
        flat = out.reshape(-1)
        filled = 0
        while filled < flat.size:
            if self._pos == self._buf.size:
                n = self.CHUNK
                if self._left is not None:
                    if self._left <= 0:
                        raise EsizeError("index stream asked for more values than expected")
                    n = min(n, self._left)
                    self._left -= n
                self._buf = self._gen.integers(0, high, size=n, dtype=dtype)
                self._pos = 0
            take = min(flat.size - filled, self._buf.size - self._pos)
            flat[filled : filled + take] = self._buf[self._pos : self._pos + take]
            filled += take
            self._pos += take
        return out


def spawn_streams(rng, k: int) -> list[IndexStream]:
    """``k`` independent index streams derived from ``rng`` (Generator, SeedSequence or int)."""
    return [IndexStream(s) for s in _seed_sequence(rng).spawn(k)]


def benchmark_key(name: str) -> int:
    """The integer that identifies benchmark ``name`` in seeds.

    The first four bytes of the SHA-256 of the name's UTF-8 text, read little-endian:
    the same for a benchmark whatever other benchmarks are compared with it and in
    whichever order. :func:`benchmark_seed` spawns a benchmark's seed with it, and the
    reproduction study keys its simulations by it, so both draw per benchmark by one
    rule.

    Parameters
    ----------
    name : str
        The benchmark's name.

    Returns
    -------
    int
        In ``[0, 2**32)``.

    Examples
    --------
    >>> benchmark_key("fft")
    3471175545
    >>> benchmark_key("fft") == benchmark_key("fft"), benchmark_key("fft") == benchmark_key("FFT")
    (True, False)
    """
    import hashlib  # here: its OpenSSL module costs a suite without a bootstrap 2 ms

    return int.from_bytes(hashlib.sha256(str(name).encode("utf-8")).digest()[:4], "little")


def benchmark_seed(rng, name: str) -> np.random.SeedSequence:
    """The seed sequence of benchmark ``name`` under the suite seed ``rng``.

    A child of ``rng`` whose spawn key is derived from a hash of the name, so the
    same benchmark gets the same random numbers whatever else is compared with it.

    Parameters
    ----------
    rng : int, SeedSequence or numpy.random.Generator
        The suite's seed (a Generator is advanced by one draw).
    name : str
        The benchmark's name.

    Examples
    --------
    >>> ss = benchmark_seed(1, "fft")
    >>> ss.entropy, ss.spawn_key == (benchmark_key("fft"),)
    (1, True)
    """
    base = _seed_sequence(rng)
    return np.random.SeedSequence(base.entropy,
                                  spawn_key=(*base.spawn_key, benchmark_key(name)))
