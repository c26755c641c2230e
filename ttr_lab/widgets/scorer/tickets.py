"""What a ticket typed into the scorer's search box names: free functions on an edition's tickets.

A ticket's list entry is ``"<id>: <cities> (<points>)"`` (:func:`ticket_labels`).
:func:`find_tickets` reads what a person typed: a number (with or without the
rest of its entry), the two cities in either order, or a part of the entry, in
any case; it answers the tickets meant, one when the text names one.

>>> from ttr_lab.tabletop.score_sheet import _edition
>>> usa = _edition("usa", None)
>>> labels = ticket_labels(usa)
>>> labels[1]
'1: Boston-Miami (12)'
>>> find_tickets(usa, labels, "miami-boston"), find_tickets(usa, labels, "1: anything")
([1], [1])
>>> len(find_tickets(usa, labels, "Duluth")) > 1  # several match: the widget offers each
True
"""

from __future__ import annotations

from typing import Any

from ...errors import NotFoundError, TtrError
from ...io.numerals import is_numeral

__all__ = ["ticket_labels", "find_tickets", "names_ticket"]


def ticket_labels(edition: Any) -> dict[int, str]:
    """Each ticket of ``edition``'s universe by id: its list entry, ``"1: Boston-Miami (12)"``."""
    m = edition.map
    return {t: f"{t}: {m.ticket(t).label()} ({m.ticket(t).points})" for t in edition.ticket_universe()}


def names_ticket(edition: Any, labels: dict[int, str], text: str, t: int) -> bool:
    """Whether ``text`` is ticket ``t``'s cities (either order, any case) or its whole list entry."""
    ticket = edition.map.ticket(t)
    said = text.casefold().replace("–", "-")
    cities = [c.casefold() for c in ticket.cities]
    return said == labels[t].casefold() or said in ("-".join(cities), "-".join(reversed(cities)))


def find_tickets(edition: Any, labels: dict[int, str], text: str) -> list[int]:
    """The tickets ``text`` may mean: ``[id]`` when it names one (its number, its cities, or a part
    of one entry only), else every ticket whose entry contains it (none, or several to pick from).

    Raises
    ------
    TtrError
        If ``text`` is empty, or a number that is no ticket of the edition (:class:`NotFoundError`).
    """
    text = text.strip()
    if not text:
        raise TtrError("type a ticket's number or part of its cities")
    head = text.split(":")[0].strip()
    if is_numeral(head):
        if int(head) in labels:
            return [int(head)]
        raise NotFoundError(f"there is no ticket {head} in {edition.name}")
    exact = [t for t in labels if names_ticket(edition, labels, text, t)]
    if len(exact) == 1:
        return exact
    return [t for t, label in labels.items() if text.casefold() in label.casefold()]
