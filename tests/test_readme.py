"""Every example of README.md and of the pages in docs/ runs as written, from the
repository root.

Which blocks are run (the convention README.md follows):

- In a ```console block, a line starting with ``$ `` is a command and the lines after
  it, up to the next ``$ `` line or the end of the block, are what it prints. Commands
  starting with ``esize `` or ``.venv/bin/esize `` are run (with this environment's
  ``esize`` first on PATH); others, like ``make reproduce``, are not.
- In a ```bash block, every line starting with ``esize `` or ``.venv/bin/esize `` is
  run; no output is shown there.
- A ```python block is run as a script.

Expected exit status: 2 when the shown output begins with ``esize: error:`` (an
example of bad input), 0 otherwise. The shown output must be what the command prints
today: lines starting with ``esize:`` (notes, errors) are compared with stderr, the
other lines with stdout, ignoring trailing spaces.

``python tests/test_readme.py --update`` reruns the console examples and writes what
they print into README.md and the docs pages (review the diff before committing it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: Every page whose examples run: README.md, then the docs' Markdown pages.
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent
PROGRAMS = ("esize ", ".venv/bin/esize ")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)


@dataclass
class Example:
    command: str
    shown: list[str] | None  # None: a bash or python block, no output shown
    kind: str  # "shell" or "python"
    line: int  # where it starts in its page (1-based)
    page: Path = README

    @property
    def expected_status(self) -> int:
        return 2 if self.shown and self.shown[0].startswith("esize: error:") else 0

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def examples(text: str | None = None, page: Path = README) -> list[Example]:
    text = page.read_text(encoding="utf-8") if text is None else text
    out = []
    for block in FENCE.finditer(text):
        lang, body = block.group(1), block.group(2)
        first = text.count("\n", 0, block.start(2)) + 1
        lines = body.splitlines()
        if lang == "python":
            out.append(Example(body, None, "python", first, page))
        elif lang == "bash":
            for i, line in enumerate(lines):
                if line.startswith(PROGRAMS):
                    out.append(Example(line, None, "shell", first + i, page))
        elif lang == "console":
            for i, line in enumerate(lines):
                if line.startswith("$ ") and line[2:].startswith(PROGRAMS):
                    shown = []
                    for rest in lines[i + 1:]:
                        if rest.startswith("$ "):
                            break
                        shown.append(rest)
                    while shown and not shown[-1].strip():
                        shown.pop()
                    out.append(Example(line[2:], shown, "shell", first + i, page))
    return out


def run(example: Example) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS="100", NO_COLOR="1")
    if example.kind == "python":
        args: str | list[str] = [sys.executable, "-c", example.command]
    else:
        # .venv/bin/esize is the same program as `esize` from this environment
        args = re.sub(r"^\.venv/bin/esize ", "esize ", example.command)
    return subprocess.run(args, shell=example.kind == "shell", cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def _strip(lines) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


ALL = [e for page in PAGES for e in examples(page=page)]


def test_readme_has_examples_of_every_kind():
    kinds = {(e.kind, e.shown is not None) for e in ALL}
    assert kinds == {("shell", True), ("shell", False), ("python", False)}
    assert any(e.expected_status == 2 for e in ALL)
    assert sum(e.command.startswith(("esize compare", "esize summary", "esize plan"))
               for e in ALL) >= 8


@pytest.mark.parametrize("example", ALL, ids=str)
def test_example_runs_as_written(example):
    res = run(example)
    assert res.returncode == example.expected_status, res.stderr
    if example.expected_status:
        assert len(res.stderr.splitlines()) == 1 and not res.stdout
    if example.shown is not None:
        shown_err = [line for line in example.shown if line.startswith("esize:")]
        shown_out = [line for line in example.shown if not line.startswith("esize:")]
        assert _strip(res.stderr.splitlines()) == _strip(shown_err)
        assert _strip(res.stdout.splitlines()) == _strip(shown_out)


def test_readme_is_short_and_links_the_docs():
    text = README.read_text(encoding="utf-8")
    assert text.count("\n") <= 150
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / link).is_file(), link
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in PAGES[1:]}
    assert {"quickstart.md", "cli.md", "ci.md", "api.md", "formats/index.md"} <= pages
    assert sum(p.startswith("formats/") for p in pages) >= 11  # index + one per harness


def test_first_lines_give_the_two_entry_points():
    block = FENCE.search(README.read_text(encoding="utf-8"))
    commands = [line.split("#")[0].strip() for line in block.group(2).splitlines()]
    assert block.group(1) == "bash" and commands == ["make reproduce", "make test"]
    if shutil.which("make") is None:
        pytest.skip("needs make")
    res = subprocess.run(["make", "-n", "reproduce", "test"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "snakemake --workflow-profile workflow/profiles/default" in res.stdout
    assert "-m pytest" in res.stdout


# -- the example files are what README.md says they are ------------------------------
def test_worked_example_files_hold_table_twqedata(wqe_old, wqe_new):
    from esize.readers import read_benchmarks

    for name, table in (("old", wqe_old), ("new", wqe_new)):
        path = ROOT / "examples" / f"{name}.csv"
        assert path.read_text().splitlines()[0] == "binary,execution,time"
        design = read_benchmarks(path)[None].design
        assert design.levels == table.levels
        np.testing.assert_array_equal(design.data, table.data)


def test_ragged_jmh_file_is_jmh_old_without_one_iteration():
    old = json.loads((ROOT / "tests" / "data" / "harness" / "jmh-old.json").read_text())
    ragged = json.loads((ROOT / "examples" / "jmh-ragged.json").read_text())
    get = next(b for b in old if b["benchmark"] == "org.example.ListBench.get")
    get["primaryMetric"]["rawData"][1].pop()
    assert ragged == old


def update() -> None:
    """Write what every console example prints today into README.md and the docs."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        for ex in reversed([e for e in examples(text, page) if e.shown is not None]):
            res = run(ex)
            printed = res.stderr.splitlines() + res.stdout.splitlines()
            start = ex.line  # 0-based index of the line after the command
            lines[start:start + len(ex.shown)] = [line.rstrip() + "\n" for line in printed]
        page.write_text("".join(lines), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        update()
    else:
        sys.exit(f"usage: {sys.argv[0]} --update")
