"""The API reference (docs/api.md) lists every public name of ``esize`` and
``esize.readers``: a name added to an ``__all__`` and not to the reference fails here."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

import esize
import esize.readers

API = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
#: the names the reference documents (``.. autofunction:: esize.x`` and the like)
DOCUMENTED = set(re.findall(r"^\.\. auto\w+:: ([\w.]+)", API, flags=re.MULTILINE))


def _callables(module) -> list[str]:
    return [f"{module.__name__}.{n}" for n in module.__all__
            if inspect.isfunction(getattr(module, n)) or inspect.isclass(getattr(module, n))]


@pytest.mark.parametrize("module", [esize, esize.readers], ids=lambda m: m.__name__)
def test_every_public_function_and_class_is_in_the_reference(module):
    names = _callables(module)
    assert len(names) > 10
    missing = [n for n in names if n not in DOCUMENTED]
    assert not missing, f"docs/api.md does not document {missing}"


def test_the_reference_names_only_what_exists():
    for dotted in DOCUMENTED:
        try:
            importlib.import_module(dotted)  # a module (automodule)
            continue
        except ImportError:
            pass
        module, _, name = dotted.rpartition(".")
        assert hasattr(importlib.import_module(module), name), dotted
