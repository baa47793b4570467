"""A caveat when the harness settings recorded in the two files differ.

The pairs are derived from real files of tests/data/real: the new file is the old
one with a single setting changed (JMH's ``warmupIterations``, pyperf's ``loops``),
so that the measurements are identical and only the settings differ.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from esize.readers.settings import harness_settings, settings_caveat

from .helpers import cli, cli_json

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
JMH = REAL / "jmh-fs2-5forks.json"  # 9 benchmarks, 5 warm-up iterations each
PYPERF = REAL / "pyperf-speed-pypy2.json.gz"  # loops in each benchmark's metadata


def _derived_jmh(tmp_path, **changes) -> Path:
    doc = json.loads(JMH.read_text())
    for entry in doc:
        entry.update(changes)
    p = tmp_path / "jmh-new.json"
    p.write_text(json.dumps(doc))
    return p


def test_jmh_warmup_change_is_named_in_text_and_json(tmp_path, capsys):
    doc = json.loads(JMH.read_text())
    assert {e["warmupIterations"] for e in doc} == {5}
    new = _derived_jmh(tmp_path, warmupIterations=40)
    want = ("the harness settings differ: warmupIterations 5 (old) and 40 (new); the "
            "change measured may come from them, not from the code")
    out = cli_json(["compare", JMH, new, "--seed", "1", "--resamples", "1000"], capsys)
    assert len(out["benchmarks"]) == 9
    for b in out["benchmarks"]:
        assert b["caveats"][0] == want
        assert sum("harness settings" in c for c in b["caveats"]) == 1
    assert any(c.startswith("9 of 9 benchmarks ran with different harness settings")
               for c in out["suite"]["caveats"])
    code, text, err = cli(["compare", JMH, new, "--seed", "1", "--resamples", "1000"], capsys)
    assert code == 0, err
    assert f"caveat      all 9 benchmarks: {want}" in text.splitlines()


def test_same_settings_no_caveat_and_several_named(tmp_path, capsys):
    out = cli_json(["compare", JMH, JMH, "--seed", "1", "--method", "fieller"], capsys)
    assert not any("harness settings" in c for b in out["benchmarks"] for c in b["caveats"])
    new = _derived_jmh(tmp_path, measurementTime="20 s", forks=5, warmupBatchSize=2)
    out = cli_json(["compare", JMH, new, "--method", "fieller",
                    "--benchmark", doc_name()], capsys)
    (caveat,) = [c for c in out["caveats"] if "harness settings" in c]
    assert "measurementTime 10 s (old) and 20 s (new)" in caveat
    assert "warmupBatchSize 1 (old) and 2 (new)" in caveat
    assert "forks" not in caveat  # unchanged


def doc_name() -> str:
    return json.loads(JMH.read_text())[0]["benchmark"]


def test_pyperf_loops_change(tmp_path, capsys):
    doc = json.loads(gzip.decompress(PYPERF.read_bytes()))
    first = doc["benchmarks"][0]
    name, loops = first["metadata"]["name"], first["metadata"]["loops"]
    first["metadata"]["loops"] = loops * 4
    new = tmp_path / "pyperf-new.json"
    new.write_text(json.dumps(doc))
    out = cli_json(["compare", PYPERF, new, "--method", "fieller"], capsys)
    by_name = {b["name"]: b for b in out["benchmarks"]}
    assert f"loops {loops} (old) and {loops * 4} (new)" in by_name[name]["caveats"][0]
    others = [b for n, b in by_name.items() if n != name]
    assert others and not any("harness settings" in c for b in others for c in b["caveats"])


def test_pytest_benchmark_options_change(tmp_path, capsys):
    real = REAL / "pytest-benchmark-sleep-cut.json"
    doc = json.loads(real.read_text())
    before = {b["options"]["min_rounds"] for b in doc["benchmarks"]}
    assert before == {5}
    for b in doc["benchmarks"]:
        b["options"]["min_rounds"] = 10
    new = tmp_path / "pytest-new.json"
    new.write_text(json.dumps(doc))
    code, text, err = cli(["compare", real, new, "--method", "fieller", "--json"], capsys)
    assert code == 0, err  # (notes on stderr: benchmarks cut short are left out)
    caveats = json.loads(text)["caveats"]
    assert caveats[0].startswith("old: a single process: every round ran in one process")
    assert any("min_rounds 5 (old) and 10 (new)" in c for c in caveats)


@pytest.mark.parametrize("old, new, want", [
    ({"loops": 1}, {"loops": 1}, None),
    ({"loops": 1}, {}, None),  # recorded on one side only: nothing to compare
    ({"warmup": False}, {"warmup": True}, "warmup false (old) and true (new)"),
    ({"a": 1, "b": 2}, {"a": 2, "b": 2}, "a 1 (old) and 2 (new)"),
])
def test_settings_caveat(old, new, want):
    got = settings_caveat(old, new)
    assert (got is None) if want is None else (want in got and "b 2" not in got)


def test_settings_never_fail_a_file():
    assert harness_settings("jmh", {"not": "a list"}) == {}
    assert harness_settings("gbench", {"benchmarks": []}) == {}
    assert harness_settings("pyperf", {"benchmarks": [{"runs": [{"values": [1.0]}]}]}) == {
        "(unnamed)": {}}
