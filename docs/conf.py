"""Sphinx configuration of esize's documentation (``make docs``: ``sphinx-build -W``).

Sphinx with MyST: the pages are Markdown, so the README's sections moved here as they
were, and the API reference comes from the library's numpydoc docstrings (autodoc with
napoleon), as in scipy and arch.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

project = "esize"
author = "the esize developers"
copyright = "2026, the esize developers"
release = version = next(
    line.split('"')[1] for line in (ROOT / "pyproject.toml").read_text().splitlines()
    if line.startswith("version = "))

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon",
              "sphinx.ext.mathjax", "sphinx.ext.doctest"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_static_path: list[str] = []

autodoc_member_order = "bysource"
autodoc_typehints = "none"        # the numpydoc sections give the types
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_rtype = False
