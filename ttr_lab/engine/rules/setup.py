"""Setting up a game (rule B1 and options C2, C3): decks, hands, row, tickets.

The order follows the rulebook: shuffle, deal each player's starting cards,
turn up the row (option ``deal_row_after_tickets`` moves this after the
ticket choice, C3), shuffle the tickets and deal each player's initial ones.
``first_player`` (C2) is a seat or ``"random"`` (from the game's seed).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...errors import TtrError
from .base import EditionBase
from .tickets import Tickets

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Setup", "seat_names"]


def seat_names(players: int | Sequence[str], edition: EditionBase) -> tuple[str, ...]:
    """Seat names from a player count or a list of names, checked for the edition."""
    if isinstance(players, (bool, str, bytes)):
        raise TtrError(f"players is a number or a list of names, not {players!r}")
    if isinstance(players, int):
        names = tuple(f"Player {i + 1}" for i in range(players))
    else:
        try:
            names = tuple(players)
        except TypeError:
            raise TtrError(f"players is a number or a list of names, not {players!r}") from None
        bad = [p for p in names if not isinstance(p, str) or not p.strip() or len(p) > 100]
        if bad:
            raise TtrError(f"a player's name is a non-empty string of at most 100 characters, not {bad[0]!r}")
    n = len(names)
    if not edition.min_players <= n <= edition.max_players:
        raise TtrError(f"{edition.name} is played by {edition.min_players}-{edition.max_players} players, not {n}")
    return names


class Setup(Tickets):
    """A new game's position."""

    def first_seat(self, seed: int, n: int) -> int:
        """The seat that plays first (option ``first_player``, C2: a seat, or ``"random"`` from the game's seed).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.first_seat(g.seed, 2)
        0
        """
        fp = self.options["first_player"]
        if fp == "random":
            return random.Random(f"ttr_lab:{seed}:first").randrange(n)
        if fp >= n:
            raise TtrError(f"first_player {fp} is not a seat of a {n}-player game")
        return int(fp)

    def new_position(self, s: GameState) -> None:
        """Give ``s`` (with ``n`` and ``seed`` set) every field, then set the game up.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> s = object.__new__(type(g)); s._init(ed, ('Ada', 'Bob'), 1)
        >>> ed.new_position(s)
        >>> s.to_dict() == g.to_dict()
        False
        """
        for f in self.fields_added:
            setattr(s, f.attr, f.initial(self, s.n))
        ch = s._chance
        first = self.first_seat(s.seed, s.n)
        if ch is not None and ch.first is not None and ch.first != first:
            if self.options["first_player"] != "random":
                raise TtrError(f"the deal's first player is seat {ch.first}, but option first_player is {first}")
            first = ch.first
        s._first = s._cur = first
        self.derive(s)
        self.setup(s)

    def setup(self, s: GameState) -> None:
        """Set a new game up (B1): shuffle, deal the starting cards, turn up the row (unless option ``deal_row_after_tickets``, C3), deal the initial tickets.  A rule with setup of its own extends it.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> len(g.pending_tickets), g.hand_size(1), None in g.row    # what setup dealt
        (3, 4, False)
        """
        self.shuffle_decks(s)
        for p in range(s.n):
            for pile, k in enumerate(self.starting_cards):
                for _ in range(k):
                    self.give(s, p, self.take(s, pile))
        if not self.options["deal_row_after_tickets"]:
            self.deal_row(s)
        tickets = list(self.ticket_deck())
        self.rng(s).shuffle(tickets)
        s._tdeck = tuple(tickets)
        s._setup_deal = self.deal_setup_tickets(s)
        s._pending = s._setup_deal[s._cur]
