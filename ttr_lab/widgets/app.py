"""The classroom app: the play widget as a web page with no code (``make app``).

:class:`PlayApp` is a small menu over the game: the edition, the opponent's
strength (easy, medium, hard: :mod:`ttr_lab.widgets.playing.bots`), a guided
first game (:func:`ttr_lab.widgets.tutorial.tutorial`) or a plain one, a game
number, and "New game".  ``apps/play.ipynb`` shows it; ``make app`` serves
that notebook with Voila on 127.0.0.1 with a token, so the page shows the
widgets and never the code.  Where a scorer widget exists
(:data:`SCORER_WIDGETS`), the app has a second tab for it.

**Game numbers.**  The same game number gives the same deal on every page
that shares the app's *key*, so a class can all play one deal, but the number
alone does not give the deal away: the game's seed is
:func:`deal_seed` ``(key, number)``, a keyed hash (HMAC-SHA256).  The key is
the ``key`` argument, else the environment variable :data:`KEY_ENV` (which
``make app`` sets for the pages it serves), else a random one for this Python
process.  It never reaches the page.  The teacher, who holds the key,
replays game 12 with ``ttr_lab.play(..., seed=deal_seed(key, 12))``.

**Files.**  The scorer tab saves and loads score sheets by file name in one
folder (:class:`ttr_lab.io.files.Folder`): the ``folder`` argument, else the
environment variable ``TTR_LAB_FILES``, else ``ttr_lab_files`` under the
working directory.

>>> app = PlayApp(key="a teacher's long secret key")
>>> type(app.game_widget).__name__, app.game_widget.game.player_names
('TutorialWidget', ('You', 'easy'))
>>> app.game_widget.game.seed == deal_seed("a teacher's long secret key", 7) != 7
True
>>> app.mode.value, app.level.value = "play", "hard"
>>> app.new_game().game.player_names, type(app.game_widget).__name__
(('You', 'hard'), 'PlayWidget')
"""

from __future__ import annotations

import hashlib
import hmac
import importlib
import os
import secrets
from typing import Any

import ipywidgets as W

from ..errors import TtrError, WrongTypeError
from ..io.files import Folder
from .controls import playable_editions
from .playing.bots import level_names
from .playing.widget import PlayWidget
from .tutorial import tutorial

__all__ = ["PlayApp", "app", "deal_seed", "app_key", "SCORER_WIDGETS", "KEY_ENV", "MAX_GAME_NUMBER"]

#: the environment variable holding the app's key (``make app`` sets a fresh one at each start)
KEY_ENV = "TTR_LAB_APP_KEY"
#: game numbers are 0..MAX_GAME_NUMBER
MAX_GAME_NUMBER = 10**6
_KEY_LENGTHS = (16, 1024)  # characters (or bytes) of a key
_PROCESS_KEY = secrets.token_hex(16)  # the key when none is given: unguessable, this process only


def app_key(key: str | bytes | None = None) -> bytes:
    """The app's key as bytes: ``key``, else ``$TTR_LAB_APP_KEY``, else a random key for this process.

    A key is 16 to 1024 characters: a short one could be guessed from a
    deal.  ``python -c "import secrets; print(secrets.token_hex(16))"``
    makes a good one.

    >>> app_key("0123456789abcdef")
    b'0123456789abcdef'
    >>> app_key("secret")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.TtrError: key: 16 to 1024 characters (a short key can be guessed), not 6
    """
    if key is None:
        key = os.environ.get(KEY_ENV) or _PROCESS_KEY
    if not isinstance(key, (str, bytes)):
        raise WrongTypeError(f"key: text or bytes, not {type(key).__name__}")
    low, high = _KEY_LENGTHS
    if not low <= len(key) <= high:
        raise TtrError(f"key: {low} to {high} characters (a short key can be guessed), not {len(key)}")
    return key.encode("utf-8", "surrogatepass") if isinstance(key, str) else bytes(key)


def deal_seed(key: str | bytes, number: int) -> int:
    """The seed of game ``number`` in an app started with ``key``: a keyed hash, 64 bits.

    Whoever holds the key replays the app's game ``number``:
    ``ttr_lab.play(edition, players=["You", level], seed=deal_seed(key, number))``
    (or ``tutorial(edition, seed=..., opponent=level)`` for a guided game).
    Without the key the number says nothing about the deal.

    >>> deal_seed("0123456789abcdef", 7) == deal_seed(b"0123456789abcdef", 7) != deal_seed("0123456789abcdef", 8)
    True
    >>> 0 <= deal_seed("0123456789abcdef", 7) < 2**64
    True
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_GAME_NUMBER:
        raise TtrError(f"game number: a whole number 0..{MAX_GAME_NUMBER}, not {number!r}")
    mac = hmac.new(app_key(key), f"ttr_lab app deal {number}".encode("ascii"), hashlib.sha256)
    return int.from_bytes(mac.digest()[:8], "big")


class PlayApp(W.VBox):
    """The app's menu and the game (see the module docstring).

    Parameters
    ----------
    edition, level, mode : str, optional
        The menu's first choices.
    number : int, optional
        The first game number (0..:data:`MAX_GAME_NUMBER`).
    key : str or bytes, optional
        The key game numbers are hashed with (:func:`app_key`); never shown.
    folder : str, os.PathLike or Folder, optional
        Where the scorer tab's files live (:class:`ttr_lab.io.files.Folder`).

    Attributes
    ----------
    game_widget : PlayWidget
        The game on show (a :class:`~ttr_lab.widgets.tutorial.TutorialWidget` in tutorial mode).
    number : ipywidgets.BoundedIntText
        The *Game no.* box.
    folder : Folder
        The scorer tab's folder.
    """

    def __init__(
        self,
        edition: str = "usa",
        *,
        level: str = "easy",
        mode: str = "tutorial",
        number: int = 7,
        key: str | bytes | None = None,
        folder: Any = None,
    ) -> None:
        self._key = app_key(key)  # checked first; kept here, never in a widget
        self.folder = Folder(folder)
        self.edition = W.Dropdown(
            options=playable_editions(), value=edition, description="Map", layout=W.Layout(width="230px")
        )
        self.edition.add_class("ttr-app-edition")
        self.level = W.ToggleButtons(options=list(level_names()), value=level, style={"button_width": "auto"})
        self.level.add_class("ttr-app-level")
        self.mode = W.ToggleButtons(
            options=[("Guided first game", "tutorial"), ("Game", "play")], value=mode, style={"button_width": "auto"}
        ).add_class("ttr-app-mode")
        deal_seed(self._key, number)  # a number out of range is refused here, not clipped by the box
        self.number = W.BoundedIntText(
            value=number, min=0, max=MAX_GAME_NUMBER, description="Game no.", layout=W.Layout(width="150px")
        )
        self.number.add_class("ttr-app-number")
        start = W.Button(description="New game", button_style="primary", layout=W.Layout(width="auto"))
        start.add_class("ttr-app-new")
        start.on_click(lambda _b: self.new_game())
        self._box = W.Box([]).add_class("ttr-app-game")
        self.game_widget: PlayWidget = self._make()
        self._box.children = (self.game_widget,)
        menu = W.HBox([self.mode, W.HTML("&nbsp;opponent:&nbsp;"), self.level, self.edition, self.number, start])
        menu.layout.flex_flow = "row wrap"
        pages: list[Any] = [self._box]
        titles = ["Play"]
        scorer = _scorer_widget(self.folder)
        if scorer is not None:
            pages.append(scorer)
            titles.append("Score a finished game")
        body = W.Tab(pages, titles=titles).add_class("ttr-app-tabs") if len(pages) > 1 else self._box
        super().__init__([menu.add_class("ttr-app-menu"), body])
        self.add_class("ttr-app")

    def _make(self) -> PlayWidget:
        edition, seed = str(self.edition.value), deal_seed(self._key, int(self.number.value))
        if self.mode.value == "tutorial":
            return tutorial(edition, seed=seed, opponent=str(self.level.value))
        return PlayWidget(edition, players=["You", str(self.level.value)], seed=seed)

    def new_game(self) -> PlayWidget:
        """Start a new game with the menu's choices (the old one leaves the page)."""
        old = self.game_widget
        self.game_widget = self._make()
        self._box.children = (self.game_widget,)
        _close_all(old)
        return self.game_widget

    def __repr__(self) -> str:
        return f"<PlayApp {self.mode.value}: {self.game_widget!r}>"


def _close_all(widget: Any) -> None:
    """Close a widget and everything inside it (the browser forgets them)."""
    todo = [widget]
    while todo:
        w = todo.pop()
        todo.extend(getattr(w, "children", ()))
        w.close()


#: where a scorer widget may live: (module, class); the first found is shown
SCORER_WIDGETS = (("ttr_lab.widgets.scorer", "ScorerWidget"),)


def _scorer_widget(folder: Folder) -> Any:
    """A scorer widget (:data:`SCORER_WIDGETS`) saving in ``folder``, if one exists, else None."""
    for module, name in SCORER_WIDGETS:
        try:
            make = getattr(importlib.import_module(module), name, None)
        except ImportError:
            continue
        if make is not None:
            return make(folder=folder)
    return None


def app(**kwargs: Any) -> PlayApp:
    """The classroom app (what ``apps/play.ipynb`` shows): ``PlayApp(**kwargs)``, e.g. ``app(folder="sheets")``."""
    return PlayApp(**kwargs)
