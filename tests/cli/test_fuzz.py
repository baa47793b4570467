"""Property-based tests of the readers and the command line on malformed and extreme input.

Whatever the file, ``esize`` ends in one of two ways: exit 0 with a result, or exit 2
with one line on stderr naming the file. Never a traceback, never a hang (every run
has a time limit), never a changed input file, never a file written but the output.

The cases are built from real and shipped files (harness JSON, tidy CSV) by
mutation: a value replaced by an extreme or malformed one, a key removed, a list
emptied, bytes cut or flipped, one system scaled by a huge or tiny factor. Examples
are derandomised, so a CI run is repeatable; ``HYPOTHESIS_PROFILE=fuzz-long`` runs
many more of them. ``test_fuzz_families`` adds the other families of hostile input
(the other readers, both tidy routes, option values, device nodes, outputs inside
input directories, study configurations) under the same profiles.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, currently_in_test_context, event, given, settings
from hypothesis import strategies as st

from esize.cli import main

REPO = Path(__file__).resolve().parents[2]
HARNESS = REPO / "tests" / "data" / "harness"
REAL = REPO / "tests" / "data" / "real"
EXAMPLES = REPO / "examples"

#: Seconds one command may take before it counts as a hang.
LIMIT = 20

#: No "explain" phase: once a case failed it traces every line run, which makes a
#: case of thousands of nested YAML brackets take over the time limit (a false hang).
PHASES = [Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink]
settings.register_profile(  # CI: with the other fuzz files, well under a minute
    "fuzz", max_examples=100, deadline=None, derandomize=True, database=None, phases=PHASES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture])
settings.register_profile(  # some 12,000 cases with tests/cli/test_fuzz_families.py
    "fuzz-long", max_examples=2000, deadline=None, database=None, phases=PHASES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture])
FUZZ = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "fuzz")
                            if os.environ.get("HYPOTHESIS_PROFILE", "").startswith("fuzz")
                            else "fuzz")

SEEDS = {
    "jmh": [HARNESS / "jmh-old.json", REAL / "jmh-fs2-5forks.json",
            REAL / "jmh-pgclient-sample.json"],
    "gbench": [HARNESS / "gbench-old.json", REAL / "gbench-bencode-10reps.json"],
    "hyperfine": [HARNESS / "hyperfine-old.json", REAL / "hyperfine-sleep-2commands.json"],
    "pyperf": [EXAMPLES / "pyperf" / "telco.json",
               REAL / "pyperf-pyperformance-py36-telco.json"],
}

# -- values that have broken readers somewhere ----------------------------------------------
EXTREME_NUMBERS = st.sampled_from([
    0, -0.0, -1, 1e-320, 5e-324, 1e-300, 1e-200, 1e200, 1e300, 1.7976931348623157e308,
    10**400, -(10**30), 2**63, 0.1, 1, 3, 1e-9, 123456789.123,
])
EXTREME_TEXT = st.sampled_from([
    "", " ", "nan", "NaN", "inf", "-inf", "Infinity", "1_000", "\u0661\u0662", "\uff11",
    "12\x00", "1e", "1e999", "--1", "0x10", "1,5", "true", "null", "\ufeff1", "1 2",
    "2024-01-01", "12:30", "\u00a0" + "5", "\"", "a\nb", "é",
])
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), EXTREME_NUMBERS, EXTREME_TEXT,
              st.floats(allow_nan=False, allow_infinity=False)),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["", "name", "times", "values", "rawData", "runs", "x"]), children,
        max_size=3),
    max_leaves=6,
)


# -- running and checking one case ----------------------------------------------------------
class Hang(Exception):
    pass


@contextmanager
def time_limit(seconds: int):
    def fire(signum, frame):
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _digest(paths) -> dict:
    return {p: hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in paths}


def invoke(argv, capsys) -> tuple[int, str, str]:
    """Run ``esize`` in-process within :data:`LIMIT` seconds: (exit code, out, err)."""
    with time_limit(LIMIT):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # usage errors: still one line, status 2
            code = exc.code
    out, err = capsys.readouterr()
    if currently_in_test_context():
        event(f"exit {code}")
    return code, out, err


def check_outcome(code, out: str, err: str, words, missing: str) -> None:
    """The oracle of a case's output: exit 0 with a result and notes only, or exit 2
    with one line on stderr that names one of ``words`` (``missing``: the message when
    it names none); never a traceback."""
    assert "Traceback" not in err, err
    assert code in (0, 2), (code, err)
    if code == 2:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1, err
        assert lines[0].startswith("esize"), err
        assert any(w in lines[0] for w in words), missing
        assert out == ""
    else:
        assert out.strip()
        assert all(ln.startswith("esize: note: ") for ln in err.splitlines()), err


def run_case(argv, inputs, capsys, directory: Path) -> tuple[int, str, str]:
    """Run ``esize`` in-process and check everything a case must satisfy."""
    before = _digest(inputs)
    files_before = set(os.listdir(directory))
    code, out, err = invoke(argv, capsys)
    check_outcome(code, out, err, [Path(p).name for p in inputs],
                  f"the error names no input file: {err}")
    assert _digest(inputs) == before, "an input file changed"
    out_file = next((a for i, a in enumerate(argv) if argv[i - 1] == "-o"), None)
    allowed = files_before | ({Path(out_file).name} if out_file and code == 0 else set())
    assert set(os.listdir(directory)) <= allowed, "a file was written that is not the output"
    return code, out, err


# -- mutations of JSON documents ------------------------------------------------------------
def _paths(doc, prefix=()):
    """Every (path, value) in a JSON document."""
    yield prefix, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


def _set(doc, path, value):
    if not path:
        return value
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def _delete(doc, path):
    if not path:
        return doc
    node = doc
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return doc


MUTATIONS = ("replace", "replace-number", "delete", "empty", "scale")


def mutate_doc(draw, doc, actions=MUTATIONS):
    """One to three mutations of a JSON document: a value replaced by an odd or an
    extreme one, a key deleted, a list or object emptied, every float scaled."""
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from([p for p, _ in _paths(doc)]))
        action = draw(st.sampled_from(list(actions)))
        if action == "replace":
            doc = _set(doc, path, draw(JSON_VALUES))
        elif action == "replace-number":
            doc = _set(doc, path, draw(EXTREME_NUMBERS))
        elif action == "delete" and path:
            doc = _delete(doc, path)
        elif action == "empty":
            doc = _set(doc, path, [] if draw(st.booleans()) else {})
        elif action == "scale":
            factor = draw(st.sampled_from([1e-200, 1e200, 1e-300, 1e300]))
            for p, v in list(_paths(doc)):
                if isinstance(v, float):
                    _set(doc, p, v * factor)
    return doc


@st.composite
def mutated_json(draw):
    fmt = draw(st.sampled_from(sorted(SEEDS)))
    seed_file = draw(st.sampled_from(SEEDS[fmt]))
    raw = seed_file.read_bytes()
    import gzip

    doc = mutate_doc(draw, json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw))
    text = json.dumps(doc)
    if draw(st.booleans()):  # byte damage: cut, or one byte changed
        data = text.encode()
        k = draw(st.integers(0, max(0, len(data) - 1)))
        if draw(st.booleans()):
            data = data[:k]
        else:
            data = data[:k] + bytes([draw(st.integers(0, 255))]) + data[k + 1:]
        return fmt, seed_file, data
    return fmt, seed_file, text.encode()


# -- tidy tables ----------------------------------------------------------------------------
@st.composite
def tidy_csv(draw):
    n_bin = draw(st.integers(1, 4))
    n_exe = draw(st.integers(1, 3))
    n_mes = draw(st.integers(1, 3))
    base = draw(st.sampled_from([1.0, 1e-300, 1e-200, 1e200, 1e300, 1e-310]))
    rows = []
    for b in range(n_bin):
        for e in range(n_exe):
            for m in range(n_mes):
                v = base * (1 + 0.1 * b + 0.01 * e + 0.001 * m)
                rows.append([str(b + 1), str(e + 1), repr(v)])
    for _ in range(draw(st.integers(0, 3))):  # corrupt some cells
        r = draw(st.integers(0, len(rows) - 1))
        c = draw(st.integers(0, 2))
        cell = draw(st.one_of(EXTREME_TEXT, EXTREME_NUMBERS.map(repr)))
        rows[r][c] = cell
    header = draw(st.sampled_from(["binary,execution,time", "binary,execution,time,extra",
                                   "binary,time", "\ufeffbinary,execution,time",
                                   "binary,binary,time", ""]))
    sep = draw(st.sampled_from([",", ",", "\t", ";"]))
    lines = [header.replace(",", sep)] + [sep.join(r) for r in rows]
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n", "\r\n", "\x00"]))
    return text.encode("utf-8", "surrogatepass")


# -- the properties -------------------------------------------------------------------------
OPTIONS = st.lists(st.sampled_from([
    ["--warmup", "1"], ["--warmup", "auto"], ["--balance", "truncate"], ["--normal"],
    ["--alpha", "0.01"], ["--method", "fieller"], ["--method", "bootstrap"],
    ["--threshold", "0"],
]), max_size=2, unique_by=lambda o: o[0])


@FUZZ
@given(case=mutated_json(), options=OPTIONS, command=st.sampled_from(["summary", "compare",
                                                                      "plan"]))
def test_harness_files_never_crash(case, options, command, tmp_path_factory, capsys):
    fmt, seed_file, data = case
    d = tmp_path_factory.mktemp("fuzz")
    bad = d / f"bad-{fmt}.json"
    bad.write_bytes(data)
    good = d / f"good-{fmt}.json"
    good.write_bytes(seed_file.read_bytes())
    opts = [o for opt in options for o in opt
            if command == "compare" or opt[0] in ("--warmup", "--balance")]
    if command == "compare":
        argv = ["compare", good, bad, "--seed", "1", "--resamples", "1000", *opts]
        if command == "compare" and options and options[0] == ["--warmup", "auto"]:
            argv = ["compare", bad, good, "--seed", "1", "--resamples", "1000", *opts]
    elif command == "plan":
        argv = ["plan", bad, "--costs", "10", *opts]
    else:
        argv = ["summary", bad, *opts]
    run_case([*argv, "-o", d / "out.json"], [good, bad], capsys, d)


@FUZZ
@given(data=tidy_csv(), other=tidy_csv(), command=st.sampled_from(["summary", "compare"]),
       options=OPTIONS)
def test_tidy_tables_never_crash(data, other, command, options, tmp_path_factory, capsys):
    d = tmp_path_factory.mktemp("fuzz")
    a = d / "a.csv"
    a.write_bytes(data)
    b = d / "b.csv"
    b.write_bytes(other)
    if command == "compare":
        argv = ["compare", a, b, "--seed", "1", "--resamples", "1000",
                *[o for opt in options for o in opt]]
        inputs = [a, b]
    else:
        argv = ["summary", a, *[o for opt in options for o in opt
                                if opt[0] in ("--warmup", "--balance", "--normal", "--alpha")]]
        inputs = [a]
    run_case([*argv, "-o", d / "out.json"], inputs, capsys, d)


@FUZZ
@given(k=st.integers(-300, 300), which=st.sampled_from(["old", "new"]),
       fmt=st.sampled_from(["gbench", "jmh", "hyperfine", "tidy"]))
def test_one_file_scaled_by_any_power_of_ten_is_exact(k, which, fmt, tmp_path_factory, capsys):
    """Scaling one file by 10**k scales the ratio and both Fieller limits by 10**k (or
    its inverse) and nothing else: the relative interval stays the same."""
    d = tmp_path_factory.mktemp("scale")
    factor = 10.0 ** k
    if fmt == "tidy":
        src = {s: EXAMPLES / f"{s}.csv" for s in ("old", "new")}
    else:
        src = {s: HARNESS / f"{fmt}-{s}.json" for s in ("old", "new")}
    paths = {}
    for s, p in src.items():
        q = d / p.name
        q.write_bytes(p.read_bytes())
        paths[s] = q
    _scale_file(paths[which], factor, fmt)
    argv = ["compare", paths["old"], paths["new"], "--method", "fieller", "--json"]
    code, out, err = run_case(argv, list(paths.values()), capsys, d)
    base_code, base_out, _ = run_case(["compare", src["old"], src["new"], "--method",
                                       "fieller", "--json"], list(src.values()), capsys,
                                      d)
    assert code == 0 == base_code, err
    got, ref = json.loads(out), json.loads(base_out)
    c = factor if which == "new" else 1.0 / factor
    for g, r in zip(got["benchmarks"], ref["benchmarks"]):
        if r["fieller"]["lower"] is None:  # unbounded stays unbounded
            assert g["fieller"]["lower"] is None
            continue
        for key in ("lower", "upper"):
            assert math.isclose(g["fieller"][key], r["fieller"][key] * c, rel_tol=1e-9), (
                g, r, c)
        assert math.isclose(g["ratio"], r["ratio"] * c, rel_tol=1e-9)


def _scale_file(p: Path, factor: float, fmt: str) -> None:
    if fmt == "tidy":
        lines = p.read_text().splitlines()
        head, rows = lines[0], [ln.split(",") for ln in lines[1:] if ln]
        p.write_text(head + "\n" + "\n".join(
            ",".join([*r[:-1], repr(float(r[-1]) * factor)]) for r in rows) + "\n")
        return
    doc = json.loads(p.read_text())
    if fmt == "gbench":
        for b in doc["benchmarks"]:
            if b.get("run_type") != "aggregate":
                for key in ("real_time", "cpu_time"):
                    b[key] *= factor
    elif fmt == "hyperfine":
        for r in doc["results"]:
            r["times"] = [t * factor for t in r["times"]]
    elif fmt == "jmh":
        for e in doc:
            pm = e["primaryMetric"]
            if pm.get("rawData") is not None:
                pm["rawData"] = [[v * factor for v in f] for f in pm["rawData"]]
            if pm.get("rawDataHistogram") is not None:
                pm["rawDataHistogram"] = [[[[v * factor, c] for v, c in it] for it in f]
                                          for f in pm["rawDataHistogram"]]
    p.write_text(json.dumps(doc))


@pytest.mark.parametrize("limit", [LIMIT])
def test_the_time_limit_fires(limit):
    """The hang guard itself works (a case that waits is stopped, not waited for)."""
    with pytest.raises(Hang), time_limit(1):
        signal.pause()
