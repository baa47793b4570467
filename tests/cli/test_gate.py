"""``esize compare --fail-on``: exit status 1 exactly when a named verdict is found.

The pairs are real hyperfine runs (``tests/data/harness/hyperfine-real-*.json``, made by
``make measure``): ``cipher`` is slower, ``fft`` inconclusive (one build against one
other: its layout effect hides most of the +3 %), and their geometric mean slower; and the JMH pair of the README, where three benchmarks and the suite are faster.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from esize.cli._gate import MAX_NAMED, gate_message, gate_verdicts, tripped

from .helpers import _module_env, assert_one_line_error, cli

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tests" / "data" / "harness"
OLD, NEW = HARNESS / "hyperfine-real-old.json", HARNESS / "hyperfine-real-new.json"
JMH = (HARNESS / "jmh-old.json", HARNESS / "jmh-new.json")

#: The benchmark of the hyperfine pair that is slower, and the one that is inconclusive
#: (fft's interval reaches below the 2 % threshold), in the file's order (fft first).
SLOW, UNSURE = "cipher", "fft"
SLOW_INDEX = 1

LIMITS = re.compile(r"(\S+) (\w+), ratio ([-+.\deE]+) \[([-+.\deE]+), ([-+.\deE]+)\]")


def _doc(capsys, *argv) -> dict:
    code, out, err = cli(["compare", *argv, "--seed", "1", "--json"], capsys)
    assert code == 0, err
    return json.loads(out)


def _gate(capsys, *argv):
    return cli(["compare", *argv, "--seed", "1"], capsys)


def _chosen(b: dict) -> tuple[float, float]:
    iv = b[b["verdict_method"]]
    return iv["lower"], iv["upper"]


def _named(err: str) -> dict:
    """``{name: (verdict, ratio, lower, upper)}`` of the one gate line."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    body = lines[0].split(": ", 3)[3]  # after "esize: --fail-on WORDS: WHO: "
    found = {}
    for item in body.split("; "):
        m = LIMITS.search(item)
        assert m, item
        name = item[: item.index(f" {m.group(2)}, ratio")]
        found[name] = (m.group(2), *map(float, m.groups()[2:]))
    return found


def _close(shown: float, value: float) -> bool:
    """Equal to the 4 places (or 6 significant digits) the message shows."""
    return abs(shown - value) <= 0.5e-4 * max(1.0, abs(value)) + 1e-12


# -- the acceptance ---------------------------------------------------------------------
def test_slower_pair_fails_on_slower_with_one_line_naming_it(capsys):
    doc = _doc(capsys, OLD, NEW, "--benchmark", SLOW)
    assert doc["verdict"] == "slower"
    code, out, err = _gate(capsys, OLD, NEW, "--benchmark", SLOW, "--fail-on", "slower")
    assert code == 1, err
    assert "ratio new/old" in out  # the usual output is still printed
    assert err.startswith("esize: --fail-on slower: 1 of 1 benchmark: " + SLOW + " slower, ratio ")
    named = _named(err)
    assert list(named) == [SLOW]
    verdict, ratio, lo, hi = named[SLOW]
    assert verdict == "slower"
    assert _close(ratio, doc["ratio"])
    assert _close(lo, doc["fieller"]["lower"]) and _close(hi, doc["fieller"]["upper"])


def test_slower_pair_passes_under_fail_on_faster(capsys):
    code, out, err = _gate(capsys, OLD, NEW, "--benchmark", SLOW, "--fail-on", "faster")
    assert code == 0 and err == "", err
    assert "slower" in out


def test_inconclusive_pair_passes_under_fail_on_slower_and_fails_when_asked(capsys):
    doc = _doc(capsys, OLD, NEW, "--benchmark", UNSURE)
    assert doc["verdict"] == "inconclusive"
    code, _, err = _gate(capsys, OLD, NEW, "--benchmark", UNSURE, "--fail-on", "slower")
    assert code == 0 and err == "", err
    code, _, err = _gate(capsys, OLD, NEW, "--benchmark", UNSURE,
                         "--fail-on", "slower,inconclusive")
    assert code == 1
    assert list(_named(err)) == [UNSURE]
    assert err.startswith("esize: --fail-on slower,inconclusive: ")


def test_acceptance_as_separate_processes():
    """``python -m esize`` as a CI job runs it: the exit statuses themselves."""
    runs = {
        (SLOW, "slower"): 1,
        (SLOW, "faster"): 0,
        (UNSURE, "slower"): 0,
    }
    for (bench, word), status in runs.items():
        proc = subprocess.run(
            [sys.executable, "-m", "esize", "compare", OLD, NEW, "--seed", "1",
             "--benchmark", bench, "--fail-on", word],
            env=_module_env(), capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert proc.returncode == status, (bench, word, proc.stderr)
        assert "Traceback" not in proc.stderr
        assert len(proc.stderr.splitlines()) == status
        if status:
            assert f"{bench} {word}, ratio" in proc.stderr


# -- suites --------------------------------------------------------------------------------
def test_suite_names_the_benchmarks_and_the_geometric_mean_that_tripped(capsys):
    doc = _doc(capsys, OLD, NEW)
    assert [b["verdict"] for b in doc["benchmarks"]] == ["inconclusive", "slower"]
    assert doc["suite"]["verdict"] == "slower"
    code, _, err = _gate(capsys, OLD, NEW, "--fail-on", "slower")
    assert code == 1
    named = _named(err)
    assert list(named) == [SLOW, "geometric mean"]  # not the inconclusive one
    slow = doc["benchmarks"][SLOW_INDEX]
    assert _close(named[SLOW][1], slow["ratio"])
    assert all(_close(a, b) for a, b in zip(named[SLOW][2:], _chosen(slow)))
    s = doc["suite"]
    assert _close(named["geometric mean"][1], s["geometric_mean"])
    assert _close(named["geometric mean"][2], s["lower"])
    assert _close(named["geometric mean"][3], s["upper"])
    assert "1 of 2 benchmarks and the geometric mean" in err
    assert "95 % intervals, threshold 2 %" in err


def test_suite_verdict_alone_trips_the_gate():
    """A suite whose benchmarks pass but whose geometric mean is in the set fails."""
    doc = {"alpha": 0.05, "threshold": 0.02,
           "benchmarks": [{"name": "a", "ratio": 1.01, "verdict": "inconclusive",
                           "verdict_method": "fieller",
                           "fieller": {"lower": 0.99, "upper": 1.03, "bounded": True}}],
           "suite": {"geometric_mean": 1.03, "lower": 1.025, "upper": 1.035,
                     "verdict": "slower"}}
    trips = tripped(doc, ["slower"])
    assert [(t.name, t.suite) for t in trips] == [("geometric mean", True)]
    msg = gate_message(doc, trips, ["slower"])
    assert msg == ("--fail-on slower: the geometric mean: geometric mean slower, ratio "
                   "1.0300 [1.0250, 1.0350] (ratios new/old, 95 % intervals, threshold 2 %)")


def test_faster_suite_fails_only_on_faster_or_change(capsys):
    doc = _doc(capsys, *JMH)
    faster = [b["name"] for b in doc["benchmarks"] if b["verdict"] == "faster"]
    assert len(faster) == 3 and doc["suite"]["verdict"] == "faster"
    code, _, err = _gate(capsys, *JMH, "--fail-on", "slower")
    assert code == 0 and err == ""
    for words in (["--fail-on", "faster"], ["--fail-on", "change"],
                  ["--fail-on", "slower", "--fail-on", "faster"], ["--fail-on", "slower,faster"]):
        code, _, err = _gate(capsys, *JMH, *words)
        assert code == 1, words
        assert list(_named(err)) == [*faster, "geometric mean"], words


def test_gate_verdicts():
    assert gate_verdicts(["change"]) == {"slower", "faster"}
    assert gate_verdicts(["slower", "inconclusive"]) == {"slower", "inconclusive"}
    assert "same" not in gate_verdicts(["slower", "faster", "change", "inconclusive"])


def test_without_fail_on_a_slower_pair_still_exits_0(capsys):
    code, _, err = _gate(capsys, OLD, NEW)
    assert code == 0 and err == ""


# -- the gate and the other outputs --------------------------------------------------------
def test_json_and_output_file_are_complete_when_the_gate_trips(capsys, tmp_path):
    out_file = tmp_path / "result.json"
    code, out, err = _gate(capsys, OLD, NEW, "--fail-on", "slower", "--json", "-o", out_file)
    assert code == 1
    assert json.loads(out) == json.loads(out_file.read_text())
    assert json.loads(out)["suite"]["verdict"] == "slower"
    assert len(err.splitlines()) == 1


def test_bad_input_stays_exit_2_with_fail_on(capsys, tmp_path):
    missing = tmp_path / "missing.json"
    code, out, err = _gate(capsys, OLD, missing, "--fail-on", "slower")
    assert_one_line_error(code, out, err, file=missing)
    code, out, err = _gate(capsys, OLD, NEW, "--fail-on", "slowr")
    assert_one_line_error(code, out, err, words=["--fail-on takes slower, faster"])
    code, out, err = _gate(capsys, OLD, NEW, "--fail-on", ",")
    assert_one_line_error(code, out, err, words=["--fail-on"])


def test_message_names_at_most_max_named_and_stays_one_line():
    names = [f"bench\n{i}" for i in range(MAX_NAMED + 5)]
    doc = {"alpha": 0.1, "threshold": 0.05,
           "benchmarks": [{"name": n, "ratio": 2.0, "verdict": "slower",
                           "verdict_method": "bootstrap",
                           "bootstrap": {"lower": 1.5, "upper": 2.5}} for n in names]}
    trips = tripped(doc, ["change"])
    assert len(trips) == MAX_NAMED + 5
    msg = gate_message(doc, trips, ["change"])
    assert "\n" not in msg
    assert msg.count(" slower, ratio 2.0000 [1.5000, 2.5000]") == MAX_NAMED
    assert "bench\\n0 slower" in msg and "and 5 more" in msg
    assert f"{MAX_NAMED + 5} of {MAX_NAMED + 5} benchmarks" in msg
    assert "90 % intervals, threshold 5 %" in msg


def test_unbounded_interval_is_said_not_invented():
    doc = {"alpha": 0.05, "threshold": 0.02,
           "benchmarks": [{"name": "noisy", "ratio": 1.4, "verdict": "inconclusive",
                           "verdict_method": "fieller",
                           "fieller": {"lower": None, "upper": None, "bounded": False}}]}
    trips = tripped(doc, ["inconclusive"])
    assert "noisy inconclusive, ratio 1.4000 interval unbounded or missing" in gate_message(
        doc, trips, ["inconclusive"])
