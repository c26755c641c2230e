"""Ticket to Ride USA (2004) and the USA 1910 variants (rules B1, B2).

The ``variant`` option picks the ticket deck and bonuses:

================  ===========  =============  ===========  =====================
variant           deck         setup keep     draw keep    bonuses
================  ===========  =============  ===========  =====================
``"usa"``         30 base      3 / 2          3 / 1        Longest Path 10
``"1910"``        35 "1910"    3 / 2          3 / 1        Globetrotter 15
``"mega"``        all 69       5 / 3          4 / 1        both
``"big_cities"``  35           4 / 2          4 / 1        none
================  ===========  =============  ===========  =====================

Examples
--------
>>> from ttr_lab.editions import find_edition
>>> mega = find_edition("mega")
>>> len(mega.ticket_deck()), mega.setup_tickets, mega.draw_tickets
(69, (5, 3), (4, 1))
>>> find_edition("usa").longest_path_bonus, find_edition("1910").globetrotter_bonus
(10, 15)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...engine.cards import STANDARD_CARD_TYPES
from ...engine.rules.base import check_choice
from .globetrotter import Globetrotter

__all__ = ["USA", "USA_CARD_TYPES", "Globetrotter"]

#: The cards of USA (and Europe): eight colours and the locomotive.
USA_CARD_TYPES = STANDARD_CARD_TYPES

_VARIANTS = {
    # deck label, setup (deal, keep), draw (k, keep), longest path bonus, globetrotter bonus, title
    "usa": ("base", (3, 2), (3, 1), 10, 0, "Ticket to Ride USA"),
    "1910": ("1910", (3, 2), (3, 1), 0, 15, "USA 1910"),
    "mega": ("mega", (5, 3), (4, 1), 10, 15, "USA 1910 Mega Game"),
    "big_cities": ("big_cities", (4, 2), (4, 1), 0, 0, "USA 1910 Big Cities"),
}


class USA(Globetrotter):
    """Ticket to Ride USA, with the 1910 variants as the ``variant`` option.

    Options: ``variant`` (``"usa"``, ``"1910"``, ``"mega"``, ``"big_cities"``),
    ``max_consecutive_resets`` (None = unlimited, the published rule; 3 = the
    Portuguese summary / digital rule, C1), ``first_player`` (seat or
    ``"random"``, C2), ``deal_row_after_tickets`` (C3),
    ``allow_single_draw`` (C6), ``map`` (a map file path: play these rules
    on a custom classroom map), ``tiebreak`` (what breaks a tie after
    completed tickets when no single Longest Path card holder decides:
    ``"longest_path"`` compares path lengths, ``"shared"`` shares the win; B2).
    """

    name: ClassVar[str] = "usa"
    map_id: ClassVar[str] = "usa"
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "usa_1910": {"variant": "1910"},
        "1910": {"variant": "1910"},
        "mega": {"variant": "mega"},
        "mega_game": {"variant": "mega"},
        "usa_mega": {"variant": "mega"},
        "big_cities": {"variant": "big_cities"},
        "usa_big_cities": {"variant": "big_cities"},
        "digital": {"max_consecutive_resets": 3},
    }
    option_defaults: ClassVar[Mapping[str, Any]] = {
        **Globetrotter.option_defaults,
        "variant": "usa",
        "tiebreak": "longest_path",
    }
    deck_label: str = "base"

    def _check_options(self, opts: dict[str, Any]) -> None:
        super()._check_options(opts)
        check_choice(opts, "variant", tuple(_VARIANTS))
        check_choice(opts, "tiebreak", ("longest_path", "shared"))

    def _setup_parameters(self) -> None:
        deck, setup, draw, lp, gt, _ = _VARIANTS[self.options["variant"]]
        self.card_types = USA_CARD_TYPES
        self.deck_composition = (tuple((i, 12) for i in range(8)) + ((8, 14),),)
        self.deck_label = deck
        self.setup_tickets = setup
        self.draw_tickets = draw
        self.longest_path_bonus = lp
        self.globetrotter_bonus = gt

    @property
    def title(self) -> str:  # type: ignore[override]
        return _VARIANTS[self.options["variant"]][5]

    def ticket_deck(self) -> tuple[int, ...]:
        """The variant's deck; a custom map without that deck label uses all
        its two-city tickets."""
        if self.deck_label in self.map.decks:
            return tuple(t.id for t in self.map.deck(self.deck_label))
        return tuple(t.id for t in self.map.tickets if not t.is_tour)
