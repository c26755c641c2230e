"""Hot-seat with hidden hands: the play widget sends the browser only what the
person in front of the screen may know.

Every test reads what would reach the browser: the synced state of every
widget reachable from the play widget (``get_state()``, following the
``IPY_MODEL_`` references of children, layouts and styles), including the
board's ``FigureWidget`` (its synced ``_widget_data`` and ``_widget_layout``,
and its Python-side data, which the live page receives as messages).

Two kinds of check:

* **literal**: in 2-person Europe and Rails & Sails games played through the
  widget, at several plies, no pending ticket (label or ``ttr-ticket-<id>``),
  kept ticket, card of a hand (``name:count`` as the notation writes it, the
  hand chip ``label × count``, and, in Rails & Sails, any card name no one
  may see) nor secret split (``13 trains``, the slider's value) of anyone
  but the person whose hand is shown appears anywhere;
* **indistinguishable**: two games that differ only in one player's secret
  (their hand, which tickets they kept, their split) give the other player's
  screen exactly the same synced state, hidden or shown.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

import ipywidgets.widgets.widget as ipw

import ttr_lab
from ttr_lab.engine.state import Phase
from ttr_lab.widgets import PlayWidget
from ttr_lab.widgets.card_chips import card_label

from .helpers import arrange, past_setup
from .test_widgets import find
from .test_widgets_editions import pick, play_through_controls

_REF = re.compile(r"^IPY_MODEL_([0-9a-f]+)$")
_NOISE = {"uid", "_last_layout_edit_id", "_last_trace_edit_id"}  # random ids and edit counters
_CODE = {"_esm", "_css", "_plotly_esm", "_plotly_bundle_key", "placeholder"}  # front-end code, example text


# --------------------------------------------------------------------------- reading what is synced


def _plain(value: Any) -> Any:
    if isinstance(value, memoryview | bytes | bytearray):
        return bytes(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k not in _NOISE}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def synced(root) -> list[dict[str, Any]]:
    """The synced state of every widget reachable from ``root``, in a fixed
    order, with model ids replaced by that order (so two widget trees built the
    same way compare equal) and plotly's random trace uids left out."""
    order: dict[str, int] = {root.model_id: 0}
    todo, states = [root], []

    def refs(value: Any) -> Any:
        if isinstance(value, str):
            m = _REF.match(value)
            if m is None:
                return value
            mid = m.group(1)
            if mid not in order:
                order[mid] = len(order)
                todo.append(ipw._instances[mid])
            return f"W{order[mid]}"
        if isinstance(value, dict):
            return {k: refs(v) for k, v in value.items()}
        if isinstance(value, list):
            return [refs(v) for v in value]
        return value

    while todo:
        w = todo.pop(0)
        state = {k: refs(_plain(v)) for k, v in sorted(w.get_state().items()) if k not in _NOISE}
        if hasattr(w, "_data"):  # a FigureWidget: also its data as Python holds it
            state["py:data"] = _plain(w._data)
            state["py:layout"] = _plain(w._layout_obj.to_plotly_json())
        states.append(state)
    return states


def strings(states) -> list[str]:
    """Every string value (and dict key) in the states, the front end's code left out."""
    out: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                if k not in _CODE:
                    out.append(str(k))
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(states)
    return out


def values_of(states, key: str) -> list[Any]:
    return [s[key] for s in states if key in s]


# --------------------------------------------------------------------------- what is secret


def _word(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])")


class Secrets:
    """What seat ``q`` keeps from everyone else, now, as patterns to look for."""

    def __init__(self, widget: PlayWidget, q: int, viewer: int | None) -> None:
        g = widget.game
        self.q = q
        shown_hand = g.hand(viewer) if viewer is not None else {}
        routes = {r.label() for r in g.map.routes}
        self.patterns: list[tuple[str, str, re.Pattern[str]]] = []
        if g.current_player == q:
            for t in g.pending_tickets:
                self.add(f"pending ticket {t.id}", f"ttr-ticket-{t.id}")
                if t.label() not in routes:
                    self.add(f"pending ticket {t.label()}", t.label())
        for t in g.tickets(q):
            if t.label() not in routes:
                self.add(f"kept ticket {t.label()}", t.label())
        hand = g.hand(q)
        for name, k in hand.items():
            for j in range(1, k + 1):
                if shown_hand.get(name, 0) < j:  # the viewer's own legal payments may name it
                    self.add(f"hand card {name}:{j}", f"{name}:{j}")
            if shown_hand.get(name) != k:
                self.add(f"hand chip {name} × {k}", f"{card_label(g, name)} × {k}")
        if len(g.edition.pile_names) > 1:  # Rails & Sails: card names no one may see at all
            public = widget._log.value + "\n" + "\n".join(map(str, g.row))
            for name in hand:  # (plain colours are also route colours: only the names with a dash)
                seen = name in shown_hand or _word(name).search(public) or card_label(g, name) in public
                if "-" in name and not seen:
                    self.add(f"hidden card {name}", name)
                    self.add(f"hidden card class ttr-card-{name}", f"ttr-card-{name}")
                    self.add(f"hidden card {card_label(g, name)}", card_label(g, name))

    def add(self, what: str, text: str) -> None:
        self.patterns.append((what, text, _word(text)))

    def found_in(self, blob: str) -> list[str]:
        return [what for what, text, pat in self.patterns if text in blob and pat.search(blob)]


def viewer_of(widget: PlayWidget) -> int | None:
    """The seat whose hand the screen shows now, if any."""
    return widget._viewer() if widget._hand_visible() else None


def assert_nothing_leaks(widget: PlayWidget, where: str, splits: dict[int, int] | None = None) -> None:
    g = widget.game
    blob = "\n".join(strings(synced(widget)))
    viewer = viewer_of(widget)
    for q in range(g.n):
        if q == viewer:
            continue
        found = Secrets(widget, q, viewer).found_in(blob)
        assert not found, f"{where}: {g.player_names[q]}'s secrets on the screen of {viewer}: {found}"
    total = getattr(g.edition, "total_pieces", 0)
    choosing = viewer is not None and any(m.verb == "pieces" for m in g.legal_moves)
    for q, t in (splits or {}).items():
        if q == viewer or not g.phase == Phase.named("setup_pieces"):
            continue
        if not choosing:  # (a chooser's own Legal moves tab lists every number: see the test below)
            for text in (f"{t} trains", f"{total - t} ships", f"pieces {t}"):
                assert not _word(text).search(blob), f"{where}: {q}'s split ({text}) shows"
        slider = find(widget, "ttr-pieces-slider").get_state()
        assert slider["value"] != t, f"{where}: the slider still holds {q}'s split"


def assert_own_secrets_show(widget: PlayWidget) -> None:
    """The check can see a secret: the revealed player's own tickets and hand are there."""
    viewer = viewer_of(widget)
    assert viewer is not None
    mine = Secrets(widget, viewer, None).found_in("\n".join(strings(synced(widget))))
    assert mine, "the revealed player's own hand and tickets should be on the screen"


def reveal(widget: PlayWidget) -> None:
    if not widget._hand_visible():
        find(widget, "ttr-reveal").click()
    assert widget._hand_visible()


# --------------------------------------------------------------------------- literal checks over whole games


def _hot_seat(edition, seed):
    widget = ttr_lab.play(edition, players=["Ada", "Bob"], seed=seed, hide_hands=True, show_paths=True)
    widget.show_tab("Legal moves")  # the Legal moves tab open: it must empty itself when hidden
    return widget


@pytest.mark.parametrize(("edition", "seed"), [("europe", 2), ("rails_and_sails", 3)])
def test_nothing_secret_reaches_the_page_in_a_hot_seat_game(edition, seed):
    widget = _hot_seat(edition, seed)
    g = widget.game
    splits: dict[int, int] = {}
    checked = 0
    for step in range(50):
        if g.is_over:
            break
        assert not widget._hand_visible(), "a new person at the screen starts hidden"
        assert_nothing_leaks(widget, f"ply {g.ply}, hidden", splits)
        p = g.current_player
        reveal(widget)
        assert_nothing_leaks(widget, f"ply {g.ply}, {g.player_names[p]} shown", splits)
        if step < 6:
            assert_own_secrets_show(widget)
        # one whole decision of this person (several moves while it stays theirs)
        while not g.is_over and g.current_player == p:
            m = pick(g)
            if m.verb == "pieces":
                n = 13 if p == 0 else 22  # neither is the slider's default (20)
                splits[p] = n
                find(widget, "ttr-pieces-slider").value = n  # as a person does
                find(widget, "ttr-choose-pieces").click()
            elif m.verb == "keep":
                find(widget, "ttr-keep").click()  # every ticket ticked
            else:
                play_through_controls(widget, m)
            assert_nothing_leaks(widget, f"ply {g.ply}, after {m}", splits)
        checked += 1
    assert checked >= 20 and g.ply >= 40


def test_hidden_hand_takes_no_move_and_says_so():
    widget = _hot_seat("europe", 2)
    g = widget.game
    before = g.to_dict()
    assert not widget.play_move(g.legal_moves[0])
    assert not widget.click_route(1)
    assert not widget.click_city("Wien")
    assert g.to_dict() == before
    assert "Ada's hand is hidden: press “Show my hand” first" in widget.status
    assert "Show my hand" in widget._prompt()
    assert find(widget, "ttr-keep-box").children[1].children == ()  # no ticket boxes at all
    assert widget.inspector._select.options == ()
    assert "hidden with the hand" in widget.inspector._summary.value


def test_a_refusal_about_the_hand_goes_when_the_hand_is_hidden():
    widget = _hot_seat("europe", 2)
    reveal(widget)
    find(widget, "ttr-keep").click()
    reveal(widget)
    find(widget, "ttr-keep").click()  # Ada's turn, hidden
    reveal(widget)
    g = widget.game
    long_route = next(r for r in g.map.routes if r.length >= 6)
    assert not widget.click_route(long_route.id)
    said = f"{long_route.a}–{long_route.b} needs "
    assert said in widget.status and "; Ada holds " in widget.status  # the reason is about Ada's cards
    assert said in find(widget, "ttr-refusal-text").value
    find(widget, "ttr-hide").value = False
    find(widget, "ttr-hide").value = True  # hands hidden again: the refusal is not left on the screen
    assert said not in widget.status and said not in find(widget, "ttr-refusal-text").value
    assert find(widget, "ttr-refusal").layout.display == "none"


def test_replaced_ticket_boxes_are_closed_in_the_browser_too():
    widget = _hot_seat("europe", 2)
    reveal(widget)
    boxes = list(find(widget, "ttr-keep-box").children[1].children)
    assert boxes and all(b.comm is not None for b in boxes)
    find(widget, "ttr-keep").click()
    assert all(b.comm is None for b in boxes)  # closed: the front end drops Ada's ticket labels
    assert find(widget, "ttr-keep-box").children[1].children == ()


# --------------------------------------------------------------------------- indistinguishable positions


def _europe_turn(bob_hand):
    g = past_setup(ttr_lab.new_game("europe", players=["Ada", "Bob"], seed=1))
    g = arrange(
        g,
        row=["red", "blue", "green", "yellow", "black"],
        hands={0: {"red": 2, "blue": 1, "loco": 1}, 1: bob_hand},
        deck_top=["green", "white"],
        current=0,
    )
    widget = PlayWidget(g, hide_hands=True, show_paths=True)
    widget.show_tab("Legal moves")
    return widget


def test_bobs_hand_changes_nothing_on_adas_screen():
    a = _europe_turn({"yellow": 2, "black": 2})
    b = _europe_turn({"orange": 1, "pink": 2, "loco": 1})
    steps = [
        ("Ada hidden", lambda w: None),
        ("Ada shown", reveal),
        ("a station payment asked", lambda w: w.click_city("Wien")),
        ("payment cancelled", lambda w: find(w, "ttr-cancel").click()),
        ("a face-up card", lambda w: w.click_faceup(1)),
        ("Bob to play, hidden", lambda w: find(w, "ttr-deck").click()),
    ]
    for what, step in steps:
        step(a)
        step(b)
        assert synced(a) == synced(b), f"Bob's hand shows on the screen ({what})"
    reveal(a)
    reveal(b)
    assert synced(a) != synced(b)  # Bob's own screen shows his own hand: the comparison can tell


@pytest.mark.parametrize("keep", [0, -1])
def test_which_tickets_ada_kept_changes_nothing_on_bobs_screen(keep):
    def game(first):
        widget = ttr_lab.play("europe", players=["Ada", "Bob"], seed=4, hide_hands=True)
        reveal(widget)
        choices = [m for m in widget.game.legal_moves if len(m.tickets) == 3]
        widget.play_move(choices[0 if first else -1])
        return widget, choices

    (a, choices), (b, _) = game(True), game(False)
    assert choices[0] != choices[-1]
    for what, step in (("Bob hidden", lambda w: None), ("Bob shown", reveal)):
        step(a)
        step(b)
        assert synced(a) == synced(b), f"Ada's ticket choice shows on Bob's screen ({what})"
    assert "Ada kept 3 tickets" in a._log.value


@pytest.mark.parametrize("edition", ["rails_and_sails", "great_lakes"])
def test_adas_split_changes_nothing_on_bobs_screen(edition):
    def game(trains):
        widget = ttr_lab.play(edition, players=["Ada", "Bob"], seed=2, hide_hands=True)
        for _ in range(2):
            reveal(widget)
            find(widget, "ttr-keep").click()
        assert widget.game.phase == Phase.named("setup_pieces")
        reveal(widget)
        find(widget, "ttr-pieces-slider").value = trains
        find(widget, "ttr-choose-pieces").click()
        return widget

    lo, hi = ttr_lab.find_edition(edition).train_range
    a, b = game(lo), game(hi)
    for what, step in (("Bob hidden", lambda w: None), ("Bob shown", reveal)):
        step(a)
        step(b)
        assert synced(a) == synced(b), f"Ada's split shows on Bob's screen ({what})"
    slider = find(a, "ttr-pieces-slider")
    assert slider.value == min(max(20, lo), hi) and (slider.min, slider.max) == (lo, hi)
    # once both have chosen, the splits are public
    a.controls["pieces"].choose(hi)
    assert "Pieces revealed" in a.status and f"Ada {lo} trains" in a.status


# --------------------------------------------------------------------------- log lines


def test_log_lines_say_only_what_every_player_learns():
    widget = ttr_lab.play("rails_and_sails", players=["Ada", "Bob"], seed=3, hide_hands=True)
    g = widget.game
    while g.phase != Phase.TURN:
        reveal(widget)
        if g.phase == Phase.named("setup_pieces"):
            widget.controls["pieces"].choose(14)
        else:
            find(widget, "ttr-keep").click()
    log = widget._log.value
    assert "Ada kept" in log and "Bob kept" in log and "chose how to split the pieces" in log
    assert not re.search(r"\bkeep [\d ]+", log) and not re.search(r"\bpieces \d", log)
    assert "14 trains" not in log
    kept = {t.label() for t in g.tickets(0)} | {t.label() for t in g.tickets(1)}
    assert not any(label in log for label in kept)


def test_moves_played_behind_the_widgets_back_are_announced_too():
    widget = ttr_lab.play("rails_and_sails", players=["Ada", "Bob"], seed=3)
    g = widget.game
    while g.phase != Phase.TURN:
        g.play(g.legal_moves[0])
    widget.refresh()
    log = widget._log.value
    assert log.count("<li>") == g.ply
    assert not re.search(r"\bkeep \d", log) and not re.search(r"\bpieces \d", log)
    assert log.count("kept") == 2 and log.count("chose how to split") == 2
