"""A minimal text progress bar for long computations on a terminal.

It draws on one line of a stream (standard error by default) with carriage returns,
only when that stream is a terminal, only once the work has taken longer than a
short delay, and erases itself when closed, so short runs, pipes, log files and
machine-readable output never see it.
"""

from __future__ import annotations

import sys
import time

__all__ = ["ProgressBar"]


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a file
        return False


class ProgressBar:
    """Count completed work and show it as ``label [#####.....]  50 %``.

    Parameters
    ----------
    total : int
        Amount of work (any unit) that makes 100 %.
    label : str
        Text before the bar.
    stream : file-like, optional
        Where to draw; standard error by default.
    enabled : bool, optional
        Force drawing on or off; by default on exactly when ``stream`` is a
        terminal.
    delay : float
        Seconds to wait before the first drawing (quick jobs stay silent).
    interval : float
        Minimum seconds between redraws.
    width : int
        Number of cells in the bar.

    Examples
    --------
    >>> with ProgressBar(100, enabled=False) as bar:
    ...     for _ in range(4):
    ...         bar(25)
    >>> bar.done
    100
    """

    def __init__(
        self,
        total: int,
        label: str = "bootstrap",
        *,
        stream=None,
        enabled: bool | None = None,
        delay: float = 0.5,
        interval: float = 0.1,
        width: int = 30,
    ):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = (_isatty(self.stream) if enabled is None else bool(enabled)) and total > 0
        self.total = int(total)
        self.label = label
        self.delay = float(delay)
        self.interval = float(interval)
        self.width = int(width)
        self.done = 0
        self._start = time.monotonic()
        self._last = -float("inf")
        self._drawn = 0  # length of the line on screen

    def __call__(self, n: int = 1) -> None:
        """Record ``n`` more units of completed work (same as :meth:`update`)."""
        self.update(n)

    def update(self, n: int = 1) -> None:
        """Record ``n`` more units of completed work and redraw if it is time."""
        self.done += int(n)
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._start < self.delay:
            return
        if now - self._last < self.interval and self.done < self.total:
            return
        self._last = now
        frac = min(1.0, self.done / self.total)
        fill = int(frac * self.width)
        line = f"{self.label} [{'#' * fill}{'.' * (self.width - fill)}] {100 * frac:3.0f} %"
        self.stream.write("\r" + line)
        self.stream.flush()
        self._drawn = len(line)

    def close(self) -> None:
        """Erase the bar (if it was ever drawn)."""
        if self._drawn:
            self.stream.write("\r" + " " * self._drawn + "\r")
            self.stream.flush()
            self._drawn = 0

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
