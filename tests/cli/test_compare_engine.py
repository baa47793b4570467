"""The public comparison engine (:mod:`esize.compare`) gives what ``esize compare``
prints: the command line only reads the files and hands the pairs over."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

import esize.compare as engine
from esize import EsizeError
from esize.readers import read_benchmarks

from .helpers import cli

ROOT = Path(__file__).resolve().parents[2]
OLD, NEW = ROOT / "examples" / "old.csv", ROOT / "examples" / "new.csv"


def _pair():
    old = read_benchmarks(OLD)[None].design
    new = read_benchmarks(NEW)[None].design
    return engine.make_pair(None, old, new)


@pytest.mark.parametrize("method", ["auto", "fieller", "bootstrap", "both"])
def test_engine_text_and_json_are_the_command_lines(method, capsys):
    result = engine.compare_pairs([_pair()], method=method, seed=1, resamples=2000,
                                  files=(str(OLD), str(NEW)), formats=("tidy", "tidy"))
    argv = ["compare", str(OLD), str(NEW), "--seed", "1", "--resamples", "2000",
            "--method", method]
    code, out, _ = cli(argv, capsys)
    assert code == 0 and out.rstrip("\n") == result.render_text()
    code, out, _ = cli([*argv, "--json"], capsys)
    assert code == 0 and json.loads(out) == json.loads(json.dumps(result.to_json()))


def test_a_suite_of_pairs_gets_its_geometric_mean():
    p = _pair()
    q = engine.make_pair("b", p.new, p.old)   # the inverse change
    r = engine.compare_pairs([engine.make_pair("a", p.old, p.new), q], threshold=0.02)
    assert r.suite is not None and [row.pair.name for row in r.rows] == ["a", "b"]
    # a change and its inverse: the geometric mean of the ratios is exactly 1
    assert r.suite.interval.geometric_mean == pytest.approx(1.0, rel=1e-12)
    assert r.suite.seed is None  # the default for a suite runs no bootstrap


def test_bad_method_and_resamples_are_errors():
    with pytest.raises(EsizeError, match="method: 'fast' is not one of auto"):
        engine.compare_pairs([_pair()], method="fast")
    with pytest.raises(EsizeError):
        engine.compare_pairs([_pair()], method="bootstrap", resamples=3)


def test_the_module_example_runs():
    failed, tried = doctest.testmod(engine, optionflags=doctest.ELLIPSIS)
    assert tried >= 4 and failed == 0
