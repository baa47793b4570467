"""The console script ``esize``: the command line, and Ctrl-C while it starts.

Every command first imports the library, numpy with it, for a few hundred
milliseconds. A Ctrl-C then comes before :func:`esize.cli.run`, which makes any later
one a single line and status 130, exists. This module lies outside the package, so
that its ``main`` runs before ``import esize`` and catches that one too.
"""

import os
import sys


def main() -> None:
    """Run :func:`esize.cli.run`; a Ctrl-C while it is imported is one line, status 130."""
    try:
        from esize.cli import run
    except KeyboardInterrupt:
        try:
            sys.stderr.write("esize: interrupted\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass
        os._exit(130)  # an interpreter half-way through importing numpy: no clean-up
    run()
