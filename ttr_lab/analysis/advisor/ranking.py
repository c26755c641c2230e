"""The advisor: win chances and the best moves from one seat's fair view.

:func:`advise` answers "how likely is each player to win, and what should I
do here?" from a :class:`~ttr_lab.engine.view.PlayerView` alone (a seat of a game,
or a position built in the editor).

Method: determinized Monte Carlo
--------------------------------
1. **States.**  Complete game states consistent with the view are drawn by
   :func:`~ttr_lab.analysis.hidden.iter_states` (the other hands and
   tickets, the deck order), so nothing hidden from the seat is read; the
   other seats' tickets are weighted by how well they fit their claims.
2. **Candidates.**  The seat's legal moves, pruned: the playout policy's own
   choice, a claim of each route of the cheapest ticket network (the
   Steiner forest, :func:`~ttr_lab.analysis.network.next_claims`) and of
   the longest routes the hand pays for (each with its payment of fewest
   wilds), each face-up card (one per kind), a blind draw, new tickets,
   and the edition's own moves; every keep when choosing tickets.
3. **Playouts.**  Each candidate is played on the same determinized states
   with the same playout seeds (common random numbers), then every seat
   plays the playout policy (:mod:`ttr_lab.bots.playout`) to the end.  A win
   counts 1, shared between tied winners.
4. **Successive halving.**  The budget is split over rounds; after each
   round the better half of the candidates go on with more playouts (the
   policy's own move always goes on).  A playout's value for the seat is
   its win share plus :data:`~.values.MARGIN` per point of score margin, which tells
   moves apart far better than wins alone at small budgets.  Moves are
   ranked by the round they reached, then by mean value; each win chance
   has a 95% Wilson interval.
5. **Caution.**  The top move is the policy's own unless another is better
   by more than :data:`~.values.Z_DEVIATE` standard errors of the paired difference
   (the same states and seeds) and by :data:`~.values.DELTA_DEVIATE`: with few
   playouts the apparent best of ten noisy candidates is mostly luck, and a
   top move that changes with the budget is no advice.
6. **Calibration.**  The seat's win chances go through a logistic map fitted
   on bot games, of the raw share, the number of players and the pieces
   left (:func:`calibrate`; ``calibrated=False`` for the raw shares): the
   playouts of guessed states overrate the viewing seat.

``win_probabilities`` and ``expected_scores`` are those of the top move
(the seat plays the advice, everyone then plays the policy).  For a seat
that is not to move they are the position's, under the policy, and there
are no moves.

Budgets
-------
``seconds`` (the default, 2 s) asks for as many playouts as fit in that
time, at most ``max_playouts`` (:data:`~.values.MAX_TIMED_PLAYOUTS`,
20,000, unless told); each round of the halving gets an equal share of the
time.  The count then depends on the machine's speed and load, so the
answer says how many playouts it used (:attr:`Advice.playouts`, and each
move's :attr:`MoveAdvice.playouts`) and whether the clock stopped it
(:attr:`Advice.timed_out`).  ``playouts`` (a count) is deterministic: the
same view, seed and count give the same advice on any machine.  The two
paths play the same playouts in the same order, so a timed search that
reaches ``max_playouts`` before its deadline gives exactly the advice of
``playouts=max_playouts``.  With the compiled kernel
(:func:`~ttr_lab.analysis.kernel_info`) a second buys about 20x more
playouts than in Python (``benchmarks/README.md``).

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> while g.phase.name == "SETUP_TICKETS":
...     g.play(g.legal_moves[0])
>>> a = advise(g.view(0), playouts=24, seed=1)
>>> round(sum(a.win_probabilities), 6), a.moves[0].move in g.legal_moves
(1.0, True)
>>> advise(g.view(1), playouts=4).moves    # seat 1 is not to move
()
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ...bots.playout import play_out
from ...engine.checks import (
    MAX_BOT_SEED,
    MAX_CANDIDATES,
    MAX_PLAYOUTS,
    check_budget,
    check_count,
    check_instance,
    check_seed,
    take_at_most,
)
from ...engine.moves import Move
from ...engine.view import PlayerView
from ...errors import TtrError
from ..hidden.determinize import iter_states
from ..odds.tickets import wilson
from .calibration import _rescale, calibrate, pieces_left
from .candidates import SearchBot, _legal, candidate_moves
from .explain import Explainer
from .values import DELTA_DEVIATE, MAX_TIMED_PLAYOUTS, Z_DEVIATE, Advice, MoveAdvice, _progress, _Stats, paired

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState

__all__ = ["Advice", "MoveAdvice", "AdvisorBot", "advise", "calibrate", "candidate_moves", "evaluate_moves", "rank"]


# ------------------------------------------------------------------ the search
def evaluate_moves(
    view: PlayerView, moves: list[Move] | None, *, playouts: int | None = None, seconds: float = 2.0, seed: int = 0,
    halving: bool = True, protect: int | None = None, weighted: bool = True, progress: bool | None = False,
    keep: Iterable[int] = (), max_playouts: int = MAX_TIMED_PLAYOUTS,
) -> tuple[list[tuple[Move | None, _Stats, int]], int]:  # fmt: skip
    """Playouts of each move (None: the position as it is) on shared
    determinized states; returns ``[(move, stats, round reached)]`` and the
    playouts used.  ``halving=False`` gives every move the same share;
    ``protect`` is the index of a move halving never drops (it takes the
    last place kept); the moves of ``keep`` also go on to every round.
    ``playouts`` (a count) or ``seconds`` with at most ``max_playouts``.
    The arguments are checked as :func:`advise` checks them."""
    found = _search(view, moves, playouts=playouts, seconds=seconds, seed=seed, max_playouts=max_playouts, halving=halving,
                    protect=protect, weighted=weighted, progress=progress, keep=keep)  # fmt: skip
    return found[0], found[1]


def _search(
    view: PlayerView, moves: list[Move] | None, *, playouts: int | None, seconds: float, seed: int,
    halving: bool = True, protect: int | None = None, weighted: bool = True, progress: bool | None = False,
    keep: Iterable[int] = (), max_playouts: int = MAX_TIMED_PLAYOUTS,
) -> tuple[list[tuple[Move | None, _Stats, int]], int, bool]:  # fmt: skip
    """:func:`evaluate_moves`, and whether the clock stopped it."""
    check_instance(view, PlayerView, "view", "one seat's view (game.view(seat))")
    check_budget(seconds, playouts)
    check_count(max_playouts, "max_playouts", high=MAX_PLAYOUTS)
    check_seed(seed)
    n = view.num_players
    me = view.player
    cands: list[Move | None] = list(moves) if moves else [None]
    stats = [_Stats(n, me) for _ in cands]
    reached = [0] * len(cands)
    states: list[GameState] = []
    source: Iterator[GameState] = iter_states(view, seed=seed, weighted=weighted)
    start = time.perf_counter()
    deadline = None if playouts is not None else start + float(seconds)
    rounds = max(1, math.ceil(math.log2(len(cands)))) if halving else 1
    budget = playouts if playouts is not None else max_playouts
    used = 0
    timed_out = False
    kept_too = sorted(set(keep))
    alive = list(range(len(cands)))
    bar = _progress(progress, budget)

    def one(i: int, j: int) -> None:
        nonlocal used
        while len(states) <= j:
            states.append(next(source))
        s = states[j].copy()
        m = cands[i]
        if m is not None:
            s.push(m)
        stats[i].add(play_out(s, seed=seed * 1_000_003 + j), j)
        used += 1
        if bar is not None:
            bar.update(1)

    done = 0  # states every alive candidate has seen
    for r in range(rounds):
        left = budget - used
        if r and left <= 0:
            break
        per = max(1, left // (len(alive) * (rounds - r)))
        # with a time budget, each round of the halving gets an equal share of it
        stop = None if deadline is None else start + float(seconds) * (r + 1) / rounds
        for j in range(done, done + per):
            for i in alive:
                one(i, j)
            if stop is not None and time.perf_counter() > stop and j > done:
                timed_out = timed_out or j + 1 < done + per
                per = j + 1 - done
                break
        done += per
        for i in alive:
            reached[i] = r
        if deadline is not None and time.perf_counter() > deadline:
            timed_out = timed_out or (r < rounds - 1 and used < budget)
            break
        if r < rounds - 1 and len(alive) > 1:
            alive.sort(key=lambda i: (stats[i].key(), -i), reverse=True)
            kept = alive[: math.ceil(len(alive) / 2)]
            if protect is not None and protect in alive and protect not in kept:
                kept[-1] = protect
            kept += [i for i in kept_too if i in alive and i not in kept]
            alive = sorted(kept)
    if bar is not None:
        bar.close()
    return [(cands[i], stats[i], reached[i]) for i in range(len(cands))], used, timed_out


def rank(
    results: list[tuple[Move | None, _Stats, int]], *, z: float | None = None, delta: float | None = None
) -> list[tuple[Move | None, _Stats, int]]:
    """:func:`evaluate_moves`' results (the policy's move first) ranked as
    :func:`advise` does: by the round reached, then by mean value (ties in
    the candidates' order); the policy's move stays on top unless the best
    other is better by ``z`` (:data:`Z_DEVIATE`) paired standard errors and
    by ``delta`` (:data:`DELTA_DEVIATE`)."""
    z = Z_DEVIATE if z is None else z
    delta = DELTA_DEVIATE if delta is None else delta
    policy = results[0]
    out = sorted(results, key=lambda t: (t[2], t[1].key()), reverse=True)
    if out[0] is not policy:  # leave the policy's move only for a clearly better one
        d, se, _ = paired(out[0][1], policy[1])
        if not (d > z * se and d > delta):
            out.remove(policy)
            out.insert(0, policy)
    return out


def advise(
    view: PlayerView,
    *,
    seconds: float = 2.0,
    seed: int = 0,
    playouts: int | None = None,
    candidates: int = 10,
    weighted: bool = True,
    explain: bool = True,
    progress: bool | None = None,
    include: Iterable[Move] = (),
    calibrated: bool = True,
    max_playouts: int = MAX_TIMED_PLAYOUTS,
) -> Advice:
    """Win chances and ranked moves from ``view``'s seat (see the module doc).

    Parameters
    ----------
    view : PlayerView
        One seat's view; nothing else is read.
    seconds : float
        Wall-clock budget (when ``playouts`` is None): as many playouts as
        fit in it, up to ``max_playouts``; above 0 and at most
        :data:`~ttr_lab.engine.checks.MAX_SECONDS` (a day).  The count used is
        :attr:`Advice.playouts`; :attr:`Advice.timed_out` says whether the
        clock stopped the search before ``max_playouts``.
    seed : int
        Same seed, same view and same ``playouts``: same advice (0 to
        ``2**128 - 1``, as a game's seed).
    playouts : int, optional
        A budget in playouts (deterministic), 1 to
        :data:`~ttr_lab.engine.checks.MAX_PLAYOUTS` (10,000,000).
    candidates : int
        At most so many candidate moves (1 to :data:`~ttr_lab.engine.checks.MAX_CANDIDATES`).
    weighted : bool
        Weight the other seats' tickets by their claims (see
        :func:`~ttr_lab.analysis.hidden.sample_states`); on by default:
        uniform guesses give the opponents tickets that rarely fit their
        routes, and the viewing seat's win chance comes out far too high
        (``benchmarks/bench_calibration.py bias``).
    explain : bool
        Write each move's explanation.
    progress : bool, optional
        A tqdm progress bar (default: in a Jupyter kernel).
    include : moves
        Legal moves to evaluate besides the candidates (e.g. the move a
        player made, to see how it compares), each kept to the last round of
        the halving so its chance rests on as many playouts as the best
        moves'; a move that is not legal raises TtrError, and so do more
        than :data:`~ttr_lab.engine.checks.MAX_CANDIDATES` of them.
    calibrated : bool
        Recalibrate the seat's win chances (:func:`calibrate`; the others
        scaled to sum to 1); False gives the playouts' raw shares.
    max_playouts : int
        The most playouts a time budget may use (1 to
        :data:`~ttr_lab.engine.checks.MAX_PLAYOUTS`; default
        :data:`~.values.MAX_TIMED_PLAYOUTS`, 20,000, which also bounds
        the guessed states kept in memory); ignored when ``playouts`` is given.

    Raises
    ------
    TtrError
        The game is over, or an argument is of the wrong type or out of its
        range (the error names it and the range); nothing is played then.
    """
    check_instance(view, PlayerView, "view", "one seat's view (game.view(seat))")
    check_budget(seconds, playouts)
    check_count(max_playouts, "max_playouts", high=MAX_PLAYOUTS)
    check_seed(seed)
    check_count(candidates, "candidates", high=MAX_CANDIDATES)
    extra = take_at_most(include, MAX_CANDIDATES, "include")
    if view.is_over:
        raise TtrError("the game is over: there is nothing left to advise")
    t0 = time.perf_counter()
    moves = candidate_moves(view, limit=candidates) if view.is_my_turn else []
    if extra:
        legal = _legal(view)
        for x in extra:
            if x not in legal:
                raise TtrError(f"include: {x} is not a legal move for seat {view.player} here")
            if x not in moves:
                moves.append(x)
    results, used, timed_out = _search(
        view,
        moves,
        playouts=playouts,
        seconds=seconds,
        seed=seed,
        weighted=weighted,
        progress=progress,
        protect=0,
        keep=[moves.index(x) for x in extra],  # a move asked about is played out to the end, not dropped
        max_playouts=max_playouts,
    )
    me = view.player
    results = rank(results) if moves else results
    top = results[0][1]
    n = max(1, top.n)
    wins = tuple(w / n for w in top.wins)
    scores = tuple(s / n for s in top.scores)
    players = view.num_players
    left = pieces_left(view)

    def cal(x: float, k: int) -> float:
        return calibrate(x, k, players, left) if calibrated else x

    if calibrated:
        wins = _rescale(wins, me, cal(wins[me], top.n))
    ranked = []
    explainer = Explainer(view) if explain and moves else None
    for m, st, _ in results:
        if m is None:
            continue
        k = max(1, st.n)
        lo, hi = wilson(st.wins[me], st.n) if st.n else (0.0, 1.0)  # type: ignore[arg-type]
        mine = cal(st.wins[me] / k, st.n)
        ranked.append(
            MoveAdvice(
                move=m,
                win_probability=mine,
                interval=(min(mine, cal(lo, st.n)), max(mine, cal(hi, st.n))),
                expected_score=st.scores[me] / k,
                playouts=st.n,
                explanation=explainer.explain(m) if explainer is not None else "",
                win_probabilities=_rescale(tuple(w / k for w in st.wins), me, mine),
                expected_scores=tuple(s / k for s in st.scores),
                policy=m == moves[0],
            )
        )
    return Advice(me, wins, scores, tuple(ranked), used, time.perf_counter() - t0, timed_out=timed_out)


class AdvisorBot(SearchBot):
    """A player that plays the advisor's top move (``make_bot("advisor")``).

    ``playouts`` per move (deterministic), else ``seconds`` per move with at
    most ``max_playouts`` (as :func:`advise`: where the compiled kernel plays
    the edition the cap is usually reached first, and the bot replays the
    same moves; elsewhere the clock keeps its turns short).

    >>> import ttr_lab
    >>> from ttr_lab.bots import make_bot
    >>> make_bot("advisor", 3)
    AdvisorBot(seconds=1.0)
    >>> AdvisorBot(seconds=2.0, max_playouts=800)
    AdvisorBot(seconds=2.0, max_playouts=800)
    """

    name = "advisor"

    def __init__(
        self,
        seed: int = 0,
        *,
        playouts: int | None = None,
        seconds: float = 1.0,
        candidates: int = 8,
        max_playouts: int = MAX_TIMED_PLAYOUTS,
    ) -> None:
        check_seed(seed, high=MAX_BOT_SEED)
        check_budget(seconds, playouts)
        check_count(max_playouts, "max_playouts", high=MAX_PLAYOUTS)
        check_count(candidates, "candidates", high=MAX_CANDIDATES)
        super().__init__(seed, playouts, seconds, candidates)
        self.max_playouts = max_playouts

    def __repr__(self) -> str:
        if self.playouts is not None:
            return f"AdvisorBot(playouts={self.playouts})"
        cap = f", max_playouts={self.max_playouts}" if self.max_playouts != MAX_TIMED_PLAYOUTS else ""
        return f"AdvisorBot(seconds={self.seconds}{cap})"

    def search(self, view: PlayerView, seed: int) -> Advice:
        return advise(view, seconds=self.seconds, playouts=self.playouts, max_playouts=self.max_playouts, seed=seed,
                      candidates=self.candidates, explain=False, progress=False)  # fmt: skip
