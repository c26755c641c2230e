"""The classroom app (``make app``) in a real browser: Voila + Chromium.

``make app`` itself serves ``apps/play.ipynb`` on 127.0.0.1 with a token (the
``voila_server`` fixture starts and stops it; reloads, kernels and requests
are checked in test_reload.py).  Checks: no page
without the token; no code on the page; the guided first game's first turn
(what you may do, the ticket lesson, Keep, the routes you can pay for, a first
card, the illegal second card and its refusal with the second-card lesson);
then a Rails & Sails game against the hard bot from the menu, whose card
buttons show their whole labels in a 1366×768 window.
"""

from __future__ import annotations

import http.client
import urllib.parse

import pytest

_pw = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")
expect, PlaywrightTimeout = _pw.expect, _pw.TimeoutError

from ttr_lab.widgets.messages import highlight_words  # noqa: E402
from ttr_lab.widgets.tutorial import tutorial  # noqa: E402

from .conftest import app_seed  # noqa: E402
from .plotly_dom import board_print  # noqa: E402
from .test_play_browser import LAPTOP, anywidget_failures, console_log  # noqa: E402

pytestmark = pytest.mark.browser
expect.set_options(timeout=30_000)  # a busy machine (several test runs at once) renders slowly

_CUT_JS = """() => [...document.querySelectorAll('.ttr-play .ttr-cards button')]
  .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)"""


def test_the_app_needs_its_token(voila_server):
    url = urllib.parse.urlsplit(voila_server.base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    conn.request("GET", "/")
    r = conn.getresponse()
    body = r.read().decode("utf-8", "replace")
    conn.close()
    assert r.status in (302, 403), r.status  # to the login page, or forbidden
    assert "ttr-" not in body


def test_the_app_teaches_a_first_turn_then_plays_rails_and_sails(chromium_context, voila_server):
    t = tutorial("usa", seed=app_seed(7), opponent="easy")  # the app's first game, replayed here
    t.play_move(t.game.legal_moves[-1])  # Keep with every box ticked
    lit = t.lit_routes()
    bad = max((r for r in t.game.map.routes if r.id not in lit), key=lambda r: (r.length, -r.id))
    g = t.game
    first = next(i for i, c in enumerate(g.row, 1) if c != "loco")
    t.click_faceup(first)
    assert g.phase.name == "SECOND_CARD" and "loco" in g.row, "the seeded first turn offers a face-up locomotive"
    loco = g.row.index("loco") + 1

    page = chromium_context.new_page()
    page.set_viewport_size(LAPTOP)
    try:
        page.goto(voila_server.url, timeout=180_000)  # Voila runs the notebook first
        guide = page.locator(".ttr-tutorial")
        expect(guide).to_contain_text("What you may do now: choose which tickets to keep (at least 2)", timeout=120_000)
        expect(page.get_by_text("from ttr_lab.widgets.app import app")).to_have_count(0)  # no code cells
        expect(guide.locator(".ttr-lesson-tickets")).to_contain_text("A two-city ticket is completed")
        play = page.locator(".ttr-play").first

        play.locator(".ttr-keep").click()
        expect(guide).to_contain_text(f"the {len(lit)} routes {highlight_words()}")  # as the board draws them
        expect(guide).to_contain_text("Try an illegal move")
        expect(guide).to_contain_text(f"{bad.a}–{bad.b} ({bad.length} {bad.color})")
        # the board is checked in test_the_app_board_follows_the_game

        # a first card, then the illegal second one: a face-up locomotive
        play.locator(f".ttr-faceup-{first}").click()
        expect(guide).to_contain_text("take a second card: a face-up card that is not a locomotive")
        lesson = guide.locator(".ttr-lesson-second-card")
        expect(lesson).to_contain_text("No face-up wild may be the second card")
        play.locator(f".ttr-faceup-{loco}").click()
        refusal = play.locator(".ttr-refusal")
        expect(refusal).to_be_visible()
        expect(refusal).to_contain_text("A face-up locomotive cannot be your second card (rule A2")
        expect(guide).to_contain_text("That was refused")
        guide.locator(".ttr-guide-news summary").click()  # the guide's one line opens over the board
        expect(lesson).to_be_visible()  # the lesson stays until the next move

        # a plain game of Rails & Sails against the hard bot: whole button labels
        page.locator('.ttr-app-mode button[data-value="Game"]').click()
        page.locator('.ttr-app-level button[data-value="hard"]').click()
        page.locator(".ttr-app-edition select").select_option(label="Rails & Sails: World")
        page.locator(".ttr-app-new").click()
        expect(page.locator(".ttr-tutorial")).to_have_count(0)
        expect(page.locator(".ttr-play .ttr-status")).to_contain_text("You", timeout=60_000)
        expect(page.locator(".ttr-play .ttr-scores")).to_contain_text("hard")
        expect(page.locator(".ttr-play .ttr-cards")).to_contain_text("train")
        assert page.evaluate(_CUT_JS) == []
    finally:
        page.close()


def test_the_app_board_follows_the_game(chromium_context, voila_server):
    """The board a Voila page builds from the executed notebook's state follows
    later redraws, and anywidget never gives up on its model (the console says
    nothing of "[anywidget] Failed to initialize model": ttr_lab.widgets.figure)."""
    t = tutorial("usa", seed=app_seed(7), opponent="easy")
    t.play_move(t.game.legal_moves[-1])  # Keep with every box ticked
    page = chromium_context.new_page()
    said = console_log(page)
    page.set_viewport_size(LAPTOP)
    try:
        page.goto(voila_server.url, timeout=180_000)  # Voila runs the notebook first
        guide = page.locator(".ttr-tutorial")
        expect(guide).to_contain_text("choose which tickets to keep", timeout=120_000)
        play = page.locator(".ttr-play").first
        play.locator(".ttr-keep").click()
        expect(guide).to_contain_text("Try an illegal move")
        want = [tr.name for tr in t.fig.data]  # the ticket paths gone, the glow added
        # the board draws once plotly's front end came from the kernel (5 MB: slow on a busy machine)
        expect(play.locator(".js-plotly-plot")).to_be_visible(timeout=60_000)
        try:
            page.wait_for_function(
                "([el, want]) => { const gd = el.querySelector('.js-plotly-plot');"
                " return !!gd && !!gd.data && JSON.stringify(gd.data.map(t => t.name)) === JSON.stringify(want); }",
                arg=[play.element_handle(), want],
                timeout=30_000,
            )
        except PlaywrightTimeout:  # say what the page drew instead
            drawn = play.evaluate(
                "el => { const gd = el.querySelector('.js-plotly-plot'); return gd && gd.data ? gd.data.map(t => t.name) : null; }"
            )
            raise AssertionError(f"the page's board drew {drawn}, the game's board {want}; console: {said}") from None
        assert board_print(play) is not None
        assert not anywidget_failures(said), said
    finally:
        page.close()
