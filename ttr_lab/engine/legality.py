"""Whether a move is legal in a game, and the error for one that is not.

:meth:`GameState.why_illegal <ttr_lab.engine.state.GameState.why_illegal>`,
:meth:`~ttr_lab.engine.state.GameState.play` and
:meth:`~ttr_lab.engine.state.GameState.push` ask these free functions, which
read the game and its edition's move checks and change nothing: the notation
first (a move's text, a malformed field), then the phase, then the edition's
check for the move's type, which names the section of the rules reference
that forbids it (:mod:`ttr_lab.engine.reference`).

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> why_illegal(g, "blind")
('A5', 'players are choosing their initial tickets; expected a keep move')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IllegalMoveError, InvalidMoveError
from .moves import Move, parse_move, show_value
from .phases import Phase
from .state_queries import _OVER

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["why_illegal", "refuse_pushed"]


def why_illegal(game: GameState, move: object) -> tuple[str, str] | None:
    """``None`` if ``move`` (a :class:`~ttr_lab.engine.moves.Move` or its notation) is legal in
    ``game``, else ``(rule, reason)``: ``rule`` is the section of the rules reference that forbids
    it, ``"notation"`` for a move that is not well-formed."""
    if isinstance(move, str):
        try:
            move = parse_move(move)
        except InvalidMoveError as e:
            return ("notation", str(e))
    if not isinstance(move, Move):
        return ("notation", f"not a move: {show_value(move, 180)}")
    problem = move.problem()
    if problem is not None:
        return ("notation", problem)
    ed = game.edition
    if game._phase == _OVER:
        return Phase.GAME_OVER.rule, Phase.GAME_OVER.busy
    check = ed._move_checks.get(type(move))
    if check is None:
        return ("A1", f"{type(move).__name__} is not an action of {ed.name}")
    return check(game, move)


def refuse_pushed(game: GameState, move: object, error: Exception) -> None:
    """After a failed :meth:`~ttr_lab.engine.state.GameState.push` (position restored): raise the
    library's :class:`~ttr_lab.errors.IllegalMoveError` if the rules refuse ``move`` here; return
    if they allow it (the caller then lets ``error``, a bug, propagate)."""
    if not isinstance(move, Move):
        reason = f"push takes a Move, not {type(move).__name__} (play reads a move's notation)"
        raise IllegalMoveError(show_value(move), rule="notation", reason=reason) from None
    try:
        why = why_illegal(game, move)
    except Exception:  # a plug-in move whose checks fail as well: report the first error
        return
    if why is not None:
        known = type(move) in game.edition._move_applies
        raise IllegalMoveError(move, rule=why[0], reason=why[1]) from (error if known else None)
