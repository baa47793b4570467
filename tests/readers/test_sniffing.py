"""Every harness result file of the test data that is one JSON document is recognised
by exactly one harness: no format is taken for another, whatever the order the
sniffers run in (criterion's directories are recognised as directories, elsewhere)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from esize.readers import _read

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = sorted(
    p for d in ("real", "made-here", "harness") for p in (DATA / d).glob("*.json*")
    if p.is_file()
)


def _doc(p: Path):
    raw = p.read_bytes()
    return json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_one_harness_claims_each_file(path):
    doc = _doc(path)
    claims = [m.FORMAT for m in _read._HARNESSES if m.sniff(doc)]
    assert len(claims) == 1, claims


def test_the_new_formats_are_among_the_files():
    claimed = {next(m.FORMAT for m in _read._HARNESSES if m.sniff(_doc(p))) for p in FILES}
    assert {"benchmarkdotnet", "asv", "julia"} <= claimed
