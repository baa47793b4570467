"""Benchmark: start-up cost of the library and of the command line.

Prints, best of ``--repeat`` runs in fresh interpreters, the wall time of
``python -c "import numpy"``, ``python -c "import esize"`` and ``esize --version``,
their ratios, and which heavy modules ``import esize`` loads (it should load none of
scipy.stats, pandas, pyarrow, matplotlib, joblib, snakemake, tqdm). Not a test: run
it with ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HEAVY = ("scipy.stats", "scipy.special", "pandas", "pyarrow", "matplotlib", "joblib",
         "snakemake", "tqdm")


def wall(cmd: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t0)
    return best


def loaded(module: str) -> list[str]:
    code = (f"import sys, json, {module}; "
            f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    py = sys.executable
    numpy_t = wall([py, "-c", "import numpy"], args.repeat)
    esize_t = wall([py, "-c", "import esize"], args.repeat)
    cli_t = wall([str(Path(py).with_name("esize")), "--version"], args.repeat)
    print(f"python -c 'import numpy':  {numpy_t:.3f} s")
    print(f"python -c 'import esize':  {esize_t:.3f} s  ({esize_t / numpy_t:.2f}x numpy)")
    print(f"esize --version:           {cli_t:.3f} s  ({cli_t / numpy_t:.2f}x numpy)")
    for m in ("esize", "esize.readers", "esize.cli"):
        print(f"heavy modules loaded by 'import {m}': {', '.join(loaded(m)) or 'none'}")


if __name__ == "__main__":
    main()
