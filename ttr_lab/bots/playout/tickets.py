"""The playout policy's ticket choice and Rails & Sails piece split (:mod:`ttr_lab.bots.playout`).

:func:`keep_choice`: the cheapest sufficient set of the offered tickets
(each one's path, shared routes counted once; at setup on the empty board,
later with the bot's plan free), then an extra ticket when it costs few cars
more.  :func:`split_choice`: trains and ships in proportion to what the
tickets' paths on the empty board need.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from ...engine.moves import KeepTickets, Move
from ...engine.phases import Phase
from .tables import _INF, _static_path, _tables

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.view import PlayerView
    from . import PlayoutBot

__all__ = ["keep_choice", "split_choice"]

_SETUP = Phase.SETUP_TICKETS


def keep_choice(bot: PlayoutBot, view: PlayerView, moves: list[Move]) -> Move:
    T = _tables(view.edition)
    offered = list(view.pending_tickets)
    need = min(len(m.tickets) for m in moves if isinstance(m, KeepTickets))
    setup = view.phase == _SETUP
    paths: dict[int, set[int]] = {}
    if setup:
        pieces = view.edition.pieces
        for t in offered:
            routes: set[int] = set()
            for x, y in zip(t.cities, t.cities[1:]):
                routes.update(_static_path(T, T.index[x], T.index[y])[1])
            paths[t.id] = routes
    else:
        bot._check(view, T)
        pieces = bot.trains + bot.ships - sum(T.rlen[ri] for ri in bot.plan)
        cost = bot._costs(view, T)
        for ri in bot.plan:
            cost[ri] = 0.0
        for t in offered:
            d, routes2 = bot._legs(T, cost, t)
            paths[t.id] = {ri for ri in routes2 if cost[ri] > 0} if d < _INF else {-1}

    def cars(ids: Sequence[int]) -> float:
        union = set().union(*(paths[i] for i in ids))
        return _INF if -1 in union else float(sum(T.rlen[ri] for ri in union))

    best: tuple[float, tuple[int, ...]] | None = None
    for combo in combinations(offered, need):
        ids = tuple(sorted(t.id for t in combo))
        c = cars(ids)
        value = sum(t.points for t in combo) - bot.car_cost * c - 3 * max(0.0, c - (0.8 if setup else 0.5) * pieces)
        if best is None or (value, ids) > best:
            best = (value, ids)
    assert best is not None
    chosen = list(best[1])
    for t in sorted(offered, key=lambda t: -t.points):
        if t.id in chosen:
            continue
        extra = cars(chosen + [t.id]) - cars(chosen)
        if extra <= 3 + 0.2 * t.points and cars(chosen + [t.id]) <= 0.6 * pieces:
            chosen.append(t.id)
    choice = KeepTickets(tuple(sorted(chosen)))
    bot._stale = True  # new tickets: plan again next time
    return choice if choice in moves else moves[0]


def split_choice(view: PlayerView, moves: list[Move]) -> Move:
    """The edition's own decision: a setup split of the pieces (Rails & Sails)
    in proportion to what the tickets' paths on the empty board need, else
    the edition's default choice."""
    ed = view.edition

    def need() -> tuple[float, float]:
        T = _tables(ed)
        routes: set[int] = set()
        for t in view.tickets:
            for x, y in zip(t.cities, t.cities[1:]):
                routes.update(_static_path(T, T.index[x], T.index[y])[1])
        tr = sum(T.rlen[ri] for ri in routes if not T.rship[ri]) + 6
        sh = sum(T.rlen[ri] for ri in routes if T.rship[ri]) + 6
        return float(tr), float(sh)

    return ed.choose_split(view, moves, need) or ed.default_choice(view, moves) or moves[0]
