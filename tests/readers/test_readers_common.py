"""What the readers share: detection on one parse, ragged -> balanced designs,
warnings, the committed example files, and what importing the readers loads."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

import esize as ez
import esize.readers as readers
from esize.readers import _read, design_from_ragged, detect_format, plural, read_benchmarks
from harness_data import BUILDERS

from .reader_helpers import HARNESS_DIR, run_python, write_json


def test_design_from_ragged_deeper_levels():
    units = {"b1": {"e1": [1, 2, 3], "e2": [4, 5]}, "b2": {"e1": [6, 7], "e2": [8, 9], "e3": [1, 1]}}
    levels = ("binary", "execution", "measurement")
    with pytest.raises(ez.InputError, match="binary b1"):
        design_from_ragged(units, levels)
    with pytest.warns(ez.EsizeWarning) as rec:
        d = design_from_ragged(units, levels, balance="truncate", source="f")
    np.testing.assert_array_equal(d.data, [[[1, 2], [4, 5]], [[6, 7], [8, 9]]])
    assert len(rec) == 2  # executions per binary, then measurements per execution
    assert str(rec[0].message) == (
        "f: --balance truncate kept the first 2 executions of every binary (1 binary with "
        "3 executions, 1 binary with 2 executions; 1 binary cut, 2 measurements dropped: 18.2 % of all measurements)"
    )
    with pytest.raises(ez.InputError, match="unknown --balance mode 'pad'"):
        design_from_ragged(units, levels, balance="pad")
    with pytest.raises(ez.InputError, match="the file has no binaries"):
        design_from_ragged([], levels)


def test_detection_parses_the_file_once(harness, monkeypatch):
    calls = []
    real = _read.parse_json
    monkeypatch.setattr(_read, "parse_json", lambda raw, p, *a: calls.append(p) or real(raw, p, *a))
    path = harness["jmh-new"]
    fmt = detect_format(path)
    got = read_benchmarks(path, fmt)
    assert fmt == "jmh" and len(got) == 4 and len(calls) == 1
    read_benchmarks(path)  # detected and read in one call: still the same parse
    assert len(calls) == 1
    other = harness["gbench-new"]
    assert list(read_benchmarks(other)) == ["BM_Sort/1024", "BM_Sort/65536", "BM_Hash"]
    assert len(calls) == 2


def test_a_rewritten_file_is_parsed_again(tmp_path):
    p = write_json(tmp_path / "h.json", {"results": [{"command": "a", "times": [1.0, 2.0]}]})
    assert list(read_benchmarks(p)) == ["a"]
    write_json(p, {"results": [{"command": "b", "times": [1.0, 2.0]}]})  # same size
    assert list(read_benchmarks(p)) == ["b"]


def test_detection_errors(tmp_path):
    with pytest.raises(ez.InputError, match="no such file"):
        detect_format(tmp_path / "missing.json")
    with pytest.raises(ez.InputError, match="is a directory"):
        detect_format(tmp_path)
    p = write_json(tmp_path / "x.json", {"something": 1})
    with pytest.raises(ez.InputError, match="JSON of an unknown kind.*use --format"):
        detect_format(p)
    (tmp_path / "broken.json").write_text('{"results": [')
    with pytest.raises(ez.InputError, match=r"not valid JSON \(Expecting value, line 1\)"):
        read_benchmarks(tmp_path / "broken.json")
    gz = tmp_path / "cut.json.gz"
    gz.write_bytes(gzip.compress(b'{"results": []}')[:12])
    with pytest.raises(ez.InputError, match="cannot read"):
        read_benchmarks(gz)
    (tmp_path / "latin.json").write_bytes(b'{"a": "\xe9"}')
    with pytest.raises(ez.InputError, match="cannot read: not UTF-8 text"):
        read_benchmarks(tmp_path / "latin.json")
    with pytest.raises(ez.InputError, match="unknown format 'xml'"):
        read_benchmarks(p, "xml")
    with pytest.raises(ez.InputError, match="unknown --balance mode"):
        read_benchmarks(p, "hyperfine", balance="pad")


def test_forced_format_on_another_harness_file(harness):
    with pytest.raises(ez.InputError, match="a pyperf file holds a JSON object"):
        read_benchmarks(harness["jmh-old"], "pyperf")


def test_plural():
    assert [plural(w) for w in ("process", "run", "repetition", "binary", "day", "box")] == [
        "processes", "runs", "repetitions", "binaries", "days", "boxes"]
    assert plural("process", 1) == "process"


def test_public_names():
    assert len(readers.__all__) == len(set(readers.__all__))
    for name in readers.__all__:
        assert getattr(readers, name) is not None
    assert readers.FORMATS == ("tidy", "pyperf", "jmh", "gbench", "hyperfine",
                               "benchmarkdotnet", "asv", "julia", "gotest", "pytest-benchmark",
                               "criterion")
    assert readers.BALANCE_MODES == ("truncate",)


def test_import_loads_no_heavy_module():
    heavy = ["pandas", "pyarrow", "matplotlib", "scipy.stats"]
    done = run_python(
        "import json, esize, esize.readers, esize.readers.tidy\n"
        f"print(json.dumps([m for m in {heavy!r} if m in sys.modules]))"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def test_committed_example_files_are_current():
    for key, build in BUILDERS.items():
        for system in ("old", "new"):
            committed = json.loads((HARNESS_DIR / f"{key}-{system}.json").read_text())
            assert committed == json.loads(json.dumps(build(system))), f"{key}-{system}"


# == bad JSON files: one InputError naming the file, never a Python exception ==============
HYPERFINE = {"results": [{"command": "x", "times": [1.0, 1.1, 1.2]}]}


def _message(p, fmt=None) -> str:
    with pytest.raises(ez.InputError) as err:
        read_benchmarks(p, fmt)
    msg = str(err.value)
    assert msg.startswith(f"{p}: ") and "\n" not in msg, msg
    return msg[len(f"{p}: "):]


@pytest.mark.parametrize("depth", [2_000, 100_000])
def test_deeply_nested_json_is_an_input_error(tmp_path, depth):
    p = tmp_path / "deep.json"
    p.write_text('{"results": [{"command": "x", "times": ' + "[" * depth + "]" * depth + "}]}")
    assert _message(p).startswith("cannot read: the JSON is nested too deeply")
    assert _message(p, "hyperfine").startswith("cannot read: the JSON is nested too deeply")


def test_nested_value_is_described_not_dumped(tmp_path):
    # nested a few hundred deep: parsed, then refused without walking it again
    p = tmp_path / "nested.json"
    p.write_text('{"results": [{"command": "x", "times": [1.0, ' + "[" * 400 + "]" * 400 + "]}]}")
    assert _message(p) == "benchmark 'x': times, value 2 holds a list, not a number"


@pytest.mark.parametrize("pack", [None, gzip.compress])
def test_json_with_a_byte_order_mark_is_read_like_csv(tmp_path, pack):
    raw = b"\xef\xbb\xbf" + json.dumps(HYPERFINE).encode()
    for name in ("bom.json", "bom-no-suffix"):
        p = tmp_path / (name + (".gz" if pack else ""))
        p.write_bytes(pack(raw) if pack else raw)
        assert detect_format(p) == "hyperfine"
        assert read_benchmarks(p)["x"].design.data.tolist() == [1.0, 1.1, 1.2]


@pytest.mark.parametrize(
    "raw, words",
    [
        (b"", "cannot read: the file is empty"),
        (b" \n\t\n", "cannot read: the file is empty"),
        (b"\x1f\x8b" + b"garbage" * 10, "cannot read: corrupt or truncated gzip data (Error -3 while decompressing data: unknown compression method)"),
        (b'{"results": \xff}', "cannot read: not UTF-8 text (byte 13 of the file)"),
        (b"[1, 2, 3]", "JSON of an unknown kind"),
        (b"42", "JSON of an unknown kind"),
        (b'"text"', "JSON of an unknown kind"),
        (b'{"results": [{"command": "x", "times": [1.0, NaN]}]}',
         "benchmark 'x': times, value 2 holds a NaN or infinite value"),
        (b'{"results": [{"command": "x", "times": [1.0, -Infinity]}]}',
         "benchmark 'x': times, value 2 holds a NaN or infinite value"),
        (b'{"results": [{"command": "x", "times": [1.0, ' + b"9" * 400 + b"]}]}",
         "benchmark 'x': times, value 2 holds a NaN or infinite value"),
        (b'{"results": [{"command": "x", "times": [1.0, ' + b"9" * 5000 + b"]}]}",
         "cannot read: the JSON holds an integer of thousands of digits"),
        (b'{"results": [{"command": "x", "times": [1.0, 1e-320]}]}',
         "benchmark 'x': 1 value(s) below 2.23e-308, the smallest normal double"),
    ],
)
def test_bad_json_files(tmp_path, raw, words):
    p = tmp_path / "bad.json"
    p.write_bytes(raw)
    msg = _message(p)
    assert msg.startswith(words), msg


def test_top_level_of_the_wrong_kind_with_a_forced_format(tmp_path):
    p = tmp_path / "list.json"
    p.write_text("[1, 2]")
    assert _message(p, "hyperfine") == "a hyperfine file holds a JSON object"
    assert _message(p, "pyperf") == "a pyperf file holds a JSON object"
    p.write_text("3")
    assert _message(p, "jmh") == "a JMH result file holds a JSON array"


def test_unreadable_paths_are_input_errors(tmp_path):
    long = tmp_path / ("r" * 300 + ".json")  # longer than a file name may be
    assert _message(long) == "cannot read: file name too long"
    assert _message(tmp_path) == "is a directory, not a file"
    assert _message(tmp_path, "hyperfine") == "is a directory, not a file"
    assert _message(tmp_path / "nothing.json") == "no such file"
    (tmp_path / "plain.json").write_text("{}")
    assert _message(tmp_path / "plain.json" / "below") == "no such file"  # not a directory
