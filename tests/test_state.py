"""The game state on USA: illegal moves, the legal-move view, golden counts,
copies, views, options and errors.  The invariants every edition shares are
in ``test_properties.py``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab import ClaimRoute, DrawBlind, DrawFaceUp, IllegalMoveError, KeepTickets, Phase

from . import helpers
from .helpers import arrange, new_usa, snapshot

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(seed: int, players: int, plies: int | None = None, **options) -> ttr_lab.GameState:
    return helpers.random_game("usa", seed, players, plies, **options)


def card_total(g: ttr_lab.GameState) -> int:
    d = g.to_dict()
    n = sum(len(v) for v in d["decks"].values()) + sum(len(v) for v in d["discards"].values())
    n += sum(1 for c in d["row"] if c is not None)
    return n + sum(sum(h.values()) for h in d["hands"])


@SETTINGS
@given(seed=st.integers(0, 10**6), plies=st.integers(8, 250), data=st.data())
def test_illegal_moves_raise_and_change_nothing(seed, plies, data):
    g = random_game(seed, 3, plies)
    if g.is_over:
        return
    before = snapshot(g)
    route = data.draw(st.sampled_from([r.id for r in g.map.routes]))
    color = data.draw(st.sampled_from(["red", "blue", "green", "loco", "pink"]))
    n = data.draw(st.integers(1, 7))
    move = data.draw(
        st.sampled_from(
            [
                ClaimRoute(route, ((color, n),)),
                DrawFaceUp(data.draw(st.integers(1, 7))),
                DrawBlind(),
                KeepTickets((data.draw(st.integers(1, 200)),)),
                ttr_lab.Pass(),
                ttr_lab.StopDrawing(),
            ]
        )
    )
    legal = move in list(g.legal_moves)
    assert (g.why_illegal(move) is None) == legal
    assert (move in g.legal_moves) == legal
    if not legal:
        with pytest.raises(IllegalMoveError) as err:
            g.play(move)
        assert err.value.rule and err.value.reason
        assert snapshot(g) == before


def test_legal_move_indexing_matches_iteration():
    g = random_game(11, 4, 120)
    moves = list(g.legal_moves)
    assert [g.legal_moves[i] for i in range(len(moves))] == moves
    assert g.legal_moves[-1] == moves[-1]
    with pytest.raises(IndexError):
        g.legal_moves[len(moves)]


# golden legal-move counts (perft-style): change only with a rules change
GOLDEN = [
    (1, 4, 0, 4),  # setup: keep 2 or 3 of 3
    (1, 4, 4, 43),  # first turn: 5 face-up + blind + 36 claims + tickets
    (7, 2, 40, 7),
    (7, 2, 41, 4),
    (123, 5, 150, 6),
    (99, 3, 200, 10),
]


@pytest.mark.parametrize("seed, players, plies, count", GOLDEN)
def test_golden_legal_move_counts(seed, players, plies, count):
    g = random_game(seed, players, plies)
    assert g.legal_moves.count() == count


def test_golden_game_replays_to_a_fixed_result():
    g = random_game(2024, 4)
    assert g.ply == GOLDEN_GAME[0]
    assert g.outcome().scores == GOLDEN_GAME[1]


GOLDEN_GAME = (295, (-18, -16, 35, -103))


@SETTINGS
@given(seed=st.integers(0, 10**6), plies=st.integers(4, 300))
def test_generated_claims_equal_a_brute_force_enumeration(seed, plies):
    """Every (route, card multiset of the right size) checked by why_illegal
    gives exactly the claims that move generation lists."""
    from itertools import combinations_with_replacement

    g = random_game(seed, 4, plies)
    if g.phase != Phase.TURN:
        return
    hand = g.hand(g.current_player)
    names = sorted(hand)
    brute = set()
    for r in g.map.routes:
        for combo in combinations_with_replacement(names, r.length):
            cards = tuple(sorted((n, combo.count(n)) for n in set(combo)))
            m = ClaimRoute(r.id, cards)
            if g.why_illegal(m) is None:
                brute.add(m)
    generated = {m for m in g.legal_moves if isinstance(m, ClaimRoute)}
    assert generated == brute


def test_copy_is_independent_and_can_undo():
    g = random_game(5, 3, 60)
    c = g.copy()
    c.push(c.legal_moves[0])
    assert g.ply == 60 and c.ply == 1  # a copy without its stack starts a fresh history
    c2 = g.copy(stack=True)
    while c2.move_stack:
        c2.pop()
    assert g.ply == 60 and c2.phase == Phase.SETUP_TICKETS
    assert snapshot(c2) == snapshot(ttr_lab.new_game("usa", players=3, seed=5))


def test_view_hides_other_hands_and_deck_order():
    g = random_game(3, 3, 30)
    v = g.view(1)
    d = v.to_dict()
    assert d["hand"] == g.hand(1)
    assert "decks" not in d and "ticket_deck" not in d
    assert d["hand_sizes"] == [g.hand_size(p) for p in range(3)]
    assert not hasattr(v, "_decks")
    assert (v.legal_moves == ()) == (g.current_player != 1)


def test_pop_on_empty_stack_and_game_over_errors():
    g = ttr_lab.new_game("usa", players=2, seed=1)
    with pytest.raises(IndexError, match="empty move stack"):
        g.pop()
    done = random_game(8, 2)
    assert done.is_over and done.legal_moves.count() == 0
    with pytest.raises(IllegalMoveError, match=r"the game is over \(rule A6\)"):
        done.play(DrawBlind())


def test_bad_construction_arguments():
    with pytest.raises(ttr_lab.TtrError, match="2-5 players, not 6"):
        ttr_lab.new_game("usa", players=6)
    with pytest.raises(ttr_lab.TtrError, match="unknown edition 'monopoly'"):
        ttr_lab.new_game("monopoly")
    with pytest.raises(ttr_lab.TtrError, match="unknown option 'reset_cap'"):
        ttr_lab.new_game("usa", reset_cap=3)
    with pytest.raises(ttr_lab.TtrError, match="seed must be an int"):
        ttr_lab.new_game("usa", seed="x")
    with pytest.raises(ttr_lab.TtrError, match="first_player 3 is not a seat"):
        ttr_lab.new_game("usa", players=2, first_player=3)


def test_first_player_option():
    g = ttr_lab.new_game("usa", players=3, seed=1, first_player=2)
    assert g.current_player == 2
    while g.phase == Phase.SETUP_TICKETS:
        g.play(g.legal_moves[0])
    assert g.current_player == 2
    r = ttr_lab.new_game("usa", players=5, seed=9, first_player="random")
    assert r.current_player == ttr_lab.new_game("usa", players=5, seed=9, first_player="random").current_player


def test_deal_row_after_tickets_option():
    g = ttr_lab.new_game("usa", players=2, seed=1, deal_row_after_tickets=True)
    assert g.row == (None,) * 5
    while g.phase == Phase.SETUP_TICKETS:
        g.play(g.legal_moves[0])
    assert None not in g.row


def test_allow_single_draw_option_c6():
    g = arrange(new_usa(allow_single_draw=True), row=["red", "blue", "green", "yellow", "black"], current=0)
    g.play(DrawFaceUp(1))
    assert ttr_lab.StopDrawing() in g.legal_moves
    g.play(ttr_lab.StopDrawing())
    assert g.current_player == 1
    h = arrange(new_usa(), row=["red", "blue", "green", "yellow", "black"], current=0)
    h.play(DrawFaceUp(1))
    with pytest.raises(IllegalMoveError, match="second card is mandatory"):
        h.play(ttr_lab.StopDrawing())


def test_player_with_no_legal_action_passes_and_a_full_round_of_passes_ends_the_game():
    g = new_usa(players=2)
    # everything gone: no cards to draw, no tickets, empty hands
    g = arrange(g, row=[None] * 5, deck_size=0, discard=[], rest=1, hands={0: {}, 1: {}}, current=0, ticket_deck_size=0)
    assert g.hand_size(1) > 0
    # seat 1 holds every card; seat 0 can do nothing
    assert list(g.legal_moves) == [ttr_lab.Pass()]
    g.play(ttr_lab.Pass())
    assert g.current_player == 1 and not g.is_over
    with pytest.raises(IllegalMoveError, match="only when no action is legal"):
        g.play(ttr_lab.Pass())


@pytest.mark.parametrize(
    "text",
    [
        "pass",
        "faceup 3",
        "faceup 2 refill ships",
        "blind",
        "blind ships",
        "stop",
        "claim 57 loco:1 red:2",
        "tickets",
        "keep",
        "keep 3 17",
        "station Wien loco:1 red:1",
        "tunnel pay red:1",
        "tunnel decline",
        "harbor Lagos red-anchor:2",
        "exchange trains 3",
        "pieces 20",
    ],
)
def test_notation_round_trips(text):
    move = ttr_lab.parse_move(text)
    assert str(move) == text
    assert ttr_lab.parse_move(str(move)) == move
    public = {name: getattr(ttr_lab, name) for name in dir(ttr_lab)}  # the lazy exports too (PEP 562)
    assert eval(repr(move), public) == move  # repr is code (trusted test input only)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty move text"),
        ("claim x red:1", "bad number"),
        ("claim 5", "a claim needs cards"),
        ("claim 5 red", "bad card token"),
        ("faceup 0", "numbered from 1"),
        ("keep 3 3", "named twice"),
        ("dance", "unknown move 'dance'"),
    ],
)
def test_bad_notation_is_rejected_with_the_text(text, message):
    with pytest.raises(ttr_lab.InvalidMoveError, match=message):
        ttr_lab.parse_move(text)


def test_a_hand_made_claim_naming_a_card_twice_is_refused():
    g = arrange(new_usa(), hands={0: {"red": 1, "blue": 3}}, current=0)
    move = ClaimRoute(1, (("red", 1), ("red", 1)))  # built by hand, not by parse_move
    assert g.why_illegal(move) == ("A4", "card red is named twice")


def test_lookups_and_helpers_answer_with_the_librarys_errors():
    """A wrong id, city or seat is a TtrError that says what is wrong, never a bare KeyError."""
    from ttr_lab.engine.scoring import ticket_status

    g = ttr_lab.new_game("usa", players=2, seed=1)
    assert g.describe("blind") == g.describe(ttr_lab.DrawBlind())  # notation, as play() takes it
    with pytest.raises(ttr_lab.TtrError, match="describe takes a move"):
        g.describe(3)
    for call, message in (
        (lambda: g.map.route(999), "no route 999 on the usa map"),
        (lambda: g.map.ticket(999), "no ticket 999"),
        (lambda: g.map.city("Seatle"), "no city 'Seatle'"),
        (lambda: g.map.routes_between("Seatle", "Portland"), "no city 'Seatle'"),
        (lambda: ticket_status(g, 7), "player 7 is not a seat"),
        (lambda: ticket_status(g.view(0), 0), r"view.ticket_status\(\)"),
    ):
        with pytest.raises(ttr_lab.TtrError, match=message):
            call()
    assert [r.id for r in g.map.routes_between("Seattle", "Portland")] == [91, 92]
    while g.phase.name == "SETUP_TICKETS":
        g.play(g.legal_moves[0])
    assert g.view(0).ticket_status() == ticket_status(g, 0) and len(ticket_status(g, 0)) >= 2
    assert "Claiming a route" in ttr_lab.engine.reference.explain(
        "A4"
    )  # reachable from the package, as the README writes it


def test_find_route_tries_every_split_of_hyphenated_city_names():
    world = ttr_lab.load_map("rails_and_sails_world")
    hyphen = next(r for r in world.routes if "-" in r.a or "-" in r.b)
    assert world.find_route(f"{hyphen.a}-{hyphen.b}") in world.routes_between(hyphen.a, hyphen.b)
    assert world.find_route(f"{hyphen.b}-{hyphen.a}").id == world.find_route(f"{hyphen.a}-{hyphen.b}").id


# ---------------------------------------------------------------- the phase against the position (issue 20.8)
def _refused(data: dict, *needles: str) -> None:
    with pytest.raises(ttr_lab.RecordError) as info:
        ttr_lab.GameState.from_dict(data)
    for needle in needles:
        assert needle in str(info.value)


@pytest.mark.parametrize("edition", ["usa", "europe", "rails_and_sails"])
def test_a_game_in_play_saved_as_setup_is_refused(edition):
    """A game at ply 60 whose phase says the initial tickets are being chosen:
    it loaded with no problems, and its only legal move kept nothing."""
    g = helpers.random_game(edition, seed=5, players=3, plies=60)
    assert g.phase not in (Phase.SETUP_TICKETS, Phase.GAME_OVER)
    d = g.to_dict()
    d["phase"] = "setup_tickets"
    _refused(d, "the initial tickets are being chosen, but", "turns were played")


def test_a_usa_game_at_ply_60_as_setup_names_every_contradiction():
    from ttr_lab.bots import make_bot, play_game
    from ttr_lab.records import Record

    g = play_game("usa", [make_bot("greedy", seed=1), make_bot("greedy", seed=2)], seed=3)
    d = Record.from_state(g).replay(upto=60).to_dict()
    d["phase"] = "setup_tickets"
    _refused(
        d,
        "no initial tickets were dealt",
        "routes are claimed",
        "running scores are",
        "train cards, not the 4 train cards dealt",
    )


def _in_setup(edition: str = "usa", players: int = 3, first: int = 1) -> ttr_lab.GameState:
    """A game whose first chooser (seat ``first``) has kept tickets; the next is choosing."""
    g = ttr_lab.new_game(edition, players=players, seed=4, first_player=first)
    g.play(g.legal_moves[0])
    assert g.phase == Phase.SETUP_TICKETS and g.problems() == []
    return g


def test_setup_positions_with_a_wrong_field_are_refused():
    g = _in_setup()  # seat 1 has chosen, seat 2 chooses, seat 0 has not
    base = g.to_dict()
    assert base["tickets"][1] and not base["tickets"][0] and base["current"] == 2

    d = {**base, "turn": 3}
    _refused(d, "turns were played (turn 3")
    d = {**base, "passes": 1}
    _refused(d, "turns were played")

    d = {**base, "tickets": [list(base["setup_deal"][0][:2]), base["tickets"][1], []]}  # seat 0 kept too early
    d["ticket_deck"] = [t for t in base["ticket_deck"] if t not in d["tickets"][0]]
    _refused(d, "player 0 holds tickets before choosing")

    kept = base["tickets"][1]
    dealt = {t for deal in base["setup_deal"] for t in deal}
    other = next(t for t in base["ticket_deck"] if t not in dealt)  # seat 1 holds a ticket it was never dealt
    deck = [kept[1] if t == other else t for t in base["ticket_deck"]]
    d = {**base, "tickets": [[], [kept[0], other], []], "ticket_deck": deck}
    _refused(d, "player 1 kept initial tickets", "not all from the")

    deck = list(base["decks"]["train"])  # seat 0 drew a card while the tickets go round
    hands = [dict(h) for h in base["hands"]]
    card = deck.pop()
    hands[0][card] = hands[0].get(card, 0) + 1
    _refused({**base, "decks": {"train": deck}, "hands": hands}, "player 0 holds 5 train cards, not the 4")


def test_a_station_built_during_setup_is_refused():
    g = _in_setup("europe")
    d = g.to_dict()
    city = g.edition.map.cities[0].name
    d["extra"] = {**d["extra"], "stations": [[city], [], []]}
    _refused(d, "stations are built")


@pytest.mark.parametrize("first", [0, 1, "random"])
@pytest.mark.parametrize("edition", ["usa", "europe", "rails_and_sails"])
def test_every_setup_and_early_position_reloads(edition, first):
    """The new checks refuse nothing reachable: every position of the setup and
    the first turns, with any first player, goes through to_dict and back."""
    g = ttr_lab.new_game(edition, players=4, seed=8, first_player=first)
    rng = __import__("random").Random(8)
    while g.ply < 40 and not g.is_over:
        d = g.to_dict()
        again = ttr_lab.GameState.from_dict(d)
        assert again.to_dict() == d and again.problems() == []
        lm = g.legal_moves
        g.push(lm[rng.randrange(len(lm))])
