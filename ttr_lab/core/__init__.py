"""The base rules every edition shares (rules A1-A7 and B1), as one class.

:class:`Edition` is the sum of the base rules, one mixin per rule, each in
the module named for it:

==================  ===========================================  ======
module              rule                                         ids
==================  ===========================================  ======
``decks``           card piles, hands, shuffles                  A2
``row``             the face-up row and the wild reset           A3
``turns``           turns, passing, the end of the game          A1, A6
``drawing``         drawing cards                                A2
``claiming``        claiming routes, double routes, payment      A4
``tickets``         destination tickets                          A5, B1
``setup``           setting a game up                            B1
``consistency``     what a valid position is                     --
``final_scoring``   tickets, longest path, tie-breakers          A7, B1
==================  ===========================================  ======

An edition (``ttr_lab.editions.<name>``) subclasses :class:`Edition`, sets
its parameters and mixes in its own rules; see ``CONTRIBUTING.md``.
"""

from __future__ import annotations

from .base import Api, EditionBase, Field
from .board_hooks import BoardHooks
from .declarations import Rebuild, Table
from .final_scoring import FinalScoring
from .hooks import EditionHooks
from .registry import EDITIONS, edition_names, find_edition, register_edition

__all__ = [
    "Edition",
    "EditionBase",
    "Field",
    "Api",
    "Rebuild",
    "Table",
    "EDITIONS",
    "edition_names",
    "find_edition",
    "register_edition",
]


class Edition(FinalScoring, EditionHooks, BoardHooks):
    """Rules and parameters of one edition: the base rules, ready to extend.

    The hooks generic code asks (determinization, records, the table
    scorer, the editor, the bots) are :class:`~ttr_lab.core.hooks.EditionHooks`';
    the board's are :class:`~ttr_lab.core.board_hooks.BoardHooks`'.

    Build one with :func:`find_edition`; an edition is immutable.  A game
    of it is ``ttr_lab.new_game(edition, players, seed=...)``.
    """
