"""Go benchmark text (``go test -bench -count N``): sniffing, parsing, edge shapes, and
agreement with benchstat on real pairs.

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
from esize.readers import detect_format, read_benchmarks
from esize.readers.gotest import parse_text, sniff_text

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


def test_go_test_json_events_are_unwrapped(tmp_path):
    # the real text file wrapped as test2json writes it: every result line split in two
    # events (the name, then the numbers), every other line one event
    pkg = "golang.org/x/perf/cmd/benchstat/testdata"
    events = []
    for line in (REAL / "gotest-encode-new.txt").read_text().splitlines(keepends=True):
        parts = line.split(None, 1) if line.startswith("Benchmark") else [line]
        if len(parts) == 2:
            parts = [parts[0] + "   \t", parts[1]]
        events += [{"Time": "2021-08-16T10:00:00Z", "Action": "output", "Package": pkg,
                    "Output": part} for part in parts]
    events.append({"Action": "pass", "Package": pkg, "Elapsed": 12.5})
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
    assert parsed["BenchmarkF/100-4 [note=after]"][0] == [78.8] * 5


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
    proc = subprocess.run(
        [sys.executable, "-m", "esize", "compare", str(REAL / old), str(REAL / new), "--json",
         "--seed", "20260301"],
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
