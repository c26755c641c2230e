"""Ticket analysis for the play widget: the viewer's ticket paths, and the offer to choose from.

Both read the position through the library only
(:mod:`ttr_lab.analysis.network`): :func:`~ttr_lab.analysis.network.ticket_paths`
for each ticket and :func:`~ttr_lab.analysis.network.ticket_network` (the
exact Steiner forest) for a whole set, on the board as the player sees it
(own routes free, routes closed to them blocked); the kept tickets' network
is shown beside networkx's approximation of the Steiner tree.  Results are remembered for
the last position, so a redraw that changes nothing costs nothing.

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=["You", "bot"], seed=7)
>>> offer = ticket_offer(g, 0, g.pending_tickets)
>>> [(o.ticket.label(), o.cost) for o in offer.tickets]
[('Seattle-New York', 20), ('Los Angeles-New York', 20), ('Dallas-New York', 11)]
>>> offer.together.cost, offer.line()
(30, 'all 3 together: 30 cars')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...analysis import network as _position

__all__ = ["TicketPath", "Offer", "ticket_offer", "TicketPaths", "Overlay"]


class Overlay:
    """A named list of routes for ``board_figure(paths=...)``."""

    def __init__(self, name: str, routes: Sequence[int]) -> None:
        self.name, self.routes = name, tuple(routes)


class TicketPath:
    """One ticket's cheapest completion, for the board (``name``, ``routes``) and the ticket list."""

    def __init__(self, ticket: Any, found: Any, cards: dict[str, int] | None = None) -> None:
        self.ticket = ticket
        self.routes = tuple(found.routes) if found else ()
        self.cost: int | None = found.cost if found else None
        wanted = ", ".join(f"{k} {n}" for k, n in (cards or {}).items())
        label = ticket.label()
        self.name = f"{label}: {self.cost} more cars" if found else f"{label}: unreachable"
        self.summary = (f"{self.cost} more cars" + (f": {wanted}" if wanted else "")) if found else "unreachable"


def _paths(position: Any, player: int, tickets: Sequence[Any] | None) -> tuple[list[TicketPath], Any]:
    """Each ticket's path (with the cards it asks for) and the Steiner forest of
    them all; ``tickets=None``: the player's kept tickets."""
    pos = _position
    if tickets is None:
        found_paths = pos.ticket_paths(position, player)
        forest = pos.ticket_network(position, player) if found_paths else None
    else:
        found_paths = pos.ticket_paths(position, player, tickets=tuple(tickets))
        forest = pos.ticket_network(position, player, tickets=tuple(tickets)) if tickets else None
    out = [
        TicketPath(t, found, pos.cards_needed(position, found.new_routes) if found else None)
        for t, found in found_paths
    ]
    return out, forest


@dataclass(frozen=True)
class Offer:
    """The tickets offered to a player: each one's cheapest path, and all of them together."""

    tickets: tuple[TicketPath, ...]
    together: Any  # SteinerForest or None

    def line(self) -> str:
        """``"all 3 together: 38 cars"`` (the cheapest network for the whole offer)."""
        if self.together is None:
            return "together they cannot all be completed any more"
        return f"all {len(self.tickets)} together: {self.together.cost} cars"

    def overlays(self) -> list[Any]:
        """What to draw on the board: a path per offered ticket, and the network for all of them."""
        paths: list[Any] = []
        for p in self.tickets:
            cost = "unreachable" if p.cost is None else f"{p.cost} cars"
            paths.append(Overlay(f"{p.ticket.label()}: {cost}", p.routes))  # short: the legend fits one row or two
        net = self.together
        if net is not None and len(self.tickets) > 1 and net.new_routes:
            paths.append(Overlay(self.line(), net.routes))
        return paths


def ticket_offer(position: Any, player: int, offered: Sequence[Any]) -> Offer:
    """The analysis of ``offered`` tickets for ``player`` (as :class:`Offer`)."""
    paths, forest = _paths(position, player, tuple(offered))
    return Offer(tuple(paths), forest)


class TicketPaths:
    """The viewer's kept tickets: their paths and the cheapest network for all of
    them (a Steiner forest), remembered for the last position; and the offer
    being chosen from, likewise."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] = ()
        self._paths: list[TicketPath] = []
        self.network: Any = None
        self.approx: Any = None  # networkx's approximation of the tree, for comparison
        self._offer_key: tuple[Any, ...] = ()
        self._offer: Offer | None = None

    @staticmethod
    def _position_key(g: Any, p: int, tickets: Sequence[Any]) -> tuple[Any, ...]:
        return (p, tuple(sorted(g.route_owners().items())), tuple(t.id for t in tickets))

    def for_player(self, g: Any, p: int) -> list[TicketPath]:
        """The paths of ``p``'s kept tickets (and :attr:`network` for all of them)."""
        key = self._position_key(g, p, g.tickets(p))
        if key != self._key:
            self._key = key
            self._paths, self.network = _paths(g, p, None)
            self.approx = _position.ticket_network(g, p, method="approx") if self.network else None
        return self._paths

    def offer(self, g: Any, p: int) -> Offer:
        """The analysis of the tickets ``p`` is choosing from now."""
        key = self._position_key(g, p, g.pending_tickets)
        if key != self._offer_key or self._offer is None:
            self._offer_key = key
            self._offer = ticket_offer(g, p, g.pending_tickets)
        return self._offer

    def network_html(self) -> str:
        """One line on the cheapest network finishing every kept ticket."""
        n, a = self.network, self.approx
        if n is None:
            return ""
        approx = f"; networkx's approximation: {a.cost}" if a is not None else ""
        return (
            f"<div class='ttr-network'>All tickets together: <b>{n.cost}</b> more cars "
            f"(the cheapest network, an exact Steiner forest, {len(n.new_routes)} new routes){approx}</div>"
        )
