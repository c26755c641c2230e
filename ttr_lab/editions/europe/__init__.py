"""Ticket to Ride Europe (rule B3): ferries, tunnels, stations, long tickets.

One module per rule:

=================  ==========================================================
``ferries``        a ferry's locomotive spaces must be paid with locomotives
``tunnels``        the three-card reveal and the pay-or-decline decision
``stations``       building stations; each borrows one opponent route at the end
``long_tickets``   1 long + 3 regular tickets dealt, unkept ones to the box
=================  ==========================================================

Setup deals 4 cards each and turns up 5.  The European Express (10 points)
goes to the longest trail of own routes (stations never count).
Tie-breakers: completed tickets, then fewest stations built, then the
European Express.

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("europe", players=3, seed=4)
>>> len(g.pending_tickets), [t.deck for t in g.pending_tickets]
(4, ['long', 'regular', 'regular', 'regular'])
>>> g.legal_moves.count()           # keep 2, 3 or 4 of the 4
11
>>> g.stations(), g.tunnel
({}, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...engine.cards import STANDARD_CARD_TYPES
from ...engine.scoring.results import PlayerScore
from .ferries import R_EUROPE, Ferries
from .long_tickets import LongTicketAccessors, LongTickets
from .marks import StationMarks
from .stations import BuildStation, Stations, StationsAccessors, station_borrowing
from .tunnels import TUNNEL, DeclineTunnel, PayTunnel, TunnelAccessors, TunnelClaim, Tunnels

__all__ = [
    "Europe",
    "EuropeAccessors",
    "BuildStation",
    "PayTunnel",
    "DeclineTunnel",
    "TunnelClaim",
    "TUNNEL",
    "station_borrowing",
    "R_EUROPE",
]


class EuropeAccessors(StationsAccessors, TunnelAccessors, LongTicketAccessors):
    """Europe's own queries: ``game.ext`` (typed: ``cast(EuropeAccessors, game.ext)``),
    also reachable as ``game.stations()``, ``game.tunnel``...

    >>> import ttr_lab
    >>> ext = ttr_lab.new_game("europe", players=2, seed=1).ext
    >>> type(ext).__name__, ext.stations_left(1), ext.tunnel
    ('EuropeAccessors', 3, None)
    """

    __slots__ = ()


class Europe(StationMarks, Ferries, Tunnels, Stations, LongTickets):
    """Ticket to Ride Europe.

    Options (as USA): ``max_consecutive_resets`` (C1), ``first_player`` (C2),
    ``deal_row_after_tickets`` (C3), ``allow_single_draw`` (C6), ``map`` (a
    custom map: its ``regular`` and ``long`` ticket decks are used when
    present, otherwise every two-city ticket is regular).
    """

    name: ClassVar[str] = "europe"
    title: ClassVar[str] = "Ticket to Ride Europe"
    map_id: ClassVar[str] = "europe"
    route_kinds = frozenset({"train", "ferry", "tunnel"})
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "ttr_europe": {},
        "europe_digital": {"max_consecutive_resets": 3},
    }
    accessors = EuropeAccessors
    longest_path_name: ClassVar[str] = "European Express"
    setup_rule: ClassVar[str] = "B3"

    def _setup_parameters(self) -> None:
        self.card_types = STANDARD_CARD_TYPES
        self.deck_composition = (tuple((i, 12) for i in range(8)) + ((8, 14),),)
        self.route_points = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 8: 21}
        self.pieces = 45
        self.setup_tickets = (4, 2)  # 1 long + 3 regular, keep >= 2
        self.draw_tickets = (3, 1)
        self.longest_path_bonus = 10
        super()._setup_parameters()

    def tiebreak_key(self, s: Any, score: PlayerScore, holders: set[int]) -> tuple[Any, ...]:
        """Completed tickets, then fewest stations built, then the European Express (B3)."""
        built = len(s._stations[score.player])
        return (score.tickets_completed, -built, 1 if score.player in holders else 0)

    def tiebreak_text(self, shared: bool) -> str:
        """How ties were broken, in words (B3's tie-breakers)."""
        if shared:
            return "tied on points and on every tie-breaker: a shared win"
        return "tie on points broken by completed tickets, then fewest stations built, then the European Express"
