"""An edition defined entirely outside the package: a classroom variant with
a move, a position field, an accessor, a scoring term and a view field of its
own.  Nothing generic knows about it, yet every tool works: legal moves,
notation, undo, positions, records, views, bots and scoring."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import ttr_lab
from ttr_lab.bots import make_bot, play_game
from ttr_lab.editions.usa import USA
from ttr_lab.engine.moves import Move, unregister_move
from ttr_lab.engine.rules import Api, Edition, Field, register_edition
from ttr_lab.engine.rules.registry import unregister_edition
from ttr_lab.engine.scoring import network
from ttr_lab.records import Record

from .helpers import snapshot


@pytest.fixture(scope="module")
def bonus_city():
    """Register the variant for this module's tests, and forget it afterwards."""

    @dataclass(frozen=True, slots=True, repr=False)
    class MarkCity(Move):
        """Mark a city (once per game): +5 at the end if your routes reach it."""

        city: str
        verb: ClassVar[str] = "mark"
        rank: ClassVar[float] = 10.5

        @classmethod
        def parse(cls, args: list[str], text: str) -> Move | None:
            return cls(" ".join(args)) if args else None

        def problem(self) -> str | None:
            return None if isinstance(self.city, str) else f"a city is a string, not {self.city!r}"

        def _fields(self) -> tuple[Any, ...]:
            return (self.city,)

        def __str__(self) -> str:
            return f"mark {self.city}"

        def describe(self, state: Any) -> str:
            return f"mark {self.city} as a bonus city"

    def load(ed: Any, n: int, data: Any) -> tuple[str, ...]:
        if not isinstance(data, list) or len(data) != n or not all(isinstance(c, str) for c in data):
            raise ttr_lab.TtrError("expected one city name (or '') per player")
        return tuple(data)

    class BonusCity(Edition):
        moves = {MarkCity: ("check_mark", "apply_mark")}
        turn_actions = {"mark_groups": MarkCity.rank}
        fields = (Field("_marked", "marked", lambda ed, n: ("",) * n, lambda ed, v: list(v), load),)
        api = {"marked_city": Api("marked_city")}

        def marked_city(self, s: Any, player: int) -> str | None:
            return s._marked[s.seat(player)] or None

        def mark_groups(self, s: Any) -> list[Any]:
            if s._marked[s._cur]:
                return []
            moves = [MarkCity(c) for c in sorted(self.city_names)]
            return [(len(moves), lambda m: m, moves)]

        def check_mark(self, s: Any, move: MarkCity) -> tuple[str, str] | None:
            if s._phase != ttr_lab.Phase.TURN:
                return self.phase_error(s)
            if move.city not in self.city_names:
                return ("X1", f"there is no city {move.city!r}")
            if s._marked[s._cur]:
                return ("X1", "a player marks one city per game")
            return None

        def apply_mark(self, s: Any, move: MarkCity) -> None:
            p = s._cur
            s._marked = s._marked[:p] + (move.city,) + s._marked[p + 1 :]
            s._passes = 0
            self.end_turn(s)

        def score_terms(self, s: Any, player: int, tickets: Any) -> tuple[tuple[str, int], ...]:
            city = s._marked[player]
            reached = bool(city) and city in network(s, player)
            own = ((f"bonus city {city}", 5 if reached else 0),) if city else ()
            return own + super().score_terms(s, player, tickets)

        def view_fields(self, s: Any, player: int) -> dict[str, Any]:
            return {**super().view_fields(s, player), "marked": list(s._marked)}

        def problems(self, s: Any) -> list[str]:
            out = super().problems(s)
            out += [f"no city {c!r}" for c in s._marked if c and c not in self.city_names]
            return out

    @register_edition
    class Classroom(BonusCity, USA):
        name: ClassVar[str] = "classroom_bonus"
        title: ClassVar[str] = "USA with a bonus city"
        aliases: ClassVar[dict[str, dict[str, Any]]] = {"bonus_city": {}}

    yield Classroom, MarkCity
    unregister_edition("classroom_bonus")
    unregister_move(MarkCity)


def test_the_variant_plays_through_every_generic_tool(bonus_city):
    Classroom, MarkCity = bonus_city
    g = ttr_lab.new_game("bonus_city", players=3, seed=4)
    assert isinstance(g, ttr_lab.GameState) and isinstance(g.edition, Classroom)
    while g.phase == ttr_lab.Phase.SETUP_TICKETS:
        g.play(g.legal_moves[0])
    before = snapshot(g)
    mark = ttr_lab.parse_move("mark Kansas City")
    assert mark == MarkCity("Kansas City") and mark in g.legal_moves
    assert g.describe(mark) == "mark Kansas City as a bonus city"
    g.play(mark)
    assert g.marked_city(0) == "Kansas City" and g.view(1).marked_city(0) == "Kansas City"
    assert g.view(2).to_dict()["marked"] == ["Kansas City", "", ""]
    assert g.why_illegal("mark Atlantis") is not None
    g.pop()
    assert snapshot(g) == before  # exact undo, the new field included
    g.play(mark)
    # positions and records round-trip through JSON, the new field under "extra"
    d = json.loads(json.dumps(g.to_dict()))
    assert d["extra"] == {"marked": ["Kansas City", "", ""]}
    assert ttr_lab.GameState.from_dict(d).to_dict() == g.to_dict()
    with pytest.raises(ttr_lab.RecordError, match="no city 'Atlantis'"):
        ttr_lab.GameState.from_dict({**d, "extra": {"marked": ["Atlantis", "", ""]}})
    rng = random.Random(1)
    while not g.is_over:
        g.push(g.legal_moves[rng.randrange(len(g.legal_moves))])
    assert g.problems() == []
    assert Record.loads(Record.from_state(g).dumps()).replay().to_dict() == g.to_dict()
    lines = {name for name, _ in g.outcome().players[0].adjustments}
    assert "bonus city Kansas City" in lines


def test_bots_play_the_variant(bonus_city):
    g = play_game("classroom_bonus", [make_bot("greedy", 1), make_bot("random", 2)], seed=3)
    assert g.is_over and g.problems() == []
