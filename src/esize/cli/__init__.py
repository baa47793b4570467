"""The ``esize`` command line."""

from ._main import build_parser, main, run  # noqa: F401
