"""What a rule declares, and the values its hooks receive.

A rule mixin (see :mod:`ttr_lab.engine.rules.base`) declares its position fields as
:class:`Field` entries and its read-only accessors as :class:`Api` entries.
A field says who may see it (:data:`HIDDEN`) and names the edition method
that rebuilds it from a player's view, so generic code (determinization,
records, the table scorer) asks the edition instead of knowing its fields.
Those hooks receive small values defined here: :class:`Rebuild` (what a
determinization knows besides the view) and :class:`Table` (what a person
states at a table).

Examples
--------
>>> f = Field("_stations", "stations", lambda ed, n: ((),) * n, from_view="stations_from_view")
>>> f.hidden, f.dealt
('public', False)
>>> Field("_secret", "secret", lambda ed, n: (), hidden="mine")
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: field 'secret': hidden is one of 'public', 'own', 'chance', not 'mine'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...errors import NotFoundError, TtrError

if TYPE_CHECKING:  # pragma: no cover
    from ..view_history import SeenPly

__all__ = [
    "Field",
    "Api",
    "Rebuild",
    "Table",
    "HIDDEN",
    "merged",
    "check_bool",
    "check_choice",
    "is_count",
]

#: who may see a field: ``"public"`` every seat; ``"own"`` each seat its own
#: entry of a per-seat list (hidden from the other seats); ``"chance"`` nobody
#: (the order of a deck, what lies in a box)
HIDDEN = ("public", "own", "chance")


def is_count(v: object) -> bool:
    """Whether ``v`` is a whole number (``int`` but not ``bool``)."""
    return type(v) is int


def check_bool(opts: Mapping[str, Any], *names: str) -> None:
    """Raise :class:`~ttr_lab.errors.TtrError` naming the first of options ``names`` that is not True or False.

    >>> check_bool({"a": True, "b": 1}, "a", "b")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: b must be True or False, not 1
    """
    for name in names:
        if not isinstance(opts[name], bool):
            raise TtrError(f"{name} must be True or False, not {opts[name]!r}")


def check_choice(opts: Mapping[str, Any], name: str, choices: tuple[str, ...]) -> None:
    """Raise :class:`~ttr_lab.errors.TtrError` unless option ``name`` is one of ``choices``.

    >>> check_choice({"order": "any"}, "order", ("trail", "strict"))
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: order must be one of 'trail', 'strict', not 'any'
    """
    if opts[name] not in choices:
        raise TtrError(f"{name} must be one of {', '.join(map(repr, choices))}, not {opts[name]!r}")


@dataclass(frozen=True)
class Field:
    """A position field a rule adds to the game state.

    ``attr`` is the state attribute (``"_stations"``); ``key`` its name in a
    saved position's ``"extra"`` object (empty for the base rules' fields,
    which a saved position holds by name, and for derived fields).
    ``initial(edition, n)`` gives its value in a new ``n``-player game,
    ``dump(edition, value)`` its JSON form and ``load(edition, n, data)`` reads
    it back, raising :class:`~ttr_lab.errors.TtrError` with the problem.
    Values are immutable (ints and tuples), so undo snapshots are shallow.

    What a keyed field tells generic code about hidden information:

    ``hidden``
        who may see it (:data:`HIDDEN`): ``"public"``, ``"own"`` (a per-seat
        list; each seat sees its own entry) or ``"chance"`` (nobody).
    ``from_view``
        the name of an edition method ``method(view, ctx) -> JSON`` that
        rebuilds the field's saved form in a complete state consistent with
        a :class:`~ttr_lab.engine.view.PlayerView` (``ctx`` is a :class:`Rebuild`):
        public parts copied from the view, hidden parts drawn from
        ``ctx.rng``.  :func:`~ttr_lab.analysis.hidden.sample_states`
        calls it (a field without one cannot be determinized).
    ``derived``
        a cache computed from the other fields (no key): the engine's, never
        a rule's to write.  :meth:`EditionBase.derive` computes it when a
        position is built or loaded, and the engine keeps it in step during
        play through the incremental hook the rule that declares it
        provides (:meth:`~ttr_lab.engine.rules.routes.Routes.mark_taken` after a
        route changes owner, through
        :meth:`~ttr_lab.engine.rules.routes.Routes.set_owner`).
    ``dealt``
        set at setup by chance, one :meth:`EditionBase.chance_pick` of kind
        ``key`` per entry of its saved form (a list), in order: a record's
        deal writes the field's saved form under ``key``, a replay without a
        seed forces those picks, and a seat record blanks what ``hidden``
        keeps from the seat (``null``).
    """

    attr: str
    key: str
    initial: Callable[[Any, int], Any]
    dump: Callable[[Any, Any], Any] = lambda ed, v: v
    load: Callable[[Any, int, Any], Any] = lambda ed, n, v: v
    hidden: str = "public"
    from_view: str = ""
    dealt: bool = False
    derived: bool = False

    def __post_init__(self) -> None:
        if self.derived and self.key:
            raise TtrError(f"field {self.key!r}: a derived field is not saved (it has no key)")
        if self.hidden not in HIDDEN:
            raise TtrError(
                f"field {self.key or self.attr!r}: hidden is one of {', '.join(map(repr, HIDDEN))}, not {self.hidden!r}"
            )

    def hide(self, value: Any, seat: int) -> Any:
        """The field's saved form ``value`` as seat ``seat`` may see it: whole
        (public); a list with only the seat's own entry (own) or none (chance)
        left, the others ``None``; else ``None``.

        >>> Field("_c", "cities", lambda ed, n: (), hidden="own").hide(["Miami", "Denver"], 1)
        [None, 'Denver']
        """
        if self.hidden == "public":
            return value
        if isinstance(value, list):
            return [v if self.hidden == "own" and p == seat else None for p, v in enumerate(value)]
        return None


@dataclass(frozen=True)
class Api:
    """A read-only accessor a rule offers: ``method`` of the edition, called
    with the state (``prop`` calls it at once, like a property).  ``public``
    accessors are offered on every player's view too: they must read only
    public information."""

    method: str
    public: bool = True
    prop: bool = False


@dataclass(frozen=True)
class Rebuild:
    """What a determinization knows besides the view, handed to a field's
    ``from_view`` method (:class:`Field`).

    ``rng``
        the sample's random source: draw every hidden value from it (and
        only from it, so a seed gives the same samples);
    ``plies``
        the game's history as the seat saw it
        (:meth:`PlayerView.history() <ttr_lab.engine.view.PlayerView.history>`'s plies);
    ``ticket_box``
        the tickets this sample puts out of play, unseen (Europe's box),
        as the ticket deal drew them.
    """

    rng: random.Random
    plies: tuple[SeenPly, ...] = ()
    ticket_box: tuple[int, ...] = ()


@dataclass
class Table:
    """What a person states about a game at a table, as the table scorer
    (:func:`~ttr_lab.tabletop.score`, ``seat is None``: a finished game,
    every fact stated) and the position editor (:func:`~ttr_lab.tabletop.seat_view`:
    one seat's knowledge, the rest filled from ``rng``) hand it to an
    edition's table hooks (:meth:`EditionBase.table_pieces`,
    :meth:`EditionBase.table_extra`); the hooks fill ``pieces``, ``scores``
    and ``extra``.

    ``facts`` holds the edition's own facts as given (keyword -> value,
    unchecked: a hook checks the ones it reads, :meth:`by_seat` for a
    ``{player: value}`` fact); ``owners`` maps a route id to its owner's
    seat; ``tickets`` and ``pending`` are every seat's tickets (the editor's
    filling included); ``scores`` starts as the route points.
    """

    players: tuple[str, ...]
    owners: Mapping[int, int]
    facts: Mapping[str, Any]
    seat: int | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    tickets: list[list[int]] = field(default_factory=list)
    pending: list[int] = field(default_factory=list)
    pieces: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def by_seat(self, key: str) -> dict[int, Any]:
        """The fact ``key`` given as ``{player name or seat: value}``, as ``{seat: value}``
        (``{}`` if not given); a :class:`~ttr_lab.errors.TtrError` names a bad player."""
        return by_seat(key, self.facts.get(key), self.players)


def by_seat(what: str, given: Any, names: tuple[str, ...]) -> dict[int, Any]:
    """``{player name or seat: value}`` -> ``{seat: value}``, every key checked.

    >>> by_seat("routes", {"Bob": [57], 0: [1]}, ("Ada", "Bob"))
    {1: [57], 0: [1]}
    """
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise TtrError(f"{what} is a dict {{player: ...}}, not {type(given).__name__}")
    out: dict[int, Any] = {}
    for key, value in given.items():
        if type(key) is int and 0 <= key < len(names):
            seat = key
        elif isinstance(key, str) and key in names:
            seat = names.index(key)
        else:
            raise NotFoundError(
                f"{what}: no player {str(key)[:60]!r} (players: {', '.join(names)}; or seats 0-{len(names) - 1})"
            )
        if seat in out:
            raise TtrError(f"{what}: {names[seat]} is given twice (by name and by seat)")
        out[seat] = value
    return out


def merged(cls: type, name: str) -> Any:
    """A rule declaration merged over the MRO, base classes first: dicts by
    key, fields by attribute (a later declaration of the same attribute
    replaces the earlier one in its place), other tuples in order."""
    out: Any = None
    for klass in reversed(cls.__mro__):
        value = klass.__dict__.get(name)
        if value is None:
            continue
        if isinstance(value, Mapping):
            out = {**(out or {}), **value}
        elif name == "fields":
            by_attr = dict(out or {})
            by_attr.update({f.attr: f for f in value})
            out = by_attr
        else:
            out = tuple(x for x in (out or ()) if x not in value) + tuple(value)
    if name == "fields":
        return tuple((out or {}).values())
    return out if out is not None else ()
