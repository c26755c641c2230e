"""A guided first game: ``ttr_lab.tutorial("usa")``.

The play widget with a guide above it.  At every decision the guide says
what you may do now, the board frames the routes you can pay for (the guide
says how they are drawn: :func:`~ttr_lab.widgets.messages.highlight_words`),
and each rule is explained, quoted from the rules reference with the numbers
of your own game, the first time it applies:

* **tickets** (B1, A7), when you choose your first tickets;
* **the second card** (A2): no face-up locomotive as the second card;
* **double routes** (A4): with 2 or 3 players, one route of a pair only;
* **the last round** (A6), when someone is down to 2 trains or fewer;
* **final scoring** (A7), on your own game once it is over.

It also invites you to try an illegal move, and says what the refusal
meant.  The opponent is the easy bot unless told otherwise; everything else
is :class:`~ttr_lab.widgets.playing.PlayWidget`.

The guide is ONE line, so the whole game fits a laptop (1366×768 in
JupyterLab with the file browser open, the board, its legend and the tabs
included; Europe's taller board too): the news of this decision (a
refusal, a new rule, the invitation) and what you may do now, in short and
cut to the line; a click on it opens the whole text (what you may do, the
rule's explanation with this game's numbers and its quote) over the board,
without moving anything.

>>> t = tutorial("usa", seed=7)
>>> t.explained
['tickets']
>>> "What you may do now" in t.guide and "at least 2" in t.guide
True
>>> t.play_move(t.game.legal_moves[0])
True
>>> "try an illegal move" in t.guide.lower(), len(t.lit_routes()) > 0
(True, True)
>>> t.click_route(max(t.game.map.routes, key=lambda r: r.length).id)
False
>>> "That was refused" in t.guide
True
"""

from __future__ import annotations

import html
import re
from typing import Any

import ipywidgets as W

from ..engine.moves import ClaimRoute
from ..engine.phases import Phase
from .messages import highlight_words, route_words, rule_paragraph, wild_word
from .playing.widget import PlayWidget

__all__ = ["TutorialWidget", "tutorial", "LESSONS", "quote"]

_SPLIT = re.compile(r"(?<=[.:;])\s+(?=[A-Z0-9(-])|\s(?=- )|\s(?=\d\. )")

#: the rules the tutorial explains, in the order they usually come up: key -> (rule, title)
LESSONS = {
    "tickets": ("B1", "Tickets"),
    "second card": ("A2", "The second card"),
    "double routes": ("A4", "Double routes"),
    "last round": ("A6", "The last round"),
    "final scoring": ("A7", "Final scoring"),
}

_CSS = """<style>
.ttr-tutorial { position: relative; overflow: visible; border: 2px solid #1565c0; border-radius: 6px;
  background: #e3f2fd; padding: 1px 8px; margin-bottom: 4px; font-size: 13px; line-height: 17px; }
.ttr-tutorial .widget-html, .ttr-tutorial .widget-html-content { position: static; overflow: visible;
  line-height: 17px; margin: 0; min-width: 0; max-width: 100%; }
.ttr-tutorial .ttr-guide-news summary { display: block; cursor: pointer; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.ttr-tutorial .ttr-guide-news summary::before { content: "▸ "; color: #1565c0; }
.ttr-tutorial .ttr-guide-news[open] summary::before { content: "▾ "; }
.ttr-tutorial .ttr-guide-pop { position: absolute; left: -2px; right: -2px; top: 100%; z-index: 40;
  background: #e3f2fd; border: 2px solid #1565c0; border-radius: 0 0 6px 6px; padding: 2px 8px 4px;
  box-shadow: 0 4px 10px rgba(0,0,0,0.3); max-height: 60vh; overflow: auto; }
.ttr-tutorial .ttr-lesson { border-left: 3px solid #1565c0; padding-left: 6px; margin-top: 2px; }
.ttr-tutorial .ttr-quote { color: #37474f; font-style: italic; }
</style>"""


class TutorialWidget(PlayWidget):
    """The play widget with a guide: see the module docstring.

    Attributes
    ----------
    explained : list of str
        The keys of :data:`LESSONS` explained so far, in order.
    guide : str
        The guide's text (its HTML is in the ``ttr-tutorial`` box).
    """

    def __init__(self, edition: str = "usa", *, seed: int = 7, opponent: str = "easy", **kwargs: Any) -> None:
        self.explained: list[str] = []
        self._fresh: list[tuple[str, int]] = []  # (lesson, ply): explained at this decision
        self._tried: str | None = None  # the refusal the player met, in words
        self._guide = W.HTML().add_class("ttr-tutorial-text")
        self._guide_box = W.VBox([W.HTML(_CSS), self._guide]).add_class("ttr-tutorial")
        super().__init__(edition, players=["You", opponent], seed=seed, **kwargs)
        self.children = (self._guide_box, *self.children)  # type: ignore[has-type]
        self.add_class("ttr-tutorial-game")

    # ------------------------------------------------------------------ the guide
    @property
    def guide(self) -> str:
        """The guide as plain text."""
        return html.unescape(_strip_tags(self._guide.value))

    def lit_routes(self) -> list[int]:
        """The routes the board lights up: those you can claim now (on your turn)."""
        g = self.game
        if g.is_over or g.current_player != 0 or g.phase != Phase.TURN:
            return []
        return sorted({m.route for m in g.legal_moves if isinstance(m, ClaimRoute)})

    def refresh(self, *, run_bots: bool = True) -> None:
        super().refresh(run_bots=run_bots)
        self._update_guide()

    def _board_options(self) -> dict[str, Any]:
        opts = super()._board_options()
        opts["highlight"] = sorted(set(opts["highlight"]) | set(self.lit_routes()))
        return opts

    def _refuse(self, text: str, *, rule: str | None = None, private: bool = True) -> bool:
        self._tried = text
        result = super()._refuse(text, rule=rule, private=private)
        self._update_guide()
        return result

    def _learn(self, key: str) -> bool:
        if key in self.explained:
            return False
        self.explained.append(key)
        self._fresh.append((key, self.game.ply))
        return True

    def _update_guide(self) -> None:
        """The guide: ONE line (the news of this decision, then what you may do
        now, cut to the line); a click on it opens all of it over the board."""
        (now, short), news = self._now(), self._guide_news()
        head = " · ".join([*(title for _, title in news), f"<b>Now:</b> {short}"])
        body = f"<div><b>What you may do now:</b> {now}</div>" + "".join(f"<div>{text}</div>" for text, _ in news)
        self._guide.value = f'<details class="ttr-guide-news"><summary>{head}</summary><div class="ttr-guide-pop">{body}</div></details>'

    def _guide_news(self) -> list[tuple[str, str]]:
        """What is new at this decision, most pressing first, as ``(full HTML,
        title HTML)``: a refusal, the rules explained now, the invitation."""
        g = self.game
        out = []
        if self._tried is not None and self._refused is not None:
            out.append(
                (
                    "<b>That was refused</b>, and nothing changed: the widget asked the rules library, "
                    "which said why (the box by your click quotes the rule). Press OK and carry on.",
                    "<b>That was refused</b>: the box by your click says why",
                )
            )
        out += self._lessons()
        if g.phase == Phase.TURN and g.current_player == 0 and self._tried is None and not g.is_over:
            text = (
                f"<b>Try an illegal move</b>: click a route that is not framed, for instance "
                f"{html.escape(self._unpayable())}, and see why it is refused."
            )
            out.append((text, "<b>Try an illegal move</b>"))
        return out

    def _now(self) -> tuple[str, str]:
        """What the player may do at this decision, in words (HTML): in full,
        and in short for the guide's line."""
        g = self.game
        wild = wild_word(g)
        if g.is_over:
            self._learn("final scoring")
            return "nothing more: the game is over. Here is how it was scored.", "the game is over"
        if g.current_player != 0:
            return "wait: the bot is playing.", "wait: the bot is playing"
        if g.phase in (Phase.SETUP_TICKETS, Phase.KEEP_TICKETS):
            k = min((len(m.tickets) for m in g.legal_moves if m.verb == "keep"), default=1)
            self._learn("tickets")
            return (
                f"choose which tickets to keep (at least {k}): untick the others and press <b>Keep</b>; "
                "the board draws each one's cheapest path, the list gives its cost in cars.",
                f"keep at least {k} of the tickets offered (untick the others, press Keep)",
            )
        if g.phase == Phase.SECOND_CARD:
            self._learn("second card")
            return (
                f"take a second card: a face-up card that is not a {wild}, or the top of the deck.",
                f"take a second card (not a face-up {wild})",
            )
        lit = self.lit_routes()
        doubles = [r for r in lit if g.map.route(r).double_of is not None]
        if doubles or any(g.map.route(r).double_of is not None for r in g.route_owners()):
            self._learn("double routes")
        framed = f"the {len(lit)} routes {highlight_words()}"
        claim = (
            f"<b>claim a route</b>: {framed} are the ones you can pay for now; click one"
            if lit
            else "claim a route (none yet: you cannot pay for any route, so collect cards first)"
        )
        if g.final_turns_left is not None:
            self._learn("last round")
        return (
            f"<b>take cards</b> (a face-up card or the deck; a face-up {wild} is your only card this turn), "
            f"{claim}, or <b>draw tickets</b>.",
            f"take cards, claim one of {framed}, or draw tickets" if lit else "take cards or draw tickets",
        )

    def _unpayable(self) -> str:
        """A long route the player cannot claim now, to try."""
        g, lit = self.game, set(self.lit_routes())
        free = [r for r in g.map.routes if r.id not in lit and g.route_owner(r.id) is None]
        r = max(free, key=lambda r: (r.length, -r.id)) if free else None
        return f"{route_words(r)} ({r.length} {r.color})" if r else "any route"

    def _lessons(self) -> list[tuple[str, str]]:
        """The rules explained at this decision, as ``(full HTML, title HTML)``."""
        self._fresh = [(k, ply) for k, ply in self._fresh if ply == self.game.ply]  # shown until the next move
        out = []
        for key, _ in self._fresh:
            rule, title = LESSONS[key]
            text, quote = self._lesson(key)
            name = f"<b>New rule — {title}</b> (rule {rule})"
            out.append(
                (
                    f'<div class="ttr-lesson ttr-lesson-{key.replace(" ", "-")}">{name}: {text} '
                    f'<span class="ttr-quote">“{html.escape(quote)}”</span></div>',
                    name,
                )
            )
        return out

    def _lesson(self, key: str) -> tuple[str, str]:
        """``(explanation with this game's numbers, quote from the rules reference)``."""
        g = self.game
        wild = wild_word(g)
        if key == "tickets":
            offer = self._paths.offer(g, 0) if g.pending_tickets else None
            costs = ", ".join(f"{p.ticket.label()} {p.cost} cars" for p in offer.tickets) if offer else ""
            text = (
                "a ticket is a promise: join its two cities with your own routes by the end and score its "
                "points, or lose them. "
                + (f"Yours would cost {html.escape(costs)} ({html.escape(offer.line())})." if offer else "")
            )
            return text, quote("A7", "A two-city ticket is completed", "A completed ticket adds its value")
        if key == "second card":
            name = g.card_name(g.edition.wild_cards[0])
            row = list(g.row)
            there = f" There is one in the row now (slot {row.index(name) + 1}): try it." if name in row else ""
            return f"a face-up {wild} cannot be your second card.{there}", quote(
                "A2", "No face-up wild may be the second card"
            )
        if key == "double routes":
            pairs = [r for r in g.map.routes if r.double_of is not None and g.route_owner(r.id) is not None]
            if pairs:
                r = pairs[0]
                twin = g.map.route(r.double_of)
                what = (
                    f"{route_words(r)} is claimed, so its twin ({twin.length} {twin.color}) is now closed to "
                    f"everyone: this is a {g.n}-player game."
                )
            else:
                r = g.map.route(next(x for x in self.lit_routes() if g.map.route(x).double_of is not None))
                what = (
                    f"{route_words(r)} has a twin route beside it; in a {g.n}-player game only one of the "
                    "two can be claimed, and the other then closes."
                )
            return what, quote("A4", "With 2 or 3 players")
        if key == "last round":
            low = min(range(g.n), key=g.pieces)
            who = "You have" if low == 0 else f"{g.player_names[low]} has"
            left, turns = g.pieces(low), g.final_turns_left
            return (
                f"{who} {left} train{'s' if left != 1 else ''} left, so every player, that one included, "
                f"takes one more turn: {turns} turn{'s are' if turns != 1 else ' is'} left in the game.",
                quote("A6", "2 or fewer trains", "the one who started it included"),
            )
        return self._final_scoring(), quote("A7", "The player with the most points wins")

    def _final_scoring(self) -> str:
        """Your final score, item by item (HTML-safe text)."""
        g = self.game
        out = g.outcome()
        me = out.players[0]
        by_len: dict[int, int] = {}
        for r in me.routes:
            n = g.map.route(r).length
            by_len[n] = by_len.get(n, 0) + 1
        table = g.edition.route_points
        routes = " + ".join(
            f"{k} of length {n} × {table.get(n, '?')} point{'s' if table.get(n) != 1 else ''}"
            for n, k in sorted(by_len.items())
        )
        tickets = "; ".join(
            f"{t.ticket.label()} {'completed' if t.completed else 'missed'} {t.points:+d}" for t in me.tickets
        )
        bonus = "; ".join(f"{name} {v:+d}" for name, v in me.bonuses + me.adjustments) or "no bonus"
        others = ", ".join(f"{p.name} {p.total}" for p in out.players[1:])
        won = "You won" if 0 in out.winners else "The bot won this time"
        return html.escape(
            f"your routes scored {me.route_points} ({routes or 'no routes'}); tickets: {tickets or 'none'} "
            f"({me.ticket_points:+d}); longest path {me.longest_path} cars: {bonus}. "
            f"Total {me.total} against {others}. {won}."
        )


def quote(rule: str, *phrases: str) -> str:
    """The sentences (or list items) of rule section ``rule`` that contain
    ``phrases``, in the reference's words (its paragraph, if none matches).

    >>> quote("A4", "With 2 or 3 players")
    'With 2 or 3 players, only one route of each pair is used at all: once either is claimed, the other is closed to everyone.'
    """
    out = []
    for phrase in phrases:
        plain = " ".join(phrase.replace("**", "").split())
        paragraph = rule_paragraph(rule, phrase)
        parts = [p.strip(" -") for p in _SPLIT.split(paragraph) if p.strip(" -")]
        found = [p for p in parts if plain.lower() in p.lower()]
        out.append(found[0] if found else paragraph)
    return " … ".join(out)


def _strip_tags(text: str) -> str:
    text = re.sub(r"<style>.*?</style>", "", text, flags=re.S)
    return re.sub(r"<[^>]+>", "", re.sub(r"</(div|summary)>", " ", text)).strip()


def tutorial(edition: str = "usa", *, seed: int = 7, opponent: str = "easy", **kwargs: Any) -> TutorialWidget:
    """A guided first game against the easy bot: ``ttr_lab.tutorial("usa")``."""
    return TutorialWidget(edition, seed=seed, opponent=opponent, **kwargs)
