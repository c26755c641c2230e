"""A seat's history as it saw it: the values :meth:`PlayerView.history
<ttr_lab.engine.view.PlayerView.history>` returns (:class:`SeenPly`,
:class:`SeenHistory`), and the edition subclass that logs a replay's card
movements (``_spy_class``).  The replay itself, which builds the seat's
:class:`~ttr_lab.engine.view.PlayerView`, is in :mod:`ttr_lab.engine.view` (which
re-exports these).

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=3)
>>> g.play(g.legal_moves[0])
>>> hist = g.view(1).history()
>>> ply = hist.plies[0]
>>> ply.seat, ply.move, ply.kept      # seat 0 kept tickets: seat 1 learns only how many
(0, None, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .moves import Move
    from .view import PlayerView

__all__ = ["SeenPly", "SeenHistory"]


# ---------------------------------------------------------------- the history as one seat saw it
@dataclass(frozen=True)
class SeenPly:
    """One ply as a seat saw it.

    ``move`` is None for another seat's secret decision (which tickets it
    kept, its piece split: a move whose ``announce`` says less than its
    ``describe``); ``kept`` counts the tickets kept by a ticket decision;
    ``offered`` lists the tickets this seat chose from (its own decisions).
    ``events`` are the card movements, in order:

    * ``("draw", pile, card, to_hand)``: a card taken from the deck of
      ``pile`` (an index): turned face up on the table (``to_hand`` False:
      the row, a reset, a tunnel's reveal) or drawn into the mover's hand;
      ``card`` is its name, None for another seat's blind draw;
    * ``("reshuffle", pile, cards)``: the discard (``cards``, all seen going
      there) shuffled into the empty deck;
    * ``("take", card)``: the mover took a face-up card;
    * ``("pay", cards)``: the mover paid these ``(name, count)`` cards to the discard.
    """

    ply: int
    seat: int
    move: Move | None
    kept: int | None
    offered: tuple[int, ...]
    events: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class SeenHistory:
    """``start``: the seat's view of the position before the first recorded
    move (the start of the game, or where a loaded position began);
    ``plies``: every move since, as the seat saw it."""

    start: PlayerView
    plies: tuple[SeenPly, ...]


_SPIES: dict[type[Any], type[Any]] = {}


def _spy_class(cls: type[Any]) -> type[Any]:
    """A subclass of an edition class that logs card movements to ``_log``."""
    spy = _SPIES.get(cls)
    if spy is None:

        def take(self: Any, s: Any, pile: int) -> int:
            if not s._decks[pile] and s._discards[pile]:
                self._log.append(("reshuffle", pile, s._discards[pile]))
            card: int = cls.take(self, s, pile)
            if card >= 0:
                self._log.append(("draw", pile, card))
            return card

        def give(self: Any, s: Any, p: int, card: int) -> None:
            self._log.append(("give", card))
            cls.give(self, s, p, card)

        def pay(self: Any, s: Any, cards: Any) -> None:
            cards = list(cards)
            self._log.append(("pay", tuple(cards)))
            cls.pay(self, s, cards)

        spy = _SPIES[cls] = type(f"_Seen{cls.__name__}", (cls,), {"take": take, "give": give, "pay": pay})
    return spy
