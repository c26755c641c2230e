"""The play widget's controls for an edition's own decisions: an open registry, by name.

An edition names the controls its decisions need (``widget_controls``,
from its rules' ``controls`` declarations); the play widget builds each
from the factory registered under that name: a
:class:`~ttr_lab.widgets.controls.base.Control` subclass, or any callable
taking the :class:`~ttr_lab.widgets.controls.base.Host` and returning a
control.  A package that brings an edition brings its controls too, in
either of two ways:

* ``register_control("block", BlockControl)`` when it registers its edition;
* an entry point in its ``pyproject.toml``, found when the name is first
  needed (nothing is imported before)::

      [project.entry-points."ttr_lab.controls"]
      block = "classroom_variant.control:BlockControl"

ttr_lab's own controls, registered here (one module each, in this package):

* ``"build"``: :class:`~.build.BuildControl`, stations and harbors: a click
  on a city;
* ``"tunnel"``: :class:`~.tunnel.TunnelControl`, a tunnel's pay-or-decline
  decision;
* ``"piles"``: :class:`~.piles.PilesControl`, a deck button per pile and the
  refill toggle;
* ``"pieces"``: :class:`~.pieces.PiecesControl`, the secret train/ship split
  at setup;
* ``"exchange"``: :class:`~.exchange.ExchangeControl`, piece exchanges with
  the box.

A legal move that no control plays still gets one: :class:`~.more.OtherMoves`
(a button, or a dropdown when there are many), which every play widget has.
The base class and the :class:`~.base.Host` protocol (what a control may
ask of the widget) are in :mod:`ttr_lab.widgets.controls.base`.

>>> import ttr_lab
>>> ttr_lab.find_edition("europe").widget_controls
('build', 'tunnel')
>>> sorted(CONTROLS)
['build', 'exchange', 'pieces', 'piles', 'tunnel']
>>> [name for _, name in playable_editions()][:3]
['usa', 'europe', 'rails_and_sails']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, cast

from ...engine.rules.registry import EDITIONS, find_edition
from ...errors import TtrError
from ...io.registries import Registry
from .base import Control, Decision, Host, show
from .build import BuildControl
from .exchange import ExchangeControl
from .more import OtherMoves
from .pieces import PiecesControl
from .piles import PilesControl
from .tunnel import TunnelControl

__all__ = [
    "CONTROLS",
    "ENTRY_POINT_GROUP",
    "ControlFactory",
    "register_control",
    "unregister_control",
    "control_names",
    "find_control",
    "make_controls",
    "playable_editions",
    "Control",
    "Decision",
    "Host",
    "OtherMoves",
    "show",
]

#: what builds a control: called with the host widget, returns the control (a Control subclass is one)
ControlFactory = Callable[[Host], Control]
#: the entry-point group a package declares its controls in
ENTRY_POINT_GROUP = "ttr_lab.controls"


def _control_factory(name: str, obj: Any) -> ControlFactory:
    if not callable(obj):
        raise TtrError(f"the factory must be callable (a Control class), not {obj!r}"[:200])
    return cast(ControlFactory, obj)


#: every control, registered or declared by an entry point (a :class:`~ttr_lab.io.registries.Registry`)
_REGISTRY: Registry[ControlFactory] = Registry(
    "widget control", group=ENTRY_POINT_GROUP, check=_control_factory, api="register_control"
)
#: control name -> factory, for the controls registered or loaded so far (read-only: use :func:`register_control`)
CONTROLS: Mapping[str, ControlFactory] = _REGISTRY.loaded

_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}\Z")


def register_control(name: str, factory: ControlFactory, *, replace: bool = False) -> ControlFactory:
    """Make ``factory`` build the control an edition names ``name``; returns ``factory``.

    ``name`` is lower case letters, digits and ``_`` (at most 40).  A name
    already taken by another factory is an error unless ``replace=True``;
    registering the same factory again does nothing.

    >>> class Rocket(Control):
    ...     name = "rocket"
    >>> register_control("rocket", Rocket) is Rocket, "rocket" in control_names()
    (True, True)
    >>> register_control("rocket", lambda host: Rocket(host))
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: register_control('rocket'): the name is taken by Rocket (pass replace=True to replace it)
    >>> unregister_control("rocket"); "rocket" in control_names()
    False
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise TtrError(
            f"register_control({str(name)[:50]!r}): a control's name is lower case letters, digits and '_' "
            "(at most 40, starting with a letter)"
        )
    return _REGISTRY.register(name, factory, replace=replace)


def unregister_control(name: str) -> None:
    """Forget the control registered as ``name`` (nothing if there is none)."""
    _REGISTRY.unregister(name)


def control_names() -> tuple[str, ...]:
    """Every control name known: registered, or declared by an installed package's entry point."""
    return _REGISTRY.names()


def find_control(name: str) -> ControlFactory:
    """The factory registered as ``name``; else the one an installed package declares
    in the :data:`ENTRY_POINT_GROUP` entry points (loaded now, then kept)."""
    return _REGISTRY[name]


def make_controls(host: Host) -> dict[str, Control]:
    """The controls ``host.game.edition.widget_controls`` names, built for ``host``, in that order."""
    ed = host.game.edition
    out: dict[str, Control] = {}
    for name in ed.widget_controls:
        try:
            factory = find_control(name)
        except TtrError as e:
            raise TtrError(f"edition {ed.name!r} needs the widget control {name!r}: {e}") from e
        control = factory(host)
        if not isinstance(control, Control):
            raise TtrError(
                f"edition {ed.name!r}: the widget control {name!r} ({_label(factory)}) made "
                f"{type(control).__name__}, not a Control"
            )
        out[name] = control
    return out


def playable_editions() -> tuple[tuple[str, str], ...]:
    """(label, name) of every registered edition the play widget can show: those whose
    controls are all known.  The simplest first (fewest controls, then the order they
    were registered in); the label is the edition's title without "Ticket to Ride "."""
    known = set(control_names())
    found = []
    for order, name in enumerate(EDITIONS):
        try:
            ed = find_edition(name)
        except TtrError:  # an installed package's edition that does not load: not offered
            continue
        if set(ed.widget_controls) <= known:
            found.append((len(ed.widget_controls), order, _short(ed.title), name))
    return tuple((label, name) for _, _, label, name in sorted(found))


def _short(title: str) -> str:
    return title.removeprefix("Ticket to Ride ").strip() or title


def _label(factory: Any) -> str:
    return str(getattr(factory, "__qualname__", None) or repr(factory))[:100]


for _name, _factory in (
    ("build", BuildControl),
    ("tunnel", TunnelControl),
    ("piles", PilesControl),
    ("pieces", PiecesControl),
    ("exchange", ExchangeControl),
):
    register_control(_name, _factory)
