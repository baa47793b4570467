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
        "3 executions, 1 binary with 2 executions; 1 binary cut, 2 measurements dropped)"
    )
    with pytest.raises(ez.InputError, match="unknown --balance mode 'pad'"):
        design_from_ragged(units, levels, balance="pad")
    with pytest.raises(ez.InputError, match="the file has no binaries"):
        design_from_ragged([], levels)


def test_detection_parses_the_file_once(harness, monkeypatch):
    calls = []
    real = _read.parse_json
    monkeypatch.setattr(_read, "parse_json", lambda raw, p: calls.append(p) or real(raw, p))
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
    assert readers.FORMATS == ("tidy", "pyperf", "jmh", "gbench", "hyperfine")
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
