"""The game engine: moves, phases, the game state, each seat's view, positions, scoring.

=================  =================================================================
``moves``          the base game's moves and their notation (``move_base``: the
                   protocol and :func:`~ttr_lab.engine.moves.parse_move`; ``move_cards``)
``cards``          card types and payment arithmetic
``phases``         :class:`~ttr_lab.engine.phases.Phase`: what kind of decision is due
``state``          :class:`~ttr_lab.engine.state.GameState` and :func:`~ttr_lab.engine.state.new_game`
                   (``state_queries``: its read-only queries; ``legality``: why a move is
                   illegal; ``display``: the board a game or a view shows in Jupyter)
``view``           :class:`~ttr_lab.engine.view.PlayerView`: what one seat may know (``view_history``)
``legal_moves``    the legal moves as a lazy, sorted, countable view
``position``       positions as JSON-ready dicts, and back
``checks``         checks of the seeds, counts and budgets people pass
``reference``      the rules reference, section by section (:func:`~ttr_lab.engine.reference.explain`)
``rules``          the base rules every edition shares: :class:`~ttr_lab.engine.rules.Edition`
``scoring``        final scores: tickets, longest path, results
=================  =================================================================

The engine draws a game in Jupyter through :mod:`ttr_lab.board`, the layer below it.
"""

from typing import Any

from ..io.lazy import lazy_attribute


def __getattr__(name: str) -> Any:
    """``ttr_lab.engine.reference``...: a submodule is imported when first named."""
    return lazy_attribute(globals(), {}, name, submodules=True)
