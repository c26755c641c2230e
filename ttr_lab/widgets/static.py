"""What a widget leaves in a saved notebook: its board as a static SVG, and a line of text.

A widget's display bundle holds ``application/vnd.jupyter.widget-view+json``,
which only a live kernel can draw; a notebook saved without widget state
(as the lessons are) shows nothing for it on GitHub, on nbviewer or in
nbconvert's HTML, which fall back to the next type they know.
:func:`widget_bundle` adds that fallback to the bundle: ``image/svg+xml``,
the board exactly as the widget's figure last drew it
(:func:`ttr_lab.board.drawn_svg`: the same object and options, so the
picture holds what the live board holds and nothing of a hand or a ticket
the player at the screen may not see), and a ``text/plain`` line of public
facts (:func:`game_text`).  The widget-view entry stays first in JupyterLab,
which shows the live widget whenever it can.

>>> from ttr_lab import new_game
>>> game_text("PlayWidget", new_game("usa", players=["Ada", "Bo"], seed=1))
'PlayWidget: a usa game, ply 0, Ada to keep tickets; Ada 0 points, 45 pieces left; Bo 0 points, 45 pieces left'
"""

from __future__ import annotations

from typing import Any

from ..board.drawing import SVG_MIME
from ..board.plotly import drawn_svg

__all__ = ["widget_bundle", "game_text"]


def widget_bundle(
    bundle: dict[str, Any] | None, fig: Any, text: str, include: Any = None, exclude: Any = None, **_: Any
) -> dict[str, Any]:
    """A widget's own bundle (``bundle``), plus the board ``fig`` shows as an SVG and ``text`` as plain text."""

    def wanted(mime: str) -> bool:
        return (not include or mime in include) and not (exclude and mime in exclude)

    out = dict(bundle or {})
    if wanted(SVG_MIME):
        svg = drawn_svg(fig)
        if svg is not None:
            out[SVG_MIME] = svg
    if wanted("text/plain"):
        out["text/plain"] = text
    return out


def game_text(kind: str, game: Any) -> str:
    """Public facts of a game state or a seat's view, in a line: edition, ply, whose decision, scores, trains."""
    names = list(game.player_names)
    if game.is_over:
        turn = "game over"
    else:
        keep = game.phase.name in ("SETUP_TICKETS", "KEEP_TICKETS")
        turn = f"{names[game.current_player]} to {'keep tickets' if keep else 'play'}"
    pieces = game.pieces
    seats = "; ".join(
        f"{name} {game.scores[p]} points, {pieces(p) if callable(pieces) else pieces[p]} pieces left"
        for p, name in enumerate(names)
    )
    return f"{kind}: a {game.edition.name} game, ply {game.ply}, {turn}; {seats}"
