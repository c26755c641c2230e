"""Safe reading of the files a user names: bounded, regular files only, strict JSON.

Every file ttr_lab reads (a classroom map, a saved game, a position) goes
through this module, so a wrong path or a damaged or hostile file ends in one
of the library's own errors, never in a hang, a crash deep in the parser or a
bare :class:`UnicodeDecodeError`:

* :func:`read_text` refuses anything that is not a regular file *before*
  reading it (a directory, ``/dev/zero``, ``/dev/stdin``, a named pipe that
  would block forever), reads at most ``limit + 1`` bytes and decodes UTF-8
  (a byte-order mark is accepted), naming the line of a byte that is not UTF-8;
* :func:`loads_json` is :func:`json.loads` with every failure turned into the
  library's error: syntax errors (by line and column), nesting deeper than
  :data:`MAX_DEPTH`, integers longer than :data:`MAX_NUMBER_DIGITS` digits,
  numbers too large for a float, the constants ``NaN`` and ``Infinity``, a key repeated
  in one object, and ``\\ud800``-style escapes that are not text;
* :func:`load_json` does both.

Writing goes the other way round, never destroying a file: :func:`atomic_write`
and :func:`atomic_open` (from :mod:`ttr_lab.io.safewrite`, re-exported here)
write a temporary file in the target's folder and rename it over the target
only when all of it is written; a failure or a Ctrl-C leaves the target as it
was.

Nothing here ever unpickles or evaluates anything.

Errors are built by an *error factory* the caller passes, called as
``error(where, entry, problem)``: ``where`` names the file, ``entry`` the spot
in it (``"file"``, ``"line 3"``, ``"line 3 column 16"`` or ``"JSON"``) and
``problem`` says what is wrong.  :class:`~ttr_lab.errors.MapDataError` is such
a factory as it stands; :func:`record_error` adapts
:class:`~ttr_lab.errors.RecordError`.

Examples
--------
>>> from ttr_lab.errors import MapDataError
>>> loads_json('{"id": 1, "a": [1, 2]}', where="x.json", error=MapDataError)
{'id': 1, 'a': [1, 2]}
>>> loads_json('{"id": 1, "id": 2}', where="x.json", error=MapDataError)
Traceback (most recent call last):
...
ttr_lab.errors.MapDataError: x.json: JSON: invalid JSON: duplicate key 'id' in the object {"id": 1, "id": 2}
>>> loads_json('[1, NaN]', where="x.json", error=MapDataError)
Traceback (most recent call last):
...
ttr_lab.errors.MapDataError: x.json: line 1 column 5: invalid JSON: NaN is not a JSON number; write a number
>>> read_text(".", limit=MAP_LIMIT, what="map file", error=MapDataError)
Traceback (most recent call last):
...
ttr_lab.errors.MapDataError: .: file: not a regular file (a directory); give the path of a map file
"""

from __future__ import annotations

import os
import stat
from typing import Any, NoReturn, Union

from ..errors import RecordError
from .safejson import MAX_DEPTH, MAX_NUMBER_DIGITS, ErrorFactory, loads_json
from .safewrite import atomic_open, atomic_write

__all__ = [
    "MAP_LIMIT",
    "RECORD_LIMIT",
    "MAX_DEPTH",
    "MAX_NUMBER_DIGITS",
    "ErrorFactory",
    "record_error",
    "read_text",
    "decode_text",
    "loads_json",
    "load_json",
    "atomic_open",
    "atomic_write",
]

MAP_LIMIT: int = 4 * 1024 * 1024
"""Largest map file read, in bytes (4 MiB; the biggest shipped map is about 30 KiB)."""

RECORD_LIMIT: int = 16 * 1024 * 1024
"""Largest game record or position file read, in bytes (16 MiB)."""

PathArg = Union[str, "os.PathLike[str]"]
"""A file path: a ``str`` or a :class:`pathlib.Path` (any :class:`os.PathLike`)."""

_BOM = b"\xef\xbb\xbf"
_CHUNK = 1 << 20
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def record_error(where: str, entry: str, problem: str) -> RecordError:
    """The :data:`ErrorFactory` for records and positions.

    Parameters
    ----------
    where : str
        The file or source.
    entry : str
        The spot in it, e.g. ``"line 3 column 16"``.
    problem : str
        What is wrong.

    Returns
    -------
    RecordError
        With ``where`` as given and ``"entry: problem"`` as the problem.

    Examples
    --------
    >>> str(record_error("game.json", "line 2", "not UTF-8 text (byte 9); save the file as UTF-8"))
    'game.json: line 2: not UTF-8 text (byte 9); save the file as UTF-8'
    """
    return RecordError(where, f"{entry}: {problem}")


def _size(n: int) -> str:
    """``n`` bytes in the largest binary unit that divides it, e.g. ``"4 MiB"``.

    >>> _size(4 * 1024 * 1024), _size(1536), _size(100)
    ('4 MiB', '1.5 KiB', '100 bytes')
    """
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} bytes"


def _kind(mode: int) -> str | None:
    """What a non-regular file is (``"a directory"``), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, name in _KINDS:
        if test(mode):
            return name
    return "a special file"


def read_text(
    path: PathArg,
    *,
    limit: int,
    error: ErrorFactory,
    what: str = "file",
    name: str | None = None,
) -> str:
    """Read a UTF-8 text file that the user named, safely.

    The file is checked with :func:`os.stat` before it is opened and with
    :func:`os.fstat` after (it is opened non-blocking, so a named pipe
    swapped in between cannot hang the call); anything but a regular file is
    refused.  At most ``limit + 1`` bytes are read, whatever size the file
    claims.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    limit : int
        Largest size accepted, in bytes: :data:`MAP_LIMIT`,
        :data:`RECORD_LIMIT` or another.
    error : ErrorFactory
        Builds the error raised, called as ``error(where, entry, problem)``.
    what : str, optional
        What the file should be, for messages, e.g. ``"map file"``.
    name : str, optional
        How messages name the file; by default ``str(path)``.

    Returns
    -------
    str
        The text, without a leading byte-order mark.

    Raises
    ------
    TtrError
        Whatever ``error`` builds, with entry ``"file"`` when the file is
        missing, unreadable, not a regular file or larger than ``limit``, and
        ``"line N"`` when a byte is not UTF-8.

    Examples
    --------
    >>> import os, tempfile
    >>> from ttr_lab.errors import MapDataError
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "m.json")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(b'\\xef\\xbb\\xbf{"name": "Z\\xc3\\xbcrich"}')
    >>> read_text(path, limit=MAP_LIMIT, error=MapDataError)
    '{"name": "Zürich"}'
    >>> read_text(path, limit=10, what="map file", error=MapDataError, name="m.json")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.MapDataError: m.json: file: too large: 22 bytes; the limit for a map file is 10 bytes
    >>> read_text("/dev/zero", limit=MAP_LIMIT, error=MapDataError)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.MapDataError: /dev/zero: file: not a regular file (a character device); give the path of a file
    """
    file = os.fspath(path)
    where = file if name is None else name

    def fail(problem: str) -> NoReturn:
        raise error(where, "file", problem)

    def refuse_special(mode: int) -> None:
        kind = _kind(mode)
        if kind is not None:
            fail(f"not a regular file ({kind}); give the path of a {what}")

    def refuse_size(size: int, exact: bool = True) -> None:
        if size > limit:
            amount = f"{size} bytes" if exact else f"more than {limit} bytes"
            fail(f"too large: {amount}; the limit for a {what} is {_size(limit)}")

    flags = os.O_RDONLY
    for extra in ("O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY"):
        flags |= getattr(os, extra, 0)
    try:
        mode = os.stat(file).st_mode
    except (OSError, ValueError) as e:  # ValueError: a NUL character in the path
        raise error(where, "file", f"cannot read: {getattr(e, 'strerror', None) or e}") from e
    refuse_special(mode)
    try:
        fd = os.open(file, flags)
    except OSError as e:
        raise error(where, "file", f"cannot read: {e.strerror or e}") from e
    try:
        try:
            info = os.fstat(fd)
            refuse_special(info.st_mode)
            refuse_size(info.st_size)
            chunks: list[bytes] = []
            total = 0
            while total <= limit:
                chunk = os.read(fd, min(limit + 1 - total, _CHUNK))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
        except OSError as e:
            raise error(where, "file", f"cannot read: {e.strerror or e}") from e
    finally:
        os.close(fd)
    refuse_size(total, exact=False)
    return decode_text(b"".join(chunks), where=where, error=error)


def decode_text(data: bytes, *, where: str, error: ErrorFactory) -> str:
    """Decode UTF-8 bytes (a leading byte-order mark is dropped).

    Parameters
    ----------
    data : bytes
        The file's content.
    where : str
        Names the file in messages.
    error : ErrorFactory
        Builds the error raised.

    Returns
    -------
    str
        The text.

    Raises
    ------
    TtrError
        Entry ``"line N"``, problem ``"not UTF-8 text (byte K); save the file
        as UTF-8"``, where K is the offset of the first bad byte.

    Examples
    --------
    >>> from ttr_lab.errors import MapDataError
    >>> decode_text(b"\\xef\\xbb\\xbfok", where="m.json", error=MapDataError)
    'ok'
    >>> decode_text(b'[\\n"Montr\\xe9al"]', where="m.json", error=MapDataError)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.MapDataError: m.json: line 2: not UTF-8 text (byte 8); save the file as UTF-8
    """
    skip = len(_BOM) if data.startswith(_BOM) else 0
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as e:
        offset = skip + e.start
        line = data.count(b"\n", 0, offset) + 1
        raise error(where, f"line {line}", f"not UTF-8 text (byte {offset}); save the file as UTF-8") from None


def load_json(
    path: PathArg,
    *,
    limit: int,
    error: ErrorFactory,
    what: str = "file",
    name: str | None = None,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """:func:`read_text` then :func:`loads_json`: read a JSON file the user named.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    limit : int
        Largest size accepted, in bytes.
    error : ErrorFactory
        Builds the error raised.
    what : str, optional
        What the file should be, for messages.
    name : str, optional
        How messages name the file; by default ``str(path)``.
    max_depth : int, optional
        Deepest nesting accepted.

    Returns
    -------
    Any
        The decoded value.

    Raises
    ------
    TtrError
        Whatever ``error`` builds (see :func:`read_text` and :func:`loads_json`).

    Examples
    --------
    >>> import os, tempfile
    >>> from ttr_lab.errors import RecordError
    >>> path = os.path.join(tempfile.mkdtemp(), "game.json")
    >>> with open(path, "w", encoding="utf-8") as f:
    ...     _ = f.write('{"moves": ["pass"]}')
    >>> load_json(path, limit=RECORD_LIMIT, what="game record", error=record_error)
    {'moves': ['pass']}
    >>> load_json(path + ".missing", limit=RECORD_LIMIT, error=record_error, name="game2.json")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.RecordError: game2.json: file: cannot read: No such file or directory
    """
    where = os.fspath(path) if name is None else name
    text = read_text(path, limit=limit, error=error, what=what, name=where)
    return loads_json(text, where=where, error=error, max_depth=max_depth)
