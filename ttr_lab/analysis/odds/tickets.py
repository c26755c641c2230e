"""Ticket odds: how likely each of a player's tickets is to be completed by the end.

Two estimates, from the player's :class:`~ttr_lab.engine.view.PlayerView` alone:

* :func:`ticket_odds` **simulates**: complete states consistent with the
  view (:mod:`ttr_lab.analysis.hidden`) are played to the end by the
  playout policy (:mod:`ttr_lab.bots.playout`, every seat), and each ticket's
  share of completions is reported with a 95% Wilson interval.
* :func:`quick_odds` is a **closed form** from the cards still needed and
  the turns left (below), calibrated to the simulation;
  :func:`simulate_quick_model` draws from its card model
  (:mod:`ttr_lab.analysis.odds`), to check the hypergeometric sums.

The closed form
---------------
A ticket already connected has probability 1, one without an open path or
with too few pieces 0.  For the others, two card models, each exact:

* **the ticket alone**: the routes still to claim are its cheapest way to
  completion, the cards still missing are those of the card-aware cost
  (:func:`ttr_lab.analysis.card_plans.ticket_cards`): ``k_c`` cards of colour
  ``c``, ``k_any`` for gray routes the hand gives no colour to;
* **the whole network**: the same for the cheapest network joining every
  ticket that can still be completed (the Steiner forest), because the
  playout policy draws and claims for all its tickets at once.

For each model:

1. **Turns left.**  In the final round, the player's turns in it.  Before
   it, the rounds until the player nearest the end runs out of pieces, at
   the rate each player has placed cars per turn so far (1.6 cars a turn
   before there is a history), plus the final round.
2. **Draws**: one turn per claim; every other turn draws :data:`RATE` x 2
   cards counted as blind (the policy takes the face-up card it needs, so a
   drawing turn is worth more than two blind cards).
3. **The cards drawn are a uniform sample without replacement of the cards
   the player has not seen** (the deck and the other hands, the composition
   less the own hand, the row and the discards): a multivariate
   hypergeometric draw.  In Rails & Sails both piles are pooled and a card
   covers one space.
4. **Success**: the deficits ``sum_c max(0, k_c - x_c) + max(0, k_any - x_other)``
   are covered by the wilds drawn, where ``x_c`` are the cards drawn of each
   needed colour and ``x_other`` those of the colours no route needs.  The
   probability is an exact sum over the hypergeometric outcomes (a dynamic
   programme over colours with ``math.comb``).

These card models ignore what the playout policy loses to the table: routes
taken by others, the game ending sooner than the rate says, cards spent on
other tickets.  So the closed form is a **logistic** of four quantities with
the constants :data:`COEF`: the logits of the two card models, the routes
still to claim times the number of opponents (exposure to blocking), and
the network's work (claims plus half the missing cards) as a share of the
turns left.  The constants (and :data:`RATE`) are fitted, by binomial
maximum likelihood, to the simulated completions of 1,087 open tickets in
800 positions of bot games (``benchmarks/bench_odds.py --fit``), simulated
with uniform guesses of the other seats' tickets (``weighted=False``).
``quick_odds(view, calibrated=False)`` gives the ticket-alone card model
uncalibrated (the old quick estimate, which assumed every turn served that
ticket and nobody blocked).

How close it is
---------------
"Within 1 point of the simulation" cannot be checked, or met, position by
position: at 40 playouts the simulation's own 95% interval for one ticket is
several points wide, and a formula of a few numbers cannot know what the
determinized opponents will take.  It is checked on average over held-out
positions; the figures, with their intervals, are in ``benchmarks/README.md``
("Ticket odds and game review checks").

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> while g.phase.name == "SETUP_TICKETS":
...     g.play(g.legal_moves[0])
>>> [(o.ticket.label(), round(o.probability, 3)) for o in quick_odds(g.view(0))]
[('Duluth-El Paso', 0.905), ('Montréal-New Orleans', 0.902)]
>>> [round(o.probability, 3) for o in quick_odds(g.view(0), calibrated=False)]
[1.0, 0.999]
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...bots.playout import play_out
from ...engine.checks import MAX_PLAYOUTS, check_count, check_instance, check_seed
from ...engine.view import PlayerView
from ...maps.graphs import board_graph
from ...maps.loading import Ticket
from ..card_plans import _supply, hand_of, plan_cards, ticket_cards
from ..hidden.determinize import iter_states
from ..network import route_access
from ..steiner.forest import steiner_forest
from .model import QuickModel, _pool, quick_probability, simulate_quick_model, turns_left

__all__ = [
    "COEF",
    "LAM",
    "RATE",
    "QuickInputs",
    "calibrated_probability",
    "features",
    "quick_inputs",
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


#: :func:`ticket_odds`' rate per car of detour of the other seats' ticket
#: likelihood (``benchmarks/bench_ticket_odds_error.py``: 2 and 5 about
#: equally good on USA, both better than 0.5, the default of ``advise``)
LAM = 2.0


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


def ticket_odds(
    view: PlayerView, *, playouts: int = 100, seed: int = 0, weighted: bool = True, lam: float = LAM
) -> list[TicketOdds]:
    """Each of the view's tickets with its chance of completion, by simulation.

    ``playouts`` determinized states are played to the end by the playout
    policy; same seed, same answer.  The other seats' unseen tickets are
    drawn from their posterior given the routes each has claimed
    (``weighted``, the likelihood's rate per car of detour ``lam``; see
    :func:`~ttr_lab.analysis.hidden.sample_states`).  Uniform guesses
    (``weighted=False``) made the odds optimistic: opponents with tickets
    that their claims do not explain build elsewhere, and block less than
    the real ones do.  On 101 USA tickets that a pilot run put between 5%
    and 95%, against continuations from the true hands and tickets
    (``tests/test_ticket_odds_bias.py``), uniform guesses were 8.5 points
    too high on average and these guesses 3.8 (with the true tickets of the
    other seats: about 0, so what is left is evidence about their tickets
    that the claims do not give).  ``benchmarks/bench_ticket_odds_error.py``
    measures it per edition.

    The interval is the simulation's own: the 95% Wilson interval of the
    chance *given what the seat knows*.  The outcome from the one true
    state (the real hidden cards, tickets and deck) falls outside it far
    more often than 5% of the time, because what the seat does not know
    moves a ticket's fate by more than the simulation's noise.

    ``playouts`` is 1 to :data:`~ttr_lab.engine.checks.MAX_PLAYOUTS`, ``seed`` 0
    to ``2**128 - 1`` (as a game's) and ``lam`` 0 to
    :data:`~ttr_lab.analysis.hidden.determinize.MAX_LAM`: anything else is a
    TtrError naming it, before any playout.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> while g.phase.name == "SETUP_TICKETS":
    ...     g.play(g.legal_moves[0])
    >>> [(o.ticket.label(), o.playouts, 0 <= o.low <= o.probability <= o.high <= 1) for o in ticket_odds(g.view(0), playouts=4)]
    [('Duluth-El Paso', 4, True), ('Montréal-New Orleans', 4, True)]
    """
    check_instance(view, PlayerView, "view", "one seat's view (game.view(seat))")
    check_count(playouts, "playouts", high=MAX_PLAYOUTS)
    check_seed(seed)
    p = view.player
    tickets = view.tickets
    done = Counter[int]()
    states = iter_states(view, seed=seed, weighted=weighted, lam=lam)
    for i in range(playouts):
        end = play_out(next(states), seed=seed * 1_000_003 + i)
        for tid, completed in end.tickets[p]:
            if completed:
                done[tid] += 1
    out = []
    for t in tickets:
        k = done[t.id]
        out.append(TicketOdds(t, k, playouts, k / playouts, *wilson(k, playouts)))
    return out


# ---------------------------------------------------------------- the closed form
# (its card model, QuickModel and quick_probability: .model)
@dataclass(frozen=True)
class QuickOdds:
    """A ticket, its closed-form probability and the model it comes from."""

    ticket: Ticket
    probability: float
    model: QuickModel


# ---------------------------------------------------------------- the calibrated closed form
#: the draw rate: the playout policy's cards per drawing turn count as this
#: many blind cards (it takes the face-up card it needs most)
RATE = 1.2
#: the logistic's constants: intercept, logit of the ticket-alone odds, logit
#: of the whole network's odds, routes still to claim times opponents / 4, and
#: the share of the turns left the network needs (``benchmarks/bench_odds.py
#: --fit`` on seeds 0-399 and 10000-10399, 40 playouts each, 2026-12-01)
COEF: tuple[float, float, float, float, float] = (2.1791, 0.0399, 0.1171, -0.106, -1.2958)
_CLIP = 1e-4


@dataclass(frozen=True)
class QuickInputs:
    """What the closed form reads for one ticket: ``status`` (``"open"``,
    ``"done"``, ``"impossible"``: no open path, or too few pieces), the
    ticket-alone model, the model of the player's whole network (every ticket
    that can still be completed), and the number of players."""

    status: str
    ticket: QuickModel
    network: QuickModel
    players: int


def _scaled(model: QuickModel, rate: float) -> QuickModel:
    """The model with ``rate`` times the draws (the turns that are not claims)."""
    draws = max(0, round(rate * 2 * (model.turns - model.claims))) if model.turns >= model.claims else -1
    return QuickModel(
        model.needs, model.claims, model.turns, draws, model.pool, model.pieces_ok, model.done, model.impossible
    )


def _logit(p: float) -> float:
    p = min(1 - _CLIP, max(_CLIP, p))
    return math.log(p / (1 - p))


def features(inputs: QuickInputs, rate: float = RATE) -> tuple[float, float, float, float]:
    """The logistic's inputs for an open ticket (see :data:`COEF`)."""
    pa = quick_probability(_scaled(inputs.ticket, rate))
    pb = quick_probability(_scaled(inputs.network, rate))
    net = inputs.network
    work = net.claims + sum(k for _, k in net.needs) / 2
    return (_logit(pa), _logit(pb), inputs.ticket.claims * (inputs.players - 1) / 4, work / max(1, net.turns))


def calibrated_probability(inputs: QuickInputs, coef: tuple[float, ...] = COEF, rate: float = RATE) -> float:
    """The closed form: 1 for a connected ticket, 0 for an impossible one,
    else a logistic of :func:`features` with the constants :data:`COEF`."""
    if inputs.status == "done":
        return 1.0
    if inputs.status == "impossible":
        return 0.0
    z = coef[0] + sum(c * x for c, x in zip(coef[1:], features(inputs, rate)))
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


def quick_inputs(view: PlayerView) -> list[tuple[Ticket, QuickInputs]]:
    """Each of the view's tickets with what the closed form reads (see the module doc)."""
    p = view.player
    turns = turns_left(view)
    pool = tuple(sorted(_pool(view).items()))
    plans = ticket_cards(view, p)
    n = view.num_players
    empty = QuickModel((), 0, turns, 0, pool)
    open_ = [t for t, plan in plans if plan is not None and not _short(view, plan) and plan.routes]
    network = empty
    if open_:
        owned, blocked = route_access(view, p)
        f = steiner_forest(board_graph(view.map), [t.cities for t in open_], owned=owned, blocked=blocked)
        if f is not None:
            trains, ships = _supply(view, p)
            net = plan_cards(view.edition, hand_of(view, p), f.new_routes, trains=trains, ships=ships)  # type: ignore[arg-type]
            network = _model(view, net, turns, pool)
    out = []
    for t, plan in plans:
        if plan is None or _short(view, plan):
            out.append((t, QuickInputs("impossible", QuickModel((), 0, turns, 0, pool, impossible=True), network, n)))
        elif not plan.routes:
            out.append((t, QuickInputs("done", QuickModel((), 0, turns, 0, pool, done=True), network, n)))
        else:
            out.append((t, QuickInputs("open", _model(view, plan, turns, pool), network, n)))
    return out


def _short(view: PlayerView, plan: Any) -> bool:
    """Too few pieces for the plan's routes.  In Rails & Sails this counts
    trains and ships apart, although they can be exchanged: the playout
    policy completes about 1% of such tickets (``benchmarks/bench_odds.py``)."""
    return bool(plan.pieces_short)


def _model(view: PlayerView, plan: Any, turns: int, pool: tuple[tuple[str, int], ...]) -> QuickModel:
    need: Counter[str] = Counter()
    for r in plan.routes:
        if r.missing:
            need[r.color if r.color is not None else "any"] += r.missing
    return QuickModel(
        tuple(sorted(need.items())),
        plan.claims,
        turns,
        2 * (turns - plan.claims),
        pool,
        pieces_ok=not _short(view, plan),
    )


def quick_odds(view: PlayerView, *, calibrated: bool = True) -> list[QuickOdds]:
    """Each of the view's tickets with its closed-form probability (see the
    module doc); ``calibrated=False``: the uncalibrated ticket-alone model."""
    check_instance(view, PlayerView, "view", "one seat's view (game.view(seat))")
    out = []
    for t, inp in quick_inputs(view):
        prob = calibrated_probability(inp) if calibrated else quick_probability(inp.ticket)
        out.append(QuickOdds(t, prob, inp.ticket))
    return out
