"""The per-rule table of a run (esize_study.artifact.ruletimes) and the workflow's
benchmark files it reads."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from esize_study.artifact import ruletimes as rt

ROOT = Path(__file__).resolve().parents[2]
HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time"


def _bench(path: Path, *rows: tuple[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [HEADER] + [f"{s}\t0:00:00\t{rss}\t1.0\t1.0\t1.0\t0.00\t0.00\t0.00\t0.10"
                        for s, rss in rows]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture
def logs(tmp_path) -> Path:
    """A fake logs tree with the three depths, a non-benchmark log and an NA memory."""
    root = tmp_path / "logs"
    _bench(root / "worked_examples.benchmark.tsv", ("1.50", "80.0"))
    _bench(root / "a" / "fa_table.benchmark.tsv", ("2.00", "100.0"))
    _bench(root / "b" / "fa_table.benchmark.tsv", ("3.00", "NA"))
    _bench(root / "a" / "fa_simulate" / "x.binaries.0-of-2.benchmark.tsv", ("10.00", "200.0"))
    _bench(root / "a" / "fa_simulate" / "x.binaries.1-of-2.benchmark.tsv", ("12.50", "150.0"))
    _bench(root / "b" / "fa_simulate" / "y.executions.0-of-1.benchmark.tsv",
           ("4.00", "90.0"), ("6.00", "300.0"))  # two repeats: mean 5 s, max RSS 300
    (root / "a" / "fa_table.log").write_text("not a benchmark\n")
    return root


def test_rule_of_reads_the_three_depths():
    assert rt.rule_of(Path("worked_examples.benchmark.tsv")) == ("worked_examples", "")
    assert rt.rule_of(Path("d/report.benchmark.tsv")) == ("report", "d")
    assert rt.rule_of(Path("d/ingest/fft.benchmark.tsv")) == ("ingest", "d")
    with pytest.raises(rt.BenchmarkError, match="4 levels deep"):
        rt.rule_of(Path("d/x/y/z.benchmark.tsv"))


def test_table_sums_by_rule_sorted_by_summed_time(logs):
    runs = rt.read_runs(logs)
    assert len(runs) == 6
    rows = rt.rule_table(runs)
    assert [r.rule for r in rows] == ["fa_simulate", "fa_table", "worked_examples"]
    fa = rows[0]
    assert (fa.jobs, fa.total_seconds, fa.max_seconds, fa.max_rss_mib) == (3, 27.5, 12.5, 300.0)
    table = rows[1]
    assert (table.jobs, table.total_seconds, table.max_seconds, table.max_rss_mib) == (
        2, 5.0, 3.0, 100.0)
    text = rt.markdown(rows)
    lines = text.splitlines()
    assert lines[0] == "| rule | jobs | summed s | longest job s | max RSS MiB |"
    assert lines[2] == "| `fa_simulate` | 3 | 27.5 | 12.5 | 300 |"
    assert lines[-1] == "| all | 6 | 34.0 | 12.5 | 300 |"


def test_dataset_filter_keeps_jobs_of_no_dataset(logs):
    rows = rt.rule_table(rt.read_runs(logs, ["b"]))
    assert {r.rule: (r.jobs, r.total_seconds) for r in rows} == {
        "fa_simulate": (1, 5.0), "fa_table": (1, 3.0), "worked_examples": (1, 1.5)}
    # memory not sampled for the only job of a rule
    only_na = [r for r in rows if r.rule == "fa_table"][0]
    assert math.isnan(only_na.max_rss_mib)
    assert "| `fa_table` | 1 | 3.0 | 3.0 | n/a |" in rt.markdown(rows)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "esize_study.artifact.ruletimes", *args],
                          capture_output=True, text=True, timeout=120)


def test_command_prints_or_writes_the_table(logs, tmp_path):
    res = _cli(str(logs))
    assert res.returncode == 0, res.stderr
    assert res.stdout == rt.markdown(rt.rule_table(rt.read_runs(logs)))
    out = tmp_path / "times.md"
    res = _cli(str(logs), "--dataset", "a", "-o", str(out))
    assert res.returncode == 0 and res.stdout == ""
    assert "| all | 4 | 26.0 | 12.5 | 200 |" in out.read_text()


@pytest.mark.parametrize("content, problem", [
    ("", "empty benchmark file"),
    ("time\tmemory\n1\t2\n", "no column s, max_rss"),
    (HEADER + "\n", "header only"),
    (HEADER + "\nabc\t0\t1\t1\t1\t1\t0\t0\t0\t0\n", ":2: s or max_rss is not a number"),
    (HEADER + "\n1.0\t0:00:01\n", ":2: 2 fields, the header has 10"),
    (HEADER + "\n-1.0\t0\t1\t1\t1\t1\t0\t0\t0\t0\n", "is not a non-negative number"),
])
def test_bad_benchmark_file_is_one_line_exit_2(tmp_path, content, problem):
    bad = tmp_path / "logs" / "d" / "rule.benchmark.tsv"
    bad.parent.mkdir(parents=True)
    bad.write_text(content)
    out = tmp_path / "times.md"
    res = _cli(str(tmp_path / "logs"), "-o", str(out))
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr
    assert lines[0].startswith(f"esize: error: {bad}") and problem in lines[0]
    assert not out.exists()


def test_empty_or_missing_logs_dir_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    res = _cli(str(tmp_path / "empty"))
    assert res.returncode == 2 and "no .benchmark.tsv file" in res.stderr
    res = _cli(str(tmp_path / "absent"))
    assert res.returncode == 2 and "no such directory" in res.stderr


def _rule_blocks(text: str):
    """(name, body) of every rule of a rule file."""
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"^\s*rule (\w+):", text, re.M)]
    for (a, name), (b, _) in zip(starts, starts[1:] + [(len(text), "")]):
        yield name, text[a:b]


def test_every_rule_with_a_log_writes_a_benchmark_file_beside_it():
    """The table covers every job: each rule's benchmark file is its log's path with
    .benchmark.tsv for .log, at one of the depths rule_of reads."""
    seen = 0
    for smk in sorted((ROOT / "workflow" / "rules").glob("*.smk")):
        for name, body in _rule_blocks(smk.read_text()):
            log = re.search(r"^\s*log:\s*\n\s*f\"([^\"]+)\.log\"", body, re.M)
            if log is None:
                continue
            bench = re.search(r"^\s*benchmark:\s*\n\s*f\"([^\"]+)\"", body, re.M)
            assert bench, f"{smk.name}: rule {name} has a log but no benchmark"
            assert bench.group(1) == log.group(1) + rt.SUFFIX, (smk.name, name)
            rel = bench.group(1).removeprefix("{LOGS}/").replace("{{dataset}}", "d")
            rel = re.sub(r"\{\{\w+\}\}", "w", rel)
            assert rt.rule_of(Path(rel)) == (name, "d" if "{{dataset}}" in bench.group(1)
                                             else ""), (smk.name, name, rel)
            seen += 1
    assert seen >= 25
