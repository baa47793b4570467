"""Go benchmark text (``go test -bench -count N``): sniffing, parsing, processes, what is
a result line, edge shapes, and agreement with benchstat on real pairs.

benchstat itself (a Go program) cannot be installed here, so its decision rule is
rebuilt below as an independent oracle: the two-sided Mann-Whitney U test of
aclements/go-moremath (exact distribution, ties included, up to 25 values per side
with ties and 50 without; the normal approximation with tie and continuity
corrections beyond), significant when ``p <= 0.05``, and the sign of the change that of
the ratio of medians. The oracle is first checked against benchstat's own output for
the crc32 pair (``gotest-benchstat-crc32-summary.txt``, benchstat's expected test
output), then used on every real pair.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats

from esize import EsizeWarning, InputError
from esize.readers import detect_format, gotest, next_run_options, read_benchmarks
from esize.readers.gotest import parse_text, read_text, sniff_text

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
PAIRS = [
    ("gotest-crc32-old.txt", "gotest-crc32-new.txt"),
    ("gotest-encode-old.txt", "gotest-encode-new.txt"),
    ("gotest-bent-base.txt", "gotest-bent-tip.txt"),
]
ALPHA = 0.05


def _write(tmp_path, text: str, name: str = "bench.txt") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _read(path, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        benches = read_benchmarks(path, **kw)
    return benches, [str(w.message) for w in caught if issubclass(w.category, EsizeWarning)]


# -- sniffing -----------------------------------------------------------------------------
def test_go_text_named_txt_is_no_longer_taken_for_a_table():
    # the very file the issue quotes ("columns are ['pkg: hash/crc32']")
    assert detect_format(REAL / "gotest-crc32-old.txt") == "gotest"


@pytest.mark.parametrize("text", [
    "benchmark,binary,execution,time\nBenchmarkX,a,1,3.5\nBenchmarkX,a,2,3.6\n",
    "benchmark\tbinary\texecution\ttime\nBenchmarkX\t1\t2\t3.5\nBenchmarkX\t1\t3\t3.6\n",
    "binary execution time\n1 1 2.5\n1 2 2.6\n",
])
def test_tables_are_not_taken_for_go_text(tmp_path, text):
    assert not sniff_text(text)
    assert detect_format(_write(tmp_path, text, "t.csv")) == "tidy"


@pytest.mark.parametrize("text", [
    "goos: linux\ngoarch: amd64\n",  # headers only: recognised, then refused below
    "some log line\nBenchmarkX-8   \t 1000\t  12.5 ns/op\nPASS\n",
    "BenchmarkX 1 100 ns/op\n",
    # benchstat 1's summary, without any header: recognised, then refused by name
    "name        old time/op    new time/op    delta\nEncode-48   1.72µs ± 1%   1.42µs ± 1% "
    " -17.46%  (p=0.000 n=10+10)\n",
])
def test_go_text_is_recognised_from_its_content(tmp_path, text):
    assert sniff_text(text)
    assert detect_format(_write(tmp_path, text, "results")) == "gotest"


def test_gzip_go_text_is_read(tmp_path):
    raw = (REAL / "gotest-encode-old.txt").read_bytes()
    p = tmp_path / "old.txt.gz"
    p.write_bytes(gzip.compress(raw))
    assert detect_format(p) == "gotest"
    plain, _ = _read(REAL / "gotest-encode-old.txt")
    packed, _ = _read(p)
    assert list(packed) == list(plain)
    for name in plain:
        np.testing.assert_array_equal(packed[name].design.data, plain[name].design.data)


def _events(text: str, pkg: str) -> list[dict]:
    """``text`` wrapped as test2json writes it: every result line split in two events
    (the name, then the numbers), every other line one event, then the package's end."""
    events = []
    for line in text.splitlines(keepends=True):
        parts = line.split(None, 1) if line.startswith("Benchmark") else [line]
        if len(parts) == 2:
            parts = [parts[0] + "   \t", parts[1]]
        events += [{"Time": "2021-08-16T10:00:00Z", "Action": "output", "Package": pkg,
                    "Output": part} for part in parts]
    events.append({"Action": "pass", "Package": pkg, "Elapsed": 12.5})
    return events


def test_go_test_json_events_are_unwrapped(tmp_path):
    # the real text file wrapped as test2json writes it
    pkg = "golang.org/x/perf/cmd/benchstat/testdata"
    events = _events((REAL / "gotest-encode-new.txt").read_text(), pkg)
    p = _write(tmp_path, "".join(json.dumps(e) + "\n" for e in events), "events.json")
    assert detect_format(p) == "gotest"
    wrapped, _ = _read(p)
    plain, _ = _read(REAL / "gotest-encode-new.txt")
    assert list(wrapped) == list(plain)
    for name in plain:
        np.testing.assert_array_equal(wrapped[name].design.data, plain[name].design.data)
    bad = _write(tmp_path, json.dumps(events[0]) + "\nnot json\n", "bad.json")
    with pytest.raises(InputError, match="line 2 of the go test -json output is not a JSON "
                       "object"):
        read_benchmarks(bad)


# -- edge shapes ----------------------------------------------------------------------------
HEADERS_AND_TEXT = """\
=== RUN   TestSomething
--- PASS: TestSomething (0.00s)
goos: linux
goarch: amd64
pkg: example.com/a
cpu: Some CPU @ 2.0GHz
BenchmarkParse-8     	 1000000	      1020 ns/op	     256 B/op	       4 allocs/op
    parse_test.go:41: a log line of the benchmark: key: value
BenchmarkParse-8     	 1000000	      1030 ns/op	     256 B/op	       4 allocs/op
BenchmarkParse
BenchmarkParse-8     	 1000000	      1010 ns/op	     256 B/op	       4 allocs/op
PASS
ok  	example.com/a	3.2s
"""


def test_headers_and_free_text_between_results(tmp_path):
    benches, notes = _read(_write(tmp_path, HEADERS_AND_TEXT))
    assert list(benches) == ["BenchmarkParse-8"]
    np.testing.assert_array_equal(benches["BenchmarkParse-8"].design.data, [1020, 1030, 1010])
    assert benches["BenchmarkParse-8"].design.levels == ("run",)
    assert benches["BenchmarkParse-8"].unit.unit == "ns/op"
    assert notes == []


def test_several_gomaxprocs_suffixes_are_several_benchmarks(tmp_path):
    lines = [f"BenchmarkSum{suffix} 100 {v} ns/op" for suffix, base in (("", 50), ("-2", 30),
                                                                       ("-4", 20))
             for v in (base, base + 1, base + 2)]
    benches, _ = _read(_write(tmp_path, "\n".join(lines) + "\n"))
    assert list(benches) == ["BenchmarkSum", "BenchmarkSum-2", "BenchmarkSum-4"]
    assert [b.design.mean for b in benches.values()] == [51.0, 31.0, 21.0]


def test_one_name_in_two_packages_is_two_benchmarks(tmp_path):
    text = "".join(f"pkg: example.com/{p}\nBenchmarkA-8 10 {v} ns/op\nBenchmarkA-8 10 {v + 1} "
                   f"ns/op\n" for p, v in (("x", 100), ("y", 200)))
    benches, _ = _read(_write(tmp_path, text))
    assert list(benches) == ["BenchmarkA-8 [pkg=example.com/x]", "BenchmarkA-8 [pkg=example.com/y]"]
    assert [b.design.mean for b in benches.values()] == [100.5, 200.5]


def test_benchstat_note_blocks_in_one_file_stay_apart():
    # benchstat's own test file: "note: before" then "note: after", 5 runs each
    text = (
        "note: before\n\n" + "BenchmarkF/100-4 20000000 115 ns/op\n" * 4
        + "BenchmarkF/100-4 20000000 114 ns/op\n\nnote: after\n\n"
        + "BenchmarkF/100-4 20000000 78.8 ns/op\n" * 5
    )
    parsed = parse_text(text, "f")
    assert list(parsed) == ["BenchmarkF/100-4 [note=before]", "BenchmarkF/100-4 [note=after]"]
    assert parsed["BenchmarkF/100-4 [note=after]"][0] == [[78.8] * 5]  # one process


def test_a_single_run_is_refused_with_the_option_to_use(tmp_path):
    with pytest.raises(InputError, match=r"a single measurement in all.*-count 5"):
        read_benchmarks(_write(tmp_path, "goos: linux\nBenchmarkA-8 10 100 ns/op\n"))


def test_benchmarks_without_ns_per_op_are_left_out_with_a_note(tmp_path):
    text = ("BenchmarkA 1 10 ns/op\nBenchmarkA 1 11 ns/op\n"
            "BenchmarkSize 1 100 text-bytes\nBenchmarkSize 1 100 text-bytes\n")
    benches, notes = _read(_write(tmp_path, text))
    assert list(benches) == ["BenchmarkA"]
    assert len(notes) == 1 and "1 benchmark without ns/op left out: BenchmarkSize" in notes[0]


@pytest.mark.parametrize("text, message", [
    ("goos: linux\ngoarch: amd64\npkg: x\n--- FAIL: BenchmarkA\nFAIL\n",
     "Go benchmark text without any result line"),
    ("BenchmarkSize 1 100 text-bytes\nBenchmarkSize 1 101 text-bytes\n",
     "no result line has ns/op (units found: text-bytes); esize reads the time per "
     "operation"),
    ("BenchmarkA 1 NaN ns/op\nBenchmarkA 1 10 ns/op\n",
     "benchmark 'BenchmarkA': line 1: ns/op is nan, not a finite number"),
    ("BenchmarkA 1 0 ns/op\nBenchmarkA 1 10 ns/op\n",
     "benchmark 'BenchmarkA': 1 non-positive value"),
    # benchstat 1's summary table
    ("name        old time/op    new time/op    delta\nEncode-48   1.72µs ± 1%   1.42µs ± 1%  "
     "-17.46%  (p=0.000 n=10+10)\n", "this is benchstat's summary"),
])
def test_unreadable_go_text_gets_one_specific_line(tmp_path, text, message):
    with pytest.raises(InputError, match=re.escape(message)) as info:
        read_benchmarks(_write(tmp_path, text), "gotest")
    assert str(info.value).count("\n") == 0


def test_format_option_forces_the_reader(tmp_path):
    p = _write(tmp_path, "binary,execution,time\n1,1,2.5\n1,2,2.6\n2,1,2.5\n2,2,2.7\n", "t.csv")
    with pytest.raises(InputError, match="Go benchmark text without any result line"):
        read_benchmarks(p, "gotest")
    go = _write(tmp_path, "BenchmarkA 1 10 ns/op\nBenchmarkA 1 11 ns/op\n", "g.txt")
    with pytest.raises(InputError):
        read_benchmarks(go, "tidy")


# -- processes ------------------------------------------------------------------------------
MADE = Path(__file__).resolve().parents[1] / "data" / "made-here"
THREE = MADE / "gotest-fib-sort-3invocations.txt"  # 3 x go test -bench . -count 3


def _raw_blocks(text: str) -> list[dict]:
    """``[{benchmark: [ns/op, ...]}]`` of every ``go test`` output block of a file,
    split at its ``ok`` lines by a regular expression of its own."""
    blocks = []
    for block in re.split(r"^ok\s.*\n", text, flags=re.M):
        runs: dict = {}
        for m in re.finditer(r"^(Benchmark\S+)\s+\d+\s+(\S+) ns/op", block, flags=re.M):
            runs.setdefault(m.group(1), []).append(float(m.group(2)))
        if runs:
            blocks.append(runs)
    return blocks


def test_a_real_file_of_three_invocations_holds_three_processes():
    text = THREE.read_text(encoding="utf-8")
    blocks = _raw_blocks(text)
    assert len(blocks) == 3
    parsed = parse_text(text, "three")
    assert list(parsed) == ["BenchmarkFib15-2", "BenchmarkSort-2"]
    for name, (units, unit) in parsed.items():
        assert units == [b[name] for b in blocks]
        assert unit.unit == "ns/op"
    benches, notes = _read(THREE)
    assert notes == []
    for name, bench in benches.items():
        assert bench.design.counts == {"process": 3, "run": 3}
        assert bench.caveats == () and bench.unobserved == ()
        np.testing.assert_array_equal(bench.design.data, [b[name] for b in blocks])


def test_a_real_single_invocation_is_one_process_with_a_caveat(tmp_path):
    first = THREE.read_text(encoding="utf-8").split("ok  ", 1)[0]  # the first go test
    p = _write(tmp_path, first + "ok  \texample.com/fib\t1.190s\n")
    assert [len(u) for u, _ in parse_text(p.read_text(), "one").values()] == [1, 1]
    benches, _ = _read(p)
    for bench in benches.values():
        assert bench.design.counts == {"run": 3}
        assert bench.unobserved == (("process", None),)
        assert len(bench.caveats) == 1 and bench.caveats[0].startswith("a single process")


def test_go_test_json_of_several_invocations_keeps_the_processes(tmp_path):
    # two go test -json invocations of one package appended to one file
    pkg = "example.com/fib"
    text = THREE.read_text(encoding="utf-8")
    p = _write(tmp_path, "".join(json.dumps(e) + "\n" for e in _events(text, pkg) * 2),
               "events.json")
    blocks = _raw_blocks(text)
    for name, (units, _) in parse_text(read_text(p), "events").items():
        assert units == [b[name] for b in blocks] * 2
    benches, _ = _read(p)
    assert {tuple(b.design.counts.items()) for b in benches.values()} == {
        (("process", 6), ("run", 3))}


RUN = "BenchmarkA-8   \t 1000\t {} ns/op\n"


@pytest.mark.parametrize("between, n", [
    ("", 1),  # no marker: one process
    ("PASS\n", 2),
    ("PASS\nok  \texample.com/a\t1.2s\n", 2),
    ("ok  \texample.com/a\t1.2s\n", 2),
    ("--- FAIL: BenchmarkB\nFAIL\nexit status 1\nFAIL\texample.com/a\t0.5s\n", 2),
    ("goos: linux\ngoarch: amd64\npkg: example.com/a\n", 2),  # a header, status lines cut
    ("    a_test.go:3: PASS\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n", 1),  # logs
    ("BenchmarkA-8\nBenchmarkB-8   \t--- FAIL: BenchmarkB-8\n", 1),  # not result lines
])
def test_where_one_process_ends(between, n):
    header = "goos: linux\ngoarch: amd64\npkg: example.com/a\n"
    text = header + RUN.format(10) + RUN.format(11) + between + RUN.format(12) + RUN.format(13)
    parsed = parse_text(text, "f")
    units = parsed[next(iter(parsed))][0]
    assert units == ([[10.0, 11.0, 12.0, 13.0]] if n == 1 else [[10.0, 11.0], [12.0, 13.0]])


def test_a_benchmark_missing_from_some_processes_has_the_others():
    block = "goos: linux\npkg: example.com/a\n{}PASS\nok  \texample.com/a\t1s\n"
    text = (block.format(RUN.format(10) + "BenchmarkB 5 7 ns/op\n" + RUN.format(11))
            + block.format(RUN.format(12))
            + block.format("BenchmarkB 5 8 ns/op\n" + RUN.format(13) + RUN.format(14)))
    parsed = parse_text(text, "f")
    assert parsed["BenchmarkA-8"][0] == [[10.0, 11.0], [12.0], [13.0, 14.0]]
    assert parsed["BenchmarkB"][0] == [[7.0], [8.0]]


def test_each_invocation_of_one_run_is_a_process(tmp_path):
    # for i in 1 2 3; do go test -bench . -count 1; done: the runs are the processes
    text = "".join(f"goos: linux\nBenchmarkA 10 {v} ns/op\nPASS\n" for v in (5, 6, 7))
    benches, _ = _read(_write(tmp_path, text))
    assert benches["BenchmarkA"].design.counts == {"process": 3}
    assert benches["BenchmarkA"].unobserved == (("run", "process"),)
    assert benches["BenchmarkA"].caveats == ()


def test_levels_and_options():
    assert gotest.LEVELS == ("process", "run")
    assert gotest.NEXT_RUN_OPTIONS["run"] == "-count"
    assert next_run_options("gotest", {"process": 5, "run": 3}).endswith("-count 3")


# -- what is a result line ------------------------------------------------------------------
GOOD = "BenchmarkA 100 10 ns/op\nBenchmarkA 100 11 ns/op\n"


@pytest.mark.parametrize("line, problem", [
    # digits of other scripts and underscores, which Python's float() and int() take
    ("BenchmarkA 100 ١٢ ns/op", "the value '١٢' of BenchmarkA is not a number in ASCII digits"),
    ("BenchmarkA 100 𝟏𝟐 ns/op", "the value '𝟏𝟐' of BenchmarkA is not a number in ASCII digits"),
    ("BenchmarkA 100 1_000 ns/op",
     "the value '1_000' of BenchmarkA is not a number in ASCII digits"),
    ("BenchmarkA ١٢ 10 ns/op",
     "the iteration count '١٢' of BenchmarkA is not a whole number in ASCII digits"),
    ("BenchmarkA 𝟏𝟐 10 ns/op",
     "the iteration count '𝟏𝟐' of BenchmarkA is not a whole number in ASCII digits"),
    ("BenchmarkA 1_000 10 ns/op",
     "the iteration count '1_000' of BenchmarkA is not a whole number in ASCII digits"),
    ("BenchmarkA ² 10 ns/op",  # an internal error once: str.isdigit() is True, int() fails
     "the iteration count '²' of BenchmarkA is not a whole number in ASCII digits"),
    ("BenchmarkA 1.5 10 ns/op",
     "the iteration count '1.5' of BenchmarkA is not a whole number in ASCII digits"),
    # an iteration count, then not value and unit pairs: benchstat's syntax errors
    ("BenchmarkA-8 \t 100", "BenchmarkA-8 has an iteration count (100) but no value and unit"),
    ("BenchmarkA 100 10 ns/op 5", "the value 5 of BenchmarkA has no unit after it"),
    ("BenchmarkA 100 10 ns/op fast B/op",
     "the value 'fast' of BenchmarkA is not a number in ASCII digits"),
    ("BenchmarkA 100 10 12", "BenchmarkA has a number ('12') where the unit of 10 belongs"),
    ("BenchmarkA 100 0x1p4 ns/op",
     "the value '0x1p4' of BenchmarkA is not a number in ASCII digits"),
])
def test_a_malformed_result_line_is_refused_with_its_number(tmp_path, line, problem):
    text = "goos: linux\n" + GOOD + line + "\nPASS\n"
    with pytest.raises(InputError) as info:
        read_benchmarks(_write(tmp_path, text))
    assert str(info.value) == f"{tmp_path / 'bench.txt'}: line 4: {problem}"
    with pytest.raises(InputError, match=re.escape(f"line 4: {problem}")):
        parse_text(text, "f")


@pytest.mark.parametrize("line", ["BenchmarkA ١٢ 10 ns/op", "BenchmarkA 100 𝟏𝟐 ns/op",
                                  "BenchmarkA ² 10 ns/op", "BenchmarkA 100 1_000 ns/op"])
def test_a_file_of_foreign_digits_is_still_taken_for_go_text(tmp_path, line):
    # recognised as Go's, so that the message names the line instead of a table's columns
    p = _write(tmp_path, line + "\n" + line + "\n", "results")
    assert detect_format(p) == "gotest"
    with pytest.raises(InputError, match="line 1: "):
        read_benchmarks(p)


@pytest.mark.parametrize("line", [
    "BenchmarkA",  # go test -v prints the name before the results
    "BenchmarkA-8   \t--- FAIL: BenchmarkA-8",
    "BenchmarkA-8   \tsome output of the benchmark: 12 items",  # printed after the name
    "BenchmarkA-8   \t---",
    "Benchmarking 100 things took 12 ns/op",  # not a benchmark name
    "--- BENCH: BenchmarkA-8",
    "    a_test.go:9: BenchmarkA 100 x y",
])
def test_lines_that_are_not_results_are_skipped(line):
    parsed = parse_text(GOOD + line + "\n" + GOOD, "f")
    assert parsed["BenchmarkA"][0] == [[10.0, 11.0, 10.0, 11.0]]


@pytest.mark.parametrize("value, want", [
    ("12", 12.0), ("1.5", 1.5), (".5", 0.5), ("3.", 3.0), ("1.2e+03", 1200.0),
    ("1E-3", 0.001), ("+7", 7.0),
])
def test_ascii_numbers_are_read(value, want):
    parsed = parse_text(f"BenchmarkA 100 {value} ns/op 3 B/op\nBenchmarkA 0100 1 ns/op\n", "f")
    assert parsed["BenchmarkA"][0] == [[want, 1.0]]


# -- benchstat's decision, rebuilt -----------------------------------------------------------
def _u_exact_cdf(x: np.ndarray, y: np.ndarray, u2: int) -> float:
    """P(2U <= u2) under the null, ties kept (Klotz): the distribution of the midrank sum
    of ``x`` over every way of choosing len(x) of the pooled values, by dynamic
    programming over the groups of tied values."""
    n1 = len(x)
    _, counts = np.unique(np.concatenate([x, y]), return_counts=True)
    top = 2 * int(counts.sum()) * n1 + 1  # bound of twice a rank sum
    dp = np.zeros((n1 + 1, top))
    dp[0, 0] = 1.0
    before = 0
    for t in counts:
        twice_mid = 2 * before + t + 1  # twice the midrank of this group
        new = np.zeros_like(dp)
        for a in range(min(t, n1) + 1):
            shift = a * twice_mid
            new[a:, shift:] += special.comb(t, a) * dp[: n1 + 1 - a, : top - shift]
        dp = new
        before += t
    twice_r1 = np.arange(top) - n1 * (n1 + 1)  # twice U1 for each twice rank sum
    row = dp[n1]
    return float(row[twice_r1 <= u2].sum() / row.sum())


def benchstat_delta(old, new) -> str:
    """``"~"``, ``"+"`` or ``"-"``: benchstat's column "vs base" for these runs."""
    x, y = np.asarray(old, float), np.asarray(new, float)
    n1, n2 = len(x), len(y)
    pooled = np.concatenate([x, y])
    ranks = stats.rankdata(pooled)
    u1 = ranks[:n1].sum() - n1 * (n1 + 1) / 2
    u2 = n1 * n2 - u1
    _, ties = np.unique(pooled, return_counts=True)
    if len(ties) == 1:
        return "~"  # every value equal: benchstat reports no difference
    has_ties = bool((ties > 1).any())
    if (not has_ties and max(n1, n2) <= 50) or (has_ties and max(n1, n2) <= 25):
        p = 1.0 if u1 == u2 else 2 * _u_exact_cdf(x, y, int(round(2 * min(u1, u2))))
    else:
        big = n1 + n2
        t = float((ties ** 3 - ties).sum())
        sigma = math.sqrt(n1 * n2 * ((big + 1) - t / (big * (big - 1))) / 12)
        numer = u1 - n1 * n2 / 2
        numer -= math.copysign(0.5, numer) if numer else 0.0
        z = numer / sigma
        p = 2 * min(stats.norm.cdf(z), 1 - stats.norm.cdf(z))
    if p > ALPHA:
        return "~"
    change = np.median(y) / np.median(x) - 1
    return "~" if change == 0 else ("+" if change > 0 else "-")


def _benchstat_golden() -> dict:
    """The sec/op table of benchstat's expected output for the crc32 pair:
    ``{name without 'Benchmark': '~', '+' or '-'}``."""
    rows = {}
    text = (REAL / "gotest-benchstat-crc32-summary.txt").read_text(encoding="utf-8")
    table = text.split("\n\n")[0]  # sec/op comes first, then B/s
    assert "sec/op" in table
    for line in table.splitlines():
        m = re.match(r"(CRC32/\S+)\s.*?(~|[+-]\d+\.\d+%) \(p=", line)
        if m:
            rows[m.group(1)] = m.group(2)[0]
    return rows


def _runs(name: str) -> dict:
    benches, _ = _read(REAL / name)
    return {k: b.design.data.ravel() for k, b in benches.items()}


def test_the_oracle_reproduces_benchstat_on_the_crc32_pair():
    golden = _benchstat_golden()
    old, new = _runs("gotest-crc32-old.txt"), _runs("gotest-crc32-new.txt")
    assert len(golden) == len(old) == 36
    ours = {k.removeprefix("Benchmark"): benchstat_delta(old[k], new[k]) for k in old}
    assert ours == golden
    assert set(golden.values()) == {"~", "+", "-"}  # all three kinds were parsed


def _esize_verdicts(old: str, new: str) -> dict:
    # benchstat takes every run for independent; a file of one go test invocation is
    # one process, whose verdicts esize draws only when told to assume the same
    proc = subprocess.run(
        [sys.executable, "-m", "esize", "compare", str(REAL / old), str(REAL / new), "--json",
         "--seed", "20260301", "--assume-no-fork-variance"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return {b["name"]: b["verdict"] for b in json.loads(proc.stdout)["benchmarks"]}


@pytest.mark.parametrize("old, new", PAIRS)
def test_esize_never_contradicts_benchstat(old, new):
    verdicts = _esize_verdicts(old, new)
    a, b = _runs(old), _runs(new)
    assert set(verdicts) == set(a) == set(b)
    deltas = {k: benchstat_delta(a[k], b[k]) for k in a}
    contradictions = [k for k, v in verdicts.items()
                      if (v, deltas[k]) in (("faster", "+"), ("slower", "-"))]
    assert contradictions == []
    # and where esize sees a change, benchstat sees it too or calls it no difference
    assert {v for v in verdicts.values()} <= {"faster", "slower", "same", "inconclusive"}
    decided = [k for k, v in verdicts.items() if v in ("faster", "slower")]
    assert decided, "a pair where esize decides nothing tests nothing"
