"""Find editions by name: the registry every edition package joins.

Editions are immutable, so :func:`find_edition` builds each (edition,
options) pair once and keeps the most recently used ones (at most
:data:`CACHE_SIZE`), keyed by the *content* of a custom map, not its path:
an edited classroom map is a new edition.

Examples
--------
>>> from ttr_lab.core.registry import find_edition
>>> find_edition("big_cities")
find_edition('usa', variant='big_cities')
>>> find_edition("usa") is find_edition("USA")
True
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any, TypeVar

from ..data import Map, load_map
from ..errors import TtrError
from .base import EditionBase

__all__ = [
    "EDITIONS",
    "CACHE_SIZE",
    "register_edition",
    "unregister_edition",
    "edition_names",
    "find_edition",
    "canonical_name",
]

#: edition name -> class
EDITIONS: dict[str, type[EditionBase]] = {}
_ALIASES: dict[str, tuple[str, dict[str, Any]]] = {}

#: how many built editions are kept for reuse (each holds its tables and caches)
CACHE_SIZE = 16
_CACHE: OrderedDict[tuple[Any, ...], EditionBase] = OrderedDict()

E = TypeVar("E", bound=type[EditionBase])


def register_edition(cls: E) -> E:
    """Class decorator: make an edition findable by its name and aliases."""
    EDITIONS[cls.name] = cls
    _ALIASES[cls.name] = (cls.name, {})
    for alias, preset in cls.aliases.items():
        _ALIASES[alias] = (cls.name, dict(preset))
    return cls


def unregister_edition(name: str) -> None:
    """Forget an edition and its aliases (for plug-ins loaded only for a while, e.g. in tests)."""
    EDITIONS.pop(name, None)
    for alias in [a for a, (n, _) in _ALIASES.items() if n == name]:
        del _ALIASES[alias]
    for key in [k for k in _CACHE if k[0] == name]:
        del _CACHE[key]


def edition_names() -> tuple[str, ...]:
    """Every name and alias :func:`find_edition` accepts."""
    return tuple(sorted(_ALIASES))


def canonical_name(name: str) -> str:
    """``"USA 1910"`` -> ``"usa_1910"``: the spelling the registry uses."""
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def find_edition(name: str | EditionBase, **options: Any) -> EditionBase:
    """Build an edition by name or alias (``"usa"``, ``"1910"``, ``"mega"``...).

    ``map`` may be a :class:`~ttr_lab.data.Map`, a shipped map's name or the
    path of a map file (read now, because you asked for it).  Options not
    named by the edition raise :class:`~ttr_lab.errors.TtrError`.
    """
    if isinstance(name, EditionBase):
        if not options:
            return name
        options = {**name.options, **options}
        name = name.name
    if not isinstance(name, str):
        raise TtrError(f"an edition is named by a string, not {type(name).__name__}")
    key = canonical_name(name)
    if key not in _ALIASES:
        raise TtrError(f"unknown edition {name!r} (known: {', '.join(edition_names())})")
    cls_name, preset = _ALIASES[key]
    cls = EDITIONS[cls_name]
    merged = {**preset, **options}
    m = merged.get("map")
    if isinstance(m, Path) or (isinstance(m, str) and ("/" in m or m.endswith(".json"))):
        merged["map"] = load_map(m)  # a file the caller named: read it, key by its content
    elif isinstance(m, str) and m == cls.map_id:
        merged["map"] = None
    unknown = sorted(set(merged) - set(cls.option_defaults))
    if unknown:  # let the edition say which options it has
        return cls(**merged)
    full = {**cls.option_defaults, **merged}
    try:
        cache_key = (cls_name, tuple(sorted((k, _key(v)) for k, v in full.items())))
        hash(cache_key)
    except TypeError:
        return cls(**merged)
    ed = _CACHE.get(cache_key)
    if ed is None:
        ed = cls(**merged)
        _CACHE[cache_key] = ed
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(cache_key)
    return ed


def _key(value: Any) -> Any:
    if isinstance(value, Map):
        return ("map", value.digest)
    return (type(value).__name__, repr(value))
