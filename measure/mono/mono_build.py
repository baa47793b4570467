"""The Mono benchmarks: their sets, the randomised layout of a build, building one.

A *set* is one benchmark variant measured as its own file: the paper's ten (FFT,
FFT NA, Rijndael, TCP Ping and HTTP Ping, each with Mono's default optimisations and
with ``-O=all``, "OPT") and the known-effect variants of FFT NA and Rijndael
(``-plus0`` an independent set of builds of the unchanged program, ``-plus1`` and
``-plus3`` with 1 % and 3 % more inner work, counted).

A *build* compiles the benchmark's C# sources anew with ``mcs`` into ``bench.exe``.
Rebuilding Mono itself per build (the paper's binary level, 20 minutes a build) is
out of reach here; what a build changes instead is what the JIT lays out, drawn from
the build's seed alone (:func:`layout_plan`):

* the order of the source files on the compiler's command line (the order of the
  types and methods in the assembly's metadata);
* a code pad: ``Pad.cs`` holds a random number of methods of random length, which
  the program JIT-compiles first thing (``Pad.Warm``), in a random order, so the
  benchmark's own methods land at other addresses of the JIT's code memory;
* a data pad: ``Pad.Warm`` also allocates and keeps a byte array of random size
  before anything else, which moves every later allocation of the managed heap.

The pilot (``mono.py pilot``) measures what this does to the time: the build
level's variance with randomised builds beside plain builds (no pads, the same file
order) of the same program.
"""

from __future__ import annotations

import hashlib
import shlex
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from measure import parse_count

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"

#: Programs: their C# sources (besides the generated ``Config.cs`` and ``Pad.cs``).
PROGRAMS: dict[str, tuple[str, ...]] = {
    "fft": ("Harness.cs", "FftMain.cs", "FftCore.cs", "FftBitrev.cs"),
    "rijndael": ("Harness.cs", "RijndaelMain.cs", "RijndaelKey.cs"),
    "ping": ("Harness.cs", "PingMain.cs", "PingProtocol.cs"),
}
#: The paper's benchmarks: program and the constants compiled in.
BENCHMARKS: dict[str, dict] = {
    "fft": {"program": "fft", "variant": "fft", "allocate": True, "paper": "FFT"},
    "fftna": {"program": "fft", "variant": "fftna", "allocate": False, "paper": "FFT NA"},
    "rijndael": {"program": "rijndael", "variant": "rijndael", "allocate": False,
                 "paper": "Rijndael"},
    "tcp": {"program": "ping", "variant": "tcp", "allocate": False, "paper": "TCP"},
    "http": {"program": "ping", "variant": "http", "allocate": False, "paper": "HTTP"},
}
#: Benchmarks whose work is a whole number of rounds of 100 (known effects possible).
VARIANT_CAPABLE = ("fft", "fftna", "rijndael")
#: Benchmarks of two processes (the measured client starts its server).
TWO_PROCESS = ("tcp", "http")


def sets(cfg: Mapping) -> dict[str, dict]:
    """Every set: ``<benchmark>`` and ``<benchmark>-opt`` for each benchmark, then the
    known-effect variants ``<benchmark>-plus<N>`` (default optimisations). ``file`` is
    the name of the dataset's file of the set: the paper's name of the benchmark
    (``FFT NA OPT``), so that the study sets the paper's numbers beside it, or
    ``FFT NA plus3`` for a known-effect variant."""
    out = {}
    for b in cfg["benchmarks"]:
        for opt in (False, True):
            name = f"{b}-opt" if opt else b
            paper = BENCHMARKS[b]["paper"] + (" OPT" if opt else "")
            out[name] = {"benchmark": b, "opt": opt, "permille": 0, "family": name,
                         "paper": paper, "file": paper}
    for b, permilles in cfg["variants"].items():
        for p in permilles:
            out[f"{b}-plus{p // 10}"] = {"benchmark": b, "opt": False, "permille": p,
                                         "family": b, "paper": None,
                                         "file": f"{BENCHMARKS[b]['paper']} plus{p // 10}"}
    return out


def runtime_options(cfg: Mapping, opt: bool) -> list[str]:
    """Mono's options for a set: the OPT flags or none."""
    return list(cfg["opt_flags"]) if opt else []


def layout_plan(seed: int, benchmark: str, layout: Mapping, randomise: bool = True) -> dict:
    """The layout of one build, a function of ``seed`` alone (and the configuration).

    Draws, in this order, from ``Generator(PCG64(seed))``: the permutation of the
    source files, the number of pad methods (0 .. ``pad_methods_max``), each pad
    method's length in statements (1 .. ``pad_statements_max``), the order in which
    they are called, and the data pad in bytes (0 .. ``data_pad_max``). With
    ``randomise`` False: the files in their listed order and no pads (a plain build).
    """
    files = [*PROGRAMS[BENCHMARKS[benchmark]["program"]], "Config.cs", "Pad.cs"]
    if not randomise:
        return {"seed": int(seed), "file_order": files, "pad_methods": [], "call_order": [],
                "data_pad": 0, "randomised": False}
    rng = np.random.Generator(np.random.PCG64(seed))
    order = [files[i] for i in rng.permutation(len(files))]
    k = int(rng.integers(0, layout["pad_methods_max"] + 1))
    lengths = [int(x) for x in rng.integers(1, layout["pad_statements_max"] + 1, size=k)]
    calls = [int(x) for x in rng.permutation(k)]
    data = int(rng.integers(0, layout["data_pad_max"] + 1))
    return {"seed": int(seed), "file_order": order, "pad_methods": lengths,
            "call_order": calls, "data_pad": data, "randomised": True}


def config_source(benchmark: str, permille: int, input_seed: int, options: list[str],
                  mono: str) -> str:
    """``Config.cs``: the constants a build compiles in."""
    b = BENCHMARKS[benchmark]
    return (
        "// Generated per build by measure/mono/mono_build.py.\n"
        "static class Config\n{\n"
        f"    public const ulong InputSeed = {input_seed}UL;\n"
        f"    public const int ExtraPermille = {permille};\n"
        f"    public const string Variant = \"{b['variant']}\";\n"
        f"    public const bool Allocate = {'true' if b['allocate'] else 'false'};\n"
        f"    public const string RuntimeOptions = \"{' '.join(options)}\";\n"
        f"    public const string MonoPath = \"{mono}\";\n"
        "}\n")


def pad_source(plan: Mapping) -> str:
    """``Pad.cs``: the pad methods (called once, in the plan's order) and the data pad."""
    lines = ["// Generated per build by measure/mono/mono_build.py: layout padding.",
             "static class Pad", "{",
             "    public static byte[] Data;", "    public static long Sink;", ""]
    for i, n in enumerate(plan["pad_methods"]):
        lines.append(f"    static long P{i}(long x)")
        lines.append("    {")
        for j in range(n):
            lines.append(f"        x = x * {2 * (i + j) + 3} + {j + 1};")
        lines.append("        return x;")
        lines.append("    }")
    lines.append("    public static void Warm()")
    lines.append("    {")
    lines.append(f"        Data = new byte[{plan['data_pad']}];")
    lines.append("        long x = 1;")
    for i in plan["call_order"]:
        lines.append(f"        x = P{i}(x);")
    lines.append("        Sink = x;")
    lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def compile_command(cfg: Mapping, plan: Mapping) -> list[str]:
    """The compiler's command line, run in the build's directory (relative paths)."""
    return [cfg["mcs"], *cfg["mcs_flags"], "-out:bench.exe", *plan["file_order"]]


def run_command(cfg: Mapping, opt: bool, iterations: int | str) -> list[str]:
    """How a build's program runs, in its directory."""
    return [cfg["mono"], *runtime_options(cfg, opt), "bench.exe", str(iterations)]


def _checked(cmd, cwd: Path, what: str, env=None) -> subprocess.CompletedProcess:
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    except (OSError, subprocess.SubprocessError) as exc:
        raise BuildError(f"{what}: cannot run {cmd[0]}: {exc}") from None
    if p.returncode != 0:
        raise BuildError(f"{what}: {shlex.join(cmd)} exited {p.returncode}: "
                         f"{' '.join((p.stderr or p.stdout).split())[:300]}")
    return p


class BuildError(RuntimeError):
    """A build or its check run failed."""


def build_one(cfg: Mapping, info: Mapping, seed: int, bindir: Path, input_seed: int,
              randomise: bool = True) -> dict:
    """Write the sources of one build into ``bindir``, compile, run ``--count``; its record."""
    bench = info["benchmark"]
    plan = layout_plan(seed, bench, cfg["layout"], randomise)
    if bindir.exists():
        shutil.rmtree(bindir)
    bindir.mkdir(parents=True)
    prog = BENCHMARKS[bench]["program"]
    for f in PROGRAMS[prog]:
        shutil.copyfile(SRC / f, bindir / f)
    opts = runtime_options(cfg, info["opt"])
    (bindir / "Config.cs").write_text(config_source(bench, info["permille"], input_seed, opts,
                                                    cfg["mono_path"]))
    (bindir / "Pad.cs").write_text(pad_source(plan))
    cmd = compile_command(cfg, plan)
    t0 = time.perf_counter()
    _checked(cmd, bindir, f"build {bindir.name}")
    seconds = time.perf_counter() - t0
    p = _checked(run_command(cfg, info["opt"], "--count"), bindir, f"build {bindir.name}")
    units, checksum = parse_count(p.stdout, str(bindir))
    data = (bindir / "bench.exe").read_bytes()
    return {"benchmark": bench, "opt": info["opt"], "permille": info["permille"], **plan,
            "build_seconds": seconds, "units_per_iteration": units,
            "checksum_one_iteration": checksum,
            "sha256": hashlib.sha256(data).hexdigest(), "size_bytes": len(data),
            "command": shlex.join(cmd)}

