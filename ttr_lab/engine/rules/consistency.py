"""What a valid position is: the one place that knows (``GameState.problems()``).

Every reachable position passes these checks; a loaded position that fails
one is refused.  They cover conservation (every card, piece and ticket is
somewhere, once), the running scores, the counters, and the phase: which
decisions can be due, and what must hold when each is.  Editions add their
own through the hooks :meth:`Consistency.cards_elsewhere`,
:meth:`Consistency.tickets_elsewhere`, :meth:`Consistency.score_offset` and
:meth:`Consistency.piece_problems`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..phases import Phase
from .setup import Setup

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["Consistency", "MAX_COUNTER"]

#: the largest value a counter (turns, shuffles, resets) may hold in a position
MAX_COUNTER = 10**6

_SETUP, _KEEP, _OVER = int(Phase.SETUP_TICKETS), int(Phase.KEEP_TICKETS), int(Phase.GAME_OVER)


def _cards(counts: Sequence[int], piles: Sequence[str]) -> str:
    """``"3 train and 7 ship cards"``."""
    return " and ".join(f"{k} {name}" for k, name in zip(counts, piles)) + " cards"


class Consistency(Setup):
    """Conservation and consistency checks of a position."""

    # --------------------------------------------------------------- hooks
    def cards_elsewhere(self, s: GameState) -> list[int]:
        """Cards outside decks, discards, row and hands (e.g. a tunnel's reveal).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.cards_elsewhere(g)
        []
        """
        return []

    def tickets_elsewhere(self, s: GameState) -> list[int]:
        """Tickets held somewhere besides deck, hands and pending (e.g. the box).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.tickets_elsewhere(g)
        []
        """
        return []

    def score_offset(self, s: GameState, player: int) -> int:
        """Running-score points that are not route points (e.g. exchanges).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.score_offset(g, 0)
        0
        """
        return 0

    def placed(self, s: GameState, p: int) -> int:
        """Pieces seat ``p`` has placed on its routes.

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.set_owner(g, 0, 1)
        >>> ed.placed(g, 1)
        2
        """
        return sum(self.route_length[i] for i, o in enumerate(s._owners) if o == p)

    def piece_problems(self, s: GameState) -> list[str]:
        """Every way the pieces break conservation (placed + in supply = the edition's ``pieces``).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.piece_problems(g)
        []
        >>> ed.set_owner(g, 0, 1)
        >>> ed.piece_problems(g)
        ['player 1 has 45 trains and 2 placed, expected 45 in all']
        """
        out = []
        for p in range(s.n):
            if s._pieces[p] < 0:
                out.append(f"player {p} has a negative number of trains ({s._pieces[p]})")
            placed = self.placed(s, p)
            if placed + s._pieces[p] != self.pieces:
                out.append(f"player {p} has {s._pieces[p]} trains and {placed} placed, expected {self.pieces} in all")
        return out

    # --------------------------------------------------------------- the checks
    def problems(self, s: GameState) -> list[str]:
        """Every way the position breaks the rules (an empty list when all is well).

        >>> import ttr_lab; g = ttr_lab.new_game("usa", players=2, seed=1); ed = g.edition
        >>> ed.problems(g)
        []
        >>> ed.add_score(g, 0, 3)
        >>> ed.problems(g)
        ['the initial tickets are being chosen, but the running scores are [3, 0], not all 0', "player 0's running score 3 differs from the recount 0"]
        """
        out = self._phase_problems(s)
        out += self._setup_problems(s)
        out += self._card_problems(s)
        out += self.piece_problems(s)
        out += self._ticket_problems(s)
        out += self._score_problems(s)
        return out

    def _phase_problems(self, s: GameState) -> list[str]:
        out = []
        if s._phase not in {int(p) for p in self.phase_list}:
            names = ", ".join(p.name.lower() for p in self.phase_list)
            out.append(f"phase {Phase.of(s._phase).name.lower()} does not exist in {self.name} (phases: {names})")
        for name in ("_cur", "_first"):
            if not 0 <= getattr(s, name) < s.n:
                out.append(f"seat {getattr(s, name)} ({name[1:]}) is not a seat of a {s.n}-player game")
        for name in ("_turn", "_shuffles", "_resets"):
            v = getattr(s, name)
            if not 0 <= v <= MAX_COUNTER:
                out.append(f"counter {name[1:]} = {v} is out of range 0..{MAX_COUNTER}")
        if not 0 <= s._passes <= s.n:
            out.append(f"{s._passes} consecutive passes in a {s.n}-player game")
        if not -1 <= s._final <= s.n * self.final_turns:
            out.append(f"{s._final} final turns left, at most {s.n * self.final_turns}")
        if (
            s._final >= 0
            and s._phase != _OVER
            and not any(self.pieces_left(s, p) <= self.end_threshold for p in range(s.n))
        ):
            out.append("the final round has started, but no player is down to the end threshold")
        if s._phase == _OVER and not self.game_over_possible(s):
            out.append("the game is over, but the final round has not ended and the players have not all passed")
        if s._phase != _OVER and s._final == 0:
            out.append("no final turns are left, but the game is not over")
        if s._pending and s._phase not in (_SETUP, _KEEP):
            out.append("tickets are pending, but no ticket choice is due")
        if s._phase == _KEEP and not s._pending:
            out.append("a ticket choice is due, but no tickets were drawn")
        if s._setup_deal and s._phase != _SETUP:
            out.append("initial tickets are dealt only while players choose them at setup")
        return out

    def _setup_problems(self, s: GameState) -> list[str]:
        """While the initial tickets go round (B1) nothing else has happened yet:
        no turn, no claim, no draw; the seats before the chooser (from the first
        player) have kept some of their dealt tickets, the others hold none."""
        if s._phase != _SETUP:
            # (no check that every seat holds tickets afterwards: the position
            # editor builds positions from what one seat knows, tickets or not)
            return []
        due = "the initial tickets are being chosen"
        out = [] if s._setup_deal else [f"{due}, but no initial tickets were dealt"]
        if s._turn or s._passes or s._final != -1:
            out.append(f"{due}, but turns were played (turn {s._turn}, passes {s._passes}, final turns {s._final})")
        claimed = sum(1 for o in s._owners if o >= 0)
        if claimed:
            out.append(f"{due}, but {claimed} routes are claimed")
        if any(s._scores):
            out.append(f"{due}, but the running scores are {list(s._scores)}, not all 0")
        piles = len(self.pile_names)
        for p, hand in enumerate(s._hands):
            held = [0] * piles
            for c, k in enumerate(hand):
                held[self.card_types[c].pile] += k
            if tuple(held) != tuple(self.starting_cards):
                have, start = _cards(held, self.pile_names), _cards(self.starting_cards, self.pile_names)
                out.append(f"{due}, but player {p} holds {have}, not the {start} dealt")
        if len(s._setup_deal) != s.n:
            return out  # a deal of the wrong length: see _ticket_problems
        chosen = set()
        q = s._first
        while q != s._cur:
            chosen.add(q)
            q = (q + 1) % s.n
        for p in range(s.n):
            kept, dealt = s._tickets[p], s._setup_deal[p]
            if p not in chosen and kept:
                out.append(f"{due}, but player {p} holds tickets before choosing")
            elif p in chosen and not set(kept) <= set(dealt):
                out.append(f"player {p} kept initial tickets {list(kept)}, not all from the {list(dealt)} dealt")
            elif p in chosen and len(kept) < min(self.setup_tickets[1], len(dealt)):
                out.append(f"player {p} kept {len(kept)} initial tickets, fewer than {self.setup_tickets[1]}")
        return out

    def _card_problems(self, s: GameState) -> list[str]:
        out: list[str] = []
        n = len(self.card_types)
        counts = [0] * n
        for seq in s._decks + s._discards + (s._row,):
            for c in seq:
                if c >= 0:
                    counts[c] += 1
        for h in s._hands:
            for c, k in enumerate(h):
                counts[c] += k
        for c in self.cards_elsewhere(s):
            counts[c] += 1
        want = [0] * n
        for pile in self.deck_composition:
            for c, k in pile:
                want[c] += k
        for c in range(n):
            if counts[c] != want[c]:
                out.append(f"{counts[c]} {self.card_types[c].name} cards in play, expected {want[c]}")
        for k, seq in enumerate(s._decks + s._discards):
            for c in seq:
                if self.card_types[c].pile != k % len(self.pile_names):
                    out.append(f"card {self.card_types[c].name} in the wrong pile")
                    break
        if len(s._row) != self.row_size:
            out.append(f"the row has {len(s._row)} slots, expected {self.row_size}")
        elif -1 in s._row and self.any_cards(s):
            out.append("a face-up slot is empty although a card could be drawn for it (A3)")
        elif (
            self.options["max_consecutive_resets"] is None
            and self.wilds_in_row(s) >= 3
            and self.any_cards(s)
            and not self.reset_futile(s)
        ):
            out.append("the row shows three or more wilds although a reset could succeed (A3)")
        return out

    def _ticket_problems(self, s: GameState) -> list[str]:
        out = []
        seen: list[int] = list(s._tdeck) + list(s._pending) + [t for ts in s._tickets for t in ts]
        if s._phase == _SETUP and s._setup_deal:
            if len(s._setup_deal) != s.n:
                out.append(f"initial tickets are dealt to {len(s._setup_deal)} seats, expected {s.n}")
            else:
                # players after the current chooser (in seat order, until the
                # first player comes round again) still hold their dealt tickets
                p = (s._cur + 1) % s.n
                while p != s._first:
                    seen += list(s._setup_deal[p])
                    p = (p + 1) % s.n
                if tuple(s._pending) != tuple(s._setup_deal[s._cur]):
                    out.append("the pending tickets are not the current chooser's initial tickets")
        seen += self.tickets_elsewhere(s)
        universe = set(self.ticket_universe())
        counts: dict[int, int] = {}
        for t in seen:
            counts[t] = counts.get(t, 0) + 1
        dupes = sorted(t for t, k in counts.items() if k > 1)
        if dupes:
            out.append(f"tickets {dupes} appear twice")
        unknown = sorted(t for t in counts if t not in universe)
        if unknown:
            out.append(f"tickets {unknown} are not in this edition's deck")
        missing = universe - set(counts)
        if missing:
            out.append(f"tickets {sorted(missing)} are missing")
        return out

    def _score_problems(self, s: GameState) -> list[str]:
        out = []
        for p in range(s.n):
            routes = sum(self.route_points[self.route_length[i]] for i, o in enumerate(s._owners) if o == p)
            expect = routes + self.score_offset(s, p)
            if s._scores[p] != expect:
                out.append(f"player {p}'s running score {s._scores[p]} differs from the recount {expect}")
        return out
