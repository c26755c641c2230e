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
``routes``          route owners, double routes                  A4
``claiming``        claiming routes, payment                     A4
``tickets``         destination tickets                          A5, B1
``setup``           setting a game up                            B1
``consistency``     what a valid position is                     --
``final_scoring``   tickets, longest path, tie-breakers          A7, B1
==================  ===========================================  ======

An edition (``ttr_lab.editions.<name>``) subclasses :class:`Edition`, sets
its parameters and mixes in its own rules; see ``CONTRIBUTING.md``.

The position fields
-------------------
A game's position is the fields its rules declare (:class:`Field`), stored on
the :class:`~ttr_lab.engine.state.GameState` under the attribute each names.  The
names start with an underscore on purpose: they are the rules' storage, not
the game's API (people ask ``game.hand(p)``, ``game.route_owners()``; a field
written outside a move would break undo and the history, and ``dir(game)``
should not offer a deck's order).  The base rules' fields, typed on
:class:`~ttr_lab.engine.state_queries.StateQueries`, and what changes them:

* ``_phase``, ``_cur`` (ints, turns A1): :meth:`~.turns.Turns.set_decision`,
  :meth:`~.turns.Turns.end_turn`, :meth:`~.turns.Turns.action_done`;
* ``_first``, ``_turn``, ``_final`` (ints, turns A1/A6): ``end_turn`` (setup sets the first player);
* ``_passes`` (int, A1): :meth:`~.turns.Turns.reset_passes`, :meth:`~.turns.Turns.add_pass`, ``action_done``;
* ``_shuffles`` (int), ``_decks``, ``_discards`` (per pile, card indices bottom
  to top), ``_hands`` (per seat, a count per card type) (decks A2):
  :meth:`~.decks.Decks.rng`, :meth:`~.decks.Decks.take`, :meth:`~.decks.Decks.give`,
  :meth:`~.decks.Decks.pay`, :meth:`~.decks.Decks.discard`;
* ``_row`` (a card index per slot, -1 empty), ``_resets`` (int) (row A3):
  :meth:`~.row.Row.set_slot`, :meth:`~.row.Row.deal_row`, :meth:`~.row.Row.check_reset`;
* ``_owners`` (a seat per route, -1 free) (routes A4):
  :meth:`~.routes.Routes.set_owner` (through :meth:`~.claiming.Claiming.complete_claim`);
* ``_pieces``, ``_scores`` (per seat) (claiming A4):
  :meth:`~.claiming.Claiming.use_pieces`, :meth:`~.claiming.Claiming.add_score`;
* ``_tickets`` (per seat), ``_pending``, ``_setup_deal``, ``_tdeck`` (ticket
  ids) (tickets A5): :meth:`~.tickets.Tickets.take_tickets`,
  :meth:`~.tickets.Tickets.return_setup_tickets` and the ticket moves;
* ``_free`` (derived, ``Field(derived=True)``): the engine's alone, through
  :meth:`~.routes.Routes.derive` and :meth:`~.routes.Routes.mark_taken`.

The contract, checked by ``tests/test_edition_api.py``: a rule reads any
field, through GameState's public queries where one exists
(``current_player``, ``phase``, ``first_player``, ``hand_counts(p)``,
``tickets(p)``, ``route_owner(r)``); it writes only the fields it declares,
and changes the others through the methods above; nobody but ``derive`` and
``mark_taken`` writes a derived field.  Who may claim a route is one hook,
:meth:`~.routes.Routes.double_rule`, which every part of the engine asks.

What each hook may change
-------------------------
* a move's check (``check_*``), its legal moves (``*_groups``,
  ``double_rule``, ``claimable``), the queries, ``view_fields``, scoring
  (``ticket_results``, ``score_terms``, ``bonuses``, ``tiebreak_key``),
  consistency (``problems``, ``cards_elsewhere``...) and the hooks generic
  code asks (:mod:`.hooks`, :mod:`.board_hooks`): **nothing**; they are asked
  of any position, of copies and of views;
* a move's effect (``apply_*``): the rule's own fields, and the others
  through the methods above; it ends with ``action_done``/``end_turn`` or a
  decision made due (``set_decision``);
* ``setup`` (a new game, from ``new_position``): any field, once;
* ``derive`` and ``mark_taken``: the derived fields only;
* ``_setup_parameters`` and ``_build_tables``: the edition's own tables, no position.

Edition accessors (``game.ext``) are typed classes: :mod:`.accessors`.
"""

from __future__ import annotations

from .accessors import Accessors, secret
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
    "Accessors",
    "secret",
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
    scorer, the editor, the bots) are :class:`~ttr_lab.engine.rules.hooks.EditionHooks`';
    the board's are :class:`~ttr_lab.engine.rules.board_hooks.BoardHooks`'.

    Build one with :func:`find_edition`; an edition is immutable.  A game
    of it is ``ttr_lab.new_game(edition, players, seed=...)``.
    """
