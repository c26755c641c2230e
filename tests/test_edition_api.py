"""The edition API (issue 21 B): hooks instead of private fields.

* a rule that changes who may claim a route does so in one hook,
  ``double_rule``, and every part of the engine asks it: the legal moves,
  ``why_illegal``, ``route_open_to`` agree (the claim generation read the
  engine's cache of free routes and skipped an edition's own ``double_rule``);
* the derived fields (a :class:`~ttr_lab.core.Field` with no key) are the
  engine's: after every move of every edition they equal what ``derive``
  computes from the position, and no rule writes them;
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import ttr_lab
from ttr_lab.core import find_edition
from ttr_lab.editions.rails_sails import RailsSails
from ttr_lab.editions.usa import USA
from ttr_lab.phases import Phase

from .test_plugin_classroom import cv  # noqa: F401  (the classroom variant, registered)


# ---------------------------------------------------------------- a variant's own double_rule
def _closes(ed: Any, ri: int) -> bool:
    return ed.routes[ri].id % 5 == 1  # every fifth route (ids 1, 6, 11...) is closed to everyone


class ClosedUSA(USA):
    """USA where every fifth route is closed to everyone (a house rule), told through ``double_rule`` alone."""

    name = "closed_usa_test"

    def double_rule(self, s: Any, p: int, ri: int) -> tuple[str, str] | None:
        if _closes(self, ri):
            return ("X1", f"route {self.routes[ri].id} is closed by the house rule")
        return super().double_rule(s, p, ri)


class ClosedWorld(RailsSails):
    """Rails & Sails with the same house rule (its own claim engine)."""

    name = "closed_world_test"

    def double_rule(self, s: Any, p: int, ri: int) -> tuple[str, str] | None:
        if _closes(self, ri):
            return ("X1", f"route {self.routes[ri].id} is closed by the house rule")
        return super().double_rule(s, p, ri)


def _random_plies(g: ttr_lab.GameState, rng: random.Random, plies: int) -> Any:
    """Play random moves, yielding the state before each."""
    for _ in range(plies):
        if g.is_over:
            return
        yield g
        moves = g.legal_moves
        g.push(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize("cls", [ClosedUSA, ClosedWorld], ids=["usa", "rails_and_sails"])
def test_legal_moves_ask_the_editions_double_rule(cls: type) -> None:
    """Legal claims, why_illegal and route_open_to agree under a variant's own double_rule:
    no claim of a closed route is listed (one was: claim_groups read the free-route cache)."""
    ed = cls()
    closed = {r.id for ri, r in enumerate(ed.routes) if _closes(ed, ri)}
    claims_seen = 0
    for seed in range(3):
        g = ttr_lab.GameState(ed, players=2 + seed, seed=seed)
        for s in _random_plies(g, random.Random(seed), 400):
            if s.phase is not Phase.TURN:
                continue
            listed = {m.route for m in s.legal_moves if m.verb == "claim"}
            claims_seen += len(listed)
            assert not listed & closed, f"claims of closed routes listed: {sorted(listed & closed)}"
            me = s.current_player
            for rid in closed:
                assert not s.route_open_to(rid, me)
            for m in s.legal_moves:
                assert s.why_illegal(m) is None, m
    assert claims_seen > 50  # the games did reach claims


@pytest.mark.parametrize("cls", [ClosedUSA, ClosedWorld], ids=["usa", "rails_and_sails"])
def test_why_illegal_names_the_variants_rule(cls: type) -> None:
    ed = cls()
    g = ttr_lab.GameState(ed, players=2, seed=1)
    while g.phase is not Phase.TURN:
        g.play(g.legal_moves[0])
    assert g.why_illegal("claim 1 wild:1") == ("X1", "route 1 is closed by the house rule")


def test_open_routes_follow_the_editions_rule() -> None:
    """``open_routes``: the routes somebody may still claim, as the edition's rules say."""
    ed = ClosedUSA()
    g = ttr_lab.GameState(ed, players=3, seed=2)
    open_ids = {ed.routes[ri].id for ri in ed.open_routes(g)}
    assert open_ids == {r.id for ri, r in enumerate(ed.routes) if not _closes(ed, ri)}
    base = find_edition("usa")
    assert base.open_routes(ttr_lab.new_game("usa", players=3, seed=2)) == list(range(len(base.routes)))


# ---------------------------------------------------------------- derived fields are the engine's
def _derived(g: ttr_lab.GameState) -> dict[str, Any]:
    return {f.attr: getattr(g, f.attr) for f in g.edition.fields_added if f.derived}


def _check_derived_in_step(ed: Any, seeds: range, plies: int = 300) -> int:
    """Every ply of random games: the derived fields kept during play equal ``derive``'s."""
    checked = 0
    for seed in seeds:
        g = ttr_lab.GameState(ed, players=2 + seed % 4 if ed.max_players >= 5 else 2 + seed % 2, seed=seed)
        for s in _random_plies(g, random.Random(seed), plies):
            fresh = s.copy()
            s.edition.derive(fresh)
            assert _derived(fresh) == _derived(s), f"{ed.name} seed {seed} ply {s.ply}"
            checked += 1
    return checked


@pytest.mark.parametrize("name", ["usa", "europe", "rails_and_sails", "great_lakes"])
def test_derived_fields_stay_in_step(name: str) -> None:
    ed = find_edition(name)
    assert any(f.derived for f in ed.fields_added)
    assert _check_derived_in_step(ed, range(4)) > 400


@pytest.mark.usefixtures("cv")
def test_derived_fields_stay_in_step_under_an_editions_own_rules() -> None:
    """The house-rule variants and the classroom variant (which blocks routes) keep no cache of their own."""
    for ed in (ClosedUSA(), ClosedWorld(), find_edition("classroom")):
        assert _check_derived_in_step(ed, range(3)) > 300


def test_a_derived_field_has_no_key() -> None:
    from ttr_lab.core import Field
    from ttr_lab.errors import TtrError

    with pytest.raises(TtrError, match="a derived field is not saved"):
        Field("_cache", "cache", lambda ed, n: (), derived=True)


DERIVED_WRITERS = {"derive", "mark_taken"}


def _derived_writes(path: Any, derived: set[str]) -> list[str]:
    """Assignments to a derived field (``s._free = ...``, ``s._free &= ...``) outside ``derive``/``mark_taken``."""
    import ast

    out = []
    tree = ast.parse(path.read_text())
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or fn.name in DERIVED_WRITERS:
            continue
        for node in ast.walk(fn):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AugAssign)
                else []
            )
            for t in targets:
                if isinstance(t, ast.Attribute) and t.attr in derived:
                    out.append(f"{path.name}:{node.lineno} {fn.name} writes {t.attr}")
    return out


def test_no_rule_writes_a_derived_field() -> None:
    """Only the engine's ``derive`` and ``mark_taken`` hooks write derived fields, in the
    engine, the editions and the classroom variant (whose ``block`` kept ``_free`` by hand)."""
    from pathlib import Path

    root = Path(ttr_lab.__file__).parent
    derived = {
        f.attr for name in ("usa", "europe", "rails_and_sails") for f in find_edition(name).fields_added if f.derived
    }
    assert derived == {"_free", "_rs_blocked", "_rs_touch"}
    files = [*root.glob("core/*.py"), *root.glob("editions/**/*.py")]
    files += [*Path(__file__).with_name("classroom_variant").glob("classroom_variant/*.py")]
    assert len(files) > 20
    found = [w for f in files for w in _derived_writes(f, derived)]
    assert found == []
