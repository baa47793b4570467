"""Property-based tests of the families of hostile input that ``test_fuzz`` does not mutate
(issue 43): the other readers' files, tidy cells on both read routes, options with odd
values, FIFOs and device nodes as inputs and outputs, outputs inside input directories,
and study configurations for ``check-config``.

The oracle is ``test_fuzz``'s: exit 0 with a result, or exit 2 with one stderr line
naming the file (or the option); no traceback, no hang (a time limit per case), no
changed input, nothing written but the output. A configuration built to be wrong is
never accepted. ``HYPOTHESIS_PROFILE=fuzz-long`` runs many more examples of each.

Devices and FIFOs are nodes made in a temporary directory, never the machine's own.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import select
import shutil
import stat
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from esize.readers import _tidy_arrow as fast
from esize.readers import tidy as tidy_reader
from esize_study.datasets import config as dconf

from .test_fuzz import (
    EXTREME_NUMBERS,
    EXTREME_TEXT,
    FUZZ,
    LIMIT,
    MUTATIONS,
    check_outcome,
    invoke,
    mutate_doc,
    tidy_csv,
    time_limit,
)

REPO = Path(__file__).resolve().parents[2]
REAL = REPO / "tests" / "data" / "real"
MADE = REPO / "tests" / "data" / "made-here"
EXAMPLES = REPO / "examples"
CRITERION = REAL / "criterion-deduplicate" / "get" / "deduplicate get" / "0"

#: True under ``HYPOTHESIS_PROFILE=fuzz-long``.
LONG = FUZZ.max_examples > 1000


def examples(ci: int, long: int) -> settings:
    """The fuzz profile with ``ci`` examples (``long`` in the long profile)."""
    return settings(FUZZ, max_examples=long if LONG else ci)


# -- the oracle -----------------------------------------------------------------------------
def _tree_digest(paths) -> dict:
    """Kind and content hash of every path given and of everything below a directory."""
    out = {}
    for p in map(Path, paths):
        for q in [p, *sorted(p.rglob("*"))] if p.is_dir() and not p.is_symlink() else [p]:
            st_ = os.lstat(q)
            if stat.S_ISREG(st_.st_mode):
                out[str(q)] = hashlib.sha256(q.read_bytes()).hexdigest()
            else:
                out[str(q)] = (stat.S_IFMT(st_.st_mode), st_.st_rdev)
    return out


def _listing(directory: Path) -> set:
    return {p.relative_to(directory).as_posix() for p in directory.rglob("*")}


def check_case(argv, inputs, capsys, directory: Path, *, named=(), outputs=()):
    """Run ``esize`` in-process; check the oracle; return (code, out, err).

    ``named``: words one of which an error line must hold (default: the inputs'
    names); ``outputs``: the paths the run may create (when it exits 0).
    """
    before = _tree_digest(inputs)
    listing = _listing(directory)
    code, out, err = invoke(argv, capsys)
    words = list(named) or [Path(str(p).partition("@")[0]).name for p in inputs]
    check_outcome(code, out, err, words, f"the error names none of {words}: {err}")
    assert _tree_digest(inputs) == before, "an input changed"
    allowed = listing | ({Path(o).relative_to(directory).as_posix() for o in outputs}
                         if code == 0 else set())
    assert _listing(directory) <= allowed, "a file was written that is not the output"
    return code, out, err


# -- 1. the other readers' files, mutated ---------------------------------------------------
JSON_SEEDS = {
    "pytest-benchmark": [REAL / "pytest-benchmark-fib-cut.json",
                         REAL / "pytest-benchmark-sleep-cut.json"],
    "julia": [REAL / "julia-fib-trialestimates.json",
              REAL / "julia-cardiac-simtimings-old.json",
              REAL / "julia-pkgbenchmark-astarsearch-cut.json"],
    "asv": [MADE / "asv-sortbench-old.json"],
    "benchmarkdotnet": [REAL / "benchmarkdotnet-fib-trimmed.json"],
    "criterion-sample": [CRITERION / "new" / "sample.json"],
    "criterion-benchmark": [CRITERION / "new" / "benchmark.json"],
}
TEXT_SEEDS = [REAL / "gotest-crc32-old.txt", REAL / "gotest-bent-base.txt",
              MADE / "gotest-fib-sort-3invocations.txt"]


def _mutate_doc(draw, doc):
    return mutate_doc(draw, doc, MUTATIONS[:4])  # the four it always drew: no scaling


def _damage(draw, data: bytes) -> bytes:
    if not data or not draw(st.booleans()):
        return data
    k = draw(st.integers(0, len(data) - 1))
    if draw(st.booleans()):
        return data[:k]
    return data[:k] + bytes([draw(st.integers(0, 255))]) + data[k + 1:]


def _mutate_text(draw, text: str) -> str:
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["field", "drop", "repeat", "unit"]))
        if action == "field":
            fields = lines[i].split()
            if fields:
                j = draw(st.integers(0, len(fields) - 1))
                fields[j] = draw(st.one_of(EXTREME_TEXT, EXTREME_NUMBERS.map(repr)))
                lines[i] = "\t".join(fields)
        elif action == "drop":
            del lines[i]
        elif action == "repeat":
            lines.insert(i, lines[i])
        else:
            lines[i] = lines[i].replace("ns/op", draw(st.sampled_from(
                ["s/op", "ms/op", "xs/op", "ns/op ns/op", "", "B/op"])))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\r\n"]))


@st.composite
def other_reader_file(draw):
    """(format, the seed file, the mutated bytes)."""
    fmt = draw(st.sampled_from([*sorted(JSON_SEEDS), "gotest"]))
    if fmt == "gotest":
        seed = draw(st.sampled_from(TEXT_SEEDS))
        data = _mutate_text(draw, seed.read_text()).encode("utf-8", "surrogatepass")
    else:
        seed = draw(st.sampled_from(JSON_SEEDS[fmt]))
        raw = seed.read_bytes()
        doc = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
        data = json.dumps(_mutate_doc(draw, doc)).encode()
    return fmt, seed, _damage(draw, data)


@examples(50, 1500)
@given(case=other_reader_file(), command=st.sampled_from(["summary", "compare", "plan"]),
       normal=st.booleans())
def test_other_readers_files_never_crash(case, command, normal, tmp_path_factory, capsys):
    fmt, seed, data = case
    d = tmp_path_factory.mktemp("other")
    if fmt.startswith("criterion"):
        root = d / "crit"
        for side in ("new", "base"):
            shutil.copytree(CRITERION / "new", root / "bench" / side)
        (root / "bench" / "new" / seed.name).write_bytes(data)
        bad, good = f"{root}@new", f"{root}@base"
        inputs = [root]
    else:
        bad = d / f"bad{seed.suffix}"
        bad.write_bytes(data)
        good = d / f"good{seed.suffix}"
        good.write_bytes(seed.read_bytes())
        inputs = [good, bad]
    extra = ["--assume-no-fork-variance"] if command == "compare" and normal else []
    argv = {"summary": ["summary", bad, *(["--normal"] if normal else [])],
            "compare": ["compare", good, bad, "--seed", "1", "--resamples", "500", *extra],
            "plan": ["plan", bad, "--costs", "10,100"]}[command]
    out = d / "out.json"
    check_case([*argv, "-o", out], inputs, capsys, d, outputs=[out])


# -- 2. tidy cells on both read routes ------------------------------------------------------
def _slow(*args, **kwargs):
    raise fast._Fallback


@contextmanager
def route(which: str):
    """Read tidy tables by pyarrow (``fast``, every size) or by the standard library."""
    with pytest.MonkeyPatch.context() as mp:
        if which == "fast":
            mp.setattr(fast, "FAST_MIN_BYTES", 0)
        else:
            mp.setattr(tidy_reader, "_fast_parse", _slow)
        yield


CELLS = st.one_of(EXTREME_TEXT, EXTREME_NUMBERS.map(repr),
                  st.floats().map(repr), st.sampled_from(["1e-310", "-5", "0", "1e308", "2"]))


@st.composite
def parquet_table(draw):
    """Bytes of a Parquet file whose cells are drawn (numbers, text, nulls)."""
    import io

    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    n = draw(st.integers(1, 12))
    binary = [i % 3 + 1 for i in range(n)]
    execution = [(i // 3) % 2 + 1 for i in range(n)]
    kind = draw(st.sampled_from(["float", "text", "int", "null"]))
    if kind == "float":
        time = draw(st.lists(st.one_of(st.floats(), EXTREME_NUMBERS.filter(
            lambda v: abs(v) < 1e308).map(float)), min_size=n, max_size=n))
        col = pa.array(time, pa.float64())
    elif kind == "text":
        col = pa.array(draw(st.lists(CELLS, min_size=n, max_size=n)))
    elif kind == "int":
        col = pa.array(draw(st.lists(st.integers(-2**63, 2**63 - 1), min_size=n,
                                     max_size=n)), pa.int64())
    else:
        col = pa.array([None if draw(st.booleans()) else 1.0 for _ in range(n)], pa.float64())
    labels = draw(st.sampled_from(["int", "text", "float"]))
    conv = {"int": lambda v: v, "text": str, "float": float}[labels]
    table = pa.table({"binary": [conv(v) for v in binary],
                      "execution": [conv(v) for v in execution], "time": col})
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


@examples(30, 1000)
@given(data=st.one_of(tidy_csv().map(lambda b: ("csv", b)),
                      parquet_table().map(lambda b: ("parquet", b))),
       command=st.sampled_from(["summary", "compare", "plan"]))
def test_tidy_cells_read_alike_on_both_routes(data, command, tmp_path_factory, capsys):
    kind, body = data
    d = tmp_path_factory.mktemp("routes")
    p = d / f"t.{kind}"
    p.write_bytes(body)
    argv = {"summary": ["summary", p],
            "compare": ["compare", EXAMPLES / "old.csv", p, "--seed", "1", "--resamples",
                        "500"],
            "plan": ["plan", p, "--costs", "10,100"]}[command]
    inputs = [p] if command != "compare" else [p, EXAMPLES / "old.csv"]
    got = {}
    for which in ("fast", "slow"):
        with route(which):
            got[which] = check_case(argv, inputs, capsys, d, named=[p.name])
    assert got["fast"][0] == got["slow"][0], got
    assert got["fast"][2] == got["slow"][2], got
    if command != "compare":  # a fresh bootstrap seed is reported
        assert got["fast"][1] == got["slow"][1], got


# -- 3. options with odd values -------------------------------------------------------------
NUMERIC_OPTIONS = {
    "compare": ["--alpha", "--threshold", "--seed", "--resamples", "--warmup",
                "--max-input-size"],
    "summary": ["--alpha", "--warmup", "--max-input-size"],
    "plan": ["--alpha", "--costs", "--budget", "--warmup", "--max-input-size"],
}
DIGITS = "0123456789\u0660\u0661\u0662\u06f3\u0966\u0e51\uff10\uff11\uff12\u2070\u00b2\u2081"
ODD_VALUES = st.one_of(
    EXTREME_TEXT,
    EXTREME_NUMBERS.map(repr),
    st.text(alphabet=DIGITS + ".-+eE_, \t", max_size=8),
    st.sampled_from(["-0", "+0", "0.0", "1e-6", "9.9e-7", "0.5", "0.999999", "1", "1.0",
                     "-1", "1e-320", "5e-324", "nan", "-nan", "+inf", "1e309", "9" * 400,
                     "0x1p-3", "1/2", "½", "10,", ",10", "10,,100", "10,-1", "10,nan",
                     "1K", "1KiB", "0K", "-1M", "1e3", "2G", "1.5M", "100000", "auto", " 3 ",
                     "\u0663", "3\u200b", "", "--", "-h", "1" + "0" * 400, "9" * 4000]),
)


@examples(60, 1000)
@given(command=st.sampled_from(sorted(NUMERIC_OPTIONS)), data=st.data(),
       equals=st.booleans())
def test_options_with_odd_values_never_crash(command, data, equals, tmp_path_factory,
                                             capsys):
    option = data.draw(st.sampled_from(NUMERIC_OPTIONS[command]))
    value = data.draw(ODD_VALUES)
    d = tmp_path_factory.mktemp("opts")
    old, new = d / "old.csv", d / "new.csv"
    shutil.copyfile(EXAMPLES / "old.csv", old)
    shutil.copyfile(EXAMPLES / "new.csv", new)
    given_ = [f"{option}={value}"] if equals else [option, value]
    base = {"summary": ["summary", old], "compare": ["compare", old, new, "--resamples", "500",
                                                     "--seed", "1"],
            "plan": ["plan", old, "--costs", "10,100"]}[command]
    out = d / "out.json"
    check_case([*base, *given_, "-o", out], [old, new], capsys, d,
               named=[option, "argument", old.name, "--resamples"], outputs=[out])


# -- 4. FIFOs and device nodes as inputs and outputs ----------------------------------------
#: kind -> (major, minor) of a character device, or a FIFO
NODES = {"fifo": None, "fifo-read": None, "null": (1, 3), "zero": (1, 5), "full": (1, 7),
         "nodev": (0, 0)}


@contextmanager
def draining(fifo: Path):
    """A reader on ``fifo`` that takes whatever is written, until the end."""
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    stop = threading.Event()

    def drain():
        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    os.read(fd, 1 << 16)
                except BlockingIOError:
                    pass

    t = threading.Thread(target=drain, daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join(5)
        os.close(fd)


def _make_node(path: Path, kind: str) -> Path:
    if NODES[kind] is None:
        os.mkfifo(path)
    else:
        major, minor = NODES[kind]
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
        except PermissionError:
            pytest.skip("making a device node needs root (CI runs as root)")
    return path


@examples(30, 600)
@given(kind=st.sampled_from(sorted(NODES)),
       role=st.sampled_from(["old", "new", "-o", "--markdown", "--plot"]),
       suffix=st.sampled_from([".csv", ".json", ".txt", ".parquet", ".gz", ""]),
       link=st.booleans(), via_option=st.sampled_from(["compare", "summary", "plan"]))
def test_nodes_as_inputs_and_outputs(kind, role, suffix, link, via_option, tmp_path_factory,
                                     capsys):
    command = via_option if role in ("old", "-o") else "compare"
    if role == "--plot":
        command = via_option if via_option != "plan" else "summary"
        suffix = ".png"
    d = tmp_path_factory.mktemp("nodes")
    old, new = d / "old.csv", d / "new.csv"
    shutil.copyfile(EXAMPLES / "old.csv", old)
    shutil.copyfile(EXAMPLES / "new.csv", new)
    node = _make_node(d / f"node{suffix}", kind)
    target = node
    if link:
        target = d / f"link{suffix}"
        target.symlink_to(node)
    files = {"old": old, "new": new}
    if role in ("old", "new"):
        files[role] = target
    argv = {"summary": ["summary", files["old"]],
            "plan": ["plan", files["old"], "--costs", "10,100"],
            "compare": ["compare", files["old"], files["new"], "--seed", "1",
                        "--resamples", "500"]}[command]
    if role not in ("old", "new"):
        argv += [role, target]
    inputs = [old, new]
    with draining(node) if kind == "fifo-read" else _nothing():
        code, out, err = check_case(argv, inputs, capsys, d, named=[target.name])
    assert stat.S_IFMT(os.lstat(node).st_mode) == (
        stat.S_IFIFO if NODES[kind] is None else stat.S_IFCHR), "the node was replaced"
    if role in ("old", "new"):
        assert code == 2, "a node was read as an input"
    elif kind in ("null", "zero", "fifo-read"):
        assert code == 0, err
    else:  # no reader, no space, no device: refused or failed, never a hang
        assert code == 2, err


@contextmanager
def _nothing():
    yield


# -- 5. outputs inside input directories ----------------------------------------------------
@st.composite
def inside_output(draw):
    """(how the tree is given, the output option, the output's path below what is read)."""
    given_ = draw(st.sampled_from(["root", "root@new", "bench", "bench@new", "bench/new",
                                   "compare-root", "compare-bench"]))
    option = draw(st.sampled_from(["-o", "--markdown", "--plot"] if given_.startswith(
        "compare") else ["-o", "--plot"]))
    below = draw(st.lists(st.sampled_from(["bench", "new", "base", "x", "..", ".",
                                           "sample.json", "benchmark.json"]),
                          min_size=0, max_size=3))
    name = draw(st.sampled_from(["sample.json", "benchmark.json", "estimates.json",
                                 "out.json", "r.md", "f.png", ".hidden"]))
    link = draw(st.booleans())
    return given_, option, [*below, name], link


@examples(50, 600)
@given(case=inside_output())
def test_outputs_inside_input_directories_are_refused(case, tmp_path_factory, capsys):
    given_, option, parts, link = case
    d = tmp_path_factory.mktemp("inside")
    root = d / "crit"
    for side in ("new", "base"):
        shutil.copytree(CRITERION / "new", root / "bench" / side)
    top = root / "bench" if "bench" in given_ else root
    if given_.startswith("compare"):
        argv = ["compare", f"{top}@base", f"{top}@new", "--seed", "1", "--resamples", "500"]
    else:
        data = {"root": root, "root@new": f"{root}@new", "bench": root / "bench",
                "bench@new": f"{root / 'bench'}@new",
                "bench/new": root / "bench" / "new"}[given_]
        top = Path(str(data).partition("@")[0])
        argv = ["summary", data]
    out = top.joinpath(*parts)
    try:
        resolved = out.resolve()
    except OSError:
        resolved = out
    if not resolved.is_relative_to(top.resolve()):
        out = top / parts[-1]  # ``..`` left the directory: stay inside it
    if link:  # reach it through a link from outside the tree
        (d / "via").symlink_to(out.parent, target_is_directory=True)
        out = d / "via" / out.name
    code, stdout, err = check_case([*argv, option, out], [root], capsys, d,
                                   named=[out.name, root.name])
    assert code == 2, f"an output inside the input directory was written: {out}"


# -- 6. study configurations for check-config -----------------------------------------------
SCHEMA = REPO / "workflow" / "schemas" / "config.schema.yaml"
BASE = "datasets:\n  s:\n    kind: standin\n"
#: key paths holding numbers, with a value beyond their bounds
NUMBER_KEYS = {
    ("analysis", "threshold"): None, ("warmup_fraction",): None, ("coverage", "ratio"): None,
    ("build_seconds",): None, ("analysis", "resamples"): 10_000_001,
    ("false_alarm", "comparisons"): 100_000_001, ("coverage", "experiments"): 100_000_001,
    ("false_alarm", "seed"): 2 ** 63, ("datasets", "s", "binaries"): 1_000_001,
    ("datasets", "s", "executions"): 1_000_001, ("datasets", "s", "warmup"): 1_000_001,
}
NON_FINITE = st.sampled_from([".nan", ".NaN", ".NAN", ".inf", "-.inf", ".Inf", "+.INF",
                              "1.0e+999", "-1.0e+999", "1e400"])
BAD_DIRS = ["", "/", ".", "./", "src", "config", "examples", "data", "workflow", "tests",
            "src/esize", "examples/analyse", "../elsewhere", "a/../../b", "/usr", "/etc/esize",
            "/lib64", "/var", "/tmp", "//", "/usr/../", "{dataset}", "~/results", " results"]


def _nest(keys, value: str) -> str:
    """YAML of ``value`` at the key path ``keys`` (block style)."""
    lines = [f"{'  ' * i}{k}:" for i, k in enumerate(keys[:-1])]
    lines.append(f"{'  ' * (len(keys) - 1)}{keys[-1]}: {value}")
    return "\n".join(lines) + "\n"


def _bomb(depth: int, width: int) -> str:
    names = "abcdefghijklmnopqrstuvwxyz"[:depth]
    parts = [f"&{names[0]} [{', '.join(['x'] * width)}]"]
    for prev, name in zip(names, names[1:]):
        parts.append(f"&{name} [{','.join(['*' + prev] * width)}]")
    return "[" + ", ".join(parts) + "]"


@st.composite
def bad_config(draw):
    """(family, YAML text) of a configuration that must be refused."""
    family = draw(st.sampled_from(["non-finite", "huge", "digits", "duplicate", "bomb",
                                   "recursive", "deep", "output-dir"]))
    keys = draw(st.sampled_from(sorted(NUMBER_KEYS)))
    if family == "non-finite":
        value = draw(NON_FINITE)
        text = _nest(keys, f"[3, {value}]" if keys == ("hours",) else value)
    elif family == "huge":
        keys = draw(st.sampled_from([k for k, v in NUMBER_KEYS.items() if v is not None]))
        limit = NUMBER_KEYS[keys]
        value = draw(st.one_of(st.integers(limit, 10 ** 60).map(str),
                               st.sampled_from(["1.0e+300", "1.7976931348623157e+308"])))
        text = _nest(keys, value)
    elif family == "digits":
        text = _nest(keys, "1" * draw(st.integers(101, 6000)))
    elif family == "duplicate":
        style = draw(st.sampled_from(["top", "nested", "flow"]))
        if style == "top":
            text = "hours: [3]\nwarmup_fraction: 0.3\nhours: [6]\n"
        elif style == "nested":
            text = "datasets:\n  s:\n    kind: standin\n    binaries: 3\n    binaries: 4\n"
        else:
            text = "coverage: {seed: 1, seed: 2}\n"
    elif family == "bomb":
        depth = draw(st.integers(6, 10))
        width = draw(st.integers(8, 12))
        where = draw(st.sampled_from(["levels", "budgets", "comparisons", "path"]))
        text = f"datasets:\n  s:\n    {where}: {_bomb(depth, width)}\n"
    elif family == "recursive":
        text = draw(st.sampled_from(["datasets:\n  s:\n    levels: &a [x, *a]\n",
                                     "datasets: &d\n  s: *d\n",
                                     "hours: &h {a: [*h]}\n"]))
    elif family == "deep":
        n = draw(st.integers(101, 6000))
        opener, closer = draw(st.sampled_from([("[", "]"), ("{a: ", "}")]))
        text = "hours: " + opener * n + closer * n + "\n"
    else:
        key = draw(st.sampled_from(["results_dir", "logs_dir", "data_dir"]))
        text = f"{key}: {json.dumps(draw(st.sampled_from(BAD_DIRS)))}\n"
    # good lines around the bad one
    before = draw(st.sampled_from(["", "# a comment\n", "results_dir: results-fuzz\n"]))
    return family, before + text


@examples(60, 1500)
@given(case=bad_config())
def test_bad_study_configurations_are_refused(case, tmp_path_factory):
    family, text = case
    d = tmp_path_factory.mktemp("config")
    (d / "base.yaml").write_text(BASE)
    (d / "my.yaml").write_text(text)
    before = _tree_digest([d])
    old = os.getcwd()
    os.chdir(d)
    try:
        with time_limit(LIMIT):
            got = dconf.check_config_files([d / "base.yaml", d / "my.yaml"], SCHEMA)
    finally:
        os.chdir(old)
    event(family)
    assert got is not None, f"accepted: {text[:300]!r}"
    assert "\n" not in got and "Traceback" not in got, got
    assert got.startswith("my.yaml"), got
    assert len(got) < 400, got
    assert _tree_digest([d]) == before, "check-config changed or wrote a file"


# -- regressions: what the long run found ---------------------------------------------------
@pytest.mark.parametrize("digits", [309, 400, 4000])
def test_resamples_beyond_a_float_are_one_line(tmp_path, capsys, digits):
    """``--resamples 10**400`` ended in an OverflowError traceback (the memory check
    multiplied it by a float)."""
    old, new = EXAMPLES / "old.csv", EXAMPLES / "new.csv"
    code, out, err = check_case(["compare", old, new, "--resamples", "1" + "0" * digits],
                                [old, new], capsys, tmp_path, named=["--resamples"])
    assert code == 2 and f"--resamples 1e+{digits} would need" in err, err
    from esize import EsizeError
    from esize._bootstrap_args import check_resamples

    with pytest.raises(EsizeError, match=rf"n_resamples 1e\+{digits} would need .* PiB"):
        check_resamples(10**digits, 0.05, arrays=6)


@pytest.mark.parametrize("value, written", [("1e400", "1.0e+400"), ("5e-3", "5.0e-3"),
                                            ("1.0e5", "1.0e+5"), ("-.5E3", "-0.5e+3")])
def test_numbers_yaml_reads_as_text_are_refused(tmp_path, monkeypatch, value, written):
    """``warmup: 1e400`` passed check-config: PyYAML (YAML 1.1) reads it as the text
    '1e400', and warmup takes text (auto)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "base.yaml").write_text(BASE)
    (tmp_path / "my.yaml").write_text(f"datasets:\n  s:\n    warmup: {value}\n")
    got = dconf.check_config_files([tmp_path / "base.yaml", tmp_path / "my.yaml"], SCHEMA)
    assert got == (f"my.yaml:3: datasets.s.warmup: expected a number YAML reads as one, like "
                   f"{written}, or text in quotes; {value!r} is read as text (YAML 1.1 wants "
                   "a dot and a signed exponent)"), got
    for fine in (f"'{value}'", written.replace("e+400", "e+4")):  # quoted, or YAML 1.1's
        (tmp_path / "my.yaml").write_text(f"datasets:\n  s:\n    warmup: {fine}\n")
        assert dconf.check_config_files([tmp_path / "base.yaml", tmp_path / "my.yaml"],
                                        SCHEMA) is None


@pytest.mark.parametrize("argv", [
    ["plan", "OLD", "--costs", "10,100", "--budget=--"],
    ["plan", "OLD", "--costs=--"],
    ["compare", "OLD", "NEW", "--resamples=--"],
    ["compare", "OLD", "NEW", "--threshold=--"],
    ["compare", "OLD", "NEW", "--alpha=--"],
    ["compare", "OLD", "NEW", "--fail-on=--"],
    ["summary", "OLD", "--warmup=--"],
])
def test_an_option_given_the_value_dashes_is_one_line(tmp_path, capsys, argv):
    """``--budget=--`` was a TypeError traceback: argparse (3.11) drops "--" as the end
    of the options and gave the option [] unconverted."""
    old, new = EXAMPLES / "old.csv", EXAMPLES / "new.csv"
    argv = [{"OLD": old, "NEW": new}.get(a, a) for a in argv]
    option = argv[-1].partition("=")[0]
    code, out, err = check_case(argv, [old, new], capsys, tmp_path, named=[option])
    assert code == 2 and "'--'" in err, err
