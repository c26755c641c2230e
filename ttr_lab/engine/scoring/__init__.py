"""Scoring from scratch: tickets, longest path, bonuses, tie-breakers.

Everything here recomputes from the position (who owns which route, who
holds which ticket), so it can check the running score, and it can score any
position "as if the game ended now".  The edition supplies what is its own
through hooks: how tickets are scored (stations borrow routes in Europe,
tours in Rails & Sails), its extra terms (stations, harbors, exchanges), its
bonuses (the longest path, Globetrotter) and its tie-breakers.

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.engine.scoring import ticket_status, longest_path
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> ticket_status(g, 0)
()
>>> longest_path(g, 0)
(0, ())
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ...errors import TtrError
from ...maps.loading import Route, Ticket
from .player_network import Network, adjacency, bfs_path, component
from .results import Outcome, PlayerScore, TicketResult, TourResult
from .trail import longest_trail_edges

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = [
    "TicketResult",
    "TourResult",
    "PlayerScore",
    "Outcome",
    "Network",
    "owned_routes",
    "network",
    "route_points",
    "ticket_status",
    "ticket_path",
    "score_two_city",
    "longest_path",
    "score_player",
    "outcome",
]


def owned_routes(state: GameState, player: int) -> list[Route]:
    """The routes a player owns, in map order."""
    routes = state.edition.routes
    return [routes[i] for i, o in enumerate(state._owners) if o == player]


def network(state: GameState, player: int, extra: Iterable[int] = ()) -> dict[str, list[tuple[int, str]]]:
    """A player's network: own routes, plus ``extra`` route ids (borrowed by stations)."""
    m = state.map
    return adjacency([*owned_routes(state, player), *(m.route(r) for r in extra)])


def route_points(state: GameState, player: int) -> int:
    """Route points recomputed from the routes a player owns."""
    table = state.edition.route_points
    return sum(table[r.length] for r in owned_routes(state, player))


def score_two_city(ticket: Ticket, adj: Network) -> TicketResult:
    """A two-city ticket over a network: its value if joined, minus it if not (A7)."""
    path = bfs_path(adj, ticket.a, ticket.b)
    if path is None:
        return TicketResult(ticket, False, -ticket.penalty)
    return TicketResult(ticket, True, ticket.points, path)


def ticket_path(
    state: GameState, player: int, ticket: Ticket, *, extra_routes: tuple[int, ...] = ()
) -> tuple[int, ...] | None:
    """The player's routes (ids, in order) joining a two-city ticket, or None."""
    return bfs_path(network(state, player, extra_routes), ticket.a, ticket.b)


def ticket_status(state: GameState, player: int) -> tuple[TicketResult, ...]:
    """The ticket hit/miss scorer: each kept ticket of ``player``, now.
    (A seat's :class:`~ttr_lab.engine.view.PlayerView` answers for its own seat:
    ``view.ticket_status()``.)"""
    if not hasattr(state, "_owners"):
        raise TtrError(
            f"ticket_status takes a game state, not {type(state).__name__}; "
            "a seat's view answers for its own tickets: view.ticket_status()"
        )
    if type(player) is not int or not 0 <= player < state.num_players:
        raise TtrError(f"player {player!r} is not a seat of this {state.num_players}-player game")
    return state.edition.ticket_results(state, player)


def longest_path(state: GameState, player: int) -> tuple[int, tuple[int, ...]]:
    """Exact longest continuous path (a trail: each route once) of a player's
    own routes: ``(cars, route ids in order)``."""
    edges = [(r.id, r.a, r.b, r.length) for r in owned_routes(state, player)]
    length, ids = longest_trail_edges(edges)
    return length, tuple(ids)


def score_player(state: GameState, player: int) -> PlayerScore:
    """Everything but the bonuses that compare players (see :func:`outcome`)."""
    ed = state.edition
    length, path = longest_path(state, player) if ed.needs_longest_path else (0, ())
    tickets = ed.ticket_results(state, player)
    return PlayerScore(
        player=player,
        name=state.player_names[player],
        routes=tuple(r.id for r in owned_routes(state, player)),
        route_points=route_points(state, player),
        tickets=tickets,
        longest_path=length,
        longest_path_routes=path,
        bonuses=(),
        adjustments=ed.score_terms(state, player, tickets),
    )


def outcome(state: GameState) -> Outcome:
    """Score every player from scratch and rank them with the edition's
    tie-breakers.  Works mid-game too ("if the game ended now")."""
    ed = state.edition
    base = [score_player(state, p) for p in range(state.n)]
    bonuses, holders = ed.bonuses(state, base)
    scored = []
    for s in base:
        extra = tuple(bonuses[s.player])
        total = s.route_points + s.ticket_points + sum(v for _, v in extra) + sum(v for _, v in s.adjustments)
        scored.append(
            PlayerScore(
                s.player,
                s.name,
                s.routes,
                s.route_points,
                s.tickets,
                s.longest_path,
                s.longest_path_routes,
                extra,
                s.adjustments,
                total,
            )
        )
    keys = {s.player: ed.tiebreak_key(state, s, holders) for s in scored}
    order = sorted(range(state.n), key=lambda p: (-scored[p].total, tuple(-k for k in keys[p]), p))
    ranking: list[tuple[int, ...]] = []
    notes: list[str] = []
    for p in order:
        if ranking and scored[ranking[-1][0]].total == scored[p].total and keys[ranking[-1][0]] == keys[p]:
            ranking[-1] = ranking[-1] + (p,)
        else:
            ranking.append((p,))
    top = [p for p in order if scored[p].total == scored[order[0]].total]
    if len(top) > 1:
        notes.append(ed.tiebreak_text(len(ranking[0]) > 1))
    return Outcome(tuple(scored), tuple(ranking), tuple(notes))


# the network helpers, for editions' own scoring terms
__all__ += ["adjacency", "bfs_path", "component"]
