"""What the advisor answers with, and the pieces its searches share.

:class:`Advice` (every player's win chance and expected score, and the
ranked candidates) and :class:`MoveAdvice` (one candidate: its win chance
with a 95% interval, the playouts behind it, why) are what
:func:`~ttr_lab.analysis.advise` and :func:`~ttr_lab.analysis.ismcts` return;
``_Stats`` totals one candidate's playouts, :func:`paired` compares two
candidates on the states both played, and the constants say how a playout is
valued and when the advisor leaves the playout policy's move.

>>> from ttr_lab import DrawTickets
>>> m = MoveAdvice(move=DrawTickets(), win_probability=0.5, interval=(0.4, 0.6), expected_score=80.0, playouts=40)
>>> print(m)
tickets: 50% (40-60%, 40 playouts)
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...engine.moves import Move

if TYPE_CHECKING:  # pragma: no cover
    from ...bots.kernel import Finish

__all__ = [
    "Advice",
    "MoveAdvice",
    "paired",
    "in_notebook",
    "MARGIN",
    "RANKING",
    "Z_DEVIATE",
    "DELTA_DEVIATE",
    "MAX_TIMED_PLAYOUTS",
]

#: the value of a playout for the seat: its win share plus so much per point of
#: score margin over the best other seat (a 10-point lead counts 0.1 of a win),
#: which separates moves far better than wins alone at small budgets
MARGIN = 0.01
#: the advisor leaves the playout policy's own move only for a move better by
#: so many standard errors of the paired difference: the best of up to nine other
#: candidates is tested against the policy's move, and with 2 (a one-sided 2.5% test
#: for one comparison) the best of nine equal moves passed by luck about one time in
#: five; 3 is about Bonferroni's 2.5% for nine.  On 40 held-out positions the top move
#: at 2,000 playouts agreed with an independent 10x run's in 85.0% [70.9, 92.9] (USA)
#: and 85.0% (Europe) with 3 and 0.05, 77.5% and 82.5% with 2 and 0.02
#: (benchmarks/README.md, "The advisor's budgets with the kernel"; the Hint's
#: budget is now 4,000: widgets.advice.HINT_PLAYOUTS)
Z_DEVIATE = 3.0
#: ... and by at least so much value (win share plus MARGIN a point): gains of
#: 0.02-0.05 were the ones a 10x run found and the Hint's budget could not see
DELTA_DEVIATE = 0.05


#: the most playouts a time budget (``advise(view, seconds=...)``) uses unless told
#: (``max_playouts``): about 4 s of the compiled kernel on a mid-game USA 2-player
#: position; it also bounds the guessed states a search keeps (one per playout at most)
MAX_TIMED_PLAYOUTS = 20_000

#: how :func:`~ttr_lab.analysis.advise` orders its moves, in one line for people
RANKING = (
    "(ranked by how long each move survived the halving, fewer playouts meaning dropped earlier, then by "
    "value; the policy's move stays first unless another is clearly better)"
)


@dataclass(frozen=True)
class MoveAdvice:
    """One candidate move: its win chance for the seat (with a 95% interval),
    the seat's expected final score, the playouts behind them, and why."""

    move: Move
    win_probability: float
    interval: tuple[float, float]
    expected_score: float
    playouts: int
    explanation: str = ""
    win_probabilities: tuple[float, ...] = field(default=(), repr=False)
    expected_scores: tuple[float, ...] = field(default=(), repr=False)
    #: the playout policy's own move (first unless another is clearly better)
    policy: bool = field(default=False, repr=False)

    def __str__(self) -> str:
        lo, hi = self.interval
        mark = " (the policy's move)" if self.policy else ""
        return (
            f"{self.move}{mark}: {100 * self.win_probability:.0f}% "
            f"({100 * lo:.0f}-{100 * hi:.0f}%, {self.playouts} playouts)"
        )


@dataclass(frozen=True)
class Advice:
    """What :func:`advise` found: every player's win chance and expected score,
    and the ranked candidate moves (empty when the seat is not to move)."""

    player: int
    win_probabilities: tuple[float, ...]
    expected_scores: tuple[float, ...]
    moves: tuple[MoveAdvice, ...]
    #: the playouts played (with a time budget, as many as fit: it varies with the machine)
    playouts: int
    seconds: float = field(default=0.0, compare=False)
    #: True when a time budget ran out before its ``max_playouts``
    timed_out: bool = field(default=False, compare=False)

    @property
    def best(self) -> MoveAdvice | None:
        """The top move, or None."""
        return self.moves[0] if self.moves else None

    def __str__(self) -> str:
        chances = ", ".join(f"seat {p}: {100 * w:.0f}%" for p, w in enumerate(self.win_probabilities))
        budget = f"{self.playouts} playouts{', as many as the time allowed' if self.timed_out else ''}"
        lines = [f"win chances from seat {self.player}'s view ({budget}): {chances}"]
        if self.moves:
            lines.append(RANKING)
        for i, m in enumerate(self.moves[:5], 1):
            lines.append(f"{i}. {m}")
            if m.explanation:
                lines.append(f"   {m.explanation}")
        return "\n".join(lines)


class _Stats:
    """Running totals of one candidate's playouts, and each playout's value
    for the seat by state index (for paired comparisons)."""

    __slots__ = ("n", "wins", "scores", "me", "values", "win_values")

    def __init__(self, players: int, me: int) -> None:
        self.n = 0
        self.me = me
        self.wins = [0.0] * players
        self.scores = [0.0] * players
        self.values: dict[int, float] = {}
        self.win_values: dict[int, float] = {}

    def add(self, end: Finish, j: int) -> None:
        out = end.outcome()
        winners = out.winners
        for w in winners:
            self.wins[w] += 1.0 / len(winners)
        scores = out.scores
        for p, s in enumerate(scores):
            self.scores[p] += s
        self.n += 1
        me = self.me
        others = [s for p, s in enumerate(scores) if p != me]
        margin = scores[me] - (max(others) if others else 0)
        win = 1.0 / len(winners) if me in winners else 0.0
        self.win_values[j] = win
        self.values[j] = win + MARGIN * margin

    def key(self) -> float:
        """Win share plus :data:`MARGIN` per point of score margin, averaged."""
        return sum(self.values.values()) / max(1, self.n)


def paired(a: Any, b: Any) -> tuple[float, float, int]:
    """Mean and standard error of ``a``'s value minus ``b``'s on the states
    both played (``.values``: state index -> value)."""
    common = [j for j in a.values if j in b.values]
    n = len(common)
    if n < 2:
        return 0.0, math.inf, n
    d = [a.values[j] - b.values[j] for j in common]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n), n


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (for the default progress bar)."""
    ip = sys.modules.get("IPython")
    shell = ip.get_ipython() if ip is not None else None  # type: ignore[attr-defined]
    return type(shell).__name__ == "ZMQInteractiveShell"


def _progress(show: bool | None, total: int) -> Any:
    if show is None:
        show = in_notebook()
    if not show:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is in the [sim] extra
        return None
    return tqdm(total=total, desc="playouts", leave=False)
