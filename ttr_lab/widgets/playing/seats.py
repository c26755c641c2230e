"""Hot-seat and hidden information in the play widget: who is at the screen,
whether their hand is shown, and what the screen may tell them.

A mixin of :class:`~ttr_lab.widgets.playing.PlayWidget`: the person looking
(the seat to decide, else the last person who decided), "Show my hand" and
"Hide hands", the decision due (a :class:`~ttr_lab.widgets.controls.base.Decision`,
private only while the hand is shown), the news under the prompt (each line
public or private to one seat: a :data:`Note`) and the refusals, in words
for people; a private line or refusal is dropped as soon as someone else
may be looking.

>>> from ttr_lab.widgets import PlayWidget
>>> w = PlayWidget("usa", players=["Ada", "Bob"], seed=7, hide_hands=True)
>>> w.play_move("blind")  # nothing is played while Ada's hand is hidden
False
>>> w.status.splitlines()[-1]
"Ada's hand is hidden: press “Show my hand” first (only Ada should look)."
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.moves import Move
from ..controls.base import Decision
from ..messages import claim_refusal, wild_word
from .layout import PlayParts

__all__ = ["PlaySeats", "Note"]

Note = tuple[str, "int | None"]  # a line of news, and the seat it is private to (None: public)


class PlaySeats(PlayParts):
    """Who is looking and what they are told (a mixin of :class:`~ttr_lab.widgets.playing.PlayWidget`)."""

    _notes: list[Note]
    _refused: tuple[str, str | None, int | None] | None  # text, rule, private to
    _revealed: int | None
    _last_human: int
    _pending_claim: list[Move]
    _inspected: int | None
    _place_refusal: Callable[[tuple[Any, ...]], None]
    _status_html: Callable[[], str]
    _refusal_html: Callable[[str, str | None], str]

    # ------------------------------------------------------------------ for controls (the Host protocol)
    def refuse(self, text: str, *, rule: str | None = None, private: bool = True) -> bool:
        """Show ``text`` as a refusal next to what was clicked, with the text of ``rule`` quoted
        from the rules reference; return False.  A ``private`` refusal tells the decider's own
        secrets: it is dropped when someone else may be looking."""
        return self._refuse(text, rule=rule, private=private)

    def hand_hidden(self) -> bool:
        """True, and the screen says so, when the person to decide has not shown their hand."""
        return self._blocked()

    # ------------------------------------------------------------------ news and refusals
    def _refusal_words(self, move: Move, rule: str, reason: str) -> str:
        """A refusal for people: the claim's needs in words, else the library's reason."""
        g = self.game
        you = "you" if len(self.humans) <= 1 else g.player_names[g.current_player]
        route = getattr(move, "route", None)
        if move.verb == "claim" and isinstance(route, int):
            return claim_refusal(g, route, rule, reason, you=you)
        if move.verb == "faceup" and rule == "A2" and "wild" in reason:
            return f"A face-up {wild_word(g)} cannot be your second card (rule {rule}: {reason})."
        return f"Not allowed (rule {rule}): {reason}"

    def _say(self, text: str, *, private: bool = False) -> None:
        """Set the news under the prompt; a ``private`` line may tell the
        decider's own secrets, and is dropped when their hand is hidden."""
        g = self.game
        self._notes = [(text, g.current_player if private else None)] if text else []

    def _news_parts(self) -> list[tuple[str, bool]]:
        return [(t, q is not None) for t, q in self._notes]

    def _refuse(self, text: str, *, rule: str | None = None, private: bool = True) -> bool:
        """Show a refusal next to what was clicked (with the rule it cites,
        quoted from the reference); return False."""
        g = self.game
        self._refused = (text, rule, g.current_player if private else None)
        self._place_refusal(self._anchor)
        self._anchor = ("cards", None)
        self._refresh_refusal()
        self._status.value = self._status_html()
        return False

    def _refresh_refusal(self) -> None:
        r = self._refused
        if r is not None and r[2] is not None and (r[2] != self._viewer() or not self._hand_visible()):
            self._refused = r = None  # it told someone else's secrets
        self._refusal_text.value = self._refusal_html(r[0], r[1]) if r else ""
        self._refusal.layout.display = "flex" if r else "none"

    def _clear_refusal(self) -> None:
        self._refused = None
        self._refresh_refusal()

    def _blocked(self) -> bool:
        """Refuse, and say why, when the person to decide has not shown their hand."""
        g = self.game
        if g.is_over or g.current_player not in self.humans or self._hand_visible():
            return False
        name = g.player_names[g.current_player]
        self._refuse(f"{name}'s hand is hidden: press “Show my hand” first (only {name} should look).", private=False)
        return True

    # ------------------------------------------------------------------ who is looking
    def _viewer(self) -> int:
        g = self.game
        return g.current_player if not g.is_over and g.current_player in self.humans else self._last_human

    def _hand_visible(self) -> bool:
        return not self._hide.value or self._revealed == self._viewer()

    def _decide(self) -> Decision:
        g = self.game
        if g.is_over or g.current_player not in self.humans:
            return Decision(None, False)
        private = self._hand_visible()
        return Decision(g.current_player, private, tuple(g.legal_moves) if private else ())

    def _forget_private(self) -> None:
        """The hand to decide is hidden: drop what the screen held of anyone's secrets."""
        self._pending_claim = []
        self._inspected = None
        self._notes = [(t, q) for t, q in self._notes if q is None]
        if self._refused is not None and self._refused[2] is not None:
            self._refused = None

    def _reveal_hand(self) -> None:
        self._revealed = self._viewer()
        self.refresh()

    def _toggle(self) -> None:
        """Hands hidden or shown: either way, whoever looks must show their hand again."""
        self._revealed = None
        self.refresh()
