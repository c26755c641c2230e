"""Bots to play against.  A bot sees only a :class:`~ttr_lab.engine.view.PlayerView`.

* :class:`RandomBot` picks uniformly among the legal moves;
* :class:`GreedyBot` keeps cheap tickets, follows the shortest available
  path for each unfinished ticket, claims long routes when it has nothing
  better to do, and draws tickets once its own are done.

Both are deterministic for a given seed and position.

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.bots import play_game, make_bot
>>> g = play_game("usa", [make_bot("greedy", seed=1), make_bot("random", seed=2)], seed=5)
>>> g.is_over
True
"""

from __future__ import annotations

import inspect
import random
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

import networkx as nx

from ..engine.checks import MAX_BOT_SEED, check_count, check_seed
from ..engine.move_cards import show_value
from ..engine.moves import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Move
from ..engine.phases import Phase
from ..engine.state import GameState, new_game
from ..errors import TtrError
from ..io.numerals import read_number
from ..io.registries import Registry
from .drawing import Needs, hand_spaces, needed_draw

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.view import PlayerView
    from ..maps.loading import Ticket


__all__ = ["Bot", "BotFactory", "RandomBot", "GreedyBot", "make_bot", "parse_bot_spec", "BOTS", "play_game"]


class Bot(Protocol):
    """Anything with ``choose(view) -> Move``."""

    def choose(self, view: PlayerView) -> Move: ...


def choose_by_phase(
    view: PlayerView,
    keep: Callable[[PlayerView, list[Move]], Move],
    targets: Callable[[PlayerView], list[int]],
    turn: Callable[[PlayerView, list[Move], list[int]], Move],
    second_draw: Callable[[PlayerView, list[Move], list[int]], Move],
) -> Move:
    """The decision skeleton the route-following bots share: the only legal
    move if there is one; ``keep`` when tickets are chosen; the edition's
    default for a decision of its own; otherwise the wanted routes
    (``targets``) and then ``second_draw`` for the second card of a draw or
    ``turn`` at the start of a turn."""
    moves = list(view.legal_moves)
    if len(moves) == 1:
        return moves[0]
    phase = view.phase
    if phase in (Phase.SETUP_TICKETS, Phase.KEEP_TICKETS):
        return keep(view, moves)
    if phase not in (Phase.TURN, Phase.SECOND_CARD):  # a decision of the edition's own
        return view.edition.default_choice(view, moves) or moves[0]
    wanted = targets(view)
    if phase == Phase.SECOND_CARD:
        return second_draw(view, moves, wanted)
    return turn(view, moves, wanted)


class RandomBot:
    """Uniformly random among the legal moves."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves
        return moves[self.rng.randrange(len(moves))]

    def __repr__(self) -> str:
        return "RandomBot()"


class GreedyBot:
    """Pursues its tickets along shortest available paths (see module doc)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return "GreedyBot()"

    # ---- planning on the board as this player sees it
    def _graph(self, view: PlayerView) -> nx.Graph:
        """Cities joined by the cheapest route this player could still use
        (own routes cost 0; the edition's rules say which are open: ``route_open_to``)."""
        me = view.player
        owners = view.route_owners()
        m = view.map
        closed = view.edition.closed_routes(view, owners)
        G = nx.Graph()
        for r in m.routes:
            o = owners.get(r.id)
            if o == me:
                w = 0
            elif o is not None or r.id in closed:
                continue
            else:
                w = r.length
            old = G.get_edge_data(r.a, r.b)
            if old is None or w < old["weight"]:
                G.add_edge(r.a, r.b, weight=w, route=r.id)
        return G

    def _ticket_cost(self, G: nx.Graph, ticket: Ticket) -> tuple[float, list[int]]:
        try:
            cities = nx.dijkstra_path(G, ticket.a, ticket.b, weight="weight")
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return float("inf"), []
        routes = [G.edges[u, v]["route"] for u, v in zip(cities, cities[1:])]
        cost = sum(G.edges[u, v]["weight"] for u, v in zip(cities, cities[1:]))
        return cost, routes

    def _targets(self, view: PlayerView) -> list[int]:
        """Routes still to claim on the shortest paths of unfinished tickets."""
        G = self._graph(view)
        owners = view.route_owners()
        want: list[int] = []
        for t in sorted(view.tickets, key=lambda t: -t.points):
            cost, routes = self._ticket_cost(G, t)
            if cost == 0 or cost == float("inf") or cost > view.pieces[view.player]:
                continue
            want.extend(r for r in routes if owners.get(r) is None and r not in want)
        return want

    def choose(self, view: PlayerView) -> Move:
        return choose_by_phase(view, self._keep, self._targets, self._turn, self._second_draw)

    def _second_draw(self, view: PlayerView, moves: list[Move], targets: list[int]) -> Move:
        return self._draw(view, moves, targets, second=True)

    def _keep(self, view: PlayerView, moves: list[Move]) -> Move:
        G = self._graph(view)
        pieces = view.pieces[view.player]
        scored = []
        for t in view.pending_tickets:
            cost, _ = self._ticket_cost(G, t)
            scored.append((cost / max(t.points, 1), cost, t.id))
        scored.sort()
        need = min(len(m.tickets) for m in moves if isinstance(m, KeepTickets))
        keep = [tid for _, _, tid in scored[:need]]
        budget = pieces - sum(c for _, c, _ in scored[:need] if c != float("inf"))
        for ratio, cost, tid in scored[need:]:
            if cost <= min(6, budget) and ratio <= 1.5:
                keep.append(tid)
                budget -= cost
        choice = KeepTickets(tuple(keep))
        return choice if choice in moves else moves[0]

    def _turn(self, view: PlayerView, moves: list[Move], targets: list[int]) -> Move:
        claims = [m for m in moves if isinstance(m, ClaimRoute)]
        m = view.map
        final = view.final_turns_left is not None
        if claims:
            wanted = [c for c in claims if c.route in targets]
            pool = wanted or (claims if final or not targets else [])
            if not pool and not targets:
                pool = [c for c in claims if m.route(c.route).length >= 4]
            if pool:
                # longest route first, then the payment using fewest wilds
                return max(pool, key=lambda c: (m.route(c.route).length, -self._wilds(view, c), -c.route))
        build = view.edition.suggested_action(view, moves)  # e.g. a harbor in a ticket city
        if build is not None:
            return build
        if not targets and not final and view.pieces[view.player] > 12:
            draw = DrawTickets()
            if draw in moves:
                return draw
        return self._draw(view, moves, targets, second=False)

    def _wilds(self, view: PlayerView, claim: ClaimRoute) -> int:
        return view.edition.wilds_in(claim.cards)

    def _draw(self, view: PlayerView, moves: list[Move], targets: list[int], *, second: bool) -> Move:
        m = view.map
        # spaces still to pay per (ship route?, colour); cards cover 1 space, double ships 2
        colors: Needs = {}
        for rid in targets:
            r = m.route(rid)
            if r.color != "gray":
                key: tuple[bool, str | None] = (r.is_ship, r.color)
                colors[key] = colors.get(key, 0) + r.length
        chosen = needed_draw(view, moves, colors, hand_spaces(view))
        if chosen is not None:
            return chosen
        blind = [mv for mv in moves if isinstance(mv, DrawBlind)]
        if blind:
            return blind[self.rng.randrange(len(blind))]
        draws = [mv for mv in moves if isinstance(mv, DrawFaceUp)]
        if draws:
            return draws[self.rng.randrange(len(draws))]
        return moves[self.rng.randrange(len(moves))]


#: the most plies :func:`play_game` lets a game run
MAX_PLIES = 1_000_000

#: what makes a bot: called with a seed and the options of a bot spec (:func:`parse_bot_spec`)
BotFactory = Callable[..., Bot]
#: the entry-point group an installed package declares its bots in
ENTRY_POINT_GROUP = "ttr_lab.bots"


def _bot_factory(name: str, obj: Any) -> BotFactory:
    if not callable(obj):
        raise TtrError(f"a bot is made by a callable (a class taking the seed), not {obj!r}"[:200])
    return cast(BotFactory, obj)


#: bot name -> what makes it (a :class:`~ttr_lab.io.registries.Registry`): the random and greedy
#: bots, and lazy entries for the FDG agents (:mod:`ttr_lab.bots.fdg`), the playout bot
#: (:mod:`ttr_lab.bots.playout`) and the advisor (:mod:`ttr_lab.analysis.advisor`), imported when
#: first made; a package adds its own by ``BOTS.register(name, cls)`` or a ``ttr_lab.bots``
#: entry point
BOTS: Registry[BotFactory] = Registry(
    "bot", group=ENTRY_POINT_GROUP, normalize=lambda s: s.strip().lower(), check=_bot_factory, api="BOTS.register"
)
BOTS.register("random", RandomBot)
BOTS.register("greedy", GreedyBot, aliases=("bot",))
for _name, _target in (
    ("route_focus", "ttr_lab.bots.fdg:RouteFocus"),
    ("one_step", "ttr_lab.bots.fdg:OneStepThinking"),
    ("long_route", "ttr_lab.bots.fdg:LongRouteExploitation"),
    ("destination_hungry", "ttr_lab.bots.fdg:DestinationHungry"),
    ("advisor", "ttr_lab.analysis.advisor:AdvisorBot"),
    ("playout", "ttr_lab.bots.playout:PlayoutBot"),
):
    BOTS.register_lazy(_name, _target)


#: what a bot spec (``"advisor:playouts=50,candidates=8"``) may set, by kind of
#: value: a bot takes those of them its constructor has as keywords
SPEC_OPTIONS = {
    "playouts": "count",
    "candidates": "count",
    "seconds": "number",
    "c": "number",
    "margin": "number",
    "caution": "flag",
}
_NUMBER = re.compile(r"[0-9]{1,9}(\.[0-9]{1,9})?")
_FLAGS = {"0": False, "1": True, "false": False, "true": True}


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec's name and options: ``"advisor:playouts=50"`` gives
    ``("advisor", {"playouts": 50})``.  Numbers are ASCII digits (a decimal
    point in seconds, ``c`` and ``margin``), flags 0 or 1; their ranges are
    the bot's to check (:func:`make_bot` builds it).

    >>> parse_bot_spec("advisor:playouts=200,candidates=6")
    ('advisor', {'playouts': 200, 'candidates': 6})
    >>> parse_bot_spec("advisor:seconds=0.5")
    ('advisor', {'seconds': 0.5})
    """
    if not isinstance(spec, str) or len(spec) > 200:
        raise TtrError(f"a bot is named by a string of at most 200 characters, not {show_value(spec, 40)}")
    name, colon, rest = spec.strip().lower().partition(":")
    name = name.strip()
    if name not in BOTS:
        raise TtrError(f"unknown bot {show_value(spec, 40)} (known: {', '.join(BOTS.names())})")
    cls = BOTS[name]  # imported now if it is a lazy entry
    if not colon:
        return name, {}
    params = inspect.signature(cls).parameters
    allowed = [k for k in SPEC_OPTIONS if k in params and params[k].kind is inspect.Parameter.KEYWORD_ONLY]
    usage = f"bot spec {show_value(spec, 60)}: {name} takes " + (
        ", ".join(f"{k}=..." for k in allowed) if allowed else "no options"
    )
    kw: dict[str, Any] = {}
    for part in rest.split(","):
        key, eq, value = (x.strip() for x in part.partition("="))
        if key not in allowed or not eq or key in kw:
            raise TtrError(usage)
        kind = SPEC_OPTIONS[key]
        if kind == "count":
            kw[key] = read_number(value, what=f"bot spec {show_value(spec, 60)}: {key}")
        elif kind == "flag" and value in _FLAGS:
            kw[key] = _FLAGS[value]
        elif kind == "number" and _NUMBER.fullmatch(value):
            kw[key] = float(value)
        else:
            raise TtrError(f"{usage}; {key} is {'0 or 1' if kind == 'flag' else 'a number'}, not {value[:20]!r}")
    return name, kw


def make_bot(name: str = "greedy", seed: int = 0) -> Bot:
    """A bot by name: ``"random"``, ``"greedy"`` (also ``"bot"``), and the others
    :data:`BOTS` names (``"playout"``, ``"advisor"``, the FDG agents...),
    or by a spec with options (:func:`parse_bot_spec`:
    ``"advisor:playouts=50"``), checked by the bot; ``seed`` is 0 to
    ``2**256 - 1`` (wider than a game's: bots' seeds are often derived from a
    game's).

    >>> make_bot("advisor:playouts=50", 3)
    AdvisorBot(playouts=50)
    >>> make_bot("advisor:playouts=0")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: playouts must be a whole number from 1 to 10,000,000, not 0
    """
    check_seed(seed, high=MAX_BOT_SEED)
    key, options = parse_bot_spec(name)
    return BOTS[key](seed, **options)


def play_game(
    edition: str | GameState = "usa", bots: Sequence[Bot] = (), *, seed: int = 0, max_plies: int = 20000, **options: Any
) -> GameState:
    """Play a whole game between bots (one per seat) and return the final state.

    The bots see only their own :meth:`~ttr_lab.engine.state.GameState.view`, and
    every move goes through :meth:`~ttr_lab.engine.state.GameState.play`;
    ``max_plies`` is 1 to :data:`MAX_PLIES`.
    """
    check_count(max_plies, "max_plies", high=MAX_PLIES)
    if isinstance(edition, GameState):
        game = edition
    else:
        names = [f"{getattr(b, 'name', 'bot')} {i + 1}" for i, b in enumerate(bots)]
        game = new_game(edition, names, seed=seed, **options)
    views = [game.view(p) for p in range(game.num_players)]
    for _ in range(max_plies):
        if game.is_over:
            return game
        p = game.current_player
        game.play(bots[p].choose(views[p]))
    raise TtrError(f"game did not end within {max_plies} plies")
