"""Writing files safely: a file is either its old self or complete, never half-written,
and nothing but a regular file is ever replaced.

:func:`atomic_open` / :func:`atomic_write` are the one atomic writer used by the
command line and by the study's pipeline scripts. :func:`write_output` is what the
command line's ``--output`` and ``--plot`` go through: it decides by what is at the
path how to write there (replace a regular file atomically, write into the null
device, a terminal or a FIFO with a reader, refuse anything else), and
:func:`check_output` refuses, before any work is done, an output that is one of the
inputs, lies inside an input directory, or can never be written.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

__all__ = [
    "OutputError",
    "atomic_open",
    "atomic_write",
    "atomic_write_text",
    "check_output",
    "file_kind",
    "write_output",
]

#: Characters of the target's name kept in the temporary name (with the dots, the
#: random part and ``.tmp`` about 120 characters, within every file system's limit).
_STEM = 100

#: Linux character-device majors of terminals: 4 (tty, ttyS), 5 (/dev/tty, console,
#: ptmx) and 136-143 (pseudo-terminals, /dev/pts/N).
_TTY_MAJORS = frozenset({4, 5, *range(136, 144)})


class OutputError(OSError):
    """An output path that esize refuses to write (one of the inputs, a directory, a
    device other than the null device or a terminal, a FIFO without a reader).

    ``str()`` is the reason alone; ``filename`` is the path.

    Examples
    --------
    >>> import tempfile
    >>> from esize.io import OutputError, check_output
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     try:
    ...         check_output(tmp)
    ...     except OutputError as exc:
    ...         print(exc)
    ...         print(exc.filename == tmp, isinstance(exc, OSError))
    is a directory; the result is written only to a regular file, a FIFO, a terminal or the null device
    True True
    """

    def __init__(self, path, reason: str):
        super().__init__(errno.EINVAL, reason, str(path))
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def atomic_open(path: str | os.PathLike, *, mode: int | None = None) -> _AtomicFile:
    """A binary file handle whose contents replace ``path`` only when complete.

    The streaming form of :func:`atomic_write` (for outputs that need not fit in
    memory): a temporary file beside ``path``, renamed over it when the ``with``
    block ends without an exception, removed otherwise. The file gets ``mode``
    (default: ``0o666`` less the umask, as ``open`` would create it).

    Examples
    --------
    >>> import os, tempfile
    >>> from esize.io import atomic_open
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "out.bin")
    ...     with atomic_open(path) as fh:
    ...         _ = fh.write(b"part 1, ")
    ...         _ = fh.write(b"part 2")
    ...     try:  # a write that fails half-way leaves the file as it was
    ...         with atomic_open(path) as fh:
    ...             _ = fh.write(b"half")
    ...             raise RuntimeError("interrupted")
    ...     except RuntimeError:
    ...         pass
    ...     with open(path, "rb") as fh:
    ...         print(fh.read(), os.listdir(tmp))
    b'part 1, part 2' ['out.bin']
    """
    return _AtomicFile(Path(path), mode)


#: How a temporary file is made: new (never an existing file, nor through a link).
_TMP_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
              | getattr(os, "O_BINARY", 0))


class _AtomicFile:
    """The context manager of :func:`atomic_open`. A class rather than a generator,
    and the temporary file named before it is made, so that an exception anywhere --
    Ctrl-C's KeyboardInterrupt, which comes between any two steps, included -- removes
    the temporary file: a generator that Ctrl-C left at its ``yield``, or a name that
    ``tempfile.mkstemp`` had not yet returned, left it behind."""

    def __init__(self, path: Path, mode: int | None):
        self.path, self.mode = path, mode
        self.tmp: str | None = None
        self.fh: Any = None

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            for _ in range(100):
                # named like the target, cut so that the name is never longer than the
                # longest name the target itself may have
                self.tmp = os.path.join(
                    self.path.parent, f".{self.path.name[:_STEM]}.{os.urandom(4).hex()}.tmp")
                try:
                    fd = os.open(self.tmp, _TMP_FLAGS, 0o600)
                    break
                except FileExistsError:
                    self.tmp = None
            else:
                raise FileExistsError(errno.EEXIST, "no free temporary name", str(self.path))
            try:
                self.fh = os.fdopen(fd, "wb")
            except Exception:
                os.close(fd)
                raise
            return self.fh.__enter__()
        except BaseException:
            self._discard()
            raise

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            self.fh.__exit__(exc_type, exc, tb)  # closed (a full disk may say so here)
            if exc_type is None:
                mode = self.mode
                if mode is None:
                    umask = os.umask(0)
                    os.umask(umask)
                    mode = 0o666 & ~umask
                tmp = cast(str, self.tmp)
                os.chmod(tmp, mode)  # made 0600; give the usual mode
                os.replace(tmp, self.path)
                self.tmp = None
        finally:
            self._discard()  # after an exception in the block or here

    def _discard(self) -> None:
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except FileNotFoundError:
                pass
            self.tmp = None


def atomic_write(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and a rename (never half-written).

    Examples
    --------
    >>> import os, tempfile
    >>> from esize.io import atomic_write
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "new", "result.bin")  # the directory is made
    ...     atomic_write(path, b"ratio 0.86")
    ...     with open(path, "rb") as fh:
    ...         print(fh.read(), os.listdir(os.path.dirname(path)))
    b'ratio 0.86' ['result.bin']
    """
    with atomic_open(path) as fh:
        fh.write(data)


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Text version of :func:`atomic_write` (UTF-8).

    Examples
    --------
    >>> import os, tempfile
    >>> from esize.io import atomic_write_text
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "result.txt")
    ...     atomic_write_text(path, "ratio 0.86 ± 0.15")
    ...     with open(path, encoding="utf-8") as fh:
    ...         print(fh.read(), os.path.getsize(path))  # 17 characters, 18 bytes
    ratio 0.86 ± 0.15 18
    """
    atomic_write(path, text.encode("utf-8"))


# -- the command line's outputs -------------------------------------------------------------
def _is_sink(st: os.stat_result) -> bool:
    """Whether a character device is one that output may go into: the null, zero or
    full device (compared by device number, so also a node made with ``mknod``) or a
    terminal. Any other device (memory, ports, kernel logs ...) is refused."""
    for name in (os.devnull, "/dev/zero", "/dev/full"):
        try:
            if os.stat(name).st_rdev == st.st_rdev:
                return True
        except OSError:
            continue
    return os.major(st.st_rdev) in _TTY_MAJORS


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, for a message: ``"a FIFO (named pipe)"``,
    ``"a directory"``, ``"a block device (a disk)"`` ...

    Examples
    --------
    >>> import stat
    >>> from esize.io import file_kind
    >>> file_kind(stat.S_IFDIR | 0o755), file_kind(stat.S_IFIFO), file_kind(stat.S_IFREG)
    ('a directory', 'a FIFO (named pipe)', 'a regular file')
    """
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISBLK, "a block device (a disk)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISREG, "a regular file")):
        if test(mode):
            return kind
    return "not a regular file"


def _refusal(st: os.stat_result) -> str | None:
    """Why nothing is written to a path whose ``stat`` is ``st`` (None: it may be)."""
    mode = st.st_mode
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return None
    if stat.S_ISCHR(mode) and _is_sink(st):
        return None
    return (f"is {file_kind(st.st_mode)}; the result is written only to a regular file, "
            "a FIFO, a terminal or the null device")


def check_output(path: str | os.PathLike, inputs: Iterable[str | os.PathLike] = ()) -> None:
    """Refuse an output path before any work is done.

    Raises
    ------
    OutputError
        The name is empty, names one of ``inputs`` (the same file, also through a
        link: :func:`os.path.samefile`), lies inside an input that is a directory
        (a criterion tree, whose every file a reader may open; also through
        symbolic links, compared by device and inode), or is something that is
        never written (a directory, a block device, a socket, a character device
        other than the null device or a terminal).

    Examples
    --------
    >>> import os, tempfile
    >>> from esize.io import OutputError, check_output
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     data = os.path.join(tmp, "old.json")
    ...     with open(data, "w") as fh:
    ...         _ = fh.write("{}")
    ...     check_output(os.path.join(tmp, "report.txt"), [data])  # nothing there yet
    ...     for inputs in ([data], [tmp]):
    ...         try:
    ...             check_output(data, inputs)
    ...         except OutputError as exc:
    ...             print(exc.reason.replace(tmp, "TMP"))
    is the input file TMP/old.json; writing the result there would destroy it (name another output file)
    is inside the input directory TMP, whose files are read; name an output file outside it
    """
    if not str(path):
        raise OutputError(path, "the output file name is empty")
    for source in inputs:
        _refuse_input(path, source)
    try:
        st = os.stat(path)
    except OSError:
        return  # nothing there yet (or not reachable): the write will say
    reason = _refusal(st)
    if reason is not None:
        raise OutputError(path, reason)


def _stat(path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):  # missing, unreachable, a NUL in the name ...
        return None


def _refuse_input(path: str | os.PathLike, source: str | os.PathLike) -> None:
    """OutputError when writing ``path`` could change the input ``source``: the same
    file, or (``source`` a directory) a place inside it."""
    src = _stat(source) if os.fspath(source) else None
    if src is None:
        return  # no such input: nothing there to destroy
    if stat.S_ISDIR(src.st_mode):
        if _inside(path, source, src):
            raise OutputError(
                path, f"is inside the input directory {os.fspath(source)}, whose files are "
                "read; name an output file outside it")
        return
    try:
        same = os.path.samefile(path, source)
    except (OSError, ValueError):
        return
    if same:
        raise OutputError(
            path, f"is the input file {os.fspath(source)}; writing the result there "
            "would destroy it (name another output file)")


def _inside(path: str | os.PathLike, source: str | os.PathLike, src: os.stat_result) -> bool:
    """Whether writing ``path`` writes inside the directory ``source`` (``src`` its
    ``stat``): a directory on the way to where the write goes (symbolic links followed,
    as the write follows them) is ``source`` itself, compared by device and inode, or
    by resolved path where nothing is there yet; or ``path`` is a file already there
    that is also a file of the tree (a hard link, a link the tree holds)."""
    real = os.path.realpath(path)
    ident = (src.st_dev, src.st_ino)
    for up in Path(real).parents:
        st = _stat(up)
        if st is not None and (st.st_dev, st.st_ino) == ident:
            return True
    root = os.path.realpath(source)
    try:
        if os.path.commonpath([root, real]) == root:
            return True
    except ValueError:  # paths on different drives
        pass
    out = _stat(path)
    if out is None or not stat.S_ISREG(out.st_mode):
        return False
    for dirpath, _, filenames in os.walk(os.fspath(source)):
        for name in filenames:
            st = _stat(os.path.join(dirpath, name))
            if st is not None and (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
                return True
    return False


def _write_fd(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _write_stream(path: str, st: os.stat_result, data: bytes) -> None:
    """Write into a FIFO or a character device (never created, truncated or replaced)."""
    flags = os.O_WRONLY | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    if stat.S_ISFIFO(st.st_mode):
        # without a reader, a blocking open would wait for ever: refuse at once
        try:
            fd = os.open(path, flags | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno == errno.ENXIO:
                raise OutputError(path, "is a FIFO that no program is reading") from None
            raise
        os.set_blocking(fd, True)  # a reader is there: wait for it as a pipe would
    else:
        fd = os.open(path, flags)
    try:
        now = os.fstat(fd)  # what was opened is what was checked
        if (now.st_mode, now.st_rdev) != (st.st_mode, st.st_rdev) or _refusal(now):
            raise OutputError(path, "changed while it was being opened; nothing written")
        _write_fd(fd, data)
    finally:
        os.close(fd)


def write_output(path: str | os.PathLike, data: bytes) -> None:
    """Write a result to ``path`` the way a user of ``-o FILE`` expects.

    * nothing there: a new regular file, written atomically;
    * a regular file (also through symbolic links): replaced atomically, keeping its
      permission bits; the link stays a link;
    * a FIFO with a reader, the null (zero, full) device or a terminal: written to
      directly, never replaced, so ``-o /dev/null`` works;
    * anything else (a directory, a disk, another device, a FIFO nobody reads):
      refused with :class:`OutputError`, nothing written.

    On any failure the previous content of a regular file at ``path`` is intact and
    no temporary file is left.

    Raises
    ------
    OSError
        :class:`OutputError` for a refused path; the operating system's error
        (``ENOSPC``, ``EIO``, ``EACCES`` ...) for a failed write.

    Examples
    --------
    A regular file is replaced, keeping its permission bits; the null device is
    written into, never replaced:

    >>> import os, stat, tempfile
    >>> from esize.io import write_output
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "report.txt")
    ...     write_output(path, b"first")
    ...     os.chmod(path, 0o640)
    ...     write_output(path, b"second")
    ...     with open(path, "rb") as fh:
    ...         print(fh.read(), oct(stat.S_IMODE(os.stat(path).st_mode)))
    b'second' 0o640
    >>> write_output(os.devnull, b"nothing")
    """
    path = os.fspath(path)
    if not path:
        raise OutputError(path, "the output file name is empty")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None:
        reason = _refusal(st)
        if reason is not None:
            raise OutputError(path, reason)
        if not stat.S_ISREG(st.st_mode):
            _write_stream(path, st, data)
            return
    # a regular file or nothing yet: the real path, so that a symbolic link is followed
    # (its target replaced), not replaced by a file itself
    target = os.path.realpath(path)
    with atomic_open(target, mode=None if st is None else stat.S_IMODE(st.st_mode)) as fh:
        fh.write(data)
