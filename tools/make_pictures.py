"""Redraw the README's board pictures: ``python tools/make_pictures.py``.

Plays seeded games with the greedy bots, draws each board with ttr_lab's own
plotly figure (:func:`ttr_lab.board.board_figure`, at its natural size:
900 pixels wide) and screenshots it in Debian's headless Chromium through
Playwright (no kaleido, never ``playwright install``):

* ``docs/board-usa.png``: USA after 150 moves, Ada's tickets ringed;
* ``docs/board-europe.png``: Europe after 160 moves;
* ``docs/board-world.png``: Rails & Sails World after 160 moves.

``--svg`` also writes each board's static SVG (:func:`ttr_lab.board.board_svg`)
beside its picture, for comparison.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ttr_lab  # noqa: E402
from ttr_lab.board import board_figure, board_svg  # noqa: E402
from ttr_lab.bots import make_bot  # noqa: E402
from ttr_lab.io.safeio import atomic_write  # noqa: E402

DOCS = ROOT / "docs"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def played(edition: str, players: int | list[str], seed: int, plies: int) -> ttr_lab.GameState:
    game = ttr_lab.new_game(edition, players=players, seed=seed)
    bots = [make_bot("greedy", seed=i) for i in range(game.num_players)]
    while not game.is_over and game.ply < plies:
        p = game.current_player
        game.play(bots[p].choose(game.view(p)))
    return game


def screenshot(page, fig, out: Path) -> None:
    """The figure as a static plot, at its own size."""
    width, height = int(fig.layout.width), int(fig.layout.height)
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "board.html"
        fig.write_html(html, include_plotlyjs=True, full_html=True, config={"staticPlot": True})
        page.set_viewport_size({"width": width, "height": height})
        page.goto(html.as_uri())
        page.wait_for_selector(".main-svg")
        page.wait_for_timeout(300)
        atomic_write(out, page.screenshot(clip={"x": 0, "y": 0, "width": width, "height": height}))
    print("wrote", out.relative_to(ROOT), f"({width} x {height})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--svg", action="store_true", help="also write each board's static SVG")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    usa = played("usa", ["Ada", "Bob", "Cy"], seed=11, plies=150)
    boards = [
        ("board-usa", usa, {"tickets": usa.tickets(0)}, "ttr_lab: a USA game after 150 moves (Ada's tickets ringed)"),
    ]
    for edition, name in (("europe", "board-europe"), ("rails_and_sails", "board-world")):
        game = played(edition, 3, seed=4, plies=160)
        boards.append((name, game, {}, f"ttr_lab: {game.edition.title} after 160 moves"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        for name, game, extra, title in boards:
            screenshot(page, board_figure(game, title=title, **extra), DOCS / f"{name}.png")
            if args.svg:
                atomic_write(DOCS / f"{name}.svg", board_svg(game, title=title, **extra))
                print("wrote", f"docs/{name}.svg")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
