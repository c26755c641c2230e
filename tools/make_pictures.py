"""Redraw the README's board picture: ``python docs/make_pictures.py``.

Renders a mid-game USA position with ttr_lab's own plotly drawing and takes
a screenshot with Debian's headless Chromium (no kaleido needed).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import ttr_lab
from ttr_lab.bots import make_bot
from ttr_lab.render import board_figure

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"


def screenshot(fig, out: Path, width: int = 1100, height: int = 720) -> None:
    fig.update_layout(width=width, height=height)
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "board.html"
        fig.write_html(html, include_plotlyjs=True, full_html=True, config={"staticPlot": True})
        subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={tmp}/profile",
                "--hide-scrollbars",
                f"--window-size={width},{height}",
                "--virtual-time-budget=4000",
                f"--screenshot={out}",
                html.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )


def main() -> None:
    game = ttr_lab.new_game("usa", players=["Ada", "Bob", "Cy"], seed=11)
    bots = [make_bot("greedy", seed=i) for i in range(3)]
    while not game.is_over and game.ply < 150:
        p = game.current_player
        game.play(bots[p].choose(game.view(p)))
    tickets = game.tickets(0)
    fig = board_figure(game, tickets=tickets, title="ttr_lab: a USA game after 150 moves (Ada's tickets starred)")
    screenshot(fig, HERE / "board-usa.png")
    print("wrote", HERE / "board-usa.png")
    for edition, name in (("europe", "board-europe.png"), ("rails_and_sails", "board-world.png")):
        game = ttr_lab.new_game(edition, players=3, seed=4)
        bots = [make_bot("greedy", seed=i) for i in range(3)]
        while not game.is_over and game.ply < 160:
            p = game.current_player
            game.play(bots[p].choose(game.view(p)))
        screenshot(board_figure(game, title=f"ttr_lab: {game.edition.title} after 160 moves"), HERE / name)
        print("wrote", HERE / name)


if __name__ == "__main__":
    sys.exit(main())
