"""Whole numbers written as text: ASCII digits only, read by one function.

Move notation, record files, positions' route keys and every widget entry
write their numbers (a slot, a route or ticket id, a count) in ASCII digits
``0-9``.  Python's own tests are wider: ``"²".isdigit()`` and
``"①".isdigit()`` are true but ``int()`` refuses them, and ``int("٣")``
(an Arabic-Indic three) or ``int("３")`` (a full-width three) are accepted.
So every number typed or read goes through :func:`read_number`, which takes
ASCII digits only, bounds their length *before* converting, and on anything
else raises the error the caller's layer uses (an
:class:`~ttr_lab.errors.InvalidMoveError` for a move,
:class:`~ttr_lab.errors.RecordError` for a file...), never a bare
:class:`ValueError`.

>>> read_number("17")
17
>>> is_numeral("²"), is_numeral("٣"), is_numeral("17"), is_numeral("-3"), is_numeral("-3", signed=True)
(False, False, True, False, True)
>>> read_number("²", what="face-up slot")
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: face-up slot: expected a whole number in digits 0-9, not '²'
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import TtrError

__all__ = ["MAX_DIGITS", "is_numeral", "read_number"]

#: The longest number the notation writes: 9 digits (see ``move_cards.MAX_COUNT``).
MAX_DIGITS = 9

_DIGITS = frozenset("0123456789")


def is_numeral(text: object, *, max_digits: int = MAX_DIGITS, signed: bool = False) -> bool:
    """Whether ``text`` is a string of 1 to ``max_digits`` ASCII digits
    (after one leading ``-`` when ``signed``)."""
    if not isinstance(text, str):
        return False
    if signed and text[:1] == "-":
        text = text[1:]
    return 0 < len(text) <= max_digits and _DIGITS.issuperset(text)


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_number(
    text: object,
    *,
    what: str = "number",
    error: Callable[[str], Exception] = TtrError,
    max_digits: int = MAX_DIGITS,
    signed: bool = False,
    low: int | None = None,
    high: int | None = None,
) -> int:
    """The whole number ``text`` writes in ASCII digits.

    ``error(message)`` builds what is raised (any :class:`~ttr_lab.errors.TtrError`
    subclass; the message starts with ``what``) when ``text`` is not 1 to
    ``max_digits`` ASCII digits (after a ``-`` when ``signed``), or lies
    outside ``low..high``.  The length is checked before anything is
    converted, so a long text costs nothing.

    >>> read_number("-4", signed=True, low=-5)
    -4
    >>> read_number("12", what="slot", low=1, high=5)
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: slot: 12 is out of range (1 to 5)
    """
    if not is_numeral(text, max_digits=max_digits, signed=signed):
        sign = "an optional '-' then " if signed else ""
        if not isinstance(text, str):
            raise error(f"{what}: expected a whole number in {sign}digits 0-9, not a {type(text).__name__}")
        body = text[1:] if signed and text[:1] == "-" else text
        limit = f" (at most {max_digits})" if len(body) > max_digits and _DIGITS.issuperset(body) else ""
        raise error(f"{what}: expected a whole number in {sign}digits 0-9{limit}, not {_clip(text)!r}")
    assert isinstance(text, str)
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "" if low is None else str(low)
        hi = "" if high is None else str(high)
        span = f"{lo} to {hi}" if lo and hi else f"at least {lo}" if lo else f"at most {hi}"
        raise error(f"{what}: {value} is out of range ({span})")
    return value
