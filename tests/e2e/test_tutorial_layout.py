"""The tutorial fits a laptop (issue 19 D1): JupyterLab + Chromium at 1366×768.

Opens a notebook holding ``ttr_lab.tutorial("usa")`` (and Europe's, whose
board is the tallest of the three editions) in a 1366×768 window
with the file browser open, runs it, scrolls the tutorial to the top of the
notebook (as a person reading it would), and checks that the guide, the
board's bottom, its legend and the tabs under it are all inside the part of
the notebook the window shows, at three moments: the ticket choice (the
longest legend: every offered ticket's path), the first turn (a new rule
explained, the payable routes framed) and after a refused claim (the guide
says what the refusal meant).  At the first turn the guide's news line is
opened: the whole text shows over the board, and nothing moves.  The
measured boxes are printed, and each stage's screenshot is written to
``test-artifacts/tutorial-<stage>.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed").expect

from .test_play_browser import LAPTOP, write_notebook  # noqa: E402

pytestmark = pytest.mark.browser
expect.set_options(timeout=30_000)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

#: the tutorial's top at the notebook's top; then each part's box against what the window shows
_BOXES_JS = """() => {
  const tut = document.querySelector('.ttr-tutorial-game');
  const pane = tut.closest('.jp-WindowedPanel-outer') || tut.closest('.jp-Notebook');
  pane.scrollTop += tut.getBoundingClientRect().top - pane.getBoundingClientRect().top;
  const shown = pane.getBoundingClientRect();
  const box = el => { if (!el) return null; const b = el.getBoundingClientRect();
                      return {top: Math.round(b.top), bottom: Math.round(b.bottom), height: Math.round(b.height)}; };
  const q = s => tut.querySelector(s);
  return {shown: {top: Math.round(shown.top), bottom: Math.round(Math.min(shown.bottom, window.innerHeight))},
          guide: box(q('.ttr-tutorial')), board: box(q('.ttr-figure')),
          legend: box(q('.js-plotly-plot .legend')), tabs: box(q('.ttr-tabs'))};
}"""


def check_shown(page, edition: str, stage: str) -> dict:
    """Every part of the tutorial inside the window, the tutorial at the notebook's top."""
    boxes = page.evaluate(_BOXES_JS)
    print(f"{edition} tutorial at 1366x768, {stage}: {boxes}")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"tutorial-{edition}-{stage.replace(' ', '-').replace(',', '')}.png"))
    top, bottom = boxes["shown"]["top"], boxes["shown"]["bottom"]
    for part in ("guide", "board", "legend", "tabs"):
        b = boxes[part]
        assert b is not None, (stage, part, boxes)
        assert top <= b["top"] and b["bottom"] <= bottom, (stage, part, "outside the window", boxes)
    return boxes


@pytest.mark.parametrize("edition", ["usa", "europe"])
def test_the_tutorial_fits_a_laptop(lab_notebook, jupyter_server, edition):
    name = f"tutorial-fit-{edition}.ipynb"
    write_notebook(jupyter_server[2] / name, f'import ttr_lab\nttr_lab.tutorial("{edition}")')
    page = lab_notebook(name, viewport=LAPTOP)
    tut = page.locator(".ttr-tutorial-game").first
    status = tut.locator(".ttr-status")
    expect(status).to_contain_text("choose the tickets to keep", timeout=90_000)
    expect(page.locator("#filebrowser")).to_be_visible()  # the file browser stays open
    expect(tut.locator(".js-plotly-plot .legend")).to_be_attached(timeout=60_000)
    check_shown(page, edition, "ticket choice")

    tut.locator(".ttr-keep").click()
    expect(status).to_contain_text("your turn", timeout=60_000)
    expect(tut.locator(".ttr-tutorial")).to_contain_text("Try an illegal move")
    before = check_shown(page, edition, "first turn")

    news = tut.locator(".ttr-guide-news summary")  # the news line opens over the board
    expect(news).to_contain_text("Try an illegal move")
    pop = tut.locator(".ttr-guide-pop")
    expect(pop).to_be_hidden()
    news.click()
    expect(pop).to_be_visible()
    expect(pop).to_contain_text("click a route that is not framed")
    opened = check_shown(page, edition, "first turn, news opened")
    assert {k: opened[k] for k in ("board", "legend", "tabs")} == {k: before[k] for k in ("board", "legend", "tabs")}
    news.click()
    expect(pop).to_be_hidden()

    tut.locator(".ttr-deck").click()  # a card, then a claim while the second card is due: refused
    expect(status).to_contain_text("take a second card")
    tut.locator(".ttr-draw-tickets").click()
    expect(tut.locator(".ttr-tutorial")).to_contain_text("That was refused")
    check_shown(page, edition, "after a refusal")
