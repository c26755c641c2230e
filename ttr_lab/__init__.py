"""ttr_lab: an unofficial Jupyter-first kit for learning, teaching and
analysing the board game Ticket to Ride.

Not affiliated with or endorsed by the game's publisher; it ships facts
(city names, routes, numbers) and its own drawings only.

>>> import ttr_lab
>>> game = ttr_lab.new_game("usa", players=2, seed=42)
>>> game.phase.name
'SETUP_TICKETS'
"""

from .data import City, Map, Route, Ticket, available_maps, load_map
from .editions import Edition, edition_names, find_edition
from .errors import IllegalMoveError, InvalidMoveError, MapDataError, RecordError, TtrError
from .moves import (
    BuildHarbor,
    BuildStation,
    ChoosePieces,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    ExchangePieces,
    KeepTickets,
    Move,
    Pass,
    PayTunnel,
    StopDrawing,
    parse_move,
)
from .state import GameState, LegalMoves, Phase, new_game

__version__ = "0.1.0"

__all__ = [
    "City", "Map", "Route", "Ticket", "available_maps", "load_map",
    "Edition", "edition_names", "find_edition",
    "TtrError", "IllegalMoveError", "InvalidMoveError", "MapDataError", "RecordError",
    "Move", "Pass", "DrawFaceUp", "DrawBlind", "StopDrawing", "ClaimRoute", "DrawTickets",
    "KeepTickets", "BuildStation", "PayTunnel", "DeclineTunnel", "BuildHarbor",
    "ExchangePieces", "ChoosePieces", "parse_move",
    "GameState", "LegalMoves", "Phase", "new_game", "play",
]


def play(edition: str = "usa", players=("You", "bot", "bot"), **kwargs):  # noqa: ANN001, ANN201
    """Open the play widget in Jupyter: ``ttr_lab.play("usa", players=["You", "bot"])``.

    Needs the ``lab`` extra (plotly, ipywidgets, anywidget).
    """
    from .widgets import play as _play

    return _play(edition, players=players, **kwargs)
