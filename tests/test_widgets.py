"""Widget tests in plain Python: no browser, no kernel.

Clicks are simulated the way the front end delivers them (a plotly
``Points`` object to the ``on_click`` callback, or the synced
``_js2py_pointsCallback`` message), or through the widget methods and
``button.click()``; assertions are on the game and on the widgets' values.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from copy import deepcopy

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from plotly.callbacks import Points

import ttr_lab
from ttr_lab.board import PLAYER_COLORS, route_trace_index
from ttr_lab.engine.moves import ClaimRoute, DrawFaceUp, KeepTickets
from ttr_lab.engine.state import Phase
from ttr_lab.records import Record
from ttr_lab.widgets import HistoryWidget, MoveInspector, PlayWidget
from ttr_lab.widgets.history import PLOTLY_MIME
from ttr_lab.widgets.playing.tickets import ticket_offer

SEED = 7


def classes(widget):
    return set(widget._dom_classes)


def all_widgets(root):
    out, todo = [], [root]
    while todo:
        w = todo.pop()
        out.append(w)
        todo.extend(getattr(w, "children", ()))
    return out


def find(root, css):
    found = [w for w in all_widgets(root) if css in getattr(w, "_dom_classes", ())]
    assert found, f"no widget with class {css}"
    return found[0]


def claim_options(game):
    return Counter(m.route for m in game.legal_moves if isinstance(m, ClaimRoute))


@pytest.fixture
def w():
    """You vs a bot, tickets kept, You to start a turn."""
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=SEED)
    find(widget, "ttr-keep").click()
    assert widget.game.phase == Phase.TURN and widget.game.current_player == 0
    return widget


def route_point(widget, route_id):
    k = route_trace_index(widget.fig)
    trace = widget.fig.data[k]
    i = list(trace.customdata).index(route_id)
    return k, i, trace


# --------------------------------------------------------------------------- construction


def test_play_returns_widget_with_css_classes():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=SEED)
    assert isinstance(widget, PlayWidget)
    for css in (
        "ttr-status",
        "ttr-hand",
        "ttr-faceup-1",
        "ttr-faceup-5",
        "ttr-deck",
        "ttr-undo",
        "ttr-redo",
        "ttr-log",
        "ttr-scores",
        "ttr-keep",
        "ttr-paths",
        "ttr-hide",
    ):
        find(widget, css)
    assert "choose the tickets to keep (at least 2)" in widget.status
    assert widget.fig.layout.width == 620  # fits a laptop beside the 300-pixel side panel
    assert widget.game.player_names == ("You", "bot")
    assert set(widget.bots) == {1} and widget.humans == (0,)


def test_repr_has_no_memory_address():
    widget = PlayWidget("usa", players=["You", "bot"], seed=SEED)
    assert repr(widget) == "<PlayWidget usa: You vs bot, seed 7, ply 0, You to keep tickets>"
    assert "0x" not in repr(widget) and len(repr(widget)) <= 110
    assert "0x" not in repr(widget.inspector)


def test_misspelt_keyword_is_a_clear_type_error():
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'sed'; did you mean 'seed'\?"):
        PlayWidget("usa", sed=3)
    with pytest.raises(TypeError, match="plyers"):
        ttr_lab.play("usa", plyers=["a", "b"])


def test_bot_seats_move_until_a_person_decides():
    widget = ttr_lab.play("usa", players=["bot", "You", "greedy"], seed=3)
    g = widget.game
    assert g.current_player == 1 and g.phase == Phase.SETUP_TICKETS
    assert g.ply == 1 and len(g.tickets(0)) >= 2  # seat 0's bot kept its tickets
    find(widget, "ttr-keep").click()
    # seat 2 keeps, then seat 0 (first player) takes a whole turn: seat 1 is due again
    assert g.phase == Phase.TURN and g.current_player == 1 and g.ply >= 4
    assert len(g.tickets(2)) >= 2
    log = find(widget, "ttr-log").value
    assert "bot kept" in log and "greedy kept" in log and log.count("<li>") == g.ply


# --------------------------------------------------------------------------- tickets and cards


def test_keep_button_keeps_the_ticked_tickets():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=SEED)
    pending = [t.id for t in widget.game.pending_tickets]
    boxes = find(widget, "ttr-keep-box").children[1].children
    assert len(boxes) == 3 and all(b.value for b in boxes)
    boxes[2].value = False
    find(widget, "ttr-keep").click()
    assert sorted(t.id for t in widget.game.tickets(0)) == sorted(pending[:2])
    assert "You kept 2 tickets" in widget.status


def test_keeping_too_few_tickets_is_refused_with_the_rule():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=SEED)
    for box in find(widget, "ttr-keep-box").children[1].children[1:]:
        box.value = False
    find(widget, "ttr-keep").click()
    assert widget.game.ply == 0
    assert "rule B1" in widget.status and "must keep at least 2" in widget.status


def test_faceup_click_takes_the_card(w):
    g = w.game
    card = g.row[0]
    before = g.hand(0).get(card, 0)
    find(w, "ttr-faceup-1").click()
    assert g.hand(0).get(card, 0) == before + 1
    assert g.phase == Phase.SECOND_CARD or card == "loco"
    assert f"{g.hand_size(0)} cards" in find(w, "ttr-hand").value
    assert "You: take the face-up" in w.status


def test_faceup_buttons_show_card_colours(w):
    for i, card in enumerate(w.game.row, 1):
        button = find(w, f"ttr-faceup-{i}")
        assert button.description == ("locomotive" if card == "loco" else card)  # one word for the wild card
        assert f"ttr-card-{card}" in classes(button)
        assert button.style.button_color


def test_two_draws_end_the_turn_and_the_bot_replies(w):
    g = w.game
    slot = next(i for i, c in enumerate(g.row, 1) if c != "loco")
    w.click_faceup(slot)
    find(w, "ttr-deck").click()
    assert g.current_player == 0 and g.phase == Phase.TURN
    assert g.ply > 4  # the bot's moves came after ours
    assert "bot:" in find(w, "ttr-log").value


def test_illegal_second_card_changes_nothing_and_shows_the_rule(w):
    g = w.game
    w.click_faceup(next(i for i, c in enumerate(g.row, 1) if c != "loco"))
    assert g.phase == Phase.SECOND_CARD
    stack, hand = g.move_stack, g.hand(0)
    w.click_route(next(iter(claim_options(g)), 1))  # a claim is not a second card
    assert g.move_stack == stack and g.hand(0) == hand
    assert "rule A1" in w.status and "expected a second card" in w.status
    refusal = find(w, "ttr-refusal")
    assert refusal.layout.display == "flex" and "ttr-error" in find(w, "ttr-refusal-text").value
    assert "ttr-error" not in find(w, "ttr-status").value  # shown where the click was, not in the status line
    if "loco" in g.row:
        w.click_faceup(g.row.index("loco") + 1)
        assert g.move_stack == stack
        assert "A face-up locomotive cannot be your second card" in w.status
        assert re.search(r"rule A2: a face-up wild card cannot be taken as the second card", w.status)


# --------------------------------------------------------------------------- claims


def test_route_click_through_plotly_callback_claims_it(w):
    g = w.game
    rid = next(r for r, n in claim_options(g).items() if n == 1)
    k, i, trace = route_point(w, rid)
    trace._dispatch_on_click(
        Points(point_inds=[i], xs=[trace.x[i]], ys=[trace.y[i]], trace_name="routes", trace_index=k), None
    )
    assert g.route_owner(rid) == 0
    assert f"route {rid}" in find(w, "ttr-log").value
    assert w.fig.data[k].marker.color[i] == PLAYER_COLORS[0]


def test_route_click_through_the_synced_message(w):
    """What the browser sends: plotly_click on the routes trace (JUPYTER.md section 2)."""
    g = w.game
    rid = next(r for r, n in claim_options(g).items() if n == 1)
    k, i, trace = route_point(w, rid)
    w.fig._js2py_pointsCallback = {
        "event_type": "plotly_click",
        "points": {"trace_indexes": [k], "point_indexes": [i], "xs": [trace.x[i]], "ys": [trace.y[i]]},
        "device_state": {"alt": False, "ctrl": False, "meta": False, "shift": False, "button": 0, "buttons": 1},
        "selector": None,
    }
    assert g.route_owner(rid) == 0


def test_several_payments_ask_and_confirm(w):
    g = w.game
    rid, n = next((r, n) for r, n in claim_options(g).items() if n > 1)
    options = [m for m in g.legal_moves if isinstance(m, ClaimRoute) and m.route == rid]
    assert w.click_route(rid)
    assert g.route_owner(rid) is None and g.ply == 2  # nothing played yet
    pay_box = find(w, "ttr-pay-box")
    assert pay_box.layout.display == "flex"
    assert len(find(w, "ttr-payment").options) == n
    assert "highlight" in [t.name for t in w.fig.data]
    find(w, "ttr-payment").value = n - 1
    hand = g.hand(0)
    find(w, "ttr-confirm").click()
    assert g.route_owner(rid) == 0
    spent = dict(options[n - 1].cards)
    assert all(g.hand(0).get(c, 0) <= hand[c] - k for c, k in spent.items())
    assert pay_box.layout.display == "none"
    assert "highlight" not in [t.name for t in w.fig.data]


def test_cancel_leaves_the_route_free(w):
    g = w.game
    rid = next(r for r, n in claim_options(g).items() if n > 1)
    w.click_route(rid)
    find(w, "ttr-cancel").click()
    assert g.route_owner(rid) is None and g.ply == 2 and "cancelled" in w.status


def test_unaffordable_route_is_explained(w):
    g = w.game
    options = claim_options(g)
    rid = next(r.id for r in g.map.routes if r.id not in options and r.length >= 5)
    route = g.map.route(rid)
    w.click_route(rid)
    assert g.ply == 2
    held = g.hand(0).get(route.color, 0)
    need = f"{route.a}–{route.b} needs {route.length} {route.color} cards; you hold {held} {route.color} and "
    if route.color == "gray":
        need = f"{route.a}–{route.b} needs {route.length} cards of one colour; you hold "
    assert need in w.status and "(rule A4: must pay exactly" in w.status


def test_claim_keeps_synced_figure_state_fresh(w):
    """JUPYTER.md pitfall 8: a reloaded page or Voila must see the claim."""
    g = w.game
    rid = next(r for r, n in claim_options(g).items() if n == 1)
    w.click_route(rid)
    assert w.fig._widget_data == w.fig._data
    assert w.fig._widget_layout == deepcopy(w.fig._layout_obj._props)
    k, i, _ = route_point(w, rid)
    assert w.fig._widget_data[k]["marker"]["color"][i] == PLAYER_COLORS[0]
    assert w.fig._widget_layout["width"] == 620  # redraws keep the widget's board size
    claimed = next(t for t in w.fig._widget_data if t.get("name") == "claimed by You")
    assert any(x is not None for x in claimed["x"])


# --------------------------------------------------------------------------- undo / redo


def test_undo_goes_back_to_the_last_human_decision_and_redo_returns(w):
    g = w.game
    rid = next(r for r, n in claim_options(g).items() if n == 1)
    before, hand = g.ply, g.hand(0)
    w.click_route(rid)
    after, owners = g.ply, g.route_owners()
    assert after > before + 1  # the bot's moves followed
    find(w, "ttr-undo").click()
    assert g.ply == before and g.route_owner(rid) is None and g.hand(0) == hand
    assert g.current_player == 0 and not find(w, "ttr-redo").disabled
    assert w.fig.data[route_point(w, rid)[0]].marker.color[route_point(w, rid)[1]] == "#ffffff"
    find(w, "ttr-redo").click()
    assert g.ply == after and g.route_owners() == owners
    assert find(w, "ttr-redo").disabled


def test_undo_many_steps_then_a_new_move_clears_redo(w):
    g = w.game
    w.click_faceup(next(i for i, c in enumerate(g.row, 1) if c != "loco"))
    w.play_move("blind")
    assert w.undo() and g.phase == Phase.SECOND_CARD  # back one human decision
    assert w.undo() and g.ply == 2
    assert w.undo() and g.ply == 0  # your keep, with the bot's keep after it
    assert not w.undo() and "Nothing to undo" in w.status
    assert w.redo() and g.ply == 2  # your keep, then the bot's
    w.play_move("blind")
    assert not w._redo and find(w, "ttr-redo").disabled


def test_undo_never_leaves_a_bot_to_move():
    widget = ttr_lab.play("usa", players=["bot", "You"], seed=3)
    g = widget.game
    assert g.ply == 1 and g.current_player == 1
    assert not widget.undo() and "no earlier decision of yours" in widget.status
    assert g.ply == 1 and g.current_player == 1


# --------------------------------------------------------------------------- whole games, hot seat


def test_scripted_human_plays_a_whole_game_against_a_bot():
    widget = ttr_lab.play("usa", players=["You", "bot"], seed=11)
    g = widget.game
    for _ in range(2000):
        if g.is_over:
            break
        m = g.legal_moves[0]
        if isinstance(m, ClaimRoute):
            widget.click_route(m.route)
            if widget._pending_claim:
                find(widget, "ttr-confirm").click()
        elif isinstance(m, DrawFaceUp):
            widget.click_faceup(m.slot)
        elif isinstance(m, KeepTickets):
            widget.play_move(m)
        else:
            widget.play_move(m)
    assert g.phase == Phase.GAME_OVER
    assert widget.status.startswith("Game over. Winner:")
    assert widget.tab == "Score breakdown" and find(widget, "ttr-tab-body").children == (find(widget, "ttr-outcome"),)
    assert str(g.outcome()).splitlines()[0] in find(widget, "ttr-outcome").value
    assert widget.fig._widget_data == widget.fig._data
    table = find(widget, "ttr-scores").value  # the final totals with their breakdown
    assert table.startswith("<b>Final scores</b>") and "<th>routes</th><th>tickets</th>" in table
    for ps in g.outcome().players:
        extra = sum(v for _, v in ps.bonuses + ps.adjustments)
        row = f"<td>{ps.route_points}</td><td>{ps.ticket_points:+d}</td><td>{extra:+d}</td><td><b>{ps.total}</b></td>"
        assert row in table
        assert ps.route_points + ps.ticket_points + extra == ps.total


def test_the_bots_last_claim_is_shown_on_the_board(w):
    g = w.game
    for _ in range(60):  # take cards until the bot has claimed a route
        if any(o == 1 for o in g.route_owners().values()):
            break
        w.play_move("blind")
        if g.phase == Phase.SECOND_CARD:
            w.play_move("blind")
    last = next(m for m in reversed(g.move_stack) if isinstance(m, ClaimRoute) and g.route_owner(m.route) == 1)
    halo = next(t for t in w.fig.data if t.name == "last move of bot")
    xs = [x for x in halo.x if x is not None]
    assert xs, "the bot's last claim has a halo"
    trace = w.fig.data[route_trace_index(w.fig)]
    ours = [(trace.x[j], trace.y[j]) for j, r in enumerate(trace.customdata) if r == last.route]
    span = max(trace.x) - min(trace.x)
    for x, y in zip(halo.x, halo.y):  # every halo point lies along the bot's last claimed route
        if x is not None:
            assert min(abs(px - x) + abs(py - y) for px, py in ours) < 0.05 * span


def test_players_as_a_number_are_all_people():
    widget = PlayWidget("usa", players=3, seed=1)
    assert widget.humans == (0, 1, 2) and widget.game.player_names[2] == "Player 3"


def test_hot_seat_shows_only_the_current_hand_and_can_hide_it():
    widget = ttr_lab.play("usa", players=["Ada", "Bo"], seed=SEED, hide_hands=True)
    g = widget.game
    assert widget.bots == {} and widget.humans == (0, 1)
    hand = find(widget, "ttr-hand")
    assert "Ada's hand" in html.unescape(hand.value) and "hidden" in hand.value
    assert find(widget, "ttr-keep-box").layout.display == "none"  # tickets are private too
    find(widget, "ttr-reveal").click()
    assert "hidden" not in hand.value and find(widget, "ttr-keep-box").layout.display == "flex"
    find(widget, "ttr-keep").click()
    assert g.current_player == 1
    assert "Bo's hand" in html.unescape(hand.value) and "hidden" in hand.value  # Bo must reveal his own
    find(widget, "ttr-hide").value = False  # hot-seat hiding off: the hand shows at once
    assert "hidden" not in hand.value and "Bo's tickets" in html.unescape(find(widget, "ttr-tickets").value)
    find(widget, "ttr-keep").click()
    assert g.phase == Phase.TURN and g.current_player == 0
    assert "Ada's hand" in html.unescape(hand.value)
    assert "Ada's tickets" in html.unescape(find(widget, "ttr-tickets").value)


def test_one_person_reads_your_hand(w):
    assert find(w, "ttr-hand").value.startswith("<b>Your hand</b>")
    assert find(w, "ttr-tickets").value.startswith("<b>Your tickets</b>")


def test_ticket_list_shows_not_yet_connected(w):
    text = find(w, "ttr-tickets").value
    assert text.count("not yet connected") == len(w.game.tickets(0))  # "✘ missed" once the game is over


# --------------------------------------------------------------------------- inspector


def test_inspector_lists_grouped_legal_moves_and_highlights(w):
    ins = w.inspector
    w.show_tab("Legal moves")
    g = w.game
    assert len(ins._select.options) == len(g.legal_moves)
    labels = [label for label, _ in ins._select.options]
    assert labels[0].startswith("draw · face-up 1") and any(s.startswith("claim · ") for s in labels)
    i = next(i for i, s in enumerate(labels) if s.startswith("claim · "))
    ins._select.value = i
    assert ins.selected == ins._moves[i] and isinstance(ins.selected, ClaimRoute)
    hl = [t for t in w.fig.data if t.name == "highlight"]
    assert hl, "selecting a claim highlights its route"
    assert ins._text.value == str(ins.selected) and ins._answer.value.startswith("Legal:")
    ins._text.value = "claim 1 red:9"
    assert "Illegal (rule A4)" in ins._answer.value
    ins._text.value = "fly to the moon"
    assert "Cannot read it" in ins._answer.value
    ins._select.value = i
    move = ins.selected
    find(ins, "ttr-inspector-play").click()
    assert g.route_owner(move.route) == 0 and g.ply > 3


def test_inspector_stands_alone():
    g = ttr_lab.new_game("usa", players=2, seed=SEED)
    ins = MoveInspector(g)
    assert "4 legal moves" in ins._summary.value
    assert ins.check("keep 6").startswith("Illegal (rule B1)")


# --------------------------------------------------------------------------- ticket paths


def test_ticket_paths_toggle_draws_the_cheapest_paths(w):
    from ttr_lab.analysis.network import route_access, ticket_paths

    g = w.game
    w.click_route(next(r for r, n in claim_options(g).items() if n == 1))
    find(w, "ttr-paths").value = True
    expected = ticket_paths(g, 0)
    _, blocked = route_access(g, 0)
    traces = {t.name: t for t in w.fig.data}
    assert "tickets" in traces  # the ticket cities are starred
    tickets = find(w, "ttr-tickets").value
    for ticket, path in expected:
        if path is None:
            assert "unreachable" in tickets
        elif path.cost:
            assert f"{ticket.label()}: {path.cost} more cars" in traces
            assert f"{ticket.label()} ({ticket.points}) — {path.cost} more cars" in tickets
            assert not set(path.routes) & blocked
    find(w, "ttr-paths").value = False
    assert "tickets" not in [t.name for t in w.fig.data]


def test_unreachable_ticket_is_reported(w, monkeypatch):  # the widget asks analysis.position
    import ttr_lab.analysis.network as position

    monkeypatch.setattr(position, "ticket_paths", lambda g, p: [(t, None) for t in g.tickets(p)])
    find(w, "ttr-paths").value = True
    text = find(w, "ttr-tickets").value
    assert text.count("unreachable") == len(w.game.tickets(0))
    assert not [t for t in w.fig.data if t.name.endswith("more cars")]


def test_hidden_hand_hides_the_paths_too():
    widget = ttr_lab.play("usa", players=["Ada", "Bo"], seed=SEED, hide_hands=True, show_paths=True)
    for _ in range(2):  # Ada, then Bo: show the hand, keep the tickets
        find(widget, "ttr-reveal").click()
        find(widget, "ttr-keep").click()
    assert widget.game.current_player == 0 and widget.game.tickets(0)
    assert "tickets" not in [t.name for t in widget.fig.data]  # Ada's hand is covered again
    find(widget, "ttr-reveal").click()
    assert "tickets" in [t.name for t in widget.fig.data]


# --------------------------------------------------------------------------- history


def test_history_slider_moves_with_push_and_pop(monkeypatch):
    from ttr_lab.bots import make_bot, play_game

    g = play_game("usa", [make_bot("greedy", 1), make_bot("random", 2)], seed=4)
    record = Record.from_state(g)
    h = HistoryWidget(record)
    assert h.game.ply == len(record.moves) and h.game.is_over
    monkeypatch.setattr(Record, "replay", lambda *a, **k: pytest.fail("replayed from scratch"))
    for k in (10, 60, 30, 0, len(record.moves)):
        h.slider.value = k
        assert h.game.ply == k
        monkeypatch.undo()
        assert h.game.route_owners() == record.replay(upto=k).route_owners()
        monkeypatch.setattr(Record, "replay", lambda *a, **k: pytest.fail("replayed from scratch"))
    h.slider.value = 5
    assert h.move_text.startswith("5. ") and "ply 5 of" in find(h, "ttr-history-move").value
    find(h, "ttr-history-forward").click()
    assert h.game.ply == 6 and h.slider.value == 6
    shown = h.board.outputs[0]["data"][PLOTLY_MIME]  # the board as the page draws it
    assert shown["data"] == json.loads(h.fig.to_json(validate=False))["data"]
    assert "ply 6" in h.board.outputs[0]["data"]["text/plain"]
    assert not [w for w in all_widgets(h) if type(w).__name__ == "FigureWidget"]  # no second plotly bundle
    assert "0x" not in repr(h)


@pytest.mark.parametrize("edition", ["usa", "europe", "rails_and_sails"])
def test_history_opens_a_seat_record_and_shows_only_what_was_public(edition):
    """A seat record (the recorder's kind) steps through as the table saw it:
    the positions match the true game's from that seat, the other seats'
    ticket choices read "kept N tickets", and its review is from that seat."""
    from ttr_lab.bots import make_bot, play_game

    g = play_game(edition, [make_bot("greedy", 1), make_bot("greedy", 2), make_bot("random", 3)], seed=4)
    seat = Record.loads(Record.from_state(g, seat=1).dumps())
    h = HistoryWidget(seat)
    assert h.game.ply == len(g.move_stack) and h.game.view(1).to_dict() == g.view(1).to_dict()
    truth = Record.from_state(g)
    for k in (30, 5):
        h.goto(k)
        assert h.game.view(1).to_dict() == truth.replay(upto=k).view(1).to_dict()
    others = [t for t, m in zip(h._texts, g.move_stack) if isinstance(m, KeepTickets)]
    assert others and all(re.search(r"kept \d tickets?$", t) for t in others)
    assert set(h.review(plies=range(1, 4))["view"]) == {1}


def test_ticket_paths_show_cards_and_the_cheapest_network_for_all_tickets():
    """Issue: the shortest way to finish each ticket with the cards it needs,
    and the exact Steiner network beside networkx's approximation."""
    import ttr_lab
    from ttr_lab.analysis.network import cards_needed, ticket_network, ticket_paths

    w = ttr_lab.play("usa", players=["You", "bot"], seed=3)
    while w.game.phase.name == "SETUP_TICKETS" and w.game.current_player == 0:
        w.game.play(w.game.legal_moves[-1])  # keep every dealt ticket
        w.refresh()
    w._show_paths.value = True
    g = w.game
    text = w._tickets_html(0)
    exact = ticket_network(g, 0)
    approx = ticket_network(g, 0, method="approx")
    assert f"All tickets together: <b>{exact.cost}</b> more cars" in text
    assert f"approximation: {approx.cost}" in text and approx.cost >= exact.cost
    for t, path in ticket_paths(g, 0):
        wanted = cards_needed(g, path.new_routes)
        assert sum(wanted.values()) == path.cost
        assert f"{path.cost} more cars" in text
    names = [getattr(p, "name", "") for p in w._board_options()["paths"]]
    assert any(n.startswith("all tickets: cheapest network") for n in names)


# --------------------------------------------------------------------------- the tutorial (issue 11, item 10)


def test_tutorial_first_decision_explains_tickets_and_draws_the_offer():
    t = ttr_lab.tutorial("usa", seed=SEED)
    g = t.game
    assert t.game.player_names == ("You", "easy") and set(t.bots) == {1}
    assert t.explained == ["tickets"]
    guide = t.guide
    assert "What you may do now: choose which tickets to keep (at least 2)" in guide
    assert "A two-city ticket is completed" in guide  # quoted from the rules reference (A7)
    offer = ticket_offer(g, 0, g.pending_tickets)
    drawn = {tr.name: tr for tr in t.fig.data if str(tr.meta).startswith("path:")}
    assert len(g.pending_tickets) == 3 and set(drawn) == {
        *(f"{p.ticket.label()}: {p.cost} cars" for p in offer.tickets),
        offer.line(),
    }
    for p in offer.tickets:  # each path drawn over the routes of the ticket's cheapest path
        k = route_trace_index(t.fig)
        assert p.routes and sum(1 for x in drawn[f"{p.ticket.label()}: {p.cost} cars"].x if x is not None) > 0
        assert set(p.routes) <= set(t.fig.data[k].customdata)
    boxes = find(t, "ttr-keep-box").children[1].children
    assert [b.description for b in boxes] == [
        f"{p.ticket.label()} ({p.ticket.points} points): {p.cost} cars" for p in offer.tickets
    ]
    assert find(t, "ttr-tutorial").children[1] is t._guide and t.children[0] is find(t, "ttr-tutorial")


def test_tutorial_lights_the_routes_you_can_pay_for_and_lets_you_try_an_illegal_move():
    t = ttr_lab.tutorial("usa", seed=SEED)
    find(t, "ttr-keep").click()
    g = t.game
    assert g.phase == Phase.TURN and g.current_player == 0
    can = sorted(set(claim_options(g)))
    assert t.lit_routes() == can and can
    assert sorted(t._board_options()["highlight"]) == can
    assert "highlight" in [tr.name for tr in t.fig.data]
    assert f"the {len(can)} routes in dashed violet frames" in t.guide and "Try an illegal move" in t.guide
    suggested = max((r for r in g.map.routes if r.id not in can), key=lambda r: (r.length, -r.id))
    assert f"{suggested.a}–{suggested.b} ({suggested.length} {suggested.color})" in t.guide
    before = g.to_dict()
    assert not t.click_route(suggested.id)
    assert g.to_dict() == before and "That was refused" in t.guide
    assert find(t, "ttr-refusal").layout.display == "flex"


def test_tutorial_explains_each_rule_once_when_it_first_applies_and_the_final_score():
    t = ttr_lab.tutorial("usa", seed=SEED)
    g = t.game
    order, second_seen, last_seen = [], None, None
    for _ in range(3000):
        if g.is_over:
            break
        claims = [m for m in g.legal_moves if isinstance(m, ClaimRoute)]
        m = max(claims, key=lambda m: g.map.route(m.route).length) if claims else g.legal_moves[0]
        t.play_move(g.legal_moves[0] if m.verb == "tickets" else m)
        new = [k for k in t.explained if k not in order]
        if "second card" in new:
            second_seen = g.phase
            assert "a face-up locomotive cannot be your second card" in t.guide
        if "last round" in new:
            last_seen = g.final_turns_left
            assert f"takes one more turn: {g.final_turns_left} turn" in t.guide
        order += new
    assert g.is_over
    assert sorted(order) == sorted(["tickets", "double routes", "second card", "last round", "final scoring"])
    assert len(t.explained) == len(set(t.explained)) == 5 and order[-1] == "final scoring"
    assert second_seen == Phase.SECOND_CARD and last_seen is not None
    me = g.outcome().players[0]
    guide = t.guide
    assert f"your routes scored {me.route_points} (" in guide and f"Total {me.total} against" in guide
    assert f"({me.ticket_points:+d})" in guide and f"longest path {me.longest_path} cars" in guide
    assert "The player with the most points wins" in guide


# --------------------------------------------------------------------------- the classroom app (item 16)


def test_app_new_game_follows_the_menu_and_closes_the_old_game():
    from ttr_lab.bots import BOTS
    from ttr_lab.widgets.app import PlayApp, deal_seed
    from ttr_lab.widgets.playing.bots import LEVELS
    from ttr_lab.widgets.tutorial import TutorialWidget

    key = "the app's key, for this test"
    app = PlayApp(key=key)
    first = app.game_widget
    assert isinstance(first, TutorialWidget) and first.game.seed == deal_seed(key, 7)
    old = all_widgets(first)
    app.mode.value, app.level.value, app.edition.value, app.number.value = "play", "hard", "europe", 3
    new = app.new_game()
    assert type(new) is PlayWidget and new.game.edition.name == "europe" and new.game.seed == deal_seed(key, 3)
    assert type(new.bots[1]).__name__ != type(first.bots[1]).__name__
    assert new.bots[1].name == "advisor" == next(b for b in LEVELS["hard"] if b in BOTS)
    assert first.bots[1].name == "random"
    assert all(w.comm is None for w in old)  # the old game left the page
    assert find(app, "ttr-app-game").children == (new,)


# --------------------------------------------------------------------------- opponents by level (item 11)


def test_the_levels_are_random_greedy_and_the_advisor():
    from ttr_lab.analysis.advisor import AdvisorBot
    from ttr_lab.bots import GreedyBot, RandomBot
    from ttr_lab.widgets.playing.bots import (
        HARD_BUDGET,
        HARD_CANDIDATES,
        HARD_SECONDS,
        bot_name,
        level_of,
        make_opponent,
    )

    assert [bot_name(level) for level in ("easy", "medium", "hard")] == ["random", "greedy", "advisor"]
    assert [level_of(b) for b in ("random", "greedy", "advisor", "playout")] == ["easy", "medium", "hard", None]
    easy, medium, hard = (make_opponent(level, seed=3) for level in ("easy", "Medium bot", "hard"))
    assert type(easy) is RandomBot and type(medium) is GreedyBot
    assert type(hard) is AdvisorBot and hard.max_playouts == HARD_BUDGET and hard.seconds == HARD_SECONDS
    assert hard.candidates == HARD_CANDIDATES
    widget = ttr_lab.play("usa", players=["You", "hard", "bot"], level="easy", seed=SEED)
    assert [type(widget.bots[p]) for p in (1, 2)] == [AdvisorBot, RandomBot]


def test_the_hard_bot_plays_the_advisors_move_from_its_own_view(monkeypatch):
    """In the widget, the hard seat's move is what AdvisorBot(playouts=HARD_BUDGET,
    candidates=HARD_CANDIDATES) chooses from that seat's view, deterministically for
    the seat's seed.  The level's clock (HARD_SECONDS) is lifted here: the kernel
    plays HARD_BUDGET in about a quarter of it, but on a loaded machine the clock
    may stop a search first (test_advisor_budget tests the clock); in Python
    playouts (no kernel) the cap is lowered to 100: the same wiring, a budget
    Python plays quickly."""
    from ttr_lab.analysis import kernel_info
    from ttr_lab.analysis.advisor import AdvisorBot
    from ttr_lab.widgets.playing import bots as play_bots
    from ttr_lab.widgets.playing.bots import HARD_BUDGET, HARD_CANDIDATES

    budget = HARD_BUDGET if kernel_info().enabled and "usa" in kernel_info().editions else 100
    options = {"seconds": 86_400.0, "max_playouts": budget, "candidates": HARD_CANDIDATES}
    monkeypatch.setitem(play_bots._OPTIONS, "advisor", options)
    widget = ttr_lab.play("usa", players=["You", "hard"], seed=SEED)
    find(widget, "ttr-keep").click()  # the bot keeps its tickets, then You play
    seen = []
    choose = AdvisorBot.choose

    def spy(self, view):
        move = choose(self, view)
        seen.append((view.player, view.ply, move))
        return move

    monkeypatch.setattr(AdvisorBot, "choose", spy)
    replay = widget.game.copy(stack=True)
    assert widget.play_move(next(m for m in widget.game.legal_moves if isinstance(m, ClaimRoute)))
    assert seen and {p for p, _, _ in seen} == {1}
    played = widget.game.move_stack[replay.ply :]
    assert [m for _, _, m in seen] == list(played[1:])  # every move after mine was the bot's choice
    replay.play(played[0])
    twin = AdvisorBot(widget.game.seed + 1, playouts=budget, candidates=HARD_CANDIDATES)
    for _, ply, move in seen:
        assert replay.ply == ply and choose(twin, replay.view(1)) == move
        replay.play(move)


def test_the_hard_level_falls_back_to_the_playout_bot_without_an_advisor(monkeypatch):
    from ttr_lab.bots import BOTS
    from ttr_lab.widgets.playing import bots as play_bots

    monkeypatch.delitem(BOTS, "advisor")
    assert play_bots.bot_name("hard") == "playout" and play_bots.level_of("playout") == "hard"
    assert type(play_bots.make_opponent("hard", seed=1)).__name__ == "PlayoutBot"


# --------------------------------------------------------------------------- glitches (item 9)


def test_the_legal_moves_tab_is_filled_before_it_is_shown(w):
    g = w.game
    w.click_faceup(next(i for i, c in enumerate(g.row, 1) if c != "loco"))  # the moves change: second card only
    assert w.inspector._select.options == ()  # emptied while the tab is closed
    seen = []
    w._tab_body.observe(lambda c: seen.append([label for label, _ in w.inspector._select.options]), "children")
    find(w, "ttr-tabs").value = "Legal moves"  # as a click on the tab does
    assert len(seen) == 1 and len(seen[0]) == len(g.legal_moves) > 0  # the new moves, at the moment it shows
    assert w._tab_body.children == (w.inspector,)


def test_a_highlight_from_the_legal_moves_tab_goes_with_the_tab_and_with_the_next_move(w):
    w.show_tab("Legal moves")
    ins = w.inspector
    labels = [label for label, _ in ins._select.options]
    ins._select.value = next(i for i, s in enumerate(labels) if s.startswith("claim · "))
    assert "highlight" in [t.name for t in w.fig.data]
    w.show_tab("Log")
    assert "highlight" not in [t.name for t in w.fig.data]
    w.show_tab("Legal moves")
    ins._select.value = next(i for i, s in enumerate(labels) if s.startswith("claim · "))
    assert "highlight" in [t.name for t in w.fig.data]
    w.play_move("blind")
    assert "highlight" not in [t.name for t in w.fig.data] and w._inspected is None


def test_tutorial_second_card_lesson_stays_through_a_refusal_until_the_next_move():
    t = ttr_lab.tutorial("usa", seed=SEED)
    find(t, "ttr-keep").click()
    g = t.game
    t.click_faceup(next(i for i, c in enumerate(g.row, 1) if c != "loco"))
    assert g.phase == Phase.SECOND_CARD and "loco" in g.row
    lesson = "New rule — The second card (rule A2)"
    assert lesson in t.guide and "There is one in the row now" in t.guide
    assert not t.click_faceup(g.row.index("loco") + 1)
    assert "That was refused" in t.guide and lesson in t.guide
    assert t.play_move("blind") and lesson not in t.guide and t.explained.count("second card") == 1


# --------------------------------------------------------------------------- the board's front end and fit (items 6, 9)


def test_every_board_widget_uses_the_front_end_that_keeps_its_updates():
    """The play, scorer and recorder boards are ttr_lab.widgets.figure.FigureWidget: a short
    _esm (anywidget's 2 s start) that asks the kernel for plotly's own bundle, which is not
    in the widget state (a reloaded page's 4 s state request, issue 19)."""
    import plotly.graph_objects as go

    from ttr_lab.widgets.figure import ESM, FigureWidget, plotly_bundle
    from ttr_lab.widgets.scorer import ScorerWidget

    bundle, key = plotly_bundle()
    assert bundle.decode() == go.FigureWidget().get_state()["_esm"] and len(ESM) < 2000
    for widget in (ttr_lab.play("usa", players=["You", "bot"], seed=SEED), ScorerWidget()):
        state = widget.fig.get_state()
        assert isinstance(widget.fig, FigureWidget)  # anywidget adds its traits to a subclass
        assert state["_esm"] == ESM and state["_plotly_bundle_key"] == key
        assert len(json.dumps(state)) < 500_000  # no bundle in the state
        assert widget.fig._plotly_bundle(key, []) == (key, [bundle])  # what the front end asks for


def test_a_tall_board_and_a_wide_score_table_still_fit_the_side_panel():
    """Rails & Sails World: the ticket choice's long legend does not make the board taller (it
    scrolls in the legend's room, issue 19): the board is as tall all game, within BOARD_MAX_PX,
    and the score table turns (a row per count)."""
    from ttr_lab.widgets.playing.layout import BOARD_MAX_PX

    widget = ttr_lab.play("rails_and_sails", players=["You", "bot"], seed=SEED)
    heights = [widget.fig.layout.height]
    find(widget, "ttr-keep").click()
    find(widget, "ttr-choose-pieces").click()
    heights.append(widget.fig.layout.height)
    assert heights[0] == heights[1] <= BOARD_MAX_PX
    table = find(widget, "ttr-scores").value
    assert 'class="ttr-scores-turned"' in table and "<tr><th>harbors</th>" in table and "▶ You" in table
    usa = ttr_lab.play("usa", players=["You", "bot"], seed=SEED)
    assert usa.fig.layout.height <= BOARD_MAX_PX and "ttr-scores-turned" not in find(usa, "ttr-scores").value


@pytest.mark.parametrize(("edition", "turned"), [("usa", False), ("europe", True), ("rails_and_sails", True)])
def test_the_score_table_turns_when_its_columns_would_overflow_the_side_panel(edition, turned):
    """Europe's five columns include "0 built, 3 left" (stations): about 358 px
    across in a 300 px panel (seen in Chromium), so it turns like Rails &
    Sails'; USA's four short columns stay across, 2 and 4 players."""
    for names in (["You", "bot"], ["You", "bot", "bot", "bot"]):
        widget = ttr_lab.play(edition, players=names, seed=SEED)
        table = find(widget, "ttr-scores").value
        assert ('class="ttr-scores-turned"' in table) is turned, (edition, names, table)
        assert table.count("▶") == 1


def test_the_play_widget_can_write_route_colours_as_letters():
    from ttr_lab.board.traces import LETTERS

    def letters(w):
        return [t for t in w.fig.data if (t.meta or "") == LETTERS or t.name == LETTERS]

    plain = ttr_lab.play("usa", players=["You", "bot"], seed=3)
    lettered = ttr_lab.play("usa", players=["You", "bot"], seed=3, color_letters=True, width=900)
    assert not letters(plain)
    shown = letters(lettered)
    assert shown and {"R", "G", "B", "K"} <= set(shown[0].text)
    g = lettered.game
    while g.current_player != 0 or g.phase.name != "TURN":  # past the setup, to a turn of "You"
        lettered.play_move(g.legal_moves[0])
    claim = next(m for m in g.legal_moves if isinstance(m, ClaimRoute))
    before = len(letters(lettered)[0].text)
    lettered.play_move(claim)  # the redraw keeps the letters, less the claimed route's
    assert letters(lettered) and len(letters(lettered)[0].text) < before
