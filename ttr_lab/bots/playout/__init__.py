"""A fast policy for Monte Carlo playouts: :class:`PlayoutBot` (``make_bot("playout")``).

It sees only its :class:`~ttr_lab.engine.view.PlayerView`, like the other bots, and
plays every edition:

* **a plan**: the routes of a network joining each of its tickets (each
  ticket's cheapest path with the routes already planned or owned free,
  the most valuable tickets first), kept across plies: it is checked only
  when a claim changed the scores and replanned only when a planned route
  was taken or closed, or the tickets changed;
* **claims**: a planned route as soon as the hand pays for it (the longest
  first, the payment with the fewest wilds); other routes for their points
  with cards and pieces the plan does not need (no hoarding), and with
  everything once the plan is done or can no longer be finished in time;
* **draws**: the face-up card of the colour the plan lacks most, a face-up
  wild when the plan lacks three colours or fewer (one wild then beats two
  blind cards), else blind (from the pile the plan needs more); in Rails &
  Sails anchor cards for a harbor once the plan's cards are in hand;
* **tickets**: the cheapest sufficient set (each offered ticket's path,
  shared routes counted once), an extra ticket only when it costs few cars
  more; new tickets when its own are done and pieces remain;
* **the edition's own decisions**: a tunnel by the edition's
  :meth:`~ttr_lab.engine.rules.Edition.default_choice`, the Rails & Sails split by
  the plan's trains and ships, a harbor in a ticket city when it can pay.

The plan is :mod:`ttr_lab.bots.playout.plan`'s (the mixin
:class:`~ttr_lab.bots.playout.plan.PlayoutPlan`), the tables and the hand
accounting :mod:`ttr_lab.bots.playout.tables`', the ticket choice and the split
:mod:`ttr_lab.bots.playout.tickets`'.  :func:`run_playout` plays a game to the end
with such bots through :meth:`~ttr_lab.engine.state.GameState.push` (no validation).

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.bots import make_bot, play_game
>>> g = play_game("europe", [make_bot("playout", 1), make_bot("greedy", 2)], seed=3)
>>> g.is_over
True
>>> fast = run_playout(ttr_lab.new_game("rails_and_sails", players=3, seed=4), seed=5)
>>> fast.is_over, fast.ply > 50
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine.moves import ClaimRoute, DrawFaceUp, DrawTickets, Move, StopDrawing
from ...engine.phases import Phase
from ...errors import TtrError
from ..kernel import Finish, finish_of, kernel_playout
from ..kernel.rng import SplitMix64
from .plan import PlayoutPlan
from .tables import _INF, Key, _Tables, _tables, affordable, cheapest_payment, hand_spaces
from .tickets import keep_choice, split_choice

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.state import GameState
    from ...engine.view import PlayerView

__all__ = ["PlayoutBot", "run_playout", "play_out"]

_TURN, _SECOND, _SETUP, _KEEP = Phase.TURN, Phase.SECOND_CARD, Phase.SETUP_TICKETS, Phase.KEEP_TICKETS


class PlayoutBot(PlayoutPlan):
    """The playout policy (see the module doc); deterministic for a seed and a position
    (its generator is :class:`~ttr_lab.bots.kernel.rng.SplitMix64`, the compiled kernel's too)."""

    name = "playout"
    #: tuning: a face-up wild when the plan lacks at most so many colours;
    #: new tickets with at least so many pieces; spend spare cards from so
    #: many in hand; the cost of a car when choosing tickets
    wild_colours = 3
    ticket_pieces = 18
    spend_hand = 24
    car_cost = 0.6

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)
        self._sig: Any = None
        self._ed: Any = None
        self._T: Any = None
        self.plan: list[int] = []  # route indices still to claim, longest first
        self.alt: dict[int, int] = {}  # planned route -> the other side of its double, when open too
        self.goal: list[int] = []  # with the tickets done: long routes to collect cards for
        self.paths: dict[int, list[int]] = {}  # ticket id -> the routes of its path
        self.trains = self.ships = 0  # pieces in supply (trains: every piece where there are no ships)
        self.lowest = 0  # the fewest pieces another seat has
        self.pieces_of: list[int] = []  # every seat's pieces
        self._stale = True  # the tickets changed: plan again
        self._touch: set[str] | None = None
        self._goal_sig: Any = None
        self.done = False  # every kept ticket is connected (or given up)

    def __repr__(self) -> str:
        return "PlayoutBot()"

    # ------------------------------------------------------------------ cards
    _have = staticmethod(hand_spaces)
    _affordable = staticmethod(affordable)
    _payment = staticmethod(cheapest_payment)

    # ------------------------------------------------------------------ decisions
    def choose(self, view: PlayerView) -> Move:
        phase = view.phase
        if phase is _TURN or phase is _SECOND:
            ed = view.edition
            if ed is not self._ed:
                self._ed, self._T = ed, _tables(ed)
            T = self._T
            self._check(view, T)
            if phase == _SECOND:
                return self._draw(view, T, self._have(T, view.hand_counts), second=True)
            return self._turn(view, T)
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves[0]
        if phase in (_SETUP, _KEEP):
            return self._keep(view, moves)
        return self._split(view, moves)  # the edition's own decision: a setup split, a tunnel...

    def _turn(self, view: PlayerView, T: _Tables) -> Move:
        h = view.hand_counts
        W = h[T.wild]
        have = self._have(T, h)
        trains, ships = self.trains, self.ships
        for ri in self.plan:  # the longest planned route the hand pays for (either side of a double)
            if (ships if T.rship[ri] else trains) < T.rlen[ri]:
                continue
            for side in (ri, self.alt.get(ri, -1)):
                if side >= 0 and self._affordable(T, have, W, side):
                    move = self._payment(view, T, side)
                    if move is not None:
                        return move
        left = view.final_turns_left
        lowest = self.lowest
        ending = left is not None or lowest <= T.end + 2
        hopeless = False
        if ending and self.plan:  # can the plan still be finished?
            need = self._needs(T, have, self.plan)
            lack = sum(max(0, n - have.get(k, 0)) for k, n in need.items())
            turns = len(self.plan) + (lack + 1) // 2
            mine_left = _INF if left is None else -(-left // view.num_players)
            hopeless = turns > mine_left or (lowest <= T.end + 2 and turns > 3)
        if hopeless or (self.done and ending):  # points for what is left, any length
            move = self._points(view, T, have, W, trains, ships, need={}, wilds=True, shortest=1)
            if move is not None:
                return move
        elif self.done:  # more tickets while pieces remain, else long routes for their points
            build = self._build(view, T) if T.builds else None
            if build is not None:
                return build
            if lowest > T.end + 13 and trains + ships >= self.ticket_pieces and view.ticket_deck_size:
                return DrawTickets()
            move = self._points(view, T, have, W, trains, ships, need={}, wilds=True, shortest=min(4, trains + ships))
            if move is not None:
                return move
            return self._draw(view, T, have, second=False)
        elif sum(h) >= self.spend_hand:  # spend cards the plan does not need, with pieces it does not need
            need = self._needs(T, have, self.plan)
            spare_t = trains - sum(T.rlen[ri] for ri in self.plan if not T.rship[ri])
            spare_s = ships - sum(T.rlen[ri] for ri in self.plan if T.rship[ri])
            move = self._points(view, T, have, W, spare_t, spare_s, need=need, wilds=False, shortest=3)
            if move is not None:
                return move
        build = self._build(view, T) if T.builds else None
        if build is not None:
            return build
        return self._draw(view, T, have, second=False)

    def _goal(self, view: PlayerView, T: _Tables, have: dict[Key, int]) -> list[int]:
        """With the tickets done: two long open routes to collect cards for
        (the best covered by the hand, of different colours)."""
        me = view.player
        trains, ships = self.trains, self.ships
        W = view.hand_counts[T.wild]
        scored = []
        for ri in T.by_length[:60]:
            r = T.routes[ri]
            L = r.length
            if (ships if r.is_ship else trains) < L or L < 3 or r.paired:
                continue
            if view.route_owner(r.id) is not None or not view.route_open_to(r.id, me):
                continue
            if r.color == "gray":
                held = max((v for k, v in have.items() if k[0] == r.is_ship), default=0)
            else:
                held = have.get((r.is_ship, r.color), 0)
            scored.append((-(min(L, held + W) / L) - L / 10, ri, r.color))
        scored.sort()
        out: list[int] = []
        for _, ri, colour in scored:
            if not out or colour != T.routes[out[0]].color:
                out.append(ri)
            if len(out) == 2:
                break
        return out

    def _points(
        self,
        view: PlayerView,
        T: _Tables,
        have: dict[Key, int],
        W: int,
        trains: int,
        ships: int,
        *,
        need: dict[Key, int],
        wilds: bool,
        shortest: int,
    ) -> ClaimRoute | None:
        """The longest open route the hand pays for within the pieces given,
        using (unless ``wilds``) no wild and no card ``need`` asks for."""
        me = view.player
        surplus = None
        if not wilds:
            surplus = have = {k: v - need.get(k, 0) for k, v in have.items() if v > need.get(k, 0)}
            W = 0
        planned = set(self.plan)
        for ri in T.by_length:
            L = T.rlen[ri]
            if (ships if T.rship[ri] else trains) < L or ri in planned or not self._affordable(T, have, W, ri):
                continue
            if shortest > L:
                return None
            if view.route_owner(T.rid[ri]) is not None or not view.route_open_to(T.rid[ri], me):
                continue
            move = self._payment(view, T, ri, surplus)
            if move is not None:
                return move
        return None

    def _build(self, view: PlayerView, T: _Tables) -> Move | None:
        """A piece that scores with its tickets (a Rails & Sails harbor) in a
        city of its tickets at the end of its routes, paid with the fewest
        wilds (the edition's :meth:`~ttr_lab.engine.rules.hooks.EditionHooks.ticket_build`)."""
        ed = view.edition
        h = view.hand_counts
        if not ed.can_build(h):
            return None
        if self._touch is None:  # the cities it can build in (refreshed after claims)
            self._touch = ed.ticket_sites(view)
        for city in sorted(self._touch):
            move = ed.ticket_build(h, city)
            if move is not None:
                self._touch = None
                if view.why_illegal(move) is None:  # another seat may have built there meanwhile
                    return move
        return None

    def _draw(self, view: PlayerView, T: _Tables, have: dict[Key, int], *, second: bool) -> Move:
        if self.done:
            if self._goal_sig != self._sig:
                self._goal_sig, self.goal = self._sig, self._goal(view, T, have)
            need = self._needs(T, have, self.goal)
        else:
            need = self._needs(T, have, self.plan)
        lack = {k: n - have.get(k, 0) for k, n in need.items() if n > have.get(k, 0)}
        anchors = T.builds and not lack and view.edition.builds_left(view) > 0
        best, wild_slot, face, any_key = None, None, T.face, T.any_key
        for slot, name in enumerate(view.row, 1):
            if name is None:
                continue
            key, anchor = face[name]
            if key is None:
                wild_slot = wild_slot or slot
                continue
            want = lack.get(key, 0) or (1 if lack.get(any_key[key[0]]) else 0) or (1 if anchors and anchor else 0)
            if want and (best is None or want > best[0]):
                best = (want, slot)
        ship_need = train_need = 0
        for k, n in lack.items():
            if k[0]:
                ship_need += n
            else:
                train_need += n
        refill = None
        if len(T.piles) > 1:
            refill = T.piles[1] if ship_need > train_need else T.piles[0]
        if best is not None:
            return T.faceup[(best[1], refill)]
        if not second and wild_slot is not None and 0 < len(lack) <= self.wild_colours and sum(lack.values()) >= 2:
            return T.faceup[(wild_slot, refill)]
        decks, discards = view.deck_sizes, view.discard_sizes
        piles = [q for q in range(len(T.piles)) if decks[q] or discards[q]]
        if piles:
            q = piles[0]
            if len(piles) > 1:
                q = 1 if ship_need > train_need or (ship_need == train_need and self.rng.random() < 0.5) else 0
            return T.blind[q]
        moves = list(view.legal_moves)
        faceups = [m for m in moves if isinstance(m, DrawFaceUp)]
        if faceups:
            return faceups[0]
        if second and StopDrawing() in moves:
            return StopDrawing()
        return moves[0]

    # ------------------------------------------------------------------ tickets and the split
    def _keep(self, view: PlayerView, moves: list[Move]) -> Move:
        return keep_choice(self, view, moves)

    def _split(self, view: PlayerView, moves: list[Move]) -> Move:
        """The edition's own decision (a setup split, a tunnel): its split or its default choice."""
        return split_choice(view, moves)


def run_playout(
    state: GameState, bots: Sequence[Any] | None = None, *, seed: int = 0, max_plies: int = 20000
) -> GameState:
    """Play ``state`` to the end (in place) with ``bots`` (default: a
    :class:`PlayoutBot` per seat, seeded from ``seed``), pushing moves
    without validation; returns the state."""
    n = state.num_players
    if bots is None:
        bots = [PlayoutBot(seed * 7919 + p) for p in range(n)]
    views = [state.view(p) for p in range(n)]
    push = state.push
    for _ in range(max_plies):
        if state.is_over:
            return state
        p = state.current_player
        push(bots[p].choose(views[p]))
    raise TtrError(f"playout did not end within {max_plies} plies")


def play_out(state: GameState, *, seed: int = 0, max_plies: int = 20000) -> Finish:
    """Play ``state`` to the end with a :class:`PlayoutBot` per seat (as
    :func:`run_playout` seeds them) and score it: the compiled kernel where
    it plays the edition (:func:`~ttr_lab.bots.kernel.kernel_info`), else
    :func:`run_playout` itself, with the same result either way.  The state
    is consumed (the Python path plays it in place): pass a copy you can spare.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=3)
    >>> end = play_out(g.copy(), seed=1)
    >>> end.same_game(play_out(g.copy(), seed=1)), len(end.scores)
    (True, 2)
    """
    n = state.num_players
    got = kernel_playout(state, tuple(seed * 7919 + p for p in range(n)), max_plies=max_plies)
    if got is not None:
        return got[0]
    start = state.ply
    end = run_playout(state, seed=seed, max_plies=max_plies)
    return finish_of(end, end.ply - start)
