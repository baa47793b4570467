"""Benchmark: `esize summary` on a large tidy table against pyarrow reading and grouping it.

Writes a tidy table of ``--rows`` rows (default 1e7) as CSV and as Parquet: columns
``binary`` (10 labels), ``execution`` (100 labels per binary) and ``time``
(log-normal values printed with 9 significant digits), rows grouped as a harness
writes them (``--shuffle`` mixes them). For each file it runs, each in a subprocess of
its own and ``--repeat`` times (the best kept):

* ``esize summary FILE`` (text output to /dev/null);
* the baseline: pyarrow reads the same file and computes the count, mean and variance
  of every (binary, execution) group (``pyarrow.Table.group_by``), the least work any
  analysis of the table needs.

It prints the wall time and the peak resident memory (of that process alone, from
``os.wait4``) of both, their ratio, and the peak memory per row of the table. Not a
test: run it with ``make bench`` (``--rows 1e6`` for a quick check).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINE = """
import sys
import pyarrow as pa, pyarrow.csv as pcsv, pyarrow.parquet as pq
path = sys.argv[1]
t = pq.read_table(path) if path.endswith(".parquet") else pcsv.read_csv(path)
g = t.group_by(["binary", "execution"]).aggregate(
    [("time", "count"), ("time", "mean"), ("time", "variance")])
print(g.num_rows)
"""


def write_tables(folder: Path, rows: int, *, seed: int, shuffle: bool) -> tuple[Path, Path]:
    """A tidy CSV and the same table as Parquet, of ``rows`` rows (a multiple of 1000)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    binaries, executions = 10, 100
    per = rows // (binaries * executions)
    n = per * binaries * executions
    rng = np.random.default_rng(seed)
    # a binary's, an execution's and a measurement's factor, as the model's three levels
    b = np.repeat(np.arange(binaries), executions * per)
    e = np.repeat(np.arange(executions), per)
    e = np.tile(e, binaries)
    level = (rng.lognormal(0, 0.05, binaries)[b]
             * rng.lognormal(0, 0.02, binaries * executions)[b * executions + e])
    time_ = np.round(1e-3 * level * rng.lognormal(0, 0.01, n), 12)
    if shuffle:
        order = rng.permutation(n)
        b, e, time_ = b[order], e[order], time_[order]
    labels_b = np.array([f"b{k:02d}" for k in range(binaries)])
    labels_e = np.array([f"e{k:03d}" for k in range(executions)])
    table = pa.table({
        "binary": pa.array(labels_b[b]),
        "execution": pa.array(labels_e[e]),
        "time": pa.array(time_),
    })
    csv, parquet = folder / "tidy.csv", folder / "tidy.parquet"
    pcsv.write_csv(table, csv, write_options=pcsv.WriteOptions(quoting_style="none"))
    pq.write_table(table, parquet)
    return csv, parquet


def write_in_child(folder: Path, rows: int, seed: int, shuffle: bool) -> None:
    """:func:`write_tables` in a process of its own: a process started by this one
    begins as a copy of it, and its peak memory would count this one's tables."""
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import bench_tidy; "
            f"bench_tidy.write_tables(__import__('pathlib').Path({str(folder)!r}), {rows}, "
            f"seed={seed}, shuffle={shuffle})")
    subprocess.run([sys.executable, "-c", code], check=True)


def measure(cmd: list[str], repeat: int) -> tuple[float, int]:
    """Best wall time (s) and largest peak RSS (bytes) of ``cmd`` over ``repeat`` runs."""
    best, peak = float("inf"), 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed with exit status {proc.returncode}")
        best = min(best, wall)
        peak = max(peak, usage.ru_maxrss * 1024)  # kilobytes on Linux
    return best, peak


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=1e7, help="rows of the table (default 1e7)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each command (best kept)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the generated values")
    ap.add_argument("--shuffle", action="store_true", help="rows in random order")
    args = ap.parse_args()
    esize = str(Path(sys.executable).with_name("esize"))
    with tempfile.TemporaryDirectory() as tmp:
        write_in_child(Path(tmp), int(args.rows), args.seed, args.shuffle)
        csv, parquet = Path(tmp, "tidy.csv"), Path(tmp, "tidy.parquet")
        n = int(args.rows) // 1000 * 1000
        print(f"tidy table of {n:,} rows (10 binaries x 100 executions x {n // 1000:,} "
              f"measurements{', shuffled' if args.shuffle else ''}); best of {args.repeat}")
        print(f"{'file':8} {'command':30} {'wall s':>8} {'peak MiB':>9} {'B/row':>7}")
        for path in (csv, parquet):
            kind = path.suffix[1:]
            base = measure([sys.executable, "-c", BASELINE, str(path)], args.repeat)
            ours = measure([esize, "summary", str(path)], args.repeat)
            for name, (wall, rss) in (("pyarrow read + group-by", base),
                                      ("esize summary", ours)):
                print(f"{kind:8} {name:30} {wall:8.2f} {rss / 2**20:9.0f} {rss / n:7.1f}")
            print(f"{kind:8} {'ratio esize / pyarrow':30} {ours[0] / base[0]:8.2f} "
                  f"{ours[1] / base[1]:9.2f}")


if __name__ == "__main__":
    main()
