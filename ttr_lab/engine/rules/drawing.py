"""Drawing cards (rule A2): a face-up card, a blind card, and stopping early.

A draw is two decisions: the first card (phase ``TURN``) and, unless a
face-up wild was taken or no second card is possible, the second (phase
``SECOND_CARD``), which may not be a face-up wild.  Option
``allow_single_draw`` (C6) lets a player stop after one card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..moves import DrawBlind, DrawFaceUp, Move, StopDrawing
from ..phases import Phase
from .decks import R_DRAW
from .turns import Turns

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Drawing"]

_TURN, _SECOND = int(Phase.TURN), int(Phase.SECOND_CARD)


def _identity(moves: list[Move]) -> list[Move]:
    return moves


class Drawing(Turns):
    """Taking cards from the row and the piles."""

    moves = {
        DrawFaceUp: ("check_faceup", "apply_faceup"),
        DrawBlind: ("check_blind", "apply_blind"),
        StopDrawing: ("check_stop", "apply_stop"),
    }
    phases = {Phase.SECOND_CARD: "second_card_groups"}
    turn_actions = {"draw_groups": DrawFaceUp.rank}

    _blind: tuple[DrawBlind, ...]
    _blind_order: tuple[int, ...]
    _blind_all: list[Move]

    def _build_tables(self) -> None:
        super()._build_tables()
        single = len(self.pile_names) == 1
        self._blind = tuple(DrawBlind(None if single else name) for name in self.pile_names)
        # blind draws in notation order, so the legal moves stay sorted
        self._blind_order = tuple(sorted(range(len(self.pile_names)), key=lambda q: self.pile_names[q]))
        self._blind_all = [self._blind[q] for q in self._blind_order]  # never mutated: callers concatenate

    # --------------------------------------------------------------- legal moves
    def blind_picks(self, s: GameState) -> list[Move]:
        """The blind draws possible now: one per pile with a card to draw.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.blind_picks(g)
        [DrawBlind()]
        """
        decks, discards = s._decks, s._discards
        if len(decks) == 1:
            return self._blind_all if decks[0] or discards[0] else []
        for q in range(len(decks)):
            if not (decks[q] or discards[q]):
                break
        else:
            return self._blind_all
        blind = self._blind
        return [blind[q] for q in self._blind_order if decks[q] or discards[q]]

    def first_picks(self, s: GameState) -> list[Move]:
        """Every card a player may take first: face-up slots, then blind draws (A2).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> len(ed.first_picks(g))
        6
        """
        return self.row_picks(s)[0] + self.blind_picks(s)

    def second_picks(self, s: GameState) -> list[Move]:
        """Every card a player may take second: no face-up wild (A2).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> len(ed.second_picks(g)) <= len(ed.first_picks(g))
        True
        """
        return self.row_picks(s)[1] + self.blind_picks(s)

    def draw_groups(self, s: GameState) -> list[Any]:
        """A turn's first-card draws, as one lazy group of the legal moves.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.draw_groups(g)[0][0] == len(ed.first_picks(g))
        True
        """
        first = self.first_picks(s)
        return [(len(first), _identity, first)] if first else []

    def second_card_groups(self, s: GameState) -> list[Any]:
        """The legal moves of phase ``SECOND_CARD`` (with option ``allow_single_draw``, C6, a stop too).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.second_card_groups(g)[0][0] == len(ed.second_picks(g))
        True
        """
        moves = self.second_picks(s)
        if self.options["allow_single_draw"] and moves:
            moves = moves + [StopDrawing()]
        return [(len(moves), _identity, moves)]

    # --------------------------------------------------------------- checks
    def check_faceup(self, s: GameState, move: DrawFaceUp) -> tuple[str, str] | None:
        """Why taking face-up slot ``move.slot`` is illegal now, or None (A2).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.check_faceup(g, ttr_lab.DrawFaceUp(9))
        ('A2', 'there is no face-up slot 9 (slots 1-5)')
        """
        ph = s._phase
        if ph != _TURN and ph != _SECOND:
            return self.phase_error(s)
        if not 1 <= move.slot <= len(s._row):
            return (R_DRAW, f"there is no face-up slot {move.slot} (slots 1-{len(s._row)})")
        card = s._row[move.slot - 1]
        if card < 0:
            return (R_DRAW, f"face-up slot {move.slot} is empty")
        if ph == _SECOND and self._wild[card]:
            return (R_DRAW, "a face-up wild card cannot be taken as the second card")
        return self.check_refill(s, move)

    def check_refill(self, s: GameState, move: DrawFaceUp) -> tuple[str, str] | None:
        """Whether the move's refill choice is right (one deck: no choice to make).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.check_refill(g, ttr_lab.DrawFaceUp(1)) is None
        True
        """
        if move.refill is not None:
            return (R_DRAW, f"{self.name} has one deck; a refill pile cannot be chosen")
        return None

    def check_blind(self, s: GameState, move: DrawBlind) -> tuple[str, str] | None:
        """Why drawing blind from ``move.pile`` is illegal now, or None (A2).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.check_blind(g, ttr_lab.DrawBlind()) is None
        True
        """
        if s._phase not in (_TURN, _SECOND):
            return self.phase_error(s)
        pile = self._pile_by_name.get(move.pile)
        if pile is None:
            return (R_DRAW, f"unknown pile {move.pile!r} (piles: {', '.join(self.pile_names)})")
        if not self.pile_has_cards(s, pile):
            return (R_DRAW, "the draw pile and its discard are empty")
        return None

    def check_stop(self, s: GameState, move: StopDrawing) -> tuple[str, str] | None:
        """Why stopping after one card is illegal now, or None (C6).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.check_stop(g, ttr_lab.StopDrawing())
        ('A2', 'stopping is only possible after the first card of a draw')
        """
        if s._phase != _SECOND:
            return (R_DRAW, "stopping is only possible after the first card of a draw")
        if not self.options["allow_single_draw"]:
            return (R_DRAW, "the second card is mandatory while one can be drawn (option allow_single_draw is off; C6)")
        return None

    # --------------------------------------------------------------- effects
    def has_second_pick(self, s: GameState) -> bool:
        """Whether a second card can be drawn (``bool(second_picks(s))``, without listing them).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.has_second_pick(g)
        True
        """
        state = self._slot_state
        for card in s._row:
            if state(card) == 1:
                return True
        decks, discards = s._decks, s._discards
        return any(decks[q] or discards[q] for q in range(len(decks)))

    def after_first_card(self, s: GameState, wild_face_up: bool) -> None:
        """After a turn's first card: the turn ends (a face-up wild, or no second card possible), else the second card is due (phase ``SECOND_CARD``).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.after_first_card(g, False)
        >>> g.phase.name
        'SECOND_CARD'
        """
        if wild_face_up or not self.has_second_pick(s):
            self.end_turn(s)
        else:
            self.set_decision(s, _SECOND)

    def refill_pile(self, s: GameState, move: DrawFaceUp, slot: int) -> int:
        """The pile that refills ``slot`` after ``move`` (its home pile unless chosen).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.refill_pile(g, ttr_lab.DrawFaceUp(1), 0)
        0
        """
        return self._slot_pile[slot]

    def apply_faceup(self, s: GameState, move: DrawFaceUp) -> None:
        """Take face-up slot ``move.slot``: the card goes to the hand, the slot is refilled (:meth:`refill_pile`) and the row checked (A3); then the second card is due or the turn ends.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.apply_faceup(g, ttr_lab.DrawFaceUp(1))
        >>> g.hand_size(0)
        5
        """
        i = move.slot - 1
        card = s._row[i]
        self.give(s, s._cur, card)
        self.set_slot(s, i, self.take_for_slot(s, self.refill_pile(s, move, i)))
        self.check_reset(s)
        self.reset_passes(s)
        if s._phase == _TURN:
            self.after_first_card(s, self._wild[card])
        else:
            self.end_turn(s)

    def apply_blind(self, s: GameState, move: DrawBlind) -> None:
        """Draw the top card of ``move.pile``; then the second card is due or the turn ends.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.apply_blind(g, ttr_lab.DrawBlind())
        >>> g.hand_size(0), g.phase.name
        (5, 'SECOND_CARD')
        """
        card = self.take(s, self._pile_by_name[move.pile])
        self.give(s, s._cur, card)
        self.reset_passes(s)
        if s._phase == _TURN:
            self.after_first_card(s, False)
        else:
            self.end_turn(s)

    def apply_stop(self, s: GameState, move: StopDrawing) -> None:
        """Stop after one card (C6): the turn ends.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.apply_stop(g, ttr_lab.StopDrawing())
        >>> g.current_player
        1
        """
        self.end_turn(s)
