"""A measured dataset's files: raw files read once, how it was measured, its sample.

* :func:`read_measured` reads one raw tidy file once into its wall-time design and,
  when the file has a ``cpu_time`` column, the CPU times of the same iterations
  (:class:`MeasuredFile`), both with every iteration (warm-up included);
* :func:`read_conditions` reads how the dataset was measured (the machine's CPUs and
  load, the processes' share of a CPU) from its ``provenance.json`` and ``costs.json``;
* :func:`write_sample` cuts the small committed sample the tests run on
  (``python -m esize_study.datasets.measured sample SRC DST``), and
  :func:`write_session_sample` that of a dataset measured in sessions (``session-sample``).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from esize import Design, from_tidy

from .files import TIDY_COLUMNS, benchmark_design, read_table, warmup_for, write_parquet

__all__ = [
    "MeasuredFile",
    "read_measured",
    "read_conditions",
    "session_minutes",
    "session_spans",
    "minutes_to_measure",
    "read_provenance",
    "write_sample",
    "write_session_sample",
    "SAMPLE_SHAPE",
]

#: Binaries, executions and iterations (warm-up included) kept by :func:`write_sample`.
SAMPLE_SHAPE = (6, 4, 12)


@dataclass(frozen=True)
class MeasuredFile:
    """One raw benchmark file, read once.

    Attributes
    ----------
    path : str
        The file.
    design : Design
        The wall times of every iteration (warm-up included), three levels.
    cpu : Design or None
        The ``cpu_time`` column of the same iterations, or None when the file has
        none (or it holds a value that is not a positive number).
    """

    path: str
    design: Design
    cpu: Design | None

    @property
    def raw(self) -> int:
        """Iterations per execution, warm-up included."""
        return self.design.shape[-1]

    def warmup(self, fraction: float) -> int:
        """Iterations the pipeline drops from each execution (:func:`warmup_for`)."""
        return warmup_for(fraction, self.raw)

    def steady(self, warmup: int) -> Design:
        """The steady-state design, as the ``ingest`` rule makes it."""
        return self.design.trim(warmup)

    def steady_cpu(self, warmup: int) -> Design | None:
        """The steady-state CPU times, or None without them."""
        return None if self.cpu is None else self.cpu.trim(warmup)


def read_measured(path: str | Path) -> MeasuredFile:
    """Read one raw tidy file once: its wall-time design and its CPU times, if any.

    Raises
    ------
    esize.InputError
        When the file cannot be read or its times do not make a design
        (:func:`esize_study.datasets.files.benchmark_design`).
    """
    frame = read_table(path)
    return MeasuredFile(str(path), benchmark_design(frame, path), _cpu_design(frame))


def _cpu_design(frame) -> Design | None:
    """The ``cpu_time`` column as a design of every iteration, or None without it."""
    if "cpu_time" not in frame.columns:
        return None
    frame = frame.sort_values(["binary", "execution", "iteration"], kind="stable")
    d = from_tidy(frame, ["binary", "execution"], value="cpu_time")
    if np.any(~np.isfinite(d.data)) or np.any(d.data <= 0):
        return None
    return d


def read_provenance(path: str | Path) -> dict:
    """The ``provenance.json`` of a measured dataset's directory, or ``{}`` when it has
    none (or it is not a JSON object)."""
    try:
        prov = json.loads((Path(path) / "provenance.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return prov if isinstance(prov, dict) else {}


def session_spans(path: str | Path) -> list[dict]:
    """Each recorded session of a measured dataset (``sessions/*/session.json``):
    ``session``, ``sets`` (the sets it measured, or None when it records none: every
    set) and ``minutes`` (``builds_started`` to ``finished``, builds included). Sessions
    whose record cannot be read are left out."""
    from datetime import datetime

    out = []
    for f in sorted(Path(path).glob("sessions/*/session.json")):
        try:
            info = json.loads(f.read_text(encoding="utf-8"))
            t0 = datetime.fromisoformat(info["builds_started"])
            t1 = datetime.fromisoformat(info["finished"])
            sets = info.get("sets")
            out.append({"session": int(info["session"]),
                        "sets": list(sets) if isinstance(sets, list) else None,
                        "minutes": (t1 - t0).total_seconds() / 60})
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


def session_minutes(path: str | Path, sets: Sequence[str] | None = None) -> float | None:
    """The mean length in minutes of a measured dataset's sessions, builds included
    (:func:`session_spans`), or None when the directory records none. ``sets`` None:
    every session; else the sessions that recorded measuring exactly those sets."""
    spans = [s["minutes"] for s in session_spans(path)
             if sets is None or (s["sets"] is not None and sorted(s["sets"]) == sorted(sets))]
    return sum(spans) / len(spans) if spans else None


def minutes_to_measure(path: str | Path, files: Sequence[str], *,
                       spans: Sequence[Mapping] | None = None,
                       provenance: Mapping | None = None) -> float | None:
    """The mean length in minutes of the shortest kind of session that measured every
    one of ``files`` (data file stems, e.g. ``FFT NA plus3``): sessions grouped by the
    sets they recorded (:func:`session_spans`; provenance.json names each set's file).
    None when no recorded session measured them all. ``spans`` and ``provenance``,
    when given, are the directory's, already read."""
    spans = session_spans(path) if spans is None else spans
    prov = read_provenance(path) if provenance is None else provenance
    file_of = {s: i.get("file", s) for s, i in (prov.get("sets") or {}).items()
               if isinstance(i, Mapping)}
    kinds: dict[tuple | None, list[float]] = {}
    for s in spans:
        names = tuple(sorted(file_of.get(x, x) for x in s["sets"])) if s["sets"] else None
        kinds.setdefault(names, []).append(s["minutes"])
    means = [sum(m) / len(m) for names, m in kinds.items()
             if names is None or set(files) <= set(names)]
    return min(means) if means else None


def read_conditions(path: str | Path) -> dict:
    """How a measured dataset was measured, from the ``provenance.json`` and
    ``costs.json`` of its directory where present.

    Returns
    -------
    dict
        ``cpus`` (CPUs online, or None), ``load`` (mean 1-minute load average while
        the processes ran, or None) and ``cpu_shares`` (each benchmark's mean share
        of a CPU its processes got; empty when unknown).
    """
    path = Path(path)
    prov = read_provenance(path)
    cpus = (prov.get("machine") or {}).get("cpus_online")
    load = ((prov.get("load") or {}).get("process_load_before") or {}).get("mean")
    try:
        costs = json.loads((path / "costs.json").read_text(encoding="utf-8"))
        shares = [float(v["cpu_share"]["mean"]) for v in costs["sets"].values()
                  if isinstance(v.get("cpu_share"), Mapping)]
    except (OSError, ValueError, KeyError, TypeError):
        shares = []
    return {"cpus": cpus, "load": load, "cpu_shares": shares}


def _copy_files(src: Path, dst: Path, names: Sequence[str]) -> list[Path]:
    """Copy the files ``names`` of ``src`` that exist into ``dst``, unchanged."""
    out = []
    for name in names:
        if (src / name).is_file():
            shutil.copyfile(src / name, dst / name)
            out.append(dst / name)
    return out


def write_sample(src: str | Path, dst: str | Path, *, shape: tuple[int, int, int] = SAMPLE_SHAPE,
                 extra: Sequence[str] = ("cpu_time",), copy: Sequence[str] = ("costs.json", "history.json")) -> list[Path]:
    """Cut a small sample of a measured dataset: the first binaries, executions, iterations.

    Parameters
    ----------
    src, dst : path
        The dataset's directory and the sample's (created).
    shape : (int, int, int)
        Binaries, executions per binary and iterations per execution kept: those with
        the smallest labels (the first measured iterations, warm-up included).
    extra : sequence of str
        Columns kept beside ``binary, execution, iteration, time`` when present.
    copy : sequence of str
        Files copied unchanged (the measured costs, the history of its runs).

    Returns
    -------
    list of Path
        The files written, data files first.
    """
    src, dst = Path(src), Path(dst)
    dst.mkdir(parents=True, exist_ok=True)
    nb, ne, ni = shape
    written = []
    for path in sorted(p for p in src.iterdir() if p.suffix.lower() in (".parquet", ".csv")):
        frame = read_table(path)
        cols = [c for c in (*TIDY_COLUMNS, *extra) if c in frame.columns]
        frame = frame[cols].sort_values(["binary", "execution", "iteration"], kind="stable")
        binaries = sorted(frame["binary"].unique())[:nb]
        frame = frame[frame["binary"].isin(binaries)]
        rank = frame.groupby("binary")["execution"].rank(method="dense")
        frame = frame[rank <= ne]
        rank = frame.groupby(["binary", "execution"])["iteration"].rank(method="first")
        frame = frame[rank <= ni].reset_index(drop=True)
        out = dst / (path.stem + ".parquet")
        write_parquet(out, frame)
        written.append(out)
    return written + _copy_files(src, dst, copy)

def write_session_sample(src: str | Path, dst: str | Path, *, builds: int = 2,
                         executions: int = 3, extra: Sequence[str] = ("cpu_time",),
                         copy: Sequence[str] = ("costs.json", "history.json")) -> list[Path]:
    """Cut a small sample of a dataset measured in sessions (files with ``session``
    and ``build`` columns, ``binary`` numbered across sessions): in every session its
    first ``builds`` builds, each with its first ``executions`` executions and every
    iteration; binaries renumbered ``1 ..`` in (session, build) order, so the sample
    is balanced in all four levels. Files without a ``session`` column are skipped.

    Returns
    -------
    list of Path
        The files written, data files first.
    """
    src, dst = Path(src), Path(dst)
    dst.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted(p for p in src.iterdir() if p.suffix.lower() in (".parquet", ".csv")):
        frame = read_table(path)
        if "session" not in frame.columns:
            continue
        cols = [c for c in ("session", "build", *TIDY_COLUMNS, *extra) if c in frame.columns]
        frame = frame[cols]
        frame = frame[(frame["build"] <= builds) & (frame["execution"] <= executions)]
        frame = frame.sort_values(["session", "build", "execution", "iteration"], kind="stable")
        frame["binary"] = (frame["session"] - 1) * builds + frame["build"]
        out = dst / (path.stem + ".parquet")
        write_parquet(out, frame.reset_index(drop=True))
        written.append(out)
    return written + _copy_files(src, dst, copy)



def main(argv: Sequence[str] | None = None) -> int:
    """``python -m esize_study.datasets.measured sample SRC DST [--shape B E I]`` or
    ``... session-sample SRC DST [--builds B] [--executions E]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m esize_study.datasets.measured")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="cut a small sample of a measured dataset")
    s.add_argument("src")
    s.add_argument("dst")
    s.add_argument("--shape", nargs=3, type=int, default=list(SAMPLE_SHAPE),
                   metavar=("BINARIES", "EXECUTIONS", "ITERATIONS"))
    ss = sub.add_parser("session-sample",
                        help="cut a small sample of a dataset measured in sessions")
    ss.add_argument("src")
    ss.add_argument("dst")
    ss.add_argument("--builds", type=int, default=2, help="builds kept per session")
    ss.add_argument("--executions", type=int, default=3, help="executions kept per build")
    args = parser.parse_args(argv)
    if args.command == "session-sample":
        files = write_session_sample(args.src, args.dst, builds=args.builds,
                                     executions=args.executions)
    else:
        files = write_sample(args.src, args.dst, shape=tuple(args.shape))
    total = sum(f.stat().st_size for f in files)
    print(json.dumps({"files": len(files), "bytes": total}), file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

