"""BenchmarkDotNet, asv and Julia files with one value changed or removed anywhere:
every one is read, or refused with a message naming the file, never with the
"unexpected content" of an error the readers did not foresee."""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import esize as ez
from esize.readers import read_benchmarks

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = [
    DATA / "real" / "benchmarkdotnet-memory-1launch.json",
    DATA / "real" / "benchmarkdotnet-fib-trimmed.json",
    DATA / "real" / "asv-pennylane-summaries.json",
    DATA / "real" / "julia-fib-trialestimates.json",
    DATA / "made-here" / "asv-sortbench-old.json",
]
SEED = 4028  # of the generator choosing what to change
REPLACEMENTS = [None, 0, -1, 1.5, "x", [], {}, [1], {"a": 1}, True, float("nan"), 1e308,
                [[1.0, 2.0]], ["Trial", {}]]


def _paths(x, path=()):
    """Every place in a JSON document, as the keys leading to it."""
    yield path
    items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    for k, v in items:
        yield from _paths(v, (*path, k))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_one_change_anywhere_is_read_or_refused_cleanly(tmp_path, path):
    rng = np.random.default_rng(SEED)
    doc = json.loads(path.read_text(encoding="utf-8"))
    places = list(_paths(doc))[1:]
    target = tmp_path / path.name
    outcomes = set()
    for _ in range(150):
        d = copy.deepcopy(doc)
        where = places[int(rng.integers(len(places)))]
        parent = d
        for k in where[:-1]:
            parent = parent[k]
        if rng.random() < 0.3:
            del parent[where[-1]]
        else:
            parent[where[-1]] = REPLACEMENTS[int(rng.integers(len(REPLACEMENTS)))]
        target.write_text(json.dumps(d))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ez.EsizeWarning)
                read_benchmarks(target)
            outcomes.add("read")
        except ez.InputError as exc:
            assert str(exc).startswith(str(target))
            assert "unexpected content" not in str(exc), (where, str(exc))
            outcomes.add("refused")
    assert "refused" in outcomes  # the changes did reach the readers
