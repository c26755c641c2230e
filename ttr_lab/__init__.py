"""ttr_lab: an unofficial Jupyter-first kit for learning, teaching and
analysing the board game Ticket to Ride.

Not affiliated with or endorsed by the game's publisher; it ships facts
(city names, routes, numbers) and its own drawings only.

>>> import ttr_lab
>>> game = ttr_lab.new_game("usa", players=2, seed=42)
>>> game.phase.name
'SETUP_TICKETS'
"""

# isort: off
from .io import cli_guard as cli_guard  # first: as the command line, Ctrl-C while importing is one line
# isort: on

from typing import TYPE_CHECKING, Any

from .engine.moves import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Move,
    Pass,
    StopDrawing,
    parse_move,
)
from .engine.phases import Phase
from .engine.rules import Edition, edition_names, find_edition
from .engine.state import GameState, LegalMoves, new_game
from .errors import IllegalMoveError, InvalidMoveError, MapDataError, RecordError, TtrError
from .io.lazy import lazy_attribute, lazy_dir
from .maps.loading import City, Map, Route, Ticket, available_maps, load_map

if TYPE_CHECKING:  # pragma: no cover
    from . import analysis as analysis
    from . import bots as bots
    from .editions.europe import BuildStation, DeclineTunnel, PayTunnel
    from .editions.rails_sails import BuildHarbor, ChoosePieces, ExchangePieces
    from .tabletop import score, seat_view

__version__ = "0.2.0"

__all__ = [
    "City",
    "Map",
    "Route",
    "Ticket",
    "available_maps",
    "load_map",
    "Edition",
    "edition_names",
    "find_edition",
    "TtrError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MapDataError",
    "RecordError",
    "Move",
    "Pass",
    "DrawFaceUp",
    "DrawBlind",
    "StopDrawing",
    "ClaimRoute",
    "DrawTickets",
    "KeepTickets",
    "BuildStation",
    "PayTunnel",
    "DeclineTunnel",
    "BuildHarbor",
    "ExchangePieces",
    "ChoosePieces",
    "parse_move",
    "GameState",
    "LegalMoves",
    "Phase",
    "new_game",
    "play",
    "tutorial",
    "score",
    "scorer",
    "recorder",
    "seat_view",
]


#: names imported the first time they are used (PEP 562): the editions' moves, the scorer, the
#: editor; any submodule (``ttr_lab.analysis``, ``ttr_lab.bots``...) is imported when first named
_LAZY = {
    "BuildStation": "ttr_lab.editions.europe",
    "PayTunnel": "ttr_lab.editions.europe",
    "DeclineTunnel": "ttr_lab.editions.europe",
    "BuildHarbor": "ttr_lab.editions.rails_sails",
    "ExchangePieces": "ttr_lab.editions.rails_sails",
    "ChoosePieces": "ttr_lab.editions.rails_sails",
    "score": "ttr_lab.tabletop",
    "seat_view": "ttr_lab.tabletop",
}


def __getattr__(name: str) -> Any:
    """``ttr_lab.score``, ``ttr_lab.BuildStation``, ``ttr_lab.analysis``...: imported when first asked for."""
    return lazy_attribute(globals(), _LAZY, name, submodules=True)


def __dir__() -> list[str]:
    return lazy_dir(globals(), _LAZY)


def play(edition: str = "usa", players: Any = ("You", "bot", "bot"), **kwargs: Any) -> Any:
    """Open the play widget in Jupyter: ``ttr_lab.play("usa", players=["You", "bot"])``.

    Needs the ``lab`` extra (plotly, ipywidgets, anywidget).
    """
    from .widgets import play as _play  # the widgets are optional: imported only when asked for

    return _play(edition, players=players, **kwargs)


def tutorial(edition: str = "usa", **kwargs: Any) -> Any:
    """A guided first game in Jupyter: ``ttr_lab.tutorial("usa")`` (the ``lab`` extra).

    See :mod:`ttr_lab.widgets.tutorial`.
    """
    from .widgets.tutorial import tutorial as _tutorial  # optional, like play

    return _tutorial(edition, **kwargs)


def scorer(edition: str = "usa", players: Any = ("Player 1", "Player 2"), **kwargs: Any) -> Any:
    """Open the table-game scorer in Jupyter: ``ttr_lab.scorer("usa", players=["Ada", "Bob", "Cy"])``.

    Click each player's routes (and stations, harbors), pick their tickets,
    read the breakdown (:func:`score` gives the same from a script).  Needs
    the ``lab`` extra.  (The library side, :func:`score` and the sheets, is the module
    ``ttr_lab.tabletop``.)
    """
    from .widgets.scorer import scorer as _scorer  # optional: imported only when asked for

    return _scorer(edition, players=players, **kwargs)


def recorder(edition: str = "usa", players: Any = ("Me", "Opponent"), **kwargs: Any) -> Any:
    """Enter a game move by move from one seat (recording mode): ``ttr_lab.recorder("usa",
    players=["Me", "Ann"], seat="Me", first="Ann", hand={...}, row=[...], tickets=[...])``.

    Needs the ``lab`` extra; see :mod:`ttr_lab.widgets.recorder`.
    """
    from .widgets.recorder import recorder as _recorder  # optional: imported only when asked for

    return _recorder(edition, players=players, **kwargs)
