"""Held-out positions: where the analysis is checked against long runs from the true state.

:func:`bot_position` plays a seeded game of bots to the end and takes it
back to a random ply after the first claim, so the positions spread over
whole games; :func:`reshuffled` gives the same true state with the cards
nobody holds in a new order, so a reference run from the true state does
not depend on one deck order.  The ticket-odds checks
(``tests/test_ticket_odds_bias.py``, ``benchmarks/bench_ticket_odds_error.py``,
``benchmarks/bench_odds.py``) draw their positions here.

>>> import random
>>> g, seat = bot_position("usa", 3)
>>> 2 <= g.num_players <= 4 and 0 <= seat < g.num_players and not g.is_over
True
>>> h = reshuffled(g, random.Random(1))
>>> h.hand_counts(seat) == g.hand_counts(seat), h.route_owners() == g.route_owners()
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.checks import check_seed
from ..engine.position import position_to_dict
from ..engine.state import GameState, new_game
from .simple import make_bot

__all__ = ["bot_position", "reshuffled"]


def bot_position(
    edition: str, seed: int, *, bots: Sequence[str] = ("playout", "greedy"), players: Sequence[int] = (2, 3, 4)
) -> tuple[GameState, int]:
    """A position of a seeded bot game of ``edition`` and the seat to view it from:
    2-4 players (``players``), each seat a bot drawn from ``bots``, the game
    played to the end and taken back to a random ply from the first claim (or
    the sixth ply a player) to the last but one."""
    check_seed(seed)
    rng = random.Random(seed)
    n = rng.choice(tuple(players))
    g = new_game(edition, players=n, seed=seed)
    seats = [make_bot(rng.choice(tuple(bots)), seed * 10 + p) for p in range(n)]
    while not g.is_over:
        g.push(seats[g.current_player].choose(g.view(g.current_player)))
    first = next(i for i, m in enumerate(g.move_stack) if type(m).__name__ == "ClaimRoute" or i > 6 * n)
    stop = rng.randrange(first, len(g.move_stack) - 1)
    while len(g.move_stack) > stop:
        g.pop()
    return g, rng.randrange(n)


def reshuffled(state: GameState, rng: random.Random) -> GameState:
    """``state`` with the cards nobody holds (each deck) in a new order and a new seed
    for later shuffles; hands, tickets, the row and the board stay as they are (the move
    history does not: the state starts from this position)."""
    d = position_to_dict(state)
    for deck in d["decks"].values():
        rng.shuffle(deck)
    d["seed"] = rng.getrandbits(64)
    return GameState.from_dict(d)
