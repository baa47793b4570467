"""Exceptions raised by esize.

Every error that a user can cause with bad input derives from :class:`EsizeError`,
so the command-line front end can turn it into a one-line message and exit status 2.
"""

from __future__ import annotations


class EsizeError(ValueError):
    """Base class of all user-facing errors (bad data, bad design, bad arguments)."""


class DesignError(EsizeError):
    """The measurements do not form a valid balanced hierarchical design."""


class InputError(EsizeError):
    """An input file cannot be read or interpreted.

    Parameters
    ----------
    source : str
        The file (or other source) that caused the problem.
    message : str
        What is wrong, in one line.
    """

    def __init__(self, source: str, message: str):
        self.source = str(source)
        self.message = str(message)
        super().__init__(f"{self.source}: {self.message}")


class EsizeWarning(UserWarning):
    """A note to the user: something was dropped, converted or skipped on the way.

    The library never prints; it warns with this class, and the command line shows
    each warning as one ``esize: note:`` line after a successful run.
    """
