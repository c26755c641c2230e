"""One game, played and summarised: the unit of work every executor runs.

:func:`play_batch` plays a list of :class:`GameSpec` and returns plain rows
(lists of dicts, picklable, no pandas), so a worker process needs only the
core library and the bots.  A game's rows depend only on its spec: the
edition, the options, the line-up and the seed; each seat's bot gets a seed
derived from the game's seed and the seat.

Examples
--------
>>> from ttr_lab.simulate.games import GameSpec, play_batch
>>> out = play_batch([GameSpec(0, "usa", ("greedy", "random"), 7)])
>>> [r["agent"] for r in out["games"]], sum(r["winner"] for r in out["games"]) >= 1
(['greedy', 'random'], True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.simple import MAX_PLIES, make_bot
from ..engine.checks import check_count, check_instance
from ..engine.moves import ClaimRoute
from ..engine.scoring import longest_path
from ..engine.state import new_game
from ..errors import TtrError

__all__ = ["GameSpec", "game_seed", "bot_seed", "play_one", "play_batch", "GAME_COLUMNS"]

#: the columns of the per-seat table, in order
GAME_COLUMNS = (
    "game",
    "edition",
    "players",
    "seat",
    "agent",
    "lineup",
    "score",
    "route_points",
    "ticket_points",
    "bonus_points",
    "adjustments",
    "tickets_completed",
    "tickets_failed",
    "longest_path",
    "routes_claimed",
    "winner",
    "rank",
    "margin",
    "plies",
    "seed",
)


def _mix(*parts: object) -> int:
    """A 63-bit integer from the parts (stable across processes and machines)."""
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``.

    >>> game_seed(0, 1) == game_seed(0, 1) != game_seed(0, 2)
    True
    """
    return _mix("game", seed, index)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a game seeded ``seed``."""
    return _mix("bot", seed, seat)


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides one game: index, edition, line-up (bot names by seat), seed, options."""

    index: int
    edition: str
    lineup: tuple[str, ...]
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    max_plies: int = 5000


def play_one(spec: GameSpec) -> dict[str, list[dict[str, Any]]]:
    """Play one game to the end and summarise it.

    Returns ``{"games": per-seat rows, "claims": one row per claimed route,
    "tickets": one row per kept ticket}``.  ``spec.max_plies`` is 1 to
    :data:`~ttr_lab.bots.simple.MAX_PLIES`.
    """
    check_instance(spec, GameSpec, "spec", "a GameSpec")
    check_count(spec.max_plies, "max_plies", high=MAX_PLIES)
    game = new_game(spec.edition, list(_names(spec.lineup)), seed=spec.seed, **dict(spec.options))
    bots = [make_bot(name, bot_seed(spec.seed, i)) for i, name in enumerate(spec.lineup)]
    views = [game.view(p) for p in range(game.num_players)]
    claim_ply: dict[int, int] = {}
    for _ in range(spec.max_plies):
        if game.is_over:
            break
        p = game.current_player
        move = bots[p].choose(views[p])
        if isinstance(move, ClaimRoute):
            claim_ply[move.route] = game.ply
        game.play(move)
    else:
        raise TtrError(f"game {spec.index} (seed {spec.seed}) did not end within {spec.max_plies} plies")
    out = game.outcome()
    owners = game.route_owners()
    ed = game.edition
    lineup = ",".join(spec.lineup)
    totals = out.scores
    rank_of = {p: r for r, group in enumerate(out.ranking, 1) for p in group}
    winners = set(out.winners)
    rows = []
    for ps in out.players:
        p = ps.player
        path = ps.longest_path if ed.needs_longest_path or not ps.routes else longest_path(game, p)[0]
        others = [t for q, t in enumerate(totals) if q != p]
        rows.append(
            {
                "game": spec.index,
                "edition": spec.edition,
                "players": game.num_players,
                "seat": p,
                "agent": spec.lineup[p],
                "lineup": lineup,
                "score": ps.total,
                "route_points": ps.route_points,
                "ticket_points": ps.ticket_points,
                "bonus_points": ps.bonus_points,
                "adjustments": sum(v for _, v in ps.adjustments),
                "tickets_completed": ps.tickets_completed,
                "tickets_failed": len(ps.tickets) - ps.tickets_completed,
                "longest_path": path,
                "routes_claimed": len(ps.routes),
                "winner": p in winners,
                "rank": rank_of[p],
                "margin": ps.total - max(others) if others else 0,
                "plies": game.ply,
                "seed": spec.seed,
            }
        )
    claims = [
        {"game": spec.index, "seat": o, "agent": spec.lineup[o], "route": rid, "ply": claim_ply.get(rid, -1)}
        for rid, o in sorted(owners.items())
    ]
    m = game.map
    tickets = []
    for ps in out.players:
        for tr in ps.tickets:
            cities: list[str] = []
            for rid in tr.path:
                r = m.route(rid)
                for c in (r.a, r.b):
                    if c not in cities:
                        cities.append(c)
            tickets.append(
                {
                    "game": spec.index,
                    "seat": ps.player,
                    "agent": spec.lineup[ps.player],
                    "ticket": tr.ticket.id,
                    "label": tr.ticket.label(),
                    "value": tr.ticket.points,
                    "completed": tr.completed,
                    "points": tr.points,
                    "path_cities": "|".join(cities),
                }
            )
    return {"games": rows, "claims": claims, "tickets": tickets}


def _names(lineup: Sequence[str]) -> list[str]:
    return [f"{name} {i + 1}" for i, name in enumerate(lineup)]


def play_batch(specs: Sequence[GameSpec]) -> dict[str, list[dict[str, Any]]]:
    """Play several games (one task for an executor); rows of all of them."""
    out: dict[str, list[dict[str, Any]]] = {"games": [], "claims": [], "tickets": []}
    for spec in specs:
        one = play_one(spec)
        for key, rows in one.items():
            out[key].extend(rows)
    return out
