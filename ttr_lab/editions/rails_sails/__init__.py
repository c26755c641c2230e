"""Ticket to Ride Rails & Sails: the World map and the Great Lakes map
(rules B4, B5; resolutions C6, C7, C8, C9, C15).

One module per rule:

=============  ================================================================
``cards``      the train and ship cards, with and without the harbor symbol
``piles``      two piles, and the refill choice of a face-up pick
``payments``   paying for train, ship and paired routes
``pieces``     the secret train/ship split at setup, pieces in supply
``exchange``   exchanging pieces with the box
``harbors``    building and scoring harbors
``tours``      tour tickets, in order or not
=============  ================================================================

Options (both maps): ``allow_single_draw`` (default True, C6),
``harbor_wilds`` (default True: wilds may replace harbor cards, C7),
``tour_order`` (``"trail"``, the default, ``"simple_path"`` or ``"walk"``:
what "in order" means for a tour, C9), ``tiebreak`` (``"shared"``, the
default, or ``"completed_tickets"``), plus the common options
``first_player``, ``max_consecutive_resets``, ``deal_row_after_tickets`` and
``map``.

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("world", players=2, seed=1)
>>> g.edition.name, g.edition.row_size, g.row.count(None)
('rails_and_sails', 6, 0)
>>> g.hand_size(0), len(g.pending_tickets)
(10, 5)
>>> while g.phase == ttr_lab.Phase.SETUP_TICKETS:
...     g.play(g.legal_moves[0])
>>> g.phase.name, [str(m) for m in g.legal_moves][:2]
('SETUP_PIECES', ['pieces 10', 'pieces 11'])
>>> g.play("pieces 20"); g.play("pieces 15")
>>> g.trains(0), g.ships(0), g.box(0), g.pieces(0)
(20, 40, (5, 10), 60)
>>> ttr_lab.find_edition("great_lakes").starting_cards
(2, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...engine.rules.base import check_choice
from ...engine.scoring.results import PlayerScore, TourResult
from .cards import DECKS, RS_CARD_TYPES, RS_COLORS
from .exchange import Exchange, ExchangeAccessors, ExchangePieces
from .harbors import BuildHarbor, HarborAccessors, Harbors
from .marks import HarborMarks
from .payments import R_RS, RSPayments
from .pieces import SETUP_PIECES, ChoosePieces
from .piles import Piles
from .tours import TOUR_ORDERS, Tours, score_tour, tour_in_order

__all__ = [
    "RailsSails",
    "RailsSailsAccessors",
    "GreatLakes",
    "RS_COLORS",
    "RS_CARD_TYPES",
    "TourResult",
    "tour_in_order",
    "score_tour",
    "BuildHarbor",
    "ExchangePieces",
    "ChoosePieces",
    "SETUP_PIECES",
    "R_RS",
]

_TIEBREAKS = ("shared", "completed_tickets")


class RailsSailsAccessors(HarborAccessors, ExchangeAccessors):
    """Rails & Sails' own queries: ``game.ext`` (typed: ``cast(RailsSailsAccessors, game.ext)``),
    also reachable as ``game.trains(p)``, ``game.harbors()``...

    >>> import ttr_lab
    >>> ext = ttr_lab.new_game("great_lakes", players=2, seed=1).ext
    >>> type(ext).__name__, ext.harbors_left(0)
    ('RailsSailsAccessors', 3)
    """

    __slots__ = ()


class RailsSails(HarborMarks, Tours, Harbors, Exchange, Piles):
    """Ticket to Ride Rails & Sails, World map (rule B4)."""

    name: ClassVar[str] = "rails_and_sails"
    title: ClassVar[str] = "Rails & Sails: World"
    map_id: ClassVar[str] = "rails_and_sails_world"
    accessors = RailsSailsAccessors
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "rails_sails": {},
        "rails_&_sails": {},
        "world": {},
        "rails_and_sails_world": {},
        "rails_sails_world": {},
    }
    option_defaults: ClassVar[Mapping[str, Any]] = {
        **RSPayments.option_defaults,
        "allow_single_draw": True,  # C6: "draw up to two cards"
        "harbor_wilds": True,  # C7
        "tour_order": "trail",  # C9
        "tiebreak": "shared",  # B4: the rulebook gives no tie-breaker
    }
    #: ticket decks (map deck labels) shuffled together at setup
    decks: ClassVar[tuple[str, ...]] = ("world", "world_tour")
    setup_rule: ClassVar[str] = "B4"
    colors = RS_COLORS

    def _check_options(self, opts: dict[str, Any]) -> None:
        super()._check_options(opts)
        check_choice(opts, "tour_order", TOUR_ORDERS)
        check_choice(opts, "tiebreak", _TIEBREAKS)

    def _setup_parameters(self) -> None:
        self.card_types = RS_CARD_TYPES
        self.pile_names = ("trains", "ships")
        self.deck_composition = DECKS
        self.row_size = 6
        self.row_split = (3, 3)
        self.starting_cards = (3, 7)
        self.setup_tickets = (5, 3)
        self.draw_tickets = (4, 1)
        self.route_points = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}  # C8
        self.end_threshold = 6
        self.final_turns = 2
        self.double_route_min_players = 4
        self.longest_path_bonus = 0  # B4: no end-of-game bonus
        self._set_map_parameters()
        self.pieces = self.total_pieces
        #: the legal numbers of trains a player may choose at setup
        self.train_range = (max(0, self.total_pieces - self.ship_pieces), min(self.train_pieces, self.total_pieces))

    def _set_map_parameters(self) -> None:
        self.total_pieces = 60  # t + s = 60, t <= 25, s <= 50 -> 10 <= t <= 25

    def ticket_deck(self) -> tuple[int, ...]:
        """The map's decks named in ``decks``; a custom map without them uses every ticket."""
        ids = tuple(t.id for t in self.map.tickets if t.deck in self.decks)
        return ids or tuple(t.id for t in self.map.tickets)

    def tiebreak_key(self, s: Any, score: PlayerScore, holders: set[int]) -> tuple[Any, ...]:
        """Completed tickets (option ``tiebreak="completed_tickets"``), else none: a shared win (B4)."""
        if self.options["tiebreak"] == "completed_tickets":
            return (score.tickets_completed,)
        return ()

    def tiebreak_text(self, shared: bool) -> str:
        """How ties were broken, in words (option ``tiebreak``)."""
        if shared:
            if self.options["tiebreak"] == "completed_tickets":
                return "tied on points and on completed tickets: a shared win"
            return "tied on points: a shared win (the rulebook has no tie-breaker)"
        return "tie on points broken by completed tickets"


class GreatLakes(RailsSails):
    """Ticket to Ride Rails & Sails, Great Lakes map (rule B5)."""

    name: ClassVar[str] = "great_lakes"
    title: ClassVar[str] = "Rails & Sails: Great Lakes"
    map_id: ClassVar[str] = "rails_and_sails_great_lakes"
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "rails_and_sails_great_lakes": {},
        "rails_sails_great_lakes": {},
    }
    decks: ClassVar[tuple[str, ...]] = ("great_lakes",)
    setup_rule: ClassVar[str] = "B5"
    train_pieces: int = 33
    ship_pieces: int = 32
    harbor_points: Mapping[int, int] = {1: 10, 2: 20, 3: 30}  # printed on the Great Lakes board (B5)

    def _set_map_parameters(self) -> None:
        self.starting_cards = (2, 2)
        self.total_pieces = 50  # t + s = 50, t <= 33, s <= 32 -> 18 <= t <= 33
