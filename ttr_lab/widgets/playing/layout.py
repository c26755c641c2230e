"""The play widget's layout: which widgets, where, and the page's CSS.

Sized for a laptop: at 1366×768 with JupyterLab's file browser open a
notebook shows about 934 × 647 pixels of output, so the status line (two
short lines), the card row, the board (620 pixels wide by default) and the
hand beside it (at the top of a 300-pixel side panel) fit in it together::

    ┌ status: what is due now · what just happened ─────────────────────┐
    │ face-up cards · deck · draw tickets · (stop, pass...)            │
    ├ board (one plotly FigureWidget) ─────────┬ your hand ─────────────┤
    │  [a refusal floats here, by the click]   │ decision boxes         │
    │                                          │ your tickets · scores  │
    │                                          │ undo redo · options    │
    └──────────────────────────────────────────┴────────────────────────┘
    [ Log | Legal moves | Score breakdown | (Advisor) ]  the chosen tab's contents

With ``advisor=True`` a fourth tab, "Advisor", holds the win-chance bars and
the Hint button (:class:`~ttr_lab.widgets.advice.SeatAdvisor`), under the
board, so the fit above is unchanged.

A refusal is an overlay (absolutely placed, so nothing moves) next to what
was clicked: under the card row for a card or deck button, at the route or
city for a board click, beside the side panel for its buttons.  Card
buttons keep their whole label (they wrap to a second row rather than
shrink), and the score table keeps every column.

The tabs are a row of toggle buttons over one box whose contents the kernel
sets, so a tab is filled *before* it is shown (no stale list for a moment).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ...board.plotly import board_figure, city_trace_index, route_trace_index, update_board
from ...engine.moves import DrawTickets, StopDrawing
from ..controls.more import WIDGET_VERBS, OtherMoves
from ..figure import FigureWidget
from ..inspector import MoveInspector

__all__ = ["PlayParts", "PlayLayout", "css", "TABS", "ADVISOR_TAB", "SIDE_PX", "BOARD_PX", "BOARD_MAX_PX"]

BOARD_PX = 620  # the board's default width
#: the tallest board that fits a laptop under a four-line status and a two-row card row
#: (647 px of notebook height at 1366x768, issue 11 item 6): a taller one (the Rails &
#: Sails World ticket choice, whose legend lists five offered tickets: 583 px; USA's, 503)
#: is drawn at this height from then on, the map scaled to leave room for the legend
BOARD_MAX_PX = 496
SIDE_PX = 300  # the side panel's width
TABS = ("Log", "Legal moves", "Score breakdown")
ADVISOR_TAB = "Advisor"  # the tab added by ``advisor=True``

_CSS = """<style>
.ttr-play .ttr-status { min-height: 42px; }
.ttr-play .ttr-prompt { font-size: 14px; line-height: 20px; }
.ttr-play .ttr-news { font-size: 13px; line-height: 18px; color: #37474f; max-height: 36px; overflow: hidden; }
.ttr-play .ttr-news .ttr-private { color: #1b5e20; font-weight: bold; }
.ttr-play .ttr-cards { flex-wrap: wrap; align-items: stretch; }
.ttr-play .ttr-cards .widget-button, .ttr-play .ttr-cards .widget-toggle-button {
  flex: 0 0 auto; max-width: none; overflow: visible; text-overflow: clip; padding: 0 8px;
}
.ttr-play .ttr-cards .widget-toggle-buttons { flex: 0 0 auto; }
.ttr-play .ttr-board { position: relative; overflow: visible; align-items: flex-start; }
.ttr-play .ttr-figure { flex: 0 0 auto; width: BOARDpx; min-height: HEIGHTpx; }
.ttr-play .ttr-refusal {
  position: absolute; z-index: 30; width: 300px; box-sizing: border-box;
  background: #fff8e1; border: 2px solid #c62828; border-radius: 6px;
  box-shadow: 0 2px 10px rgba(0,0,0,0.3); padding: 4px 6px;
}
.ttr-play .ttr-refusal.ttr-above { transform: translateY(-100%); }
.ttr-play .ttr-refusal .ttr-refusal-text { font-size: 13px; line-height: 17px; }
.ttr-play .ttr-refusal .ttr-refusal-close { align-self: flex-end; height: 22px; }
.ttr-play .ttr-side { font-size: 13px; }
.ttr-play .ttr-side .widget-html-content { line-height: 18px; }
.ttr-play .ttr-scores { overflow-x: auto; max-width: 100%; }
.ttr-play .ttr-scores table { border-collapse: collapse; font-size: 12px; }
.ttr-play .ttr-scores th, .ttr-play .ttr-scores td { padding: 0 3px; white-space: nowrap; text-align: right; }
.ttr-play .ttr-scores th:nth-child(2), .ttr-play .ttr-scores td:nth-child(2) { text-align: left; }
.ttr-play .ttr-scores table.ttr-scores-turned { table-layout: fixed; width: 100%; }
.ttr-play .ttr-scores table.ttr-scores-turned th, .ttr-play .ttr-scores table.ttr-scores-turned td {
  white-space: normal; overflow-wrap: anywhere; text-align: left;
}
.ttr-play .ttr-keep-box .widget-checkbox, .ttr-play .ttr-keep-box .widget-checkbox * {
  white-space: normal; overflow: visible; height: auto; line-height: 16px;
}
.ttr-play .ttr-bot-tag { color: #78909c; font-weight: normal; font-size: 11px; }
.ttr-play .ttr-tabs .widget-toggle-button { width: auto; padding: 0 12px; }
</style>"""


def css(board_px: int, height_px: int) -> str:
    """The page's ``<style>`` for a board ``board_px`` wide and ``height_px`` tall."""
    return _CSS.replace("BOARDpx", f"{board_px}px").replace("HEIGHTpx", f"{height_px}px")


class PlayParts:
    """The parts of the play widget its mixins share: the game, the widgets
    :class:`PlayLayout` builds, and what the controller provides."""

    game: Any
    fig: Any
    controls: dict[str, Any]
    other_moves: OtherMoves
    inspector: MoveInspector
    bots: dict[int, Any]
    humans: tuple[int, ...]
    _width: int
    _height: int | None  # the board's height for the whole game, or None: as the board needs
    _advisor: Any  # a SeatAdvisor, or None
    # widgets
    _status: Any
    _faceup: list[Any]
    _card_class: list[str]
    _deck: Any
    _stop: Any
    _draw_tickets: Any
    _extra: Any
    _pay: Any
    _pay_box: Any
    _keep_head: Any
    _keep_list: Any
    _keep_box: Any
    _hand: Any
    _reveal: Any
    _tickets: Any
    _scores: Any
    _undo: Any
    _redo_button: Any
    _hide: Any
    _show_paths: Any
    _log: Any
    _outcome: Any
    _tab_bar: Any
    _tab_body: Any
    _refusal: Any
    _refusal_text: Any
    _cards_row: Any
    _anchor: tuple[Any, ...]
    # what the controller provides (the public ones: the Host protocol of ttr_lab.widgets.controls.base)
    _button: Callable[..., Any]
    refuse: Callable[..., bool]
    hand_hidden: Callable[[], bool]
    choose_payment: Callable[..., bool]
    click_faceup: Callable[..., bool]
    draw_blind: Callable[..., bool]
    play_move: Callable[..., bool]
    undo: Callable[[], bool]
    redo: Callable[[], bool]
    refresh: Callable[..., None]
    _board_options: Callable[[], dict[str, Any]]
    _letters: bool
    show_tab: Callable[[str], None]
    _redo: list[Any]
    _on_route_click: Callable[..., None]
    _on_city_click: Callable[..., None]
    _clear_refusal: Callable[[], None]
    _confirm_claim: Callable[[], bool]
    _cancel_claim: Callable[[], None]
    _keep: Callable[[], bool]
    _reveal_hand: Callable[[], None]
    _toggle: Callable[[], None]
    _inspect: Callable[[int | None], None]
    _show_tab: Callable[[str], None]
    _viewer: Callable[[], int]
    _hand_visible: Callable[[], bool]
    _news_parts: Callable[[], list[tuple[str, bool]]]


class PlayLayout(PlayParts):
    """Builds the play widget's widgets (a mixin of :class:`~ttr_lab.widgets.playing.PlayWidget`)."""

    def make_button(self, text: str, css: str, action: Callable[[], Any], **style: Any) -> Any:
        """A button labelled ``text`` with CSS class ``css`` that calls ``action()`` when pressed;
        a refusal it causes is shown next to it (``style``: more ``ipywidgets.Button`` keywords)."""
        return self._button(text, css, action, **style)

    def _button(self, text: str, css: str, action: Callable[[], Any], **kw: Any) -> Any:
        b = W.Button(description=text, layout=W.Layout(width="auto"), **kw).add_class(css)
        b.on_click(lambda _b: self._clicked(_b, action))
        return b

    def _clicked(self, button: Any, action: Callable[[], Any]) -> None:
        """A button was pressed: a refusal will show next to it (card row or side panel)."""
        row = list(self._cards_row.children) if hasattr(self, "_cards_row") else []
        if button in row:
            self._anchor = ("cards", row.index(button) + 1)
        elif hasattr(self, "other_moves") and self.other_moves.holds(button):
            self._anchor = ("cards", len(row))
        else:
            self._anchor = ("side",)
        action()

    def _build_board(self) -> None:
        g = self.game
        self._height = None
        self.fig = FigureWidget(
            board_figure(g, width=self._width, title="", show_color_letters=self._letters, viewer=-1)
        )
        self.fig.add_class("ttr-figure")
        self.fig.data[route_trace_index(self.fig)].on_click(self._on_route_click)
        self.fig.data[city_trace_index(self.fig)].on_click(self._on_city_click)
        self._refusal_text = W.HTML().add_class("ttr-refusal-text")
        close = self._button("OK", "ttr-refusal-close", self._clear_refusal)
        self._refusal = W.VBox([self._refusal_text, close]).add_class("ttr-refusal")
        self._refusal.layout.display = "none"

    def _redraw_board(self) -> None:
        """Redraw the board for the game as it is; a board taller than
        :data:`BOARD_MAX_PX` is drawn that tall from then on (the map scaled down)."""
        update_board(self.fig, self.game, **self._board_options())
        if self._height is None and (self.fig.layout.height or 0) > BOARD_MAX_PX:
            self._height = BOARD_MAX_PX  # _board_options passes it from now on
            update_board(self.fig, self.game, **self._board_options())

    def _build_cards(self) -> Any:
        g = self.game
        self._faceup = [
            self._button("", f"ttr-faceup-{i + 1}", functools.partial(self.click_faceup, i + 1))
            for i in range(len(g.row))
        ]
        for button in self._faceup:  # a white card needs an edge
            button.layout.border = "1px solid #555"
            button.layout.min_width = "64px"
        self._card_class = [""] * len(g.row)
        self._deck = self._button("Deck", "ttr-deck", lambda: self.draw_blind())
        self._stop = self._button(
            "Stop (keep one card)", "ttr-stop", lambda: self.play_move(StopDrawing()), button_style="warning"
        )
        self._draw_tickets = self._button("Draw tickets", "ttr-draw-tickets", lambda: self.play_move(DrawTickets()))
        # pass, and any move without a control of its own: buttons, or a dropdown when there are many
        self.other_moves = OtherMoves(self, WIDGET_VERBS.union(*(c.verbs for c in self.controls.values())))
        self._extra = self.other_moves.box
        row = [w for c in self.controls.values() for w in c.row()]
        self._cards_row = W.HBox([*self._faceup, self._deck, self._draw_tickets, *row, self._stop, self._extra])
        return self._cards_row.add_class("ttr-cards")

    def _build_side(self, hide: bool, paths: bool) -> Any:
        self._pay = W.ToggleButtons(options=[], style={"button_width": "auto"}).add_class("ttr-payment")
        self._pay_box = W.VBox(
            [
                W.HTML("<b>Pay with:</b>"),
                self._pay,
                W.HBox(
                    [
                        self._button("Confirm", "ttr-confirm", self._confirm_claim, button_style="success"),
                        self._button("Cancel", "ttr-cancel", self._cancel_claim),
                    ]
                ),
            ]
        ).add_class("ttr-pay-box")
        self._keep_head = W.HTML("<b>Tickets to keep:</b>").add_class("ttr-keep-head")
        self._keep_list = W.VBox([])
        self._keep_box = W.VBox(
            [
                self._keep_head,
                self._keep_list,
                self._button("Keep", "ttr-keep", self._keep, button_style="primary"),
            ]
        ).add_class("ttr-keep-box")
        self._hand = W.HTML().add_class("ttr-hand")
        self._reveal = self._button("Show my hand", "ttr-reveal", self._reveal_hand)
        self._tickets = W.HTML().add_class("ttr-tickets")
        self._scores = W.HTML().add_class("ttr-scores")
        self._undo = self._button("↶ Undo", "ttr-undo", self.undo)
        self._redo_button = self._button("↷ Redo", "ttr-redo", self.redo)
        self._hide = W.Checkbox(
            value=hide, description="hidden hands", indent=False, layout=W.Layout(width="auto")
        ).add_class("ttr-hide")
        self._show_paths = W.Checkbox(
            value=paths, description="ticket paths", indent=False, layout=W.Layout(width="auto")
        ).add_class("ttr-paths")
        self._hide.observe(lambda _c: self._toggle(), "value")
        self._show_paths.observe(lambda _c: self.refresh(), "value")
        return W.VBox(
            [
                self._hand,
                self._reveal,
                self._pay_box,
                *[w for c in self.controls.values() for w in c.side()],
                self._keep_box,
                self._tickets,
                self._scores,
                W.HBox([self._undo, self._redo_button]),
                W.HBox([self._hide, self._show_paths]),
            ],
            layout=W.Layout(width=f"{SIDE_PX}px", min_width=f"{SIDE_PX}px", margin="0 0 0 6px"),
        ).add_class("ttr-side")

    def _build_tabs(self) -> Any:
        self._log = W.HTML().add_class("ttr-log")
        self._outcome = W.HTML().add_class("ttr-outcome")
        self.inspector = MoveInspector(self.game, on_select=self._inspect, on_play=self.play_move)
        tabs = [*TABS, ADVISOR_TAB] if self._advisor is not None else list(TABS)
        self._tab_bar = W.ToggleButtons(options=tabs, value=TABS[0], style={"button_width": "auto"}).add_class(
            "ttr-tabs"
        )
        self._tab_body = W.Box([self._log], layout=W.Layout(width="100%")).add_class("ttr-tab-body")
        self._tab_bar.observe(lambda c: self._show_tab(c["new"]), "value")
        return W.VBox([self._tab_bar, self._tab_body])

    def _build(self, hide: bool, paths: bool) -> list[Any]:
        """Every widget of the page, top to bottom (the controls must exist)."""
        self._status = W.HTML().add_class("ttr-status")
        self._build_board()
        cards = self._build_cards()
        side = self._build_side(hide, paths)
        board = W.HBox([self.fig, side, self._refusal]).add_class("ttr-board")
        style = W.HTML(css(self._width, int(self.fig.layout.height or 400))).add_class("ttr-style")
        return [style, self._status, cards, board, self._build_tabs()]

    # ------------------------------------------------------------------ where a refusal goes
    def _anchor_point(self, x: float, y: float) -> tuple[float, float] | None:
        """The pixel position (from the board's top-left corner) of board point ``(x, y)``."""
        lay = self.fig.layout
        try:
            (x0, x1), (y0, y1) = lay.xaxis.range, lay.yaxis.range
            m = lay.margin
            w, h = float(lay.width), float(lay.height)
            px = m.l + (x - x0) / (x1 - x0) * (w - m.l - m.r)
            py = m.t + (y1 - y) / (y1 - y0) * (h - m.t - m.b)
        except (TypeError, ValueError, ZeroDivisionError, AttributeError):
            return None
        return px, py

    def _place_refusal(self, anchor: tuple[Any, ...]) -> None:
        """Put the refusal box next to ``anchor``: ``("board", px, py)``,
        ``("cards", slot or None)`` or ``("side",)``."""
        lay = self._refusal.layout
        width = float(self.fig.layout.width or self._width)
        height = float(self.fig.layout.height or 400)
        box_w = 300.0
        kind = anchor[0] if anchor else "cards"
        if kind == "board" and len(anchor) == 3:
            px, py = float(anchor[1]), float(anchor[2])
            left = min(max(px - box_w / 2, 4.0), width - box_w - 4)
            above = py > height * 0.55  # below the click, else above it
            top = py - 16 if above else py + 16
        elif kind == "side":
            left, top, above = width - box_w + 2, 40.0, False
        else:  # the card row, just above the board
            slot = anchor[1] if len(anchor) > 1 and isinstance(anchor[1], int) else 1
            left, top, above = min(max(4.0 + (slot - 1) * 90.0, 4.0), width - box_w - 4), 2.0, False
        lay.left, lay.top = f"{left:.0f}px", f"{top:.0f}px"
        if above:
            self._refusal.add_class("ttr-above")
        else:
            self._refusal.remove_class("ttr-above")
