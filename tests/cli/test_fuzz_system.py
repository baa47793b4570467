"""Property-based tests of the faults that come from the system rather than from the input:
Ctrl-C at any moment, a full file system, read-only mounts. (Two pipeline runs at once on
one results directory: ``tests/study/test_pipeline_concurrency.py``.)

1. Ctrl-C -- SIGINT to the process group, as a terminal sends it -- at a random moment of
   ``esize compare``, ``summary`` or ``plan``: the process ends promptly, either
   interrupted (exit status 130 and the one line ``esize: interrupted``, what
   :func:`esize.cli.run` promises) or, the signal having come after the work, as an
   undisturbed run would.
2. A full file system: a tiny tmpfs filled to a random level (its blocks, or its inodes)
   holding ``-o``, ``--markdown`` and ``--plot``: exit status 2 and one line naming the
   file, or -- there was room -- exit 0.
3. A read-only bind mount as the output directory, the input directory or both: writing
   there is exit status 2 and one line naming the first output that could not be
   written; reading from it works.

The oracle of every family, as ``test_fuzz``'s: no traceback, no hang, the inputs
unchanged, and every output either absent, its previous self, or complete (byte for
byte what an undisturbed run writes; a figure, which names its input files' paths, a
whole PNG), nothing else left beside them (no temporary file). Mounts need root (as CI
runs); the tests that need one skip, saying so, where ``mount`` fails. Every mount is
made in pytest's temporary directory and unmounted in a ``finally``; a mount that cannot
be unmounted (an output file left open) fails the case. ``HYPOTHESIS_PROFILE=fuzz-long``
runs many more examples of each family.

What they found, each with a regression case of its own: Ctrl-C did not stop the
bootstrap's worker threads (the process ended only when they were done); Ctrl-C that a
library wrapped (pybind11's ``ImportError: initialization failed``, a ``RuntimeError``
from ``__set_name__``) was a traceback and status 1; Ctrl-C while matplotlib's ft2font
loaded crashed the interpreter's shutdown (SIGABRT); Ctrl-C as ``tempfile.mkstemp``
made an output's temporary file left it behind. Still open (an expected failure): Ctrl-C
while ``import esize`` loads numpy is Python's traceback.
"""

from __future__ import annotations

import errno
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from .helpers import _module_env
from .test_fuzz import LIMIT, invoke
from .test_fuzz_families import _tree_digest, examples

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
BIG = EXAMPLES / "analyse" / "data"  # 300 values a system: a bootstrap worth stopping

#: Seconds from Ctrl-C to the end of the process that still count as prompt.
PROMPT = 5

#: The commands of the properties: argument list (inputs as ``{old}``, ``{new}``) and
#: the outputs each can write, in the order esize writes them.
COMMANDS = {
    "compare": (["compare", "{old}", "{new}", "--seed", "1"], ("--plot", "-o", "--markdown")),
    "summary": (["summary", "{old}"], ("--plot", "-o")),
    "plan": (["plan", "{old}", "--costs", "10,1"], ("-o",)),
}
NAMES = {"-o": "out.json", "--markdown": "report.md", "--plot": "figure.png"}
#: Which outputs a case asks for (those its command cannot write dropped; none left: -o).
KINDS = st.sampled_from([("-o",), ("--markdown",), ("--plot",), ("-o", "--markdown"),
                         ("-o", "--plot"), ("--markdown", "--plot"),
                         ("-o", "--markdown", "--plot")])
PREVIOUS = b"previous\n"
PNG_START, PNG_END = b"\x89PNG\r\n\x1a\n", b"IEND\xaeB`\x82"


def _copy_inputs(directory: Path, source: Path = EXAMPLES, names=("old.csv", "new.csv")):
    directory.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(source / name, directory / name)
    return directory


def _outputs_of(command: str, kinds) -> list:
    """The outputs of ``kinds`` that ``command`` writes, in the order it writes them."""
    return [k for k in COMMANDS[command][1] if k in kinds] or ["-o"]


def _argv(command: str, inputs: Path, outputs: dict, resamples: int | None = None) -> list:
    args, _ = COMMANDS[command]
    argv = [a.format(old=inputs / "old.csv", new=inputs / "new.csv") for a in args]
    if resamples is not None and command == "compare":
        argv += ["--resamples", str(resamples)]
    for flag, path in outputs.items():
        argv += [flag, str(path)]
    return argv


# -- what an undisturbed run writes -------------------------------------------------------
class Reference:
    """What an undisturbed run of ``command`` writes to each output it can write, the
    inputs' directory written ``<IN>`` (the results name their input files), from an
    in-process run. When an output differs it is run again -- as ``python -m esize``
    for the cases run in processes of their own (``child``) -- so that sources edited
    during a long run make no failure; a difference that stays does."""

    _cache: dict = {}

    def __init__(self, command: str, resamples: int | None, capsys, factory, *,
                 child: bool = False):
        self.key, self.child = (command, resamples), child
        self.capsys, self.factory = capsys, factory
        if self.key not in self._cache:
            self._cache[self.key] = self._run(child=False)

    def _run(self, *, child: bool) -> dict:
        command, resamples = self.key
        d = self.factory.mktemp("reference")
        inputs = _copy_inputs(d / "in")
        outs = {flag: d / NAMES[flag] for flag in COMMANDS[command][1]}
        argv = _argv(command, inputs, outs, resamples)
        if child:
            proc = subprocess.run([sys.executable, "-m", "esize", *argv], env=_module_env(),
                                  capture_output=True, text=True, timeout=LIMIT)
            code, err = proc.returncode, proc.stderr
        else:
            code, _, err = invoke(argv, self.capsys)
        assert code == 0, err
        return {flag: _normal(p.read_bytes(), inputs) for flag, p in outs.items()}

    def outputs(self) -> dict:
        return self._cache[self.key]

    def complete(self, flag: str, data: bytes, inputs: Path) -> bool:
        if flag == "--plot":  # a whole PNG (its labels may hold the inputs' paths)
            return data.startswith(PNG_START) and data.endswith(PNG_END)
        if _normal(data, inputs) == self.outputs()[flag]:
            return True
        self._cache[self.key] = self._run(child=self.child)
        return _normal(data, inputs) == self.outputs()[flag]


def _normal(data: bytes, inputs: Path) -> bytes:
    return data.replace(str(inputs).encode(), b"<IN>")


def check_outputs(outputs: dict, ref: Reference, inputs: Path, previous=()) -> dict:
    """Each output absent, its previous content (for those in ``previous``) or complete;
    returns {flag: "absent" | "previous" | "complete"}."""
    state = {}
    for flag, path in outputs.items():
        if not os.path.lexists(path):
            state[flag] = "absent"
            continue
        data = Path(path).read_bytes()
        if flag in previous and data == PREVIOUS:
            state[flag] = "previous"
            continue
        assert ref.complete(flag, data, inputs), f"{path} is half-written: {data[:200]!r}"
        state[flag] = "complete"
    return state


def _listing(directory: Path) -> set:
    return {p.relative_to(directory).as_posix() for p in directory.rglob("*")}


# -- 1. Ctrl-C ------------------------------------------------------------------------------
#: The child: esize's own entry point, ``run``, which says it has started -- its modules
#: loaded, ``main`` called -- on the pipe whose descriptor is the first argument. (Ctrl-C
#: while the modules load is test_ctrl_c_while_esize_starts.)
CHILD = """
import os, sys
from esize.cli import _main

fd, real = int(sys.argv[1]), _main.main

def main(argv=None):
    os.write(fd, b"x")
    os.close(fd)
    return real(argv)

_main.main = main
sys.argv = ["esize", *sys.argv[2:]]
_main.run()
"""


class Child:
    """``esize`` in a process of its own (its own process group, as a terminal's job),
    returned once started: its modules loaded, ``main`` called. With ``tty`` its
    standard error is a terminal, so that the progress bar is drawn."""

    def __init__(self, argv, *, tty: bool = False):
        r, w = os.pipe()
        self.master = None
        stderr = subprocess.PIPE
        if tty:
            import pty

            self.master, stderr = pty.openpty()
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", CHILD, str(w), *map(str, argv)], cwd=os.getcwd(),
                env={**_module_env(), "MPLBACKEND": "Agg", "COLUMNS": "80"},
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                pass_fds=(w,), start_new_session=True)
        finally:
            os.close(w)
            if tty:
                os.close(stderr)
        self.tty_text = b""
        if tty:
            self.reader = threading.Thread(target=self._drain, daemon=True)
            self.reader.start()
        try:
            ready, _, _ = select.select([r], [], [], LIMIT)
            assert ready and os.read(r, 1) == b"x", "esize did not start"
        except BaseException:
            self.kill()
            raise
        finally:
            os.close(r)

    def _drain(self):
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # EIO: the terminal's other side closed
                return
            if not chunk:
                return
            self.tty_text += chunk

    def interrupt(self) -> None:
        """Ctrl-C: SIGINT to the process group."""
        try:
            os.killpg(self.proc.pid, signal.SIGINT)
        except ProcessLookupError:  # already gone
            pass

    def finish(self, timeout: float) -> tuple[int, str, str]:
        """(exit status, stdout, stderr) within ``timeout`` seconds, or a failure."""
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"esize did not end within {timeout} s of Ctrl-C")
        if self.master is not None:
            self.reader.join(5)
            os.close(self.master)
            err = self.tty_text
        return self.proc.returncode, out.decode(), err.decode("utf-8", "replace")

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        if self.master is not None:
            os.close(self.master)
            self.master = None


def check_interrupted(code: int, out: str, err: str, *, tty: bool) -> bool:
    """Status 130 and the one line ``esize: interrupted`` (True), or a finished run
    (False): status 0, or -- Ctrl-C came as the interpreter shut down, after esize's
    handler, and ended it as SIGINT does by default (the status a shell shows as 130)
    -- killed by SIGINT; never a traceback."""
    assert not any(w in err for w in ("Traceback", "Exception ignored", "Fatal Python")), err
    assert code in (0, 130, -signal.SIGINT), (code, err)
    lines = [ln for ln in err.replace("\r", "\n").splitlines() if ln.strip()]
    if tty:  # the progress bar's own lines (drawn, then erased) stand beside it
        lines = [ln for ln in lines if ln.startswith("esize")]
    if code == 130:
        assert lines == ["esize: interrupted"], err
        return True
    assert out.strip(), "a finished run without its result"
    assert all(ln.startswith("esize: note: ") for ln in lines), err
    return False


@examples(ci=3, long=200)
@given(command=st.sampled_from(["compare", "summary", "plan"]),
       kinds=KINDS,
       resamples=st.sampled_from([200000, 2000]), delay=st.floats(0, 0.8),
       previous=st.booleans(), tty=st.booleans())
def test_ctrl_c_at_any_moment(command, kinds, resamples, delay, previous, tty,
                              tmp_path_factory, capsys):
    """Ctrl-C at a random moment after start-up: ends promptly, status 130 with one line
    or a finished run; every output absent, previous or complete; inputs unchanged."""
    kinds = _outputs_of(command, kinds)
    d = tmp_path_factory.mktemp("sigint")
    inputs = _copy_inputs(d / "in")
    ref = Reference(command, resamples, capsys, tmp_path_factory, child=True)
    out_dir = d / "out"
    out_dir.mkdir()
    outputs = {k: out_dir / NAMES[k] for k in kinds}
    if previous:
        for p in outputs.values():
            p.write_bytes(PREVIOUS)
    before = _tree_digest([inputs])
    child = Child(_argv(command, inputs, outputs, resamples), tty=tty)
    time.sleep(delay)
    child.interrupt()
    code, out, err = child.finish(PROMPT)
    event(f"Ctrl-C: exit {code}")
    interrupted = check_interrupted(code, out, err, tty=tty)
    state = check_outputs(outputs, ref, inputs, set(outputs) if previous else ())
    if not interrupted:
        assert set(state.values()) == {"complete"}, state
    assert _tree_digest([inputs]) == before, "an input changed"
    assert _listing(out_dir) <= {p.name for p in outputs.values()}, "a temporary file was left"


def test_ctrl_c_stops_a_long_bootstrap_at_once(tmp_path):
    """Ctrl-C half a second into a bootstrap of ten million replicates (tens of seconds
    on two cores): the process ends within PROMPT seconds, status 130, nothing written.
    (Regression: the bootstrap's worker threads ran to their end first.)"""
    inputs = _copy_inputs(tmp_path / "in", BIG, ("qs-old.csv", "qs-new.csv"))
    before = _tree_digest([inputs])
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    argv = ["compare", inputs / "qs-old.csv", inputs / "qs-new.csv", "--seed", "1",
            "--resamples", "10000000", "-o", out_dir / "out.json",
            "--markdown", out_dir / "report.md"]
    child = Child(argv)
    time.sleep(0.5)
    child.interrupt()
    code, out, err = child.finish(PROMPT)
    assert (code, err) == (130, "esize: interrupted\n"), (code, err)
    assert _listing(out_dir) == set()
    assert _tree_digest([inputs]) == before


#: Ctrl-C while esize's modules load: the first import of numpy (by ``import esize``,
#: which the console script's ``from esize.cli import run`` runs) sends SIGINT.
STARTING = """
import os, signal, sys

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
sys.argv = ["esize", *sys.argv[1:]]
from esize_launch import main  # what the console script runs
main()
"""


def test_ctrl_c_while_esize_starts(tmp_path):
    """Ctrl-C while ``import esize`` loads numpy, before ``esize.cli.run`` exists: the
    console script's launcher (``esize_launch``, outside the package) makes it one line
    and status 130 (it was Python's KeyboardInterrupt traceback)."""
    inputs = _copy_inputs(tmp_path / "in")
    proc = subprocess.run([sys.executable, "-c", STARTING, "compare", inputs / "old.csv",
                           inputs / "new.csv", "-o", tmp_path / "out.json"],
                          env=_module_env(), capture_output=True, text=True, timeout=LIMIT)
    assert proc.returncode in (130, -signal.SIGINT), proc.stderr  # -2: SIGINT's own end
    assert "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "out.json").exists()


#: A command failing as libraries fail when Ctrl-C comes while they run Python code
#: of their own: pybind11's modules (matplotlib's, scipy's, which compare and --plot
#: load on first use) raise ImportError("initialization failed") from the
#: KeyboardInterrupt, a class's __set_name__ a RuntimeError, a cleanup another error
#: while handling it; or, the control, an ImportError of another cause.
WRAPPED = """
import sys
from esize.cli import _main

how = sys.argv.pop(1)

def command(args):
    try:
        raise OSError("not an interrupt") if how == "other" else KeyboardInterrupt
    except BaseException as exc:
        if how == "cleanup":
            raise ValueError("a cleanup failed")
        raise (RuntimeError if how == "set_name" else ImportError)("initialization failed") from exc

_main._command = lambda name: command
sys.argv = ["esize", *sys.argv[1:]]
_main.run()
"""


@pytest.mark.parametrize("how", ["pybind11", "set_name", "cleanup", "other"])
def test_ctrl_c_that_a_library_wrapped(how):
    """Still Ctrl-C: status 130 and one line (found by test_ctrl_c_at_any_moment: the
    ImportError's or RuntimeError's traceback, status 1). An error of another cause
    stays a bug shown as one."""
    proc = subprocess.run([sys.executable, "-c", WRAPPED, how, "compare",
                           EXAMPLES / "old.csv", EXAMPLES / "new.csv"], env=_module_env(),
                          capture_output=True, text=True, timeout=LIMIT)
    if how == "other":
        assert proc.returncode == 1 and "ImportError: initialization failed" in proc.stderr
    else:
        assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "esize: interrupted\n")


#: Ctrl-C while matplotlib's ft2font (a pybind11 module) initialises: SIGINT at the
#: first Python function its initialisation calls. Its cut-short C++ state crashed the
#: interpreter's shutdown (SIGABRT, "Fatal Python error: PyThreadState_Get").
FT2FONT = """
import os, signal, sys

state = {"found": False, "init": False, "sent": False}

class Find:
    def find_spec(self, name, path=None, target=None):
        state["found"] |= name == "matplotlib.ft2font"
        return None

def profile(frame, event, arg):
    if not state["found"] or state["sent"]:
        return
    if event == "c_call" and getattr(arg, "__name__", "") == "create_dynamic":
        state["init"] = True
    elif event == "call" and state["init"]:
        state["sent"] = True
        os.kill(os.getpid(), signal.SIGINT)

sys.meta_path.insert(0, Find())
sys.setprofile(profile)
sys.argv = ["esize", *sys.argv[1:]]
from esize.cli import run
run()
"""


def test_ctrl_c_while_matplotlib_loads(tmp_path):
    pytest.importorskip("matplotlib")
    inputs = _copy_inputs(tmp_path / "in")
    proc = subprocess.run([sys.executable, "-c", FT2FONT, "summary", inputs / "old.csv",
                           "--plot", tmp_path / "figure.png"],
                          env={**_module_env(), "MPLBACKEND": "Agg"}, capture_output=True,
                          text=True, timeout=LIMIT)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "esize: interrupted\n")
    assert sorted(os.listdir(tmp_path)) == ["in"]


@pytest.mark.parametrize("previous", [False, True])
@pytest.mark.parametrize("step", ["open", "fdopen", "chmod", "replace"])
def test_ctrl_c_between_two_steps_of_an_atomic_write(tmp_path, monkeypatch, step, previous):
    """Ctrl-C's KeyboardInterrupt comes between any two steps: Python raises it as a
    call returns. Raised as os.open returns the temporary file (inside
    ``tempfile.mkstemp``, which then never returned its name: the file stayed -- found by
    test_ctrl_c_at_any_moment, a ``.figure.png.*.tmp`` left), as fdopen, chmod or
    replace returns: the output is its previous self or complete, and no temporary
    file is left."""
    from esize.io import write_output

    target = tmp_path / "out.json"
    if previous:
        target.write_bytes(PREVIOUS)
    real = getattr(os, step)

    def then_ctrl_c(*args, **kwargs):
        result = real(*args, **kwargs)
        if step != "open" or str(args[0]).endswith(".tmp"):
            raise KeyboardInterrupt
        return result

    monkeypatch.setattr(os, step, then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        write_output(target, b"complete\n")
    monkeypatch.undo()
    assert os.listdir(tmp_path) == (["out.json"] if previous or step == "replace" else [])
    if target.exists():
        assert target.read_bytes() in (PREVIOUS, b"complete\n")


# -- mounts ---------------------------------------------------------------------------------
def _mount(*args) -> subprocess.CompletedProcess:
    return subprocess.run(["mount", *map(str, args)], capture_output=True, text=True)


@contextmanager
def mounted(target: Path, *args, read_only: bool = False):
    """``mount ARGS TARGET`` (``read_only``: then remounted read-only, for a bind mount),
    unmounted at the end; a mount that cannot be unmounted -- a file left open on it --
    fails the case (after a lazy unmount, so that nothing stays mounted)."""
    res = _mount(*args, target)
    assert res.returncode == 0, res.stderr
    try:
        if read_only:
            res = _mount("-o", "remount,ro,bind", target)
            assert res.returncode == 0, res.stderr
        yield target
    finally:
        res = subprocess.run(["umount", str(target)], capture_output=True, text=True)
        if res.returncode != 0:
            subprocess.run(["umount", "-l", str(target)], capture_output=True)
    assert res.returncode == 0, f"cannot unmount {target}: {res.stderr}"


def _can_mount(tmp: Path, *args, read_only: bool = False) -> str | None:
    """Why mounting fails here (None: it works)."""
    if shutil.which("mount") is None or shutil.which("umount") is None:
        return "mount(8) is not installed"
    target = tmp / "probe"
    target.mkdir()
    res = _mount(*args, target)
    if res.returncode != 0:
        return f"mount fails: {' '.join(res.stderr.split())}"
    try:
        if read_only:
            res = _mount("-o", "remount,ro,bind", target)
            if res.returncode != 0:
                return f"remounting read-only fails: {' '.join(res.stderr.split())}"
    finally:
        subprocess.run(["umount", str(target)], capture_output=True)
    return None


@pytest.fixture(scope="module")
def tmpfs_mounts(tmp_path_factory):
    why = _can_mount(tmp_path_factory.mktemp("tmpfs"), "-t", "tmpfs", "-o", "size=64k", "tmpfs")
    if why:
        pytest.skip(f"a full file system is a small tmpfs, mounted as root (as CI runs): {why}")


@pytest.fixture(scope="module")
def bind_mounts(tmp_path_factory):
    d = tmp_path_factory.mktemp("bind")
    (d / "src").mkdir()
    why = _can_mount(d, "--bind", d / "src", read_only=True)
    if why:
        pytest.skip(f"a read-only directory is a read-only bind mount, made as root (as CI "
                    f"runs; root writes through permission bits): {why}")


def check_failed_write(code, out, err, outputs: dict, state: dict, reason: str) -> str:
    """Status 2: one line naming an output that is not complete and saying ``reason``;
    returns the output's flag."""
    assert "Traceback" not in err, err
    assert code == 2, (code, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("esize: error: "), err
    named = [flag for flag, p in outputs.items() if f"{p}:" in lines[0]]
    assert named, f"the error names no output: {err}"
    assert reason in lines[0].lower(), err
    assert state[named[0]] != "complete", "the output the error names was written"
    return named[0]


PAGE = 4096  # a tmpfs counts its size in pages


def _fill_blocks(mnt: Path, free_pages: int) -> None:
    """Fill the file system to the last byte, then free ``free_pages`` pages."""
    filler = mnt / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    try:
        while True:
            try:
                if os.write(fd, b"\0" * 65536) == 0:
                    break
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                break
    finally:
        os.close(fd)
    os.truncate(filler, max(0, filler.stat().st_size - free_pages * PAGE))


def _fill_inodes(mnt: Path, free: int) -> None:
    """Use every inode of the file system (empty files), then free ``free`` of them."""
    made = []
    while True:
        path = mnt / f"inode{len(made):04d}"
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
            break
        made.append(path)
    for path in made[len(made) - free:] if free else []:
        path.unlink()


@examples(ci=6, long=400)
@given(command=st.sampled_from(["compare", "summary", "plan"]),
       kinds=KINDS,
       fill=st.sampled_from(["blocks", "inodes"]), free=st.integers(0, 20),
       previous=st.booleans(), inputs_inside=st.booleans())
def test_a_full_file_system(tmpfs_mounts, command, kinds, fill, free, previous,
                            inputs_inside, tmp_path_factory, capsys):
    """A tmpfs of 256 KiB filled but ``free`` pages (or inodes) holds the outputs (and
    perhaps the inputs, still read): exit 0 with every output complete, or exit 2 with
    one line naming an output not written; no partial or temporary file left, the
    previous content of an output kept. No room at all always fails; room for every
    output (and a page or inode to spare) never does."""
    kinds = _outputs_of(command, kinds)
    ref = Reference(command, 2000, capsys, tmp_path_factory)
    d = tmp_path_factory.mktemp("full")
    mnt = d / "mnt"
    mnt.mkdir()
    with mounted(mnt, "-t", "tmpfs", "-o", "size=256k,nr_inodes=64", "tmpfs"):
        inputs = _copy_inputs((mnt if inputs_inside else d) / "in")
        outputs = {k: mnt / NAMES[k] for k in kinds}
        for p in outputs.values() if previous else ():
            p.write_bytes(PREVIOUS)
        (_fill_blocks if fill == "blocks" else _fill_inodes)(mnt, free)
        before, listing = _tree_digest([inputs]), _listing(mnt)
        code, out, err = invoke(_argv(command, inputs, outputs, 2000), capsys)
        state = check_outputs(outputs, ref, inputs, set(outputs) if previous else ())
        event(f"{fill}: exit {code}")
        if code == 0:
            assert all(v == "complete" for v in state.values()), state
            assert "Traceback" not in err and out.strip()
        else:
            check_failed_write(code, out, err, outputs, state, "no space left on device")
        assert _listing(mnt) <= listing | {p.name for p in outputs.values()}, (
            "a temporary or partial file was left")
        assert _tree_digest([inputs]) == before, "an input changed"
    if free == 0:
        assert code == 2, "an output was written to a full file system"
    pages = sum(-(-len(ref.outputs()[k]) // PAGE) for k in kinds)
    if free > (pages if fill == "blocks" else len(kinds)):
        assert code == 0, (free, pages, err)


#: Where an output goes: a writable directory, the read-only one, or a directory still
#: to be made inside the read-only one.
PLACES = {"rw": "rw", "ro": "ro", "ro-new-dir": "ro/new"}


@examples(ci=6, long=400)
@given(command=st.sampled_from(["compare", "summary", "plan"]),
       kinds=KINDS,
       places=st.fixed_dictionaries({k: st.sampled_from(list(PLACES))
                                     for k in ("-o", "--markdown", "--plot")}),
       inputs_ro=st.booleans(), previous=st.booleans())
def test_read_only_directories(bind_mounts, command, kinds, places, inputs_ro, previous,
                               tmp_path_factory, capsys):
    """Inputs in a read-only bind mount are read as any others; an output there is exit
    2 and one line naming the first such output esize writes (``--plot``, ``-o``,
    ``--markdown``), those written before it complete, nothing else written."""
    kinds = _outputs_of(command, kinds)
    ref = Reference(command, 2000, capsys, tmp_path_factory)
    d = tmp_path_factory.mktemp("readonly")
    src, ro, rw = d / "src", d / "ro", d / "rw"
    for p in (src, ro, rw):
        p.mkdir()
    _copy_inputs(src / "in")
    inputs = ro / "in" if inputs_ro else _copy_inputs(rw / "in")
    outputs = {k: d / PLACES[places[k]] / NAMES[k] for k in kinds}
    for p in outputs.values() if previous else ():
        if p.parent.name != "new":  # (written before the mount: in src for ro)
            target = src / p.name if p.parent == ro else p
            target.write_bytes(PREVIOUS)
    with mounted(ro, "--bind", src, read_only=True):
        before, listing = _tree_digest([inputs, ro]), _listing(rw)
        code, out, err = invoke(_argv(command, inputs, outputs, 2000), capsys)
        state = check_outputs(outputs, ref, inputs, set(outputs) if previous else ())
        blocked = [k for k in kinds if places[k] != "rw"]
        event(f"read-only: exit {code}")
        if not blocked:
            assert code == 0, err
            assert all(v == "complete" for v in state.values()), state
        else:
            named = check_failed_write(code, out, err, outputs, state, "read-only file system")
            assert named == blocked[0], (named, blocked)
            done = kinds[:kinds.index(named)]
            assert all(state[k] == "complete" for k in done), state
        assert _tree_digest([inputs, ro]) == before, "the read-only directory changed"
        assert _listing(rw) <= listing | {p.relative_to(rw).as_posix()
                                          for p in outputs.values() if p.parent == rw}
