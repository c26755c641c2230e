"""Turns and the end of the game (rules A1 and A6).

Position fields: ``_phase`` (what decision is due), ``_cur`` (whose),
``_first`` (the first player), ``_turn`` (turns so far), ``_final`` (turns
left in the final round, -1 before it) and ``_passes`` (consecutive turns
with nothing to do).  Other rules change them only through
:meth:`Turns.set_decision`, :meth:`Turns.reset_passes`, :meth:`Turns.add_pass`,
:meth:`Turns.action_done` and :meth:`Turns.end_turn`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..moves import Pass
from ..phases import Phase
from .base import Field
from .decks import R_TURN
from .row import Row

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Turns"]

_TURN, _OVER = int(Phase.TURN), int(Phase.GAME_OVER)
_PASS = [Pass()]


def _identity(moves: list[Any]) -> list[Any]:
    return moves


class Turns(Row):
    """Whose decision it is, passing, and the final round."""

    fields: ClassVar[tuple[Field, ...]] = (
        Field("_phase", "", lambda ed, n: int(Phase.SETUP_TICKETS)),
        Field("_cur", "", lambda ed, n: 0),
        Field("_first", "", lambda ed, n: 0),
        Field("_turn", "", lambda ed, n: 0),
        Field("_final", "", lambda ed, n: -1),
        Field("_passes", "", lambda ed, n: 0),
    )
    moves = {Pass: ("check_pass", "apply_pass")}
    phases = {Phase.TURN: "turn_phase_groups"}

    # --------------------------------------------------------------- legal moves
    def legal_groups(self, s: GameState) -> list[Any]:
        """The legal moves of the position, as lazy groups (see ``LegalMoves``).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> sum(n for n, *_ in ed.legal_groups(g)) == g.legal_moves.count()
        True
        """
        ph = s._phase
        if ph == _OVER:
            return []
        return self._phase_groups[ph](s)

    def turn_groups(self, s: GameState) -> list[Any]:
        """The actions possible at the start of a turn, in move order.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> [n for n, *_ in ed.turn_groups(g)][:3]
        [6, 4, 4]
        """
        groups: list[Any] = []
        for action in self._turn_action_fns:
            groups += action(s)
        return groups

    def turn_phase_groups(self, s: GameState) -> list[Any]:
        """The legal moves of phase ``TURN``: the actions, or a pass when there is none (A1).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> sum(n for n, *_ in ed.turn_phase_groups(g)) == g.legal_moves.count()
        True
        """
        return self.turn_groups(s) or [(1, _identity, _PASS)]

    def phase_error(self, s: GameState) -> tuple[str, str]:
        """Why a move of another kind cannot be played now.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.phase_error(g)
        ('A5', 'players are choosing their initial tickets; expected a keep move')
        """
        ph = Phase.of(s._phase)
        return (ph.rule, ph.busy)

    # --------------------------------------------------------------- pass (A1)
    def check_pass(self, s: GameState, move: Pass) -> tuple[str, str] | None:
        """Why passing is illegal now (A1: only when no action is legal), or None.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.check_pass(g, ttr_lab.Pass())
        ('A1', 'a player may pass only when no action is legal')
        """
        if s._phase != _TURN:
            return self.phase_error(s)
        if self.turn_groups(s):
            return (R_TURN, "a player may pass only when no action is legal")
        return None

    def apply_pass(self, s: GameState, move: Pass) -> None:
        """A pass: it counts toward the all-pass end (A1), and the turn ends.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> for _ in range(2): g.play(g.legal_moves[0])    # both keep tickets: a turn
        >>> ed.apply_pass(g, ttr_lab.Pass())
        >>> g.view(0).counters["passes"], g.current_player
        (1, 1)
        """
        self.add_pass(s)
        self.end_turn(s)

    # --------------------------------------------------------------- what other rules call
    def set_decision(self, s: GameState, phase: int, seat: int | None = None) -> None:
        """Make a decision of ``phase`` (a phase number, ``int(Phase.X)``) due,
        by ``seat`` (by default the current player), within the turn: a rule
        that adds a decision (Europe's tunnel, Rails & Sails' setup split)
        calls it instead of writing ``_phase`` and ``_cur``.

        >>> import ttr_lab
        >>> from ttr_lab.engine.phases import Phase
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.edition.set_decision(g, int(Phase.TURN), 1)
        >>> g.phase.name, g.current_player
        ('TURN', 1)
        """
        if seat is not None:
            s._cur = seat
        s._phase = phase

    def reset_passes(self, s: GameState) -> None:
        """An action was taken: the consecutive passes that end the game when
        every player has passed (A1) count from zero again.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.edition.add_pass(g); g.view(0).counters["passes"]
        1
        >>> g.edition.reset_passes(g); g.view(0).counters["passes"]
        0
        """
        s._passes = 0

    def add_pass(self, s: GameState) -> None:
        """The current player's turn counts as a pass (A1: when every player
        has passed in a row, the game ends); :meth:`reset_passes` shows an example.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.add_pass(g)
        >>> g.view(0).counters["passes"]
        1
        """
        s._passes += 1

    def action_done(self, s: GameState) -> None:
        """The current player's action is done: :meth:`reset_passes`, then
        :meth:`end_turn`.  What a rule's own action (a station, a harbor, a
        blocked route) calls last.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=2, seed=1)
        >>> g.edition.set_decision(g, 1, 0)          # Phase.TURN, seat 0
        >>> g.edition.action_done(g)
        >>> g.current_player, g.turn_number
        (1, 1)
        """
        s._passes = 0
        self.end_turn(s)

    # --------------------------------------------------------------- end of turn (A6)
    def pieces_left(self, s: GameState, p: int) -> int:
        """Pieces a player has left, for the end trigger (A6).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.pieces_left(g, 0)
        45
        """
        return int(s._pieces[p])

    def end_turn(self, s: GameState) -> None:
        """End the current player's turn (A6): count down the final round (or
        start it when the player's pieces are down to ``end_threshold``), end
        the game after the last final turn or when every player has passed,
        else give the next seat a turn.  See :meth:`action_done`.

        >>> import ttr_lab
        >>> g = ttr_lab.new_game("usa", players=3, seed=1)
        >>> g.edition.set_decision(g, 1, 2)          # Phase.TURN, seat 2
        >>> g.edition.end_turn(g)
        >>> g.current_player, g.phase.name
        (0, 'TURN')
        """
        p = s._cur
        if s._final >= 0:
            s._final -= 1
            if s._final == 0:
                self.game_over(s)
                return
        elif self.pieces_left(s, p) <= self.end_threshold:
            s._final = s.n * self.final_turns
        if s._passes >= s.n:
            self.game_over(s)
            return
        s._turn += 1
        s._cur = (p + 1) % s.n
        s._phase = _TURN

    def game_over(self, s: GameState) -> None:
        """End the game now (phase ``GAME_OVER``); :meth:`end_turn` calls it.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.game_over(g)
        >>> g.is_over
        True
        """
        s._phase = _OVER
        s._turn += 1

    def game_over_possible(self, s: GameState) -> bool:
        """Whether a position's counters allow the game to be over (for loading).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.game_over_possible(g)
        False
        """
        return s._final == 0 or s._passes >= s.n
