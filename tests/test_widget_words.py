"""What the play widget and the tutorial say, in a player's words (issue 19 D1, D5, D6).

* **D5**: a claim of the twin of a route the player owns is refused with
  "you already own its twin", not "the other route ... is claimed" as if
  someone else held it; when another player owns the twin, that player is
  named.  Every edition, the first player on seat 0 and on seat 1, the
  person on either seat, and through a click on the board.
* **D6**: a kept ticket reads "not yet connected" while the game goes on,
  "✘ missed" only once it is over.
* **D1**: the tutorial says how the routes you can pay for are drawn (dashed
  violet frames, not "lit in yellow"), in words derived from the drawing's
  own colour constant.
"""

from __future__ import annotations

import html

import pytest

pytest.importorskip("ipywidgets")

import ttr_lab
from ttr_lab.board import scene as board_scene
from ttr_lab.bots import make_bot, play_game
from ttr_lab.widgets import PlayWidget
from ttr_lab.widgets.messages import claim_refusal, colour_name, highlight_words

from .helpers import arrange, past_setup
from .test_widgets import find

EDITIONS = ("usa", "europe", "rails_and_sails")


def _twin_pair(game):
    """The shortest double route ``(route, twin)`` of train routes on the map."""
    pairs = [r for r in game.map.routes if r.double_of is not None and r.kind == "train" and r.id < r.double_of]
    r = min(pairs, key=lambda r: (r.length, r.id))
    return r, game.map.route(r.double_of)


def _claim(twin):
    """A claim of ``twin`` paid with cards of its colour (red on a gray route)."""
    colour = "red" if twin.color == "gray" else twin.color
    return f"claim {twin.id} {colour}:{twin.length}"


def _position(edition, *, players, first, mover, owner):
    """A game of ``players`` (names; seat ``first`` starts), past the ticket
    choice, ``mover`` to play, and the first route of a double route owned by ``owner``."""
    g = past_setup(ttr_lab.new_game(edition, players=players, seed=3, first_player=first))
    while g.phase == ttr_lab.Phase.SETUP_PIECES:  # Rails & Sails: the first split of trains and ships offered
        g.play(g.legal_moves[0])
    route, twin = _twin_pair(g)
    return arrange(g, owners={route.id: owner}, current=mover), route, twin


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("mover", [0, 1])
def test_the_twin_you_own_is_named_as_yours(edition, first, mover):
    g, route, twin = _position(edition, players=["Ada", "Bo"], first=first, mover=mover, owner=mover)
    rule, reason = g.why_illegal(_claim(twin))
    assert rule == "A4" and reason.endswith("this player owns the other")
    text = claim_refusal(g, twin.id, rule, reason)
    assert "you already own its twin" in text and f"route {route.id}" in text
    assert "is claimed by" not in text and "rules it out" not in text
    named = claim_refusal(g, twin.id, rule, reason, you="Ada" if mover == 0 else "Bo")
    assert f"{'Ada' if mover == 0 else 'Bo'} already owns its twin" in named


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("first", [0, 1])
def test_a_twin_owned_by_another_names_its_owner(edition, first):
    g, route, twin = _position(edition, players=["Ada", "Bo"], first=first, mover=0, owner=1)
    rule, reason = g.why_illegal(_claim(twin))
    assert rule == "A4" and reason.endswith("the other is claimed")
    text = claim_refusal(g, twin.id, rule, reason)
    assert f"route {route.id}" in text and "is claimed by Bo" in text and "with 2 players" in text
    assert "already own" not in text


def test_with_four_players_only_the_owner_is_refused():
    g, _route, twin = _position("usa", players=4, first=1, mover=1, owner=1)
    rule, reason = g.why_illegal(_claim(twin))
    assert reason == "no player may own both routes of a double route"
    assert "you already own its twin" in claim_refusal(g, twin.id, rule, reason)
    assert g.route_open_to(twin.id, 2)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_click_on_your_own_twin_says_so_on_screen(edition, seat):
    """The person on ``seat`` (the bot on the other; the first player on seat 1)."""
    players = ["You", "easy"] if seat == 0 else ["easy", "You"]
    g, route, twin = _position(edition, players=players, first=1, mover=seat, owner=seat)
    w = PlayWidget(g)
    assert w.game.current_player == seat and w.humans == (seat,)
    assert w.click_route(twin.id) is False
    shown = html.unescape(w._refusal_text.value)
    assert f"is closed to you: you already own its twin, route {route.id}" in shown
    assert "you already own its twin" in w.status


# --------------------------------------------------------------------------- D6


def _ticket_words(w):
    return html.unescape(find(w, "ttr-tickets").value)


def test_tickets_are_not_yet_connected_while_the_game_goes_on():
    w = ttr_lab.play("usa", players=["You", "bot"], seed=7)
    find(w, "ttr-keep").click()
    text = _ticket_words(w)
    assert text.count("not yet connected") == len(w.game.tickets(0)) > 0
    assert "✘" not in text and "miss" not in text


def test_tickets_read_missed_or_connected_only_when_the_game_is_over():
    g = play_game("usa", [make_bot("random", 1), make_bot("greedy", 2)], seed=4)
    assert g.is_over
    w = PlayWidget(g)
    results = ttr_lab.engine.scoring.ticket_status(g, w._viewer())
    text = _ticket_words(w)
    done = sum(r.completed for r in results)
    assert 0 < done < len(results), "the test wants a connected and a missed ticket"
    assert text.count("✔ connected") == done
    assert text.count("✘ missed") == len(results) - done
    assert "not yet" not in text


# --------------------------------------------------------------------------- D1: the tutorial's words


def _tutorial_turn():
    t = ttr_lab.tutorial("usa", seed=7)
    find(t, "ttr-keep").click()
    assert t.game.current_player == 0 and t.lit_routes()
    return t


def test_the_tutorial_says_how_the_payable_routes_are_drawn():
    t = _tutorial_turn()
    lit = t.lit_routes()
    assert highlight_words() == "in dashed violet frames"
    assert f"the {len(lit)} routes in dashed violet frames are the ones you can pay for now" in t.guide
    assert "yellow" not in t.guide.split("Try an illegal move")[0]  # the suggested route may be a yellow one
    # what is drawn: the frames of exactly those routes, in that colour, dashed
    frame = next(tr for tr in t.fig.data if tr.meta == "highlight")
    assert frame.line.color == board_scene.HIGHLIGHT and frame.line.dash
    assert sorted(t._board_options()["highlight"]) == lit


def test_the_tutorials_words_follow_the_drawings_constant(monkeypatch):
    """The wording is derived from the colour the board draws with, not written beside it."""
    t = _tutorial_turn()
    monkeypatch.setattr(board_scene, "HIGHLIGHT", "#2e7d32")
    t.refresh()
    assert "routes in dashed green frames are the ones you can pay for" in t.guide
    assert [colour_name(c) for c in ("#5500ff", "#ffbf00", "#1e88e5", "#9e9e9e")] == [
        "violet",
        "yellow",
        "blue",
        "gray",
    ]
