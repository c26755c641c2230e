"""Review a whole game: every player's win chance after every ply, and the
moves that threw chances away.

:func:`review` replays a record (or a game state's moves) and, at each ply,
takes the **mover's own view** (or ``player``'s, when given) and plays, on
the same determinized states with the same playout seeds
(:func:`~ttr_lab.analysis.advisor.evaluate_moves`):

* the move actually played, then everyone plays the playout policy: that
  gives every player's win chance *after the ply*;
* the playout policy's own move instead: the reference.

The mover's **drop** is the reference's win chance minus the played move's
(paired on the same states, so most of the luck cancels), with its standard
error.  A move the policy would have played has no drop.

Thresholds (``THRESHOLDS``, in win-percentage points)
-----------------------------------------------------
Lichess flags drops of 5/10/15 points in chess (0.1/0.2/0.3 on its -1..1
scale).  Ticket to Ride is a game of chance with up to five players: a
seat's chance moves by several points on a single blind draw, and the
estimate from a few dozen playouts is noisy (a 2-player USA ply reviewed at
48 playouts a move: a standard error of 3-10 points on the drop).  So a flag
needs a margin beyond noise: a move gets the worst flag whose threshold the
drop's **lower bound**, the drop minus :data:`FLAG_Z` (1.96) standard errors,
reaches (the drop is at least that large with 97.5% confidence):

=================  ============
``inaccuracy``     >= 5 points
``mistake``        >= 10 points
``blunder``        >= 20 points
=================  ============

Before issue 23 a flag needed only the drop itself to reach the threshold
and to be 1.96 standard errors above zero; reviewing whole 2-player USA
games at 50 playouts a move and again at 500 (``benchmarks/bench_review.py
--whole``, 6 games, 769 plies), 7 of that rule's 19 flags at 50 were no
flags at 500: a drop just over a threshold, or just significant, at one budget
was not at the other.  With the lower bound, 10 of its 12 flags at 50 are
flags at 500 too (83%, [55, 95]; ``benchmarks/README.md``, "The advisor's
budgets with the kernel").  A flag's level is the least the move surely
cost, so a 22-point drop seen with a standard error of 4 points is a
mistake, not a blunder.

A blunder is set higher than lichess's 15 because, in a many-player game, a
drop of 15 points is common when a seat's win chance is redistributed among
the others by an ordinary risky choice (new tickets, a long route).

**Confirmation.**  A drop of at least 5 points that is not yet flagged
is played again with :data:`CONFIRM` (4) times the playouts, the first look
included (same states and seeds), and judged on that.  It costs little
(most plies are the policy's own move, or clearly fine) and catches most
real errors that one small look misses.  A drop of 5 points or more seen in
fewer than :data:`CONFIRM_MIN` (40) paired playouts is played again with at
least that many, significant or not: with a handful of playouts the standard
error itself is too noisy to trust (at 6 playouts a move, two "blunders" of
a sample game vanished at 60).

**How well it works** (``benchmarks/bench_review.py``: known bad moves
injected at known plies of playout-policy games, judged by a truth at 300
playouts a move; figures with their 95% intervals in ``benchmarks/README.md``,
"Ticket odds and game review checks"): at 48 playouts a move it flags
nearly every injected move that truly costs 20 points or more and most of
those costing 10-20, flags almost no move that costs under 5, and keeps the
same flag on a rerun with another seed for most plies.  Moves costing 5-10
points are caught about half the time: that needs more playouts.  (Those
figures are from the rule before the lower bound, which flags more often.)

Examples
--------
>>> import ttr_lab
>>> from ttr_lab.bots import make_bot, play_game
>>> g = play_game("usa", [make_bot("playout", 1), make_bot("greedy", 2)], seed=3)
>>> df = review(g, playouts=4, plies=range(10, 13))
>>> list(df.columns[:6])
['ply', 'seat', 'move', 'drop', 'drop_se', 'flag']
>>> len(df), round(float(df[["win_0", "win_1"]].sum(axis=1).iloc[0]), 6)
(3, 1.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..bots.playout import PlayoutBot
from ..engine.checks import MAX_SEED, check_count, check_seconds, check_seed, take_at_most
from ..engine.moves import Move, parse_move, show_value
from ..errors import TtrError
from ..io.extras import missing_extra
from ..records.chance import seen_text
from .advisor.ranking import evaluate_moves
from .advisor.values import MARGIN, in_notebook, paired

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.state import GameState

__all__ = ["CONFIRM", "CONFIRM_MIN", "FLAG_Z", "THRESHOLDS", "classify", "review", "review_figure"]

#: the flags, from the worst, with their drop in win-percentage points
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 20.0), ("mistake", 10.0), ("inaccuracy", 5.0))
#: a flag's threshold must be reached by the drop minus so many standard errors
#: (its 97.5% one-sided lower bound): a flag needs a margin beyond the noise
FLAG_Z = 1.96
#: a drop of at least the lowest threshold that is not yet flagged is
#: played again with so many times the playouts
CONFIRM = 4
#: fewer paired playouts than this cannot support a flag (their standard error
#: is itself too noisy): such a drop is played again with at least so many
CONFIRM_MIN = 40
#: the ranges of :func:`review`'s budgets: playouts per move and ply, seconds per ply,
#: ``confirm``, and the entries of ``plies`` (a game has a few hundred plies)
MAX_REVIEW_PLAYOUTS = 100_000
MAX_SECONDS_PER_PLY = 3600
MAX_CONFIRM = 10
MAX_PLIES = 100_000


def classify(drop: float, se: float) -> str:
    """The flag of a drop (a probability, 0..1) with standard error ``se``:
    the worst of :data:`THRESHOLDS` that ``drop - FLAG_Z * se`` reaches, ``""`` when none.

    >>> classify(0.16, 0.02), classify(0.12, 0.03), classify(0.12, 0.08), classify(0.25, 0.01), classify(-0.3, 0.01)
    ('mistake', 'inaccuracy', '', 'blunder', '')
    """
    low = 100 * (drop - FLAG_Z * se)
    if not low > 0:  # NaN too
        return ""
    for name, points in THRESHOLDS:
        if low >= points:
            return name
    return ""


def _pandas() -> Any:
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - pandas is in the [sim] extra
        raise missing_extra("sim", "review", "pandas") from e
    return pd


def _start_and_moves(record: Any) -> tuple[GameState, list[Move]]:
    """The initial state and the moves of a record or of a state's move stack."""
    if hasattr(record, "replay") and hasattr(record, "moves"):
        record.replay()  # every move checked first: a record that does not replay is refused, naming the ply
        start = record.replay(upto=0)
        return start, [parse_move(t) for t in record.moves]
    if hasattr(record, "move_stack") and hasattr(record, "copy"):
        moves = list(record.move_stack)
        start = record.copy(stack=True)
        while start.move_stack:
            start.pop()
        return start, moves
    raise TtrError(f"review takes a Record or a GameState, not {type(record).__name__}")


def _plies(plies: Any) -> set[int]:
    """``plies`` as a set of whole numbers (any int, numpy's too, but no bool
    or float), refusing more than :data:`MAX_PLIES` entries."""
    out = set()
    for k in take_at_most(plies, MAX_PLIES, "plies"):
        if isinstance(k, bool) or not hasattr(type(k), "__index__"):
            raise TtrError(f"plies must hold whole numbers (1-based plies), not {show_value(k)}")
        out.add(k.__index__())
    return out


def review(
    record: Any,
    player: int | None = None,
    *,
    seconds_per_ply: float = 0.5,
    playouts: int | None = None,
    seed: int = 0,
    plies: Iterable[int] | None = None,
    progress: bool | None = None,
    confirm: int = CONFIRM,
) -> Any:
    """A pandas DataFrame, one row per reviewed ply (see the module doc).

    Parameters
    ----------
    record : Record or GameState
        The game (a state is reviewed from its first move).  A seat record
        (kept from one seat, ``Record.from_state(game, seat=...)``) is
        reviewed from that seat's view, its moves shown as the seat saw them.
    player : int, optional
        Review from this seat's view only (its moves get drops and flags;
        after other seats' moves its view gives the win chances).  Default:
        each ply from the mover's own view.
    seconds_per_ply : float
        Wall-clock budget per ply (when ``playouts`` is None), above 0 and
        at most :data:`MAX_SECONDS_PER_PLY`.
    playouts : int, optional
        Playouts per move and ply (deterministic), 1 to :data:`MAX_REVIEW_PLAYOUTS`.
    seed : int
        Same seed, same review (with ``playouts``); 0 to ``2**128 - 1``.
    plies : iterable of int, optional
        Review only these plies (1-based, as in a record; default: all; at
        most :data:`MAX_PLIES` entries; plies the game does not have are skipped).
    confirm : int
        A drop that may be a flag is played again with so many times the
        playouts (1 to :data:`MAX_CONFIRM`; 1: never).

    Every argument is checked before any playout: a wrong type or a value
    out of its range is a TtrError naming it.

    Columns: ``ply`` (1-based), ``seat`` (the mover), ``move``, ``drop`` and
    ``drop_se`` (the mover's win-chance drop against the playout policy's
    move, as a probability; NaN where not judged), ``flag``, ``best`` (the
    policy's move when it differs), ``view`` (the seat whose view was used),
    ``win_0``.. (every player's win chance after the ply), ``score_0``..
    (expected final scores), ``playouts``.
    """
    pd = _pandas()
    if player is not None and (type(player) is not int or player < 0):
        raise TtrError(f"player is a seat number, not {player!r}")
    if playouts is not None:
        check_count(playouts, "playouts", high=MAX_REVIEW_PLAYOUTS)
    check_seconds(seconds_per_ply, "seconds_per_ply", high=MAX_SECONDS_PER_PLY)
    check_seed(seed)
    check_count(confirm, "confirm", high=MAX_CONFIRM)
    chosen = None if plies is None else _plies(plies)
    texts = None
    if hasattr(record, "moves") and type(getattr(record, "seat", None)) is int:  # a seat record: its seat's view
        if player is not None and player != record.seat:
            raise TtrError(f"a seat record of seat {record.seat} shows no other seat's view")
        player, texts = record.seat, list(record.moves)
        record = record.replay()
    state, moves = _start_and_moves(record)
    n = state.num_players
    if player is not None and player >= n:
        raise TtrError(f"player {player} is not a seat of this {n}-player game")
    wanted = set(range(1, len(moves) + 1)) if chosen is None else chosen
    bar = None
    if progress or (progress is None and in_notebook()):
        try:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(wanted & set(range(1, len(moves) + 1))), desc="review", leave=False)
        except ImportError:  # pragma: no cover
            bar = None
    rows = []
    for k, move in enumerate(moves, 1):
        if k in wanted and not state.is_over:
            mover = state.current_player
            seat = mover if player is None else player
            shown = seen_text(state, move, seat)  # from one seat's view: others' secrets stay hidden
            view = state.view(seat)
            judged = seat == mover
            cands: list[Move] = [move]
            policy = PlayoutBot(0).choose(view) if judged else None
            if policy is not None and policy != move:
                cands.append(policy)
            budget = None if playouts is None else playouts * len(cands)
            secs = float(seconds_per_ply) if playouts is None else 1.0
            t0 = time.perf_counter()
            res, used = evaluate_moves(
                view,
                cands if judged else None,
                playouts=budget,
                seconds=secs,
                seed=(seed * 1_000_003 + k) % (MAX_SEED + 1),
                halving=False,
            )
            drop, se, mdrop, mse = _drops(res, judged)
            few = len(res) > 1 and min(res[0][1].n, res[1][1].n) < CONFIRM_MIN
            if len(res) > 1 and confirm > 1 and (few or not classify(drop, se)) and 100 * drop >= THRESHOLDS[-1][1]:
                # a drop that looks like a flag but is not yet clearly beyond a
                # threshold, or seen in too few playouts: play it again with `confirm`
                # times the playouts, and at least CONFIRM_MIN a move (the same
                # states and seeds first, so the first look is included)
                res, more = evaluate_moves(
                    view,
                    cands,
                    playouts=None if budget is None else max(budget * confirm, CONFIRM_MIN * len(cands)),
                    seconds=secs * confirm,
                    seed=(seed * 1_000_003 + k) % (MAX_SEED + 1),
                    halving=False,
                )
                used += more
                drop, se, mdrop, mse = _drops(res, judged)
            after = res[0][1]
            m = max(1, after.n)
            row = {
                "ply": k,
                "seat": mover,
                "move": texts[k - 1] if texts is not None else str(move) if player is None else shown,
                "drop": drop,
                "drop_se": se,
                "flag": classify(drop, se) if judged and not math.isnan(drop) else "",
                "best": str(policy) if policy is not None and policy != move else "",
                "view": seat,
                "playouts": used,
                "seconds": time.perf_counter() - t0,
                "margin_drop": mdrop,
                "margin_se": mse,
            }
            for q in range(n):
                row[f"win_{q}"] = after.wins[q] / m
            for q in range(n):
                row[f"score_{q}"] = after.scores[q] / m
            rows.append(row)
            if bar is not None:
                bar.update(1)
        state.push(move)
    if bar is not None:
        bar.close()
    columns = ["ply", "seat", "move", "drop", "drop_se", "flag", "best", "view"]
    columns += [f"win_{q}" for q in range(n)] + [f"score_{q}" for q in range(n)]
    columns += ["playouts", "seconds", "margin_drop", "margin_se"]
    return pd.DataFrame(rows, columns=columns)


class _Values:
    """A candidate's playouts seen as wins only, or as score margins (for the paired drops)."""

    def __init__(self, values: dict[int, float]) -> None:
        self.values = values


def _drops(res: list[Any], judged: bool) -> tuple[float, float, float, float]:
    """The mover's drop in win chance and in score margin (points), with
    their standard errors: the reference (``res[1]``) minus the move played."""
    if not judged:
        return math.nan, math.nan, math.nan, math.nan
    if len(res) < 2:
        return 0.0, 0.0, 0.0, 0.0
    a, r = res[0][1], res[1][1]
    drop, se, _ = paired(_Values(r.win_values), _Values(a.win_values))

    def margins(s: Any) -> _Values:
        return _Values({j: (v - s.win_values[j]) / MARGIN for j, v in s.values.items()})

    mdrop, mse, _ = paired(margins(r), margins(a))
    return drop, se, mdrop, mse


def review_figure(df: Any, *, names: Iterable[str] | None = None, current: int | None = None) -> Any:
    """A plotly figure of every player's win chance across the game, with the
    flagged moves marked (hover: the move, its drop and the policy's move).
    Each point's ``customdata`` is its ply, so a widget can jump there on a
    click (``FigureWidget`` traces' ``on_click``); ``current`` draws a line at a ply.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"ply": [1, 2], "seat": [0, 1], "move": ["blind", "tickets"], "drop": [0.0, 0.2],
    ...                    "drop_se": [0.0, 0.01], "flag": ["", "blunder"], "best": ["", "blind"],
    ...                    "win_0": [0.5, 0.7], "win_1": [0.5, 0.3]})
    >>> fig = review_figure(df, names=["Ada", "Bob"])
    >>> [t.name for t in fig.data]
    ['Ada', 'Bob', 'blunder']
    """
    try:
        import plotly.graph_objects as go
    except ImportError as e:  # pragma: no cover - plotly is in the [lab] extra
        raise missing_extra("lab", "the review figure", "plotly") from e
    seats = sorted(int(c[4:]) for c in df.columns if c.startswith("win_"))
    labels = list(names) if names is not None else [f"seat {q}" for q in seats]
    fig = go.Figure()
    for q in seats:
        fig.add_trace(
            go.Scatter(
                x=df["ply"],
                y=100 * df[f"win_{q}"],
                mode="lines+markers",
                name=labels[q],
                customdata=df["ply"],
                text=df["move"],
                hovertemplate="ply %{customdata}: %{text}<br>" + labels[q] + " %{y:.0f}%<extra></extra>",
            )
        )
    marks = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    for flag, sym in marks.items():
        sel = df[df["flag"] == flag]
        if len(sel) == 0:
            continue
        y = [100 * sel[f"win_{int(s)}"].iloc[i] for i, s in enumerate(sel["seat"])]
        hover = [
            f"ply {p}: {labels[int(s)]} {m} ({sym}), -{100 * d:.0f} points; the policy: {b}"
            for p, s, m, d, b in zip(sel["ply"], sel["seat"], sel["move"], sel["drop"], sel["best"])
        ]
        fig.add_trace(
            go.Scatter(
                x=sel["ply"],
                y=y,
                mode="markers+text",
                name=flag,
                text=[sym] * len(sel),
                textposition="top center",
                marker={"size": 12, "symbol": "x"},
                customdata=sel["ply"],
                hovertext=hover,
                hoverinfo="text",
            )
        )
    if current is not None:
        fig.add_vline(x=current, line_dash="dot")
    fig.update_layout(
        xaxis_title="ply", yaxis_title="win chance (%)", yaxis_range=[0, 100], height=320, margin={"t": 30}
    )
    return fig
