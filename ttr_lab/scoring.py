"""Scoring from scratch: tickets, longest path, bonuses, tie-breakers.

Everything here recomputes from the position (who owns which route, who
holds which ticket), so it can check the running score, and it can score any
position "as if the game ended now".

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.scoring import ticket_status, longest_path
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> ticket_status(g, 0)
()
>>> longest_path(g, 0)
(0, ())
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .analysis.trails import longest_trail_edges
from .data import Ticket

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = [
    "TicketResult",
    "PlayerScore",
    "Outcome",
    "route_points",
    "ticket_status",
    "ticket_path",
    "longest_path",
    "score_player",
    "outcome",
]


@dataclass(frozen=True)
class TicketResult:
    """One ticket at scoring time: completed or not, its points, and the
    routes (ids, in order from the first city) that complete it."""

    ticket: Ticket
    completed: bool
    points: int
    path: tuple[int, ...] = ()

    def __str__(self) -> str:
        mark = "hit " if self.completed else "miss"
        return f"{mark} {self.ticket.label()} {self.points:+d}"


@dataclass(frozen=True)
class PlayerScore:
    """The final-score breakdown of one player."""

    player: int
    name: str
    routes: tuple[int, ...]
    route_points: int
    tickets: tuple[TicketResult, ...]
    longest_path: int
    longest_path_routes: tuple[int, ...]
    bonuses: tuple[tuple[str, int], ...]
    adjustments: tuple[tuple[str, int], ...] = ()
    total: int = 0

    @property
    def tickets_completed(self) -> int:
        return sum(1 for t in self.tickets if t.completed)

    @property
    def ticket_points(self) -> int:
        return sum(t.points for t in self.tickets)

    @property
    def bonus_points(self) -> int:
        return sum(v for _, v in self.bonuses)

    def lines(self) -> list[str]:
        """A printable breakdown."""
        out = [f"{self.name}: {self.total} points"]
        out.append(f"  routes ({len(self.routes)}): {self.route_points}")
        for t in self.tickets:
            out.append(f"  ticket {t}")
        if self.longest_path_routes:  # editions without a path bonus do not compute it
            out.append(f"  longest path: {self.longest_path} cars ({len(self.longest_path_routes)} routes)")
        for name, v in self.bonuses + self.adjustments:
            out.append(f"  {name}: {v:+d}")
        return out


@dataclass(frozen=True)
class Outcome:
    """Final scores, the ranking (groups of tied seats, best first) and winners."""

    players: tuple[PlayerScore, ...]
    ranking: tuple[tuple[int, ...], ...]
    tiebreak: tuple[str, ...] = field(default=())

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.total for p in self.players)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    def __str__(self) -> str:
        lines = []
        for p in self.players:
            lines.extend(p.lines())
        names = " and ".join(self.players[w].name for w in self.winners)
        lines.append(f"Winner: {names}" + (f" ({'; '.join(self.tiebreak)})" if self.tiebreak else ""))
        return "\n".join(lines)


def _owned(state: "GameState", player: int) -> list[int]:
    return [i for i, o in enumerate(state._owners) if o == player]


def route_points(state: "GameState", player: int) -> int:
    """Route points recomputed from the routes a player owns."""
    ed = state.edition
    return sum(ed.route_points[ed.route_length[i]] for i in _owned(state, player))


def _adjacency(state: "GameState", route_idx: list[int]) -> dict[str, list[tuple[int, str]]]:
    routes = state.edition.routes
    adj: dict[str, list[tuple[int, str]]] = {}
    for i in sorted(route_idx, key=lambda i: routes[i].id):
        r = routes[i]
        adj.setdefault(r.a, []).append((r.id, r.b))
        adj.setdefault(r.b, []).append((r.id, r.a))
    return adj


def _bfs_path(adj: dict[str, list[tuple[int, str]]], a: str, b: str) -> tuple[int, ...] | None:
    """Fewest-routes path from a to b (route ids), deterministic; None if none."""
    if a not in adj or b not in adj:
        return None
    prev: dict[str, tuple[str, int] | None] = {a: None}
    queue = deque([a])
    while queue:
        city = queue.popleft()
        if city == b:
            path = []
            while prev[city] is not None:
                city, rid = prev[city]  # type: ignore[misc]
                path.append(rid)
            return tuple(reversed(path))
        for rid, nxt in adj[city]:
            if nxt not in prev:
                prev[nxt] = (city, rid)
                queue.append(nxt)
    return None


def ticket_path(state: "GameState", player: int, ticket: Ticket, *, extra_routes: tuple[int, ...] = ()) -> tuple[int, ...] | None:
    """The player's routes (ids, in order) joining a two-city ticket, or None."""
    idx = _owned(state, player) + [state.edition.route_index[r] for r in extra_routes]
    return _bfs_path(_adjacency(state, idx), ticket.a, ticket.b)


def ticket_status(state: "GameState", player: int) -> tuple[TicketResult, ...]:
    """The ticket hit/miss scorer: each kept ticket of ``player``, now."""
    return state.edition.score_tickets(state, player, _adjacency(state, _owned(state, player)))


def score_two_city(ticket: Ticket, adj: dict[str, list[tuple[int, str]]]) -> TicketResult:
    path = _bfs_path(adj, ticket.a, ticket.b)
    if path is None:
        return TicketResult(ticket, False, -ticket.penalty)
    return TicketResult(ticket, True, ticket.points, path)


def longest_path(state: "GameState", player: int) -> tuple[int, tuple[int, ...]]:
    """Exact longest continuous path (a trail: each route once) of a player's
    own routes: ``(cars, route ids in order)``."""
    routes = state.edition.routes
    edges = [(routes[i].id, routes[i].a, routes[i].b, routes[i].length) for i in _owned(state, player)]
    length, ids = longest_trail_edges(edges)
    return length, tuple(ids)


def score_player(state: "GameState", player: int) -> PlayerScore:
    """Everything but the bonuses that compare players (see :func:`outcome`)."""
    ed = state.edition
    length, path = longest_path(state, player) if ed.longest_path_bonus or ed.uses_path_tiebreak else (0, ())
    owned = _owned(state, player)
    return PlayerScore(
        player=player,
        name=state.player_names[player],
        routes=tuple(sorted(ed.routes[i].id for i in owned)),
        route_points=route_points(state, player),
        tickets=ticket_status(state, player),
        longest_path=length,
        longest_path_routes=path,
        bonuses=(),
        adjustments=ed.score_adjustments(state, player),
    )


def outcome(state: "GameState") -> Outcome:
    """Score every player from scratch and rank them with the edition's
    tie-breakers.  Works mid-game too ("if the game ended now")."""
    ed = state.edition
    base = [score_player(state, p) for p in range(state.n)]
    bonuses: list[list[tuple[str, int]]] = [[] for _ in base]
    holders: set[int] = set()
    if ed.longest_path_bonus:
        best = max(s.longest_path for s in base)
        if best > 0:
            holders = {s.player for s in base if s.longest_path == best}
            for p in sorted(holders):
                bonuses[p].append((ed.longest_path_name, ed.longest_path_bonus))
    if ed.globetrotter_bonus:
        most = max(s.tickets_completed for s in base)
        if most > 0:
            for s in base:
                if s.tickets_completed == most:
                    bonuses[s.player].append(("Globetrotter", ed.globetrotter_bonus))
    for p, s in enumerate(base):
        bonuses[p].extend(ed.extra_bonuses(state, p, s))
    scored = []
    for s in base:
        total = s.route_points + s.ticket_points + sum(v for _, v in bonuses[s.player]) + sum(v for _, v in s.adjustments)
        scored.append(
            PlayerScore(
                s.player, s.name, s.routes, s.route_points, s.tickets, s.longest_path,
                s.longest_path_routes, tuple(bonuses[s.player]), s.adjustments, total,
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
