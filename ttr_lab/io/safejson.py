"""Strict JSON for the files a user names: :func:`loads_json`.

It is :func:`json.loads` with every failure turned into the library's error
(built by the caller's *error factory*, see :data:`ErrorFactory`): syntax
errors (by line and column), nesting deeper than :data:`MAX_DEPTH`, integers
longer than :data:`MAX_NUMBER_DIGITS` digits, numbers too large for a float,
the constants ``NaN`` and ``Infinity``, a key repeated in one object, and
``\\ud800``-style escapes that are not text.  Reading the file safely comes
first (:mod:`ttr_lab.io.safeio`, which also re-exports everything here).

>>> from ttr_lab.errors import MapDataError
>>> loads_json('[1, [2, [3]]]', where="x.json", error=MapDataError, max_depth=2)
Traceback (most recent call last):
...
ttr_lab.errors.MapDataError: x.json: line 1 column 9: invalid JSON: nested deeper than 2 levels
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from ..errors import TtrError

__all__ = ["MAX_DEPTH", "MAX_NUMBER_DIGITS", "ErrorFactory", "loads_json"]

MAX_DEPTH: int = 64
"""Deepest nesting of JSON arrays and objects accepted (ttr_lab's own files use 4)."""

MAX_NUMBER_DIGITS: int = 4300
"""Most digits in a JSON integer (Python's default int conversion limit, also
enforced where the interpreter has none; a lower interpreter limit wins)."""

ErrorFactory = Callable[[str, str, str], TtrError]
"""Builds the error to raise: ``error(where, entry, problem)``.

``where`` names the file (or other source), ``entry`` the spot in it and
``problem`` what is wrong.  :class:`~ttr_lab.errors.MapDataError` fits as it
is; use :func:`~ttr_lab.io.safeio.record_error` for :class:`~ttr_lab.errors.RecordError`.
"""

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
