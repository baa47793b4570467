"""Every public function and class of esize has a doctested example.

The API reference (docs/api.md) is generated from the docstrings, so each public name
shows its typical use in a numpydoc ``Examples`` section, and the examples are run
here: a wrong value in one is a failing test, as a wrong value in the code is.

Public names are the functions and classes in the ``__all__`` of every public module
of src/esize (a module none of whose dotted parts starts with ``_``): ``esize``,
``esize.readers``, ``esize.text``, ``esize.plots``, ``esize.io``, ``esize.compare``,
``esize.cli`` and their public submodules. :func:`doctest.testmod` finds the examples
of the module a function or class is defined in (``esize._ratio_ci`` for
``esize.fieller_ci``), so the doctests run per defining module.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import os
import pkgutil

import pytest

import esize

OPTIONFLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

#: Public names that have no example yet, each with the file it is defined in. These
#: files were being restructured when the examples were written; their owners add the
#: examples and take the names off this list (test_no_example_yet_is_current says
#: when a name is done). Keys are public paths; a name with two public paths (the
#: classes esize.cli.compare re-exports) is listed under one of them.
NO_EXAMPLE_YET: dict[str, str] = {}

#: Optional packages the examples of a module need (the ``dev`` extras install them).
NEEDS = {"esize.plots": "matplotlib", "esize._warmup": "ruptures"}


def public_modules() -> list[str]:
    """``esize`` and every module below it none of whose dotted parts is private."""
    names = ["esize"]
    for info in pkgutil.walk_packages(esize.__path__, "esize."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def public_objects() -> list[tuple[object, list[str]]]:
    """Every public function and class once, with all its public paths."""
    found: dict[int, tuple[object, list[str]]] = {}
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)  # also the names esize loads on first use
            if inspect.isfunction(obj) or inspect.isclass(obj):
                found.setdefault(id(obj), (obj, []))[1].append(f"{module_name}.{name}")
    return list(found.values())


def has_example(obj) -> bool:
    # the object's own docstring (a class's __doc__ is never inherited)
    return ">>>" in (obj.__doc__ or "")


def source_file(obj) -> str:
    """The file defining ``obj``, relative to the working directory when below it."""
    path = inspect.getsourcefile(inspect.unwrap(obj)) or "?"
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive
        return path


OBJECTS = public_objects()
#: The modules defining the public names, where testmod finds their examples.
DEFINING = sorted({obj.__module__ for obj, _ in OBJECTS})


def test_the_public_namespaces_are_walked():
    modules = public_modules()
    for name in ("esize", "esize.readers", "esize.text", "esize.plots", "esize.io",
                 "esize.compare"):
        assert name in modules
    paths = {p for _, ps in OBJECTS for p in ps}
    assert {"esize.fieller_ci", "esize.readers.read_benchmarks", "esize.text.format_table",
            "esize.plots.compare_figure", "esize.io.write_output"} <= paths


@pytest.mark.parametrize("module_name", DEFINING)
def test_examples_run(module_name):
    if module_name in NEEDS:
        pytest.importorskip(NEEDS[module_name])
    module = importlib.import_module(module_name)
    failed, attempted = doctest.testmod(module, optionflags=OPTIONFLAGS)
    assert failed == 0, f"{failed} of {attempted} examples of {module_name} failed (above)"
    if attempted == 0:
        own = [ps for obj, ps in OBJECTS if obj.__module__ == module_name]
        waiting = [ps[0] for ps in own if not set(ps) & NO_EXAMPLE_YET.keys()]
        assert not waiting, f"{module_name} has no example, but {waiting} should have one"
        pytest.skip(f"{module_name}: every public name is in NO_EXAMPLE_YET")


def test_every_public_name_has_an_example():
    missing = [
        f"{paths[0]} ({source_file(obj)})"
        for obj, paths in OBJECTS
        if not has_example(obj) and not set(paths) & NO_EXAMPLE_YET.keys()
    ]
    assert not missing, (
        "public names without an example (a numpydoc Examples section with >>>): "
        + ", ".join(missing))


def test_no_example_yet_is_current():
    by_path = {p: obj for obj, paths in OBJECTS for p in paths}
    gone = [p for p in NO_EXAMPLE_YET if p not in by_path]
    assert not gone, f"no longer public names in NO_EXAMPLE_YET: {gone}"
    done = [p for p in NO_EXAMPLE_YET if has_example(by_path[p])]
    assert not done, f"these have an example now; take them off NO_EXAMPLE_YET: {done}"
