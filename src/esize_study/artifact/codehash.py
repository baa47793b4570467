"""Per-rule code hashes of the reproduction workflow (``workflow/rules/*.smk``).

Every rule passes ``code=`` a hash of the code its job runs as a parameter, so that
Snakemake reruns the job when that code changes, and only then. The code of a rule is
found by reading the sources, never from a hand-kept list:

- its script (``workflow/scripts/<name>.py``);
- the modules of :data:`PACKAGES` the script imports, directly or through other such
  modules: ``import a.b``, ``from a import b`` (``b`` counts when it is a submodule),
  relative imports, imports inside functions (a module imported lazily is still code
  the job may run), ``importlib.import_module`` with a literal name; a package's
  ``__init__.py`` counts whenever the package or one of its submodules is imported.
  A module that imports a computed name (``import_module(f"{pkg}.{x}")``) brings in
  every module of its own package, since which one runs cannot be read off the code;
- the other files these modules load: a file of the package tree whose name, relative
  to the module's directory, is a string literal of the module
  (``Path(__file__).with_name("_gather.c")`` in :mod:`esize_study.engine._kernels`);
- for a rule that runs notebooks, the modules imported by their code cells
  (``follow=``; the notebooks themselves are the rule's inputs).

Python files are hashed in a normalised form, their syntax tree without docstrings
(``ast.dump``), so that editing a comment, a docstring or the layout of the code
reruns nothing, while any other change reruns the rules whose code it is. Other files
are hashed as they are. A new Python version may dump trees differently, which then
reruns everything once.

Module files are found through the import system (the packages' ``__path__``), so the
hash is that of the files the jobs will import: with ``PYTHONPATH`` pointing at the
``src/`` of another tree, that tree's files.

:func:`code_hash`, the hash of the packages' bytes that ``provenance.json`` records
and ``make archive`` checks, is a different thing.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

__all__ = ["PACKAGES", "package_roots", "normalised", "closure", "closure_modules",
           "rule_code_hash", "code_hash"]

#: Packages whose modules count as code of a rule (others are installed software).
PACKAGES = ("esize", "esize_study")

_IMPORT_FUNCTIONS = {"import_module", "__import__"}


def package_roots(packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    """``{package: directory}`` as the import system finds them now."""
    roots = {}
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise ImportError(f"package {name!r} not found")
        roots[name] = Path(list(spec.submodule_search_locations)[0]).resolve()
    return roots


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.Pass()]
    return tree


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                out.add(id(body[0].value))
    return out


#: Import record of a file that does not parse: it may import anything.
_EVERYTHING = (("everything", 0, "", ()),)


def _parsed(path: Path) -> tuple[bytes, tuple, tuple[str, ...]]:
    """Normalised bytes, import records and string literals of one Python file.

    A file that does not parse is hashed as it is and taken to import every module
    of :data:`PACKAGES` (its rules fail anyway; the others still run).
    """
    return _parsed_source(str(path), path.read_bytes())


@functools.lru_cache(maxsize=1024)
def _parsed_source(path: str, source: bytes) -> tuple[bytes, tuple, tuple[str, ...]]:
    try:
        tree = ast.parse(source, filename=str(path))
    except (SyntaxError, ValueError):
        return source, _EVERYTHING, ()
    imports, literals = _scan(tree)
    return ast.dump(_strip_docstrings(tree)).encode(), imports, literals


def _scan(tree: ast.AST) -> tuple[tuple, tuple[str, ...]]:
    """Import records ``(kind, level, module, names)`` and the string literals of a tree
    (docstrings left out). ``kind`` is ``"import"``, ``"from"``, ``"call"`` (a literal
    name given to import_module) or ``"dynamic"`` (a computed one)."""
    docstrings = _docstring_nodes(tree)
    imports: list[tuple] = []
    literals: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports += [("import", 0, a.name, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            imports.append(("from", node.level, node.module or "",
                            tuple(a.name for a in node.names)))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else None)
            if name in _IMPORT_FUNCTIONS and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    level = len(arg.value) - len(arg.value.lstrip("."))
                    imports.append(("call", level, arg.value.lstrip("."), ()))
                else:
                    imports.append(("dynamic", 0, "", ()))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings and 0 < len(node.value) < 256
              and "\n" not in node.value and "\0" not in node.value):
            literals.add(node.value)
    return tuple(imports), tuple(sorted(literals))


def normalised(path: str | os.PathLike) -> bytes:
    """What is hashed of one file: for Python its syntax tree without docstrings
    (``ast.dump``, no line numbers), so comments, docstrings and layout do not count;
    any other file as it is."""
    path = Path(path)
    if path.suffix == ".py":
        return _parsed(path)[0]
    return path.read_bytes()


def _module_file(name: str, roots: Mapping[str, Path]) -> Path | None:
    """The file of module ``name`` below ``roots``, or None (not a module of them)."""
    top, _, rest = name.partition(".")
    if top not in roots:
        return None
    base = roots[top].joinpath(*rest.split(".")) if rest else roots[top]
    for candidate in (base / "__init__.py", base.with_name(base.name + ".py")):
        if candidate.is_file():
            return candidate
    return None


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _resolve(records: tuple, module: str, is_package: bool) -> list[str]:
    """Candidate module names imported by ``module`` (some may be attributes)."""
    package = module if is_package else module.rpartition(".")[0]
    out: list[str] = []
    for kind, level, name, names in records:
        if kind == "everything":
            out.append("*")
            continue
        if level:
            parts = package.split(".") if package else []
            if level - 1 > len(parts) or not parts:
                continue  # a relative import beyond the top (or from a script)
            base = ".".join(parts[: len(parts) - (level - 1)])
            name = f"{base}.{name}" if name else base
        if kind == "dynamic":
            out.append(f"{package}.*" if package else "")
            continue
        if not name:
            continue
        out.append(name)
        if kind == "from":
            out += [f"{name}.{n}" for n in names if n != "*"]
    return [n for n in out if n]


def _package_modules(package: str, roots: Mapping[str, Path]) -> list[str]:
    """Every module of ``package`` (recursively), by name."""
    directory = _module_file(package, roots)
    if directory is None or directory.name != "__init__.py":
        return [package]
    directory = directory.parent
    out = [package]
    for f in sorted(directory.rglob("*.py")):
        if "__pycache__" in f.parts:
            continue
        rel = f.relative_to(directory).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            out.append(".".join([package, *parts]))
    return out


def _package_files(root: Path) -> dict[str, Path]:
    """Files of a package tree that are not Python modules or caches, by their path
    relative to the package's directory (normalised, POSIX)."""
    out = {}
    for f in root.rglob("*"):
        rel = f.relative_to(root)
        if ("__pycache__" in rel.parts or f.suffix in (".py", ".pyc")
                or rel.parts[0].endswith(".egg-info") or not f.is_file()):
            continue
        out[rel.as_posix()] = f
    return out


def _data_files(path: Path, literals: Iterable[str], root: Path,
                files: Mapping[str, Path]) -> list[Path]:
    """The ``files`` of the package tree at ``root`` named, relative to the directory
    of module ``path``, by one of its string literals."""
    here = path.parent.relative_to(root)
    out = []
    for text in literals:
        if os.path.isabs(text):
            continue
        rel = os.path.normpath(os.path.join(here, text)).replace(os.sep, "/")
        if rel in files:
            out.append(files[rel])
    return out


def _notebook_source(path: Path) -> str:
    """The code cells of a notebook as one Python text (IPython magics left out)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    lines = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        for line in source.splitlines():
            stripped = line.lstrip()
            lines.append("" if stripped.startswith(("%", "!")) else line)
        lines.append("")
    return "\n".join(lines)


def _entry_records(path: Path) -> tuple:
    """Import records of a script or notebook (not itself a module of a package)."""
    if path.suffix == ".ipynb":
        try:
            return _scan(ast.parse(_notebook_source(path), filename=str(path)))[0]
        except (SyntaxError, ValueError):
            return _EVERYTHING
    return _parsed(path)[1]


def _walk(entries: Iterable[Path], roots: Mapping[str, Path]) -> tuple[set[str], set[Path]]:
    """Module names and non-Python files of the import closure of ``entries``."""
    todo: list[str] = []
    for entry in entries:
        todo += _resolve(_entry_records(Path(entry)), "", False)
    modules: set[str] = set()
    files: set[Path] = set()
    package_files = {top: _package_files(root) for top, root in roots.items()}
    while todo:
        name = todo.pop()
        if name == "*":
            todo += [f"{top}.*" for top in roots]
            continue
        if name.endswith(".*"):
            todo += _package_modules(name[:-2], roots)
            continue
        for n in _with_parents(name):
            if n in modules:
                continue
            f = _module_file(n, roots)
            if f is None:
                continue  # another package's module, or an attribute of a module
            modules.add(n)
            _, records, literals = _parsed(f)
            todo += _resolve(records, n, f.name == "__init__.py")
            top = n.partition(".")[0]
            files.update(_data_files(f, literals, roots[top], package_files[top]))
    return modules, files


def closure_modules(script: str | os.PathLike, *, follow: Iterable[str | os.PathLike] = (),
                    roots: Mapping[str, Path] | None = None) -> set[str]:
    """Names of the modules of :data:`PACKAGES` that ``script`` (and ``follow``) import,
    directly or not, packages included."""
    roots = package_roots() if roots is None else roots
    return _walk([Path(script), *map(Path, follow)], roots)[0]


def closure(script: str | os.PathLike, *, follow: Iterable[str | os.PathLike] = (),
            roots: Mapping[str, Path] | None = None) -> dict[str, Path]:
    """The files of a rule's code: ``{label: path}``, the label location-free.

    The script is labelled ``script/<file name>``, the files of the packages by their
    path from the packages' parent directory (``esize_study/engine/seeds.py``). ``follow``:
    notebooks (or Python files) whose imports count, but which are not hashed (they
    are the rule's inputs).
    """
    roots = package_roots() if roots is None else roots
    script = Path(script)
    modules, data = _walk([script, *map(Path, follow)], roots)
    out = {f"script/{script.name}": script}
    for name in modules:
        f = _module_file(name, roots)
        out[f.relative_to(roots[name.partition(".")[0]].parent).as_posix()] = f
    for f in data:
        top = next(r for r in roots.values() if f.is_relative_to(r))
        out[f.relative_to(top.parent).as_posix()] = f
    return dict(sorted(out.items()))


def rule_code_hash(script: str | os.PathLike, *, follow: Iterable[str | os.PathLike] = (),
                   roots: Mapping[str, Path] | None = None) -> str:
    """Short SHA-256 of the normalised files of :func:`closure` (labels included)."""
    h = hashlib.sha256()
    for label, path in closure(script, follow=follow, roots=roots).items():
        data = normalised(path)
        h.update(f"{label}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()[:16]


def code_hash() -> str:
    """Short SHA-256 of every source file of ``esize`` and ``esize_study``, as they are.

    The hash of the code in ``provenance.json`` (rule ``provenance`` passes it as its
    param), which ``make archive`` compares with the archived source
    (:func:`esize_study.artifact.archive.code_hash_of_sources`). The other rules pass
    the hash of the code they run only (:func:`rule_code_hash`).
    """
    import esize

    h = hashlib.sha256()
    for root in (Path(esize.__file__).parent, Path(__file__).resolve().parents[1]):
        for f in sorted(root.rglob("*.py")):
            h.update(f.relative_to(root.parent).as_posix().encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]
