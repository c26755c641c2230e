"""What an edition's rules let you ask beyond the base API: ``game.ext``, ``view.ext``.

Each rule that keeps a position field of its own declares the queries a
person (or a bot) may ask about it as a subclass of :class:`Accessors`, with
typed methods and docstrings (Europe's stations: ``StationsAccessors``), and
names it in its ``accessors`` class attribute; an edition declares the class
combining its rules' (``EuropeAccessors``), or gets one combined for it.

``game.ext`` is that class bound to a game, ``view.ext`` to one seat's view.
A view answers the public members only: a member marked :func:`secret`
(Europe's ``borrowed_routes``, which reads the player's tickets) raises
``AttributeError`` on a view.  An IDE or mypy sees the members through the
edition's class (``cast(EuropeAccessors, game.ext)``).

The accessors are also reachable by name on the game and the view
(``game.stations()``, ``view.harbors_of(p)``): a game of an edition with
accessors is an instance of a subclass of
:class:`~ttr_lab.engine.state.GameState` made for that edition (its views of a
subclass of :class:`~ttr_lab.engine.view.PlayerView`), holding exactly them; the
shared classes are never changed.

The short form ``api = {"name": Api("edition_method")}`` (see
:class:`~ttr_lab.engine.rules.declarations.Api`) still declares an accessor as an
edition method taking the state; :class:`Accessors` looks such names up.

Examples
--------
>>> import ttr_lab
>>> g = ttr_lab.new_game("europe", players=2, seed=1)
>>> g.ext.stations(), g.ext.stations_left(0)
({}, 3)
>>> g.view(1).ext.borrowed_routes(0)
Traceback (most recent call last):
...
AttributeError: a player's view has no 'borrowed_routes': it is secret (ask the game)
>>> g.ext.harbors()
Traceback (most recent call last):
...
AttributeError: europe offers no accessor 'harbors' (its accessors: borrowed_routes, box_size, stations, stations_left, stations_of, tunnel)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ...errors import TtrError

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState
    from .base import EditionBase

__all__ = ["Accessors", "secret", "combined_accessors", "accessor_names", "accessor_members"]

F = TypeVar("F", bound=Callable[..., Any])


def secret(fn: F) -> F:
    """Mark an accessor method as secret: a game answers it, a player's view raises ``AttributeError``.

    >>> class Mine(Accessors):
    ...     @secret
    ...     def hidden_count(self) -> int:
    ...         '''Something only the whole game may tell.'''
    ...         return 3
    >>> Mine.hidden_count.secret
    True
    """

    @functools.wraps(fn)
    def guarded(self: Accessors, *args: Any, **kwargs: Any) -> Any:
        if self._viewer is not None:
            raise AttributeError(f"a player's view has no {fn.__name__!r}: it is secret (ask the game)")
        return fn(self, *args, **kwargs)

    guarded.secret = True  # type: ignore[attr-defined]
    return guarded  # type: ignore[return-value]


class Accessors:
    """An edition's own queries about a game (``game.ext``) or one seat's view of it
    (``view.ext``); a subclass per rule declares them (see the module doc).

    ``state`` is the game; ``viewer`` the seat of a view (None for the game).
    A method of a subclass reads the position through ``self.state`` and the
    rules through ``self.state.edition``; it must read only public
    information unless it is marked :func:`secret`.
    """

    __slots__ = ("_state", "_viewer")

    def __init__(self, state: GameState, viewer: int | None = None) -> None:
        self._state = state
        self._viewer = viewer

    @property
    def state(self) -> GameState:
        """The game the accessors read."""
        return self._state

    @property
    def viewer(self) -> int | None:
        """The seat of the view asking, or None for the whole game."""
        return self._viewer

    def __getattr__(self, name: str) -> Any:
        """An accessor of the short form (``api = {name: Api(method)}``): the edition's
        method, bound to the state; ``AttributeError`` naming the accessors there are."""
        if name.startswith("_"):
            raise AttributeError(name)
        ed = self._state.edition
        api = ed._plugins["api"].get(name)
        if api is None:
            known = ", ".join(sorted(ed.state_api)) or "none"
            raise AttributeError(f"{ed.name} offers no accessor {name!r} (its accessors: {known})")
        if self._viewer is not None and not api.public:
            raise AttributeError(f"a player's view has no {name!r}: it is secret (ask the game)")
        fn = getattr(ed, api.method)
        if api.prop:
            return fn(self._state)
        bound = functools.partial(fn, self._state)
        bound.__doc__ = fn.__doc__
        return bound

    def __dir__(self) -> list[str]:
        names = accessor_names(self._state.edition)
        shown = [k for k, public in names.items() if public or self._viewer is None]
        return sorted({*super().__dir__(), *shown})

    def __repr__(self) -> str:
        who = "the game" if self._viewer is None else f"seat {self._viewer}'s view"
        names = [k for k, public in accessor_names(self._state.edition).items() if public or self._viewer is None]
        return f"<{type(self).__name__} of {who}: {', '.join(sorted(names)) or 'none'}>"


def accessor_members(cls: type[Accessors]) -> dict[str, tuple[bool, bool]]:
    """``{name: (public, is a property)}`` of the accessors a class declares."""
    out: dict[str, tuple[bool, bool]] = {}
    for klass in reversed(cls.__mro__):
        if klass is Accessors or not issubclass(klass, Accessors):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_"):
                continue
            if isinstance(value, property):
                out[name] = (not getattr(value.fget, "secret", False), True)
            elif callable(value):
                out[name] = (not getattr(value, "secret", False), False)
    return out


def accessor_names(ed: EditionBase) -> dict[str, bool]:
    """``{name: public}`` for every accessor of edition ``ed`` (its class's and the short form's).

    >>> from ttr_lab.engine.rules import find_edition
    >>> sorted(accessor_names(find_edition("world")))[:4]
    ['box', 'exchanged', 'harbors', 'harbors_left']
    """
    out = {name: public for name, (public, _) in accessor_members(ed.accessors).items()}
    out.update({name: api.public for name, api in ed._plugins["api"].items()})
    return out


def combined_accessors(cls: type) -> type[Accessors]:
    """The accessors class of edition class ``cls``: the one it declares, which
    must include every class its rules declare (a :class:`~ttr_lab.errors.TtrError`
    names the one missing), or else one combining them.

    >>> from ttr_lab.engine.rules import find_edition
    >>> type(find_edition("europe")).accessors.__name__
    'EuropeAccessors'
    """
    declared: list[type[Accessors]] = []
    for klass in cls.__mro__[1:]:
        a = vars(klass).get("accessors")
        if a is not None and a not in declared:
            declared.append(a)
    own = vars(cls).get("accessors")
    if own is not None:
        if not (isinstance(own, type) and issubclass(own, Accessors)):
            raise TtrError(
                f"{cls.__name__}.accessors must be a subclass of ttr_lab.engine.rules.Accessors, not {own!r}"
            )
        missing = [a.__name__ for a in declared if not issubclass(own, a)]
        if missing:
            raise TtrError(
                f"{cls.__name__}.accessors ({own.__name__}) must include the accessors its rules declare: "
                f"{', '.join(missing)}"
            )
        return own
    leaves = [a for a in declared if not any(b is not a and issubclass(b, a) for b in declared)]
    if not leaves:
        return Accessors
    if len(leaves) == 1:
        return leaves[0]
    try:
        return type(f"{cls.__name__}Accessors", tuple(leaves), {"__slots__": (), "__module__": cls.__module__})
    except TypeError as e:
        raise TtrError(f"{cls.__name__}: its rules' accessors cannot be combined ({e}); declare accessors") from None
