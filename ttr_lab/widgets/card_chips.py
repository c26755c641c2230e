"""How the widgets draw cards: colours, names for people, a hand as chips.

>>> import ttr_lab
>>> g = ttr_lab.new_game("rails_and_sails", players=2, seed=1)
>>> card_label(g, "red-ship2"), card_label(g, "red-anchor"), card_label(g, "wild")
('red double ship', 'red train ⚓', 'wild')
>>> card_label(ttr_lab.new_game("usa", players=2), "loco")
'locomotive'
>>> card_look(g, None)
('#eeeeee', '#777777')
"""

from __future__ import annotations

import html
from typing import Any

from ..board.plotly import ROUTE_COLORS
from ..engine.moves import CardList

__all__ = ["card_look", "card_label", "chips", "card_chip", "WILD_WORDS"]

_GREY = ("#b0bec5", "#111111")
#: what people call a wild card, by its name in the edition (USA and Europe: ``loco``)
WILD_WORDS = {"loco": "locomotive"}


def _ink(fill: str) -> str:
    h = fill.lstrip("#")
    light = sum(w * int(h[i : i + 2], 16) for w, i in ((0.299, 0), (0.587, 2), (0.114, 4))) > 150
    return "#111111" if light else "#ffffff"


def _card_type(game: Any, name: str | None) -> Any:
    ed = game.edition
    i = ed.card_index.get(name) if name else None
    return ed.card_types[i] if i is not None else None


def card_look(game: Any, name: str | None) -> tuple[str, str]:
    """(fill, text colour) of a card: its colour's fill, grey for wilds and empty slots."""
    if name is None:
        return "#eeeeee", "#777777"
    ct = _card_type(game, name)
    colour = ct.color if ct is not None else name
    if colour in ROUTE_COLORS:
        return ROUTE_COLORS[colour], _ink(ROUTE_COLORS[colour])
    return _GREY


def card_label(game: Any, name: str | None) -> str:
    """A card's name for people: plain colours as they are, the wild card
    in the edition's word (``loco`` -> ``locomotive``, ``wild``), Rails &
    Sails cards spelled out (``red-ship2`` -> ``red double ship``)."""
    if name is None:
        return "—"
    ct = _card_type(game, name)
    if ct is not None and ct.kind == "wild":
        return WILD_WORDS.get(name, name)
    if ct is None or ct.color is None or ct.name == ct.color:
        return name
    if ct.kind == "ship":
        return f"{ct.color} {'double ship' if ct.value == 2 else 'ship ⚓'}"
    return f"{ct.color} train{' ⚓' if ct.anchor else ''}"


def card_chip(game: Any, name: str, count: int | None = None) -> str:
    """One card (or ``count`` of them) as a coloured chip of HTML."""
    fill, ink = card_look(game, name)
    ct = _card_type(game, name)
    shape = "12px" if ct is not None and ct.kind == "ship" else "4px"
    times = f" × {count}" if count is not None else ""
    return (
        f'<span class="ttr-card ttr-card-{html.escape(name)}" style="background:{fill};color:{ink};'
        f"border:1px solid #555;border-radius:{shape};padding:1px 6px;margin:1px;"
        f'display:inline-block">{html.escape(card_label(game, name))}{times}</span>'
    )


def chips(game: Any, hand: dict[str, int] | CardList) -> str:
    """A hand as coloured chips; with several piles, one line per kind of card, in the
    order of the edition's card types (Rails & Sails: trains, ships, wilds)."""
    items = list(hand.items()) if isinstance(hand, dict) else list(hand)
    if len(game.edition.pile_names) < 2:
        return " ".join(card_chip(game, n, k) for n, k in items)
    kinds = list(dict.fromkeys(ct.kind for ct in game.edition.card_types))
    rows = []
    for kind in kinds:
        part = [(n, k) for n, k in items if getattr(_card_type(game, n), "kind", kinds[0]) == kind]
        if part:
            title = html.escape(f"{kind}s")
            total = sum(k for _, k in part)
            shown = " ".join(card_chip(game, n, k) for n, k in part)
            rows.append(f'<div class="ttr-hand-{title}"><i>{title} ({total}):</i> {shown}</div>')
    return "".join(rows)
