"""An edition draws on the board through hooks, and the board's options are one value (issue 21 A2).

* :class:`ttr_lab.board.options.BoardOptions`: every option checked (a TtrError naming it),
  iterables read once and bounded, the same board from the value or from keywords;
* the hooks of :mod:`ttr_lab.engine.rules.board_hooks`: a toy edition declares a mark style of each
  shape and draws marks, some secret; the plotly board and the SVG draw them with legend
  entries and hover lines, for the viewer only; the traces stay the same as marks come and go
  (issue 19); a mark the edition did not declare, or on no city, is an error naming it;
* the classroom variant's block is haloed as its player's last move (its own ``move_spot``),
  and the play widget with hidden hands draws nobody's objective city.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, ClassVar

import pytest

import ttr_lab
from ttr_lab.board import board_svg
from ttr_lab.board.marks import PUBLIC, CityMark, MarkStyle, RouteMark, Spot
from ttr_lab.board.options import MOST, BoardOptions
from ttr_lab.board.scene import Scene
from ttr_lab.editions.usa import USA
from ttr_lab.engine.moves import DrawBlind
from ttr_lab.errors import NotFoundError, TtrError, WrongTypeError

from .helpers import past_setup
from .test_plugin_classroom import cv  # noqa: F401  (the variant, registered for this module)

SECRET = "secret camp"

FLAG = MarkStyle("flag", "flags", "city", "square", keyword="flags", rank=601)
CAMP = MarkStyle("camp", "camps", "city", "ring", rank=602)
BUOY = MarkStyle("buoy", "buoys", "city", "badge", glyph="B", rank=603)
GATE = MarkStyle("gate", "gates", "route", "cross", keyword="gates", rank=604)


class Toy(USA):
    """USA drawing four kinds of marks: public flags, buoys and gates, and a camp per seat seen by that seat only."""

    name: ClassVar[str] = "toy_marks"
    mark_styles: ClassVar[tuple[MarkStyle, ...]] = (FLAG, CAMP, BUOY, GATE)
    extra: ClassVar[list[Any]] = []  # marks a test adds (of any kind, even wrong ones)

    def board_marks(self, position: Any, viewer: int | None) -> list[Any]:
        out = [CityMark("flag", "Denver", 0), CityMark("buoy", "Miami", 1), RouteMark("gate", 5, 1, "gate on 5")]
        for p, city in enumerate(("Boston", "Seattle")):
            if viewer in (None, p):
                out.append(CityMark("camp", city, p, f"{SECRET} of seat {p}"))
        return out + list(self.extra)

    def move_spot(self, move: Any) -> Spot | None:
        if isinstance(move, DrawBlind):  # this toy says a blind draw planted its seat's flag
            return Spot("flag", "Denver")
        return super().move_spot(move)


@pytest.fixture
def toy():
    Toy.extra = []
    yield past_setup(ttr_lab.new_game(Toy(), players=2, seed=1))
    Toy.extra = []


def plotly_json(obj: Any, **options: Any) -> tuple[Any, str]:
    from ttr_lab.board import board_figure

    fig = board_figure(obj, **options)
    return fig, fig.to_json()


# --------------------------------------------------------------------------- BoardOptions


def test_options_are_one_value_given_or_as_keywords(toy):
    opts = BoardOptions(highlight=(1, 2), tickets=(("Boston", "Miami"),), width=1000, title="t")
    assert board_svg(toy, opts) == board_svg(
        toy, highlight=[1, 2], tickets=[("Boston", "Miami")], width=1000, title="t"
    )
    assert board_svg(toy, opts, title="u") == board_svg(toy, opts.replace(title="u"))
    assert opts.replace(title="u").title == "u" and opts.title == "t"  # a value: replace makes another
    pytest.importorskip("plotly")
    from ttr_lab.board import board_figure

    assert board_figure(toy, opts).to_json() == board_figure(toy, **opts.keywords()).to_json()


def test_an_iterable_option_is_read_once():
    """update_board(..., highlight=<generator>) then drawn_svg: the static SVG shows the same highlight
    (before, the options kept the generator, read again and found empty)."""
    pytest.importorskip("plotly")
    from ttr_lab.board import board_figure, drawn_svg, update_board
    from ttr_lab.maps import load_map

    usa = load_map("usa")
    fig = board_figure(usa)
    update_board(fig, usa, highlight=(r for r in [1, 2]))
    assert 'data-highlight="2"' in drawn_svg(fig)


@pytest.mark.parametrize(
    "options, words",
    [
        (dict(width=50), "board option width: a whole number of pixels from 200 to 10000"),
        (dict(width=900.0), "board option width"),
        (dict(height=10**6), "board option height"),
        (dict(last_moves="yes"), "board option last_moves: True or False"),
        (dict(viewer="0"), "board option viewer"),
        (dict(viewer=True), "board option viewer"),
        (dict(title=3), "board option title"),
        (dict(highlight=5), "board option highlight: a list"),
        (dict(hightlight=[1]), "unknown board option 'hightlight'"),
    ],
)
def test_a_bad_option_is_an_error_naming_it(options, words):
    from ttr_lab.maps import load_map

    with pytest.raises(WrongTypeError, match=words):
        board_svg(load_map("usa"), **options)


def test_counts_are_bounded_before_work():
    from ttr_lab.maps import load_map

    with pytest.raises(TtrError, match=f"board option highlight: more than {MOST} items"):
        board_svg(load_map("usa"), highlight=itertools.repeat(1))  # endless: refused after MOST + 1
    with pytest.raises(TtrError, match="more than"):
        BoardOptions(paths=[[1]] * (MOST + 1))


# --------------------------------------------------------------------------- an edition's marks


def test_every_shape_is_drawn_with_its_legend_and_words(toy):
    svg = board_svg(toy)
    for style in (FLAG, CAMP, BUOY, GATE):
        assert f">{style.legend}</text>" in svg, style.legend  # the legend entry
    assert "flag: Player 1" in svg and "buoy: Player 2" in svg  # a city's tooltip: kind and owner
    assert "gate on 5" in svg and 'data-mark="gate" data-route="5"' in svg  # a route mark's own words
    assert f"{SECRET} of seat 0" in svg and f"{SECRET} of seat 1" in svg  # the whole game: every camp
    pytest.importorskip("plotly")
    from ttr_lab.board import city_trace_index, route_trace_index

    fig, _ = plotly_json(toy)
    keys = [t.meta for t in fig.data]
    assert (
        keys.index("buoys") == 2 and fig.data[2].zorder == 2 and fig.data[2].text == ("B",)
    )  # a badge: over the pieces
    assert keys.index("tickets") < keys.index("flags") < keys.index("camps") < keys.index("gates")
    legend = {t.name for t in fig.data if t.showlegend}
    assert {"flags", "camps", "buoys", "gates"} <= legend
    cities = fig.data[city_trace_index(fig)]
    denver = list(cities.customdata).index("Denver")
    assert "flag: Player 1" in cities.hovertext[denver]
    routes = fig.data[route_trace_index(fig)]
    assert all(routes.text[i].endswith("<br>gate on 5") for i, r in enumerate(routes.customdata) if r == 5)


def test_a_secret_mark_reaches_only_its_viewer(toy):
    mine, theirs = f"{SECRET} of seat 1", f"{SECRET} of seat 0"
    for drawn in (board_svg(toy.view(1)), board_svg(toy, viewer=1)):
        assert mine in drawn and theirs not in drawn
    for drawn in (board_svg(toy, viewer=PUBLIC), board_svg(toy.view(1), viewer=PUBLIC)):
        assert SECRET not in drawn and "flag: Player 1" in drawn
    with pytest.raises(TtrError, match="seat 1's view"):
        board_svg(toy.view(1), viewer=0)  # a view is never drawn for another seat
    with pytest.raises(TtrError, match="viewer=2: there is no such seat"):
        board_svg(toy, viewer=2)
    pytest.importorskip("plotly")
    assert theirs not in plotly_json(toy.view(1))[1] and mine in plotly_json(toy.view(1))[1]
    assert SECRET not in plotly_json(toy, viewer=PUBLIC)[1]


def test_marks_given_by_keyword_replace_the_positions(toy):
    svg = board_svg(toy, flags={"Omaha": 1}, gates={7: 0})
    assert "flag: Player 2" in svg and 'data-route="7"' in svg and 'data-mark="gate" data-route="5"' not in svg
    assert 'data-mark="gate" data-route="5"' in board_svg(toy, flags=None)  # None: as not given
    with pytest.raises(WrongTypeError, match="toy_marks's marks: flags, gates"):
        board_svg(toy, camps={"Omaha": 1})  # the camp style has no keyword
    with pytest.raises(NotFoundError):
        board_svg(toy, flags={"Atlantis": 0})


def test_the_traces_stay_as_marks_come_and_go(toy):
    """Issue 19: a style's trace is there on every board of the edition, empty while it shows nothing."""
    pytest.importorskip("plotly")
    full, _ = plotly_json(toy)
    empty, _ = plotly_json(toy, flags={}, gates={}, viewer=PUBLIC)
    assert [t.meta for t in full.data] == [t.meta for t in empty.data]
    flags = empty.data[[t.meta for t in empty.data].index("flags")]
    assert list(flags.x) == [None] and flags.name == "" and not flags.showlegend
    assert full.layout.xaxis.range == empty.layout.xaxis.range and full.layout.height == empty.layout.height


def test_an_editions_own_move_is_haloed_where_it_says(toy):
    """The toy says a blind draw planted the flag in Denver: the flag's owner (seat 0) gets the halo there."""
    assert Scene(toy).last == {}
    toy.play("blind")
    assert Scene(toy).last == {0: Spot("flag", "Denver")}
    svg = board_svg(toy)
    assert svg.count('r="15" fill="rgba(') == 1  # a disc under the city: the halo
    assert Scene(toy, last_moves=False).last == {}


@pytest.mark.parametrize(
    "mark, error, words",
    [
        (CityMark("tower", "Denver", 0), TtrError, "not a CityMark or RouteMark of a declared style"),
        (("flag", "Denver", 0), TtrError, "not a CityMark or RouteMark"),
        (CityMark("flag", "Atlantis", 0), NotFoundError, "no city 'Atlantis'"),
        (RouteMark("gate", 999, 0), NotFoundError, "no route 999"),
        (RouteMark("flag", 5, 0), TtrError, "a flag stands on a city"),
        (CityMark("flag", "Denver", "Ada"), WrongTypeError, "its owner is a seat or None"),
    ],
)
def test_a_bad_mark_is_an_error_naming_it(toy, mark, error, words):
    Toy.extra = [mark]
    with pytest.raises(error, match=words):
        board_svg(toy)


def test_mark_styles_are_checked_when_the_edition_is_defined():
    with pytest.raises(TtrError, match="the board's own layer"):
        MarkStyle("ticket", "tickets", "city", "ring")
    with pytest.raises(TtrError, match="shape is one of"):
        MarkStyle("gate", "gates", "route", "square")
    with pytest.raises(TtrError, match="Twice: two mark styles of kind 'flag'"):

        class Twice(USA):
            mark_styles: ClassVar[tuple[MarkStyle, ...]] = (FLAG, MarkStyle("flag", "more flags", "city", "ring"))


def test_an_edition_without_marks_draws_none():
    g = ttr_lab.new_game("usa", players=2, seed=1)
    assert g.edition.board_mark_styles == () and Scene(g).marks == []
    assert [s.legend for s in ttr_lab.find_edition("europe").board_mark_styles] == ["stations"]
    assert [s.legend for s in ttr_lab.find_edition("world").board_mark_styles] == ["harbors"]


# --------------------------------------------------------------------------- the classroom variant


def test_a_block_is_haloed_as_its_players_last_move(cv):  # noqa: F811
    g = past_setup(ttr_lab.new_game("classroom", players=2, seed=4))
    p = g.current_player
    g.play("block 57")
    scene = Scene(g)
    assert scene.last == {p: ("closed route", 57)} and scene.on_route(scene.last[p])
    halo = f"rgba({int(scene.seat_color[p][1:3], 16)},{int(scene.seat_color[p][3:5], 16)},"
    svg = board_svg(g)
    assert 'data-mark="closed route" data-route="57"' in svg and f'stroke="{halo}' in svg
    assert "(last move of" in svg  # the route's tooltip says whose last move the closing was


def test_a_hot_seat_with_hidden_hands_draws_nobodys_objective(cv):  # noqa: F811
    pytest.importorskip("ipywidgets")
    from ttr_lab.widgets import PlayWidget

    from .test_widgets import find

    w = PlayWidget("classroom", players=["Ann", "You"], seed=7, hide_hands=True)
    g = w.game
    drawn = json.dumps(w.fig.to_plotly_json(), default=str)
    assert "objective city of" not in drawn  # the hand at the screen is hidden: public marks only
    find(w, "ttr-reveal").click()
    seat = g.current_player
    drawn = json.dumps(w.fig.to_plotly_json(), default=str)
    assert cv.objective_label(g.objective(seat), g.player_names[seat]) in drawn
    assert cv.objective_label(g.objective(1 - seat), g.player_names[1 - seat]) not in drawn


def test_a_dict_of_routes_highlights_its_keys():
    """Lesson 04 highlights ``{route id: player}``: a dict gives its keys, as iterating it does."""
    from ttr_lab.board.options import BoardOptions

    assert BoardOptions.of(highlight={5: "Ada", 7: "Bob"}).highlight == (5, 7)
