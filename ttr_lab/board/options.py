"""The options of a board drawing, as one value: :class:`BoardOptions` (standard library only).

:func:`ttr_lab.board.board_figure`, :func:`ttr_lab.board.update_board`,
:func:`ttr_lab.board.board_svg` and :func:`ttr_lab.board.mimebundle` take a
``BoardOptions`` or the same options as keywords (``highlight=[1]``); either
way they build one value (:meth:`BoardOptions.of`) and pass it down.
Keywords that are not fields name an edition's marks
(:attr:`ttr_lab.board.marks.MarkStyle.keyword`: ``stations=``,
``harbors=``) and are kept in :attr:`BoardOptions.marks`, checked against
the edition when the board is drawn.

The value checks what it is given (a :class:`~ttr_lab.errors.TtrError`
naming the option) and copies it: iterables become tuples (read once, so a
generator can be given), at most :data:`MOST` items each.

>>> opts = BoardOptions.of(highlight=(r for r in [3, 1]), width=1200)
>>> opts.highlight, opts.width, opts.title
((3, 1), 1200, None)
>>> BoardOptions.of(opts, title="").title, dict(opts.replace(stations={"Paris": 0}).marks["stations"])
('', {'Paris': 0})
>>> BoardOptions.of(width=50)
Traceback (most recent call last):
...
ttr_lab.errors.WrongTypeError: board option width: a whole number of pixels from 200 to 10000 (or None), not 50
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..errors import TtrError, WrongTypeError

__all__ = ["BoardOptions", "MOST", "SIZES"]

#: at most this many highlighted routes, paths, tickets, seats or marks given by hand
MOST = 10_000
#: the picture's width and height in pixels: (least, most)
SIZES = {"width": (200, 10_000), "height": (100, 10_000)}


def _bounded(name: str, value: Any) -> tuple[Any, ...]:
    """The items of a list, tuple, set or generator (a dict gives its keys, as iterating it does), bounded."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise WrongTypeError(f"board option {name}: a list, not {type(value).__name__}")
    items = tuple(itertools.islice(value, MOST + 1))
    if len(items) > MOST:
        raise TtrError(f"board option {name}: more than {MOST} items")
    return items


def _mapping(name: str, value: Any) -> Any:
    """A copy of a mapping (read-only); anything else as given (the scene reports it)."""
    if isinstance(value, Mapping):
        if len(value) > MOST:
            raise TtrError(f"board option {name}: more than {MOST} entries")
        return MappingProxyType(dict(value))
    return value


@dataclass(frozen=True, eq=False)
class BoardOptions:
    """What a board shows and how big: every option of :func:`ttr_lab.board.board_figure`.

    ``owners``
        ``{route id: seat}`` (default: the state's ``route_owners()``).
    ``player_colors``, ``player_names``
        seat colours (default :data:`ttr_lab.board.scene.PLAYER_COLORS`) and
        names (default: the state's, else ``"Player 1"``...).
    ``highlight``
        routes (ids or Route objects) drawn with a dashed frame.
    ``paths``
        lists of route ids (or objects with ``.routes`` and a ``.name``),
        each a translucent band with its own legend entry.
    ``tickets``
        Ticket objects, ticket ids or tuples of city names: rings and a dotted line.
    ``viewer``
        the seat the board is drawn for: the edition draws that seat's
        secret marks and nobody else's; :data:`ttr_lab.board.marks.PUBLIC`
        (-1) for nobody's; None (the default) for the whole game, or a
        view's own player when a :class:`~ttr_lab.engine.view.PlayerView` is drawn.
    ``last_moves``
        halo each player's last claim or build (read from the history).
    ``marks``
        ``{keyword: {target: seat}}``: an edition's marks given by hand
        (``stations={"Paris": 0}``), replacing the position's of that kind.
    ``title``, ``width``, ``height``
        default: the map's name; 900 px wide; as tall as the map needs.
    ``show_lengths``
        write each route's length on its middle space (the plotly figure only).
    ``show_color_letters``
        write R, O, Y, G, B, P, W, K in the boxes of free routes.
    """

    owners: Mapping[int, int] | None = None
    player_colors: Sequence[str] | None = None
    player_names: Sequence[str] | None = None
    highlight: tuple[Any, ...] = ()
    paths: tuple[Any, ...] = ()
    tickets: tuple[Any, ...] = ()
    viewer: int | None = None
    last_moves: bool = True
    marks: Mapping[str, Any] = field(default_factory=dict)
    title: str | None = None
    width: int | None = None
    height: int | None = None
    show_lengths: bool = False
    show_color_letters: bool = False

    def __post_init__(self) -> None:
        def fix(name: str, value: Any) -> None:  # a frozen value: its copies are set once, here
            object.__setattr__(self, name, value)

        for name in ("highlight", "paths", "tickets"):
            fix(name, _bounded(name, getattr(self, name)))
        for name in ("player_colors", "player_names"):
            value = getattr(self, name)
            if value is not None:
                fix(name, _bounded(name, value))
        fix("owners", _mapping("owners", self.owners))
        if not isinstance(self.marks, Mapping):
            raise WrongTypeError(f"board option marks: a mapping keyword -> {{target: seat}}, not {self.marks!r:.60}")
        fix("marks", {k: _mapping(str(k), v) for k, v in self.marks.items()})
        for name in ("last_moves", "show_lengths", "show_color_letters"):
            if not isinstance(getattr(self, name), bool):
                raise WrongTypeError(f"board option {name}: True or False, not {getattr(self, name)!r:.60}")
        v = self.viewer
        if v is not None and (type(v) is not int or not -1 <= v < MOST):
            raise WrongTypeError(f"board option viewer: a seat, -1 (nobody's secrets) or None, not {v!r:.60}")
        if self.title is not None and not isinstance(self.title, str):
            raise WrongTypeError(f"board option title: a str or None, not {type(self.title).__name__}")
        for name, (least, most) in SIZES.items():
            px = getattr(self, name)
            if px is not None and (type(px) is not int or not least <= px <= most):
                raise WrongTypeError(
                    f"board option {name}: a whole number of pixels from {least} to {most} (or None), not {px!r:.60}"
                )

    @classmethod
    def of(cls, options: BoardOptions | None = None, /, **keywords: Any) -> BoardOptions:
        """``options`` (default: all defaults) with ``keywords`` changed; a keyword that is not a
        field is an edition's marks (:attr:`marks`), checked when the board is drawn."""
        if options is not None and not isinstance(options, BoardOptions):
            raise WrongTypeError(f"board options: a BoardOptions, not {type(options).__name__}")
        if options is None:
            options = _DEFAULT
        return options.replace(**keywords) if keywords else options

    def replace(self, **changes: Any) -> BoardOptions:
        """A copy with ``changes`` (fields, or an edition's mark keywords: ``stations={...}``)."""
        known = {k: v for k, v in changes.items() if k in _FIELDS}
        marks = {k: v for k, v in changes.items() if k not in _FIELDS}
        if marks:
            known["marks"] = {**self.marks, **changes.get("marks", {}), **marks}
        return dataclasses.replace(self, **known)

    def given_marks(self) -> dict[str, Any]:
        """The mark keywords given a value (``stations=None`` is the same as not giving it)."""
        return {k: v for k, v in self.marks.items() if v is not None}

    def keywords(self) -> dict[str, Any]:
        """The options as keywords, marks included (what :meth:`of` takes back)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "marks"}
        return {**out, **self.marks}


_FIELDS = frozenset(f.name for f in dataclasses.fields(BoardOptions))
_DEFAULT = BoardOptions()
