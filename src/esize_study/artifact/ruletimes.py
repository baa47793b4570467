"""Per-rule time and memory of a pipeline run, from its ``benchmark:`` files.

Every rule of the workflow that runs a job writes a Snakemake benchmark file beside
its log, under the logs directory (``logs_dir`` of the configuration), at one of three
depths:

``<rule>.benchmark.tsv``
    a job of no dataset (``worked_examples``, ``fa_shape_check``, ``notebook_html``);
``<dataset>/<rule>.benchmark.tsv``
    one job per dataset (tables, figures, reports);
``<dataset>/<rule>/<job>.benchmark.tsv``
    one job per benchmark, shard or variant (simulations, ingestion).

:func:`read_runs` reads them all (each file: one header line and one row per run of the
job, the columns of Snakemake's benchmark directive, ``s`` and ``max_rss`` among them);
:func:`rule_table` sums them by rule, and :func:`markdown` writes the table that the
README quotes: rule, jobs, summed seconds, longest job, largest resident memory,
sorted by summed time, longest first. ``make rule-times`` prints it for ``logs/``.

The summed time of a rule is the wall time of its jobs added up; with two jobs side by
side on two cores, the sum over all rules is about twice the run's wall time.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SUFFIX", "BenchmarkError", "JobRun", "RuleTimes", "rule_of", "read_benchmark",
           "read_runs", "rule_table", "markdown", "main"]

#: Name ending of a Snakemake benchmark file in this workflow.
SUFFIX = ".benchmark.tsv"


class BenchmarkError(ValueError):
    """A benchmark file that cannot be read, or a logs tree without one."""


@dataclass(frozen=True)
class JobRun:
    """One job's record: its rule, dataset (``""`` for none), file, seconds, max RSS
    in MiB (NaN when Snakemake could not sample it, as for very short jobs)."""

    rule: str
    dataset: str
    path: str
    seconds: float
    max_rss_mib: float


@dataclass(frozen=True)
class RuleTimes:
    """The jobs of one rule, summed."""

    rule: str
    jobs: int
    total_seconds: float
    max_seconds: float
    max_rss_mib: float


def rule_of(relative: Path) -> tuple[str, str]:
    """Rule and dataset of a benchmark file, from its path under the logs directory.

    Parameters
    ----------
    relative : Path
        The file's path relative to the logs directory.

    Returns
    -------
    (str, str)
        The rule name and the dataset (``""`` for a job of no dataset).

    Raises
    ------
    BenchmarkError
        If the path is not at one of the three depths of the module docstring.
    """
    parts = relative.parts
    stem = parts[-1].removesuffix(SUFFIX)
    if len(parts) == 1:
        return stem, ""
    if len(parts) == 2:
        return stem, parts[0]
    if len(parts) == 3:
        return parts[1], parts[0]
    raise BenchmarkError(f"{relative}: benchmark file nested {len(parts)} levels deep, "
                         "expected <rule>, <dataset>/<rule> or <dataset>/<rule>/<job>")


def _number(text: str) -> float:
    return math.nan if text in ("NA", "-", "") else float(text)


def read_benchmark(path: str | Path) -> list[tuple[float, float]]:
    """The (seconds, max RSS in MiB) of every run recorded in one benchmark file.

    Raises
    ------
    BenchmarkError
        If the file has no ``s`` or ``max_rss`` column, no row, or a value that is not
        a number; the message names the file.
    """
    path = Path(path)
    try:
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    except (OSError, UnicodeDecodeError) as exc:
        raise BenchmarkError(f"{path}: cannot read: {exc}") from None
    if not lines:
        raise BenchmarkError(f"{path}: empty benchmark file")
    header = lines[0].split("\t")
    missing = [c for c in ("s", "max_rss") if c not in header]
    if missing:
        raise BenchmarkError(f"{path}: no column {', '.join(missing)} in the header "
                             "(not a Snakemake benchmark file?)")
    if len(lines) == 1:
        raise BenchmarkError(f"{path}: header only, no recorded run")
    i_s, i_rss = header.index("s"), header.index("max_rss")
    out = []
    for n, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(header):
            raise BenchmarkError(f"{path}:{n}: {len(fields)} fields, the header has "
                                 f"{len(header)}")
        try:
            seconds, rss = _number(fields[i_s]), _number(fields[i_rss])
        except ValueError:
            raise BenchmarkError(f"{path}:{n}: s or max_rss is not a number") from None
        if not seconds >= 0:
            raise BenchmarkError(f"{path}:{n}: seconds {fields[i_s]!r} is not a "
                                 "non-negative number")
        out.append((seconds, rss))
    return out


def read_runs(logs_dir: str | Path, datasets: Iterable[str] | None = None) -> list[JobRun]:
    """Every job recorded under ``logs_dir``, one :class:`JobRun` per benchmark file.

    A file recording several runs of its job (Snakemake's ``repeat``) counts with the
    mean of their seconds and the largest of their memory.

    Parameters
    ----------
    logs_dir : path
        The pipeline's logs directory.
    datasets : iterable of str, optional
        Keep only these datasets' jobs (and the jobs of no dataset).

    Raises
    ------
    BenchmarkError
        If ``logs_dir`` is not a directory, holds no benchmark file, or one of them
        cannot be read.
    """
    root = Path(logs_dir)
    if not root.is_dir():
        raise BenchmarkError(f"{root}: no such directory")
    keep = None if datasets is None else set(datasets)
    runs = []
    for path in sorted(root.rglob(f"*{SUFFIX}")):
        rule, dataset = rule_of(path.relative_to(root))
        if keep is not None and dataset and dataset not in keep:
            continue
        rows = read_benchmark(path)
        seconds = sum(s for s, _ in rows) / len(rows)
        rss = [r for _, r in rows if not math.isnan(r)]
        runs.append(JobRun(rule, dataset, str(path), seconds, max(rss) if rss else math.nan))
    if not runs:
        raise BenchmarkError(f"{root}: no {SUFFIX} file"
                             + (f" for dataset(s) {', '.join(sorted(keep))}" if keep else ""))
    return runs


def rule_table(runs: Sequence[JobRun]) -> list[RuleTimes]:
    """Runs summed by rule, by summed time (longest first, then by name)."""
    by_rule: dict[str, list[JobRun]] = {}
    for r in runs:
        by_rule.setdefault(r.rule, []).append(r)
    rows = []
    for rule, rs in by_rule.items():
        rss = [r.max_rss_mib for r in rs if not math.isnan(r.max_rss_mib)]
        rows.append(RuleTimes(rule, len(rs), sum(r.seconds for r in rs),
                              max(r.seconds for r in rs), max(rss) if rss else math.nan))
    return sorted(rows, key=lambda t: (-t.total_seconds, t.rule))


def _fmt_s(x: float) -> str:
    return f"{x:.1f}"


def markdown(rows: Sequence[RuleTimes]) -> str:
    """The per-rule table in markdown, with a last line summing every rule."""
    lines = ["| rule | jobs | summed s | longest job s | max RSS MiB |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for t in rows:
        rss = "n/a" if math.isnan(t.max_rss_mib) else f"{t.max_rss_mib:.0f}"
        lines.append(f"| `{t.rule}` | {t.jobs} | {_fmt_s(t.total_seconds)} | "
                     f"{_fmt_s(t.max_seconds)} | {rss} |")
    rss_all = [t.max_rss_mib for t in rows if not math.isnan(t.max_rss_mib)]
    lines.append(f"| all | {sum(t.jobs for t in rows)} | "
                 f"{_fmt_s(sum(t.total_seconds for t in rows))} | "
                 f"{_fmt_s(max(t.max_seconds for t in rows))} | "
                 f"{f'{max(rss_all):.0f}' if rss_all else 'n/a'} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m esize_study.artifact.ruletimes [LOGS_DIR]``: print the table."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m esize_study.artifact.ruletimes",
        description="Per-rule job times and memory of a pipeline run, from the "
                    "benchmark files under its logs directory, as a markdown table.")
    parser.add_argument("logs_dir", nargs="?", default="logs",
                        help="the run's logs directory (logs)")
    parser.add_argument("--dataset", action="append", metavar="NAME",
                        help="only this dataset's jobs and those of no dataset (repeat)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the table here instead of standard output")
    args = parser.parse_args(argv)
    try:
        text = markdown(rule_table(read_runs(args.logs_dir, args.dataset)))
    except BenchmarkError as exc:
        print(f"esize: error: {exc}", file=sys.stderr)
        return 2
    if args.output:
        from ..datasets.files import atomic_write_text

        atomic_write_text(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
