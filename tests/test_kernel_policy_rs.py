"""The Python playout policy referees the kernel's Rails & Sails branches (issue 23).

The playout policy (:mod:`ttr_lab.bots.playout`) on the World and Great Lakes
maps: its setup split, ticket choices (tours planned leg by leg), claims of
train, ship and paired routes (double-ship cards, the payment with the fewest
wilds then anchor cards), draws naming the pile that refills a face-up slot
and the pile of a blind draw (a coin of its splitmix64 when the plan needs
both kinds alike), anchor cards for a harbor, and harbor builds.

``decisions``: in positions spread over whole games (2-5 players, the
editions' options), the kernel's bots, fresh, choose the same move as fresh
Python bots with the same seeds (``Tables.choose``, a test entry), a move
legal for the Python engine; the features those moves cover are counted and
asserted.

The whole games: test_kernel_referee's harness (``run_referee``: starts over
whole games, a tenth of them determinized states) plays the kernel's playouts
and replays them through the Python engine, each move the Python policy's own
and legal, to the same final position; the features they cover are counted
(its own, and here the tours kept).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import ttr_lab
from ttr_lab.bots import make_bot
from ttr_lab.bots.kernel import run
from ttr_lab.bots.kernel.convert import position_array, seed_text
from ttr_lab.bots.playout import PlayoutBot
from ttr_lab.editions.rails_sails import BuildHarbor, ChoosePieces
from ttr_lab.engine.moves import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass, StopDrawing

from . import test_kernel_referee as ref

pytestmark = pytest.mark.skipif(
    not run.kernel_info().enabled, reason="the compiled kernel is not built here (or is off)"
)

EDITIONS = ("rails_and_sails", "great_lakes")
#: options a start may have (C6 single draws off, C7 no wilds for harbors, C9 tour orders, C1, C2)
OPTIONS = (
    {},
    {},
    {"harbor_wilds": False},
    {"allow_single_draw": False},
    {"tour_order": "walk", "first_player": 1},
    {"max_consecutive_resets": 3, "tour_order": "simple_path"},
)


def _get(x: int, colour: int) -> int:
    return x >> 4 * colour & 15


def _cards(ed, names: tuple[str, str], first: int, second: int, wilds: int) -> tuple[tuple[str, int], ...]:
    """Per colour ``first`` and ``second`` cards (4 bits each; ``names`` their name patterns), and wilds."""
    out = []
    for k, colour in enumerate(ed.colors):
        for pattern, x in zip(names, (_get(first, k), _get(second, k))):
            if x:
                out.append((pattern.format(colour), x))
    if wilds:
        out.append(("wild", wilds))
    return tuple(sorted(out))


def decode(state, kind: int, a: int, b: int, c: int):
    """A kernel move (kind, a, b, c) as the Rails & Sails move of ``state``'s engine."""
    ed = state.edition
    piles = ed.pile_names
    if kind == 1:
        return DrawFaceUp(a, piles[b])
    if kind == 2:
        return DrawBlind(piles[a])
    if kind == 3:
        return StopDrawing()
    if kind == 4:
        r = ed.routes[a]
        names = ("{}-ship", "{}-ship2") if r.is_ship else ("{}", "{}-anchor")
        return ClaimRoute(r.id, _cards(ed, names, b, c & 0xFFFFFF, c >> 24))
    if kind == 5:
        return DrawTickets()
    if kind == 6:
        pend = state._pending
        return KeepTickets(tuple(sorted(pend[j] for j in range(len(pend)) if a >> j & 1)))
    if kind == 10:
        return BuildHarbor(ed.map.cities[a].name, _cards(ed, ("{}-anchor", "{}-ship"), b, c & 0xFFFFFF, c >> 24))
    if kind == 11:
        return ChoosePieces(a)
    if kind == 0:
        return Pass()
    raise AssertionError(f"unknown kernel move {(kind, a, b, c)}")


def start(edition: str, i: int):
    """A position: a game with options, played by a mix of bots for some plies; a seed."""
    rng = random.Random(f"rs-policy:{edition}:{i}")
    n = 2 + i % 4
    g = ttr_lab.new_game(edition, players=n, seed=rng.getrandbits(rng.choice([16, 64])), **OPTIONS[i % 6])
    bots = [make_bot(rng.choice(["greedy", "random", "playout", "playout"]), rng.randrange(1000)) for _ in range(n)]
    late = [rng.randrange(2 * n, 400) for _ in range(5)]  # most positions in play, some in the setup
    for _ in range(rng.choice([0, n, rng.randrange(2 * n), *late])):
        if g.is_over:
            break
        g.push(bots[g.current_player].choose(g.view(g.current_player)))
    return g, rng.getrandbits(64)


def features(g, move) -> Counter:
    """What a policy move covers."""
    out: Counter = Counter({f"phase {g.phase.name}": 1})
    ed = g.edition
    if isinstance(move, ClaimRoute):
        r = ed.map.route(move.route)
        kind = "paired" if r.paired else "ship" if r.is_ship else "train"
        out[f"claim {kind}"] += 1
        out["claim with double ships"] += any(name.endswith("ship2") for name, _ in move.cards)
        out["claim with anchor trains"] += any(name.endswith("anchor") for name, _ in move.cards)
        out["claim with wilds"] += any(name == "wild" for name, _ in move.cards)
    elif isinstance(move, DrawFaceUp):
        wild = g.row[move.slot - 1] == "wild"
        out[f"face-up {'wild' if wild else 'card'}, refill {move.refill}"] += 1
        out["face-up anchor card"] += "anchor" in str(g.row[move.slot - 1]) or str(g.row[move.slot - 1]).endswith(
            "-ship"
        )
    elif isinstance(move, DrawBlind):
        out[f"blind {move.pile}"] += 1
    elif isinstance(move, BuildHarbor):
        out["harbor built"] += 1
        out["harbor with wilds"] += any(name == "wild" for name, _ in move.cards)
    elif isinstance(move, KeepTickets):
        out["keep with a tour"] += any(len(ed.map.ticket(t).cities) > 2 for t in move.tickets)
    out[type(move).__name__] += 1
    return out


def decisions(edition: str, count: int) -> Counter:
    """``count`` positions: the kernel's fresh bots and Python's choose the same legal move."""
    seen: Counter = Counter()
    tables = None
    i = 0
    while seen["positions"] < count:
        g, seed = start(edition, i)
        i += 1
        if g.is_over:
            continue
        tables = run.tables(g.edition, preview=True)
        assert tables is not None, edition
        p = g.current_player
        seeds = tuple((seed + q) & (2**64 - 1) for q in range(g.num_players))
        got = decode(g, *tables.choose(position_array(g), seed_text(g), seeds))
        bot = PlayoutBot(seeds[p])
        view = g.view(p)
        want = bot.choose(view)
        assert got == want, f"start {i - 1} ({g.phase.name}, seat {p}): the kernel chose {got}, Python {want}"
        assert g.why_illegal(got) is None, g.why_illegal(got)
        seen += features(g, got) + Counter(positions=1)
        if g.phase.name in ("TURN", "SECOND_CARD"):  # which of the policy's branches decided
            seen["coin for the blind pile"] += bot.rng.state != seeds[p]
            seen["plan done"] += bot.done
            seen["spare cards (24 or more)"] += not bot.done and sum(view.hand_counts) >= 24
            seen["last round"] += view.final_turns_left is not None
    return seen


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_kernel_s_policy_decides_as_python_s_in_rails_and_sails_positions_quick(edition):
    seen = decisions(edition, 150)
    for what in ("ChoosePieces", "KeepTickets", "claim ship", "claim train", "DrawBlind"):
        assert seen[what] >= 1, (what, seen)


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_kernel_s_policy_decides_as_python_s_in_rails_and_sails_positions(edition):
    seen = decisions(edition, 2000)
    print(edition, sorted(seen.items()))
    for what in ("ChoosePieces", "KeepTickets", "claim ship", "claim train", "claim with double ships", "harbor built"):
        assert seen[what] >= 5, (what, seen)
    for what in ("blind trains", "blind ships", "face-up card, refill trains", "face-up card, refill ships"):
        assert seen[what] >= 5, (what, seen)
    for what in ("coin for the blind pile", "plan done", "spare cards (24 or more)", "last round", "DrawTickets"):
        assert seen[what] >= 5, (what, seen)


#: what the playout policy's whole games must cover, per edition (Great Lakes has no tour, no paired route)
GAME_FEATURES = (
    "face-up refilled from trains",
    "face-up refilled from ships",
    "blind draw from trains",
    "blind draw from ships",
    "train route claimed",
    "ship route claimed",
    "double ships paid",
    "anchor trains paid",
    "harbor built",
    "harbor paid with wilds",
    "split chosen",
    "reshuffle",
    "reset",
    "last round",
)


#: the starts' options in the whole games (test_kernel_referee's are the USA family's): C3 late row,
#: C7 harbors without wilds, ties by completed tickets, C6 no single draw, C9 tour orders, C2, C1
GAME_OPTIONS = (
    {},
    {"deal_row_after_tickets": True},
    {"harbor_wilds": False, "tiebreak": "completed_tickets"},
    {"allow_single_draw": False},
    {"tour_order": "walk", "first_player": 1},
    {"max_consecutive_resets": 3, "tour_order": "simple_path"},
)


def games(edition: str, count: int, monkeypatch) -> Counter:
    """``count`` refereed playouts of the playout policy (test_kernel_referee's harness, with
    Rails & Sails' options), with the tours kept."""
    features = ref._rs_features
    monkeypatch.setattr(ref, "options", lambda edition, i: GAME_OPTIONS[i % 6])

    def more(s, move, p):
        out = features(s, move, p)
        if isinstance(move, KeepTickets):
            out["tour kept"] += any(len(s.edition.map.ticket(t).cities) > 2 for t in move.tickets)
        return out

    monkeypatch.setattr(ref, "_rs_features", more)
    return ref.run_referee(edition, count)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_kernel_plays_the_python_policy_s_rails_and_sails_games_quick(edition, monkeypatch):
    seen = games(edition, 20, monkeypatch)
    assert seen["last round"] >= 10 and seen["harbor built"] and seen["split chosen"], seen


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_kernel_plays_the_python_policy_s_rails_and_sails_games(edition, monkeypatch):
    """2,000 seeded playouts per edition: the same moves, each legal, the same end."""
    seen = games(edition, 2000, monkeypatch)
    print(edition, sorted(seen.items()))
    assert all(seen[k] >= 20 for k in GAME_FEATURES), seen
    for phase in ("SETUP_TICKETS", "SETUP_PIECES", "TURN", "SECOND_CARD", "KEEP_TICKETS"):
        assert seen[f"start {phase}"] >= 10, (phase, seen)
    assert all(seen[f"{n} players"] >= 400 for n in range(2, 6)), seen
    if edition == "rails_and_sails":
        assert seen["paired route claimed"] >= 20 and seen["tour kept"] >= 20, seen


def test_the_choose_entry_refuses_a_malformed_position_or_seeds():
    """``Tables.choose`` (a test entry) reads the position as the playouts do: a ValueError naming what is wrong."""
    from array import array

    g = ttr_lab.new_game("great_lakes", players=3, seed=4)
    tables = run.tables(g.edition, preview=True)
    pos, text = position_array(g), seed_text(g)
    assert decode(g, *tables.choose(pos, text, (1, 2, 3))) in list(g.legal_moves)
    bad = array("i", pos)
    bad[3] = 77  # the phase
    for call, what in (
        (lambda: tables.choose(bad, text, (1, 2, 3)), "phase"),
        (lambda: tables.choose(array("i", pos[:40]), text, (1, 2, 3)), "position"),
        (lambda: tables.choose(pos, text, (1, 2)), "seeds"),
    ):
        with pytest.raises(ValueError, match=what):
            call()
    with pytest.raises(TypeError):
        tables.choose(pos, text, [1, 2, 3])
