"""Real result files committed to public repositories (``tests/data/real``).

``SOURCES.md`` in that directory lists every file with its origin and checksum; the
tests read its tables, so the list and the directory cannot drift apart. Each file is
read by the library and by the command line, and what the readers return is checked
against numbers taken straight from the raw JSON: the measurements themselves and the
harness's own aggregates (JMH's ``score``, Google Benchmark's ``_mean`` rows,
hyperfine's ``mean``).

Every file has one expected status in ``EXPECT``:

* ``reads``: read, and every level of every design has at least two units;
* ``refused``: refused with a message, and rightly so (nothing can be computed);
* ``todo``: refused today although the measurements could be analysed; its reading
  test is a strict ``xfail`` naming the shape, to be flipped to ``reads`` once the
  library handles it (its command-line test pins today's clean refusal).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import subprocess
import sys
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from esize import DesignError, EsizeWarning, InputError
from esize.readers import FORMATS, detect_format, read_benchmarks

from .reader_helpers import needs_pyperf, pyperf

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
SOURCES = REAL / "SOURCES.md"
REL = 1e-9
LICENCES = {"MIT", "Apache-2.0", "MIT or Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "PSF-2.0"}


# -- SOURCES.md ---------------------------------------------------------------------------
def _tables(text: str) -> list[list[dict[str, str]]]:
    """Every Markdown table of ``text`` as a list of rows keyed by the header cells."""
    tables, block = [], []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            block.append([c.strip() for c in line.strip().strip("|").split("|")])
            continue
        if len(block) >= 2:
            header, body = block[0], [r for r in block[1:] if not set("".join(r)) <= set("-: ")]
            tables.append([dict(zip(header, row)) for row in body])
        block = []
    return tables


def _table(first_column_header: str, *others: str) -> dict[str, dict[str, str]]:
    """The table of SOURCES.md whose header holds these columns, keyed by file name."""
    for rows in _tables(SOURCES.read_text(encoding="utf-8")):
        if rows and {first_column_header, *others} <= set(rows[0]):
            return {r[first_column_header].strip("`"): r for r in rows}
    raise AssertionError(f"SOURCES.md has no table with columns {first_column_header, *others}")


LISTED = _table("File", "Format", "Repository", "Commit", "Licence")
CHECKSUMS = _table("File", "Bytes", "SHA-256")
NAMES = sorted(LISTED)


# -- what each file is expected to give -----------------------------------------------------
@dataclass(frozen=True)
class Expect:
    """What reading one file gives today.

    ``shapes`` counts the benchmarks by their design, ``{(("fork", 5), ("iteration",
    5)): 9}``; ``message`` is the text of the refusal (``refused``, ``todo``) and
    ``why`` names the shape a ``todo`` file has; ``skipped`` counts the notes about
    benchmarks the harness reported as failed.
    """

    status: str
    message: str = ""
    shapes: dict = field(default_factory=dict)
    unit: str = ""
    unobserved: tuple = ()
    skipped: int = 0
    why: str = ""


PV = (("process", 20), ("value", 3))
GO_ONE_PROCESS = (("process", None),)
#: What a file of a format that measures in one process cannot see (its level is process).
ONE_PROCESS = (("process", None),)
GO_ONE_RUN = (("run", "process"),)
EXPECT = {
    "pyperf-pyperformance-py36-telco.json": Expect("reads", shapes={PV: 1}, unit="second"),
    "pyperf-pyperformance-py38-telco.json": Expect("reads", shapes={PV: 1}, unit="second"),
    "pyperf-pyperformance-performance03-call_simple.json": Expect(
        "reads", shapes={(("process", 10), ("value", 2)): 1}, unit="second"
    ),
    "pyperf-pyperformance-mem1.json": Expect(
        "refused",
        message="benchmark 'call_simple': a single measurement in all; at least 2 are needed",
    ),
    "pyperf-pyperformance-html5lib-1process.json.gz": Expect(
        "reads", shapes={(("value", 50),): 1}, unit="second", unobserved=(("process", None),)
    ),
    "pyperf-pyperf-track_memory.json": Expect(
        # 3 processes of one value each (a memory peak per process): the processes hold
        # their one value whole
        "reads", shapes={(("process", 3),): 1}, unit="byte",
        unobserved=(("value", "process"),),
    ),
    "pyperf-speed-cpython27.json.gz": Expect(
        "reads",
        shapes={PV: 64, (("process", 20), ("value", 10)): 2, (("process", 20), ("value", 25)): 1},
        unit="second",
    ),
    "pyperf-speed-pypy2.json.gz": Expect(
        "reads", shapes={(("process", 10), ("value", 250)): 67}, unit="second"
    ),
    "jmh-jcasbin-fork1-params.json": Expect(
        "reads", shapes={(("iteration", 3),): 37}, unobserved=(("fork", None),)
    ),
    "jmh-fs2-5forks.json": Expect(
        "reads", shapes={(("fork", 5), ("iteration", 5)): 9}, unit="ops/s"
    ),
    "jmh-pgclient-sample.json": Expect(
        "reads", shapes={(("fork", 2), ("iteration", 5)): 2}, unit="s/op"
    ),
    "gbench-fib-1rep.json": Expect(
        "refused",
        message="every benchmark (2: fib_10, fib_20) holds a single measurement in all; "
        "at least 2 are needed",
    ),
    "gbench-bencode-10reps.json": Expect("reads", shapes={(("repetition", 10),): 10}, unit="ns", unobserved=ONE_PROCESS),
    "gbench-kriben-errors.json": Expect(
        "reads", shapes={(("repetition", 10),): 3}, unit="ns", skipped=2, unobserved=ONE_PROCESS
    ),
    "gbench-irajul-allfailed.json": Expect(
        "refused", message="no benchmark repetitions in the file", skipped=5
    ),
    "hyperfine-sleep-2commands.json": Expect(
        "reads", shapes={(("run", 27),): 1, (("run", 13),): 1}, unit="s"
    ),
    "benchmarkdotnet-memory-1launch.json": Expect(
        "reads", shapes={(("iteration", 3),): 2}, unit="ns", unobserved=(("launch", None),)
    ),
    "benchmarkdotnet-fib-trimmed.json": Expect(
        "refused",
        message="benchmark 'Sample.Benchmarks.Fib10': none of its 20 measurements is a "
        "Workload/Result iteration",
    ),
    "asv-pennylane-summaries.json": Expect(
        "refused",
        message="the asv results hold summaries only (median, quartiles, confidence "
        "interval), no samples; asv keeps the samples when run with --record-samples",
    ),
    "julia-fib-trialestimates.json": Expect(
        "refused",
        message="the file holds 2 TrialEstimate (fib/20, fib/10): one number per benchmark, "
        "not its samples",
    ),
    # two commits of one BenchmarkTools.save file: 6 Trials each (2 groups x 3 methods)
    "julia-cardiac-simtimings-old.json": Expect(
        "reads", unit="ns", shapes={(("sample", n),): 1 for n in (201, 175, 1123, 241, 205, 1109)}, unobserved=ONE_PROCESS
    ),
    "julia-cardiac-simtimings-new.json": Expect(
        "reads", unit="ns", shapes={(("sample", n),): 1 for n in (213, 185, 1206, 257, 218, 1192)}, unobserved=ONE_PROCESS
    ),
    # JSON.print of the group run(...) returned: one Trial, no versions header
    "julia-mlogit-bare-group.json": Expect("reads", unit="ns", shapes={(("sample", 312),): 1}, unobserved=ONE_PROCESS),
    # PkgBenchmark's result file, the saved group as a string; cut to 1 of its 5 Trials
    "julia-pkgbenchmark-astarsearch-cut.json": Expect(
        "reads", unit="ns", shapes={(("sample", 9),): 1}, unobserved=ONE_PROCESS
    ),
    # one go test invocation: one process, its -count runs the top level after it
    "gotest-crc32-old.txt": Expect(
        "reads", shapes={(("run", 10),): 36}, unit="ns/op", unobserved=GO_ONE_PROCESS
    ),
    "gotest-crc32-new.txt": Expect(
        "reads", shapes={(("run", 10),): 36}, unit="ns/op", unobserved=GO_ONE_PROCESS
    ),
    "gotest-encode-old.txt": Expect(
        "reads", shapes={(("run", 10),): 2}, unit="ns/op", unobserved=GO_ONE_PROCESS
    ),
    "gotest-encode-new.txt": Expect(
        "reads", shapes={(("run", 10),): 2}, unit="ns/op", unobserved=GO_ONE_PROCESS
    ),
    # 25 go test invocations (a PASS line after each) of one run: 25 processes
    "gotest-bent-base.txt": Expect(
        "reads", shapes={(("process", 25),): 67}, unit="ns/op", unobserved=GO_ONE_RUN
    ),
    "gotest-bent-tip.txt": Expect(
        "reads", shapes={(("process", 25),): 67}, unit="ns/op", unobserved=GO_ONE_RUN
    ),
    "gotest-benchstat-crc32-summary.txt": Expect(
        "refused", message="this is benchstat's summary (medians and ± ranges), not the "
        "measurements; give esize the 'go test -bench' output benchstat read",
    ),
    "gotest-fiber-1run-2pkgs.txt": Expect(
        "refused", message="every benchmark (4: BenchmarkAppendMsgitem-4 "
        "[pkg=github.com/gofiber/fiber/v3/middleware/cache], ",
    ),
    "gotest-fib-1run-mixed-P.txt": Expect(
        "refused", message="every benchmark (8: BenchmarkFib10-8, BenchmarkFib20, ",
    ),
    "pytest-benchmark-sleep-cut.json": Expect(
        "reads", shapes={(("round", 5),): 1}, unit="s", skipped=3, unobserved=ONE_PROCESS
    ),
    "pytest-benchmark-fib-cut.json": Expect(
        "refused", message="no benchmark holds all its round times (benchmark "
        "'bench.py::test_fib_10': data value 5 is \"... omitted to keep this file small\", "
        "not a number; 1 more alike): the file was cut short or edited by hand",
    ),
    "pytest-benchmark-storage-summary.json": Expect(
        "refused", message="holds only summary statistics (mean, stddev, ...) of its 1 "
        "benchmark, not the time of each round (stats.data); pytest-benchmark keeps each "
        "round's time in files written with --benchmark-json=FILE",
    ),
    # a directory; the note says which of its 4 baselines was read
    "criterion-deduplicate": Expect(
        "reads", shapes={(("sample", 100),): 18}, unit="ns", skipped=1, unobserved=ONE_PROCESS
    ),
}


def _reading_param(name: str):
    """``name``, marked as a strict xfail when the file is refused today but should not be."""
    exp = EXPECT[name]
    if exp.status != "todo":
        return name
    return pytest.param(
        name,
        marks=pytest.mark.xfail(
            strict=True,
            raises=(InputError, DesignError),
            reason=f"{exp.why}: refused today ({exp.message})",
        ),
    )


# -- the raw files, read without the library ----------------------------------------------
def _doc(name: str):
    raw = (REAL / name).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def _raw_pyperf(doc) -> dict:
    """``{name: (values of each process that has values, unit)}`` of a pyperf 1.0 file."""
    assert doc["version"] == "1.0"
    common = doc.get("metadata", {})
    out = {}
    for bench in doc["benchmarks"]:
        meta = {**common, **bench.get("metadata", {})}
        runs = [run["values"] for run in bench["runs"] if run.get("values")]
        out[meta["name"]] = (runs, meta.get("unit", "second"))
    return out


def _jmh_name(entry) -> str:
    params = entry.get("params") or {}
    return entry["benchmark"] + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


def _raw_jmh(doc) -> dict:
    """``{name: (iterations of each fork, mean of every sample, score, scoreUnit)}``.

    A sample-mode iteration is the count-weighted mean of its histogram; the mean of
    every sample weighs each histogram by its count."""
    out = {}
    for entry in doc:
        pm = entry["primaryMetric"]
        if "rawData" in pm:
            forks = pm["rawData"]
            overall = float(np.mean(forks))
        else:
            hists = pm["rawDataHistogram"]
            forks = [
                [sum(v * c for v, c in hist) / sum(c for _, c in hist) for hist in fork]
                for fork in hists
            ]
            pairs = [pair for fork in hists for hist in fork for pair in hist]
            overall = sum(v * c for v, c in pairs) / sum(c for _, c in pairs)
        out[_jmh_name(entry)] = (forks, overall, pm["score"], pm["scoreUnit"])
    return out


def _raw_gbench(doc) -> tuple[dict, dict, set]:
    """Repetition times by benchmark, the ``mean`` aggregates, and the failed names."""
    times, means, failed = {}, {}, set()
    for e in doc["benchmarks"]:
        name = e["run_name"]
        if e.get("run_type") == "aggregate":
            if e["aggregate_name"] == "mean":
                means[name] = e["real_time"]
        elif e.get("error_occurred"):
            failed.add(name)
        else:
            times.setdefault(name, []).append(e["real_time"])
    return {k: v for k, v in times.items() if k not in failed}, means, failed


def _read(name: str, **kwargs):
    """The benchmarks of a file and the notes (EsizeWarning) given while reading it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        benches = read_benchmarks(REAL / name, **kwargs)
    return benches, [w for w in caught if issubclass(w.category, EsizeWarning)]


# -- the list and the directory ---------------------------------------------------------------
def test_sources_lists_exactly_the_files_of_the_directory():
    present = {p.name for p in REAL.iterdir() if p.name != "SOURCES.md"}
    assert set(LISTED) == present
    assert set(CHECKSUMS) == present
    assert set(EXPECT) == present
    # files, and criterion's directories (a format whose results are a directory tree)
    assert all((REAL / name).is_file() or LISTED[name]["Format"] == "criterion"
               for name in LISTED)


@pytest.mark.parametrize("name", NAMES)
def test_every_source_names_its_origin_and_licence(name):
    row = LISTED[name]
    assert row["Format"] in FORMATS
    assert re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", row["Repository"])
    assert re.fullmatch(r"[0-9a-f]{40}", row["Commit"])
    assert row["Path in the repository"].strip("`")
    assert row["Licence"] in LICENCES
    assert len(row["Shape"]) > 20


@pytest.mark.parametrize("name", NAMES)
def test_file_is_the_listed_bytes(name):
    size, digest = _size_and_digest(REAL / name)
    assert size == int(CHECKSUMS[name]["Bytes"])
    assert digest == CHECKSUMS[name]["SHA-256"]


def _size_and_digest(path: Path) -> tuple[int, str]:
    """Bytes and SHA-256 of a file; of a directory, the bytes of all its files and the
    digest of their ``sha256sum`` listing sorted by relative path (SOURCES.md)."""
    if path.is_file():
        data = path.read_bytes()
        return len(data), hashlib.sha256(data).hexdigest()
    files = sorted(f for f in path.rglob("*") if f.is_file())
    listing = "".join(f"{hashlib.sha256(f.read_bytes()).hexdigest()}  "
                      f"{f.relative_to(path).as_posix()}\n" for f in files)
    return sum(f.stat().st_size for f in files), hashlib.sha256(listing.encode()).hexdigest()


def test_corpus_stays_small():
    total = sum(_size_and_digest(REAL / name)[0] for name in NAMES)
    assert total < 3_000_000


# -- reading ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_format_is_detected(name):
    assert detect_format(REAL / name) == LISTED[name]["Format"]


@pytest.mark.parametrize("name", [_reading_param(n) for n in NAMES])
def test_read(name):
    exp = EXPECT[name]
    if exp.status == "refused":
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(InputError, match=re.escape(exp.message)) as info:
                read_benchmarks(REAL / name)
        assert str(REAL / name) in str(info.value)
        assert sum(issubclass(w.category, EsizeWarning) for w in caught) == exp.skipped
        return
    benches, notes = _read(name)
    for bench in benches.values():
        bench.design.require_replication(2)  # what every analysis needs
    if exp.status == "todo":
        return  # reaching this point turns the strict xfail into a failure: flip it
    shapes = Counter(tuple(b.design.counts.items()) for b in benches.values())
    assert dict(shapes) == exp.shapes
    for bench in benches.values():
        assert bench.unobserved == exp.unobserved
        # a caveat for every highest level of one unit (a lower one loses nothing)
        assert len(bench.caveats) == sum(parent is None for _, parent in exp.unobserved)
    assert len(notes) == exp.skipped
    if exp.unit:
        assert {b.unit.unit for b in benches.values()} == {exp.unit}
    {
        "pyperf": _check_pyperf,
        "jmh": _check_jmh,
        "gbench": _check_gbench,
        "hyperfine": _check_hyperfine,
        "benchmarkdotnet": _check_benchmarkdotnet,
        "gotest": _check_gotest,
        "pytest-benchmark": _check_pytest_benchmark,
        "criterion": _check_criterion,
        "julia": _check_julia,
    }[LISTED[name]["Format"]](name, benches)


def _check_pyperf(name, benches):
    raw = _raw_pyperf(_doc(name))
    assert list(benches) == list(raw)
    for bench_name, (runs, unit) in raw.items():
        design, info = benches[bench_name]
        want = np.array(runs[0] if len(runs) == 1 else runs)
        np.testing.assert_array_equal(design.data, want.reshape(design.shape))
        assert want.size == design.data.size
        assert info.unit == unit
        assert design.mean == pytest.approx(float(np.mean(runs)), rel=REL)


def _check_jmh(name, benches):
    raw = _raw_jmh(_doc(name))
    assert len(raw) == len(_doc(name))  # no two results share a name: no " [mode]" suffix
    assert list(benches) == list(raw)
    for bench_name, (forks, overall, score, unit) in raw.items():
        design, info = benches[bench_name]
        want = np.array(forks[0] if len(forks) == 1 else forks)
        np.testing.assert_allclose(design.data, want, rtol=REL)
        assert info.unit == unit
        assert score == pytest.approx(overall, rel=REL)  # JMH's score: mean of every sample
        # the design weighs every iteration alike; in these files that is JMH's score
        # too (every sample-mode histogram holds one sample)
        assert design.mean == pytest.approx(score, rel=REL)


def test_sample_mode_histograms_hold_one_sample_each():
    doc = _doc("jmh-pgclient-sample.json")
    counts = {
        c for e in doc for fork in e["primaryMetric"]["rawDataHistogram"] for h in fork for _, c in h
    }
    assert {e["mode"] for e in doc} == {"sample"}
    assert counts == {1}


def _check_gbench(name, benches):
    times, means, failed = _raw_gbench(_doc(name))
    assert list(benches) == list(times)
    assert failed.isdisjoint(benches)
    for bench_name, values in times.items():
        np.testing.assert_array_equal(benches[bench_name].design.data, values)
    assert set(means) == set(times)  # the harness's own mean of every benchmark read
    for bench_name, mean in means.items():
        assert benches[bench_name].design.mean == pytest.approx(mean, rel=REL)


def _check_hyperfine(name, benches):
    results = _doc(name)["results"]
    assert list(benches) == [r["command"] for r in results]
    for r in results:
        design = benches[r["command"]].design
        np.testing.assert_array_equal(design.data, r["times"])
        assert design.mean == pytest.approx(r["mean"], rel=REL)


def _check_benchmarkdotnet(name, benches):
    """Every Workload/Result iteration in ns per operation, and BenchmarkDotNet's own
    ``Statistics.Mean`` (computed from exactly those iterations)."""
    entries = _doc(name)["Benchmarks"]
    assert list(benches) == [b["FullName"] for b in entries]
    for b in entries:
        result = [m["Nanoseconds"] / m["Operations"] for m in b["Measurements"]
                  if (m["IterationMode"], m["IterationStage"]) == ("Workload", "Result")]
        design = benches[b["FullName"]].design
        np.testing.assert_allclose(design.data.ravel(), result, rtol=REL)
        assert design.data.size == b["Statistics"]["N"]
        assert design.mean == pytest.approx(b["Statistics"]["Mean"], rel=REL)


def _raw_go(name: str) -> dict:
    """``{benchmark: [ns/op of every result line]}`` of a Go text file, read with a
    regular expression of its own (names in these files are unique across packages)."""
    out: dict = {}
    for line in (REAL / name).read_text(encoding="utf-8").splitlines():
        m = re.match(r"(Benchmark\S*)\s+\d+\s+(\S+) ns/op(\s|$)", line)
        if m:
            out.setdefault(m.group(1), []).append(float(m.group(2)))
    return out


def _check_gotest(name, benches):
    """Every ns/op value, which is Go's own statistic: the mean time of the
    iterations of one run."""
    raw = _raw_go(name)
    assert list(benches) == list(raw)
    for bench_name, values in raw.items():
        design = benches[bench_name].design
        np.testing.assert_array_equal(design.data, values)
        assert design.mean == pytest.approx(float(np.mean(values)), rel=REL)


def _check_pytest_benchmark(name, benches):
    """The rounds of every benchmark whose data is whole, and pytest-benchmark's own
    ``stats.mean``."""
    whole = [b for b in _doc(name)["benchmarks"]
             if len(b["stats"].get("data", ())) == b["stats"]["rounds"]
             and all(isinstance(x, float) for x in b["stats"]["data"])]
    assert list(benches) == [b["fullname"] for b in whole]
    for b in whole:
        design = benches[b["fullname"]].design
        np.testing.assert_array_equal(design.data, b["stats"]["data"])
        assert design.mean == pytest.approx(b["stats"]["mean"], rel=REL)


def _criterion_runs(name: str, baseline: str) -> dict:
    """``{full_id: (times / iters, criterion's mean estimate)}`` of one baseline."""
    out = {}
    for sample in sorted((REAL / name).rglob(f"{baseline}/sample.json")):
        raw = json.loads(sample.read_text())
        full_id = json.loads((sample.parent / "benchmark.json").read_text())["full_id"]
        estimate = json.loads((sample.parent / "estimates.json").read_text())
        per_iter = np.array(raw["times"]) / np.array(raw["iters"])
        out[full_id] = (per_iter, estimate["mean"]["point_estimate"])
    return out


def _check_criterion(name, benches):
    """The time per iteration of every sample of the baseline ``new``, and criterion's
    own mean (``estimates.json``)."""
    raw = _criterion_runs(name, "new")
    assert sorted(benches) == sorted(raw)
    for full_id, (per_iter, mean) in raw.items():
        design = benches[full_id].design
        np.testing.assert_allclose(design.data, per_iter, rtol=REL)
        assert design.mean == pytest.approx(mean, rel=REL)


def _raw_julia(doc) -> dict:
    """``{"group/.../key": times}`` of every Trial of a ``BenchmarkTools.save`` file,
    or of the one value that ``JSON.print`` wrote alone (no versions before it), or of
    the file that PkgBenchmark keeps as a string under ``benchmarkgroup``."""
    if isinstance(doc, dict):
        doc = json.loads(doc["benchmarkgroup"])
    out = {}
    stack = [("", value) for value in ([doc] if isinstance(doc[0], str) else doc[1])]
    while stack:
        path, (kind, fields) = stack.pop()
        if kind.removeprefix("BenchmarkTools.") == "BenchmarkGroup":
            stack += [(f"{path}/{k}" if path else k, v) for k, v in fields["data"].items()]
        elif kind.removeprefix("BenchmarkTools.") == "Trial":
            out[path] = fields["times"]
    return out


def _check_julia(name, benches):
    raw = _raw_julia(_doc(name))
    assert sorted(benches) == sorted(raw)
    for key, times in raw.items():
        design = benches[key].design
        np.testing.assert_array_equal(design.data, times)
        # what BenchmarkTools' mean(trial) gives: the plain mean of the Trial's times
        assert design.mean == pytest.approx(sum(times) / len(times), rel=REL)


@needs_pyperf
@pytest.mark.parametrize(
    "name", [n for n in NAMES if LISTED[n]["Format"] == "pyperf" and EXPECT[n].status == "reads"]
)
def test_pyperf_means_agree_with_pyperf(name):
    suite = pyperf.BenchmarkSuite.load(str(REAL / name))
    benches, _ = _read(name)
    assert sorted(benches) == sorted(suite.get_benchmark_names())
    for bench in suite.get_benchmarks():
        assert benches[bench.get_name()].design.mean == pytest.approx(bench.mean(), rel=REL)


# -- what the real files show ----------------------------------------------------------------
def test_pypy_and_cpython_files_measure_the_same_benchmarks():
    pypy, _ = _read("pyperf-speed-pypy2.json.gz")
    cpython, _ = _read("pyperf-speed-cpython27.json.gz")
    assert len(pypy) == 67
    assert sorted(pypy) == sorted(cpython)


def test_pypy_warm_up_is_inside_the_values_and_can_be_dropped():
    benches, _ = _read("pyperf-speed-pypy2.json.gz")
    data = benches["sympy_str"].design.data
    # the first value of every process is the JIT warming up: over 10 times the steady state
    assert data[:, 0].mean() > 10 * data[:, -100:].mean()
    trimmed, _ = _read("pyperf-speed-pypy2.json.gz", warmup=50)
    np.testing.assert_array_equal(trimmed["sympy_str"].design.data, data[:, 50:])
    assert trimmed["sympy_str"].design.counts == {"process": 10, "value": 200}


def test_gbench_failed_benchmarks_are_left_out_with_a_note():
    benches, notes = _read("gbench-kriben-errors.json")
    _, _, failed = _raw_gbench(_doc("gbench-kriben-errors.json"))
    assert failed == {'BM_decode_value/"camelyon17"', 'BM_decode_value/"integers"'}
    assert failed.isdisjoint(benches)
    assert all("the harness reported an error" in str(n.message) for n in notes)
    assert {name for name in failed if any(name in str(n.message) for n in notes)} == failed


# -- the command line ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_cli_summary(name):
    path = str(REAL / name)
    proc = subprocess.run(
        [sys.executable, "-m", "esize", "summary", path],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in proc.stdout + proc.stderr
    exp = EXPECT[name]
    if exp.status == "reads":
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith(f"file        {path}")
        assert proc.stdout.count("benchmark   ") == sum(exp.shapes.values())
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EsizeWarning)
            read_benchmarks(path)
        refusal = ""
    except InputError as exc:
        refusal = str(exc)
    if "a single measurement in all" in refusal:  # refused by the reader, shown by
        assert proc.returncode == 0, proc.stderr  # summary: each value, no interval
        assert proc.stdout.startswith(f"file        {path}")
        assert "caveat      a single measurement: nothing varies" in proc.stdout
        return
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"esize: error: {path}: ")
    assert exp.message in lines[0]
