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

import json
import math
import os
import re
import stat
import sys
from collections.abc import Callable
from typing import Any, NoReturn, Union

from .errors import RecordError, TtrError

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
]

MAP_LIMIT: int = 4 * 1024 * 1024
"""Largest map file read, in bytes (4 MiB; the biggest shipped map is about 30 KiB)."""

RECORD_LIMIT: int = 16 * 1024 * 1024
"""Largest game record or position file read, in bytes (16 MiB)."""

MAX_DEPTH: int = 64
"""Deepest nesting of JSON arrays and objects accepted (ttr_lab's own files use 4)."""

MAX_NUMBER_DIGITS: int = 4300
"""Most digits in a JSON integer (Python's default int conversion limit, also
enforced where the interpreter has none; a lower interpreter limit wins)."""

ErrorFactory = Callable[[str, str, str], TtrError]
"""Builds the error to raise: ``error(where, entry, problem)``.

``where`` names the file (or other source), ``entry`` the spot in it and
``problem`` what is wrong.  :class:`~ttr_lab.errors.MapDataError` fits as it
is; use :func:`record_error` for :class:`~ttr_lab.errors.RecordError`.
"""

PathArg = Union[str, "os.PathLike[str]"]
"""A file path: a ``str`` or a :class:`pathlib.Path` (any :class:`os.PathLike`)."""

_BOM = b"\xef\xbb\xbf"
_CHUNK = 1 << 20
# A JSON string token (the unrolled form runs in linear time).
_STRING_SRC = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_STRING = re.compile(_STRING_SRC, re.DOTALL)
_TOKENS_DEPTH = re.compile(_STRING_SRC + r"|(?P<hit>[\[\]{}])", re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_TO_PARENS = str.maketrans("[]{}", "()()")
_LONG_DIGITS = re.compile(r"[0-9]{%d}" % (MAX_NUMBER_DIGITS + 1))
_CONSTANT = r"NaN|-?Infinity"
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
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


class _Reject(Exception):
    """Raised by the parser hooks; ``pattern`` finds the offending token."""

    def __init__(self, problem: str, pattern: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.pattern = pattern


def _brief(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _sketch(value: Any) -> str:
    """A short JSON rendering of ``value``; containers are shown as ``[...]``, ``{...}``."""
    if isinstance(value, list):
        return "[...]"
    if isinstance(value, dict):
        return "{...}"
    return _brief(json.dumps(value), 20)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                shown = ", ".join(f"{_sketch(k)}: {_sketch(v)}" for k, v in pairs[:6])
                shown = "{" + shown + (", ...}" if len(pairs) > 6 else "}")
                raise _Reject(f"duplicate key {_brief(repr(key))} in the object {_brief(shown, 100)}")
            seen.add(key)
    return obj


def _constant(name: str) -> NoReturn:
    raise _Reject(f"{name} is not a JSON number; write a number", _CONSTANT)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Reject(
            f"number {_brief(text, 30)} is too large", r"(?<![0-9.eE+-])" + re.escape(text) + r"(?![0-9.eE+-])"
        )
    return value


def _interpreter_int_digits() -> int:
    """The interpreter's limit on digits in ``int(text)``; 0 for none."""
    get: Callable[[], int] | None = getattr(sys, "get_int_max_str_digits", None)
    return get() if get is not None else 0


def _int_digits() -> int:
    """Most digits accepted in a JSON integer: ours, or the interpreter's if lower."""
    ours = _interpreter_int_digits()
    return ours if 0 < ours < MAX_NUMBER_DIGITS else MAX_NUMBER_DIGITS


def _long_int(digits: int) -> str:
    """A pattern for an integer token (not part of a float) of more than ``digits`` digits."""
    return r"(?<![0-9.eE+-])-?[0-9]{%d,}(?![.eE0-9])" % (digits + 1)


def _position(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line} column {column}"


def _locate(text: str, pattern: str) -> str:
    """``"line L column C"`` of the first match of ``pattern`` outside strings, else ``"JSON"``."""
    for m in re.finditer(_STRING_SRC + f"|(?P<hit>{pattern})", text, re.DOTALL):
        if m.group("hit") is not None:
            return _position(text, m.start())
    return "JSON"


def _too_deep(text: str, max_depth: int) -> str | None:
    """Where nesting first goes deeper than ``max_depth`` (``"line L column C"``), or None."""
    if text.count("[") + text.count("{") <= max_depth:
        return None
    # Brackets only, as parentheses; each pass drops the innermost pairs, so
    # a balanced skeleton is empty after as many passes as it is deep.
    skeleton = _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_TO_PARENS)
    for _ in range(max_depth):
        shorter = skeleton.replace("()", "")
        if not shorter:
            return None
        if len(shorter) == len(skeleton):
            break  # unbalanced (the text is cut short): find the spot below
        skeleton = shorter
    depth = 0
    for m in _TOKENS_DEPTH.finditer(text):
        hit = m.group("hit")
        if hit is None:
            continue
        depth += 1 if hit in "[{" else -1
        if depth > max_depth:
            return _position(text, m.start())
    return "JSON"  # not reached for text that json.loads accepted or recursed on


def loads_json(text: str, *, where: str, error: ErrorFactory, max_depth: int = MAX_DEPTH) -> Any:
    """Parse strict JSON text; every failure raises the library's error.

    Stricter than :func:`json.loads`: the constants ``NaN``, ``Infinity`` and
    ``-Infinity`` are refused (they are not JSON), as are numbers that
    overflow a float, integers with more than :data:`MAX_NUMBER_DIGITS`
    digits, nesting deeper than ``max_depth``, a key repeated in one object
    and ``\\u`` escapes that leave half of a surrogate pair (not text; it
    could never be written back as UTF-8).

    Parameters
    ----------
    text : str
        The JSON text.
    where : str
        Names the source in messages.
    error : ErrorFactory
        Builds the error raised.
    max_depth : int, optional
        Deepest nesting of arrays and objects accepted.

    Returns
    -------
    Any
        The decoded value: dicts, lists, str, int, float, bool and None.

    Raises
    ------
    TtrError
        Whatever ``error`` builds; the entry is ``"line L column C"`` where
        the spot is known, else ``"JSON"``.

    Examples
    --------
    >>> from ttr_lab.errors import MapDataError
    >>> loads_json('{"format": "ttr_lab.map",\\n "version": 1,,}', where="m.json", error=MapDataError)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.MapDataError: m.json: line 2 column 15: invalid JSON: Expecting property name enclosed in double quotes
    >>> loads_json("[" * 100 + "]" * 100, where="m.json", error=MapDataError)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.MapDataError: m.json: line 1 column 65: invalid JSON: nested deeper than 64 levels
    >>> loads_json("[1" + "0" * 5000 + "]", where="m.json", error=MapDataError)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.MapDataError: m.json: line 1 column 2: invalid JSON: an integer with more than 4300 digits
    >>> loads_json('[1e400]', where="m.json", error=MapDataError)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.MapDataError: m.json: line 1 column 2: invalid JSON: number 1e400 is too large
    >>> loads_json('["\\\\ud800"]', where="m.json", error=MapDataError)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.MapDataError: m.json: line 1 column 2: invalid JSON: "\\ud800" is half of a surrogate pair, not text
    """

    def fail(entry: str, problem: str, cause: BaseException | None = None) -> NoReturn:
        raise error(where, entry, problem) from cause

    deep = f"invalid JSON: nested deeper than {max_depth} levels"
    digits = _int_digits()
    long_number = f"invalid JSON: an integer with more than {digits} digits"
    if digits != _interpreter_int_digits() and _LONG_DIGITS.search(text):
        # The interpreter does not limit int(): refuse a long integer before
        # int() spends quadratic time on it.
        spot = _locate(text, _long_int(digits))
        if spot != "JSON":
            fail(spot, long_number)
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)
    except _Reject as e:
        fail(_locate(text, e.pattern) if e.pattern else "JSON", f"invalid JSON: {e.problem}")
    except json.JSONDecodeError as e:
        fail(f"line {e.lineno} column {e.colno}", f"invalid JSON: {e.msg}", e)
    except RecursionError:
        fail(_too_deep(text, max_depth) or "JSON", deep)
    except ValueError as e:  # int() refused a long integer
        spot = _locate(text, _long_int(digits))
        fail(spot, long_number if spot != "JSON" else f"invalid JSON: {_brief(str(e), 100)}", e)
    too_deep = _too_deep(text, max_depth)
    if too_deep is not None:
        fail(too_deep, deep)
    if _ESCAPED_SURROGATE.search(text):
        for m in _STRING.finditer(text):
            token = m.group()
            if "\\" in token and _SURROGATE.search(json.loads(token)):
                fail(
                    _position(text, m.start()),
                    f"invalid JSON: {_brief(token, 40)} is half of a surrogate pair, not text",
                )
    return value


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
