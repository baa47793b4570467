"""Helpers of the command-line tests: the paper's worked examples as tidy tables,
running ``esize`` in-process or as ``python -m esize``, and checking error lines.

The worked examples are those of Kalibera & Jones, "Quantifying Performance Changes
with Effect Size Confidence Intervals", Section "For Practitioners: The New Method
without Statistics": one experiment of three binaries x two executions x two
measurements, the same data read as two levels, and an old and a new system
compared with each other.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from esize.cli import main

SRC = Path(__file__).resolve().parents[2] / "src"


# Student's t quantile t_{0.975, 2} (3 binaries -> 2 degrees of freedom).
T975_2DF = 4.302652729911275


# -- the worked examples (Section "For Practitioners: The New Method without Statistics")
# binary -> execution -> measurements
WE_DATA = [  # the three-level example
    [[9, 5], [8, 3]],
    [[10, 6], [7, 11]],
    [[1, 12], [2, 4]],
]


WE2_DATA = [  # the same data as two levels (execution level dropped)
    [9, 8, 5, 3],
    [10, 7, 6, 11],
    [1, 2, 12, 4],
]


WQE_OLD = [  # the comparison example, old system
    [[9, 11], [5, 6]],
    [[16, 13], [12, 8]],
    [[15, 7], [10, 14]],
]


WQE_NEW = [  # the comparison example, new system
    [[10, 12], [6, 7]],
    [[9, 1], [11, 4]],
    [[8, 5], [3, 2]],
]


# -- helpers ----------------------------------------------------------------------
def tidy(data, levels=("binary", "execution"), value="time", **extra) -> pd.DataFrame:
    """A tidy frame (one row per measurement) from nested lists / an ndarray."""
    arr = np.asarray(data, dtype=float)
    assert arr.ndim == len(levels) + 1
    rows = []
    for idx in np.ndindex(arr.shape):
        row = {name: idx[k] + 1 for k, name in enumerate(levels)}
        row[value] = arr[idx]
        row.update(extra)
        rows.append(row)
    return pd.DataFrame(rows)


def write_csv(path: Path, data, **kw) -> Path:
    frame = data if isinstance(data, pd.DataFrame) else tidy(data, **kw)
    frame.to_csv(path, index=False)
    return path


def write_rows(path: Path, header: str, rows: list[str]) -> Path:
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def cli(argv, capsys):
    """Run ``main`` in-process; return (exit code, stdout, stderr)."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse usage errors, --version, --help
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def cli_json(argv, capsys) -> dict:
    code, out, err = cli([*argv, "--json"], capsys)
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def _module_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(SRC), env.get("PYTHONPATH", "")] if p)
    return env


def run_modules(arg_lists, cwd) -> list[tuple[int, str, str]]:
    """Run ``python -m esize`` (``src`` on the path, installed or not) once per
    argument list, concurrently; return (exit code, stdout, stderr) of each."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "esize", *map(str, args)],
            cwd=cwd,
            env=_module_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in arg_lists
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        results.append((proc.returncode, out, err))
    return results


def assert_one_line_error(code, out, err, *, file=None, words=()):
    """Exit status 2, exactly one non-empty stderr line naming the file and the problem."""
    assert code == 2, (code, out, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert line.strip(), err
    assert out == "", out
    if file is not None:
        assert Path(file).name in line, line
    if words:
        low = line.lower()
        assert any(w.lower() in low for w in words), line
    return line


def synthetic_pair(factor, noise=1e-3, n_bin=10, seed=7):
    """Old system with real binary/execution/measurement variation; new = old * factor."""
    rng = np.random.default_rng(seed)
    b = rng.normal(0, 3.0, size=(n_bin, 1, 1))
    e = rng.normal(0, 2.0, size=(n_bin, 3, 1))
    m = rng.normal(0, 1.0, size=(n_bin, 3, 4))
    old = 100.0 + b + e + m
    new = old * factor * (1.0 + rng.normal(0, noise, size=old.shape))
    return old, new


def we_rows():
    rows = []
    for b, ex in enumerate(WE_DATA, 1):
        for e, ms in enumerate(ex, 1):
            rows += [f"{b},{e},{m}" for m in ms]
    return rows


HEADER = "binary,execution,time"


def bad_value_file(tmp_path, name, text):
    rows = we_rows()
    rows[3] = f"1,2,{text}"
    return write_rows(tmp_path / name, HEADER, rows)


def run_json(argv, capsys) -> tuple[dict, str]:
    """Run ``main`` with ``--json``; return the parsed output and stderr."""
    code, out, err = cli([*argv, "--json"], capsys)
    assert code == 0, err
    return json.loads(out), err


def mknod_char(path: Path, major: int, minor: int) -> Path:
    """A character device node at ``path`` (in a test's own directory, so that no device
    of the machine is ever the target), or a skip where nodes cannot be made."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
    except PermissionError:
        pytest.skip("making a device node needs root (CI runs as root)")
    return path
