"""The ``"build"`` control: a click on a city builds a station or a harbor
(the play widget hands city clicks to :meth:`BuildControl.city_click`).

The edition's build moves are its move classes with a ``city`` field
(Europe's ``station``, Rails & Sails' ``harbor``); what has been built is
read from ``game.buildings()``, and the pieces left from the edition's
``<accessor>_left`` accessor where it declares one (``stations_left``,
``harbors_left``).  A click offers the legal build moves for that city,
with a payment choice like a route claim; when there are none, the refusal
is the library's ``why_illegal`` answer for a probe: one of the player's
legal payments moved to that city if there is any (so the answer is about
the city), else the same build paying nothing.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...engine.moves import Move
from .base import Control, Decision, Host, hand_made, move_classes

__all__ = ["BuildControl"]


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


class BuildControl(Control):
    """Stations and harbors: a click on a city's marker."""

    name = "build"

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        ed = self.game.edition
        self.classes = move_classes(ed, field="city")
        self.verbs = frozenset(c.verb for c in self.classes)

    def click(self, city: str) -> bool:
        """Build in ``city``: at once with a single payment, else ask how to pay."""
        h, g = self.host, self.game
        if h.hand_hidden():
            return False
        legal = [m for m in g.legal_moves if m.verb in self.verbs]
        options = [m for m in legal if getattr(m, "city", None) == city]
        if len(options) == 1:
            return h.play_move(options[0])
        if options:
            return h.choose_payment(options, f"{options[0].verb.capitalize()} in {city}")
        reasons: list[tuple[str, str, str]] = []
        for cls in self.classes:
            probe = self._probe(cls, city, legal)
            why = g.why_illegal(probe) if probe is not None else None
            if why is not None:
                reasons.append((cls.verb, *why))
        if not reasons:  # the library lists no build here, yet finds nothing against the probe
            return h.refuse(f"No legal way to build in {city} now.")
        text = "; ".join(f"Cannot build {_a(verb)} in {city} (rule {rule}): {reason}" for verb, rule, reason in reasons)
        return h.refuse(text, rule=reasons[0][1])

    def city_click(self, city: str) -> bool:
        """A click on a city's marker builds there (:meth:`click`)."""
        return self.click(city)

    def _probe(self, cls: type[Move], city: str, legal: list[Move]) -> Move | None:
        """A move of ``cls`` in ``city`` to ask ``why_illegal`` about."""
        for m in legal:
            if type(m) is cls:
                same: Any = m  # a dataclass with a ``city`` field
                moved: Move = dataclasses.replace(same, city=city)
                return moved
        return hand_made(cls, city=city, cards=())

    # ------------------------------------------------------------------ display
    def turn_hint(self) -> str:
        kinds = [kind for kind, _ in self.game.edition.buildings]
        return "".join(f" or click a city to build {_a(kind)}" for kind in kinds)

    def score_columns(self, seat: int) -> list[tuple[str, str]]:
        g = self.game
        built = g.buildings()
        api = g.edition.state_api
        cols = []
        for kind, accessor in g.edition.buildings:
            n = sum(1 for q in built.get(kind, {}).values() if q == seat)
            left = f", {getattr(g, f'{accessor}_left')(seat)} left" if f"{accessor}_left" in api else ""
            cols.append((f"{kind}s", f"{n} built{left}"))
        return cols

    def refresh(self, now: Decision) -> None:
        """Nothing to show: the city markers are the control."""
