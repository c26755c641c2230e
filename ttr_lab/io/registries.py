"""One registry mechanism: names to objects, loaded when first used.

A :class:`Registry` maps names to objects: the editions
(:data:`ttr_lab.engine.rules.registry.EDITIONS`), the bots (:data:`ttr_lab.bots.BOTS`)
and the play widget's controls (:mod:`ttr_lab.widgets.controls`).  An entry
comes one of three ways:

* registered: ``BOTS.register("random", RandomBot)`` (or ``BOTS["random"] = ...``);
* lazy, as a ``"module:attribute"`` string imported on first use:
  ``BOTS.register_lazy("playout", "ttr_lab.bots.playout:PlayoutBot")``, so
  importing ttr_lab imports none of them;
* declared by an installed package's entry point in the registry's group
  (``ttr_lab.editions``, ``ttr_lab.bots``, ``ttr_lab.controls``), read when
  a name is not found among those registered (again at each such miss, so
  a package installed meanwhile is seen) or the names are listed, and
  loaded when that name is used::

      [project.entry-points."ttr_lab.editions"]
      classroom = "classroom_variant.edition:Classroom"

A name may have aliases (``"bot"`` is the greedy bot).  Looking up an
unknown name raises :class:`~ttr_lab.errors.NotFoundError` listing the known
ones; an entry point that cannot be loaded raises
:class:`~ttr_lab.errors.TtrError` naming it.  Iterating gives the names (not
the aliases) in the order they were registered; :meth:`Registry.names` lists
the aliases too.

>>> shapes = Registry("shape")
>>> shapes.register("square", 4, aliases=("box",))
4
>>> shapes.register_lazy("pi", "math:pi")
>>> shapes["box"], "pi" in shapes, "pi" in shapes.loaded
(4, True, False)
>>> round(shapes["pi"], 2), "pi" in shapes.loaded
(3.14, True)
>>> shapes["circle"]
Traceback (most recent call last):
...
ttr_lab.errors.NotFoundError: unknown shape 'circle' (known: box, pi, square)
>>> shapes.unregister("square"); list(shapes), shapes.names()
(['pi'], ('pi',))
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from ..errors import NotFoundError, TtrError, WrongTypeError

__all__ = ["Registry", "MAX_NAME"]

T = TypeVar("T")

#: the longest name a registry takes (and shows in an error)
MAX_NAME = 100
#: how many known names an error lists
_SHOWN = 60


def _label(obj: object) -> str:
    return str(getattr(obj, "__qualname__", None) or repr(obj))[:100]


class Registry(MutableMapping[str, T], Generic[T]):
    """Names to objects, with aliases, lazy entries and entry points.

    ``kind`` names an entry in messages (``"edition"``, ``"bot"``); ``group``
    is the entry-point group installed packages declare entries in (None:
    none are read); ``normalize`` turns a name as written into its key (e.g.
    ``str.lower``); ``check(name, obj)`` returns the object to keep or raises
    :class:`~ttr_lab.errors.TtrError` saying what is wrong with it (run on
    every entry, registered or loaded); ``aliases_of(obj)`` gives aliases an
    object brings itself (an edition's ``aliases``); ``api`` names the
    registering function in errors (``"register_edition"``).

    The mapping's ``reg[name] = obj`` is :meth:`register` with
    ``replace=True``; ``del reg[name]`` is :meth:`unregister` (a missing
    name is a ``KeyError``).
    """

    def __init__(
        self,
        kind: str,
        *,
        group: str | None = None,
        normalize: Callable[[str], str] | None = None,
        check: Callable[[str, Any], T] | None = None,
        aliases_of: Callable[[T], Iterable[str]] | None = None,
        api: str | None = None,
    ) -> None:
        self.kind = kind
        self.group = group
        self.api = api or f"{kind} registry"
        self._a = "an" if kind[:1] in "aeiou" else "a"
        self._normalize = normalize
        self._check = check
        self._aliases_of = aliases_of
        self._order: dict[str, None] = {}  # every name, in the order it was first registered
        self._loaded: dict[str, T] = {}
        self._lazy: dict[str, str] = {}  # name -> "module:attribute"
        self._points: dict[str, tuple[Any, ...]] = {}  # name -> the entry points declaring it, not loaded yet
        self._aliases: dict[str, str] = {}
        self._scanned = False
        #: the entries loaded so far, read-only (registering or looking a name up adds to it)
        self.loaded: Mapping[str, T] = MappingProxyType(self._loaded)

    def __repr__(self) -> str:
        return f"<Registry of {self.kind}s: {', '.join(self._order) or 'empty'}>"

    # ----------------------------------------------------------------- registering

    def register(self, name: str, obj: T, *, aliases: Iterable[str] = (), replace: bool = False) -> T:
        """Make ``obj`` the entry ``name`` (with ``aliases``) and return it.

        A name already taken by another loaded object is an error unless
        ``replace=True``; registering the same object again does nothing
        more.  A lazy or entry-point entry of that name is replaced.
        """
        key = self.key(name, where=f"{self.api}({str(name)[:50]!r})")
        where = f"{self.api}({key!r})"
        obj = self._checked(key, obj, where)
        old = self._loaded.get(key, obj)
        if old is not obj and not replace:
            raise TtrError(f"{where}: the name is taken by {_label(old)} (pass replace=True to replace it)")
        if key in self._aliases:
            raise TtrError(f"{where}: the name is an alias of {self._aliases[key]!r}")
        if old is not obj:
            self._drop_aliases(key)
        self._lazy.pop(key, None)
        self._points.pop(key, None)
        self._order[key] = None
        self._loaded[key] = obj
        self._add_aliases(key, [*aliases, *self._own_aliases(obj)], where)
        return obj

    def register_lazy(self, name: str, target: str, *, aliases: Iterable[str] = (), replace: bool = False) -> None:
        """Make ``name`` (and ``aliases``) the object at ``target``, ``"module:attribute"``,
        imported the first time the name is looked up (not now)."""
        key = self.key(name, where=f"{self.api}({str(name)[:50]!r})")
        where = f"{self.api}({key!r})"
        module, colon, attribute = target.partition(":") if isinstance(target, str) else ("", "", "")
        if not (module and colon and attribute):
            raise TtrError(f"{where}: a lazy entry is 'module:attribute', not {str(target)[:80]!r}")
        if key in self._order and not replace:
            raise TtrError(f"{where}: the name is taken (pass replace=True to replace it)")
        if key in self._aliases:
            raise TtrError(f"{where}: the name is an alias of {self._aliases[key]!r}")
        self._drop_aliases(key)
        self._loaded.pop(key, None)
        self._points.pop(key, None)
        self._order[key] = None
        self._lazy[key] = target
        self._add_aliases(key, aliases, where)

    def unregister(self, name: str) -> None:
        """Forget ``name`` and its aliases (nothing if there is none; an alias: only that alias).
        An installed package's entry point of that name is seen again when the entry points
        are read next."""
        try:
            key = self.key(name)
        except TtrError:
            return
        if key in self._aliases:  # an alias: forget only that
            del self._aliases[key]
            return
        if key not in self._order:
            return
        self._drop_aliases(key)
        for table in (self._order, self._loaded, self._lazy, self._points):
            table.pop(key, None)

    def refresh(self) -> None:
        """Read the installed packages' entry points again (a package installed since is seen)."""
        self._scanned = True
        if self.group is None:
            return
        found: dict[str, dict[str, Any]] = {}
        for point in _entry_points(self.group):
            try:
                key = self.key(point.name)
            except TtrError:
                continue  # a name no lookup could reach
            found.setdefault(key, {}).setdefault(point.value, point)
        for key in [k for k in self._points if k not in found]:
            del self._points[key], self._order[key]
        for key, points in found.items():
            if key in self._loaded or key in self._lazy or key in self._aliases:
                continue  # registered here: the entry point does not override it
            self._points[key] = tuple(points.values())
            self._order[key] = None

    # ----------------------------------------------------------------- looking up

    def key(self, name: str, *, where: str | None = None) -> str:
        """``name`` as this registry spells it (its ``normalize``), or an error if it cannot be a name."""
        prefix = f"{where}: " if where else ""
        if not isinstance(name, str):
            raise WrongTypeError(f"{prefix}{self._a} {self.kind} is named by a string, not {type(name).__name__}")
        key = self._normalize(name[: MAX_NAME * 2]) if self._normalize is not None else name
        if not key or len(key) > MAX_NAME:
            raise TtrError(
                f"{prefix}{self._a} {self.kind}'s name is 1 to {MAX_NAME} characters, not {name[:MAX_NAME]!r}"
            )
        return key

    def canonical(self, name: str) -> str:
        """The name of the entry ``name`` (a name or an alias) stands for; raises
        :class:`~ttr_lab.errors.NotFoundError` listing the known names if there is none."""
        found = self._resolve(self.key(name))
        if found is None:
            known = self.names()
            shown = ", ".join(known[:_SHOWN]) + (", ..." if len(known) > _SHOWN else "")
            raise NotFoundError(f"unknown {self.kind} {name[:MAX_NAME]!r} (known: {shown or 'none'})")
        return found

    def __getitem__(self, name: str) -> T:
        return self._load(self.canonical(name))

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        try:
            key = self.key(name)
        except TtrError:
            return False
        return self._resolve(key) is not None

    def __iter__(self) -> Iterator[str]:
        if not self._scanned:
            self.refresh()
        return iter(list(self._order))

    def __len__(self) -> int:
        if not self._scanned:
            self.refresh()
        return len(self._order)

    def __setitem__(self, name: str, obj: T) -> None:
        self.register(name, obj, replace=True)

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise NotFoundError(f"unknown {self.kind} {str(name)[:MAX_NAME]!r}")
        self.unregister(name)

    def names(self) -> tuple[str, ...]:
        """Every name and alias, sorted (the entry points read again first)."""
        self.refresh()
        return tuple(sorted({*self._order, *self._aliases}))

    @property
    def aliases(self) -> Mapping[str, str]:
        """alias -> the name it stands for (read-only)."""
        return MappingProxyType(self._aliases)

    # ----------------------------------------------------------------- inside

    def _resolve(self, key: str) -> str | None:
        """The entry ``key`` stands for: a miss reads the entry points again (a package installed
        since is seen) and loads those not loaded yet (their own aliases are known once loaded)."""
        found = self._find(key)
        if found is None:
            self.refresh()
            found = self._find(key)
        if found is None and self._aliases_of is not None and self._points:
            for other in list(self._points):
                try:
                    self._load(other)
                except TtrError:
                    pass  # named when it is asked for
            found = self._find(key)
        return found

    def _find(self, key: str) -> str | None:
        key = self._aliases.get(key, key)
        return key if key in self._order else None

    def _load(self, key: str) -> T:
        obj = self._loaded.get(key)
        if obj is not None or key in self._loaded:
            return obj  # type: ignore[return-value]  # (an entry may be None)
        target = self._lazy.get(key)
        if target is not None:
            where = f"{self.kind} {key!r} ({target})"
            loaded = _import(target, where)
        else:
            points = self._points[key]
            if len(points) > 1:
                values = " and ".join(sorted(p.value for p in points))
                raise TtrError(f"two packages declare the {self.kind} {key!r}: {values}"[:500])
            where = f"the {self.group} entry point {key} = {points[0].value}"
            try:
                loaded = points[0].load()
            except Exception as e:  # an ImportError, or any error the package raises on import
                raise TtrError(f"{where} could not be loaded: {type(e).__name__}: {e}"[:500]) from e
        obj = self._checked(key, loaded, where)
        self._lazy.pop(key, None)
        self._points.pop(key, None)
        self._loaded[key] = obj
        self._add_aliases(key, self._own_aliases(obj), where)
        return obj

    def _checked(self, key: str, obj: Any, where: str) -> T:
        if self._check is None:
            return obj  # type: ignore[no-any-return]
        try:
            return self._check(key, obj)
        except TtrError as e:
            raise TtrError(f"{where}: {e}"[:500]) from e

    def _own_aliases(self, obj: T) -> list[str]:
        return list(self._aliases_of(obj)) if self._aliases_of is not None else []

    def _add_aliases(self, key: str, aliases: Iterable[str], where: str) -> None:
        for alias in aliases:
            a = self.key(alias, where=where)
            if a == key or self._aliases.get(a) == key:
                continue
            if a in self._points:  # an alias named here wins over an installed package's entry of that name
                del self._points[a], self._order[a]
            if a in self._order or a in self._aliases:
                other = self._aliases.get(a, a)
                raise TtrError(f"{where}: the alias {a!r} is taken by the {self.kind} {other!r}")
            self._aliases[a] = key

    def _drop_aliases(self, key: str) -> None:
        for alias in [a for a, k in self._aliases.items() if k == key]:
            del self._aliases[alias]


def _import(target: str, where: str) -> Any:
    """The object at ``"module:attribute"`` (dotted attributes allowed)."""
    module, _, attribute = target.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attribute.split("."):
            obj = getattr(obj, part)
    except TtrError:
        raise  # already says what is missing (an extra, say)
    except Exception as e:
        raise TtrError(f"{where} could not be loaded: {type(e).__name__}: {e}"[:500]) from e
    return obj


def _entry_points(group: str) -> tuple[Any, ...]:
    """The installed packages' entry points of ``group`` (read now)."""
    # importlib.metadata takes tens of milliseconds to import: only when entry points are read
    from importlib import metadata

    try:
        return tuple(metadata.entry_points(group=group))
    except Exception:  # broken metadata of some installed package: no entry points from it
        return ()
