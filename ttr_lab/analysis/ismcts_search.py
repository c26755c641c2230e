"""Single-observer information-set MCTS (SO-ISMCTS) from one seat's fair view.

:func:`ismcts` answers the same question as
:func:`~ttr_lab.analysis.advisor.advise` ("how likely is each player to win,
and what should I do?") and returns the same :class:`~.advisor.values.Advice`, by a
tree search over what the viewing seat (the *observer*) knows, after Cowling,
Powley & Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG
4(2), 2012), algorithm SO-ISMCTS.

Each iteration
--------------
1. **Determinize**: one complete state consistent with the view, from the
   advisor's sampler (:func:`~ttr_lab.analysis.hidden.iter_states`,
   the other seats' tickets weighted by their claims); nothing hidden from
   the seat is read.
2. **Select** from the root down among the children *available* here (their
   move legal in this determinization) by UCB1 with availability counts (the
   ISMCTS fix: the exploration term counts the parent's visits in which the
   child was legal), maximising the mover's value (step 4):
   ``v/n + c*sqrt(ln(avail)/n)``.
3. **Expand** one new child where there is room -- the first candidate not
   yet in the tree, the candidates pruned as the advisor's
   (:func:`~.advisor.candidates.candidate_moves`, at most ``candidates``,
   the policy's move first; at the root the seat's own, below it those of
   the mover's view of the determinized state).  The root tries every
   candidate; below it *progressive widening* allows ``1 + isqrt(visits //
   2)`` children (one more when none is legal here), so at small budgets the
   other seats mostly play the policy's move.  Then **play out** to the end
   with the playout policy (:func:`~ttr_lab.bots.playout.play_out`).
4. **Back up** every seat's value along the path: its win share (ties
   split) plus ``margin`` (the advisor's :data:`~.advisor.values.MARGIN`) per point
   of lead over the best other seat; every node keeps every seat's totals,
   so each mover maximises its own.

Node keys: what the observer sees
---------------------------------
A node is the sequence of moves from the root *as the observer sees them*.
The observer's own moves are keyed by the move itself.  Another seat's move
is keyed by the move when its :meth:`~ttr_lab.engine.moves.Move.announce` (what the
table learns) says as much as its ``describe`` -- claims, face-up and blind
draws (a blind draw is the same move whatever card it brings) -- and by its
announcement otherwise: a ticket keep is "keep 2 tickets", whichever two, and
a Rails & Sails piece split is one secret choice.  So two determinizations
that deal an opponent different tickets share the node of its keep; in each,
the keep played is the policy's when it keeps that many, else the first
legal (or candidate) keep of that many.  Chance (the card a draw brings, a refill) is not in the key:
it comes from the determinization, as in SO-ISMCTS.

The answer
----------
``win_probabilities`` and ``expected_scores`` are the root's totals (every
iteration, so the mix of moves in proportion to their visits), the raw
playout shares (no calibration: the advisor's map was fitted on its own
estimator).  The moves are the root's visited children, ranked by visits
(then mean value, then the candidates' order; ``caution=True`` keeps the
policy's move first unless another is clearly better), each with its win
share, a 95% Wilson interval and the advisor's explanation.  ``playouts`` counts
iterations (one playout each).  For a seat that is not to move the tree
holds the other seats' moves, and there are no moves.  The answer is
deterministic for a seed when ``playouts`` is given; ``seconds`` is a
wall-clock budget.  (The function is ``ttr_lab.analysis.ismcts``; this
module is ``ttr_lab.analysis.ismcts_search``.)

**Strength: weaker than the advisor so far.**  Seat-swapped 2-player USA
games against :class:`~ttr_lab.analysis.AdvisorBot` at the same budget
(``benchmarks/bench_strength.py``): with ``caution=True`` at 100 playouts a
move, 7 of 20 won, 35.0% [18.1, 56.7] (95% Wilson), mean margin -15.8
points; plain at 48 playouts, 0 of 10 [0.00, 0.28] (in one game 47 of its
58 moves were not the policy's: at 48 playouts over 8 candidates the most
visited is mostly noise).  So :func:`~ttr_lab.analysis.advise` stays the
advisor's method.

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> while g.phase.name == "SETUP_TICKETS":
...     g.play(g.legal_moves[0])
>>> a = ismcts(g.view(0), playouts=24, seed=1)
>>> round(sum(a.win_probabilities), 6), a.moves[0].move in g.legal_moves
(1.0, True)
>>> sum(m.playouts for m in a.moves) == a.playouts == 24
True
>>> ismcts(g.view(1), playouts=4).moves    # seat 1 is not to move
()
>>> ISMCTSBot(2, playouts=8).choose(g.view(0)) in g.legal_moves
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING, Any

from ..bots.playout import PlayoutBot, play_out
from ..engine.checks import (
    MAX_BOT_SEED,
    MAX_CANDIDATES,
    MAX_SEED,
    check_budget,
    check_count,
    check_instance,
    check_number,
    check_seed,
)
from ..engine.moves import Move
from ..engine.view import PlayerView
from ..errors import TtrError
from .advisor.candidates import SearchBot, candidate_moves
from .advisor.explain import Explainer
from .advisor.values import DELTA_DEVIATE, MARGIN, Z_DEVIATE, Advice, MoveAdvice
from .hidden.determinize import iter_states
from .odds.tickets import wilson

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.state import GameState

__all__ = ["ISMCTSBot", "ismcts", "observed"]

#: the UCB1 exploration constant (win shares are in [0, 1])
C = 0.7
#: progressive widening below the root: a node may have ``1 + isqrt(visits // WIDEN)`` children
WIDEN = 2


def observed(move: Move, state: GameState, observer: int) -> Hashable:
    """The key of ``move`` (about to be played in ``state``) as seat
    ``observer`` sees it: the move itself for the observer's own moves and
    for public ones, else what the move announces (see the module doc).

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> keep = g.legal_moves[0]                      # seat 0 keeps tickets
    >>> observed(keep, g, 0) == keep, observed(keep, g, 1)
    (True, ('KeepTickets', 'keep 2 tickets'))
    """
    if state.current_player == observer:
        return move
    said = move.announce(state)
    return move if said == move.describe(state) else (type(move).__name__, said)


def _widen(visits: int) -> int:
    """How many children a node below the root may have after so many visits
    (progressive widening: 1 up to 1 visit, 2 up to 7, 3 up to 17, ...)."""
    return 1 + math.isqrt(visits // WIDEN)


class _Node:
    """One node: per-seat win and score totals, visits, availability, children by key."""

    __slots__ = ("children", "visits", "avail", "wins", "values", "squares", "scores", "order")

    def __init__(self, players: int, order: int = 0) -> None:
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.wins = [0.0] * players
        self.values = [0.0] * players  # win share plus margin per point of lead, per seat
        self.squares = [0.0] * players  # ... and its squares (for the caution rule)
        self.scores = [0.0] * players
        self.order = order  # the candidates' order at creation (ties in the ranking)

    def ucb(self, seat: int, c: float) -> float:
        return self.values[seat] / self.visits + c * math.sqrt(math.log(self.avail) / self.visits)


def _options(state: GameState, observer: int, limit: int) -> dict[Hashable, Move]:
    """The candidate moves of this determinization by observed key (the first
    move with a key stands for it)."""
    out: dict[Hashable, Move] = {}
    for m in candidate_moves(state.view(state.current_player), limit=limit):
        out.setdefault(observed(m, state, observer), m)
    return out


def _available(node: _Node, state: GameState, observer: int) -> dict[Hashable, Move]:
    """The node's children legal in this determinization, each with the move
    that stands for it here (for a secret key, the policy's move if it has
    that key, else the first legal move that has it)."""
    kids = node.children
    legal = state.legal_moves
    out: dict[Hashable, Move] = {}
    secret = {k[0] for k in kids if not isinstance(k, Move)}  # type: ignore[index]
    if secret:
        policy = PlayoutBot(0).choose(state.view(state.current_player))
        for m in (policy, *legal):
            if type(m).__name__ in secret:
                k = observed(m, state, observer)
                if k in kids:
                    out.setdefault(k, m)
    if len(out) < len(kids):
        for m in legal:
            if m in kids:
                out[m] = m
    return {k: out[k] for k in kids if k in out}


def _search(
    view: PlayerView, playouts: int | None, seconds: float, seed: int, limit: int, c: float, margin: float = 0.0
) -> tuple[_Node, dict[Hashable, Move], int]:
    """The tree, the root's candidates by key, and the iterations run."""
    me, n = view.player, view.num_players
    root = _Node(n)
    mine: dict[Hashable, Move] | None = {m: m for m in candidate_moves(view, limit=limit)} if view.is_my_turn else None
    first: dict[Hashable, Move] = {}
    source: Iterator[GameState] = iter_states(view, seed=seed, weighted=True)
    deadline = None if playouts is not None else time.perf_counter() + float(seconds)
    budget = playouts if playouts is not None else 10**9
    i = 0
    while i < budget and (i == 0 or deadline is None or time.perf_counter() < deadline):
        s = next(source)
        node, path = root, [root]
        while not s.is_over:
            kids = node.children
            here = _available(node, s, me) if mine is None or node is not root else {k: mine[k] for k in kids}
            for k in here:
                kids[k].avail += 1
            if node is root or not here or len(kids) < _widen(node.visits):  # room for a new child
                if node is root and mine is not None:
                    cands = mine
                elif not kids:  # the first child: the policy's move
                    m = PlayoutBot(0).choose(s.view(s.current_player))
                    cands = {observed(m, s, me): m}
                else:
                    cands = _options(s, me, limit)
                if node is root:
                    for k, m in cands.items():
                        first.setdefault(k, m)
                new = next((k for k in cands if k not in kids), None)
                if new is not None:  # expand one node, then play out
                    kids[new] = child = _Node(n, len(kids))
                    s.push(cands[new])
                    path.append(child)
                    break
            p = s.current_player
            k = max(here, key=lambda k: kids[k].ucb(p, c))
            s.push(here[k])
            node = kids[k]
            path.append(node)
        out = play_out(s, seed=seed * 1_000_003 + i)
        share = 1.0 / len(out.winners)
        sc = out.scores
        value = [
            (share if q in out.winners else 0.0) + margin * (sc[q] - max(x for r, x in enumerate(sc) if r != q))
            for q in range(n)
        ]
        for nd in path:
            nd.visits += 1
            for w in out.winners:
                nd.wins[w] += share
            for q, x in enumerate(value):
                nd.values[q] += x
                nd.squares[q] += x * x
            for q, x in enumerate(sc):
                nd.scores[q] += x
        i += 1
    return root, first, i


def _clearly_better(a: _Node, b: _Node, seat: int) -> bool:
    """Whether ``a``'s mean value for ``seat`` beats ``b``'s by Z_DEVIATE
    standard errors (unpaired) and by DELTA_DEVIATE."""
    stats = []
    for nd in (a, b):
        k = nd.visits
        if k < 2:
            return False
        mean = nd.values[seat] / k
        stats.append((mean, max(0.0, nd.squares[seat] / k - mean * mean) / (k - 1)))
    d = stats[0][0] - stats[1][0]
    return d > Z_DEVIATE * math.sqrt(stats[0][1] + stats[1][1]) and d > DELTA_DEVIATE


#: the largest exploration constant ``c`` and ``margin`` (both are at most a few units in practice)
MAX_C = 1000.0


def _check(view: Any, playouts: Any, seconds: Any, seed: Any, candidates: Any, c: Any, margin: Any) -> None:
    """The arguments of :func:`ismcts` and (``view`` None) :class:`ISMCTSBot`,
    each in its range, before any work."""
    if view is not None:
        check_instance(view, PlayerView, "view", "one seat's view (game.view(seat))")
    check_budget(seconds, playouts)
    check_seed(seed, high=MAX_SEED if view is not None else MAX_BOT_SEED)
    check_count(candidates, "candidates", high=MAX_CANDIDATES)
    check_number(c, "c", low=0, high=MAX_C)
    check_number(margin, "margin", low=0, high=MAX_C)


def ismcts(
    view: PlayerView,
    *,
    playouts: int | None = None,
    seconds: float = 2.0,
    seed: int = 0,
    candidates: int = 8,
    c: float = C,
    margin: float = MARGIN,
    caution: bool = False,
    explain: bool = True,
) -> Advice:
    """Win chances and moves ranked by SO-ISMCTS from ``view``'s seat (see the module doc).

    Parameters
    ----------
    view : PlayerView
        One seat's view; nothing else is read.
    playouts : int, optional
        A budget in iterations, one playout each (deterministic for a seed),
        1 to :data:`~ttr_lab.engine.checks.MAX_PLAYOUTS`.
    seconds : float
        Wall-clock budget (when ``playouts`` is None), above 0 and at most
        :data:`~ttr_lab.engine.checks.MAX_SECONDS` (a day).
    seed : int
        Same seed, same view and same ``playouts``: same answer (0 to ``2**128 - 1``).
    candidates : int
        At most so many candidate moves at every node (1 to
        :data:`~ttr_lab.engine.checks.MAX_CANDIDATES`).
    c : float
        The UCB1 exploration constant (0 to :data:`MAX_C`).
    margin : float
        What the search maximises: a seat's win share plus so much per point
        of its lead over the best other seat (the advisor's
        :data:`~.advisor.values.MARGIN`; 0 for win shares alone).  The reported
        chances are win shares either way.
    caution : bool
        Keep the playout policy's move on top unless the most visited one
        has a higher mean value by :data:`~.advisor.values.Z_DEVIATE` standard
        errors and by :data:`~.advisor.values.DELTA_DEVIATE` (the advisor's rule,
        here unpaired); off by default: the plain ISMCTS answer.
    explain : bool
        Write each move's explanation (the advisor's).

    Raises
    ------
    TtrError
        The game is over, or an argument is of the wrong type or out of its
        range (the error names it and the range); nothing is played then.
    """
    _check(view, playouts, seconds, seed, candidates, c, margin)
    if view.is_over:
        raise TtrError("the game is over: there is nothing left to advise")
    t0 = time.perf_counter()
    root, first, used = _search(view, playouts, seconds, seed, candidates, float(c), float(margin))
    me, k = view.player, max(1, root.visits)
    wins = tuple(w / k for w in root.wins)
    scores = tuple(s / k for s in root.scores)
    ranked: list[MoveAdvice] = []
    if view.is_my_turn:
        kids = sorted(
            root.children.items(), key=lambda kv: (-kv[1].visits, -kv[1].values[me] / kv[1].visits, kv[1].order)
        )
        if caution and kids[0][1].order != 0:
            pol = next(kv for kv in kids if kv[1].order == 0)  # the first candidate: the policy's move
            if not _clearly_better(kids[0][1], pol[1], me):
                kids.remove(pol)
                kids.insert(0, pol)
        explainer = Explainer(view) if explain else None
        for key, nd in kids:
            m, v = first[key], nd.visits
            ranked.append(
                MoveAdvice(
                    move=m,
                    win_probability=nd.wins[me] / v,
                    interval=wilson(nd.wins[me], v),  # type: ignore[arg-type]
                    expected_score=nd.scores[me] / v,
                    playouts=v,
                    explanation=explainer.explain(m) if explainer is not None else "",
                    win_probabilities=tuple(w / v for w in nd.wins),
                    expected_scores=tuple(s / v for s in nd.scores),
                )
            )
    return Advice(me, wins, scores, tuple(ranked), used, time.perf_counter() - t0)


class ISMCTSBot(SearchBot):
    """A player that plays :func:`ismcts`' top move (the most visited; with
    ``caution=True`` the policy's unless another is clearly better).

    ``playouts`` per move (deterministic), else ``seconds`` per move; a
    forced move (one candidate) is played without a search.

    >>> ISMCTSBot(3, playouts=48)
    ISMCTSBot(playouts=48)
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        *,
        playouts: int | None = None,
        seconds: float = 1.0,
        candidates: int = 8,
        c: float = C,
        margin: float = MARGIN,
        caution: bool = False,
    ) -> None:
        _check(None, playouts, seconds, seed, candidates, c, margin)
        super().__init__(seed, playouts, seconds, candidates)
        self.c, self.margin, self.caution = c, margin, caution

    def __repr__(self) -> str:
        budget = f"playouts={self.playouts}" if self.playouts is not None else f"seconds={self.seconds}"
        return f"ISMCTSBot({budget})"

    def search(self, view: PlayerView, seed: int) -> Advice:
        return ismcts(view, playouts=self.playouts, seconds=self.seconds, seed=seed, candidates=self.candidates,
                      c=self.c, margin=self.margin, caution=self.caution, explain=False)  # fmt: skip
