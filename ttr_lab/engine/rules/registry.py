"""Find editions by name: the registry every edition joins.

:data:`EDITIONS` is a :class:`~ttr_lab.io.registries.Registry`: the built-in
editions are lazy entries (``"usa"`` is ``ttr_lab.editions.usa:USA``,
imported the first time it is asked for), a package brings its own by
:func:`register_edition` or by a ``ttr_lab.editions`` entry point, found
without registering (in a fresh process too: the command line, a Dask
worker, a process pool)::

    [project.entry-points."ttr_lab.editions"]
    classroom = "classroom_variant.edition:Classroom"

An edition's aliases come with it (its ``aliases``: ``"1910"`` is USA with
``variant="1910"``).  Editions are immutable, so :func:`find_edition` builds
each (edition, options) pair once and keeps the most recently used ones (at
most :data:`CACHE_SIZE`), keyed by the *content* of a custom map, not its
path: an edited classroom map is a new edition.

Examples
--------
>>> from ttr_lab.engine.rules.registry import find_edition
>>> find_edition("big_cities")
find_edition('usa', variant='big_cities')
>>> find_edition("usa") is find_edition("USA")
True
>>> EDITIONS.canonical("Rails & Sails")
'rails_and_sails'
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any, TypeVar

from ...errors import TtrError
from ...io.registries import Registry
from ...maps.loading import Map, load_map
from ..move_base import VERB_LOADERS
from ..phases import PHASE_LOADERS
from .base import EditionBase

__all__ = [
    "EDITIONS",
    "ENTRY_POINT_GROUP",
    "CACHE_SIZE",
    "register_edition",
    "unregister_edition",
    "edition_names",
    "find_edition",
    "canonical_name",
    "load_editions",
]

#: the entry-point group an installed package declares its editions in
ENTRY_POINT_GROUP = "ttr_lab.editions"


def canonical_name(name: str) -> str:
    """``"USA 1910"`` -> ``"usa_1910"``: the spelling the registry uses."""
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def _edition_class(name: str, obj: Any) -> type[EditionBase]:
    if not (isinstance(obj, type) and issubclass(obj, EditionBase)):
        raise TtrError(f"not an edition class (a subclass of ttr_lab.engine.rules.Edition): {obj!r}"[:200])
    if obj.name != name:
        raise TtrError(f"the class is the edition {obj.name!r}, not {name!r}")
    return obj


def _aliases(cls: type[EditionBase]) -> tuple[str, ...]:
    return tuple(cls.aliases)


#: edition name -> class (an alias finds its edition too; see :mod:`ttr_lab.io.registries`)
EDITIONS: Registry[type[EditionBase]] = Registry(
    "edition",
    group=ENTRY_POINT_GROUP,
    normalize=canonical_name,
    check=_edition_class,
    aliases_of=_aliases,
    api="register_edition",
)

#: the built-in editions: name, class, the aliases the class declares (known before it is imported)
BUILT_IN = (
    (
        "usa",
        "ttr_lab.editions.usa:USA",
        ("usa_1910", "1910", "mega", "mega_game", "usa_mega", "big_cities", "usa_big_cities", "digital"),
    ),
    ("europe", "ttr_lab.editions.europe:Europe", ("ttr_europe", "europe_digital")),
    (
        "rails_and_sails",
        "ttr_lab.editions.rails_sails:RailsSails",
        ("rails_sails", "rails_&_sails", "world", "rails_and_sails_world", "rails_sails_world"),
    ),
    (
        "great_lakes",
        "ttr_lab.editions.rails_sails:GreatLakes",
        ("rails_and_sails_great_lakes", "rails_sails_great_lakes"),
    ),
)
for _name, _target, _known_as in BUILT_IN:
    EDITIONS.register_lazy(_name, _target, aliases=_known_as)


def load_editions() -> None:
    """Import every registered edition (built-in, or an installed package's), so that the
    notation of their moves and their phases are known (:func:`~ttr_lab.engine.moves.parse_move`
    asks, through ``VERB_LOADERS``, before refusing an unknown verb; :class:`~ttr_lab.engine.phases.Phase`,
    through ``PHASE_LOADERS``, before refusing an unknown phase).  An edition that cannot be loaded is
    skipped here: :func:`find_edition` names its error."""
    for name in list(EDITIONS):
        try:
            EDITIONS[name]
        except TtrError:
            pass


VERB_LOADERS.append(load_editions)
PHASE_LOADERS.append(load_editions)

#: how many built editions are kept for reuse (each holds its tables and caches)
CACHE_SIZE = 16
_CACHE: OrderedDict[tuple[Any, ...], EditionBase] = OrderedDict()

E = TypeVar("E", bound=type[EditionBase])


def register_edition(cls: E) -> E:
    """Class decorator: make an edition findable by its name and aliases (an edition
    registered before under that name is replaced)."""
    EDITIONS.register(getattr(cls, "name", None) or "", cls, replace=True)
    return cls


def unregister_edition(name: str) -> None:
    """Forget an edition and its aliases (for plug-ins loaded only for a while, e.g. in tests)."""
    EDITIONS.unregister(name)
    for key in [k for k in _CACHE if k[0].name == canonical_name(name)]:
        del _CACHE[key]


def edition_names() -> tuple[str, ...]:
    """Every name and alias :func:`find_edition` accepts (installed packages' too)."""
    return EDITIONS.names()


def find_edition(name: str | EditionBase, **options: Any) -> EditionBase:
    """Build an edition by name or alias (``"usa"``, ``"1910"``, ``"mega"``...).

    ``map`` may be a :class:`~ttr_lab.maps.Map`, a shipped map's name or the
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
    cls = EDITIONS[name]
    preset = cls.aliases.get(key, {}) if key != cls.name else {}
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
        cache_key = (cls, tuple(sorted((k, _key(v)) for k, v in full.items())))
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
