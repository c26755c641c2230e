"""Chance outcomes in records: what a blind draw gave, the tickets a draw
offered, the cards a tunnel revealed, the new face-up card.

An outcome is written after a move, as its last word (see the notation
tables in README.md and ``docs/rules.md``, section ``notation``):

=============================================  ==============================================
``blind =red``                                 the blind draw gave a red card
``blind =?``                                   ... a card the recording seat did not see
``faceup 3 =loco``                             slot 3 was refilled with a locomotive
``faceup 3 =loco/red,blue,green,white,black``  ... which made three: the reset dealt this row
``tickets =3,17,25``                           the draw offered tickets 3, 17 and 25 (top first)
``tickets =?,?,?``                             another seat's draw: three unseen tickets
``claim 45 red:3 =red,loco,blue``              the three cards a tunnel turned up
``keep ? ?``                                   another seat kept two of its tickets, unseen
``pieces ?``                                   another seat's secret piece split, never revealed
=============================================  ==============================================

Outcomes are not part of the move values: ``parse_move("blind =red")`` is
``DrawBlind()``, equal to the move a game plays; a record keeps the text,
and :func:`parse_recorded` gives the move (or hidden decision) and the
outcome.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.move_cards import _clip
from ..engine.moves import MAX_MOVE_TEXT, KeepTickets, Move, parse_move, show_value
from ..errors import InvalidMoveError
from ..io.numerals import is_numeral, read_number

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.state import GameState

__all__ = [
    "Token",
    "ChanceOutcome",
    "parse_outcome",
    "split_outcome",
    "HiddenMove",
    "parse_recorded",
    "seen_text",
    "MAX_OUTCOME_TEXT",
]

#: the longest outcome a record may write: a face-up pick can set off a long
#: chain of resets near the end of a game (each a row of cards), so this is
#: well above :data:`~ttr_lab.engine.moves.MAX_MOVE_TEXT`; a record file's size limit
#: (:data:`ttr_lab.io.safeio.RECORD_LIMIT`) bounds the whole
MAX_OUTCOME_TEXT = 100_000

#: one thing chance produced: a card name, a ticket id, or None (``?``: not seen by the recording seat)
Token = str | int | None

_TOKEN = re.compile(r"\?|[0-9]{1,9}|[a-z][a-z0-9_+\-]*")  # ticket ids in ASCII digits (numerals)


@dataclass(frozen=True)
class ChanceOutcome:
    """What chance produced during one move, in the order it happened.

    ``groups`` are the cards (or tickets) turned up; a new group starts with
    each face-up row dealt after the move's first card (a reset), written
    ``/``.  A token is a card name, a ticket id, or None for ``?``.

    >>> o = parse_outcome("=loco/red,blue,green,white,black")
    >>> o.groups[0], len(o.groups[1]), str(o)
    (('loco',), 5, '=loco/red,blue,green,white,black')
    >>> parse_outcome("=?,?,?").tokens
    (None, None, None)
    """

    groups: tuple[tuple[Token, ...], ...]

    @property
    def tokens(self) -> tuple[Token, ...]:
        """Every token, groups run together."""
        return tuple(t for g in self.groups for t in g)

    @property
    def hidden(self) -> bool:
        """Whether some token is ``?``."""
        return any(t is None for g in self.groups for t in g)

    def __str__(self) -> str:
        return "=" + "/".join(",".join("?" if t is None else str(t) for t in g) for g in self.groups)


def parse_outcome(text: str) -> ChanceOutcome:
    """Read an outcome (``=red``, ``=loco/red,blue,...``, ``=3,17,25``, ``=?``).

    >>> parse_outcome("=3,17,?")
    ChanceOutcome(groups=((3, 17, None),))
    >>> parse_outcome("=red,,blue")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.InvalidMoveError: empty entry in the outcome '=red,,blue'
    """
    if not isinstance(text, str) or text[:1] != "=":
        raise InvalidMoveError(f"an outcome starts with '=', not {show_value(text)}")
    if len(text) > MAX_OUTCOME_TEXT:
        raise InvalidMoveError(f"outcome of {len(text)} characters is too long (at most {MAX_OUTCOME_TEXT})")
    body = text[1:]
    if not body:
        raise InvalidMoveError("an outcome lists at least one card or ticket after '='")
    groups = []
    for part in body.split("/"):
        tokens: list[Token] = []
        for tok in part.split(","):
            if not tok:
                raise InvalidMoveError(f"empty entry in the outcome {_clip(text)!r}")
            if not _TOKEN.fullmatch(tok):
                raise InvalidMoveError(
                    f"bad entry {_clip(tok, 40)!r} in the outcome {_clip(text)!r} (a card name, a ticket id or ?)"
                )
            tokens.append(None if tok == "?" else read_number(tok) if is_numeral(tok) else tok)
        groups.append(tuple(tokens))
    return ChanceOutcome(tuple(groups))


def split_outcome(text: str) -> tuple[str, str | None]:
    """``"blind =red"`` -> ``("blind", "=red")``; the outcome is the last word, after the move.

    >>> split_outcome("faceup 3 =loco"), split_outcome("tickets")
    (('faceup 3', '=loco'), ('tickets', None))
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move's notation is a string, not {type(text).__name__}")
    words = text.split()
    if words and words[-1][:1] == "=":
        return " ".join(words[:-1]), words[-1]
    return " ".join(words), None


@dataclass(frozen=True)
class HiddenMove:
    """Another seat's decision the recording seat did not see (seat records only):
    ``keep ? ?`` (``count`` tickets kept, which ones unknown) or ``VERB ?``
    for any other secret decision not revealed by the end of the record
    (Rails & Sails' ``pieces ?``: a piece split).  Not a :class:`Move`."""

    verb: str
    count: int = 0

    def __str__(self) -> str:
        return "keep " + " ".join("?" * self.count) if self.verb == "keep" else f"{self.verb} ?"


def seen_text(state: GameState, move: Move, seat: int) -> str:
    """``move``, about to be played in ``state``, as ``seat`` sees it: its
    notation, or for another seat's secret decision (a move whose public
    announcement says less than its description) ``keep ? ?`` or ``pieces ?``.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> keep = g.legal_moves[0]
    >>> seen_text(g, keep, 0), seen_text(g, keep, 1)
    ('keep 9 17', 'keep ? ?')
    """
    if state.current_player == seat or move.announce(state) == move.describe(state):
        return str(move)
    if isinstance(move, KeepTickets):
        return str(HiddenMove("keep", len(move.tickets)))
    return str(HiddenMove(move.verb))


def parse_recorded(text: str) -> tuple[Move | HiddenMove, ChanceOutcome | None]:
    """A record's move entry: the move (or a hidden decision) and its outcome, if any.

    >>> parse_recorded("blind =red")
    (DrawBlind(), ChanceOutcome(groups=(('red',),)))
    >>> parse_recorded("keep ? ?")
    (HiddenMove(verb='keep', count=2), None)
    """
    move_text, out = split_outcome(text)
    if len(move_text) > MAX_MOVE_TEXT:
        raise InvalidMoveError(f"move text of {len(move_text)} characters is too long (at most {MAX_MOVE_TEXT})")
    words = move_text.split()
    outcome = parse_outcome(out) if out is not None else None
    if words and words[0] == "keep" and len(words) > 1 and all(w == "?" for w in words[1:]):
        return HiddenMove("keep", len(words) - 1), outcome
    if len(words) == 2 and words[1] == "?":
        return HiddenMove(words[0]), outcome  # another seat's secret decision ("pieces ?"), checked on replay
    return parse_move(move_text), outcome
