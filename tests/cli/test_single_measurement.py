"""Files of single measurements: ``summary`` shows each value, ``compare`` the point
ratio, ``inconclusive``, saying why; ``plan`` still refuses them.

The Google Benchmark file is real (tests/data/real/gbench-fib-1rep.json, run without
repetitions); its "new" counterpart is derived from it by scaling every time by 0.8.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .helpers import assert_one_line_error, cli, cli_json, write_csv

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
FIB = REAL / "gbench-fib-1rep.json"


def _times(path: Path, key: str = "real_time") -> dict:
    doc = json.loads(path.read_text())
    return {b["name"]: b[key] for b in doc["benchmarks"]}


def _scaled(tmp_path: Path, factor: float) -> Path:
    doc = json.loads(FIB.read_text())
    for b in doc["benchmarks"]:
        b["real_time"] *= factor
    p = tmp_path / "fib-new.json"
    p.write_text(json.dumps(doc))
    return p


def test_summary_shows_each_value(capsys):
    want = _times(FIB)
    out = cli_json(["summary", FIB], capsys)
    assert [b["name"] for b in out["benchmarks"]] == list(want) == ["fib_10", "fib_20"]
    for b in out["benchmarks"]:
        assert b["mean"] == want[b["name"]]  # the harness's own number, exactly
        assert b["ci"] is None and b["variance"] is None
        assert b["counts"] == {"repetition": 1}
        assert b["caveats"] == ["a single measurement: nothing varies, so no interval, "
                                "variance or verdict can be computed; run with "
                                "--benchmark_repetitions=5 or more"]
    code, text, err = cli(["summary", FIB, "--gbench-time", "cpu_time"], capsys)
    assert code == 0, err
    cpu = _times(FIB, "cpu_time")
    assert f"value       {cpu['fib_20']:.6g}" in text.splitlines()


def test_compare_gives_the_point_ratio_inconclusive(tmp_path, capsys):
    new = _scaled(tmp_path, 0.8)
    out = cli_json(["compare", FIB, new], capsys)
    assert "suite" not in out or out["suite"] is None
    for b in out["benchmarks"]:
        assert np.isclose(b["ratio"], 0.8, rtol=1e-12)
        assert b["verdict"] == "inconclusive" and b["verdict_method"] is None
        assert b["verdict_reason"].startswith("old and new hold a single measurement")
        assert b["description"] == "new is 20.00 % faster (a single measurement: no interval)"
        assert "fieller" not in b and "bootstrap" not in b
    code, text, err = cli(["compare", FIB, new], capsys)
    assert code == 0, err
    assert text.count("verdict         inconclusive") == 2
    assert "caveat          no verdict: old and new hold a single measurement" in text


def test_one_side_single_against_a_replicated_table(tmp_path, capsys):
    one = write_csv(tmp_path / "one.csv", [[[4.0]]])
    many = write_csv(tmp_path / "many.csv", [[[5.0, 6.0], [7.0, 6.0]], [[5.5, 6.5], [6.0, 6.0]]])
    out = cli_json(["compare", one, many, "--method", "fieller"], capsys)
    assert out["ratio"] == 6.0 / 4.0 and out["verdict"] == "inconclusive"
    assert out["verdict_reason"].startswith("old holds a single measurement")
    assert out["benchmarks"][0]["design"]["old"] == {"measurement": 1}


def test_plan_still_refuses(capsys):
    assert_one_line_error(*cli(["plan", FIB, "--budget", "100"], capsys), file=FIB,
                          words=["a single measurement in all"])


def test_summary_plot_of_single_values_is_refused(tmp_path, capsys):
    png = tmp_path / "s.png"
    assert_one_line_error(*cli(["summary", FIB, "--plot", png], capsys), file=FIB,
                          words=["no variance to draw"])
    assert not png.exists()
