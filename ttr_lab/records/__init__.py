"""Saved games and positions, replay, chance notation and seat records.

================  =================================================================
``saved``         :class:`Record` and the position files: versioned JSON, never pickle
``replay``        records that carry their chance outcomes: written, replayed, per seat
``chance``        chance outcomes in records (a blind draw, a ticket offer, a tunnel)
``seat_binding``  the hidden cards and tickets of a seat record's replay, bound late
``samples``       the sample games shipped with the package (:func:`~ttr_lab.records.samples.load`)
================  =================================================================
"""

from .saved import (
    RECORD_FORMAT,
    Record,
    dumps,
    load_position,
    position_from_dict,
    position_to_dict,
    save_position,
    write_text,
)

__all__ = [
    "Record",
    "RECORD_FORMAT",
    "position_to_dict",
    "position_from_dict",
    "save_position",
    "load_position",
    "dumps",
    "write_text",
]
