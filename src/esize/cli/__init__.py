"""The ``esize`` command line: ``esize summary``, ``esize compare``, ``esize plan``.

One module per subcommand (:mod:`~esize.cli.summary`, :mod:`~esize.cli.compare`,
:mod:`~esize.cli.plan`), each computing a result object that renders itself as text
or JSON. Importing this package loads the parser only; matplotlib (``--plot``),
tqdm (the progress bar) and pandas/pyarrow (Parquet tables) are imported when used.
"""

from ._main import main, run
from ._parser import build_parser

__all__ = ["build_parser", "main", "run"]
