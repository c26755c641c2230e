"""The face-up row and the wild reset (rule A3).

Position fields: ``_row`` (a card index per slot, -1 for an empty slot) and
``_resets`` (three-wild resets so far).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from ..moves import DrawFaceUp, Move
from .base import Field
from .decks import Decks

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Row"]


class Row(Decks):
    """Dealing, refilling and resetting the face-up row."""

    fields: ClassVar[tuple[Field, ...]] = (
        Field("_row", "", lambda ed, n: tuple(-1 for _ in range(ed.row_size))),
        Field("_resets", "", lambda ed, n: 0),
    )

    _faceup: tuple[tuple[Move, ...], ...]
    _slot_state: Callable[[int], int]
    _pattern_cache: dict[tuple[int, ...], tuple[list[Move], list[Move]]]
    _slot_pile: tuple[int, ...]
    _card_name_or_none: Callable[[int], str | None]

    def _build_tables(self) -> None:
        super()._build_tables()
        self._faceup = tuple(self.faceup_moves(s + 1) for s in range(self.row_size))
        # row slot (a card index, -1 empty) -> 0 empty, 1 a card that may be a
        # second pick, 2 a wild; indexing with -1 reads the final 0
        self._slot_state = (tuple(2 if c.wild else 1 for c in self.card_types) + (0,)).__getitem__
        # row slot -> the card's name, None for an empty slot (-1 reads the final None)
        self._card_name_or_none = (tuple(c.name for c in self.card_types) + (None,)).__getitem__
        # face-up picks by the row's pattern: at most 3 ** row_size entries
        self._pattern_cache = {}
        homes = []
        for pile, k in enumerate(self.row_split):
            homes += [pile] * k
        self._slot_pile = tuple(homes)

    def faceup_moves(self, slot: int) -> tuple[Move, ...]:
        """The moves that take face-up ``slot`` (editions with a refill choice have several).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.faceup_moves(1)
        (DrawFaceUp(slot=1),)
        """
        return (DrawFaceUp(slot),)

    def row_picks(self, s: GameState) -> tuple[list[Move], list[Move]]:
        """Face-up picks allowed as a first and as a second card (A2), cached
        by the row's pattern (each slot empty, wild or other).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> first, second = ed.row_picks(g)
        >>> len(first), len(second) <= len(first)
        (5, True)
        """
        pattern = tuple(map(self._slot_state, s._row))
        picks = self._pattern_cache.get(pattern)
        if picks is None:
            faceup = self._faceup
            first = [m for i, k in enumerate(pattern) if k for m in faceup[i]]
            second = [m for i, k in enumerate(pattern) if k == 1 for m in faceup[i]]
            picks = self._pattern_cache[pattern] = (first, second)
        return picks

    def set_slot(self, s: GameState, i: int, card: int) -> None:
        """Put ``card`` (an index of ``card_types``, -1 for none) in face-up slot ``i`` (from 0).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.set_slot(g, 0, -1)
        >>> g.row[0] is None
        True
        """
        s._row = s._row[:i] + (card,) + s._row[i + 1 :]

    def deal_row(self, s: GameState) -> None:
        """Deal a whole row (setup, or after a reset), then check for a reset.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.deal_row(g)
        >>> len(g.row), None in g.row
        (5, False)
        """
        self._deal_new_row(s)
        self.check_reset(s)

    def _deal_new_row(self, s: GameState) -> None:
        ch = s._chance
        if ch is not None:
            ch.new_row()
        row = []
        for pile, k in enumerate(self.row_split):
            for _ in range(k):
                row.append(self.take_for_slot(s, pile))
        s._row = tuple(row)

    def fill_empty_slots(self, s: GameState) -> None:
        """Refill every empty slot as soon as a card can be drawn for it (A3, "at any time").

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.set_slot(g, 2, -1)
        >>> ed.fill_empty_slots(g)
        >>> None in g.row
        False
        """
        if -1 not in s._row or not self.any_cards(s):
            return
        for i, card in enumerate(s._row):
            if card == -1:
                self.set_slot(s, i, self.take_for_slot(s, self._slot_pile[i]))
        self.check_reset(s)

    def after_discard(self, s: GameState) -> None:
        """Cards went back to a discard: an empty slot can be refilled, and a
        row of three or more wilds that could not be reset may be reset now.
        With a cap on consecutive resets (C1), a row left by the cap waits
        for the next change to the row.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.set_slot(g, 2, -1)
        >>> ed.after_discard(g)
        >>> None in g.row
        False
        """
        super().after_discard(s)
        if -1 in s._row:
            self.fill_empty_slots(s)
        elif self.options["max_consecutive_resets"] is None:
            self.check_reset(s)

    def wilds_in_row(self, s: GameState) -> int:
        """How many wild cards the face-up row shows.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.wilds_in_row(g)
        2
        """
        wilds = self.wild_cards
        if len(wilds) == 1:
            return s._row.count(wilds[0])
        return sum([s._row.count(w) for w in wilds])

    def check_reset(self, s: GameState) -> None:
        """Three or more wilds in the row: discard the row and deal a new one (A3).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.check_reset(g)
        >>> ed.wilds_in_row(g) < 3
        True
        """
        if self.wilds_in_row(s) < 3:
            return
        cap = self.options["max_consecutive_resets"]
        done = 0
        while self.wilds_in_row(s) >= 3:
            if not self.any_cards(s):
                return
            if cap is not None and done >= cap:
                return
            if self.reset_futile(s):
                return
            self.to_discard(s, [c for c in s._row if c >= 0])
            self._deal_new_row(s)
            done += 1
            s._resets += 1

    def reset_futile(self, s: GameState) -> bool:
        """A3 termination guard: whether every possible new row would again
        show three or more wilds.  Each pile deals its share of the row (a
        pile with no cards passes the slot to the first pile that has some,
        A2), from its deck and discard plus the row cards going back to it;
        count the fewest wilds such a deal could hold.  With one pile this is
        "fewer than row_size - 2 non-wilds could be dealt".

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.reset_futile(g)
        False
        """
        wild, npiles = self._wild, len(s._decks)
        n = [len(s._decks[p]) + len(s._discards[p]) for p in range(npiles)]
        nw = [sum(1 for c in s._decks[p] + s._discards[p] if not wild[c]) for p in range(npiles)]
        for c in s._row:
            if c >= 0:
                p = self._card_pile[c]
                n[p] += 1
                nw[p] += not wild[c]
        wilds = 0
        for pile, k in enumerate(self.row_split):
            for _ in range(k):
                q = pile if n[pile] else next((r for r in range(npiles) if n[r]), -1)
                if q < 0:
                    return wilds >= 3
                n[q] -= 1
                if nw[q]:
                    nw[q] -= 1
                else:
                    wilds += 1
        return wilds >= 3

    def row_names(self, s: GameState) -> tuple[str | None, ...]:
        """The face-up row by card name, None for an empty slot (``game.row``).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.row_names(g) == g.row
        True
        """
        return tuple(map(self._card_name_or_none, s._row))
