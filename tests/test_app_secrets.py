"""The classroom app's game number does not give the deal away (issue 20, item 10).

The number a class shares is hashed with a key the teacher holds
(``deal_seed(key, number)``, HMAC-SHA256), so:

* the deal is not ``new_game(seed=number)``, nor any seed a page user could
  try: a brute force over every game number and small seed, from the seat's
  own start view, finds nothing;
* pages with the same key (``make app`` sets ``TTR_LAB_APP_KEY`` for all the
  pages it serves) get the same deal for the same number, and the teacher
  replays it with the key; another key gives another deal;
* neither the key nor the seed reaches the browser.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("ipywidgets")

import ttr_lab
from ttr_lab.errors import TtrError
from ttr_lab.widgets.app import KEY_ENV, MAX_GAME_NUMBER, PlayApp, app_key, deal_seed
from ttr_lab.widgets.tutorial import tutorial

from .test_widget_hidden_info import synced

KEY = "7f3c1e0b9a8d4c2e6b5a4f3e2d1c0b9a"


def start_view(game) -> str:
    """What seat 0 knows at the start: its cards, its ticket offer, the face-up row."""
    view = game.view(0)
    return json.dumps([sorted(view.hand.items()), [t.id for t in view.pending_tickets or ()], list(game.row)])


def deal(game) -> str:
    """The whole deal: every hand, every ticket offer, the row, the decks' order, the first player."""
    d = game.to_dict()
    return json.dumps({k: d[k] for k in ("decks", "row", "hands", "setup_deal", "ticket_deck", "first_player")})


def test_the_game_number_is_not_the_seed(monkeypatch):
    """On today's main the app's game 7 is new_game(seed=7): anyone can rebuild the bot's hand."""
    monkeypatch.delenv(KEY_ENV, raising=False)
    app = PlayApp()  # as apps/play.ipynb starts it
    g = app.game_widget.game
    assert deal(g) != deal(ttr_lab.new_game("usa", players=["You", "easy"], seed=7))
    assert g.seed > MAX_GAME_NUMBER  # a 64-bit keyed hash, not the number


def test_a_brute_force_from_the_seat_s_view_finds_nothing(monkeypatch):
    """The attack of the issue: try seeds until one reproduces what seat 0 sees.  Every game number
    and every seed below 3,000 (the old scheme's whole range starts there) is tried."""
    monkeypatch.setenv(KEY_ENV, KEY)
    app = PlayApp()
    seen = start_view(app.game_widget.game)
    tried = 0
    for seed in range(3000):
        tried += 1
        assert start_view(ttr_lab.new_game("usa", players=["You", "easy"], seed=seed)) != seen, seed
    assert tried == 3000


def test_one_key_one_deal_per_number_and_the_teacher_replays_it(monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    a, b = PlayApp(), PlayApp()  # two pages of one `make app`: two kernels, one key
    assert deal(a.game_widget.game) == deal(b.game_widget.game)
    teacher = tutorial("usa", seed=deal_seed(KEY, 7), opponent="easy")
    assert deal(teacher.game) == deal(a.game_widget.game)
    a.mode.value = b.mode.value = "play"
    a.number.value = b.number.value = 12
    ga, gb = a.new_game().game, b.new_game().game
    assert deal(ga) == deal(gb) == deal(ttr_lab.play("usa", players=["You", "easy"], seed=deal_seed(KEY, 12)).game)
    assert deal(ga) != deal(PlayApp(number=12, mode="play", key="another key, just as long").game_widget.game)
    monkeypatch.delenv(KEY_ENV)
    c, d = PlayApp(), PlayApp()  # no key given: one random key for this process
    assert deal(c.game_widget.game) == deal(d.game_widget.game) != deal(a.game_widget.game)


def test_the_key_and_the_seed_never_reach_the_page():
    app = PlayApp(key=KEY)
    for number in (7, 12):
        app.number.value = number
        app.new_game()
        sent = json.dumps(synced(app), default=str)
        seed = app.game_widget.game.seed
        assert KEY not in sent and str(seed) not in sent and hex(seed)[2:] not in sent
        assert app.number.value == number  # the number itself is shown, as it should be


def test_bad_keys_and_numbers_are_refused():
    with pytest.raises(TtrError, match="16 to 1024 characters"):
        PlayApp(key="1234")
    with pytest.raises(TtrError, match="key: text or bytes"):
        app_key(1234)  # type: ignore[arg-type]
    for number in (-1, MAX_GAME_NUMBER + 1, True, 1.5, "7"):
        with pytest.raises(TtrError, match="game number"):
            deal_seed(KEY, number)  # type: ignore[arg-type]
    with pytest.raises(TtrError, match="game number"):
        PlayApp(key=KEY, number=-3)
    assert deal_seed(KEY, 0) != deal_seed(KEY, 1) and deal_seed(KEY.encode(), 5) == deal_seed(KEY, 5)
