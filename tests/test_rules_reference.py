"""The rules reference (``docs/rules.md``, read by :mod:`ttr_lab.engine.reference`)
documents every rule id the engine can cite, and ``explain`` returns the
right section.

Only the public API is used (``new_game``, ``legal_moves``, ``push``,
``why_illegal``, the move classes, ``EDITIONS`` and its ``option_defaults``),
so these tests keep working while the engine's internals change.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

import ttr_lab
from ttr_lab.editions import EDITIONS
from ttr_lab.engine.reference import explain, rule_ids, rule_title
from ttr_lab.errors import TtrError

PACKAGE = Path(ttr_lab.__file__).resolve().parent
DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
RULE_ID = re.compile(r"[ABC]\d{1,2}")
EDITION_NAMES = ("usa", "1910", "mega", "big_cities", "europe", "rails_and_sails", "great_lakes")
EXPECTED_IDS = (
    *(f"A{i}" for i in range(1, 8)),
    *(f"B{i}" for i in range(1, 6)),
    *(f"C{i}" for i in range(1, 17)),
    "notation",
)


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


# ---------------------------------------------------------------------- every cited id is documented
def cited_in_source() -> dict[str, list[str]]:
    """String constants of the package that look like rule ids, with where they are."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_ID.fullmatch(node.value):
                found.setdefault(node.value, []).append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_every_rule_id_in_the_source_is_documented() -> None:
    cited = cited_in_source()
    assert {"A1", "A2", "A4", "A5"} <= set(cited), f"the scan found too little: {sorted(cited)}"
    known = set(rule_ids())
    missing = {rid: where for rid, where in cited.items() if rid not in known}
    assert not missing, f"rule ids cited in ttr_lab but without a section in docs/rules.md: {missing}"


def _probes(legal: list[Any], pool: list[Any]) -> Iterable[Any]:
    """Moves and texts to ask ``why_illegal`` about: most are illegal here."""
    yield from (
        ttr_lab.Pass(),
        ttr_lab.StopDrawing(),
        ttr_lab.DrawTickets(),
        ttr_lab.DrawBlind(),
        ttr_lab.DrawBlind("trains"),
        ttr_lab.DrawBlind("ships"),
        ttr_lab.DrawBlind("moon"),
        ttr_lab.DrawFaceUp(1),
        ttr_lab.DrawFaceUp(6),
        ttr_lab.DrawFaceUp(9),
        ttr_lab.DrawFaceUp(1, "trains"),
        ttr_lab.DrawFaceUp(2, "ships"),
        ttr_lab.DrawFaceUp(3, "moon"),
        ttr_lab.ClaimRoute(1, (("red", 1),)),
        ttr_lab.ClaimRoute(2, (("red", 2),)),
        ttr_lab.ClaimRoute(3, (("loco", 3),)),
        ttr_lab.ClaimRoute(4, (("wild", 4),)),
        ttr_lab.ClaimRoute(99999, (("red", 1),)),
        ttr_lab.ClaimRoute(5, (("unicorn", 1),)),
        ttr_lab.ClaimRoute(6, ()),
        ttr_lab.ClaimRoute(7, (("red", 1), ("red", 1))),
        ttr_lab.ClaimRoute(8, (("red", 40),)),
        ttr_lab.ClaimRoute(9, (("red-ship2", 1),)),
        ttr_lab.BuildStation("Wien", (("red", 1),)),
        ttr_lab.BuildStation("Paris", (("red", 1), ("blue", 1))),
        ttr_lab.BuildStation("Atlantis", (("loco", 1),)),
        ttr_lab.BuildHarbor("Lagos", (("red-anchor", 2), ("red-ship", 2))),
        ttr_lab.BuildHarbor("Atlantis", (("wild", 4),)),
        ttr_lab.BuildHarbor("Chicago", (("red", 2), ("red-ship2", 2))),
        ttr_lab.KeepTickets((999,)),
        ttr_lab.KeepTickets(()),
        ttr_lab.KeepTickets((1, 2, 3, 4, 5)),
        ttr_lab.PayTunnel((("red", 1),)),
        ttr_lab.PayTunnel((("loco", 2),)),
        ttr_lab.DeclineTunnel(),
        ttr_lab.ExchangePieces("trains", 99),
        ttr_lab.ExchangePieces("ships", 1),
        ttr_lab.ExchangePieces("ships", 0),
        ttr_lab.ExchangePieces("planes", 1),
        ttr_lab.ChoosePieces(3),
        ttr_lab.ChoosePieces(20),
        ttr_lab.ChoosePieces(99),
        "fly to the moon",
        "",
        "claim",
        "faceup 0",
        "keep x",
        "tunnel",
        "exchange boats 2",
        "pass",
        "tickets",
        42,
        None,
    )
    # moves legal elsewhere (other positions, phases and editions), as moves and as text
    for m in pool:
        yield m
        yield str(m)
    # near misses of the moves legal here
    for m in legal:
        cards = getattr(m, "cards", None)
        if cards:
            variants = [cards[:-1], cards + (("unicorn", 1),), tuple((n, k + 1) for n, k in cards)]
            variants.append(tuple((n, k - 1) for n, k in cards if k > 1))
            for c in variants:
                if isinstance(m, ttr_lab.ClaimRoute):
                    yield ttr_lab.ClaimRoute(m.route, c)
                elif isinstance(m, ttr_lab.BuildStation):
                    yield ttr_lab.BuildStation(m.city, c)
                elif isinstance(m, ttr_lab.BuildHarbor):
                    yield ttr_lab.BuildHarbor(m.city, c)
                    yield ttr_lab.BuildHarbor(m.city, cards[:-1] + (("wild", 1),))
                elif isinstance(m, ttr_lab.PayTunnel):
                    yield ttr_lab.PayTunnel(c)
        if isinstance(m, ttr_lab.KeepTickets):
            yield ttr_lab.KeepTickets(m.tickets[1:])
            yield ttr_lab.KeepTickets(m.tickets + (999,))
        elif isinstance(m, ttr_lab.ExchangePieces):
            yield ttr_lab.ExchangePieces(m.take, m.count + 100)
        elif isinstance(m, ttr_lab.ChoosePieces):
            yield ttr_lab.ChoosePieces(m.trains + 100)
            yield ttr_lab.ChoosePieces(m.trains - 100)
        elif isinstance(m, ttr_lab.DrawFaceUp):
            yield ttr_lab.DrawFaceUp(m.slot, None if m.refill else "trains")
            yield ttr_lab.DrawFaceUp(m.slot + 10, m.refill)


# (edition, options): the seven editions, plus a few option settings that
# open other refusals (stop allowed, harbors without wilds)
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    *((name, {}) for name in EDITION_NAMES),
    ("usa", {"allow_single_draw": True}),
    ("rails_and_sails", {"harbor_wilds": False}),
    ("great_lakes", {"allow_single_draw": False, "harbor_wilds": False}),
)


def test_every_rule_id_the_engine_returns_is_documented() -> None:
    known = set(rule_ids())
    seen: dict[str, set[str]] = {}
    bad: list[str] = []
    pool: list[Any] = []
    for edition, options in GAMES:
        for seed, players in ((1, 2), (2, 3), (3, 4)):
            g = ttr_lab.new_game(edition, players=players, seed=seed, **options)
            rng = random.Random(seed)
            while True:
                legal = [] if g.is_over else list(g.legal_moves)
                sample = rng.sample(legal, min(4, len(legal)))
                builds = [
                    m for m in legal if isinstance(m, (ttr_lab.BuildHarbor, ttr_lab.BuildStation, ttr_lab.PayTunnel))
                ]
                sample += rng.sample(builds, min(3, len(builds)))
                extra = rng.sample(pool, min(12, len(pool)))
                for probe in _probes(sample, extra):
                    why = g.why_illegal(probe)
                    if why is None:
                        continue
                    rule, reason = why
                    assert isinstance(reason, str) and reason, (edition, probe, why)
                    seen.setdefault(rule, set()).add(edition)
                    if rule not in known:
                        bad.append(f"{edition} seed {seed} ply {g.ply}: {probe!r} -> {why}")
                if g.is_over or g.ply >= 700:
                    break
                move = legal[rng.randrange(len(legal))]
                assert g.why_illegal(move) is None, (edition, move)
                if rng.random() < 0.25:
                    pool.append(move)
                    if len(pool) > 400:
                        del pool[rng.randrange(len(pool))]
                g.push(move)
    assert not bad, "rule ids returned by why_illegal without a section in docs/rules.md:\n" + "\n".join(bad[:20])
    assert {"A1", "A2", "A4", "A5", "B3", "B4", "notation"} <= set(seen), f"too few rule ids seen: {sorted(seen)}"
    assert "europe" in seen["B3"] and {"rails_and_sails", "great_lakes"} <= seen["B4"]


# ---------------------------------------------------------------------- the document and explain()
def test_rule_ids_in_document_order() -> None:
    ids = rule_ids()
    assert isinstance(ids, tuple) and all(isinstance(i, str) for i in ids)
    assert len(set(i.lower() for i in ids)) == len(ids), "an id has two sections"
    positions = [ids.index(i) for i in EXPECTED_IDS if i in ids]
    assert [i for i in EXPECTED_IDS if i not in ids] == []
    assert positions == sorted(positions), "sections out of order"
    for i in ids:
        assert RULE_ID.fullmatch(i) or i == "notation", i


def test_heading_format() -> None:
    """Parts are ``## X. Title``, rule sections ``### ID. Title`` (outside code blocks)."""
    fence = False
    parts = []
    for line in doc_text().splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        if line.startswith("## "):
            assert re.fullmatch(r"## [A-Z]\. \S.*", line), line
            parts.append(line[3])
        elif line.startswith("### "):
            assert re.fullmatch(r"### (?:[ABC]\d{1,2}|notation)\. \S.*", line), line
    assert parts[:3] == ["A", "B", "C"]


@pytest.mark.parametrize("rule_id", EXPECTED_IDS)
def test_each_section_is_one_section(rule_id: str) -> None:
    text = explain(rule_id)
    lines = text.splitlines()
    assert lines[0] == f"### {rule_id}. {rule_title(rule_id)}"
    assert len(lines) > 2, f"section {rule_id} has no body"
    assert not [ln for ln in lines[1:] if ln.startswith(("## ", "### "))]
    assert text == text.strip()
    assert text in doc_text()


@pytest.mark.parametrize(
    ("rule_id", "title", "next_heading"),
    [
        ("A4", "Claiming a route", "### A5."),
        ("A7", "Tickets, longest path and final scoring", "## B."),
        ("B3", "Europe", "### B4."),
        ("B5", "Rails & Sails: Great Lakes", "### C1."),
        ("C1", "Repeated wild resets", "### C2."),
        ("C15", "A short pile during a Rails & Sails reset", "### C16."),
        ("C16", "The order of returned tickets", "### notation."),
        ("notation", "Move notation", "## N."),
    ],
)
def test_explain_returns_the_right_section(rule_id: str, title: str, next_heading: str) -> None:
    text = explain(rule_id)
    assert rule_title(rule_id) == title
    assert text.startswith(f"### {rule_id}. {title}\n")
    assert next_heading not in text
    assert next_heading in doc_text()


def test_explain_is_case_insensitive() -> None:
    assert explain("a4") == explain("A4")
    assert explain("c12") == explain("C12")
    assert explain("NOTATION") == explain("notation")
    assert rule_title("b4") == rule_title("B4") == "Rails & Sails: World"


@pytest.mark.parametrize("bad", ["Z9", "A", "A99", "", "fly to the moon", "C0"])
def test_unknown_rule_id(bad: str) -> None:
    with pytest.raises(TtrError, match="unknown rule id") as info:
        explain(bad)
    message = str(info.value)
    assert repr(bad) in message
    assert "A1" in message and "C16" in message and "notation" in message
    with pytest.raises(TtrError):
        rule_title(bad)


def test_every_option_is_documented() -> None:
    text = doc_text()
    sections = "\n".join(explain(i) for i in rule_ids())
    names = sorted({name for cls in EDITIONS.values() for name in cls.option_defaults})
    assert {"max_consecutive_resets", "first_player", "allow_single_draw", "map"} <= set(names)
    for name in names:
        assert f"`{name}`" in text, f"option {name} is not mentioned in docs/rules.md"
        assert f"`{name}`" in sections, f"option {name} is not explained in any rule section"
    for cls in EDITIONS.values():
        for name, value in cls.option_defaults.items():
            if isinstance(value, str):
                assert f'"{value}"' in sections, f"default {name}={value!r} of {cls.__name__} is not in docs/rules.md"


def test_the_module_reads_only_its_document() -> None:
    """ttr_lab.engine.reference imports nothing of ttr_lab but the errors (stdlib only)."""
    tree = ast.parse((PACKAGE / "engine" / "reference.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    ours = {m for m in imported if m.startswith(("ttr_lab", "."))}
    assert ours <= {"ttr_lab.errors", "..errors"}, ours
