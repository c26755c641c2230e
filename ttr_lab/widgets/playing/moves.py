"""Move handling in the play widget: clicks, card buttons and the edition's
controls become moves; undo and redo; the bots' turns.

A mixin of :class:`~ttr_lab.widgets.playing.PlayWidget`.  A click on a route
claims it (or asks which of several payments, or says why not, asking
``why_illegal`` about a payment from the hand); a click on a city builds;
an edition's own decisions are its controls' (:attr:`PlayWidget.controls`:
``w.controls["tunnel"].pay()``); :meth:`PlayMoves.undo` steps back to the
previous decision of a person, taking back bot moves too.

>>> from ttr_lab.widgets import PlayWidget
>>> w = PlayWidget("usa", players=["You", "easy"], seed=7)
>>> w.play_move(w.game.legal_moves[0]), w.game.ply  # the bot has kept its tickets too
(True, 2)
>>> w.undo(), w.game.ply
(True, 0)
>>> w.redo(), w.game.ply
(True, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...board.plotly import STALE_CLICK, city_trace_index, clicked_city, clicked_route, route_trace_index
from ...engine.moves import ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets, Move, cards_in_words
from ..controls.base import cards_of
from ..messages import move_line
from .layout import PlayParts
from .seats import Note

__all__ = ["PlayMoves"]


class PlayMoves(PlayParts):
    """Clicks become moves (a mixin of :class:`~ttr_lab.widgets.playing.PlayWidget`)."""

    _lines: list[str]
    _notes: list[Note]
    _refused: tuple[str, str | None, int | None] | None
    _revealed: int | None
    _pending_claim: list[Move]
    _inspected: int | None
    _keep_ids: tuple[int, ...]
    _checks: list[Any]
    _refuse: Callable[..., bool]
    _say: Callable[..., None]
    _status_html: Callable[[], str]
    _blocked: Callable[[], bool]
    _refusal_words: Callable[[Move, str, str], str]
    _anchor_point: Callable[[float, float], tuple[float, float] | None]

    # ------------------------------------------------------------------ public API: clicks and buttons
    def click_route(self, route_id: int) -> bool:
        """What a click on a route does: claim it (or ask how to pay, or say why not)."""
        self._anchor = self._route_anchor(route_id)
        return self._claim(route_id)

    def click_faceup(self, slot: int) -> bool:
        """What a click on face-up card ``slot`` (1-based) does; where the player
        chooses the refill pile (Rails & Sails), the refill toggle names it."""
        self._anchor = ("cards", slot)
        refills = [r for r in (c.faceup_refill() for c in self.controls.values()) if r is not None]
        return self.play_move(DrawFaceUp(slot, refills[0] if refills else None))

    def draw_blind(self, pile: str | None = None) -> bool:
        """Draw the top card of ``pile`` (``"trains"``/``"ships"``; ``None`` where there is one pile)."""
        return self.play_move(DrawBlind(pile))

    def click_city(self, city: str) -> bool:
        """What a click on a city's marker does: what the first control taking city clicks
        does with it (the ``build`` control builds a station or harbor, or asks how to pay)."""
        if self._anchor[0] != "board":
            self._anchor = self._city_anchor(city)
        for control in self.controls.values():
            done = control.city_click(city)
            if done is not None:
                return bool(done)
        ed = self.game.edition.name
        return self._refuse(f"Nothing to build in {city}: the {ed} edition has no stations or harbors.")

    def undo(self) -> bool:
        """Step back to the previous decision of a person, taking back bot moves too."""
        g = self.game
        if not g.move_stack:
            return self._refuse("Nothing to undo.")
        popped = []
        while g.move_stack:
            popped.append(g.pop())
            if not self.humans or (not g.is_over and g.current_player in self.humans):
                break
        else:  # only bot moves before this decision: put them back
            if g.current_player not in self.humans:
                for move in reversed(popped):
                    g.push(move)
                return self._refuse("Nothing to undo: no earlier decision of yours.")
        self._redo.extend(popped)
        self._lines = self._lines[: g.ply]
        self._pending_claim, self._inspected, self._refused = [], None, None
        self._revealed = None  # whoever pressed Undo: the hand to decide is hidden again
        self._say(f"Undone: back to ply {g.ply}.")
        self.refresh(run_bots=False)
        return True

    def redo(self) -> bool:
        """Replay the moves taken back by :meth:`undo`, up to the next person's decision."""
        g = self.game
        if not self._redo:
            return self._refuse("Nothing to redo.")
        while self._redo:
            move = self._redo.pop()
            self._lines.append(move_line(g, move))
            g.play(move)
            if not self.humans or g.is_over or g.current_player in self.humans:
                break
        self._revealed, self._refused = None, None
        self._say(f"Redone: forward to ply {g.ply}.")
        self.refresh()
        return True

    # ------------------------------------------------------------------ moves
    def _claim(self, route_id: int) -> bool:
        if self._blocked():
            return False
        g = self.game
        options = [m for m in g.legal_moves if m.verb == "claim" and getattr(m, "route", None) == route_id]
        if len(options) == 1:
            return self.play_move(options[0])
        if not options:
            rule, reason = g.why_illegal(self._probe_claim(route_id)) or ("?", "no payment is possible")
            return self._refuse(self._refusal_words(ClaimRoute(route_id, ()), rule, reason), rule=rule)
        return self.choose_payment(options, self._route_name(route_id))

    def _run_bots(self) -> list[Note]:
        g, done = self.game, list[Note]()
        while not g.is_over and g.current_player in self.bots:
            p = g.current_player
            move = self.bots[p].choose(g.view(p))
            line = move_line(g, move)
            g.play(move)
            self._lines.append(line)
            done.append((line + self._news(move), None))
        return done

    def _news(self, move: Move) -> str:
        """What the controls announce after ``move`` (the pieces revealed...)."""
        return "".join(c.after_move(move) for c in self.controls.values())

    def _replayed_lines(self) -> list[str]:
        """Log lines for the moves played behind the widget's back, each
        announced in the position before it (on a copy of the game)."""
        g = self.game
        lines = self._lines[: g.ply]
        replay = g.copy(stack=True)
        later = []
        while replay.ply > len(lines):
            later.append(replay.pop())
        for move in reversed(later):
            lines.append(move_line(replay, move))
            replay.push(move)
        return lines

    def choose_payment(self, options: Sequence[Move], what: str) -> bool:
        """Ask which of ``options`` (legal moves that differ only in their cards) to play, in the
        payment box (Confirm, Cancel); ``what`` names the purchase (``"Build in Roma"``)."""
        self._pending_claim = list(options)
        with self._pay.hold_sync():
            self._pay.options = [(cards_in_words(cards_of(m) or ()), i) for i, m in enumerate(options)]
            self._pay.value = 0
        self._refused = None
        self._say(f"{what}: {len(options)} ways to pay; pick one and press Confirm.", private=True)
        self.refresh()
        return True

    def _probe_claim(self, route_id: int) -> ClaimRoute:
        """A payment to ask ``why_illegal`` about: the route's colour (or the
        commonest colour) from the hand, then wilds, so the reason is useful."""
        g = self.game
        if not g.map.has_route(route_id):
            return ClaimRoute(route_id, ())
        route, hand = g.map.route(route_id), g.hand(g.current_player)
        wild = g.card_name(g.edition.wild_cards[0])
        colours = {c: k for c, k in hand.items() if c != wild}
        colour = route.color
        if colour == "gray" and colours:  # any one colour will do: try the commonest
            colour = max(colours, key=lambda c: colours[c])
        k = min(colours.get(colour, 0), route.length)
        w = min(hand.get(wild, 0), route.length - k)
        return ClaimRoute(route_id, tuple(sorted(c for c in ((colour, k), (wild, w)) if c[1])))

    def _route_name(self, route_id: int) -> str:
        m = self.game.map
        return f"{m.route(route_id).label()} (route {route_id})" if m.has_route(route_id) else f"route {route_id}"

    # ------------------------------------------------------------------ clicks on the board
    def _point_anchor(self, k: int, i: int) -> tuple[Any, ...]:
        trace = self.fig.data[k]
        at = self._anchor_point(float(trace.x[i]), float(trace.y[i])) if i < len(trace.x) else None
        return ("board", *at) if at else ("cards", None)

    def _route_anchor(self, route_id: int) -> tuple[Any, ...]:
        k = route_trace_index(self.fig)
        ids = list(self.fig.data[k].customdata)
        where = [i for i, r in enumerate(ids) if r == route_id]
        return self._point_anchor(k, where[len(where) // 2]) if where else ("cards", None)

    def _city_anchor(self, city: str) -> tuple[Any, ...]:
        k = city_trace_index(self.fig)
        names = list(self.fig.data[k].customdata)
        return self._point_anchor(k, names.index(city)) if city in names else ("cards", None)

    def _on_route_click(self, trace: Any, points: Any, state: Any) -> None:
        """A click on the routes trace: the route is the one whose point the browser clicked, checked
        against its ``x``/``y`` (:func:`~ttr_lab.board.clicked_route`); a click that cannot be
        matched to the board the person saw is not used, and the status says so (issue 19)."""
        if points.point_inds:
            rid = clicked_route(self.fig, points)
            if rid is None:
                return self._stale_click()
            self._anchor = self._point_anchor(route_trace_index(self.fig), points.point_inds[0])
            self._claim(rid)

    def _on_city_click(self, trace: Any, points: Any, state: Any) -> None:
        if points.point_inds:
            city = clicked_city(self.fig, points)
            if city is None:
                return self._stale_click()
            self._anchor = self._point_anchor(city_trace_index(self.fig), points.point_inds[0])
            self.click_city(city)

    def _stale_click(self) -> None:
        """Say that a click was not used (:data:`~ttr_lab.board.STALE_CLICK`); nothing else changes."""
        self._say(STALE_CLICK)
        self._status.value = self._status_html()

    def _confirm_claim(self) -> bool:
        if not self._pending_claim:
            return self._refuse("No claim to confirm: click a route first.")
        return self.play_move(self._pending_claim[self._pay.value or 0])

    def _cancel_claim(self) -> None:
        self._pending_claim = []
        self._say("Claim cancelled.")
        self.refresh()

    def _keep(self) -> bool:
        return self.play_move(KeepTickets(tuple(sorted(t for t, c in zip(self._keep_ids, self._checks) if c.value))))
