"""Exceptions raised by esize.

Every error that a user can cause with bad input derives from :class:`EsizeError`,
so the command-line front end can turn it into a one-line message and exit status 2.
"""

from __future__ import annotations

import os


class EsizeError(ValueError):
    """Base class of all user-facing errors (bad data, bad design, bad arguments).

    Examples
    --------
    One ``except`` clause catches every error a user can cause:

    >>> import esize as ez
    >>> try:
    ...     ez.Design([[1.0, float("nan")]], ("execution", "measurement"))
    ... except ez.EsizeError as exc:
    ...     print(type(exc).__name__, "-", exc)
    DesignError - 1 measurement(s) are NaN or infinite
    >>> issubclass(ez.EsizeError, ValueError)
    True
    """


class DesignError(EsizeError):
    """The measurements do not form a valid balanced hierarchical design.

    Examples
    --------
    >>> import esize as ez
    >>> try:
    ...     ez.Design([1.0, 2.0], ("execution", "measurement"))
    ... except ez.DesignError as exc:
    ...     print(exc)
    2 level names for data with 1 levels
    """


class InputError(EsizeError):
    """An input file cannot be read or interpreted.

    Parameters
    ----------
    source : str or os.PathLike
        The file (or other source) that caused the problem.
    message : str
        What is wrong, in one line.

    Examples
    --------
    >>> import esize as ez
    >>> err = ez.InputError("old.json", "no 'results' list")
    >>> str(err), err.source, err.message
    ("old.json: no 'results' list", 'old.json', "no 'results' list")
    """

    def __init__(self, source: str | os.PathLike[str], message: str):
        self.source = str(source)
        self.message = str(message)
        super().__init__(f"{self.source}: {self.message}")


class EsizeWarning(UserWarning):
    """A note to the user: something was dropped, converted or skipped on the way.

    The library never prints; it warns with this class, and the command line shows
    each warning as one ``esize: note:`` line after a successful run.

    Examples
    --------
    Balancing ragged groups by truncation says what it dropped:

    >>> import warnings
    >>> import esize as ez
    >>> from esize.readers import design_from_ragged
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     d = design_from_ragged([[1, 2, 3], [4, 5]], ("process", "value"),
    ...                            balance="truncate")
    >>> d.shape, caught[0].category is ez.EsizeWarning
    ((2, 2), True)
    """
