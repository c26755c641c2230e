"""The scorer widget, :class:`ScorerWidget` (see :mod:`ttr_lab.widgets.scorer` for what the clicks do).

It holds each seat's routes, tickets, buildings and exchanged pieces, asks
:func:`ttr_lab.tabletop.score` after every change (undoing one it refuses),
draws them on the board, and saves and loads the sheet in its one folder.
Methods :meth:`ScorerWidget.click_route`, :meth:`~ScorerWidget.click_city`,
:meth:`~ScorerWidget.add_ticket` do what the clicks do (for notebooks and tests).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any

import ipywidgets as W

from ...board.plotly import (
    STALE_CLICK,
    board_figure,
    city_trace_index,
    clicked_city,
    clicked_route,
    route_trace_index,
    update_board,
)
from ...engine.rules.setup import seat_names
from ...engine.scoring import Outcome
from ...errors import TtrError
from ...io.files import Folder, NameTakenError, check_name
from ...tabletop.score_sheet import _edition, score, sheet_from_dict, sheet_to_dict
from ..figure import FigureWidget
from ..static import widget_bundle
from .layout import side_panel
from .tickets import find_tickets, ticket_labels

__all__ = ["ScorerWidget", "scorer"]


@dataclass(frozen=True)
class _Path:
    """A path to draw (``board_figure(paths=...)`` reads ``.routes`` and ``.name``)."""

    routes: tuple[int, ...]
    name: str


class ScorerWidget(W.VBox):
    """The scorer's board, player buttons, ticket search and live breakdown (see the module doc)."""

    def __init__(
        self,
        edition: Any = "usa",
        players: Any = ("Player 1", "Player 2"),
        *,
        options: dict[str, Any] | None = None,
        width: int = 620,
        folder: Any = None,
    ) -> None:
        super().__init__()
        #: where Save and Load look: one folder, file names only (:class:`ttr_lab.io.files.Folder`)
        self.folder = Folder(folder)
        self._replace: str | None = None  # the name a second Save replaces
        self.edition = ed = _edition(edition, options)
        self.names = seat_names(players, ed)
        n = len(self.names)
        self.routes: list[list[int]] = [[] for _ in range(n)]
        self.tickets: list[list[int]] = [[] for _ in range(n)]
        #: the cities of each seat's pieces, by the fact that names them (``"stations"``,
        #: ``"harbors"``): the kinds of buildings the edition has and its scorer takes
        self.built: dict[str, list[list[str]]] = {
            fact: [[] for _ in range(n)] for _, fact in ed.buildings if fact in ed.scorer_facts
        }
        self.exchanged: list[int] = [0] * n
        self.outcome: Outcome | None = None
        self._kinds = ["routes", *self.built]
        self._labels = ticket_labels(ed)
        self._width = width

        self.player = W.ToggleButtons(options=[(name, p) for p, name in enumerate(self.names)], value=0)
        self.player.add_class("ttr-scorer-player")
        self.player.observe(lambda _c: self.refresh(), "value")
        self.click_kind = W.ToggleButtons(options=self._kinds, value="routes", description="Clicks set")
        self.click_kind.add_class("ttr-scorer-kind")
        if len(self._kinds) == 1:
            self.click_kind.layout.display = "none"
        self.fig = FigureWidget(board_figure(ed, player_names=self.names, width=width, title=""))
        self.fig.add_class("ttr-scorer-figure")
        self.fig.data[route_trace_index(self.fig)].on_click(self._on_route_click)
        self.fig.data[city_trace_index(self.fig)].on_click(self._on_city_click)

        ui = side_panel(list(self._labels.values()), "exchanged" in ed.scorer_facts)
        self.search, self.held, self.exchange, self.path = ui.search, ui.held, ui.exchange, ui.path
        #: several tickets match what was typed: one button each, to pick the one meant
        self.choices = ui.choices
        self.message, self.breakdown = ui.message, ui.breakdown
        self.search.observe(self._on_search, "value")
        ui.add.on_click(lambda _b: self.add_ticket(self.search.value))
        ui.remove.on_click(lambda _b: self._remove_selected())
        self.exchange.observe(self._on_exchange, "value")
        ui.save.on_click(lambda _b: self.save(self.path.value))
        ui.load.on_click(lambda _b: self.load(self.path.value))
        self.children = [self.player, self.click_kind, W.HBox([self.fig, ui.box])]
        self.add_class("ttr-scorer")
        self.refresh()

    # ------------------------------------------------------------------ what clicks do
    @property
    def seat(self) -> int:
        return int(self.player.value)

    @property
    def stations(self) -> list[list[str]]:
        """Each seat's station cities (``built["stations"]``; empty tuples in an edition without stations)."""
        return self._cities("stations")

    @stations.setter
    def stations(self, value: list[list[str]]) -> None:
        self.built["stations"] = value

    @property
    def harbors(self) -> list[list[str]]:
        """Each seat's harbor cities (``built["harbors"]``; empty tuples in an edition without harbors)."""
        return self._cities("harbors")

    @harbors.setter
    def harbors(self, value: list[list[str]]) -> None:
        self.built["harbors"] = value

    def _cities(self, fact: str) -> list[list[str]]:
        if fact in self.built:
            return self.built[fact]
        none: Any = tuple(() for _ in self.names)  # nothing to add to: the edition has no such pieces
        return none

    def _say(self, text: str, error: bool = False) -> None:
        style = "color:#b71c1c" if error else "color:#1b5e20"
        self.message.value = f'<span style="{style}">{html.escape(text, quote=False)}</span>' if text else ""

    def click_route(self, route_id: Any) -> bool:
        """Give ``route_id`` to the selected player, or take it back; False (and why) if it is someone else's.

        ``route_id`` is a route's id or its text (``"57"``, ``"Seattle-Portland"``,
        as :meth:`~ttr_lab.maps.Map.find_route` reads it); anything else is refused
        on screen and changes nothing."""
        found = self._route_id(route_id)
        if found is None:
            return False
        route_id = found
        p = self.seat
        for q, owned in enumerate(self.routes):
            if route_id in owned and q != p:
                self._say(f"route {route_id} is {self.names[q]}'s: select {self.names[q]} to take it back", True)
                return False
        mine = self.routes[p]
        if route_id in mine:
            mine.remove(route_id)
        else:
            mine.append(route_id)
        return self._rescore(lambda: mine.remove(route_id) if route_id in mine else mine.append(route_id))

    def _route_id(self, given: Any) -> int | None:
        """The id of the route ``given`` names, or None (and why, on screen)."""
        m = self.edition.map
        if type(given) is int and m.has_route(given):
            return given
        if isinstance(given, str):
            try:
                return m.find_route(given).id
            except TtrError as e:
                self._say(str(e), True)
                return None
        self._say(f"there is no route {str(given)[:40]!r} on the {m.id} map (a route's id or 'City-City')", True)
        return None

    def click_city(self, city: Any) -> bool:
        """Put a station or harbor (the *Clicks set* choice) of the selected player in ``city``, or take it back."""
        if not isinstance(city, str) or not self.edition.map.has_city(city):
            self._say(f"there is no city {str(city)[:40]!r} on the {self.edition.map.id} map", True)
            return False
        kind = self.click_kind.value
        if kind not in self.built:
            kinds = " or ".join(repr(k) for k in self.built) or "a kind of building"
            self._say(f"{city}: choose {kinds} above the board to place one", True)
            return False
        held = self.built[kind]
        for q, cities in enumerate(held):
            if city in cities and q != self.seat:
                self._say(f"{city} has {self.names[q]}'s {kind[:-1]}", True)
                return False
        mine = held[self.seat]
        if city in mine:
            mine.remove(city)
        else:
            mine.append(city)
        return self._rescore(lambda: mine.remove(city) if city in mine else mine.append(city))

    def add_ticket(self, text: Any) -> bool:
        """Give the selected player a ticket: its id, its list entry, its cities (``"Duluth-Houston"``,
        either order) or a unique part of them; several matches are listed as buttons to pick from."""
        t = text if type(text) is int and text in self._labels else self._find_ticket(str(text)[:200])
        if t is None:
            return False
        self.choices.children = ()
        mine = self.tickets[self.seat]
        if t in mine:
            self._say(f"{self.names[self.seat]} already holds ticket {self._labels[t]}", True)
            return False
        mine.append(t)
        self.search.value = ""
        return self._rescore(lambda: mine.remove(t))

    def remove_ticket(self, ticket: int) -> bool:
        """Take ``ticket`` back from the selected player."""
        mine = self.tickets[self.seat]
        if ticket not in mine:
            return False
        mine.remove(ticket)
        return self._rescore(lambda: mine.append(ticket))

    def _find_ticket(self, text: str) -> int | None:
        """The ticket ``text`` names (:func:`~ttr_lab.widgets.scorer.tickets.find_tickets`), or None:
        why on screen, and the tickets it matches offered as buttons."""
        try:
            found = find_tickets(self.edition, self._labels, text)
        except TtrError as e:
            self._say(str(e), True)
            return None
        if len(found) == 1:
            return found[0]
        self._offer(text.strip(), found)
        return None

    #: at most so many matching tickets are offered as buttons
    MAX_CHOICES = 8

    def _offer(self, text: str, found: list[int]) -> None:
        """Say how many tickets match ``text`` and offer the first few as buttons that add one."""
        if not found:
            self.choices.children = ()
            self._say(f"no ticket matches {text[:40]!r}: type its number or part of its cities", True)
            return
        buttons = []
        for t in found[: self.MAX_CHOICES]:
            b = W.Button(description=self._labels[t], tooltip=f"add {self._labels[t]}", layout=W.Layout(width="auto"))
            b.add_class("ttr-scorer-choice")
            b.on_click(lambda _b, t=t: self.add_ticket(t))
            buttons.append(b)
        self.choices.children = tuple(buttons)
        more = f" (the first {self.MAX_CHOICES} shown: type more of the name)" if len(found) > self.MAX_CHOICES else ""
        self._say(f"{len(found)} tickets match {text[:40]!r}: pick one below{more}", True)

    def _on_search(self, change: Any) -> None:
        if change["new"] in self._labels.values():  # a full entry picked from the list
            self.add_ticket(change["new"])

    def _remove_selected(self) -> None:
        if self.held.value is not None:
            self.remove_ticket(int(self.held.value))

    def _on_exchange(self, change: Any) -> None:
        p, old = self.seat, self.exchanged[self.seat]
        if int(change["new"]) == old:
            return
        self.exchanged[p] = int(change["new"])
        self._rescore(lambda: self.exchanged.__setitem__(p, old))

    def _on_route_click(self, trace: Any, points: Any, state: Any) -> None:
        """A click on the routes trace, matched to the point the browser clicked by its ``x``/``y``
        (:func:`~ttr_lab.board.clicked_route`); one that cannot be matched is not used (issue 19)."""
        if points.point_inds:
            rid = clicked_route(self.fig, points)
            if rid is None:
                self._say(STALE_CLICK, True)
            else:
                self.click_route(rid)

    def _on_city_click(self, trace: Any, points: Any, state: Any) -> None:
        if points.point_inds:
            city = clicked_city(self.fig, points)
            if city is None:
                self._say(STALE_CLICK, True)
            else:
                self.click_city(city)

    # ------------------------------------------------------------------ scoring and drawing
    def entries(self) -> dict[str, Any]:
        """The keyword arguments of :func:`ttr_lab.tabletop.score` this sheet holds."""
        kw: dict[str, Any] = {"players": list(self.names)}
        sheet: dict[str, list[list[Any]]] = {"routes": self.routes, "tickets": self.tickets, **self.built}
        for key, held in sheet.items():
            if any(held):
                kw[key] = {p: list(v) for p, v in enumerate(held)}
        if any(self.exchanged):
            kw["exchanged"] = dict(enumerate(self.exchanged))
        return kw

    def _rescore(self, undo: Any) -> bool:
        """Score the sheet; an input the scorer refuses is undone, with its reason shown."""
        try:
            self.outcome = score(self.edition, **self.entries())
        except TtrError as e:
            undo()
            self._say(str(e), True)
            self.refresh(rescore=False)
            return False
        except BaseException:
            undo()  # not a refusal but a failure (or an interrupt): the sheet is left as it was
            raise
        self._say("")
        self.refresh(rescore=False)
        return True

    def refresh(self, *, rescore: bool = True) -> None:
        """Redraw the board, the held tickets and the breakdown."""
        if rescore:
            try:
                self.outcome = score(self.edition, **self.entries())
            except TtrError as e:
                self._say(str(e), True)
        p = self.seat
        self.held.options = [(self._labels[t], t) for t in self.tickets[p]]
        self.exchange.value = self.exchanged[p]
        owners = {rid: q for q, owned in enumerate(self.routes) for rid in owned}
        build = {k: {c: q for q, cs in enumerate(held) for c in cs} for k, held in self.built.items()}
        paths: list[_Path] = []
        out = self.outcome
        if out is not None:
            me = out.players[p]
            for tr in me.tickets:
                if tr.completed and tr.path:
                    paths.append(_Path(tuple(tr.path), tr.ticket.label()))
            if me.longest_path_routes:
                paths.append(_Path(tuple(me.longest_path_routes), f"longest path ({me.longest_path})"))
        update_board(
            self.fig,
            self.edition,  # no position: the marks given below, by the edition's keywords
            owners=owners,
            player_names=self.names,
            paths=paths,
            tickets=[self.edition.map.ticket(t) for t in self.tickets[p]],
            stations=build.get("stations") or None,
            harbors=build.get("harbors") or None,
            width=self._width,
            title="",
        )
        self.breakdown.value = "" if out is None else f"<pre style='font-size:12px'>{html.escape(str(out))}</pre>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, and for a notebook saved without it the board as a static SVG (as the
        widget draws it, nothing more) and a line of public facts (:mod:`ttr_lab.widgets.static`)."""
        routes = ", ".join(f"{name} {len(r)}" for name, r in zip(self.names, self.routes))
        text = f"{type(self).__name__}: a {self.edition.name} board, routes entered: {routes}"
        return widget_bundle(super()._repr_mimebundle_(**kwargs), self.fig, text, **kwargs)

    # ------------------------------------------------------------------ files
    def save(self, name: str, *, overwrite: bool = False) -> bool:
        """Write the sheet as JSON to file ``name`` in :attr:`folder` (a file name, not a path).

        An existing file is replaced only with ``overwrite=True``, or by a
        second save of the same name right after the widget said it exists
        (so on the page: *Save*, then *Save* again to replace).
        """
        armed, self._replace = self._replace, None
        try:
            name = check_name(name.strip() if isinstance(name, str) else name, ".json")
            text = json.dumps(sheet_to_dict(self.edition, **self.entries()), indent=1, ensure_ascii=False) + "\n"
            self.folder.save(name, text, overwrite=overwrite or name == armed, what="score sheet")
        except NameTakenError as e:
            self._replace = e.name
            self._say(f"{e.name} exists: press Save again to replace it", True)
            return False
        except TtrError as e:
            self._say(str(e), True)
            return False
        self._say(f"saved {name}")
        return True

    def load(self, name: str) -> bool:
        """Read a sheet saved by :meth:`save` from file ``name`` in :attr:`folder` (checked; its players must
        be this widget's)."""
        self._replace = None
        try:
            name = check_name(name.strip() if isinstance(name, str) else name, ".json")
            kw = sheet_from_dict(self.folder.load_json(name, what="score sheet"), name)
            if list(kw["players"]) != list(self.names) or kw["edition"].name != self.edition.name:
                raise TtrError(f"{name}: a sheet of {kw['edition'].name} for {', '.join(kw['players'])}")
        except TtrError as e:
            self._say(str(e), True)
            return False
        n = len(self.names)
        for key in ("routes", "tickets", "stations", "harbors"):
            given = kw.get(key, {})
            setattr(self, key, [list(given.get(p, [])) for p in range(n)])
        ex = kw.get("exchanged", {})
        self.exchanged = [int(ex.get(p, 0)) for p in range(n)]
        self.refresh()
        self._say(f"loaded {name}")
        return True


def scorer(edition: Any = "usa", players: Any = ("Player 1", "Player 2"), **kwargs: Any) -> ScorerWidget:
    """The scorer widget (see the module doc)."""
    return ScorerWidget(edition, players, **kwargs)
