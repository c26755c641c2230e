"""Score breakdowns as data: a ticket's result, a player's score, the outcome."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...maps.loading import Ticket

__all__ = ["TicketResult", "TourResult", "PlayerScore", "Outcome"]


@dataclass(frozen=True)
class TicketResult:
    """One ticket at scoring time: completed or not, its points, and the
    routes (ids, in order from the first city) that complete it."""

    ticket: Ticket
    completed: bool
    points: int
    path: tuple[int, ...] = ()

    def __str__(self) -> str:
        mark = "hit " if self.completed else "miss"
        return f"{mark} {self.ticket.label()} {self.points:+d}"


@dataclass(frozen=True)
class TourResult(TicketResult):
    """A tour ticket at scoring time; ``how`` says which value applied:
    ``"in order"``, ``"any order"`` or ``"failed"``."""

    how: str = ""

    def __str__(self) -> str:
        mark = "hit " if self.completed else "miss"
        return f"{mark} {self.ticket.label()} {self.points:+d} (tour, {self.how})"


@dataclass(frozen=True)
class PlayerScore:
    """The final-score breakdown of one player."""

    player: int
    name: str
    routes: tuple[int, ...]
    route_points: int
    tickets: tuple[TicketResult, ...]
    longest_path: int
    longest_path_routes: tuple[int, ...]
    bonuses: tuple[tuple[str, int], ...]
    adjustments: tuple[tuple[str, int], ...] = ()
    total: int = 0

    @property
    def tickets_completed(self) -> int:
        return sum(1 for t in self.tickets if t.completed)

    @property
    def ticket_points(self) -> int:
        return sum(t.points for t in self.tickets)

    @property
    def bonus_points(self) -> int:
        return sum(v for _, v in self.bonuses)

    def lines(self) -> list[str]:
        """A printable breakdown."""
        out = [f"{self.name}: {self.total} points"]
        out.append(f"  routes ({len(self.routes)}): {self.route_points}")
        for t in self.tickets:
            out.append(f"  ticket {t}")
        bonuses = list(self.bonuses)
        if self.longest_path_routes:  # editions without a path bonus do not compute it
            k = len(self.longest_path_routes)
            line = f"  longest path: {self.longest_path} cars ({k} route{'' if k == 1 else 's'})"
            # the Longest Path card's bonus goes on the same line, in the same words
            card = next((b for b in bonuses if b[0].casefold() == "longest path"), None)
            if card is not None:
                bonuses.remove(card)
                line += f", bonus {card[1]:+d}"
            out.append(line)
        for name, v in bonuses + list(self.adjustments):
            out.append(f"  {name}: {v:+d}")
        return out


@dataclass(frozen=True)
class Outcome:
    """Final scores, the ranking (groups of tied seats, best first) and winners."""

    players: tuple[PlayerScore, ...]
    ranking: tuple[tuple[int, ...], ...]
    tiebreak: tuple[str, ...] = field(default=())

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.total for p in self.players)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    def __str__(self) -> str:
        lines = []
        for p in self.players:
            lines.extend(p.lines())
        names = " and ".join(self.players[w].name for w in self.winners)
        lines.append(f"Winner: {names}" + (f" ({'; '.join(self.tiebreak)})" if self.tiebreak else ""))
        return "\n".join(lines)
