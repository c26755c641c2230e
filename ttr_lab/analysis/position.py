"""Ticket analysis of a game position (uses the public GameState API).

For one player: which routes are theirs (free), which are closed to them
(claimed by others, or the other side of a double route they may not take),
the cheapest way to finish each ticket, the cheapest single network finishing
all of them, and which claims would help most next.

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.analysis.position import ticket_paths
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> while g.phase.name == "SETUP_TICKETS":
...     g.play(g.legal_moves[0])
>>> [(t.label(), p.cost) for t, p in ticket_paths(g, 0)]
[('Duluth-El Paso', 10), ('Montréal-New Orleans', 13)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..data import Ticket
from ..graph import board_graph
from .paths import TicketPath, shortest_ticket_path
from .trees import SteinerTree, steiner_tree

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["route_access", "ticket_paths", "ticket_network", "cards_needed", "NextClaim", "next_claims"]


def route_access(state: GameState, player: int) -> tuple[frozenset[int], frozenset[int]]:
    """``(owned, blocked)`` route ids for ``player`` in this position."""
    owned, blocked = set(), set()
    for r in state.map.routes:
        o = state.route_owner(r.id)
        if o == player:
            owned.add(r.id)
        elif o is not None or not state.route_open_to(r.id, player):
            blocked.add(r.id)
    return frozenset(owned), frozenset(blocked)


def ticket_paths(
    state: GameState, player: int, tickets: tuple[Ticket, ...] | None = None
) -> list[tuple[Ticket, TicketPath | None]]:
    """Each ticket (the player's by default) with its cheapest completion path
    (None when it can no longer be completed).  Tours use their first and
    last cities."""
    G = board_graph(state.map)
    owned, blocked = route_access(state, player)
    tickets = state.tickets(player) if tickets is None else tickets
    return [(t, shortest_ticket_path(G, t.a, t.b, owned=owned, blocked=blocked)) for t in tickets]


def ticket_network(state: GameState, player: int, *, method: str = "exact") -> SteinerTree | None:
    """The cheapest single network joining every city of the player's tickets
    (a Steiner tree on the remaining board); None if impossible."""
    cities = [c for t in state.tickets(player) for c in t.cities]
    owned, blocked = route_access(state, player)
    if len(set(cities)) > 10 and method == "exact":
        method = "approx"
    return steiner_tree(board_graph(state.map), cities, owned=owned, blocked=blocked, method=method)


def cards_needed(state: GameState, routes) -> dict[str, int]:
    """The cards a set of routes asks for, by colour: ``{"red": 4, "any": 3}``
    ("any" for gray routes, which take any one colour each; ship routes are
    listed as e.g. ``"red ships"``; a paired route needs two cards a space).

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> cards_needed(g, [1, 2])   # Atlanta-Charleston (gray 2), Atlanta-Miami (blue 5)
    {'any': 2, 'blue': 5}
    """
    need: dict[str, int] = {}
    for rid in routes:
        r = state.map.route(rid)
        key = "any" if r.color == "gray" else r.color
        if r.kind == "ship":
            key += " ships"
        need[key] = need.get(key, 0) + r.length * (2 if r.paired else 1)
    return dict(sorted(need.items()))


@dataclass(frozen=True)
class NextClaim:
    """A route worth claiming next: the unfinished tickets whose cheapest path
    uses it, and the points those tickets are worth."""

    route: int
    tickets: tuple[int, ...]
    points: int


def next_claims(state: GameState, player: int) -> list[NextClaim]:
    """Routes on the cheapest paths of unfinished tickets, best first
    (most ticket points served, then shortest route)."""
    serve: dict[int, list[Ticket]] = {}
    for t, path in ticket_paths(state, player):
        if path is None or path.cost == 0:
            continue
        for r in path.new_routes:
            serve.setdefault(r, []).append(t)
    out = [NextClaim(r, tuple(t.id for t in ts), sum(t.points for t in ts)) for r, ts in serve.items()]
    out.sort(key=lambda c: (-c.points, state.map.route(c.route).length, c.route))
    return out
