"""A ticket deck shorter than a deal (rules A5, B1): only what remains is dealt, never a ticket twice.

Issue 21 F1: ``take_tickets`` cut the deck with ``deck[: len(deck) - k]``; with
fewer than ``k`` tickets left the index went negative, so the dealt tickets
stayed in the deck as well and a later draw took one a second time.
"""

from __future__ import annotations

import random

import pytest

import ttr_lab
from ttr_lab.engine.state import GameState

from .helpers import write_map

CITIES = ["Ames", "Bly", "Cody", "Dell", "Enid", "Fargo"]
ROUTES = [
    (1, "Ames", "Bly", 2, "red"),
    (2, "Bly", "Cody", 3, "blue"),
    (3, "Cody", "Dell", 1, "gray"),
    (4, "Dell", "Enid", 4, "green"),
    (5, "Enid", "Fargo", 2, "gray"),
    (6, "Ames", "Fargo", 5, "yellow"),
]


def _map(tmp_path, n_tickets: int) -> str:
    pairs = [(a, b) for i, a in enumerate(CITIES) for b in CITIES[i + 1 :]]
    tickets = [(i + 1, a, b, 4 + i) for i, (a, b) in enumerate(pairs[:n_tickets])]
    return write_map(tmp_path / "short.json", CITIES, ROUTES, tickets)


@pytest.mark.parametrize("edition", ["usa", "europe", "rails_and_sails"])
@pytest.mark.parametrize("n_tickets", [1, 4, 5, 7])
def test_a_short_ticket_deck_never_deals_a_ticket_twice(tmp_path, edition, n_tickets):
    path = _map(tmp_path, n_tickets)
    for seed in range(6):
        g = ttr_lab.new_game(edition, players=2, seed=seed, map=path)
        rng = random.Random(seed)
        while not g.is_over and g.ply < 80:
            held = [t.id for p in range(g.n) for t in g.tickets(p)] + [t.id for t in g.pending_tickets]
            assert len(held) == len(set(held)), f"a ticket is held twice at ply {g.ply}: {held}"
            # the position survives a round trip (it raised "tickets [1] appear twice")
            GameState.from_dict(g.to_dict())
            lm = g.legal_moves
            g.push(lm[rng.randrange(len(lm))])
