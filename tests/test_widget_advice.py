"""The advisor in the play widget (``advisor=True``) and the review plot on
the history widget.

* **fair view**: two games that differ only in Bob's hidden hand and tickets
  give Ada's Advisor tab exactly the same synced state (what the browser
  gets), bars and hint included; and the whole page is the same too;
* the advice is asked only from the view of the person to decide: never a
  bot's seat, never with the hand hidden, again after each move;
* a Hint lights the hinted claims on the board;
* the review plot's click moves the history slider.

Small budgets (``advisor=8`` playouts, ``review_playouts=4``) keep it to seconds.
"""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("pandas")

from plotly.callbacks import Points

import ttr_lab
import ttr_lab.widgets.advice as advice_mod
from ttr_lab.bots import make_bot, play_game
from ttr_lab.errors import TtrError
from ttr_lab.records import Record
from ttr_lab.widgets import HistoryWidget, PlayWidget
from ttr_lab.widgets.advice import MIN_PLAYOUTS, AdvicePanel

from .helpers import arrange, bot_game, past_setup
from .test_widget_hidden_info import reveal, strings, synced
from .test_widgets import find


@pytest.fixture
def asked(monkeypatch):
    """Every view the advisor is asked about, as (seat, ply)."""
    seen: list[tuple[int, int]] = []
    real = advice_mod.advise

    def spy(view, **kw):
        seen.append((view.player, view.ply))
        return real(view, **kw)

    monkeypatch.setattr(advice_mod, "advise", spy)
    return seen


def _ada_to_play(bob_hand, bob_tickets, hide=False):
    g = past_setup(ttr_lab.new_game("usa", players=["Ada", "Bob"], seed=1))
    g = arrange(
        g,
        row=["red", "blue", "green", "yellow", "black"],
        hands={0: {"red": 3, "blue": 1, "loco": 1}, 1: bob_hand},
        tickets={0: [9, 17], 1: bob_tickets},
        current=0,
    )
    w = PlayWidget(g, advisor=48, hide_hands=hide)  # enough to show the chances
    w.show_tab("Advisor")
    return w


def test_bobs_secrets_change_nothing_in_adas_advice(asked):
    a = _ada_to_play({"red": 1, "orange": 1, "pink": 1, "loco": 1}, [18, 27])
    b = _ada_to_play({"blue": 2, "green": 2}, [1, 2])
    assert a.game.hand(1) != b.game.hand(1) and a.game.tickets(1) != b.game.tickets(1)
    assert a._advisor.seat == 0 and "Ada" in a._advisor.panel.bars.value
    assert synced(a._advisor.widget) == synced(b._advisor.widget)
    find(a, "ttr-hint").click()
    find(b, "ttr-hint").click()
    assert "Best move found" in a._advisor.panel.hints.value  # a hint: the move and why
    assert len(asked) == 4  # each widget: the bars' question, then the hint's
    find(a, "ttr-hint").click()
    assert len(asked) == 4  # a second press shows the same hint: no new question
    assert synced(a._advisor.widget) == synced(b._advisor.widget)
    assert synced(a) == synced(b)  # the whole page, board lights included
    assert {seat for seat, _ in asked} == {0}
    # Bob's own tickets do show on his own turn (so the comparison could tell)
    for w in (a, b):
        w.draw_blind()
        w.draw_blind()
    assert a._advisor.seat == 1
    assert synced(a._advisor.widget) != synced(b._advisor.widget)


def test_no_advice_with_the_hand_hidden(asked):
    w = _ada_to_play({"blue": 2, "green": 2}, [1, 2], hide=True)
    assert asked == [] and w._advisor.panel.bars.value == ""
    assert "hidden" in w._advisor.note.value
    reveal(w)
    assert asked == [(0, w.game.ply)] and "%" in w._advisor.panel.bars.value
    find(w, "ttr-hint").click()
    w.draw_blind()
    w.draw_blind()  # Bob's turn, his hand hidden: Ada's advice leaves the page
    assert w.game.current_player == 1 and w._advisor.seat is None
    assert w._advisor.panel.bars.value == w._advisor.panel.hints.value == ""
    assert not any("Ada's view" in s for s in strings(synced(w)))


def test_the_advice_follows_every_move_and_never_a_bot(asked):
    w = ttr_lab.play("usa", players=["You", "easy"], seed=7, advisor=8)
    w.show_tab("Advisor")
    w.play_move(w.game.legal_moves[0])  # keep tickets; the bot keeps its own
    for _ in range(6):
        before = len(asked)
        assert w.play_move("blind")
        assert len(asked) == before + 1 and asked[-1] == (0, w.game.ply)
    w.refresh()  # nothing moved: no new question
    w.show_tab("Log")
    assert len(asked) == 8  # ply 0 (the setup tickets), after the keep, after each draw
    assert {seat for seat, _ in asked} == {0}  # never the bot's seat
    plies = [ply for _, ply in asked]
    assert plies == sorted(set(plies))  # one question per position


def test_a_game_of_bots_only_gets_no_advice(asked):
    g = play_game("usa", [make_bot("random", 1), make_bot("random", 2)], seed=3)
    w = PlayWidget(g, advisor=True)
    w.show_tab("Advisor")
    assert asked == [] and "no advice" in w._advisor.note.value


def test_a_hint_lights_its_one_claim_on_the_board():
    w = _ada_to_play({"blue": 2, "green": 2}, [1, 2])
    before = set(w._board_options()["highlight"])
    find(w, "ttr-hint").click()
    best = w._advisor.panel.hint_advice.best
    assert best.move.verb == "claim", "the hint recommends a claim here (Ada holds 3 red and a loco)"
    assert w._advisor.lit == (best.move.route,)
    assert set(w._board_options()["highlight"]) - before == {best.move.route}  # that route only
    w.draw_blind()  # the position changed: the light goes
    assert best.move.route not in w._board_options()["highlight"]


def test_advisor_is_off_by_default_and_checked():
    w = ttr_lab.play("usa", players=["You", "easy"], seed=7)
    assert w._advisor is None and "Advisor" not in w._tab_bar.options
    with pytest.raises(TtrError):
        w.show_tab("Advisor")
    with pytest.raises(TtrError, match="advisor"):
        ttr_lab.play("usa", players=["You", "easy"], advisor=0)


def test_the_review_plot_moves_the_slider():
    g = play_game("usa", [make_bot("random", 1), make_bot("random", 2)], seed=3)
    h = HistoryWidget(Record.from_state(g), review_playouts=4)
    assert h.plot is None  # nothing until asked
    df = find(h, "ttr-history-review") and h.review(plies=range(1, 9))
    assert list(df["ply"]) == list(range(1, 9))
    assert h.plot in h._review_box.children
    trace = h.plot.data[0]
    i = 5
    trace._dispatch_on_click(Points(point_inds=[i], xs=[trace.x[i]], ys=[trace.y[i]], trace_name=trace.name), None)
    assert h.slider.value == h.game.ply == int(trace.customdata[i]) == 6
    assert h.plot.layout.shapes[0].x0 == 6  # the line follows
    h.slider.value = 2
    assert h.plot.layout.shapes[0].x0 == 2


# --------------------------------------------------------------------------- advice a player can trust (issue 19 D2)

#: what the Hint and the bars must never say to a player (the analyst's str(advice) may)
JARGON = ("policy", "halving", "seat 0", "seat 1", "'s view", "’s view", "<ol", "<li")


def _chance_block(hint: str) -> str:
    """The text of the Hint's chance line."""
    return hint.split("class='ttr-hint-chance'>", 1)[1].split("</div>", 1)[0]


def _percents(text: str) -> list[int]:
    """The percentages a person reads in ``text`` (HTML: tags and styles left out)."""
    return [int(x) for x in re.findall(r"(\d+)%", html.unescape(re.sub(r"<[^>]+>", " ", text)))]


def test_chance_words_refuse_too_few_playouts_or_a_wide_interval():
    from ttr_lab.widgets.advice import MAX_WIDTH, MIN_PLAYOUTS, chance_words

    assert chance_words(0.8, (0.37, 0.8), 3) is None  # the walkthrough's 37-81% from 3 playouts
    assert chance_words(0.5, (0.45, 0.55), MIN_PLAYOUTS - 1) is None
    assert chance_words(0.5, (0.3, 0.3 + MAX_WIDTH + 0.01), 500) is None
    assert "fairly sure" in chance_words(0.5, (0.42, 0.58), MIN_PLAYOUTS)
    assert "rough" in chance_words(0.5, (0.37, 0.63), MIN_PLAYOUTS)


@pytest.mark.parametrize("edition", ["usa", "europe", "rails_and_sails"])
def test_the_hint_shows_one_move_its_chance_and_how_sure(edition):
    g = bot_game(edition, 5, 2, 30)
    seat = g.current_player
    panel = AdvicePanel(g, seat, playouts=48, hint_playouts=200, seed=1)
    panel.refresh()
    a = panel.hint()
    best = a.best
    hint = panel.hints.value
    assert hint.count("Best move found") == 1 and str(best.move) in hint
    assert best.move.describe(g.view(seat))[1:] in hint  # in words, besides the notation
    assert best.playouts >= MIN_PLAYOUTS  # the budget gives the recommended move enough games
    lo, hi = best.interval
    shown = _percents(_chance_block(hint))
    assert shown == [round(100 * best.win_probability), round(100 * lo), round(100 * hi)]
    assert "fairly sure" in hint or "rough figure" in hint
    # no other move's number anywhere: the moves named as about as good come without one
    for m in a.moves[1:]:
        if m.move.describe(g.view(seat))[1:] in hint:
            assert m.playouts == best.playouts and m.win_probability >= lo
    # the bars now show the chances after the recommended move, the same as the hint's
    bars = html.unescape(panel.bars.value)
    assert f"{round(100 * best.win_probability)}%" in bars and "recommended move" in bars
    for text in (hint, panel.bars.value):
        assert not any(word in html.unescape(text) for word in JARGON), text


def test_no_numbers_from_too_few_playouts():
    """The walkthrough's budget, 16 playouts a question (3 for the top of 10
    moves in a hint), shows the players and the move, no chance, and says why."""
    g = bot_game("usa", 3, 2, 12)
    panel = AdvicePanel(g, g.current_player, playouts=16, seed=1)
    a = panel.refresh()
    assert a.moves[0].playouts == 16 < MIN_PLAYOUTS
    bars = html.unescape(panel.bars.value)
    assert _percents(bars) == [] and "too few games played out (16)" in bars
    a = panel.hint()
    assert a.best.playouts < MIN_PLAYOUTS
    chance = _chance_block(panel.hints.value)
    assert _percents(chance) == [] and "too few games played out" in chance
    assert "About as good" not in panel.hints.value  # nothing compared on so few games


def test_the_play_widgets_advisor_speaks_a_players_words():
    w = ttr_lab.play("usa", players=["You", "easy"], seed=7, advisor=True)
    w.show_tab("Advisor")
    w.play_move(w.game.legal_moves[0])  # keep tickets; the bot keeps its own
    assert w.game.current_player == 0
    bars = html.unescape(w._advisor.panel.bars.value)
    assert len(_percents(bars)) == 2  # the default budget shows both chances
    find(w, "ttr-hint").click()
    page = " ".join(html.unescape(s) for s in strings(synced(w._advisor.widget)))
    assert "Best move found" in page and "what you can see" in page
    assert not any(word in page for word in JARGON)
