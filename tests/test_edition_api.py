"""The edition API (issue 21 B): hooks instead of private fields.

* a rule that changes who may claim a route does so in one hook,
  ``double_rule``, and every part of the engine asks it: the legal moves,
  ``why_illegal``, ``route_open_to`` agree (the claim generation read the
  engine's cache of free routes and skipped an edition's own ``double_rule``);
* the derived fields (a :class:`~ttr_lab.engine.rules.Field` with no key) are the
  engine's: after every move of every edition they equal what ``derive``
  computes from the position, and no rule writes them;
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import ttr_lab
from ttr_lab.editions.rails_sails import RailsSails
from ttr_lab.editions.usa import USA
from ttr_lab.engine.phases import Phase
from ttr_lab.engine.rules import find_edition

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
    from ttr_lab.engine.rules import Field
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
    files = [*root.glob("engine/rules/*.py"), *root.glob("editions/**/*.py")]
    files += [*Path(__file__).with_name("classroom_variant").glob("classroom_variant/*.py")]
    assert len(files) > 20
    found = [w for f in files for w in _derived_writes(f, derived)]
    assert found == []


# ---------------------------------------------------------------- accessors: game.ext, view.ext, by name
def test_shared_classes_are_never_patched() -> None:
    """Playing every edition adds nothing to GameState or PlayerView (accessors were set on them
    at run time, a name they already had silently skipped); each edition with accessors gets
    subclasses of its own, holding exactly them."""
    from ttr_lab.engine.state import GameState, game_class
    from ttr_lab.engine.view import PlayerView, view_class

    before = (dict(vars(GameState)), dict(vars(PlayerView)))
    for name in ("usa", "europe", "rails_and_sails", "great_lakes"):
        g = ttr_lab.new_game(name, players=2, seed=1)
        g.view(0)
    assert (dict(vars(GameState)), dict(vars(PlayerView))) == before
    europe = find_edition("europe")
    assert type(ttr_lab.new_game("europe", players=2, seed=1)) is game_class(europe)
    own = set(vars(game_class(europe))) - {"__module__", "__doc__", "__slots__", "_edition_class"}
    assert own == {"stations", "stations_of", "stations_left", "borrowed_routes", "tunnel", "box_size"}
    assert "borrowed_routes" not in vars(view_class(europe))  # secret: a game's only
    assert game_class(find_edition("usa")) is GameState and not hasattr(ttr_lab.new_game("usa"), "stations")


def test_ext_is_the_editions_declared_class() -> None:
    from ttr_lab.editions.europe import EuropeAccessors
    from ttr_lab.editions.rails_sails import RailsSailsAccessors

    g = ttr_lab.new_game("europe", players=3, seed=4)
    assert type(g.ext) is EuropeAccessors and type(g.view(1).ext) is EuropeAccessors
    assert g.ext.stations_left(2) == g.stations_left(2) == g.view(0).stations_left(2) == 3
    assert g.ext.box_size == g.box_size == 3
    w = ttr_lab.new_game("world", players=2, seed=1)
    assert type(w.ext) is RailsSailsAccessors and w.ext.harbors_left(1) == w.harbors_left(1) == 3


def test_secret_accessors_stay_off_views() -> None:
    g = ttr_lab.new_game("europe", players=2, seed=1)
    assert g.borrowed_routes(0) == {} and g.ext.borrowed_routes(0) == {}
    v = g.view(1)
    with pytest.raises(AttributeError, match="it is secret"):
        v.ext.borrowed_routes(0)
    assert not hasattr(v, "borrowed_routes") and "borrowed_routes" not in dir(v)
    assert "stations_of" in dir(v) and "borrowed_routes" in dir(g)


def test_unknown_accessor_names_the_ones_there_are() -> None:
    g = ttr_lab.new_game("world", players=2, seed=1)
    with pytest.raises(AttributeError, match=r"rails_and_sails offers no accessor 'stations' \(its accessors: box, "):
        g.ext.stations()
    with pytest.raises(AttributeError):
        g.stations()


def test_an_accessor_may_not_hide_the_games_own_members() -> None:
    """A name GameState already has (``row``) was skipped silently: now an error naming it."""
    from ttr_lab.engine.rules.accessors import Accessors
    from ttr_lab.errors import TtrError

    class RowAccessors(Accessors):
        __slots__ = ()

        def row(self) -> str:
            """Shadows GameState.row."""
            return "mine"

    class RowUSA(USA):
        name = "row_usa_test"
        accessors = RowAccessors

    with pytest.raises(TtrError, match=r"the row_usa_test accessor 'row' would hide GameState.row"):
        ttr_lab.GameState(RowUSA(), players=2, seed=1)


def test_an_editions_accessors_include_its_rules() -> None:
    from ttr_lab.editions.europe import Europe
    from ttr_lab.engine.rules.accessors import Accessors
    from ttr_lab.errors import TtrError

    class Mine(Accessors):
        __slots__ = ()

    with pytest.raises(TtrError, match=r"must include the accessors its rules declare: .*StationsAccessors"):

        class BadEurope(Europe):
            accessors = Mine

    class Combined(Europe, ClosedWorld):  # two editions' rules: their accessors are combined
        name = "combined_test"

    assert {"stations", "harbors", "trains"} <= set(Combined.accessors.__dict__) | {
        n for c in Combined.accessors.__mro__ for n in vars(c)
    }


# ---------------------------------------------------------------- who writes a position field
#: core modules that build or draw a position for every rule: setup (a new game's
#: fields) and chance (recorded or forced cards and tickets, as Decks.take and
#: Tickets.take_tickets would take them)
ENGINE_WRITERS = {"setup", "chance"}


def _declared_in() -> dict[str, set[str]]:
    """Position field -> where it is declared: a core module (``engine.rules.turns``) or an edition's package."""
    out: dict[str, set[str]] = {}
    for name in ("usa", "europe", "rails_and_sails", "great_lakes", "classroom"):
        for klass in type(find_edition(name)).__mro__:
            for f in vars(klass).get("fields", ()):
                mod = klass.__module__
                where = (
                    mod.removeprefix("ttr_lab.") if mod.startswith("ttr_lab.engine.rules") else mod.rsplit(".", 1)[0]
                )
                out.setdefault(f.attr, set()).add(where)
    return out


def _field_writes(path: Any, fields: set[str]) -> list[tuple[int, str, str]]:
    """``(line, function, field)`` for every assignment to a position field in a file."""
    import ast

    out = []
    tree = ast.parse(path.read_text())
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign):
                targets = [node.target]
            else:
                continue
            for t in targets:
                for leaf in ast.walk(t):
                    if isinstance(leaf, ast.Attribute) and leaf.attr in fields:
                        out.append((node.lineno, fn.name, leaf.attr))
    return sorted(set(out))


@pytest.mark.usefixtures("cv")
def test_rules_write_only_their_own_fields() -> None:
    """A rule writes the position fields it declares; the others change through their
    owners' mutators (``set_owner``, ``set_decision``, ``action_done``, ``give``...).
    An edition's package writes only fields declared in it (Europe's stations wrote
    ``_passes``, Rails & Sails' pieces ``_cur`` and ``_phase``), and a core module only its
    own (the tickets rule wrote the turn's ``_cur``, ``_phase`` and ``_passes``)."""
    from pathlib import Path

    declared = _declared_in()
    assert {"_owners", "_stations", "_harbors", "_blocked", "_objective"} <= set(declared)
    root = Path(ttr_lab.__file__).parent
    variant = Path(__file__).with_name("classroom_variant") / "classroom_variant"
    files = {f"engine.rules.{p.stem}": p for p in root.glob("engine/rules/*.py")}
    files.update({f"editions.{p.parent.name}/{p.stem}": p for p in root.glob("editions/*/*.py")})
    files.update({f"classroom_variant/{p.stem}": p for p in variant.glob("*.py")})
    wrong = []
    for where, path in sorted(files.items()):
        if where.removeprefix("engine.rules.") in ENGINE_WRITERS:
            continue
        owner = where if where.startswith("engine.rules.") else "ttr_lab." + where.split("/")[0]
        owner = owner.removeprefix("ttr_lab.") if owner.startswith("ttr_lab.engine.rules") else owner
        if where.startswith("classroom_variant"):
            owner = "classroom_variant"
        for line, fn, field in _field_writes(path, set(declared)):
            if owner not in declared[field]:
                wrong.append(f"{path.name}:{line} {fn} writes {field} (declared in {sorted(declared[field])})")
    assert wrong == []


# ---------------------------------------------------------------- every hook documented, with an example
def _hooks() -> list[tuple[str, Any]]:
    """``(where, function)`` for every public member each core class of :class:`Edition` defines."""
    import inspect

    from ttr_lab.engine.rules import Edition

    out = []
    for klass in Edition.__mro__:
        if not klass.__module__.startswith("ttr_lab.engine.rules"):
            continue
        for name, value in vars(klass).items():
            fn = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
            if not name.startswith("_") and inspect.isfunction(fn):
                out.append((f"{klass.__module__}.{klass.__name__}.{name}", fn))
    return out


def test_every_hook_has_a_docstring_with_an_example() -> None:
    """The hooks an edition overrides or calls: each says what it does and shows it
    (a doctest, run with the package's doctests)."""
    hooks = _hooks()
    assert len(hooks) > 130
    assert [where for where, fn in hooks if ">>>" not in (fn.__doc__ or "")] == []


def test_no_public_definition_of_core_lacks_a_docstring() -> None:
    """tools/docstring_share.py's count for ttr_lab/engine/rules (25% before issue 21 B) stays at 0."""
    import importlib.util
    from pathlib import Path

    tool = Path(__file__).resolve().parent.parent / "tools" / "docstring_share.py"
    spec = importlib.util.spec_from_file_location("docstring_share", tool)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    total, missing = module.undocumented(Path(ttr_lab.__file__).parent / "engine" / "rules")
    assert total > 190 and missing == []
