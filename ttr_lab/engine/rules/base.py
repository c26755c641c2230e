"""The edition base: parameters, options, derived tables, and how rules plug in.

An :class:`EditionBase` subclass is immutable once built.  Rules are mixin
classes (see :mod:`ttr_lab.engine.rules`); each may declare, as class attributes:

``moves``
    ``{MoveClass: ("check method", "apply method")}``: the moves it owns;
``phases``
    ``{phase: "method listing the legal move groups"}``: the phases it owns;
``fields``
    :class:`Field` entries: position fields it adds to a game state;
``accessors``
    a subclass of :class:`~ttr_lab.engine.rules.accessors.Accessors`: the typed
    queries it offers on a game (``game.ext.stations()``, also
    ``game.stations()``) and, unless secret, on a player's view (not merged:
    an edition's class must include its rules', or one is combined for it);
``api``
    ``{name: Api(...)}``: the short form of an accessor, an edition method
    taking the state;
``turn_actions``
    ``{"method": rank}``: methods listing the move groups of actions it
    adds to a turn, in the order of their moves' ranks;
``controls``
    names of the widget controls its decisions need (``"tunnel"``);
``building``
    ``(kind, api name)`` of pieces it puts on cities (stations, harbors);
``table_facts``, ``seat_facts``
    ``{keyword: what it is}``: facts a person states for its fields, which
    the table scorer and the position editor take (see :mod:`ttr_lab.engine.rules.hooks`).

These declarations are merged over the class's MRO when the class is
defined, so an edition is the sum of its rules.  A field says who may see
it and how to rebuild it from a view (:class:`Field`); generic code asks
the edition through the hooks of :mod:`ttr_lab.engine.rules.hooks`, never by its
fields or its name.  The declarations are in :mod:`ttr_lab.engine.rules.declarations`.

Examples
--------
>>> from ttr_lab.engine.rules import find_edition
>>> usa = find_edition("usa")
>>> usa.name, usa.row_size, usa.route_points[6]
('usa', 5, 15)
>>> usa.pieces = 50
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: an edition is immutable (cannot set 'pieces'); use find_edition(..., **options) for other options
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import MapDataError, TtrError
from ...maps.loading import Map, Route, load_map
from ..cards import CardType
from ..moves import Move
from ..phases import Phase
from .accessors import Accessors, accessor_members, combined_accessors
from .declarations import Api, Field, check_bool, check_choice, is_count, merged

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState
    from ..view import PlayerView

__all__ = ["EditionBase", "Field", "Api", "check_bool", "check_choice", "is_count"]

_DECLARATIONS = (
    "moves",
    "phases",
    "fields",
    "api",
    "turn_actions",
    "controls",
    "building",
    "table_facts",
    "seat_facts",
)


class EditionBase:
    """Rules and parameters of one edition; subclasses fill in the ClassVars."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    map_id: ClassVar[str] = ""
    #: route kinds this edition can play (a map with others is refused)
    route_kinds: ClassVar[frozenset[str]] = frozenset({"train"})
    #: option name -> default value
    option_defaults: ClassVar[Mapping[str, Any]] = {
        "max_consecutive_resets": None,
        "first_player": 0,
        "deal_row_after_tickets": False,
        "allow_single_draw": False,
        "map": None,
    }

    # --- rule declarations (merged over the MRO into _plugins) ----------------
    moves: ClassVar[Mapping[type[Move], tuple[str, str]]] = {}
    phases: ClassVar[Mapping[int, str]] = {}
    fields: ClassVar[tuple[Field, ...]] = ()
    api: ClassVar[Mapping[str, Api]] = {}
    turn_actions: ClassVar[Mapping[str, float]] = {}
    controls: ClassVar[tuple[str, ...]] = ()
    building: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: the edition's own queries (``game.ext``): see :mod:`ttr_lab.engine.rules.accessors`
    accessors: ClassVar[type[Accessors]] = Accessors

    # --- parameters (class defaults; _setup_parameters may change them) --------
    card_types: tuple[CardType, ...] = ()
    pile_names: tuple[str, ...] = ("train",)
    #: per pile: tuple of (card index, count)
    deck_composition: tuple[tuple[tuple[int, int], ...], ...] = ()
    row_size: int = 5
    #: how many row slots each pile fills when a whole row is dealt
    row_split: tuple[int, ...] = (5,)
    starting_cards: tuple[int, ...] = (4,)
    pieces: int = 45
    setup_tickets: tuple[int, int] = (3, 2)
    draw_tickets: tuple[int, int] = (3, 1)
    route_points: Mapping[int, int] = MappingProxyType({1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15})
    end_threshold: int = 2
    final_turns: int = 1
    min_players: int = 2
    max_players: int = 5
    double_route_min_players: int = 4
    #: tickets dealt apart at setup: each seat's setup deal starts with one of
    #: them, and those not dealt stay out of play (Europe's long tickets);
    #: empty where every ticket comes from the ticket deck
    long_tickets: tuple[int, ...] = ()
    #: whether unkept initial tickets go out of play, to a box, instead of
    #: under the ticket deck (Europe, rule B3)
    ticket_box: bool = False

    # --- derived tables (set in _index) ------------------------------------------
    options: Mapping[str, Any]
    map: Map
    card_index: Mapping[str, int]
    wild_cards: tuple[int, ...]
    routes: tuple[Route, ...]
    route_index: Mapping[int, int]
    city_names: tuple[str, ...]
    total_cards: int
    route_labels: tuple[str, ...]
    route_partner: tuple[int, ...]
    route_length: tuple[int, ...]
    field_attrs: tuple[str, ...]
    #: names of the piles whose cards pay ship routes (Rails & Sails: ``{"ships"}``)
    ship_piles: frozenset[str]

    _move_checks: Mapping[type[Move], Callable[[GameState, Any], tuple[str, str] | None]]
    _move_applies: Mapping[type[Move], Callable[[GameState, Any], None]]
    _phase_groups: Mapping[int, Callable[[GameState], list[Any]]]
    _turn_action_fns: tuple[Callable[[GameState], list[Any]], ...]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._plugins = {key: merged(cls, key) for key in _DECLARATIONS}
        cls.accessors = combined_accessors(cls)

    _plugins: ClassVar[dict[str, Any]] = {}

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.option_defaults))
        if unknown:
            raise TtrError(
                f"unknown option {unknown[0]!r} for edition {self.name!r} "
                f"(known: {', '.join(sorted(self.option_defaults))})"
            )
        opts = {**self.option_defaults, **options}
        self._check_options(opts)
        m = opts["map"]
        if isinstance(m, str) and m == self.map_id:
            opts["map"] = None
        self.options = MappingProxyType(opts)
        self.map = m if isinstance(m, Map) else load_map(m or self.map_id)
        self._setup_parameters()
        self._index()
        self._build_tables()
        self._bind_plugins()
        self.__dict__["_frozen"] = True

    def __setattr__(self, key: str, value: Any) -> None:
        if self.__dict__.get("_frozen"):
            raise TtrError(
                f"an edition is immutable (cannot set {key!r}); use find_edition(..., **options) for other options"
            )
        super().__setattr__(key, value)

    # --- hooks for subclasses -----------------------------------------------------
    def _check_options(self, opts: dict[str, Any]) -> None:
        cap = opts["max_consecutive_resets"]
        if cap is not None and (not is_count(cap) or cap < 0):
            raise TtrError(f"max_consecutive_resets must be None or an int >= 0, not {cap!r}")
        fp = opts["first_player"]
        if fp != "random" and (not is_count(fp) or fp < 0):
            raise TtrError(f"first_player must be a seat index or 'random', not {fp!r}")
        if opts["map"] is not None and not isinstance(opts["map"], (str, Map)):
            raise TtrError(f"map must be a Map, a shipped map name or a file path, not {opts['map']!r}")
        check_bool(opts, "deal_row_after_tickets", "allow_single_draw")

    def _setup_parameters(self) -> None:
        """Set the edition's parameters (card types, decks, ...) from its options."""

    def _build_tables(self) -> None:
        """Derived lookup tables of the rules (each rule mixin adds its own)."""

    def ticket_deck(self) -> tuple[int, ...]:
        """Ids of the tickets in the draw deck at the start (before shuffling).

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> len(ed.ticket_deck()), len(ed.ticket_universe())    # Europe's long tickets are dealt apart
        (40, 46)
        """
        return tuple(t.id for t in self.map.tickets if not t.is_tour)

    def ticket_universe(self) -> tuple[int, ...]:
        """Every ticket a game of this edition uses (deck, and any dealt apart).

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> set(ed.ticket_deck()) < set(ed.ticket_universe())
        True
        """
        return self.ticket_deck()

    # --- derived tables ---------------------------------------------------------
    def _index(self) -> None:
        m = self.map
        source = m.source
        for r in m.routes:
            if r.kind not in self.route_kinds:
                raise MapDataError(
                    source,
                    f"route {r.id} ({r.label()})",
                    f"edition {self.name!r} has no {r.kind} routes (it plays {', '.join(sorted(self.route_kinds))})",
                )
            if r.length not in self.route_points:
                raise MapDataError(
                    source,
                    f"route {r.id} ({r.label()})",
                    f"length {r.length} is not on the route table of edition {self.name!r} "
                    f"(lengths {', '.join(map(str, sorted(self.route_points)))})",
                )
            if r.paired and "paired" not in self.route_kinds:
                raise MapDataError(source, f"route {r.id} ({r.label()})", f"edition {self.name!r} has no paired routes")
        ids = [r.id for r in m.routes]
        if ids != sorted(ids):
            raise MapDataError(source, "routes", "routes must be listed in increasing id order")
        self.card_index = MappingProxyType({c.name: i for i, c in enumerate(self.card_types)})
        self.wild_cards = tuple(i for i, c in enumerate(self.card_types) if c.wild)
        self.routes = m.routes
        self.route_index = MappingProxyType({r.id: i for i, r in enumerate(self.routes)})
        self.city_names = tuple(c.name for c in m.cities)
        self.total_cards = sum(n for pile in self.deck_composition for _, n in pile)
        self.route_labels = tuple(r.label() for r in self.routes)
        self.route_partner = tuple(
            self.route_index[r.double_of] if r.double_of is not None else -1 for r in self.routes
        )
        self.route_length = tuple(r.length for r in self.routes)
        self.field_attrs = tuple(f.attr for f in self._plugins["fields"])
        self.ship_piles = frozenset(self.pile_names[c.pile] for c in self.card_types if c.kind == "ship")

    def _bind_plugins(self) -> None:
        moves = self._plugins["moves"]
        self._move_checks = MappingProxyType({cls: getattr(self, c) for cls, (c, _) in moves.items()})
        self._move_applies = MappingProxyType({cls: getattr(self, a) for cls, (_, a) in moves.items()})
        self._phase_groups = MappingProxyType({int(p): getattr(self, f) for p, f in self._plugins["phases"].items()})
        actions = sorted(self._plugins["turn_actions"].items(), key=lambda kv: kv[1])
        self._turn_action_fns = tuple(getattr(self, name) for name, _ in actions)

    # --- what the plug-ins add, for generic code --------------------------------
    @property
    def move_types(self) -> tuple[type[Move], ...]:
        """The move classes of this edition, in sort order.

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> [c.verb for c in ed.move_types][-3:]
        ['station', 'tickets', 'keep']
        """
        return tuple(sorted(self._plugins["moves"], key=lambda c: c.rank))

    @property
    def phase_list(self) -> tuple[Phase, ...]:
        """The phases a game of this edition can be in.

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> [p.name for p in ed.phase_list][-2:]
        ['TUNNEL', 'GAME_OVER']
        """
        return tuple(sorted(Phase.of(p) for p in {*self._plugins["phases"], int(Phase.GAME_OVER)}))

    @property
    def fields_added(self) -> tuple[Field, ...]:
        """The position fields of this edition (the base rules' and its own).

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> [f.key for f in ed.fields_added if f.key]
        ['box', 'stations', 'tunnel']
        """
        return tuple(self._plugins["fields"])

    @property
    def state_api(self) -> Mapping[str, Api]:
        """The accessors this edition's rules offer (``game.ext.stations()``, also
        ``game.stations()``), by name: those of its :attr:`accessors` class and
        the short form's (``api``); ``public`` ones are offered on views too.

        >>> from ttr_lab.engine.rules import find_edition
        >>> api = find_edition("europe").state_api
        >>> sorted(api), api["borrowed_routes"].public, api["tunnel"].prop
        (['borrowed_routes', 'box_size', 'stations', 'stations_left', 'stations_of', 'tunnel'], False, True)
        """
        out = {name: Api(name, public, prop) for name, (public, prop) in accessor_members(self.accessors).items()}
        out.update(self._plugins["api"])
        return MappingProxyType(out)

    @property
    def widget_controls(self) -> tuple[str, ...]:
        """Names of the widget controls this edition's decisions need.

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> ed.widget_controls
        ('build', 'tunnel')
        """
        return tuple(self._plugins["controls"])

    @property
    def buildings(self) -> tuple[tuple[str, str], ...]:
        """``(kind, accessor)`` for each kind of piece built on cities.

        >>> import ttr_lab; ed = ttr_lab.find_edition("europe")
        >>> ed.buildings
        (('station', 'stations'),)
        """
        return tuple(self._plugins["building"])

    def derive(self, s: GameState) -> None:
        """Recompute the derived fields of a state from its position (after loading).

        >>> import ttr_lab; g = ttr_lab.new_game("europe", players=2, seed=1); ed = g.edition
        >>> ed.derive(g)    # the base rules' free-route cache, from the owners
        """

    def view_fields(self, s: GameState, player: int) -> dict[str, Any]:
        """The edition's public fields in ``player``'s view (``PlayerView.to_dict``).

        >>> import ttr_lab; g = ttr_lab.new_game("europe", players=2, seed=1); ed = g.edition
        >>> ed.view_fields(g, 1)
        {'stations': {}, 'tunnel': None}
        """
        return {}

    # --- sensible defaults for an edition's own decisions (bots use them) -------
    def default_choice(self, view: PlayerView, moves: list[Move]) -> Move | None:
        """A sensible move for a decision of a phase this edition adds (a
        tunnel, the setup split), from ``view`` alone; None to let the caller choose.

        >>> import ttr_lab; g = ttr_lab.new_game("europe", players=2, seed=1); ed = g.edition
        >>> ed.default_choice(g.view(0), list(g.legal_moves)) is None    # not a decision of Europe's own
        True
        """
        return None

    def suggested_action(self, view: PlayerView, moves: list[Move]) -> Move | None:
        """An action of this edition's own worth taking now (a harbor in a
        ticket city), from ``view`` alone; None if there is none.

        >>> import ttr_lab; g = ttr_lab.new_game("europe", players=2, seed=1); ed = g.edition
        >>> ed.suggested_action(g.view(0), list(g.legal_moves)) is None
        True
        """
        return None

    # --- identity -------------------------------------------------------------
    def _option_items(self) -> tuple[tuple[str, str], ...]:
        items = []
        for k, v in sorted(self.options.items()):
            items.append((k, f"map:{v.digest}" if isinstance(v, Map) else repr(v)))
        return tuple(items)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if self.option_defaults.get(k) != v}
        args = "".join(
            f", {k}={('<map ' + repr(v.id) + '>') if isinstance(v, Map) else repr(v)}"
            for k, v in sorted(changed.items())
        )
        return f"find_edition({self.name!r}{args})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, EditionBase)
            and other._option_items() == self._option_items()
        )

    def __hash__(self) -> int:
        return hash((self.name, self._option_items()))
