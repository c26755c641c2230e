"""A classroom variant of Ticket to Ride USA, packaged apart from ttr_lab: the plug-in test's edition.

It adds, through the edition API alone:

* a new rule: a steeper route table (:data:`~.edition.STEEP_ROUTE_POINTS`);
* a new move, ``block N`` (:class:`~.moves.BlockRoute`): once a game each
  player may close a free route (rule CL1);
* a public position field, ``blocked``, and a hidden one, ``objective``: each
  seat's secret city, dealt at setup, scored at the end (rule CL2);
* board marks (the closed route; the objective city on its owner's board
  only: :mod:`.marks`, through ttr_lab's board hooks) and a widget control
  for ``block``.

``register()`` makes it playable in this process (``ttr_lab.new_game("classroom")``);
the package also declares entry points (``ttr_lab.editions``,
``ttr_lab.controls``) for a ttr_lab that finds editions without
registration (issue 21).  Importing the package registers the ``block``
notation (today a move class registers its verb when it is defined);
:func:`unregister` forgets it, and a later :func:`register` needs a fresh import.
"""

from __future__ import annotations

from ttr_lab.engine.moves import move_classes, unregister_move
from ttr_lab.engine.rules import register_edition
from ttr_lab.engine.rules.registry import unregister_edition
from ttr_lab.errors import TtrError

from .edition import STEEP_ROUTE_POINTS, Classroom
from .moves import BlockRoute
from .rules import OBJECTIVE_PENALTY, OBJECTIVE_POINTS, closed_label, objective_label

__all__ = [
    "Classroom",
    "BlockRoute",
    "STEEP_ROUTE_POINTS",
    "OBJECTIVE_POINTS",
    "OBJECTIVE_PENALTY",
    "closed_label",
    "objective_label",
    "register",
    "unregister",
]


def register() -> type[Classroom]:
    """Make the variant findable (``find_edition("classroom")``) and, with the ``[lab]`` extra, its control."""
    if BlockRoute not in move_classes().get("block", ()):
        raise TtrError("the 'block' notation was unregistered: import classroom_variant afresh to register it")
    register_edition(Classroom)
    try:
        from .control import register_control
    except ImportError:  # no [lab] extra: no widgets to control
        pass
    else:
        register_control()
    return Classroom


def unregister() -> None:
    """Forget the edition, its notation and its control (for tests)."""
    unregister_edition(Classroom.name)
    unregister_move(BlockRoute)
    try:
        from .control import unregister_control
    except ImportError:
        pass
    else:
        unregister_control()
