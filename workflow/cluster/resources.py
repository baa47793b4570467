"""Per-rule SLURM resources from the benchmark records of earlier runs.

    python workflow/cluster/resources.py [LOGS_DIR ...] [--profile CONFIG.yaml] [--check]

Every rule writes one benchmark TSV per job next to its log (wall time ``s``,
``max_rss`` in MB, ...): ``<logs_dir>/<dataset>/<rule>/<job>.benchmark.tsv``, or
``<logs_dir>/<dataset>/<rule>.benchmark.tsv`` for a rule with one job per dataset, or
``<logs_dir>/<rule>.benchmark.tsv`` for one of no dataset (the layout that
``esize_study.artifact.ruletimes`` also reads). This script reads every such file under the given log directories (by
default ``logs`` and ``logs-test`` of the repository, the ``logs_dir`` of
config/config.yaml and config/test.yaml), takes per rule the longest job and the
largest memory, and writes ``set-resources`` for those rules into the SLURM
profile's config.yaml, between the lines ``# BEGIN resources.py`` and
``# END resources.py`` (the rest of the file is left as it is).

Sharded rules (a ``<i>-of-<n>`` part in the job name) are scaled to the whole,
unsharded job (wall time times ``n``) and the generated runtime divides it again by
the shard count of the run being submitted (Snakemake evaluates the expression with
the job's ``wildcards``), so the values stay right when ``shards`` changes. The
records are taken to come from one-thread jobs: runtime is divided by the job's
``threads`` and memory multiplied by it (each joblib worker holds its own copy of
the data). Both are multiplied by a safety factor, runtime by ``attempt`` too (with
``retries`` in the profile, a job killed at its time limit is resubmitted with twice
the time), and never set below a floor. Rules without records keep the profile's
``default-resources``.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from esize_study.artifact.ruletimes import rule_of

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "workflow" / "profiles" / "slurm" / "config.yaml"
DEFAULT_LOGS = [ROOT / "logs", ROOT / "logs-test"]
BEGIN, END = "# BEGIN resources.py", "# END resources.py"

#: safety factors on the measured wall time and memory
TIME_FACTOR = 2.0
MEM_FACTOR = 1.5
#: floors: scheduling and start-up noise dominate below these
MIN_RUNTIME_MIN = 5
MIN_MEM_MB = 1000
#: Snakemake's start-up inside a job (reading the workflow) on top of the measured work
STARTUP_S = 60
SHARD = re.compile(r"\.(\d+)-of-(\d+)\.benchmark\.tsv$")


@dataclass
class RuleRecords:
    """What the records of one rule say."""

    files: int = 0
    full_s: float = 0.0  # longest job, scaled to the whole (unsharded) job
    max_rss: float = 0.0  # MB
    sharded: bool = False
    sources: set[str] = field(default_factory=set)


def _label(log_dir: Path) -> str:
    """A log directory as the comments name it: relative to the repository, else its name."""
    try:
        return log_dir.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return log_dir.name


def read_records(log_dirs: list[Path]) -> dict[str, RuleRecords]:
    """Per rule: the longest (unsharded) job and the largest resident memory."""
    rules: dict[str, RuleRecords] = {}
    for log_dir in log_dirs:
        for path in sorted(log_dir.rglob("*.benchmark.tsv")):
            rule, _ = rule_of(path.relative_to(log_dir))
            shard = SHARD.search(path.name)
            n = int(shard.group(2)) if shard else 1
            with open(path, newline="") as fh:
                rows = list(csv.DictReader(fh, delimiter="\t"))
            times = [float(r["s"]) for r in rows if r.get("s") not in (None, "", "NA")]
            rss = [float(r["max_rss"]) for r in rows if r.get("max_rss") not in (None, "", "NA")]
            if not times:
                continue
            rec = rules.setdefault(rule, RuleRecords())
            rec.files += 1
            rec.full_s = max(rec.full_s, max(times) * n)
            rec.max_rss = max([rec.max_rss, *rss])
            rec.sharded = rec.sharded or shard is not None
            rec.sources.add(_label(log_dir))
    return rules


def resources_for(rec: RuleRecords) -> dict[str, str]:
    """The runtime (minutes) and mem_mb expressions of one rule."""
    work = TIME_FACTOR * rec.full_s
    per_job = f"{work:.0f} / int(wildcards.shard.split('-of-')[1])" if rec.sharded else f"{work:.0f}"
    # whole minutes, rounded up (the expression sees no `math`)
    runtime = f"attempt * max({MIN_RUNTIME_MIN}, 1 + int(({STARTUP_S} + {per_job} / threads) / 60))"
    mem = math.ceil(MEM_FACTOR * rec.max_rss / 100) * 100
    mem_mb = f"max({MIN_MEM_MB}, {mem} * threads)"
    return {"runtime": runtime, "mem_mb": mem_mb}


def render(rules: dict[str, RuleRecords]) -> list[str]:
    lines = [
        f"  {BEGIN}: per-rule values from the rules' benchmark records,",
        "  # written by `python workflow/cluster/resources.py` (edit its factors, not these",
        "  # lines). runtime in minutes, mem_mb in MB; see that script for the formulas.",
    ]
    for rule in sorted(rules):
        rec = rules[rule]
        scaled = " (whole job: wall time x shards)" if rec.sharded else ""
        lines += [
            f"  {rule}:",
            f"    # {rec.files} records in {', '.join(sorted(rec.sources))}: longest job "
            f"{rec.full_s:.1f} s{scaled}, max_rss {rec.max_rss:.0f} MB",
        ]
        lines += [f'    {key}: "{value}"' for key, value in resources_for(rec).items()]
    lines.append(f"  {END}")
    return lines


def update_profile(text: str, block: list[str]) -> str:
    """``text`` with the lines between the markers replaced by ``block``."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip().startswith(BEGIN)]
    ends = [i for i, line in enumerate(lines) if line.strip().startswith(END)]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise ValueError(f"needs exactly one '{BEGIN}' line and one '{END}' line after it")
    return "\n".join(lines[: starts[0]] + block + lines[ends[0] + 1:]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="*", type=Path,
                        help="log directories to search (default: logs and logs-test)")
    parser.add_argument("--profile", type=Path, default=PROFILE,
                        help="the profile's config.yaml to update")
    parser.add_argument("--check", action="store_true",
                        help="only report whether the profile is up to date (exit 1 if not)")
    args = parser.parse_args(argv)
    log_dirs = [d for d in (args.logs or DEFAULT_LOGS) if d.is_dir()]
    rules = read_records(log_dirs)
    if not rules:
        print("resources.py: error: no *.benchmark.tsv under "
              + ", ".join(str(d) for d in (args.logs or DEFAULT_LOGS)), file=sys.stderr)
        return 2
    try:
        old = args.profile.read_text()
        new = update_profile(old, render(rules))
    except (OSError, ValueError) as exc:
        print(f"resources.py: error: {args.profile}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if new != old:
            print(f"resources.py: {args.profile} is not up to date with the records", file=sys.stderr)
            return 1
        return 0
    args.profile.write_text(new)
    print(f"resources.py: {len(rules)} rules from "
          f"{sum(r.files for r in rules.values())} records written to {args.profile}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
