"""The card model of the closed-form ticket odds, which
:mod:`ttr_lab.analysis.odds` describes in full and calibrates:
:class:`QuickModel`, one ticket's cards still to draw against the cards
drawn in the turns left, and

1. the turns left (:func:`turns_left`): in the final round, the player's
   turns in it; before it, the rounds until the player nearest the end runs
   out of pieces at each player's rate so far (1.6 cars a turn before there
   is a history), plus the final round;
2. ``draws``, the cards drawn meanwhile: two a turn that is not a claim
   (scaled by :data:`~ttr_lab.analysis.odds.RATE` in the calibrated form);
3. the cards the player has not seen (:func:`_pool`), drawn as a uniform
   sample without replacement (a multivariate hypergeometric draw);
4. success when the wilds drawn cover the deficits of the needed colours:
   :func:`quick_probability` sums the hypergeometric outcomes exactly,
   :func:`simulate_quick_model` checks it by a Monte Carlo of the same
   assumptions.

>>> m = QuickModel(needs=(("red", 2),), claims=1, turns=3, draws=4, pool=(("red", 3), ("blue", 5), ("wild", 2)))
>>> round(quick_probability(m), 3)
0.738
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine.checks import MAX_PLAYOUTS, check_count, check_instance, check_seed

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.view import PlayerView

__all__ = ["QuickModel", "turns_left", "quick_probability", "simulate_quick_model", "unseen_cards"]


#: the most unseen cards a model's pool holds in :func:`simulate_quick_model`
#: (a game has at most a few hundred cards)
MAX_POOL = 10_000


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


def unseen_cards(view: PlayerView) -> Counter[str]:
    """Unseen cards by card name: the composition less the hand, the row,
    the discards, cards lying apart (a tunnel's reveal).

    >>> import ttr_lab
    >>> v = ttr_lab.new_game("usa", players=2, seed=1).view(0)
    >>> sum(unseen_cards(v).values())   # 110 cards less a hand of 4 and a row of 5
    101
    """
    ed = view.edition
    seen = Counter(view.hand)
    seen.update(c for c in view.row if c is not None)
    for k in range(len(ed.pile_names)):
        seen.update(view.discard_cards(k))
    seen.update(ed.cards_in_sight(view)[0])  # e.g. a tunnel's reveal
    out: Counter[str] = Counter()
    for pile in ed.deck_composition:
        for c, count in pile:
            name = ed.card_types[c].name
            out[name] += count - seen[name]
    return out


def _pool(view: PlayerView) -> Counter[str]:
    """Unseen cards by colour (``"wild"``), every pile pooled (see :func:`unseen_cards`)."""
    ed = view.edition
    out: Counter[str] = Counter()
    for name, k in unseen_cards(view).items():
        ct = ed.card_types[ed.card_index[name]]
        out["wild" if ct.wild else str(ct.color)] += k
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
                d2 = d + max(0, k - x)
                if d2 <= wild:  # more deficit than wilds: a failure whatever comes next
                    key = (t + x, d2)
                    nxt[key] = nxt.get(key, 0) + ways * math.comb(size, x)
        dp = nxt
    good = sum(ways * math.comb(wild, n - t) for (t, d), ways in dp.items() if d <= n - t <= wild)
    return good / math.comb(N, n) if N else float(not (colours or k_any))


def simulate_quick_model(model: QuickModel, samples: int = 20000, *, seed: int = 0) -> float:
    """The model's probability by Monte Carlo of its own assumptions (shuffle
    the unseen cards, draw ``draws``, check the deficits), for checking
    :func:`quick_probability`.

    ``samples`` is 1 to :data:`~ttr_lab.engine.checks.MAX_PLAYOUTS`, ``seed`` 0 to
    ``2**128 - 1``, and the pool holds at most :data:`MAX_POOL` cards.

    >>> m = QuickModel(needs=(("red", 2),), claims=1, turns=3, draws=4, pool=(("red", 3), ("blue", 5), ("wild", 2)))
    >>> abs(simulate_quick_model(m, 20000) - quick_probability(m)) < 0.01
    True
    """
    check_instance(model, QuickModel, "model", "a QuickModel")
    check_count(samples, "samples", high=MAX_PLAYOUTS)
    check_seed(seed)
    for colour, k in model.pool:
        check_count(k, f"the model's pool of {colour!r} cards", low=0, high=MAX_POOL)
    check_count(sum(k for _, k in model.pool), "the model's pool", low=0, high=MAX_POOL)
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
