"""Small, hand-made result files of JMH, Google Benchmark and hyperfine.

They follow the structure the harnesses document for their JSON output (only the
fields esize reads, plus a few the harnesses always write), with numbers drawn
from a seeded hierarchical model and rounded, so the tests can rebuild the expected
designs by hand. ``python tests/harness_data.py DIR`` writes them as
``{jmh,gbench,hyperfine}-{old,new}.json``; copies live in ``tests/data/harness``
and are used by the README's examples (``tests/readers/test_readers_common.py``
checks they are current).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

SYSTEMS = ("old", "new")


def _hier(rng, mean, shape, sd_top, sd_low, digits=4):
    """``mean`` times (1 + top effect) (1 + low noise), rounded; shape (n_top, n_low)."""
    top = rng.normal(0.0, sd_top, size=(shape[0], 1))
    low = rng.normal(0.0, sd_low, size=shape)
    x = mean * (1.0 + top) * (1.0 + low)
    return np.round(x, digits)


# -- JMH (-rf json) -------------------------------------------------------------------
def jmh_results(system: str) -> list[dict]:
    """Four results: throughput with two params, average time, and sample time."""
    rng = np.random.default_rng({"old": 11, "new": 12}[system])
    speed = {"old": 1.0, "new": 1.08}[system]  # new: 8 % more work per time unit
    out = []
    for size, base in (("10", 5200.0), ("1000", 61.0)):
        raw = _hier(rng, base * speed, (3, 5), 0.02, 0.01, digits=3)
        out.append(
            _jmh_entry(
                "org.example.ListBench.add", "thrpt", "ops/ms", {"size": size}, raw.tolist()
            )
        )
    raw = _hier(rng, 184.0 / speed, (3, 5), 0.015, 0.01, digits=2)
    out.append(_jmh_entry("org.example.ListBench.get", "avgt", "ns/op", None, raw.tolist()))
    # sample time: per fork, per iteration, a histogram of [value, count] pairs
    hist = []
    for _ in range(3):
        fork_shift = rng.normal(0.0, 0.02)
        fork = []
        for _ in range(4):
            vals = np.round(12.5 * (1 + fork_shift) * rng.uniform(0.9, 1.2, size=3), 2)
            counts = rng.integers(50, 400, size=3)
            fork.append([[float(v), int(c)] for v, c in zip(vals, counts)])
        hist.append(fork)
    out.append(_jmh_entry("org.example.ListBench.iterate", "sample", "us/op", None, None, hist))
    return out


def _jmh_entry(name, mode, unit, params, raw, hist=None) -> dict:
    flat = (
        [v for fork in raw for v in fork]
        if raw is not None
        else [v for fork in hist for it in fork for v, c in it for _ in range(c)]
    )
    entry = {
        "jmhVersion": "1.37",
        "benchmark": name,
        "mode": mode,
        "threads": 1,
        "forks": len(raw if raw is not None else hist),
        "jvm": "/opt/jdk-21/bin/java",
        "jvmArgs": [],
        "jdkVersion": "21.0.2",
        "vmName": "OpenJDK 64-Bit Server VM",
        "vmVersion": "21.0.2+13",
        "warmupIterations": 3,
        "warmupTime": "1 s",
        "warmupBatchSize": 1,
        "measurementIterations": len((raw if raw is not None else hist)[0]),
        "measurementTime": "1 s",
        "measurementBatchSize": 1,
    }
    if params:
        entry["params"] = params
    metric = {
        "score": round(float(np.mean(flat)), 4),
        "scoreError": round(float(np.std(flat)), 4),
        "scoreConfidence": [round(float(np.min(flat)), 4), round(float(np.max(flat)), 4)],
        "scorePercentiles": {"0.0": float(np.min(flat)), "50.0": float(np.median(flat)),
                             "100.0": float(np.max(flat))},
        "scoreUnit": unit,
    }
    if raw is not None:
        metric["rawData"] = raw
    else:
        metric["rawDataHistogram"] = hist
    entry["primaryMetric"] = metric
    entry["secondaryMetrics"] = {}
    return entry


# -- Google Benchmark (--benchmark_format=json) -------------------------------------------
def gbench_results(system: str) -> dict:
    """Three benchmarks, five repetitions each, followed by their aggregates."""
    rng = np.random.default_rng({"old": 21, "new": 22}[system])
    factor = {"old": 1.0, "new": 0.93}[system]
    rows = []
    for family, (name, base, unit) in enumerate(
        (("BM_Sort/1024", 41200.0, "ns"), ("BM_Sort/65536", 4150.0, "us"), ("BM_Hash", 88.0, "ns"))
    ):
        f = factor if name.startswith("BM_Sort") else 1.0
        real = np.round(base * f * (1 + rng.normal(0, 0.012, size=5)), 2)
        cpu = np.round(real * (1 - np.abs(rng.normal(0, 0.004, size=5))), 2)
        for rep in range(5):
            rows.append(
                {
                    "name": name,
                    "family_index": family,
                    "per_family_instance_index": 0,
                    "run_name": name,
                    "run_type": "iteration",
                    "repetitions": 5,
                    "repetition_index": rep,
                    "threads": 1,
                    "iterations": 1000,
                    "real_time": float(real[rep]),
                    "cpu_time": float(cpu[rep]),
                    "time_unit": unit,
                }
            )
        for agg, fn in (("mean", np.mean), ("median", np.median), ("stddev", np.std)):
            rows.append(
                {
                    "name": f"{name}_{agg}",
                    "family_index": family,
                    "per_family_instance_index": 0,
                    "run_name": name,
                    "run_type": "aggregate",
                    "repetitions": 5,
                    "threads": 1,
                    "aggregate_name": agg,
                    "aggregate_unit": "time",
                    "iterations": 5,
                    "real_time": round(float(fn(real)), 3),
                    "cpu_time": round(float(fn(cpu)), 3),
                    "time_unit": unit,
                }
            )
    return {
        "context": {
            "date": "2024-05-02T10:00:00+00:00",
            "host_name": "bench-host",
            "executable": "./build/bench",
            "num_cpus": 8,
            "mhz_per_cpu": 3000,
            "cpu_scaling_enabled": False,
            "library_build_type": "release",
        },
        "benchmarks": rows,
    }


# -- hyperfine (--export-json) ------------------------------------------------------------
def hyperfine_results(system: str) -> dict:
    """Two commands, twelve runs each (times in seconds)."""
    rng = np.random.default_rng({"old": 31, "new": 32}[system])
    results = []
    for command, base in (("./prog parse big.txt", 0.842), ("./prog render big.txt", 1.913)):
        f = {"old": 1.0, "new": 0.95 if "parse" in command else 1.0}[system]
        times = np.round(base * f * (1 + rng.normal(0, 0.015, size=12)), 5)
        results.append(
            {
                "command": command,
                "mean": round(float(times.mean()), 6),
                "stddev": round(float(times.std(ddof=1)), 6),
                "median": round(float(np.median(times)), 6),
                "user": round(float(times.mean() * 0.9), 6),
                "system": round(float(times.mean() * 0.08), 6),
                "min": float(times.min()),
                "max": float(times.max()),
                "times": times.tolist(),
                "exit_codes": [0] * 12,
            }
        )
    return {"results": results}


BUILDERS = {"jmh": jmh_results, "gbench": gbench_results, "hyperfine": hyperfine_results}


def write_all(directory) -> dict[str, Path]:
    """Write every file into ``directory``; return ``{"jmh-old": path, ...}``."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    paths = {}
    for fmt, build in BUILDERS.items():
        for system in SYSTEMS:
            p = d / f"{fmt}-{system}.json"
            p.write_text(json.dumps(build(system), indent=2) + "\n")
            paths[f"{fmt}-{system}"] = p
    return paths


if __name__ == "__main__":  # pragma: no cover
    write_all(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "data" / "harness")
