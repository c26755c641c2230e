"""A sample's state: the saved position of a guess
(:meth:`Knowledge.sample <ttr_lab.analysis.hidden.Knowledge.sample>`), and the
state built from it.

The first sample of a :class:`~ttr_lab.analysis.hidden.Knowledge` goes
through :meth:`GameState.from_dict <ttr_lab.engine.state.GameState.from_dict>`
(every field checked, ``problems() == []``).  The later ones copy it and
set the hidden fields (hands, decks, tickets, seed, and the edition's own
fields rebuilt from the view, with the same draws), then derive the rest:
field for field the state ``from_dict`` would build
(``tests/test_ticket_chain.py``), at a small part of the cost.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from ...engine.position import options_to_json
from ...engine.rules import Rebuild
from ...engine.state import GameState
from ...errors import TtrError

if TYPE_CHECKING:  # pragma: no cover
    from .determinize import Knowledge
    from .ticket_knowledge import TicketDeal

__all__ = ["position", "build"]


def position(
    know: Knowledge, hands: list[Counter[str]], decks: list[list[str]], deal: TicketDeal, seed: int, rng: random.Random
) -> dict[str, Any]:
    """The saved position (``ttr_lab.position``) of a sample."""
    v, ed = know.view, know.ed
    piles = ed.pile_names
    return {
        "format": "ttr_lab.position",
        "version": 1,
        "edition": ed.name,
        "options": options_to_json(ed),
        "players": list(v.player_names),
        "seed": seed,
        "phase": v.phase.name.lower(),
        "current": v.current_player,
        **{k: c for k, c in v.counters.items() if k != "first_player"},
        "first_player": v.counters["first_player"],
        "decks": {piles[k]: decks[k] for k in range(know.npiles)},
        "discards": {piles[k]: list(v.discard_cards(k)) for k in range(know.npiles)},
        "row": list(v.row),
        "hands": [dict(sorted((c, k) for c, k in h.items() if k)) for h in hands],
        "tickets": [list(t) for t in deal.tickets],
        "pending": list(deal.pending),
        "setup_deal": [list(t) for t in deal.setup_deal],
        "ticket_deck": list(deal.deck),
        "owners": {str(r): o for r, o in sorted(v.route_owners().items())},
        "pieces": list(know.supply),
        "scores": list(v.scores),
        "final_turns_left": v.final_turns_left,
        "extra": ed.extra_from_view(v, Rebuild(rng, know.plies, deal.box)),
    }


def build(
    know: Knowledge, hands: list[Counter[str]], decks: list[list[str]], deal: TicketDeal, seed: int, rng: random.Random
) -> GameState:
    """The state of a sample (see the module doc): checked by ``from_dict``
    the first time, a copy of the first with the hidden fields set after."""
    tpl = know._template
    if tpl is None:
        s = GameState.from_dict(position(know, hands, decks, deal, seed, rng), "sample")
        know._template = s.copy()
        return s
    ed = know.ed
    extra = ed.extra_from_view(know.view, Rebuild(rng, know.plies, deal.box)) if ed.fields_added else {}
    index = ed.card_index
    width = len(ed.card_types)
    rows = []
    for h in hands:
        row = [0] * width
        for name, k in h.items():
            if k < 0:
                raise TtrError(f"a sample gave a hand {k} {name} cards")
            row[index[name]] = k
        rows.append(tuple(row))
    s = tpl.copy()
    s.seed = seed
    s._hands = tuple(rows)
    s._decks = tuple(tuple(index[c] for c in cards) for cards in decks)
    s._tickets = tuple(tuple(t) for t in deal.tickets)
    s._pending = tuple(deal.pending)
    s._setup_deal = tuple(tuple(t) for t in deal.setup_deal)
    s._tdeck = tuple(deal.deck)
    n = s.n
    for f in ed.fields_added:  # the edition's own fields, as from_dict loads them (Europe's box, ...)
        if f.key:
            setattr(s, f.attr, f.load(ed, n, extra[f.key]))
    if extra:
        ed.derive(s)
    return s
