"""Issue 20.3: numbers in notation, files and widget entries are ASCII digits 0-9.

``"²"``, ``"①"`` and ``"₃"`` pass ``str.isdigit()`` and then make ``int()``
fail; ``"٣"`` (Arabic-Indic) and ``"３"`` (full width) are even read by
``int()``.  Every text entry point is fed random Unicode (hypothesis: any
text, and move-like texts whose numbers are digits of other scripts) and may
only answer or raise a :class:`~ttr_lab.errors.TtrError`: never a bare
``ValueError``/``TypeError``, never a number read from a digit that is not
ASCII.  The widget entries are in ``test_widget_*``: the recorder's and the
scorer's (a refused entry changes nothing) and the editor's boxes here.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from itertools import combinations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import ttr_lab
from ttr_lab.errors import InvalidMoveError, RecordError, TtrError
from ttr_lab.io.numerals import is_numeral, read_number
from ttr_lab.records import Record, position_from_dict, position_to_dict
from ttr_lab.records.chance import parse_outcome, parse_recorded

#: digits of other scripts: superscripts, circled, subscripts, Arabic-Indic, Devanagari, full width, math bold
OTHER_DIGITS = "²³¹①⑳₃₀٣۴३３𝟑߁"

other_digit = st.one_of(st.sampled_from(OTHER_DIGITS), st.characters(categories=["Nd", "No", "Nl"]))
#: a "number" mixing ASCII digits with at least one digit of another script
foreign_number = st.builds(
    lambda a, d, b: a + d + b,
    st.text(alphabet="0123456789", max_size=2),
    other_digit,
    st.text(alphabet="0123456789", max_size=2),
)
word = st.one_of(
    foreign_number,
    st.text(alphabet="0123456789", min_size=1, max_size=3),
    st.sampled_from(["red:2", "loco:1", "?", "(Denver-Omaha)", "=red", "=?,?", "refill", "ships", "trains"]),
    st.builds(lambda c, n: f"{c}:{n}", st.sampled_from(["red", "loco", "blue"]), foreign_number),
    st.builds(lambda n: f"={n}", foreign_number),
    st.text(max_size=5),
)
VERBS = ["faceup", "blind", "claim", "keep", "tickets", "pieces", "exchange", "station", "harbor", "tunnel", "pass"]
move_like = st.builds(lambda v, ws: " ".join([v, *ws]), st.sampled_from(VERBS), st.lists(word, max_size=4))
#: any text, and move-like texts with numbers in other scripts
texts = st.one_of(st.text(max_size=30), move_like, foreign_number)
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def answers_or_refuses(f, *args, **kwargs):
    """``f(...)``'s answer, or None when it refuses with a TtrError (anything else fails the test)."""
    try:
        return f(*args, **kwargs)
    except TtrError:
        return None


def numbers_in(value):
    """Every int in a move's fields (card counts, ids, slots), recursively."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from numbers_in(v)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from numbers_in(getattr(value, f.name))


# ---------------------------------------------------------------- the one reader
@pytest.mark.parametrize("text", [*OTHER_DIGITS, "1²", "٣٣", "３", "1_000", " 7", "7 ", "+7", "0x1", ""])
def test_only_ascii_digits_are_a_number(text):
    assert not is_numeral(text)
    with pytest.raises(RecordError, match="digits 0-9"):
        read_number(text, what="x", error=lambda problem: RecordError("where", problem))


def test_the_length_is_bounded_before_converting():
    with pytest.raises(TtrError, match=r"at most 9"):
        read_number("1" * 100_000)
    assert read_number("000000017") == 17 and read_number("-5", signed=True) == -5


# ---------------------------------------------------------------- notation
@pytest.mark.parametrize(
    "text",
    ["faceup ²", "faceup ①", "keep ₃", "keep 1 ²", "claim ² red:1", "claim 1 red:٣", "claim 1 red:²", "keep ٣",
     "pieces ²", "exchange trains ²", "faceup ３"],
)  # fmt: skip
def test_notation_with_foreign_digits_is_an_invalid_move(text):
    with pytest.raises(InvalidMoveError):
        ttr_lab.parse_move(text)
    g = ttr_lab.new_game("usa", players=2, seed=1)
    with pytest.raises(InvalidMoveError):
        g.play(text)
    assert g.ply == 0
    assert g.why_illegal(text)[0] == "notation"


@pytest.mark.parametrize("text", ["blind =²", "tickets =٣,1,2", "tickets =1,2,３", "faceup 1 =red/²"])
def test_outcomes_with_foreign_digits_are_invalid(text):
    with pytest.raises(InvalidMoveError, match="bad entry"):
        parse_recorded(text)


def written_in_ascii(k, text):
    """``k`` is written in ``text`` in ASCII digits, or is a sum of numbers written so (a card
    named twice is counted once: ``"n00:1 n00:1"`` pays 2 ``n00``)."""
    if str(k) in text:
        return True
    ints = [int(x) for x in re.findall(r"[0-9]+", text)]
    return len(ints) <= 12 and any(sum(c) == k for r in range(2, len(ints) + 1) for c in combinations(ints, r))


@FAST
@given(texts)
@example("station 0 n00:1 n00:1")  # found by hypothesis in CI: the two entries make a count of 2
def test_parse_move_and_outcomes_raise_only_ttr_errors(text):
    move = answers_or_refuses(ttr_lab.parse_move, text)
    if move is not None:  # every number the move holds was written in ASCII digits (not read from '٣')
        assert all(written_in_ascii(k, text) for k in numbers_in(move)), (text, move)
    answers_or_refuses(parse_recorded, text)
    answers_or_refuses(parse_outcome, "=" + text)


@SLOW
@given(st.sampled_from(["usa", "europe", "rails_sails"]), texts)
def test_play_and_why_illegal_raise_only_ttr_errors(name, text):
    g = ttr_lab.new_game(name, players=2, seed=3)
    before = g.to_dict()
    reason = answers_or_refuses(g.why_illegal, text)
    if answers_or_refuses(g.play, text) is None and g.ply == 0:
        assert g.to_dict() == before
    assert reason is None or isinstance(reason, tuple)


@SLOW
@given(texts)
def test_record_replay_raises_only_ttr_errors(text):
    g = ttr_lab.new_game("usa", players=2, seed=5)
    for move in ("keep 1 3", "keep 14 25"):
        answers_or_refuses(g.play, move)
    rec = Record.from_state(g, outcomes=True, seed=False)
    rec.moves = [*rec.moves, text]
    answers_or_refuses(lambda: Record.loads(rec.dumps()).replay())
    seat = Record.from_state(g, seat=0)
    seat.moves = [*seat.moves, text]
    answers_or_refuses(seat.replay_view)


# ---------------------------------------------------------------- positions, the scorer, the editor, the map
@SLOW
@given(texts, st.sampled_from(["owners", "phase", "row", "hands", "players", "first_player", "tickets"]))
def test_position_from_dict_raises_only_ttr_errors(text, key):
    g = ttr_lab.new_game("usa", players=2, seed=7)
    d = position_to_dict(g)
    bad = copy.deepcopy(d)
    if key == "owners":
        bad["owners"] = {text: 0}
    elif key == "hands":
        bad["hands"][0] = {text: 1}
    elif key in ("row", "players", "tickets"):
        bad[key] = [text] * len(bad[key]) if key != "tickets" else [[text], []]
    else:
        bad[key] = text
    answers_or_refuses(position_from_dict, json.loads(json.dumps(bad)))


def test_a_position_keyed_by_a_foreign_digit_is_a_record_error():
    d = position_to_dict(ttr_lab.new_game("usa", players=2, seed=7))
    for key in ["²", "٣", "３"]:
        with pytest.raises(RecordError, match="unknown route"):
            position_from_dict({**d, "owners": {key: 0}})


@SLOW
@given(texts)
def test_find_route_score_and_seat_view_raise_only_ttr_errors(text):
    m = ttr_lab.find_edition("usa").map
    route = answers_or_refuses(m.find_route, text)
    assert route is None or str(route.id) in text or route.a in text or route.b in text
    answers_or_refuses(m.find_route, f"Seattle-Portland/{text}")
    answers_or_refuses(ttr_lab.score, "usa", players=["A", "B"], routes={"A": [text]})
    answers_or_refuses(ttr_lab.score, "usa", players=["A", "B"], tickets={"A": [text]})
    answers_or_refuses(ttr_lab.score, "usa", players=["A", "B"], routes={text: [1]})
    answers_or_refuses(ttr_lab.seat_view, "usa", players=["A", "B"], seat=text)
    answers_or_refuses(ttr_lab.seat_view, "usa", players=["A", "B"], seat=0, discard=[text])


@pytest.mark.parametrize("text", ["²", "①", "₃", "Seattle-Portland/²", "Seattle-Portland/٣"])
def test_find_route_with_foreign_digits_is_not_found(text):
    with pytest.raises(ttr_lab.errors.NotFoundError):
        ttr_lab.find_edition("usa").map.find_route(text)


@pytest.mark.parametrize("seat", [[], {}, 1.5, None, ("Me",), b"Me"])
def test_seat_view_names_a_seat_of_the_wrong_kind(seat):
    """Issue 20.7: ``seat_view(seat=[])`` raised TypeError (unhashable)."""
    with pytest.raises(TtrError, match="seat is a player's name or seat number"):
        ttr_lab.seat_view("usa", players=["Me", "Ann"], seat=seat)
    if seat is not None:  # to_move=None means the seat itself
        with pytest.raises(TtrError, match="to_move is a player's name or seat number"):
            ttr_lab.seat_view("usa", players=["Me", "Ann"], seat=0, to_move=seat)


# ---------------------------------------------------------------- the command line
@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--bots", "random,random", "--option", "first_player=²"],
        ["play", "--bots", "random,random", "--option", "max_consecutive_resets=٣"],
        ["tournament", "--agents", "random,greedy", "--players", "²", "--games", "1"],
    ],
)
def test_the_command_line_refuses_foreign_digits_in_one_line(argv, capsys):
    from ttr_lab.cli import main

    assert main(argv) in (1, 2)
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err


def test_seat_and_plies_on_the_command_line(tmp_path, capsys):
    from ttr_lab.cli import main

    g = ttr_lab.new_game("usa", players=2, seed=1)
    path = tmp_path / "game.json"
    Record.from_state(g).save(path)
    for argv in (["odds", str(path), "--seat", "²"], ["advise", str(path), "--seat", "٣", "--playouts", "2"]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert "internal error" not in err and "--seat" in err


# ---------------------------------------------------------------- the editor widget's boxes
@SLOW
@given(texts, texts)
def test_the_editor_widgets_boxes_raise_only_ttr_errors(deck, discard):
    pytest.importorskip("ipywidgets")
    pytest.importorskip("plotly")
    w = _editor()
    w.deck.value, w.discard.value = deck, discard
    view = w.make_view()
    assert view is not None or "refused" in w.result.value


_EDITOR = []


def _editor():
    if not _EDITOR:
        from ttr_lab.widgets.editor import editor

        _EDITOR.append(editor("usa", ["Me", "Ann"], seat="Me"))
    return _EDITOR[0]


@pytest.mark.parametrize("box, text", [("deck", "²"), ("discard", "²"), ("deck", "٣"), ("discard", "①")])
def test_the_editor_refuses_foreign_digits_on_screen(box, text):
    pytest.importorskip("ipywidgets")
    pytest.importorskip("plotly")
    w = _editor()
    w.deck.value, w.discard.value = "", "0"
    getattr(w, box).value = text
    assert w.make_view() is None
    assert "refused" in w.result.value
    assert "digits 0-9" in w.result.value if box == "deck" else "no card" in w.result.value
