"""The points of issue 11, each checked on real result files (``tests/data/real``).

1. old and new with different designs are compared as they are (CPython 2.7 with
   20 processes x 3 values against PyPy with 10 x 250), Fieller's interval from each
   system's own process means, Welch-Satterthwaite degrees of freedom when the
   numbers of processes differ and ``n - 1`` when they are equal;
2. one unit at the top level (a single JMH fork, a single pyperf process): analysed
   with a caveat naming the level that is not observed, refused by ``plan``; one
   measurement in all is a one-line error;
3. ``--warmup auto`` on PyPy's in-process series;
4. a hyperfine export compared within itself (second command against the first);
5. the wording of a change: percentages below a factor 1.5, factors from 1.5 on, never
   a negative percentage, the same words for times and rates;
6. presentation: a bounded figure for 67 benchmarks, a bounded name column with
   the common prefix said once.

The expected numbers are rebuilt from the raw JSON (read here with json/gzip and
numpy, not with esize's readers). Where the brief of a check relies on a library
function as the reference, it is named: ``esize.fieller_ci`` on arrays of process
means, ``esize.welch_df`` and ``esize.auto_warmup`` on the raw in-process series.
Fieller's limits are also recomputed with the textbook formula and scipy's t
quantile, as a second route.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import gzip
import io
import json
import math
import re
import struct
from collections import Counter
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import esize as ez
from esize._decision import FACTOR_WORDING
from esize.cli import main

from .helpers import assert_one_line_error

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
CPYTHON = REAL / "pyperf-speed-cpython27.json.gz"
PYPY = REAL / "pyperf-speed-pypy2.json.gz"
PY36 = REAL / "pyperf-pyperformance-py36-telco.json"
PY38 = REAL / "pyperf-pyperformance-py38-telco.json"
HTML5LIB = REAL / "pyperf-pyperformance-html5lib-1process.json.gz"
MEM1 = REAL / "pyperf-pyperformance-mem1.json"
JCASBIN = REAL / "jmh-jcasbin-fork1-params.json"
FS2 = REAL / "jmh-fs2-5forks.json"
PGCLIENT = REAL / "jmh-pgclient-sample.json"
FIB = REAL / "gbench-fib-1rep.json"
HYPERFINE = REAL / "hyperfine-sleep-2commands.json"

REL = 1e-9
# Fewer values per process than this are not searched for a warm-up (the output says
# "at least 8 are needed"); the tests below also check that the JSON agrees.
WARMUP_MIN_VALUES = 8

needs_ruptures = pytest.mark.skipif(
    find_spec("ruptures") is None, reason="--warmup auto needs ruptures (extra 'warmup')"
)
needs_matplotlib = pytest.mark.skipif(
    find_spec("matplotlib") is None, reason="--plot needs matplotlib (extra 'plot')"
)


# -- running the command line ------------------------------------------------------------
@functools.cache
def _run(*argv: str) -> tuple[int, str, str]:
    """``esize ARGV`` in-process, once per argument list: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse usage errors
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def esize(*argv) -> tuple[int, str, str]:
    return _run(*map(str, argv))


def esize_json(*argv) -> dict:
    code, out, err = esize(*argv, "--json")
    assert code == 0, err
    assert "Traceback" not in err
    return json.loads(out)


PYPY_ARGS = (CPYTHON, PYPY, "--method", "fieller", "--resamples", "2000", "--seed", "1")


def pypy_compare(warmup: str) -> tuple[dict, str, str]:
    """The CPython 2.7 / PyPy comparison with ``--warmup WARMUP``: JSON, text, stderr."""
    data = esize_json("compare", *PYPY_ARGS, "--warmup", warmup)
    code, text, err = esize("compare", *PYPY_ARGS, "--warmup", warmup)
    assert code == 0, err
    return data, text, err


# -- the raw files -----------------------------------------------------------------------
def _load(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


@functools.cache
def pyperf_raw(path: Path) -> dict[str, list[np.ndarray]]:
    """Benchmark name -> the values of every process (runs without values, i.e.
    calibration runs, are left out; warm-ups are not values)."""
    doc = _load(path)
    out = {}
    for bench in doc["benchmarks"]:
        name = bench.get("metadata", {}).get("name") or doc["metadata"]["name"]
        out[name] = [np.asarray(r["values"], dtype=float) for r in bench["runs"] if r.get("values")]
    return out


def jmh_name(entry: dict) -> str:
    params = entry.get("params") or {}
    return entry["benchmark"] + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


@functools.cache
def jmh_raw(path: Path) -> dict[str, np.ndarray]:
    """Benchmark name -> measurements, shape (forks, measurements per fork)."""
    out = {}
    for entry in _load(path):
        metric = entry["primaryMetric"]
        if "rawData" in metric:
            forks = metric["rawData"]
        else:  # sample mode: every iteration is a histogram of [value, count] pairs
            forks = [
                [v for it in fork for v, c in it for _ in range(int(c))]
                for fork in metric["rawDataHistogram"]
            ]
        out[jmh_name(entry)] = np.asarray(forks, dtype=float)
    return out


@functools.cache
def kept_values(path: Path, name: str) -> np.ndarray:
    """The values ``--warmup auto`` keeps of one benchmark, per process: all of them
    when a process has too few values to search, else what ``esize.auto_warmup``
    keeps of the raw series."""
    series = pyperf_raw(path)[name]
    if len(series[0]) < WARMUP_MIN_VALUES:
        return np.stack(series)
    return np.asarray(ez.auto_warmup(series).trimmed)


def textbook_fieller(old: np.ndarray, new: np.ndarray, df: float, alpha: float = 0.05):
    """Fieller's limits for mean(new)/mean(old) from the top-level units of two
    independent systems, by the quadratic formula, with scipy's t quantile."""
    x, y = old.mean(), new.mean()
    vx, vy = old.var(ddof=1) / old.size, new.var(ddof=1) / new.size
    q = stats.t.ppf(1 - alpha / 2, df)
    a, b, c = x * x - q * q * vx, x * y, y * y - q * q * vy
    root = math.sqrt(b * b - a * c)
    return (b - root) / a, (b + root) / a


def hand_welch_df(old: np.ndarray, new: np.ndarray) -> float:
    """Welch-Satterthwaite degrees of freedom of the relative variances of two means."""
    wo = old.var(ddof=1) / old.size / old.mean() ** 2
    wn = new.var(ddof=1) / new.size / new.mean() ** 2
    return (wo + wn) ** 2 / (wo**2 / (old.size - 1) + wn**2 / (new.size - 1))


def hand_ratio_df(old: np.ndarray, new: np.ndarray) -> float:
    """The df rule of issue 40 by hand: Welch-Satterthwaite at the estimated relative
    variances and with each system's variance at its 85 % upper chi-square limit
    ``(n - 1) / chi2.ppf(0.15, n - 1)``; the smallest of the three."""
    from scipy.stats import chi2

    wo = old.var(ddof=1) / old.size / old.mean() ** 2
    wn = new.var(ddof=1) / new.size / new.mean() ** 2
    fo = (old.size - 1) / chi2.ppf(0.15, old.size - 1)
    fn = (new.size - 1) / chi2.ppf(0.15, new.size - 1)

    def welch(a, b):
        return (a + b) ** 2 / (a**2 / (old.size - 1) + b**2 / (new.size - 1))

    return min(welch(wo, wn), welch(fo * wo, wn), welch(wo, fn * wn))


def by_name(data: dict) -> dict[str, dict]:
    return {b["name"]: b for b in data["benchmarks"]}


# -- the wording of a change ---------------------------------------------------------------
HEAD = re.compile(
    r"^new is (?:(?P<same>the same as old)|(?P<amount>[\d.]+x|[\d.]+ %) (?P<word>faster|slower))"
    r" \((?P<conf>\d+ %) CI (?P<ci>.+)\)$"
)
LIMIT = re.compile(r"^(?P<amount>[\d.]+x|[\d.]+ %)(?: (?P<word>faster|slower))?$")


def phrase_ratio(amount: str, word: str, lower_is_better: bool) -> float:
    """The ratio new/old that ``AMOUNT WORD`` stands for."""
    grew = (word == "slower") == lower_is_better  # the measured quantity went up
    if amount.endswith("x"):
        factor = float(amount[:-1])
        assert factor >= FACTOR_WORDING - 5e-3, amount  # (rounded to 3 digits)
        return factor if grew else 1.0 / factor
    pct = float(amount[:-2])
    # whatever is measured (time or rate): a value that shrank reads as a percentage
    # down to two thirds of the old one (at most 33.4 %), one that grew up to 1.5 times
    # (below 50 %)
    assert 0.0 <= pct < 50.0, amount
    if not grew:
        assert pct <= 100 / 3 + 0.01, amount
    return 1.0 + pct / 100.0 if grew else 1.0 - pct / 100.0


def check_description(desc: str, ratio: float, lower: float, upper: float, lower_is_better: bool):
    """Parse one description and compare every number in it with the JSON values,
    to the precision printed (3 significant digits for factors, 2 decimals for
    percentages). Returns the (amount, word) of the estimate."""
    assert not re.search(r"-\s*\d", desc), desc  # no negative amount anywhere
    m = HEAD.match(desc)
    assert m, desc
    assert m["conf"] == "95 %"

    def close(value: float, amount: str, word: str):
        expected = phrase_ratio(amount, word, lower_is_better)
        if amount.endswith("x"):
            assert value == pytest.approx(expected, rel=5.1e-3), (desc, value)
        else:
            assert value == pytest.approx(expected, abs=5.1e-5), (desc, value)

    if m["same"]:
        assert abs(ratio - 1.0) < 1e-12, desc
    else:
        close(ratio, m["amount"], m["word"])
        # a factor from 1.5 on (the estimate's or a limit's), a percentage below
        large = any(v <= 0 or math.isinf(v) or max(v, 1 / v) >= FACTOR_WORDING
                    for v in (ratio, lower, upper))
        assert m["amount"].endswith("x") == large, desc
    parsed = []
    for part in m["ci"].split(" .. "):
        if part == "no change":
            parsed.append(1.0)
            continue
        lm = LIMIT.match(part)
        assert lm, (desc, part)
        word = lm["word"] or m["word"]
        assert word, desc  # without its own word a limit takes the estimate's
        parsed.append((lm["amount"], word))
    assert len(parsed) == 2, desc
    values = []
    for p in parsed:
        values.append(1.0 if p == 1.0 else phrase_ratio(*p, lower_is_better))
    # the limits appear in the order of the estimate's direction: compare as a set
    lo_hi = sorted((lower, upper))
    order = sorted(range(2), key=lambda i: values[i])
    for i, limit in zip(order, lo_hi):
        if parsed[i] != 1.0:
            close(limit, *parsed[i])
    return m["amount"], m["word"]


# == 1. different designs compared as they are ============================================
@needs_ruptures
def test_point1_cpython_vs_pypy_ratios_and_fieller_by_hand():
    data, text, err = pypy_compare("auto")
    old, new = pyperf_raw(CPYTHON), pyperf_raw(PYPY)
    bench = by_name(data)
    assert set(bench) == set(old) == set(new) and len(bench) == 67
    for name in ("call_method", "telco", "sympy_str"):
        b = bench[name]
        # CPython: 3 values per process, too few to look for a warm-up, kept whole
        assert len(old[name][0]) == 3 < WARMUP_MIN_VALUES
        assert b["warmup"]["old"]["dropped"] == 0 and "not_checked" in b["warmup"]["old"]
        old_means = np.array([v.mean() for v in old[name]])
        kept = np.asarray(ez.auto_warmup(new[name]).trimmed)
        new_means = kept.mean(axis=1)
        assert old_means.size == 20 and new_means.size == 10
        assert b["old"]["mean"] == pytest.approx(old_means.mean(), rel=REL)
        assert b["new"]["mean"] == pytest.approx(kept.mean(), rel=REL)
        assert b["ratio"] == pytest.approx(kept.mean() / np.concatenate(old[name]).mean(), rel=REL)
        # the designs as they are, each system's own
        assert b["design_old"] == b["design"]["old"] == {"process": 20, "value": 3}
        assert b["design_new"] == b["design"]["new"] == {"process": 10, "value": kept.shape[1]}
        assert isinstance(b["caveats"], list)
        # Fieller from each system's own process means
        f = ez.fieller_ci(old_means, new_means)
        assert (b["fieller"]["lower"], b["fieller"]["upper"]) == pytest.approx(
            (f.lower, f.upper), rel=REL
        )
        assert b["fieller"]["bounded"] is True and b["fieller"]["quantile"] == "t"
        # 20 against 10 processes: the df rule (issue 40), at most Welch's, not n - 1
        assert f.extra["df"] == pytest.approx(hand_ratio_df(old_means, new_means), rel=REL)
        df = hand_welch_df(old_means, new_means)
        assert f.extra["df_welch"] == pytest.approx(df, rel=REL)
        assert df == pytest.approx(ez.welch_df(
            old_means.var(ddof=1) / 20 / old_means.mean() ** 2,
            new_means.var(ddof=1) / 10 / new_means.mean() ** 2, 20, 10), rel=REL)
        assert 9 <= df <= 28 and df not in (9.0, 19.0)
        assert (b["fieller"]["lower"], b["fieller"]["upper"]) == pytest.approx(
            textbook_fieller(old_means, new_means, hand_ratio_df(old_means, new_means)),
            rel=1e-8)
    assert bench["call_method"]["verdict"] == "faster"
    assert bench["call_method"]["ratio"] < 1 / 30  # PyPy about 35x faster


@needs_ruptures
def test_point1_pypy_faster_suite_and_no_truncate_advice():
    data, text, err = pypy_compare("auto")
    old = pyperf_raw(CPYTHON)
    bench = by_name(data)
    verdicts = [b["verdict"] for b in data["benchmarks"]]
    assert verdicts.count("faster") > len(verdicts) / 2
    assert verdicts.count("faster") > 3 * verdicts.count("slower")
    # every benchmark: both designs kept, the caveats a list, the warm-up reported
    for name, b in bench.items():
        assert b["design_old"]["process"] == 20 and b["design_new"]["process"] == 10
        assert isinstance(b["caveats"], list)
        assert b["warmup"]["mode"] == "auto"
        checked = len(old[name][0]) >= WARMUP_MIN_VALUES
        assert ("not_checked" not in b["warmup"]["old"]) == checked, name
    # the suite: geometric mean of the ratios rebuilt from the raw series
    ratios = [kept_values(PYPY, k).mean() / kept_values(CPYTHON, k).mean() for k in bench]
    geo = math.exp(np.mean(np.log(ratios)))
    suite = data["suite"]
    assert suite["geometric_mean"] == pytest.approx(geo, rel=REL)
    assert 1 / 6 < suite["lower"] <= suite["geometric_mean"] <= suite["upper"] < 1 / 3
    assert suite["verdict"] == "faster"
    assert re.match(r"new is [3-5]\.\d\dx faster", suite["description"])
    # the advice to truncate (which turned this result round) is gone
    for output in (text, err, json.dumps(data)):
        assert "truncate" not in output
        assert "--balance" not in output


def test_point1_pypy_raw_means_with_warmup_0():
    """Without warm-up removal every ratio is the ratio of the raw means and every
    Fieller interval comes from the raw process means (all 67 benchmarks)."""
    data, _, _ = pypy_compare("0")
    old, new = pyperf_raw(CPYTHON), pyperf_raw(PYPY)
    assert len(data["benchmarks"]) == 67
    for b in data["benchmarks"]:
        o, n = old[b["name"]], new[b["name"]]
        om, nm = np.array([v.mean() for v in o]), np.array([v.mean() for v in n])
        assert b["ratio"] == pytest.approx(np.concatenate(n).mean() / np.concatenate(o).mean(), rel=REL)
        assert b["design_new"] == {"process": 10, "value": 250}
        assert b["design_old"] == {"process": 20, "value": len(o[0])}
        f = ez.fieller_ci(om, nm)
        assert (b["fieller"]["lower"], b["fieller"]["upper"]) == pytest.approx((f.lower, f.upper), rel=REL)
        assert (f.lower, f.upper) == pytest.approx(textbook_fieller(om, nm, hand_ratio_df(om, nm)), rel=1e-8)


def test_point1_equal_designs_use_welch():
    data = esize_json("compare", PY36, PY38, "--method", "fieller")
    assert "design_old" not in data and "design_new" not in data
    (b,) = data["benchmarks"]
    assert "design_old" not in b and "design_new" not in b
    assert b["design"]["old"] == b["design"]["new"] == {"process": 20, "value": 3}
    assert b["caveats"] == [] == data["caveats"]
    (o,), (n,) = pyperf_raw(PY36).values(), pyperf_raw(PY38).values()
    om, nm = np.array([v.mean() for v in o]), np.array([v.mean() for v in n])
    assert om.size == nm.size == 20
    assert b["ratio"] == pytest.approx(nm.mean() / om.mean(), rel=REL)
    f = ez.fieller_ci(om, nm)
    # equal designs use the same rule as unequal ones (issues 26, 40), not the paper's
    # n - 1 = 19: at most Welch-Satterthwaite's value
    assert f.extra["df"] == pytest.approx(hand_ratio_df(om, nm), rel=REL)
    assert 19 < f.extra["df"] <= hand_welch_df(om, nm) <= 38
    limits = (b["fieller"]["lower"], b["fieller"]["upper"])
    assert limits == pytest.approx((f.lower, f.upper), rel=REL)
    assert limits == pytest.approx(textbook_fieller(om, nm, hand_ratio_df(om, nm)), rel=1e-8)
    # the paper's n - 1 would have given a wider interval
    paper = textbook_fieller(om, nm, 19)
    assert paper[1] - paper[0] > limits[1] - limits[0]
    assert b["verdict"] == "faster"  # 3.8 runs telco about a third faster than 3.6


# == 2. one unit at the top level ==========================================================
SINGLE = [
    pytest.param(JCASBIN, "fork", "-f 5", id="jmh-1fork"),
    pytest.param(HTML5LIB, "process", "--processes 5", id="pyperf-1process"),
]


def single_raw(path: Path) -> dict[str, np.ndarray]:
    """Name -> the measurements of the single top-level unit."""
    if path == JCASBIN:
        raw = jmh_raw(path)
        assert all(v.shape[0] == 1 for v in raw.values())
        return {k: v[0] for k, v in raw.items()}
    raw = pyperf_raw(path)
    assert all(len(v) == 1 for v in raw.values())
    return {k: v[0] for k, v in raw.items()}


@pytest.mark.parametrize(("path", "level", "option"), SINGLE)
def test_point2_summary_with_one_top_unit(path, level, option):
    data = esize_json("summary", path)
    raw = single_raw(path)
    assert [b["name"] for b in data["benchmarks"]] == list(raw)
    for b in data["benchmarks"]:
        x = raw[b["name"]]
        assert b["counts"] == {b["levels"][0]: x.size} and len(b["levels"]) == 1
        assert b["mean"] == pytest.approx(x.mean(), rel=REL)
        half = stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size)
        assert (b["ci"]["lower"], b["ci"]["upper"]) == pytest.approx(
            (x.mean() - half, x.mean() + half), rel=1e-8
        )
        (caveat,) = [c for c in b["caveats"] if f"a single {level}" in c]
        plural = {"fork": "forks", "process": "processes"}[level]
        assert caveat.startswith(f"a single {level}: variation between {plural} is not observed")
        assert option in caveat
    code, text, err = esize("summary", path)
    assert code == 0 and err == ""
    caveat_lines = [line for line in text.splitlines() if line.startswith("caveat")]
    assert len(caveat_lines) == len(raw)
    assert all(f"a single {level}" in line for line in caveat_lines)


@pytest.mark.parametrize(("path", "level", "option"), SINGLE)
def test_point2_compare_file_with_itself(path, level, option):
    data = esize_json("compare", path, path, "--method", "fieller", "--resamples", "2000",
                      "--seed", "1")
    raw = single_raw(path)
    assert [b["name"] for b in data["benchmarks"]] == list(raw)
    for b in data["benchmarks"]:
        x = raw[b["name"]]
        assert b["ratio"] == pytest.approx(1.0, rel=1e-12)
        f = ez.fieller_ci(x, x)  # the measurements of the one unit are the top level
        assert f.extra["df"] == pytest.approx(hand_ratio_df(x, x), rel=REL)  # equal shares
        assert f.extra["df_welch"] == pytest.approx(2 * (x.size - 1))
        assert b["fieller"]["bounded"] is f.bounded
        if f.bounded:
            assert (b["fieller"]["lower"], b["fieller"]["upper"]) == pytest.approx(
                (f.lower, f.upper), rel=REL
            )
            assert (f.lower, f.upper) == pytest.approx(
                textbook_fieller(x, x, hand_ratio_df(x, x)), rel=1e-8)
        else:
            assert b["fieller"]["lower"] is None and b["fieller"]["upper"] is None
        for side in ("old", "new"):
            (caveat,) = [c for c in b["caveats"] if c.startswith(f"{side}: a single {level}:")]
            assert option in caveat
        # the interval leaves out the variation between forks: no verdict (issue 26)
        assert b["verdict"] == "inconclusive"
        assert not f.bounded or f"a single {level}" in b["verdict_reason"]
    code, text, err = esize("compare", path, path, "--method", "fieller", "--resamples", "2000",
                            "--seed", "1")
    assert code == 0 and "Traceback" not in err
    assert any(line.startswith("caveat") and f"a single {level}" in line for line in text.splitlines())


@pytest.mark.parametrize(("path", "level", "option"), SINGLE)
def test_point2_plan_refuses_one_top_unit(path, level, option):
    code, out, err = esize("plan", path, "--budget", "100")
    line = assert_one_line_error(code, out, err, file=path, words=[f"a single {level}"])
    assert "2 or more" in line


@pytest.mark.parametrize("path", [MEM1, FIB], ids=["pyperf-mem1", "gbench-1rep"])
@pytest.mark.parametrize("command", [["plan", "--budget", "100"]], ids=["plan"])
def test_point2_single_measurement_is_one_line_error(path, command):
    # summary and compare show such files (tests/cli/test_single_measurement.py)
    # the raw files really hold one measurement per benchmark
    doc = _load(path)
    if path == MEM1:
        counts = [sum(len(r.get("values", [])) for r in b["runs"]) for b in doc["benchmarks"]]
    else:  # Google Benchmark: one iteration row per benchmark, no repetitions
        runs = [b["name"] for b in doc["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
        counts = list(Counter(runs).values())
    assert counts and set(counts) == {1}
    args = [command[0], path, *([path] if command[0] == "compare" else []), *command[1:]]
    code, out, err = esize(*args)
    assert_one_line_error(code, out, err, file=path, words=["a single measurement"])


# == 3. --warmup auto on PyPy ==============================================================
@needs_ruptures
def test_point3_sympy_str_warmup_dropped():
    series = pyperf_raw(PYPY)["sympy_str"]
    assert len(series) == 10 and {len(v) for v in series} == {250}
    # the first value of every process is about 20 times the steady state
    for v in series:
        assert 15 < v[0] / np.median(v[-50:]) < 30
    auto = esize_json("summary", PYPY, "--benchmark", "sympy_str", "--warmup", "auto")
    zero = esize_json("summary", PYPY, "--benchmark", "sympy_str", "--warmup", "0")
    fifty = esize_json("summary", PYPY, "--benchmark", "sympy_str", "--warmup", "50")
    late = esize_json("summary", PYPY, "--benchmark", "sympy_str", "--warmup", "200")
    a, z, f50, f200 = (d["benchmarks"][0] for d in (auto, zero, fifty, late))
    assert z["mean"] == pytest.approx(np.mean(series), rel=REL)
    assert f50["mean"] == pytest.approx(np.mean([v[50:] for v in series]), rel=REL)
    assert f200["mean"] == pytest.approx(np.mean([v[200:] for v in series]), rel=REL)
    report = ez.auto_warmup(series)
    assert a["mean"] == pytest.approx(np.mean(report.trimmed), rel=REL)
    # auto drops the warm-up: below the raw mean, below the mean after 50 values
    # (the warm-up lasts longer than 50 values here), and in line with the last 50
    assert a["mean"] < f50["mean"] < z["mean"]
    assert a["ci"]["upper"] < z["ci"]["lower"]
    assert a["ci"]["lower"] <= f200["ci"]["upper"] and f200["ci"]["lower"] <= a["ci"]["upper"]
    assert min(report.cuts) > 50
    w = a["warmup"]
    assert w["mode"] == "auto"
    assert w["dropped"] == report.dropped > 0
    assert w["kept"] == report.kept == a["counts"]["value"]
    assert w["dropped"] == 10 * 250 - 10 * w["kept"]
    assert w["cuts"] == list(report.cuts)
    assert list(w["classes"]) == ["flat", "warmup", "slowdown", "no_steady_state"]
    assert w["classes"]["warmup"] == 10 and sum(w["classes"].values()) == 10


@needs_ruptures
def test_point3_classes_and_no_steady_state_caveats():
    data = esize_json("summary", PYPY, "--warmup", "auto")
    raw = pyperf_raw(PYPY)
    assert len(data["benchmarks"]) == 67
    unsettled = 0
    for b in data["benchmarks"]:
        w = b["warmup"]
        assert w["mode"] == "auto"
        assert set(w["classes"]) == {"flat", "warmup", "slowdown", "no_steady_state"}
        assert sum(w["classes"].values()) == 10
        assert w["dropped"] == 2500 - 10 * w["kept"]
        assert len(w["no_steady_state"]) == w["classes"]["no_steady_state"]
        mentions = [c for c in b["caveats"] if "no steady state" in c]
        if w["classes"]["no_steady_state"]:
            unsettled += 1
            assert len(mentions) == 1, b["name"]
            assert mentions[0].startswith(f"{w['classes']['no_steady_state']} of 10 processes")
        else:
            assert mentions == [], b["name"]
        kept = kept_values(PYPY, b["name"])
        assert kept.shape == (10, w["kept"])
        assert b["mean"] == pytest.approx(kept.mean(), rel=REL), b["name"]
    assert unsettled >= 1
    # one benchmark's counts against the library on the raw series
    for name in ("telco", "genshi_text"):
        b = by_name(data)[name]
        report = ez.auto_warmup(raw[name])
        assert b["warmup"]["dropped"] == report.dropped
        assert b["warmup"]["classes"] == report.classes
        assert b["mean"] == pytest.approx(np.mean(report.trimmed), rel=REL)


@needs_ruptures
def test_point3_compare_merges_both_systems_warmup():
    data, text, _ = pypy_compare("auto")
    for b in data["benchmarks"]:
        w = b["warmup"]
        assert w["mode"] == "auto"
        assert w["dropped"] == w["old"]["dropped"] + w["new"]["dropped"]
        checked_old = "not_checked" not in w["old"]
        assert sum(w["classes"].values()) == 10 + (20 if checked_old else 0)
        assert sum(w["new"]["classes"].values()) == 10
        mentions = [c for c in b["caveats"] if "no steady state" in c]
        assert bool(mentions) == bool(w["new"]["classes"]["no_steady_state"]), b["name"]
    sympy = by_name(data)["sympy_str"]["warmup"]
    assert sympy["dropped"] == ez.auto_warmup(pyperf_raw(PYPY)["sympy_str"]).dropped > 0
    assert "no steady state" in text


# == 4. hyperfine: the commands of one export ==============================================
def test_point4_hyperfine_second_command_against_first():
    results = _load(HYPERFINE)["results"]
    t1, t2 = (np.asarray(r["times"], dtype=float) for r in results)
    assert (t1.size, t2.size) == (27, 13)
    data = esize_json("compare", HYPERFINE, "--method", "fieller")
    assert data["baseline"] == results[0]["command"] == "sleep 0.1"
    (b,) = data["benchmarks"]
    assert b["name"] == results[1]["command"]
    assert b["ratio"] == pytest.approx(t2.mean() / t1.mean(), rel=REL)
    assert b["old"]["mean"] == pytest.approx(t1.mean(), rel=REL)
    assert b["new"]["mean"] == pytest.approx(t2.mean(), rel=REL)
    assert b["design_old"] == {"run": 27} and b["design_new"] == {"run": 13}
    f = ez.fieller_ci(t1, t2)
    limits = (b["fieller"]["lower"], b["fieller"]["upper"])
    assert limits == pytest.approx((f.lower, f.upper), rel=REL)
    df = hand_ratio_df(t1, t2)
    assert f.extra["df"] == pytest.approx(df, rel=REL)
    assert 12 < df <= hand_welch_df(t1, t2) < 38
    assert limits == pytest.approx(textbook_fieller(t1, t2, df), rel=1e-8)
    # n - 1 of either command would give another interval
    for wrong in (12, 26):
        assert textbook_fieller(t1, t2, wrong) != pytest.approx(limits, rel=1e-6)
    assert b["verdict"] == "slower" and 1.9 < b["ratio"] < 2.0
    code, text, err = esize("compare", HYPERFINE, "--method", "fieller")
    assert code == 0 and err == ""
    assert re.search(r"^baseline\s+sleep 0\.1\b", text, re.M)


# == 5. wording ================================================================================
@needs_ruptures
def test_point5_wording_on_cpython_vs_pypy():
    data, text, _ = pypy_compare("auto")
    forms = set()
    for b in data["benchmarks"]:
        f = b["fieller"]
        amount, word = check_description(b["description"], b["ratio"], f["lower"], f["upper"],
                                         b["lower_is_better"])
        forms.add((amount.endswith("x"), word))
        if b["ratio"] < 1 / FACTOR_WORDING:
            assert re.fullmatch(r"new is [\d.]+x faster \(95 % CI [\d.]+x \.\. [\d.]+x\)",
                                b["description"]), b["description"]
        elif all(1 / FACTOR_WORDING < v < FACTOR_WORDING for v in (b["ratio"], f["lower"], f["upper"])):
            assert " % " in b["description"] and "x" not in b["description"]
        # the text table says the same as the JSON
        assert b["description"] in text
    # all four forms occur on this pair: factors and percentages, both directions
    assert forms == {(True, "faster"), (True, "slower"), (False, "faster"), (False, "slower")}
    cm = by_name(data)["call_method"]
    factor = 1 / cm["ratio"]
    assert 33 < factor < 38
    assert cm["description"] == (
        f"new is {factor:.1f}x faster (95 % CI {1 / cm['fieller']['upper']:.1f}x .. "
        f"{1 / cm['fieller']['lower']:.1f}x)"
    )


def scaled_jmh(src: Path, dst: Path, factors: dict[str, float]) -> Path:
    """A copy of a JMH file with every measurement (and score) of a benchmark
    multiplied by its factor."""
    doc = _load(src)
    for entry in doc:
        k = factors[jmh_name(entry)]
        m = entry["primaryMetric"]
        m["rawData"] = [[x * k for x in fork] for fork in m["rawData"]]
        m["score"] *= k
        m["scoreError"] *= k
        m["scoreConfidence"] = [x * k for x in m["scoreConfidence"]]
        m["scorePercentiles"] = {p: x * k for p, x in m["scorePercentiles"].items()}
    dst.write_text(json.dumps(doc))
    return dst


def test_point5_rates_use_the_same_words(tmp_path):
    raw = jmh_raw(FS2)
    assert len(raw) == 9 and all(v.shape == (5, 5) for v in raw.values())
    assert {e["primaryMetric"]["scoreUnit"] for e in _load(FS2)} == {"ops/s"}
    # new throughput = old throughput x factor: above 1 is faster for a rate
    factors = [3.0, 0.25, 1.3, 0.8, 1.0, 12.0, 0.6, 1.7, 0.4]
    heads = ["new is 3.00x faster", "new is 4.00x slower", "new is 30.00 % faster",
             "new is 20.00 % slower", "new is the same as old", "new is 12.0x faster",
             "new is 1.67x slower", "new is 1.70x faster", "new is 2.50x slower"]
    names = list(raw)
    new = scaled_jmh(FS2, tmp_path / "fs2-scaled.json", dict(zip(names, factors)))
    data = esize_json("compare", FS2, new, "--method", "fieller", "--resamples", "2000",
                      "--seed", "1")
    bench = by_name(data)
    assert list(bench) == names
    for name, k, head in zip(names, factors, heads):
        b = bench[name]
        assert b["unit"] == "ops/s" and b["lower_is_better"] is False
        assert b["ratio"] == pytest.approx(k, rel=1e-12)
        om, nm = raw[name].mean(axis=1), (raw[name] * k).mean(axis=1)
        f = ez.fieller_ci(om, nm)
        # scaled copies, equal shares: Welch's 8, lowered by the rule to 4 (f + 1)^2 / (f^2 + 1)
        assert f.extra["df_welch"] == pytest.approx(8.0)
        assert f.extra["df"] == pytest.approx(hand_ratio_df(om, nm), rel=REL)
        assert (b["fieller"]["lower"], b["fieller"]["upper"]) == pytest.approx((f.lower, f.upper), rel=REL)
        assert b["description"].startswith(head + " ("), b["description"]
        check_description(b["description"], b["ratio"], f.lower, f.upper, False)
        if k != 1.0:  # "faster" for a higher rate, "slower" for a lower one
            assert b["verdict"] in ("faster" if k > 1 else "slower", "inconclusive")
    assert bench[names[0]]["verdict"] == "faster" and bench[names[1]]["verdict"] == "slower"
    code, text, err = esize("compare", FS2, new, "--method", "fieller", "--resamples", "2000",
                            "--seed", "1")
    assert code == 0
    assert "↑" in text and "higher is better" in text
    assert "higher" not in " ".join(b["description"] for b in data["benchmarks"])


def test_point5_wording_on_jmh_times_and_rates_mixed():
    """jcasbin holds rates (ops/ms) and times (ms/op, single shot): every description
    of a comparison with itself is worded consistently for its kind."""
    data = esize_json("compare", JCASBIN, JCASBIN, "--method", "fieller", "--resamples", "2000",
                      "--seed", "1")
    kinds = set()
    for b in data["benchmarks"]:
        kinds.add(b["lower_is_better"])
        f = b["fieller"]
        if not f["bounded"]:
            assert "unbounded" in b["description"]
            continue
        check_description(b["description"], b["ratio"], f["lower"], f["upper"], b["lower_is_better"])
    assert kinds == {True, False}


# == 6. presentation ===========================================================================
@needs_matplotlib
def test_point6_plot_of_67_benchmarks_is_bounded(tmp_path):
    png = tmp_path / "pypy.png"
    code, out, err = esize("summary", PYPY, "--plot", png)
    assert code == 0, err
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    assert 0 < width < 2000 and 0 < height < 4000
    assert height > width  # 67 rows: a tall figure, not an unreadable squeezed one


def table_names(text: str) -> tuple[str, list[list[str]], list[str]]:
    """The common prefix, the name lines of every row, and the table's lines."""
    lines = text.splitlines()
    said = [line for line in lines if line.startswith("names       all start with ")]
    assert len(said) == 1, said
    m = re.fullmatch(r"names       all start with ('.*'), left out below", said[0])
    assert m, said[0]
    prefix = ast.literal_eval(m[1])
    (h,) = [i for i, line in enumerate(lines) if line.startswith("benchmark ") and " unit " in line]
    col = lines[h].index("unit")
    rows, table = [], []
    for line in lines[h + 1:]:
        if not line.strip():
            break
        table.append(line)
        cell = line[:col].rstrip()
        if line.startswith("  "):
            assert line[col:].strip() == "", line  # a continuation holds the name only
            assert not line.startswith("   "), line
            rows[-1].append(cell[2:])
        else:
            rows.append([cell])
    return prefix, rows, table


@pytest.mark.parametrize("path", [JCASBIN, PGCLIENT], ids=["jcasbin", "pgclient"])
def test_point6_long_names_wrapped_and_prefix_said_once(path):
    names = list(jmh_raw(path))
    code, text, err = esize("compare", path, path, "--method", "fieller", "--resamples", "2000",
                            "--seed", "1")
    assert code == 0
    prefix, rows, table = table_names(text)
    assert prefix and all(n.startswith(prefix) for n in names)
    assert prefix[-1] in "./:_ -#,;|"
    assert len(rows) == len(names)
    assert max(len(line) for line in table) < 200
    wrapped = 0
    for name, pieces in zip(names, rows):
        # the name cell is at most 40 characters wide, indentation included
        assert all(len(p) <= 40 - 2 for p in pieces[1:]) and len(pieces[0]) <= 40
        assert not pieces[0].startswith(prefix)
        # prefix + pieces gives the name back (a space at a break may be hidden by
        # the padding of the column)
        pattern = re.escape(prefix) + " ?".join(re.escape(p) for p in pieces) + " ?"
        assert re.fullmatch(pattern, name), (name, pieces)
        wrapped += len(pieces) > 1
    assert wrapped > 0
    assert max(len(n) for n in names) > 60


def test_benchmarks_left_out_are_not_checked(capsys):
    """--benchmark picks before anything is checked: an error names the benchmark asked
    for, never one the user left out (every CPython benchmark here has 3 values per
    process, so --warmup 5 is refused for sympy_str itself)."""
    from .helpers import assert_one_line_error, cli

    f = REAL / "pyperf-speed-cpython27.json.gz"
    line = assert_one_line_error(
        *cli(["summary", f, "--benchmark", "sympy_str", "--warmup", "5"], capsys), file=f,
        words=["warm-up of 5"])
    assert "'sympy_str'" in line and "2to3" not in line
    line = assert_one_line_error(*cli(["summary", f, "--benchmark", "nope"], capsys), file=f,
                                 words=["not in the file"])
    assert "2to3" in line  # the file's own names, not the (empty) selection
