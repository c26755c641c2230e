"""The ``Edition`` base class: a map, its cards, its parameters and options.

An edition is immutable: the rules and the options a game is played with.
Editions are looked up by name with :func:`find_edition`; each subclass sets
ClassVar metadata and overrides hooks, as python-chess variants do.

Examples
--------
>>> from ttr_lab.editions import find_edition
>>> usa = find_edition("usa")
>>> usa.name, usa.row_size, usa.route_points[6]
('usa', 5, 15)
>>> find_edition("usa", max_consecutive_resets=3).options["max_consecutive_resets"]
3
>>> find_edition("usa", colour="red")
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: unknown option 'colour' for edition 'usa' (known: allow_single_draw, deal_row_after_tickets, first_player, map, max_consecutive_resets, tiebreak, variant)
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, ClassVar, Mapping

from ..cards import CardType
from ..data import Map, load_map
from ..errors import TtrError

__all__ = ["Edition", "find_edition", "register_edition", "EDITIONS", "edition_names"]

EDITIONS: dict[str, type["Edition"]] = {}
_ALIASES: dict[str, tuple[str, dict[str, Any]]] = {}
_CACHE: dict[tuple, "Edition"] = {}  # editions are immutable, so built once


def register_edition(cls: type["Edition"]) -> type["Edition"]:
    """Class decorator: make an edition findable by its name and aliases."""
    EDITIONS[cls.name] = cls
    _ALIASES[cls.name] = (cls.name, {})
    for alias, preset in cls.aliases.items():
        _ALIASES[alias] = (cls.name, dict(preset))
    return cls


def edition_names() -> tuple[str, ...]:
    """Every name and alias :func:`find_edition` accepts."""
    return tuple(sorted(_ALIASES))


def find_edition(name: str | "Edition", **options: Any) -> "Edition":
    """Build an edition by name or alias (``"usa"``, ``"1910"``, ``"mega"``...).

    Options not named by the edition raise :class:`~ttr_lab.errors.TtrError`.
    """
    if isinstance(name, Edition):
        if options:
            return type(name)(**{**name.options, **options})
        return name
    key = str(name).lower().replace("-", "_").replace(" ", "_")
    if key not in _ALIASES:
        raise TtrError(f"unknown edition {name!r} (known: {', '.join(edition_names())})")
    cls_name, preset = _ALIASES[key]
    merged = {**preset, **options}
    try:
        full = {**EDITIONS[cls_name].option_defaults, **merged}
        cache_key = (cls_name, tuple(sorted((k, repr(v)) for k, v in full.items())))
    except TypeError:  # pragma: no cover - unorderable option names
        return EDITIONS[cls_name](**merged)
    ed = _CACHE.get(cache_key)
    if ed is None:
        ed = _CACHE[cache_key] = EDITIONS[cls_name](**merged)
    return ed


class Edition:
    """Rules and parameters of one edition.  Subclasses fill in the ClassVars.

    Parameters are plain attributes, read by :class:`~ttr_lab.state.GameState`;
    rule hooks are methods taking the state.
    """

    name: ClassVar[str] = ""
    #: the GameState subclass that plays this edition (None: GameState itself)
    state_class: ClassVar[type | None] = None
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    map_id: ClassVar[str] = ""
    #: option name -> default value
    option_defaults: ClassVar[Mapping[str, Any]] = {
        "max_consecutive_resets": None,
        "first_player": 0,
        "deal_row_after_tickets": False,
        "allow_single_draw": False,
        "map": None,
    }

    # --- parameters every edition sets (instance attributes after __init__) ---
    card_types: tuple[CardType, ...]
    pile_names: tuple[str, ...] = ("train",)
    #: per pile: tuple of (card index, count)
    deck_composition: tuple[tuple[tuple[int, int], ...], ...]
    row_size: int = 5
    #: how many row slots each pile fills when a whole row is dealt
    row_split: tuple[int, ...] = (5,)
    starting_cards: tuple[int, ...] = (4,)
    pieces: int = 45
    setup_tickets: tuple[int, int] = (3, 2)
    draw_tickets: tuple[int, int] = (3, 1)
    route_points: Mapping[int, int] = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    end_threshold: int = 2
    final_turns: int = 1
    min_players: int = 2
    max_players: int = 5
    double_route_min_players: int = 4
    longest_path_bonus: int = 10
    globetrotter_bonus: int = 0

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.option_defaults))
        if unknown:
            raise TtrError(
                f"unknown option {unknown[0]!r} for edition {self.name!r} "
                f"(known: {', '.join(sorted(self.option_defaults))})"
            )
        opts = {**self.option_defaults, **options}
        self.options: Mapping[str, Any] = MappingProxyType(opts)
        self._check_options(opts)
        self.map: Map = load_map(opts["map"] or self.map_id)
        self._setup_parameters()
        self._index()

    # --- hooks for subclasses -------------------------------------------------
    def _check_options(self, opts: dict[str, Any]) -> None:
        cap = opts["max_consecutive_resets"]
        if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 0):
            raise TtrError(f"max_consecutive_resets must be None or an int >= 0, not {cap!r}")
        fp = opts["first_player"]
        if fp != "random" and (not isinstance(fp, int) or isinstance(fp, bool) or fp < 0):
            raise TtrError(f"first_player must be a seat index or 'random', not {fp!r}")
        if opts["map"] is not None and not isinstance(opts["map"], str):
            raise TtrError(f"map must be a shipped map name or a file path, not {opts['map']!r}")
        for flag in ("deal_row_after_tickets", "allow_single_draw"):
            if not isinstance(opts[flag], bool):
                raise TtrError(f"{flag} must be True or False, not {opts[flag]!r}")

    def _setup_parameters(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def ticket_deck(self) -> tuple[int, ...]:
        """Ids of the tickets in the draw deck at the start (before shuffling)."""
        raise NotImplementedError

    # --- derived tables -------------------------------------------------------
    def _index(self) -> None:
        self.card_index = {c.name: i for i, c in enumerate(self.card_types)}
        self.wild_cards = tuple(i for i, c in enumerate(self.card_types) if c.wild)
        self.routes = self.map.routes
        self.route_index = {r.id: i for i, r in enumerate(self.routes)}
        self.city_names = tuple(c.name for c in self.map.cities)
        self.total_cards = sum(n for pile in self.deck_composition for _, n in pile)
        self.route_labels = tuple(r.label() for r in self.routes)
        partner = []
        for r in self.routes:
            partner.append(self.route_index[r.double_of] if r.double_of is not None else -1)
        self.route_partner = tuple(partner)
        self.route_length = tuple(r.length for r in self.routes)
        for r in self.routes:
            if r.length not in self.route_points:
                raise TtrError(
                    f"map {self.map.source}: route {r.id} ({r.label()}) has length {r.length}, "
                    f"which edition {self.name!r} cannot score"
                )

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if self.option_defaults.get(k) != v}
        args = "".join(f", {k}={v!r}" for k, v in sorted(changed.items()))
        return f"find_edition({self.name!r}{args})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options == self.options  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted((k, repr(v)) for k, v in self.options.items()))))

    # --- scoring hooks (see ttr_lab.scoring) ---------------------------------
    longest_path_name: ClassVar[str] = "Longest Path"

    @property
    def uses_path_tiebreak(self) -> bool:
        """Whether tie-breaks compare longest-path lengths (no bonus card in play)."""
        return not self.longest_path_bonus and self.options.get("tiebreak") == "longest_path"

    def score_tickets(self, state, player, adj):  # noqa: ANN001, ANN201
        """Each kept ticket of ``player`` as a TicketResult (A7)."""
        from ..scoring import score_two_city

        return tuple(score_two_city(state.map.ticket(t), adj) for t in state._tickets[player])

    def score_adjustments(self, state, player):  # noqa: ANN001, ANN201
        """Points that are neither routes, tickets nor bonuses (stations, harbors...)."""
        return ()

    def extra_bonuses(self, state, player, score):  # noqa: ANN001, ANN201
        return ()

    def tiebreak_key(self, state, score, holders):  # noqa: ANN001, ANN201
        """Larger is better; compared after the total (B1: completed tickets,
        then the Longest Path card holder; without the card, path length or a
        shared win by option ``tiebreak``)."""
        if self.longest_path_bonus:
            return (score.tickets_completed, 1 if score.player in holders else 0)
        if self.options.get("tiebreak") == "longest_path":
            return (score.tickets_completed, score.longest_path)
        return (score.tickets_completed,)

    def tiebreak_text(self, shared: bool) -> str:
        if shared:
            return "tied on points and on every tie-breaker: a shared win"
        if self.longest_path_bonus:
            return "tie on points broken by completed tickets, then the Longest Path card"
        return "tie on points broken by completed tickets, then longest path length"

    def new_game(self, players: int | list[str] = 4, *, seed: int = 0) -> "GameState":  # noqa: F821
        """Start a game of this edition (see :class:`~ttr_lab.state.GameState`)."""
        from ..state import GameState

        return GameState(self, players, seed=seed)
