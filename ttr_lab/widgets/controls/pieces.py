"""The ``"pieces"`` control: the secret split of pieces into trains and ships.

While ``pieces`` moves are legal, a slider over the library's choices
(``move.trains``) and a Choose button; the score table shows who has chosen
(``game.pieces_chosen(p)``) until everyone has, then ``game.trains(p)`` and
``game.ships(p)``.  The slider is reset for every person who chooses, and
whenever it is hidden, so one player's choice never stays on the screen
for the next.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ...engine.moves import Move
from .base import Control, Decision, Host, hand_made, move_classes, show

__all__ = ["PiecesControl"]

#: the rulebook's suggestion for a first game (clamped to the legal choices)
SUGGESTED_TRAINS = 20


class PiecesControl(Control):
    """The setup split slider; the trains and ships columns of the score table."""

    name = "pieces"
    verbs = frozenset({"pieces"})
    replaces = frozenset({"pieces"})

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        ed: Any = self.game.edition
        self._class = next(iter(move_classes(ed, "pieces", field="trains")), None)
        self._total = int(ed.total_pieces)  # the pieces rule's parameter: trains + ships
        self.slider = W.IntSlider(value=0, min=0, max=1, description="trains", continuous_update=True).add_class(
            "ttr-pieces-slider"
        )
        self.label = W.HTML().add_class("ttr-pieces-label")
        self.slider.observe(lambda _c: self._label(), "value")
        self.box = W.VBox(
            [
                W.HTML("<b>Split your pieces (secret until all have chosen):</b>"),
                self.slider,
                self.label,
                host.make_button("Choose", "ttr-choose-pieces", self.choose, button_style="primary"),
            ]
        ).add_class("ttr-pieces-box")
        self._key: tuple[Any, ...] | None = None
        show(self.box, False)

    def side(self) -> list[Any]:
        return [self.box]

    def choose(self, trains: int | None = None) -> bool:
        """Keep ``trains`` trains (default: the slider's value); the rest are ships."""
        h = self.host
        if h.hand_hidden():
            return False
        n = self.slider.value if trains is None else trains
        legal: list[Move] = [m for m in self.game.legal_moves if m.verb == "pieces" and getattr(m, "trains", None) == n]
        move = legal[0] if legal else (hand_made(self._class, trains=n) if self._class else None)
        if move is None:
            return h.refuse("There are no pieces to choose.")
        return h.play_move(move)

    # ------------------------------------------------------------------ display
    def _all_chosen(self) -> bool:
        g = self.game
        return all(g.pieces_chosen(q) for q in range(g.n))

    def prompt(self) -> str | None:
        if not any(m.verb == "pieces" for m in self.game.legal_moves):  # public: the decision due
            return None
        return "{name}: choose how many trains to keep (the rest are ships) and press Choose."

    def score_columns(self, seat: int) -> list[tuple[str, str]]:
        g = self.game
        if not self._all_chosen():
            mark = "chosen" if g.pieces_chosen(seat) else "…"
            return [("trains", mark), ("ships", mark)]
        return [("trains", str(g.trains(seat))), ("ships", str(g.ships(seat)))]

    def after_move(self, move: Move) -> str:
        g = self.game
        if move.verb != "pieces" or not self._all_chosen():
            return ""
        split = "; ".join(f"{n} {g.trains(q)} trains / {g.ships(q)} ships" for q, n in enumerate(g.player_names))
        return f"\nPieces revealed: {split}"

    def _label(self) -> None:
        if self._key is None:
            self.label.value = ""
            return
        t = self.slider.value
        self.label.value = f"{t} trains and {self._total - t} ships"

    def refresh(self, now: Decision) -> None:
        values = sorted(getattr(m, "trains", 0) for m in now.with_verb("pieces"))
        show(self.box, bool(values))
        key = (now.seat, values[0], values[-1]) if values else None
        if key == self._key:
            return
        self._key = key  # a new person chooses (or nobody): start afresh
        s = self.slider
        lo, hi = (values[0], values[-1]) if values else (0, 1)
        value = min(max(SUGGESTED_TRAINS, lo), hi) if values else 0
        with s.hold_sync():
            s.min, s.max = min(s.min, lo), max(s.max, hi)  # widen first: the value stays in range
            s.value = value
            s.min, s.max = lo, hi
        self._label()
