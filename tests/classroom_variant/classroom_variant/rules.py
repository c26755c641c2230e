"""The classroom variant's two rules, as edition mixins: a blocked route and a secret objective city.

``BlockRule`` (rule CL1)
    Once per game each player may, as the whole of a turn, close one free
    route (``block N``): nobody may claim it afterwards.  Position field
    ``_blocked`` (``"blocked"`` in a saved position: per seat, the route id it
    blocked or null), **public**.

``SecretObjective`` (rule CL2)
    At setup each seat is dealt a different city (``_objective``,
    ``"objective"``), **hidden** from the other seats.  At the end a seat
    whose routes reach its city scores :data:`OBJECTIVE_POINTS`, else loses
    :data:`OBJECTIVE_PENALTY`.

Both use only the public edition API (:class:`ttr_lab.engine.rules.Edition`,
:class:`~ttr_lab.engine.rules.Field`, :class:`~ttr_lab.engine.rules.accessors.Accessors` and
the hooks of :mod:`ttr_lab.engine.rules.hooks`):

* their queries are typed accessor classes (``game.ext.blocked_routes()``,
  also ``game.blocked_routes()``; the objective is ``secret``: a game's only);
* the block is told through ``double_rule`` alone (who may claim a route):
  the engine's legal moves and caches follow, the variant keeps no cache;

* each :class:`~ttr_lab.engine.rules.Field` says who may see it (``hidden``) and
  names the method rebuilding it from a player's view (``from_view``:
  ``blocked_from_view`` copies the public field, ``objective_from_view``
  draws the other seats' cities); the objective is ``dealt`` at setup
  through ``chance_pick``, so records carry it and seat records hide it;
* ``table_facts`` / ``seat_facts`` and ``table_extra``: what a person states
  at a table (``score(..., objective=..., blocked=...)``, ``seat_view``);
* the board draws both rules through its hooks, in :mod:`.marks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from ttr_lab.engine.phases import Phase
from ttr_lab.engine.rules import Edition, Field, Rebuild, Table
from ttr_lab.engine.rules.accessors import Accessors, secret
from ttr_lab.engine.scoring import network
from ttr_lab.errors import NotFoundError, TtrError

from .moves import BlockRoute

if TYPE_CHECKING:  # pragma: no cover
    from ttr_lab.engine.scoring.results import TicketResult
    from ttr_lab.engine.state import GameState
    from ttr_lab.engine.view import PlayerView

__all__ = [
    "BlockRule",
    "BlockAccessors",
    "SecretObjective",
    "ObjectiveAccessors",
    "OBJECTIVE_POINTS",
    "OBJECTIVE_PENALTY",
    "R_BLOCK",
    "R_OBJECTIVE",
]

#: the rules' ids, as ``why_illegal`` cites them
R_BLOCK, R_OBJECTIVE = "CL1", "CL2"
#: points for reaching one's objective city, and lost for missing it
OBJECTIVE_POINTS, OBJECTIVE_PENALTY = 8, 4

_TURN = int(Phase.TURN)


def closed_label(route_id: int, route_label: str, name: str) -> str:
    """The words of a closed route's mark: ``"closed: route 5 (Boston-New York), blocked by Ada"``."""
    return f"closed: route {route_id} ({route_label}), blocked by {name}"


def objective_label(city: str, name: str) -> str:
    """The words of an objective city's mark (drawn on its owner's board only)."""
    return f"objective city of {name}: {city}"


# ---------------------------------------------------------------- CL1: block a route
def _load_blocked(ed: Any, n: int, data: Any) -> tuple[int, ...]:
    if not isinstance(data, list) or len(data) != n:
        raise TtrError("expected one route id (or null) per player")
    out = []
    for rid in data:
        if rid is None:
            out.append(-1)
        elif type(rid) is int and rid in ed.route_index:
            out.append(rid)
        else:
            raise TtrError(f"there is no route {str(rid)[:40]} on the {ed.map.id} map")
    return tuple(out)


class BlockAccessors(Accessors):
    """The blocked routes (public): ``game.ext.blocked_routes()``."""

    __slots__ = ()

    def blocked_routes(self) -> dict[int, int]:
        """``{route id: seat}`` for every route blocked so far."""
        return cast(BlockRule, self.state.edition).blocked_routes(self.state)


class BlockRule(Edition):
    """Mixin: ``block N`` once per game per player; a blocked route is closed to everyone."""

    moves = {BlockRoute: ("check_block", "apply_block")}
    turn_actions = {"block_groups": BlockRoute.rank}
    fields: ClassVar[tuple[Field, ...]] = (
        Field(
            "_blocked",
            "blocked",
            lambda ed, n: (-1,) * n,
            lambda ed, v: [None if r < 0 else r for r in v],
            _load_blocked,
            from_view="blocked_from_view",
        ),
    )
    accessors = BlockAccessors
    controls = ("block",)
    table_facts = {"blocked": "{player: route id}: the route each player blocked (default: none)"}
    seat_facts = table_facts

    # ------------------------------------------------------------------ public read API
    def blocked_routes(self, s: GameState) -> dict[int, int]:
        """``{route id: seat}`` for every route blocked so far (public)."""
        return {rid: p for p, rid in enumerate(s._blocked) if rid >= 0}

    def view_fields(self, s: GameState, player: int) -> dict[str, Any]:
        return {**super().view_fields(s, player), "blocked": [None if r < 0 else r for r in s._blocked]}

    # ------------------------------------------------------------------ closed routes
    def double_rule(self, s: GameState, p: int, ri: int) -> tuple[str, str] | None:
        """A blocked route is closed to every player: told in the one hook that
        says who may claim a route, which the legal moves, ``why_illegal`` and
        the bots ask (the engine's free-route cache is never touched)."""
        rid = self.routes[ri].id
        if rid in s._blocked:
            who = s.player_names[s._blocked.index(rid)]
            return (R_BLOCK, f"route {rid} ({self.route_labels[ri]}) is closed: {who} blocked it")
        return super().double_rule(s, p, ri)

    # ------------------------------------------------------------------ legal moves
    def block_groups(self, s: GameState) -> list[Any]:
        if s._blocked[s.current_player] >= 0:
            return []
        routes = self.routes
        moves = [BlockRoute(routes[ri].id) for ri in self.open_routes(s)]
        return [(len(moves), list, moves)] if moves else []

    def check_block(self, s: GameState, move: BlockRoute) -> tuple[str, str] | None:
        if s.phase != _TURN:
            return self.phase_error(s)
        ri = self.route_index.get(move.route)
        if ri is None:
            return (R_BLOCK, f"there is no route {move.route} on the {self.map.id} map")
        if s._blocked[s.current_player] >= 0:
            return (R_BLOCK, f"a player blocks one route per game (you blocked route {s._blocked[s.current_player]})")
        if s.route_owner(move.route) is not None:
            return (R_BLOCK, f"route {move.route} ({self.route_labels[ri]}) is claimed: only a free route is blocked")
        why = self.double_rule(s, s.current_player, ri)
        if why is not None and why[0] == R_BLOCK:
            return why
        if ri not in self.open_routes(s):
            return (R_BLOCK, f"route {move.route} ({self.route_labels[ri]}) is not free: {why[1] if why else ''}")
        return None

    def apply_block(self, s: GameState, move: BlockRoute) -> None:
        p = s.current_player
        s._blocked = s._blocked[:p] + (move.route,) + s._blocked[p + 1 :]
        self.action_done(s)

    # ------------------------------------------------------------------ consistency
    def problems(self, s: GameState) -> list[str]:
        out = super().problems(s)
        if s.phase == int(Phase.SETUP_TICKETS) and any(r >= 0 for r in s._blocked):
            out.append("the initial tickets are being chosen, but a route is blocked")
        seen: set[int] = set()
        for p, rid in enumerate(s._blocked):
            if rid < 0:
                continue
            if rid in seen:
                out.append(f"route {rid} is blocked twice")
            seen.add(rid)
            if s.route_owner(rid) is not None:
                out.append(f"player {p} blocked route {rid}, which is claimed")
        return out

    # ------------------------------------------------------------------ hooks
    def blocked_from_view(self, view: PlayerView, ctx: Rebuild) -> list[int | None]:
        """Public: as the view shows it."""
        return list(view.to_dict()["blocked"])

    def table_extra(self, t: Table) -> None:
        """``blocked={player: route id}`` (nobody blocked by default): checked when the position loads."""
        super().table_extra(t)
        given = t.by_seat("blocked")
        t.extra["blocked"] = [given.get(p) for p in range(len(t.players))]


# ---------------------------------------------------------------- CL2: a secret objective city
def _load_objectives(ed: Any, n: int, data: Any) -> tuple[str, ...]:
    if not isinstance(data, list) or len(data) != n or not all(isinstance(c, str) for c in data):
        raise TtrError("expected one city name per player")
    for c in data:
        if c not in ed.objective_cities:
            raise TtrError(f"there is no city {c[:60]!r} to aim for on the {ed.map.id} map")
    if len(set(data)) != n:
        raise TtrError("two players aim for the same city; each is dealt a different one")
    return tuple(data)


class ObjectiveAccessors(Accessors):
    """The objective cities: secret, a game's only (``game.ext.objective(p)``)."""

    __slots__ = ()

    @secret
    def objective(self, player: int) -> str:
        """A seat's objective city."""
        return cast(SecretObjective, self.state.edition).objective(self.state, player)


class SecretObjective(Edition):
    """Mixin: a different secret city per seat, dealt at setup, scored at the end."""

    fields: ClassVar[tuple[Field, ...]] = (
        Field(
            "_objective",
            "objective",
            lambda ed, n: ("",) * n,
            lambda ed, v: list(v),
            _load_objectives,
            hidden="own",
            from_view="objective_from_view",
            dealt=True,
        ),
    )
    accessors = ObjectiveAccessors
    table_facts = {"objective": "{player: city}: every player's objective city (no default)"}
    seat_facts = {"objective": "city: the seat's own objective city (no default)"}

    objective_cities: tuple[str, ...]

    def _build_tables(self) -> None:
        super()._build_tables()
        self.objective_cities = tuple(sorted(c.name for c in self.map.cities if not c.waypoint))

    def objective(self, s: GameState, player: int) -> str:
        """A seat's objective city (secret: a state's accessor only, never a view's)."""
        return str(s._objective[s.seat(player)])

    def setup(self, s: GameState) -> None:
        """Deal each seat a different city (a record's deal carries them: ``chance_pick``)."""
        super().setup(s)
        cities = list(self.objective_cities)
        self.rng(s).shuffle(cities)
        s._objective = tuple(self.chance_pick(s, "objective", cities) for _ in range(s.n))

    def view_fields(self, s: GameState, player: int) -> dict[str, Any]:
        return {**super().view_fields(s, player), "my_objective": s._objective[player]}

    def score_terms(self, s: GameState, player: int, tickets: tuple[TicketResult, ...]) -> tuple[tuple[str, int], ...]:
        city = s._objective[player]
        if city in network(s, player):
            own = ((f"objective city {city} reached", OBJECTIVE_POINTS),)
        else:
            own = ((f"objective city {city} missed", -OBJECTIVE_PENALTY),)
        return tuple(super().score_terms(s, player, tickets)) + own

    # ------------------------------------------------------------------ hooks
    def objective_from_view(self, view: PlayerView, ctx: Rebuild) -> list[str]:
        """The seat's own city from the view; every other seat's drawn from the cities left (uniform)."""
        mine = view.to_dict()["my_objective"]
        others = ctx.rng.sample([c for c in self.objective_cities if c != mine], view.num_players - 1)
        return [mine if q == view.player else others.pop() for q in range(view.num_players)]

    def table_extra(self, t: Table) -> None:
        """The table scorer: ``objective={player: city}`` for every player; the
        editor (``t.seat``): ``objective=city``, the seat's own (the others' filled)."""
        super().table_extra(t)
        n = len(t.players)
        if t.seat is None:
            given = t.by_seat("objective")
            if set(given) != set(range(n)):
                raise TtrError("objective: give every player's objective city ({player: city})")
            t.extra["objective"] = [given[p] for p in range(n)]
            return
        mine = t.facts.get("objective")
        if not isinstance(mine, str):
            raise TtrError("objective: give your objective city (objective='City')")
        if mine not in self.objective_cities:
            raise NotFoundError(f"objective: there is no city {mine[:60]!r} to aim for on the {self.map.id} map")
        others = t.rng.sample([c for c in self.objective_cities if c != mine], n - 1)
        t.extra["objective"] = [mine if q == t.seat else others.pop() for q in range(n)]
