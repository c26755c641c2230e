"""The classroom app: the play widget as a web page with no code (``make app``).

:class:`PlayApp` is a small menu over the game: the edition, the opponent's
strength (easy, medium, hard: :mod:`ttr_lab.widgets.play_bots`), a guided
first game (:func:`ttr_lab.widgets.tutorial.tutorial`) or a plain one, a game
number (the seed, so a class can all play the same deal), and "New game".
``apps/play.ipynb`` shows it; ``make app`` serves that notebook with Voila on
127.0.0.1 with a token, so the page shows the widgets and never the code.
Where a scorer widget exists (:data:`SCORER_WIDGETS`), the app has a second
tab for it.

>>> app = PlayApp()
>>> type(app.game_widget).__name__, app.game_widget.game.player_names
('TutorialWidget', ('You', 'easy'))
>>> app.mode.value, app.level.value = "play", "hard"
>>> app.new_game().game.player_names, type(app.game_widget).__name__
(('You', 'hard'), 'PlayWidget')
"""

from __future__ import annotations

import importlib
from typing import Any

import ipywidgets as W

from .play_bots import level_names
from .play_widget import PlayWidget
from .tutorial import tutorial

__all__ = ["PlayApp", "app", "EDITIONS", "SCORER_WIDGETS"]

#: the editions offered, as (label, edition name)
EDITIONS = (("USA", "usa"), ("Europe", "europe"), ("Rails & Sails: World", "rails_and_sails"))


class PlayApp(W.VBox):
    """The app's menu and the game (see the module docstring).

    Attributes
    ----------
    game_widget : PlayWidget
        The game on show (a :class:`~ttr_lab.widgets.tutorial.TutorialWidget` in tutorial mode).
    """

    def __init__(self, edition: str = "usa", *, level: str = "easy", mode: str = "tutorial", seed: int = 7) -> None:
        self.edition = W.Dropdown(options=EDITIONS, value=edition, description="Map", layout=W.Layout(width="230px"))
        self.edition.add_class("ttr-app-edition")
        self.level = W.ToggleButtons(options=list(level_names()), value=level, style={"button_width": "auto"})
        self.level.add_class("ttr-app-level")
        self.mode = W.ToggleButtons(
            options=[("Guided first game", "tutorial"), ("Game", "play")], value=mode, style={"button_width": "auto"}
        ).add_class("ttr-app-mode")
        self.seed = W.BoundedIntText(
            value=seed, min=0, max=10**6, description="Game no.", layout=W.Layout(width="150px")
        )
        self.seed.add_class("ttr-app-seed")
        start = W.Button(description="New game", button_style="primary", layout=W.Layout(width="auto"))
        start.add_class("ttr-app-new")
        start.on_click(lambda _b: self.new_game())
        self._box = W.Box([]).add_class("ttr-app-game")
        self.game_widget: PlayWidget = self._make()
        self._box.children = (self.game_widget,)
        menu = W.HBox([self.mode, W.HTML("&nbsp;opponent:&nbsp;"), self.level, self.edition, self.seed, start])
        menu.layout.flex_flow = "row wrap"
        pages: list[Any] = [self._box]
        titles = ["Play"]
        scorer = _scorer_widget()
        if scorer is not None:
            pages.append(scorer)
            titles.append("Score a finished game")
        body = W.Tab(pages, titles=titles).add_class("ttr-app-tabs") if len(pages) > 1 else self._box
        super().__init__([menu.add_class("ttr-app-menu"), body])
        self.add_class("ttr-app")

    def _make(self) -> PlayWidget:
        edition, seed = str(self.edition.value), int(self.seed.value)
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


def _scorer_widget() -> Any:
    """A scorer widget (:data:`SCORER_WIDGETS`) if one exists, else None."""
    for module, name in SCORER_WIDGETS:
        try:
            make = getattr(importlib.import_module(module), name, None)
        except ImportError:
            continue
        if make is not None:
            return make()
    return None


def app(**kwargs: Any) -> PlayApp:
    """The classroom app (what ``apps/play.ipynb`` shows): ``PlayApp(**kwargs)``."""
    return PlayApp(**kwargs)
