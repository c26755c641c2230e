"""Card lists and counts in moves: the helpers every move's notation and
checks share (:mod:`ttr_lab.engine.moves` re-exports them).

A card list is ``((name, count), ...)`` sorted by name with positive whole
counts; :func:`normalize_cards` makes one, :func:`cards_to_text` and
:func:`cards_from_text` write and read the notation's ``name:count`` tokens,
:func:`cards_in_words` says it for people, :func:`card_list_problem` says
what is wrong with a hand-built one.

>>> cards_from_text(["red:2", "loco:1"])
(('loco', 1), ('red', 2))
>>> cards_in_words((("loco", 1), ("red", 2)))
'1 loco + 2 red'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ..errors import InvalidMoveError

__all__ = [
    "CardList",
    "normalize_cards",
    "cards_from_text",
    "cards_to_text",
    "cards_in_words",
    "city_and_cards",
    "card_list_problem",
    "is_count",
    "show_value",
    "MAX_COUNT",
]

#: A card multiset in a move: ``(name, count)`` pairs sorted by name, counts > 0.
CardList = tuple[tuple[str, int], ...]


def is_count(k: object) -> bool:
    """Whether ``k`` is a whole number the notation can write (an ``int``, not
    a ``bool``, of at most 9 digits)."""
    return type(k) is int and -MAX_COUNT <= k <= MAX_COUNT


#: The largest whole number (count, id, slot) a move holds: 9 digits, as in the notation.
MAX_COUNT = 999_999_999


def show_value(value: object, limit: int = 80) -> str:
    """``repr(value)`` clipped, for messages; safe for an int too long to print."""
    try:
        text = repr(value)
    except ValueError:  # more digits than sys.get_int_max_str_digits()
        text = f"<{type(value).__name__} too large to show>"
    return _clip(text, limit)


def normalize_cards(cards: Iterable[tuple[str, int]] | Mapping[str, int]) -> CardList:
    """Merge and sort a card multiset into the canonical tuple form.

    >>> normalize_cards({"red": 2, "loco": 1})
    (('loco', 1), ('red', 2))
    """
    items = cards.items() if isinstance(cards, Mapping) else cards
    merged: dict[str, int] = {}
    for name, n in items:
        if n:
            merged[name] = merged.get(name, 0) + n
    return tuple(sorted(merged.items()))


def cards_to_text(cards: CardList) -> str:
    return " ".join(f"{name}:{n}" for name, n in cards)


def cards_in_words(cards: CardList) -> str:
    """``"2 red + 1 loco"`` (``"nothing"`` for no cards)."""
    return " + ".join(f"{k} {name}" for name, k in cards) or "nothing"


_CARD_TOKEN = re.compile(r"[a-z][a-z0-9_+\-]*:[0-9]{1,6}")  # ASCII digits only (numerals)


def _is_card_token(tok: str) -> bool:
    return _CARD_TOKEN.fullmatch(tok) is not None


def cards_from_text(tokens: Iterable[str], text: str = "") -> CardList:
    """Read ``name:count`` tokens into a card list (linear in the tokens)."""
    out = []
    for tok in tokens:
        if not _is_card_token(tok):
            raise InvalidMoveError(
                f"bad card token {_clip(tok)!r} in {_clip(text)!r} (expected name:count, e.g. red:2)"
            )
        name, _, count = tok.partition(":")
        n = int(count)
        if n <= 0:
            raise InvalidMoveError(f"card count must be positive in {tok!r} ({_clip(text)!r})")
        out.append((name, n))
    return normalize_cards(out)


def city_and_cards(args: list[str], text: str) -> tuple[str, CardList]:
    """Split ``["Den", "Haag", "red:2"]`` into the city and its cards (linear:
    card tokens are taken from the end).

    >>> city_and_cards(["Den", "Haag", "red:2", "loco:1"], "station Den Haag red:2 loco:1")
    ('Den Haag', (('loco', 1), ('red', 2)))
    """
    k = len(args)
    while k > 0 and _is_card_token(args[k - 1]):
        k -= 1
    if k == 0 or k == len(args):
        raise InvalidMoveError(f"expected a city then cards in {_clip(text)!r}")
    return " ".join(args[:k]), cards_from_text(args[k:], text)


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def card_list_problem(cards: object) -> str | None:
    """Why ``cards`` is not a card list of (name, positive whole count) pairs, or None."""
    if not isinstance(cards, tuple):
        return f"cards must be a tuple of (name, count) pairs, not {type(cards).__name__}"
    for item in cards:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
            return f"cards must be (name, count) pairs, not {show_value(item)}"
        if not is_count(item[1]) or item[1] <= 0:
            return (
                f"card count must be a whole number from 1 to {MAX_COUNT} ({_clip(item[0], 40)}:{show_value(item[1])})"
            )
    return None
