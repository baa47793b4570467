import signal
import sys
from pathlib import Path

import numpy as np
import pytest

# helpers shared by the test directories (reference implementations, data builders)
sys.path.insert(0, str(Path(__file__).parent))

import esize as ez

# A shell started in the background (`make test &`, `nohup ... &`) runs its commands
# with SIGINT ignored, and an ignored signal stays ignored across exec: the commands
# the Ctrl-C tests start would never see their SIGINT. Handled here, it is reset to
# its default in every child, as in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

LEVELS3 = ("binary", "execution", "measurement")


@pytest.fixture
def we_data() -> ez.Design:
    """Table tWEData: 3 binaries x 2 executions x 2 measurements."""
    return ez.Design(
        [[[9, 5], [8, 3]], [[10, 6], [7, 11]], [[1, 12], [2, 4]]], LEVELS3
    )


@pytest.fixture
def wqe_old() -> ez.Design:
    """Table tWQEData, old system."""
    return ez.Design(
        [[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]], LEVELS3
    )


@pytest.fixture
def wqe_new() -> ez.Design:
    """Table tWQEData, new system."""
    return ez.Design(
        [[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]], LEVELS3
    )


def hierarchical_normal(rng: np.random.Generator, sigmas, shape, mean=10.0, size=()):
    """Data from the hierarchical normal model; ``sigmas`` and ``shape`` highest level first.

    ``size`` prepends independent experiments (for vectorised Monte Carlo).
    """
    size = tuple(np.atleast_1d(size).tolist()) if size != () else ()
    shape = tuple(shape)
    y = np.asarray(float(mean))
    for k, s in enumerate(sigmas):
        effect = size + shape[: k + 1] + (1,) * (len(shape) - k - 1)
        y = y + s * rng.standard_normal(effect)
    return np.broadcast_to(y, size + shape).copy()


def fail_writes(monkeypatch, err_no: int) -> None:
    """Make every file opened through ``os.fdopen`` (the atomic writes of ``esize.io``)
    fail at its first write with ``OSError(err_no)``: a full disk (``ENOSPC``), an I/O
    error, ... without filling a real one. The file itself is closed as usual."""
    import os

    real = os.fdopen

    class Failing:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            raise OSError(err_no, os.strerror(err_no))

    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: Failing(real(fd, *a, **k)))
