"""A game played on a real table: its final scores, and a position entered from one seat.

===============  =================================================================
``score_sheet``  :func:`score` and the score sheets (:func:`save_sheet`, :func:`load_sheet`)
``editor``       :func:`seat_view`: a game in progress, from the facts one seat knows
===============  =================================================================
"""

from .editor import filled_state, seat_view
from .score_sheet import (
    SCORESHEET_FORMAT,
    end_position,
    load_sheet,
    loads_sheet,
    save_sheet,
    score,
    sheet_from_dict,
    sheet_to_dict,
)

__all__ = [
    "score",
    "end_position",
    "SCORESHEET_FORMAT",
    "sheet_to_dict",
    "sheet_from_dict",
    "save_sheet",
    "load_sheet",
    "loads_sheet",
    "seat_view",
    "filled_state",
]
