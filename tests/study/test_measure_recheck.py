"""measure/recheck.py: it runs only the committed binaries (checked by SHA-256)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

MEASURE = Path(__file__).resolve().parents[2] / "measure"


def _recheck():
    sys.path.insert(0, str(MEASURE))
    try:
        spec = importlib.util.spec_from_file_location("esize_recheck", MEASURE / "recheck.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(MEASURE))
    return mod


def _layout(tmp_path: Path, content: bytes, recorded: bytes):
    for b in (1, 2):
        d = tmp_path / "build" / "bin" / "cipher" / f"b{b:03d}"
        d.mkdir(parents=True)
        (d / "bench").write_bytes(content + bytes([b]))
    builds = {"builds": [{"set": "cipher", "build": b,
                          "sha256": hashlib.sha256(recorded + bytes([b])).hexdigest()}
                         for b in (2, 1)] + [{"set": "fft", "build": 1, "sha256": "0"}]}
    path = tmp_path / "builds.json"
    path.write_text(json.dumps(builds))
    return {"build_dir": str(tmp_path / "build")}, path


def test_the_committed_binaries_are_counted(tmp_path):
    rc = _recheck()
    cfg, builds = _layout(tmp_path, b"binary", b"binary")
    assert rc.check_binaries(cfg, ["cipher"], builds) == {"cipher": 2}


def test_a_binary_that_is_not_the_committed_one_is_refused(tmp_path):
    rc = _recheck()
    cfg, builds = _layout(tmp_path, b"rebuilt", b"binary")
    with pytest.raises(rc.M.MeasureError, match="not the committed binary"):
        rc.check_binaries(cfg, ["cipher"], builds)
    with pytest.raises(rc.M.MeasureError, match="no builds of set 'hashtable'"):
        rc.check_binaries(cfg, ["hashtable"], builds)
    with pytest.raises(rc.M.MeasureError, match="run make measure first"):
        rc.check_binaries(cfg, ["fft"], builds)


@pytest.mark.parametrize("config, says", [
    ("benchmarks: [cipher]\n", "master_seed"),                      # not a configuration
    ("master_seed: 1\nbenchmarks: [cipher]\n", "builds.json"),       # nothing measured
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, config, says):
    rc = _recheck()
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"name: none\nout_dir: {tmp_path}\nbuild_dir: {tmp_path}/b\n" + config)
    code = rc.main(["--config", str(cfg), "--sets", "cipher", "--out", str(tmp_path / "o.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("recheck: error: ")
    assert says in err[0]
    assert not (tmp_path / "o.json").exists()
