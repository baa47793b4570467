"""``esize compare --markdown``: a GFM table with the JSON's numbers, written safely.

The markdown is parsed with markdown-it-py (CommonMark with GitHub's tables), not
searched as text: a row that does not render as a table row, or a name that renders
as emphasis, a link or HTML, fails.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import io
import json
import math
import os
import re
import stat
import string
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from esize import io as esize_io
from esize.cli import main
from esize.cli._markdown import MAX_CAVEATS, MAX_ROWS, escape, render_markdown
from esize.readers import unit_info

from .helpers import assert_one_line_error, cli, mknod_char

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tests" / "data" / "harness"

#: Real pairs: a suite with a slower benchmark; rates among times (inverted), caveats;
#: pyperf workers; the paper's worked example (one unnamed benchmark); one hyperfine
#: export compared within itself; a wide suite (67 benchmarks of CPython 2.7 and PyPy 2
#: from speed.python.org, more than MAX_ROWS).
PAIRS = {
    "hyperfine": [HARNESS / "hyperfine-real-old.json", HARNESS / "hyperfine-real-new.json"],
    "jmh": [HARNESS / "jmh-old.json", HARNESS / "jmh-new.json"],
    "pyperf": [ROOT / "examples" / "pyperf" / "mult_list_py36.json",
               ROOT / "examples" / "pyperf" / "mult_list_py37.json"],
    "worked-example": [ROOT / "examples" / "old.csv", ROOT / "examples" / "new.csv"],
    "baseline": [ROOT / "tests" / "data" / "real" / "hyperfine-sleep-2commands.json"],
    "wide": [ROOT / "tests" / "data" / "real" / "pyperf-speed-cpython27.json.gz",
             ROOT / "tests" / "data" / "real" / "pyperf-speed-pypy2.json.gz",
             "--resamples", "1000"],
}

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
#: Inline markup the summary itself uses (bold verdicts, the italic suite row).
OWN_MARKUP = {"text", "softbreak", "strong_open", "strong_close", "em_open", "em_close"}
HEADLINE = re.compile(
    r"(\d+) slower, (\d+) faster, (\d+) unchanged, (\d+) inconclusive \(threshold (\S+) %\)")
#: The time units the summary shows means in, in seconds.
SHOWN_TIME = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}
RATIO = re.compile(r"(\S+) \[(\S+), (\S+)\]")
VERDICT_RANK = {"slower": 0, "faster": 1}


# -- parsing the markdown --------------------------------------------------------------------
def _text(inline) -> str:
    return "".join(c.content for c in inline.children if c.type == "text")


def _kinds(inline) -> set:
    return {c.type for c in inline.children}


def parse(md: str) -> dict:
    """The headline, the tables (rows of cells, header first) and the list items."""
    tokens = MD.parse(md)
    out = {"headline": None, "tables": [], "items": [], "html": [], "kinds": set()}
    table = row = None
    in_item = 0
    for i, t in enumerate(tokens):
        if t.type == "heading_open":
            out["headline"] = (t.tag, _text(tokens[i + 1]))
        elif t.type == "table_open":
            table = []
        elif t.type == "table_close":
            out["tables"].append(table)
            table = None
        elif t.type == "tr_open":
            row = []
        elif t.type == "tr_close":
            table.append(row)
        elif t.type == "list_item_open":
            in_item += 1
        elif t.type == "list_item_close":
            in_item -= 1
        elif t.type == "html_block":
            out["html"].append(t.content.strip())
        elif t.type == "inline":
            out["kinds"] |= _kinds(t)
            if row is not None and tokens[i - 1].type in ("th_open", "td_open"):
                row.append((_text(t), _kinds(t)))
            elif in_item:
                out["items"].append(_text(t))
        if t.type in ("td_close", "th_close") and row is not None and tokens[i - 1].type in (
                "td_open", "th_open"):
            row.append(("", set()))  # an empty cell has no inline token
    return out


def _tol(shown: str) -> float:
    """Half a unit in the last place shown (``0.0229968``, ``1.2e-05``)."""
    m = re.fullmatch(r"-?\d+(?:\.(\d+))?(?:e([-+]\d+))?", shown)
    assert m, shown
    return 0.5 * 10.0 ** (int(m.group(2) or 0) - len(m.group(1) or "")) * (1 + 1e-9)


def assert_shows(shown: str, value: float) -> None:
    assert abs(float(shown) - value) <= _tol(shown), (shown, value)


def assert_mean(cell: str, value: float, unit: str) -> None:
    """A mean cell: a time in the unit that suits it (``23.00 ms``), else as given."""
    number, *shown_unit = cell.split()
    info = unit_info(unit) if unit else None
    if info is not None and info.kind == "time":
        factor = SHOWN_TIME[shown_unit[0]] / info.scale
        assert abs(float(number) * factor - value) <= _tol(number) * factor, (cell, value)
    else:
        assert_shows(number, value)
        if unit:
            assert shown_unit[0] == unit


def assert_change(cell: str, ratio: float) -> None:
    assert cell.endswith(" %") and abs(float(cell[:-2]) - 100 * (ratio - 1)) <= 0.005 + 1e-9


def _run(pair, capsys, tmp_path, *extra) -> tuple[dict, str]:
    """The JSON on stdout and the markdown written to a file by the same run."""
    md_file = tmp_path / "summary.md"
    code, out, err = cli(["compare", *pair, "--seed", "1", "--json", "--markdown", md_file,
                          *extra], capsys)
    assert code == 0, err
    return json.loads(out), md_file.read_text(encoding="utf-8")


def _chosen(b: dict):
    iv = b.get(b["verdict_method"]) if b["verdict_method"] else None
    return (None, None) if iv is None else (iv["lower"], iv["upper"])


# -- the same numbers as the JSON ---------------------------------------------------------
@pytest.mark.parametrize("name", PAIRS)
def test_markdown_table_holds_the_json_numbers(name, capsys, tmp_path):
    doc, md = _run(PAIRS[name], capsys, tmp_path)
    parsed = parse(md)
    benches = doc["benchmarks"]

    tag, headline = parsed["headline"]
    assert tag == "h3"
    m = HEADLINE.fullmatch(headline)
    assert m, headline
    verdicts = [b["verdict"] for b in benches]
    assert int(m.group(1)) == verdicts.count("slower")
    assert int(m.group(2)) == verdicts.count("faster")
    assert int(m.group(3)) == verdicts.count("same")
    assert int(m.group(4)) == verdicts.count("inconclusive")
    assert float(m.group(5)) == 100 * doc["threshold"]

    main, *rest = parsed["tables"]
    header, *rows = main
    # past MAX_ROWS benchmarks, the others are in a second table in a details block
    assert len(rest) == (len(benches) > MAX_ROWS)
    assert len(parsed["html"]) == 2 * len(rest)
    extra = []
    if rest:
        assert rest[0][0] == header
        extra = rest[0][1:]
        assert parsed["html"][0] == (f"<details>\n<summary>{len(benches) - MAX_ROWS} more "
                                     "benchmarks</summary>")
    assert [c for c, _ in header] == ["benchmark", "old mean", "new mean", "change",
                                      f"ratio new/old [{100 * (1 - doc['alpha']):g} % CI]",
                                      "verdict"]
    suite = doc.get("suite")
    if suite is not None:
        *rows, srow = rows
        assert [c for c, _ in srow[:3]] == ["geometric mean", "", ""]
        assert_change(srow[3][0], suite["geometric_mean"])
        gm, lo, hi = RATIO.fullmatch(srow[4][0]).groups()
        assert_shows(gm, suite["geometric_mean"])
        assert_shows(lo, suite["lower"])
        assert_shows(hi, suite["upper"])
        assert srow[5][0] == suite["verdict"]
    assert len(rows) == min(len(benches), MAX_ROWS)
    rows += extra
    assert len(rows) == len(benches)
    by_name = {("data" if b["name"] is None else b["name"]): b for b in benches}
    seen = []
    for cells in rows:
        (label, kinds), old, new, change, ratio, verdict = cells
        assert kinds == {"text"}  # the name is plain text
        b = by_name[label]
        seen.append(label)
        assert_mean(old[0].removesuffix(" ↑"), b["old"]["mean"], b.get("unit", ""))
        assert_mean(new[0].removesuffix(" ↑"), b["new"]["mean"], b.get("unit", ""))
        assert_change(change[0], b["ratio"])
        r, lo, hi = RATIO.fullmatch(ratio[0]).groups()
        assert_shows(r, b["ratio"])
        jlo, jhi = _chosen(b)
        assert_shows(lo, jlo)
        assert_shows(hi, jhi)
        assert verdict[0] == b["verdict"]
        assert ("strong_open" in verdict[1]) == (b["verdict"] in ("slower", "faster"))
    assert sorted(seen) == sorted(by_name)

    # sorted by effect: slower, then faster, then the rest; the largest change first
    keys = [(VERDICT_RANK.get(by_name[n]["verdict"], 2), -abs(math.log(by_name[n]["ratio"])))
            for n in seen]
    assert keys == sorted(keys)

    # every caveat is in the list, with what it concerns; past MAX_CAVEATS distinct
    # ones of the benchmarks, the others are counted
    distinct = list(dict.fromkeys(c for b in benches for c in b["caveats"]))
    wanted = distinct[:MAX_CAVEATS] + (suite["caveats"] if suite is not None else [])
    for c in wanted:
        assert any(item.endswith(": " + c) for item in parsed["items"]), c
    more = [i for i in parsed["items"] if i.endswith("more caveats of single benchmarks "
                                                     "(in the JSON output)")]
    assert more == ([f"and {len(distinct) - MAX_CAVEATS} more caveats of single benchmarks "
                     "(in the JSON output)"] if len(distinct) > MAX_CAVEATS else [])
    assert parsed["kinds"] <= OWN_MARKUP


def test_markdown_to_stdout_equals_the_file(capsys, tmp_path):
    pair = PAIRS["jmh"]
    _, md = _run(pair, capsys, tmp_path)
    code, out, err = cli(["compare", *pair, "--seed", "1", "--markdown", "-"], capsys)
    assert code == 0 and err == ""
    assert out == md


def test_jmh_markdown_says_rates_and_caveats(capsys, tmp_path):
    doc, md = _run(PAIRS["jmh"], capsys, tmp_path, "--method", "both")
    parsed = parse(md)
    assert "ops/ms ↑" in md
    # the bootstrap's few forks are said only where the bootstrap decides: not here
    assert not any("the bootstrap interval rests on 3" in i for i in parsed["items"])
    assert any(i.startswith("geometric mean: ") for i in parsed["items"])
    assert "rates enter it as old/new" in md
    # the order: the largest faster change first, the inconclusive one last
    names = [r[0][0] for r in parsed["tables"][0][1:-1]]
    assert names[-1] == "org.example.ListBench.iterate"
    assert names[0] == "org.example.ListBench.add:size=1000"


def test_markdown_is_written_when_the_gate_trips(capsys, tmp_path):
    md_file = tmp_path / "summary.md"
    code, out, err = cli(["compare", *PAIRS["hyperfine"], "--seed", "1", "--markdown", md_file,
                          "--fail-on", "slower"], capsys)
    assert code == 1 and "cipher slower" in err
    assert parse(md_file.read_text())["headline"][1].startswith("1 slower, 0 faster, 0 unchanged, 1 ")


# -- wide suites ---------------------------------------------------------------------------
def _template(capsys, tmp_path) -> dict:
    doc, _ = _run(PAIRS["hyperfine"], capsys, tmp_path)
    return doc


def test_wide_suite_collapses_past_max_rows(capsys, tmp_path):
    doc = _template(capsys, tmp_path)
    base = doc["benchmarks"][0]
    n = MAX_ROWS + 15
    benches = []
    for k in range(n):
        b = copy.deepcopy(base)
        b["name"] = f"bench_{k:02d}"
        b["ratio"] = 1.0 + 0.01 * k
        b["verdict"] = ["slower", "faster", "inconclusive", "same"][k % 4]
        b["caveats"] = [f"caveat {k % 3}"]
        benches.append(b)
    doc["benchmarks"] = benches
    parsed = parse(render_markdown(doc))
    main, rest = parsed["tables"]
    assert len(main) == 1 + MAX_ROWS + 1  # header, rows, the geometric mean
    assert main[-1][0][0] == "geometric mean"
    assert len(rest) == 1 + 15
    assert parsed["html"][0].startswith("<details>")
    assert "<summary>15 more benchmarks</summary>" in parsed["html"][0]
    assert parsed["html"][-1] == "</details>"
    names = [r[0][0] for r in main[1:-1] + rest[1:]]
    assert sorted(names) == [b["name"] for b in benches]  # each once
    # the slower ones are all in the visible table, the largest first
    slower = [b for b in benches if b["verdict"] == "slower"]
    assert names[:len(slower)] == [b["name"] for b in sorted(slower, key=lambda b: -b["ratio"])]
    headline = HEADLINE.fullmatch(parsed["headline"][1]).groups()
    count = {v: sum(b["verdict"] == v for b in benches)
             for v in ("slower", "faster", "same", "inconclusive")}
    assert headline[:4] == tuple(str(c) for c in count.values())
    # three distinct caveats, each naming 15 benchmarks (5 shown, "and 10 more")
    assert len(parsed["items"]) == 3 + len(doc["suite"]["caveats"])
    assert all(" and 10 more: caveat " in i for i in parsed["items"][:3])


# -- names are text, whatever they hold ------------------------------------------------------
def _template_doc() -> dict:
    """The JSON of the real hyperfine pair, for the tests that vary its names."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["compare", *map(str, PAIRS["hyperfine"]), "--seed", "1", "--json"]) == 0
    return json.loads(buf.getvalue())


TEMPLATE = _template_doc()
NAME_CHARS = string.ascii_letters[:6] + string.digits[:3] + string.punctuation + " \t\n\r\x00é→\u00a0"


@settings(max_examples=200, deadline=None)
@given(names=st.lists(st.text(NAME_CHARS, min_size=1, max_size=24), min_size=2, max_size=4,
                      unique=True),
       old=st.text(NAME_CHARS, min_size=1, max_size=24))
def test_any_name_renders_as_itself(names, old):
    doc = copy.deepcopy(TEMPLATE)
    b0 = doc["benchmarks"][0]
    doc["benchmarks"] = [dict(copy.deepcopy(b0), name=n, caveats=[f"about {n}"]) for n in names]
    doc["files"]["old"] = old
    parsed = parse(render_markdown(doc))
    assert parsed["kinds"] <= OWN_MARKUP
    assert not parsed["html"]

    def flat(text):
        return "".join(c if c.isprintable() else " " for c in text)

    [table] = parsed["tables"]
    shown = [row[0][0] for row in table[1:-1]]
    assert sorted(shown) == sorted(flat(n).strip() for n in names)
    assert all(row[0][1] <= {"text"} for row in table[1:-1])
    assert len({len(row) for row in table}) == 1  # no name split a row into more cells
    assert all(any(i.endswith(f": about {flat(n)}".rstrip()) for i in parsed["items"])
               for n in names)


def test_escape_examples():
    assert escape("a|b") == "a\\|b"
    assert escape("<b>x</b>") == "\\<b\\>x\\</b\\>"
    assert escape("[x](http://e.org)") == "\\[x\\](http\\://e.org)"
    assert escape("line\nbreak") == "line break"
    assert escape("add:size=10") == "add\\:size=10" and escape("a: b") == "a: b"
    assert escape("tests/data/hyperfine-real-old.json") == "tests/data/hyperfine-real-old.json"


# -- the markdown file is an output like -o ------------------------------------------------
def _md(capsys, target, *extra):
    return cli(["compare", *PAIRS["worked-example"], "--seed", "1", "--markdown", target,
                *extra], capsys)




def test_markdown_naming_an_input_or_the_json_output_is_refused(capsys, tmp_path):
    old = tmp_path / "old.csv"
    old.write_bytes(PAIRS["worked-example"][0].read_bytes())
    before = old.read_bytes()
    code, out, err = cli(["compare", old, PAIRS["worked-example"][1], "--markdown", old],
                         capsys)
    assert_one_line_error(code, out, err, file=old, words=["is the input file"])
    assert old.read_bytes() == before
    out_file = tmp_path / "r.json"
    code, out, err = _md(capsys, out_file, "-o", out_file)
    assert_one_line_error(code, out, err, words=["is named by both -o and --markdown"])
    assert not out_file.exists()
    fig = tmp_path / "f.png"
    code, out, err = _md(capsys, fig, "--plot", fig)
    assert_one_line_error(code, out, err, words=["is named by both --plot and --markdown"])


def test_markdown_to_stdout_with_json_and_empty_name_are_refused(capsys):
    code, out, err = _md(capsys, "-", "--json")
    assert_one_line_error(code, out, err, words=["standard output already carries the JSON"])
    code, out, err = _md(capsys, "")
    assert_one_line_error(code, out, err, words=["markdown file name is empty"])


def test_markdown_refuses_directories_devices_and_unread_fifos(capsys, tmp_path):
    d = tmp_path / "adir"
    d.mkdir()
    assert_one_line_error(*_md(capsys, d), file=d, words=["is a directory"])
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    assert_one_line_error(*_md(capsys, fifo), file=fifo, words=["no program is reading"])
    assert time.monotonic() - t0 < 5 and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    mem = mknod_char(tmp_path / "mem", 1, 1)  # /dev/mem's numbers: never opened
    assert_one_line_error(*_md(capsys, mem), file=mem, words=["is a character device"])
    null = mknod_char(tmp_path / "null", 1, 3)
    code, out, err = _md(capsys, null)
    assert code == 0, err
    assert stat.S_ISCHR(os.lstat(null).st_mode)


def test_markdown_replaces_a_file_keeps_a_link_and_survives_a_failed_write(
        capsys, tmp_path, monkeypatch):
    real = tmp_path / "real.md"
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "summary.md"
    link.symlink_to(real)
    code, out, err = _md(capsys, link)
    assert code == 0, err
    assert link.is_symlink() and real.read_text().startswith("### 0 slower, 0 faster, 0 unchanged, 1 ")
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    previous = real.read_text()

    def failing(fd, mode):
        fh = real_fdopen(fd, mode)
        fh.write = lambda data: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left"))
        return fh

    real_fdopen = os.fdopen
    monkeypatch.setattr(esize_io.os, "fdopen", failing)
    code, out, err = _md(capsys, link)
    assert_one_line_error(code, out, err, file=link, words=["cannot write: no space left"])
    assert real.read_text() == previous
    assert sorted(os.listdir(tmp_path)) == ["real.md", "summary.md"]

