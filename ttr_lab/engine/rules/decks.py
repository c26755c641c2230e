"""Cards and chance: piles, hands, shuffles (rule A2's reshuffle).

Every shuffle uses a random generator derived from the game seed and the
number of shuffles so far, so replaying a game never re-rolls anything and
undo restores the exact decks.

Position fields: ``_shuffles`` (shuffles so far), ``_decks`` and
``_discards`` (per pile, bottom to top), ``_hands`` (per seat, a count per
card type).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from ..moves import CardList
from .base import EditionBase, Field

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Decks", "R_TURN", "R_DRAW", "R_RESET", "R_CLAIM", "R_TICKETS", "R_END"]

# the base rules, as cited by IllegalMoveError (sections of docs/rules.md)
R_TURN, R_DRAW, R_RESET, R_CLAIM, R_TICKETS, R_END = "A1", "A2", "A3", "A4", "A5", "A6"


class Decks(EditionBase):
    """The card piles, the discards and the hands."""

    fields: ClassVar[tuple[Field, ...]] = (
        Field("_shuffles", "", lambda ed, n: 0),
        Field("_decks", "", lambda ed, n: ()),
        Field("_discards", "", lambda ed, n: tuple(() for _ in ed.pile_names)),
        Field("_hands", "", lambda ed, n: tuple(tuple(0 for _ in ed.card_types) for _ in range(n))),
    )

    _wild: tuple[bool, ...]
    _card_pile: tuple[int, ...]
    _pile_by_name: dict[str | None, int]

    def _build_tables(self) -> None:
        super()._build_tables()
        self._wild = tuple(ct.wild for ct in self.card_types)
        self._card_pile = tuple(ct.pile for ct in self.card_types)
        single = len(self.pile_names) == 1
        self._pile_by_name = {None: 0} if single else {name: i for i, name in enumerate(self.pile_names)}

    # --------------------------------------------------------------- chance
    def rng(self, s: GameState) -> random.Random:
        """The generator for the next shuffle of game ``s``.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> n = g.shuffles
        >>> r = ed.rng(g)
        >>> g.shuffles - n
        1
        """
        rng = random.Random(f"ttr_lab:{s.seed}:{s._shuffles}")
        s._shuffles += 1
        return rng

    def shuffle_decks(self, s: GameState) -> None:
        """Shuffle every pile's whole deck into ``_decks`` (setup).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.shuffle_decks(g)
        >>> g.deck_size()
        110
        """
        decks = []
        for comp in self.deck_composition:
            cards = [c for c, k in comp for _ in range(k)]
            self.rng(s).shuffle(cards)
            decks.append(tuple(cards))
        s._decks = tuple(decks)

    def take(self, s: GameState, pile: int) -> int:
        """Top card of a pile, reshuffling its discard if the deck is empty; -1 if none (A2).

        The one place a card leaves a pile: with a chance slot set
        (:mod:`ttr_lab.engine.rules.chance`) the card may be a recorded or forced one.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> n = g.deck_size()
        >>> card = ed.take(g, 0)
        >>> g.deck_size() == n - 1 and ed.card_name(card) in ed.card_index
        True
        """
        ch = s._chance
        if ch is not None:
            return ch.take(self, s, pile)
        deck = s._decks[pile]
        if not deck:
            deck = self.reshuffle(s, pile)
            if not deck:
                return -1
        s._decks = s._decks[:pile] + (deck[:-1],) + s._decks[pile + 1 :]
        return deck[-1]

    def reshuffle(self, s: GameState, pile: int) -> tuple[int, ...]:
        """The discard of an empty pile shuffled into its new deck (returned; the
        discard is emptied, the caller stores the deck); ``()`` if the discard is empty.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.reshuffle(g, 0)    # nothing on the discard yet
        ()
        """
        disc = s._discards[pile]
        if not disc:
            return ()
        cards = list(disc)
        self.rng(s).shuffle(cards)
        s._discards = s._discards[:pile] + ((),) + s._discards[pile + 1 :]
        return tuple(cards)

    def cards_needed(self, s: GameState, move: Any) -> list[tuple[int, int]]:
        """``(card, count)`` pairs ``move`` needs in the mover's hand: the cards
        it pays, as far as they are cards of this edition (a seat record's
        replay makes sure another seat's unseen cards can pay them).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.cards_needed(g, ttr_lab.parse_move("claim 1 red:1 loco:1"))
        [(8, 1), (0, 1)]
        """
        cards = getattr(move, "cards", None)
        if not isinstance(cards, tuple):
            return []
        index = self.card_index
        return [(index[c[0]], c[1]) for c in cards if isinstance(c, tuple) and len(c) == 2 and c[0] in index]

    def pile_has_cards(self, s: GameState, pile: int) -> bool:
        """Whether pile ``pile`` has a card to draw (in its deck or on its discard).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.pile_has_cards(g, 0)
        True
        """
        return bool(s._decks[pile] or s._discards[pile])

    def any_cards(self, s: GameState) -> bool:
        """Whether any pile has a card to draw.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.any_cards(g)
        True
        """
        return any(s._decks) or any(s._discards)

    def take_for_slot(self, s: GameState, pile: int) -> int:
        """A card for a row slot from ``pile``, falling back to the other piles (A2).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.card_name(ed.take_for_slot(g, 0)) in ed.card_index
        True
        """
        if self.pile_has_cards(s, pile):
            return self.take(s, pile)
        for other in range(len(s._decks)):
            if self.pile_has_cards(s, other):
                return self.take(s, other)
        return -1

    def give(self, s: GameState, p: int, card: int) -> None:
        """Give seat ``p`` one card (an index of ``card_types``).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> n = g.hand_size(1)
        >>> ed.give(g, 1, 0)
        >>> g.hand_size(1) - n
        1
        """
        h = s._hands[p]
        h = h[:card] + (h[card] + 1,) + h[card + 1 :]
        s._hands = s._hands[:p] + (h,) + s._hands[p + 1 :]

    def discard(self, s: GameState, cards: Iterable[int]) -> None:
        """Put cards on their piles' discards; a card returned may make a
        reset or a refill possible again, so the row is checked (A3).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> n = g.discard_size()
        >>> ed.discard(g, [0, 0])
        >>> g.discard_size() - n
        2
        """
        cards = list(cards)
        if cards:
            self.to_discard(s, cards)
            self.after_discard(s)

    def to_discard(self, s: GameState, cards: list[int]) -> None:
        """Put cards on their piles' discards (no row check).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.to_discard(g, [0])
        >>> g.discard_size()
        1
        """
        if len(s._discards) == 1:
            s._discards = (s._discards[0] + tuple(cards),)
        else:
            disc = list(s._discards)
            for c in cards:
                pile = self._card_pile[c]
                disc[pile] = disc[pile] + (c,)
            s._discards = tuple(disc)

    def after_discard(self, s: GameState) -> None:
        """Hook: cards went back to a discard (the face-up row rule checks the row).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> row = g.row
        >>> ed.after_discard(g)    # the face-up row rule: a full row stays
        >>> g.row == row
        True
        """

    def pay(self, s: GameState, cards: Iterable[tuple[int, int]]) -> None:
        """Move ``(card, count)`` pairs from the current player's hand to the discards.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> card = next(iter(g.hand(0)))
        >>> ed.pay(g, [(ed.card_index[card], 1)])
        >>> g.hand_size(0), g.discard_size()
        (3, 1)
        """
        p = s._cur
        h = list(s._hands[p])
        spent = []
        for c, k in cards:
            h[c] -= k
            spent.extend([c] * k)
        s._hands = s._hands[:p] + (tuple(h),) + s._hands[p + 1 :]
        self.discard(s, spent)

    def wilds_in(self, cards: CardList) -> int:
        """How many wild cards a payment uses.

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> ed.wilds_in((("loco", 2), ("red", 1)))
        2
        """
        index, types = self.card_index, self.card_types
        return sum(k for name, k in cards if types[index[name]].wild)

    def card_ids(self, cards: CardList) -> list[tuple[int, int]]:
        """Card names to indices (for moves already checked).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.card_ids((("red", 2), ("loco", 1)))
        [(0, 2), (8, 1)]
        """
        index = self.card_index
        return [(index[name], k) for name, k in cards]

    def hand_cards(
        self, s: GameState, cards: Any, rule: str, *, reserved: CardList = (), reserved_as: str = ""
    ) -> list[tuple[int, int]] | tuple[str, str]:
        """The one card check of every paying move: card names to
        ``(index, count)`` pairs, checked against the current player's hand
        (less any ``reserved`` cards, committed ``reserved_as``), or ``(rule, reason)``.  A card named
        twice is refused, so a hand-made move cannot pass twice with the same cards.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.hand_cards(g, (("pink", 9),), "A4")
        ('A4', 'player has 0 pink, not 9')
        """
        index = self.card_index
        hand = list(s._hands[s._cur])
        for name, k in reserved:
            hand[index[name]] -= k
        out = []
        seen = set()
        for name, k in cards:
            c = index.get(name)
            if c is None:
                return (rule, f"unknown card {name[:60]!r} (cards: {', '.join(index)})")
            if type(k) is not int or k <= 0:
                return (rule, f"card count must be positive ({name}:{k})")
            if c in seen:
                return (rule, f"card {name} is named twice")
            seen.add(c)
            if hand[c] < k:
                extra = f" besides {reserved_as}" if reserved else ""
                return (rule, f"player has {hand[c]} {name}{extra}, not {k}")
            out.append((c, k))
        return out

    def card_name(self, card: int) -> str:
        """The name of card type ``card`` (an index of ``card_types``).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.card_name(0)
        'red'
        """
        return self.card_types[card].name
