"""Configuration and costs files read within limits: one line per problem, never a hang.

A configuration file is a few kilobytes of keys and values. What is not (a FIFO or a
device given as the file, a file of megabytes, YAML whose aliases expand to billions
of values or refer to themselves, thousands of nested brackets, integers of thousands
of digits, a key given twice) is refused here, before anything walks the values: each
as an :class:`esize.InputError` ``FILE:LINE: key: problem`` (``FILE: problem`` where
no line applies). The limits lie far above any real configuration:

* :data:`MAX_FILE_BYTES`: the size of a file; only regular files are read (a FIFO
  would block, a device never end);
* :data:`MAX_NODES`: the values of a document once its aliases are expanded (the
  paper's configuration has about 1,500);
* :data:`MAX_DEPTH`: the nesting of a document, aliases expanded (the paper's: 5);
* :data:`MAX_INT_DIGITS`: the digits of an integer.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import yaml

from esize import InputError
from esize.io import file_kind

__all__ = ["MAX_FILE_BYTES", "MAX_NODES", "MAX_DEPTH", "MAX_INT_DIGITS", "read_text",
           "load_yaml", "compose", "brief", "dotted", "value_problem"]

MAX_FILE_BYTES = 1 << 20
MAX_NODES = 100_000
MAX_DEPTH = 100
MAX_INT_DIGITS = 100



def brief(value, width: int = 80) -> str:
    """A short ``repr`` of ``value``: nested and long values elided, at most ``width``
    characters (never the whole of a large value)."""
    import reprlib

    r = reprlib.Repr()
    r.maxlevel, r.maxlist, r.maxtuple, r.maxdict = 2, 4, 4, 4
    r.maxstring, r.maxlong, r.maxother = width, 40, width
    text = r.repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def dotted(keys) -> str:
    """``keys`` as one name: ``datasets.mine.levels[0]``."""
    out = ""
    for k in keys:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


def read_text(path: str | Path, shown: str, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` of at most ``limit`` bytes.

    The file's kind and size are looked up (``os.stat``) before it is opened: a FIFO,
    a device, a directory or a larger file is refused without reading.

    Raises
    ------
    esize.InputError
        ``FILE: problem``, ``FILE`` being ``shown``.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError(shown, "no such file") from None
    except (OSError, ValueError) as exc:
        raise InputError(shown, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(shown, f"expected a regular file, not {file_kind(info.st_mode)}")
    if info.st_size > limit:
        raise InputError(shown, f"expected a file of at most {_size(limit)}, not one of "
                                f"{info.st_size} bytes")
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise InputError(shown, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:  # grew since it was looked up
        raise InputError(shown, f"expected a file of at most {_size(limit)}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(shown, "cannot read: not UTF-8 text") from None


def _size(n: int) -> str:
    return f"{n / (1 << 20):g} MiB" if n >= 1 << 20 else f"{n} bytes"


#: A plain scalar that YAML 1.2 (and JSON) read as a number but PyYAML's YAML 1.1 reads
#: as text (``1e400``, ``5e-3``, ``1.0e5``: no dot, or an exponent without its sign).
#: Left as text, ``warmup: 1e400`` passed the check as a string; refused instead.
_NUMBER_AS_TEXT = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+")


def _yaml11_float(text: str) -> str:
    """``text`` written so that YAML 1.1 reads it as a number: ``1e400`` -> ``1.0e+400``."""
    mantissa, _, exponent = text.lower().partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    elif mantissa.endswith("."):
        mantissa += "0"
    elif mantissa.lstrip("+-").startswith("."):
        mantissa = mantissa.replace(".", "0.", 1)
    if exponent[:1] not in "+-":
        exponent = "+" + exponent
    return f"{mantissa}e{exponent}"


class LimitError(yaml.MarkedYAMLError):
    """A document beyond the limits, or a key given twice: ``problem`` is the whole
    message (``key: problem``), ``problem_mark`` where it is."""


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader composing within the limits (and refusing duplicate keys).

    While composing, every node gets its size and height with its aliases expanded
    (an alias has those of its anchor's node): a document is refused as soon as one
    node is larger than :data:`MAX_NODES` or deeper than :data:`MAX_DEPTH`, and an
    alias to a node still being composed (a value containing itself) at once, before
    anything is constructed or expanded.
    """

    def __init__(self, stream):
        super().__init__(stream)
        self._path: list = []  # the index of every node being composed (its key)
        self._measure: dict[int, tuple[int, int]] = {}  # id(node) -> (size, height)

    def _keys(self) -> list:
        out = []
        for index in self._path:
            if isinstance(index, int):
                out.append(index)
            elif isinstance(index, yaml.ScalarNode):
                out.append(index.value)
            elif index is not None:
                out.append("?")
        return out

    def _limit(self, what: str, mark, keys=None) -> LimitError:
        keys = self._keys() if keys is None else keys
        shown = dotted(keys)
        if len(shown) > 100:  # thousands of nested brackets
            shown = shown[:97] + "..."
        return LimitError(problem=f"{shown}: {what}" if keys else what, problem_mark=mark)

    def compose_node(self, parent, index):
        self._path.append(index)
        try:
            depth = len(self._path)
            if depth > MAX_DEPTH:
                raise self._limit(f"expected at most {MAX_DEPTH} levels of nesting",
                                  self.peek_event().start_mark)
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                target = self.anchors.get(event.anchor)
                if target is not None:
                    if id(target) not in self._measure:
                        raise self._limit(f"the alias *{event.anchor} is inside its own "
                                          "anchor: expected a value that does not contain "
                                          "itself", event.start_mark)
                    if depth + self._measure[id(target)][1] - 1 > MAX_DEPTH:
                        raise self._limit(f"expected at most {MAX_DEPTH} levels of nesting "
                                          f"(with the alias *{event.anchor} expanded)",
                                          event.start_mark)
                return super().compose_node(parent, index)
            node = super().compose_node(parent, index)
            if isinstance(node, yaml.ScalarNode):
                self._check_scalar(node)
                size, height = 1, 1
            else:
                kids = (node.value if isinstance(node, yaml.SequenceNode)
                        else [n for pair in node.value for n in pair])
                measured = [self._measure[id(k)] for k in kids]
                size = 1 + sum(s for s, _ in measured)
                height = 1 + max((h for _, h in measured), default=0)
                if size > MAX_NODES:
                    raise self._limit(f"expected at most {MAX_NODES} values with the aliases "
                                      f"expanded, not {size} (aliases repeating aliases)",
                                      node.start_mark)
                if isinstance(node, yaml.MappingNode):
                    self._check_keys(node)
            self._measure[id(node)] = (size, height)
            return node
        finally:
            self._path.pop()

    def _check_scalar(self, node) -> None:
        if (node.tag == "tag:yaml.org,2002:str" and node.style is None
                and _NUMBER_AS_TEXT.fullmatch(node.value)):
            raise self._limit(f"expected a number YAML reads as one, like "
                              f"{_yaml11_float(node.value)}, or text in quotes; "
                              f"{brief(node.value)} is read as text (YAML 1.1 wants a dot "
                              "and a signed exponent)", node.start_mark)
        if node.tag == "tag:yaml.org,2002:int":
            digits = sum(c.isalnum() for c in node.value)
            if digits > MAX_INT_DIGITS:
                raise self._limit(f"expected an integer of at most {MAX_INT_DIGITS} "
                                  f"digits, not one of {digits}", node.start_mark)

    def _check_keys(self, node) -> None:
        seen: dict[tuple[str, str], int] = {}
        for key, _ in node.value:
            if not isinstance(key, yaml.ScalarNode) or key.tag == "tag:yaml.org,2002:merge":
                continue
            ident = (key.tag, key.value)
            if ident in seen:
                raise self._limit(f"expected each key once in a mapping; {brief(key.value)} "
                                  f"is also on line {seen[ident]}", key.start_mark,
                                  [*self._keys(), key.value])
            seen[ident] = key.start_mark.line + 1


def _document(text: str, shown: str, problem: str, construct: bool):
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if not construct or node is None:
            return node
        return loader.construct_document(node)
    except LimitError as exc:
        mark = exc.problem_mark
        raise InputError(f"{shown}:{mark.line + 1}" if mark is not None else shown,
                         exc.problem) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{shown}:{mark.line + 1}" if mark is not None else shown
        what = " ".join(str(exc.problem or exc.context or "invalid YAML").split())
        raise InputError(where, f"{problem}: {what}") from None
    except yaml.YAMLError as exc:
        raise InputError(shown, f"{problem}: {' '.join(str(exc).split())}") from None
    except (RecursionError, MemoryError, ValueError) as exc:  # beyond what the limits foresee
        raise InputError(shown, f"{problem}: {type(exc).__name__}") from None
    finally:
        loader.dispose()


def load_yaml(text: str, shown: str, problem: str):
    """The YAML document ``text`` of file ``shown``, read within the limits.

    Raises
    ------
    esize.InputError
        A syntax error, ``FILE:LINE: <problem>: what`` (line where known); a document
        beyond the limits or with a key given twice, ``FILE:LINE: key: what is
        expected``.
    """
    return _document(text, shown, problem, construct=True)


def compose(path: str | Path):
    """The node tree of the YAML file ``path`` (to find a key's line), or None when it
    cannot be read or is beyond the limits."""
    try:
        return _document(read_text(path, str(path)), str(path), "", construct=False)
    except InputError:
        return None


def value_problem(data, max_nodes: int = 4 * MAX_NODES,
                  max_depth: int = MAX_DEPTH) -> tuple[tuple, str] | None:
    """The first problem of loaded values (a merged configuration, values given on
    Snakemake's command line): ``(keys, what is expected)`` or None.

    A number that is NaN or infinite (JSON Schema's bounds let them through), an
    integer of more than :data:`MAX_INT_DIGITS` digits, values nested more than
    ``max_depth`` levels deep, containing themselves, or more than ``max_nodes`` of
    them with shared values counted each time they appear (what a check walks).
    """
    import math

    count = 0
    path: list = []
    open_: set[int] = set()

    def walk(value):
        nonlocal count
        count += 1
        if count > max_nodes:
            return (tuple(path), f"expected at most {max_nodes} values in all, counting "
                                 "repeated aliases each time")
        if isinstance(value, float) and not math.isfinite(value):
            return tuple(path), f"expected a finite number, not {value!r}"
        if isinstance(value, int) and abs(value) >= 10 ** MAX_INT_DIGITS:
            return tuple(path), f"expected an integer of at most {MAX_INT_DIGITS} digits"
        if isinstance(value, dict):
            items = value.items()
        elif isinstance(value, (list, tuple)):
            items = enumerate(value)
        else:
            return None
        if len(path) >= max_depth:
            return tuple(path), f"expected at most {max_depth} levels of nesting"
        if id(value) in open_:
            return tuple(path), "expected a value that does not contain itself"
        open_.add(id(value))
        try:
            for key, item in items:
                path.append(key)
                found = walk(item)
                path.pop()
                if found:
                    return found
        finally:
            open_.discard(id(value))
        return None

    return walk(data)
