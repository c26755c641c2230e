"""What one player may see: :class:`PlayerView`.

A view shows the player's own hand, tickets and pending choice, and only the
public facts about everyone else (hand sizes, ticket counts, pieces, scores,
claimed routes, the face-up row, pile sizes, and what each edition marks
public: stations, harbors, a tunnel's reveal...).  Deck order, other hands,
other tickets and the game's seed are not reachable through it.  Bots decide
from a view.

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=3, seed=5)
>>> v = g.view(1)
>>> v.hand_sizes
(4, 4, 4)
>>> len(v.pending_tickets)      # seat 1 is not choosing yet
0
>>> sorted(v.to_dict())[:4]
['current', 'deck_sizes', 'discard_sizes', 'edition']
>>> v.player = 0
Traceback (most recent call last):
...
AttributeError: property 'player' of 'PlayerView' object has no setter
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import TtrError
from ..maps.loading import Map, Ticket
from .moves import DrawBlind, DrawFaceUp, KeepTickets, show_value
from .phases import Phase
from .rules.accessors import Accessors
from .scoring import TicketResult, ticket_status
from .view_history import SeenHistory, SeenPly, _spy_class

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Edition
    from .rules.declarations import Api
    from .state import GameState, LegalMoves

__all__ = ["PlayerView", "SeenPly", "SeenHistory", "view_class", "accessor_class"]


# ---------------------------------------------------------------- an edition's accessors by name
def _delegate(name: str, api: Api, doc: str | None) -> Any:
    """A member reading accessor ``name`` of the instance's ``ext``."""
    if api.prop:
        return property(lambda self: getattr(self.ext, name), doc=doc)

    def accessor(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.ext, name)(*args, **kwargs)

    accessor.__name__ = accessor.__qualname__ = name
    accessor.__doc__ = doc
    return accessor


def accessor_class(base: type, ed: Edition, public_only: bool) -> type:
    """A subclass of ``base`` (:class:`~ttr_lab.engine.state.GameState` or
    :class:`PlayerView`) for edition ``ed``: its accessors by name
    (``game.stations()``), each reading ``ext``; secret ones only on a game.
    An accessor named as a member of ``base`` is an error (it would hide it).
    ``base`` itself when the edition has none."""
    names: Mapping[str, Api] = ed.state_api
    members: dict[str, Any] = {}
    for name, api in sorted(names.items()):
        if public_only and not api.public:
            continue
        if name.startswith("_") or hasattr(base, name):
            raise TtrError(
                f"the {ed.name} accessor {name!r} would hide {base.__name__}.{name}: give it another name "
                f"(it stays reachable as ext.{name})"
            )
        member = getattr(ed.accessors, name, None)
        doc = getattr(member, "__doc__", None) or getattr(getattr(ed, api.method, None), "__doc__", None)
        members[name] = _delegate(name, api, doc)
    if not members:
        return base
    what = "a player's view" if public_only else "a game"
    return type(
        f"{type(ed).__name__}{base.__name__}",
        (base,),
        {
            "__slots__": (),
            "__module__": base.__module__,
            "__doc__": f"{base.__name__} of {what} of {ed.name}, with its accessors by name (see ``ext``).",
            "_edition_class": type(ed),
            **members,
        },
    )


_VIEW_CLASSES: weakref.WeakKeyDictionary[type, type[PlayerView]] = weakref.WeakKeyDictionary()


def view_class(ed: Edition) -> type[PlayerView]:
    """The class of the views of a game of ``ed``: :class:`PlayerView`, or a
    subclass with the edition's public accessors by name (made once per edition class).

    >>> import ttr_lab
    >>> view_class(ttr_lab.find_edition("usa")) is PlayerView
    True
    >>> view_class(ttr_lab.find_edition("europe")).__name__
    'EuropePlayerView'
    """
    cls = _VIEW_CLASSES.get(type(ed))
    if cls is None:
        cls = _VIEW_CLASSES[type(ed)] = accessor_class(PlayerView, ed, public_only=True)
    return cls


class PlayerView:
    """A read-only window on a game state for one seat.

    A view of a game of an edition with accessors of its own is an instance
    of a subclass made for that edition (:func:`view_class`), with its public
    accessors by name (``view.stations_of(p)``); ``view.ext`` holds them all.
    """

    __slots__ = ("_state", "_player")

    def __new__(cls, state: GameState, player: int) -> PlayerView:
        ed = getattr(state, "edition", None)
        if cls is PlayerView and ed is not None:
            cls = view_class(ed)
        return object.__new__(cls)

    def __init__(self, state: GameState, player: int) -> None:
        if type(player) is not int or not 0 <= player < state.n:
            raise TtrError(f"no seat {show_value(player)} in a {state.n}-player game")
        self._state = state
        self._player = player

    @property
    def player(self) -> int:
        """The seat this view belongs to (fixed)."""
        return self._player

    @property
    def ext(self) -> Accessors:
        """The edition's own public queries (:mod:`ttr_lab.engine.rules.accessors`),
        for this seat: ``view.ext.stations()`` in Europe."""
        return self._state.edition.accessors(self._state, self._player)

    if TYPE_CHECKING:  # an edition's accessors by name, on the subclass made for it (view_class)

        def __getattr__(self, name: str) -> Any: ...

    # public facts
    @property
    def edition(self) -> Edition:
        return self._state.edition

    @property
    def map(self) -> Map:
        return self._state.edition.map

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def current_player(self) -> int:
        return self._state.current_player

    @property
    def num_players(self) -> int:
        return self._state.n

    @property
    def player_names(self) -> tuple[str, ...]:
        return self._state.player_names

    @property
    def row(self) -> tuple[str | None, ...]:
        return self._state.row

    @property
    def deck_sizes(self) -> tuple[int, ...]:
        return tuple(map(len, self._state._decks))

    @property
    def discard_sizes(self) -> tuple[int, ...]:
        return tuple(map(len, self._state._discards))

    @property
    def ticket_deck_size(self) -> int:
        return self._state.ticket_deck_size

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(map(sum, self._state._hands))

    @property
    def ticket_counts(self) -> tuple[int, ...]:
        return tuple(map(len, self._state._tickets))

    @property
    def pieces(self) -> tuple[int, ...]:
        return tuple(self._state.pieces(p) for p in range(self._state.n))

    @property
    def scores(self) -> tuple[int, ...]:
        return self._state.scores

    def route_owners(self) -> dict[int, int]:
        return self._state.route_owners()

    def route_owner(self, route_id: int) -> int | None:
        return self._state.route_owner(route_id)

    def routes_of(self, player: int) -> tuple[int, ...]:
        return self._state.routes_of(player)

    def buildings(self) -> dict[str, dict[str, int]]:
        return self._state.buildings()

    def route_open_to(self, route_id: int, player: int) -> bool:
        return self._state.route_open_to(route_id, player)

    @property
    def final_turns_left(self) -> int | None:
        return self._state.final_turns_left

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def ply(self) -> int:
        return self._state.ply

    # the player's own secrets
    @property
    def hand(self) -> dict[str, int]:
        return self._state.hand(self._player)

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return self._state._hands[self._player]

    @property
    def tickets(self) -> tuple[Ticket, ...]:
        return self._state.tickets(self._player)

    @property
    def pending_tickets(self) -> tuple[Ticket, ...]:
        s = self._state
        return s.pending_tickets if s.current_player == self._player else ()

    @property
    def is_my_turn(self) -> bool:
        return self._state.current_player == self._player and not self._state.is_over

    @property
    def legal_moves(self) -> LegalMoves | tuple[()]:
        """The legal moves when this player is to decide, else ``()``.

        Legal moves never depend on hidden information (a blind draw does
        not say which card it will be), so this leaks nothing.
        """
        return self._state.legal_moves if self.is_my_turn else ()

    def why_illegal(self, move: Any) -> tuple[str, str] | None:
        if not self.is_my_turn:
            return ("A1", f"it is not {self._state.player_names[self._player]}'s decision")
        return self._state.why_illegal(move)

    def describe(self, move: Any) -> str:
        return self._state.describe(move)

    def ticket_status(self) -> tuple[TicketResult, ...]:
        """This seat's kept tickets, each hit or missed now, with the routes
        that join it (:func:`ttr_lab.engine.scoring.ticket_status` for its own seat)."""
        return ticket_status(self._state, self._player)

    # more public facts, for analysis (determinization)
    @property
    def pile_hand_sizes(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, how many cards of each pile it holds (public: the piles'
        cards have different backs, as Rails & Sails' trains and ships)."""
        piles = [ct.pile for ct in self._state.edition.card_types]
        n = len(self._state.edition.pile_names)
        out = []
        for h in self._state._hands:
            sizes = [0] * n
            for c, k in enumerate(h):
                sizes[piles[c]] += k
            out.append(tuple(sizes))
        return tuple(out)

    def discard_cards(self, pile: int = 0) -> tuple[str, ...]:
        """The cards on a discard pile, bottom to top.  Public: every card
        reaches a discard face up (a payment, a tunnel's reveal, a reset row)
        since the pile was last shuffled into the deck."""
        s = self._state
        return tuple(s.card_name(c) for c in s._discards[s._pile(pile)])

    @property
    def counters(self) -> dict[str, int]:
        """The public counters: first player, turns, consecutive passes,
        shuffles (the deals' and every reshuffle) and wild resets so far."""
        s = self._state
        return {
            "first_player": s._first,
            "turn": s._turn,
            "passes": s._passes,
            "shuffles": s._shuffles,
            "resets": s._resets,
        }

    def history(self) -> SeenHistory:
        """Every ply of the game's history as this seat saw it (see :class:`SeenPly`)."""
        return _seen_history(self._state, self._player)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (hidden information left out)."""
        s = self._state
        d = {
            "edition": s.edition.name,
            "player": self._player,
            "phase": s.phase.name.lower(),
            "current": s.current_player,
            "row": list(self.row),
            "deck_sizes": list(self.deck_sizes),
            "discard_sizes": list(self.discard_sizes),
            "ticket_deck_size": self.ticket_deck_size,
            "hand": self.hand,
            "tickets": [t.id for t in self.tickets],
            "pending_tickets": [t.id for t in self.pending_tickets],
            "hand_sizes": list(self.hand_sizes),
            "ticket_counts": list(self.ticket_counts),
            "pieces": list(self.pieces),
            "scores": list(self.scores),
            "owners": {str(k): v for k, v in sorted(self.route_owners().items())},
            "final_turns_left": self.final_turns_left,
        }
        d.update(s.edition.view_fields(s, self._player))
        return d

    def __repr__(self) -> str:
        s = self._state
        return (
            f"<PlayerView seat {self._player} of a {s.edition.name} game, {s.n} players, ply {s.ply}, {s.phase.name}>"
        )

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """Show the board as this seat knows it in Jupyter: the public board and the seat's own
        tickets, interactive and as a static SVG (:func:`ttr_lab.engine.display.mimebundle`)."""
        from .display import mimebundle  # imported when a board is first shown, not with the engine

        return mimebundle(self, include, exclude, tickets=self.tickets)


# ---------------------------------------------------------------- the history as one seat saw it
def _seen_history(state: GameState, me: int) -> SeenHistory:
    """Replay the history on a private copy whose edition logs the card
    movements, and keep what seat ``me`` could see of them."""
    ed = state.edition
    moves = state._moves
    start = state.copy()
    if moves:
        start._restore(state._snapshot(0))
    plies: list[SeenPly] = []
    if moves:
        spy: Any = object.__new__(_spy_class(type(ed)))
        spy.__dict__.update(ed.__dict__)
        spy.__dict__["_frozen"] = False
        spy._bind_plugins()
        spy.__dict__["_log"] = []
        spy.__dict__["_frozen"] = True
        g = state.copy()
        g.edition = spy
        name = ed.card_name
        for i, move in enumerate(moves):
            g._restore(state._snapshot(i))
            seat, offered = g._cur, tuple(g._pending)
            secret = seat != me and move.announce(g) != move.describe(g)
            del spy._log[:]
            g.push(move)
            g._stack.clear()
            g._moves.clear()
            events: list[tuple[Any, ...]] = []
            for kind, *rest in spy._log:
                if kind == "reshuffle":
                    events.append(("reshuffle", rest[0], tuple(name(c) for c in rest[1])))
                elif kind == "draw":
                    blind = type(move) is DrawBlind
                    events.append(("draw", rest[0], name(rest[1]) if seat == me or not blind else None, blind))
                elif kind == "give" and type(move) is DrawFaceUp:
                    events.append(("take", name(rest[0])))
                elif kind == "pay":
                    events.append(("pay", tuple((name(c), k) for c, k in rest[0])))
            kept = len(move.tickets) if isinstance(move, KeepTickets) else None
            plies.append(
                SeenPly(
                    i,
                    seat,
                    None if secret else move,
                    kept,
                    offered if seat == me and kept is not None else (),
                    tuple(events),
                )
            )
    return SeenHistory(PlayerView(start, me), tuple(plies))
