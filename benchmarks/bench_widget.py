"""Play-widget benchmark: server-side time from a click to an updated figure.

    python benchmarks/bench_widget.py            # 20 claims, 20 card draws
    python benchmarks/bench_widget.py --repeat 50

Prints figures, asserts nothing.  The game is USA, you against one bot,
played to mid-game (20 routes claimed).  Each measurement starts when
the browser's click message reaches the widget (``_js2py_pointsCallback``,
the synced trait plotly's front end sets) or a button's click handler is
called, and stops when the handler returns: the move is played, the bot has
replied, every control and the figure are redrawn, and the figure's synced
state is refreshed for late views.  Widgets get a stand-in comm that
JSON-encodes every message, as the kernel would, so the cost of sending
the updates is included; only the network and the browser are not (the
browser test writes that time to ``test-artifacts/browser-timing.txt``).

Target from the issue: under 100 ms per click.

``--state`` prints instead the size of the widget state a page asks the
kernel for when it (re)loads notebook 02 (the play widget and a history
widget): every widget's full state as JSON, as ipywidgets'
``get_manager_state`` (with defaults, such as anywidget's ``_esm``) gives it.
The front end must receive all of it within its 4 s deadline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import comm

import ttr_lab
from ttr_lab.board import route_trace_index, update_board
from ttr_lab.bots import make_bot
from ttr_lab.engine.moves import ClaimRoute, DrawBlind


class JsonComm:
    """Stands in for a kernel comm: encodes every message to JSON and counts the bytes."""

    sent = 0
    comm_id = "bench"
    kernel = "bench"

    def __init__(self, **kwargs: object) -> None:
        pass

    def open(self, *args: object, **kwargs: object) -> None:
        pass

    def on_msg(self, *args: object, **kwargs: object) -> None:
        pass

    def close(self, *args: object, **kwargs: object) -> None:
        pass

    def send(self, data: object = None, metadata: object = None, buffers: object = None) -> None:
        JsonComm.sent += len(json.dumps(data, default=str)) + sum(len(b) for b in buffers or ())


def mid_game(seed: int, routes: int):
    """A widget at the start of your turn with about ``routes`` routes claimed."""
    w = ttr_lab.play("usa", players=["You", "bot"], seed=seed)
    me = make_bot("greedy", seed=seed + 100)  # plays "your" moves through the widget
    g = w.game
    while len(g.route_owners()) < routes and not g.is_over:
        w.play_move(me.choose(g.view(0)))
    return w


def claimable_routes(g) -> tuple[list[int], list[int]]:
    """Routes payable in exactly one way, and in several ways."""
    counts: dict[int, int] = {}
    for m in g.legal_moves:
        if isinstance(m, ClaimRoute):
            counts[m.route] = counts.get(m.route, 0) + 1
    return sorted(r for r, n in counts.items() if n == 1), sorted(r for r, n in counts.items() if n > 1)


def click_message(w, route_id: int) -> dict:
    k = route_trace_index(w.fig)
    trace = w.fig.data[k]
    i = list(trace.customdata).index(route_id)
    return {
        "event_type": "plotly_click",
        "points": {"trace_indexes": [k], "point_indexes": [i], "xs": [trace.x[i]], "ys": [trace.y[i]]},
        "device_state": {"alt": False, "ctrl": False, "meta": False, "shift": False, "button": 0, "buttons": 1},
        "selector": None,
    }


def timed(action) -> tuple[float, int]:
    before = JsonComm.sent
    t0 = time.perf_counter()
    action()
    return (time.perf_counter() - t0) * 1000, JsonComm.sent - before


def report(name: str, samples: list[tuple[float, int]]) -> None:
    ms = sorted(s[0] for s in samples)
    kb = statistics.mean(s[1] for s in samples) / 1024
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    print(
        f"{name:<46} median {statistics.median(ms):6.1f} ms   p90 {p90:6.1f} ms   "
        f"max {ms[-1]:6.1f} ms   {kb:6.1f} KiB sent   (n={len(ms)})"
    )


def state_bytes() -> tuple[int, int, int]:
    """``(bytes, widget models, FigureWidgets)`` of every live widget's state, as JSON."""
    import ipywidgets as W

    state = W.Widget.get_manager_state(drop_defaults=False)["state"]
    figures = sum(1 for s in state.values() if "_widget_data" in s.get("state", {}))
    return len(json.dumps(state)), len(state), figures


def print_state_sizes() -> None:
    from ttr_lab.bots import play_game
    from ttr_lab.records import Record
    from ttr_lab.widgets import HistoryWidget

    ttr_lab.play("usa", players=["You", "bot"], seed=7)
    n, models, figs = state_bytes()
    print(f"play widget: {n / 1e6:.2f} MB of widget state ({models} models, {figs} FigureWidget)")
    finished = play_game("usa", [make_bot("greedy", seed=1), make_bot("random", seed=2)], seed=7)
    HistoryWidget(Record.from_state(finished), ply=40)
    n, models, figs = state_bytes()
    print(f"notebook 02 (play + history widgets): {n / 1e6:.2f} MB ({models} models, {figs} FigureWidget)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--state", action="store_true", help="print the widget state's size instead")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--routes", type=int, default=20, help="routes claimed before measuring")
    args = ap.parse_args()
    if args.state:
        print_state_sizes()
        return
    comm.create_comm = JsonComm

    w = mid_game(args.seed, args.routes)
    g = w.game
    print(
        f"USA, You vs bot, seed {args.seed}: ply {g.ply}, {len(g.route_owners())} routes claimed, "
        f"hand {g.hand_size(0)} cards"
    )

    claims, asks, confirms, draws, redraws = [], [], [], [], []
    single, several = claimable_routes(g)
    for rid in (single * args.repeat)[: args.repeat]:
        message = click_message(w, rid)
        claims.append(timed(lambda m=message: setattr(w.fig, "_js2py_pointsCallback", m)))
        assert g.route_owner(rid) == 0, w.status
        w.undo()
    for rid in (several * args.repeat)[: args.repeat]:
        message = click_message(w, rid)
        asks.append(timed(lambda m=message: setattr(w.fig, "_js2py_pointsCallback", m)))
        confirms.append(timed(w._confirm_claim))
        assert g.route_owner(rid) == 0, w.status
        w.undo()
    for _ in range(args.repeat):
        slot = next(i for i, c in enumerate(g.row, 1) if c != "loco")
        draws.append(timed(lambda s=slot: w.click_faceup(s)))
        w._deck.click()  # the second card (the bot replies); undone below
        w.undo()
        w.undo()
    for _ in range(args.repeat):
        redraws.append(timed(lambda: update_board(w.fig, g, **w._board_options())))

    if claims:
        report("route click -> claimed, bot replied, redrawn", claims)
    if asks:
        report("route click -> payment choice shown", asks)
        report("Confirm click -> claimed, bot replied, redrawn", confirms)
    report("face-up card click -> redrawn", draws)
    report("update_board alone (figure + synced state)", redraws)
    w.play_move(DrawBlind())
    print("target: under 100 ms from click to updated figure")


if __name__ == "__main__":
    main()
