"""Ticket odds: how likely each of a player's tickets is to be completed by the end.

Two estimates, from the player's :class:`~ttr_lab.view.PlayerView` alone:

* :func:`ticket_odds` **simulates**: complete states consistent with the
  view (:mod:`ttr_lab.analysis.determinize`) are played to the end by the
  playout policy (:mod:`ttr_lab.playout`, every seat), and each ticket's
  share of completions is reported with a 95% Wilson interval.
* :func:`quick_odds` is a **closed form** from the cards still needed and
  the turns left (below); :func:`simulate_quick_model` draws from the same
  simplified model, to check the formula.

The closed-form model and its assumptions
-----------------------------------------
For one ticket: the routes still to claim are its cheapest way to
completion, and the cards still missing are those of the card-aware cost
(:func:`ttr_lab.analysis.cards.ticket_cards`): ``k_c`` cards of colour
``c``, and ``k_any`` for gray routes the hand gives no colour to.  Then:

1. **Turns left.**  In the final round, the player's turns in it.  Before
   it, the rounds until the player nearest the end runs out of pieces, at
   the rate each player has placed cars per turn so far (1.6 cars a turn
   before there is a history), plus the final round.
2. **Every remaining turn serves this ticket**: one turn per claim, two
   blind cards per other turn, ``n = 2 * (turns - claims)`` cards in all
   (face-up choices, ticket draws and the other tickets are ignored).
3. **The cards drawn are a uniform sample without replacement of the cards
   the player has not seen** (the deck and the other hands, the composition
   less the own hand, the row and the discards): a multivariate
   hypergeometric draw.  In Rails & Sails both piles are pooled and a card
   covers one space.
4. **Success**: the deficits ``sum_c max(0, k_c - x_c) + max(0, k_any - x_other)``
   are covered by the wilds drawn, where ``x_c`` are the cards drawn of each
   needed colour and ``x_other`` those of the colours no route needs; and
   the player has the pieces.  Opponents never block a route.

The probability is an exact sum over the hypergeometric outcomes (a
dynamic programme over colours with ``math.comb``).

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> while g.phase.name == "SETUP_TICKETS":
...     g.play(g.legal_moves[0])
>>> [(o.ticket.label(), round(o.probability, 3)) for o in quick_odds(g.view(0))]
[('Duluth-El Paso', 1.0), ('Montréal-New Orleans', 0.999)]
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..data import Ticket
from ..errors import TtrError
from ..playout import run_playout
from .cards import ticket_cards
from .determinize import iter_states

if TYPE_CHECKING:  # pragma: no cover
    from ..view import PlayerView

__all__ = [
    "TicketOdds",
    "QuickModel",
    "QuickOdds",
    "ticket_odds",
    "quick_odds",
    "quick_probability",
    "simulate_quick_model",
    "turns_left",
    "wilson",
]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (95% by default).

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (0.0 if k == 0 else max(0.0, mid - half), 1.0 if k == n else min(1.0, mid + half))


@dataclass(frozen=True)
class TicketOdds:
    """A ticket's completions in ``playouts`` simulated games, its share
    ``probability`` and the 95% Wilson interval ``low``-``high``."""

    ticket: Ticket
    completed: int
    playouts: int
    probability: float
    low: float
    high: float


def ticket_odds(view: PlayerView, *, playouts: int = 100, seed: int = 0, weighted: bool = False) -> list[TicketOdds]:
    """Each of the view's tickets with its chance of completion, by simulation.

    ``playouts`` determinized states (``weighted`` as in
    :func:`~ttr_lab.analysis.determinize.sample_states`) are played to the
    end by the playout policy; same seed, same answer.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> while g.phase.name == "SETUP_TICKETS":
    ...     g.play(g.legal_moves[0])
    >>> [(o.ticket.label(), o.playouts, 0 <= o.low <= o.probability <= o.high <= 1) for o in ticket_odds(g.view(0), playouts=4)]
    [('Duluth-El Paso', 4, True), ('Montréal-New Orleans', 4, True)]
    """
    if type(playouts) is not int or playouts < 1:
        raise TtrError(f"playouts is a whole number of games, at least 1, not {playouts!r}")
    p = view.player
    tickets = view.tickets
    done = Counter[int]()
    states = iter_states(view, seed=seed, weighted=weighted)
    for i in range(playouts):
        end = run_playout(next(states), seed=seed * 1_000_003 + i)
        for r in end.outcome().players[p].tickets:
            if r.completed:
                done[r.ticket.id] += 1
    out = []
    for t in tickets:
        k = done[t.id]
        out.append(TicketOdds(t, k, playouts, k / playouts, *wilson(k, playouts)))
    return out


# ---------------------------------------------------------------- the closed form
@dataclass(frozen=True)
class QuickModel:
    """The simplified model of one ticket (see the module doc): cards still
    to draw by colour (``"any"``: gray routes without a colour), the claims,
    the turns left, the cards ``draws`` drawn meanwhile, the unseen cards by
    colour (``"wild"`` for the wilds), and whether the pieces suffice."""

    needs: tuple[tuple[str, int], ...]
    claims: int
    turns: int
    draws: int
    pool: tuple[tuple[str, int], ...]
    pieces_ok: bool = True
    done: bool = False
    impossible: bool = False


@dataclass(frozen=True)
class QuickOdds:
    """A ticket, its closed-form probability and the model it comes from."""

    ticket: Ticket
    probability: float
    model: QuickModel


def turns_left(view: PlayerView, player: int | None = None) -> int:
    """The player's turns left, estimated as in step 1 of the module doc.

    >>> import ttr_lab
    >>> turns_left(ttr_lab.new_game("usa", players=2, seed=1).view(0))   # (45 - 2) / 1.6 + 1
    27
    """
    p = view.player if player is None else player
    n = view.num_players
    ed = view.edition
    left = view.final_turns_left
    if left is not None:  # the final round: the player's turns among the next `left`
        return sum(1 for i in range(left) if (view.current_player + i) % n == p)
    turn = view.counters["turn"]
    pieces = view.pieces
    start = ed.pieces
    rounds = math.inf
    for q in range(n):
        own = max(1, (turn + n - 1 - q) // n)  # turns q has had (setup aside: roughly)
        placed = start - pieces[q]
        rate = placed / own if turn >= 3 * n and placed else 1.6
        rounds = min(rounds, max(0.0, pieces[q] - ed.end_threshold) / max(rate, 0.5))
    return int(rounds) + ed.final_turns


def _pool(view: PlayerView) -> Counter[str]:
    """Unseen cards by colour (``"wild"``): the composition less the hand, the row, the discards, a tunnel's reveal."""
    ed = view.edition
    seen = Counter(view.hand)
    seen.update(c for c in view.row if c is not None)
    for k in range(len(ed.pile_names)):
        seen.update(view.discard_cards(k))
    tunnel = getattr(view, "tunnel", None)
    if tunnel is not None:
        seen.update(tunnel.revealed)
    out: Counter[str] = Counter()
    for pile in ed.deck_composition:
        for c, count in pile:
            ct = ed.card_types[c]
            out["wild" if ct.wild else str(ct.color)] += count - seen[ct.name]
    return out


def quick_probability(model: QuickModel) -> float:
    """The model's probability of success, exactly (see the module doc)."""
    if model.done:
        return 1.0
    if model.impossible or not model.pieces_ok or model.draws < 0:
        return 0.0
    pool = dict(model.pool)
    need = dict(model.needs)
    k_any = need.pop("any", 0)
    colours = [(c, k) for c, k in need.items() if k > 0]
    n = model.draws
    N = sum(pool.values())
    n = min(n, N)
    wild = pool.get("wild", 0)
    other = N - wild - sum(pool.get(c, 0) for c, _ in colours)
    # dp[(drawn, deficit)] = ways; categories: each needed colour, then the others ("any")
    dp = {(0, 0): 1}
    cats = [(pool.get(c, 0), k) for c, k in colours] + [(other, k_any)]
    for size, k in cats:
        nxt: dict[tuple[int, int], int] = {}
        for (t, d), ways in dp.items():
            for x in range(0, min(size, n - t) + 1):
                key = (t + x, d + max(0, k - x))
                nxt[key] = nxt.get(key, 0) + ways * math.comb(size, x)
        dp = nxt
    good = sum(ways * math.comb(wild, n - t) for (t, d), ways in dp.items() if d <= n - t <= wild)
    return good / math.comb(N, n) if N else float(not (colours or k_any))


def simulate_quick_model(model: QuickModel, samples: int = 20000, *, seed: int = 0) -> float:
    """The model's probability by Monte Carlo of its own assumptions (shuffle
    the unseen cards, draw ``draws``, check the deficits), for checking
    :func:`quick_probability`.

    >>> m = QuickModel(needs=(("red", 2),), claims=1, turns=3, draws=4, pool=(("red", 3), ("blue", 5), ("wild", 2)))
    >>> abs(simulate_quick_model(m, 20000) - quick_probability(m)) < 0.01
    True
    """
    if model.done:
        return 1.0
    if model.impossible or not model.pieces_ok or model.draws < 0:
        return 0.0
    rng = random.Random(seed)
    cards = [c for c, k in model.pool for _ in range(k)]
    need = {c: k for c, k in model.needs if k > 0}
    k_any = need.pop("any", 0)
    n = min(model.draws, len(cards))
    hits = 0
    for _ in range(samples):
        drawn = Counter(rng.sample(cards, n))
        deficit = sum(max(0, k - drawn[c]) for c, k in need.items())
        others = sum(v for c, v in drawn.items() if c != "wild" and c not in need)
        deficit += max(0, k_any - others)
        hits += deficit <= drawn["wild"]
    return hits / samples


def quick_odds(view: PlayerView) -> list[QuickOdds]:
    """Each of the view's tickets with its closed-form probability (see the module doc)."""
    p = view.player
    turns = turns_left(view)
    pool = tuple(sorted(_pool(view).items()))
    out = []
    for t, plan in ticket_cards(view, p):
        if plan is None:
            model = QuickModel((), 0, turns, 0, pool, impossible=True)
        elif not plan.routes:
            model = QuickModel((), 0, turns, 0, pool, done=True)
        else:
            need: Counter[str] = Counter()
            for r in plan.routes:
                if r.missing:
                    need[r.color if r.color is not None else "any"] += r.missing
            draws = 2 * (turns - plan.claims)
            model = QuickModel(
                tuple(sorted(need.items())), plan.claims, turns, draws, pool, pieces_ok=plan.pieces_short == 0
            )
        out.append(QuickOdds(t, quick_probability(model), model))
    return out
