"""A move holds whole numbers as ``int`` and nothing else (issue 21 F2), and
``push``, the unchecked path, fails with the library's error (issue 21 F3).

``DrawFaceUp(2.0) == DrawFaceUp(2)`` and ``DrawFaceUp(True) == DrawFaceUp(1)``
in Python, so a move holding a float, a bool or an int subclass (NumPy's
integers compare the same way) would be found in ``list(game.legal_moves)``
while ``play`` refuses it.  Every move's constructor refuses such fields
(:class:`~ttr_lab.errors.InvalidMoveError`), for the base moves and every
edition's: the tests take the moves from the legal moves of real positions,
so a new move class is covered when an edition offers it.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Iterator

import pytest

import ttr_lab
from ttr_lab import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    KeepTickets,
    TtrError,
)
from ttr_lab.engine.moves import Move

from .helpers import past_setup

EDITIONS = ["usa", "usa_1910", "europe", "rails_and_sails", "great_lakes"]


class Whole(int):
    """An int subclass, as a NumPy integer stands for one: equal to the int."""


@functools.cache
def sample(edition: str) -> tuple[dict[type, list[Move]], int, list[Move]]:
    """Seeded random games from the setup to the end (every decision they
    pass through: keeps, tunnels, pieces, harbors...): up to 6 legal moves
    of every kind, how many legal moves were generated, and those of them
    the constructor would refuse."""
    offered: dict[type, list[Move]] = {}
    generated, malformed = 0, []
    for seed in (1, 2):
        g = ttr_lab.new_game(edition, players=2 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            moves = g.legal_moves
            for m in itertools.islice(moves, 300):
                generated += 1
                if m.problem() is not None:
                    malformed.append(m)
                kind = offered.setdefault(type(m), [])
                if len(kind) < 6 and m not in kind:
                    kind.append(m)
            g.push(moves[rng.randrange(len(moves))])
    return offered, generated, malformed


def swaps(value: object) -> Iterator[object]:
    """``value`` with one whole number in it replaced by an equal non-int."""
    if type(value) is int:
        yield float(value)
        yield Whole(value)
        if value in (0, 1):
            yield bool(value)
    elif type(value) is tuple:
        for i, item in enumerate(value):
            for other in swaps(item):
                yield (*value[:i], other, *value[i + 1 :])


def built_around(move: Move, **changes: object) -> Move:
    """A copy of ``move`` with ``changes``, built around the constructor."""
    copy = object.__new__(type(move))
    for f in dataclasses.fields(move):
        object.__setattr__(copy, f.name, changes.get(f.name, getattr(move, f.name)))
    return copy


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_move_equal_to_a_legal_one_holds_another_number_type(edition):
    """For a sample of every kind of legal move: each whole number in it,
    swapped for an equal float, bool or int subclass, is refused by the
    constructor, though the move would compare equal to the legal one."""
    offered = sample(edition)[0]
    with_fields = {t for t in ttr_lab.find_edition(edition).move_types if dataclasses.fields(t)}
    assert with_fields <= set(offered), with_fields - set(offered)  # every kind of move the edition has
    checked = 0
    for kind, moves in offered.items():
        for move in moves:
            for f in dataclasses.fields(move):
                for other in swaps(getattr(move, f.name)):
                    assert built_around(move, **{f.name: other}) == move  # why it matters
                    with pytest.raises(InvalidMoveError, match=f"malformed {kind.__name__} move"):
                        dataclasses.replace(move, **{f.name: other})
                    checked += 1
    assert checked > 20


def test_the_issues_examples():
    g = past_setup(ttr_lab.new_game("usa", players=2, seed=1))
    assert DrawFaceUp(2) in list(g.legal_moves)
    for slot in (2.0, True, Whole(2)):
        with pytest.raises(InvalidMoveError, match="a face-up slot is a whole number"):
            DrawFaceUp(slot)
    with pytest.raises(InvalidMoveError, match=r"card count must be a whole number .*\(red:2.0\)"):
        ClaimRoute(3, (("red", 2.0),))
    with pytest.raises(InvalidMoveError, match="tickets are a tuple of whole-number ids"):
        KeepTickets((1, True))


def test_from_sorted_checks_like_the_constructor_and_checks_the_order():
    assert KeepTickets.from_sorted((3, 17)) == KeepTickets((17, 3))
    for bad in ((3.0, 17), (3, True), [3, 17], (3, 3)):
        with pytest.raises(InvalidMoveError, match="malformed KeepTickets move"):
            KeepTickets.from_sorted(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError, match=r"increasing order, not \(17, 3\)"):
        KeepTickets.from_sorted((17, 3))


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_generated_move_is_well_formed(edition):
    """Move generation builds claims and keeps without the constructor's
    checks: every move generated is one the constructor would build."""
    offered, generated, malformed = sample(edition)
    assert generated > 1000 and malformed == []
    for moves in offered.values():
        for move in moves:
            assert dataclasses.replace(move) == move and str(dataclasses.replace(move)) == str(move)


# ---------------------------------------------------------------------------- push (issue 21 F3)
def usa_turn() -> GameState:
    return past_setup(ttr_lab.new_game("usa", players=2, seed=1))


def pushed(g: GameState, move: object) -> IllegalMoveError:
    """``push(move)`` raises IllegalMoveError and leaves the game as it was."""
    before, ply, legal = g.to_dict(), g.ply, list(g.legal_moves)
    with pytest.raises(IllegalMoveError) as e:
        g.push(move)  # type: ignore[arg-type]
    assert isinstance(e.value, TtrError)
    assert g.to_dict() == before and g.ply == ply and list(g.legal_moves) == legal
    return e.value


@pytest.mark.parametrize(
    "move, rule, reason",
    [
        (built_around(DrawFaceUp(2), slot=2.0), "notation", "a face-up slot is a whole number, not 2.0"),
        (built_around(ClaimRoute(1, (("red", 1),)), cards=(("red", 1.0),)), "notation", "card count must be"),
        (built_around(DrawBlind(), pile=0), "notation", "a pile is named by a string, not 0"),
        (DrawFaceUp(99), "A2", "there is no face-up slot 99"),
        (ClaimRoute(9999, (("red", 1),)), "A4", "there is no route 9999 on the usa map"),
    ],
    ids=["float-slot", "float-count", "int-pile", "no-such-slot", "no-such-route"],
)
def test_push_of_a_move_it_cannot_apply_is_the_librarys_error(move, rule, reason):
    """It raised TypeError, IndexError or KeyError (the position restored)."""
    err = pushed(usa_turn(), move)
    assert err.rule == rule and reason in err.reason


@pytest.mark.parametrize("thing", ["faceup 2", None, 2.0, ("faceup", 2)], ids=repr)
def test_push_of_something_that_is_not_a_move(thing):
    err = pushed(usa_turn(), thing)
    assert err.rule == "notation" and err.reason.startswith("push takes a Move, not ")


def test_push_still_trusts_a_well_formed_move_and_a_bug_is_not_disguised(monkeypatch):
    g = usa_turn()
    g.push(DrawBlind())  # legal: applied
    assert g.ply == 3
    before = g.to_dict()

    def broken(self, state, seat, card):
        raise RuntimeError("a bug in a rule")

    monkeypatch.setattr(type(g.edition), "give", broken)  # the blind draw's card, taken, never reaches a hand
    with pytest.raises(RuntimeError, match="a bug in a rule"):
        g.push(DrawBlind())  # legal here, so the rule's own error propagates
    assert g.to_dict() == before and g.ply == 3
