"""``python -m esize`` runs the command line."""

from .cli import run

run()
