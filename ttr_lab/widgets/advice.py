"""The advisor in a notebook: a win-chance bar for every player and a Hint.

:class:`AdvicePanel` shows what :func:`ttr_lab.analysis.advise` finds from
**one seat's fair view** (``game.view(seat)``, never the whole state), in a
player's words:

* **the bars**: every player's chance to win from here, if everyone plays on
  like the advisor's own playout policy (all of the question's playouts go
  to that one line of play);
* **the Hint**: ONE recommended move, the chance to win it gives, and how
  sure the advisor is of that chance, with a sentence on why; the other
  moves that came out about as well are named, without numbers.

**What is never shown** (the honesty rules): a chance that rests on fewer
than :data:`MIN_PLAYOUTS` played-out games, or whose 95% interval is wider
than :data:`MAX_WIDTH` (30 points): the panel then says that too few games
were played out, and how many.  With 3 playouts a move could read 80% one
turn and 52% the next; at 40 the interval is about ±15 points at most.  No
list of moves in an order its numbers contradict is shown either: the
advisor ranks moves by how long they survived its halving of the
candidates, so a move dropped early can show a higher chance on fewer
playouts (``str(advice)`` and the CLI keep that ranking for analysts).

    panel = AdvicePanel(game, seat=0, playouts=64)
    panel.refresh()       # the bars for the current position (after a move)
    panel.hint()          # the recommended move, as the Hint button does
    display(panel.widget)

``on_refresh`` / ``on_hint`` callbacks receive the :class:`Advice`.  Nothing
hidden from the seat is read, and the HTML holds only the seat's view's win
chances, its own moves and the explanations (which name only routes, the
seat's own tickets and counts of guessed hands).

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=2, seed=1)
>>> while g.phase.name == "SETUP_TICKETS":
...     g.play(g.legal_moves[0])
>>> p = AdvicePanel(g, 0, playouts=8)
>>> a = p.refresh()
>>> "Player 1" in p.bars.value and "too few" in p.bars.value   # 8 games: no numbers
True
>>> a = AdvicePanel(g, 0, playouts=48).refresh()
>>> abs(sum(a.win_probabilities) - 1) < 1e-9
True
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..analysis import Advice, MoveAdvice, advise
from ..analysis.odds.tickets import wilson

__all__ = [
    "AdvicePanel",
    "SeatAdvisor",
    "bars_html",
    "hint_html",
    "chance_words",
    "MIN_PLAYOUTS",
    "MAX_WIDTH",
    "HINT_PLAYOUTS",
    "HINT_SECONDS",
]

#: a chance is shown only when it rests on at least so many played-out games ...
MIN_PLAYOUTS = 40
#: ... and its 95% interval is at most so wide (0.30: 30 percentage points, about ±15)
MAX_WIDTH = 0.30
#: an interval at most so wide is "fairly sure"; wider (up to MAX_WIDTH), "a rough figure"
SURE_WIDTH = 0.20
#: a Hint's time budget in seconds: as many playouts as fit, up to HINT_PLAYOUTS (the
#: compiled kernel reaches the cap within it on USA and Europe, about 0.7-0.9 CPU-s here;
#: on Rails & Sails the clock often ends the search first, at about 3,100 (World) to 4,000
#: (Great Lakes) playouts on 2-4 player positions here; in Python, in a browser, about
#: 200-400; the Hint says how many it played)
HINT_SECONDS = 2.0
#: the most playouts a Hint plays, split over 10 candidate moves by the advisor's halving.
#: Its top move against an independent run at 10x on 40 held-out mid-game positions per
#: edition (benchmarks/bench_stable.py --agree; benchmarks/README.md, "The advisor's
#: budgets with the kernel"), with the caution rule (Z_DEVIATE 3, DELTA_DEVIATE 0.05):
#: at 4,000, USA 95.0% [83.5, 98.6], Europe 97.5% [87.1, 99.6], Rails & Sails World 82.5% [68.0,
#: 91.3], Great Lakes 85.0% [70.9, 92.9]; at 2,000 (the cap before): 85.0%, 85.0%, 80.0%
#: and 77.5%.  40 positions cannot show a lower bound of 80%
HINT_PLAYOUTS = 4000

#: bar colours, by seat (the board's player colours are the play widget's business)
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")

_NOTE = "color:#666;font-size:85%"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def chance_words(chance: float, interval: tuple[float, float], playouts: int) -> str | None:
    """How sure the advisor is of ``chance``, in words, or None when it is too
    unsure to give a number (fewer than :data:`MIN_PLAYOUTS` games, or an
    interval wider than :data:`MAX_WIDTH`).

    >>> chance_words(0.55, (0.47, 0.63), 120)
    'fairly sure: most likely between 47% and 63%'
    >>> chance_words(0.55, (0.41, 0.68), 60)
    'a rough figure: most likely between 41% and 68%'
    >>> chance_words(0.8, (0.37, 0.8), 3) is None
    True
    """
    lo, hi = interval
    width = hi - lo
    if playouts < MIN_PLAYOUTS or width > MAX_WIDTH:
        return None
    how = "fairly sure" if width <= SURE_WIDTH else "a rough figure"
    return f"{how}: most likely between {_pct(lo)} and {_pct(hi)}"


def _too_few(playouts: int) -> str:
    return f"too few games played out ({playouts}) to give a chance: at least {MIN_PLAYOUTS} are needed"


def _bars_basis(advice: Advice) -> tuple[int, tuple[float, float]]:
    """The playouts behind the bars and the seat's 95% interval (for a seat
    not to move, the widest interval at that count)."""
    if advice.moves:
        m = advice.moves[0]
        return m.playouts, m.interval
    n = advice.playouts
    return n, wilson(n // 2, n)


def bars_html(advice: Advice, names: tuple[str, ...], *, hinted: bool = False) -> str:
    """A horizontal bar per player with its win chance, or the players'
    names and why no chance is shown (too few games played out).  ``hinted``:
    ``advice`` is a Hint's, and the chances are those after its recommended move."""
    n, interval = _bars_basis(advice)
    sure = chance_words(advice.win_probabilities[advice.player], interval, n)
    rows = []
    for q, w in enumerate(advice.win_probabilities):
        pct = 100 * w if sure else 0.0
        rows.append(
            "<div style='display:flex;align-items:center;gap:6px;margin:2px 0'>"
            f"<span style='width:90px'>{html.escape(names[q])}</span>"
            "<span style='flex:1;background:#eee;height:12px;position:relative'>"
            f"<span style='position:absolute;left:0;top:0;bottom:0;width:{pct:.1f}%;"
            f"background:{COLOURS[q % len(COLOURS)]}'></span></span>"
            f"<span style='width:40px;text-align:right'>{f'{pct:.0f}%' if sure else '?'}</span></div>"
        )
    if sure:
        half = round(50 * (interval[1] - interval[0]))
        how = "you play the recommended move and everyone then plays on" if hinted else "everyone plays on"
        note = (
            f"Chances to win if {how} like quick computer players: from {n} games played out to the end "
            f"on guesses of what you cannot see; each within about ±{half} points."
        )
    else:
        note = f"No chances shown: {_too_few(n)}."
    return "".join(rows) + f"<div class='ttr-advice-basis' style='{_NOTE}'>{html.escape(note)}</div>"


def _words(view: Any, move: Any) -> str:
    """A move in a player's words: ``"Claim Denver-Omaha (route 29, 4 red) paying 4 red"``."""
    text = str(move.describe(view))
    return text[:1].upper() + text[1:]


def _close_ones(advice: Advice, best: MoveAdvice) -> list[MoveAdvice]:
    """The other moves the halving kept to the end with the recommended one
    (played out as often) whose chance is not below the recommended one's
    interval: about as good, as far as these games tell."""
    low = best.interval[0]
    return [m for m in advice.moves if m is not best and m.playouts >= best.playouts and m.win_probability >= low][:2]


def hint_html(advice: Advice, view: Any) -> str:
    """The recommended move, the chance to win it gives and how sure the
    advisor is, in words; ``view`` is the seat's view (for the moves' words)."""
    best = advice.best
    if best is None:
        return "<i>Not this seat's turn: no hint.</i>"
    move = (
        f"<div class='ttr-hint-move'><b>Best move found:</b> {html.escape(_words(view, best.move))} "
        f"<code style='{_NOTE}'>{html.escape(str(best.move))}</code></div>"
    )
    sure = chance_words(best.win_probability, best.interval, best.playouts)
    if sure:
        chance = f"Your chance to win with it: <b>about {_pct(best.win_probability)}</b> ({html.escape(sure)})."
    else:
        chance = f"<i>No chance to win shown: {html.escape(_too_few(best.playouts))}.</i>"
    why = f"<div style='color:#444'>{html.escape(best.explanation)}</div>" if best.explanation else ""
    close = _close_ones(advice, best) if sure else []
    also = f"<div>About as good: {html.escape('; '.join(_words(view, m.move) for m in close))}.</div>" if close else ""
    timed = " (as many as the time allowed)" if advice.timed_out else ""
    basis = (
        f"<div class='ttr-advice-basis' style='{_NOTE}'>From {advice.playouts} games played out to the end{timed}, "
        f"{len(advice.moves)} moves tried, on guesses of what you cannot see.</div>"
    )
    return f"{move}<div class='ttr-hint-chance'>{chance}</div>{why}{also}{basis}"


class AdvicePanel:
    """Win-chance bars and a Hint button for ``seat`` of ``game`` (see the module doc).

    ``playouts`` (deterministic) or ``seconds`` per question: the bars ask
    with every playout on the policy's own line of play, the Hint with
    ``hint_playouts`` (a count; default: ``playouts`` unless
    ``hint_seconds`` is given) over the candidate moves, or else with as
    many as fit in ``hint_seconds`` (default: ``seconds``), at most
    ``hint_max`` (:data:`HINT_PLAYOUTS`); the Hint says how many it played.
    A Hint is asked once per position.
    """

    def __init__(
        self,
        game: Any,
        seat: int,
        *,
        playouts: int | None = None,
        seconds: float = 1.0,
        hint_playouts: int | None = None,
        seed: int = 0,
        on_refresh: Callable[[Advice], None] | None = None,
        on_hint: Callable[[Advice], None] | None = None,
        hint_seconds: float | None = None,
        hint_max: int = HINT_PLAYOUTS,
    ) -> None:
        self.game, self.seat = game, seat
        self.playouts, self.seconds, self.seed = playouts, seconds, seed
        # a count for the Hint if given, else the panel's count unless a time for the Hint is given
        self.hint_playouts = hint_playouts if hint_playouts is not None or hint_seconds is not None else playouts
        self.hint_seconds = hint_seconds if hint_seconds is not None else seconds
        self.hint_max = hint_max
        self.on_refresh, self.on_hint = on_refresh, on_hint
        #: the advice behind the bars (the last refresh)
        self.advice: Advice | None = None
        #: the advice behind the hint shown (None until a Hint at this position)
        self.hint_advice: Advice | None = None
        self._hint_key: tuple[Any, ...] | None = None
        self._bars_key: tuple[Any, ...] | None = None
        self.bars = W.HTML()
        self.hints = W.HTML()
        self.button = W.Button(
            description="Hint", tooltip="the advisor's recommended move, from what this player can see"
        )
        self.button.on_click(lambda _: self.hint())
        self.widget = W.VBox([self.bars, self.button, self.hints])

    def _key(self) -> tuple[Any, ...]:
        g = self.game
        return (self.seat, g.ply, tuple(str(m) for m in g.move_stack))

    def refresh(self) -> Advice | None:
        """Recompute the win chances for the current position; clears the hint."""
        self.hints.value = ""
        self.hint_advice, self._hint_key = None, None
        self._bars_key = self._key()
        view = self.game.view(self.seat)
        if view.is_over:
            self.bars.value = "<i>The game is over.</i>"
            self.advice = None
            return None
        a = advise(
            view,
            playouts=self.playouts,
            seconds=self.seconds,
            seed=self.seed,
            candidates=1,
            explain=False,
            progress=False,
        )
        self.advice = a
        self.bars.value = bars_html(a, view.player_names)
        if self.on_refresh is not None:
            self.on_refresh(a)
        return a

    def hint(self) -> Advice | None:
        """Recommend a move for the current position (what the Hint button
        does); asked once per position, shown again on a second press.  The
        bars are brought to this position first if they show another."""
        if self._bars_key != self._key():
            self.refresh()
        view = self.game.view(self.seat)
        if view.is_over or not view.is_my_turn:
            why = "The game is over" if view.is_over else "Not this seat's turn"
            self.hints.value = f"<i>{why}: no hint.</i>"
            return None
        key = self._key()
        if key != self._hint_key or self.hint_advice is None:
            self.hints.value = "<i>Thinking: playing games out to the end…</i>"
            self.button.disabled = True
            try:
                a = advise(
                    view,
                    playouts=self.hint_playouts,
                    seconds=self.hint_seconds,
                    max_playouts=self.hint_max,
                    seed=self.seed,
                    progress=False,
                )
            finally:
                self.button.disabled = False
            self.hint_advice, self._hint_key = a, key
        a = self.hint_advice
        self.hints.value = hint_html(a, view)
        best = a.best
        if best is not None and chance_words(best.win_probability, best.interval, best.playouts):
            self.bars.value = bars_html(a, view.player_names, hinted=True)  # the same numbers as the hint
        if self.on_hint is not None:
            self.on_hint(a)
        return a


class SeatAdvisor:
    """The play widget's "Advisor" tab: one :class:`AdvicePanel`, shown for the
    person to decide, from **their** view only.

    :meth:`update` is told who decides now and whether their hand is on the
    screen.  A bot's turn, a finished game or a hidden hand show a note and no
    advice (the panel's bars and hint are emptied, so nothing of an earlier
    seat's advice stays in the page).  The bars are recomputed only when the
    position or the seat changes (``playouts`` per question: deterministic,
    and small so a click stays responsive); a Hint asks, once per position,
    with ``hint_playouts`` if given (a count), else with as many playouts as
    fit in :data:`HINT_SECONDS`, at most ``max(playouts, HINT_PLAYOUTS)``.
    ``on_hint`` receives the :class:`Advice` of a Hint; :attr:`lit` holds the
    route of the recommended move, if it is a claim (the play widget lights
    it on the board), until the position changes.

    >>> import ttr_lab
    >>> g = ttr_lab.new_game("usa", players=2, seed=1)
    >>> a = SeatAdvisor(g, playouts=48)
    >>> a.update(None, False)
    >>> a.seat is None and "no advice" in a.note.value
    True
    >>> a.update(g.current_player, True)
    >>> a.seat == g.current_player and "%" in a.panel.bars.value
    True
    """

    def __init__(
        self,
        game: Any,
        *,
        playouts: int = 48,
        hint_playouts: int | None = None,
        seed: int = 0,
        on_hint: Callable[[Advice], None] | None = None,
    ) -> None:
        self.game = game
        self.seat: int | None = None
        self.lit: tuple[int, ...] = ()
        self._on_hint = on_hint
        self.note = W.HTML().add_class("ttr-advice-note")
        self.panel = AdvicePanel(
            game,
            0,
            playouts=playouts,
            hint_playouts=hint_playouts,
            hint_seconds=HINT_SECONDS,
            hint_max=max(playouts, HINT_PLAYOUTS),
            seed=seed,
            on_hint=self._hinted,
        )
        self.panel.widget.add_class("ttr-advice")
        self.panel.button.add_class("ttr-hint")
        self.widget = W.VBox([self.note]).add_class("ttr-advisor")
        self._key: tuple[Any, ...] | None = None

    def update(self, seat: int | None, private: bool) -> None:
        """Show the advice for ``seat`` (the person to decide; None: nobody),
        if their hand is on the screen (``private``); else a note and nothing else."""
        g = self.game
        if seat is None or not private:
            self.seat, self._key, self.lit = None, None, ()
            self.panel.bars.value = self.panel.hints.value = ""
            self.panel.advice = self.panel.hint_advice = None
            self.panel._bars_key = self.panel._hint_key = None
            if g.is_over:
                why = "The game is over"
            elif seat is None:
                why = "It is not a person's turn"
            else:
                why = f"{html.escape(g.player_names[seat])}'s hand is hidden: press “Show my hand” first"
            self.note.value = f"<i>{why}: no advice.</i>"
            self.widget.children = (self.note,)
            return
        key = (seat, g.ply, tuple(str(m) for m in g.move_stack))
        self.note.value = f"<b>The advisor</b> (it sees only what {html.escape(self._who(seat))} can see)"
        self.widget.children = (self.note, self.panel.widget)
        if key != self._key:
            self.seat, self._key, self.lit = seat, key, ()
            self.panel.seat = seat
            self.panel.refresh()

    def _who(self, seat: int) -> str:
        """``"you"`` for a seat named You, else the name."""
        name = str(self.game.player_names[seat])
        return "you" if name.lower() == "you" else name

    def _hinted(self, advice: Advice) -> None:
        route = getattr(advice.best.move, "route", None) if advice.best is not None else None
        self.lit = (route,) if isinstance(route, int) else ()
        if self._on_hint is not None:
            self._on_hint(advice)
