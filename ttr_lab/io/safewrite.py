"""Writing files without ever destroying one: :func:`atomic_write` and :func:`atomic_open`.

Every file ttr_lab writes (a record, a position, a score sheet, a review's
CSV, a tournament's rows) goes through this module, re-exported by
:mod:`ttr_lab.io.safeio`.  The target itself is never opened for writing:

1. the data goes to a new temporary file in the *same folder* (a hidden name
   such as ``.keep.csv.1f2e3d4c.tmp``, created exclusively, with the mode an
   ordinary new file gets), which is flushed and ``fsync``-ed;
2. only when all of it is written is the temporary file renamed over the
   target (:func:`os.replace`, atomic on one file system), or, with
   ``overwrite=False``, hard-linked to the target's name, which fails if the
   name exists (:func:`os.link`, atomic too) and then removed;
3. on *any* failure, including :class:`KeyboardInterrupt` and an exception
   in the caller's ``with`` block, the temporary file is removed and the
   target is left as it was, byte for byte (or still absent).

So a reader of the target sees the old content or the new, never half of it,
and a Ctrl-C, a full disk or a failing computation loses nothing the user had.

An existing target must be a regular file: a directory, a device
(``/dev/null``), a named pipe or a symbolic link is refused before anything
is written (replacing a link would silently cut it; replacing a device would
be worse).  Every failure is the library's error, built by the ``error``
factory (see :data:`~ttr_lab.io.safejson.ErrorFactory`; by default a
:class:`~ttr_lab.errors.RecordError`), with entry ``"file"``; its
``__cause__`` is the :class:`OSError` behind it where there is one, e.g. a
:class:`FileExistsError` when ``overwrite=False`` met an existing file.

Examples
--------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "keep.txt")
>>> atomic_write(path, "first\\n")
>>> with atomic_open(path) as f:
...     _ = f.write("second\\n")
>>> open(path, encoding="utf-8").read()
'second\\n'
>>> with atomic_open(path) as f:  # a failure while writing: the old file stays
...     _ = f.write("half")
...     raise ValueError("the review failed")
Traceback (most recent call last):
...
ValueError: the review failed
>>> open(path, encoding="utf-8").read(), sorted(os.listdir(os.path.dirname(path)))
('second\\n', ['keep.txt'])
>>> atomic_write(path, "third\\n", overwrite=False, name="keep.txt")
Traceback (most recent call last):
...
ttr_lab.errors.RecordError: keep.txt: file: exists already; choose another name, or allow replacing it
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any, NoReturn, Union

from ..errors import RecordError
from .safejson import ErrorFactory

__all__ = ["atomic_open", "atomic_write"]

PathArg = Union[str, "os.PathLike[str]"]

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
# os.link fails so on file systems without hard links: fall back to an exclusive create
_NO_LINKS = {errno.EPERM, errno.EACCES, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS}


def _write_error(where: str, entry: str, problem: str) -> RecordError:
    """The default error factory: a :class:`~ttr_lab.errors.RecordError`."""
    return RecordError(where, f"{entry}: {problem}")


def _reason(e: BaseException) -> str:
    return getattr(e, "strerror", None) or str(e)


def _temp_file(folder: str, base: str) -> tuple[int, str]:
    """Create a new hidden temporary file next to the target: ``(fd, path)``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for attempt in range(100):
        tmp = os.path.join(folder, f".{base[:200]}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp  # the umask applies, as to any new file
        except FileExistsError:
            if attempt == 99:  # pragma: no cover - 100 random names all taken
                raise
    raise AssertionError("not reached")  # pragma: no cover


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sync_folder(folder: str) -> None:
    """Make the rename durable (best effort: not every system can sync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _commit(tmp: str, target: str, overwrite: bool) -> None:
    """Put the finished temporary file in the target's place (``tmp`` is gone after)."""
    if overwrite:
        os.replace(tmp, target)
        return
    try:
        os.link(tmp, target)  # atomic, and refuses an existing name
    except OSError as e:
        if e.errno not in _NO_LINKS:
            raise
        # no hard links here: claim the name exclusively, then fill it atomically
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        os.replace(tmp, target)
        return
    _remove(tmp)


@contextmanager
def atomic_open(
    path: PathArg,
    *,
    binary: bool = False,
    overwrite: bool = True,
    error: ErrorFactory = _write_error,
    what: str = "file",
    name: str | None = None,
    encoding: str = "utf-8",
    newline: str | None = None,
) -> Iterator[IO[Any]]:
    """Open a file for writing that appears at ``path`` only if the ``with`` block succeeds.

    Parameters
    ----------
    path : str or os.PathLike
        The target; its folder must exist.
    binary : bool, optional
        Yield a binary file (``bytes``) instead of a text file.
    overwrite : bool, optional
        Replace an existing target (default).  With False an existing target
        is refused, atomically: a file made meanwhile by someone else is never
        replaced either.
    error : ErrorFactory, optional
        Builds the error raised, called as ``error(where, "file", problem)``;
        by default a :class:`~ttr_lab.errors.RecordError`.
    what : str, optional
        What the file should be, for messages, e.g. ``"score sheet"``.
    name : str, optional
        How messages name the file; by default ``str(path)``.  A caller that
        must not reveal its folder passes the bare file name.
    encoding, newline : optional
        For a text file, as :func:`open` takes them (``newline=""`` for CSV).

    Yields
    ------
    file object
        A new temporary file in the target's folder; write to it, do not close it.

    Raises
    ------
    TtrError
        Whatever ``error`` builds, entry ``"file"``: the target exists and
        ``overwrite`` is False, it exists but is not a regular file, or the
        folder cannot be written (missing, read-only, full).  The error's
        ``__cause__`` is the :class:`OSError`, if any; an :class:`OSError`
        raised in the ``with`` block (a full disk) is turned into the same
        error, any other exception propagates unchanged.  In every case the
        target is untouched and the temporary file removed.

    Examples
    --------
    >>> import csv, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "rows.csv")
    >>> with atomic_open(path, newline="") as f:
    ...     csv.writer(f).writerows([["ply", "move"], [1, "draw blind"]])
    >>> open(path, encoding="utf-8").read().splitlines()
    ['ply,move', '1,draw blind']
    >>> with atomic_open(os.path.join(path, "x.csv"), name="x.csv") as f:
    ...     pass
    Traceback (most recent call last):
    ...
    ttr_lab.errors.RecordError: x.csv: file: cannot write: Not a directory
    """
    target = os.fspath(path)
    where = target if name is None else name

    def fail(problem: str, cause: BaseException | None = None) -> NoReturn:
        raise error(where, "file", problem) from cause

    if not isinstance(target, str):
        fail("a file path must be text, not bytes")
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as e:  # ValueError: a NUL character in the path
        fail(f"cannot write: {_reason(e)}", e)
    if mode is not None:
        if not overwrite:
            fail("exists already; choose another name, or allow replacing it", FileExistsError(errno.EEXIST, target))
        if not stat.S_ISREG(mode):
            kind = next((k for test, k in _KINDS if test(mode)), "a special file")
            fail(f"not a regular file ({kind}); give the path of a {what}")
    folder, base = os.path.split(target)
    folder = folder or os.curdir
    if not base:
        fail(f"no file name; give the path of a {what}")
    try:
        fd, tmp = _temp_file(folder, base)
    except OSError as e:
        fail(f"cannot write: {_reason(e)}", e)
    step = "write"
    try:
        try:
            if mode is not None and hasattr(os, "fchmod"):  # keep the replaced file's permissions
                os.fchmod(fd, stat.S_IMODE(mode))
            f: IO[Any] = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding=encoding, newline=newline)
        except BaseException:
            os.close(fd)
            raise
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        step = "commit"
        _commit(tmp, target, overwrite)
    except BaseException as e:
        _remove(tmp)
        if step == "commit" and isinstance(e, FileExistsError):
            fail("exists already; choose another name, or allow replacing it", e)
        if isinstance(e, OSError):  # a full disk, a quota, an I/O error
            fail(f"cannot write: {_reason(e)}", e)
        raise
    _sync_folder(folder)


def atomic_write(
    path: PathArg,
    data: str | bytes,
    *,
    overwrite: bool = True,
    error: ErrorFactory = _write_error,
    what: str = "file",
    name: str | None = None,
) -> None:
    """Write ``data`` to ``path`` all at once, or not at all (see :func:`atomic_open`).

    Parameters
    ----------
    path : str or os.PathLike
        The target; its folder must exist.
    data : str or bytes
        The content; text is written as UTF-8, exactly (no newline translation).
    overwrite, error, what, name : optional
        As :func:`atomic_open` takes them.

    Raises
    ------
    TtrError
        As :func:`atomic_open`; the target is then untouched.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> atomic_write(os.path.join(folder, "a.json"), '{"moves": []}\\n', overwrite=False)
    >>> os.listdir(folder)
    ['a.json']
    >>> atomic_write(folder, "x", name="the folder")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.RecordError: the folder: file: not a regular file (a directory); give the path of a file
    """
    content = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    with atomic_open(path, binary=True, overwrite=overwrite, error=error, what=what, name=name) as f:
        f.write(content)
