"""The advisor (ttr_lab.analysis.advisor): win chances and ranked moves from
one seat's fair view, by determinized playouts."""

from __future__ import annotations

import pytest

import ttr_lab
from ttr_lab.analysis import Advice, advise, candidate_moves
from ttr_lab.analysis.advisor import AdvisorBot, evaluate_moves, ranking
from ttr_lab.analysis.advisor.explain import Explainer
from ttr_lab.bots import make_bot, play_game
from ttr_lab.engine.state import GameState

from .helpers import arrange, bot_game, new_usa
from .test_bad_input import hidden_variants


def check(a: Advice, view) -> None:
    assert abs(sum(a.win_probabilities) - 1) < 1e-9
    assert len(a.win_probabilities) == len(a.expected_scores) == view.num_players
    legal = list(view.legal_moves) if view.is_my_turn else []
    assert [m.move for m in a.moves if m.move not in legal] == []
    assert len({m.move for m in a.moves}) == len(a.moves)
    for m in a.moves:
        lo, hi = m.interval
        assert 0 <= lo <= m.win_probability <= hi <= 1
        assert abs(sum(m.win_probabilities) - 1) < 1e-9
        assert m.explanation
    assert a.playouts >= 1


@pytest.mark.parametrize(
    "name, players, plies",
    [("usa", 2, 0), ("usa", 2, 50), ("usa", 3, 90), ("europe", 3, 70), ("rails_and_sails", 2, 80)],
)
def test_advice_is_well_formed_and_deterministic(name, players, plies):
    g = bot_game(name, 7, players, plies)
    v = g.view(g.current_player)
    a = advise(v, playouts=20, seed=3)
    check(a, v)
    assert a.moves, "the seat to move gets moves"
    assert advise(v, playouts=20, seed=3) == a  # same seed, same budget: same advice
    # the top move carries the advice's win chances
    assert a.win_probabilities == a.moves[0].win_probabilities
    # exactly one move is marked as the playout policy's own, and it is that move
    marked = [m.move for m in a.moves if m.policy]
    assert marked == [candidate_moves(v)[0]] and "(the policy's move)" in str(a) and "ranked by" in str(a)


def test_a_bot_without_a_budget_is_refused():
    # the budgets advise() refuses: tests/test_search_contract.py
    with pytest.raises(ttr_lab.TtrError):
        AdvisorBot(playouts=0)


def test_candidates_include_the_policy_choice_the_forest_and_the_draws():
    g = bot_game("usa", 5, 2, 40)
    v = g.view(g.current_player)
    moves = candidate_moves(v)
    legal = list(v.legal_moves)
    assert moves and all(m in legal for m in moves) and len(moves) <= 10
    assert moves[0] == make_bot("playout", 0).choose(v)
    assert any(isinstance(m, ttr_lab.DrawBlind) for m in moves)
    # choosing tickets: every keep is a candidate
    g = ttr_lab.new_game("usa", players=2, seed=1)
    v = g.view(0)
    assert sorted(map(str, candidate_moves(v, limit=20))) == sorted(map(str, v.legal_moves))
    assert candidate_moves(g.view(1)) == []


def short_first(g: GameState, cars: int, seat: int, avoid: set[int], longest: bool = False) -> dict[int, int]:
    """Routes for ``seat`` totalling at most ``cars``, shortest (or longest) first,
    never both sides of a double route nor a route in ``avoid``."""
    taken: dict[int, int] = {}
    placed = 0
    routes = sorted(g.map.routes, key=lambda r: ((-r.length if longest else r.length), r.id))
    for r in routes:
        sides = {r.id} | ({r.double_of} if r.double_of is not None else set())
        sides |= {o.id for o in g.map.routes if o.double_of == r.id}
        if sides & (avoid | set(taken)) or placed + r.length > cars:
            continue
        taken[r.id] = seat
        placed += r.length
    return taken


def test_a_winning_claim_is_found():
    """The last turn of the game: seat 0 can claim a 6-car route (15 points)
    or something shorter, or draw.  Behind on the board, only the six can win
    (how often depends on seat 1's unseen tickets); the advisor finds it.
    Uniform guesses of seat 1's tickets (``weighted=False``): its routes here
    are arbitrary short ones, and the claims-weighted guesses read them, as
    they should, as finished tickets, leaving seat 0 no way to win."""
    g = new_usa(players=2, seed=3)
    six = next(r for r in g.map.routes if r.length == 6 and r.color != "gray")
    sixes = {r.id for r in g.map.routes if r.length == 6 and r.color in (six.color, "gray")}
    theirs = short_first(g, 43, 1, sixes)  # 2 pieces left: the final round
    colour = {r.id for r in g.map.routes if r.color == six.color}
    mine = short_first(g, 14, 0, sixes | colour | set(theirs), longest=True)
    g = arrange(g, hands={0: {six.color: 6}}, current=0, owners={**theirs, **mine})
    d = g.to_dict()
    d["final_turns_left"] = 1
    g = GameState.from_dict(d)
    assert g.problems() == [] and g.pieces(1) == 2 and g.score(0) < g.score(1)
    a = advise(g.view(0), playouts=160, seed=2, weighted=False)  # the caution rule wants 3 SEs
    check(a, g.view(0))

    def six_claim(m) -> bool:
        return isinstance(m.move, ttr_lab.ClaimRoute) and g.map.route(m.move.route).length == 6

    assert six_claim(a.moves[0])
    assert a.moves[0].win_probability > max(m.win_probability for m in a.moves if not six_claim(m))


def test_explanations_name_the_ticket_and_its_path():
    g = new_usa(players=2, seed=1)
    v = g.view(0)
    e = Explainer(v)
    t = v.tickets[0]
    rid = next(r for r in e.claims)
    route = g.map.route(rid)
    hand_colour = route.color if route.color != "gray" else "red"
    g = arrange(g, hands={0: {hand_colour: route.length}}, current=0)
    v = g.view(0)
    claim = next(m for m in v.legal_moves if isinstance(m, ttr_lab.ClaimRoute) and m.route == rid)
    text = Explainer(v).explain(claim)
    assert f"{route.a}-{route.b}" in text and "advances" in text
    assert any(tt.label() in text for tt in v.tickets) and t.label()
    blind = Explainer(v).explain(ttr_lab.DrawBlind())
    assert blind.startswith("Draw blind") and "%" in blind


def test_evaluate_moves_shares_states_and_budget():
    g = bot_game("usa", 9, 2, 40)
    v = g.view(g.current_player)
    moves = candidate_moves(v)[:3]
    res, used = evaluate_moves(v, moves, playouts=12, seed=1, halving=False)
    assert used == 12 and [st.n for _, st, _ in res] == [4, 4, 4]
    res2, _ = evaluate_moves(v, moves[:1], playouts=4, seed=1, halving=False)
    assert res2[0][1].wins == res[0][1].wins  # the same states and playouts for the same move


def test_the_advisor_bot_plays_legal_moves():
    bot = AdvisorBot(1, playouts=6, candidates=4)
    g = ttr_lab.new_game("usa", players=2, seed=6)
    other = make_bot("greedy", 2)
    for _ in range(30):
        p = g.current_player
        v = g.view(p)
        m = bot.choose(v) if p == 0 else other.choose(v)
        assert m in v.legal_moves
        g.play(m)
    assert bot.calls > 0
    assert isinstance(make_bot("advisor", 3), AdvisorBot)


def test_the_advice_panel_shows_the_seats_fair_view_only():
    pytest.importorskip("ipywidgets")
    from ttr_lab.widgets.advice import AdvicePanel

    g = GameState.from_dict(bot_game("usa", 11, 3, 60).to_dict())
    p = g.current_player
    panel = AdvicePanel(g, p, playouts=12, seed=2)
    a = panel.refresh()
    assert a is not None and panel.hints.value == ""
    for q in range(3):
        assert g.view(p).player_names[q] in panel.bars.value
    panel.button.click()
    shown = (panel.bars.value, panel.hints.value)
    assert str(a.moves[0].move) in panel.hints.value
    other = next(iter(hidden_variants(g, p)))
    twin = AdvicePanel(other, p, playouts=12, seed=2)
    twin.hint()
    assert (twin.bars.value, twin.hints.value) == shown  # the page cannot tell the hidden cards apart
    waiting = AdvicePanel(g, (p + 1) % 3, playouts=6)
    waiting.hint()
    assert "no hint" in waiting.hints.value
    done = play_game("usa", [make_bot("playout", 1), make_bot("playout", 2)], seed=4)
    over = AdvicePanel(done, 0, playouts=4)
    assert over.refresh() is None and "over" in over.bars.value


def test_include_evaluates_a_given_move_and_refuses_an_illegal_one():
    g = bot_game("usa", 5, 2, 40)
    v = g.view(g.current_player)
    legal = list(v.legal_moves)
    outside = [m for m in legal if m not in candidate_moves(v)]
    assert outside
    a = advise(v, playouts=40, seed=1, include=[outside[0]])
    asked = next(m for m in a.moves if m.move == outside[0])
    # kept to the last round of the halving: as many playouts as the moves that went furthest
    assert asked.playouts == max(m.playouts for m in a.moves) > 1
    with pytest.raises(ttr_lab.TtrError, match="include"):
        advise(v, playouts=4, include=[ttr_lab.ClaimRoute(route=10**6, cards=())])


def test_a_position_from_the_editor_gets_the_same_advice_whatever_the_filling():
    from ttr_lab.tabletop import seat_view

    facts = dict(
        players=["Me", "Ann", "Bo"],
        seat=0,
        routes={"Me": [1], "Ann": [57]},
        hand={"red": 3, "loco": 1},
        tickets=[1, 14],
        row=["blue", "blue", "green", "white", "black"],
        deck=83,
        discard=["red", "red"],
        hand_sizes={"Ann": 7, "Bo": 9},
        ticket_counts={"Ann": 2, "Bo": 3},
    )
    a = advise(seat_view("usa", seed=1, **facts), playouts=12, seed=4)
    check(a, seat_view("usa", seed=1, **facts))
    assert a.moves
    assert advise(seat_view("usa", seed=2, **facts), playouts=12, seed=4) == a


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["usa", "europe", "rails_and_sails"])
def test_the_advisor_bot_plays_every_edition_to_the_end(edition):
    from ttr_lab.analysis.advisor import AdvisorBot
    from ttr_lab.bots import make_bot, play_game

    g = play_game(edition, [AdvisorBot(1, playouts=4), make_bot("greedy", seed=2)], seed=3)
    assert g.is_over and g.outcome().ranking


def test_the_advice_is_blind_to_hidden_tickets_with_the_same_history():
    """The same public history (another seat's dealt tickets swapped with the
    bottom of the ticket deck, its keep moves following them) gives the same
    advice: the weighted guesses read the seat's history, never the truth."""
    g = bot_game("usa", 21, 3, 0)
    moves = list(bot_game("usa", 21, 3, 50).move_stack)
    d = g.to_dict()
    q = 1
    swap = dict(zip(d["setup_deal"][q][-2:], d["ticket_deck"][:2]))
    swap.update({v: k for k, v in swap.items()})
    d["setup_deal"][q] = [swap.get(t, t) for t in d["setup_deal"][q]]
    d["ticket_deck"] = [swap.get(t, t) for t in d["ticket_deck"]]
    a, b = GameState.from_dict(g.to_dict()), GameState.from_dict(d)
    for i, m in enumerate(moves):
        a.play(m)
        if isinstance(m, ttr_lab.KeepTickets) and i == q:
            m = ttr_lab.KeepTickets(tuple(swap.get(t, t) for t in m.tickets))
        b.play(m)
    assert a.to_dict() != b.to_dict()
    p = a.current_player if a.current_player != q else (q + 1) % 3
    assert advise(a.view(p), playouts=12, seed=3) == advise(b.view(p), playouts=12, seed=3)


def test_calibrated_chances_are_the_raw_ones_through_the_map():
    """calibrated=False gives the playouts' shares; the default maps the
    seat's own through calibrate (monotone, so the moves' order is the same)
    and scales the others to sum to 1."""
    from ttr_lab.analysis.advisor import calibrate
    from ttr_lab.analysis.advisor.calibration import pieces_left

    g = bot_game("usa", 4, 3, 45)
    v = g.view(g.current_player)
    raw = advise(v, playouts=30, seed=2, calibrated=False)
    cal = advise(v, playouts=30, seed=2)
    me = v.player
    assert [m.move for m in raw.moves] == [m.move for m in cal.moves]
    top = raw.moves[0]
    assert raw.win_probabilities[me] == pytest.approx(top.win_probability)
    left = pieces_left(v)
    assert 0 < left < 1
    assert cal.win_probabilities[me] == pytest.approx(calibrate(top.win_probability, top.playouts, 3, left))
    assert abs(sum(cal.win_probabilities) - 1) < 1e-9
    check(cal, v)
    others = [q for q in range(3) if q != me]
    if raw.win_probabilities[others[0]] > 0 and raw.win_probabilities[others[1]] > 0:
        r = raw.win_probabilities[others[0]] / raw.win_probabilities[others[1]]
        assert cal.win_probabilities[others[0]] / cal.win_probabilities[others[1]] == pytest.approx(r)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_calibrate_is_monotone_and_strictly_inside_0_1(players):
    from ttr_lab.analysis.advisor import calibrate

    for left in (0.0, 0.3, 1.0):
        for n in (1, 8, 100):
            xs = [calibrate(k / n, n, players, left) for k in range(n + 1)]
            assert all(0 < x < 1 for x in xs)
            assert all(a < b for a, b in zip(xs, xs[1:]))


def test_calibrate_lowers_the_playouts_share_more_as_the_boards_fill():
    """The fitted map's direction (benchmarks/README.md): the playouts overrate
    the viewing seat, and more late in the game than early."""
    from ttr_lab.analysis.advisor import calibrate

    for players in (2, 3, 4):
        for p in (0.25, 0.5, 0.75, 1.0):
            late, early = calibrate(p, 24, players, 0.1), calibrate(p, 24, players, 0.9)
            assert late < early < p


def test_pieces_left_is_the_fewest_pieces_over_the_start():
    from ttr_lab.analysis.advisor.calibration import pieces_left

    g = bot_game("usa", 4, 3, 45)
    v = g.view(0)
    assert pieces_left(v) == pytest.approx(min(v.pieces) / 45)
    assert pieces_left(ttr_lab.new_game("usa", players=3, seed=4).view(1)) == 1.0
    assert pieces_left(ttr_lab.new_game("rails_and_sails", players=3, seed=4).view(1)) == 1.0


def test_rank_keeps_the_policy_move_unless_another_is_clearly_better():
    from ttr_lab.analysis.advisor import rank

    g = bot_game("usa", 9, 2, 40)
    v = g.view(g.current_player)
    moves = candidate_moves(v)[:4]
    res, _ = evaluate_moves(v, moves, playouts=24, seed=1, halving=False)
    best = max(res, key=lambda t: t[1].key())
    assert rank(res, z=0.0, delta=-1.0)[0] is best  # no caution: the best mean
    assert rank(res, z=float("inf"))[0] is res[0]  # full caution: the policy's move
    assert sorted(id(t) for t in rank(res)) == sorted(id(t) for t in res)


class _Clock:
    """``time`` for the advisor's search: perf_counter advances 10 ms a reading, so a
    timed search depends on how often it reads the clock, not on the machine's load."""

    def __init__(self) -> None:
        self.t = 0.0

    def perf_counter(self) -> float:
        self.t += 0.01
        return self.t


def test_a_time_budget_halves_the_candidates_like_a_playout_budget(monkeypatch):
    """With ``seconds=`` each round of the successive halving gets an equal
    share of the time: the weaker half drops out after each round (before the
    fix the first round ran until the deadline, so every candidate got the
    same playouts and nothing was halved).  A fake clock: on the real one a
    busy CI machine once ran the second round past the deadline."""
    monkeypatch.setattr(ranking, "time", _Clock())
    g = bot_game("usa", 3, 2, 40)
    v = g.view(g.current_player)
    moves = candidate_moves(v, limit=8)
    assert len(moves) >= 4
    results, used = evaluate_moves(v, moves, seconds=1.0, seed=1)
    reached = [r for _, _, r in results]
    rounds = max(1, (len(moves) - 1).bit_length())
    assert max(reached) == rounds - 1 and min(reached) == 0, reached
    counts = sorted(st.n for _, st, _ in results)
    assert counts[0] < counts[-1] and used == sum(counts), counts
