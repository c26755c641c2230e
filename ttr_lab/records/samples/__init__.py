"""Saved games that ship with ttr_lab, for the lessons: ``samples.load("sample-game")``.

A lesson reads its saved game from the package, not from a ``data/`` folder
beside the notebook, so a notebook handed out on its own (a student copy
copied alone into an empty folder) still runs.  The files are package data
(``ttr_lab/records/samples/*.json``), one copy each: ``sample-game`` is the USA game
three greedy bots played with seed 5 (lessons 03, 04 and 06), made by
``notebooks/data/make_sample_game.py``.

>>> from ttr_lab.records import samples
>>> samples.names()
('sample-game',)
>>> record = samples.load("sample-game")
>>> record.players, record.seed, record.replay().is_over
(['Ada', 'Bob', 'Cy'], 5, True)
>>> samples.load("../maps/usa")
Traceback (most recent call last):
...
ttr_lab.errors.NotFoundError: no saved game named '../maps/usa' ships with ttr_lab (there are: sample-game)
"""

from __future__ import annotations

from importlib import resources

from ...errors import NotFoundError
from ...io.safeio import RECORD_LIMIT, read_text, record_error
from ..saved import Record

__all__ = ["names", "load"]


def names() -> tuple[str, ...]:
    """The names of the saved games that ship with ttr_lab."""
    root = resources.files(__name__)
    return tuple(sorted(p.name[: -len(".json")] for p in root.iterdir() if p.name.endswith(".json")))


def load(name: str) -> Record:
    """The shipped saved game ``name`` (one of :func:`names`), as a :class:`~ttr_lab.records.Record`.

    Raises
    ------
    NotFoundError
        If no saved game of that name ships with ttr_lab (also a ``KeyError``).
    """
    known = names()
    if not isinstance(name, str) or name not in known:
        shown = repr(name[:60]) if isinstance(name, str) else type(name).__name__
        raise NotFoundError(f"no saved game named {shown} ships with ttr_lab (there are: {', '.join(known)})")
    source = f"ttr_lab/records/samples/{name}.json"
    with resources.as_file(resources.files(__name__).joinpath(f"{name}.json")) as path:
        text = read_text(path, limit=RECORD_LIMIT, error=record_error, what="game record", name=source)
    return Record.loads(text, where=source)
